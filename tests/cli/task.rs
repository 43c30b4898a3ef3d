//! The commands users reach for (issue 18): `task list`, `task show`, `task edit`,
//! `task remove`, `status --short`, and `status --check` listing only what needs
//! attention. Human and JSON output are snapshots.

use crate::common::TestEnv;

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
