//! The automatic record reads the agent's own transcript (SPEC section 11): the
//! user's last request names the task a new session continues, and a failed command
//! is kept; a transcript that cannot be read is said in one line and the record of
//! what git knows is still made.

use std::path::Path;

use serde_json::{Value, json};

use crate::common::TestEnv;
use crate::record::{SESSION, automatic_notes, hook, only_session, start};

/// `hook session-end` with the event's `transcript_path` set to `transcript`.
fn end_with(env: &TestEnv, dir: &Path, transcript: &Path) -> String {
    let input = json!({
        "session_id": SESSION,
        "transcript_path": transcript,
        "cwd": dir,
        "hook_event_name": "SessionEnd",
        "reason": "prompt_input_exit",
    })
    .to_string();
    let (code, stdout, stderr) = hook(env, dir, "session-end", input.as_bytes(), |_| {});
    assert_eq!(code, 0, "{stdout}{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    v["systemMessage"].as_str().unwrap_or_default().to_owned()
}

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/transcripts")
        .join(name)
}

/// Claude Code 2.1.332's own transcript (captured, tests/fixtures/transcripts): the
/// request "list the missing directory" and its failed `ls`.
#[test]
fn the_record_takes_the_last_request_and_the_failed_command_from_claudes_transcript() {
    let env = TestEnv::new();
    let repo = env.repo();
    start(&env, &repo, SESSION);
    env.commit(&repo, "src/a.rs", "a\n", "Add a", "2026-11-30T11:00:00Z");
    end_with(&env, &repo, &fixture("claude-2.1.332.jsonl"));
    let (_, state) = only_session(&repo);
    let task = &state["active_tasks"][0];
    assert_eq!(
        task["description"], "Continue: list the missing directory",
        "{state:#}"
    );
    let notes = automatic_notes(&state);
    assert_eq!(notes.len(), 1, "{state:#}");
    let content = notes[0]["content"].as_str().unwrap();
    assert!(
        content.contains("list the missing directory")
            && content.contains("ls /nonexistent-transcripts"),
        "{content}"
    );
}

/// A transcript that is a FIFO: the hook does not wait on it, says so in one line,
/// and still records the commit git knows of.
#[test]
fn a_transcript_that_is_a_fifo_is_said_in_one_line_and_the_commit_still_recorded() {
    let env = TestEnv::new();
    let repo = env.repo();
    start(&env, &repo, SESSION);
    env.commit(&repo, "src/a.rs", "a\n", "Add a", "2026-11-30T11:00:00Z");
    let fifo = env.root().join("transcript.jsonl");
    let ok = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !ok.is_ok_and(|s| s.success()) {
        crate::common::unavailable("mkfifo");
        return;
    }
    let began = std::time::Instant::now();
    let said = end_with(&env, &repo, &fifo);
    assert!(began.elapsed() < std::time::Duration::from_secs(5));
    assert!(said.contains("the transcript was not read"), "{said}");
    let (_, state) = only_session(&repo);
    assert_eq!(
        state["architecture_changes"][0]["summary"], "Add a",
        "{state:#}"
    );
}
