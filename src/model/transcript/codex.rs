//! Codex's rollout (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-….jsonl`, the
//! `transcript_path` of its hook events), one `{"timestamp","type","payload"}` a line.
//! Followed (openai/codex `codex-rs/protocol/src/protocol.rs`, `RolloutItem` and
//! `EventMsg`): `event_msg` payloads `user_message` (0.171.0: `item_completed` of a
//! `UserMessage` item instead) (`message`: what the user typed,
//! without the injected instructions and environment context), `exec_command_end`
//! (`call_id`, `command` argv, `exit_code`, `stderr`, `aggregated_output`) and
//! `patch_apply_end` (`changes`: a map keyed by path); `response_item` payloads
//! `custom_tool_call` / `function_call` named `apply_patch` (the patch's
//! `*** Add File:`, `*** Update File:`, `*** Delete File:`, `*** Move to:` lines,
//! relative to the agent's directory); 0.171.0's `item_completed` of a `FileChange`
//! item (`changes` keyed by absolute path). The agent's directory is the `cwd` of the
//! `session_meta` and `turn_context` payloads: a relative path (a patch's) is resolved
//! against the latest one, so that a file the patch names and its applied change name
//! again is one file.

use std::collections::HashSet;

use serde_json::Value;

use super::{Builder, Digest, text_of};

pub(super) fn digest(tail: &str) -> Digest {
    let mut b = Builder::default();
    let mut failed: HashSet<String> = HashSet::new();
    // The agent's directory, once a line has said it.
    let mut cwd: Option<String> = None;
    for line in tail.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            b.skipped();
            continue;
        };
        let (Some(kind), Some(p)) = (
            v["type"].as_str(),
            v.get("payload").filter(|p| p.is_object()),
        ) else {
            b.skipped();
            continue;
        };
        match (kind, p["type"].as_str()) {
            ("session_meta" | "turn_context", _) => {
                if let Some(dir) = p["cwd"].as_str().filter(|d| d.starts_with('/')) {
                    cwd = Some(dir.to_owned());
                }
            }
            ("event_msg", Some("user_message")) => {
                if let Some(m) = p["message"].as_str() {
                    b.request(m);
                }
            }
            // Codex 0.171.0 writes the user's turn as a completed `UserMessage` item
            // (seen in its rollout: tests/fixtures/transcripts/codex-0.171.0.jsonl).
            ("event_msg", Some("item_completed")) if p["item"]["type"] == "UserMessage" => {
                b.request(&text_of(&p["item"]["content"]));
            }
            // 0.171.0: a shell call ends as a completed `CommandExecution` item (`id` is
            // the call's id; `command` argv, `exit_code`, `aggregated_output`).
            ("event_msg", Some("item_completed")) if p["item"]["type"] == "CommandExecution" => {
                exec_end(&mut b, &mut failed, p["item"]["id"].as_str(), &p["item"]);
            }
            // 0.171.0: an applied patch ends as a completed `FileChange` item whose
            // `changes` are keyed by absolute path (no `patch_apply_end`; seen in
            // tests/fixtures/transcripts/codex-0.171.0-patch.jsonl).
            ("event_msg", Some("item_completed")) if p["item"]["type"] == "FileChange" => {
                if let Some(changes) = p["item"]["changes"].as_object() {
                    for path in changes.keys() {
                        edited(&mut b, path, cwd.as_deref());
                    }
                }
            }
            ("event_msg", Some("exec_command_end")) => {
                exec_end(&mut b, &mut failed, p["call_id"].as_str(), p);
            }
            ("event_msg", Some("patch_apply_end")) => {
                if let Some(changes) = p["changes"].as_object() {
                    for path in changes.keys() {
                        edited(&mut b, path, cwd.as_deref());
                    }
                }
            }
            ("response_item", Some("custom_tool_call" | "function_call"))
                if p["name"] == "apply_patch" =>
            {
                let patch = match p.get("input").and_then(Value::as_str) {
                    Some(input) => input.to_owned(),
                    None => p["arguments"]
                        .as_str()
                        .and_then(|a| serde_json::from_str::<Value>(a).ok())
                        .and_then(|a| a["input"].as_str().map(str::to_owned))
                        .unwrap_or_default(),
                };
                patched(&mut b, &patch, cwd.as_deref());
            }
            _ => {}
        }
    }
    b.finish()
}

fn exec_end(b: &mut Builder, failed: &mut HashSet<String>, call_id: Option<&str>, p: &Value) {
    let code = p["exit_code"].as_i64().and_then(|c| i32::try_from(c).ok());
    if code == Some(0) || code.is_none() {
        return;
    }
    if let Some(id) = call_id
        && !failed.insert(id.to_owned())
    {
        return;
    }
    let command = match &p["command"] {
        Value::Array(argv) => {
            let argv: Vec<&str> = argv.iter().filter_map(Value::as_str).collect();
            // `bash -lc 'ls /x'`: the script is the command.
            match argv.as_slice() {
                [sh, flag, script]
                    if sh.ends_with("sh") && flag.starts_with('-') && flag.ends_with('c') =>
                {
                    (*script).to_owned()
                }
                _ => argv.join(" "),
            }
        }
        Value::String(s) => s.clone(),
        _ => String::new(),
    };
    let stderr = p["stderr"].as_str().unwrap_or("");
    let output = if stderr.trim().is_empty() {
        p["aggregated_output"]
            .as_str()
            .or(p["stdout"].as_str())
            .unwrap_or("")
    } else {
        stderr
    };
    b.failed(&command, code, output);
}

/// The files a patch names.
fn patched(b: &mut Builder, text: &str, cwd: Option<&str>) {
    for line in text.lines() {
        let path = [
            "*** Add File: ",
            "*** Update File: ",
            "*** Delete File: ",
            "*** Move to: ",
        ]
        .iter()
        .find_map(|prefix| line.strip_prefix(prefix));
        if let Some(path) = path {
            edited(b, path, cwd);
        }
    }
}

/// `path` edited: resolved against the agent's directory `cwd` when it is relative
/// and the directory is known.
fn edited(b: &mut Builder, path: &str, cwd: Option<&str>) {
    let path = path.trim();
    match cwd {
        Some(dir) if !path.is_empty() && !path.starts_with('/') => {
            b.edited(&std::path::Path::new(dir).join(path).to_string_lossy());
        }
        _ => b.edited(path),
    }
}
