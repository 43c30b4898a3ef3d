//! Claims as leases (issue 33, SPEC section 10): two callers never get the same task.
//! Sixteen processes in four worktrees take every task exactly once; a lease expires at
//! a pinned clock and is taken, naming whose ran out; the holder renews; `--force` says
//! whose claim it overrode; nobody else releases a live claim; an unknown id writes
//! nothing; a writer held inside its decision makes the next caller take another task.
//! How claims are shown (status, check, the briefing): `claims_shown.rs`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::{Run, TestEnv, finish, read_json, state_path};
use serde_json::{Value, json};

pub(crate) const KEY: &str = "main/20261130-110000";

pub(crate) fn tasks(n: usize) -> Vec<Value> {
    (1..=n)
        .map(|i| json!({"id": format!("T{i}"), "status": "pending", "description": format!("task {i}"), "x-keep": i}))
        .collect()
}

/// The usual repository with one session of `n` pending tasks: the repository.
pub(crate) fn session(env: &TestEnv, n: usize) -> PathBuf {
    let repo = env.repo();
    env.write_session(
        &repo,
        KEY,
        &json!({"version": 4, "generated_at": "2026-11-30T11:00:00Z", "status": "READY",
            "workspace": {"branch": "main"}, "active_tasks": tasks(n), "x-top": true}),
    );
    repo
}

/// `git-handover args…` in `dir` at the time `at`.
pub(crate) fn at(env: &TestEnv, dir: &Path, when: &str, args: &[&str]) -> Run {
    env.handover_with(dir, args, |c| {
        c.env("GIT_HANDOVER_NOW", when);
    })
}

pub(crate) fn claim_of(repo: &Path, id: &str) -> Value {
    let doc = read_json(&state_path(repo, KEY));
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

#[test]
fn sixteen_processes_in_four_worktrees_take_every_task_exactly_once() {
    let env = TestEnv::new();
    let repo = env.repo();
    let mut dirs = vec![repo.clone()];
    for i in 1..4 {
        dirs.push(env.worktree(&repo, &format!("wt{i}"), &format!("b{i}")));
    }
    let rounds = 4;
    let per_round = 24;
    for round in 0..rounds {
        // A fresh session each round, in the main worktree; callers in every worktree
        // name it with --session.
        env.write_session(
            &repo,
            KEY,
            &json!({"version": 4, "status": "READY", "workspace": {"branch": "main"},
                "active_tasks": tasks(per_round)}),
        );
        let taken = std::sync::Mutex::new(Vec::<(String, String)>::new());
        std::thread::scope(|s| {
            for w in 0..16 {
                let dir = dirs[w % 4].clone();
                let (env, taken) = (&env, &taken);
                s.spawn(move || {
                    for call in 0.. {
                        // A new name each call: every earlier claim is another's live
                        // lease, so each success must be a task nobody got before.
                        let name = format!("r{round}-w{w}-c{call}");
                        let run = env.handover(
                            &dir,
                            &["task", "--session", KEY, "next", "--claim", "--as", &name],
                        );
                        match run.code {
                            0 => {
                                let id = run.stdout.split_whitespace().next().unwrap().to_owned();
                                taken.lock().unwrap().push((id, name));
                            }
                            1 => {
                                assert!(run.stderr.contains("nothing left"), "{}", run.stderr);
                                break;
                            }
                            _ => panic!("{name}: exit {}: {}", run.code, run.stderr),
                        }
                    }
                });
            }
        });
        let taken = taken.into_inner().unwrap();
        let mut by_task: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (id, name) in &taken {
            by_task.entry(id.clone()).or_default().push(name.clone());
        }
        assert_eq!(by_task.len(), per_round, "round {round}: {by_task:?}");
        assert!(
            by_task.values().all(|holders| holders.len() == 1),
            "round {round}: a task taken twice: {by_task:?}"
        );
        // And the file says the same: each task held by the one who was told so.
        for (id, holders) in &by_task {
            assert_eq!(claim_of(&repo, id)["holder"], holders[0].as_str());
        }
    }
}

#[test]
fn a_writer_held_inside_its_decision_makes_the_next_caller_take_another_task() {
    let env = TestEnv::new();
    let repo = session(&env, 3);
    let wt = env.worktree(&repo, "wt1", "b1");
    let args = ["task", "--session", KEY, "next", "--claim", "--as", "a"];
    let a = env.spawn_at_pause(&repo, &args, "claim:60000");
    // b waits for the lock a holds (a is let go only once b is seen waiting), then
    // decides on what a wrote.
    let b_log = env.event_log("b");
    let mut b = env.spawn_logged(
        &wt,
        &["task", "--session", KEY, "next", "--claim", "--as", "b"],
        &b_log,
    );
    env.until_logged(&b_log, "lock-wait", &mut b);
    let (code, out, err) = finish(a);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("T1 "), "{out}");
    let (code, out, err) = finish(b);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("T2 "), "{out}");
}

