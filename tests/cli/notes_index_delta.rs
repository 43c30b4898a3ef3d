//! The notes index brought up to date by a delta laid over its files (issue 36: an
//! update after a few records costs what changed, not the index): each kind of change
//! is laid over without a build or an update that writes the files whole, and every
//! reader answers as the store; a delta swapped in from another commit's index,
//! deleted, torn or forged, a base file or a members' part swapped in from another
//! commit, two updaters racing between the parts and the delta, one killed there, and
//! a delta grown past its bound (folded) all leave an index that answers as the store.

use std::path::{Path, PathBuf};

use crate::common::{TestEnv, finish};
use crate::notes_index::{HEADS, MEMBERS, append, record, repo_with, same, sha256_hex};
use crate::notes_index_log::same_logs;

const DELTA: &str = ".git/git-handover/notes-index/refs%notes%handover.delta";

/// A record of `sid` whose state is finished.
fn finished(sid: &str, seq: u64, parent: &str, hash: &str, at: &str) -> String {
    record(sid, seq, Some(parent), hash, at)
        .replace("\"READY\"", "\"ALL_COMPLETE\"")
        .replace("\"in_progress\"", "\"done\"")
}

/// Four sessions with ids over four commits, none written before ids, no line that
/// is no record (what a delta is laid over), the index built by `status`.
pub(crate) fn store(env: &TestEnv) -> (PathBuf, Vec<String>) {
    let (repo, c) = repo_with(env, 4);
    append(
        env,
        &repo,
        &c[1],
        &[
            record("s1", 1, None, "h11", "2026-11-30T10:00:00Z"),
            record("s1", 2, Some("h11"), "h12", "2026-11-30T10:01:00Z"),
        ],
    );
    append(
        env,
        &repo,
        &c[2],
        &[
            record("s2", 1, None, "h21", "2026-11-30T10:02:00Z"),
            record("s3", 1, None, "h31", "2026-11-30T10:03:00Z"),
        ],
    );
    append(
        env,
        &repo,
        &c[3],
        &[record("s4", 1, None, "h41", "2026-11-30T10:04:00Z")],
    );
    readers(env, &repo, "built");
    (repo, c)
}

/// Every reader answers as the store: `status`, `continue` and the hook (`.open`),
/// `log` (`.heads`, `.times`, the members).
#[track_caller]
pub(crate) fn readers(env: &TestEnv, repo: &Path, why: &str) {
    same(env, repo, why);
    crate::notes_index_open::same(env, repo, why);
    same_logs(env, repo, why);
}

/// `status` run with the event log `log`.
#[track_caller]
pub(crate) fn status(env: &TestEnv, repo: &Path, log: &crate::common::EventLog) {
    let run = env.handover_with(repo, &["status"], |cmd| {
        cmd.env("GIT_HANDOVER_TEST_LOG", log.path());
    });
    assert_eq!(run.code, 0, "{}", run.snapshot());
}

