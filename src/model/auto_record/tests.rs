use serde_json::json;

use super::*;

fn facts() -> Facts {
    Facts {
        agent: "claude".into(),
        session_id: "s1".into(),
        commits: vec![CommitFact {
            sha: "a".repeat(40),
            subject: "Add lexer".into(),
            files: vec!["src/lex.rs".into()],
            date: "2026-11-30T10:00:00Z".into(),
        }],
        more_commits: false,
        files_changed: vec!["src/lex.rs".into()],
        last_request: Some("write the lexer".into()),
        edited_files: vec![],
        failed: vec![Failure {
            command: "cargo test".into(),
            exit_status: Some(101),
            first_error_line: "error[E0308]".into(),
        }],
    }
}

fn words(f: &Failure) -> (String, String) {
    (format!("ran `{}`", f.command), f.first_error_line.clone())
}

fn note(content: &str) -> Vec<Note> {
    vec![Note {
        category: "work",
        content: content.into(),
    }]
}

#[test]
fn a_repeat_changes_nothing_and_a_later_record_replaces_its_own_note() {
    let mut doc = json!({"active_tasks": [{"id": "T1", "status": "in_progress"}]})
        .as_object()
        .unwrap()
        .clone();
    let first = apply(&mut doc, &facts(), &note("one commit"), &words, "t0");
    assert_eq!((first.notes, first.changes, first.approaches), (1, 1, 1));
    let before = doc.clone();
    assert!(apply(&mut doc, &facts(), &note("one commit"), &words, "t1").is_empty());
    assert_eq!(doc, before);
    apply(&mut doc, &facts(), &note("two commits"), &words, "t2");
    let notes = doc["session_notes"].as_array().unwrap();
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0]["content"], "two commits");
}

#[test]
fn a_note_a_person_changed_is_left_as_they_wrote_it() {
    let mut doc = Map::new();
    apply(&mut doc, &facts(), &note("one commit"), &words, "t0");
    doc["session_notes"][0]["content"] = json!("my own words");
    apply(&mut doc, &facts(), &note("two commits"), &words, "t1");
    let notes = doc["session_notes"].as_array().unwrap();
    assert_eq!(notes.len(), 2);
    assert_eq!(notes[0]["content"], "my own words");
}

#[test]
fn approaches_go_only_to_the_one_task_in_progress() {
    let mut doc = json!({"active_tasks": [
        {"id": "T1", "status": "in_progress"}, {"id": "T2", "status": "in_progress"}]})
    .as_object()
    .unwrap()
    .clone();
    let applied = apply(&mut doc, &facts(), &[], &words, "t0");
    assert_eq!(applied.approaches, 0);
    assert!(doc["active_tasks"][0].get("attempted_approaches").is_none());
}

#[test]
fn a_commit_recorded_by_someone_else_is_not_recorded_again_and_ten_are_kept() {
    let mut doc = json!({"architecture_changes": [{"commit_sha": "aaaaaaa", "summary": "mine"}]})
        .as_object()
        .unwrap()
        .clone();
    assert_eq!(apply(&mut doc, &facts(), &[], &words, "t0").changes, 0);
    let mut many = facts();
    many.commits = (0..12)
        .map(|i| CommitFact {
            sha: format!("{i:040x}"),
            subject: format!("c{i}"),
            files: vec![],
            date: String::new(),
        })
        .collect();
    apply(&mut doc, &many, &[], &words, "t0");
    let list = doc["architecture_changes"].as_array().unwrap();
    assert_eq!(list.len(), 10);
    // The entry someone else wrote stays: the hook's own oldest went to make room.
    assert_eq!(list[0]["summary"], "mine");
    // Newest first in the facts: the newest (c0) is the last entry.
    assert_eq!(list[9]["summary"], "c0");
}

/// Ten changes the agent wrote fill the list: a record adds its commit beside them
/// (one over, until the next `save`) and drops none of theirs, nor one of its own a
/// person gave a rationale to; its own untouched older entries go first.
#[test]
fn a_change_someone_wrote_is_never_dropped_to_make_room() {
    let own: Vec<Value> = (0..9)
        .map(|i| json!({"commit_sha": format!("{i:07}"), "summary": format!("mine {i}")}))
        .collect();
    let mut doc = json!({"architecture_changes": own})
        .as_object()
        .unwrap()
        .clone();
    let mut first = facts();
    first.commits[0].sha = "b".repeat(40);
    apply(&mut doc, &first, &[], &words, "t0");
    doc["architecture_changes"][9]["rationale"] = json!("a person's words");
    apply(&mut doc, &facts(), &[], &words, "t1");
    let list = doc["architecture_changes"].as_array().unwrap();
    assert_eq!(list.len(), KEEP_ARCHITECTURE_CHANGES + 1);
    assert_eq!(&list[..9], own.as_slice());
    assert_eq!(list[9]["rationale"], "a person's words");
    assert_eq!(list[10]["commit_sha"], "a".repeat(40));
}

/// At the limit of ten notes the oldest automatic one goes to make room, but never one
/// a person changed: it is theirs now.
#[test]
fn a_note_a_person_changed_is_never_dropped_to_make_room() {
    let mut doc = Map::new();
    apply(&mut doc, &facts(), &note("one commit"), &words, "t0");
    doc["session_notes"][0]["content"] = json!("my own words");
    for i in 0..12 {
        let mut f = facts();
        f.session_id = format!("other-{i}");
        apply(&mut doc, &f, &note(&format!("commit {i}")), &words, "t1");
    }
    let notes = doc["session_notes"].as_array().unwrap();
    assert_eq!(notes.len(), KEEP_SESSION_NOTES);
    assert_eq!(notes[0]["content"], "my own words");
    assert_eq!(notes[KEEP_SESSION_NOTES - 1]["content"], "commit 11");
}
