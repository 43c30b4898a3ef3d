//! What in a handover state names a commit: tasks done by it (`commit_sha`), the
//! architecture changes it made, decisions that name it. The sha each mention was
//! written with is kept: the caller asks git whether it is the commit asked about
//! (a short sha is checked, not taken on trust).

use serde_json::{Map, Value};

/// Where in the state a commit is named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mention {
    /// A task whose `commit_sha` is the commit.
    Task {
        id: String,
        description: String,
        status: String,
    },
    /// An entry of `architecture_changes`.
    Change { summary: String },
    /// An entry of `recent_decisions` with a `commit_sha`.
    Decision { decision: String, rationale: String },
}

/// A mention and the sha as it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub mention: Mention,
    pub written: String,
}

/// Every mention in `doc` of a commit whose sha starts with what was written: at
/// least 7 hex digits, case aside, a prefix of `full`.
pub fn mentions(doc: &Map<String, Value>, full: &str) -> Vec<Named> {
    fn text(v: &Value, k: &str) -> String {
        v.get(k).and_then(Value::as_str).unwrap_or("").to_owned()
    }
    let mut out = Vec::new();
    let entries = |key: &str| {
        doc.get(key)
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default()
    };
    for (field, make) in [
        (
            "active_tasks",
            (|v: &Value| Mention::Task {
                id: text(v, "id"),
                description: text(v, "description"),
                status: text(v, "status"),
            }) as fn(&Value) -> Mention,
        ),
        ("architecture_changes", |v: &Value| Mention::Change {
            summary: text(v, "summary"),
        }),
        ("recent_decisions", |v: &Value| Mention::Decision {
            decision: text(v, "decision"),
            rationale: text(v, "rationale"),
        }),
    ] {
        for entry in entries(field) {
            let Some(written) = entry.get("commit_sha").and_then(Value::as_str) else {
                continue;
            };
            if names(written, full) {
                out.push(Named {
                    mention: make(entry),
                    written: written.to_owned(),
                });
            }
        }
    }
    out
}

/// Whether `written` could name `full`: 7 hex digits or more, a prefix of it.
fn names(written: &str, full: &str) -> bool {
    let w = written.trim().to_ascii_lowercase();
    w.len() >= 7
        && w.len() <= full.len()
        && w.bytes().all(|b| b.is_ascii_hexdigit())
        && full.to_ascii_lowercase().starts_with(&w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const FULL: &str = "3f2a9c1d00000000000000000000000000000000";

    fn doc(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => unreachable!("a test state is an object"),
        }
    }

    #[test]
    fn tasks_changes_and_decisions_that_name_the_commit_are_found() {
        let d = doc(json!({
            "active_tasks": [
                {"id": "T1", "description": "Port", "status": "done", "commit_sha": "3F2A9C1"},
                {"id": "T2", "description": "Other", "status": "done", "commit_sha": "3f2a9c2"},
                {"id": "T3", "description": "Short", "status": "done", "commit_sha": "3f2a"},
                {"id": "T4", "description": "None", "status": "pending"}],
            "architecture_changes": [{"commit_sha": FULL, "summary": "lexer split"}],
            "recent_decisions": [{"decision": "keep API", "rationale": "users", "commit_sha": "3f2a9c1d"},
                                 {"decision": "no sha", "rationale": ""}]
        }));
        let found = mentions(&d, FULL);
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(matches!(&found[0].mention, Mention::Task { id, .. } if id == "T1"));
        assert_eq!(found[0].written, "3F2A9C1");
        assert!(
            matches!(&found[1].mention, Mention::Change { summary } if summary == "lexer split")
        );
        assert!(
            matches!(&found[2].mention, Mention::Decision { decision, .. } if decision == "keep API")
        );
    }

    #[test]
    fn fields_of_the_wrong_shape_are_passed_over() {
        let d = doc(
            json!({"active_tasks": {"T1": 1}, "architecture_changes": [1, "x", {"commit_sha": 5}]}),
        );
        assert!(mentions(&d, FULL).is_empty());
        assert!(!names("zzzzzzz", FULL));
        assert!(!names(&format!("{FULL}0"), FULL));
    }
}
