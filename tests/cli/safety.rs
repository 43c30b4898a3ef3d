//! Attacks on the promise "nothing an agent saved is ever lost, nothing outside the
//! worktree is touched" (issue 14): one test per class, with real processes, real
//! races forced by `GIT_HANDOVER_TEST_PAUSE`, real FIFOs, links and modes.

use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::common::{TestEnv, read_json};
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_git-handover");

fn finish(child: Child) -> (i32, String, String) {
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

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

// 2. The decision to delete is made again under the lock.
#[test]
fn clean_never_removes_a_session_reopened_while_it_decided() {
    let env = TestEnv::new();
    let repo = env.repo();
    let team = json!({"active_tasks": [{"id": "T1", "status": "done", "description": "old"}]});
    let input = env.root().join("team.json");
    env.write(&input, &team.to_string());
    let run = env.handover(
        &repo,
        &[
            "save",
            "--team",
            "crew",
            "--agent",
            "dev",
            "--from",
            input.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let state = repo.join(".claude/handover/crew/dev/project-state.json");
    assert_eq!(read_json(&state)["status"], "ALL_COMPLETE");
    // clean chooses the finished team, then waits; meanwhile the agent reopens it.
    let clean = env.spawn_paused(&repo, &["clean", "--team", "crew"], "clean:1500");
    std::thread::sleep(Duration::from_millis(500));
    let reopen = env.handover(
        &repo,
        &[
            "task", "--team", "crew", "--agent", "dev", "add", "T2", "new work",
        ],
    );
    assert_eq!(reopen.code, 0, "{}", reopen.snapshot());
    let (code, stdout, stderr) = finish(clean);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stderr.contains("it changed since it was chosen"),
        "{stderr}"
    );
    let after = read_json(&state);
    assert_eq!(after["status"], "READY");
    assert_eq!(after["active_tasks"][1]["id"], "T2");
}

/// A lock left by a process that is gone, old enough to be taken over.
fn plant_stale_lock(lock: &Path) {
    let host =
        std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_else(|_| "localhost".into());
    std::fs::write(lock, format!("4194305 {}\n", host.trim())).unwrap();
    let old = std::time::SystemTime::now() - Duration::from_secs(600);
    std::fs::File::options()
        .write(true)
        .open(lock)
        .unwrap()
        .set_modified(old)
        .unwrap();
}

// 3. Two waiters on one stale lock: exactly one takes it over, both updates land.
#[test]
fn two_waiters_on_a_stale_lock_both_land() {
    let env = TestEnv::new();
    let repo = env.repo();
    let key = env.saved(
        &repo,
        &json!({"active_tasks": [{"id": "T0", "status": "in_progress"}]}),
    );
    let dir = repo.join(".claude/handover").join(&key);
    plant_stale_lock(&dir.join("project-state.json.lock"));
    // Each waiter, once it judges the lock stale, holds on for 700 ms before removing
    // it: without the takeover guard the second removes the first one's fresh lock.
    let a = env.spawn_paused(&repo, &["task", "add", "A1", "from a"], "takeover:700");
    let b = env.spawn_paused(&repo, &["task", "add", "B1", "from b"], "takeover:700");
    let (ca, _, ea) = finish(a);
    let (cb, _, eb) = finish(b);
    assert_eq!((ca, cb), (0, 0), "{ea}\n{eb}");
    let ids: Vec<String> = read_json(&dir.join("project-state.json"))["active_tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        ids.contains(&"A1".into()) && ids.contains(&"B1".into()),
        "{ids:?}"
    );
    let said = [&ea, &eb]
        .iter()
        .filter(|e| e.contains("removed the stale lock"))
        .count();
    assert_eq!(said, 1, "exactly one takeover:\n{ea}\n{eb}");
}

// 4. A note rewritten between the briefing and the consumption is kept.
#[test]
fn a_note_rewritten_while_continue_briefs_is_not_consumed() {
    let env = TestEnv::new();
    let repo = env.repo();
    let note = repo.join("CONTINUE_HERE.md");
    env.write(&note, "# Continue Here\n\n## Objective\nold work\n");
    let cont = env.spawn_paused(&repo, &["continue"], "consume:1500");
    std::thread::sleep(Duration::from_millis(500));
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

// 7. Racing first saves make one session.
#[test]
fn sixteen_racing_first_saves_make_one_session() {
    let env = TestEnv::new();
    let repo = env.repo();
    let mut children = Vec::new();
    for i in 0..16 {
        let input = env.root().join(format!("in-{i}.json"));
        env.write(
            &input,
            &json!({"active_tasks": [{"id": format!("T{i}"), "status": "in_progress"}],
                    "recent_decisions": [{"decision": format!("d{i}")}]})
            .to_string(),
        );
        children.push(
            env.command(BIN)
                .current_dir(&repo)
                .args(["save", "--from", input.to_str().unwrap()])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap(),
        );
    }
    for c in children {
        let (code, _, err) = finish(c);
        assert_eq!(code, 0, "{err}");
    }
    let sessions: Vec<_> = std::fs::read_dir(repo.join(".claude/handover/main"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_type().unwrap().is_dir())
        .collect();
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    let state = read_json(&sessions[0].path().join("project-state.json"));
    assert_eq!(state["recent_decisions"].as_array().unwrap().len(), 16);
}

// 8. One bad session does not stop saving.
#[test]
fn an_invalid_session_beside_does_not_block_save() {
    let env = TestEnv::new();
    let repo = env.repo();
    let bad = repo.join(".claude/handover/main/20261130-110000/project-state.json");
    env.write(&bad, "{ not json");
    let key = env.saved(
        &repo,
        &json!({"active_tasks": [{"id": "T1", "status": "in_progress"}]}),
    );
    assert_ne!(key, "main/20261130-110000");
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), "{ not json");
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

// 14. The hook does not wait for an agent that keeps stdin open: it gives the event
//     its time, then goes on without it and ends while the pipe is still open.
#[test]
fn the_hook_does_not_wait_for_an_open_stdin() {
    let env = TestEnv::new();
    let repo = env.repo();
    let log = env.event_log("hook");
    let mut child = env
        .command(BIN)
        .current_dir(&repo)
        .args(["hook", "session-start"])
        .env("GIT_HANDOVER_TEST_LOG", log.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take();
    // A watchdog far beyond the hook's own wait: a hook that waited for the pipe to
    // close would never end.
    let mut polls = 0;
    while child.try_wait().unwrap().is_none() {
        polls += 1;
        if polls == 1000 {
            let _ = child.kill();
            panic!("the hook waited for stdin");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        log.count("stdin-wait-over"),
        1,
        "the hook waited for the event until its time ran out, once"
    );
    drop(stdin);
}

// 15. A broken git configuration: the hook still answers, the error names the cause.
#[test]
fn a_broken_git_config_is_named_and_never_fails_the_hook() {
    let env = TestEnv::new();
    let repo = env.repo();
    let install = env.handover(&repo, &["hook", "install"]);
    assert_eq!(install.code, 0);
    let config = repo.join(".git/config");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str("[core\n  broken");
    std::fs::write(&config, text).unwrap();
    let status = env.handover(&repo, &["status"]);
    assert_eq!(status.code, 128);
    assert!(
        status
            .stderr
            .contains("the repository at [ROOT]/repo/.git cannot be read"),
        "{}",
        status.stderr
    );
    let settings = read_json(&repo.join(".claude/settings.json"));
    let command = settings["hooks"]["SessionStart"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    let bin_dir = Path::new(BIN).parent().unwrap();
    for path in [
        format!("{}:/usr/bin:/bin", bin_dir.display()),
        // git-handover not on the agent's PATH at all.
        "/usr/bin:/bin".to_owned(),
    ] {
        let out = env
            .command("sh")
            .args(["-c", &command])
            .env("PATH", &path)
            .current_dir(&repo)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{path}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        if path.starts_with(&bin_dir.display().to_string()) {
            let v: Value = serde_json::from_str(&stdout).unwrap();
            let context = v["hookSpecificOutput"]["additionalContext"]
                .as_str()
                .unwrap();
            assert!(context.contains("cannot be read"), "{context}");
        } else {
            assert!(stdout.is_empty());
        }
    }
}

// 16. A directory nobody can list is reported, not invisible.
#[test]
fn an_unreadable_session_directory_is_reported() {
    let env = TestEnv::new();
    let repo = env.repo();
    let key = env.saved(
        &repo,
        &json!({"active_tasks": [{"id": "T1", "status": "in_progress"}]}),
    );
    let dir = repo.join(".claude/handover").join(&key);
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o000)).unwrap();
    // Permissions do not stop root: run as nobody, where this machine allows it.
    let as_nobody = nix_user_switch();
    let mut cmd = match &as_nobody {
        Some(prefix) => {
            let mut c = env.command(&prefix[0]);
            c.args(&prefix[1..]).arg(BIN);
            c
        }
        None => env.command(BIN),
    };
    if as_nobody.is_some() {
        // nobody must reach the repository and its configuration.
        for p in [env.root(), &env.root().join("home")] {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        cmd.env("GIT_CONFIG_GLOBAL", "/dev/null");
    } else if crate::common::is_root() {
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        crate::common::unavailable("root, and no setpriv to drop to nobody");
        return;
    }
    let out = cmd.current_dir(&repo).arg("status").output().unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let stdout = env.redact(&String::from_utf8_lossy(&out.stdout));
    let stderr = env.redact(&String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(3), "{stdout}{stderr}");
    assert!(stdout.contains(&key), "{stdout}");
    assert!(stderr.contains("permission denied"), "{stderr}");
}

/// The command prefix that runs a program as `nobody`, when we are root and can.
fn nix_user_switch() -> Option<Vec<String>> {
    if !crate::common::is_root() {
        return None;
    }
    let ok = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "true"])
        .status()
        .is_ok_and(|s| s.success());
    ok.then(|| {
        [
            "setpriv",
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
        ]
        .map(str::to_owned)
        .to_vec()
    })
}

// 17. SHA-256 repositories are named, not called "not a repository".
#[test]
fn a_sha256_repository_is_named() {
    let env = TestEnv::new();
    let dir = env.root().join("s256");
    std::fs::create_dir_all(&dir).unwrap();
    env.git(&dir, &["init", "-q", "--object-format=sha256"]);
    let run = env.handover(&dir, &["status"]);
    assert_eq!(run.code, 128);
    assert_eq!(
        run.stderr.trim(),
        "git-handover: the repository at [ROOT]/s256/.git uses SHA-256 object names, which git-handover does not support yet"
    );
}

// 18. Invisible characters are escaped, in the terminal and in the agent's context.
#[test]
fn invisible_characters_are_escaped_everywhere() {
    let env = TestEnv::new();
    let repo = env.repo();
    let sneaky = "fix tests\u{200b}\u{2028}\u{e0049}\u{e0067}\u{e006e}\u{e006f}\u{e0072}\u{e0065}";
    env.saved(
        &repo,
        &json!({"active_tasks": [{"id": "T1", "status": "in_progress", "description": sneaky,
                                  "next_action": "go\u{2060}on"}]}),
    );
    let status = env.handover(&repo, &["status"]);
    let context = env
        .handover(&repo, &["hook", "session-start"])
        .hook_context();
    for out in [status.stdout.as_str(), context.as_str()] {
        assert!(
            !out.chars().any(|c| matches!(
                c,
                '\u{200b}' | '\u{2028}' | '\u{2060}' | '\u{e0000}'..='\u{e007f}'
            )),
            "{out}"
        );
        assert!(
            out.contains("\\u{200b}") || out.contains("\\u{2060}"),
            "{out}"
        );
    }
}

// 19. Duplicate task ids: refused on save, reported on read.
#[test]
fn duplicate_task_ids_are_refused_and_reported() {
    let env = TestEnv::new();
    let repo = env.repo();
    let input = env.root().join("dup.json");
    env.write(
        &input,
        &json!({"active_tasks": [{"id": "T1", "status": "done"}, {"id": "T1", "status": "in_progress"}]})
            .to_string(),
    );
    let run = env.handover(&repo, &["save", "--from", input.to_str().unwrap()]);
    assert_eq!(run.code, 3, "{}", run.snapshot());
    assert!(run.stderr.contains("active_tasks[1].id"), "{}", run.stderr);
    assert!(
        !repo.join(".claude/handover").exists(),
        "nothing was created"
    );
    let file = repo.join(".claude/handover/main/20261130-110000/project-state.json");
    env.write(
        &file,
        &json!({"version": 3, "status": "READY", "workspace": {"branch": "main"},
                "active_tasks": [{"id": "T1", "status": "done"}, {"id": "T1", "status": "in_progress"}]})
        .to_string(),
    );
    let status = env.handover(&repo, &["status"]);
    assert!(
        status.stderr.contains("task id \"T1\" is used twice"),
        "{}",
        status.stderr
    );
}

// 20. A handover dated in the future is flagged, never fresh.
#[test]
fn a_handover_from_the_future_is_flagged() {
    let env = TestEnv::new();
    let repo = env.repo();
    for stamp in ["2027-01-01T00:00:00Z", "9999-12-31T23:59:59Z"] {
        let file = repo.join(".claude/handover/main/20261130-110000/project-state.json");
        env.write(
            &file,
            &json!({"version": 3, "status": "READY", "generated_at": stamp,
                    "workspace": {"branch": "main"},
                    "active_tasks": [{"id": "T1", "status": "in_progress"}]})
            .to_string(),
        );
        let run = env.handover(&repo, &["status", "--check"]);
        assert_eq!(run.code, 1, "{stamp}: {}", run.snapshot());
        assert!(run.stdout.contains("dated in the future"), "{}", run.stdout);
        let json = env.handover(&repo, &["--json", "status"]);
        let v: Value = serde_json::from_str(&json.stdout).unwrap();
        assert_eq!(v["worktrees"][0]["handovers"][0]["freshness"], "future");
    }
}
