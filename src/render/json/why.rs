//! `why --json`: the commit and every entry that recorded it.

use serde::Serialize;

use crate::commands::why::{Place, Report};
use crate::model::why::Mention;

#[derive(Serialize)]
pub struct WhyV1 {
    pub schema: &'static str,
    pub commit: String,
    pub subject: String,
    pub recorded: Vec<RecordedV1>,
    /// State files that could not be read, and so were not searched.
    pub unreadable: Vec<String>,
}

#[derive(Serialize)]
pub struct RecordedV1 {
    pub key: String,
    pub session_id: Option<String>,
    pub branch: Option<String>,
    /// `task`, `architecture_change` or `decision`.
    pub kind: &'static str,
    pub task: Option<String>,
    pub text: String,
    pub status: Option<String>,
    /// `file` (a state file, `path`) or `notes` (a record, `noted_on`, `saved_at`).
    pub source: &'static str,
    pub path: Option<String>,
    pub noted_on: Option<String>,
    pub saved_at: Option<String>,
    /// The agent session that wrote the state the entry was read from (issue 34);
    /// absent when the state names none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_session: Option<super::linkage::WriterV1>,
}

pub fn why(r: &Report) -> WhyV1 {
    let recorded = r
        .found
        .iter()
        .map(|f| {
            let (kind, task, text, status) = match &f.mention {
                Mention::Task {
                    id,
                    description,
                    status,
                } => (
                    "task",
                    Some(id.clone()),
                    description.clone(),
                    Some(status.clone()),
                ),
                Mention::Change { summary } => ("architecture_change", None, summary.clone(), None),
                Mention::Decision { decision, .. } => ("decision", None, decision.clone(), None),
            };
            let (source, path, noted_on, saved_at) = match &f.place {
                Place::File(p) => ("file", Some(p.display().to_string()), None, None),
                Place::Store { noted_on, saved_at } => (
                    "notes",
                    None,
                    Some(noted_on.to_string()),
                    Some(saved_at.clone()),
                ),
            };
            RecordedV1 {
                key: f.key.clone(),
                session_id: f.session_id.clone(),
                branch: f.branch.clone(),
                kind,
                task,
                text,
                status,
                source,
                path,
                noted_on,
                saved_at,
                agent_session: f.agent_session.as_ref().map(super::linkage::writer_v1),
            }
        })
        .collect();
    WhyV1 {
        schema: "git-handover/why/1",
        commit: r.commit.id.to_string(),
        subject: r.commit.subject.clone(),
        recorded,
        unreadable: r
            .unreadable
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
    }
}
