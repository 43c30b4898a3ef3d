//! `log -n N` and plain `log` from the notes index against the store read whole on
//! stores made at random (issue 36): sessions with and without ids sharing keys, times
//! that tie or go back, two writes from one state, continue-here records, records that
//! do not read whole, notes rewritten, and writes taken on top of their session's newest.

use std::path::Path;

use crate::common::{Lcg, TestEnv};
use crate::notes_index::{append, repo_with};
use crate::notes_log_before::{at, hash, here, log, rec};

/// The states written of each session at each seq: (session, seq) -> hashes.
type Written = std::collections::BTreeMap<(usize, u64), Vec<String>>;

/// One random record of sessions a, b (key `main/b`) and c (key `main/a`, a's): a
/// continue-here, a record without an id, or a session write — now and then a second
/// write from the same state (two sides), or one whose head reads and whole does not.
/// A write's parent is one of the states written at the seq below (so that sides of
/// one seq may have different parents), now and then one never written.
fn random_line(rng: &mut Lcg, seqs: &mut [u64; 3], done: &mut Written) -> String {
    let who = rng.below(3);
    let id = ["a", "b", "c"][who];
    let key = format!("main/{}", ["a", "b", "a"][who]);
    let minute = u32::try_from(rng.below(20)).unwrap() * 5;
    match rng.below(8) {
        0 => here(&key, (rng.below(2) == 0).then_some(id), &at(minute)),
        1 => rec(&key, None, (0, None, ""), &at(minute), ("READY", &[])),
        kind => {
            if kind != 2 || seqs[who] == 0 {
                seqs[who] += 1;
            }
            let seq = seqs[who];
            let below = done.get(&(who, seq - 1)).filter(|_| rng.below(4) != 0);
            let parent = match below {
                Some(hs) => Some(hs[rng.below(hs.len())].clone()),
                None => (seq > 1).then(|| hash(id, seq - 1)),
            };
            let status = ["in_progress", "done"][usize::from(kind % 2 == 0)];
            let tasks = [("T1", status), ("T2", "pending")];
            let written = format!("{}{kind}", &hash(id, seq)[1..]);
            done.entry((who, seq)).or_default().push(written.clone());
            let session = ["READY", "ALL_COMPLETE"][usize::from(kind == 7)];
            let r = rec(
                &key,
                Some(id),
                (seq, parent.as_deref(), &written),
                &at(minute),
                (session, &tasks[..]),
            );
            if kind == 3 && rng.below(2) == 0 {
                r.replace("\"branch\":\"main\"", "\"branch\":[]")
            } else {
                r
            }
        }
    }
}

/// Stores made at random — sessions with and without ids sharing keys, times that tie,
/// two writes from one state, continue-here records, records that do not read whole,
/// written over several notes in several steps, a note now and then rewritten without
/// its first line (the index updated between) — answer every `log -n N` as the store
/// read whole. (It found `log -n` passing over a record
/// newer than the nth once a note had brought the listing to n.)
#[test]
fn random_stores_answer_every_n_as_the_store_read_whole() {
    for seed in [1_u64, 7, 36, 99, 2026, 4242, 5, 11, 13] {
        let env = TestEnv::new();
        let (repo, c) = repo_with(&env, 3);
        let mut rng = Lcg(seed);
        let mut seqs = [0_u64; 3];
        let mut states = Written::new();
        let mut written = 0;
        for step in 0..3 {
            for _ in 0..6 {
                let line = random_line(&mut rng, &mut seqs, &mut states);
                let note = rng.below(3);
                append(&env, &repo, &c[note], &[line]);
            }
            written += 6;
            // Now and then a note rewritten without its first line (an update that is
            // no append: its groups worked out again from their notes).
            if rng.below(2) == 0 {
                let note = &c[rng.below(3)];
                let listed = env.git(&repo, &["notes", "--ref=handover", "list"]);
                let show = ["notes", "--ref=handover", "show", note.as_str()];
                // A note removed before (and not written since) is not there.
                let text = if listed.contains(note.as_str()) {
                    env.git(&repo, &show)
                } else {
                    String::new()
                };
                let rest: Vec<&str> = text.lines().skip(1).collect();
                if rest.is_empty() {
                    if !text.is_empty() {
                        env.git(&repo, &["notes", "--ref=handover", "remove", note]);
                    }
                } else {
                    let body = rest.join("\n");
                    let add = ["notes", "--ref=handover", "add", "-f", "-m", &body, note];
                    env.git(&repo, &add);
                }
            }
            for n in (1..=written + 1).step_by(2 + step) {
                same_but_what_is_named(&env, &repo, n, &format!("seed {seed} step {step}"));
            }
            // Plain `log`, streamed through the index.
            let plain = |index: bool| {
                let run = env.handover_with(&repo, &["log"], |c| {
                    if !index {
                        c.env("GIT_HANDOVER_TEST_NO_INDEX", "1");
                    }
                });
                (run.code, run.stdout)
            };
            assert_eq!(plain(true), plain(false), "seed {seed} step {step}: log");
        }
    }
}

