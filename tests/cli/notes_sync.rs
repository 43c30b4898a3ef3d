//! The notes store between clones (SPEC section 8): clones of a bare remote sync, a
//! session both wrote diverges and is said, a rejected push is fetched, merged and
//! pushed again, and notes can follow rewritten commits.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::TestEnv;
use crate::notes_store::{NOTES, notes_by_git, save, tasks};
use serde_json::{Value, json};

/// `<root>/remote.git`: a bare repository with one commit, its reflog kept.
fn bare_remote(env: &TestEnv) -> PathBuf {
    let remote = env.bare_remote();
    env.git(&remote, &["config", "core.logAllRefUpdates", "true"]);
    remote
}

fn sync(env: &TestEnv, dir: &Path) -> Value {
    env.json(dir, &["--json", "sync"])
}

/// key → the newest record's state, as `log` reads it.
fn newest(env: &TestEnv, dir: &Path) -> BTreeMap<String, Value> {
    let log = env.json(dir, &["--json", "log"]);
    let mut out = BTreeMap::new();
    for r in log["records"].as_array().unwrap().iter().rev() {
        out.insert(r["key"].as_str().unwrap().to_owned(), r["state"].clone());
    }
    out
}

fn read_state(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("project-state.json")).unwrap()).unwrap()
}

#[test]
fn two_clones_sync_through_a_bare_remote_and_a_session_both_wrote_diverges() {
    let env = TestEnv::new();
    let remote = bare_remote(&env);
    let a = env.store_clone(&remote, "a");
    let b = env.store_clone(&remote, "b");

    let key_a = save(&env, &a, "2026-11-30T12:00:00Z", &tasks(&["A1"]));
    let key_b = save(&env, &b, "2026-11-30T12:05:00Z", &tasks(&["B1"]));
    assert_ne!(key_a, key_b);
    // A note of b's own on another commit: not a conflict, simply taken.
    env.commit(&b, "b", "b\n", "second", "2026-11-30T10:30:00Z");
    let run = env.handover_with(&b, &["task", "add", "B2", "later"], |c| {
        c.env("GIT_HANDOVER_NOW", "2026-11-30T12:06:00Z");
    });
    assert_eq!(run.code, 0, "{}", run.snapshot());

    sync_both_ways(&env, &a, &b, &key_a, &key_b);
    let b_side = diverge_one_session(&env, &a, &b, &key_a);
    take_refuses_an_unrecorded_state(&env, &a, &key_a, &b_side);
    take_a_side(&env, &a, &b, &key_a, &b_side);
    only_fast_forwards(&env, &remote);
}

/// a pushes first, b merges as git would, a fast-forwards: both clones hold both sessions.
fn sync_both_ways(env: &TestEnv, a: &Path, b: &Path, key_a: &str, key_b: &str) {
    let first = sync(env, a);
    assert_eq!(first["remote_had_notes"], false);
    assert_eq!(first["pushed"], true);

    // What git's own merge makes of the same two refs, for comparison.
    env.git(
        b,
        &[
            "fetch",
            "-q",
            "origin",
            "refs/notes/handover:refs/notes/from-origin",
        ],
    );
    env.git(b, &["update-ref", "refs/notes/by-git", NOTES]);
    env.git(
        b,
        &[
            "notes",
            "--ref=refs/notes/by-git",
            "merge",
            "-q",
            "-s",
            "cat_sort_uniq",
            "refs/notes/from-origin",
        ],
    );
    let second = sync(env, b);
    assert_eq!(second["merges"], json!(["merged"]));
    assert_eq!(second["pushed"], true);
    assert_eq!(
        notes_by_git(env, b, "handover"),
        notes_by_git(env, b, "refs/notes/by-git"),
        "sync merges as `git notes merge -s cat_sort_uniq` does"
    );
    let third = sync(env, a);
    assert_eq!(third["merges"], json!(["fast-forward"]));
    assert_eq!(third["pushed"], false, "nothing new to push");

    let in_a = newest(env, a);
    let in_b = newest(env, b);
    assert_eq!(in_a.keys().collect::<Vec<_>>(), [key_a, key_b]);
    assert_eq!(in_a, in_b, "both clones hold both sessions");
}

