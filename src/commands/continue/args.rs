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

    /// The name the briefing's claim command uses (default `GIT_HANDOVER_AS`, else
    /// the calling agent session's identity).
    #[arg(long = "as", value_name = "NAME")]
    pub holder: Option<String>,

    #[command(flatten)]
    pub team: TeamArgs,

    /// The agent session briefed, for its receipt: the hook's event (issue 34). Else
    /// the one of the environment.
    #[arg(skip)]
    pub briefed: Option<crate::model::agent_session::AgentSession>,
}

/// The long help of `continue`, after its options.
pub const CONTINUE_HELP: &str = "\
Resolution: an explicit KEY or PATH (a session directory, a project-state.json or a
CONTINUE_HERE.md) wins; else the team session with --team/--agent or GIT_HANDOVER_TEAM/
GIT_HANDOVER_AGENT; else the READY sessions, legacy state and continue-here note of this
worktree; else those of the other worktrees, announced as such. With several, a terminal
gets a numbered list and a prompt; without one, the list is printed and the exit status
is 2. Nothing to resume: exit 1.

Side effects, each said in a line: a chosen legacy state is migrated; handover.md is
regenerated; finished sessions older than handover.cleanAfter are removed from this
worktree (unless handover.autoClean=false); a continue-here note is consumed after the
briefing (a copy is kept first: in the notes store when handover.store is notes or both,
else under <handover.dir>/consumed/; a tracked note is removed with git rm and a commit
of that path alone), unless --keep. Last, when nothing is found in any worktree, the
unfinished sessions that only the notes store has are offered; the one chosen is
restored into this worktree before the briefing.

Examples:
  git handover continue
  git handover continue feature/x/20261129-080000 --successor
  git handover continue ../other-worktree/CONTINUE_HERE.md --keep";

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
            holder: None,
            team: TeamArgs::default(),
            briefed: None,
        }
    }
}
