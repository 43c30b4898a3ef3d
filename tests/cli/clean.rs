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
    would remove [ROOT]/wt/.claude/handover/other/20261103-000000
    1 session would be removed
    --- stderr
    git-handover: warning: skipped [ROOT]/repo/.claude/handover/linked: a symbolic link: not followed, not removed
    git-handover: warning: skipped [ROOT]/repo/.claude/handover/main/20261101-000000: finished, but it holds notes.txt, which git-handover did not write: kept whole (move those out, or remove the directory by hand, when done)
    ");
    assert!(
        repo.join(".claude/handover/main/20261101-000000/project-state.json")
            .exists()
    );
    let run = env.handover(&repo, &["clean"]);
    insta::assert_snapshot!(run.snapshot(), @r"
    exit: 0
    --- stdout
    removing [ROOT]/wt/.claude/handover/other/20261103-000000
    removed 1 session
    --- stderr
    git-handover: warning: skipped [ROOT]/repo/.claude/handover/linked: a symbolic link: not followed, not removed
    git-handover: warning: skipped [ROOT]/repo/.claude/handover/main/20261101-000000: finished, but it holds notes.txt, which git-handover did not write: kept whole (move those out, or remove the directory by hand, when done)
    ");
    // Kept whole: its state is still there, so status and clean still see it.
    assert_eq!(
        sessions_under(&repo.join(".claude/handover")),
        [
            "main/20261101-000000",
            "main/20261102-000000",
            "main/20261129-000000"
        ]
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

/// Issue 32, item 18: a finished session whose directory holds what the tool did not
/// write (a `phase-summaries/` folder) is kept whole by `clean` and by `continue`'s
/// auto-clean, each saying why (human and JSON); never a directory without its state.
#[test]
fn a_session_holding_other_files_is_kept_whole_and_said_why() {
    let env = TestEnv::new();
    let repo = env.repo();
    let dir = repo.join(".claude/handover/main/20261101-000000");
    env.write(
        &dir.join("project-state.json"),
        &json!({"version": 4, "generated_at": "2026-11-01T00:00:00Z", "status": "ALL_COMPLETE",
            "active_tasks": [{"id": "T1", "status": "done"}]})
        .to_string(),
    );
    env.write(&dir.join("phase-summaries/1.md"), "phase one\n");
    let run = env.handover(&repo, &["clean", "--json"]);
    run.assert_ok();
    let doc = run.json();
    assert_eq!(doc["removed"], json!([]), "{doc}");
    assert_eq!(
        doc["skipped"][0]["path"],
        env.redact(&dir.display().to_string())
    );
    assert!(
        doc["skipped"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("it holds phase-summaries/, which git-handover did not write: kept whole"),
        "{doc}"
    );
    assert!(dir.join("project-state.json").exists());
    assert!(dir.join("phase-summaries/1.md").exists());
    // `continue`'s auto-clean keeps it too, and says so.
    env.write(
        &repo.join(".claude/handover/main/20261130-110000/project-state.json"),
        &json!({"version": 4, "generated_at": "2026-11-30T11:00:00Z", "status": "READY",
            "workspace": {"branch": "main"},
            "active_tasks": [{"id": "T2", "status": "in_progress", "description": "d"}]})
        .to_string(),
    );
    let cont = env.handover(&repo, &["continue"]);
    cont.assert_ok();
    let all = format!("{}{}", cont.stdout, cont.stderr);
    assert!(
        all.contains(&format!(
            "kept {}: finished, but it holds files git-handover did not write, so it was not cleaned (phase-summaries/)",
            env.redact(&dir.display().to_string())
        )),
        "{}",
        cont.snapshot()
    );
    assert!(dir.join("project-state.json").exists());
    let json = env.json(&repo, &["continue", "--json"]);
    let kept: Vec<&serde_json::Value> = json["effects"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "kept")
        .collect();
    assert_eq!(kept.len(), 1, "{json}");
    assert_eq!(kept[0]["path"], env.redact(&dir.display().to_string()));
    // Once the other files are moved out, clean removes it whole.
    std::fs::remove_dir_all(dir.join("phase-summaries")).unwrap();
    let run = env.handover(&repo, &["clean"]);
    run.assert_ok();
    assert!(!dir.exists(), "{}", run.snapshot());
}

/// Item 18, raced: a file written into a finished session after `clean` chose it (it
/// waits at its pause) is seen under the session's lock: kept whole, nothing removed.
#[test]
fn a_file_written_after_clean_chose_the_session_keeps_it_whole() {
    let env = TestEnv::new();
    let repo = env.repo();
    let dir = repo.join(".claude/handover/main/20261101-000000");
    env.write(
        &dir.join("project-state.json"),
        &json!({"version": 4, "generated_at": "2026-11-01T00:00:00Z", "status": "ALL_COMPLETE",
            "active_tasks": []})
        .to_string(),
    );
    let clean = env.spawn_at_pause(&repo, &["clean"], "clean:60000");
    env.write(&dir.join("phase-summaries/2.md"), "late\n");
    let (code, stdout, stderr) = crate::common::finish(clean);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(!stdout.contains("removing"), "{stdout}");
    assert!(stderr.contains("kept whole"), "{stderr}");
    assert!(dir.join("project-state.json").exists());
    assert!(dir.join("phase-summaries/2.md").exists());
}
