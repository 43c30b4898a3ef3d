//! The second round of attacks (issue 31) on the continue room: each test tries to break one
//! promise and failed before its fix. docs/SECURITY.md lists them.

use std::path::{Path, PathBuf};

use crate::common::{TestEnv, read_json, state_path};
use serde_json::{Value, json};

fn legacy_state(id: Option<&str>) -> Value {
    let mut state = json!({"version": 2, "generated_at": "2026-11-28T09:00:00Z", "status": "READY",
                           "active_tasks": [{"id": "T1", "status": "in_progress", "description": "old work"}]});
    if let Some(id) = id {
        state["session_id"] = json!(id);
    }
    state
}

// 9. Migrating a legacy state keeps the session id the original procedure gave it.
#[test]
fn migrating_a_legacy_state_keeps_its_own_session_id() {
    let env = TestEnv::new();
    let repo = env.repo();
    let legacy = legacy_state(Some("test-session"));
    env.write(
        &repo.join(".claude/project-state.json"),
        &legacy.to_string(),
    );
    let run = env.handover(&repo, &["migrate"]);
    run.assert_ok();
    let state = read_json(&state_path(&repo, "main/20261130-120000"));
    assert_eq!(state["session_id"], "test-session", "{state}");
    // One without an id gets a new one.
    let other = env.init("other");
    env.commit(&other, "a.txt", "a\n", "first", "2026-11-30T10:00:00Z");
    env.write(
        &other.join(".claude/project-state.json"),
        &legacy_state(None).to_string(),
    );
    env.handover(&other, &["migrate"]).assert_ok();
    let state = read_json(&state_path(&other, "main/20261130-120000"));
    assert!(
        state["session_id"].as_str().is_some_and(|s| s.len() > 8),
        "{state}"
    );
}

