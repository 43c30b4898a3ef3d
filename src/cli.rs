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

Configuration (git config; -c NAME=VALUE or git -c overrides for one run):
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
  refs/notes/handover                    the notes store (handover.store = notes|both)

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
    /// Add, start, finish, block or reopen one task of a session.
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

/// Examples for the top-level page.
pub const EXAMPLES: &str = "  git handover                       # status of every worktree
  git handover continue              # what a new session runs first
  echo '{\"active_tasks\":[]}' | git handover save
  git handover task done T1 --commit HEAD
  git handover status --check --json";

const TASK_HELP: &str = "\
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

const RENDER_HELP: &str = "\
Examples:
  git handover render
  git handover render feature/x/20261129-080000
  git handover render --team alpha --agent reviewer";

const HERE_HELP: &str = "\
The input is the note's sections in Markdown (## Objective, ## Completed, ## In Progress,
## Next Steps, ## Context); the tool adds the title, `Last updated:` and `Branch:`. A note
that was not consumed yet is replaced only with --force.

Examples:
  git handover here --from notes.md
  printf '## Objective\\nShip the parser\\n' | git handover here";

const MIGRATE_HELP: &str = "\
The new copy gets version 3 and a workspace, is written and read back, and only then are the
old project-state.json and handover.md removed.

Examples:
  git handover migrate";

const CLEAN_HELP: &str = "\
Only ALL_COMPLETE sessions are removed, judged by generated_at; only the files the tool
writes are removed, and a directory holding anything else is kept and named.

Examples:
  git handover clean --dry-run
  git handover clean --older-than 36h
  git handover clean --team alpha";

const HOOK_HELP: &str = "\
Examples:
  git handover hook install --agent claude --scope project --instructions
  git handover hook install --agent codex --scope user
  git handover hook uninstall --agent claude --scope project
  echo '{\"cwd\":\"/path/to/worktree\"}' | git handover hook session-start";

const COMPLETIONS_HELP: &str = "\
The bash and zsh scripts also complete `git handover <TAB>` and git aliases of it through
git's own completion, and session keys for continue, render and log.

Examples:
  git handover completions bash > ~/.local/share/bash-completion/completions/git-handover
  git handover completions zsh > ~/.zfunc/_git-handover
  git handover completions fish > ~/.config/fish/completions/git-handover.fish";

const MAN_HELP: &str = "\
Examples:
  git handover man ~/.local/share/man/man1
  git handover man \"$(dirname \"$(command -v git-handover)\")/../share/man/man1\"";

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

    /// Print only the session keys, one per line: the sessions of every worktree (this
    /// one's with --here), then those only the notes store has. Nothing is checked
    /// against git; shell completion uses this.
    #[arg(long, conflicts_with = "check")]
    pub keys: bool,
}

const CONTINUE_HELP: &str = "\
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

    #[command(flatten)]
    pub team: TeamArgs,
}

const SAVE_HELP: &str = "\
The input is a full or partial project-state.json. It is merged into the session: tasks
with the same id are replaced and new ones appended; decisions are appended unless an
identical one exists; architecture changes keep the newest 10; known issues are replaced
when given; status, generated_at and session_hash are the tool's own. The READY session
of this branch is reused, else a new <branch>/<YYYYMMDD-HHMMSS> directory is made. A save
that changes nothing rewrites nothing.

Examples:
  echo '{\"active_tasks\":[{\"id\":\"T1\",\"description\":\"Parse\",\"status\":\"in_progress\"}]}' | git handover save
  git handover save --from state.json --team alpha --agent reviewer";

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

const LOG_HELP: &str = "\
The notes store (handover.store = notes or both) keeps a record of every save, task
change and consumed continue-here note on the commit that was HEAD at that moment, in
handover.notesRef (refs/notes/handover). Each note is one JSON record per line; this
lists them all, newest first. Records that cannot be read are named on stderr.

Examples:
  git handover log
  git handover log main/20261130-120000
  git notes --ref=handover show HEAD";

#[derive(Debug, Args)]
pub struct LogArgs {
    /// Only the records of this session key.
    pub key: Option<String>,

    /// Show at most N records.
    #[arg(short = 'n', long = "max-count", value_name = "N")]
    pub max_count: Option<usize>,
}

const SYNC_HELP: &str = "\
Fetches the remote's notes ref into refs/notes/remotes/<REMOTE>/handover, merges it into
the local one (each note joined line by line, as `git notes merge -s cat_sort_uniq`
does; when reading, the newest record of each session wins), and pushes the result
without force. If the push is rejected because the remote moved, it fetches, merges and
pushes again, up to 5 times (then exit 4). Uses the git binary for fetch and push.

Examples:
  git handover sync
  git handover sync upstream
  git handover sync --rewrite-ref    # also make notes follow rebase and --amend";

#[derive(Debug, Args)]
pub struct SyncArgs {
    /// The remote to exchange with.
    #[arg(default_value = "origin")]
    pub remote: String,

    /// Also add the notes ref to `notes.rewriteRef` in the repository's config, so that
    /// `git rebase` and `git commit --amend` carry the notes to the new commits.
    #[arg(long)]
    pub rewrite_ref: bool,
}

#[derive(Debug, Subcommand)]
pub enum HookCommand {
    /// Print the handover of the agent's worktree as `SessionStart` context (read-only).
    ///
    /// Reads the agent's JSON event from stdin when there is one and uses its `cwd`.
    /// Prints nothing when there is nothing to resume; never fails the agent's start.
    SessionStart,
    /// Add the session-start hook to an agent's settings file.
    Install(HookInstallArgs),
    /// Remove what `hook install` added.
    Uninstall(HookInstallArgs),
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