#[test]
fn each_kind_of_change_is_laid_over_as_a_delta_and_answers_as_the_store() {
    let env = TestEnv::new();
    let (repo, c) = store(&env);
    let log = env.event_log("delta");
    let steps: Vec<(&str, Vec<(usize, String)>)> = vec![
        (
            "a write on top",
            vec![(
                1,
                record("s1", 3, Some("h12"), "h13", "2026-11-30T11:00:00Z"),
            )],
        ),
        (
            "a session never seen",
            vec![(3, record("s5", 1, None, "h51", "2026-11-30T11:01:00Z"))],
        ),
        (
            "a session diverged",
            vec![
                (
                    2,
                    record("s2", 2, Some("h21"), "h22a", "2026-11-30T11:02:00Z"),
                ),
                (
                    3,
                    record("s2", 2, Some("h21"), "h22b", "2026-11-30T11:03:00Z"),
                ),
            ],
        ),
        (
            "a session finished",
            vec![(2, finished("s3", 2, "h31", "h32", "2026-11-30T11:04:00Z"))],
        ),
        (
            "the diverged session settled",
            vec![(
                1,
                record("s2", 3, Some("h22b"), "h23", "2026-11-30T11:05:00Z"),
            )],
        ),
        (
            "several records of several sessions at once",
            vec![
                (
                    1,
                    record("s1", 4, Some("h13"), "h14", "2026-11-30T11:06:00Z"),
                ),
                (
                    3,
                    record("s4", 2, Some("h41"), "h42", "2026-11-30T11:07:00Z"),
                ),
                (0, record("s6", 1, None, "h61", "2026-11-30T11:08:00Z")),
            ],
        ),
    ];
    for (n, (why, lines)) in steps.into_iter().enumerate() {
        for (commit, line) in lines {
            append(&env, &repo, &c[commit], &[line]);
        }
        status(&env, &repo, &log);
        assert_eq!(log.count("notes-index-delta-written"), n + 1, "{why}");
        assert_eq!(
            log.count("notes-index-updated"),
            0,
            "{why}: not the long way"
        );
        assert_eq!(log.count("notes-index-built"), 0, "{why}: not built");
        readers(&env, &repo, why);
    }
    // A note removed: its sessions' groups worked out again, laid over too.
    env.git(&repo, &["notes", "--ref=handover", "remove", &c[3]]);
    status(&env, &repo, &log);
    assert_eq!(log.count("notes-index-delta-written"), 7);
    assert_eq!(log.count("notes-index-built"), 0);
    readers(&env, &repo, "a note removed");
}

#[test]
fn a_delta_grown_past_its_bound_is_folded_into_the_files() {
    let env = TestEnv::new();
    let (repo, c) = store(&env);
    let log = env.event_log("fold");
    let run = |why: &str| {
        let r = env.handover_with(&repo, &["status"], |cmd| {
            cmd.env("GIT_HANDOVER_TEST_LOG", log.path());
            cmd.env("GIT_HANDOVER_TEST_INDEX_FOLD", "1");
        });
        assert_eq!(r.code, 0, "{why}: {}", r.snapshot());
    };
    append(
        &env,
        &repo,
        &c[1],
        &[record("s1", 3, Some("h12"), "h13", "2026-11-30T11:00:00Z")],
    );
    // The empty delta a build leaves is over the bound too: the long way, folded.
    run("first");
    assert_eq!(log.count("notes-index-fold"), 1);
    assert_eq!(log.count("notes-index-updated"), 1);
    readers(&env, &repo, "folded");
    append(
        &env,
        &repo,
        &c[2],
        &[record("s2", 2, Some("h21"), "h22", "2026-11-30T11:01:00Z")],
    );
    status(&env, &repo, &log);
    assert_eq!(log.count("notes-index-delta-written"), 1, "a delta again");
    readers(&env, &repo, "a delta over the folded files");
}

/// `bytes` (an index file: four header lines, then its body) with its body changed by
/// `forge` and its sum made to hold again.
fn resealed(bytes: &[u8], forge: impl FnOnce(&mut serde_json::Value)) -> Vec<u8> {
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    let h: Vec<&str> = text.splitn(5, '\n').collect();
    let mut body: serde_json::Value = serde_json::from_str(h[4]).unwrap();
    forge(&mut body);
    let body = body.to_string();
    let sum = sha256_hex(body.as_bytes());
    format!("{}\n{}\n{}\n{sum}\n{body}", h[0], h[1], h[2]).into_bytes()
}