// 38. A legacy state reached through a linked `.claude` outside the worktree is not
// migrated and not removed.
#[cfg(unix)]
#[test]
fn migrate_refuses_a_legacy_state_behind_a_linked_claude_dir() {
    let env = TestEnv::new();
    let repo = env.repo();
    let outside = env.root().join("outside");
    let legacy = legacy_state(Some("elsewhere")).to_string();
    env.write(&outside.join("project-state.json"), &legacy);
    env.write(&outside.join("handover.md"), "their view\n");
    std::os::unix::fs::symlink(&outside, repo.join(".claude")).unwrap();
    let run = env.handover(&repo, &["migrate"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(
        run.stderr
            .contains("refusing [ROOT]/repo/.claude/project-state.json"),
        "{}",
        run.snapshot()
    );
    assert_eq!(
        std::fs::read_to_string(outside.join("project-state.json")).unwrap(),
        legacy
    );
    assert!(outside.join("handover.md").is_file());
    assert!(
        !outside.join("handover").exists(),
        "nothing written through the link"
    );
}

/// A session both clones wrote from one state, synced: clone `a`, clone `b`, its key,
/// and each side's hash (12 characters).
struct Diverged {
    a: PathBuf,
    b: PathBuf,
    remote: PathBuf,
    key: String,
    a_side: String,
    b_side: String,
}

fn at(now: &str) -> impl FnOnce(&mut std::process::Command) + '_ {
    move |c| {
        c.env("GIT_HANDOVER_NOW", now);
    }
}

fn sync(env: &TestEnv, dir: &Path) {
    env.handover(dir, &["sync"]).assert_ok();
}

fn diverged_sides(env: &TestEnv, dir: &Path) -> Vec<Value> {
    env.json(dir, &["--json", "status"])["diverged"]
        .as_array()
        .unwrap()
        .clone()
}

fn diverged(env: &TestEnv) -> Diverged {
    let remote = env.bare_remote();
    let a = env.store_clone(&remote, "a");
    let b = env.store_clone(&remote, "b");
    let state =
        json!({"active_tasks": [{"id": "A1", "description": "work", "status": "in_progress"}]});
    let run = env.save_with(&a, &state, &[], at("2026-11-30T12:00:00Z"));
    run.assert_ok();
    let key = run.stdout.trim().to_owned();
    sync(env, &a);
    sync(env, &b);
    env.handover_with(
        &b,
        &["continue", &key, "--successor"],
        at("2026-11-30T12:10:00Z"),
    )
    .assert_ok();
    for (dir, task, now) in [
        (&a, "FROM-A", "2026-11-30T12:20:00Z"),
        (&b, "FROM-B", "2026-11-30T12:30:00Z"),
    ] {
        env.handover_with(
            dir,
            &["task", "--session", &key, "add", task, "change"],
            at(now),
        )
        .assert_ok();
    }
    sync(env, &a);
    sync(env, &b);
    sync(env, &a);
    let sides = diverged_sides(env, &a);
    assert_eq!(sides.len(), 1, "{sides:?}");
    let side = |wt: &str| {
        sides[0]["sides"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["worktree"] == wt)
            .map(|s| s["hash"].as_str().unwrap()[..12].to_owned())
            .unwrap()
    };
    Diverged {
        a_side: side("[ROOT]/a"),
        b_side: side("[ROOT]/b"),
        a,
        b,
        remote,
        key,
    }
}

fn task_ids(file: &Path) -> Vec<String> {
    read_json(file)["active_tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_owned())
        .collect()
}

// 5. A hand edit leaves `session_hash` stale: the state is known by its content, so
// the take refuses to replace a state the store does not have.
#[test]
fn take_refuses_to_replace_a_hand_edited_state_whose_hash_field_is_stale() {
    let env = TestEnv::new();
    let d = diverged(&env);
    let file = state_path(&d.a, &d.key);
    let mut state = read_json(&file);
    state["active_tasks"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "HAND", "description": "added by hand", "status": "pending"}));
    env.write(&file, &serde_json::to_string_pretty(&state).unwrap());
    let run = env.handover(&d.a, &["continue", &d.key, "--take", &d.b_side]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(
        run.stderr.contains("a state the notes store does not have"),
        "{}",
        run.snapshot()
    );
    assert!(
        task_ids(&file).contains(&"HAND".to_owned()),
        "nothing replaced"
    );
}

// 6. Taking your own side settles in every clone; a later write on the side set aside
// diverges again, and a fresh clone restores no side silently.
#[test]
fn taking_your_own_side_settles_and_a_write_on_the_side_set_aside_diverges_again() {
    let env = TestEnv::new();
    let d = diverged(&env);
    let run = env.handover_with(
        &d.a,
        &["continue", &d.key, "--take", &d.a_side],
        at("2026-11-30T12:40:00Z"),
    );
    run.assert_ok();
    assert!(run.stdout.contains("took side"), "{}", run.snapshot());
    sync(&env, &d.a);
    sync(&env, &d.b);
    for dir in [&d.a, &d.b] {
        assert_eq!(
            diverged_sides(&env, dir),
            Vec::<Value>::new(),
            "settled in {}",
            dir.display()
        );
    }
    // b's files still hold the side set aside; b writes on from it.
    env.handover_with(
        &d.b,
        &[
            "task",
            "--session",
            &d.key,
            "add",
            "LATER-B",
            "after the settle",
        ],
        at("2026-11-30T12:50:00Z"),
    )
    .assert_ok();
    sync(&env, &d.b);
    sync(&env, &d.a);
    for dir in [&d.a, &d.b] {
        let sides = diverged_sides(&env, dir);
        assert_eq!(
            sides.len(),
            1,
            "diverged again in {}: {sides:?}",
            dir.display()
        );
    }
    let c = env.store_clone(&d.remote, "c");
    sync(&env, &c);
    let run = env.handover(&c, &["continue", &d.key]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(run.stdout.contains("diverged"), "{}", run.snapshot());
    assert!(
        !state_path(&c, &d.key).exists(),
        "no side restored silently"
    );
}

// 7. The take decides under the session's lock: a write between showing the sides and
// replacing the file makes it refuse (exit 4), and of two takes at once one wins.
#[test]
fn take_refuses_when_the_session_changed_before_it_held_the_lock() {
    let env = TestEnv::new();
    let d = diverged(&env);
    let take = ["continue", d.key.as_str(), "--take", d.b_side.as_str()];
    let child = env.spawn_at_pause(&d.a, &take, "take:60000");
    env.handover(
        &d.a,
        &["task", "--session", &d.key, "add", "RACE", "in between"],
    )
    .assert_ok();
    let (code, stdout, stderr) = crate::common::finish(child);
    assert_eq!(code, 4, "{stdout}{stderr}");
    assert!(
        stderr.contains("changed since its sides were shown"),
        "{stderr}"
    );
    let file = state_path(&d.a, &d.key);
    assert!(
        task_ids(&file).contains(&"RACE".to_owned()),
        "the write stands"
    );

    // Two takes at once in b: exactly one settles.
    let first = env.spawn_at_pause(&d.b, &take_in(&d, &d.a_side), "take:60000");
    let second = env.spawn_at_pause(&d.b, &take_in(&d, &d.a_side), "take:60000");
    let mut codes: Vec<i32> = [first, second]
        .into_iter()
        .map(|c| crate::common::finish(c).0)
        .collect();
    codes.sort_unstable();
    assert_eq!(codes, [0, 4]);
}

fn take_in<'a>(d: &'a Diverged, side: &'a str) -> [&'a str; 4] {
    ["continue", d.key.as_str(), "--take", side]
}

/// `dir` read-only until dropped: a read-only bind mount as root (permissions stop
/// nothing then), its write permission taken away otherwise.
struct ReadOnly(PathBuf, bool);

impl ReadOnly {
    fn make(dir: &Path) -> Option<ReadOnly> {
        use std::process::Command;
        if !crate::common::is_root() {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o555)).unwrap();
            return Some(ReadOnly(dir.to_owned(), false));
        }
        let ok = |args: &[&str]| {
            Command::new("mount")
                .args(args)
                .arg(dir)
                .arg(dir)
                .output()
                .is_ok_and(|o| o.status.success())
        };
        if !ok(&["--bind"]) {
            return None;
        }
        let ro = Command::new("mount")
            .args(["-o", "remount,bind,ro"])
            .arg(dir)
            .output()
            .is_ok_and(|o| o.status.success());
        let guard = ReadOnly(dir.to_owned(), true);
        ro.then_some(guard)
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        if self.1 {
            let _ = std::process::Command::new("umount")
                .arg("-l")
                .arg(&self.0)
                .output();
        } else {
            use std::os::unix::fs::PermissionsExt as _;
            let _ = std::fs::set_permissions(&self.0, std::fs::Permissions::from_mode(0o755));
        }
    }
}

