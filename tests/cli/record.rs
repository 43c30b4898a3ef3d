//! The handover that writes itself (issue 34, SPEC section 11): `hook pre-compact` and
//! `hook session-end` record what an agent session did since its start, from git and
//! its transcript; `hook stop` holds a stop once with the command that records it;
//! the session's end releases the agent session's claims. Events are the agents' own
//! (ENGINEERING-NOTES lists their fields).

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::common::{TestEnv, fed, read_json, sessions_under, state_path};

pub(crate) const SESSION: &str = "5f0c2a9e-1b7d-4c3e-9a61-2d8e7f4b0c11";

pub(crate) fn event(dir: &Path, name: &str, session: &str, extra: &Value) -> Vec<u8> {
    let mut e = json!({
        "session_id": session,
        "transcript_path": dir.join(".no-transcript.jsonl"),
        "cwd": dir,
        "hook_event_name": name,
    });
    for (k, v) in extra.as_object().unwrap() {
        e[k] = v.clone();
    }
    e.to_string().into_bytes()
}

/// Run `hook <verb> --agent claude` in `dir` with `input` on stdin.
pub(crate) fn hook(
    env: &TestEnv,
    dir: &Path,
    verb: &str,
    input: &[u8],
    adjust: impl FnOnce(&mut Command),
) -> (i32, String, String) {
    let mut cmd = env.command(env!("CARGO_BIN_EXE_git-handover"));
    cmd.current_dir(dir)
        .args(["hook", verb, "--agent", "claude"]);
    adjust(&mut cmd);
    let out = fed(&mut cmd, input);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

pub(crate) fn start(env: &TestEnv, dir: &Path, session: &str) {
    let input = event(dir, "SessionStart", session, &json!({"source": "startup"}));
    let (code, _, _) = hook(env, dir, "session-start", &input, |_| {});
    assert_eq!(code, 0);
}

/// `hook pre-compact` or `hook session-end`: its exit status and the message it shows.
pub(crate) fn end(env: &TestEnv, dir: &Path, verb: &str, session: &str) -> String {
    let name = if verb == "pre-compact" {
        "PreCompact"
    } else {
        "SessionEnd"
    };
    let extra = if verb == "pre-compact" {
        json!({"trigger": "auto", "custom_instructions": ""})
    } else {
        json!({"reason": "prompt_input_exit"})
    };
    let (code, stdout, stderr) = hook(env, dir, verb, &event(dir, name, session, &extra), |_| {});
    assert_eq!(code, 0, "{stdout}{stderr}");
    if stdout.trim().is_empty() {
        return String::new();
    }
    let v: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    v["systemMessage"].as_str().unwrap_or_default().to_owned()
}

pub(crate) fn only_session(dir: &Path) -> (String, Value) {
    let keys = sessions_under(&dir.join(".claude/handover"));
    assert_eq!(keys.len(), 1, "{keys:?}");
    let state = read_json(&state_path(dir, &keys[0]));
    (keys[0].clone(), state)
}

pub(crate) fn automatic_notes(state: &Value) -> Vec<&Value> {
    state["session_notes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|n| n["recorded_by"]["automatic"] == true)
        .collect()
}

#[test]
fn no_session_and_work_done_makes_one_then_the_end_adds_nothing_more() {
    let env = TestEnv::new();
    let repo = env.repo();
    start(&env, &repo, SESSION);
    let sha = env.commit(
        &repo,
        "src/lex.rs",
        "fn lex() {}\n",
        "Add the lexer",
        "2026-11-30T11:00:00Z",
    );
    env.write(&repo.join("a.txt"), "changed, not committed\n");
    let said = end(&env, &repo, "pre-compact", SESSION);
    assert!(
        said.contains("no handover was saved in this worktree"),
        "{said}"
    );
    let (key, state) = only_session(&repo);
    assert!(said.contains(&key), "{said}");
    let task = &state["active_tasks"][0];
    assert_eq!(task["status"], "in_progress");
    assert_eq!(task["id"], "T1");
    assert!(
        task["description"]
            .as_str()
            .unwrap()
            .starts_with("Continue"),
        "{task}"
    );
    assert_eq!(task["file_paths"], json!(["a.txt", "src/lex.rs"]));
    let change = &state["architecture_changes"][0];
    assert_eq!(change["commit_sha"], sha.as_str());
    assert_eq!(change["summary"], "Add the lexer");
    assert_eq!(change["files_changed"], json!(["src/lex.rs"]));
    assert_eq!(change["recorded_by"]["session_id"], SESSION);
    assert_eq!(change["recorded_by"]["agent"], "claude");
    let notes = automatic_notes(&state);
    assert_eq!(notes.len(), 1, "{state:#}");
    let content = notes[0]["content"].as_str().unwrap();
    assert!(
        content.contains("1 commit(s)") && content.contains("a.txt, src/lex.rs"),
        "{content}"
    );
    // The end of the same agent session, nothing new since: one entry still, no write.
    let before = std::fs::read(state_path(&repo, &key)).unwrap();
    let said = end(&env, &repo, "session-end", SESSION);
    assert!(!said.contains("recorded"), "{said}");
    assert_eq!(std::fs::read(state_path(&repo, &key)).unwrap(), before);
    // The handover reads as any other: the next agent is briefed on it.
    let run = env.handover(&repo, &["continue", "--keep"]);
    run.assert_ok();
    assert!(run.stdout.contains("Continue"), "{}", run.stdout);
}

#[test]
fn an_agent_session_that_did_nothing_records_nothing() {
    let env = TestEnv::new();
    let repo = env.repo();
    // Changed before the agent session started: not its work.
    env.write(&repo.join("a.txt"), "dirty before the start\n");
    // A file changed in the very tick of the start counts as the agent session's (file
    // times are the kernel's coarse clock): the start comes a few ticks later here.
    std::thread::sleep(std::time::Duration::from_millis(50));
    start(&env, &repo, SESSION);
    assert_eq!(end(&env, &repo, "pre-compact", SESSION), "");
    assert_eq!(end(&env, &repo, "session-end", SESSION), "");
    assert!(sessions_under(&repo.join(".claude/handover")).is_empty());
    // Without a start known, nothing either.
    env.commit(&repo, "b.txt", "b\n", "more", "2026-11-30T11:00:00Z");
    assert_eq!(end(&env, &repo, "session-end", "never-started"), "");
    assert!(sessions_under(&repo.join(".claude/handover")).is_empty());
}

#[test]
fn what_a_person_wrote_stays_and_work_after_the_compaction_updates_the_hooks_own_note() {
    let env = TestEnv::new();
    let repo = env.repo();
    let key = "main/20261130-110000";
    env.write_session(
        &repo,
        key,
        &json!({"version": 4, "generated_at": "2026-11-30T11:00:00Z", "status": "READY",
                "workspace": {"branch": "main"},
                "active_tasks": [{"id": "T1", "description": "Parse", "status": "in_progress"},
                                 {"id": "T2", "description": "Lex", "status": "pending"}],
                "session_notes": [{"recorded_at": "2026-11-30T11:00:00Z", "category": "directive",
                                   "content": "keep the parser small"}]}),
    );
    start(&env, &repo, SESSION);
    env.commit(
        &repo,
        "p.rs",
        "1\n",
        "Parser, part one",
        "2026-11-30T11:10:00Z",
    );
    let said = end(&env, &repo, "pre-compact", SESSION);
    assert!(
        said.contains("recorded what this agent session did in main/20261130-110000"),
        "{said}"
    );
    // A person edits the state between the compaction and the end.
    let file = state_path(&repo, key);
    let mut state = read_json(&file);
    state["session_notes"][0]["content"] = json!("keep the parser small, and fast");
    state["active_tasks"][1]["description"] = json!("Lex, by hand");
    state["architecture_changes"][0]["summary"] = json!("my words for it");
    std::fs::write(&file, state.to_string()).unwrap();
    env.commit(
        &repo,
        "p.rs",
        "2\n",
        "Parser, part two",
        "2026-11-30T11:20:00Z",
    );
    end(&env, &repo, "session-end", SESSION);
    let state = read_json(&file);
    assert_eq!(
        state["session_notes"][0]["content"],
        "keep the parser small, and fast"
    );
    assert_eq!(state["active_tasks"][1]["description"], "Lex, by hand");
    assert_eq!(state["active_tasks"][0]["status"], "in_progress");
    assert_eq!(state["active_tasks"][1]["status"], "pending");
    let changes = state["architecture_changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2, "{changes:#?}");
    assert_eq!(changes[0]["summary"], "my words for it");
    assert_eq!(changes[1]["summary"], "Parser, part two");
    // One note of this agent session, now naming both commits.
    let notes = automatic_notes(&state);
    assert_eq!(notes.len(), 1, "{state:#}");
    assert!(
        notes[0]["content"]
            .as_str()
            .unwrap()
            .contains("2 commit(s)"),
        "{}",
        notes[0]
    );
}

#[test]
fn a_session_that_cannot_be_read_is_never_rewritten_and_is_said_in_one_line() {
    let env = TestEnv::new();
    let repo = env.repo();
    let file = state_path(&repo, "main/20261130-110000");
    env.write(
        &file,
        "{\"version\": 4, \"status\": \"READY\", \"active_tasks\": [",
    );
    start(&env, &repo, SESSION);
    env.commit(&repo, "b.txt", "b\n", "work", "2026-11-30T11:00:00Z");
    let said = end(&env, &repo, "session-end", SESSION);
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(
        said.starts_with("git-handover: nothing was recorded"),
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "{\"version\": 4, \"status\": \"READY\", \"active_tasks\": ["
    );
    assert_eq!(sessions_under(&repo.join(".claude/handover")).len(), 1);
}

/// Two agent sessions of one worktree end at once: the second finds the session's lock
/// held by the first (forced: the first waits under it), skips with one line, and
/// records when it runs again; neither loses the other's entry.
#[test]
fn two_agent_sessions_ending_at_once_each_keep_their_entry() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.write_session(
        &repo,
        "main/20261130-110000",
        &json!({"version": 4, "status": "READY", "workspace": {"branch": "main"},
                "active_tasks": [{"id": "T1", "description": "Parse", "status": "in_progress"}]}),
    );
    let other = "9a9a9a9a-0000-4000-8000-000000000002";
    start(&env, &repo, SESSION);
    start(&env, &repo, other);
    env.commit(
        &repo,
        "b.txt",
        "b\n",
        "work of both",
        "2026-11-30T11:00:00Z",
    );
    let log = env.event_log("first-end");
    let mut cmd = env.command(env!("CARGO_BIN_EXE_git-handover"));
    cmd.current_dir(&repo)
        .args(["hook", "session-end", "--agent", "claude"])
        .env("GIT_HANDOVER_TEST_PAUSE", "auto-record:3000")
        .env("GIT_HANDOVER_TEST_LOG", log.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut first = cmd.spawn().unwrap();
    {
        use std::io::Write as _;
        let mut stdin = first.stdin.take().unwrap();
        stdin
            .write_all(&event(
                &repo,
                "SessionEnd",
                SESSION,
                &json!({"reason": "other"}),
            ))
            .unwrap();
    }
    for _ in 0..1000 {
        if log.count("auto-record") > 0 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(
        log.count("auto-record") > 0,
        "the first never reached its pause"
    );
    let said = end(&env, &repo, "session-end", other);
    assert!(said.contains("is being written by"), "{said}");
    let out = first.wait_with_output().unwrap();
    assert!(out.status.success());
    let said = end(&env, &repo, "session-end", other);
    assert!(said.contains("recorded"), "{said}");
    let (_, state) = only_session(&repo);
    let sessions: Vec<&str> = automatic_notes(&state)
        .iter()
        .map(|n| n["recorded_by"]["session_id"].as_str().unwrap())
        .collect();
    assert_eq!(sessions, [SESSION, other]);
    // The one commit is recorded once, by whichever came first.
    assert_eq!(state["architecture_changes"].as_array().unwrap().len(), 1);
}

#[test]
fn the_end_releases_the_claims_of_its_agent_session_and_no_one_elses() {
    let env = TestEnv::new();
    let repo = env.repo();
    let key = "main/20261130-110000";
    env.write_session(
        &repo,
        key,
        &json!({"version": 4, "status": "READY", "workspace": {"branch": "main"},
                "active_tasks": [{"id": "T1", "description": "Parse", "status": "pending"},
                                 {"id": "T2", "description": "Lex", "status": "pending"}]}),
    );
    let mine = env.handover_with(&repo, &["task", "claim", "T1"], |c| {
        c.env_remove("GIT_HANDOVER_AS")
            .env("CLAUDE_CODE_SESSION_ID", SESSION);
    });
    mine.assert_ok();
    env.handover(&repo, &["task", "claim", "T2", "--as", "lead"])
        .assert_ok();
    let (code, stdout, _) = hook(
        &env,
        &repo,
        "session-end",
        &event(&repo, "SessionEnd", SESSION, &json!({"reason": "logout"})),
        |c| {
            c.env_remove("GIT_HANDOVER_AS");
        },
    );
    assert_eq!(code, 0);
    let message: Value = serde_json::from_str(&stdout).unwrap();
    assert!(
        message["systemMessage"]
            .as_str()
            .unwrap()
            .contains("released the claims of claude-5f0c2a9e on [T1]"),
        "{stdout}"
    );
    let state = read_json(&state_path(&repo, key));
    assert!(state["active_tasks"][0].get("claim").is_none(), "{state:#}");
    assert_eq!(state["active_tasks"][1]["claim"]["holder"], "lead");
    // Pre-compact keeps them: the agent session goes on.
    env.handover_with(&repo, &["task", "claim", "T1"], |c| {
        c.env_remove("GIT_HANDOVER_AS")
            .env("CLAUDE_CODE_SESSION_ID", SESSION);
    })
    .assert_ok();
    hook(
        &env,
        &repo,
        "pre-compact",
        &event(&repo, "PreCompact", SESSION, &json!({"trigger": "manual"})),
        |c| {
            c.env_remove("GIT_HANDOVER_AS");
        },
    );
    let state = read_json(&state_path(&repo, key));
    assert_eq!(
        state["active_tasks"][0]["claim"]["holder"],
        "claude-5f0c2a9e"
    );
}

fn stop(env: &TestEnv, dir: &Path, active: bool, gate: bool) -> (i32, String) {
    let input = event(
        dir,
        "Stop",
        SESSION,
        &json!({"stop_hook_active": active, "last_assistant_message": "Done."}),
    );
    let (code, stdout, _) = hook(env, dir, "stop", &input, |c| {
        if gate {
            c.args(["-c", "handover.stopGate=true"]);
        }
    });
    (code, stdout)
}

#[test]
fn the_stop_gate_holds_once_with_a_command_that_records_the_handover() {
    let env = TestEnv::new();
    let repo = env.repo();
    let key = "main/20261130-110000";
    env.write_session(
        &repo,
        key,
        &json!({"version": 4, "status": "READY", "workspace": {"branch": "main"},
                "active_tasks": [{"id": "T1", "description": "Parse", "status": "in_progress",
                                  "last_touched": "2026-11-30T11:00:00Z"}]}),
    );
    start(&env, &repo, SESSION);
    // Nothing done yet: the agent stops.
    assert_eq!(stop(&env, &repo, false, true), (0, String::new()));
    env.commit(&repo, "p.rs", "1\n", "Parser", "2026-11-30T11:10:00Z");
    // Off by default, and never while the agent already continues for a stop hook.
    assert_eq!(stop(&env, &repo, false, false), (0, String::new()));
    assert_eq!(stop(&env, &repo, true, true), (0, String::new()));
    let (code, stdout) = stop(&env, &repo, false, true);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    assert_eq!(v["decision"], "block");
    let reason = v["reason"].as_str().unwrap();
    insta::assert_snapshot!("stop_gate_reason", reason);
    // Once only.
    assert_eq!(stop(&env, &repo, false, true), (0, String::new()));
    // The command runs as printed, from the agent's directory, and records.
    let command = reason.split('`').nth(1).unwrap();
    let out = env
        .shell(&repo, command)
        .env("GIT_HANDOVER_NOW", "2030-01-01T00:00:00Z")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{command}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let state = read_json(&state_path(&repo, key));
    assert_eq!(state["active_tasks"][0]["next_action"], "what to do next");
}

#[test]
fn the_stop_gate_without_a_session_gives_a_task_add_that_runs_as_printed() {
    let env = TestEnv::new();
    let repo = env.repo();
    start(&env, &repo, SESSION);
    env.write(&repo.join("a.txt"), "edited\n");
    let (_, stdout) = stop(&env, &repo, false, true);
    let v: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    let reason = v["reason"].as_str().unwrap();
    let command = reason.split('`').nth(1).unwrap();
    assert!(
        command.starts_with("git handover task add T1 "),
        "{command}"
    );
    let out = env.shell(&repo, command).output().unwrap();
    assert!(
        out.status.success(),
        "{command}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(sessions_under(&repo.join(".claude/handover")).len(), 1);
}
