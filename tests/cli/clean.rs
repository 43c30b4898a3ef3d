//! `clean`: old finished sessions removed in every worktree, and nothing else; a
//! finished team removed alone.

use std::path::Path;

use crate::common::{TestEnv, sessions_under};
use serde_json::json;

#[test]
fn clean_removes_old_finished_sessions_in_every_worktree_and_nothing_else() {
    let env = TestEnv::new();
    let repo = env.repo();
    let wt = env.worktree(&repo, "wt", "other");
    let write = |dir: &Path, key: &str, status: &str, at: &str| {
        env.write(
            &dir.join(".claude/handover")
                .join(key)
                .join("project-state.json"),
            &json!({"version": 3, "generated_at": at, "status": status, "active_tasks": []})
                .to_string(),
        );
    };
    write(
        &repo,
        "main/20261101-000000",
        "ALL_COMPLETE",
        "2026-11-01T00:00:00Z",
    );
    write(
        &repo,
        "main/20261129-000000",
        "ALL_COMPLETE",
        "2026-11-29T00:00:00Z",
    );
    write(
        &repo,
        "main/20261102-000000",
        "READY",
        "2026-11-02T00:00:00Z",
    );
    write(
        &wt,
        "other/20261103-000000",
        "ALL_COMPLETE",
        "2026-11-03T00:00:00Z",
    );
    env.write(
        &repo.join(".claude/handover/main/20261101-000000/notes.txt"),
        "mine, not the tool's",
    );
    let outside = env.root().join("outside-session");
    write(&outside, "x/1", "ALL_COMPLETE", "2026-11-01T00:00:00Z");
    std::os::unix::fs::symlink(
        outside.join(".claude/handover/x"),
        repo.join(".claude/handover/linked"),
    )
    .unwrap();

    let dry = env.handover(&repo, &["clean", "--dry-run"]);
    insta::assert_snapshot!(dry.snapshot(), @r"
    exit: 0
    --- stdout
    would remove [ROOT]/repo/.claude/handover/main/20261101-000000
    would remove [ROOT]/wt/.claude/handover/other/20261103-000000
    2 sessions would be removed
    --- stderr
    git-handover: warning: skipped [ROOT]/repo/.claude/handover/linked: a symbolic link: not followed, not removed
    ");
    assert!(
        repo.join(".claude/handover/main/20261101-000000/project-state.json")
            .exists()
    );
    let run = env.handover(&repo, &["clean"]);
    insta::assert_snapshot!(run.snapshot(), @r"
    exit: 0
    --- stdout
    removing [ROOT]/repo/.claude/handover/main/20261101-000000
    removing [ROOT]/wt/.claude/handover/other/20261103-000000
    kept [ROOT]/repo/.claude/handover/main/20261101-000000: the session's own files were removed, but it holds notes.txt, which git-handover did not write (remove it by hand when done)
    removed 2 sessions
    --- stderr
    git-handover: warning: skipped [ROOT]/repo/.claude/handover/linked: a symbolic link: not followed, not removed
    ");
    assert_eq!(
        sessions_under(&repo.join(".claude/handover")),
        ["main/20261102-000000", "main/20261129-000000"]
    );
    assert!(
        repo.join(".claude/handover/main/20261101-000000/notes.txt")
            .exists()
    );
    assert!(
        !wt.join(".claude/handover/other").exists(),
        "empty parents are removed"
    );
    assert!(
        outside
            .join(".claude/handover/x/1/project-state.json")
            .exists(),
        "nothing behind the link is touched"
    );
    let older = env.handover(&repo, &["clean", "--older-than", "12h"]);
    assert!(
        older.stdout.contains("main/20261129-000000"),
        "{}",
        older.snapshot()
    );
}

#[test]
fn clean_team_removes_a_finished_team_only() {
    let env = TestEnv::new();
    let repo = env.repo();
    let write = |key: &str, status: &str| {
        env.write(
            &repo.join(".claude/handover").join(key).join("project-state.json"),
            &json!({"version": 3, "generated_at": "2026-11-30T11:00:00Z", "status": status, "active_tasks": []}).to_string(),
        );
    };
    write("done-team/a", "ALL_COMPLETE");
    write("done-team/b", "ALL_COMPLETE");
    write("busy-team/a", "ALL_COMPLETE");
    write("busy-team/b", "READY");
    let run = env.handover(&repo, &["clean", "--team", "busy-team"]);
    assert!(
        run.stderr
            .contains("the team has unfinished sessions: busy-team/b"),
        "{}",
        run.snapshot()
    );
    assert!(repo.join(".claude/handover/busy-team/a").exists());
    let run = env.handover(&repo, &["clean", "--team", "done-team"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(!repo.join(".claude/handover/done-team").exists());
    assert_eq!(env.handover(&repo, &["clean", "--team", "../x"]).code, 2);
}
