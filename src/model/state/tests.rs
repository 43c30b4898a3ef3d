//! Reading and validating states.
use super::*;
use crate::support::fsio::MAX_FILE_SIZE;

fn parse(s: &str) -> Result<State> {
    State::parse(
        s.as_bytes(),
        Path::new("/w/.claude/handover/main/1/project-state.json"),
    )
}

const WITH_UNKNOWN_KEYS: &str = r#"{
  "version": 3,
  "x_top_first": {"nested": [1, 2.50, {"deep": null}]},
  "generated_at": "2026-11-30T10:15:00+09:00",
  "session_id": "s-1",
  "status": "READY",
  "workspace": {
"root": "/abs/wt",
"x_ws": "kept",
"branch": "feature/x",
"is_worktree": true
  },
  "active_tasks": [
{
  "id": "T1",
  "x_task": {"a": 1},
  "description": "first",
  "status": "done",
  "commit_sha": "3f2a9c1",
  "file_paths": ["src/a.rs"],
  "last_touched": "2026-11-30T09:00:00Z"
},
{
  "id": "T2",
  "description": "second",
  "status": "pending",
  "big": 123456789012345678901234567890
}
  ],
  "recent_decisions": [
{
  "decision": "use gix",
  "x_decision": ["why", "not"],
  "rationale": "speed",
  "date": "2026-11-29"
}
  ],
  "session_hash": "abc",
  "x_top_last": true
}
"#;

#[test]
fn unknown_keys_survive_a_round_trip_at_every_level() {
    // Compact JSON shows key order and number text exactly (map equality would not).
    let compact = |text: &str| {
        let v: Value = serde_json::from_str(text).unwrap();
        serde_json::to_string(&v).unwrap()
    };
    let state = parse(WITH_UNKNOWN_KEYS).unwrap();
    let written = String::from_utf8(state.to_json_bytes()).unwrap();
    assert_eq!(compact(&written), compact(WITH_UNKNOWN_KEYS));
    for kept in [
        "\"x_top_first\"",
        "\"x_ws\": \"kept\"",
        "\"x_task\"",
        "\"x_decision\"",
        "2.50",
        "123456789012345678901234567890",
        "\"x_top_last\": true",
    ] {
        assert!(written.contains(kept), "{kept} lost:\n{written}");
    }
    // Writing what was written changes nothing.
    let again = parse(&written).unwrap();
    assert_eq!(String::from_utf8(again.to_json_bytes()).unwrap(), written);
}

#[test]
fn typed_view() {
    let s = parse(WITH_UNKNOWN_KEYS).unwrap();
    assert_eq!(s.version, 3);
    assert!(s.is_ready());
    assert!(s.is_branch_session());
    assert_eq!(s.workspace.branch.as_deref(), Some("feature/x"));
    assert_eq!(s.workspace.root.as_deref(), Some("/abs/wt"));
    assert_eq!(s.tasks.len(), 2);
    assert_eq!(s.tasks[1].status, TaskStatus::Other("pending".into()));
    assert_eq!(s.done_count(), 1);
    assert_eq!(s.next_task().unwrap().id, "T2");
    assert_eq!(
        s.generated_at.as_ref().unwrap().at.to_string(),
        "2026-11-30T01:15:00Z"
    );
    assert!(s.warnings.is_empty());
}

#[test]
fn versions_two_to_five() {
    for v in 2..=5 {
        assert!(
            parse(&format!(
                r#"{{"version":{v},"status":"READY","active_tasks":[]}}"#
            ))
            .is_ok()
        );
    }
    let err = parse(r#"{"version":6,"status":"READY","active_tasks":[]}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid handover /w/.claude/handover/main/1/project-state.json: field `version` is 6, but only versions 2 to 5 are read"
    );
}

#[test]
fn syntax_errors_name_line_and_column() {
    let err = parse("{\n  \"version\": 3,\n  \"status\": READY\n}").unwrap_err();
    match &err {
        Error::InvalidJson { line, column, .. } => assert_eq!((*line, *column), (3, 13)),
        other => panic!("{other:?}"),
    }
    assert_eq!(err.exit_code(), 3);
    assert!(err.to_string().starts_with(
        "invalid json in /w/.claude/handover/main/1/project-state.json at line 3, column 13: expected value"
    ));
}

