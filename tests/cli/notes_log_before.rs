//! `log -n N`'s "changes since the previous record of its session" from what the notes
//! index keeps of each group's newest records (issue 36: not a note read per record
//! shown): the same answer as the store read whole (`GIT_HANDOVER_TEST_NO_INDEX`,
//! `history_read`) for long sessions, two records of one session shown, a diverged
//! session, records without an id under an id'd session's key, continue-here records,
//! a forged or half-written members part, one record appended, a sync that brings a
//! session never seen and one that unites a note written on both sides. Stores made at
//! random: `notes_log_random.rs`; records whose head or whole does not read, or whose
//! time is past the last instant: `notes_log_unread.rs`.

use std::path::Path;

use serde_json::json;

use crate::common::{EventLog, TestEnv};
use crate::notes_index::{MEMBERS, append, repo_with};
use crate::notes_store::NOTES;

/// A session record of `key` (session `id`, when given) with its `status` and tasks.
pub(crate) fn rec(
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
pub(crate) fn here(key: &str, id: Option<&str>, at: &str) -> String {
    let mut r = json!({"key": key, "worktree": "/gone", "branch": "main", "saved_at": at,
        "kind": "continue-here", "text": "pick up here"});
    if let Some(id) = id {
        r["session_id"] = json!(id);
    }
    r.to_string()
}

pub(crate) fn log(env: &TestEnv, repo: &Path, args: &[&str], index: Option<&EventLog>) -> String {
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
pub(crate) fn same(env: &TestEnv, repo: &Path, ns: &[usize], why: &str) -> (usize, usize) {
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

pub(crate) fn at(minute: u32) -> String {
    format!("2026-11-30T{:02}:{:02}:00Z", 10 + minute / 60, minute % 60)
}

/// The `session_hash` of session `id`'s write `seq` (64 hex digits, as the tool's).
pub(crate) fn hash(id: &str, seq: u64) -> String {
    let n = id.bytes().fold(0u64, |h, b| h * 131 + u64::from(b));
    format!("{:064x}", u128::from(n) << 32 | u128::from(seq))
}

/// Session `id` (key `main/<id>`) written `writes` times from minute `from` every
/// `step` minutes, its tasks moving and its status finished at the end.
pub(crate) fn session(id: &str, writes: u64, from: u32, step: u32) -> Vec<String> {
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

/// `<root>/other`: a clone of `repo` through `<root>/remote.git` (`repo`'s `origin`),
/// holding `repo`'s notes store as pushed now.
fn other_clone(env: &TestEnv, repo: &Path) -> std::path::PathBuf {
    let remote = env.root().join("remote.git");
    let remote = remote.to_str().unwrap();
    env.git(
        env.root(),
        &["clone", "-q", "--bare", repo.to_str().unwrap(), remote],
    );
    env.git(repo, &["remote", "add", "origin", remote]);
    env.git(repo, &["push", "-q", "origin", NOTES]);
    let other = env.store_clone(Path::new(remote), "other");
    env.git(
        &other,
        &["fetch", "-q", "origin", &format!("{NOTES}:{NOTES}")],
    );
    other
}

#[test]
fn a_sync_that_brings_a_session_never_seen_and_more_of_one_known() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 2);
    let s1 = session("s1", 6, 0, 10);
    append(&env, &repo, &c[0], &s1[..3]);
    let _ = same(&env, &repo, &[2], "built");
    let other = other_clone(&env, &repo);
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

/// Both clones append to one note, and sync unites them (`cat_sort_uniq`: the lines
/// sorted, so every kept record's line moves): the index answers as the store.
#[test]
fn a_sync_uniting_one_note_written_on_both_sides() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 1);
    let s1 = session("s1", 6, 0, 10);
    append(&env, &repo, &c[0], &s1[..2]);
    let _ = same(&env, &repo, &[2], "built");
    let other = other_clone(&env, &repo);
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