/// `log -n N` (and `--json`) from the index equals the store read whole but for the
/// lines named unreadable: the index names those it knows (the store read whole names
/// every one), so the ones it names are among the store's.
#[track_caller]
fn same_but_what_is_named(env: &TestEnv, repo: &Path, n: usize, why: &str) {
    let n = n.to_string();
    let run = |args: &[&str], index: bool| {
        let mut all = vec!["log", "-n", &n];
        all.extend_from_slice(args);
        let run = env.handover_with(repo, &all, |c| {
            if !index {
                c.env("GIT_HANDOVER_TEST_NO_INDEX", "1");
            }
        });
        assert_eq!(run.code, 0, "{why}: {}", run.stderr);
        run.stdout
    };
    let json = |index| {
        let mut v: serde_json::Value = serde_json::from_str(&run(&["--json"], index)).unwrap();
        let named = v.as_object_mut().unwrap().remove("skipped").unwrap();
        (v, named)
    };
    let (truth, all) = json(false);
    let (got, named) = json(true);
    assert_eq!(got, truth, "{why}: -n {n}");
    for line in named.as_array().unwrap() {
        assert!(all.as_array().unwrap().contains(line), "{why}: {line}");
    }
    // What changed since each one's previous record: in the human text only.
    assert_eq!(run(&[], true), run(&[], false), "{why}: -n {n}");
    for key in ["main/a", "main/b"] {
        assert_eq!(run(&[key], true), run(&[key], false), "{why}: -n {n} {key}");
    }
}

