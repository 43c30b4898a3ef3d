//! `log -n N` and `log KEY` from the notes index against the store read whole where a
//! record does not read as a whole or as a head (issue 36): a state naming a field
//! twice, an empty `session_id`, a time past the last instant, kept whys larger than a
//! members part may be read at, the keys close to one without records.

use crate::common::TestEnv;
use crate::notes_index::{append, repo_with};
use crate::notes_log_before::{at, hash, log, rec, same, session};

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
