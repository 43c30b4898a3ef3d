//! `continue` consuming a note without losing one (issue 14): a note rewritten while
//! continue briefs is kept, a consumed note is copied byte for byte, `continue PATH`
//! takes handovers only, and a tracked note is never committed into a rebase.

use std::path::Path;
use std::process::Command;

use crate::common::{TestEnv, finish};
use serde_json::json;

// 4. A note rewritten between the briefing and the consumption is kept.
#[test]
fn a_note_rewritten_while_continue_briefs_is_not_consumed() {
    let env = TestEnv::new();
    let repo = env.repo();
    let note = repo.join("CONTINUE_HERE.md");
    env.write(&note, "# Continue Here\n\n## Objective\nold work\n");
    let cont = env.spawn_at_pause(&repo, &["continue"], "consume:60000");
    let body = env.root().join("body.md");
    env.write(&body, "## Objective\nnew work, not yet briefed\n");
    let here = env.handover(
        &repo,
        &["here", "--force", "--from", body.to_str().unwrap()],
    );
    assert_eq!(here.code, 0, "{}", here.snapshot());
    let (code, stdout, stderr) = finish(cont);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("kept") && stdout.contains("changed after it was read"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&note).unwrap();
    assert!(text.contains("new work, not yet briefed"), "{text}");
}

#[test]
fn a_consumed_note_is_copied_byte_for_byte() {
    let env = TestEnv::new();
    let repo = env.repo();
    let note = repo.join("CONTINUE_HERE.md");
    let bytes = b"# Continue Here\n\n## Objective\nGr\xfc\xdfe \xff\xfe\n".to_vec();
    std::fs::write(&note, &bytes).unwrap();
    let run = env.handover(&repo, &["continue"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(!note.exists());
    let consumed = repo.join(".claude/handover/consumed");
    let copies: Vec<_> = std::fs::read_dir(&consumed).unwrap().flatten().collect();
    assert_eq!(copies.len(), 1);
    assert_eq!(std::fs::read(copies[0].path()).unwrap(), bytes);
}

// 5. continue PATH takes handovers only.
#[test]
fn continue_refuses_paths_that_are_not_handovers() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.commit(
        &repo,
        "README.md",
        "# Readme\n",
        "readme",
        "2026-11-30T10:05:00Z",
    );
    let head = env.git(&repo, &["rev-parse", "HEAD"]);
    let key = env.saved(
        &repo,
        &json!({"active_tasks": [{"id": "T1", "status": "in_progress"}]}),
    );
    let md = format!(".claude/handover/{key}/handover.md");
    for target in ["README.md", md.as_str()] {
        let run = env.handover(&repo, &["continue", target]);
        assert_eq!(run.code, 2, "{target}: {}", run.snapshot());
        assert!(
            run.stderr.contains("is not a session directory"),
            "{}",
            run.stderr
        );
    }
    assert!(repo.join("README.md").exists() && repo.join(&md).exists());
    assert_eq!(
        env.git(&repo, &["rev-parse", "HEAD"]),
        head,
        "nothing committed"
    );
    let run = env.handover(&repo, &["continue", "docs/NOPE.md"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr.lines().next().unwrap(),
        "git-handover: no such file or directory: [ROOT]/repo/docs/NOPE.md"
    );
}

/// The index as git sees it, and what is staged.
fn index_state(env: &TestEnv, repo: &Path) -> (String, String) {
    (
        env.git(repo, &["ls-files", "-s"]),
        env.git(repo, &["diff", "--cached", "--name-status"]),
    )
}

// 6. A tracked note is never committed into a rebase, and a failed commit leaves
//    the index as it was.
#[test]
fn a_tracked_note_is_kept_during_a_rebase_and_when_the_commit_fails() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.commit(
        &repo,
        "CONTINUE_HERE.md",
        "# Continue Here\n\n## Objective\nship it\n",
        "add note",
        "2026-11-30T10:10:00Z",
    );
    // Something of the user's staged, which must stay staged.
    env.write(&repo.join("b.txt"), "b\n");
    env.git(&repo, &["add", "b.txt"]);
    let head = env.git(&repo, &["rev-parse", "HEAD"]);
    let before = index_state(&env, &repo);

    std::fs::create_dir_all(repo.join(".git/rebase-merge")).unwrap();
    let run = env.handover(&repo, &["continue"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        run.stdout.contains("a rebase is in progress"),
        "{}",
        run.stdout
    );
    assert!(repo.join("CONTINUE_HERE.md").exists());
    assert_eq!(index_state(&env, &repo), before);
    assert_eq!(env.git(&repo, &["rev-parse", "HEAD"]), head);
    std::fs::remove_dir(repo.join(".git/rebase-merge")).unwrap();

    // Signing that cannot work: the commit fails after `git rm` ran.
    env.git(&repo, &["config", "commit.gpgsign", "true"]);
    env.git(&repo, &["config", "gpg.program", "false"]);
    let run = env.handover(&repo, &["continue"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        run.stdout.contains("committing its removal failed"),
        "{}",
        run.stdout
    );
    assert_eq!(
        std::fs::read_to_string(repo.join("CONTINUE_HERE.md")).unwrap(),
        "# Continue Here\n\n## Objective\nship it\n"
    );
    assert_eq!(index_state(&env, &repo), before, "the index is as it was");
    assert_eq!(env.git(&repo, &["rev-parse", "HEAD"]), head);
}

#[test]
fn a_tracked_note_is_consumed_in_a_repository_named_by_git_dir() {
    let env = TestEnv::new();
    let git_dir = env.root().join("dots.git");
    let work = env.root().join("home-dir");
    std::fs::create_dir_all(&work).unwrap();
    env.git(
        env.root(),
        &[
            "init",
            "-q",
            "--bare",
            "-b",
            "main",
            git_dir.to_str().unwrap(),
        ],
    );
    let with_dirs = |cmd: &mut Command| {
        cmd.env("GIT_DIR", &git_dir).env("GIT_WORK_TREE", &work);
    };
    env.write(
        &work.join("CONTINUE_HERE.md"),
        "# Continue Here\n\n## Objective\nx\n",
    );
    let mut add = env.command("git");
    with_dirs(&mut add);
    assert!(
        add.current_dir(&work)
            .args(["add", "CONTINUE_HERE.md"])
            .status()
            .unwrap()
            .success()
    );
    let mut commit = env.command("git");
    with_dirs(&mut commit);
    assert!(
        commit
            .current_dir(&work)
            .args(["commit", "-q", "-m", "note"])
            .status()
            .unwrap()
            .success()
    );
    let run = env.handover_with(&work, &["continue"], with_dirs);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.contains("committed"), "{}", run.stdout);
    assert!(!work.join("CONTINUE_HERE.md").exists());
}
