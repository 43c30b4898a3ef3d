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
}
