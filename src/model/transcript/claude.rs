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

use serde::Deserialize;
use serde_json::value::RawValue;

use super::{Builder, Digest, text_of};

/// A line as far as it is read: every member a borrowed, unparsed slice (a 3 KB tool
/// result is scanned, never copied into a tree of values), parsed further only where
/// it matters.
#[derive(Deserialize)]
struct Line<'a> {
    #[serde(rename = "type", borrow)]
    kind: Option<&'a RawValue>,
    #[serde(borrow)]
    uuid: Option<&'a RawValue>,
    #[serde(rename = "sessionId", borrow)]
    session_id: Option<&'a RawValue>,
    #[serde(borrow)]
    message: Option<&'a RawValue>,
    #[serde(borrow)]
    payload: Option<&'a RawValue>,
    #[serde(rename = "isMeta", borrow)]
    is_meta: Option<&'a RawValue>,
    #[serde(rename = "isCompactSummary", borrow)]
    is_compact_summary: Option<&'a RawValue>,
    #[serde(rename = "isVisibleInTranscriptOnly", borrow)]
    transcript_only: Option<&'a RawValue>,
    #[serde(rename = "toolUseResult", borrow)]
    tool_use_result: Option<&'a RawValue>,
    #[serde(rename = "lastPrompt", borrow)]
    last_prompt: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow)]
    content: Option<&'a RawValue>,
}

/// A content block: text, a `tool_use` (`id`, `name`, `input`) or a `tool_result`
/// (`tool_use_id`, `is_error`, `content`).
#[derive(Deserialize)]
struct Block<'a> {
    #[serde(rename = "type", borrow)]
    kind: Option<&'a RawValue>,
    #[serde(borrow)]
    text: Option<&'a RawValue>,
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    name: Option<&'a RawValue>,
    #[serde(borrow)]
    input: Option<&'a RawValue>,
    #[serde(borrow)]
    tool_use_id: Option<&'a RawValue>,
    #[serde(borrow)]
    is_error: Option<&'a RawValue>,
    #[serde(borrow)]
    content: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Input<'a> {
    #[serde(borrow)]
    file_path: Option<&'a RawValue>,
    #[serde(borrow)]
    notebook_path: Option<&'a RawValue>,
    #[serde(borrow)]
    command: Option<&'a RawValue>,
}

/// The string a member holds, if it is one.
fn string(raw: Option<&RawValue>) -> Option<String> {
    raw.filter(|r| r.get().starts_with('"'))
        .and_then(|r| serde_json::from_str(r.get()).ok())
}

/// Whether a member is `true`.
fn yes(raw: Option<&RawValue>) -> bool {
    raw.is_some_and(|r| r.get() == "true")
}

/// The blocks of a content array (a block that is not an object is passed over).
fn blocks(content: Option<&RawValue>) -> Vec<Block<'_>> {
    let Some(raw) = content.filter(|r| r.get().starts_with('[')) else {
        return Vec::new();
    };
    serde_json::from_str::<Vec<&RawValue>>(raw.get())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|b| serde_json::from_str(b.get()).ok())
        .collect()
}

pub(super) fn digest(tail: &str) -> Digest {
    let mut b = Builder::default();
    let mut calls = Calls::default();
    let mut last_prompt: Option<String> = None;
    for line in tail.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(v) = serde_json::from_str::<Line<'_>>(line) else {
            b.skipped();
            continue;
        };
        let kind = string(v.kind);
        let is_claude = kind.is_some()
            && (v.uuid.is_some() || v.session_id.is_some() || v.message.is_some())
            && v.payload.is_none();
        if !is_claude {
            b.skipped();
            continue;
        }
        let content = v
            .message
            .and_then(|m| serde_json::from_str::<Message<'_>>(m.get()).ok())
            .and_then(|m| m.content);
        match kind.as_deref() {
            Some("assistant") => assistant(&mut calls, content),
            Some("user") => user(&mut b, &calls, &v, content),
            Some("last-prompt") => last_prompt = string(v.last_prompt).or(last_prompt),
            _ => {}
        }
    }
    // The request itself may lie before the tail read; Claude Code repeats it in a
    // `last-prompt` line after each turn (2.1.332: `{"type":"last-prompt",
    // "lastPrompt":…,"sessionId":…}`, tests/fixtures/transcripts).
    if let (None, Some(prompt)) = (&b.digest.last_request, last_prompt) {
        request(&mut b, &prompt);
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

fn assistant(calls: &mut Calls, content: Option<&RawValue>) {
    for block in blocks(content) {
        if string(block.kind).as_deref() != Some("tool_use") {
            continue;
        }
        let Some(input) = block
            .input
            .and_then(|i| serde_json::from_str::<Input<'_>>(i.get()).ok())
        else {
            continue;
        };
        let (map, value) = match string(block.name).as_deref() {
            Some("Edit" | "Write" | "MultiEdit") => (&mut calls.edits, input.file_path),
            Some("NotebookEdit") => (&mut calls.edits, input.notebook_path),
            Some("Bash") => (&mut calls.commands, input.command),
            _ => continue,
        };
        if let (Some(id), Some(v)) = (string(block.id), string(value)) {
            map.insert(id, v);
        }
    }
}

fn user(b: &mut Builder, calls: &Calls, v: &Line<'_>, content: Option<&RawValue>) {
    let not_a_request = yes(v.is_meta)
        || yes(v.is_compact_summary)
        || yes(v.transcript_only)
        || v.tool_use_result.is_some();
    let Some(raw) = content else {
        return;
    };
    if raw.get().starts_with('"') {
        if let (false, Some(text)) = (not_a_request, string(Some(raw))) {
            request(b, &text);
        }
        return;
    }
    if !raw.get().starts_with('[') {
        return;
    }
    let mut text = String::new();
    for block in blocks(Some(raw)) {
        match string(block.kind).as_deref() {
            Some("text") => text.push_str(&string(block.text).unwrap_or_default()),
            Some("tool_result") => result(b, calls, &block),
            _ => {}
        }
    }
    if !not_a_request {
        request(b, &text);
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
fn result(b: &mut Builder, calls: &Calls, block: &Block<'_>) {
    let id = string(block.tool_use_id).unwrap_or_default();
    if let Some(file) = calls.edits.get(&id) {
        if !yes(block.is_error) {
            b.edited(file);
        }
        return;
    }
    let Some(command) = calls.commands.get(&id) else {
        return;
    };
    if !yes(block.is_error) {
        return;
    }
    let output = block
        .content
        .and_then(|c| serde_json::from_str::<serde_json::Value>(c.get()).ok())
        .map(|c| text_of(&c))
        .unwrap_or_default();
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
