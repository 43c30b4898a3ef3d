//! Issue 34, item 1 with the real agents' edit tools: the stub model has Claude Code
//! call `Write` then `Edit`, Codex call `apply_patch`, Gemini CLI call `write_file` and
//! `replace`; the transcript each agent wrote gives the edited files (the readers were
//! written from the agents' code, these runs are what the agents really write), and the
//! record its installed session-end hook makes names them. `TRANSCRIPT_FIXTURE_DIR=dir`
//! keeps each transcript (tests/fixtures/transcripts/README.md says how each fixture
//! was made).

use std::path::{Path, PathBuf};

use git_handover::api::{TranscriptFormat, read_transcript};
use serde_json::{Value, json};

use super::models::sse;
use super::{Agent, Reply, World, need};
use crate::common::{read_json, sessions_under, state_path};

/// Claude Code's model's turn: how many of its calls the conversation already holds.
fn turn(body: &str) -> usize {
    ["toolu_e0", "toolu_w1", "toolu_e2"]
        .iter()
        .filter(|id| body.contains(&format!("\"tool_use_id\":\"{id}\"")))
        .count()
}

/// Claude Code's model: `Edit` of `unread` (a file it never read: Claude Code refuses
/// it), `Write` of `file`, then `Edit` of it, then words.
fn claude_edits(unread: String, file: String) -> Reply {
    Box::new(move |path, body| {
        if !path.contains("/v1/messages") || path.contains("count_tokens") {
            return None;
        }
        let v: Value = serde_json::from_str(body).ok()?;
        let offers = v["tools"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t["name"] == "Edit"));
        // The turn is told by the calls already answered in the conversation.
        let (id, name, input) = match turn(body) {
            _ if !offers => return None,
            0 => (
                "toolu_e0",
                "Edit",
                json!({"file_path": unread, "old_string": "old", "new_string": "older"}),
            ),
            1 => (
                "toolu_w1",
                "Write",
                json!({"file_path": file, "content": "hi\n"}),
            ),
            2 => (
                "toolu_e2",
                "Edit",
                json!({"file_path": file, "old_string": "hi", "new_string": "hello"}),
            ),
            _ => return None,
        };
        let events = [
            json!({"type": "message_start", "message": {"id": "msg_e", "type": "message", "role": "assistant", "model": v["model"], "content": [], "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 1, "output_tokens": 1}}}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": input.to_string()}}),
            json!({"type": "content_block_stop", "index": 0}),
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": null}, "usage": {"output_tokens": 1}}),
            json!({"type": "message_stop"}),
        ];
        Some(("text/event-stream", sse(&events)))
    })
}

/// Codex's model: one `apply_patch` call (as the tool is offered: a freeform custom
/// tool, or a function taking `input`) adding `new.txt` and updating `old.txt`.
fn codex_patches() -> Reply {
    Box::new(move |path, body| {
        if !path.contains("/responses") || body.contains("_call_output") {
            return None;
        }
        let v: Value = serde_json::from_str(body).ok()?;
        let tool = v["tools"]
            .as_array()?
            .iter()
            .find(|t| t["name"] == "apply_patch")?;
        let patch = "*** Begin Patch\n*** Add File: new.txt\n+new\n*** Update File: old.txt\n@@\n-old\n+older\n*** End Patch\n";
        let item = if tool["type"] == "custom" {
            json!({"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_patch", "name": "apply_patch", "input": patch})
        } else {
            json!({"type": "function_call", "id": "fc_1", "call_id": "call_patch", "name": "apply_patch",
                   "arguments": json!({"input": patch}).to_string()})
        };
        let events = [
            json!({"type": "response.created", "response": {"id": "resp_p"}}),
            json!({"type": "response.output_item.done", "item": item}),
            json!({"type": "response.completed", "response": {"id": "resp_p", "usage": {"input_tokens": 1, "input_tokens_details": null, "output_tokens": 1, "output_tokens_details": null, "total_tokens": 2}}}),
        ];
        Some(("text/event-stream", sse(&events)))
    })
}

