//! Faults: the disk fills up during a save, a write fails part-way, the handover
//! directory is read-only, a killed writer left its lock. Each gives a clear error (or
//! a clear message), and the state on disk stays the old one, whole.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::TestEnv;
use serde_json::json;

/// A tmpfs of `size` at `dir`, unmounted on drop; `None` where mounting is not allowed.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(dir: &Path, size: &str) -> Option<Tmpfs> {
        std::fs::create_dir_all(dir).unwrap();
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .output()
            .is_ok_and(|o| o.status.success());
        ok.then(|| Tmpfs(dir.to_owned()))
    }

    fn remount(&self, options: &str) -> bool {
        Command::new("mount")
            .args(["-o", &format!("remount,{options}")])
            .arg(&self.0)
            .output()
            .is_ok_and(|o| o.status.success())
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).output();
    }
}

/// A repository at `dir` with one commit and a first, small save of team `t`.
#[track_caller]
fn saved_repo(env: &TestEnv, dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    env.git(dir, &["init", "-q", "-b", "main"]);
    env.commit(dir, "a", "a\n", "first", "2026-11-30T10:00:00Z");
    let first = env.save(
        dir,
        &json!({"active_tasks": [{"id": "T1", "description": "small", "status": "in_progress"}]}),
        &["--team", "t"],
    );
    assert_eq!(first.code, 0, "{}", first.snapshot());
}

