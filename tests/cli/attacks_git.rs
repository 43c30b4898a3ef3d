//! The second round of attacks (issue 31) on the git room: each test tries to break one
//! promise and failed before its fix. docs/SECURITY.md lists them.

use std::path::Path;

use crate::common::{self, TestEnv};

const ONE_TASK: &str =
    r#"{"active_tasks": [{"id": "T1", "status": "in_progress", "description": "work"}]}"#;

fn save(env: &TestEnv, dir: &Path, args: &[&str], state: &str) -> common::Run {
    let input = env.root().join("input.json");
    env.write(&input, state);
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["save", "--from", input.to_str().unwrap()]);
    env.handover(dir, &all)
}

/// The uid and gid of every file under `dir` become `uid`.
fn chown_all(dir: &Path, uid: u32) {
    let ok = std::process::Command::new("chown")
        .args(["-R", &format!("{uid}:{uid}")])
        .arg(dir)
        .status()
        .unwrap()
        .success();
    assert!(ok, "chown {}", dir.display());
}

/// Item 2: a repository of another user is refused as git refuses it (CVE-2022-24765):
/// `status` and `save` exit 128 naming the directory with git's own fix, nothing is
/// written into it, and the session-start hook briefs nothing, saying why in one line.
/// A `safe.directory` entry lets it through.
#[test]
fn a_repository_of_another_user_is_refused_unless_safe_directory_says_so() {
    if !common::is_root() {
        common::unavailable("needs root to give the repository to another user");
        return;
    }
    let env = TestEnv::new();
    let repo = env.init("repo");
    env.commit(&repo, "a.txt", "a\n", "first", "2026-11-30T10:00:00Z");
    let saved = save(&env, &repo, &[], ONE_TASK);
    assert_eq!(saved.code, 0, "{}", saved.snapshot());
    chown_all(&repo, 65534);
    // git itself refuses it.
    let git = env
        .command("git")
        .current_dir(&repo)
        .arg("status")
        .output()
        .unwrap();
    assert!(!git.status.success());
    assert!(String::from_utf8_lossy(&git.stderr).contains("dubious ownership"));

    let status = env.handover(&repo, &["status"]);
    assert_eq!(status.code, 128, "{}", status.snapshot());
    assert!(
        status.stderr.contains("dubious ownership"),
        "{}",
        status.snapshot()
    );
    assert!(
        status
            .stderr
            .contains("git config --global --add safe.directory [ROOT]/repo"),
        "{}",
        status.snapshot()
    );
    let json = env.handover(&repo, &["--json", "status"]);
    assert_eq!(
        json.json()["error"]["kind"],
        "dubious_ownership",
        "{}",
        json.snapshot()
    );

    let before = common::sessions_under(&repo.join(".claude/handover"));
    let written = save(&env, &repo, &[], ONE_TASK);
    assert_eq!(written.code, 128, "{}", written.snapshot());
    assert_eq!(
        common::sessions_under(&repo.join(".claude/handover")),
        before
    );
    let mut mine = Vec::new();
    owned_by(&repo, 0, &mut mine);
    assert!(mine.is_empty(), "files of the caller in it: {mine:?}");

    let event = format!(r#"{{"cwd": "{}"}}"#, repo.display());
    let hook = env.handover_fed(&repo, &["hook", "session-start"], event.as_bytes(), |_| {});
    let context = hook.hook_context();
    assert_eq!(context.lines().count(), 1, "{context}");
    assert!(context.contains("dubious ownership"), "{context}");
    assert!(!context.contains("T1"), "{context}");

    // The hint's command, run as printed from the repository, lets it through, as it
    // lets git through.
    let printed = status
        .stderr
        .lines()
        .find_map(|l| l.split_once("as git says: ").map(|(_, c)| c))
        .expect("the hint names git's command")
        .replace("[ROOT]", &env.root().display().to_string());
    run_as_printed(&env, &repo, &printed);
    let trusted = env.handover(&repo, &["status"]);
    assert_eq!(trusted.code, 0, "{}", trusted.snapshot());
}

fn owned_by(dir: &Path, uid: u32, out: &mut Vec<std::path::PathBuf>) {
    use std::os::unix::fs::MetadataExt as _;
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let meta = std::fs::symlink_metadata(e.path()).unwrap();
        if meta.uid() == uid {
            out.push(e.path());
        }
        if meta.is_dir() {
            owned_by(&e.path(), uid, out);
        }
    }
}

