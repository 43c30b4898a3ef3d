//! What a state holds besides its tasks, read once for every reader: decisions, known
//! issues, attempted approaches per task, phase observations and session notes (SPEC
//! section 2, version 4 fields). Kept as written (multi-line text included); each
//! renderer decides how to lay it out (`handover.md` flattens, the briefing indents).

// The fields are named as the state's JSON names them (`approach`, `observation`).
#![allow(clippy::struct_field_names)]

use serde_json::{Map, Value};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Decision {
    pub decision: String,
    pub rationale: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Issue {
    pub severity: Option<String>,
    pub description: String,
}

/// What was tried for a task and why it did not work.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Approach {
    pub approach: String,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub learnings: Option<String>,
}

impl Approach {
    /// `{approach} → {result}: {reason} ({learnings})`, leaving out what is not there,
    /// each part passed through `each` (to flatten it, or not).
    pub fn line(&self, each: impl Fn(&str) -> String) -> String {
        let mut line = each(&self.approach);
        if let Some(result) = &self.result {
            line.push_str(" → ");
            line.push_str(&each(result));
        }
        if let Some(reason) = &self.reason {
            line.push_str(": ");
            line.push_str(&each(reason));
        }
        if let Some(learnings) = &self.learnings {
            line.push_str(" (");
            line.push_str(&each(learnings));
            line.push(')');
        }
        line
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Observation {
    pub phase: String,
    pub criteria_id: String,
    pub observation: String,
    pub recommendation: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionNote {
    pub category: String,
    pub content: String,
    pub phase: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Extras {
    pub decisions: Vec<Decision>,
    pub known_issues: Vec<Issue>,
    /// Per task, in the order of the state's `active_tasks`.
    pub approaches: Vec<Vec<Approach>>,
    pub observations: Vec<Observation>,
    pub session_notes: Vec<SessionNote>,
    /// The agent session that wrote the state (issue 34), when it says.
    pub agent_session: Option<crate::model::agent_session::AgentSession>,
    /// The state's stored `session_hash`, as written (what a receipt names).
    pub session_hash: Option<String>,
}

impl Extras {
    /// The approaches tried for the task at `index` of `active_tasks`.
    pub fn tried(&self, index: usize) -> &[Approach] {
        self.approaches.get(index).map_or(&[], Vec::as_slice)
    }
}

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

fn list(value: Option<&Value>) -> &[Value] {
    value.and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// The extras of a (validated) state document. Entries without their main text are
/// passed over, as `handover.md` always did.
pub fn from_doc(doc: &Map<String, Value>) -> Extras {
    let approaches: Vec<Option<&Value>> = list(doc.get("active_tasks"))
        .iter()
        .map(|t| t.get("attempted_approaches"))
        .collect();
    from_fields(&|key| doc.get(key), &approaches)
}

/// The extras from a state's top-level fields (`top`) and each task's
/// `attempted_approaches`, in task order: for the document and for the typed reading.
pub fn from_fields<'a>(
    top: &dyn Fn(&str) -> Option<&'a Value>,
    task_approaches: &[Option<&Value>],
) -> Extras {
    Extras {
        decisions: list(top("recent_decisions"))
            .iter()
            .filter_map(|d| {
                Some(Decision {
                    decision: text(d, "decision")?,
                    rationale: text(d, "rationale"),
                })
            })
            .collect(),
        known_issues: list(top("known_issues"))
            .iter()
            .filter_map(|i| {
                Some(Issue {
                    description: text(i, "description")?,
                    severity: text(i, "severity"),
                })
            })
            .collect(),
        approaches: task_approaches
            .iter()
            .map(|t| {
                list(*t)
                    .iter()
                    .filter_map(|a| {
                        Some(Approach {
                            approach: text(a, "approach")?,
                            result: text(a, "result"),
                            reason: text(a, "reason"),
                            learnings: text(a, "learnings"),
                        })
                    })
                    .collect()
            })
            .collect(),
        observations: list(top("phase_observations"))
            .iter()
            .flat_map(|phase| {
                let name = text(phase, "phase").unwrap_or_default();
                phase
                    .get("observations")
                    .and_then(Value::as_array)
                    .map_or(&[][..], Vec::as_slice)
                    .iter()
                    .map(move |o| Observation {
                        phase: name.clone(),
                        criteria_id: text(o, "criteria_id").unwrap_or_default(),
                        observation: text(o, "observation").unwrap_or_default(),
                        recommendation: text(o, "recommendation"),
                    })
            })
            .collect(),
        session_notes: list(top("session_notes"))
            .iter()
            .map(|n| SessionNote {
                category: text(n, "category").unwrap_or_default(),
                content: text(n, "content").unwrap_or_default(),
                phase: text(n, "relates_to_phase"),
            })
            .collect(),
        agent_session: crate::model::agent_session::AgentSession::from_value(top(
            crate::model::agent_session::KEY,
        )),
        session_hash: top("session_hash")
            .and_then(Value::as_str)
            .map(str::to_owned),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extras_keep_text_as_written_and_pass_over_empty_entries() {
        let doc = serde_json::json!({
            "recent_decisions": [{"decision": "use gix\nnot git2", "rationale": "pure Rust"}, {"rationale": "no decision"}],
            "known_issues": [{"severity": "high", "description": "slow"}],
            "active_tasks": [{"id": "T1"}, {"id": "T2", "attempted_approaches": [
                {"approach": "cache", "result": "failed", "reason": "stale", "learnings": "key by hash"}]}],
            "phase_observations": [{"phase": "2", "observations": [{"criteria_id": "C1", "observation": "ok"}]}],
            "session_notes": [{"category": "warning", "content": "careful"}]
        });
        let e = from_doc(doc.as_object().unwrap());
        assert_eq!(e.decisions.len(), 1);
        assert_eq!(e.decisions[0].decision, "use gix\nnot git2");
        assert_eq!(e.known_issues[0].severity.as_deref(), Some("high"));
        assert!(e.tried(0).is_empty());
        assert_eq!(
            e.tried(1)[0].line(str::to_owned),
            "cache → failed: stale (key by hash)"
        );
        assert!(e.tried(7).is_empty());
        assert_eq!(e.observations[0].phase, "2");
        assert_eq!(e.session_notes[0].phase, None);
    }
}
