//! What links a handover to the agents (issue 34, items 5 and 6): the agent session
//! that wrote it, the command that resumes that conversation, and whether a successor
//! picked it up.

use std::time::Duration;

use crate::model::agent_session::AgentSession;

#[derive(Debug, Clone, Default)]
pub struct Linkage {
    /// The agent session that wrote the state (its `agent_session`).
    pub agent_session: Option<AgentSession>,
    /// `cd <worktree> && claude --resume ID`, shell-quoted, for an agent with one.
    pub resume: Option<String>,
    /// Whether someone was briefed on this very state (only `status` asks).
    pub pickup: Option<Pickup>,
}

/// Who was briefed on a state, or for how long nobody was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pickup {
    By {
        /// The claim name of whoever was briefed.
        by: String,
        agent: Option<String>,
        agent_session: Option<String>,
        at: jiff::Timestamp,
        ago: Duration,
    },
    /// Nobody since the state was written, this long ago.
    Not { for_: Duration },
}
