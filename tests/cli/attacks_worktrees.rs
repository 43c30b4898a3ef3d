//! The seams between linked worktrees (issue item 2, "three agents in three worktrees"):
//! commands a briefing, a hook or a hint prints, run as printed from a subdirectory of
//! ANOTHER worktree; `task done` then `task add` from a second worktree keeps one
//! handover; a finish or a clean in one worktree while another worktree's agent writes
//! the same session loses neither.

use std::path::PathBuf;

use serde_json::json;

use crate::common::{TestEnv, finish, read_json, sessions_under, state_path};
use crate::seams::sh;

/// `repo` (main) and linked worktrees `feat` (branch `feat`, holding the session
/// `KEY`, T1 in progress) and `other` (branch `other`, with a subdirectory `sub/dir`
/// the agent stands in). Returns (feat, other's subdirectory, key).
fn two_worktrees(env: &TestEnv) -> (PathBuf, PathBuf, String) {
    let repo = env.repo();
    let feat = env.worktree(&repo, "feat", "feat");
    let other = env.worktree(&repo, "other", "other");
    let sub = other.join("sub/dir");
    std::fs::create_dir_all(&sub).unwrap();
    let key = env.saved(
        &feat,
        &json!({"active_tasks": [
            {"id": "T1", "description": "one", "status": "in_progress"},
            {"id": "T2", "description": "two", "status": "pending"}
        ]}),
    );
    (feat, sub, key)
}

/// Every backquoted `git handover …` command of `text`, its `ID` filled with `id`.
fn printed(text: &str, id: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|c| c.starts_with("git handover "))
        .map(|c| c.replace(" ID ", &format!(" {id} ")))
        .collect()
}

/// The briefing `continue` prints in a subdirectory of another worktree, and the
/// session-start hook's (Claude Code, Codex, Gemini CLI) for an event whose `cwd` is
/// that subdirectory: each command they print runs there through `sh` and changes the
/// session in the first worktree, no second session made anywhere.
#[test]
fn briefing_and_hook_commands_run_as_printed_from_another_worktrees_subdirectory() {
    let env = TestEnv::new();
    let (feat, sub, key) = two_worktrees(&env);
    let briefing = env.handover(&sub, &["continue"]);
    briefing.assert_ok();
    let mut commands = printed(&briefing.stdout, "T9");
    for agent in ["claude", "codex", "gemini"] {
        let id = format!("{agent}-1");
        let event = json!({"cwd": sub, "source": "startup", "session_id": id}).to_string();
        let args = ["hook", "session-start", "--agent", agent];
        let hook = env.handover_fed(&sub, &args, event.as_bytes(), |_| {});
        hook.assert_ok();
        let context = hook.hook_context();
        assert!(context.contains(&key), "{agent}: {context}");
        commands.extend(printed(&context, "T9"));
    }
    assert!(commands.len() >= 16, "{commands:?}");
    // `add` first makes T9, so every later command finds the task it names.
    commands.sort_by_key(|c| !c.contains(" task add "));
    for command in commands {
        let command = command.replace("\"what\"", "\"nine\"");
        let run = sh(&env, &sub, &command);
        let again = command.contains(" task add ") && run.stderr.contains("already exists");
        assert!(run.code == 0 || again, "{command}: {}", run.snapshot());
    }
    let state = read_json(&state_path(&feat, &key));
    let ids: Vec<_> = state["active_tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_owned())
        .collect();
    assert!(ids.contains(&"T9".to_owned()), "{state:#}");
    assert_eq!(
        sessions_under(&feat.join(".claude/handover")),
        vec![key.clone()]
    );
    assert!(sessions_under(sub.parent().unwrap().parent().unwrap()).is_empty());
}

/// An agent in another worktree finishes the session's last tasks, then adds one, by
/// the key its briefing printed, from a subdirectory: the same session takes both
/// (`ALL_COMPLETE`, then `READY` again), never a second one here or there.
#[test]
fn done_then_add_from_a_second_worktree_never_splits_the_handover() {
    let env = TestEnv::new();
    let (feat, sub, key) = two_worktrees(&env);
    for command in [
        format!("git handover task done T1 --session {key}"),
        format!("git handover task done T2 --session {key}"),
    ] {
        let run = sh(&env, &sub, &command);
        assert_eq!(run.code, 0, "{command}: {}", run.snapshot());
    }
    assert_eq!(
        read_json(&state_path(&feat, &key))["status"],
        "ALL_COMPLETE"
    );
    let add = sh(
        &env,
        &sub,
        &format!("git handover task add T3 \"more\" --session {key}"),
    );
    assert_eq!(add.code, 0, "{}", add.snapshot());
    let state = read_json(&state_path(&feat, &key));
    assert_eq!(state["status"], "READY");
    assert_eq!(state["active_tasks"].as_array().unwrap().len(), 3);
    assert_eq!(sessions_under(&feat.join(".claude/handover")), vec![key]);
    assert!(sessions_under(sub.parent().unwrap().parent().unwrap()).is_empty());
}

/// The first worktree's agent finishes the session (its last open task done, held
/// while the record is written, the session's lock held) while an agent in another
/// worktree adds a task to it by key: both writes land, in one session, and the
/// store's newest record is the file.
#[test]
fn finish_in_one_worktree_while_another_worktrees_agent_writes() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.git(&repo, &["config", "handover.store", "both"]);
    let feat = env.worktree(&repo, "feat", "feat");
    let other = env.worktree(&repo, "other", "other");
    let key = env.saved(
        &feat,
        &json!({"active_tasks": [{"id": "T1", "description": "one", "status": "in_progress"}]}),
    );
    let done = env.spawn_at_pause(&feat, &["task", "done", "T1"], "record:60000");
    let add = env.spawn_paused(
        &other,
        &["task", "--session", &key, "add", "T2", "from other"],
        "",
    );
    let (code, stdout, stderr) = finish(done);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let (code, stdout, stderr) = finish(add);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let state = read_json(&state_path(&feat, &key));
    assert_eq!(state["status"], "READY", "{state:#}");
    assert_eq!(state["active_tasks"][0]["status"], "done");
    assert_eq!(state["active_tasks"][1]["id"], "T2");
    assert_eq!(
        sessions_under(&feat.join(".claude/handover")),
        vec![key.clone()]
    );
    assert!(sessions_under(&other).is_empty());
    let log = env.json(&other, &["--json", "log", &key]);
    assert_eq!(
        log["records"][0]["state"]["session_hash"],
        state["session_hash"]
    );
}