/// Item 35: where `GIT_CEILING_DIRECTORIES` leaves the directory outside every
/// repository, the tool says what git says: not a git repository (exit 128).
#[test]
fn a_ceiling_above_the_directory_makes_it_no_repository() {
    let env = TestEnv::new();
    let repo = env.repo();
    let sub = repo.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    let run = env.handover_with(&sub, &["status"], |cmd| {
        cmd.env("GIT_CEILING_DIRECTORIES", &repo);
    });
    assert_eq!(run.code, 128, "{}", run.snapshot());
    assert!(
        run.stderr.contains("not a git repository"),
        "{}",
        run.snapshot()
    );
    assert!(!run.stderr.contains("cannot be read"), "{}", run.snapshot());
}

/// Item 14: a reftable repository is refused by name (gix reads refs from files only),
/// never read as an unborn one.
#[test]
fn a_reftable_repository_is_refused_by_name() {
    let probe = TestEnv::new();
    let dir = probe.root().join("probe");
    let ok = probe
        .command("git")
        .args(["init", "-q", "--ref-format=reftable"])
        .arg(&dir)
        .status()
        .unwrap()
        .success();
    if !ok {
        common::unavailable("git cannot make reftable repositories (git >= 2.45)");
        return;
    }
    let env = TestEnv::new();
    let repo = env.root().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    env.git(
        &repo,
        &["init", "-q", "-b", "main", "--ref-format=reftable"],
    );
    // Without reflogs, which git before 2.48 cannot migrate (the hint says so).
    env.git(&repo, &["config", "core.logAllRefUpdates", "false"]);
    env.commit(&repo, "a.txt", "a\n", "first", "2026-11-30T10:00:00Z");
    for args in [&["status"][..], &["continue"]] {
        let run = env.handover(&repo, args);
        assert_eq!(run.code, 128, "{}", run.snapshot());
        assert!(
            run.stderr.contains("extensions.refStorage=reftable"),
            "{}",
            run.snapshot()
        );
    }
    let saved = save(&env, &repo, &[], ONE_TASK);
    assert_eq!(saved.code, 128, "{}", saved.snapshot());
    let event = format!(r#"{{"cwd": "{}"}}"#, repo.display());
    let hook = env.handover_fed(&repo, &["hook", "session-start"], event.as_bytes(), |_| {});
    assert!(
        hook.hook_context().contains("reftable"),
        "{}",
        hook.snapshot()
    );
    // The hint's command, run as printed from the repository, makes it one the tool
    // reads: the branch and its head are there, and the save lands.
    let printed = saved
        .stderr
        .lines()
        .find_map(|l| l.split_once("2.48 or later): ").map(|(_, c)| c))
        .expect("the hint names git's command");
    run_as_printed(&env, &repo, printed);
    let saved = save(&env, &repo, &[], ONE_TASK);
    assert_eq!(saved.code, 0, "{}", saved.snapshot());
    let status = env.handover(&repo, &["status"]);
    assert!(
        status.stdout.contains("branch main"),
        "{}",
        status.snapshot()
    );
}

/// Item 36: `sync --rewrite-ref` is a local configuration change: without a remote
/// named origin it changes the configuration and succeeds.
#[test]
fn sync_rewrite_ref_needs_no_remote() {
    let env = TestEnv::new();
    let repo = env.repo();
    let run = env.handover(&repo, &["sync", "--rewrite-ref"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        run.stdout.contains("notes.rewriteRef"),
        "{}",
        run.snapshot()
    );
    let value = env.git(&repo, &["config", "--get-all", "notes.rewriteRef"]);
    assert_eq!(value, "refs/notes/handover");
    let again = env.handover(&repo, &["sync", "--rewrite-ref"]);
    assert_eq!(again.code, 0, "{}", again.snapshot());
    assert!(again.stdout.contains("already"), "{}", again.snapshot());
    // Without --rewrite-ref, a missing origin is still named.
    let plain = env.handover(&repo, &["sync"]);
    assert_eq!(plain.code, 2, "{}", plain.snapshot());
}

/// The peak resident size (bytes) of the tool run in `dir`, read from `/proc` while it
/// waits at its exit (as tests/cli/memory.rs reads it), with its exit status and stderr.
fn peak_of(env: &TestEnv, dir: &Path, args: &[&str]) -> Option<(i32, String, u64)> {
    if !Path::new("/proc/self/status").exists() {
        common::unavailable("no /proc to read a process's peak memory from");
        return None;
    }
    let err_file = env.root().join(format!("stderr-{}", args.join("-")));
    let mut child = env
        .command(env!("CARGO_BIN_EXE_git-handover"))
        .current_dir(dir)
        .args(args)
        .env("GIT_HANDOVER_TEST_PAUSE", "exit:400")
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&err_file).unwrap())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut high = 0u64;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_file)
            && let Some(kb) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            high = high.max(kb * 1024);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let stderr = env.redact(&std::fs::read_to_string(&err_file).unwrap_or_default());
    Some((status.code().unwrap_or(-1), stderr, high))
}

