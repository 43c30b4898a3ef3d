//! Claude Code's transcript (`~/.claude/projects/<dir>/<session>.jsonl`), one JSON
//! object a line. Followed: Claude Code 2.1.332 as seen in ENGINEERING-NOTES.md (the
//! Claude Code section: a failed Bash result's content starts `Exit code N\n`, other line
//! types such as `last-prompt` and `attachment`, non-request user lines after a
//! compaction). A line is `{"type":"user"|"assistant"|…,"uuid",…,"message":{"content"}}`;
//! the assistant's `tool_use` blocks (`Edit`, `Write`, `MultiEdit`: `input.file_path`;
//! `NotebookEdit`: `input.notebook_path`; `Bash`: `input.command`) are answered by the
//! user line's `tool_result` blocks (`tool_use_id`, `is_error`, `content`).

use std::collections::HashMap;

use serde_json::Value;

use super::{Builder, Digest, text_of};

pub(super) fn digest(tail: &str) -> Digest {
    let mut b = Builder::default();
    let mut commands: HashMap<String, String> = HashMap::new();
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
            Some("assistant") => assistant(&mut b, &mut commands, content),
            Some("user") => user(&mut b, &commands, &v, content),
            _ => {}
        }
    }
    b.finish()
}

fn assistant(b: &mut Builder, commands: &mut HashMap<String, String>, content: Option<&Value>) {
    for block in content.and_then(Value::as_array).into_iter().flatten() {
        if block["type"] != "tool_use" {
            continue;
        }
        let input = &block["input"];
        match block["name"].as_str() {
            Some("Edit" | "Write" | "MultiEdit") => {
                if let Some(p) = input["file_path"].as_str() {
                    b.edited(p);
                }
            }
            Some("NotebookEdit") => {
                if let Some(p) = input["notebook_path"].as_str() {
                    b.edited(p);
                }
            }
            Some("Bash") => {
                if let (Some(id), Some(c)) = (block["id"].as_str(), input["command"].as_str()) {
                    commands.insert(id.to_owned(), c.to_owned());
                }
            }
            _ => {}
        }
    }
}

fn user(b: &mut Builder, commands: &HashMap<String, String>, v: &Value, content: Option<&Value>) {
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
                    Some("tool_result") => result(b, commands, block),
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

/// A failed Bash result: `Exit code N` on its first line, the error after it.
fn result(b: &mut Builder, commands: &HashMap<String, String>, block: &Value) {
    let Some(command) = block["tool_use_id"]
        .as_str()
        .and_then(|id| commands.get(id))
    else {
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