#[test]
fn field_errors_name_the_path() {
    let cases = [
        (
            r#"{"status":"READY","active_tasks":[]}"#,
            "version",
            "is missing",
        ),
        (r#"{"version":3,"active_tasks":[]}"#, "status", "is missing"),
        (
            r#"{"version":3,"status":"DONE","active_tasks":[]}"#,
            "status",
            "is \"DONE\", expected \"READY\" or \"ALL_COMPLETE\"",
        ),
        (
            r#"{"version":3,"status":"READY"}"#,
            "active_tasks",
            "is missing",
        ),
        (
            r#"{"version":3,"status":"READY","active_tasks":{}}"#,
            "active_tasks",
            "must be an array",
        ),
        (
            r#"{"version":3,"status":"READY","active_tasks":[{},{},{"status":7}]}"#,
            "active_tasks[2].status",
            "must be a string",
        ),
        (
            r#"{"version":3,"status":"READY","active_tasks":[{"file_paths":["a",1]}]}"#,
            "active_tasks[0].file_paths[1]",
            "must be a string",
        ),
        (
            r#"{"version":3,"status":"READY","active_tasks":[{"last_touched":"yesterday"}]}"#,
            "active_tasks[0].last_touched",
            "is \"yesterday\", not an RFC 3339 timestamp",
        ),
        (
            r#"{"version":3,"status":"READY","active_tasks":[],"workspace":[]}"#,
            "workspace",
            "must be an object",
        ),
        ("[1]", "(root)", "must be a JSON object"),
    ];
    for (input, want_field, want_message) in cases {
        match parse(input).unwrap_err() {
            Error::InvalidField { field, message, .. } => {
                assert_eq!(
                    (field.as_str(), message.as_str()),
                    (want_field, want_message),
                    "{input}"
                );
            }
            other => panic!("{input}: {other:?}"),
        }
    }
}

#[test]
fn nulls_are_absent_values() {
    let s = parse(r#"{"version":3,"status":"READY","active_tasks":[{"id":"T1","blockers":null,"commit_sha":null}],"workspace":null}"#).unwrap();
    assert!(s.tasks[0].blockers.is_empty());
    assert_eq!(s.tasks[0].commit_sha, None);
}

#[test]
fn bare_dates_and_naive_times_are_accepted_with_a_warning() {
    let s =
        parse(r#"{"version":3,"status":"READY","active_tasks":[],"generated_at":"2026-11-30"}"#)
            .unwrap();
    assert_eq!(s.warnings.len(), 1);
    assert!(
        s.warnings[0].to_string().contains("bare date"),
        "{:?}",
        s.warnings
    );
    let s = parse(
        r#"{"version":3,"status":"READY","active_tasks":[],"generated_at":"2026-11-30T10:00:00"}"#,
    )
    .unwrap();
    assert!(
        s.warnings[0].to_string().contains("naive local time"),
        "{:?}",
        s.warnings
    );
}

#[test]
fn instants_not_strings_are_compared() {
    let (a, _) = parse_stamp("2026-11-30T10:15:00+09:00").unwrap();
    let (b, _) = parse_stamp("2026-11-30T01:15:00Z").unwrap();
    assert_eq!(a, b);
}

#[test]
fn bom_is_accepted_and_deep_nesting_is_an_error_not_a_crash() {
    let with_bom = format!(
        "\u{feff}{}",
        r#"{"version":2,"status":"READY","active_tasks":[]}"#
    );
    assert!(parse(&with_bom).is_ok());
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    assert_eq!(parse(&deep).unwrap_err().exit_code(), 3);
}

#[test]
fn oversized_files_are_refused_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("project-state.json");
    let f = std::fs::File::create(&path).unwrap();
    f.set_len(MAX_FILE_SIZE + 1).unwrap();
    let err = State::read(&path).unwrap_err();
    assert!(matches!(err, Error::TooLarge { .. }), "{err:?}");
    assert_eq!(err.exit_code(), 3);
}

/// The value count as it was first written, a byte at a time: the oracle for the one
/// that skips string contents.
fn values_bytewise(bytes: &[u8]) -> usize {
    let (mut count, mut in_string, mut escaped, mut in_scalar) = (0, false, false, false);
    for &b in bytes {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => (in_string, in_scalar, count) = (true, false, count + 1),
            b'{' | b'[' => (in_scalar, count) = (false, count + 1),
            b'}' | b']' | b',' | b':' | b' ' | b'\t' | b'\n' | b'\r' => in_scalar = false,
            _ if !in_scalar => (in_scalar, count) = (true, count + 1),
            _ => {}
        }
    }
    count
}

#[test]
fn the_value_count_skips_strings_as_the_bytewise_count_reads_them() {
    let cases: Vec<&[u8]> = vec![
        br#"{"a":"b\"c","d":[1,true,null,"\\"],"e":"\\\"x"}"#,
        br#"["unterminated \"#,
        br#""ends in a backslash\"#,
        b"\"\\",
        br#"{"k":"v"}  ,, 12 34 "x" [ ] "#,
        WITH_UNKNOWN_KEYS.as_bytes(),
        b"",
    ];
    for bytes in cases {
        let n = values_bytewise(bytes);
        for limit in [0, n.saturating_sub(1), n, n + 1] {
            assert_eq!(
                over_value_limit(bytes, limit),
                n > limit,
                "{:?} at limit {limit}",
                String::from_utf8_lossy(bytes)
            );
        }
    }
}

#[test]
fn a_key_given_twice_is_refused_by_its_path() {
    for (text, path) in [
        (
            r#"{"version":3,"version":3,"status":"READY","active_tasks":[]}"#,
            "version",
        ),
        (
            r#"{"version":3,"status":"READY","active_tasks":[{},{"id":"a","x":{"y":1,"y":1}}]}"#,
            "active_tasks[1].x.y",
        ),
    ] {
        let err = parse(text).unwrap_err().to_string();
        assert!(err.contains(&format!("duplicate key `{path}`")), "{err}");
    }
}

#[test]
fn the_strict_reader_reads_what_serde_json_reads() {
    let text = r#"{"a":[1,-2,3.50,1e400,18446744073709551616,0.1000000000000000000001],
        "b":{"c":null,"d":true,"e":"\u00e9\ud83d\ude00"},"f":[],"g":{},
        "$serde_json::private::Number":"x"}"#;
    let strict = strict::from_slice(text.as_bytes()).unwrap();
    let plain: Value = serde_json::from_str(text).unwrap();
    assert_eq!(strict, plain);
    assert_eq!(strict.to_string(), plain.to_string());
}