#[test]
fn next_prints_the_bare_id_first_and_exits_1_when_nothing_is_left() {
    let env = TestEnv::new();
    let repo = session(&env, 2);
    let shown = env.handover(&repo, &["task", "next", "--as", "a"]);
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    assert_eq!(shown.stdout.split_whitespace().next(), Some("T1"));
    assert_eq!(
        claim_of(&repo, "T1"),
        Value::Null,
        "next alone claims nothing"
    );
    let doc = env.json(&repo, &["--json", "task", "next", "--claim", "--as", "a"]);
    assert_eq!(doc["schema"], "git-handover/task-next/1");
    assert_eq!(doc["task"]["id"], "T1");
    assert_eq!(doc["task"]["status"], "in_progress");
    assert_eq!(doc["task"]["claim"]["holder"], "a");
    assert_eq!(doc["task"]["claim"]["expires"], "2026-11-30T12:30:00Z");
    // Its own claim is still its next task; another caller gets T2.
    let again = env.handover(&repo, &["task", "next", "--as", "a"]);
    assert!(again.stdout.starts_with("T1 "), "{}", again.stdout);
    let b = env.handover(&repo, &["task", "next", "--claim", "--as", "b"]);
    assert!(b.stdout.starts_with("T2 "), "{}", b.stdout);
    let none = env.handover(&repo, &["task", "next", "--claim", "--as", "c"]);
    assert_eq!(none.code, 1, "{}", none.stderr);
    let none = env.handover(&repo, &["--json", "task", "next", "--as", "c"]);
    assert_eq!(none.code, 1);
    assert_eq!(none.json()["error"]["kind"], "nothing_to_do");
    // Unknown keys of the task and of the state survived every write.
    let doc = read_json(&state_path(&repo, KEY));
    assert_eq!(doc["x-top"], true);
    assert_eq!(doc["active_tasks"][1]["x-keep"], 2);
}

#[test]
fn a_live_lease_refuses_another_holder_with_exit_6_naming_it() {
    let env = TestEnv::new();
    let repo = session(&env, 2);
    assert_eq!(
        env.handover(&repo, &["task", "claim", "T1", "--as", "a"])
            .code,
        0
    );
    let before = std::fs::read(state_path(&repo, KEY)).unwrap();
    let refused = at(
        &env,
        &repo,
        "2026-11-30T12:10:00Z",
        &["--json", "task", "claim", "T1", "--as", "b"],
    );
    assert_eq!(refused.code, 6, "{}", refused.stdout);
    let e = &refused.json()["error"];
    assert_eq!(e["kind"], "held");
    assert_eq!(e["holder"], "a");
    assert_eq!(e["since"], "2026-11-30T12:00:00Z");
    assert_eq!(e["expires"], "2026-11-30T12:30:00Z");
    assert_eq!(e["exit"], 6);
    let human = env.handover(&repo, &["task", "claim", "T1", "--as", "b"]);
    assert_eq!(human.code, 6);
    assert!(
        human
            .stderr
            .contains("held by \"a\" since 2026-11-30T12:00:00Z until 2026-11-30T12:30:00Z"),
        "{}",
        human.stderr
    );
    // Nobody else releases it, or finishes it with a block.
    let release = env.handover(&repo, &["task", "release", "T1", "--as", "b"]);
    assert_eq!(release.code, 6, "{}", release.stderr);
    assert_eq!(
        std::fs::read(state_path(&repo, KEY)).unwrap(),
        before,
        "refusals write nothing"
    );
    // GIT_HANDOVER_AS names the holder when --as does not.
    let by_env = env.handover_with(&repo, &["task", "release", "T1"], |c| {
        c.env("GIT_HANDOVER_AS", "a");
    });
    assert_eq!(by_env.code, 0, "{}", by_env.stderr);
    assert!(by_env.stdout.contains("released by a"), "{}", by_env.stdout);
    assert_eq!(claim_of(&repo, "T1"), Value::Null);
}

