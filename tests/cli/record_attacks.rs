//! The automatic record attacked: start markers that are not files, a history too long
//! to walk whole, a hook that must answer in time whatever it finds.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use crate::common::{TestEnv, sessions_under};
use crate::record::{SESSION, automatic_notes, end, only_session, start};

fn marker(repo: &std::path::Path) -> std::path::PathBuf {
    repo.join(".git/git-handover/hook-starts")
        .join(format!("{SESSION}-startup"))
}

/// A start marker replaced by a FIFO or by a link to a file that names another start:
/// the hook neither waits on the one nor follows the other, and records nothing.
#[test]
fn a_start_marker_that_is_a_fifo_or_a_link_is_not_read() {
    let env = TestEnv::new();
    let repo = env.repo();
    let first = env.git(&repo, &["rev-parse", "HEAD"]);
    start(&env, &repo, SESSION);
    env.commit(&repo, "b.txt", "b\n", "work", "2026-11-30T11:00:00Z");
    let file = marker(&repo);
    assert!(std::fs::read_to_string(&file).unwrap().starts_with("head "));
    std::fs::remove_file(&file).unwrap();
    let ok = std::process::Command::new("mkfifo").arg(&file).status();
    if !ok.is_ok_and(|s| s.success()) {
        crate::common::unavailable("mkfifo");
        return;
    }
    let began = Instant::now();
    assert_eq!(end(&env, &repo, "session-end", SESSION), "");
    assert!(began.elapsed() < Duration::from_secs(5));
    std::fs::remove_file(&file).unwrap();
    let planted = env.root().join("planted");
    std::fs::write(&planted, format!("head {first}\n")).unwrap();
    std::os::unix::fs::symlink(&planted, &file).unwrap();
    assert_eq!(end(&env, &repo, "session-end", SESSION), "");
    assert!(sessions_under(&repo.join(".claude/handover")).is_empty());
}

/// 150 commits since the start: the newest ten are recorded, the note says more were
/// made than were looked at, and the hook answers well under Codex's 3 s.
#[test]
fn a_long_history_since_the_start_is_recorded_bounded() {
    let env = TestEnv::new();
    let repo = env.repo();
    let first = env.git(&repo, &["rev-parse", "HEAD"]);
    start(&env, &repo, SESSION);
    let mut stream = String::new();
    for i in 0..150 {
        let from = if i == 0 {
            format!("from {first}\n")
        } else {
            String::new()
        };
        let content = format!("{i}\n");
        // The oldest commit also adds a file of its own, which a walk stopped at its
        // limit never reaches: the start's tree to HEAD's still names it.
        let first_file = if i == 0 {
            "M 644 inline first.txt\ndata 2\n1\n"
        } else {
            ""
        };
        let _ = write!(
            stream,
            "commit refs/heads/main\ncommitter A <a@example.com> {} +0000\ndata 5\nc{i:03}\n{from}{first_file}M 644 inline f.txt\ndata {}\n{content}\n",
            1_764_500_000 + i,
            content.len(),
        );
    }
    env.fast_import(&repo, &stream);
    env.git(&repo, &["reset", "-q", "--hard"]);
    let began = Instant::now();
    let said = end(&env, &repo, "session-end", SESSION);
    assert!(
        began.elapsed() < Duration::from_secs(3),
        "{:?}",
        began.elapsed()
    );
    assert!(said.contains("no handover was saved"), "{said}");
    let (_, state) = only_session(&repo);
    let changes = state["architecture_changes"].as_array().unwrap();
    assert_eq!(changes.len(), 10);
    assert_eq!(changes[9]["summary"], "c149");
    let notes = automatic_notes(&state);
    assert!(
        notes[0]["content"]
            .as_str()
            .unwrap()
            .contains("100+ commit(s)"),
        "{}",
        notes[0]
    );
    assert!(
        notes[0]["content"].as_str().unwrap().contains("first.txt"),
        "{}",
        notes[0]
    );
}

