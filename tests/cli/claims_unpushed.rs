//! A claim verb killed between its write and its push (issue 33): its claim never
//! reached the remote, and the file says so. A claim decided on a remote is written
//! unconfirmed and said confirmed only once its push succeeded (a write of the file
//! alone: `confirmed` is the clone's own knowledge, in no record). So after a SIGKILL
//! at the push, `status` (long, `--short`, `--json`) shows it unconfirmed, and a later
//! `sync` confirms it (the remote was free) or loses it (another clone's claim reached
//! the remote first) and tells its holder. Each sibling is attacked the same way:
//! `next --claim`, `release`, the holder's renewal, `sync`'s own push; `done` and
//! `block` write locally only, and their release reaches the remote with the next sync.

use std::path::{Path, PathBuf};

use crate::claims_remote::{claim_in, stored_claim, two_clones};
use crate::common::{TestEnv, state_path};
use serde_json::Value;

/// Run `args` in `dir` and SIGKILL it at `pause`, after its write and before its push.
fn killed_at(env: &TestEnv, dir: &Path, args: &[&str], pause: &str) {
    let mut child = env.spawn_at_pause(dir, args, &format!("{pause}:5000"));
    child.kill().unwrap();
    child.wait().unwrap();
}

fn status_claim(env: &TestEnv, dir: &Path, task: &str) -> Value {
    let doc = env.json(dir, &["--json", "status"]);
    doc["worktrees"][0]["handovers"][0]["claims"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["task"] == task)
        .cloned()
        .unwrap_or(Value::Null)
}

/// The claim of `task` in `dir` says it is not on the remote, wherever it is shown.
fn says_unconfirmed(env: &TestEnv, dir: &Path, key: &str, task: &str, holder: &str) {
    let claim = claim_in(dir, key, task);
    assert_eq!(claim["holder"], holder, "{claim}");
    assert_eq!(claim["confirmed"], false, "{claim}");
    let long = env.handover(dir, &["status"]);
    assert!(
        long.stdout
            .contains(&format!("[{task}] claimed by {holder}"))
            && long.stdout.contains("unconfirmed"),
        "{}",
        long.stdout
    );
    let short = env.handover(dir, &["status", "--short"]);
    assert!(short.stdout.contains("1-unconfirmed"), "{}", short.stdout);
    assert_eq!(status_claim(env, dir, task)["confirmed"], false);
}

fn says_confirmed(env: &TestEnv, dir: &Path, key: &str, task: &str) {
    assert_eq!(claim_in(dir, key, task)["confirmed"], true);
    let long = env.handover(dir, &["status"]);
    assert!(!long.stdout.contains("unconfirmed"), "{}", long.stdout);
    let short = env.handover(dir, &["status", "--short"]);
    assert!(!short.stdout.contains("unconfirmed"), "{}", short.stdout);
    assert_eq!(status_claim(env, dir, task)["confirmed"], true);
}

fn sync_json(env: &TestEnv, dir: &Path) -> Value {
    let run = env.handover(dir, &["--json", "sync"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    crate::schemas::checked(env, &mut std::collections::BTreeSet::default(), &run.stdout)
}

fn claim_args<'a>(verb: &'a str, id: &'a str, name: &'a str) -> Vec<&'a str> {
    let mut args = vec!["task", verb];
    if !id.is_empty() {
        args.push(id);
    }
    args.extend(["--as", name, "--remote", "origin"]);
    args
}

#[test]
fn a_claim_killed_between_its_write_and_its_push_is_unconfirmed_until_sync_confirms_it() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1", "T2"]);
    // The push alone asks the remote when a fetch was made before, so the first round
    // is attacked both ways: with what the last fetch saw, and fetching first.
    killed_at(
        &env,
        &a,
        &claim_args("claim", "T1", "agent-a"),
        "remote_claim_push",
    );
    says_unconfirmed(&env, &a, &key, "T1", "agent-a");
    let doc = sync_json(&env, &a);
    assert_eq!(doc["claims"]["confirmed"][0]["task"], "T1", "{doc}");
    says_confirmed(&env, &a, &key, "T1");
    // It is on the remote now: b is refused, told the holder.
    let run = env.handover(&b, &claim_args("claim", "T1", "agent-b"));
    assert_eq!(run.code, 6, "{}", run.snapshot());
    assert!(run.stderr.contains("agent-a"), "{}", run.stderr);
    // The same with `next --claim`, deciding on a fresh fetch.
    env.git(
        &a,
        &["update-ref", "-d", "refs/notes/remotes/origin/handover"],
    );
    killed_at(
        &env,
        &a,
        &claim_args("next", "", "agent-a2")
            .into_iter()
            .chain(["--claim"])
            .collect::<Vec<_>>(),
        "remote_claim_push",
    );
    says_unconfirmed(&env, &a, &key, "T2", "agent-a2");
    sync_json(&env, &a);
    says_confirmed(&env, &a, &key, "T2");
    env.handover(&b, &["sync"]).assert_ok();
    assert_eq!(stored_claim(&env, &b, &key, "T2")["holder"], "agent-a2");
}

