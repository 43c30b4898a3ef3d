//! Changing a session's document (SPEC section 2): the merge rules of `save`, task
//! edits, the derived `status`, and `session_hash`. Pure: no files, no clock of its own.

use jiff::Timestamp;
use serde_json::{Map, Value};

use crate::model::state::{ALL_COMPLETE, MAX_VERSION, READY};

/// The version the tool writes unless the document already has a higher one.
pub const WRITE_VERSION: u64 = 4;

/// Session notes kept (the newest), and how many characters of a note's content tell
/// two notes apart (SPEC section 2).
pub const KEEP_SESSION_NOTES: usize = 10;
pub const SESSION_NOTE_KEY: usize = 50;
/// Observations kept per phase.
pub const KEEP_OBSERVATIONS: usize = 5;

/// How many architecture changes a session keeps.
pub const KEEP_ARCHITECTURE_CHANGES: usize = 10;

/// The key of an entry that says who recorded it (a hook: `model/auto_record.rs`).
pub const RECORDED_BY: &str = "recorded_by";

/// A problem with input, as `(field path, message)`.
pub type FieldError = (String, String);

/// Local time with its offset, as the tool writes timestamps: `2026-11-30T10:15:00+09:00`.
pub fn format_time(t: Timestamp) -> String {
    t.to_zoned_datetime(crate::support::clock::local_zone())
        .strftime("%Y-%m-%dT%H:%M:%S%:z")
        .to_string()
}

/// Check a full or partial state given to `save`: an object whose `active_tasks`, if
/// present, are objects with a string `id`.
pub fn check_input(input: &Value) -> Result<&Map<String, Value>, FieldError> {
    let Value::Object(map) = input else {
        return Err(("(root)".into(), "must be a JSON object".into()));
    };
    if let Some(tasks) = map.get("active_tasks") {
        let Value::Array(tasks) = tasks else {
            return Err(("active_tasks".into(), "must be an array".into()));
        };
        let mut seen: std::collections::HashMap<&str, usize> =
            std::collections::HashMap::with_capacity(tasks.len());
        for (i, task) in tasks.iter().enumerate() {
            match task.get("id") {
                Some(Value::String(id)) if !id.is_empty() => {
                    if let Some(&first) = seen.get(id.as_str()) {
                        return Err((
                            format!("active_tasks[{i}].id"),
                            format!("repeats the id {id:?} of active_tasks[{first}]"),
                        ));
                    }
                    seen.insert(id.as_str(), i);
                }
                _ => {
                    return Err((
                        format!("active_tasks[{i}].id"),
                        "must be a non-empty string".into(),
                    ));
                }
            }
        }
    }
    for key in ["recent_decisions", "architecture_changes", "known_issues"] {
        if map.get(key).is_some_and(|v| !v.is_array() && !v.is_null()) {
            return Err((key.into(), "must be an array".into()));
        }
    }
    if let Some(v) = map.get("version") {
        match v.as_u64() {
            Some(n) if (2..=MAX_VERSION).contains(&n) => {}
            _ => {
                return Err((
                    "version".into(),
                    format!("must be a number from 2 to {MAX_VERSION}"),
                ));
            }
        }
    }
    Ok(map)
}

