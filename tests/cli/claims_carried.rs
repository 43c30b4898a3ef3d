//! Whether a claim's push carried it (issue 33). A push the remote took of the very
//! notes commit the claim's record made, made on the commit the claim was decided on,
//! where the remote's newest record of the session had no other side and is the state
//! the claim was written on, carried it: that is known without the local store (whose
//! index is then not brought up to date for it). Anything else asks the store as
//! before: our notes ref moved by another process of the clone before the push
//! (`claims_tracking`, a claim pushed by a claim of another session of its clone), the
//! session diverged on the remote. What such a push establishes (at the commit pushed,
//! the session's newest record is the claim's, with no other side) is kept by commit
//! id: the next claim decided on that commit reads that one record, not the remote's
//! notes index; a claim decided on any other commit, or a kept line that does not
//! lead to the record, goes through the index.

use std::path::Path;

use crate::claims_remote::{claim_in, two_clones};
use crate::common::{EventLog, Run, TestEnv, state_path};

const AS_DECIDED: &str = "claim_carried_as_decided";
const ASKED_STORE: &str = "claim_carried_asked_store";
const KNOWN: &str = "remote_newest_known";

fn known_file(a: &Path) -> std::path::PathBuf {
    a.join(".git/git-handover/claims-known/refs%notes%remotes%origin%handover")
}

fn claim(env: &TestEnv, dir: &Path, log: &EventLog, task: &str, who: &str, until: &str) -> Run {
    env.handover_with(
        dir,
        &[
            "task", "claim", task, "--as", who, "--for", until, "--remote", "origin",
        ],
        |c| {
            c.env("GIT_HANDOVER_TEST_LOG", log.path());
        },
    )
}

#[test]
fn a_claim_pushed_as_it_was_decided_is_confirmed_without_asking_the_store() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1", "T2"]);
    env.handover(&a, &["sync"]).assert_ok();
    let log = env.event_log("claims-of-a");
    // The claim after a sync, then its renewals decided on what the last push left.
    for (round, until) in ["1h", "2h", "3h"].into_iter().enumerate() {
        let run = claim(&env, &a, &log, "T1", "agent-a", until);
        assert_eq!(run.code, 0, "{}", run.snapshot());
        assert_eq!(log.count(AS_DECIDED), round + 1, "round {round}");
        assert_eq!(log.count(ASKED_STORE), 0, "round {round}");
        // The first decides on what a sync fetched; each renewal on what the last
        // claim's push left known.
        assert_eq!(log.count(KNOWN), round, "round {round}");
        assert_eq!(claim_in(&a, &key, "T1")["confirmed"], true);
    }
    // The remote holds it: b is refused, told who holds it, and agrees after a sync.
    let run = env.handover(
        &b,
        &[
            "task", "claim", "T1", "--as", "agent-b", "--remote", "origin",
        ],
    );
    assert_eq!(run.code, 6, "{}", run.snapshot());
    assert!(run.stderr.contains("agent-a"), "{}", run.stderr);
    env.handover(&b, &["sync"]).assert_ok();
    assert_eq!(claim_in(&b, &key, "T1")["holder"], "agent-a");
    assert_eq!(
        claim_in(&b, &key, "T1")["expires"],
        claim_in(&a, &key, "T1")["expires"]
    );
}

/// The session diverged on the remote (both clones changed it from one state): a
/// claim has no one newest record to decide on. It is refused at once (exit 2, the
/// divergence said with the command that picks a side), nothing written or pushed,
/// not after its rounds run out.
#[test]
fn a_claim_in_a_session_diverged_on_the_remote_is_refused_at_once() {
    let env = TestEnv::new();
    let (remote, a, b, key) = two_clones(&env, &["T1", "T2"]);
    for (dir, id) in [(&a, "FROM-A"), (&b, "FROM-B")] {
        let run = env.handover(dir, &["task", "--session", &key, "add", id, "a change"]);
        assert_eq!(run.code, 0, "{}", run.snapshot());
    }
    for dir in [&a, &b, &a] {
        env.handover(dir, &["sync"]).assert_ok();
    }
    let status = env.handover(&a, &["status"]);
    assert!(status.stdout.contains("diverged"), "{}", status.stdout);
    let remote_before = env.git(&remote, &["rev-parse", "refs/notes/handover"]);
    let file = std::fs::read(state_path(&a, &key));
    let log = env.event_log("claim-in-diverged");
    for (dir, round) in [(&a, "known"), (&b, "fetched")] {
        // a decides on what its sync fetched; b fetches first (it never did since).
        let run = claim(&env, dir, &log, "T1", "agent-a", "1h");
        assert_eq!(run.code, 2, "{round}: {}", run.snapshot());
        assert!(
            run.stderr
                .contains(&format!("session {key} has diverged on origin")),
            "{round}: {}",
            run.snapshot()
        );
        assert!(
            run.stderr
                .contains(&format!("git handover continue {key} --take HASH")),
            "{round}: {}",
            run.snapshot()
        );
        assert!(
            claim_in(dir, &key, "T1").is_null(),
            "{round}: {}",
            run.snapshot()
        );
    }
    assert_eq!(log.count(AS_DECIDED) + log.count(ASKED_STORE), 0);
    assert_eq!(
        env.git(&remote, &["rev-parse", "refs/notes/handover"]),
        remote_before
    );
    let after = std::fs::read(state_path(&a, &key));
    assert_eq!(file.ok(), after.ok());
}

