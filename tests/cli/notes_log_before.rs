//! `log -n N`'s "changes since the previous record of its session" from what the notes
//! index keeps of each group's newest records (issue 36: not a note read per record
//! shown): the same answer as the store read whole (`GIT_HANDOVER_TEST_NO_INDEX`,
//! `history_read`) for long sessions, two records of one session shown, a diverged
//! session, records without an id under an id'd session's key, continue-here records,
//! a record whose head reads and whole does not, a forged or half-written members
//! part, one record appended, and a sync that brings a session never seen.

use std::path::Path;

use serde_json::json;

use crate::common::{EventLog, TestEnv};
use crate::notes_index::{MEMBERS, append, repo_with};
use crate::notes_store::{NOTES, enable_store};

/// A session record of `key` (session `id`, when given) with its `status` and tasks.
fn rec(
    key: &str,
    id: Option<&str>,
    (seq, parent, hash): (u64, Option<&str>, &str),
    at: &str,
    (status, tasks): (&str, &[(&str, &str)]),
) -> String {
    let tasks: Vec<_> = (tasks.iter())
        .map(|(t, s)| json!({"id": t, "description": "work", "status": s}))
        .collect();
    let mut r = json!({"key": key, "worktree": "/gone", "branch": "main", "saved_at": at,
        "kind": "session", "state": {"version": 3, "status": status, "active_tasks": tasks,
        "session_hash": hash}});
    if let Some(id) = id {
        r["session_id"] = json!(id);
        r["seq"] = json!(seq);
        r["parent"] = json!(parent);
        r["state"]["session_id"] = json!(id);
    }
    r.to_string()
}

/// A continue-here record of `key`.
fn here(key: &str, id: Option<&str>, at: &str) -> String {
    let mut r = json!({"key": key, "worktree": "/gone", "branch": "main", "saved_at": at,
        "kind": "continue-here", "text": "pick up here"});
    if let Some(id) = id {
        r["session_id"] = json!(id);
    }
    r.to_string()
}

fn log(env: &TestEnv, repo: &Path, args: &[&str], index: Option<&EventLog>) -> String {
    let mut all = vec!["log"];
    all.extend_from_slice(args);
    let run = env.handover_with(repo, &all, |c| match index {
        Some(events) => drop(c.env("GIT_HANDOVER_TEST_LOG", events.path())),
        None => drop(c.env("GIT_HANDOVER_TEST_NO_INDEX", "1")),
    });
    format!("{}\n{}\n{}", run.code, run.stdout, run.stderr)
}

/// `log -n N` (and `--json`) from the index equals the store read whole for each N;
/// how many shown records' previous ones the index told, and how many were read.
#[track_caller]
fn same(env: &TestEnv, repo: &Path, ns: &[usize], why: &str) -> (usize, usize) {
    let events = env.event_log(&format!("log-{}", why.replace(' ', "-")));
    for n in ns {
        let n = n.to_string();
        for args in [&["-n", &n][..], &["-n", &n, "--json"]] {
            let truth = log(env, repo, args, None);
            assert_eq!(
                log(env, repo, args, Some(&events)),
                truth,
                "{why}: {args:?}"
            );
        }
    }
    // Told without reading: by the kept records, or by the shown records after it.
    (
        events.count("log-before-kept") + events.count("log-before-shown"),
        events.count("log-before-read"),
    )
}

fn at(minute: u32) -> String {
    format!("2026-11-30T{:02}:{:02}:00Z", 10 + minute / 60, minute % 60)
}

/// The `session_hash` of session `id`'s write `seq` (64 hex digits, as the tool's).
fn hash(id: &str, seq: u64) -> String {
    let n = id.bytes().fold(0u64, |h, b| h * 131 + u64::from(b));
    format!("{:064x}", u128::from(n) << 32 | u128::from(seq))
}