#[test]
fn a_delta_or_a_part_swapped_deleted_torn_or_forged_is_not_believed() {
    type Attack = fn(&Path, &Saved);
    let attacks: [(&str, Attack); 9] = [
        ("the delta of an older commit swapped in", |repo, s| {
            std::fs::write(repo.join(DELTA), &s.delta).unwrap();
        }),
        ("the delta deleted", |repo, _| {
            std::fs::remove_file(repo.join(DELTA)).unwrap();
        }),
        ("the delta torn", |repo, _| {
            let b = std::fs::read(repo.join(DELTA)).unwrap();
            std::fs::write(repo.join(DELTA), &b[..b.len() / 2]).unwrap();
        }),
        (
            "the delta forged: s1's open copy is s2's record",
            |repo, _| {
                let b = std::fs::read(repo.join(DELTA)).unwrap();
                let forged = resealed(&b, |v| {
                    let s2 = v["open"]["i:s2"].clone();
                    if !s2.is_null() {
                        v["open"]["i:s1"]["lines"] = s2["lines"].clone();
                    }
                });
                std::fs::write(repo.join(DELTA), forged).unwrap();
            },
        ),
        ("the delta forged: s1's newest is s2's record", |repo, _| {
            let b = std::fs::read(repo.join(DELTA)).unwrap();
            let forged = resealed(&b, |v| {
                let s2 = v["groups"]["i:s2"]["newest"].clone();
                v["groups"]["i:s1"]["newest"] = s2;
            });
            std::fs::write(repo.join(DELTA), forged).unwrap();
        }),
        (
            "the heads another writer wrote of the same commit under the delta",
            |repo, _| {
                // s4 (whose entry the delta does not hold) left out, sums that hold.
                let b = std::fs::read(repo.join(HEADS)).unwrap();
                let forged = resealed(&b, |v| {
                    v["groups"].as_object_mut().unwrap().remove("i:s4");
                });
                std::fs::write(repo.join(HEADS), forged).unwrap();
            },
        ),
        (
            "the times another writer wrote of the same commit under the delta",
            |repo, _| {
                // The first note's time moved a second on, sums that hold.
                let path = repo.join(HEADS.replace(".heads", ".times"));
                let b = std::fs::read(&path).unwrap();
                let at = b
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| **c == b'\n')
                    .nth(3)
                    .unwrap()
                    .0
                    + 1;
                let mut body = b[at..].to_vec();
                body[20 + 4] ^= 0x3b;
                let head = String::from_utf8(b[..at].to_vec()).unwrap();
                let h: Vec<&str> = head.splitn(5, '\n').collect();
                let sum = sha256_hex(&body);
                let mut forged = format!("{}\n{}\n{}\n{sum}\n", h[0], h[1], h[2]).into_bytes();
                forged.extend_from_slice(&body);
                std::fs::write(&path, forged).unwrap();
            },
        ),
        ("a members' part deleted", |repo, _| {
            let parts = repo.join(format!("{MEMBERS}.d"));
            let first = std::fs::read_dir(&parts).unwrap().next().unwrap().unwrap();
            std::fs::remove_file(first.path()).unwrap();
        }),
        ("a members' part of another commit", |repo, s| {
            for (name, bytes) in &s.parts {
                std::fs::write(repo.join(format!("{MEMBERS}.d")).join(name), bytes).unwrap();
            }
        }),
    ];
    for (why, attack) in attacks {
        let env = TestEnv::new();
        let (repo, c) = store(&env);
        let log = env.event_log("attack");
        // Another commit's index (a delta over the built files), kept aside.
        append(
            &env,
            &repo,
            &c[2],
            &[record("s2", 2, Some("h21"), "h22", "2026-11-30T11:00:00Z")],
        );
        status(&env, &repo, &log);
        let saved = Saved::of(&repo);
        append(
            &env,
            &repo,
            &c[1],
            &[record("s1", 3, Some("h12"), "h13", "2026-11-30T11:01:00Z")],
        );
        status(&env, &repo, &log);
        assert_eq!(log.count("notes-index-delta-written"), 2, "{why}");
        attack(&repo, &saved);
        readers(&env, &repo, why);
        // And the index it left is brought up by the next record as the store says.
        append(
            &env,
            &repo,
            &c[3],
            &[record("s4", 2, Some("h41"), "h42", "2026-11-30T11:02:00Z")],
        );
        readers(&env, &repo, &format!("{why}, then a record"));
    }
}

