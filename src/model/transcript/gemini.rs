//! Gemini CLI's chat recording (`$GEMINI_CLI_HOME/.gemini/tmp/<project>/chats/
//! session-….jsonl`; its hooks' `transcript_path` is the recording's file,
//! `getConversationFilePath()`, `createBaseInput` in the 0.61.0 bundle
//! `chunk-5FZXKDXH.js` line 369144). Followed: `ChatRecordingService` in the same file
//! (line 286547): a metadata line (`sessionId`, `projectHash`), `{"$set":…}` updates,
//! and message records `{"id","timestamp","type":"user"|"gemini"|…,"content"}` appended
//! again whole, same `id`, each time one changes (`pushMessage`), so the last copy of an
//! id wins. A `gemini` message's `toolCalls` carry `name`, `args` (`replace` and
//! `write_file`: `file_path`; `run_shell_command`: `command`), `status` and `result`, the
//! function responses; a failed shell command's output ends `Exit Code: N` (line 327042).

use serde_json::Value;

use super::{Builder, Digest, text_of};

pub(super) fn digest(tail: &str) -> Digest {
    let mut b = Builder::default();
    // Messages by id in first-seen order, the last copy of each kept.
    let mut messages: Vec<(String, Value)> = Vec::new();
    let mut at: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for line in tail.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            b.skipped();
            continue;
        };
        let metadata = v.get("$set").is_some()
            || v.get("$rewindTo").is_some()
            || (v.get("sessionId").is_some() && v.get("projectHash").is_some());
        let message = v["id"].is_string() && v["type"].is_string() && v.get("uuid").is_none();
        if metadata {
            continue;
        }
        if !message {
            b.skipped();
            continue;
        }
        let id = v["id"].as_str().unwrap_or_default().to_owned();
        match at.get(&id) {
            Some(&i) => messages[i].1 = v,
            None => {
                at.insert(id.clone(), messages.len());
                messages.push((id, v));
            }
        }
    }
    for (_, m) in &messages {
        match m["type"].as_str() {
            Some("user") => {
                let text = text_of(&m["content"]);
                if !text.trim_start().starts_with('/') {
                    b.request(&text);
                }
            }
            Some("gemini") => {
                for call in m["toolCalls"].as_array().into_iter().flatten() {
                    tool_call(&mut b, call);
                }
            }
            _ => {}
        }
    }
    b.finish()
}

fn tool_call(b: &mut Builder, call: &Value) {
    let args = &call["args"];
    match call["name"].as_str() {
        Some("replace" | "write_file" | "edit") => {
            if let Some(p) = args["file_path"].as_str() {
                b.edited(p);
            }
        }
        Some("run_shell_command") => {
            let output = response(call);
            let code = output
                .lines()
                .find_map(|l| l.strip_prefix("Exit Code: "))
                .and_then(|c| c.trim().parse::<i32>().ok());
            if code.is_some() || call["status"] == "error" {
                let error = output
                    .lines()
                    .map(|l| {
                        l.strip_prefix("Output: ")
                            .or(l.strip_prefix("Error: "))
                            .unwrap_or(l)
                    })
                    .find(|l| {
                        let l = l.trim();
                        // 0.61.0 wraps the response in `<untrusted_context>` lines.
                        !l.is_empty() && l != "(empty)" && !l.ends_with("untrusted_context>")
                    })
                    .unwrap_or("");
                b.failed(args["command"].as_str().unwrap_or(""), code, error);
            }
        }
        _ => {}
    }
}

/// What the tool answered the model: the `output` (or `error`) of its function
/// responses.
fn response(call: &Value) -> String {
    let mut out = String::new();
    for part in call["result"].as_array().into_iter().flatten() {
        let r = &part["functionResponse"]["response"];
        for key in ["output", "error"] {
            if let Some(s) = r[key].as_str() {
                out.push_str(s);
                out.push('\n');
            }
        }
    }
    out
}
