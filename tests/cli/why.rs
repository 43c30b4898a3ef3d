//! `why REV` (issue 34, item 7): which session and task recorded a commit, from the
//! files, then from the notes store once the worktree's session is gone, and on another
//! clone after `sync`; a short sha counts only when git resolves it to that commit.

use crate::common::TestEnv;
use serde_json::{Value, json};

fn state(task_sha: &str, change_sha: &str) -> Value {
    json!({"active_tasks": [
        {"id": "T1", "status": "done", "description": "Port the lexer", "commit_sha": task_sha},
        {"id": "T2", "status": "pending", "description": "Write the guide"}],
     "architecture_changes": [{"commit_sha": change_sha, "summary": "lexer split in two"}]})
}

/// A repository with the store on whose HEAD, "Port the lexer", a saved session's task
/// T1 names by its short sha and an architecture change by its full one: (repo, sha).
pub(crate) fn recorded(env: &TestEnv) -> (std::path::PathBuf, String) {
    let repo = env.repo();
    let sha = env.commit(
        &repo,
        "lex.rs",
        "x\n",
        "Port the lexer",
        "2026-11-30T11:00:00Z",
    );
    env.git(&repo, &["config", "handover.store", "both"]);
    env.save(&repo, &state(&sha[..7], sha.trim()), &[])
        .assert_ok();
    (repo, sha)
}

#[test]
fn a_commit_is_traced_to_its_task_from_the_files_then_from_the_store() {
    let env = TestEnv::new();
    let (repo, sha) = recorded(&env);
    insta::assert_snapshot!(
        "why_files",
        env.redact(&env.handover(&repo, &["why", "HEAD"]).snapshot())
    );
    // The session's directory removed (cleaned, or its worktree gone): the store answers.
    std::fs::remove_dir_all(repo.join(".claude/handover")).unwrap();
    let doc = env.json(&repo, &["--json", "why", "HEAD"]);
    assert_eq!(doc["schema"], "git-handover/why/1");
    let recorded = doc["recorded"].as_array().unwrap();
    assert_eq!(recorded.len(), 2, "{doc:#}");
    assert_eq!(recorded[0]["kind"], "task");
    assert_eq!(recorded[0]["task"], "T1");
    assert_eq!(recorded[0]["source"], "notes");
    assert_eq!(recorded[1]["kind"], "architecture_change");
    // A commit nothing recorded: exit 1.
    let none = env.handover(&repo, &["why", "HEAD~1"]);
    assert_eq!(none.code, 1, "{}", none.stdout);
    insta::assert_snapshot!("why_nothing", env.redact(&none.snapshot()));
    // Another clone, after a sync, answers the same.
    let bare = env.root().join("origin.git");
    env.git(
        env.root(),
        &[
            "clone",
            "-q",
            "--bare",
            repo.to_str().unwrap(),
            "origin.git",
        ],
    );
    env.git(&repo, &["remote", "add", "origin", bare.to_str().unwrap()]);
    env.handover(&repo, &["sync", "origin"]).assert_ok();
    env.git(
        env.root(),
        &["clone", "-q", bare.to_str().unwrap(), "other"],
    );
    let other = env.root().join("other");
    env.handover(&other, &["sync", "origin"]).assert_ok();
    let doc = env.json(&other, &["--json", "why", sha.trim()]);
    assert_eq!(doc["recorded"].as_array().unwrap().len(), 2, "{doc:#}");
}

#[test]
fn a_short_sha_that_git_resolves_elsewhere_is_not_claimed() {
    let env = TestEnv::new();
    let repo = env.repo();
    let sha = env.commit(
        &repo,
        "lex.rs",
        "x\n",
        "Port the lexer",
        "2026-11-30T11:00:00Z",
    );
    let sha = sha.trim().to_owned();
    // Eight digits of the commit, but the ninth changed: a prefix of no commit here.
    let mut wrong = sha[..8].to_owned();
    wrong.push(if sha.as_bytes()[8] == b'0' { '1' } else { '0' });
    env.save(&repo, &state(&wrong, "0000000"), &[]).assert_ok();
    let run = env.handover(&repo, &["--json", "why", "HEAD"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
}

#[test]
fn a_state_that_cannot_be_read_is_named_not_skipped_silently() {
    let env = TestEnv::new();
    let repo = env.repo();
    let file = repo.join(".claude/handover/main/20261130-110000/project-state.json");
    env.write(&file, "{\"active_tasks\": [");
    let run = env.handover(&repo, &["why", "HEAD"]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("project-state.json"), "{}", run.stderr);
    assert!(run.stderr.contains("not searched"), "{}", run.stderr);
}
