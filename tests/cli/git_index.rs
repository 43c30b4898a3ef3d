//! Handover state and git's index (issue 19): kept out of commits by default, tracked
//! files flagged, committed copies recognised, never written into, and adoptable.

use std::path::{Path, PathBuf};

use crate::common::TestEnv;
use serde_json::{Value, json};

fn tasks() -> Value {
    json!({"active_tasks": [{"id": "T1", "status": "in_progress", "description": "work"}]})
}

fn committed_files(env: &TestEnv, repo: &Path) -> String {
    env.git(repo, &["show", "--stat", "--format=", "HEAD"])
}

#[test]
fn an_agent_style_commit_after_a_save_adds_no_handover_file() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    env.commit(&repo, "a.txt", "a\n", "first", "2026-11-30T10:00:00Z");
    let run = env.save(&repo, &tasks(), &[]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(
        run.stderr,
        "git-handover: added /.claude/handover/ /.agents/handover/ to [ROOT]/repo/.git/info/exclude: handover state stays out of commits (handover.exclude=false turns this off)\n"
    );
    // Said once: the next write finds the patterns there.
    let again = env.save(
        &repo,
        &json!({"recent_decisions": [{"decision": "d"}]}),
        &[],
    );
    assert_eq!(again.stderr, "", "{}", again.snapshot());
    env.write(&repo.join("b.txt"), "b\n");
    env.git(&repo, &["add", "-A"]);
    env.git_at(
        &repo,
        "2026-11-30T11:00:00Z",
        &["commit", "-q", "-m", "work"],
    );
    let files = committed_files(&env, &repo);
    assert!(files.contains("b.txt"), "{files}");
    assert!(!files.contains(".claude"), "{files}");
    // A linked worktree shares the common git dir's info/exclude.
    let wt = env.worktree(&repo, "wt", "side");
    let run = env.save(&wt, &tasks(), &[]);
    assert_eq!(run.stderr, "", "{}", run.snapshot());
    env.git(&wt, &["add", "-A"]);
    assert_eq!(env.git(&wt, &["status", "--porcelain"]), "");
}

#[test]
fn exclude_false_turns_it_all_off() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    env.commit(&repo, "a.txt", "a\n", "first", "2026-11-30T10:00:00Z");
    env.git(&repo, &["config", "handover.exclude", "false"]);
    let run = env.save(&repo, &tasks(), &[]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(run.stderr, "");
    let exclude = std::fs::read_to_string(repo.join(".git/info/exclude")).unwrap_or_default();
    assert!(!exclude.contains("handover"), "{exclude}");
    env.git(&repo, &["add", "-A"]);
    env.git_at(
        &repo,
        "2026-11-30T11:00:00Z",
        &["commit", "-q", "-m", "with state"],
    );
    assert!(committed_files(&env, &repo).contains("project-state.json"));
    // Tracked on purpose: status does not flag it.
    let status = env.handover(&repo, &["status"]);
    assert!(
        !status.stdout.contains("tracked by git"),
        "{}",
        status.stdout
    );
    assert!(
        !status.stderr.contains("git rm -r --cached"),
        "{}",
        status.stderr
    );
}

/// A repository whose main worktree has a session committed on branch `x` (as an agent
/// without the exclusion would), and a linked worktree `b` made from that commit.
fn committed_session(env: &TestEnv) -> (PathBuf, PathBuf, String) {
    let repo = env.init("repo");
    env.commit(&repo, "a.txt", "a\n", "first", "2026-11-30T10:00:00Z");
    env.git(&repo, &["checkout", "-q", "-b", "x"]);
    env.git(&repo, &["config", "handover.exclude", "false"]);
    let key = env.save(&repo, &tasks(), &[]).stdout.trim().to_owned();
    env.git(&repo, &["add", "-A"]);
    env.git_at(
        &repo,
        "2026-11-30T11:00:00Z",
        &["commit", "-q", "-m", "work and state"],
    );
    env.git(&repo, &["config", "--unset", "handover.exclude"]);
    let b = env.root().join("b");
    env.git(
        &repo,
        &["worktree", "add", "-q", "-b", "y", b.to_str().unwrap(), "x"],
    );
    (repo, b, key)
}