#[test]
fn a_claim_killed_before_its_push_is_lost_at_sync_to_one_that_reached_the_remote_first() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1", "T2"]);
    killed_at(
        &env,
        &a,
        &claim_args("claim", "T1", "agent-a"),
        "remote_claim_push",
    );
    says_unconfirmed(&env, &a, &key, "T1", "agent-a");
    // a's claim never left its clone: b's reaches the remote and wins.
    let run = env.handover(&b, &claim_args("claim", "T1", "agent-b"));
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(claim_in(&b, &key, "T1")["confirmed"], true);
    let doc = sync_json(&env, &a);
    assert_eq!(doc["claims"]["lost"][0]["task"], "T1", "{doc}");
    assert_eq!(doc["claims"]["lost"][0]["winner"], "agent-b", "{doc}");
    assert_eq!(claim_in(&a, &key, "T1")["holder"], "agent-b");
    assert_eq!(claim_in(&a, &key, "T1")["confirmed"], true);
    let run = env.handover(&a, &["task", "next", "--as", "agent-a"]);
    assert!(run.stdout.starts_with("T2"), "{}", run.stdout);
    assert!(run.stderr.contains("lost to agent-b"), "{}", run.stderr);
    // Nothing diverged: a's record was taken back.
    env.handover(&b, &["sync"]).assert_ok();
    for dir in [&a, &b] {
        let status = env.handover(dir, &["status"]);
        assert!(!status.stdout.contains("diverged"), "{}", status.stdout);
    }
}

#[test]
fn a_renewal_killed_before_its_push_says_the_new_lease_is_unconfirmed_until_sync() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1"]);
    let run = env.handover(&a, &claim_args("claim", "T1", "agent-a"));
    assert_eq!(run.code, 0, "{}", run.snapshot());
    says_confirmed(&env, &a, &key, "T1");
    let first = claim_in(&a, &key, "T1");
    let mut args = claim_args("claim", "T1", "agent-a");
    args.extend(["--for", "2h"]);
    killed_at(&env, &a, &args, "remote_claim_push");
    says_unconfirmed(&env, &a, &key, "T1", "agent-a");
    let renewed = claim_in(&a, &key, "T1");
    assert_ne!(renewed["expires"], first["expires"]);
    assert_eq!(
        renewed["since"], first["since"],
        "a renewal keeps its start"
    );
    sync_json(&env, &a);
    says_confirmed(&env, &a, &key, "T1");
    env.handover(&b, &["sync"]).assert_ok();
    assert_eq!(
        stored_claim(&env, &b, &key, "T1")["expires"],
        renewed["expires"]
    );
}

#[test]
fn a_release_killed_before_its_push_reaches_the_remote_with_the_next_sync() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1"]);
    let run = env.handover(&a, &claim_args("claim", "T1", "agent-a"));
    assert_eq!(run.code, 0, "{}", run.snapshot());
    killed_at(
        &env,
        &a,
        &claim_args("release", "T1", "agent-a"),
        "remote_claim_push",
    );
    assert_eq!(claim_in(&a, &key, "T1"), Value::Null, "released here");
    // The remote still says agent-a holds it, and b is told so.
    let run = env.handover(&b, &claim_args("claim", "T1", "agent-b"));
    assert_eq!(run.code, 6, "{}", run.snapshot());
    sync_json(&env, &a);
    let run = env.handover(&b, &claim_args("claim", "T1", "agent-b"));
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(claim_in(&b, &key, "T1")["confirmed"], true);
}

