//! Properties that must hold for any input (proptest): a state the tool reads and
//! writes reads back as the same document, unknown fields included; `handover.md`
//! renders the same every time; the merge rules of `save` are idempotent; notes records
//! read back and notes join like `git notes merge -s cat_sort_uniq`.

use std::path::Path;

use git_handover::api::Lang;
use git_handover::api::State;
use git_handover::api::{Record, RecordKind, notes};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// Any JSON value, a few levels deep: what other tools may leave in unknown fields.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-1.0e9..1.0e9f64).prop_map(|f| json!(f)),
        ".{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("[a-z_]{1,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn text() -> impl Strategy<Value = String> {
    // Any characters, control characters and line breaks included.
    ".{0,30}"
}

fn stamp() -> impl Strategy<Value = String> {
    (0i64..2_000_000_000).prop_map(|s| {
        jiff::Timestamp::from_second(1_700_000_000 + s / 1000)
            .unwrap()
            .to_string()
    })
}

fn task() -> impl Strategy<Value = Value> {
    (
        "[A-Z][0-9]{1,2}",
        text(),
        prop::sample::select(vec!["pending", "in_progress", "blocked", "done", "later"]),
        prop::option::of(prop::collection::vec(text(), 0..3)),
        prop::option::of(text()),
        prop::option::of(stamp()),
        prop::collection::btree_map("x_[a-z]{1,6}", any_json(), 0..2),
    )
        .prop_map(|(id, description, status, files, next, touched, unknown)| {
            let mut t = Map::new();
            t.insert("id".into(), Value::from(id));
            t.insert("description".into(), Value::from(description));
            t.insert("status".into(), Value::from(status));
            if let Some(f) = files {
                t.insert("file_paths".into(), Value::from(f));
            }
            if let Some(n) = next {
                t.insert("next_action".into(), Value::from(n));
            }
            if let Some(s) = touched {
                t.insert("last_touched".into(), Value::from(s));
            }
            for (k, v) in unknown {
                t.insert(k, v);
            }
            Value::Object(t)
        })
}

fn state_doc() -> impl Strategy<Value = Map<String, Value>> {
    (
        prop::collection::vec(task(), 0..6),
        prop::collection::vec((text(), prop::option::of(text())), 0..3),
        prop::collection::vec(text(), 0..3),
        prop::option::of(stamp()),
        prop::collection::btree_map("[a-z]{1,8}_x", any_json(), 0..3),
    )
        .prop_map(|(tasks, decisions, changes, generated, unknown)| {
            let mut doc = Map::new();
            doc.insert("version".into(), Value::from(3));
            doc.insert("status".into(), Value::from("READY"));
            if let Some(g) = generated {
                doc.insert("generated_at".into(), Value::from(g));
            }
            doc.insert("active_tasks".into(), Value::from(tasks));
            doc.insert(
                "recent_decisions".into(),
                Value::from(
                    decisions
                        .into_iter()
                        .map(|(d, r)| match r {
                            Some(r) => json!({"decision": d, "rationale": r}),
                            None => json!({"decision": d}),
                        })
                        .collect::<Vec<_>>(),
                ),
            );
            doc.insert("architecture_changes".into(), Value::from(changes));
            for (k, v) in unknown {
                doc.insert(k, v);
            }
            doc
        })
}

proptest! {
    #[test]
    fn parse_write_parse_is_the_identity(doc in state_doc()) {
        let bytes = serde_json::to_vec(&doc).unwrap();
        let state = State::parse(&bytes, Path::new("p.json")).unwrap();
        let written = state.to_json_bytes();
        let again = State::parse(&written, Path::new("p.json")).unwrap();
        prop_assert_eq!(again.document(), &doc);
        prop_assert_eq!(again.to_json_bytes(), written);
    }

    #[test]
    fn handover_md_renders_the_same_every_time(doc in state_doc()) {
        let bytes = serde_json::to_vec(&doc).unwrap();
        let state = State::parse(&bytes, Path::new("p.json")).unwrap();
        let again = State::parse(&state.to_json_bytes(), Path::new("p.json")).unwrap();
        for lang in [Lang::En, Lang::Ja] {
            let md = git_handover::api::render_markdown(&state, lang);
            prop_assert_eq!(&md, &git_handover::api::render_markdown(&state, lang));
            prop_assert_eq!(&md, &git_handover::api::render_markdown(&again, lang));
        }
    }

    #[test]
    fn merging_the_same_input_twice_changes_nothing(
        base in state_doc(),
        incoming in state_doc(),
        more_changes in prop::collection::vec(text(), 0..14),
    ) {
        let mut incoming = incoming;
        incoming.insert("architecture_changes".into(), Value::from(more_changes));
        let mut once = base.clone();
        git_handover::api::merge(&mut once, &incoming);
        git_handover::api::seal(&mut once);
        let mut twice = once.clone();
        git_handover::api::merge(&mut twice, &incoming);
        git_handover::api::seal(&mut twice);
        prop_assert_eq!(&twice, &once);
        prop_assert_eq!(
            git_handover::api::session_hash(&twice),
            git_handover::api::session_hash(&once)
        );
    }

    #[test]
    fn a_record_reads_back_from_its_line(
        key in "[a-z]{1,6}(/[a-z0-9-]{1,8}){0,2}",
        worktree in prop::option::of(text()),
        branch in prop::option::of(text()),
        seconds in 0i64..4_000_000_000,
        doc in state_doc(),
        note in prop::option::of(text()),
        seq in prop::option::of(0u64..1_000_000),
        nanos in 0i32..1_000_000_000,
    ) {
        let record = Record {
            key,
            session_id: seq.map(|s| format!("id-{s}")),
            seq,
            parent: seq.filter(|s| s % 2 == 0).map(|s| format!("{s:064x}")),
            set_aside: Vec::new(),
            worktree,
            branch,
            saved_at: jiff::Timestamp::new(seconds, nanos).unwrap(),
            kind: if note.is_some() { RecordKind::ContinueHere } else { RecordKind::Session },
            state: if note.is_some() { None } else { Some(git_handover::api::notes::StateText::of(&doc)) },
            text: note,
        };
        let line = record.to_line();
        prop_assert!(!line.contains('\n'));
        prop_assert_eq!(notes::parse_record(line.as_bytes()), Ok(record));
    }

    #[test]
    fn notes_join_like_cat_sort_uniq(
        a in prop::collection::vec("[ -~]{0,10}", 0..8),
        b in prop::collection::vec("[ -~]{0,10}", 0..8),
    ) {
        let (a, b) = (a.join("\n"), b.join("\n"));
        let ab = notes::cat_sort_uniq(a.as_bytes(), b.as_bytes());
        prop_assert_eq!(&ab, &notes::cat_sort_uniq(b.as_bytes(), a.as_bytes()));
        prop_assert_eq!(&notes::cat_sort_uniq(&ab, &ab), &ab);
        let mut lines: Vec<&str> = a.lines().chain(b.lines()).filter(|l| !l.is_empty()).collect();
        lines.sort_unstable();
        lines.dedup();
        let expected: String = lines.iter().flat_map(|l| [*l, "\n"]).collect();
        prop_assert_eq!(String::from_utf8(ab).unwrap(), expected);
    }
}

/// A fuzz target's check.
type Check = fn(&[u8]);

#[test]
fn the_fuzz_seed_corpora_hold_every_property() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    if !root.is_dir() {
        // `cargo package` leaves out fuzz/, a package of its own.
        crate::common::unavailable("fuzz/corpus is not in this copy of the crate");
        return;
    }
    let targets: [(&str, Check); 4] = [
        ("state_reader", git_handover::fuzz::state_reader),
        ("continue_here", git_handover::fuzz::continue_here),
        ("notes_record", git_handover::fuzz::notes_record),
        ("config", git_handover::fuzz::config),
    ];
    let mut replayed = 0;
    for (name, check) in targets {
        for entry in std::fs::read_dir(root.join(name)).unwrap() {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            check(&bytes);
            replayed += 1;
        }
    }
    assert!(replayed >= 12, "{replayed} seeds");
}

