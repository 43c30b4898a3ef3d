//! The long help texts of the command line that belong to no one verb (the top
//! level's, `hook`'s, which spans the agent hooks and git's, and `migrate`'s, which
//! has no arguments), used by `--help`, the man pages and the completions through the
//! definitions in `cli.rs`. Each other verb's long help lives with its arguments.

pub(super) const AFTER_HELP: &str = "\
Exit status:
  0    success
  1    nothing to resume, --check found something that needs attention, or sync
       could not reach the remote (named, with what git said)
  2    usage error, an ambiguous choice without a terminal, or a diverged session
       (written on two clones from one state) that continue --take did not settle
  3    invalid handover data (the file is named, and never rewritten)
  4    a lock or ref update lost a race and retries ran out, or a stale lock stayed
       (named with its age and how to remove it)
  5    the files were written but the notes store was not updated: the files are
       the truth; record them with `git handover sync --record`
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

/// Examples for the top-level page.
pub const EXAMPLES: &str = "  git handover                       # status of every worktree
  git handover continue              # what a new session runs first
  echo '{\"active_tasks\":[]}' | git handover save
  git handover task done T1 --commit HEAD
  git handover status --check --json";

pub(super) const MIGRATE_HELP: &str = "\
The new copy gets version 3 and a workspace, is written and read back, and only then are the
old project-state.json and handover.md removed.

Examples:
  git handover migrate";

pub(super) const HOOK_HELP: &str = "\
Files written by install:
  claude  project .claude/settings.json   local .claude/settings.local.json (excluded from
          commits)   user $CLAUDE_CONFIG_DIR or ~/.claude/settings.json
  codex   project .codex/hooks.json       user $CODEX_HOME or ~/.codex/hooks.json
  gemini  project .gemini/settings.json   user $GEMINI_CLI_HOME/.gemini or ~/.gemini/settings.json
  --git post-commit: post-commit in core.hooksPath, else in the repository's hooks/
  (an existing hook is kept; git-handover runs first)
Codex runs a new or changed hook only once it is trusted: trust the project, then trust
the git-handover hook in /hooks. Gemini CLI needs a trusted folder. A user-scope hook
briefs only in repositories that opted in (a project-scope hook, or handover.hook=true).

Examples:
  git handover hook install --agent claude --scope project --instructions
  git handover hook install --agent codex --scope user
  git handover hook uninstall --agent claude --scope project
  git handover hook install --git post-commit
  echo '{\"cwd\":\"/path/to/worktree\"}' | git handover hook session-start";
