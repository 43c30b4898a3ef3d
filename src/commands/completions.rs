//! `completions <shell>`: the completion script, generated from `cli.rs`, with the glue
//! that makes it work through git: `git handover <TAB>` and git aliases of it (bash:
//! git's completion calls `_git_handover`; zsh: `_git` calls `_git-handover`; fish:
//! git's completion runs `complete -C "git-handover …"`), and session keys for
//! `continue`, `render` and `log`, listed by `git handover status --keys`.

use clap::Args;

use std::fmt::Write as _;

use clap_complete::Shell;

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// The long help of `completions`, after its options.
pub const COMPLETIONS_HELP: &str = "\
The bash and zsh scripts also complete `git handover <TAB>` and git aliases of it through
git's own completion, and session keys for continue, render and log.

Examples (as in the README; git's completion in each shell finds the script there):
  mkdir -p ~/.local/share/bash-completion/completions
  git handover completions bash > ~/.local/share/bash-completion/completions/git-handover
  mkdir -p ~/.zfunc
  git handover completions zsh > ~/.zfunc/_git-handover
  mkdir -p ~/.config/fish/completions
  git handover completions fish > ~/.config/fish/completions/git-handover.fish";

pub struct Report {
    pub script: Vec<u8>,
}

/// `tree` is the whole command line, which the shell composes.
pub fn run(args: &CompletionsArgs, tree: clap::Command) -> Report {
    Report {
        script: generate(args.shell, tree),
    }
}

/// The subcommands whose positional argument is a session key.
const KEYED: [&str; 3] = ["continue", "render", "log"];

/// The completion script of `tree` for `shell`.
pub fn generate(shell: Shell, tree: clap::Command) -> Vec<u8> {
    let mut cmd = tree;
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "git-handover", &mut out);
    let script = String::from_utf8(out).expect("clap writes UTF-8");
    match shell {
        Shell::Bash => bash(&script, &cmd),
        Shell::Zsh => zsh(&script),
        Shell::Fish => fish(script),
        _ => script,
    }
    .into_bytes()
}

/// Global options that take a value (their value is not the subcommand).
fn valued_globals(cmd: &clap::Command) -> String {
    let mut names = Vec::new();
    for arg in cmd.get_arguments() {
        if arg.get_action().takes_values() && !arg.is_positional() {
            if let Some(s) = arg.get_short() {
                names.push(format!("-{s}"));
            }
            if let Some(l) = arg.get_long() {
                names.push(format!("--{l}"));
            }
        }
    }
    names.join("|")
}

fn bash(script: &str, cmd: &clap::Command) -> String {
    // The -C options of `git -C dir handover …`, set by `_git_handover` (empty when
    // git-handover is run as itself, where its own -C is read from the words).
    let registration = script
        .find("if [[ \"${BASH_VERSINFO[0]}\" -eq 4")
        .unwrap_or(script.len());
    let (body, _) = script.split_at(registration);
    // clap_complete 4.6 names the per-subcommand branches of a hyphenated binary
    // `git__subcmd__handover__…` but sets `cmd` to `git__handover__…`, so no
    // subcommand's options would ever complete; make the labels match.
    let body = body.replace("git__subcmd__handover__", "git__handover__");
    let globals = valued_globals(cmd);
    let keyed = KEYED.join("|");
    format!(
        r#"{body}# The words of $1 (one a line) that start with $2. Never `compgen -W`: it expands
# `$(…)` and backquotes inside the words, and task ids and session keys are anyone's text.
__git_handover_reply() {{
    local word
    COMPREPLY=()
    while IFS= read -r word; do
        [[ -n "$word" && "$word" == "$2"* ]] && COMPREPLY+=("$word")
    done <<< "$1"
}}

# Session keys for `continue`, `render` and `log`, from `git handover status --keys`.
__git_handover_session_keys() {{
    local i sub="" dir=()
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${{COMP_WORDS[i]}}" in
            -C) dir=(-C "${{COMP_WORDS[i+1]}}"); ((i++)) ;;
            {globals}) ((i++)) ;;
            -*) ;;
            *) sub="${{COMP_WORDS[i]}}"; break ;;
        esac
    done
    case "${{COMP_WORDS[COMP_CWORD]}}" in -*) return 1 ;; esac
    local IFS=$'\n' keys
    # --session KEY (task): session keys.
    if [[ "${{COMP_WORDS[COMP_CWORD-1]}}" == --session ]]; then
        keys="$(git-handover "${{__git_handover_C[@]}}" "${{dir[@]}}" status --keys 2>/dev/null)" || return 1
        __git_handover_reply "$keys" "${{COMP_WORDS[COMP_CWORD]}}"
        return 0
    fi
    # task start|done|block|reopen|edit|remove|show ID: the session's task ids.
    if [[ "$sub" == task ]]; then
        local op="" session=() j
        for ((j = i + 1; j < COMP_CWORD; j++)); do
            case "${{COMP_WORDS[j]}}" in
                --session) session=(--session "${{COMP_WORDS[j+1]}}"); ((j++)) ;;
                --team|--agent) ((j++)) ;;
                -*) ;;
                *) if [[ -z "$op" ]]; then op="${{COMP_WORDS[j]}}"; else return 1; fi ;;
            esac
        done
        case "$op" in start|done|block|reopen|edit|remove|show) ;; *) return 1 ;; esac
        keys="$(git-handover "${{__git_handover_C[@]}}" "${{dir[@]}}" task "${{session[@]}}" list --ids 2>/dev/null)" || return 1
        __git_handover_reply "$keys" "${{COMP_WORDS[COMP_CWORD]}}"
        return 0
    fi
    case "$sub" in {keyed}) ;; *) return 1 ;; esac
    case "${{COMP_WORDS[COMP_CWORD-1]}}" in -*) [[ "${{COMP_WORDS[COMP_CWORD-1]}}" == --successor || "${{COMP_WORDS[COMP_CWORD-1]}}" == --keep ]] || return 1 ;; esac
    keys="$(git-handover "${{__git_handover_C[@]}}" "${{dir[@]}}" status --keys 2>/dev/null)" || return 1
    [ -n "$keys" ] || return 1
    __git_handover_reply "$keys" "${{COMP_WORDS[COMP_CWORD]}}"
    return 0
}}