/// Session `id` (key `main/<id>`) written `writes` times from minute `from` every
/// `step` minutes, its tasks moving and its status finished at the end.
fn session(id: &str, writes: u64, from: u32, step: u32) -> Vec<String> {
    let key = format!("main/{id}");
    (1..=writes)
        .map(|seq| {
            let written = hash(id, seq);
            let parent = (seq > 1).then(|| hash(id, seq - 1));
            let status = if seq == writes {
                "ALL_COMPLETE"
            } else {
                "READY"
            };
            let t1 = if seq > 2 { "done" } else { "in_progress" };
            let t2 = format!("T{}", 2 + seq % 3);
            let tasks = [("T1", t1), (t2.as_str(), "pending")];
            let minute = from + step * u32::try_from(seq).unwrap();
            rec(
                &key,
                Some(id),
                (seq, parent.as_deref(), &written),
                &at(minute),
                (status, &tasks),
            )
        })
        .collect()
}

#[test]
fn long_sessions_and_two_records_of_one_shown_are_told_by_the_index() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 4);
    // s1's records spread over notes, s2's between them in time; s1's last two newest.
    let s1 = session("s1", 8, 0, 10);
    let s2 = session("s2", 4, 5, 12);
    for (i, line) in s1.iter().chain(&s2).enumerate() {
        append(&env, &repo, &c[i % 4], std::slice::from_ref(line));
    }
    let (told, read) = same(&env, &repo, &[1, 2], "two shown");
    assert_eq!(read, 0, "every previous one was kept ({told} told)");
    assert_eq!(told, 6);
    // Further back than the kept records: read from the notes, the same answer.
    let (_, read) = same(&env, &repo, &[3, 6, 12, 50], "further back");
    assert!(read > 0);
}

#[test]
fn a_diverged_session_and_records_without_an_id_under_its_key() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 3);
    let ready = ("READY", &[("L1", "in_progress")][..]);
    let done = ("READY", &[("L1", "done"), ("L2", "pending")][..]);
    // Records written before ids under s1's key, one of them after its first id'd one.
    append(
        &env,
        &repo,
        &c[0],
        &[
            rec("main/s1", None, (0, None, ""), &at(0), ready),
            rec("main/s1", None, (0, None, ""), &at(15), done),
        ],
    );
    let one = ("READY", &[("T1", "pending")][..]);
    let two = ("READY", &[("T1", "in_progress")][..]);
    append(
        &env,
        &repo,
        &c[1],
        &[
            rec("main/s1", Some("s1"), (1, None, "a1"), &at(10), one),
            // Two writes from one state: the sides.
            rec("main/s1", Some("s1"), (2, Some("a1"), "a2x"), &at(20), two),
        ],
    );
    append(
        &env,
        &repo,
        &c[2],
        &[
            rec("main/s1", Some("s1"), (2, Some("a1"), "a2y"), &at(25), done),
            rec("main/s1", None, (0, None, ""), &at(30), ready),
        ],
    );
    let (told, _) = same(&env, &repo, &[1, 2, 3, 4, 6], "diverged and id-less");
    assert!(told > 0);
}

