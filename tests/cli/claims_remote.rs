//! Claims across clones (issue 33 item 5, SPEC section 10): the remote's notes ref
//! decides. Two clones of one bare remote claim the same task at the same moment,
//! both having fetched before either pushed: exactly one wins, the other exits 6
//! naming the winner, and after `sync` both say the same. A process killed between the
//! fetch and the push loses nothing; a remote that cannot be reached leaves the claim
//! unconfirmed until a sync; a forged remote record is refused by name; a remote ahead
//! with unrelated records is merged, not lost.

use std::path::{Path, PathBuf};

use crate::common::{TestEnv, finish, read_json, state_path};
use crate::notes_store::save;
use serde_json::{Value, json};

pub(crate) const NOW: &str = "2026-11-30T12:00:00Z";

pub(crate) fn pending(ids: &[&str]) -> Value {
    json!({"active_tasks": ids.iter().map(|id| json!({"id": id, "description": format!("work on {id}"), "status": "pending"})).collect::<Vec<_>>()})
}

/// A remote, clone `a` with a session of `ids` synced to it, clone `b` with the same
/// session restored from the store: (remote, a, b, key).
pub(crate) fn two_clones(env: &TestEnv, ids: &[&str]) -> (PathBuf, PathBuf, PathBuf, String) {
    let remote = env.bare_remote();
    let a = env.store_clone(&remote, "a");
    let b = env.store_clone(&remote, "b");
    let key = save(env, &a, NOW, &pending(ids));
    env.handover(&a, &["sync"]).assert_ok();
    env.handover(&b, &["sync"]).assert_ok();
    let run = env.handover(&b, &["continue", &key, "--successor"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    (remote, a, b, key)
}

pub(crate) fn claim_in(dir: &Path, key: &str, id: &str) -> Value {
    let doc = read_json(&state_path(dir, key));
    doc["active_tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .unwrap()
        .get("claim")
        .cloned()
        .unwrap_or(Value::Null)
}

/// The newest record's state of session `key` in clone `dir`'s store.
pub(crate) fn stored_claim(env: &TestEnv, dir: &Path, key: &str, id: &str) -> Value {
    let log = env.json(dir, &["--json", "log"]);
    let state = log["records"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["key"] == key)
        .map(|r| r["state"].clone())
        .unwrap();
    state["active_tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .unwrap()
        .get("claim")
        .cloned()
        .unwrap_or(Value::Null)
}

#[test]
fn two_clones_claiming_one_task_at_once_exactly_one_wins_and_both_agree_after_sync() {
    let env = TestEnv::new();
    let ids: Vec<String> = (1..=12).map(|i| format!("T{i}")).collect();
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let (_remote, a, b, key) = two_clones(&env, &ids);
    for (round, id) in ids.into_iter().enumerate() {
        // Every other round, neither clone has a tracking ref: each fetches first
        // (otherwise each decides on what its last fetch saw, and the push asks).
        if round % 2 == 1 {
            for dir in [&a, &b] {
                env.git(
                    dir,
                    &["update-ref", "-d", "refs/notes/remotes/origin/handover"],
                );
            }
        }
        // Both have read the remote, then wait: neither has pushed when the other decides.
        let pa = env.spawn_at_pause(
            &a,
            &["task", "claim", id, "--as", "agent-a", "--remote", "origin"],
            "remote_claim_fetched:60000",
        );
        let pb = env.spawn_at_pause(
            &b,
            &["task", "claim", id, "--as", "agent-b", "--remote", "origin"],
            "remote_claim_fetched:60000",
        );
        let (ca, _, ea) = finish(pa);
        let (cb, _, eb) = finish(pb);
        let mut codes = [ca, cb];
        codes.sort_unstable();
        assert_eq!(codes, [0, 6], "{id}: a {ca} {ea}\nb {cb} {eb}");
        let (winner, loser_err) = if ca == 0 {
            ("agent-a", &eb)
        } else {
            ("agent-b", &ea)
        };
        assert!(
            loser_err.contains(winner),
            "{id}: the loser is told the winner: {loser_err}"
        );
        // The loser's file already says who holds it.
        assert_eq!(claim_in(&a, &key, id)["holder"], winner, "{id} in a");
        assert_eq!(claim_in(&b, &key, id)["holder"], winner, "{id} in b");
        env.handover(&a, &["sync"]).assert_ok();
        env.handover(&b, &["sync"]).assert_ok();
        env.handover(&a, &["sync"]).assert_ok();
        assert_eq!(stored_claim(&env, &a, &key, id)["holder"], winner);
        assert_eq!(stored_claim(&env, &b, &key, id)["holder"], winner);
        assert_eq!(claim_in(&a, &key, id), claim_in(&b, &key, id));
    }
    // No session diverged on the way: the loser's record never left its clone.
    for dir in [&a, &b] {
        let status = env.handover(dir, &["status"]);
        assert!(!status.stdout.contains("diverged"), "{}", status.stdout);
    }
}

#[test]
fn a_process_killed_between_the_fetch_and_the_push_loses_nothing_and_a_retry_works() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1"]);
    let before = std::fs::read(state_path(&a, &key)).unwrap();
    let mut child = env.spawn_at_pause(
        &a,
        &[
            "task", "claim", "T1", "--as", "agent-a", "--remote", "origin",
        ],
        "remote_claim_fetched:5000",
    );
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        std::fs::read(state_path(&a, &key)).unwrap(),
        before,
        "nothing written"
    );
    let run = env.handover(
        &a,
        &[
            "task", "claim", "T1", "--as", "agent-a", "--remote", "origin",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(claim_in(&a, &key, "T1")["confirmed"], true);
    let run = env.handover(
        &b,
        &[
            "task", "claim", "T1", "--as", "agent-b", "--remote", "origin",
        ],
    );
    assert_eq!(run.code, 6, "{}", run.snapshot());
    assert!(run.stderr.contains("agent-a"), "{}", run.stderr);
    assert_eq!(claim_in(&b, &key, "T1")["holder"], "agent-a");
    // Killed after its write, before its push: the record is local, and the next
    // claim of the same holder pushes it.
    let mut child = env.spawn_at_pause(
        &a,
        &[
            "task", "release", "T1", "--as", "agent-a", "--remote", "origin",
        ],
        "remote_claim_push:5000",
    );
    child.kill().unwrap();
    child.wait().unwrap();
    let run = env.handover(
        &a,
        &[
            "task", "claim", "T1", "--as", "agent-a", "--remote", "origin",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    env.handover(&b, &["sync"]).assert_ok();
    assert_eq!(stored_claim(&env, &b, &key, "T1")["holder"], "agent-a");
}

#[test]
fn a_remote_that_cannot_be_reached_leaves_the_claim_unconfirmed_until_sync_confirms_it() {
    let env = TestEnv::new();
    let (remote, a, _b, key) = two_clones(&env, &["T1", "T2"]);
    let away = env.root().join("away.git");
    std::fs::rename(&remote, &away).unwrap();
    let run = env.handover(
        &a,
        &[
            "task", "claim", "T1", "--as", "agent-a", "--remote", "origin",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.contains("unconfirmed"), "{}", run.stdout);
    assert_eq!(claim_in(&a, &key, "T1")["confirmed"], false);
    let run = env.handover(
        &a,
        &[
            "--json", "task", "claim", "T1", "--as", "agent-a", "--remote", "origin",
        ],
    );
    let json = crate::schemas::checked(
        &env,
        &mut std::collections::BTreeSet::default(),
        &run.stdout,
    );
    assert_eq!(json["task"]["claim"]["confirmed"], false);
    assert!(json["unconfirmed"].is_string(), "{json}");
    let status = env.handover(&a, &["status"]);
    assert!(status.stdout.contains("unconfirmed"), "{}", status.stdout);
    std::fs::rename(&away, &remote).unwrap();
    // The hint of the message runs as printed.
    let out = env.shell(&a, "git handover sync origin").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(claim_in(&a, &key, "T1")["confirmed"], true);
}

#[test]
fn a_forged_remote_record_claiming_a_task_is_refused_by_name() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1"]);
    // b forges a record on the remote: its newest record of the session once more,
    // one write on, claiming T1 with an expiry that is not a time.
    let note = env.git(&b, &["notes", "--ref=handover", "show", "HEAD"]);
    let last = note.lines().rfind(|l| !l.trim().is_empty()).unwrap();
    let mut record: Value = serde_json::from_str(last).unwrap();
    record["seq"] = json!(record["seq"].as_u64().unwrap() + 1);
    record["state"]["seq"] = record["seq"].clone();
    record["state"]["active_tasks"][0]["claim"] =
        json!({"holder": "mallory", "since": "2026-11-30T11:00:00Z", "expires": "never"});
    crate::claims_tracking::push_note(&env, &b, &format!("{note}\n{record}\n"));
    let before = std::fs::read(state_path(&a, &key)).unwrap();
    let run = env.handover(
        &a,
        &[
            "task", "claim", "T1", "--as", "agent-a", "--remote", "origin",
        ],
    );
    assert_ne!(run.code, 0, "{}", run.snapshot());
    assert!(run.stderr.contains("\"T1\""), "{}", run.stderr);
    assert!(run.stderr.contains("expires"), "{}", run.stderr);
    assert_eq!(
        std::fs::read(state_path(&a, &key)).unwrap(),
        before,
        "nothing written"
    );
}

#[test]
fn a_remote_ahead_with_unrelated_records_is_merged_not_lost() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1"]);
    // b saves another session (on a branch of its own) and pushes it; a has never seen it.
    env.git(&b, &["checkout", "-q", "-b", "other"]);
    let other = save(&env, &b, "2026-11-30T12:30:00Z", &pending(&["X1"]));
    assert_ne!(other, key);
    env.handover(&b, &["sync"]).assert_ok();
    let run = env.handover(
        &a,
        &[
            "task", "claim", "T1", "--as", "agent-a", "--remote", "origin",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    env.handover(&b, &["sync"]).assert_ok();
    let log = env.json(&b, &["--json", "log"]).to_string();
    assert!(log.contains(&other), "{log}");
    assert_eq!(stored_claim(&env, &b, &key, "T1")["holder"], "agent-a");
    let log = env.json(&a, &["--json", "log"]).to_string();
    assert!(log.contains(&other), "a merged b's session: {log}");
}

#[test]
fn a_remote_claim_without_the_notes_store_is_refused_with_the_setting_that_turns_it_on() {
    let env = TestEnv::new();
    let (_remote, a, _b, key) = two_clones(&env, &["T1"]);
    env.git(&a, &["config", "handover.store", "files"]);
    env.git(&a, &["config", "handover.claimRemote", "origin"]);
    let run = env.handover(&a, &["task", "claim", "T1", "--as", "agent-a"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(run.stderr.contains("handover.store"), "{}", run.stderr);
    let hint = "git config handover.store both";
    assert!(run.stderr.contains(hint), "{}", run.stderr);
    let out = env.shell(&a, hint).output().unwrap();
    assert!(out.status.success());
    let run = env.handover(&a, &["task", "claim", "T1", "--as", "agent-a"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.contains("origin"), "{}", run.stdout);
    assert_eq!(claim_in(&a, &key, "T1")["confirmed"], true);
}

#[test]
fn two_offline_claims_of_one_task_one_loses_at_sync_and_its_holder_is_told() {
    let env = TestEnv::new();
    let (remote, a, b, key) = two_clones(&env, &["T1", "T2"]);
    let away = env.root().join("away.git");
    std::fs::rename(&remote, &away).unwrap();
    for (dir, name) in [(&a, "agent-a"), (&b, "agent-b")] {
        let run = env.handover(
            dir,
            &["task", "claim", "T1", "--as", name, "--remote", "origin"],
        );
        assert_eq!(run.code, 0, "{}", run.snapshot());
        assert_eq!(claim_in(dir, &key, "T1")["confirmed"], false);
    }
    std::fs::rename(&away, &remote).unwrap();
    // a reaches the remote first: its claim is confirmed, b's is lost.
    let first = env.handover(&a, &["--json", "sync"]);
    let first = crate::schemas::checked(
        &env,
        &mut std::collections::BTreeSet::default(),
        &first.stdout,
    );
    assert_eq!(first["claims"]["confirmed"][0]["task"], "T1", "{first}");
    let run = env.handover(&b, &["--json", "sync"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let doc = crate::schemas::checked(
        &env,
        &mut std::collections::BTreeSet::default(),
        &run.stdout,
    );
    assert_eq!(doc["claims"]["lost"][0]["winner"], "agent-a", "{doc}");
    assert_eq!(claim_in(&b, &key, "T1")["holder"], "agent-a");
    assert_eq!(claim_in(&b, &key, "T1")["confirmed"], true);
    // The next command tells the loser, with a command that runs as printed.
    let run = env.handover(&b, &["task", "next", "--as", "agent-b"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.starts_with("T2"), "{}", run.stdout);
    assert!(run.stderr.contains("lost to agent-a"), "{}", run.stderr);
    let hint = run
        .stderr
        .split('`')
        .nth(1)
        .expect("a command in backquotes");
    let out = env.shell(&b, hint).output().unwrap();
    assert!(
        out.status.success(),
        "{hint}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("T2"));
    let status = env.handover(&b, &["status"]);
    assert!(
        status.stderr.contains("lost to agent-a"),
        "{}",
        status.stderr
    );
    // The briefing says it too, until the task is claimed again.
    env.handover(&a, &["sync"]).assert_ok();
    env.handover(&b, &["sync"]).assert_ok();
    let brief = env.handover(&b, &["continue", &key]);
    assert!(
        brief.stdout.contains("lost to agent-a"),
        "{}",
        brief.snapshot()
    );
    // Both clones agree, and nothing diverged.
    env.handover(&a, &["sync"]).assert_ok();
    assert_eq!(
        stored_claim(&env, &a, &key, "T1"),
        stored_claim(&env, &b, &key, "T1")
    );
    assert_eq!(stored_claim(&env, &a, &key, "T1")["holder"], "agent-a");
    let status = env.handover(&a, &["status"]);
    assert!(!status.stdout.contains("diverged"), "{}", status.stdout);
}

#[test]
fn two_clones_taking_the_next_task_at_once_get_different_tasks_and_a_release_is_seen() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1", "T2", "T3", "T4"]);
    let mut taken = Vec::new();
    for round in 0..2 {
        // A new name each round: a holder's `next` would give it its own task again.
        let (na, nb) = (format!("agent-a{round}"), format!("agent-b{round}"));
        let args = |name: &str| -> Vec<String> {
            [
                "task", "next", "--claim", "--as", name, "--remote", "origin",
            ]
            .map(str::to_owned)
            .to_vec()
        };
        let (aa, ab) = (args(&na), args(&nb));
        let aa: Vec<&str> = aa.iter().map(String::as_str).collect();
        let ab: Vec<&str> = ab.iter().map(String::as_str).collect();
        let pa = env.spawn_at_pause(&a, &aa, "remote_claim_fetched:60000");
        let pb = env.spawn_at_pause(&b, &ab, "remote_claim_fetched:60000");
        for (code, out, err) in [finish(pa), finish(pb)] {
            assert_eq!(code, 0, "{out}{err}");
            taken.push(out.split_whitespace().next().unwrap().to_owned());
        }
    }
    taken.sort();
    assert_eq!(
        taken,
        ["T1", "T2", "T3", "T4"],
        "every task taken exactly once"
    );
    // Nothing is left for either; a releases one, and b, deciding on the remote, takes it.
    let holder_of_t1 = claim_in(&b, &key, "T1")["holder"]
        .as_str()
        .unwrap()
        .to_owned();
    let other = holder_of_t1.as_str();
    let dir = if other.starts_with("agent-a") { &a } else { &b };
    let run = env.handover(
        dir,
        &["task", "release", "T1", "--as", other, "--remote", "origin"],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let (there, claimer) = if other.starts_with("agent-a") {
        (&b, "agent-b9")
    } else {
        (&a, "agent-a9")
    };
    let run = env.handover(
        there,
        &[
            "task", "next", "--claim", "--as", claimer, "--remote", "origin",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.starts_with("T1"), "{}", run.stdout);
}
