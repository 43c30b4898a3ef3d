# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_git_handover_global_optspecs
    string join \n C= json color= lang= q/quiet h/help V/version
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

complete -c git-handover -n "__fish_git_handover_needs_command" -s C -d 'Run as if started in <PATH>' -r -F
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
complete -c git-handover -n "__fish_git_handover_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c git-handover -n "__fish_git_handover_needs_command" -f -a "man" -d 'Write the man pages into a directory'
complete -c git-handover -n "__fish_git_handover_using_subcommand status" -s C -d 'Run as if started in <PATH>' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand status" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand status" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand status" -l here -d 'Only the current worktree'
complete -c git-handover -n "__fish_git_handover_using_subcommand status" -l check -d 'Exit with status 1 when anything needs attention'
complete -c git-handover -n "__fish_git_handover_using_subcommand status" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand status" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-handover -n "__fish_git_handover_using_subcommand completions" -s C -d 'Run as if started in <PATH>' -r -F
complete -c git-handover -n "__fish_git_handover_using_subcommand completions" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand completions" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand completions" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand completions" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand completions" -s h -l help -d 'Print help'
complete -c git-handover -n "__fish_git_handover_using_subcommand man" -l color -d 'When to colour the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand man" -l lang -d 'The language of messages and labels' -r -f -a "en\t''
ja\t''"
complete -c git-handover -n "__fish_git_handover_using_subcommand man" -l json -d 'Print machine-readable JSON on stdout (versioned, the same in every language)'
complete -c git-handover -n "__fish_git_handover_using_subcommand man" -s q -l quiet -d 'Say less: no warnings or hints on stderr'
complete -c git-handover -n "__fish_git_handover_using_subcommand man" -s h -l help -d 'Print help'