/// Two clones went on from one state (seq 2 on each), then each wrote again (seq 3 on
/// each, different parents), the writes interleaved in time. Each write is told against
/// the record it replaced, its own side's: no side removed a task the other added,
/// alike from the index (`log -n`, plain `log` streamed, `log KEY`) and the store read
/// whole. A write whose parent has no record and two states sit at the seq below it
/// tells no change at all.
#[test]
fn each_side_is_told_against_its_own_side_never_the_other() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 2);
    let w = |seq, parent, hash, minute, tasks| {
        rec(
            "main/s1",
            Some("s1"),
            (seq, parent, hash),
            &at(minute),
            ("READY", tasks),
        )
    };
    append(
        &env,
        &repo,
        &c[0],
        &[w(1, None, "h1", 0, &[("T1", "pending")][..])],
    );
    let a = [("T1", "pending"), ("TA", "pending")];
    let b = [("T1", "pending"), ("TB", "pending")];
    let a3 = [("T1", "done"), ("TA", "pending")];
    let b3 = [("T1", "in_progress"), ("TB", "pending")];
    append(
        &env,
        &repo,
        &c[0],
        &[
            w(2, Some("h1"), "h2a", 10, &a),
            w(3, Some("h2a"), "h3a", 30, &a3),
        ],
    );
    append(
        &env,
        &repo,
        &c[1],
        &[
            w(2, Some("h1"), "h2b", 20, &b),
            w(3, Some("h2b"), "h3b", 40, &b3),
        ],
    );
    // A write whose parent has no record, with two states at seq 3 below it.
    append(&env, &repo, &c[1], &[w(4, Some("hx"), "h4", 50, &b3)]);
    let _ = same(&env, &repo, &[1, 2, 3, 4, 5, 6], "sides of sides");
    for args in [&[][..], &["main/s1"], &["-n", "6"]] {
        let shown = log(&env, &repo, args, Some(&env.event_log("sides")));
        assert_eq!(shown, log(&env, &repo, args, None), "{args:?}");
        assert!(
            !shown.contains("- [TA]") && !shown.contains("- [TB]"),
            "{args:?}: {shown}"
        );
        for told in [
            "+ [TA]",
            "+ [TB]",
            "[T1] pending → done",
            "[T1] pending → in_progress",
        ] {
            assert!(shown.contains(told), "{args:?} {told}: {shown}");
        }
        // The newest (seq 4) tells nothing: its block holds no change line.
        let newest = shown.split("\n20").next().unwrap_or_default();
        assert!(!newest.contains("      "), "{args:?}: {shown}");
    }
}

#[test]
fn continue_here_records_and_a_record_that_does_not_read_whole() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 2);
    let mut lines = session("s1", 4, 0, 10);
    // Write 3's head reads, its whole does not (a worktree that is no string): it holds
    // no state for log, which passes over it to write 2 and names it.
    lines[2] = lines[2].replace("\"worktree\":\"/gone\"", "\"worktree\":5");
    lines.insert(3, here("main/s1", Some("s1"), &at(35)));
    lines.push(here("main/s1", None, &at(50)));
    append(&env, &repo, &c[0], &lines[..3]);
    append(&env, &repo, &c[1], &lines[3..]);
    // (Not -n 1: the continue-here record's previous one is write 4, nothing is passed
    // over, and the index names only the lines it knows: not write 3, which the store
    // read whole names.)
    let (told, read) = same(&env, &repo, &[2, 3, 4], "continue-here");
    assert!(told > 0 && read == 0, "{told} told, {read} read");
    let out = log(&env, &repo, &["-n", "2"], None);
    assert!(out.contains("not a string"), "{out}");
}

#[test]
fn a_forged_or_half_written_members_part_is_not_believed() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 2);
    for (i, line) in session("s1", 5, 0, 10).iter().enumerate() {
        append(&env, &repo, &c[i % 2], std::slice::from_ref(line));
    }
    let truth = log(&env, &repo, &["-n", "2", "--json"], None);
    let events = env.event_log("forged");
    assert_eq!(
        log(&env, &repo, &["-n", "2", "--json"], Some(&events)),
        truth
    );
    let dir = repo.join(format!("{MEMBERS}.d"));
    let part = std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let good = std::fs::read(&part).unwrap();
    let mut forged = good.clone();
    let last = forged.len() - 3;
    forged[last] ^= 0x55;
    for bytes in [&forged[..], &good[..good.len() - 7], &[][..]] {
        std::fs::write(&part, bytes).unwrap();
        // Not believed (the index forgotten), then built again and believed.
        for _ in 0..2 {
            let out = log(&env, &repo, &["-n", "2", "--json"], Some(&events));
            assert_eq!(out, truth);
        }
    }
    assert_eq!(events.count("notes-index-built"), 4);
    assert_eq!(events.count("log-before-read"), 0);
}

