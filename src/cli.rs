//! The command line, defined once: it parses arguments and generates `--help`, the
//! man pages under `man/` and the completions under `completions/`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

mod help;

pub use help::EXAMPLES;
use help::{
    AFTER_HELP, CLEAN_HELP, COMPLETIONS_HELP, CONTINUE_HELP, HERE_HELP, HOOK_HELP, LOG_HELP,
    MAN_HELP, MIGRATE_HELP, RENDER_HELP, SAVE_HELP, STATUS_HELP, SYNC_HELP, TASK_HELP,
};

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
    /// Exchange the notes store with a remote: fetch, merge, push without force.
    #[command(after_long_help = SYNC_HELP)]
    Sync(SyncArgs),
    /// Agent hooks: the session-start command and its installation.
    #[command(subcommand, after_long_help = HOOK_HELP)]
    Hook(HookCommand),
    /// Print a shell completion script.
    #[command(after_long_help = COMPLETIONS_HELP)]
    Completions(CompletionsArgs),
    /// Write the man pages into a directory.
    #[command(after_long_help = MAN_HELP)]
    Man(ManArgs),
}

#[derive(Debug, Args, Default)]
pub struct StatusArgs {
    /// Only the current worktree.
    #[arg(long)]
    pub here: bool,

    /// Exit with status 1 when anything needs attention, and list only what does.
    #[arg(long)]
    pub check: bool,

    /// One line per handover, like `git status --short`: a flag (`!` needs attention,
    /// `x` unreadable), the kind (`S` session, `N` note, `L` legacy state, `R` notes
    /// store record), the worktree (`.` for this one), the key, the verdicts and the
    /// next task.
    #[arg(long, short = 's')]
    pub short: bool,

    /// Print only the session keys, one per line: the sessions of every worktree (this
    /// one's with --here), then those only the notes store has. Nothing is checked
    /// against git; shell completion uses this.
    #[arg(long, conflicts_with = "check")]
    pub keys: bool,
}

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

/// Which team session to use instead of the branch's.
#[derive(Debug, Args, Default, Clone)]
pub struct TeamArgs {
    /// Use the team session <root>/<TEAM>/<AGENT>/ (also `GIT_HANDOVER_TEAM`).
    #[arg(long, value_name = "TEAM")]
    pub team: Option<String>,

    /// The agent within the team, `default` when left out (also `GIT_HANDOVER_AGENT`).
    #[arg(long, value_name = "AGENT")]
    pub agent: Option<String>,
}

#[derive(Debug, Args)]
pub struct SaveArgs {
    /// Read the state from FILE instead of stdin.
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,

    #[command(flatten)]
    pub team: TeamArgs,
}

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
    /// Put a done or blocked task back in progress, clearing its blockers.
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

#[derive(Debug, Args)]
pub struct RenderArgs {
    /// The session key; this branch's ready session when left out.
    pub key: Option<String>,

    #[command(flatten)]
    pub team: TeamArgs,
}

#[derive(Debug, Args)]
pub struct HereArgs {
    /// Read the note's sections from FILE instead of stdin.
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,

    /// Replace a note that has not been consumed yet.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct CleanArgs {
    /// Remove finished sessions older than this (default handover.cleanAfter, 7d).
    #[arg(long, value_name = "DURATION")]
    pub older_than: Option<String>,

    /// Say what would be removed, and remove nothing.
    #[arg(long)]
    pub dry_run: bool,

    /// Remove the directory of this team, when all its sessions are finished.
    #[arg(long, value_name = "TEAM")]
    pub team: Option<String>,
}

#[derive(Debug, Args)]
pub struct LogArgs {
    /// Only the records of this session key.
    pub key: Option<String>,

    /// Show at most N records.
    #[arg(short = 'n', long = "max-count", value_name = "N")]
    pub max_count: Option<usize>,
}

#[derive(Debug, Args)]
pub struct SyncArgs {
    /// The remote to exchange with.
    #[arg(default_value = "origin")]
    pub remote: String,

    /// Also add the notes ref to `notes.rewriteRef` in the repository's config, so that
    /// `git rebase` and `git commit --amend` carry the notes to the new commits.
    #[arg(long)]
    pub rewrite_ref: bool,

    /// Only record: append to the notes store a record of every session whose files
    /// hold a state the store does not have as its newest (after a save that exited 5,
    /// "files written, store not updated"). Nothing is fetched or pushed.
    #[arg(long)]
    pub record: bool,
}

#[derive(Debug, Subcommand)]
pub enum HookCommand {
    /// Print the handover of the agent's worktree as `SessionStart` context (read-only).
    ///
    /// Reads the agent's JSON event from stdin when there is one and uses its `cwd`.
    /// Prints nothing when there is nothing to resume; never fails the agent's start.
    SessionStart(SessionStartArgs),
    /// Before the agent compacts its context: remind it to save the handover, naming
    /// the tasks in progress it has not updated since this agent session started.
    /// Never blocks the compaction; prints nothing when there is nothing to say.
    PreCompact(ReminderArgs),
    /// When the agent session ends: the same reminder, for agents that show it.
    SessionEnd(ReminderArgs),
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

#[derive(Debug, Args)]
pub struct HookInstallArgs {
    /// The agent whose settings to change.
    #[arg(long, value_enum, default_value_t = HookAgent::Claude)]
    pub agent: HookAgent,

    /// Which settings file: the project's (committed), local (not committed), or the user's.
    #[arg(long, value_enum, default_value_t = HookScope::Project)]
    pub scope: HookScope,

    /// Also add (or remove) a short "Session continuity" section in CLAUDE.md (Codex:
    /// AGENTS.md, Gemini: GEMINI.md).
    #[arg(long)]
    pub instructions: bool,

    /// Install (or remove) a git hook instead of an agent's: `post-commit` runs
    /// `git-handover hook post-commit` after each commit, in the hooks directory git
    /// uses (`core.hooksPath`, else the repository's `hooks/`), before whatever the
    /// hook already does (an existing hook is kept, never overwritten).
    #[arg(long, value_enum, value_name = "HOOK", conflicts_with = "instructions")]
    pub git: Option<GitHook>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GitHook {
    PostCommit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HookAgent {
    Claude,
    Codex,
    Gemini,
}

impl HookAgent {
    pub fn name(self) -> &'static str {
        match self {
            HookAgent::Claude => "Claude Code",
            HookAgent::Codex => "Codex CLI",
            HookAgent::Gemini => "Gemini CLI",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HookScope {
    Project,
    Local,
    User,
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
