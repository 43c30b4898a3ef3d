//! `git handover continue`: each resolution step, each side effect, the prompt through
//! a real pseudo-terminal, and snapshots of the briefings.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::TestEnv;
use crate::common::fixture::{fixture, write_state};
use serde_json::{Value, json};

fn repo(env: &TestEnv) -> PathBuf {
    let repo = env.init("repo");
    env.commit(&repo, "a.txt", "a\n", "first", "2026-11-29T10:00:00Z");
    repo
}

fn session(
    env: &TestEnv,
    worktree: &Path,
    key: &str,
    branch: Option<&str>,
    status: &str,
    tasks: &Value,
) {
    let mut state = json!({"version": 3, "generated_at": "2026-11-30T11:00:00Z", "session_id": key,
                           "status": status, "active_tasks": tasks});
    if let Some(b) = branch {
        state["workspace"] = json!({"root": worktree.display().to_string(), "branch": b});
    }
    write_state(
        env,
        &worktree
            .join(".claude/handover")
            .join(key)
            .join("project-state.json"),
        &state,
    );
}

fn open_task(id: &str) -> Value {
    json!({"id": id, "description": format!("work on {id}"), "status": "in_progress",
           "last_touched": "2026-11-30T11:00:00Z"})
}

/// Every file under `dir` (except `.git`) with its content, and HEAD: what a run changed.
fn tree(env: &TestEnv, dir: &Path) -> (BTreeMap<String, Vec<u8>>, String) {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if e.file_name() == ".git" {
                continue;
            }
            if e.file_type().unwrap().is_dir() {
                walk(base, &p, out);
            } else {
                out.insert(
                    p.strip_prefix(base).unwrap().display().to_string(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    let mut files = BTreeMap::new();
    walk(dir, dir, &mut files);
    (files, env.git(dir, &["rev-parse", "HEAD"]))
}

#[test]
fn nothing_to_resume_exits_one() {
    let env = TestEnv::new();
    let repo = repo(&env);
    let run = env.handover(&repo, &["continue"]);
    insta::assert_snapshot!(run.snapshot(), @r"
    exit: 1
    --- stdout
    nothing to resume: no ready session, legacy state or continue-here note in any worktree
    --- stderr
    ");
    assert_eq!(
        env.handover(&repo, &["continue", "--json"]).json()["outcome"],
        "nothing"
    );
}

#[test]
fn an_explicit_key_or_path_wins() {
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
    session(
        &env,
        &repo,
        "main/20261130-110000",
        Some("main"),
        "READY",
        &json!([open_task("B1")]),
    );
    let by_key = env
        .handover(&repo, &["continue", "main/20261130-100000", "--json"])
        .json();
    assert_eq!(by_key["open_tasks"][0]["id"], "A1");
    let dir = repo.join(".claude/handover/main/20261130-110000");
    for target in [dir.clone(), dir.join("project-state.json")] {
        let run = env.handover(
            &repo.join(".claude"),
            &["continue", target.to_str().unwrap(), "--json"],
        );
        assert_eq!(
            run.json()["open_tasks"][0]["id"],
            "B1",
            "{}",
            target.display()
        );
    }
    let relative = env.handover(
        &repo,
        &[
            "continue",
            ".claude/handover/main/20261130-110000",
            "--json",
        ],
    );
    assert_eq!(relative.json()["handover"]["key"], "main/20261130-110000");
    let missing = env.handover(&repo, &["continue", "main/nope"]);
    assert_eq!(missing.code, 1, "{}", missing.snapshot());
    let escape = env.handover(&repo, &["continue", "../../etc"]);
    assert_eq!(escape.code, 2, "{}", escape.snapshot());
}

#[test]
fn team_mode_picks_the_team_session() {
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
    session(
        &env,
        &repo,
        "alpha/reviewer",
        None,
        "READY",
        &json!([open_task("R1")]),
    );
    let run = env.handover(
        &repo,
        &[
            "continue", "--team", "alpha", "--agent", "reviewer", "--json",
        ],
    );
    assert_eq!(run.json()["open_tasks"][0]["id"], "R1");
    let run = env.handover_with(&repo, &["continue", "--json"], |c| {
        c.env("GIT_HANDOVER_TEAM", "alpha")
            .env("GIT_HANDOVER_AGENT", "reviewer");
    });
    assert_eq!(run.json()["open_tasks"][0]["id"], "R1");
    let none = env.handover(&repo, &["continue", "--team", "alpha", "--agent", "writer"]);
    assert_eq!(none.code, 1, "{}", none.snapshot());
}

#[test]
fn other_worktrees_are_searched_and_announced() {
    let env = TestEnv::new();
    let repo = repo(&env);
    let empty = env.worktree(&repo, "empty-wt", "side");
    session(
        &env,
        &repo,
        "main/20261130-100000",
        Some("main"),
        "READY",
        &json!([open_task("A1")]),
    );
    let run = env.handover(&empty, &["continue", "--keep"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        run.stdout
            .starts_with("no sessions here, but worktree [ROOT]/repo has: main/20261130-100000\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("[A1] in_progress work on A1"),
        "{}",
        run.stdout
    );
}

/// This worktree is searched first on its own; when it holds only finished sessions,
/// the search goes on among the others without reading and judging these again (each
/// judging walks history: the hook would pay twice). The test point at the first
/// recorded commit asked about (`resolve`) counts how many times it was judged.
#[test]
fn finished_sessions_here_are_judged_once_and_the_search_goes_on() {
    let env = TestEnv::new();
    let repo = repo(&env);
    let first = env.git(&repo, &["rev-parse", "HEAD"]);
    let other = env.worktree(&repo, "other-wt", "side");
    session(
        &env,
        &repo,
        "main/20261130-090000",
        Some("main"),
        "ALL_COMPLETE",
        &json!([{"id": "D1", "status": "done", "commit_sha": first.trim()}]),
    );
    session(
        &env,
        &other,
        "side/20261130-100000",
        Some("side"),
        "READY",
        &json!([open_task("B1")]),
    );
    let log = env.event_log("continue");
    let run = env.handover_with(&repo, &["--json", "continue", "--keep"], |c| {
        c.env("GIT_HANDOVER_TEST_LOG", log.path());
    });
    let v = run.json();
    assert_eq!(
        v["handover"]["key"],
        "side/20261130-100000",
        "{}",
        run.snapshot()
    );
    assert!(
        v["announcements"][0]
            .as_str()
            .unwrap()
            .starts_with("no sessions here, but worktree [ROOT]/other-wt has"),
        "{}",
        run.snapshot()
    );
    assert_eq!(log.count("resolve"), 1, "judged once, not twice");
}

#[test]
fn several_candidates_without_a_terminal_list_and_exit_two() {
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
    session(
        &env,
        &repo,
        "main/20261130-110000",
        Some("main"),
        "READY",
        &json!([open_task("B1")]),
    );
    env.write(
        &repo.join("CONTINUE_HERE.md"),
        "# Continue Here\n\n## Next Steps\n1. something\n",
    );
    let run = env.handover(&repo, &["continue"]);
    insta::assert_snapshot!(run.snapshot(), @r"
    exit: 2
    --- stdout
     1) main/20261130-100000  branch main  fingerprint 20261130-100000  0 done / 1 remaining  next: [A1] work on A1
     2) main/20261130-110000  branch main  fingerprint 20261130-110000  0 done / 1 remaining  next: [B1] work on B1
     3) CONTINUE_HERE.md  continue-here note  next: something
    --- stderr
    git-handover: several handovers could be resumed; name one
    hint: git handover continue <key or path from the list>
    ");
    assert!(
        repo.join("CONTINUE_HERE.md").exists(),
        "nothing consumed without a choice"
    );
}

#[test]
fn the_prompt_on_a_terminal_takes_a_number() {
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
    session(
        &env,
        &repo,
        "main/20261130-110000",
        Some("main"),
        "READY",
        &json!([open_task("B1")]),
    );
    // script(1) runs the command in a new pseudo-terminal and feeds it our stdin.
    let cmd = format!("{} continue", env!("CARGO_BIN_EXE_git-handover"));
    let out = crate::common::fed(
        env.command("script")
            .args(["-qec", &cmd, "/dev/null"])
            .current_dir(&repo),
        b"2\n",
    );
    let screen = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    assert!(screen.contains(" 1) main/20261130-100000"), "{screen}");
    assert!(
        screen.contains("Resume which one? [1-2, q to quit]"),
        "{screen}"
    );
    assert!(
        screen.contains("[B1] in_progress work on B1"),
        "the second one is briefed: {screen}"
    );
    assert!(!screen.contains("[A1] in_progress"), "{screen}");

    // `q` leaves at once with the status of an unanswered choice (2), not a new prompt.
    let out = crate::common::fed(
        env.command("script")
            .args(["-qec", &cmd, "/dev/null"])
            .current_dir(&repo),
        b"q\n",
    );
    let screen = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    assert_eq!(screen.matches("Resume which one?").count(), 1, "{screen}");
    assert!(screen.contains("name one"), "{screen}");
    assert!(!screen.contains("in_progress work on"), "{screen}");
}

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

#[test]
fn briefing_of_a_ready_session_with_stale_and_blocked_tasks() {
    let f = fixture();
    let run = f
        .env
        .handover(&f.wt_x, &["continue", "feature/x/20261129-080000"]);
    insta::assert_snapshot!(run.snapshot());
    let successor = f.env.handover(
        &f.wt_x,
        &["continue", "feature/x/20261129-080000", "--successor"],
    );
    assert!(
        successor.stdout.contains("Successor: start now with [T4] Wire the parser into the CLI, without waiting for approval."),
        "{}",
        successor.stdout
    );
}

#[test]
fn briefing_of_an_all_complete_session() {
    let f = fixture();
    let run = f
        .env
        .handover(&f.main, &["continue", "usb/20261129-090000"]);
    insta::assert_snapshot!(run.snapshot(), @r"
    exit: 0
    --- stdout
    All tasks of usb/20261129-090000 are done. Waiting for new work.
    --- stderr
    ");
}

#[test]
fn briefing_of_a_superseded_note_with_a_user_item() {
    let f = fixture();
    let run = f.env.handover(&f.main, &["continue", "CONTINUE_HERE.md"]);
    insta::assert_snapshot!(run.snapshot());
}

#[test]
fn briefing_of_an_orphan() {
    let f = fixture();
    let run = f
        .env
        .handover(&f.main, &["continue", "gone/20261128-120000"]);
    insta::assert_snapshot!(run.snapshot());
}
