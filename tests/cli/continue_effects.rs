//! What `git handover continue` does beside briefing: a legacy state migrated,
//! `handover.md` regenerated, finished sessions cleaned, notes copied and removed
//! (tracked ones with a commit of that path alone), rebased commits named as rewritten,
//! and nothing changed by a second run.

use crate::common::TestEnv;
use crate::common::fixture::{fixture, write_state};
use crate::continue_::{open_task, repo, session, tree};
use serde_json::json;

#[test]
fn a_legacy_state_is_migrated_then_briefed() {
    let env = TestEnv::new();
    let repo = repo(&env);
    write_state(
        &env,
        &repo.join(".claude/project-state.json"),
        &json!({"version": 2, "generated_at": "2026-11-30T11:00:00Z", "status": "READY",
                "active_tasks": [open_task("L1")]}),
    );
    let run = env.handover(&repo, &["continue"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.contains("[L1] in_progress"), "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "migrated [ROOT]/repo/.claude/project-state.json to session main/20261130-120000\n"
        ),
        "{}",
        run.stdout
    );
    assert!(!repo.join(".claude/project-state.json").exists());
    assert!(
        repo.join(".claude/handover/main/20261130-120000/handover.md")
            .exists()
    );
}

#[test]
fn handover_md_is_regenerated_and_finished_sessions_are_cleaned_unless_disabled() {
    let env = TestEnv::new();
    let repo = repo(&env);
    session(
        &env,
        &repo,
        "main/20261130-100000",
        Some("main"),
        "READY",
        &json!([open_task("A1")]),
    );
    let old = json!({"version": 3, "generated_at": "2026-11-01T00:00:00Z", "status": "ALL_COMPLETE", "active_tasks": []});
    write_state(
        &env,
        &repo.join(".claude/handover/old/20261101-000000/project-state.json"),
        &old,
    );
    env.git(&repo, &["config", "handover.autoClean", "false"]);
    let run = env.handover(&repo, &["continue"]);
    assert!(
        run.stdout.ends_with(
            "regenerated [ROOT]/repo/.claude/handover/main/20261130-100000/handover.md\n"
        ),
        "{}",
        run.stdout
    );
    assert!(repo.join(".claude/handover/old/20261101-000000").exists());
    env.git(&repo, &["config", "handover.autoClean", "true"]);
    let run = env.handover(&repo, &["continue"]);
    assert!(
        run.stdout.ends_with(
            "removed finished session [ROOT]/repo/.claude/handover/old/20261101-000000\n"
        ),
        "{}",
        run.stdout
    );
    assert!(!repo.join(".claude/handover/old").exists());
}

#[test]
fn an_untracked_note_is_copied_then_removed_and_keep_keeps_it() {
    let env = TestEnv::new();
    let repo = repo(&env);
    let note = "# Continue Here\n\n> Last updated: 2026-11-30T11:00:00Z | Branch: main\n\n## Objective\nShip\n";
    env.write(&repo.join("CONTINUE_HERE.md"), note);
    let kept = env.handover(&repo, &["continue", "--keep"]);
    assert!(!kept.stdout.contains("consumed"), "{}", kept.snapshot());
    assert!(repo.join("CONTINUE_HERE.md").exists());
    let run = env.handover(&repo, &["continue"]);
    assert!(
        run.stdout.ends_with(
            "consumed [ROOT]/repo/CONTINUE_HERE.md (a copy is in [ROOT]/repo/.claude/handover/consumed/20261130-120000-CONTINUE_HERE.md)\n"
        ),
        "{}",
        run.stdout
    );
    assert!(!repo.join("CONTINUE_HERE.md").exists());
    assert_eq!(
        std::fs::read_to_string(
            repo.join(".claude/handover/consumed/20261130-120000-CONTINUE_HERE.md")
        )
        .unwrap(),
        note
    );
}

#[test]
fn a_tracked_note_is_removed_with_git_rm_and_a_commit_of_that_path_alone() {
    let env = TestEnv::new();
    let repo = repo(&env);
    env.commit(
        &repo,
        "docs/CONTINUE_HERE.md",
        "# Continue Here\n\n## Next Steps\n1. go\n",
        "add note",
        "2026-11-30T11:00:00Z",
    );
    env.write(&repo.join("staged.txt"), "someone else's staged work\n");
    env.git(&repo, &["add", "staged.txt"]);
    let before = env.git(&repo, &["rev-parse", "HEAD"]);
    let run = env.handover(&repo, &["continue"]);
    assert!(
        run.stdout.contains("; its removal was committed)"),
        "{}",
        run.snapshot()
    );
    assert_eq!(env.git(&repo, &["rev-parse", "HEAD~1"]), before);
    assert_eq!(
        env.git(&repo, &["show", "--name-status", "--format=", "HEAD"]),
        "D\tdocs/CONTINUE_HERE.md"
    );
    assert_eq!(
        env.git(&repo, &["diff", "--cached", "--name-only"]),
        "staged.txt",
        "other staged work stays staged"
    );
    assert!(
        repo.join(".claude/handover/consumed/20261130-120000-CONTINUE_HERE.md")
            .is_file()
    );
}

#[test]
fn rebased_commits_are_briefed_as_rewritten() {
    let env = TestEnv::new();
    let repo = repo(&env);
    env.git(&repo, &["checkout", "-q", "-b", "feature"]);
    let f1 = env.commit(&repo, "f1", "1\n", "feature one", "2026-11-29T11:00:00Z");
    let f2 = env.commit(&repo, "f2", "2\n", "feature two", "2026-11-29T12:00:00Z");
    env.git(&repo, &["checkout", "-q", "main"]);
    env.commit(&repo, "m", "m\n", "main moves", "2026-11-29T13:00:00Z");
    env.git(&repo, &["checkout", "-q", "feature"]);
    env.git_at(&repo, "2026-11-29T14:00:00Z", &["rebase", "-q", "main"]);
    session(
        &env,
        &repo,
        "feature/20261130-100000",
        Some("feature"),
        "READY",
        &json!([
        {"id": "T1", "status": "done", "commit_sha": f1}, {"id": "T2", "status": "done", "commit_sha": f2},
        open_task("T3")]),
    );
    let v = env.handover(&repo, &["continue", "--json"]).json();
    let commits = v["handover"]["commits"].as_array().unwrap();
    assert_eq!(commits.len(), 2);
    for (c, rev) in commits.iter().zip(["HEAD~1", "HEAD"]) {
        assert_eq!(c["state"], "unreachable");
        assert_eq!(c["rewritten"], env.git(&repo, &["rev-parse", rev]).as_str());
    }
    let human = env.handover(&repo, &["continue"]);
    assert!(human.stdout.contains("rewritten →"), "{}", human.stdout);
    assert!(!human.stdout.contains("missing"), "{}", human.stdout);
}

#[test]
fn continue_twice_changes_nothing_the_second_time() {
    let f = fixture();
    let first = f
        .env
        .handover(&f.wt_x, &["continue", "feature/x/20261129-080000"]);
    assert_eq!(first.code, 0, "{}", first.snapshot());
    let after_first = (tree(&f.env, &f.main), tree(&f.env, &f.wt_x));
    let second = f
        .env
        .handover(&f.wt_x, &["continue", "feature/x/20261129-080000"]);
    assert_eq!(second.code, 0);
    assert_eq!((tree(&f.env, &f.main), tree(&f.env, &f.wt_x)), after_first);
    assert!(!second.stdout.contains("regenerated"), "{}", second.stdout);
}
