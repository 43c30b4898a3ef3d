//! Claude Code's transcript (`~/.claude/projects/<dir>/<session>.jsonl`), one JSON
//! object a line. Followed: Claude Code 2.1.332 as seen in ENGINEERING-NOTES.md (the
//! Claude Code section: a failed Bash result's content starts `Exit code N\n`, other line
//! types such as `last-prompt` and `attachment`, non-request user lines after a
//! compaction). A line is `{"type":"user"|"assistant"|…,"uuid",…,"message":{"content"}}`;
//! the assistant's `tool_use` blocks (`Edit`, `Write`, `MultiEdit`: `input.file_path`;
//! `NotebookEdit`: `input.notebook_path`; `Bash`: `input.command`) are answered by the
//! user line's `tool_result` blocks (`tool_use_id`, `is_error`, `content`). An edit
//! counts once its result came back without `is_error` (2.1.332 refuses an `Edit` of a
//! file not read first, `is_error: true`: nothing was edited).

use std::collections::HashMap;

use serde_json::Value;

use super::{Builder, Digest, text_of};

pub(super) fn digest(tail: &str) -> Digest {
    let mut b = Builder::default();
    let mut calls = Calls::default();
    for line in tail.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            b.skipped();
            continue;
        };
        let is_claude = v.get("type").is_some_and(Value::is_string)
            && (v.get("uuid").is_some()
                || v.get("sessionId").is_some()
                || v.get("message").is_some())
            && v.get("payload").is_none();
        if !is_claude {
            b.skipped();
            continue;
        }
        let content = v.pointer("/message/content");
        match v["type"].as_str() {
            Some("assistant") => assistant(&mut calls, content),
            Some("user") => user(&mut b, &calls, &v, content),
            _ => {}
        }
    }
    b.finish()
}

/// The tool calls waiting for their results, by `tool_use` id: Bash's command, an
/// edit's file.
#[derive(Default)]
struct Calls {
    commands: HashMap<String, String>,
    edits: HashMap<String, String>,
}

fn assistant(calls: &mut Calls, content: Option<&Value>) {
    for block in content.and_then(Value::as_array).into_iter().flatten() {
        if block["type"] != "tool_use" {
            continue;
        }
        let input = &block["input"];
        let (map, value) = match block["name"].as_str() {
            Some("Edit" | "Write" | "MultiEdit") => (&mut calls.edits, &input["file_path"]),
            Some("NotebookEdit") => (&mut calls.edits, &input["notebook_path"]),
            Some("Bash") => (&mut calls.commands, &input["command"]),
            _ => continue,
        };
        if let (Some(id), Some(v)) = (block["id"].as_str(), value.as_str()) {
            map.insert(id.to_owned(), v.to_owned());
        }
    }
}

fn user(b: &mut Builder, calls: &Calls, v: &Value, content: Option<&Value>) {
    let not_a_request = v["isMeta"] == true
        || v["isCompactSummary"] == true
        || v["isVisibleInTranscriptOnly"] == true
        || v.get("toolUseResult").is_some();
    match content {
        Some(Value::String(text)) if !not_a_request => request(b, text),
        Some(Value::Array(blocks)) => {
            let mut text = String::new();
            for block in blocks {
                match block["type"].as_str() {
                    Some("text") => text.push_str(block["text"].as_str().unwrap_or("")),
                    Some("tool_result") => result(b, calls, block),
                    _ => {}
                }
            }
            if !not_a_request {
                request(b, &text);
            }
        }
        _ => {}
    }
}

/// A user's text is a request unless Claude Code wrote it: a slash command's echo, a
/// local command's output, a reminder, an interruption.
fn request(b: &mut Builder, text: &str) {
    let t = text.trim_start();
    let generated = [
        "<command-",
        "<local-command",
        "<system-reminder>",
        "<bash-",
        "[Request interrupted",
        "Caveat: ",
    ]
    .iter()
    .any(|p| t.starts_with(p));
    if !generated {
        b.request(text);
    }
}

/// An edit's result (the file edited unless it failed), or a failed Bash result:
/// `Exit code N` on its first line, the error after it.
fn result(b: &mut Builder, calls: &Calls, block: &Value) {
    let id = block["tool_use_id"].as_str().unwrap_or_default();
    if let Some(file) = calls.edits.get(id) {
        if block["is_error"] != true {
            b.edited(file);
        }
        return;
    }
    let Some(command) = calls.commands.get(id) else {
        return;
    };
    if block["is_error"] != true {
        return;
    }
    let output = text_of(&block["content"]);
    let mut lines = output.lines();
    let first = lines.next().unwrap_or("");
    let status = first
        .strip_prefix("Exit code ")
        .and_then(|n| n.trim().parse::<i32>().ok());
    let rest = if status.is_some() {
        lines.collect::<Vec<_>>().join("\n")
    } else {
        output.clone()
    };
    b.failed(command, status, &rest);
}