#[test]
fn done_and_block_of_a_remote_claim_release_it_here_and_on_the_remote_at_sync() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1", "T2", "T3"]);
    for id in ["T1", "T2"] {
        let run = env.handover(&a, &claim_args("claim", id, "agent-a"));
        assert_eq!(run.code, 0, "{}", run.snapshot());
    }
    env.handover(&a, &["task", "done", "T1", "--as", "agent-a"])
        .assert_ok();
    env.handover(
        &a,
        &["task", "block", "T2", "--reason", "r", "--as", "agent-a"],
    )
    .assert_ok();
    assert_eq!(claim_in(&a, &key, "T1"), Value::Null);
    assert_eq!(claim_in(&a, &key, "T2"), Value::Null);
    // Killed before its push, the sync that carries them leaves nothing false: the
    // file says what it did, and the next sync carries it.
    killed_at(&env, &a, &["sync"], "sync_push");
    assert_eq!(claim_in(&a, &key, "T1"), Value::Null);
    sync_json(&env, &a);
    let run = env.handover(&b, &claim_args("claim", "T2", "agent-b"));
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let run = env.handover(
        &b,
        &[
            "task", "next", "--claim", "--as", "agent-b", "--remote", "origin",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        run.stdout.starts_with("T2") || run.stdout.starts_with("T3"),
        "T1 is done: {}",
        run.stdout
    );
}

#[test]
fn a_sync_killed_before_its_push_leaves_an_offline_claim_unconfirmed() {
    let env = TestEnv::new();
    let (remote, a, _b, key) = two_clones(&env, &["T1"]);
    let away = env.root().join("away.git");
    std::fs::rename(&remote, &away).unwrap();
    let run = env.handover(&a, &claim_args("claim", "T1", "agent-a"));
    assert_eq!(run.code, 0, "{}", run.snapshot());
    says_unconfirmed(&env, &a, &key, "T1", "agent-a");
    std::fs::rename(&away, &remote).unwrap();
    let before = std::fs::read(state_path(&a, &key)).unwrap();
    killed_at(&env, &a, &["sync"], "sync_push");
    says_unconfirmed(&env, &a, &key, "T1", "agent-a");
    assert_eq!(std::fs::read(state_path(&a, &key)).unwrap(), before);
    let doc = sync_json(&env, &a);
    assert_eq!(doc["claims"]["confirmed"][0]["task"], "T1", "{doc}");
    says_confirmed(&env, &a, &key, "T1");
}

/// Every `lost_claims` list and `lost_claim` object found in `doc`, anywhere.
fn lost_in(doc: &Value, out: &mut Vec<Value>) {
    match doc {
        Value::Object(m) => {
            for (k, v) in m {
                if k == "lost_claim" {
                    out.push(v.clone());
                } else if k == "lost_claims" {
                    out.extend(v.as_array().unwrap().iter().cloned());
                } else {
                    lost_in(v, out);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|v| lost_in(v, out)),
        _ => {}
    }
}

#[test]
fn a_lost_claim_is_in_every_json_document_that_shows_the_task() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1", "T2", "T3"]);
    killed_at(
        &env,
        &a,
        &claim_args("claim", "T1", "agent-a"),
        "remote_claim_push",
    );
    let run = env.handover(&b, &claim_args("claim", "T1", "agent-b"));
    assert_eq!(run.code, 0, "{}", run.snapshot());
    sync_json(&env, &a);
    let mut seen = std::collections::BTreeSet::default();
    let runs: [&[&str]; 8] = [
        &["--json", "status"],
        &["--json", "continue", &key],
        &["--json", "task", "next", "--as", "agent-a"],
        &["--json", "task", "show", "T1"],
        &["--json", "task", "list"],
        &["--json", "task", "start", "T3"],
        // Refused (exit 6): the error document says the claim this clone lost.
        &[
            "--json", "task", "claim", "T1", "--as", "agent-a", "--remote", "origin",
        ],
        &["--json", "task", "release", "T1", "--as", "agent-a"],
    ];
    for args in runs {
        let run = env.handover(&a, args);
        let doc = crate::schemas::checked(&env, &mut seen, &run.stdout);
        let mut lost = Vec::new();
        lost_in(&doc, &mut lost);
        assert!(
            lost.iter().any(|l| l["holder"] == "agent-a"
                && l["winner"] == "agent-b"
                && l["since"] == "2026-11-30T12:00:00Z"
                && l["at"].is_string()),
            "{args:?}: {doc:#}"
        );
        if args.contains(&"claim") || args.contains(&"release") {
            assert_eq!(run.code, 6, "{}", run.snapshot());
            assert_eq!(doc["error"]["lost_claim"]["winner"], "agent-b");
        }
        if args.contains(&"show") {
            assert_eq!(doc["task"]["lost_claim"]["winner"], "agent-b");
        }
    }
    // Claimed again (here T1 once agent-b lets it go), the notice has been heard.
    let run = env.handover(&b, &claim_args("release", "T1", "agent-b"));
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let run = env.handover(
        &a,
        &[
            "--json", "task", "claim", "T1", "--as", "agent-a", "--remote", "origin",
        ],
    );
    let doc = crate::schemas::checked(&env, &mut seen, &run.stdout);
    let mut lost = Vec::new();
    lost_in(&doc, &mut lost);
    assert!(lost.is_empty(), "{doc:#}");
    let status = env.json(&a, &["--json", "status"]);
    assert!(status.to_string().find("lost_claim").is_none(), "{status}");
}

#[test]
fn a_claim_killed_after_its_push_before_it_is_said_confirmed_is_confirmed_by_sync() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1"]);
    // On the remote already, the file still says unconfirmed: true of what it knows.
    killed_at(
        &env,
        &a,
        &claim_args("claim", "T1", "agent-a"),
        "claim_confirm",
    );
    says_unconfirmed(&env, &a, &key, "T1", "agent-a");
    let run = env.handover(&b, &claim_args("claim", "T1", "agent-b"));
    assert_eq!(run.code, 6, "{}", run.snapshot());
    let doc = sync_json(&env, &a);
    assert_eq!(doc["claims"]["confirmed"][0]["task"], "T1", "{doc}");
    says_confirmed(&env, &a, &key, "T1");
}

