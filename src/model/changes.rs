//! What changed between two saved states of a session, for `log` (like `git log
//! --stat` for files): tasks added, removed, moved to another status, and the session's
//! status. Pure: two JSON documents in, a list out.

use serde_json::{Map, Value};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// A task appeared, with its status.
    Added { id: String, status: String },
    /// A task is no longer there.
    Removed { id: String },
    /// A task's status moved.
    Moved {
        id: String,
        from: String,
        to: String,
    },
    /// The session's status moved.
    Session { from: String, to: String },
}

/// What a change is worked out from, of one state: its session `status` (`""` when it
/// is not a string) and each task's `(id, status)` (tasks without a string id left out,
/// a status not a string read as `""`). The notes index keeps it for a session's newest
/// records, so that `log -n` need not read their notes (issue 36).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    pub status: String,
    pub tasks: Vec<(String, String)>,
}

impl Summary {
    pub fn of(doc: &Map<String, Value>) -> Summary {
        Summary {
            status: doc
                .get("status")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
            tasks: tasks(doc),
        }
    }
}

fn tasks(doc: &Map<String, Value>) -> Vec<(String, String)> {
    doc.get("active_tasks")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|t| {
                    let id = t.get("id")?.as_str()?.to_owned();
                    let status = t
                        .get("status")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_owned();
                    Some((id, status))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The changes from `before` (the previous record of the session, if any) to `after`.
/// Without a previous record every task counts as added.
pub fn between(before: Option<&Summary>, after: &Summary) -> Vec<Change> {
    let empty = Vec::new();
    let old = before.map_or(&empty, |b| &b.tasks);
    let new = &after.tasks;
    let mut out = Vec::new();
    if let Some(before) = before
        && before.status != after.status
    {
        out.push(Change::Session {
            from: before.status.clone(),
            to: after.status.clone(),
        });
    }
    for (id, status) in new {
        match old.iter().find(|(o, _)| o == id) {
            None => out.push(Change::Added {
                id: id.clone(),
                status: status.clone(),
            }),
            Some((_, was)) if was != status => out.push(Change::Moved {
                id: id.clone(),
                from: was.clone(),
                to: status.clone(),
            }),
            Some(_) => {}
        }
    }
    for (id, _) in old {
        if !new.iter().any(|(n, _)| n == id) {
            out.push(Change::Removed { id: id.clone() });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => panic!("an object"),
        }
    }

    #[test]
    fn tasks_added_moved_removed_and_the_session_status() {
        let s = |v| Summary::of(&doc(v));
        let a = s(json!({"status": "READY", "active_tasks": [
            {"id": "T1", "status": "in_progress"}, {"id": "T2", "status": "pending"}]}));
        let b = s(json!({"status": "ALL_COMPLETE", "active_tasks": [
            {"id": "T1", "status": "done"}, {"id": "T3", "status": "done"}]}));
        assert_eq!(
            between(Some(&a), &b),
            [
                Change::Session {
                    from: "READY".into(),
                    to: "ALL_COMPLETE".into()
                },
                Change::Moved {
                    id: "T1".into(),
                    from: "in_progress".into(),
                    to: "done".into()
                },
                Change::Added {
                    id: "T3".into(),
                    status: "done".into()
                },
                Change::Removed { id: "T2".into() },
            ]
        );
        assert_eq!(between(Some(&b), &b), []);
        assert_eq!(between(None, &a).len(), 2);
    }
}
