//! SPEC section 11 against section 5: what the hooks record by themselves when the
//! agent session finished its handover before its end, and when two hooks of one
//! agent session run at once. An automatic record adds what git and the transcript
//! know; it never changes what the agent or a person wrote.

use serde_json::{Value, json};

use crate::common::{TestEnv, read_json, sessions_under, state_path};
use crate::record::{SESSION, automatic_notes, end, start};

/// `save` in `repo` with `input` on stdin, as the agent saves.
fn save(env: &TestEnv, repo: &std::path::Path, input: &Value) {
    let run = env.handover_fed(repo, &["save"], input.to_string().as_bytes(), |_| {});
    run.assert_ok();
}

/// A session of `main` with one task in progress, saved by the agent.
fn saved(env: &TestEnv, repo: &std::path::Path) -> String {
    save(
        env,
        repo,
        &json!({"version": 4, "status": "READY", "active_tasks": [
            {"id": "T1", "description": "Port the lexer", "status": "in_progress"}]}),
    );
    let keys = sessions_under(&repo.join(".claude/handover"));
    assert_eq!(keys.len(), 1, "{keys:?}");
    keys[0].clone()
}

/// Ten architecture changes as an agent writes them, each with its rationale.
fn ten_decisions() -> Vec<Value> {
    (0..10)
        .map(|i| {
            json!({"commit_sha": format!("{i:07}abcdef"), "summary": format!("decision {i}"),
                "rationale": format!("why {i}")})
        })
        .collect()
}

/// The agent session starts in `repo` and commits its work.
fn worked(env: &TestEnv, repo: &std::path::Path) {
    start(env, repo, SESSION);
    env.commit(
        repo,
        "src/lex.rs",
        "fn lex() {}\n",
        "Add the lexer",
        "2026-11-30T11:00:00Z",
    );
}

/// The agent finishes its last task (the session is `ALL_COMPLETE`, said so by the
/// agent) and then its session ends: the end records the commit into that session,
/// but does not reopen it: it stays finished, with its task done, and `continue`
/// still finds nothing to resume. A finished session is the agent's word; the record
/// is git's.
#[test]
fn a_session_end_after_the_agent_finished_records_without_reopening() {
    let env = TestEnv::new();
    let repo = env.repo();
    let key = saved(&env, &repo);
    worked(&env, &repo);
    let run = env.handover(&repo, &["task", "done", "T1"]);
    run.assert_ok();
    let file = state_path(&repo, &key);
    assert_eq!(read_json(&file)["status"], "ALL_COMPLETE");
    let said = end(&env, &repo, "session-end", SESSION);
    let keys = sessions_under(&repo.join(".claude/handover"));
    assert_eq!(
        keys.as_slice(),
        std::slice::from_ref(&key),
        "no second session beside the finished one: {said}"
    );
    let state: Value = read_json(&file);
    assert_eq!(state["status"], "ALL_COMPLETE", "{said}\n{state:#}");
    assert_eq!(state["active_tasks"][0]["status"], "done", "{state:#}");
    assert_eq!(
        state["active_tasks"].as_array().unwrap().len(),
        1,
        "{state:#}"
    );
    assert_eq!(automatic_notes(&state).len(), 1, "{said}\n{state:#}");
    // Nothing to resume: the finished session is said as finished.
    let run = env.handover(&repo, &["continue", "--keep"]);
    assert_eq!(run.code, 1, "{}", run.snapshot());
    assert!(
        run.stdout.contains("one finished session"),
        "{}",
        run.stdout
    );
}

/// The agent saved its own ten architecture changes (the most a state keeps), each
/// with its rationale; the end then records the commit the agent session made: the
/// agent's entries all stay. The automatic one may wait for room (the next `save`
/// keeps the newest ten as it always does), but a record never drops what the agent
/// wrote to make room for its own, as it never drops a note the agent wrote.
#[test]
fn an_automatic_record_never_drops_an_architecture_change_the_agent_wrote() {
    let env = TestEnv::new();
    let repo = env.repo();
    let key = saved(&env, &repo);
    let own = ten_decisions();
    save(&env, &repo, &json!({"architecture_changes": own}));
    worked(&env, &repo);
    let said = end(&env, &repo, "session-end", SESSION);
    let state = read_json(&state_path(&repo, &key));
    let changes = state["architecture_changes"].as_array().unwrap();
    for c in &own {
        assert!(changes.contains(c), "{said}: {c} was dropped\n{changes:#?}");
    }
    // And the record still says what the agent session did, in its note.
    assert_eq!(automatic_notes(&state).len(), 1, "{state:#}");
}