/// Two clones of a session of T1 and T2: a claims T1 while the remote cannot be
/// reached (unconfirmed), then b's claim of T1 reaches the remote. Returns a, b, the
/// key, and what a's tracking ref held before b's claim.
fn offline_claim_then_winner(env: &TestEnv) -> (PathBuf, PathBuf, String, String) {
    let (remote, a, b, key) = two_clones(env, &["T1", "T2"]);
    let old = env.git(&a, &["rev-parse", TRACKING]).trim().to_owned();
    let claim = |dir: &Path, who: &str| {
        env.handover(
            dir,
            &["task", "claim", "T1", "--as", who, "--remote", "origin"],
        )
    };
    let away = env.root().join("away.git");
    std::fs::rename(&remote, &away).unwrap();
    let run = claim(&a, "agent-a");
    assert_eq!(run.code, 0, "{}", run.snapshot());
    std::fs::rename(&away, &remote).unwrap();
    says_unconfirmed(env, &a, &key, "T1", "agent-a");
    let run = claim(&b, "agent-b");
    assert_eq!(run.code, 0, "{}", run.snapshot());
    (a, b, key, old)
}

const TRACKING: &str = "refs/notes/remotes/origin/handover";

/// `sync` settles an offline claim on the remote's records as its tracking ref holds
/// them when it reads them. Another process of the clone whose fetch was older than
/// sync's (slower, it moves the tracking ref after sync did) puts the ref back between
/// sync's fetch and that read: sync would settle on a remote without the winner's
/// claim, push leased on what it fetched (ours descends from it: it merged it), and
/// say the claim confirmed over the winner. Its reads of the remote's records are
/// pinned to the commit it fetched instead (`git/pin.rs`): in that one round the claim
/// is lost to the winner, and both clones agree.
#[test]
fn a_tracking_ref_moved_back_between_syncs_fetch_and_its_read_is_fetched_again() {
    let env = TestEnv::new();
    let (a, b, key, old) = offline_claim_then_winner(&env);
    // a's sync fetches and merges it, and waits before reading the remote's records;
    // meanwhile the older fetch of another process of a moves the tracking ref back.
    let child = env.spawn_at_pause(&a, &["--json", "sync"], "sync_merged:60000");
    env.git(&a, &["update-ref", TRACKING, &old]);
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout} {stderr}");
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["claims"]["confirmed"], serde_json::json!([]), "{doc}");
    assert_eq!(doc["claims"]["lost"][0]["task"], "T1", "{doc}");
    assert_eq!(doc["claims"]["lost"][0]["winner"], "agent-b", "{doc}");
    assert_eq!(doc["rounds"], 1, "{doc}");
    assert_eq!(claim_in(&a, &key, "T1")["holder"], "agent-b");
    env.handover(&b, &["sync"]).assert_ok();
    env.handover(&a, &["sync"]).assert_ok();
    for dir in [&a, &b] {
        assert_eq!(stored_claim(&env, dir, &key, "T1")["holder"], "agent-b");
        assert_eq!(claim_in(dir, &key, "T1")["holder"], "agent-b");
    }
}

