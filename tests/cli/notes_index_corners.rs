//! The corners of the notes index's update and of `log`'s reading back, found by a
//! review of several records taken on top (`index_update.rs`) and of a shown record's
//! previous one read newest first (`history.rs`): chains in corners (a newest without
//! `seq`, equal times, a clock behind, a shared key, a head left behind, notes appended
//! in reverse order, a key moved), a chain beside a rewritten note and a continue-here
//! record, a continue-here record whose state is no object, equal times in the
//! fallback, a forged `.times` whose checksum holds, and random stores. Each answers
//! as the store read whole (`GIT_HANDOVER_TEST_NO_INDEX`).

use std::path::Path;

use crate::common::TestEnv;
use crate::notes_index::{append, record, repo_with, same};
use crate::notes_index_log::same_logs_but;

fn hx(n: u64) -> String {
    format!("{n:064x}")
}

fn run(env: &TestEnv, repo: &Path, args: &[&str], index: bool) -> String {
    let r = env.handover_with(repo, args, |c| {
        if !index {
            c.env("GIT_HANDOVER_TEST_NO_INDEX", "1");
        }
    });
    format!("{}\n{}\n{}", r.code, r.stdout, r.stderr)
}

fn both(env: &TestEnv, repo: &Path, args: &[&str], why: &str) {
    let truth = run(env, repo, args, false);
    assert_eq!(run(env, repo, args, true), truth, "{why}: {args:?}");
}

/// A record of session `sid` under `key`.
fn rec_k(
    key: &str,
    sid: &str,
    seq: Option<u64>,
    parent: Option<&str>,
    hash: &str,
    at: &str,
) -> String {
    let mut r: serde_json::Value =
        serde_json::from_str(&record(sid, seq.unwrap_or(1), parent, hash, at)).unwrap();
    r["key"] = serde_json::Value::String(key.to_owned());
    if seq.is_none() {
        r.as_object_mut().unwrap().remove("seq");
    }
    r.to_string()
}

fn sha256_hex(b: &[u8]) -> String {
    crate::notes_index::sha256_hex(b)
}