// 26. On a read-only file system `continue` briefs, and says handover.md was not
// regenerated and why.
#[cfg(unix)]
#[test]
fn continue_briefs_on_a_read_only_session_and_says_the_regeneration_was_skipped() {
    let env = TestEnv::new();
    let repo = env.repo();
    let key = env.saved(
        &repo,
        &json!({"active_tasks": [{"id": "T1", "description": "read only", "status": "in_progress"}]}),
    );
    let dir = state_path(&repo, &key).parent().unwrap().to_owned();
    std::fs::remove_file(dir.join("handover.md")).unwrap();
    let Some(_ro) = ReadOnly::make(&dir) else {
        crate::common::unavailable("a read-only bind mount is not allowed here");
        return;
    };
    let run = env.handover(&repo, &["continue"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.contains("T1"), "{}", run.snapshot());
    let notice = format!(
        "kept [ROOT]/repo/.claude/handover/{key}/handover.md: not regenerated, it cannot be written here"
    );
    assert!(
        run.stdout.contains(&notice) || run.stderr.contains(&notice),
        "{}",
        run.snapshot()
    );
    assert!(!dir.join("handover.md").exists());
}

// 24. A session copy that came from another clone (its recorded root does not exist
// here) is adopted: no parallel `-2` session, `continue` stays unambiguous.
#[test]
fn adopt_makes_a_copy_from_another_clone_this_worktrees_own() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.git(env.root(), &["clone", "-q", "repo", "other"]);
    let other = env.root().join("other");
    let key = env.saved(
        &other,
        &json!({"active_tasks": [{"id": "T1", "description": "from the other clone", "status": "in_progress"}]}),
    );
    let from = state_path(&other, &key);
    let copy = state_path(&repo, &key);
    env.write(&copy, &std::fs::read_to_string(&from).unwrap());
    std::fs::remove_dir_all(&other).unwrap();
    let id_before = read_json(&copy)["session_id"].clone();

    let run = env.handover(&repo, &["continue", "--adopt", &key]);
    run.assert_ok();
    assert!(
        run.stdout.contains(&format!("adopted {key}")),
        "{}",
        run.snapshot()
    );
    let after = read_json(&copy);
    assert_eq!(after["workspace"]["root"], repo.display().to_string());
    assert_ne!(after["session_id"], id_before);
    env.handover(&repo, &["task", "add", "T2", "here"])
        .assert_ok();
    assert_eq!(
        crate::common::sessions_under(&repo.join(".claude/handover")),
        [key.as_str()],
        "no parallel session"
    );
    assert!(task_ids(&copy).contains(&"T2".to_owned()));
    let run = env.handover(&repo, &["continue"]);
    run.assert_ok();
    assert!(run.stdout.contains("T1"), "{}", run.snapshot());
}

// 32. A key taken here gets a suffix of the id's letters and digits only, and a stored
// key `continue` would read as a path is listed under one it reaches.
#[test]
fn store_keys_are_listed_only_as_keys_continue_can_reach() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.git(&repo, &["config", "handover.store", "notes"]);
    env.write_session(
        &repo,
        "main/y",
        &json!({"version": 4, "session_id": "on-disk", "status": "READY",
                "active_tasks": [{"id": "T1", "description": "here", "status": "in_progress"}]}),
    );
    for (key, id) in [("main/y", "/../../."), ("main/x/project-state.json", "s2")] {
        let line = json!({"key": key, "saved_at": "2026-11-30T11:00:00Z", "kind": "session",
                          "session_id": id, "seq": 1,
                          "state": {"version": 4, "status": "READY",
                                    "active_tasks": [{"id": "S1", "description": "stored", "status": "in_progress"}]}});
        env.git(
            &repo,
            &[
                "notes",
                "--ref=handover",
                "append",
                "-m",
                &line.to_string(),
                "HEAD",
            ],
        );
    }
    let run = env.handover(&repo, &["status", "--keys"]);
    run.assert_ok();
    let mut keys: Vec<&str> = run.stdout.lines().collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        ["main/x/project-state-json", "main/y", "main/y-stored"],
        "{}",
        run.snapshot()
    );
    for key in ["main/y-stored", "main/x/project-state-json"] {
        let run = env.handover(&repo, &["continue", key]);
        run.assert_ok();
        assert!(run.stdout.contains("S1"), "{}", run.snapshot());
        assert!(state_path(&repo, key).is_file(), "{key} restored");
    }
}
