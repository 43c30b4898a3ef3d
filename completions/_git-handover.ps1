
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
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>')
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
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write the man pages into a directory')
            break
        }
        'git-handover;status' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only the current worktree')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Exit with status 1 when anything needs attention')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'git-handover;completions' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in <PATH>')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'git-handover;man' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of messages and labels')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (versioned, the same in every language)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say less: no warnings or hints on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