/// The divergence the last fetch saw is asked of the remote before it is said: another
/// clone took a side and synced since, so the claim decided on the remote goes ahead
/// (it was refused at once on the old view, exit 2, "has diverged").
#[test]
fn a_divergence_the_last_fetch_saw_and_another_clone_resolved_is_not_said() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1", "T2"]);
    for (dir, id) in [(&a, "FROM-A"), (&b, "FROM-B")] {
        let run = env.handover(dir, &["task", "--session", &key, "add", id, "a change"]);
        assert_eq!(run.code, 0, "{}", run.snapshot());
    }
    for dir in [&a, &b, &a] {
        env.handover(dir, &["sync"]).assert_ok();
    }
    let status = env.json(&b, &["--json", "status"]);
    let side = status["diverged"][0]["sides"][0]["hash"]
        .as_str()
        .unwrap_or_else(|| panic!("{status}"))[..12]
        .to_owned();
    env.handover(&b, &["continue", &key, "--take", &side])
        .assert_ok();
    env.handover(&b, &["sync"]).assert_ok();
    let log = env.event_log("claim-after-resolved");
    let run = claim(&env, &a, &log, "T1", "agent-a", "1h");
    assert!(!run.stderr.contains("has diverged"), "{}", run.snapshot());
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(claim_in(&a, &key, "T1")["holder"], "agent-a");
}

/// The remote moved after a's claim (b claimed another task): a's renewal decides first
/// on the commit its last push left known, its push is refused (the lease), and the
/// round after reads what the fetch brought through the index: b's claim is kept.
#[test]
fn a_renewal_after_the_remote_moved_reads_the_new_commit_through_the_index() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1", "T2"]);
    env.handover(&a, &["sync"]).assert_ok();
    let log = env.event_log("claims-of-a");
    let run = claim(&env, &a, &log, "T1", "agent-a", "1h");
    assert_eq!(run.code, 0, "{}", run.snapshot());
    env.handover(&b, &["sync"]).assert_ok();
    let other = env.event_log("claim-of-b");
    let run = claim(&env, &b, &other, "T2", "agent-b", "1h");
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let before = log.count(KNOWN);
    let run = claim(&env, &a, &log, "T1", "agent-a", "2h");
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(log.count(KNOWN), before + 1, "the first round only");
    assert_eq!(claim_in(&a, &key, "T1")["holder"], "agent-a");
    assert_eq!(claim_in(&a, &key, "T1")["confirmed"], true);
    assert_eq!(claim_in(&a, &key, "T2")["holder"], "agent-b");
    env.handover(&b, &["sync"]).assert_ok();
    assert_eq!(
        claim_in(&b, &key, "T1")["expires"],
        claim_in(&a, &key, "T1")["expires"]
    );
    assert_eq!(claim_in(&b, &key, "T2")["holder"], "agent-b");
}

/// What is kept is a cache: a line that names a state it does not hold (its hash
/// changed, or the record changed under its hash: another holder written in), a line
/// of the older format (no record kept), or one that is not a line at all, is passed
/// over for the index, and the claim goes on.
#[test]
fn a_kept_line_that_does_not_lead_to_the_record_is_passed_over() {
    let env = TestEnv::new();
    let (_remote, a, _b, key) = two_clones(&env, &["T1", "T2"]);
    env.handover(&a, &["sync"]).assert_ok();
    let log = env.event_log("claims-of-a");
    let run = claim(&env, &a, &log, "T1", "agent-a", "1h");
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let kept = std::fs::read_to_string(known_file(&a)).unwrap();
    let fields: Vec<&str> = kept.trim_end().split('\t').collect();
    assert_eq!(fields.len(), 6, "{kept}");
    assert!(fields[5].contains("\"agent-a\""), "{kept}");
    let with = |i: usize, v: &str| {
        let mut f = fields.clone();
        f[i] = v;
        f.join("\t") + "\n"
    };
    let zeros = "0".repeat(64);
    let forged = with(3, &zeros);
    let other_holder = fields[5].replace("\"agent-a\"", "\"agent-x\"");
    let tampered = with(5, &other_holder);
    let older = ["claim-known 1", fields[1], fields[2], fields[3], fields[4]].join("\t") + "\n";
    let cases = [
        ("2h", forged.as_str()),
        ("3h", tampered.as_str()),
        ("4h", older.as_str()),
        ("5h", "not a line"),
        ("6h", ""),
    ];
    for (until, text) in cases {
        std::fs::write(known_file(&a), text).unwrap();
        let before = log.count(KNOWN);
        let run = claim(&env, &a, &log, "T1", "agent-a", until);
        assert_eq!(run.code, 0, "{text:?}: {}", run.snapshot());
        assert_eq!(log.count(KNOWN), before, "{text:?}");
        assert_eq!(claim_in(&a, &key, "T1")["confirmed"], true, "{text:?}");
    }
    // Each of those pushes left its own line: the next renewal takes it.
    let before = log.count(KNOWN);
    let run = claim(&env, &a, &log, "T1", "agent-a", "7h");
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(log.count(KNOWN), before + 1);
}