/// `.times` forged (its checksum made to hold): one note's newest time set far back.
#[test]
fn a_forged_times_file_does_not_make_log_tell_a_change_against_the_wrong_record() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 11);
    for seq in 1..=10u64 {
        let parent = (seq > 1).then(|| hx(seq - 1));
        let at = format!("2026-11-30T10:{seq:02}:00Z");
        append(
            &env,
            &repo,
            &c[usize::try_from(seq - 1).unwrap()],
            &[record("s1", seq, parent.as_deref(), &hx(seq), &at)],
        );
    }
    both(&env, &repo, &["log", "-n", "8"], "built");
    let times = repo.join(".git/git-handover/notes-index/refs%notes%handover.times");
    let bytes = std::fs::read(&times).unwrap();
    let mut at = 0;
    let mut head = Vec::new();
    for _ in 0..4 {
        let end = at + bytes[at..].iter().position(|b| *b == b'\n').unwrap();
        head.push(String::from_utf8(bytes[at..end].to_vec()).unwrap());
        at = end + 1;
    }
    let mut body = bytes[at..].to_vec();
    let target = env.git(&repo, &["rev-parse", &c[1]]);
    let id: Vec<u8> = (0..20)
        .map(|i| u8::from_str_radix(&target[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    let mut found = false;
    for chunk in body.chunks_exact_mut(36) {
        if chunk[..20] == id[..] {
            chunk[20..].copy_from_slice(&1_000_000_000i128.to_le_bytes());
            found = true;
        }
    }
    assert!(found);
    head[3] = sha256_hex(&body);
    let mut out = head.join("\n").into_bytes();
    out.push(b'\n');
    out.append(&mut body);
    std::fs::write(&times, out).unwrap();
    both(&env, &repo, &["log", "-n", "8"], "forged times");
}

/// The update (by `status`, its events logged) and every reader of the corners,
/// against the store read whole.
fn corners_answer(env: &TestEnv, repo: &Path, events: &crate::common::EventLog, why: &str) {
    let _ = env.handover_with(repo, &["status"], |c| {
        c.env("GIT_HANDOVER_TEST_LOG", events.path());
    });
    same(env, repo, why);
    same_logs_but(env, repo, why, Some("is given more than once"));
    for args in [
        &["log", "-n", "1"][..],
        &["log", "-n", "4"],
        &["log", "-n", "7"],
        &["log", "main/shared"],
        &["log", "main/shared", "-n", "1"],
        &["log", "main/c"],
        &["log", "main/f", "-n", "2"],
        &["--json", "continue", "--full", "main/shared"],
        &["--json", "continue", "--full", "main/a"],
        &["--json", "continue", "--full", "main/c"],
        &["--json", "continue", "--full", "main/f"],
    ] {
        both(env, repo, args, why);
    }
}

/// Chains the update takes on top, in corners: a newest without `seq`, equal times, a
/// top older than the newest, two sessions sharing a key, a continue-here appended.
#[test]
fn chains_in_corners_answer_as_the_store() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 4);
    let at = |m: u32| format!("2026-11-30T10:{m:02}:00Z");
    append(
        &env,
        &repo,
        &c[0],
        &[
            rec_k("main/a", "a", None, None, &hx(101), &at(0)),
            rec_k("main/b", "b", Some(1), None, &hx(201), &at(0)),
            rec_k("main/c", "c", Some(1), None, &hx(301), &at(30)),
            rec_k("main/shared", "d", Some(1), None, &hx(401), &at(0)),
            rec_k("main/shared", "e", Some(1), None, &hx(501), &at(1)),
            // f: a head left behind (its successor never recorded), history not a side.
            rec_k("main/f", "f", Some(1), None, &hx(601), &at(0)),
            rec_k("main/f", "f", Some(2), Some(&hx(601)), &hx(602), &at(1)),
            rec_k("main/f", "f", Some(3), Some(&hx(601)), &hx(603), &at(2)),
        ],
    );
    let events = env.event_log("corners");
    let check = |why: &str| corners_answer(&env, &repo, &events, why);
    check("built");
    append(
        &env,
        &repo,
        &c[1],
        &[
            // a: a newest without seq, two on top at its own time.
            rec_k("main/a", "a", Some(1), Some(&hx(101)), &hx(102), &at(0)),
            rec_k("main/a", "a", Some(2), Some(&hx(102)), &hx(103), &at(0)),
            // b: equal times all along.
            rec_k("main/b", "b", Some(2), Some(&hx(201)), &hx(202), &at(0)),
            rec_k("main/b", "b", Some(3), Some(&hx(202)), &hx(203), &at(0)),
            // c: a top older than the newest (a clock behind).
            rec_k("main/c", "c", Some(2), Some(&hx(301)), &hx(302), &at(20)),
            rec_k("main/c", "c", Some(3), Some(&hx(302)), &hx(303), &at(10)),
            // d: two on top, now older than e of the same key... then newer.
            rec_k(
                "main/shared",
                "d",
                Some(2),
                Some(&hx(401)),
                &hx(402),
                &at(1),
            ),
            rec_k(
                "main/shared",
                "d",
                Some(3),
                Some(&hx(402)),
                &hx(403),
                &at(1),
            ),
            // f: two on top of the newest, beside the head left behind.
            rec_k("main/f", "f", Some(4), Some(&hx(603)), &hx(604), &at(3)),
            rec_k("main/f", "f", Some(5), Some(&hx(604)), &hx(605), &at(4)),
        ],
    );
    check("chains");
    // Each of a, b, c, d and f took its line on top (what this test attacks); a record
    // that falls back would answer the same and leave the path untried.
    assert_eq!(
        events.count("notes-index-on-top"),
        5,
        "the chains taken on top"
    );
    // A chain split over two notes, the second note's line before the first in order.
    append(
        &env,
        &repo,
        &c[3],
        &[rec_k(
            "main/b",
            "b",
            Some(5),
            Some(&hx(204)),
            &hx(205),
            &at(0),
        )],
    );
    append(
        &env,
        &repo,
        &c[2],
        &[rec_k(
            "main/b",
            "b",
            Some(4),
            Some(&hx(203)),
            &hx(204),
            &at(0),
        )],
    );
    check("split");
    // A record before ids under the key e's chain moves to, that does not read whole.
    append(
        &env,
        &repo,
        &c[0],
        &[
            crate::notes_index::legacy("main/other", &at(50), "L1").replace(
                "\"worktree\":\"/gone\"",
                "\"worktree\":\"/gone\",\"worktree\":\"/gone\"",
            ),
        ],
    );
    check("legacy that does not read");
    // A chain whose top takes another key.
    append(
        &env,
        &repo,
        &c[2],
        &[
            rec_k(
                "main/shared",
                "e",
                Some(2),
                Some(&hx(501)),
                &hx(502),
                &at(5),
            ),
            rec_k("main/other", "e", Some(3), Some(&hx(502)), &hx(503), &at(5)),
        ],
    );
    check("moved key");
}

