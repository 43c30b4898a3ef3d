
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'git-handover' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'git-handover'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'git-handover' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show every worktree and every handover in it, checked against git')
            [CompletionResult]::new('continue', 'continue', [CompletionResultType]::ParameterValue, 'Find the handover to resume, from any worktree, and brief on it')
            [CompletionResult]::new('save', 'save', [CompletionResultType]::ParameterValue, 'Create or update this branch''s session (or the team''s) from JSON')
            [CompletionResult]::new('task', 'task', [CompletionResultType]::ParameterValue, 'Add, start, finish, block, reopen, edit or remove a task of a session; list or show them')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Regenerate a session''s handover.md from its state')
            [CompletionResult]::new('here', 'here', [CompletionResultType]::ParameterValue, 'Write `CONTINUE_HERE.md`, stamped with the time and branch')
            [CompletionResult]::new('migrate', 'migrate', [CompletionResultType]::ParameterValue, 'Move the legacy .claude/project-state.json into a session directory')
            [CompletionResult]::new('clean', 'clean', [CompletionResultType]::ParameterValue, 'Remove finished sessions older than a limit, in every worktree')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'Show the history of handovers kept in the notes store, newest first')
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Exchange the notes store with a remote: fetch, merge, push as a fast-forward')
            [CompletionResult]::new('why', 'why', [CompletionResultType]::ParameterValue, 'Say which session, task and decision recorded a commit')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check what git-handover depends on and say, per problem, the command that fixes it')
            [CompletionResult]::new('hook', 'hook', [CompletionResultType]::ParameterValue, 'Agent hooks: the session-start command and its installation')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the JSON Schema of the input state or of a `--json` document')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write the man pages into a directory')
            break
        }
        'git-handover;status' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only the current worktree')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Exit with status 1 when anything needs attention, and list only what does')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'One line per handover, like `git status --short`: a flag (`!` needs attention, `x` unreadable), the kind (`S` session, `N` note, `L` legacy state, `R` notes store record), the worktree (`.` for this one), the key, the verdicts and the next task')
            [CompletionResult]::new('--short', '--short', [CompletionResultType]::ParameterName, 'One line per handover, like `git status --short`: a flag (`!` needs attention, `x` unreadable), the kind (`S` session, `N` note, `L` legacy state, `R` notes store record), the worktree (`.` for this one), the key, the verdicts and the next task')
            [CompletionResult]::new('--keys', '--keys', [CompletionResultType]::ParameterName, 'Print only the session keys, one per line: the sessions of every worktree (this one''s with --here), then those only the notes store has. Nothing is checked against git; shell completion uses this')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-handover;continue' {
            [CompletionResult]::new('--take', '--take', [CompletionResultType]::ParameterName, 'For a session written on two clones from one state (diverged): take the side whose state hash starts with HASH (`status` lists the sides), set the others aside in the notes store, and resume it')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'The name the briefing''s claim command uses (default `GIT_HANDOVER_AS`, else the calling agent session''s identity)')
            [CompletionResult]::new('--team', '--team', [CompletionResultType]::ParameterName, 'Use the team session <root>/<TEAM>/<AGENT>/ (also `GIT_HANDOVER_TEAM`)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'The agent within the team, `default` when left out (also `GIT_HANDOVER_AGENT`)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--successor', '--successor', [CompletionResultType]::ParameterName, 'Brief a successor agent: start at once instead of asking for approval')
            [CompletionResult]::new('--keep', '--keep', [CompletionResultType]::ParameterName, 'Do not consume (remove) a continue-here note after briefing')
            [CompletionResult]::new('--adopt', '--adopt', [CompletionResultType]::ParameterName, 'Make a copy of another worktree''s session (one that arrived with a checkout or a merge) this worktree''s own: its workspace points here and it gets a new session id')
            [CompletionResult]::new('--full', '--full', [CompletionResultType]::ParameterName, 'Print the whole briefing and change nothing: no note consumed, no handover.md regenerated, nothing cleaned, restored or migrated. What the hook names when it had to cut the briefing to the agent''s context')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-handover;save' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Read the state from FILE instead of stdin')
            [CompletionResult]::new('--team', '--team', [CompletionResultType]::ParameterName, 'Use the team session <root>/<TEAM>/<AGENT>/ (also `GIT_HANDOVER_TEAM`)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'The agent within the team, `default` when left out (also `GIT_HANDOVER_AGENT`)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-handover;task' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Edit the session with this key instead of this branch''s ready session')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session''s identity)')
            [CompletionResult]::new('--team', '--team', [CompletionResultType]::ParameterName, 'Use the team session <root>/<TEAM>/<AGENT>/ (also `GIT_HANDOVER_TEAM`)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'The agent within the team, `default` when left out (also `GIT_HANDOVER_AGENT`)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a task (status `pending`)')
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Mark a task in progress')
            [CompletionResult]::new('done', 'done', [CompletionResultType]::ParameterValue, 'Mark a task done, recording the commit that did it')
            [CompletionResult]::new('block', 'block', [CompletionResultType]::ParameterValue, 'Mark a task blocked')
            [CompletionResult]::new('reopen', 'reopen', [CompletionResultType]::ParameterValue, 'Put a done or blocked task back in progress, clearing its blockers and its commit')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change what a task says: its description, next action or files')
            [CompletionResult]::new('claim', 'claim', [CompletionResultType]::ParameterValue, 'Claim a task: a lease only its holder may renew, release or finish early; exit 6 when another holder''s lease is live')
            [CompletionResult]::new('next', 'next', [CompletionResultType]::ParameterValue, 'Show the next task to work on: the first not done, not blocked and not claimed by another live lease; its bare id is the first word. Exit 1 when none is left')
            [CompletionResult]::new('release', 'release', [CompletionResultType]::ParameterValue, 'Release a claim: another holder''s live claim only with --force')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove a task from the session (it stays in the notes store''s history)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the session''s tasks, one a line (read-only)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one task whole: description, next action, files, blockers, what was tried (read-only)')
            break
        }
        'git-handover;task;add' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'A file the task touches; repeatable')
            [CompletionResult]::new('--next', '--next', [CompletionResultType]::ParameterName, 'What to do next')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Edit the session with this key instead of this branch''s ready session')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session''s identity)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'git-handover;task;start' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Edit the session with this key instead of this branch''s ready session')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session''s identity)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'git-handover;task;done' {
            [CompletionResult]::new('--commit', '--commit', [CompletionResultType]::ParameterName, 'The commit (any revision; default HEAD), stored as a full sha')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Edit the session with this key instead of this branch''s ready session')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session''s identity)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'git-handover;task;block' {
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Why; repeatable')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Edit the session with this key instead of this branch''s ready session')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session''s identity)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'git-handover;task;reopen' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Edit the session with this key instead of this branch''s ready session')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session''s identity)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'git-handover;task;edit' {
            [CompletionResult]::new('--description', '--description', [CompletionResultType]::ParameterName, 'The new description')
            [CompletionResult]::new('--next', '--next', [CompletionResultType]::ParameterName, 'The new next action')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The task''s files (repeatable); given once or more, they replace the list')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Edit the session with this key instead of this branch''s ready session')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session''s identity)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'git-handover;task;claim' {
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, 'How long the lease lasts (`30m`, `2h`; default `handover.claimFor`, 30m)')
            [CompletionResult]::new('--remote', '--remote', [CompletionResultType]::ParameterName, 'Decide the claim on this remote''s notes ref (fetch, decide, push a fast-forward leased on the commit decided on, never a forced rewrite; default `handover.claimRemote`): two clones never both hold a task. Needs `handover.store` = both or notes')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Edit the session with this key instead of this branch''s ready session')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session''s identity)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Take the task even from another holder''s live lease (says whose)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'git-handover;task;next' {
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, 'How long the lease lasts (`30m`, `2h`; default `handover.claimFor`, 30m)')
            [CompletionResult]::new('--remote', '--remote', [CompletionResultType]::ParameterName, 'Decide the claim on this remote''s notes ref (fetch, decide, push a fast-forward leased on the commit decided on, never a forced rewrite; default `handover.claimRemote`): two clones never both hold a task. Needs `handover.store` = both or notes')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Edit the session with this key instead of this branch''s ready session')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session''s identity)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--claim', '--claim', [CompletionResultType]::ParameterName, 'Claim it in the same step, so two callers never get the same task')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'git-handover;task;release' {
            [CompletionResult]::new('--remote', '--remote', [CompletionResultType]::ParameterName, 'Decide the claim on this remote''s notes ref (fetch, decide, push a fast-forward leased on the commit decided on, never a forced rewrite; default `handover.claimRemote`): two clones never both hold a task. Needs `handover.store` = both or notes')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Edit the session with this key instead of this branch''s ready session')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session''s identity)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Release another holder''s live claim (says whose)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'git-handover;task;remove' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Edit the session with this key instead of this branch''s ready session')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session''s identity)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'git-handover;task;list' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Edit the session with this key instead of this branch''s ready session')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session''s identity)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--ids', '--ids', [CompletionResultType]::ParameterName, 'Print only the task ids, one a line (shell completion uses this)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'git-handover;task;show' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Edit the session with this key instead of this branch''s ready session')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session''s identity)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'git-handover;render' {
            [CompletionResult]::new('--team', '--team', [CompletionResultType]::ParameterName, 'Use the team session <root>/<TEAM>/<AGENT>/ (also `GIT_HANDOVER_TEAM`)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'The agent within the team, `default` when left out (also `GIT_HANDOVER_AGENT`)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-handover;here' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Read the note''s sections from FILE instead of stdin')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace a note that has not been consumed yet')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-handover;migrate' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-handover;clean' {
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Remove finished sessions older than this (default handover.cleanAfter, 7d)')
            [CompletionResult]::new('--team', '--team', [CompletionResultType]::ParameterName, 'Remove the directory of this team, when all its sessions are finished')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say what would be removed, and remove nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-handover;log' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Show at most N records')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'Show at most N records')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-handover;sync' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--rewrite-ref', '--rewrite-ref', [CompletionResultType]::ParameterName, 'Also add the notes ref to `notes.rewriteRef` in the repository''s config, so that `git rebase` and `git commit --amend` carry the notes to the new commits')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Only record: append to the notes store a record of every session whose files hold a state the store does not have as its newest (after a save that exited 5, "files written, store not updated"). Nothing is fetched or pushed')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-handover;why' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-handover;doctor' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--fix', '--fix', [CompletionResultType]::ParameterName, 'Apply the fixes that change only git-handover''s own files and config; list the rest')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-handover;hook' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('session-start', 'session-start', [CompletionResultType]::ParameterValue, 'Print the handover of the agent''s worktree as `SessionStart` context (read-only)')
            [CompletionResult]::new('pre-compact', 'pre-compact', [CompletionResultType]::ParameterValue, 'Before the agent compacts its context: record what this agent session did since its start (commits, changed files, its transcript''s last request and failed commands) into the worktree''s session, marked as automatic, and remind it to save the handover, naming the tasks in progress it has not updated since this agent session started. Never blocks the compaction; prints nothing when there is nothing to say')
            [CompletionResult]::new('session-end', 'session-end', [CompletionResultType]::ParameterValue, 'When the agent session ends: the same record and reminder, and the claims this agent session holds in the worktree''s session are released')
            [CompletionResult]::new('stop', 'stop', [CompletionResultType]::ParameterValue, 'At the agent''s Stop (Claude Code and Codex `Stop`, Gemini CLI `AfterAgent`): with `handover.stopGate=true`, once per agent session that changed files without updating a task, hold the stop with the command that records the handover. Silent otherwise (and while `stop_hook_active`); never fails the agent')
            [CompletionResult]::new('post-commit', 'post-commit', [CompletionResultType]::ParameterValue, 'After a commit (the git hook `hook install --git post-commit` adds): tasks of this worktree''s ready session whose files the commit touched get `last_touched` set to the commit''s time; with `handover.recordCommits=true` the commit is added to `architecture_changes`. Silent, and never fails the commit')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Add the session-start hook to an agent''s settings file')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove what `hook install` added')
            break
        }
        'git-handover;hook;session-start' {
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'The agent that runs the hook: its context budget (Claude Code and Gemini CLI 10,000 characters, Codex about 2,500 tokens, counted as tokens)')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Where the hook is registered. A user-scope hook briefs only in repositories that opted in (a project-scope hook of git-handover, or handover.hook=true)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-handover;hook;pre-compact' {
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'The agent that runs the hook (its output format)')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Where the hook is registered. A user-scope hook reminds only in repositories that opted in, as `session-start` briefs')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'git-handover;hook;session-end' {
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'The agent that runs the hook (its output format)')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Where the hook is registered. A user-scope hook reminds only in repositories that opted in, as `session-start` briefs')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'git-handover;hook;stop' {
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'The agent that runs the hook (its output format)')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Where the hook is registered. A user-scope hook reminds only in repositories that opted in, as `session-start` briefs')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'git-handover;hook;post-commit' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'git-handover;hook;install' {
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'The agent whose settings to change')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Which settings file: the project''s (committed), local (not committed), or the user''s')
            [CompletionResult]::new('--git', '--git', [CompletionResultType]::ParameterName, 'Install (or remove) a git hook instead of an agent''s: `post-commit` runs `git-handover hook post-commit` after each commit, in the hooks directory git uses (`core.hooksPath`, else the repository''s `hooks/`), before whatever the hook already does (an existing hook is kept, never overwritten)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--instructions', '--instructions', [CompletionResultType]::ParameterName, 'Also add (or remove) a short "Session continuity" section in CLAUDE.md (Codex: AGENTS.md, Gemini: GEMINI.md, Copilot: copilot-instructions.md)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'git-handover;hook;uninstall' {
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'The agent whose settings to change')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Which settings file: the project''s (committed), local (not committed), or the user''s')
            [CompletionResult]::new('--git', '--git', [CompletionResultType]::ParameterName, 'Install (or remove) a git hook instead of an agent''s: `post-commit` runs `git-handover hook post-commit` after each commit, in the hooks directory git uses (`core.hooksPath`, else the repository''s `hooks/`), before whatever the hook already does (an existing hook is kept, never overwritten)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--instructions', '--instructions', [CompletionResultType]::ParameterName, 'Also add (or remove) a short "Session continuity" section in CLAUDE.md (Codex: AGENTS.md, Gemini: GEMINI.md, Copilot: copilot-instructions.md)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'git-handover;schema' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-handover;completions' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-handover;man' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