/// Merge `incoming` into `doc` by the rules of `save` (SPEC section 2): a task with an
/// existing id is merged field by field (`null` removes a field, attempted approaches
/// are appended unless their `approach` is there), new ids appended in order;
/// decisions appended unless an identical one exists; architecture changes appended
/// (one given again moves to the end), keeping the newest ten; known issues replaced
/// when given; phase observations upserted per phase (at most five, warnings first);
/// session notes appended unless one starts with the same 50 characters, keeping ten;
/// phase summaries add-only; `workspace` merged key by key; any other key set.
/// `status`, `generated_at` and `session_hash` are the tool's own.
pub fn merge(doc: &mut Map<String, Value>, incoming: &Map<String, Value>) {
    for (key, value) in incoming {
        match key.as_str() {
            "status" | "generated_at" | "session_hash" => {}
            "version" => {
                let have = doc.get("version").and_then(Value::as_u64).unwrap_or(0);
                if value.as_u64().is_some_and(|v| v > have) {
                    doc.insert(key.clone(), value.clone());
                }
            }
            "active_tasks" => {
                let tasks = array_mut(doc, "active_tasks");
                for task in value.as_array().into_iter().flatten() {
                    let id = task.get("id");
                    match tasks.iter_mut().find(|t| t.get("id") == id) {
                        Some(existing) => merge_task(existing, task),
                        None => tasks.push(without_nulls(task)),
                    }
                }
            }
            "phase_observations" => {
                let phases = array_mut(doc, "phase_observations");
                for entry in value.as_array().into_iter().flatten() {
                    let phase = entry.get("phase");
                    let entry = capped_observations(entry);
                    match phases.iter_mut().find(|p| p.get("phase") == phase) {
                        Some(existing) => *existing = entry,
                        None => phases.push(entry),
                    }
                }
            }
            "session_notes" => {
                let notes = array_mut(doc, "session_notes");
                let head = |n: &Value| -> String {
                    n.get("content")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .chars()
                        .take(SESSION_NOTE_KEY)
                        .collect()
                };
                for n in value.as_array().into_iter().flatten() {
                    let key = head(n);
                    if !notes.iter().any(|x| head(x) == key) {
                        notes.push(n.clone());
                    }
                }
                let excess = notes.len().saturating_sub(KEEP_SESSION_NOTES);
                notes.drain(..excess);
            }
            "phase_summaries" => match (doc.get_mut("phase_summaries"), value) {
                // Add-only: what is there stays as it is.
                (Some(Value::Object(have)), Value::Object(new)) => {
                    for (k, v) in new {
                        if !have.contains_key(k) {
                            have.insert(k.clone(), v.clone());
                        }
                    }
                }
                (Some(Value::Array(have)), Value::Array(new)) => {
                    for v in new {
                        if !have.contains(v) {
                            have.push(v.clone());
                        }
                    }
                }
                (Some(_), _) => {}
                (None, _) => {
                    doc.insert(key.clone(), value.clone());
                }
            },
            "recent_decisions" => {
                let decisions = array_mut(doc, "recent_decisions");
                for d in value.as_array().into_iter().flatten() {
                    if !decisions.contains(d) {
                        decisions.push(d.clone());
                    }
                }
            }
            "architecture_changes" => {
                let changes = array_mut(doc, "architecture_changes");
                // A change given again moves to the end (it is the newest now), so a
                // repeated save of the same input changes nothing: the result is the
                // newest ten of the existing changes followed by the input's.
                for c in value.as_array().into_iter().flatten() {
                    changes.retain(|x| x != c);
                    changes.push(c.clone());
                }
                let excess = changes.len().saturating_sub(KEEP_ARCHITECTURE_CHANGES);
                changes.drain(..excess);
            }
            "workspace" => match (doc.get_mut("workspace"), value) {
                (Some(Value::Object(have)), Value::Object(new)) => {
                    for (k, v) in new {
                        have.insert(k.clone(), v.clone());
                    }
                }
                _ => {
                    doc.insert(key.clone(), value.clone());
                }
            },
            _ => {
                doc.insert(key.clone(), value.clone());
            }
        }
    }
}

/// Merge a task given to `save` into the existing one, field by field: a field given
/// as `null` is removed, `attempted_approaches` are appended (one with an `approach`
/// already there is not), every other field given replaces the old value.
fn merge_task(existing: &mut Value, incoming: &Value) {
    let (Value::Object(have), Value::Object(new)) = (existing, incoming) else {
        return;
    };
    // A task a hook made, changed by a save that does not itself say it is automatic,
    // is the saver's now: no longer marked as recorded automatically.
    let by = RECORDED_BY;
    if !new.contains_key(by) && new.iter().any(|(k, v)| k != "id" && have.get(k) != Some(v)) {
        have.remove(by);
    }
    for (k, v) in new {
        if v.is_null() {
            have.remove(k);
        } else if k == "attempted_approaches" {
            let Value::Array(list) = have
                .entry(k.clone())
                .or_insert_with(|| Value::Array(Vec::new()))
            else {
                have.insert(k.clone(), v.clone());
                continue;
            };
            for a in v.as_array().into_iter().flatten() {
                let approach = a.get("approach");
                if !list.iter().any(|x| x.get("approach") == approach) {
                    list.push(a.clone());
                }
            }
        } else {
            have.insert(k.clone(), v.clone());
        }
    }
}