/// Item 10: a note far over the size limit (80 MiB of zeros, a few hundred kilobytes
/// in the object store) is refused from its object's header, never inflated: `status`
/// and `log` name it and stay small, and `sync` refuses a remote that holds one.
#[test]
fn a_note_over_the_size_limit_is_never_inflated() {
    const MIB: u64 = 1 << 20;
    let env = TestEnv::new();
    let repo = env.repo();
    let saved = save(&env, &repo, &[], ONE_TASK);
    assert_eq!(saved.code, 0, "{}", saved.snapshot());
    let big = env.root().join("big");
    let file = std::fs::File::create(&big).unwrap();
    file.set_len(80 * MIB).unwrap();
    let blob = env.git(&repo, &["hash-object", "-w", big.to_str().unwrap()]);
    std::fs::remove_file(&big).unwrap();
    env.commit(&repo, "b.txt", "b\n", "second", "2026-11-30T11:00:00Z");
    env.git(
        &repo,
        &["notes", "--ref", "handover", "add", "-C", &blob, "HEAD"],
    );
    for args in [&["status"][..], &["log"]] {
        let Some((code, stderr, high)) = peak_of(&env, &repo, args) else {
            return;
        };
        assert!(code == 0 || code == 3, "{args:?}: exit {code}\n{stderr}");
        assert!(stderr.contains("over the limit"), "{args:?}: {stderr}");
        assert!(high < 48 * MIB, "{args:?} peaked at {} MiB", high / MIB);
    }
    // A remote whose store holds it: sync refuses it before any ref of ours moves.
    let clone = env.root().join("clone");
    env.git(
        env.root(),
        &[
            "clone",
            "-q",
            repo.to_str().unwrap(),
            clone.to_str().unwrap(),
        ],
    );
    let Some((code, stderr, high)) = peak_of(&env, &clone, &["sync"]) else {
        return;
    };
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("over the size limit"), "{stderr}");
    assert!(high < 48 * MIB, "sync peaked at {} MiB", high / MIB);
}

