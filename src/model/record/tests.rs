//! Unit tests of the record layout and its order.

use super::*;

fn record(key: &str, at: &str) -> Record {
    Record {
        key: key.into(),
        session_id: None,
        seq: None,
        parent: None,
        set_aside: Vec::new(),
        worktree: Some("/w".into()),
        branch: Some("main".into()),
        saved_at: at.parse().unwrap(),
        kind: RecordKind::Session,
        state: Some(StateText::default()),
        text: None,
    }
}

#[test]
fn a_record_reads_back_from_its_line() {
    let r = record("main/20261130-120000", "2026-11-30T12:00:00Z");
    let line = r.to_line();
    assert!(!line.contains('\n'));
    assert!(line.starts_with(r#"{"key":"main/20261130-120000","worktree":"/w""#));
    assert_eq!(parse_record(line.as_bytes()), Ok(r));
}

#[test]
fn bad_lines_are_named_and_the_rest_is_read() {
    let good = record("a", "2026-11-30T12:00:00Z").to_line();
    let note = format!(
        "{good}\nnot json\n{{\"key\":\"../x\",\"saved_at\":\"2026-11-30T12:00:00Z\",\"kind\":\"session\",\"state\":{{}}}}\n\n{{\"key\":\"b\",\"saved_at\":\"yesterday\",\"kind\":\"session\",\"state\":{{}}}}\n{{\"key\":\"c\",\"saved_at\":\"2026-11-30T12:00:00Z\",\"kind\":\"session\",\"state\":[]}}\n"
    );
    let parsed = parse_note(note.as_bytes());
    assert_eq!(parsed.len(), 5);
    assert!(parsed[0].record.is_ok());
    assert_eq!(parsed[1].line, 2);
    assert!(parsed[2].record.as_ref().unwrap_err().contains("`key`"));
    assert_eq!(parsed[3].line, 5);
    assert!(parsed[3].record.as_ref().unwrap_err().contains("saved_at"));
    assert!(parsed[4].record.as_ref().unwrap_err().contains("`state`"));
}

#[test]
fn cat_sort_uniq_sorts_and_drops_duplicates_and_blank_lines() {
    assert_eq!(cat_sort_uniq(b"b\na\n\n", b"c\na"), b"a\nb\nc\n".to_vec());
    assert_eq!(cat_sort_uniq(b"", b""), Vec::<u8>::new());
}

#[test]
fn merge3_follows_git() {
    let (b, l, t) = ("b", "l", "t");
    assert_eq!(merge3(Some(&b), Some(&b), Some(&t)), Merged::Theirs(t));
    assert_eq!(merge3(Some(&b), Some(&l), Some(&b)), Merged::Local);
    assert_eq!(merge3(Some(&b), Some(&l), Some(&t)), Merged::Combine);
    assert_eq!(merge3(None, Some(&l), Some(&t)), Merged::Combine);
    assert_eq!(merge3(None, None, Some(&t)), Merged::Theirs(t));
    assert_eq!(merge3(Some(&t), None, Some(&t)), Merged::Local);
    assert_eq!(merge3(None, Some(&l), None), Merged::Local);
    assert_eq!(merge3(Some(&l), Some(&l), None), Merged::Remove);
    assert_eq!(merge3(Some(&b), Some(&l), None), Merged::Local);
    assert_eq!(merge3(None, Some(&l), Some(&l)), Merged::Local);
}

#[test]
fn newest_sessions_parse_only_what_wins_and_fall_back_past_a_bad_newest() {
    let old = record("a", "2026-11-30T10:00:00Z").to_line();
    let new = record("a", "2026-11-30T12:00:00Z").to_line();
    let b = record("b", "2026-11-30T11:00:00Z").to_line();
    let broken_newest =
        r#"{"key":"a","saved_at":"2026-11-30T13:00:00Z","kind":"session","state":[]}"#;
    let note1 = format!("{old}\n{b}\nnot json\n");
    let note2 = format!("{new}\n{broken_newest}\n");
    let (found, skipped) = newest_sessions(&[note1.as_bytes(), note2.as_bytes()]);
    assert_eq!(found.len(), 2);
    assert_eq!(
        (found[0].note, found[0].record.saved_at.to_string().as_str()),
        (1, "2026-11-30T12:00:00Z")
    );
    assert_eq!(found[1].record.key, "b");
    assert_eq!(skipped.len(), 2, "{skipped:?}");
    assert_eq!((skipped[0].0, skipped[0].1), (0, 3));
    assert_eq!((skipped[1].0, skipped[1].1), (1, 2));
}

#[test]
fn append_line_keeps_one_record_per_line() {
    assert_eq!(append_line(b"".to_vec(), "x"), b"x\n");
    assert_eq!(append_line(b"a".to_vec(), "x"), b"a\nx\n");
    assert_eq!(append_line(b"a\n".to_vec(), "x"), b"a\nx\n");
}

/// A record of session `id` at `seq`, from `parent`, holding a state hashed `hash`.
fn write(id: &str, seq: u64, parent: Option<&str>, hash: &str) -> String {
    let mut state = Map::new();
    state.insert("session_hash".into(), Value::from(hash));
    Record {
        session_id: Some(id.into()),
        seq: Some(seq),
        parent: parent.map(str::to_owned),
        state: Some(StateText::of(&state)),
        ..record("main/1", "2026-11-30T12:00:00Z")
    }
    .to_line()
}

fn newest_of(note: &str) -> Newest {
    let (found, skipped) = newest_sessions(&[note.as_bytes()]);
    assert!(skipped.is_empty(), "{skipped:?}");
    assert_eq!(found.len(), 1);
    found.into_iter().next().unwrap()
}

fn hash_of(r: &Record) -> String {
    r.state.as_ref().unwrap().doc()["session_hash"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn the_highest_sequence_wins_whatever_the_line_order_or_time() {
    // Sorted lines (what cat_sort_uniq makes) and equal times: seq decides.
    let mut lines = [
        write("s", 1, None, "h1"),
        write("s", 2, Some("h1"), "h2"),
        write("s", 3, Some("h2"), "h3"),
    ];
    lines.sort();
    let n = newest_of(&lines.join("\n"));
    assert_eq!(hash_of(&n.record), "h3");
    assert!(n.diverged.is_empty());
}

#[test]
fn two_writes_from_one_state_are_a_divergence_and_both_sides_are_kept() {
    let note = [
        write("s", 1, None, "h1"),
        write("s", 2, Some("h1"), "a2"),
        write("s", 3, Some("a2"), "a3"),
        write("s", 2, Some("h1"), "b2"),
    ]
    .join("\n");
    let n = newest_of(&note);
    assert_eq!(hash_of(&n.record), "a3");
    let other: Vec<String> = n.diverged.iter().map(|(_, r)| hash_of(r)).collect();
    assert_eq!(other, ["b2"]);
}

#[test]
fn a_choice_that_sets_a_side_aside_settles_the_divergence() {
    let mut chosen = Record {
        session_id: Some("s".into()),
        seq: Some(4),
        parent: Some("b2".into()),
        set_aside: vec!["a3".into()],
        ..record("main/1", "2026-11-30T12:00:00Z")
    };
    let mut state = Map::new();
    state.insert("session_hash".into(), Value::from("c4"));
    chosen.state = Some(StateText::of(&state));
    let note = [
        write("s", 1, None, "h1"),
        write("s", 2, Some("h1"), "a2"),
        write("s", 3, Some("a2"), "a3"),
        write("s", 2, Some("h1"), "b2"),
        chosen.to_line(),
    ]
    .join("\n");
    let n = newest_of(&note);
    assert_eq!(hash_of(&n.record), "c4");
    assert!(n.diverged.is_empty());
}

#[test]
fn a_write_on_from_a_side_set_aside_diverges_again_whatever_its_number() {
    // a counted its write past 4 (a5 from a2); the settle (6) takes a5 and sets b2
    // aside; b, which did not see it, writes b3 on from b2: no other record has 3.
    let mut settle = Record {
        session_id: Some("s".into()),
        seq: Some(6),
        parent: Some("a5".into()),
        set_aside: vec!["b2".into()],
        ..record("main/1", "2026-11-30T12:00:00Z")
    };
    let mut state = Map::new();
    state.insert("session_hash".into(), Value::from("c6"));
    settle.state = Some(StateText::of(&state));
    let note = [
        write("s", 1, None, "h1"),
        write("s", 2, Some("h1"), "a2"),
        write("s", 5, Some("a2"), "a5"),
        write("s", 2, Some("h1"), "b2"),
        settle.to_line(),
        write("s", 3, Some("b2"), "b3"),
    ]
    .join("\n");
    let n = newest_of(&note);
    assert_eq!(hash_of(&n.record), "c6");
    let other: Vec<String> = n.diverged.iter().map(|(_, r)| hash_of(r)).collect();
    assert_eq!(other, ["b3"]);
}

#[test]
fn a_line_a_settle_chose_is_not_set_aside_again() {
    // b2 was set aside by s3, then taken by s4 (which sets s3 aside); on from s4, x5 is
    // history (its successor x6 never recorded), not a side: s4 chose its line.
    let settle = |seq: u64, parent: &str, aside: &str, hash: &str| {
        let mut r = Record {
            session_id: Some("s".into()),
            seq: Some(seq),
            parent: Some(parent.into()),
            set_aside: vec![aside.into()],
            ..record("main/1", "2026-11-30T12:00:00Z")
        };
        let mut state = Map::new();
        state.insert("session_hash".into(), Value::from(hash));
        r.state = Some(StateText::of(&state));
        r.to_line()
    };
    let note = [
        write("s", 1, None, "h1"),
        write("s", 2, Some("h1"), "a2"),
        write("s", 2, Some("h1"), "b2"),
        settle(3, "a2", "b2", "s3"),
        settle(4, "b2", "s3", "s4"),
        write("s", 5, Some("s4"), "x5"),
        write("s", 7, Some("x6"), "x7"),
    ]
    .join("\n");
    let n = newest_of(&note);
    assert_eq!(hash_of(&n.record), "x7");
    assert!(n.diverged.is_empty(), "{:?}", n.diverged);
}

#[test]
fn a_write_whose_record_was_lost_is_history_not_a_side() {
    // seq 2 was written but never recorded (a failed store update): seq 1 is no
    // record's parent, yet nothing else was written from it.
    let note = [write("s", 1, None, "h1"), write("s", 3, Some("h2"), "h3")].join("\n");
    let n = newest_of(&note);
    assert_eq!(hash_of(&n.record), "h3");
    assert!(n.diverged.is_empty());
}

#[test]
fn two_sessions_under_one_key_are_both_kept_and_old_records_give_way_to_ids() {
    let legacy = record("main/1", "2026-11-30T13:00:00Z").to_line();
    let note = [
        write("s", 1, None, "h1"),
        write("t", 1, None, "t1"),
        legacy,
        record("other", "2026-11-30T13:00:00Z").to_line(),
    ]
    .join("\n");
    let (found, _) = newest_sessions(&[note.as_bytes()]);
    let ids: Vec<Option<&str>> = found
        .iter()
        .map(|n| n.record.session_id.as_deref())
        .collect();
    assert_eq!(ids, [Some("s"), Some("t"), None]);
    assert_eq!(found[2].record.key, "other");
}

#[test]
fn a_sub_second_time_reads_back_exactly() {
    let r = Record {
        saved_at: "2026-11-30T12:00:00.123456789Z".parse().unwrap(),
        ..record("a", "2026-11-30T12:00:00Z")
    };
    assert!(r.to_line().contains("12:00:00.123456789Z"));
    assert_eq!(parse_record(r.to_line().as_bytes()), Ok(r));
}

#[test]
fn a_field_given_twice_is_refused_by_name() {
    let line =
        r#"{"key":"a","key":"b","saved_at":"2026-11-30T12:00:00Z","kind":"session","state":{}}"#;
    let err = parse_record(line.as_bytes()).unwrap_err();
    assert!(err.contains("`key` is given more than once"), "{err}");
    let line = r#"{"key":"a","saved_at":"2026-11-30T12:00:00Z","kind":"session","state":{},"state":{"x":1}}"#;
    let err = parse_record(line.as_bytes()).unwrap_err();
    assert!(err.contains("`state` is given more than once"), "{err}");
}

#[test]
fn a_sequence_number_past_the_exact_range_is_refused() {
    let at = |seq: u64| {
        format!(
            r#"{{"key":"a","session_id":"s","seq":{seq},"saved_at":"2026-11-30T12:00:00Z","kind":"session","state":{{}}}}"#
        )
    };
    assert_eq!(
        parse_record(at(MAX_SEQ).as_bytes()).unwrap().seq,
        Some(MAX_SEQ)
    );
    for seq in [MAX_SEQ + 1, u64::MAX] {
        let err = parse_record(at(seq).as_bytes()).unwrap_err();
        assert!(err.contains("`seq` is over"), "{err}");
    }
}

#[test]
fn a_time_past_the_last_instant_is_read_as_the_far_future() {
    let line = r#"{"key":"a","saved_at":"9999-12-31T23:59:59Z","kind":"session","state":{}}"#;
    let r = parse_record(line.as_bytes()).unwrap();
    assert_eq!(r.saved_at, jiff::Timestamp::MAX);
    let line = r#"{"key":"a","saved_at":"9999-13-31T23:59:59Z","kind":"session","state":{}}"#;
    assert!(
        parse_record(line.as_bytes())
            .unwrap_err()
            .contains("saved_at")
    );
}