/// `hook <verb>` of agent session `session` started in `dir`, held under the session's
/// lock at `auto-record` until its gate opens (the test's `gates/auto-record`).
fn held_record(
    env: &TestEnv,
    dir: &std::path::Path,
    verb: &str,
    session: &str,
) -> (std::process::Child, std::path::PathBuf) {
    use std::io::Write as _;
    let log = env.event_log(&format!("held-{verb}"));
    let gates = env.root().join(format!("gates-{verb}"));
    std::fs::create_dir_all(&gates).unwrap();
    let (name, extra) = if verb == "pre-compact" {
        (
            "PreCompact",
            json!({"trigger": "auto", "custom_instructions": ""}),
        )
    } else {
        ("SessionEnd", json!({"reason": "other"}))
    };
    let mut child = env
        .command(env!("CARGO_BIN_EXE_git-handover"))
        .current_dir(dir)
        .args(["hook", verb, "--agent", "claude"])
        .env("GIT_HANDOVER_TEST_PAUSE", "auto-record:60000")
        .env("GIT_HANDOVER_TEST_GATE", &gates)
        .env("GIT_HANDOVER_TEST_LOG", log.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let input = crate::record::event(dir, name, session, &extra);
    child.stdin.take().unwrap().write_all(&input).unwrap();
    env.until_logged(&log, "auto-record", &mut child);
    (child, gates.join("auto-record"))
}

/// Two hooks of one agent session at once, with no session yet and work done: the
/// pre-compact holds the branch while it makes the session; the session-end meanwhile
/// neither makes a second session nor waits past its moment: it says in one line that
/// the record is being written, exit 0. Once the first is done there is one session
/// with one note of the agent session, and the end run again adds nothing twice.
#[test]
fn two_hooks_of_one_agent_session_at_once_make_one_session_and_one_note() {
    let env = TestEnv::new();
    let repo = env.repo();
    worked(&env, &repo);
    let (first, gate) = held_record(&env, &repo, "pre-compact", SESSION);
    let said = end(&env, &repo, "session-end", SESSION);
    assert!(said.contains("being written by"), "{said}");
    std::fs::write(&gate, "").unwrap();
    let out = first.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let keys = sessions_under(&repo.join(".claude/handover"));
    assert_eq!(keys.len(), 1, "{keys:?}");
    let file = state_path(&repo, &keys[0]);
    let state = read_json(&file);
    assert_eq!(automatic_notes(&state).len(), 1, "{state:#}");
    assert_eq!(
        state["active_tasks"].as_array().unwrap().len(),
        1,
        "{state:#}"
    );
    // The end again: what the pre-compact recorded is all there is; nothing doubles.
    end(&env, &repo, "session-end", SESSION);
    let state = read_json(&file);
    assert_eq!(automatic_notes(&state).len(), 1, "{state:#}");
    assert_eq!(state["architecture_changes"].as_array().unwrap().len(), 1);
    assert_eq!(
        state["active_tasks"].as_array().unwrap().len(),
        1,
        "{state:#}"
    );
}

/// The sibling of the agent hooks' record: git's post-commit hook with
/// `handover.recordCommits` adds each commit too, keeping ten; the ten the agent wrote
/// all stay, and the hook's own entries are what make room.
#[test]
fn the_post_commit_hook_never_drops_an_architecture_change_the_agent_wrote() {
    let env = TestEnv::new();
    let repo = env.repo();
    let key = saved(&env, &repo);
    env.git(&repo, &["config", "handover.recordCommits", "true"]);
    let own = ten_decisions();
    save(&env, &repo, &json!({"architecture_changes": own}));
    let mut last = String::new();
    for i in 0..3 {
        last = env.commit(
            &repo,
            &format!("f{i}"),
            "x\n",
            &format!("c{i}"),
            "2026-11-30T11:00:00Z",
        );
        env.handover(&repo, &["hook", "post-commit"]).assert_ok();
    }
    let state = read_json(&state_path(&repo, &key));
    let changes = state["architecture_changes"].as_array().unwrap();
    assert_eq!(&changes[..10], own.as_slice(), "{changes:#?}");
    // The newest commit is there beside them, once; the hook's older ones made room.
    assert_eq!(changes.len(), 11, "{changes:#?}");
    assert_eq!(changes[10]["commit_sha"], last.as_str());
    assert_eq!(changes[10]["recorded_by"]["automatic"], true);
}

/// The task a record made (`Continue: …`, marked automatic) becomes the agent's once
/// the agent updates it: the stop gate, which holds an agent session that worked
/// without updating a task, does not then tell it that it updated none.
#[test]
fn a_task_the_record_made_and_the_agent_updated_counts_as_updated() {
    let env = TestEnv::new();
    let repo = env.repo();
    worked(&env, &repo);
    end(&env, &repo, "pre-compact", SESSION);
    let keys = sessions_under(&repo.join(".claude/handover"));
    assert_eq!(keys.len(), 1, "{keys:?}");
    // The agent's edit comes after the start marker was made (on the machine's clock).
    let run = env.handover_with(
        &repo,
        &["task", "edit", "T1", "--next", "write the parser"],
        |c| {
            c.env("GIT_HANDOVER_NOW", "2030-01-01T00:00:00Z");
        },
    );
    run.assert_ok();
    let input = crate::record::event(
        &repo,
        "Stop",
        SESSION,
        &json!({"stop_hook_active": false, "last_assistant_message": "Done."}),
    );
    let (code, stdout, stderr) = crate::record::hook(&env, &repo, "stop", &input, |c| {
        c.args(["-c", "handover.stopGate=true"]);
    });
    let state = read_json(&state_path(&repo, &keys[0]));
    assert_eq!((code, stdout.as_str()), (0, ""), "{stderr}{state:#}");
    let state = read_json(&state_path(&repo, &keys[0]));
    assert_eq!(state["active_tasks"][0]["next_action"], "write the parser");
}

/// More transcripts than the issue named, through the hook: a directory, a device, the
/// hook's own stdin by its /proc name, an empty path, a relative path. Each answers
/// at once with exit 0, records the commit git knows of, and says at most one line
/// about the transcript.
#[test]
fn odd_transcript_paths_still_record_the_commit_and_say_at_most_one_line() {
    let env = TestEnv::new();
    let dir = env.root().join("a-directory.jsonl");
    std::fs::create_dir_all(&dir).unwrap();
    for (n, path) in [
        "a-directory.jsonl",
        "/dev/zero",
        "/proc/self/fd/0",
        "",
        "relative.jsonl",
    ]
    .into_iter()
    .enumerate()
    {
        let path = if n == 0 { dir.to_str().unwrap() } else { path };
        let repo = env.root().join(format!("repo-{n}"));
        env.git(
            env.root(),
            &["init", "-q", "-b", "main", repo.to_str().unwrap()],
        );
        env.commit(&repo, "a.rs", "a\n", "start", "2026-11-30T10:00:00Z");
        std::fs::write(repo.join("relative.jsonl"), "{\"type\":\"user\"}\n").unwrap();
        start(&env, &repo, SESSION);
        env.commit(&repo, "b.rs", "b\n", "the work", "2026-11-30T11:00:00Z");
        let input = json!({"session_id": SESSION, "transcript_path": path, "cwd": repo,
            "hook_event_name": "SessionEnd", "reason": "other"})
        .to_string();
        let began = std::time::Instant::now();
        let (code, stdout, stderr) =
            crate::record::hook(&env, &repo, "session-end", input.as_bytes(), |_| {});
        assert!(
            began.elapsed() < std::time::Duration::from_secs(5),
            "{path}"
        );
        assert_eq!(code, 0, "{path}: {stdout}{stderr}");
        let said = serde_json::from_str::<Value>(&stdout).map_or_else(
            |_| String::new(),
            |v| v["systemMessage"].as_str().unwrap_or_default().to_owned(),
        );
        let lines = said.lines().filter(|l| l.contains("transcript")).count();
        assert!(lines <= 1, "{path}: {said}");
        let keys = sessions_under(&repo.join(".claude/handover"));
        assert_eq!(keys.len(), 1, "{path}: {said}");
        let state = read_json(&state_path(&repo, &keys[0]));
        assert_eq!(
            state["architecture_changes"][0]["summary"], "the work",
            "{path}"
        );
    }
}

/// A repository git cannot read (a broken line in its configuration): the end of an
/// agent session there says in one line that nothing was recorded and why, as the
/// start says it cannot brief, instead of saying nothing (exit 0 either way).
#[test]
fn an_end_in_a_repository_that_cannot_be_read_says_nothing_was_recorded() {
    let env = TestEnv::new();
    let repo = env.repo();
    worked(&env, &repo);
    let config = repo.join(".git/config");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str("[core\n");
    std::fs::write(&config, text).unwrap();
    let said = end(&env, &repo, "session-end", SESSION);
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(
        said.starts_with("git-handover: nothing was recorded: "),
        "{said}"
    );
    assert!(said.contains("cannot be read"), "{said}");
}
