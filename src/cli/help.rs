//! The long help texts of the command line, used by `--help`, the man pages and
//! the completions through the definitions in `cli.rs`.

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

pub(super) const TASK_HELP: &str = "\
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

pub(super) const RENDER_HELP: &str = "\
Examples:
  git handover render
  git handover render feature/x/20261129-080000
  git handover render --team alpha --agent reviewer";

pub(super) const HERE_HELP: &str = "\
The input is the note's sections in Markdown (## Objective, ## Completed, ## In Progress,
## Next Steps, ## Context); the tool adds the title, `Last updated:` and `Branch:`. A note
that was not consumed yet is replaced only with --force.

Examples:
  git handover here --from notes.md
  printf '## Objective\\nShip the parser\\n' | git handover here";

pub(super) const MIGRATE_HELP: &str = "\
The new copy gets version 3 and a workspace, is written and read back, and only then are the
old project-state.json and handover.md removed.

Examples:
  git handover migrate";

pub(super) const CLEAN_HELP: &str = "\
Only ALL_COMPLETE sessions are removed, judged by generated_at; only the files the tool
writes are removed, and a directory holding anything else is kept and named.

Examples:
  git handover clean --dry-run
  git handover clean --older-than 36h
  git handover clean --team alpha";

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

pub(super) const COMPLETIONS_HELP: &str = "\
The bash and zsh scripts also complete `git handover <TAB>` and git aliases of it through
git's own completion, and session keys for continue, render and log.

Examples:
  git handover completions bash > ~/.local/share/bash-completion/completions/git-handover
  git handover completions zsh > ~/.zfunc/_git-handover
  git handover completions fish > ~/.config/fish/completions/git-handover.fish";

pub(super) const MAN_HELP: &str = "\
Examples:
  git handover man ~/.local/share/man/man1
  git handover man \"$(dirname \"$(command -v git-handover)\")/../share/man/man1\"";

pub(super) const STATUS_HELP: &str = "\
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

pub(super) const CONTINUE_HELP: &str = "\
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

pub(super) const SAVE_HELP: &str = "\
The input is a full or partial project-state.json. It is merged into the session: tasks
with the same id are replaced and new ones appended; decisions are appended unless an
identical one exists; architecture changes keep the newest 10; known issues are replaced
when given; status, generated_at and session_hash are the tool's own. The READY session
of this branch is reused, else a new <branch>/<YYYYMMDD-HHMMSS> directory is made. A save
that changes nothing rewrites nothing.

Examples:
  echo '{\"active_tasks\":[{\"id\":\"T1\",\"description\":\"Parse\",\"status\":\"in_progress\"}]}' | git handover save
  git handover save --from state.json --team alpha --agent reviewer";

pub(super) const LOG_HELP: &str = "\
The notes store (handover.store = notes or both) keeps a record of every save, task
change and consumed continue-here note on the commit that was HEAD at that moment, in
handover.notesRef (refs/notes/handover). Each note is one JSON record per line; this
lists them all, newest first. Records that cannot be read are named on stderr.

Examples:
  git handover log
  git handover log main/20261130-120000
  git notes --ref=handover show HEAD";

pub(super) const SYNC_HELP: &str = "\
Fetches the remote's notes ref into refs/notes/remotes/<REMOTE>/handover, merges it into
the local one (each note joined line by line, as `git notes merge -s cat_sort_uniq`
does; when reading, the newest record of each session wins), and pushes the result
without force. If the push is rejected because the remote moved, it fetches, merges and
pushes again, up to 5 times (then exit 4). Uses the git binary for fetch and push.

Examples:
  git handover sync
  git handover sync upstream
  git handover sync --rewrite-ref    # also make notes follow rebase and --amend";
