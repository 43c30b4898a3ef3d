//! The command line, defined once: it parses arguments and generates `--help`, the
//! man pages under `man/` and the completions under `completions/`. Each verb's
//! arguments live with its command; this tree composes them, with the global options.
//! What several verbs share is in [`shared`].

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::commands::agent_hook::{ReminderArgs, SessionStartArgs};
use crate::commands::clean::{CLEAN_HELP, CleanArgs};
use crate::commands::completions::{COMPLETIONS_HELP, CompletionsArgs};
use crate::commands::r#continue::{CONTINUE_HELP, ContinueArgs};
use crate::commands::doctor::{DOCTOR_HELP, DoctorArgs};
use crate::commands::here::{HERE_HELP, HereArgs};
use crate::commands::log::{LOG_HELP, LogArgs};
use crate::commands::man::{MAN_HELP, ManArgs};
use crate::commands::render::{RENDER_HELP, RenderArgs};
use crate::commands::save::{SAVE_HELP, SaveArgs};
use crate::commands::schema::{SCHEMA_HELP, SchemaArgs};
use crate::commands::status::{STATUS_HELP, StatusArgs};
use crate::commands::sync::{SYNC_HELP, SyncArgs};
use crate::commands::task::{TASK_HELP, TaskArgs};
use crate::commands::why::{WHY_HELP, WhyArgs};

mod help;
pub mod shared;

pub use help::EXAMPLES;
use help::{AFTER_HELP, HOOK_HELP, MIGRATE_HELP};
pub use shared::{HookAgent, HookInstallArgs};

/// Manage the handover state AI coding agents leave between sessions, in every
/// worktree, checked against git.
#[derive(Debug, Parser)]
// The global options come in their own section, after each command's own.
#[command(next_help_heading = "Global options")]
#[command(
    name = "git-handover",
    // Run as `git handover`: the usage lines say so (the man pages and the completions
    // set their own names).
    bin_name = "git handover",
    version,
    disable_help_subcommand = true,
    after_long_help = AFTER_HELP
)]
pub struct Cli {
    /// Run as if started in <PATH>. Given more than once, each is taken relative to the
    /// one before, as git does (`-C a -C b` is `a/b`).
    #[arg(short = 'C', value_name = "PATH", global = true, action = clap::ArgAction::Append)]
    pub dir: Vec<PathBuf>,

    /// Override a configuration value for this run, like `git -c` (repeatable), e.g.
    /// `-c handover.freshFor=36h`. `git -c … handover` works too.
    #[arg(short = 'c', value_name = "NAME=VALUE", global = true)]
    pub config: Vec<String>,

    /// Print machine-readable JSON on stdout (versioned, the same in every language).
    #[arg(long, global = true)]
    pub json: bool,

    /// When to colour the output.
    #[arg(long, value_name = "WHEN", value_enum, global = true)]
    pub color: Option<ColorWhen>,

    /// The language of messages and labels.
    #[arg(long, value_name = "LANG", value_enum, global = true)]
    pub lang: Option<LangArg>,

    /// Say less: no warnings or hints on stderr.
    #[arg(short, long, global = true)]
    pub quiet: bool,

    /// What to do; `status` when left out.
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LangArg {
    En,
    Ja,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Show every worktree and every handover in it, checked against git.
    #[command(after_long_help = STATUS_HELP)]
    Status(StatusArgs),
    /// Find the handover to resume, from any worktree, and brief on it.
    #[command(after_long_help = CONTINUE_HELP)]
    Continue(ContinueArgs),
    /// Create or update this branch's session (or the team's) from JSON.
    #[command(after_long_help = SAVE_HELP)]
    Save(SaveArgs),
    /// Add, start, finish, block, reopen, edit or remove a task of a session; list or show them.
    #[command(after_long_help = TASK_HELP)]
    Task(TaskArgs),
    /// Regenerate a session's handover.md from its state.
    #[command(after_long_help = RENDER_HELP)]
    Render(RenderArgs),
    /// Write `CONTINUE_HERE.md`, stamped with the time and branch.
    #[command(after_long_help = HERE_HELP)]
    Here(HereArgs),
    /// Move the legacy .claude/project-state.json into a session directory.
    #[command(after_long_help = MIGRATE_HELP)]
    Migrate,
    /// Remove finished sessions older than a limit, in every worktree.
    #[command(after_long_help = CLEAN_HELP)]
    Clean(CleanArgs),
    /// Show the history of handovers kept in the notes store, newest first.
    #[command(after_long_help = LOG_HELP)]
    Log(LogArgs),
    /// Exchange the notes store with a remote: fetch, merge, push as a fast-forward.
    #[command(after_long_help = SYNC_HELP)]
    Sync(SyncArgs),
    /// Say which session, task and decision recorded a commit.
    #[command(after_long_help = WHY_HELP)]
    Why(WhyArgs),
    /// Check what git-handover depends on and say, per problem, the command that fixes it.
    #[command(after_long_help = DOCTOR_HELP)]
    Doctor(DoctorArgs),
    /// Agent hooks: the session-start command and its installation.
    #[command(subcommand, after_long_help = HOOK_HELP)]
    Hook(HookCommand),
    /// Print the JSON Schema of the input state or of a `--json` document.
    #[command(after_long_help = SCHEMA_HELP)]
    Schema(SchemaArgs),
    /// Print a shell completion script.
    #[command(after_long_help = COMPLETIONS_HELP)]
    Completions(CompletionsArgs),
    /// Write the man pages into a directory.
    #[command(after_long_help = MAN_HELP)]
    Man(ManArgs),
}

#[derive(Debug, Subcommand)]
pub enum HookCommand {
    /// Print the handover of the agent's worktree as `SessionStart` context (read-only).
    ///
    /// Reads the agent's JSON event from stdin when there is one and uses its `cwd`.
    /// Prints nothing when there is nothing to resume; never fails the agent's start.
    SessionStart(SessionStartArgs),
    /// Before the agent compacts its context: record what this agent session did since
    /// its start (commits, changed files, its transcript's last request and failed
    /// commands) into the worktree's session, marked as automatic, and remind it to
    /// save the handover, naming the tasks in progress it has not updated since this
    /// agent session started. Never blocks the compaction; prints nothing when there
    /// is nothing to say.
    PreCompact(ReminderArgs),
    /// When the agent session ends: the same record and reminder, and the claims this
    /// agent session holds in the worktree's session are released.
    SessionEnd(ReminderArgs),
    /// At the agent's Stop (Claude Code and Codex `Stop`, Gemini CLI `AfterAgent`): with
    /// `handover.stopGate=true`, once per agent session that changed files without
    /// updating a task, hold the stop with the command that records the handover.
    /// Silent otherwise (and while `stop_hook_active`); never fails the agent.
    Stop(ReminderArgs),
    /// After a commit (the git hook `hook install --git post-commit` adds): tasks of
    /// this worktree's ready session whose files the commit touched get `last_touched`
    /// set to the commit's time; with `handover.recordCommits=true` the commit is
    /// added to `architecture_changes`. Silent, and never fails the commit.
    PostCommit,
    /// Add the session-start hook to an agent's settings file.
    Install(HookInstallArgs),
    /// Remove what `hook install` added.
    Uninstall(HookInstallArgs),
}

/// The clap command, for generators.
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}