/// `log -n N` whose last shown record's previous one is read back, every record of
/// the session at one instant, over several notes, with another session's at it too.
#[test]
fn reading_back_over_equal_times_answers_as_the_store() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 6);
    let t = "2026-11-30T10:00:00Z";
    for seq in 1..=12u64 {
        let parent = (seq > 1).then(|| hx(seq - 1));
        let i = usize::try_from((seq * 7) % 5).unwrap();
        let mut lines = vec![rec_k(
            "main/s1",
            "s1",
            Some(seq),
            parent.as_deref(),
            &hx(seq),
            t,
        )];
        if seq % 4 == 0 {
            lines.push(rec_k(
                "main/s0",
                "s0",
                Some(seq / 4),
                (seq > 4).then(|| hx(900 + seq / 4 - 1)).as_deref(),
                &hx(900 + seq / 4),
                t,
            ));
        }
        append(&env, &repo, &c[i], &lines);
    }
    let ev = env.event_log("eq");
    let _ = env.handover_with(&repo, &["log", "-n", "8"], |c| {
        c.env("GIT_HANDOVER_TEST_LOG", ev.path());
    });
    let _ = env.handover_with(&repo, &["log", "-n", "8"], |c| {
        c.env("GIT_HANDOVER_TEST_LOG", ev.path());
    });
    eprintln!(
        "eq: shown {} kept {} read {} note {}",
        ev.count("log-before-shown"),
        ev.count("log-before-kept"),
        ev.count("log-before-read"),
        ev.count("log-before-note")
    );
    for n in ["1", "3", "4", "6", "8", "10", "13", "20"] {
        both(&env, &repo, &["log", "-n", n], "equal times");
        both(&env, &repo, &["log", "-n", n], "equal times, again");
        both(&env, &repo, &["log", "main/s1", "-n", n], "equal times");
    }
}

/// A chain appended while the session's older note is rewritten, a continue-here of
/// the session appended, and the newest written twice (one state on two notes).
#[test]
fn a_chain_beside_a_rewritten_note_and_a_continue_here_record_answers_as_the_store() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 4);
    let at = |m: u32| format!("2026-11-30T10:{m:02}:00Z");
    append(
        &env,
        &repo,
        &c[0],
        &[
            rec_k("main/a", "a", Some(1), None, &hx(101), &at(0)),
            rec_k("main/b", "b", Some(1), None, &hx(201), &at(0)),
            rec_k("main/x", "x", Some(1), None, &hx(301), &at(0)),
        ],
    );
    append(
        &env,
        &repo,
        &c[1],
        &[
            rec_k("main/a", "a", Some(2), Some(&hx(101)), &hx(102), &at(1)),
            rec_k("main/b", "b", Some(2), Some(&hx(201)), &hx(202), &at(1)),
        ],
    );
    // b's newest written again, on another note.
    append(
        &env,
        &repo,
        &c[2],
        &[rec_k(
            "main/b",
            "b",
            Some(2),
            Some(&hx(201)),
            &hx(202),
            &at(1),
        )],
    );
    let check = |why: &str| {
        same(&env, &repo, why);
        for args in [
            &["log", "-n", "3"][..],
            &["log", "-n", "6"],
            &["log", "main/a"],
            &["log", "main/b"],
            &["--json", "continue", "--full", "main/a"],
            &["--json", "continue", "--full", "main/b"],
        ] {
            both(&env, &repo, args, why);
        }
    };
    check("built");
    let here = serde_json::json!({"key": "main/a", "session_id": "a", "saved_at": at(5), "kind": "continue-here",
        "worktree": "/gone", "branch": "main", "text": "go on", "seq": 9, "parent": hx(102),
        "state": {"session_hash": hx(777)}}).to_string();
    append(
        &env,
        &repo,
        &c[3],
        &[
            rec_k("main/a", "a", Some(3), Some(&hx(102)), &hx(103), &at(2)),
            here,
            rec_k("main/a", "a", Some(4), Some(&hx(103)), &hx(104), &at(3)),
            rec_k("main/b", "b", Some(3), Some(&hx(202)), &hx(203), &at(2)),
            rec_k("main/b", "b", Some(4), Some(&hx(203)), &hx(204), &at(3)),
        ],
    );
    // x's note rewritten (not appended) in the same update: the line moved first.
    let old = env.git(&repo, &["notes", "--ref=handover", "show", &c[0]]);
    let mut lines: Vec<&str> = old.lines().collect();
    lines.reverse();
    let new = lines.join("\n") + "\n";
    env.git(
        &repo,
        &["notes", "--ref=handover", "add", "-f", "-m", &new, &c[0]],
    );
    check("chains and a rewrite");
}