/// A known field of a state (top-level or of a task) given any JSON value at all.
fn corrupted() -> impl Strategy<Value = Vec<u8>> {
    const TOP: [&str; 10] = [
        "version",
        "status",
        "generated_at",
        "session_id",
        "workspace",
        "active_tasks",
        "recent_decisions",
        "known_issues",
        "phase_observations",
        "session_notes",
    ];
    const TASK: [&str; 9] = [
        "id",
        "description",
        "status",
        "commit_sha",
        "file_paths",
        "next_action",
        "blockers",
        "last_touched",
        "attempted_approaches",
    ];
    (
        state_doc(),
        prop::sample::select(TOP.to_vec()),
        prop::sample::select(TASK.to_vec()),
        any_json(),
        prop::bool::ANY,
        prop::bool::ANY,
    )
        .prop_map(|(mut doc, top, field, value, in_task, twice)| {
            let tasks = doc.get_mut("active_tasks").and_then(Value::as_array_mut);
            match tasks {
                Some(tasks) if in_task && !tasks.is_empty() => {
                    tasks[0][field] = value;
                }
                _ => {
                    doc.insert(top.into(), value);
                }
            }
            let mut text = serde_json::to_string(&doc).unwrap();
            if twice {
                // The same key twice: the document keeps the last one.
                text.insert_str(1, r#""status":"READY","#);
            }
            text.into_bytes()
        })
}

proptest! {
    #[test]
    fn the_typed_reading_gives_the_documents_view_or_error(bytes in corrupted()) {
        git_handover::fuzz::same_view(&bytes);
    }
}

/// The hostile corpus and the peer fixtures: the same view or the same error.
#[test]
fn the_typed_reading_agrees_on_every_corpus_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [
        root.join("tests/hostile"),
        root.join("../shared/peer-fixtures"),
    ] {
        if !dir.is_dir() {
            // The peer fixtures sit beside the project, not in a packaged crate.
            crate::common::unavailable(&format!("{} is not beside the project", dir.display()));
            continue;
        }
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
    }
    assert!(files.len() >= 15, "{files:?}");
    for path in files {
        git_handover::fuzz::same_view(&std::fs::read(&path).unwrap());
    }
    // A task given as an array, and a root that is an array: the document's errors.
    for text in [
        r#"{"version":3,"status":"READY","active_tasks":[["T1","x"]]}"#,
        r#"[3,"READY",[]]"#,
        r#"{"version":3,"status":"READY","active_tasks":null}"#,
        r#"{"version":3,"status":"READY"}"#,
    ] {
        git_handover::fuzz::same_view(text.as_bytes());
    }
}
