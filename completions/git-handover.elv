
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
            cand completions 'Print a shell completion script'
            cand man 'Write the man pages into a directory'
        }
        &'git-handover;status'= {
            cand -C 'Run as if started in <PATH>'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --here 'Only the current worktree'
            cand --check 'Exit with status 1 when anything needs attention'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'git-handover;completions'= {
            cand -C 'Run as if started in <PATH>'
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'git-handover;man'= {
            cand --color 'When to colour the output'
            cand --lang 'The language of messages and labels'
            cand --json 'Print machine-readable JSON on stdout (versioned, the same in every language)'
            cand -q 'Say less: no warnings or hints on stderr'
            cand --quiet 'Say less: no warnings or hints on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
        }
    ]
    $completions[$command]
}
