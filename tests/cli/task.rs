//! The commands users reach for (issue 18): `task list`, `task show`, `task edit`,
//! `task remove`, `status --short`, and `status --check` listing only what needs
//! attention. Human and JSON output are snapshots. And `task done` storing the full
//! sha, unknown keys of the original tools kept through it.

use crate::common::{TestEnv, read_json};
use serde_json::{Value, json};

fn session(env: &TestEnv) -> std::path::PathBuf {
    let repo = env.repo();
    env.write(
        &repo.join(".claude/handover/main/20261130-110000/project-state.json"),
        &serde_json::json!({"version": 4, "generated_at": "2026-11-30T11:00:00Z", "status": "READY",
            "session_id": "s-1", "workspace": {"branch": "main"}, "active_tasks": [
            {"id": "T1", "status": "in_progress", "description": "Port the lexer\nkeep the old API",
             "next_action": "heredocs", "file_paths": ["src/lex.rs"], "last_touched": "2026-11-30T11:00:00Z",
             "attempted_approaches": [{"approach": "regex", "result": "failed", "reason": "backtracking"}]},
            {"id": "T2", "status": "pending", "description": "Write the guide"},
            {"id": "T3", "status": "done", "description": "Sketch", "commit_sha": "HEAD"}]})
        .to_string(),
    );
    repo
}

#[test]
fn task_list_and_show_read_the_session_whole() {
    let env = TestEnv::new();
    let repo = session(&env);
    insta::assert_snapshot!(
        "task_list",
        env.handover(&repo, &["task", "list"]).snapshot()
    );
    insta::assert_snapshot!(
        "task_list_json",
        env.handover(&repo, &["--json", "task", "list"]).snapshot()
    );
    insta::assert_snapshot!(
        "task_show",
        env.handover(&repo, &["task", "show", "T1"]).snapshot()
    );
    insta::assert_snapshot!(
        "task_show_json",
        env.handover(&repo, &["--json", "task", "show", "T1"])
            .snapshot()
    );
    let missing = env.handover(&repo, &["task", "show", "T9"]);
    assert_eq!(missing.code, 2, "{}", missing.snapshot());
    assert!(missing.stderr.contains("T9"));
}