#[test]
fn one_record_appended_is_kept_on_top_and_told() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 2);
    let lines = session("s1", 6, 0, 10);
    for (i, line) in lines[..5].iter().enumerate() {
        append(&env, &repo, &c[i % 2], std::slice::from_ref(line));
    }
    let (_, read) = same(&env, &repo, &[1, 2], "before the append");
    assert_eq!(read, 0);
    let events = env.event_log("appended");
    append(&env, &repo, &c[0], &lines[5..]);
    let truth = log(&env, &repo, &["-n", "2", "--json"], None);
    assert_eq!(
        log(&env, &repo, &["-n", "2", "--json"], Some(&events)),
        truth
    );
    assert_eq!(events.count("notes-index-on-top"), 1, "taken on top");
    assert_eq!(events.count("log-before-read"), 0, "its previous ones kept");
    assert_eq!(
        events.count("log-before-kept") + events.count("log-before-shown"),
        2
    );
    let (_, read) = same(&env, &repo, &[1, 2], "after the append");
    assert_eq!(read, 0);
    let _ = same(&env, &repo, &[3, 4, 7], "after the append, further back");
    // A record without an id under s1's key, newer: its previous one is the record
    // taken on top (s1's group is not worked out again by this second update).
    let legacy = rec(
        "main/s1",
        None,
        (0, None, ""),
        &at(90),
        ("READY", &[("T1", "done")]),
    );
    append(&env, &repo, &c[1], &[legacy]);
    let (told, read) = same(&env, &repo, &[1, 2], "a legacy record on top");
    assert_eq!((told, read), (6, 0));
}

#[test]
fn a_sync_that_brings_a_session_never_seen_and_more_of_one_known() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 2);
    let s1 = session("s1", 6, 0, 10);
    append(&env, &repo, &c[0], &s1[..3]);
    let _ = same(&env, &repo, &[2], "built");
    let remote = env.root().join("remote.git");
    let remote = remote.to_str().unwrap();
    env.git(
        env.root(),
        &["clone", "-q", "--bare", repo.to_str().unwrap(), remote],
    );
    env.git(&repo, &["remote", "add", "origin", remote]);
    env.git(&repo, &["push", "-q", "origin", NOTES]);
    env.git(env.root(), &["clone", "-q", remote, "other"]);
    let other = env.root().join("other");
    enable_store(&env, &other);
    env.git(
        &other,
        &["fetch", "-q", "origin", &format!("{NOTES}:{NOTES}")],
    );
    // The other clone goes on with s1 and writes s9; both sides are told after the sync.
    append(&env, &other, &c[1], &s1[3..]);
    append(&env, &other, &c[0], &session("s9", 3, 2, 10));
    env.git(&other, &["push", "-q", "origin", NOTES]);
    let sync = env.handover(&repo, &["sync"]);
    assert_eq!(sync.code, 0, "{}", sync.snapshot());
    let (told, read) = same(&env, &repo, &[1, 2], "after the sync");
    assert!(told > 0 && read == 0, "{told} told, {read} read");
    let _ = same(&env, &repo, &[4, 5, 9], "after the sync, further back");
}

/// A small deterministic generator (no test depends on a crate's random numbers).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// The states written of each session at each seq: (session, seq) -> hashes.
type Written = std::collections::BTreeMap<(usize, u64), Vec<String>>;

/// One random record of sessions a, b (key `main/b`) and c (key `main/a`, a's): a
/// continue-here, a record without an id, or a session write — now and then a second
/// write from the same state (two sides), or one whose head reads and whole does not.
/// A write's parent is one of the states written at the seq below (so that sides of
/// one seq may have different parents), now and then one never written.
fn random_line(rng: &mut Lcg, seqs: &mut [u64; 3], done: &mut Written) -> String {
    let who = usize::try_from(rng.below(3)).unwrap();
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
                Some(hs) => Some(hs[usize::try_from(rng.below(hs.len() as u64)).unwrap()].clone()),
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
                let note = usize::try_from(rng.below(3)).unwrap();
                append(&env, &repo, &c[note], &[line]);
            }
            written += 6;
            // Now and then a note rewritten without its first line (an update that is
            // no append: its groups worked out again from their notes).
            if rng.below(2) == 0 {
                let note = &c[usize::try_from(rng.below(3)).unwrap()];
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

/// A record whose whole reads but whose head does not (its state names `session_hash`
/// twice: the head's reader refuses a field given twice, the state's parse keeps the
/// last) is no record of its session's group: the index neither keeps it nor reads it
/// as a previous record, so `log -n 1` tells the changes since the record before it.
#[test]
fn a_record_that_reads_whole_without_a_head_is_a_previous_record_too() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 1);
    let mut lines = session("s1", 3, 0, 10);
    let h2 = format!("\"session_hash\":\"{}\"", hash("s1", 2));
    assert!(lines[1].contains(&h2));
    lines[1] = lines[1].replace(&h2, &format!("{h2},{h2}"));
    append(&env, &repo, &c[0], &lines);
    let _ = same(&env, &repo, &[1, 3], "a record without a head");
}

