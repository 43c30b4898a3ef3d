//! The arguments of `continue`.

use clap::Args;

use crate::cli::shared::TeamArgs;

#[derive(Debug, Args)]
pub struct ContinueArgs {
    /// A session key, or a path to a session directory, a `project-state.json` or a
    /// `CONTINUE_HERE.md`.
    #[arg(value_name = "KEY | PATH")]
    pub target: Option<String>,

    /// Brief a successor agent: start at once instead of asking for approval.
    #[arg(long)]
    pub successor: bool,

    /// Do not consume (remove) a continue-here note after briefing.
    #[arg(long)]
    pub keep: bool,

    /// Make a copy of another worktree's session (one that arrived with a checkout or
    /// a merge) this worktree's own: its workspace points here and it gets a new
    /// session id.
    #[arg(long)]
    pub adopt: bool,

    /// For a session written on two clones from one state (diverged): take the side
    /// whose state hash starts with HASH (`status` lists the sides), set the others
    /// aside in the notes store, and resume it.
    #[arg(long, value_name = "HASH")]
    pub take: Option<String>,

    /// Print the whole briefing and change nothing: no note consumed, no handover.md
    /// regenerated, nothing cleaned, restored or migrated. What the hook names when it
    /// had to cut the briefing to the agent's context.
    #[arg(long, conflicts_with_all = ["take", "adopt"])]
    pub full: bool,

    #[command(flatten)]
    pub team: TeamArgs,
}

impl ContinueArgs {
    /// What `hook session-start` briefs with: this branch's session, any note kept.
    pub fn briefing() -> Self {
        ContinueArgs {
            target: None,
            successor: false,
            keep: true,
            adopt: false,
            take: None,
            full: false,
            team: TeamArgs::default(),
        }
    }
}
