
use builtin;
use str;

set edit:completion:arg-completer[git-handover] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'git-handover'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'git-handover'= {
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand status 'Show every worktree and every handover in it, checked against git'
            cand continue 'Find the handover to resume, from any worktree, and brief on it'
            cand save 'Create or update this branch''s session (or the team''s) from JSON'
            cand task 'Add, start, finish, block or reopen one task of a session'
            cand render 'Regenerate a session''s handover.md from its state'
            cand here 'Write `CONTINUE_HERE.md`, stamped with the time and branch'
            cand migrate 'Move the legacy .claude/project-state.json into a session directory'
            cand clean 'Remove finished sessions older than a limit, in every worktree'
            cand log 'Show the history of handovers kept in the notes store, newest first'
            cand sync 'Exchange the notes store with a remote: fetch, merge, push without force'
            cand hook 'Agent hooks: the session-start command and its installation'
            cand completions 'Print a shell completion script'
            cand man 'Write the man pages into a directory'
        }
        &'git-handover;status'= {
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --here 'Only the current worktree'
            cand --check 'Exit with status 1 when anything needs attention'
            cand --keys 'Print only the session keys, one per line: the sessions of every worktree (this one''s with --here), then those only the notes store has. Nothing is checked against git; shell completion uses this'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-handover;continue'= {
            cand --team 'Use the team session <root>/<TEAM>/<AGENT>/ (also `GIT_HANDOVER_TEAM`)'
            cand --agent 'The agent within the team, `default` when left out (also `GIT_HANDOVER_AGENT`)'
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --successor 'Brief a successor agent: start at once instead of asking for approval'
            cand --keep 'Do not consume (remove) a continue-here note after briefing'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-handover;save'= {
            cand --from 'Read the state from FILE instead of stdin'
            cand --team 'Use the team session <root>/<TEAM>/<AGENT>/ (also `GIT_HANDOVER_TEAM`)'
            cand --agent 'The agent within the team, `default` when left out (also `GIT_HANDOVER_AGENT`)'
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-handover;task'= {
            cand --session 'Edit the session with this key instead of this branch''s ready session'
            cand --team 'Use the team session <root>/<TEAM>/<AGENT>/ (also `GIT_HANDOVER_TEAM`)'
            cand --agent 'The agent within the team, `default` when left out (also `GIT_HANDOVER_AGENT`)'
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand add 'Add a task (status `pending`)'
            cand start 'Mark a task in progress'
            cand done 'Mark a task done, recording the commit that did it'
            cand block 'Mark a task blocked'
            cand reopen 'Put a done or blocked task back in progress, clearing its blockers'
        }
        &'git-handover;task;add'= {
            cand --file 'A file the task touches; repeatable'
            cand --next 'What to do next'
            cand --session 'Edit the session with this key instead of this branch''s ready session'
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'git-handover;task;start'= {
            cand --session 'Edit the session with this key instead of this branch''s ready session'
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'git-handover;task;done'= {
            cand --commit 'The commit (any revision; default HEAD), stored as a full sha'
            cand --session 'Edit the session with this key instead of this branch''s ready session'
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'git-handover;task;block'= {
            cand --reason 'Why; repeatable'
            cand --session 'Edit the session with this key instead of this branch''s ready session'
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'git-handover;task;reopen'= {
            cand --session 'Edit the session with this key instead of this branch''s ready session'
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'git-handover;render'= {
            cand --team 'Use the team session <root>/<TEAM>/<AGENT>/ (also `GIT_HANDOVER_TEAM`)'
            cand --agent 'The agent within the team, `default` when left out (also `GIT_HANDOVER_AGENT`)'
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-handover;here'= {
            cand --from 'Read the note''s sections from FILE instead of stdin'
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --force 'Replace a note that has not been consumed yet'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-handover;migrate'= {
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-handover;clean'= {
            cand --older-than 'Remove finished sessions older than this (default handover.cleanAfter, 7d)'
            cand --team 'Remove the directory of this team, when all its sessions are finished'
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --dry-run 'Say what would be removed, and remove nothing'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-handover;log'= {
            cand -n 'Show at most N records'
            cand --max-count 'Show at most N records'
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-handover;sync'= {
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --rewrite-ref 'Also add the notes ref to `notes.rewriteRef` in the repository''s config, so that `git rebase` and `git commit --amend` carry the notes to the new commits'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-handover;hook'= {
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand session-start 'Print the handover of the agent''s worktree as `SessionStart` context (read-only)'
            cand install 'Add the session-start hook to an agent''s settings file'
            cand uninstall 'Remove what `hook install` added'
        }
        &'git-handover;hook;session-start'= {
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-handover;hook;install'= {
            cand --agent 'The agent whose settings to change'
            cand --scope 'Which settings file: the project''s (committed), local (not committed), or the user''s'
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --instructions 'Also add (or remove) a short "Session continuity" section in CLAUDE.md (Codex: AGENTS.md, Gemini: GEMINI.md)'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'git-handover;hook;uninstall'= {
            cand --agent 'The agent whose settings to change'
            cand --scope 'Which settings file: the project''s (committed), local (not committed), or the user''s'
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --instructions 'Also add (or remove) a short "Session continuity" section in CLAUDE.md (Codex: AGENTS.md, Gemini: GEMINI.md)'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'git-handover;completions'= {
            cand -C 'Run as if started in <PATH>'
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-handover;man'= {
            cand -c 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
    ]
    $completions[$command]
}
