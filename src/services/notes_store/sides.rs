//! A diverged session's sides as reports show them: what each holds, and the tasks
//! that set it apart.

use super::Side;

/// What a side holds, in short: status, tasks done of all, the next open task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideSummary {
    pub status: String,
    pub done: usize,
    pub total: usize,
    pub next: Option<String>,
}

/// For each side, the tasks that set it apart: `id (status)` of each task whose id and
/// status are not on every side.
pub fn differences(sides: &[Side]) -> Vec<Vec<String>> {
    let tasks = |side: &Side| -> Vec<(String, String)> {
        let doc = side
            .record
            .state
            .as_ref()
            .map(crate::model::record::StateText::doc);
        doc.as_ref()
            .and_then(|s| s.get("active_tasks"))
            .and_then(serde_json::Value::as_array)
            .map(|tasks| {
                tasks
                    .iter()
                    .map(|t| {
                        let field = |name: &str| {
                            t.get(name)
                                .and_then(serde_json::Value::as_str)
                                .unwrap_or_default()
                                .to_owned()
                        };
                        (field("id"), field("status"))
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let all: Vec<Vec<(String, String)>> = sides.iter().map(tasks).collect();
    all.iter()
        .map(|mine| {
            mine.iter()
                .filter(|t| !all.iter().all(|other| other.contains(t)))
                .map(|(id, status)| format!("{id} ({status})"))
                .collect()
        })
        .collect()
}

impl Side {
    pub fn summary(&self) -> SideSummary {
        let doc = self
            .record
            .state
            .as_ref()
            .map(crate::model::record::StateText::doc);
        let state = doc.as_ref();
        let tasks: &[serde_json::Value] = state
            .and_then(|s| s.get("active_tasks"))
            .and_then(serde_json::Value::as_array)
            .map_or(&[], Vec::as_slice);
        let status_of = |t: &serde_json::Value| {
            t.get("status")
                .and_then(serde_json::Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        SideSummary {
            status: state
                .and_then(|s| s.get("status"))
                .and_then(serde_json::Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            done: tasks.iter().filter(|t| status_of(t) == "done").count(),
            total: tasks.len(),
            next: tasks
                .iter()
                .find(|t| status_of(t) != "done")
                .and_then(|t| t.get("id"))
                .and_then(serde_json::Value::as_str)
                .map(str::to_owned),
        }
    }

    /// The state's own hash, how a side is named (`continue --take`).
    pub fn hash(&self) -> String {
        let state = self.record.state_doc();
        state
            .get("session_hash")
            .and_then(serde_json::Value::as_str)
            .map_or_else(
                || crate::model::session::session_hash(&state),
                str::to_owned,
            )
    }
}

/// The sides as a report shows them: each side's facts, and the tasks that set it apart.
pub fn facts(sides: &[Side]) -> Vec<crate::facts::side::SideFacts> {
    sides
        .iter()
        .zip(differences(sides))
        .map(|(side, differs)| {
            let sum = side.summary();
            crate::facts::side::SideFacts {
                commit: side.commit,
                hash: side.hash(),
                seq: side.record.seq,
                saved_at: side.record.saved_at,
                worktree: side.record.worktree.clone(),
                status: sum.status,
                done: sum.done,
                total: sum.total,
                next: sum.next,
                differs,
            }
        })
        .collect()
}