#[test]
fn task_edit_changes_what_is_given_and_remove_removes() {
    let env = TestEnv::new();
    let repo = session(&env);
    let run = env.handover(
        &repo,
        &[
            "task",
            "edit",
            "T2",
            "--next",
            "outline first",
            "--file",
            "docs/guide.md",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let run = env.handover(&repo, &["--json", "task", "show", "T2"]);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["task"]["description"], "Write the guide", "kept");
    assert_eq!(v["task"]["next_action"], "outline first");
    assert_eq!(
        v["task"]["file_paths"],
        serde_json::json!(["docs/guide.md"])
    );
    let nothing = env.handover(&repo, &["task", "edit", "T2"]);
    assert_eq!(nothing.code, 2, "{}", nothing.snapshot());
    let run = env.handover(&repo, &["task", "remove", "T2"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    insta::assert_snapshot!("task_remove", run.snapshot());
    let run = env.handover(
        &repo,
        &[
            "--json",
            "task",
            "edit",
            "T1",
            "--description",
            "Port the lexer",
        ],
    );
    insta::assert_snapshot!("task_edit_json", run.snapshot());
    let run = env.handover(&repo, &["task", "edit", "T1", "--next", "heredocs first"]);
    insta::assert_snapshot!("task_edit", run.snapshot());
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_git-handover"));
    let out = env
        .command(bin)
        .current_dir(&repo)
        .args(["hook", "pre-compact", "--agent", "claude"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    insta::assert_snapshot!(
        "hook_pre_compact",
        format!(
            "exit: {}\n--- stdout\n{}",
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout)
        )
    );
    let run = env.handover(&repo, &["--json", "task", "list"]);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let ids: Vec<&str> = v["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["T1", "T3"]);
}

#[test]
fn status_short_is_a_line_per_handover_and_check_lists_only_what_needs_attention() {
    let env = TestEnv::new();
    let repo = session(&env);
    env.write(&repo.join("CONTINUE_HERE.md"), "# Continue Here\n\n> Last updated: 2026-11-30T11:30:00Z | Branch: main\n\n## Objective\nship it\n");
    env.write(
        &repo.join(".claude/handover/main/20261120-110000/project-state.json"),
        &serde_json::json!({"version": 4, "generated_at": "2026-11-20T11:00:00Z", "status": "READY",
            "workspace": {"branch": "main"}, "active_tasks": [
            {"id": "O1", "status": "in_progress", "description": "old work", "last_touched": "2026-11-20T11:00:00Z"}]})
        .to_string(),
    );
    insta::assert_snapshot!(
        "status_short",
        env.handover(&repo, &["status", "--short"]).snapshot()
    );
    insta::assert_snapshot!(
        "status_short_check",
        env.handover(&repo, &["status", "-s", "--check"]).snapshot()
    );
    insta::assert_snapshot!(
        "status_check",
        env.handover(&repo, &["status", "--check"]).snapshot()
    );
}

#[test]
fn task_done_stores_the_full_sha_and_the_last_one_completes_the_session() {
    let env = TestEnv::new();
    let repo = env.repo();
    let second = env.commit(&repo, "b.txt", "b\n", "second", "2026-11-30T11:00:00Z");
    let first = env.git(&repo, &["rev-parse", "HEAD~1"]);
    assert_eq!(
        env.handover(&repo, &["task", "add", "T1", "One", "--file", "a.txt"])
            .code,
        0
    );
    assert_eq!(
        env.handover(&repo, &["task", "add", "T2", "Two", "--next", "write it"])
            .code,
        0
    );
    let run = env.handover(&repo, &["task", "done", "T1", "--commit", "HEAD~1"]);
    assert_eq!(
        run.stdout,
        format!(
            "[T1] done in main/20261130-120000 (READY), recording commit {} \"first\"\n",
            &first[..7]
        ),
        "{}",
        run.snapshot()
    );
    let run = env.handover(&repo, &["task", "done", "T2"]);
    assert_eq!(
        run.stdout,
        format!(
            "[T2] done in main/20261130-120000 (ALL_COMPLETE), recording commit {} \"second\"\n",
            &second[..7]
        )
    );
    let dir = repo.join(".claude/handover/main/20261130-120000");
    let state = read_json(&dir.join("project-state.json"));
    assert_eq!(state["active_tasks"][0]["commit_sha"], first.as_str());
    assert_eq!(state["active_tasks"][1]["commit_sha"], second.as_str());
    assert_eq!(
        state["active_tasks"][1]["last_touched"],
        "2026-11-30T12:00:00+00:00"
    );
    let md = std::fs::read_to_string(dir.join("handover.md")).unwrap();
    assert!(md.contains(&format!("- [T2] Two ({second})")), "{md}");
    assert!(md.contains("> Status: ALL_COMPLETE"), "{md}");
    let bad = env.handover(&repo, &["task", "done", "T1", "--commit", "no-such-rev"]);
    insta::assert_snapshot!(bad.snapshot(), @r#"
    exit: 2
    --- stdout
    --- stderr
    git-handover: cannot resolve "no-such-rev" to a commit
    hint: name a commit: a sha, a branch, HEAD~1
    "#);
}

#[test]
fn a_state_written_by_the_original_tools_keeps_every_unknown_key_through_task_done() {
    let env = TestEnv::new();
    let repo = env.repo();
    let dir = repo.join(".claude/handover/main/20261129-080000");
    let original = json!({
        "version": 3,
        "generated_at": "2026-11-29T08:00:00+09:00",
        "session_id": "shell-tool-session",
        "status": "READY",
        "workspace": {"root": repo.display().to_string(), "branch": "main", "is_worktree": false, "shell": "zsh"},
        "agent_model": {"name": "some-model", "temperature": 0.70},
        "active_tasks": [
            {"id": "T1", "description": "d", "status": "in_progress", "file_paths": [], "priority": 1,
             "notes": {"tried": ["a", "b"]}, "last_touched": "2026-11-29T08:00:00+09:00"}
        ],
        "recent_decisions": [{"decision": "x", "rationale": "y", "date": "2026-11-29", "author": "agent-7"}],
        "architecture_changes": [],
        "known_issues": [{"description": "flaky", "severity": "low", "ticket": 42}],
        "session_hash": "whatever-the-shell-tool-wrote"
    });
    // Written as the shell tools would (jq), with a number spelt `0.70`.
    let text = serde_json::to_string_pretty(&original)
        .unwrap()
        .replace("0.7", "0.70");
    env.write(&dir.join("project-state.json"), &text);
    let original: Value = serde_json::from_str(&text).unwrap();
    let run = env.handover(&repo, &["task", "done", "T1"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let after = read_json(&dir.join("project-state.json"));
    assert_eq!(after["workspace"]["shell"], "zsh");
    assert_eq!(after["agent_model"], original["agent_model"]);
    assert_eq!(after["active_tasks"][0]["priority"], 1);
    assert_eq!(
        after["active_tasks"][0]["notes"],
        original["active_tasks"][0]["notes"]
    );
    assert_eq!(after["recent_decisions"][0]["author"], "agent-7");
    assert_eq!(after["known_issues"][0]["ticket"], 42);
    assert_eq!(after["status"], "ALL_COMPLETE");
    let text = std::fs::read_to_string(dir.join("project-state.json")).unwrap();
    assert!(text.contains("0.70"), "numbers keep their spelling: {text}");
    let keys: Vec<&String> = after.as_object().unwrap().keys().collect();
    let mut original_keys: Vec<&String> = original.as_object().unwrap().keys().collect();
    // The write count and the state it replaced are the keys added, after the id
    // (SPEC section 8).
    let (seq, parent) = ("seq".to_owned(), "parent_hash".to_owned());
    let at = original_keys
        .iter()
        .position(|k| *k == "session_id")
        .unwrap();
    original_keys.insert(at + 1, &seq);
    original_keys.insert(at + 2, &parent);
    assert_eq!(keys, original_keys, "key order is kept");
    assert_eq!(after["seq"], 1, "the first write the tool counts");
    assert!(
        after["parent_hash"].is_string(),
        "and names what it replaced"
    );
}

/// Issue 32, item 1: a key a briefing printed about another worktree's session works
/// from the worktree the agent stands in; the record names the session's worktree.
#[test]
fn session_names_a_session_of_any_worktree() {
    let env = TestEnv::new();
    let repo = session(&env);
    let b = env.worktree(&repo, "wt-b", "feature/b");
    let start = env.handover(
        &b,
        &["task", "--session", "main/20261130-110000", "start", "T2"],
    );
    start.assert_ok();
    let state = read_json(&repo.join(".claude/handover/main/20261130-110000/project-state.json"));
    assert_eq!(state["active_tasks"][1]["status"], "in_progress");
    assert!(
        !b.join(".claude/handover").exists(),
        "nothing is written in the caller's worktree"
    );
    let list = env.handover(&b, &["task", "list", "--session", "main/20261130-110000"]);
    list.assert_ok();
    assert!(list.stdout.contains("T2"), "{}", list.stdout);
    let none = env.handover(&b, &["task", "--session", "main/nosuch", "start", "T2"]);
    assert_eq!(none.code, 2, "{}", none.stderr);
    assert!(none.stderr.contains("any worktree"), "{}", none.stderr);
}

/// Issue 32, item 8: a reopened task is open again, so the commit that finished it and
/// what blocked it go; a later status does not check the old commit as the task's.
#[test]
fn reopen_clears_the_commit_and_the_blockers() {
    let env = TestEnv::new();
    let repo = env.repo();
    assert_eq!(env.handover(&repo, &["task", "add", "T4", "Four"]).code, 0);
    assert_eq!(env.handover(&repo, &["task", "done", "T4"]).code, 0);
    let dir = repo.join(".claude/handover/main/20261130-120000");
    assert!(
        read_json(&dir.join("project-state.json"))["active_tasks"][0]["commit_sha"].is_string()
    );
    let run = env.handover(&repo, &["task", "reopen", "T4"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let task = &read_json(&dir.join("project-state.json"))["active_tasks"][0];
    assert_eq!(task["status"], "in_progress");
    assert_eq!(task.get("commit_sha"), None, "{task}");
    assert_eq!(task.get("blockers"), None, "{task}");
    let md = std::fs::read_to_string(dir.join("handover.md")).unwrap();
    assert!(
        !md.contains(&env.git(&repo, &["rev-parse", "HEAD"])),
        "{md}"
    );
}