/// A new task as given, its `null` fields left out.
fn without_nulls(task: &Value) -> Value {
    match task {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// A phase's observations kept to the first five, warnings before the rest.
fn capped_observations(entry: &Value) -> Value {
    let mut entry = entry.clone();
    if let Some(Value::Array(list)) = entry.get_mut("observations") {
        let is_warning = |o: &Value| o.get("severity").and_then(Value::as_str) == Some("warning");
        let mut sorted: Vec<Value> = list.iter().filter(|o| is_warning(o)).cloned().collect();
        sorted.extend(list.iter().filter(|o| !is_warning(o)).cloned());
        sorted.truncate(KEEP_OBSERVATIONS);
        *list = sorted;
    }
    entry
}

pub(crate) fn array_mut<'a>(doc: &'a mut Map<String, Value>, key: &str) -> &'a mut Vec<Value> {
    let slot = doc
        .entry(key.to_owned())
        .or_insert_with(|| Value::Array(Vec::new()));
    if !slot.is_array() {
        *slot = Value::Array(Vec::new());
    }
    slot.as_array_mut().expect("just made an array")
}

/// Fill what the tool owns before a write: the version (at least 3, a higher one kept),
/// `status` from the tasks, and `session_hash`. `generated_at` is set by the caller,
/// only when something changed.
pub fn seal(doc: &mut Map<String, Value>) {
    let version = doc
        .get("version")
        .and_then(Value::as_u64)
        .unwrap_or(0)
        .max(WRITE_VERSION);
    doc.insert("version".into(), Value::from(version));
    let all_done = doc
        .get("active_tasks")
        .and_then(Value::as_array)
        .is_none_or(|tasks| {
            tasks
                .iter()
                .all(|t| t.get("status").and_then(Value::as_str) == Some("done"))
        });
    let status = if all_done { ALL_COMPLETE } else { READY };
    doc.insert("status".into(), Value::from(status));
    if !doc.contains_key("active_tasks") {
        doc.insert("active_tasks".into(), Value::Array(Vec::new()));
    }
    let hash = session_hash(doc);
    doc.insert("session_hash".into(), Value::from(hash));
}

/// Lay out a new document's keys in the order of SPEC section 2 (known keys first,
/// then the rest as given). Existing files keep their own order.
pub fn order_new(doc: &mut Map<String, Value>) {
    const ORDER: [&str; 12] = [
        "version",
        "generated_at",
        "session_id",
        "seq",
        "language",
        "status",
        "workspace",
        "active_tasks",
        "recent_decisions",
        "architecture_changes",
        "known_issues",
        "session_hash",
    ];
    let mut ordered = Map::new();
    for key in ORDER {
        if let Some(v) = doc.remove(key) {
            ordered.insert(key.to_owned(), v);
        }
    }
    ordered.append(doc);
    *doc = ordered;
}