#[test]
fn a_repeated_key_is_seen_without_building_the_document() {
    for (text, repeats) in [
        (r#"{"a":1,"b":{"a":2},"c":[{"a":1},{"a":1}]}"#, false),
        (r#"{"a":1,"\u0061":2}"#, true),
        (r#"{"a":[{"n":1.50,"n":2}]}"#, true),
        (r#"{"a":1e400,"b":18446744073709551616}"#, false),
        (r#"{"a":1,"b":"#, false),
    ] {
        assert_eq!(strict::repeats_a_key(text.as_bytes()), repeats, "{text}");
    }
    // Past the keys kept on the stack too.
    let many: Vec<String> = (0..40).map(|i| format!("\"k{i}\":{i}")).collect();
    for (extra, repeats) in [("k3", true), ("k30", true), ("k40", false)] {
        let text = format!("{{{},\"{extra}\":0}}", many.join(","));
        assert_eq!(strict::repeats_a_key(text.as_bytes()), repeats, "{text}");
    }
}

#[test]
fn a_key_given_twice_is_named_by_its_path_and_line() {
    use super::strict::first_duplicate;
    assert_eq!(
        first_duplicate(br#"{"a": 1, "b": {"c": [1, {"d": 2}]}}"#),
        None
    );
    assert_eq!(
        first_duplicate(b"{\"a\": 1,\n \"a\": 2}"),
        Some(("a".to_owned(), 2))
    );
    assert_eq!(
        first_duplicate(br#"{"hooks": {"S": [{"m": 1, "m": 2}]}}"#).map(|d| d.0),
        Some("hooks.S[0].m".to_owned())
    );
    // The same key in two objects is no duplicate; a text that is not JSON is none.
    assert_eq!(first_duplicate(br#"[{"a": 1}, {"a": 2}]"#), None);
    assert_eq!(first_duplicate(b"{\"a\": "), None);
}
