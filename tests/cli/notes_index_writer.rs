//! A write of this tool brings the notes index along (issue 36: the hook after another
//! agent's write then finds the index current): only when the index was of the very
//! commit the write was made on, from the texts the write made. Attacked: a record of
//! another tool between the index and the write, no index at all, a write that makes a
//! new note, a store a delta is not laid over, a reader racing the writer's update, and
//! the writer killed in it. Each time every reader answers as the store, and the record
//! written is there.

use std::path::Path;

use crate::common::{EventLog, TestEnv, finish};
use crate::notes_index::{HEADS, append, legacy, record, repo_with};
use crate::notes_index_delta::{status, store};

/// Events that say a reader brought the index up or built it.
const UPDATES: [&str; 4] = [
    "notes-index-appended",
    "notes-index-delta-written",
    "notes-index-updated",
    "notes-index-built",
];

/// A write of this tool (`task add`), logged to `log`, which must succeed.
#[track_caller]
fn write(env: &TestEnv, repo: &Path, log: &EventLog, id: &str) {
    let run = env.handover_with(repo, &["task", "add", id, "work to do"], |cmd| {
        cmd.env("GIT_HANDOVER_TEST_LOG", log.path());
    });
    assert_eq!(run.code, 0, "{}", run.snapshot());
}

/// Every reader answers as the store (`notes_index_delta`'s readers), once the
/// session the writes made has been picked up: the first reader of it records that,
/// and the second of a comparison would see it.
#[track_caller]
fn readers(env: &TestEnv, repo: &Path, why: &str) {
    crate::notes_index_open::answers(env, repo, false);
    crate::notes_index_delta::readers(env, repo, why);
}

/// How many of `events` `log` holds.
fn count(log: &EventLog, events: &[&str]) -> usize {
    events.iter().map(|e| log.count(e)).sum()
}

/// The task `id` is in the session's tasks (the write is not lost).
#[track_caller]
fn listed(env: &TestEnv, repo: &Path, id: &str) {
    let run = env.handover(repo, &["task", "list"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.contains(id), "{}", run.snapshot());
}

#[test]
fn a_write_brings_the_index_along_and_the_next_reader_updates_nothing() {
    let env = TestEnv::new();
    let (repo, _) = store(&env);
    for (n, id) in ["T1", "T2", "T3"].iter().enumerate() {
        let wrote = env.event_log(&format!("writer-{n}"));
        let read = env.event_log(&format!("reader-{n}"));
        write(&env, &repo, &wrote, id);
        assert_eq!(wrote.count("notes-index-delta-written"), 1, "write {n}");
        // The first write starts a session the index never saw; the next ones go on
        // top of it without its notes read.
        assert_eq!(
            wrote.count("notes-index-on-top"),
            usize::from(n > 0),
            "write {n}"
        );
        status(&env, &repo, &read);
        assert_eq!(count(&read, &UPDATES), 0, "write {n}: the reader updated");
        readers(&env, &repo, &format!("after write {n}"));
    }
    listed(&env, &repo, "T3");
}

#[test]
fn a_write_leaves_to_the_reader_what_it_cannot_bring_along_as_its_own() {
    type Setup = fn(&TestEnv) -> std::path::PathBuf;
    let cases: [(&str, Setup, bool); 4] = [
        (
            "a record of another tool since the index",
            |env| {
                let (repo, c) = store(env);
                let r = record("s1", 3, Some("h12"), "h13", "2026-11-30T11:00:00Z");
                append(env, &repo, &c[1], &[r]);
                repo
            },
            false,
        ),
        (
            "no index",
            |env| {
                let (repo, c) = repo_with(env, 2);
                let r = record("s1", 1, None, "h11", "2026-11-30T10:00:00Z");
                append(env, &repo, &c[1], &[r]);
                repo
            },
            false,
        ),
        (
            "a write that makes a new note",
            |env| {
                let (repo, _) = store(env);
                env.commit(&repo, "g", "new\n", "c4", "2026-11-30T10:30:00Z");
                repo
            },
            true,
        ),
        (
            "a store with records without a session id",
            |env| {
                let (repo, c) = store(env);
                append(
                    env,
                    &repo,
                    &c[2],
                    &[legacy("old/a", "2026-11-30T09:00:00Z", "L1")],
                );
                status(env, &repo, &env.event_log("built"));
                repo
            },
            false,
        ),
    ];
    for (why, setup, along) in cases {
        let env = TestEnv::new();
        let repo = setup(&env);
        let wrote = env.event_log("writer");
        write(&env, &repo, &wrote, "T1");
        assert_eq!(
            count(&wrote, &["notes-index-delta-written"]),
            usize::from(along),
            "{why}"
        );
        assert_eq!(
            wrote.count("notes-index-built"),
            0,
            "{why}: a writer never builds"
        );
        if why == "no index" {
            assert!(!repo.join(HEADS).exists(), "{why}");
        }
        let read = env.event_log("reader");
        status(&env, &repo, &read);
        if along {
            assert_eq!(count(&read, &UPDATES), 0, "{why}: the reader updated");
        }
        readers(&env, &repo, why);
        listed(&env, &repo, "T1");
        write(&env, &repo, &wrote, "T2");
        readers(&env, &repo, &format!("{why}, then another write"));
    }
}

#[test]
fn a_reader_racing_the_writers_update_leaves_an_index_that_answers_as_the_store() {
    for moves in [true, false] {
        let env = TestEnv::new();
        let (repo, c) = store(&env);
        // The writer has moved the ref and written the members of its commit, and
        // waits before its delta.
        let slow = env.spawn_at_pause(
            &repo,
            &["task", "add", "T1", "work"],
            "notes-index-delta:60000",
        );
        if moves {
            let r = record("s2", 2, Some("h21"), "h22", "2026-11-30T11:01:00Z");
            append(&env, &repo, &c[2], &[r]);
        }
        readers(
            &env,
            &repo,
            &format!("moves {moves}: while the writer waits"),
        );
        let (code, _, err) = finish(slow);
        assert_eq!(code, 0, "{err}");
        readers(&env, &repo, &format!("moves {moves}: after both"));
        listed(&env, &repo, "T1");
        write(&env, &repo, &env.event_log("writer"), "T2");
        readers(&env, &repo, &format!("moves {moves}: then a write"));
    }
}

#[test]
fn a_writer_killed_in_its_update_of_the_index_loses_nothing() {
    let env = TestEnv::new();
    let (repo, _) = store(&env);
    let mut child = env.spawn_at_pause(
        &repo,
        &["task", "add", "T1", "work"],
        "notes-index-delta:20000",
    );
    child.kill().unwrap();
    let _ = child.wait();
    // The write was done (files and ref) before the index was brought along.
    listed(&env, &repo, "T1");
    readers(&env, &repo, "after the kill");
    write(&env, &repo, &env.event_log("writer"), "T2");
    readers(&env, &repo, "then a write");
}
