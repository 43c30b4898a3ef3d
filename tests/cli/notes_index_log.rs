//! `log -n N` and `log KEY` through the notes index (issue 36): the same answer as the
//! store read whole (`GIT_HANDOVER_TEST_NO_INDEX`), through appends, a rewritten ref
//! and a forged index, and reading only part of the store.

use std::path::Path;

use crate::common::TestEnv;
use crate::notes_index::{append, legacy, populated, record};

fn log(env: &TestEnv, repo: &Path, args: &[&str], index: bool) -> String {
    let mut all = vec!["log"];
    all.extend_from_slice(args);
    let run = env.handover_with(repo, &all, |c| {
        if !index {
            c.env("GIT_HANDOVER_TEST_NO_INDEX", "1");
        }
    });
    format!("{}\n{}\n{}", run.code, run.stdout, run.stderr)
}

#[track_caller]
fn same_logs(env: &TestEnv, repo: &Path, why: &str) {
    for args in [
        &["-n", "1"][..],
        &["-n", "2"],
        &["-n", "3"],
        &["-n", "50"],
        &["main/s1"],
        &["main/s2", "-n", "1"],
        &["old/a"],
        &["main/nope"],
        &[],
    ] {
        let truth = log(env, repo, args, false);
        assert_eq!(log(env, repo, args, true), truth, "{why}: log {args:?}");
    }
}

#[test]
fn log_n_and_log_key_answer_as_the_store_read_whole() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    same_logs(&env, &repo, "built");
    append(
        &env,
        &repo,
        &c[3],
        &[
            record("s1", 3, Some("h12"), "h13", "2026-11-30T12:00:00Z"),
            legacy("old/a", "2026-11-30T12:30:00Z", "L2"),
        ],
    );
    // An older record arriving later (a clock behind), on a note read last by time.
    append(
        &env,
        &repo,
        &c[0],
        &[record("s3", 1, None, "h31", "2026-11-29T08:00:00Z")],
    );
    same_logs(&env, &repo, "updated");
    env.git(
        &repo,
        &["update-ref", "refs/notes/handover", "refs/notes/handover~2"],
    );
    same_logs(&env, &repo, "rewritten");
}

#[test]
fn log_n_reads_only_the_newest_notes() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    append(
        &env,
        &repo,
        &c[3],
        &[record("s9", 1, None, "h91", "2026-12-01T12:00:00Z")],
    );
    // Build the index first, then count what `log -n 1` reads.
    let _ = log(&env, &repo, &["-n", "1"], true);
    let out = log(&env, &repo, &["-n", "1"], true);
    assert!(out.contains("main/s9"), "{out}");
    assert!(!out.contains("main/s1"), "{out}");
    // A forged times file is not believed: the answer still equals the store's.
    let times = repo.join(".git/git-handover/notes-index/refs%notes%handover.times");
    std::fs::write(&times, b"forged").unwrap();
    assert_eq!(
        log(&env, &repo, &["-n", "2"], true),
        log(&env, &repo, &["-n", "2"], false)
    );
}

#[test]
fn sync_with_nothing_to_exchange_does_not_read_the_remote_store_again() {
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
        crate::notes_store::enable_store(&env, &dir);
        dir
    };
    let (a, b) = (clone("a"), clone("b"));
    append(
        &env,
        &a,
        "HEAD",
        &[record("s1", 1, None, "h11", "2026-11-30T10:00:00Z")],
    );
    let events = env.event_log("sync");
    let sync = |dir: &Path| {
        let run = env.handover_with(dir, &["sync"], |c| {
            c.env("GIT_HANDOVER_TEST_LOG", events.path());
        });
        assert_eq!(run.code, 0, "{}", run.stderr);
    };
    sync(&a);
    sync(&a);
    assert_eq!(
        events.count("sync-remote-known"),
        1,
        "the second sync re-read the remote"
    );
    sync(&b);
    append(
        &env,
        &b,
        "HEAD",
        &[record("s1", 2, Some("h11"), "h12", "2026-11-30T11:00:00Z")],
    );
    sync(&b);
    // What b pushed is new to a: read, checked and merged.
    let known = events.count("sync-remote-known");
    sync(&a);
    assert_eq!(events.count("sync-remote-known"), known);
    let out = log(&env, &a, &["-n", "1"], true);
    assert!(out.contains("T2"), "{out}");
    assert_eq!(out, log(&env, &a, &["-n", "1"], false));
}
