//! `git handover continue`: each resolution step, the prompt through a real
//! pseudo-terminal, and snapshots of the briefings. Its side effects are in
//! `continue_effects`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::TestEnv;
use crate::common::fixture::{fixture, write_state};
use serde_json::{Value, json};

pub(crate) fn repo(env: &TestEnv) -> PathBuf {
    let repo = env.init("repo");
    env.commit(&repo, "a.txt", "a\n", "first", "2026-11-29T10:00:00Z");
    repo
}

pub(crate) fn session(
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

pub(crate) fn open_task(id: &str) -> Value {
    json!({"id": id, "description": format!("work on {id}"), "status": "in_progress",
           "last_touched": "2026-11-30T11:00:00Z"})
}

/// Every file under `dir` (except `.git`) with its content, and HEAD: what a run changed.
pub(crate) fn tree(env: &TestEnv, dir: &Path) -> (BTreeMap<String, Vec<u8>>, String) {
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
