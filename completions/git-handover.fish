# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_git_handover_global_optspecs
    string join \n C= c= json color= lang= q/quiet h/help V/version
end

function __fish_git_handover_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_git_handover_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_git_handover_using_subcommand
    set -l cmd (__fish_git_handover_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c git-handover -n "__fish_git_handover_needs_command" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_needs_command" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_needs_command" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_needs_command" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_needs_command" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_needs_command" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handover -n "__fish_git_handover_needs_command" -s V -l version -d 'Print version'
complete -c git-handover -n "__fish_git_handover_needs_command" -f -a "status" -d 'Show every worktree and every handover in it, checked against git'
complete -c git-handover -n "__fish_git_handover_needs_command" -f -a "continue" -d 'Find the handover to resume, from any worktree, and brief on it'
complete -c git-handover -n "__fish_git_handover_needs_command" -f -a "save" -d 'Create or update this branch\'s session (or the team\'s) from JSON'
complete -c git-handover -n "__fish_git_handover_needs_command" -f -a "task" -d 'Add, start, finish, block, reopen, edit or remove a task of a session; list or show them'
complete -c git-handover -n "__fish_git_handover_needs_command" -f -a "render" -d 'Regenerate a session\'s handover.md from its state'
complete -c git-handover -n "__fish_git_handover_needs_command" -f -a "here" -d 'Write `CONTINUE_HERE.md`, stamped with the time and branch'
complete -c git-handover -n "__fish_git_handover_needs_command" -f -a "migrate" -d 'Move the legacy .claude/project-state.json into a session directory'
complete -c git-handover -n "__fish_git_handover_needs_command" -f -a "clean" -d 'Remove finished sessions older than a limit, in every worktree'
complete -c git-handover -n "__fish_git_handover_needs_command" -f -a "log" -d 'Show the history of handovers kept in the notes store, newest first'
complete -c git-handover -n "__fish_git_handover_needs_command" -f -a "sync" -d 'Exchange the notes store with a remote: fetch, merge, push as a fast-forward'
complete -c git-handover -n "__fish_git_handover_needs_command" -f -a "why" -d 'Say which session, task and decision recorded a commit'
complete -c git-handover -n "__fish_git_handover_needs_command" -f -a "doctor" -d 'Check what git-handover depends on and say, per problem, the command that fixes it'
complete -c git-handover -n "__fish_git_handover_needs_command" -f -a "hook" -d 'Agent hooks: the session-start command and its installation'
complete -c git-handover -n "__fish_git_handover_needs_command" -f -a "schema" -d 'Print the JSON Schema of the input state or of a `--json` document'
complete -c git-handover -n "__fish_git_handover_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c git-handover -n "__fish_git_handover_needs_command" -f -a "man" -d 'Write the man pages into a directory'
complete -c git-handover -n "__fish_git_handover_using_subcommand status" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand status" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand status" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand status" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand status" -l here -d 'Only the current worktree'
complete -c git-handover -n "__fish_git_handover_using_subcommand status" -l check -d 'Exit with status 1 when anything needs attention, and list only what does'
complete -c git-handover -n "__fish_git_handover_using_subcommand status" -s s -l short -d 'One line per handover, like `git status --short`: a flag (`!` needs attention, `x` unreadable), the kind (`S` session, `N` note, `L` legacy state, `R` notes store record), the worktree (`.` for this one), the key, the verdicts and the next task'
complete -c git-handover -n "__fish_git_handover_using_subcommand status" -l keys -d 'Print only the session keys, one per line: the sessions of every worktree (this one\'s with --here), then those only the notes store has. Nothing is checked against git; shell completion uses this'
complete -c git-handover -n "__fish_git_handover_using_subcommand status" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand status" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handover -n "__fish_git_handover_using_subcommand continue" -l take -d 'For a session written on two clones from one state (diverged): take the side whose state hash starts with HASH (`status` lists the sides), set the others aside in the notes store, and resume it' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand continue" -l as -d 'The name the briefing\'s claim command uses (default `GIT_HANDOVER_AS`, else the calling agent session\'s identity)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand continue" -l team -d 'Use the team session <root>/<TEAM>/<AGENT>/ (also `GIT_HANDOVER_TEAM`)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand continue" -l agent -d 'The agent within the team, `default` when left out (also `GIT_HANDOVER_AGENT`)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand continue" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand continue" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand continue" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand continue" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand continue" -l successor -d 'Brief a successor agent: start at once instead of asking for approval'
complete -c git-handover -n "__fish_git_handover_using_subcommand continue" -l keep -d 'Do not consume (remove) a continue-here note after briefing'
complete -c git-handover -n "__fish_git_handover_using_subcommand continue" -l adopt -d 'Make a copy of another worktree\'s session (one that arrived with a checkout or a merge) this worktree\'s own: its workspace points here and it gets a new session id'
complete -c git-handover -n "__fish_git_handover_using_subcommand continue" -l full -d 'Print the whole briefing and change nothing: no note consumed, no handover.md regenerated, nothing cleaned, restored or migrated. What the hook names when it had to cut the briefing to the agent\'s context'
complete -c git-handover -n "__fish_git_handover_using_subcommand continue" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand continue" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand continue" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handover -n "__fish_git_handover_using_subcommand save" -l from -d 'Read the state from FILE instead of stdin' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand save" -l team -d 'Use the team session <root>/<TEAM>/<AGENT>/ (also `GIT_HANDOVER_TEAM`)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand save" -l agent -d 'The agent within the team, `default` when left out (also `GIT_HANDOVER_AGENT`)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand save" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand save" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand save" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand save" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand save" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand save" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand save" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -l session -d 'Edit the session with this key instead of this branch\'s ready session' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -l as -d 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session\'s identity)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -l team -d 'Use the team session <root>/<TEAM>/<AGENT>/ (also `GIT_HANDOVER_TEAM`)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -l agent -d 'The agent within the team, `default` when left out (also `GIT_HANDOVER_AGENT`)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -f -a "add" -d 'Add a task (status `pending`)'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -f -a "start" -d 'Mark a task in progress'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -f -a "done" -d 'Mark a task done, recording the commit that did it'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -f -a "block" -d 'Mark a task blocked'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -f -a "reopen" -d 'Put a done or blocked task back in progress, clearing its blockers and its commit'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -f -a "edit" -d 'Change what a task says: its description, next action or files'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -f -a "claim" -d 'Claim a task: a lease only its holder may renew, release or finish early; exit 6 when another holder\'s lease is live'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -f -a "next" -d 'Show the next task to work on: the first not done, not blocked and not claimed by another live lease; its bare id is the first word. Exit 1 when none is left'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -f -a "release" -d 'Release a claim: another holder\'s live claim only with --force'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -f -a "remove" -d 'Remove a task from the session (it stays in the notes store\'s history)'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -f -a "list" -d 'List the session\'s tasks, one a line (read-only)'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and not __fish_seen_subcommand_from add start done block reopen edit claim next release remove list show" -f -a "show" -d 'Show one task whole: description, next action, files, blockers, what was tried (read-only)'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from add" -l file -d 'A file the task touches; repeatable' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from add" -l next -d 'What to do next' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from add" -l session -d 'Edit the session with this key instead of this branch\'s ready session' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from add" -l as -d 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session\'s identity)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from add" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from add" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from add" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from add" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from add" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from start" -l session -d 'Edit the session with this key instead of this branch\'s ready session' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from start" -l as -d 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session\'s identity)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from start" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from start" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from start" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from start" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from start" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from start" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from start" -s h -l help -d 'Print help'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from done" -l commit -d 'The commit (any revision; default HEAD), stored as a full sha' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from done" -l session -d 'Edit the session with this key instead of this branch\'s ready session' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from done" -l as -d 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session\'s identity)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from done" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from done" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from done" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from done" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from done" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from done" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from done" -s h -l help -d 'Print help'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from block" -l reason -d 'Why; repeatable' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from block" -l session -d 'Edit the session with this key instead of this branch\'s ready session' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from block" -l as -d 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session\'s identity)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from block" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from block" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from block" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from block" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from block" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from block" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from block" -s h -l help -d 'Print help'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from reopen" -l session -d 'Edit the session with this key instead of this branch\'s ready session' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from reopen" -l as -d 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session\'s identity)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from reopen" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from reopen" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from reopen" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from reopen" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from reopen" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from reopen" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from reopen" -s h -l help -d 'Print help'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from edit" -l description -d 'The new description' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from edit" -l next -d 'The new next action' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from edit" -l file -d 'The task\'s files (repeatable); given once or more, they replace the list' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from edit" -l session -d 'Edit the session with this key instead of this branch\'s ready session' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from edit" -l as -d 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session\'s identity)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from edit" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from edit" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from edit" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from edit" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from edit" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from edit" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from edit" -s h -l help -d 'Print help'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from claim" -l for -d 'How long the lease lasts (`30m`, `2h`; default `handover.claimFor`, 30m)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from claim" -l remote -d 'Decide the claim on this remote\'s notes ref (fetch, decide, push a fast-forward leased on the commit decided on, never a forced rewrite; default `handover.claimRemote`): two clones never both hold a task. Needs `handover.store` = both or notes' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from claim" -l session -d 'Edit the session with this key instead of this branch\'s ready session' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from claim" -l as -d 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session\'s identity)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from claim" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from claim" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from claim" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from claim" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from claim" -l force -d 'Take the task even from another holder\'s live lease (says whose)'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from claim" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from claim" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from claim" -s h -l help -d 'Print help'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from next" -l for -d 'How long the lease lasts (`30m`, `2h`; default `handover.claimFor`, 30m)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from next" -l remote -d 'Decide the claim on this remote\'s notes ref (fetch, decide, push a fast-forward leased on the commit decided on, never a forced rewrite; default `handover.claimRemote`): two clones never both hold a task. Needs `handover.store` = both or notes' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from next" -l session -d 'Edit the session with this key instead of this branch\'s ready session' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from next" -l as -d 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session\'s identity)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from next" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from next" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from next" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from next" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from next" -l claim -d 'Claim it in the same step, so two callers never get the same task'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from next" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from next" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from next" -s h -l help -d 'Print help'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from release" -l remote -d 'Decide the claim on this remote\'s notes ref (fetch, decide, push a fast-forward leased on the commit decided on, never a forced rewrite; default `handover.claimRemote`): two clones never both hold a task. Needs `handover.store` = both or notes' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from release" -l session -d 'Edit the session with this key instead of this branch\'s ready session' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from release" -l as -d 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session\'s identity)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from release" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from release" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from release" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from release" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from release" -l force -d 'Release another holder\'s live claim (says whose)'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from release" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from release" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from release" -s h -l help -d 'Print help'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from remove" -l session -d 'Edit the session with this key instead of this branch\'s ready session' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from remove" -l as -d 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session\'s identity)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from remove" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from remove" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from remove" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from remove" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from remove" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from remove" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from list" -l session -d 'Edit the session with this key instead of this branch\'s ready session' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from list" -l as -d 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session\'s identity)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from list" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from list" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from list" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from list" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from list" -l ids -d 'Print only the task ids, one a line (shell completion uses this)'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from list" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from show" -l session -d 'Edit the session with this key instead of this branch\'s ready session' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from show" -l as -d 'The name claims are made, released and checked under (default `GIT_HANDOVER_AS`, else the calling agent session\'s identity)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from show" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from show" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from show" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from show" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from show" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c git-handover -n "__fish_git_handover_using_subcommand render" -l team -d 'Use the team session <root>/<TEAM>/<AGENT>/ (also `GIT_HANDOVER_TEAM`)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand render" -l agent -d 'The agent within the team, `default` when left out (also `GIT_HANDOVER_AGENT`)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand render" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand render" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand render" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand render" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand render" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand render" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand render" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handover -n "__fish_git_handover_using_subcommand here" -l from -d 'Read the note\'s sections from FILE instead of stdin' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand here" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand here" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand here" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand here" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand here" -l force -d 'Replace a note that has not been consumed yet'
complete -c git-handover -n "__fish_git_handover_using_subcommand here" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand here" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand here" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handover -n "__fish_git_handover_using_subcommand migrate" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand migrate" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand migrate" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand migrate" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand migrate" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand migrate" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand migrate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handover -n "__fish_git_handover_using_subcommand clean" -l older-than -d 'Remove finished sessions older than this (default handover.cleanAfter, 7d)' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand clean" -l team -d 'Remove the directory of this team, when all its sessions are finished' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand clean" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand clean" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand clean" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand clean" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand clean" -l dry-run -d 'Say what would be removed, and remove nothing'
complete -c git-handover -n "__fish_git_handover_using_subcommand clean" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand clean" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand clean" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handover -n "__fish_git_handover_using_subcommand log" -s n -l max-count -d 'Show at most N records' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand log" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand log" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand log" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand log" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand log" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand log" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand log" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handover -n "__fish_git_handover_using_subcommand sync" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand sync" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand sync" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand sync" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand sync" -l rewrite-ref -d 'Also add the notes ref to `notes.rewriteRef` in the repository\'s config, so that `git rebase` and `git commit --amend` carry the notes to the new commits'
complete -c git-handover -n "__fish_git_handover_using_subcommand sync" -l record -d 'Only record: append to the notes store a record of every session whose files hold a state the store does not have as its newest (after a save that exited 5, "files written, store not updated"). Nothing is fetched or pushed'
complete -c git-handover -n "__fish_git_handover_using_subcommand sync" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand sync" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand sync" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handover -n "__fish_git_handover_using_subcommand why" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand why" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand why" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand why" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand why" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand why" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand why" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handover -n "__fish_git_handover_using_subcommand doctor" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand doctor" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand doctor" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand doctor" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand doctor" -l fix -d 'Apply the fixes that change only git-handover\'s own files and config; list the rest'
complete -c git-handover -n "__fish_git_handover_using_subcommand doctor" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand doctor" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand doctor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and not __fish_seen_subcommand_from session-start pre-compact session-end stop post-commit install uninstall" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and not __fish_seen_subcommand_from session-start pre-compact session-end stop post-commit install uninstall" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and not __fish_seen_subcommand_from session-start pre-compact session-end stop post-commit install uninstall" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and not __fish_seen_subcommand_from session-start pre-compact session-end stop post-commit install uninstall" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and not __fish_seen_subcommand_from session-start pre-compact session-end stop post-commit install uninstall" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and not __fish_seen_subcommand_from session-start pre-compact session-end stop post-commit install uninstall" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and not __fish_seen_subcommand_from session-start pre-compact session-end stop post-commit install uninstall" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and not __fish_seen_subcommand_from session-start pre-compact session-end stop post-commit install uninstall" -f -a "session-start" -d 'Print the handover of the agent\'s worktree as `SessionStart` context (read-only)'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and not __fish_seen_subcommand_from session-start pre-compact session-end stop post-commit install uninstall" -f -a "pre-compact" -d 'Before the agent compacts its context: record what this agent session did since its start (commits, changed files, its transcript\'s last request and failed commands) into the worktree\'s session, marked as automatic, and remind it to save the handover, naming the tasks in progress it has not updated since this agent session started. Never blocks the compaction; prints nothing when there is nothing to say'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and not __fish_seen_subcommand_from session-start pre-compact session-end stop post-commit install uninstall" -f -a "session-end" -d 'When the agent session ends: the same record and reminder, and the claims this agent session holds in the worktree\'s session are released'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and not __fish_seen_subcommand_from session-start pre-compact session-end stop post-commit install uninstall" -f -a "stop" -d 'At the agent\'s Stop (Claude Code and Codex `Stop`, Gemini CLI `AfterAgent`): with `handover.stopGate=true`, once per agent session that changed files without updating a task, hold the stop with the command that records the handover. Silent otherwise (and while `stop_hook_active`); never fails the agent'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and not __fish_seen_subcommand_from session-start pre-compact session-end stop post-commit install uninstall" -f -a "post-commit" -d 'After a commit (the git hook `hook install --git post-commit` adds): tasks of this worktree\'s ready session whose files the commit touched get `last_touched` set to the commit\'s time; with `handover.recordCommits=true` the commit is added to `architecture_changes`. Silent, and never fails the commit'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and not __fish_seen_subcommand_from session-start pre-compact session-end stop post-commit install uninstall" -f -a "install" -d 'Add the session-start hook to an agent\'s settings file'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and not __fish_seen_subcommand_from session-start pre-compact session-end stop post-commit install uninstall" -f -a "uninstall" -d 'Remove what `hook install` added'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from session-start" -l agent -d 'The agent that runs the hook: its context budget (Claude Code and Gemini CLI 10,000 characters, Codex about 2,500 tokens, counted as tokens)' -r -f -a "claude\t''
codex\t''
gemini\t''
copilot\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from session-start" -l scope -d 'Where the hook is registered. A user-scope hook briefs only in repositories that opted in (a project-scope hook of git-handover, or handover.hook=true)' -r -f -a "project\t''
local\t''
user\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from session-start" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from session-start" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from session-start" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from session-start" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from session-start" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from session-start" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from session-start" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from pre-compact" -l agent -d 'The agent that runs the hook (its output format)' -r -f -a "claude\t''
codex\t''
gemini\t''
copilot\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from pre-compact" -l scope -d 'Where the hook is registered. A user-scope hook reminds only in repositories that opted in, as `session-start` briefs' -r -f -a "project\t''
local\t''
user\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from pre-compact" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from pre-compact" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from pre-compact" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from pre-compact" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from pre-compact" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from pre-compact" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from pre-compact" -s h -l help -d 'Print help'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from session-end" -l agent -d 'The agent that runs the hook (its output format)' -r -f -a "claude\t''
codex\t''
gemini\t''
copilot\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from session-end" -l scope -d 'Where the hook is registered. A user-scope hook reminds only in repositories that opted in, as `session-start` briefs' -r -f -a "project\t''
local\t''
user\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from session-end" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from session-end" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from session-end" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from session-end" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from session-end" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from session-end" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from session-end" -s h -l help -d 'Print help'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from stop" -l agent -d 'The agent that runs the hook (its output format)' -r -f -a "claude\t''
codex\t''
gemini\t''
copilot\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from stop" -l scope -d 'Where the hook is registered. A user-scope hook reminds only in repositories that opted in, as `session-start` briefs' -r -f -a "project\t''
local\t''
user\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from stop" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from stop" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from stop" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from stop" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from stop" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from stop" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from stop" -s h -l help -d 'Print help'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from post-commit" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from post-commit" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from post-commit" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from post-commit" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from post-commit" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from post-commit" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from post-commit" -s h -l help -d 'Print help'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from install" -l agent -d 'The agent whose settings to change' -r -f -a "claude\t''
codex\t''
gemini\t''
copilot\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from install" -l scope -d 'Which settings file: the project\'s (committed), local (not committed), or the user\'s' -r -f -a "project\t''
local\t''
user\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from install" -l git -d 'Install (or remove) a git hook instead of an agent\'s: `post-commit` runs `git-handover hook post-commit` after each commit, in the hooks directory git uses (`core.hooksPath`, else the repository\'s `hooks/`), before whatever the hook already does (an existing hook is kept, never overwritten)' -r -f -a "post-commit\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from install" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from install" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from install" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from install" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from install" -l instructions -d 'Also add (or remove) a short "Session continuity" section in CLAUDE.md (Codex: AGENTS.md, Gemini: GEMINI.md, Copilot: copilot-instructions.md)'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from install" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from install" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from install" -s h -l help -d 'Print help'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l agent -d 'The agent whose settings to change' -r -f -a "claude\t''
codex\t''
gemini\t''
copilot\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l scope -d 'Which settings file: the project\'s (committed), local (not committed), or the user\'s' -r -f -a "project\t''
local\t''
user\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l git -d 'Install (or remove) a git hook instead of an agent\'s: `post-commit` runs `git-handover hook post-commit` after each commit, in the hooks directory git uses (`core.hooksPath`, else the repository\'s `hooks/`), before whatever the hook already does (an existing hook is kept, never overwritten)' -r -f -a "post-commit\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l instructions -d 'Also add (or remove) a short "Session continuity" section in CLAUDE.md (Codex: AGENTS.md, Gemini: GEMINI.md, Copilot: copilot-instructions.md)'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s h -l help -d 'Print help'
complete -c git-handover -n "__fish_git_handover_using_subcommand schema" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand schema" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand schema" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand schema" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand schema" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand schema" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand schema" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handover -n "__fish_git_handover_using_subcommand completions" -s C -d 'Run as if started in <PATH>. Given more than once, each is taken relative to the one before, as git does (`-C a -C b` is `a/b`)' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand completions" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand completions" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand completions" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand completions" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand completions" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handover -n "__fish_git_handover_using_subcommand man" -s c -d 'Override a configuration value for this run, like `git -c` (repeatable), e.g. `-c handover.freshFor=36h`. `git -c … handover` works too' -r
complete -c git-handover -n "__fish_git_handover_using_subcommand man" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand man" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand man" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand man" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'

# `git handover …` and git aliases of it: git's own fish completion decides that the
# command is ours (`__fish_git_using_command` knows the aliases), and the words after it
# are completed as `git-handover …`.
function __fish_git_handover_complete
    set -l cmd (commandline -opc)
    set -e cmd[1]
    set -l i 1
    # git's -C DIR options go on to git-handover, so that `git -C dir handover …` offers
    # that repository's keys and task ids.
    set -l dirs
    while set -q cmd[$i]
        switch $cmd[$i]
            case -C
                set -a dirs -C (string escape -- $cmd[(math $i + 1)])
                set i (math $i + 2)
            case -c --git-dir --work-tree --namespace
                set i (math $i + 2)
            case '-*'
                set i (math $i + 1)
            case '*'
                break
        end
    end
    set -l rest
    if test (count $cmd) -gt $i
        set rest $cmd[(math $i + 1)..-1]
    end
    complete -C "git-handover $dirs $rest "(commandline -ct)
end
complete -c git -f -n "__fish_git_using_command handover" -a "(__fish_git_handover_complete)"

# Session keys for `continue`, `render` and `log`, from `git handover status --keys`.

# The -C DIR options on the line (git's, passed on, or git-handover's own), for the
# commands below that list keys and task ids.
function __fish_git_handover_dirs
    set -l cmd (commandline -opc)
    set -l i 1
    while set -q cmd[$i]
        if test "$cmd[$i]" = -C; and set -q cmd[(math $i + 1)]
            echo -- -C
            echo -- $cmd[(math $i + 1)]
        end
        set i (math $i + 1)
    end
end

# Task ids for the task commands that take one, and keys for --session.
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from start" -f -a "(git-handover (__fish_git_handover_dirs) task list --ids 2>/dev/null)" -d 'task id'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from done" -f -a "(git-handover (__fish_git_handover_dirs) task list --ids 2>/dev/null)" -d 'task id'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from block" -f -a "(git-handover (__fish_git_handover_dirs) task list --ids 2>/dev/null)" -d 'task id'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from reopen" -f -a "(git-handover (__fish_git_handover_dirs) task list --ids 2>/dev/null)" -d 'task id'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from edit" -f -a "(git-handover (__fish_git_handover_dirs) task list --ids 2>/dev/null)" -d 'task id'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from remove" -f -a "(git-handover (__fish_git_handover_dirs) task list --ids 2>/dev/null)" -d 'task id'
complete -c git-handover -n "__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from show" -f -a "(git-handover (__fish_git_handover_dirs) task list --ids 2>/dev/null)" -d 'task id'
complete -c git-handover -n "__fish_git_handover_using_subcommand task" -l session -f -r -a "(git-handover (__fish_git_handover_dirs) status --keys 2>/dev/null)"
complete -c git-handover -n "__fish_git_handover_using_subcommand continue" -a "(git-handover (__fish_git_handover_dirs) status --keys 2>/dev/null)" -d 'session key'
complete -c git-handover -n "__fish_git_handover_using_subcommand render" -f -a "(git-handover (__fish_git_handover_dirs) status --keys 2>/dev/null)" -d 'session key'
complete -c git-handover -n "__fish_git_handover_using_subcommand log" -f -a "(git-handover (__fish_git_handover_dirs) status --keys 2>/dev/null)" -d 'session key'