/// An index's files as they were at one commit.
struct Saved {
    delta: Vec<u8>,
    parts: Vec<(std::ffi::OsString, Vec<u8>)>,
}

impl Saved {
    fn of(repo: &Path) -> Saved {
        let parts = std::fs::read_dir(repo.join(format!("{MEMBERS}.d")))
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (e.file_name(), std::fs::read(e.path()).unwrap())
            })
            .collect();
        Saved {
            delta: std::fs::read(repo.join(DELTA)).unwrap(),
            parts,
        }
    }
}

#[test]
fn two_updaters_racing_between_the_parts_and_the_delta_leave_an_index_that_answers_as_the_store() {
    for moves in [true, false] {
        let env = TestEnv::new();
        let (repo, c) = store(&env);
        append(
            &env,
            &repo,
            &c[1],
            &[record("s1", 3, Some("h12"), "h13", "2026-11-30T11:00:00Z")],
        );
        // The first has written the members' parts and manifest of the new commit and
        // waits before its delta.
        let slow = env.spawn_at_pause(&repo, &["status"], "notes-index-delta:60000");
        if moves {
            // Meanwhile the store moves on.
            append(
                &env,
                &repo,
                &c[2],
                &[record("s2", 2, Some("h21"), "h22", "2026-11-30T11:01:00Z")],
            );
        }
        // A second brings the index up meanwhile (whatever it finds), and answers.
        readers(
            &env,
            &repo,
            &format!("moves {moves}: while the first waits"),
        );
        // Then the first writes its delta, over the second's files.
        let (code, _, err) = finish(slow);
        assert_eq!(code, 0, "{err}");
        readers(&env, &repo, &format!("moves {moves}: after both"));
        append(
            &env,
            &repo,
            &c[3],
            &[record("s4", 2, Some("h41"), "h42", "2026-11-30T11:02:00Z")],
        );
        readers(&env, &repo, &format!("moves {moves}: then a record"));
    }
}

#[test]
fn an_updater_killed_between_the_parts_and_the_delta_leaves_an_index_that_answers_as_the_store() {
    let env = TestEnv::new();
    let (repo, c) = store(&env);
    append(
        &env,
        &repo,
        &c[1],
        &[record("s1", 3, Some("h12"), "h13", "2026-11-30T11:00:00Z")],
    );
    let mut child = env.spawn_at_pause(&repo, &["status"], "notes-index-delta:20000");
    child.kill().unwrap();
    let _ = child.wait();
    readers(&env, &repo, "after the kill");
}

#[test]
fn open_made_again_over_a_delta_is_not_a_build() {
    let env = TestEnv::new();
    let (repo, c) = store(&env);
    let log = env.event_log("open");
    append(
        &env,
        &repo,
        &c[1],
        &[record("s1", 3, Some("h12"), "h13", "2026-11-30T11:00:00Z")],
    );
    status(&env, &repo, &log);
    assert_eq!(log.count("notes-index-delta-written"), 1);
    // `.open` gone: made again from `.heads` under the delta, the rest kept.
    std::fs::remove_file(repo.join(HEADS.replace(".heads", ".open"))).unwrap();
    status(&env, &repo, &log);
    // `log` reads `.heads` and the members, `status` made `.open` again.
    let run = env.handover_with(&repo, &["log", "-n", "20"], |cmd| {
        cmd.env("GIT_HANDOVER_TEST_LOG", log.path());
    });
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(log.count("notes-index-built"), 0, "not built");
    readers(&env, &repo, "open made again");
    append(
        &env,
        &repo,
        &c[2],
        &[record("s2", 2, Some("h21"), "h22", "2026-11-30T11:01:00Z")],
    );
    status(&env, &repo, &log);
    assert_eq!(log.count("notes-index-built"), 0, "never built");
    readers(&env, &repo, "then a record");
}
