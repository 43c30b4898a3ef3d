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

/// Each transcript the issue names as an attack, through the hook itself: it answers
/// in time, exit 0, the commit git knows of is recorded whatever the transcript is, a
/// transcript it could not take anything from is said in one line, and one read in
/// part (its tail only, a torn line, bytes that are not UTF-8) still gives what it
/// holds, silently, since that is still true.
#[test]
fn each_attacking_transcript_still_records_the_commit_and_says_at_most_one_line() {
    const REQUEST: &str = r#"{"type":"user","uuid":"u1","sessionId":"s","message":{"role":"user","content":"port the lexer"}}"#;
    let env = TestEnv::new();
    let root = env.root().to_owned();
    let fifo = root.join("fifo.jsonl");
    let fifo_ok = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    if !fifo_ok {
        crate::common::unavailable("mkfifo");
        return;
    }
    let to_zero = root.join("to-zero.jsonl");
    std::os::unix::fs::symlink("/dev/zero", &to_zero).unwrap();
    let to_fifo = root.join("to-fifo.jsonl");
    std::os::unix::fs::symlink(&fifo, &to_fifo).unwrap();
    let real = root.join("real.jsonl");
    std::fs::write(&real, format!("{REQUEST}\n")).unwrap();
    let to_real = root.join("to-real.jsonl");
    std::os::unix::fs::symlink(&real, &to_real).unwrap();
    // 200 MB (sparse: a hole, then the request at its end).
    let big = root.join("big.jsonl");
    {
        use std::io::Write as _;
        let f = std::fs::File::create(&big).unwrap();
        f.set_len(200 << 20).unwrap();
        let mut f = std::fs::OpenOptions::new().append(true).open(&big).unwrap();
        write!(f, "\n{REQUEST}\n").unwrap();
    }
    // Cut mid-line after a line that is not UTF-8.
    let torn = root.join("torn.jsonl");
    let mut bytes = format!("{REQUEST}\n").into_bytes();
    bytes.extend_from_slice(
        b"{\"type\":\"user\",\"uuid\":\"v\",\"message\":{\"content\":\"\xff\"}}\n",
    );
    bytes.extend_from_slice(&REQUEST.as_bytes()[..40]);
    std::fs::write(&torn, &bytes).unwrap();
    // Another agent's format: Codex's rollout given as Claude Code's transcript.
    let codex = fixture("codex-0.171.0.jsonl");
    for (name, transcript, note, request) in [
        ("fifo", &fifo, Some("the transcript was not read"), false),
        (
            "link to /dev/zero",
            &to_zero,
            Some("a link to no regular file"),
            false,
        ),
        (
            "link to a fifo",
            &to_fifo,
            Some("a link to no regular file"),
            false,
        ),
        ("link to a file", &to_real, None, true),
        ("200 MB", &big, None, true),
        ("torn, not UTF-8", &torn, None, true),
        ("Codex's format", &codex, Some("not in its format"), false),
    ] {
        let repo = env
            .root()
            .join(format!("repo-{}", name.replace([' ', '/', ','], "-")));
        env.git(
            env.root(),
            &["init", "-q", "-b", "main", repo.to_str().unwrap()],
        );
        env.commit(&repo, "a.rs", "a\n", "start", "2026-11-30T10:00:00Z");
        start(&env, &repo, SESSION);
        env.commit(&repo, "b.rs", "b\n", "the work", "2026-11-30T11:00:00Z");
        let began = std::time::Instant::now();
        let said = end_with(&env, &repo, transcript);
        assert!(
            began.elapsed() < std::time::Duration::from_secs(5),
            "{name}: {:?}",
            began.elapsed()
        );
        let notes: Vec<&str> = said.lines().filter(|l| l.contains("transcript")).collect();
        match note {
            Some(words) => {
                assert_eq!(notes.len(), 1, "{name}: {said}");
                assert!(notes[0].contains(words), "{name}: {said}");
            }
            None => assert!(notes.is_empty(), "{name}: {said}"),
        }
        let (_, state) = only_session(&repo);
        assert_eq!(
            state["architecture_changes"][0]["summary"], "the work",
            "{name}: {state:#}"
        );
        let task = state["active_tasks"][0]["description"].as_str().unwrap();
        assert_eq!(
            task == "Continue: port the lexer",
            request,
            "{name}: {task}"
        );
    }
}
