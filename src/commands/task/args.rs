//! `task`'s arguments and long help.

use crate::cli::shared::TeamArgs;
use clap::{Args, Subcommand};

#[derive(Debug, Args)]
pub struct TaskArgs {
    #[command(subcommand)]
    pub op: TaskOp,

    /// Edit the session with this key instead of this branch's ready session.
    #[arg(long, value_name = "KEY", global = true)]
    pub session: Option<String>,

    /// The name claims are made, released and checked under (default
    /// `GIT_HANDOVER_AS`, else the calling agent session's identity).
    #[arg(long = "as", value_name = "NAME", global = true)]
    pub holder: Option<String>,

    #[command(flatten)]
    pub team: TeamArgs,
}

/// How long a claim's lease lasts.
#[derive(Debug, Args, Clone)]
pub struct LeaseArgs {
    /// How long the lease lasts (`30m`, `2h`; default `handover.claimFor`, 30m).
    #[arg(long = "for", value_name = "DURATION", value_parser = parse_lease)]
    pub lease: Option<std::time::Duration>,
}

/// Where a claim is decided across clones.
#[derive(Debug, Args, Clone)]
pub struct RemoteArgs {
    /// Decide the claim on this remote's notes ref (fetch, decide, push a fast-forward
    /// leased on the commit decided on, never a forced rewrite;
    /// default `handover.claimRemote`): two clones never both hold a task. Needs
    /// `handover.store` = both or notes.
    #[arg(long, value_name = "REMOTE")]
    pub remote: Option<String>,
}

fn parse_lease(s: &str) -> Result<std::time::Duration, String> {
    crate::support::config::parse_lease(s).map_err(|m| m.to_string())
}

#[derive(Debug, Subcommand)]
pub enum TaskOp {
    /// Add a task (status `pending`).
    Add {
        /// The new task's id (unique in the session).
        id: String,
        /// What the task is.
        description: String,
        /// A file the task touches; repeatable.
        #[arg(long = "file", value_name = "PATH")]
        files: Vec<String>,
        /// What to do next.
        #[arg(long, value_name = "TEXT")]
        next: Option<String>,
    },
    /// Mark a task in progress.
    Start {
        /// The task's id.
        id: String,
    },
    /// Mark a task done, recording the commit that did it.
    Done {
        /// The task's id.
        id: String,
        /// The commit (any revision; default HEAD), stored as a full sha.
        #[arg(long, value_name = "REV")]
        commit: Option<String>,
    },
    /// Mark a task blocked.
    Block {
        /// The task's id.
        id: String,
        /// Why; repeatable.
        #[arg(long = "reason", value_name = "TEXT", required = true)]
        reasons: Vec<String>,
    },
    /// Put a done or blocked task back in progress, clearing its blockers and its commit.
    Reopen {
        /// The task's id.
        id: String,
    },
    /// Change what a task says: its description, next action or files.
    Edit {
        /// The task's id.
        id: String,
        /// The new description.
        #[arg(long, value_name = "TEXT")]
        description: Option<String>,
        /// The new next action.
        #[arg(long, value_name = "TEXT")]
        next: Option<String>,
        /// The task's files (repeatable); given once or more, they replace the list.
        #[arg(long = "file", value_name = "PATH")]
        files: Vec<String>,
    },
    /// Claim a task: a lease only its holder may renew, release or finish early; exit 6
    /// when another holder's lease is live.
    Claim {
        /// The task's id.
        id: String,
        #[command(flatten)]
        lease: LeaseArgs,
        /// Take the task even from another holder's live lease (says whose).
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        remote: RemoteArgs,
    },
    /// Show the next task to work on: the first not done, not blocked and not claimed
    /// by another live lease; its bare id is the first word. Exit 1 when none is left.
    Next {
        /// Claim it in the same step, so two callers never get the same task.
        #[arg(long)]
        claim: bool,
        #[command(flatten)]
        lease: LeaseArgs,
        #[command(flatten)]
        remote: RemoteArgs,
    },
    /// Release a claim: another holder's live claim only with --force.
    Release {
        /// The task's id.
        id: String,
        /// Release another holder's live claim (says whose).
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        remote: RemoteArgs,
    },
    /// Remove a task from the session (it stays in the notes store's history).
    Remove {
        /// The task's id.
        id: String,
    },
    /// List the session's tasks, one a line (read-only).
    List {
        /// Print only the task ids, one a line (shell completion uses this).
        #[arg(long)]
        ids: bool,
    },
    /// Show one task whole: description, next action, files, blockers, what was tried
    /// (read-only).
    Show {
        /// The task's id.
        id: String,
    },
}

/// The long help of `task`, after its options.
pub const TASK_HELP: &str = "\
The session is this branch's READY session (or the team's with --team/--agent), or the one
named with --session. `add` makes the session when the branch has none. Each edit sets the
task's last_touched, recomputes the session's status (ALL_COMPLETE when every task is done)
and regenerates handover.md, under the session's lock.

A claim is a lease on a task: `claim`, `next --claim`, `release`, and `done` and `block`
(which release the caller's claim) act as --as NAME, else GIT_HANDOVER_AS, else the
calling agent session (claude-…, codex-…, gemini-… from the agent's session id), else
user@host:worktree. Exit 6: the task is held by another live lease.

With --remote REMOTE (or handover.claimRemote; needs handover.store both or notes) the
claim is decided on the remote's notes ref: fetched, decided, written, pushed without
force; when another clone's push came first, its claim wins and this one gives way
(exit 6 naming the winner). A remote that cannot be reached leaves the claim local and
unconfirmed until `git handover sync REMOTE` confirms it or says it was lost.

Examples:
  git handover task add T2 \"Write the docs\" --file README.md --next \"outline\"
  git handover task start T2
  git handover task done T1 --commit HEAD~1
  git handover task block T2 --reason \"waiting for review\"
  git handover task reopen T2
  git handover task next --claim --as agent-1 --for 1h
  git handover task claim T2 --as agent-1
  git handover task release T2 --as agent-1
  git handover task claim T2 --as agent-1 --remote origin
  git handover task --session main/20261130-120000 done T3";
