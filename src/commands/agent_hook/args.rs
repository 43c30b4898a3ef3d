//! The arguments of the agent hooks `hook session-start`, `hook pre-compact` and
//! `hook session-end`.

use clap::Args;

use crate::cli::shared::{HookAgent, HookScope};

#[derive(Debug, Args, Default, Clone)]
pub struct SessionStartArgs {
    /// The agent that runs the hook: its context budget (Claude Code and Gemini CLI
    /// 10,000 characters, Codex about 2,500 tokens, counted as tokens).
    #[arg(long, value_enum)]
    pub agent: Option<HookAgent>,

    /// Where the hook is registered. A user-scope hook briefs only in repositories
    /// that opted in (a project-scope hook of git-handover, or handover.hook=true).
    #[arg(long, value_enum)]
    pub scope: Option<HookScope>,
}

#[derive(Debug, Args, Default, Clone)]
pub struct ReminderArgs {
    /// The agent that runs the hook (its output format).
    #[arg(long, value_enum)]
    pub agent: Option<HookAgent>,

    /// Where the hook is registered. A user-scope hook reminds only in repositories
    /// that opted in, as `session-start` briefs.
    #[arg(long, value_enum)]
    pub scope: Option<HookScope>,
}

/// Which agent event a reminder is for: its wording differs (before a compaction the
/// agent can still save; at the end of the session only the user or the next session can).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    /// `hook pre-compact`: the agent's context is about to be compacted.
    Compact,
    /// `hook session-end`: the agent session is over.
    End,
}