fn session_files(repo: &Path) -> Vec<(String, Vec<u8>)> {
    let dir = repo.join(".claude/handover/t/default");
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

fn big_state() -> serde_json::Value {
    json!({"active_tasks": [{"id": "T1", "description": "x".repeat(300_000), "status": "in_progress"}]})
}

#[test]
fn disk_full_during_a_save_leaves_the_old_state_whole() {
    if !crate::common::is_root() {
        crate::common::unavailable(
            "mounting a small tmpfs needs root (the EFBIG test below still runs)",
        );
        return;
    }
    let env = TestEnv::new();
    let dir = env.root().join("small");
    let Some(_fs) = Tmpfs::mount(&dir, "2m") else {
        crate::common::unavailable("mount -t tmpfs is not allowed here");
        return;
    };
    let repo = dir.join("repo");
    saved_repo(&env, &repo);
    let before = session_files(&repo);
    // Fill what is left of the disk.
    let filler = dir.join("filler");
    let out = Command::new("dd")
        .args(["if=/dev/zero", "bs=4096"])
        .arg(format!("of={}", filler.display()))
        .output()
        .unwrap();
    assert!(!out.status.success(), "dd stops when the disk is full");

    let run = env.save(&repo, &big_state(), &["--team", "t"]);
    assert_eq!(run.code, 1, "{}", run.snapshot());
    assert_eq!(
        run.stderr.lines().next().unwrap(),
        "git-handover: cannot write [ROOT]/small/repo/.claude/handover/t/default/project-state.json: no space left on device (os error 28)"
    );
    assert_eq!(
        session_files(&repo),
        before,
        "the old state, whole; no temporary file left"
    );

    std::fs::remove_file(&filler).unwrap();
    let run = env.save(&repo, &big_state(), &["--team", "t"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
}

#[test]
fn a_write_that_fails_part_way_leaves_the_old_state_whole() {
    // RLIMIT_FSIZE makes any write past 64 KiB fail with EFBIG; SIGXFSZ is ignored (an
    // ignored signal stays ignored across exec), so the tool sees an error, not a kill.
    let env = TestEnv::new();
    let repo = env.root().join("repo");
    saved_repo(&env, &repo);
    let before = session_files(&repo);
    let input = env.root().join("big.json");
    env.write(&input, &big_state().to_string());
    let out = env
        .command("bash")
        .current_dir(&repo)
        .args([
            "-c",
            &format!(
                "trap '' XFSZ; ulimit -f 64; exec {} save --team t --from {}",
                env!("CARGO_BIN_EXE_git-handover"),
                input.display()
            ),
        ])
        .output()
        .unwrap();
    let stderr = env.redact(&String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr.lines().next().unwrap(),
        "git-handover: cannot write [ROOT]/repo/.claude/handover/t/default/project-state.json: file too large (os error 27)"
    );
    assert_eq!(session_files(&repo), before);
}

#[test]
fn a_read_only_handover_directory_is_a_clear_error() {
    let env = TestEnv::new();
    let dir = env.root().join("ro");
    let root = crate::common::is_root();
    let fs = if root { Tmpfs::mount(&dir, "8m") } else { None };
    if root && fs.is_none() {
        crate::common::unavailable(
            "root, and mount is not allowed: permissions would not stop a write",
        );
        return;
    }
    let repo = dir.join("repo");
    saved_repo(&env, &repo);
    let before = session_files(&repo);
    let session = repo.join(".claude/handover/t/default");
    let made_read_only = match &fs {
        Some(fs) => fs.remount("ro"),
        None => Command::new("chmod")
            .args(["a-w"])
            .arg(&session)
            .status()
            .is_ok_and(|s| s.success()),
    };
    assert!(made_read_only);
    let run = env.handover(&repo, &["task", "--team", "t", "add", "T2", "more"]);
    if let Some(fs) = &fs {
        fs.remount("rw");
    } else {
        let _ = Command::new("chmod").args(["u+w"]).arg(&session).status();
    }
    assert_eq!(run.code, 1, "{}", run.snapshot());
    let expected = if fs.is_some() {
        "read-only file system (os error 30)"
    } else {
        "permission denied (os error 13)"
    };
    assert_eq!(
        run.stderr.lines().next().unwrap(),
        format!(
            "git-handover: cannot create the lock [ROOT]/ro/repo/.claude/handover/t/default/project-state.json.lock: {expected}"
        )
    );
    assert_eq!(session_files(&repo), before);
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map_or_else(|_| "localhost".into(), |h| h.trim().to_owned())
}

fn dead_pid() -> u32 {
    let mut child = Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

#[test]
fn a_stale_lock_is_named_and_removed_only_when_old_and_its_process_gone() {
    let env = TestEnv::new();
    let repo = env.root().join("repo");
    saved_repo(&env, &repo);
    let lock = repo.join(".claude/handover/t/default/project-state.json.lock");
    let host = hostname();
    let old = |path: &Path| {
        let ok = Command::new("touch")
            .args(["-d", "2026-01-01T00:00:00Z"])
            .arg(path)
            .status()
            .unwrap()
            .success();
        assert!(ok);
    };
    let task = |args: &[&str]| {
        let mut all = vec!["-c", "handover.lockTimeout=300ms", "task", "--team", "t"];
        all.extend(args);
        env.handover(&repo, &all)
    };

    // Held by a live process that wrote it after it started: never removed, however
    // long it is held past the timeout. The message gives the lock's age and the wait.
    let mut holder = Command::new("sleep").arg("60").spawn().unwrap();
    let me = holder.id();
    std::thread::sleep(std::time::Duration::from_millis(400));
    std::fs::write(&lock, format!("{me} {host}\n")).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&lock)
        .unwrap()
        .set_modified(std::time::SystemTime::now() - std::time::Duration::from_millis(350))
        .unwrap();
    let run = task(&["add", "T2", "two"]);
    let _ = holder.kill();
    let _ = holder.wait();
    assert_eq!(run.code, 4, "{}", run.snapshot());
    assert_eq!(
        run.stderr,
        format!(
            "git-handover: cannot take the lock [ROOT]/repo/.claude/handover/t/default/project-state.json.lock: held by process {me} on {host} for 0s (waited 0s)\n\
             hint: another git-handover is writing; it is removed by itself once it is older than handover.lockTimeout and its process is gone; if no git-handover runs, remove [ROOT]/repo/.claude/handover/t/default/project-state.json.lock\n"
        )
    );
    assert!(lock.exists());

    // Held by a process on another host: it cannot be checked, so it is never removed.
    std::fs::write(&lock, "4242 elsewhere.example\n").unwrap();
    old(&lock);
    let run = task(&["add", "T2", "two"]);
    assert_eq!(run.code, 4, "{}", run.snapshot());
    assert!(
        run.stderr
            .contains("held by process 4242 on elsewhere.example"),
        "{}",
        run.stderr
    );
    assert!(lock.exists());

    // Left by a killed process, and old: removed, and said so.
    let gone = dead_pid();
    std::fs::write(&lock, format!("{gone} {host}\n")).unwrap();
    old(&lock);
    let run = task(&["add", "T2", "two"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(
        run.stderr,
        format!(
            "git-handover: warning: removed the stale lock [ROOT]/repo/.claude/handover/t/default/project-state.json.lock (left by process {gone} on {host}, which is gone)\n"
        )
    );
    assert!(!lock.exists(), "released after the write");
    let state = std::fs::read_to_string(repo.join(".claude/handover/t/default/project-state.json"))
        .unwrap();
    assert!(state.contains("\"T2\""));

    // Left by a crashed process whose pid now names a process that started later (pid
    // reuse): that process is not the owner, so the old lock is removed all the same.
    let mut reused = Command::new("sleep").arg("60").spawn().unwrap();
    let pid = reused.id();
    std::fs::write(&lock, format!("{pid} {host}\n")).unwrap();
    old(&lock);
    let run = task(&["add", "T3", "three"]);
    let _ = reused.kill();
    let _ = reused.wait();
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        run.stderr.contains("removed the stale lock"),
        "{}",
        run.stderr
    );
    assert!(!lock.exists(), "released after the write");
}