/// A record with an empty `session_id`: its head reads it as none (its group is its
/// key's), its whole as `Some("")`, which the store read whole takes as one session
/// with every other record of an empty id, whatever its key.
#[test]
fn an_empty_session_id_is_read_alike_by_both() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 1);
    let empty = |key: &str, at: &str, tasks: &[(&str, &str)]| {
        rec(
            key,
            Some(""),
            (1, None, &hash(key, 1)),
            at,
            ("READY", tasks),
        )
    };
    append(
        &env,
        &repo,
        &c[0],
        &[
            empty("main/a", &at(0), &[("T1", "pending")]),
            empty("main/b", &at(10), &[("T1", "done")]),
        ],
    );
    let _ = same(&env, &repo, &[1], "empty ids");
}

/// A record whose time is past the last instant (read whole as the far future, its
/// head not read): the store read whole shows it first; the index, which knows no
/// head of its note, never reads that note for `log -n 1`.
#[test]
fn a_record_past_the_last_instant_is_shown_by_log_n() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 2);
    append(&env, &repo, &c[0], &session("s1", 2, 0, 10));
    let far = rec(
        "main/far",
        None,
        (0, None, ""),
        "9999-12-31T23:59:59Z",
        ("READY", &[("F1", "pending")]),
    );
    append(&env, &repo, &c[1], &[far]);
    let _ = same(&env, &repo, &[1, 2], "far future");
}

/// Records whose heads read and wholes do not, each naming a field given twice whose
/// name is 30 MiB: the kept records hold each one's why (the name) whole, with no
/// bound but the note's, so their members' part outgrows what a part may be read at
/// (64 MiB). The answer is still the store's (read whole), but the index is then
/// forgotten and built again by every `log -n` that looks in that group.
#[test]
fn kept_whys_do_not_make_every_log_build_the_index_again() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 4);
    let name = "x".repeat(30 << 20);
    for (i, commit) in c[..3].iter().enumerate() {
        let seq = u64::try_from(i).unwrap() + 1;
        let line = rec(
            "main/s1",
            Some("s1"),
            (seq, None, &hash("s1", seq)),
            &at(u32::try_from(i).unwrap()),
            ("READY", &[("T1", "pending")]),
        );
        let line = format!("{},\"{name}\":0,\"{name}\":0}}\n", &line[..line.len() - 1]);
        let file = env.root().join(format!("note{i}"));
        std::fs::write(&file, line).unwrap();
        let file = file.to_str().unwrap();
        env.git(
            &repo,
            &["notes", "--ref=handover", "add", "-F", file, commit],
        );
    }
    let newest = rec(
        "main/s1",
        Some("s1"),
        (4, Some(&hash("s1", 3)), &hash("s1", 4)),
        &at(30),
        ("READY", &[("T1", "done")]),
    );
    append(&env, &repo, &c[3], &[newest]);
    let truth = log(&env, &repo, &["-n", "1"], None);
    let events = env.event_log("big whys");
    for _ in 0..2 {
        assert_eq!(log(&env, &repo, &["-n", "1"], Some(&events)), truth);
    }
    assert_eq!(
        events.count("notes-index-built"),
        1,
        "built once, then used"
    );
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
            let who = usize::try_from(rng.below(3)).unwrap();
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
                let t = ["pending", "in_progress", "done"][usize::try_from(rng.below(3)).unwrap()];
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
            let note = usize::try_from(rng.below(2)).unwrap();
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