_git_handover_complete() {{
    __git_handover_session_keys && return 0
    _git__handover "$@"
}}

# git's own completion calls this for `git handover …` and for aliases of it.
_git_handover() {{
    # `git -C dir handover …`: git's completion keeps its -C options in __git_C_args.
    local __git_handover_C=("${{__git_C_args[@]}}")
    local COMP_WORDS=(git-handover "${{words[@]:__git_cmd_idx+1}}")
    local COMP_CWORD=$((cword - __git_cmd_idx))
    _git_handover_complete git-handover "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
}}

if [[ "${{BASH_VERSINFO[0]}}" -eq 4 && "${{BASH_VERSINFO[1]}}" -ge 4 || "${{BASH_VERSINFO[0]}}" -gt 4 ]]; then
    complete -F _git_handover_complete -o nosort -o bashdefault -o default git-handover
else
    complete -F _git_handover_complete -o bashdefault -o default git-handover
fi
"#
    )
}

fn zsh(script: &str) -> String {
    let mut out = String::new();
    for line in script.lines() {
        let keyed = line.starts_with("'::target -- ") || line.starts_with("'::key -- ");
        if line.starts_with("'--session=[") && line.ends_with(":KEY:_default' \\") {
            out.push_str(&line.replace(":KEY:_default' \\", ":KEY:_git_handover_keys' \\"));
        } else if line.starts_with("':id -- The task'\\''s id") && line.ends_with(":_default' \\") {
            out.push_str(&line.replace(":_default' \\", ":_git_handover_task_ids' \\"));
        } else if keyed && line.ends_with(":_default' \\") {
            let action = if line.starts_with("'::target") {
                "_git_handover_keys_or_files"
            } else {
                "_git_handover_keys"
            };
            out.push_str(&line.replace(":_default' \\", &format!(":{action}' \\")));
        } else if line.starts_with("if [ \"$funcstack[1]\" = \"_git-handover\" ]") {
            out.push_str(
                r#"# Session keys for `continue`, `render` and `log`, from `git handover status --keys`.
# `git -C dir handover …` and git-handover's own -C: read from the whole line (git's
# completion and ours each keep their own opt_args, so the line is what both see).
(( $+functions[_git_handover_dir] )) ||
_git_handover_dir() {
    local -a w
    local i
    w=(${(z)BUFFER})
    for (( i = 1; i < $#w; i++ )); do
        if [[ $w[i] == -C ]]; then
            print -rl -- -C ${(Q)~w[i+1]}
            return
        fi
    done
}
(( $+functions[_git_handover_keys] )) ||
_git_handover_keys() {
    local -a keys dir
    dir=(${(f)"$(_git_handover_dir)"})
    keys=(${(f)"$(git-handover $dir status --keys 2>/dev/null)"})
    compadd -a keys
}
(( $+functions[_git_handover_task_ids] )) ||
_git_handover_task_ids() {
    local -a ids session
    local i=${words[(I)--session]}
    (( i )) && session=(--session ${words[i+1]})
    local -a dir
    dir=(${(f)"$(_git_handover_dir)"})
    ids=(${(f)"$(git-handover $dir task $session list --ids 2>/dev/null)"})
    compadd -a ids
}
(( $+functions[_git_handover_keys_or_files] )) ||
_git_handover_keys_or_files() {
    _git_handover_keys
    _files
}

"#,
            );
            out.push_str(line);
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

fn fish(mut script: String) -> String {
    script.push_str(
        r#"
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
"#,
    );
    script.push_str(
        "\n# Session keys for `continue`, `render` and `log`, from `git handover status --keys`.\n",
    );
    script.push_str(
        r#"
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
"#,
    );
    script.push_str("\n# Task ids for the task commands that take one, and keys for --session.\n");
    for op in ["start", "done", "block", "reopen", "edit", "remove", "show"] {
        let _ = writeln!(
            script,
            "complete -c git-handover -n \"__fish_git_handover_using_subcommand task; and __fish_seen_subcommand_from {op}\" -f -a \"(git-handover (__fish_git_handover_dirs) task list --ids 2>/dev/null)\" -d 'task id'"
        );
    }
    script.push_str(
        "complete -c git-handover -n \"__fish_git_handover_using_subcommand task\" -l session -f -r -a \"(git-handover (__fish_git_handover_dirs) status --keys 2>/dev/null)\"\n",
    );
    for sub in KEYED {
        // `continue` also takes a path, so files stay on offer there.
        let files = if sub == "continue" { "" } else { " -f" };
        let _ = writeln!(
            script,
            "complete -c git-handover -n \"__fish_git_handover_using_subcommand {sub}\"{files} -a \"(git-handover (__fish_git_handover_dirs) status --keys 2>/dev/null)\" -d 'session key'"
        );
    }
    script
}
