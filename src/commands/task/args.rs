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

    #[command(flatten)]
    pub team: TeamArgs,
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

Examples:
  git handover task add T2 \"Write the docs\" --file README.md --next \"outline\"
  git handover task start T2
  git handover task done T1 --commit HEAD~1
  git handover task block T2 --reason \"waiting for review\"
  git handover task reopen T2
  git handover task --session main/20261130-120000 done T3";
