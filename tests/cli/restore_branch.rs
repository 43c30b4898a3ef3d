//! Issue 32, item 14: a session kept only in the notes store is restored into the
//! worktree on its branch when there is one, else here, judged against its own branch.

use std::path::PathBuf;

use crate::common::{TestEnv, read_json};
use crate::seams::{run_all, sh, state};

/// A repository whose notes store holds a session of `feature/parser` (saved in a
/// worktree on it), and a second clone of it with the notes fetched, on `main`.
fn second_clone(env: &TestEnv) -> (PathBuf, String) {
    let repo = env.repo();
    env.git(&repo, &["config", "handover.store", "notes"]);
    let wt = env.worktree(&repo, "wt-parser", "feature/parser");
    env.commit(&wt, "p.rs", "p\n", "parser work", "2026-11-30T10:30:00Z");
    let key = env.saved(&wt, &state("feature/parser"));
    let clone = env.root().join("clone");
    env.git(
        env.root(),
        &["clone", "-q", repo.to_str().unwrap(), "clone"],
    );
    env.git(
        &clone,
        &[
            "fetch",
            "-q",
            "origin",
            "refs/notes/handover:refs/notes/handover",
        ],
    );
    env.git(&clone, &["config", "handover.store", "notes"]);
    (clone, key)
}

/// Issue 32, item 14: with a worktree on the session's branch, `continue KEY` from a
/// worktree on another branch restores into that one, and says so before the briefing.
#[test]
fn continue_of_a_stored_session_restores_into_the_worktree_on_its_branch() {
    let env = TestEnv::new();
    let (clone, key) = second_clone(&env);
    let parser = env.root().join("clone-parser");
    env.git(
        &clone,
        &[
            "worktree",
            "add",
            "-q",
            parser.to_str().unwrap(),
            "feature/parser",
        ],
    );
    let run = env.handover(&clone, &["continue", &key]);
    run.assert_ok();
    let file = parser
        .join(".claude/handover")
        .join(&key)
        .join("project-state.json");
    assert!(file.is_file(), "{}", run.snapshot());
    assert!(!clone.join(".claude/handover").join(&key).exists());
    assert_eq!(
        read_json(&file)["workspace"]["root"],
        parser.display().to_string()
    );
    let restored = run.stdout.find("restored session").expect("said");
    let briefing = run
        .stdout
        .find("Resuming in [ROOT]/clone-parser")
        .expect("resumed there");
    assert!(
        restored < briefing,
        "said before the briefing:\n{}",
        run.stdout
    );
    assert!(!run.stdout.contains("stale"), "{}", run.stdout);
    assert!(!run.stdout.contains("git switch"), "{}", run.stdout);
    // Its commands run as printed from where the agent stands.
    assert_eq!(run_all(&env, &clone, &run.stdout, Some(&file)), 4);
}

/// Without one, it is restored here, judged against its own branch (its commits, from
/// the remote-tracking branch of a clone), and the switch is named first.
#[test]
fn continue_of_a_stored_session_on_another_branch_names_it_and_judges_it_by_it() {
    let env = TestEnv::new();
    let (clone, key) = second_clone(&env);
    let run = env.handover(&clone, &["continue", &key]);
    run.assert_ok();
    let out = &run.stdout;
    let switch = out.find("`git switch feature/parser`").expect(out);
    let briefing = out.find("Resuming in").expect(out);
    assert!(switch < briefing, "said before the briefing:\n{out}");
    assert!(!out.contains("(worktree is on main)"), "{out}");
    assert!(!out.contains("stale"), "{out}");
    assert!(out.contains("parser work"), "the branch's commits: {out}");
    let json = env.json(&clone, &["--json", "status"]);
    assert_eq!(json["worktrees"][0]["handovers"][0]["key"], key.as_str());
    // The switch runs as printed (git makes the branch from origin's).
    let run = sh(&env, &clone, "git switch -q feature/parser");
    run.assert_ok();
    assert_eq!(
        env.git(&clone, &["branch", "--show-current"]),
        "feature/parser"
    );
}
