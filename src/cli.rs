//! The command line, defined once: it parses arguments and generates `--help`, the
//! man pages under `man/` and the completions under `completions/`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

const AFTER_HELP: &str = "\
Exit status:
  0    success
  1    nothing to resume, or --check found something that needs attention
  2    usage error, or an ambiguous choice without a terminal
  3    invalid handover data (the file is named, and never rewritten)
  4    a lock or ref update lost a race and retries ran out
  128  not inside a git repository

Configuration (git config):
  handover.dir          where sessions are written (default .claude/handover)
  handover.store        files, notes or both (default files)
  handover.notesRef     the notes ref (default refs/notes/handover)
  handover.freshFor     how long a handover is fresh (default 24h)
  handover.staleAfter   when an open task is stale (default 48h)
  handover.cleanAfter   when finished sessions are cleaned (default 7d)
  handover.autoClean    clean finished sessions on continue (default true)
  handover.lockTimeout  how long to wait for a lock (default 5s)
  handover.language     en or ja (default from LC_ALL, LC_MESSAGES, LANG)
  color.handover        auto, always or never (falls back to color.ui)

Files:
  <worktree>/.claude/handover/<branch>/<fingerprint>/project-state.json
  <worktree>/.claude/handover/<team>/<agent>/project-state.json
  <worktree>/.agents/handover/...        also scanned
  <worktree>/.claude/project-state.json  legacy (v2) state
  <worktree>/CONTINUE_HERE.md            (or docs/, .claude/) continue-here note

Environment:
  GIT_HANDOVER_NOW      pin the clock to an RFC 3339 time (for tests)
  NO_COLOR, CLICOLOR_FORCE";

/// Manage the handover state AI coding agents leave between sessions, in every
/// worktree, checked against git.
#[derive(Debug, Parser)]
#[command(
    name = "git-handover",
    bin_name = "git-handover",
    version,
    disable_help_subcommand = true,
    after_long_help = AFTER_HELP
)]
pub struct Cli {
    /// Run as if started in <PATH>.
    #[arg(short = 'C', value_name = "PATH", global = true)]
    pub dir: Option<PathBuf>,

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
    /// Print a shell completion script.
    Completions(CompletionsArgs),
    /// Write the man pages into a directory.
    Man(ManArgs),
}

const STATUS_HELP: &str = "\
For each worktree (main first, then linked ones in `git worktree list` order) this shows
its branch and HEAD, and each handover in it: structured sessions, legacy state and the
continue-here note, with their task counts, the next task, freshness (fresh, stale,
superseded), whether their worktree still exists (orphan, offline), the check of their
recorded commits (ok, unreachable, missing, ambiguous, rewritten) and stale tasks.

Examples:
  git handover status
  git handover status --here
  git handover status --check || echo 'handovers need attention'
  git handover status --json | jq '.worktrees[].handovers[].key'";

#[derive(Debug, Args, Default)]
pub struct StatusArgs {
    /// Only the current worktree.
    #[arg(long)]
    pub here: bool,

    /// Exit with status 1 when anything needs attention.
    #[arg(long)]
    pub check: bool,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// The directory to write `git-handover.1` and one page per subcommand into.
    pub dir: PathBuf,
}

/// The clap command, for generators.
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}