#[test]
fn an_unknown_task_is_named_not_exit_6_and_writes_nothing() {
    let env = TestEnv::new();
    let repo = session(&env, 1);
    let before = std::fs::read(state_path(&repo, KEY)).unwrap();
    for verb in ["claim", "release"] {
        let run = env.handover(&repo, &["task", verb, "T9", "--as", "a"]);
        assert_eq!(run.code, 2, "{verb}: {}", run.stderr);
        assert!(run.stderr.contains("no task \"T9\""), "{}", run.stderr);
    }
    assert_eq!(std::fs::read(state_path(&repo, KEY)).unwrap(), before);
    assert!(
        !state_path(&repo, KEY)
            .with_file_name("handover.md")
            .exists()
    );
}

#[test]
fn an_expired_lease_is_taken_at_a_pinned_clock_naming_whose_ran_out() {
    let env = TestEnv::new();
    let repo = session(&env, 1);
    let claim = env.handover(&repo, &["task", "claim", "T1", "--as", "a", "--for", "10m"]);
    assert_eq!(claim.code, 0, "{}", claim.stderr);
    assert_eq!(claim_of(&repo, "T1")["expires"], "2026-11-30T12:10:00Z");
    // One second before the end it holds; at the end it has run out.
    let early = at(
        &env,
        &repo,
        "2026-11-30T12:09:59Z",
        &["task", "claim", "T1", "--as", "b"],
    );
    assert_eq!(early.code, 6, "{}", early.stderr);
    let next = at(
        &env,
        &repo,
        "2026-11-30T12:10:00Z",
        &["task", "next", "--as", "b"],
    );
    assert!(
        next.stdout.starts_with("T1 "),
        "expired, so free: {}",
        next.stdout
    );
    let took = at(
        &env,
        &repo,
        "2026-11-30T12:10:00Z",
        &["task", "claim", "T1", "--as", "b"],
    );
    assert_eq!(took.code, 0, "{}", took.stderr);
    assert!(
        took.stdout
            .contains("the lease of a ran out at 2026-11-30T12:10:00Z"),
        "{}",
        took.stdout
    );
    let c = claim_of(&repo, "T1");
    assert_eq!(c["holder"], "b");
    assert_eq!(c["since"], "2026-11-30T12:10:00Z");
    assert_eq!(
        c["expires"], "2026-11-30T12:40:00Z",
        "handover.claimFor's 30m"
    );
}

#[test]
fn the_holder_renews_its_lease_and_force_says_whose_it_overrode() {
    let env = TestEnv::new();
    let repo = session(&env, 1);
    env.git(&repo, &["config", "handover.claimFor", "1h"]);
    assert_eq!(
        env.handover(&repo, &["task", "claim", "T1", "--as", "a"])
            .code,
        0
    );
    assert_eq!(claim_of(&repo, "T1")["expires"], "2026-11-30T13:00:00Z");
    let renew = at(
        &env,
        &repo,
        "2026-11-30T12:50:00Z",
        &["--json", "task", "claim", "T1", "--as", "a"],
    );
    assert_eq!(renew.code, 0, "{}", renew.stderr);
    assert_eq!(renew.json()["action"], "renewed");
    let c = claim_of(&repo, "T1");
    assert_eq!(c["since"], "2026-11-30T12:00:00Z", "a renewal keeps since");
    assert_eq!(c["expires"], "2026-11-30T13:50:00Z");
    // Past the first lease's end, the renewed lease still holds.
    let b = at(
        &env,
        &repo,
        "2026-11-30T13:30:00Z",
        &["task", "claim", "T1", "--as", "b"],
    );
    assert_eq!(b.code, 6, "{}", b.stderr);
    let forced = at(
        &env,
        &repo,
        "2026-11-30T13:30:00Z",
        &["task", "claim", "T1", "--as", "b", "--force"],
    );
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert!(
        forced
            .stdout
            .contains("overriding the live lease of a (until 2026-11-30T13:50:00Z)"),
        "{}",
        forced.stdout
    );
    assert_eq!(claim_of(&repo, "T1")["holder"], "b");
    let released = env.handover(
        &repo,
        &["--json", "task", "release", "T1", "--as", "a", "--force"],
    );
    assert_eq!(released.json()["action"], "released_other");
    assert_eq!(released.json()["previous"]["holder"], "b");
    let zero = env.handover(&repo, &["task", "claim", "T1", "--as", "a", "--for", "0m"]);
    assert_eq!(zero.code, 2, "{}", zero.stderr);
}