/// Both clones change one session from the same state: it diverges in both, and
/// `continue` says so. Returns the hash of b's side.
fn diverge_one_session(env: &TestEnv, a: &Path, b: &Path, key_a: &str) -> String {
    // b restores a's session from the store and both change it; b's change is newer.
    let run = env.handover_with(b, &["continue", key_a, "--successor"], |c| {
        c.env("GIT_HANDOVER_NOW", "2026-11-30T12:10:00Z");
    });
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        b.join(".claude/handover")
            .join(key_a)
            .join("project-state.json")
            .is_file()
    );
    let run = env.handover_with(
        a,
        &["task", "--session", key_a, "add", "FROM-A", "a's change"],
        |c| {
            c.env("GIT_HANDOVER_NOW", "2026-11-30T12:20:00Z");
        },
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let run = env.handover_with(
        b,
        &["task", "--session", key_a, "add", "FROM-B", "b's change"],
        |c| {
            c.env("GIT_HANDOVER_NOW", "2026-11-30T12:30:00Z");
        },
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    sync(env, a);
    sync(env, b);
    sync(env, a);
    assert_eq!(
        env.git(a, &["rev-parse", NOTES]),
        env.git(b, &["rev-parse", NOTES])
    );
    // Both wrote the session from the same state: it diverged, and nothing is picked
    // for the user (SPEC section 8), in either clone.
    let mut b_side = String::new();
    for dir in [a, b] {
        let status = env.json(dir, &["--json", "status"]);
        let diverged = status["diverged"].as_array().unwrap();
        assert_eq!(diverged.len(), 1, "{status}");
        assert_eq!(diverged[0]["key"], key_a);
        let nexts: Vec<&str> = diverged[0]["sides"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["next"].as_str().unwrap())
            .collect();
        assert_eq!(nexts.len(), 2);
        for side in diverged[0]["sides"].as_array().unwrap() {
            if side["worktree"] == "[ROOT]/b" {
                side["hash"].as_str().unwrap()[..12].clone_into(&mut b_side);
            }
        }
        let check = env.handover(dir, &["status", "--check"]);
        assert_eq!(check.code, 1, "a divergence needs attention");
    }
    let run = env.handover(a, &["continue", key_a]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(run.stdout.contains("diverged"), "{}", run.snapshot());
    assert!(run.stdout.contains("--take"), "{}", run.snapshot());
    b_side
}

fn take_refuses_an_unrecorded_state(env: &TestEnv, a: &Path, key_a: &str, b_side: &str) {
    // A state written here with the store off is in no record: taking a side would
    // lose it, so --take refuses until `sync --record` has recorded it.
    let run = env.handover_with(
        a,
        &[
            "-c",
            "handover.store=files",
            "task",
            "--session",
            key_a,
            "add",
            "LOCAL",
            "unrecorded",
        ],
        |c| {
            c.env("GIT_HANDOVER_NOW", "2026-11-30T12:35:00Z");
        },
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let refused = env.handover(a, &["continue", key_a, "--take", b_side]);
    assert_eq!(refused.code, 2, "{}", refused.snapshot());
    assert!(
        refused
            .stderr
            .contains("a state the notes store does not have"),
        "{}",
        refused.snapshot()
    );
    let local_file = read_state(&a.join(".claude/handover").join(key_a));
    assert!(
        local_file.to_string().contains("LOCAL"),
        "nothing was replaced"
    );
    let run = env.handover(a, &["sync", "--record"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
}

fn take_a_side(env: &TestEnv, a: &Path, b: &Path, key_a: &str, b_side: &str) {
    // a takes b's side: a's files get it, the store sets a's side aside.
    let run = env.handover_with(a, &["continue", key_a, "--take", b_side], |c| {
        c.env("GIT_HANDOVER_NOW", "2026-11-30T12:40:00Z");
    });
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.contains("took side"), "{}", run.snapshot());
    sync(env, a);
    sync(env, b);
    for dir in [a, b] {
        let status = env.json(dir, &["--json", "status"]);
        assert_eq!(
            status["diverged"],
            json!([]),
            "settled in {}",
            dir.display()
        );
    }
    let file = read_state(&a.join(".claude/handover").join(key_a));
    let ids: Vec<&str> = file["active_tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["A1", "FROM-B"], "a's files hold the side it took");
    let newest_a = &newest(env, a)[key_a];
    assert_eq!(newest_a["session_hash"], file["session_hash"]);
    assert_eq!(
        env.git(a, &["rev-parse", NOTES]),
        env.git(b, &["rev-parse", NOTES])
    );
}

fn only_fast_forwards(env: &TestEnv, remote: &Path) {
    // Nothing was ever force-pushed: every update of the remote's ref moved it forward.
    let reflog = std::fs::read_to_string(remote.join("logs/refs/notes/handover")).unwrap();
    let moves: Vec<(&str, &str)> = reflog
        .lines()
        .map(|l| {
            let mut f = l.split(' ');
            (f.next().unwrap(), f.next().unwrap())
        })
        .collect();
    assert!(moves.len() >= 3, "{reflog}");
    for (old, new) in moves {
        if old.chars().all(|c| c == '0') {
            continue;
        }
        let out = env
            .command("git")
            .current_dir(remote)
            .args(["merge-base", "--is-ancestor", old, new])
            .output()
            .unwrap();
        assert!(out.status.success(), "{old} → {new} is not a fast-forward");
    }
}

#[test]
fn a_rejected_push_is_fetched_merged_and_pushed_again() {
    let env = TestEnv::new();
    let remote = bare_remote(&env);
    let a = env.store_clone(&remote, "a");
    let b = env.store_clone(&remote, "b");
    save(&env, &a, "2026-11-30T12:00:00Z", &tasks(&["A1"]));
    save(&env, &b, "2026-11-30T12:05:00Z", &tasks(&["B1"]));
    sync(&env, &a);
    // b fetched before a pushed: a plain push of b's ref would be rejected. The
    // pre-push hook moves the remote once more, while b is between fetch and push.
    let hook = b.join(".git/hooks/pre-push");
    env.write(
        &hook,
        &format!(
            "#!/bin/sh\nmarker=\"$(git rev-parse --absolute-git-dir)/raced\"\n[ -e \"$marker\" ] && exit 0\ntouch \"$marker\"\nunset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_PREFIX\ncd '{}' && git handover task add A2 race >/dev/null && git handover sync >/dev/null\nexit 0\n",
            a.display()
        ),
    );
    let mut perms = std::fs::metadata(&hook).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&hook, perms).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_git-handover"))
        .parent()
        .unwrap()
        .to_owned();
    let run = env.handover_with(&b, &["--json", "sync"], |c| {
        let path = std::env::join_paths(
            std::iter::once(bin.clone())
                .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
        )
        .unwrap();
        c.env("PATH", path);
    });
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["rounds"], 2, "{report}");
    assert_eq!(report["pushed"], true);
    let keys: Vec<String> = newest(&env, &b).into_keys().collect();
    assert_eq!(keys.len(), 2);
    assert_eq!(
        env.git(&b, &["rev-parse", NOTES]),
        env.git(&remote, &["rev-parse", NOTES])
    );
}

#[test]
fn sync_can_make_notes_follow_rewritten_commits() {
    let env = TestEnv::new();
    let remote = bare_remote(&env);
    let a = env.store_clone(&remote, "a");
    save(&env, &a, crate::common::NOW, &tasks(&["T1"]));
    let run = env.handover(&a, &["sync", "--rewrite-ref"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        run.stdout
            .contains("added refs/notes/handover to notes.rewriteRef")
    );
    assert_eq!(
        env.git(&a, &["config", "--get-all", "notes.rewriteRef"]),
        NOTES
    );
    let again = env.handover(&a, &["sync", "--rewrite-ref"]);
    assert!(!again.stdout.contains("added"), "{}", again.stdout);
    assert_eq!(
        env.git(&a, &["config", "--get-all", "notes.rewriteRef"]),
        NOTES
    );
    // The note follows `commit --amend`.
    env.git_at(
        &a,
        "2026-11-30T11:00:00Z",
        &["commit", "-q", "--amend", "-m", "first, amended"],
    );
    let note = env.git(&a, &["notes", "--ref=handover", "show", "HEAD"]);
    assert!(note.contains("\"T1\""), "{note}");
}

/// Held before its push in every one of its rounds (the same pause point each round,
/// its gate opened for that round alone) while another clone moves the remote each
/// time, sync's every push is rejected: it gives up after its last round with a race
/// (exit 4), having pushed nothing over the other's records, and nothing is lost: its
/// own ref holds every record fetched and its own, and the next sync carries them.
#[test]
fn a_sync_whose_remote_moves_in_every_round_gives_up_and_loses_nothing() {
    let env = TestEnv::new();
    let remote = bare_remote(&env);
    let a = env.store_clone(&remote, "a");
    let b = env.store_clone(&remote, "b");
    save(&env, &a, "2026-11-30T12:00:00Z", &tasks(&["A1"]));
    sync(&env, &a);
    save(&env, &b, "2026-11-30T12:05:00Z", &tasks(&["B1"]));
    let (mut held, log) = env.spawn_at_pause_logged(&b, &["sync"], "sync_push:60000");
    let mut rounds = 1;
    loop {
        // While b waits to push what it fetched, a moves the remote on.
        let add = env.handover(&a, &["task", "add", &format!("A{}", rounds + 1), "moved"]);
        assert_eq!(add.code, 0, "{}", add.snapshot());
        sync(&env, &a);
        match held.next_round(&log) {
            Some(pass) => rounds = pass,
            None => break,
        }
    }
    let out = held.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(stderr.contains("the remote kept moving"), "{stderr}");
    // Every round was held, and each found the remote moved.
    assert_eq!(rounds, 5, "{stderr}");
    assert_eq!(log.count("sync_fetched"), 5);
    // The remote holds a's records only; b's ref holds both sessions, a's newest
    // (its fifth task) among them.
    assert_eq!(newest(&env, &a).len(), 1);
    let mine = newest(&env, &b);
    assert_eq!(mine.len(), 2, "{mine:?}");
    let a_tasks = |states: &BTreeMap<String, Value>| {
        states
            .values()
            .map(|s| s["active_tasks"].as_array().map_or(0, Vec::len))
            .max()
            .unwrap()
    };
    assert_eq!(a_tasks(&mine), 5, "{mine:?}");
    // With the remote still, the next sync pushes them.
    assert_eq!(sync(&env, &b)["pushed"], true);
    assert_eq!(
        env.git(&b, &["rev-parse", NOTES]),
        env.git(&remote, &["rev-parse", NOTES])
    );
    assert_eq!(newest(&env, &a).len(), 1, "a has not fetched yet");
    sync(&env, &a);
    assert_eq!(newest(&env, &a).len(), 2);
}