/// Codex's and Gemini CLI's own events (Codex 0.171's embedded schemas:
/// `pre-compact.command.input` with `trigger`, `turn_id`, `model`; Gemini CLI's
/// `PreCompress` with `trigger`, `AfterAgent` with `stop_hook_active`): each agent's
/// record names it, and its stop is held in the form it reads.
#[test]
fn codex_and_gemini_events_are_recorded_under_their_agent() {
    for (agent, compact, stop_event) in [
        ("codex", "PreCompact", "Stop"),
        ("gemini", "PreCompress", "AfterAgent"),
    ] {
        let env = TestEnv::new();
        let repo = env.repo();
        let id = format!("{agent}-0199aa00-1111");
        let run = |verb: &str, event: serde_json::Value, extra: &[&str]| {
            let mut args = extra.to_vec();
            args.extend(["hook", verb, "--agent", agent]);
            let run = env.handover_fed(&repo, &args, event.to_string().as_bytes(), |_| {});
            run.assert_ok();
            run.stdout
        };
        run(
            "session-start",
            serde_json::json!({"session_id": id, "cwd": repo, "hook_event_name": "SessionStart",
                               "source": "startup", "transcript_path": null, "model": "m"}),
            &[],
        );
        env.commit(
            &repo,
            "c.txt",
            "c\n",
            &format!("{agent} work"),
            "2026-11-30T11:00:00Z",
        );
        let held = run(
            "stop",
            serde_json::json!({"session_id": id, "cwd": repo, "hook_event_name": stop_event,
                               "stop_hook_active": false, "turn_id": "t1", "prompt": "go",
                               "prompt_response": "done", "last_assistant_message": "done"}),
            &["-c", "handover.stopGate=true"],
        );
        let v: serde_json::Value =
            serde_json::from_str(&held).unwrap_or_else(|e| panic!("{agent}: {e}: {held}"));
        assert_eq!(v["decision"], "block", "{agent}");
        run(
            "pre-compact",
            serde_json::json!({"session_id": id, "cwd": repo, "hook_event_name": compact,
                               "trigger": "auto", "turn_id": "t1", "model": "m",
                               "transcript_path": null}),
            &[],
        );
        let (_, state) = only_session(&repo);
        assert_eq!(
            state["architecture_changes"][0]["recorded_by"]["agent"],
            agent
        );
        assert_eq!(
            state["architecture_changes"][0]["recorded_by"]["session_id"],
            id.as_str()
        );
    }
}