#[test]
fn done_and_block_release_the_callers_claim() {
    let env = TestEnv::new();
    let repo = session(&env, 3);
    for id in ["T1", "T2", "T3"] {
        assert_eq!(
            env.handover(&repo, &["task", "claim", id, "--as", "a"])
                .code,
            0
        );
    }
    let done = env.handover(&repo, &["task", "done", "T1", "--as", "a"]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert_eq!(claim_of(&repo, "T1"), Value::Null);
    let block = env.handover(
        &repo,
        &["task", "block", "T2", "--as", "a", "--reason", "r"],
    );
    assert_eq!(block.code, 0, "{}", block.stderr);
    assert_eq!(claim_of(&repo, "T2"), Value::Null);
    // Another's block leaves the live lease where it is.
    let other = env.handover(
        &repo,
        &["task", "block", "T3", "--as", "b", "--reason", "r"],
    );
    assert_eq!(other.code, 0, "{}", other.stderr);
    assert_eq!(claim_of(&repo, "T3")["holder"], "a");
}

#[test]
fn a_claimer_killed_inside_its_decision_leaves_nothing_claimed_and_the_next_takes_it() {
    let env = TestEnv::new();
    let repo = session(&env, 2);
    let before = std::fs::read(state_path(&repo, KEY)).unwrap();
    let args = ["task", "next", "--claim", "--as", "a"];
    let mut a = env.spawn_at_pause(&repo, &args, "claim:5000");
    a.kill().unwrap(); // SIGKILL, holding the session's lock
    a.wait().unwrap();
    assert_eq!(
        std::fs::read(state_path(&repo, KEY)).unwrap(),
        before,
        "nothing half-written"
    );
    // The dead writer's lock is taken over; its task was never claimed.
    let b = env.handover(&repo, &["task", "next", "--claim", "--as", "b"]);
    assert_eq!(b.code, 0, "{}", b.stderr);
    assert!(b.stdout.starts_with("T1 "), "{}", b.stdout);
    assert_eq!(claim_of(&repo, "T1")["holder"], "b");
}

#[test]
fn a_malformed_claim_a_bad_name_and_a_bad_lease_are_refused_by_name() {
    let env = TestEnv::new();
    let repo = session(&env, 1);
    let bad_name = env.handover(&repo, &["task", "claim", "T1", "--as", "a\u{7}b"]);
    assert_eq!(bad_name.code, 2, "{}", bad_name.stderr);
    assert!(
        bad_name.stderr.contains("control character"),
        "{}",
        bad_name.stderr
    );
    env.git(&repo, &["config", "handover.claimFor", "soon"]);
    let bad_lease = env.handover(&repo, &["task", "claim", "T1", "--as", "a"]);
    assert_eq!(bad_lease.code, 2, "{}", bad_lease.stderr);
    assert!(
        bad_lease.stderr.contains("handover.claimFor"),
        "{}",
        bad_lease.stderr
    );
    env.git(&repo, &["config", "--unset", "handover.claimFor"]);
    // A hand-written claim that is not one: the field is named, nothing is decided on it.
    env.write_session(
        &repo,
        KEY,
        &json!({"version": 4, "status": "READY", "workspace": {"branch": "main"},
            "active_tasks": [{"id": "T1", "status": "pending",
                "claim": {"holder": "mallory", "since": "now", "expires": "forever"}}]}),
    );
    let forged = env.handover(&repo, &["task", "claim", "T1", "--as", "a"]);
    assert_eq!(forged.code, 3, "{}", forged.stderr);
    assert!(
        forged.stderr.contains("active_tasks[0].claim"),
        "{}",
        forged.stderr
    );
    // In Japanese too.
    env.write_session(
        &repo,
        KEY,
        &json!({"version": 4, "status": "READY", "workspace": {"branch": "main"},
            "active_tasks": [{"id": "T1", "status": "pending"}]}),
    );
    assert_eq!(
        env.handover(&repo, &["task", "claim", "T1", "--as", "a"])
            .code,
        0
    );
    let ja = env.handover(&repo, &["--lang", "ja", "task", "claim", "T1", "--as", "b"]);
    assert_eq!(ja.code, 6);
    assert!(ja.stderr.contains("確保しています"), "{}", ja.stderr);
}
