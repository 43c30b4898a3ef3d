//! The JSON of a handover's links to the agents (issue 34): `agent_session` and
//! `pickup` of a handover's details.

use serde::Serialize;

use crate::facts::linkage::{Linkage, Pickup};

#[derive(Serialize)]
pub struct AgentSessionV1 {
    /// `claude`, `codex`, `gemini`, or another agent's word.
    pub agent: String,
    pub session_id: String,
    pub transcript_path: Option<String>,
    /// The directory the agent session ran in, when its start hook said.
    pub cwd: Option<String>,
    /// When it wrote the state.
    pub saved_at: Option<String>,
    /// The shell command that resumes that conversation in its directory, for an
    /// agent with one.
    pub resume: Option<String>,
}

#[derive(Serialize)]
pub struct PickupV1 {
    pub picked_up: bool,
    /// Who was briefed (a claim name), when someone was.
    pub by: Option<String>,
    pub agent: Option<String>,
    pub agent_session: Option<String>,
    pub at: Option<String>,
    /// Since the pick-up, or (not picked up) since the state was written.
    pub seconds: u64,
}

pub fn agent_session_v1(l: &Linkage) -> Option<AgentSessionV1> {
    let s = l.agent_session.as_ref()?;
    Some(AgentSessionV1 {
        agent: s.agent.clone(),
        session_id: s.session_id.clone(),
        transcript_path: s.transcript_path.clone(),
        cwd: s.cwd.clone(),
        saved_at: s.saved_at.clone(),
        resume: l.resume.clone(),
    })
}

pub fn pickup_v1(l: &Linkage) -> Option<PickupV1> {
    Some(match l.pickup.as_ref()? {
        Pickup::By {
            by,
            agent,
            agent_session,
            at,
            ago,
        } => PickupV1 {
            picked_up: true,
            by: Some(by.clone()),
            agent: agent.clone(),
            agent_session: agent_session.clone(),
            at: Some(super::time(*at)),
            seconds: ago.as_secs(),
        },
        Pickup::Not { for_ } => PickupV1 {
            picked_up: false,
            by: None,
            agent: None,
            agent_session: None,
            at: None,
            seconds: for_.as_secs(),
        },
    })
}

/// The agent session that wrote a state, as `why` names it.
#[derive(Serialize)]
pub struct WriterV1 {
    pub agent: String,
    pub session_id: String,
    pub transcript_path: Option<String>,
    pub saved_at: Option<String>,
}

pub fn writer_v1(s: &crate::model::agent_session::AgentSession) -> WriterV1 {
    WriterV1 {
        agent: s.agent.clone(),
        session_id: s.session_id.clone(),
        transcript_path: s.transcript_path.clone(),
        saved_at: s.saved_at.clone(),
    }
}
