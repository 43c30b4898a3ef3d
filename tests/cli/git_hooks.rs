//! git's own hooks (issue 18): `hook install --git post-commit` chains with an existing
//! hook and with `core.hooksPath`, never overwriting; the post-commit hook stamps the
//! tasks a commit touched, records commits on request, and never fails a commit.

use std::path::Path;

use crate::common::{TestEnv, read_json};

fn session(env: &TestEnv, repo: &Path) -> std::path::PathBuf {
    let dir = repo.join(".claude/handover/main/20261130-110000");
    env.write(
        &dir.join("project-state.json"),
        &serde_json::json!({"version": 4, "generated_at": "2026-11-30T11:00:00Z", "status": "READY",
            "session_id": "s-1", "workspace": {"branch": "main"}, "active_tasks": [
            {"id": "T1", "status": "in_progress", "description": "lexer", "file_paths": ["src/lex.rs"],
             "last_touched": "2026-11-30T11:00:00Z"},
            {"id": "T2", "status": "pending", "description": "docs", "file_paths": ["docs/"],
             "last_touched": "2026-11-30T11:00:00Z"}]})
        .to_string(),
    );
    dir.join("project-state.json")
}

/// git-handover on PATH for the hook, as a user who installed it has.
#[track_caller]
fn commit(env: &TestEnv, repo: &Path, file: &str, date: &str) {
    let bin = Path::new(env!("CARGO_BIN_EXE_git-handover"))
        .parent()
        .unwrap();
    env.write(&repo.join(file), date);
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    for args in [&["add", "."][..], &["commit", "-q", "-m", file][..]] {
        let out = env
            .command("git")
            .current_dir(repo)
            .args(args)
            .env("PATH", &path)
            .env("GIT_COMMITTER_DATE", date)
            .env("GIT_AUTHOR_DATE", date)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn the_post_commit_hook_stamps_the_tasks_a_commit_touched() {
    let env = TestEnv::new();
    let repo = env.repo();
    let file = session(&env, &repo);
    let run = env.handover(&repo, &["hook", "install", "--git", "post-commit"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let hook = repo.join(".git/hooks/post-commit");
    let mode =
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&hook).unwrap().permissions());
    assert_ne!(mode & 0o111, 0, "executable");

    commit(&env, &repo, "src/lex.rs", "2026-11-30T11:30:00Z");
    let s = read_json(&file);
    assert_eq!(
        s["active_tasks"][0]["last_touched"],
        "2026-11-30T11:30:00+00:00"
    );
    assert_eq!(s["active_tasks"][1]["last_touched"], "2026-11-30T11:00:00Z");
    commit(&env, &repo, "docs/guide.md", "2026-11-30T11:40:00Z");
    assert_eq!(
        read_json(&file)["active_tasks"][1]["last_touched"],
        "2026-11-30T11:40:00+00:00"
    );
    // Nothing of a task: not rewritten at all.
    let before = std::fs::read(&file).unwrap();
    commit(&env, &repo, "other.txt", "2026-11-30T11:45:00Z");
    assert_eq!(std::fs::read(&file).unwrap(), before);
    // On request, each commit joins architecture_changes.
    env.git(&repo, &["config", "handover.recordCommits", "true"]);
    commit(&env, &repo, "other2.txt", "2026-11-30T11:50:00Z");
    let s = read_json(&file);
    assert_eq!(s["architecture_changes"][0]["summary"], "other2.txt");
    assert_eq!(
        s["architecture_changes"][0]["commit_sha"],
        env.git(&repo, &["rev-parse", "HEAD"])
    );
}

#[test]
fn an_existing_hook_is_chained_and_restored_and_core_hooks_path_is_honoured() {
    let env = TestEnv::new();
    let repo = env.repo();
    let file = session(&env, &repo);
    env.git(&repo, &["config", "core.hooksPath", ".githooks"]);
    let hook = repo.join(".githooks/post-commit");
    let original = "#!/bin/sh\necho ran >> \"$(git rev-parse --git-dir)/theirs\"\nexit 0\n";
    env.write(&hook, original);
    let mut perms = std::fs::metadata(&hook).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&hook, perms).unwrap();

    let run = env.handover(&repo, &["hook", "install", "--git", "post-commit"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        run.stdout.contains("before what it already does"),
        "{}",
        run.snapshot()
    );
    let again = env.handover(&repo, &["hook", "install", "--git", "post-commit"]);
    assert!(
        again.stdout.contains("already runs"),
        "{}",
        again.snapshot()
    );
    commit(&env, &repo, "src/lex.rs", "2026-11-30T11:30:00Z");
    assert_eq!(
        std::fs::read_to_string(repo.join(".git/theirs")).unwrap(),
        "ran\n",
        "their hook still runs"
    );
    assert_eq!(
        read_json(&file)["active_tasks"][0]["last_touched"],
        "2026-11-30T11:30:00+00:00"
    );
    assert!(
        !repo.join(".git/hooks/post-commit").exists(),
        "git's default directory untouched"
    );

    let run = env.handover(&repo, &["hook", "uninstall", "--git", "post-commit"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(
        std::fs::read_to_string(&hook).unwrap(),
        original,
        "restored byte for byte"
    );
}

#[test]
fn a_hook_that_is_not_a_shell_script_is_refused_and_a_broken_session_never_fails_a_commit() {
    let env = TestEnv::new();
    let repo = env.repo();
    let hook = repo.join(".git/hooks/post-commit");
    env.write(&hook, "#!/usr/bin/env python3\nprint('x')\n");
    let run = env.handover(&repo, &["hook", "install", "--git", "post-commit"]);
    assert_eq!(run.code, 3, "{}", run.snapshot());
    assert!(
        run.stderr.contains("not a shell script"),
        "{}",
        run.snapshot()
    );
    assert_eq!(
        std::fs::read_to_string(&hook).unwrap(),
        "#!/usr/bin/env python3\nprint('x')\n"
    );
    std::fs::remove_file(&hook).unwrap();
    let run = env.handover(&repo, &["hook", "install", "--git", "post-commit"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    // A session file that cannot be read: the commit goes through, the file stays.
    let file = repo.join(".claude/handover/main/20261130-110000/project-state.json");
    env.write(&file, "{ not json");
    commit(&env, &repo, "src/lex.rs", "2026-11-30T11:30:00Z");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "{ not json");
    assert_eq!(env.git(&repo, &["log", "-1", "--format=%s"]), "src/lex.rs");
}

#[test]
fn hook_install_git_output_human_and_json() {
    let env = TestEnv::new();
    let repo = env.repo();
    insta::assert_snapshot!(
        "git_hook_install",
        env.handover(&repo, &["hook", "install", "--git", "post-commit"])
            .snapshot()
    );
    insta::assert_snapshot!(
        "git_hook_install_again_json",
        env.handover(
            &repo,
            &["--json", "hook", "install", "--git", "post-commit"]
        )
        .snapshot()
    );
    insta::assert_snapshot!(
        "git_hook_uninstall",
        env.handover(&repo, &["hook", "uninstall", "--git", "post-commit"])
            .snapshot()
    );
}

#[test]
fn a_hook_that_is_not_text_is_left_as_it_is_and_a_linked_hook_stays_a_link() {
    let env = TestEnv::new();
    let repo = env.repo();
    let hook = repo.join(".git/hooks/post-commit");
    std::fs::create_dir_all(hook.parent().unwrap()).unwrap();
    let bytes = b"#!/bin/sh\necho \xff\xfe\n".to_vec();
    std::fs::write(&hook, &bytes).unwrap();
    let run = env.handover(&repo, &["hook", "install", "--git", "post-commit"]);
    assert_eq!(run.code, 3, "{}", run.snapshot());
    assert_eq!(std::fs::read(&hook).unwrap(), bytes, "not rewritten");

    // A hook kept elsewhere (a dotfile manager's link) is edited where it lives.
    std::fs::remove_file(&hook).unwrap();
    let real = env.root().join("dotfiles/post-commit");
    env.write(&real, "#!/bin/sh\necho theirs\n");
    std::os::unix::fs::symlink(&real, &hook).unwrap();
    let run = env.handover(&repo, &["hook", "install", "--git", "post-commit"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        std::fs::symlink_metadata(&hook)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let text = std::fs::read_to_string(&real).unwrap();
    assert!(
        text.contains("git-handover hook post-commit") && text.ends_with("echo theirs\n"),
        "{text}"
    );
}