/// Stores made at random one record at a time, the index updated after each, so that
/// the records written on top of their session's newest are taken on top (the random
/// stores above never are: their parents name no written state): times that tie or go
/// back, now and then a write from an older state (two sides), later writes on that
/// side (so that sides of one seq have different parents: each is told against its own
/// side's record, not the other's, SPEC section 8) or a record without an id under the
/// key; every `log -n N` and plain `log` (streamed) compared with the store read whole.
#[test]
fn random_writes_taken_on_top_answer_as_the_store_read_whole() {
    let seeds: Vec<u64> = std::env::var("ON_TOP_SEEDS").ok().map_or_else(
        || vec![3, 8, 21],
        |s| s.split(',').map(|n| n.parse().unwrap()).collect(),
    );
    for seed in seeds {
        let env = TestEnv::new();
        let (repo, c) = repo_with(&env, 2);
        let mut rng = Lcg(seed);
        let mut last: [Vec<String>; 3] = [vec![], vec![], vec![]];
        // Each session's other side, once one was written: its seq and state's hash.
        let mut side: [Option<(u64, String)>; 3] = [None, None, None];
        let events = env.event_log("on top");
        let steps: u64 = std::env::var("ON_TOP_STEPS").map_or(14, |s| s.parse().unwrap());
        for step in 0..steps {
            let who = rng.below(3);
            let id = ["a", "b", "c"][who];
            let key = format!("main/{}", ["a", "b", "a"][who]);
            let minute = u32::try_from(rng.below(12)).unwrap() * 5;
            let roll = rng.below(12);
            let line = if roll == 11 {
                here(&key, (rng.below(2) == 0).then_some(id), &at(minute))
            } else if roll == 10 {
                rec(
                    &key,
                    Some(id),
                    (99, None, &format!("{:064x}", step + 7)),
                    &at(minute),
                    ("READY", &[]),
                )
                .replace("\"branch\":\"main\"", "\"branch\":[]")
            } else if roll < 2 {
                rec(
                    &key,
                    None,
                    (0, None, ""),
                    &at(minute),
                    ("READY", &[("L", "x")]),
                )
            } else {
                let back = usize::from(rng.below(5) == 0 && last[who].len() > 1);
                let on_side = back == 0 && side[who].is_some() && rng.below(2) == 0;
                let mut seq = u64::try_from(last[who].len() + 1 - back).unwrap();
                let mut parent = last[who]
                    .len()
                    .checked_sub(1 + back)
                    .map(|i| last[who][i].clone());
                let written = format!(
                    "{:064x}",
                    seed * 1_000_000 + step * 10 + u64::try_from(who).unwrap()
                );
                if on_side && let Some((s, h)) = side[who].as_mut() {
                    // The other clone goes on from its side.
                    (seq, parent) = (*s + 1, Some(h.clone()));
                    (*s, *h) = (seq, written.clone());
                } else if back == 1 {
                    side[who] = Some((seq, written.clone()));
                }
                let t = ["pending", "in_progress", "done"][rng.below(3)];
                let r = rec(
                    &key,
                    Some(id),
                    (seq, parent.as_deref(), &written),
                    &at(minute),
                    ("READY", &[("T1", t)]),
                );
                if back == 0 && !on_side {
                    last[who].push(written);
                }
                r
            };
            let note = rng.below(2);
            append(&env, &repo, &c[note], &[line]);
            let _ = log(&env, &repo, &["-n", "1"], Some(&events));
            // Plain `log`, streamed through the index, and `log KEY`.
            for args in [&[][..], &["main/a"]] {
                let truth = log(&env, &repo, args, None);
                let got = log(&env, &repo, args, Some(&events));
                assert_eq!(got, truth, "seed {seed} step {step}: log {args:?}");
            }
            for n in [1, 2, 3, 5] {
                if std::env::var("ON_TOP_NO_KEYS").is_ok() {
                    let n = n.to_string();
                    for args in [&["-n", &n][..], &["-n", &n, "main/b"]] {
                        let truth = log(&env, &repo, args, None);
                        let got = log(&env, &repo, args, Some(&events));
                        let drop_close = |s: &str| -> String {
                            s.lines()
                                .filter(|l| !l.starts_with("close keys"))
                                .collect::<Vec<_>>()
                                .join("\n")
                        };
                        let (truth, got) = (drop_close(&truth), drop_close(&got));
                        if got != truth {
                            // Named lines may differ; the records and changes may not.
                            let strip = |s: &str| -> String {
                                s.lines()
                                    .filter(|l| !l.contains("line ") && !l.contains("passed over"))
                                    .collect::<Vec<_>>()
                                    .join("\n")
                            };
                            assert_eq!(
                                strip(&got),
                                strip(&truth),
                                "seed {seed} step {step}: {args:?}"
                            );
                        }
                    }
                    continue;
                }
                same_but_what_is_named(&env, &repo, n, &format!("seed {seed} step {step}"));
            }
        }
        eprintln!(
            "seed {seed}: on top {}, built {}, kept {}, shown {}, read {}",
            events.count("notes-index-on-top"),
            events.count("notes-index-built"),
            events.count("log-before-kept"),
            events.count("log-before-shown"),
            events.count("log-before-read")
        );
    }
}