/// Item 13: a shallow clone resumes. The walk ends at the clone's boundary (its
/// parents are absent by design, as git reads them), `continue` briefs, the hook's
/// briefing is the handover, and a recorded commit beyond the boundary is unchecked
/// (shallow clone), never called missing or the history damaged.
#[test]
fn a_shallow_clone_resumes_and_says_what_it_could_not_check() {
    let env = TestEnv::new();
    let origin = env.repo();
    let old = env.git(&origin, &["rev-parse", "HEAD"]);
    env.commit(&origin, "b.txt", "b\n", "second", "2026-11-30T10:30:00Z");
    env.commit(&origin, "c.txt", "c\n", "third", "2026-11-30T11:00:00Z");
    let clone = env.root().join("clone");
    let url = format!("file://{}", origin.display());
    env.git(
        env.root(),
        &["clone", "-q", "--depth", "1", &url, clone.to_str().unwrap()],
    );
    assert!(clone.join(".git/shallow").is_file());
    // An agent's handover that records a commit from before the boundary.
    let state = format!(
        r#"{{"active_tasks": [{{"id": "T1", "status": "in_progress", "description": "work", "commit_sha": "{old}"}}]}}"#
    );
    let saved = save(&env, &clone, &[], &state);
    assert_eq!(saved.code, 0, "{}", saved.snapshot());

    let resumed = env.handover(&clone, &["continue"]);
    assert_eq!(resumed.code, 0, "{}", resumed.snapshot());
    assert!(resumed.stdout.contains("[T1]"), "{}", resumed.snapshot());
    assert!(
        !resumed.stderr.contains("cannot walk history"),
        "{}",
        resumed.snapshot()
    );

    let status = env.handover(&clone, &["status"]);
    assert_eq!(status.code, 0, "{}", status.snapshot());
    let all = format!("{}{}", status.stdout, status.stderr);
    assert!(all.contains("1 unchecked"), "{all}");
    assert!(all.contains("shallow clone"), "{all}");
    assert!(!all.contains("missing"), "{all}");
    assert!(!all.contains("could not be read"), "{all}");

    let event = format!(r#"{{"cwd": "{}"}}"#, clone.display());
    let hook = env.handover_fed(&clone, &["hook", "session-start"], event.as_bytes(), |_| {});
    let context = hook.hook_context();
    assert!(context.contains("[T1]"), "{context}");
    assert!(!context.contains("cannot walk history"), "{context}");

    // The warning's command, run as printed from the clone, fetches the rest of the
    // history: the recorded commit is then checked, and the warning is gone.
    let printed = all
        .split('`')
        .find(|part| part.starts_with("git fetch"))
        .expect("the warning names git's command");
    run_as_printed(&env, &clone, printed);
    let status = env.handover(&clone, &["status"]);
    let all = format!("{}{}", status.stdout, status.stderr);
    assert!(!all.contains("unchecked"), "{all}");
    assert!(!all.contains("shallow clone"), "{all}");
}

/// Run `command` through the shell in `dir`, as a user pasting what the tool printed.
fn run_as_printed(env: &TestEnv, dir: &Path, command: &str) {
    let out = env.shell(dir, command).output().unwrap();
    assert!(
        out.status.success(),
        "{command}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Item 20: two syncs at once each fetch into a ref of their own: the one that waits
/// after its fetch while the other runs whole still finds what it fetched, and both
/// succeed; no scratch ref is left behind.
#[test]
fn two_syncs_at_once_do_not_take_each_others_fetch() {
    use crate::notes_store::{enable_store, save as save_at, tasks};
    let env = TestEnv::new();
    let seed = env.init("seed");
    env.commit(&seed, "a", "a\n", "first", "2026-11-30T10:00:00Z");
    let remote = env.root().join("remote.git");
    env.git(
        env.root(),
        &["clone", "-q", "--bare", "seed", remote.to_str().unwrap()],
    );
    let clone = |name: &str| {
        env.git(env.root(), &["clone", "-q", remote.to_str().unwrap(), name]);
        let dir = env.root().join(name);
        enable_store(&env, &dir);
        dir
    };
    let a = clone("a");
    save_at(&env, &a, "2026-11-30T12:00:00Z", &tasks(&["A1"]));
    assert_eq!(env.handover(&a, &["sync"]).code, 0);
    let b = clone("b");
    save_at(&env, &b, "2026-11-30T12:05:00Z", &tasks(&["B1"]));

    let waiting = env.spawn_at_pause(&b, &["sync"], "sync_fetched:60000");
    let other = env.handover(&b, &["sync"]);
    assert_eq!(other.code, 0, "{}", other.snapshot());
    let (code, stdout, stderr) = common::finish(waiting);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let left = env.git(&b, &["for-each-ref", "refs/handover-incoming/"]);
    assert_eq!(left, "", "scratch refs left behind");
}