/// Gemini CLI's model: `write_file` of `new` and `replace` in `old`, in one turn.
fn gemini_edits(new: String, old: String) -> Reply {
    Box::new(move |path, body| {
        if !path.contains("enerateContent") || body.contains("functionResponse") {
            return None;
        }
        if !body.contains("\"replace\"") {
            return None;
        }
        let parts = json!([
            {"functionCall": {"name": "write_file", "args": {"file_path": new, "content": "new\n"}}},
            {"functionCall": {"name": "replace", "args": {"file_path": old, "old_string": "old", "new_string": "older",
                                                         "instruction": "make it older"}}}
        ]);
        let chunk = json!({"candidates": [{"content": {"parts": parts, "role": "model"}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2}});
        if path.contains("stream") {
            return Some(("text/event-stream", format!("data: {chunk}\r\n\r\n")));
        }
        Some(("application/json", chunk.to_string()))
    })
}

/// The session-end event the installed hook was given: its transcript and session id.
fn ended(world: &World) -> (PathBuf, String) {
    let events = world.events();
    let end = events
        .iter()
        .find(|e| e["hook_event_name"] == "SessionEnd")
        .unwrap_or_else(|| panic!("no SessionEnd: {events:?}"));
    (
        PathBuf::from(end["transcript_path"].as_str().unwrap()),
        end["session_id"].as_str().unwrap().to_owned(),
    )
}

/// Keep the transcript as `<name>` in `TRANSCRIPT_FIXTURE_DIR`, when set.
fn keep(transcript: &Path, name: &str) {
    if let Ok(dir) = std::env::var("TRANSCRIPT_FIXTURE_DIR") {
        std::fs::copy(transcript, Path::new(&dir).join(name)).unwrap();
    }
}

/// The note the session-end hook recorded for `session` names each of `files`.
fn assert_note_names(world: &World, session: &str, files: &[&str]) {
    let keys = sessions_under(&world.repo.join(".claude/handover"));
    assert_eq!(keys.len(), 1);
    let state = read_json(&state_path(&world.repo, &keys[0]));
    let note = state["session_notes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["recorded_by"]["session_id"] == session)
        .unwrap_or_else(|| panic!("no note of {session}: {state:#}"));
    let content = note["content"].as_str().unwrap();
    for f in files {
        assert!(content.contains(f), "{f} not in {content}");
    }
    // Named as the worktree names them, once: never by the agent's absolute path.
    let root = world.repo.display().to_string();
    assert!(!content.contains(&root), "{content}");
}

#[test]
fn claude_codes_write_and_edit_are_read_from_its_transcript_and_recorded() {
    if !need(Agent::Claude) {
        return;
    }
    let world = World::new();
    world.install(Agent::Claude, "project");
    let file = world.repo.join("notes.txt");
    let unread = world.repo.join("old.txt");
    std::fs::write(&unread, "old\n").unwrap();
    world.stub.script(claude_edits(
        unread.display().to_string(),
        file.display().to_string(),
    ));
    let out = world.run(
        Agent::Claude,
        &["-p", "write the notes", "--allowedTools", "Write,Edit"],
        true,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "hello\n");
    assert_eq!(std::fs::read_to_string(&unread).unwrap(), "old\n");
    let (transcript, session) = ended(&world);
    keep(&transcript, "claude-edits.jsonl");
    let read = read_transcript(&transcript, TranscriptFormat::Claude);
    assert_eq!(read.problem, None);
    // The refused `Edit` edited nothing, and is not said to have.
    assert_eq!(read.digest.edited_files, [file.display().to_string()]);
    assert_note_names(&world, &session, &["notes.txt"]);
}

#[test]
fn codexs_apply_patch_is_read_from_its_rollout_and_recorded() {
    if !need(Agent::Codex) {
        return;
    }
    let world = World::new();
    world.install(Agent::Codex, "project");
    std::fs::write(world.repo.join("old.txt"), "old\n").unwrap();
    world.stub.script(codex_patches());
    let out = world.run(
        Agent::Codex,
        // A model Codex's catalog gives the freeform `apply_patch` tool (`gpt-5`, the
        // other tests' model, is offered only its shell).
        &[
            "--dangerously-bypass-approvals-and-sandbox",
            "-m",
            "gpt-5.5",
            "patch the files",
        ],
        true,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(world.repo.join("new.txt")).unwrap(),
        "new\n"
    );
    assert_eq!(
        std::fs::read_to_string(world.repo.join("old.txt")).unwrap(),
        "older\n"
    );
    let (transcript, session) = ended(&world);
    keep(&transcript, "codex-patch.jsonl");
    let read = read_transcript(&transcript, TranscriptFormat::Codex);
    assert_eq!(read.problem, None);
    // The patch's own words (relative to the turn's directory) and what Codex applied
    // (absolute, 0.171.0's `FileChange` item) name the same two files: each once, in
    // the patch's order; the record names each once, as git does.
    let abs = |f: &str| world.repo.join(f).display().to_string();
    assert_eq!(
        read.digest.edited_files,
        [abs("new.txt"), abs("old.txt")],
        "{:?}",
        read.digest
    );
    assert_note_names(&world, &session, &["new.txt", "old.txt"]);
}

#[test]
fn gemini_clis_write_file_and_replace_are_read_from_its_recording_and_recorded() {
    if !need(Agent::Gemini) {
        return;
    }
    let world = World::new();
    world.install(Agent::Gemini, "project");
    let old = world.repo.join("old.txt");
    std::fs::write(&old, "old\n").unwrap();
    let new = world.repo.join("new.txt");
    world.stub.script(gemini_edits(
        new.display().to_string(),
        old.display().to_string(),
    ));
    let out = world.run(Agent::Gemini, &["-p", "edit the files", "--yolo"], true);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&old).unwrap(), "older\n");
    let (transcript, session) = ended(&world);
    keep(&transcript, "gemini-edits.jsonl");
    let read = read_transcript(&transcript, TranscriptFormat::Gemini);
    assert_eq!(read.problem, None);
    assert_eq!(
        read.digest.edited_files,
        [new.display().to_string(), old.display().to_string()]
    );
    assert_note_names(&world, &session, &["new.txt", "old.txt"]);
}
