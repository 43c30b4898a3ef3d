//! Files the tool refuses rather than lose or follow (issue 14, attacks on "nothing
//! outside the worktree is touched"): a file it cannot read is never rewritten, a state
//! it could not read back is never written, modes are kept, links out of the worktree
//! are not followed, and FIFOs, devices and endless files are refused, never waited on.

use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::{TestEnv, read_json};
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_git-handover");

#[track_caller]
fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

fn tree_of(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_owned()];
    while let Some(d) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let t = e.file_type().unwrap();
            if t.is_dir() {
                dirs.push(e.path());
            } else if t.is_file() {
                out.push((e.path(), std::fs::read(e.path()).unwrap()));
            } else {
                out.push((e.path(), Vec::new()));
            }
        }
    }
    out.sort();
    out
}

// 1. A file that cannot be read is never rewritten.
#[test]
fn an_instructions_file_that_is_not_utf8_is_refused_and_kept() {
    let env = TestEnv::new();
    let repo = env.repo();
    let claude_md = repo.join("CLAUDE.md");
    let latin1 = b"# Projekt\n\nGr\xfc\xdfe aus M\xfcnchen\n".to_vec();
    std::fs::write(&claude_md, &latin1).unwrap();
    let run = env.handover(&repo, &["hook", "install", "--instructions"]);
    assert_eq!(run.code, 3, "{}", run.snapshot());
    assert!(
        run.stderr
            .contains("refusing to edit [ROOT]/repo/CLAUDE.md: it is not UTF-8 text"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read(&claude_md).unwrap(), latin1);
    // A FIFO where CLAUDE.md should be: refused by its type, never opened to wait on
    // (nothing writes to it: an open that waited would never return).
    std::fs::remove_file(&claude_md).unwrap();
    mkfifo(&claude_md);
    let (code, stderr) = bounded(&env, &repo, &["hook", "install", "--instructions"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("it is a FIFO"), "{stderr}");
    assert!(
        std::fs::symlink_metadata(&claude_md)
            .unwrap()
            .file_type()
            .is_fifo_like()
    );
}

trait FifoLike {
    fn is_fifo_like(&self) -> bool;
}
impl FifoLike for std::fs::FileType {
    fn is_fifo_like(&self) -> bool {
        std::os::unix::fs::FileTypeExt::is_fifo(self)
    }
}

// 9. Never write what cannot be read back; memory stays bounded.
#[test]
fn a_state_too_large_to_read_back_is_never_written() {
    let env = TestEnv::new();
    let repo = env.repo();
    let big = "x".repeat(9 << 20);
    let key = env.saved(
        &repo,
        &json!({"active_tasks": [{"id": "T1", "status": "in_progress", "description": big}]}),
    );
    let file = repo
        .join(".claude/handover")
        .join(&key)
        .join("project-state.json");
    let before = std::fs::read(&file).unwrap();
    let input = env.root().join("more.json");
    env.write(
        &input,
        &json!({"active_tasks": [{"id": "T2", "status": "in_progress", "description": big}]})
            .to_string(),
    );
    let run = env.handover(&repo, &["save", "--from", input.to_str().unwrap()]);
    assert_eq!(run.code, 3, "{}", run.snapshot());
    assert!(run.stderr.contains("refusing to write"), "{}", run.stderr);
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "the state is as it was"
    );
    // A file of millions of tiny values is refused before it is parsed.
    let tiny = format!(
        r#"{{"version":3,"status":"READY","active_tasks":[],"x":[{}0]}}"#,
        "0,".repeat(2_000_000)
    );
    std::fs::write(&file, &tiny).unwrap();
    // Said by the count made over the bytes before any parsing (its memory is
    // measured in tests/cli/memory.rs).
    let (code, stderr) = bounded(&env, &repo, &["status"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("more than 150000 JSON values"), "{stderr}");
}

// 10. Modes: new files honour the umask, rewritten files keep mode and group, and a
//     linked settings file stays a link.
#[test]
fn modes_are_kept_and_links_to_user_files_are_followed() {
    let env = TestEnv::new();
    let repo = env.repo();
    let claude_md = repo.join("CLAUDE.md");
    env.write(&claude_md, "# Project\n");
    std::fs::set_permissions(&claude_md, std::fs::Permissions::from_mode(0o664)).unwrap();
    // The dotfile manager's copy of the settings, linked from .claude/.
    let managed = env.root().join("dotfiles/settings.json");
    env.write(&managed, "{\"model\": \"opus\"}\n");
    std::fs::set_permissions(&managed, std::fs::Permissions::from_mode(0o640)).unwrap();
    std::fs::create_dir_all(repo.join(".claude")).unwrap();
    let link = repo.join(".claude/settings.json");
    std::os::unix::fs::symlink(&managed, &link).unwrap();
    let run = env.handover(&repo, &["hook", "install", "--instructions"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let mode = |p: &Path| std::fs::metadata(p).unwrap().mode() & 0o7777;
    assert_eq!(mode(&claude_md), 0o664, "CLAUDE.md keeps its mode");
    assert!(
        std::fs::read_to_string(&claude_md)
            .unwrap()
            .contains("Session continuity")
    );
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(mode(&managed), 0o640);
    let v = read_json(&managed);
    assert_eq!(v["model"], "opus");
    assert!(v["hooks"]["SessionStart"].is_array());
    // New files: the process's umask, like any program's.
    let out = env
        .command("sh")
        .arg("-c")
        .arg(format!("umask 027 && exec '{BIN}' task add N1 new"))
        .current_dir(&repo)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = repo.join(".claude/handover/main");
    let session = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .next()
        .unwrap()
        .path();
    assert_eq!(mode(&session.join("project-state.json")), 0o640);
    assert_eq!(mode(&session.join("handover.md")), 0o640);
}

// 11. Nothing reached through a link that leaves the worktree.
#[test]
fn a_linked_claude_dir_into_another_repository_is_refused() {
    let env = TestEnv::new();
    let repo = env.repo();
    let other = env.init("other");
    env.commit(&other, "o.txt", "o\n", "o", "2026-11-30T10:00:00Z");
    // The other repository has a finished old session that clean would remove.
    let victim = other.join("handover/main/20261101-100000/project-state.json");
    env.write(
        &victim,
        &json!({"version": 3, "generated_at": "2026-11-01T10:00:00Z", "status": "ALL_COMPLETE",
                "workspace": {"branch": "main"}, "active_tasks": []})
        .to_string(),
    );
    std::os::unix::fs::symlink(&other, repo.join(".claude")).unwrap();
    let before = tree_of(&other);
    let input = env.root().join("in.json");
    env.write(&input, "{}");
    let save = env.handover(&repo, &["save", "--from", input.to_str().unwrap()]);
    assert_eq!(save.code, 2, "{}", save.snapshot());
    let clean = env.handover(&repo, &["clean", "--older-than", "1d"]);
    assert_eq!(clean.code, 0, "{}", clean.snapshot());
    assert!(
        clean.stderr.contains("[ROOT]/repo/.claude"),
        "{}",
        clean.stderr
    );
    assert_eq!(
        tree_of(&other),
        before,
        "nothing changed in the other repository"
    );

    // A note found through a linked docs/ is neither read nor consumed.
    std::fs::remove_file(repo.join(".claude")).unwrap();
    let outside = env.root().join("outside-docs");
    env.write(
        &outside.join("CONTINUE_HERE.md"),
        "# Continue Here\n\n## Objective\nx\n",
    );
    std::os::unix::fs::symlink(&outside, repo.join("docs")).unwrap();
    let run = env.handover(&repo, &["continue"]);
    assert_eq!(run.code, 1, "{}", run.snapshot());
    assert!(outside.join("CONTINUE_HERE.md").exists());
}

#[test]
fn clean_leaves_a_link_it_says_it_leaves() {
    let env = TestEnv::new();
    let repo = env.repo();
    let dir = repo.join(".claude/handover/main/20261101-100000");
    env.write(
        &dir.join("project-state.json"),
        &json!({"version": 3, "generated_at": "2026-11-01T10:00:00Z", "status": "ALL_COMPLETE",
                "workspace": {"branch": "main"}, "active_tasks": []})
        .to_string(),
    );
    let target = env.root().join("elsewhere.md");
    env.write(&target, "kept\n");
    std::os::unix::fs::symlink(&target, dir.join("handover.md")).unwrap();
    let run = env.handover(&repo, &["clean"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        run.stderr.contains("not followed, not removed"),
        "{}",
        run.stderr
    );
    assert!(
        std::fs::symlink_metadata(dir.join("handover.md")).is_ok(),
        "the link is there"
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "kept\n");
}

// 12. An explicit note that is a link is refused; nothing reaches the store.
#[test]
fn an_explicit_note_that_is_a_link_is_refused() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.git(&repo, &["config", "handover.store", "both"]);
    let secret = env.root().join("secret.md");
    env.write(&secret, "# Continue Here\n\nsecret text\n");
    std::os::unix::fs::symlink(&secret, repo.join("CONTINUE_HERE.md")).unwrap();
    let run = env.handover(&repo, &["continue", "CONTINUE_HERE.md"]);
    assert_eq!(run.code, 3, "{}", run.snapshot());
    assert!(
        run.stderr.contains("it is a symbolic link"),
        "{}",
        run.stderr
    );
    assert!(secret.exists());
    let notes = env
        .command("git")
        .current_dir(&repo)
        .args(["notes", "--ref=handover", "list"])
        .output()
        .unwrap();
    assert!(notes.stdout.is_empty(), "nothing recorded");
}

/// Run `git-handover`, which must not hang: a watchdog of a thousand polls (20 s, far
/// beyond any run that does not wait) kills it and fails the test.
#[track_caller]
fn bounded(env: &TestEnv, dir: &Path, args: &[&str]) -> (i32, String) {
    let mut child = env
        .command(BIN)
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    for _ in 0..1000 {
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            return (
                status.code().unwrap_or(-1),
                env.redact(&String::from_utf8_lossy(&out.stderr)),
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    panic!("{args:?} hung");
}

// 13. FIFOs, devices and endless files are refused, never waited on.
#[test]
fn fifos_and_endless_files_are_refused_not_waited_on() {
    let env = TestEnv::new();
    let repo = env.repo();
    let key = env.saved(
        &repo,
        &json!({"active_tasks": [{"id": "T1", "status": "in_progress"}]}),
    );
    let dir = repo.join(".claude/handover").join(&key);
    let md = dir.join("handover.md");
    std::fs::remove_file(&md).unwrap();
    mkfifo(&md);
    for args in [
        vec!["render"],
        vec!["task", "start", "T1"],
        vec!["continue"],
    ] {
        let (code, stderr) = bounded(&env, &repo, &args);
        assert_ne!(code, 0, "{args:?}");
        assert!(stderr.contains("it is a FIFO"), "{args:?}: {stderr}");
    }
    std::fs::remove_file(&md).unwrap();
    let state = dir.join("project-state.json");
    std::fs::remove_file(&state).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &state).unwrap();
    let (code, stderr) = bounded(&env, &repo, &["status"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("symbolic link"), "{stderr}");
    let settings = repo.join(".claude/settings.json");
    mkfifo(&settings);
    let (code, stderr) = bounded(&env, &repo, &["hook", "install"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("it is a FIFO"), "{stderr}");
}

/// 13b. A FIFO where git keeps one of its own files: a pack index, a worktree's
/// `locked` file. The briefing reads its commit subjects past the FIFO, and the
/// worktree listing does not wait on it either.
#[test]
fn a_fifo_among_gits_own_files_is_passed_over_not_waited_on() {
    let env = TestEnv::new();
    let repo = env.repo();
    for i in 0..3 {
        env.commit(
            &repo,
            &format!("f{i}"),
            "x\n",
            &format!("packed {i}"),
            "2026-11-30T10:00:00Z",
        );
    }
    env.git(&repo, &["gc", "-q"]);
    env.saved(
        &repo,
        &json!({"active_tasks": [{"id": "T1", "status": "in_progress"}]}),
    );
    env.worktree(&repo, "linked", "linked");
    // Newer than the real pack: looked at first.
    mkfifo(
        &repo
            .join(".git/objects/pack")
            .join(format!("pack-{}.idx", "0".repeat(40))),
    );
    mkfifo(&repo.join(".git/worktrees/linked/locked"));
    for args in [&["status"][..], &["--json", "continue", "--keep"][..]] {
        let (code, stderr) = bounded(&env, &repo, args);
        assert_eq!(code, 0, "{args:?}: {stderr}");
    }
    let run = env.handover(&repo, &["--json", "continue", "--keep"]);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let subjects: Vec<&str> = v["recent_commits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["subject"].as_str().unwrap())
        .collect();
    assert_eq!(
        &subjects[..3],
        ["packed 2", "packed 1", "packed 0"],
        "{}",
        run.stdout
    );
}