/// The files a session's commits changed are what differs from the start's tree to
/// HEAD's, in one tree diff (a file changed and changed back is not one); when HEAD is
/// no longer on top of the start (a branch switched), the other line's differences are
/// not the agent session's: its commits' own files are taken.
#[test]
fn the_files_changed_are_the_starts_tree_to_heads_or_the_commits_own_off_the_start() {
    let files_of = |state: &serde_json::Value| -> String {
        let notes = automatic_notes(state);
        let content = notes[0]["content"].as_str().unwrap().to_owned();
        content
            .split("Files changed: ")
            .nth(1)
            .map(|f| f.split('.').next().unwrap().to_owned())
            .unwrap_or_default()
    };
    let env = TestEnv::new();
    let repo = env.repo();
    start(&env, &repo, SESSION);
    env.commit(&repo, "a.rs", "1\n", "try", "2026-11-30T11:00:00Z");
    std::fs::remove_file(repo.join("a.rs")).unwrap();
    env.git(&repo, &["add", "-A"]);
    env.commit(&repo, "b.rs", "b\n", "undo, then b", "2026-11-30T11:01:00Z");
    end(&env, &repo, "session-end", SESSION);
    let (_, state) = only_session(&repo);
    assert_eq!(files_of(&state), "b", "{state:#}");
    // Each commit still names its own files.
    let changes = state["architecture_changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2);

    // Off the start: main moves on, the agent session starts there, then switches to a
    // branch made before main's last commit and commits on it.
    let env = TestEnv::new();
    let repo = env.repo();
    env.commit(&repo, "x.rs", "x\n", "x on main", "2026-11-30T10:00:00Z");
    start(&env, &repo, SESSION);
    env.git(&repo, &["checkout", "-q", "-b", "other", "HEAD~1"]);
    env.commit(&repo, "c.rs", "c\n", "c on other", "2026-11-30T11:00:00Z");
    end(&env, &repo, "session-end", SESSION);
    let keys = sessions_under(&repo.join(".claude/handover"));
    assert_eq!(keys.len(), 1, "{keys:?}");
    let state = crate::common::read_json(&crate::common::state_path(&repo, &keys[0]));
    assert_eq!(files_of(&state), "c", "{state:#}");
}

/// Pre-compact records, then a person rewrites the hook's own note, then the session
/// ends with more work: the person's words stay as they wrote them (the note is theirs
/// now), and the end's facts go into a new note of the agent session.
#[test]
fn a_person_who_rewrites_the_hooks_note_between_compaction_and_end_keeps_their_words() {
    let env = TestEnv::new();
    let repo = env.repo();
    start(&env, &repo, SESSION);
    env.commit(&repo, "a.rs", "1\n", "part one", "2026-11-30T11:00:00Z");
    end(&env, &repo, "pre-compact", SESSION);
    let (key, mut state) = only_session(&repo);
    let notes = automatic_notes(&state);
    assert_eq!(notes.len(), 1, "{state:#}");
    let i = state["session_notes"]
        .as_array()
        .unwrap()
        .iter()
        .position(|n| n["recorded_by"]["automatic"] == true)
        .unwrap();
    state["session_notes"][i]["content"] = serde_json::json!("part one was a dead end");
    let file = crate::common::state_path(&repo, &key);
    std::fs::write(&file, state.to_string()).unwrap();
    env.commit(&repo, "a.rs", "2\n", "part two", "2026-11-30T11:10:00Z");
    end(&env, &repo, "session-end", SESSION);
    let state = crate::common::read_json(&file);
    let notes = automatic_notes(&state);
    assert_eq!(notes.len(), 2, "{state:#}");
    assert_eq!(notes[0]["content"], "part one was a dead end");
    assert!(
        notes[1]["content"]
            .as_str()
            .unwrap()
            .contains("2 commit(s)"),
        "{state:#}"
    );
    // Again: nothing new, nothing changed.
    let before = std::fs::read(&file).unwrap();
    end(&env, &repo, "session-end", SESSION);
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

/// An agent session in worktree B hands its work over in A's session (`--session KEY`,
/// as a briefing on A's handover prints): at its end B, which has no session, gets no
/// second handover made by the hook; the one line says where its handover is.
#[test]
fn an_agent_session_that_saved_in_another_worktrees_session_gets_no_second_one() {
    let env = TestEnv::new();
    let repo = env.repo();
    let key = env.saved(
        &repo,
        &serde_json::json!({"active_tasks": [{"id": "T1", "description": "Port the lexer", "status": "in_progress"}]}),
    );
    let b = env.worktree(&repo, "wt-b", "feature/b");
    start(&env, &b, SESSION);
    env.commit(&b, "b.rs", "b\n", "work in b", "2026-11-30T11:00:00Z");
    let run = env.handover_with(
        &b,
        &["task", "add", "T2", "Write the guide", "--session", &key],
        |c| {
            c.env("CLAUDE_CODE_SESSION_ID", SESSION);
        },
    );
    run.assert_ok();
    let state = crate::common::read_json(&crate::common::state_path(&repo, &key));
    assert_eq!(state["agent_session"]["session_id"], SESSION, "{state:#}");
    let said = end(&env, &b, "session-end", SESSION);
    assert!(
        said.contains(&format!("this agent session saved its handover in {key}")),
        "{said}"
    );
    assert!(sessions_under(&b.join(".claude/handover")).is_empty());
    // Another agent session's work in B, with no save of its own, is recorded in B.
    let other = "9a9a9a9a-0000-4000-8000-000000000003";
    start(&env, &b, other);
    env.commit(&b, "c.rs", "c\n", "more in b", "2026-11-30T11:10:00Z");
    let said = end(&env, &b, "session-end", other);
    assert!(said.contains("so one was made"), "{said}");
    assert_eq!(sessions_under(&b.join(".claude/handover")).len(), 1);
}