/// A claim killed (`SIGKILL`) once its push was taken and what the push established kept, before
/// the file says it confirmed (the pause `claim_confirm`): nothing is lost or false (the
/// file says unconfirmed); the holder's renewal decides on the line kept and is
/// confirmed; the other clone is refused, told the holder.
#[test]
fn a_claim_killed_after_its_push_before_it_said_confirmed_is_renewed_on_what_it_kept() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1", "T2"]);
    env.handover(&a, &["sync"]).assert_ok();
    let args = [
        "task", "claim", "T1", "--as", "agent-a", "--for", "1h", "--remote", "origin",
    ];
    let mut child = env.spawn_at_pause(&a, &args, "claim_confirm:60000");
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(claim_in(&a, &key, "T1")["holder"], "agent-a");
    assert_eq!(claim_in(&a, &key, "T1")["confirmed"], false);
    assert!(known_file(&a).is_file());
    let log = env.event_log("renewal");
    let run = claim(&env, &a, &log, "T1", "agent-a", "2h");
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(log.count(KNOWN), 1, "{}", run.snapshot());
    assert_eq!(claim_in(&a, &key, "T1")["confirmed"], true);
    let run = env.handover(
        &b,
        &[
            "task", "claim", "T1", "--as", "agent-b", "--remote", "origin",
        ],
    );
    assert_eq!(run.code, 6, "{}", run.snapshot());
    assert!(run.stderr.contains("agent-a"), "{}", run.stderr);
}

/// The temporary files in the directory of session `key` of `dir`.
fn temps(dir: &Path, key: &str) -> Vec<String> {
    let session = state_path(dir, key).parent().unwrap().to_owned();
    std::fs::read_dir(session)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".git-handover-tmp-"))
        .collect()
}

/// While the claim's push runs (the pause `remote_claim_pushing`: git started, the
/// confirmation made ready beside the file), nothing is said confirmed yet; once the
/// remote took it, the file says so and nothing made ready is left behind.
#[test]
fn a_claims_confirmation_is_made_ready_while_its_push_runs_and_said_only_after_it() {
    let env = TestEnv::new();
    let (_remote, a, _b, key) = two_clones(&env, &["T1", "T2"]);
    env.handover(&a, &["sync"]).assert_ok();
    let args = [
        "task", "claim", "T1", "--as", "agent-a", "--remote", "origin",
    ];
    let child = env.spawn_at_pause(&a, &args, "remote_claim_pushing:60000");
    assert_eq!(claim_in(&a, &key, "T1")["holder"], "agent-a");
    assert_eq!(claim_in(&a, &key, "T1")["confirmed"], false);
    assert_eq!(temps(&a, &key).len(), 1, "{:?}", temps(&a, &key));
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(claim_in(&a, &key, "T1")["confirmed"], true);
    assert!(temps(&a, &key).is_empty(), "{:?}", temps(&a, &key));
}

/// A write made to the session while the claim's push runs (`--session`, as from any
/// worktree; its stray temporary files removed, the confirmation made ready among
/// them) is kept: the claim is said
/// confirmed on what the file holds then, never by putting back the state it wrote.
/// Its sibling, a write that changes nothing, leaves the file as the claim wrote it:
/// the ready confirmation, gone with the strays, is made again.
#[test]
fn a_write_while_a_claims_push_runs_is_kept_and_the_claim_still_said_confirmed() {
    let env = TestEnv::new();
    let (_remote, a, _b, key) = two_clones(&env, &["T1", "T2", "T3"]);
    env.handover(&a, &["sync"]).assert_ok();
    // The second `start` of T2 changes nothing: the file stays as the claim wrote it.
    for task in ["T1", "T3"] {
        let args = [
            "task", "claim", task, "--as", "agent-a", "--remote", "origin",
        ];
        let child = env.spawn_at_pause(&a, &args, "remote_claim_pushing:60000");
        assert_eq!(claim_in(&a, &key, task)["confirmed"], false);
        let run = env.handover(&a, &["task", "--session", &key, "start", "T2"]);
        assert_eq!(run.code, 0, "{}", run.snapshot());
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{out:?}");
        let doc = crate::common::read_json(&state_path(&a, &key));
        let t2 = doc["active_tasks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == "T2");
        assert_eq!(t2.unwrap()["status"], "in_progress", "{doc}");
        assert_eq!(claim_in(&a, &key, task)["holder"], "agent-a");
        assert_eq!(claim_in(&a, &key, task)["confirmed"], true, "{doc}");
        assert!(temps(&a, &key).is_empty(), "{:?}", temps(&a, &key));
    }
}