/// A continue-here record whose head does not read (its `state` is no object, which the
/// whole read of a continue-here ignores), alone on its note.
#[test]
fn a_continue_here_record_whose_state_is_no_object_is_shown_by_log() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 3);
    append(
        &env,
        &repo,
        &c[0],
        &[record("s1", 1, None, &hx(1), "2026-11-30T10:00:00Z")],
    );
    both(&env, &repo, &["log", "-n", "1"], "built");
    let here = serde_json::json!({"key": "main/s1", "session_id": "s1", "saved_at": "2026-11-30T11:00:00Z",
        "kind": "continue-here", "worktree": "/gone", "branch": "main", "text": "go on", "state": 5}).to_string();
    append(&env, &repo, &c[1], &[here]);
    let mut bad = Vec::new();
    for args in [
        &["log", "-n", "1"][..],
        &["log", "-n", "2"],
        &["log", "main/s1"],
        &["--json", "status"],
        &["log"],
    ] {
        if run(&env, &repo, args, true) != run(&env, &repo, args, false) {
            bad.push(format!("{args:?}"));
        }
    }
    assert!(bad.is_empty(), "differ: {bad:?}");
}

/// Random stores (forks, equal times, clocks behind), the index built halfway and
/// brought up to date: `status`, `log -n N`, `log KEY` as the store read whole.
#[test]
fn random_stores_answer_as_the_store() {
    let seeds: u64 = std::env::var("RS_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    for seed in 0..seeds {
        let env = TestEnv::new();
        let (repo, c) = repo_with(&env, 5);
        let mut rng = crate::common::Lcg(seed);
        let mut next = |m: u64| rng.next() % m;
        let mut states: Vec<Vec<(u64, u64)>> = vec![Vec::new(); 3]; // (seq, hash)
        let mut lines: Vec<(usize, String)> = Vec::new();
        let mut h = 1000u64;
        for _ in 0..30 {
            let s = usize::try_from(next(3)).unwrap();
            let sid = format!("s{s}");
            let (seq, parent) = match states[s].len() {
                0 => (1, None),
                n => {
                    let back = if next(5) == 0 {
                        usize::try_from(next(n as u64)).unwrap()
                    } else {
                        n - 1
                    };
                    let (ps, ph) = states[s][back];
                    (ps + 1, Some(hx(ph)))
                }
            };
            h += 1;
            states[s].push((seq, h));
            let at = format!("2026-11-30T10:{:02}:00Z", next(12));
            let key = if next(6) == 0 {
                "main/shared".to_owned()
            } else {
                format!("main/{sid}")
            };
            let mut line = rec_k(&key, &sid, Some(seq), parent.as_deref(), &hx(h), &at);
            match next(20) {
                0 | 1 => line = crate::notes_index::legacy(&key, &at, &format!("L{h}")),
                2 => {
                    line = serde_json::json!({"key": key, "session_id": sid, "saved_at": at, "kind": "continue-here",
                        "worktree": "/gone", "branch": "main", "text": "go on"}).to_string();
                }
                3 => {
                    line = line.replace(
                        "\"worktree\":\"/gone\"",
                        "\"worktree\":\"/gone\",\"worktree\":\"/gone\"",
                    );
                }
                _ => {}
            }
            lines.push((usize::try_from(next(5)).unwrap(), line));
        }
        let check = |why: &str| {
            let mut bad = Vec::new();
            for args in [
                &["--json", "status"][..],
                &["log", "-n", "1"],
                &["log", "-n", "3"],
                &["log", "-n", "5"],
                &["log", "-n", "9"],
                &["log", "-n", "40"],
                &["log", "main/s0"],
                &["log", "main/shared", "-n", "2"],
                &["log", "main/s1", "-n", "3"],
                &["--json", "continue", "--full", "main/shared"],
            ] {
                let strip = |t: String| {
                    t.lines()
                        .filter(|l| !l.contains("is given more than once"))
                        .collect::<Vec<_>>()
                        .join("\n")
                };
                let (a, b) = (
                    strip(run(&env, &repo, args, true)),
                    strip(run(&env, &repo, args, false)),
                );
                if a != b {
                    bad.push(format!("{args:?}\nindex: {a}\nwhole: {b}"));
                }
            }
            assert!(bad.is_empty(), "seed {seed} {why}: {}", bad.join("\n"));
        };
        for (i, (n, l)) in lines.iter().enumerate() {
            append(&env, &repo, &c[*n], std::slice::from_ref(l));
            if i == 10 || i == 14 || i == 18 || i == 22 || i == 26 {
                check(&format!("after {i}"));
            }
        }
        check("end");
    }
}