/// `log KEY` names the keys close to one that has no records: from the index, every
/// key its groups carry, a key whose only record does not read whole among them; the
/// store read whole names only the keys of records that read.
#[test]
fn close_keys_are_the_keys_of_records_that_read() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 1);
    let bad = rec(
        "main/b",
        Some("b"),
        (1, None, &hash("b", 1)),
        &at(0),
        ("READY", &[]),
    )
    .replace("\"branch\":\"main\"", "\"branch\":[]");
    append(&env, &repo, &c[0], &[bad]);
    let events = env.event_log("close keys");
    for args in [&["main/a"][..], &["main/a", "-n", "1"]] {
        assert_eq!(
            log(&env, &repo, args, Some(&events)),
            log(&env, &repo, args, None)
        );
    }
}

/// Both clones append to one note, and sync unites them (`cat_sort_uniq`: the lines
/// sorted, so every kept record's line moves): the index answers as the store.
#[test]
fn a_sync_uniting_one_note_written_on_both_sides() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 1);
    let s1 = session("s1", 6, 0, 10);
    append(&env, &repo, &c[0], &s1[..2]);
    let _ = same(&env, &repo, &[2], "built");
    let remote = env.root().join("remote.git");
    let remote = remote.to_str().unwrap();
    env.git(
        env.root(),
        &["clone", "-q", "--bare", repo.to_str().unwrap(), remote],
    );
    env.git(&repo, &["remote", "add", "origin", remote]);
    env.git(&repo, &["push", "-q", "origin", NOTES]);
    env.git(env.root(), &["clone", "-q", remote, "other"]);
    let other = env.root().join("other");
    enable_store(&env, &other);
    env.git(
        &other,
        &["fetch", "-q", "origin", &format!("{NOTES}:{NOTES}")],
    );
    append(&env, &other, &c[0], &s1[2..4]);
    append(&env, &other, &c[0], &session("s9", 3, 2, 10));
    env.git(&other, &["push", "-q", "origin", NOTES]);
    // Here: s1 goes on from write 2 on its own (two sides), after a legacy record.
    let side = rec(
        "main/s1",
        Some("s1"),
        (3, Some(&hash("s1", 2)), &"e".repeat(64)),
        &at(33),
        ("READY", &[("T1", "done")]),
    );
    append(
        &env,
        &repo,
        &c[0],
        &[
            rec("main/s1", None, (0, None, ""), &at(31), ("READY", &[])),
            side,
        ],
    );
    let _ = same(&env, &repo, &[1, 3], "before the sync");
    let sync = env.handover(&repo, &["sync"]);
    assert_eq!(sync.code, 0, "{}", sync.snapshot());
    let _ = same(&env, &repo, &[1, 2, 3, 4, 6, 9], "after the sync");
}

/// `log KEY` of a key whose one record is past the last instant (no head, reads
/// whole): the index knows no group of that key and says it has no records.
#[test]
fn log_key_shows_a_record_past_the_last_instant() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 1);
    let far = rec(
        "main/far",
        None,
        (0, None, ""),
        "9999-12-31T23:59:59Z",
        ("READY", &[("F1", "pending")]),
    );
    append(&env, &repo, &c[0], &[far]);
    let events = env.event_log("far key");
    for args in [&["main/far"][..], &["main/far", "-n", "1"]] {
        assert_eq!(
            log(&env, &repo, args, Some(&events)),
            log(&env, &repo, args, None),
            "{args:?}"
        );
    }
}

/// The newest record of the store, its head not read (its state names `session_hash`
/// twice), on a note whose other record is old: `log -n 1` from the index stops
/// before that note (its time is its headed records'), and shows an older record.
#[test]
fn log_n_shows_the_newest_record_whose_head_does_not_read() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 2);
    let mut s2 = session("s2", 2, 0, 15);
    let h2 = format!("\"session_hash\":\"{}\"", hash("s2", 2));
    s2[1] = s2[1].replace(&h2, &format!("{h2},{h2}"));
    append(&env, &repo, &c[1], &s2);
    append(&env, &repo, &c[0], &session("s1", 2, 0, 10));
    let _ = same(&env, &repo, &[1], "a newest record without a head");
}