/// `clean` from another worktree chooses the first worktree's finished session, then
/// waits; meanwhile that worktree's agent adds a task (the session READY again): clean
/// decides again under the lock and keeps it, saying it changed.
#[test]
fn clean_from_another_worktree_keeps_a_session_reopened_while_it_decided() {
    let env = TestEnv::new();
    let (feat, sub, key) = two_worktrees(&env);
    for id in ["T1", "T2"] {
        env.handover(&feat, &["task", "done", id]).assert_ok();
    }
    let clean = env.spawn_at_pause(&sub, &["clean", "--older-than", "0s"], "clean:60000");
    env.handover(&feat, &["task", "add", "T3", "more"])
        .assert_ok();
    let (code, stdout, stderr) = finish(clean);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stderr.contains("it changed since it was chosen"),
        "{stderr}"
    );
    let state = read_json(&state_path(&feat, &key));
    assert_eq!(state["status"], "READY");
    assert_eq!(state["active_tasks"].as_array().unwrap().len(), 3);
}

/// `continue` cleans its worktree's finished sessions past `handover.cleanAfter` as a
/// side effect; held after choosing one while an agent in another worktree reopens it
/// by key (`task --session KEY add`), it keeps the session, as `clean` does.
#[test]
fn continues_clean_keeps_a_session_another_worktrees_agent_reopens() {
    let mut env = TestEnv::new();
    env.now = "2026-11-10T12:00:00Z".into();
    let repo = env.repo();
    let other = env.worktree(&repo, "other", "other");
    let key = env.saved(
        &repo,
        &json!({"active_tasks": [{"id": "T1", "description": "old", "status": "done"}]}),
    );
    env.now = crate::common::NOW.into();
    env.saved(
        &repo,
        &json!({"active_tasks": [{"id": "M1", "description": "here", "status": "in_progress"}]}),
    );
    let cont = env.spawn_at_pause(&repo, &["continue"], "clean:60000");
    let reopen = env.handover(
        &other,
        &["task", "--session", &key, "add", "T2", "new work"],
    );
    reopen.assert_ok();
    let (code, stdout, stderr) = finish(cont);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let state = read_json(&state_path(&repo, &key));
    assert_eq!(state["status"], "READY", "{stdout}{stderr}");
    assert_eq!(state["active_tasks"].as_array().unwrap().len(), 2);
}