pub use crate::model::canonical::session_hash;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => panic!("not an object"),
        }
    }

    #[test]
    fn merge_rules() {
        let mut doc = map(json!({
            "version": 3, "status": "READY", "x_keep": 1,
            "active_tasks": [{"id": "T1", "status": "in_progress", "x": 1}, {"id": "T2", "status": "pending"}],
            "recent_decisions": [{"decision": "a"}],
            "architecture_changes": (0..9).map(|i| json!({"commit_sha": format!("c{i}")})).collect::<Vec<_>>(),
            "known_issues": [{"description": "old"}],
            "workspace": {"root": "/w", "x_ws": true}
        }));
        merge(
            &mut doc,
            &map(json!({
                "status": "ALL_COMPLETE",
                "active_tasks": [{"id": "T2", "status": "done"}, {"id": "T3", "status": "pending"}],
                "recent_decisions": [{"decision": "a"}, {"decision": "b"}],
                "architecture_changes": [{"commit_sha": "c9"}, {"commit_sha": "c10"}],
                "known_issues": [{"description": "new"}],
                "workspace": {"branch": "main"},
                "x_new": "added"
            })),
        );
        assert_eq!(
            doc["status"], "READY",
            "status is derived, not taken from input"
        );
        assert_eq!(doc["x_keep"], 1);
        assert_eq!(doc["x_new"], "added");
        assert_eq!(
            doc["active_tasks"],
            json!([{"id": "T1", "status": "in_progress", "x": 1}, {"id": "T2", "status": "done"}, {"id": "T3", "status": "pending"}])
        );
        assert_eq!(
            doc["recent_decisions"],
            json!([{"decision": "a"}, {"decision": "b"}])
        );
        let shas: Vec<&str> = doc["architecture_changes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["commit_sha"].as_str().unwrap())
            .collect();
        assert_eq!(
            shas,
            ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10"]
        );
        assert_eq!(doc["known_issues"], json!([{"description": "new"}]));
        assert_eq!(
            doc["workspace"],
            json!({"root": "/w", "x_ws": true, "branch": "main"})
        );
    }

    #[test]
    fn merging_twice_is_merging_once() {
        let incoming = map(
            json!({"active_tasks": [{"id": "T1"}], "recent_decisions": [{"decision": "d"}],
                                  "architecture_changes": [{"commit_sha": "a"}]}),
        );
        let mut once = Map::new();
        merge(&mut once, &incoming);
        let mut twice = once.clone();
        merge(&mut twice, &incoming);
        assert_eq!(once, twice);
    }

    #[test]
    fn status_is_derived() {
        let mut doc = map(json!({"active_tasks": []}));
        seal(&mut doc);
        assert_eq!(doc["status"], "ALL_COMPLETE");
        assert_eq!(doc["version"], 4);
        let mut doc = map(
            json!({"version": 5, "active_tasks": [{"id": "a", "status": "done"}, {"id": "b", "status": "pending"}]}),
        );
        seal(&mut doc);
        assert_eq!(doc["status"], "READY");
        assert_eq!(doc["version"], 5, "a higher version is kept");
    }

    #[test]
    fn hash_ignores_key_order_and_itself() {
        let a = map(json!({"b": 1, "a": [{"y": 2, "x": 1}], "session_hash": "old"}));
        let b = map(json!({"a": [{"x": 1, "y": 2}], "b": 1}));
        assert_eq!(session_hash(&a), session_hash(&b));
        assert_eq!(session_hash(&a).len(), 64);
        let c = map(json!({"a": [{"x": 1, "y": 3}], "b": 1}));
        assert_ne!(session_hash(&a), session_hash(&c));
        // The canonical form is compact JSON with sorted keys.
        // sha256sum of `{"a":[{"x":1,"y":2}],"b":1}`
        assert_eq!(
            session_hash(&b),
            "644408bd76f399b8ede2a3cef08e70e1d485d59bfb7321c8a7e776a23b6aee0c"
        );
    }

    #[test]
    fn input_is_checked_with_field_paths() {
        assert_eq!(check_input(&json!([])).unwrap_err().0, "(root)");
        assert_eq!(
            check_input(&json!({"active_tasks": [{"id": "a"}, {}]}))
                .unwrap_err()
                .0,
            "active_tasks[1].id"
        );
        assert_eq!(
            check_input(&json!({"version": 9})).unwrap_err().0,
            "version"
        );
        assert!(check_input(&json!({"active_tasks": [{"id": "a"}]})).is_ok());
    }

    /// A task a hook made is the saver's once a save changes it; given back as it is
    /// (or with its mark), it stays the hook's.
    #[test]
    fn a_saved_change_to_a_hooks_task_makes_it_the_savers() {
        let by = json!({"agent": "claude", "session_id": "s", "automatic": true});
        let task = json!({"id": "T1", "status": "in_progress", "recorded_by": by});
        for (incoming, kept) in [
            (json!({"id": "T1", "status": "in_progress"}), true),
            (task.clone(), true),
            (json!({"id": "T1", "next_action": "parse"}), false),
        ] {
            let mut doc = map(json!({"active_tasks": [task.clone()]}));
            merge(&mut doc, &map(json!({"active_tasks": [incoming]})));
            let t = &doc["active_tasks"][0];
            assert_eq!(t.get("recorded_by").is_some(), kept, "{t}");
        }
    }
}