#[test]
fn a_committed_copy_is_named_as_such_and_tracked_files_are_flagged() {
    let env = TestEnv::new();
    let (repo, b, key) = committed_session(&env);
    let status = env.handover(&b, &["status", "--here"]);
    assert_eq!(status.code, 0, "{}", status.snapshot());
    assert!(
        status.stdout.contains(&format!(
            "a copy of the session in [ROOT]/repo; `git handover continue --adopt {key}`"
        )),
        "{}",
        status.stdout
    );
    assert!(
        status.stdout.contains("tracked by git"),
        "{}",
        status.stdout
    );
    assert!(
        status.stderr.contains("git rm -r --cached"),
        "{}",
        status.stderr
    );
    let json = env.handover(&b, &["--json", "status", "--here"]);
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    // (paths in output are shown under [ROOT])
    let h = &v["worktrees"][0]["handovers"][0];
    assert_eq!(h["tracked"], true);
    assert_eq!(h["copy_of"], "[ROOT]/repo");
    // `continue` in `b` (which first looks in `b` alone) still knows it is a copy:
    // the session records the other worktree as its root.
    let brief = env.handover(&b, &["--json", "continue"]);
    let v: Value = serde_json::from_str(&brief.stdout).unwrap();
    assert_eq!(
        v["handover"]["copy_of"],
        "[ROOT]/repo",
        "{}",
        brief.snapshot()
    );
    // In the original worktree the session is its own.
    let here = env.handover(&repo, &["--json", "status", "--here"]);
    let v: Value = serde_json::from_str(&here.stdout).unwrap();
    assert_eq!(v["worktrees"][0]["handovers"][0]["copy_of"], Value::Null);
}

#[test]
fn task_never_writes_into_a_copy() {
    let env = TestEnv::new();
    let (repo, b, key) = committed_session(&env);
    let copy = b
        .join(".claude/handover")
        .join(&key)
        .join("project-state.json");
    let before = std::fs::read(&copy).unwrap();
    // The first worktree goes away and `b` takes its branch: the copy's branch now.
    env.git(&repo, &["checkout", "-q", "--detach"]);
    env.git(&b, &["checkout", "-q", "x"]);
    let run = env.handover(&b, &["task", "add", "T9", "new work"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let written_key = run.stdout.split_whitespace().nth(3).unwrap().to_owned();
    assert_ne!(written_key, key, "{}", run.stdout);
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        before,
        "the copy is byte-identical"
    );
    assert_eq!(
        env.git(&b, &["status", "--porcelain", "--untracked-files=no"]),
        "",
        "no tracked file changed"
    );
    // Files under the root are tracked, so the root was not excluded: said once.
    assert!(run.stderr.contains("are tracked by git"), "{}", run.stderr);
    let again = env.handover(&b, &["task", "start", "T9"]);
    assert!(
        !again.stderr.contains("are tracked by git"),
        "{}",
        again.stderr
    );
}

#[test]
fn a_copy_is_adopted_with_and_without_the_notes_store() {
    for store in ["files", "both"] {
        let env = TestEnv::new();
        let (_repo, b, key) = committed_session(&env);
        env.git(&b, &["config", "handover.store", store]);
        let copy = b
            .join(".claude/handover")
            .join(&key)
            .join("project-state.json");
        let id_before = serde_json::from_str::<Value>(&std::fs::read_to_string(&copy).unwrap())
            .unwrap()["session_id"]
            .clone();
        // Without --adopt: briefed, nothing written into the copy.
        let before = std::fs::read(&copy).unwrap();
        let look = env.handover(&b, &["continue", &key]);
        assert_eq!(look.code, 0, "{}", look.snapshot());
        assert_eq!(std::fs::read(&copy).unwrap(), before);
        let run = env.handover(&b, &["continue", "--adopt", &key]);
        assert_eq!(run.code, 0, "{store}: {}", run.snapshot());
        assert!(
            run.stdout.contains(&format!("adopted {key}")),
            "{}",
            run.stdout
        );
        let after: Value = serde_json::from_str(&std::fs::read_to_string(&copy).unwrap()).unwrap();
        assert_eq!(after["workspace"]["root"], b.display().to_string());
        assert_ne!(after["session_id"], id_before);
        assert_eq!(after["session_id"].as_str().unwrap().len(), 36);
        let status = env.handover(&b, &["--json", "status", "--here"]);
        let v: Value = serde_json::from_str(&status.stdout).unwrap();
        assert_eq!(v["worktrees"][0]["handovers"][0]["copy_of"], Value::Null);
        let notes = env.git(&b, &["notes", "--ref=handover", "list"]);
        assert_eq!(notes.is_empty(), store == "files", "{store}: {notes}");
    }
}