/// The tracking ref put back under `sync` by another process (an older fetch): sync
/// read the remote's records as of the commit it fetched (pinned), so it neither does
/// its round again nor fails; it ends in one round, as if nothing had moved.
#[test]
fn a_tracking_ref_moved_back_under_sync_costs_it_no_round() {
    let env = TestEnv::new();
    let (_remote, a, b, _key) = two_clones(&env, &["T1"]);
    let old = env.git(&a, &["rev-parse", TRACKING]).trim().to_owned();
    // The remote moves past what a's tracking ref holds.
    let run = env.handover(
        &b,
        &[
            "task", "claim", "T1", "--as", "agent-b", "--remote", "origin",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let (sync, log) = env.spawn_at_pause_logged(&a, &["--json", "sync"], "sync_merged:60000");
    env.git(&a, &["update-ref", TRACKING, &old]);
    let (code, out, err) = crate::common::finish(sync);
    assert_eq!(code, 0, "{out}{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["rounds"], 1, "{doc}");
    assert_eq!(log.count("sync_merged"), 1, "{doc}");
}

/// The same race as `a_tracking_ref_moved_back_between_syncs_fetch_and_its_read_is_
/// fetched_again`, with the ref put back once more before `still_at` looks (another
/// process's fetch of the remote as it is, after the older one: A, then B, then A):
/// `still_at` cannot see that, so sync's reads of the remote's records are pinned to
/// the commit it fetched (`git/pin.rs`), and the claim is lost to the winner there, never
/// said confirmed over it. (The gates are the test's own, two points of one run; the
/// older commit is one a has not indexed, so that a read of it would write an index.)
#[test]
fn a_tracking_ref_moved_away_and_back_during_syncs_read_does_not_confirm_a_lost_claim() {
    let env = TestEnv::new();
    let (a, b, key, old) = offline_claim_then_winner(&env);
    let log = env.event_log("aba");
    let gates = env.root().join("aba-gates");
    std::fs::create_dir_all(&gates).unwrap();
    let until = |event: &str, sync: &std::thread::ScopedJoinHandle<'_, _>| {
        for _ in 0..3000 {
            if log.count(event) > 0 || sync.is_finished() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    };
    let run = std::thread::scope(|s| {
        let sync = s.spawn(|| {
            env.handover_with(&a, &["--json", "sync"], |c| {
                c.env(
                    "GIT_HANDOVER_TEST_PAUSE",
                    "sync_merged:60000,notes-index-write:60000",
                )
                .env("GIT_HANDOVER_TEST_GATE", &gates)
                .env("GIT_HANDOVER_TEST_LOG", log.path());
            })
        });
        until("sync_merged", &sync);
        let fetched = env.git(&a, &["rev-parse", TRACKING]).trim().to_owned();
        // An older fetch puts the ref back before sync reads the remote's records (a
        // commit of the remote's older notes this clone has not indexed yet)...
        let tree = format!("{old}^{{tree}}");
        let older = env.git(&a, &["commit-tree", &tree, "-p", &old, "-m", "older"]);
        env.git(&a, &["update-ref", TRACKING, older.trim()]);
        std::fs::write(gates.join("sync_merged"), "").unwrap();
        // ... and a fetch of the remote as it is puts it where sync fetched once sync
        // has read the older commit's records (its index of them being written).
        until("notes-index-write", &sync);
        env.git(&a, &["update-ref", TRACKING, &fetched]);
        std::fs::write(gates.join("notes-index-write"), "").unwrap();
        sync.join().unwrap()
    });
    let holder_b = claim_in(&b, &key, "T1")["holder"].clone();
    assert_eq!(holder_b, "agent-b");
    let doc: Value = serde_json::from_str(&run.stdout).unwrap_or(Value::Null);
    assert_eq!(
        doc["claims"]["confirmed"],
        serde_json::json!([]),
        "a told it holds T1, which agent-b holds on the remote: {}",
        run.snapshot()
    );
}
