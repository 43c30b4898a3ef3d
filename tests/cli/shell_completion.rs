//! Completion of `git handover …` (and of an alias of it) through the shells' own git
//! completion: bash, zsh and fish, subcommands, task ids, session keys and `git -C`.
//! A shell or tool this machine lacks skips its test with a note.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common::TestEnv;
use crate::git_extension::{have, install, user_path};

/// A repository with one session and `git ho` as an alias of `git handover`.
fn completion_repo(env: &TestEnv) -> (PathBuf, String) {
    let repo = env.init("repo");
    env.commit(&repo, "a", "a\n", "first", "2026-11-30T10:00:00Z");
    env.git(&repo, &["config", "alias.ho", "handover"]);
    let input = env.root().join("input.json");
    env.write(&input, "{}");
    let key = env
        .handover(&repo, &["save", "--from", input.to_str().unwrap()])
        .stdout
        .trim()
        .to_owned();
    (repo, key)
}

const COMPLETIONS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/completions");

#[test]
fn bash_completes_git_handover_and_its_alias_through_gits_completion() {
    let git_completion = "/usr/share/bash-completion/completions/git";
    if !Path::new(git_completion).is_file() || !have("bash") {
        crate::common::unavailable(&format!(
            "no bash or no git completion script at {git_completion}"
        ));
        return;
    }
    let env = TestEnv::new();
    let bin = install(&env);
    let (repo, key) = completion_repo(&env);
    // The shells' own entry point: git's completion, given the line as bash splits it.
    let script = format!(
        r#"source {git_completion}
source {COMPLETIONS}/git-handover.bash
# offer FUNCTION LINE: what FUNCTION (a completion function) offers for LINE.
offer() {{
  COMP_LINE="$2"; COMP_POINT=${{#COMP_LINE}}
  read -ra COMP_WORDS <<< "$COMP_LINE"; [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
  COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
  COMPREPLY=()
  "$1" "${{COMP_WORDS[0]}}" "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
  echo "$2|${{COMPREPLY[*]}}"
}}
complete_line() {{ offer __git_wrap__git_main "$1"; }}
complete_direct() {{ offer _git_handover_complete "$1"; }}
complete_line "git handover st"
complete_line "git ho con"
complete_line "git handover continue "
complete_line "git ho render "
complete_line "git handover log "
complete_line "git handover continue --su"
complete_direct "git-handover continue "
"#
    );
    let out = env
        .command("bash")
        .args(["--norc", "-c", &script])
        .current_dir(&repo)
        .env("PATH", user_path(&bin))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = String::from_utf8_lossy(&out.stdout);
    let expected = format!(
        "git handover st|status\ngit ho con|continue\ngit handover continue |{key}\ngit ho render |{key}\ngit handover log |{key}\ngit handover continue --su|--successor\ngit-handover continue |{key}\n"
    );
    assert_eq!(got, expected);
}

/// tmux on a server of the test's own (`-L`), apart from any the user runs.
fn tmux(socket: &str, args: &[&str]) -> std::process::Output {
    std::process::Command::new("tmux")
        .args(["-L", socket])
        .args(args)
        .output()
        .unwrap()
}

/// Type `line` and a Tab into an interactive shell in tmux; the line as the shell
/// completed it. Polls the pane until `expect` shows or fifteen seconds pass (a first
/// `compinit` on a loaded machine is slow).
fn tmux_complete(socket: &str, session: &str, line: &str, expect: &str) -> String {
    let tmux = |args: &[&str]| tmux(socket, args);
    tmux(&["send-keys", "-t", session, "C-u", line, "Tab"]);
    // 300 polls of 50 ms: fifteen seconds.
    for poll in 1..=300 {
        let pane = String::from_utf8_lossy(&tmux(&["capture-pane", "-p", "-t", session]).stdout)
            .into_owned();
        let last = pane
            .lines()
            .rev()
            .find(|l| l.starts_with("> "))
            .unwrap_or_default()
            .trim_end()
            .to_owned();
        if last.contains(expect) || poll == 300 {
            return last;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    unreachable!("the polls end at the 300th")
}

#[test]
fn zsh_completes_git_handover_and_its_alias_through_its_git_completion() {
    if !have("zsh") || !have("tmux") {
        crate::common::unavailable("zsh or tmux is not installed");
        return;
    }
    let env = TestEnv::new();
    let bin = install(&env);
    let (repo, key) = completion_repo(&env);
    let zdot = env.root().join("zdot");
    env.write(
        &zdot.join(".zshrc"),
        &format!(
            "fpath=({COMPLETIONS} $fpath)\nautoload -U compinit && compinit -u -d {}/zcompdump\nPROMPT='> '\n",
            zdot.display()
        ),
    );
    let session = format!("gh-zsh-{}", std::process::id());
    let shell = format!(
        "cd {} && env -i PATH={} HOME={} TERM=xterm ZDOTDIR={} GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null zsh -i",
        repo.display(),
        user_path(&bin),
        zdot.display(),
        zdot.display()
    );
    let socket = session.clone();
    let started = tmux(
        &socket,
        &[
            "new-session",
            "-d",
            "-s",
            &session,
            "-x",
            "200",
            "-y",
            "20",
            &shell,
        ],
    );
    assert!(started.status.success());
    let results = [
        tmux_complete(&socket, &session, "git handover st", "status"),
        tmux_complete(&socket, &session, "git ho con", "continue"),
        tmux_complete(&socket, &session, "git handover render ", &key),
    ];
    let _ = tmux(&socket, &["kill-server"]);
    assert_eq!(
        results,
        [
            "> git handover status".to_owned(),
            "> git ho continue".to_owned(),
            format!("> git handover render {key}"),
        ]
    );
}

#[test]
fn fish_completes_git_handover_and_its_alias_through_its_git_completion() {
    if !have("fish") {
        crate::common::unavailable("fish is not installed");
        return;
    }
    let env = TestEnv::new();
    let bin = install(&env);
    let (repo, key) = completion_repo(&env);
    let script = format!(
        "source {COMPLETIONS}/git-handover.fish
for line in 'git handover st' 'git ho con' 'git handover continue ' 'git ho log '
    echo \"$line|\"(complete -C $line | string split -f1 \\t | string join ' ')
end"
    );
    let out = env
        .command("fish")
        .args(["-c", &script])
        .current_dir(&repo)
        .env("PATH", user_path(&bin))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // `continue` also takes a path: the repository's file `a` is offered besides the key.
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!(
            "git handover st|status\ngit ho con|continue\ngit handover continue |a {key}\ngit ho log |{key}\n"
        )
    );
}

#[test]
fn bash_completes_task_ids_session_keys_and_honours_git_dash_c() {
    let git_completion = "/usr/share/bash-completion/completions/git";
    if !Path::new(git_completion).is_file() || !have("bash") {
        crate::common::unavailable(&format!(
            "no bash or no git completion script at {git_completion}"
        ));
        return;
    }
    let env = TestEnv::new();
    let bin = install(&env);
    let (repo, key) = completion_repo(&env);
    for id in ["T7", "T8"] {
        let run = env.handover(&repo, &["task", "add", id, "work"]);
        assert_eq!(run.code, 0, "{}", run.snapshot());
    }
    // The session that holds them: the saved one had no tasks, so it was finished, and
    // `task add` reopened it (finished within handover.freshFor; issue 32, item 3).
    let listing: serde_json::Value =
        serde_json::from_str(&env.handover(&repo, &["--json", "task", "list"]).stdout).unwrap();
    let tasks_key = listing["key"].as_str().unwrap().to_owned();
    let script = format!(
        r#"source {git_completion}
source {COMPLETIONS}/git-handover.bash
offer() {{
  COMP_LINE="$2"; COMP_POINT=${{#COMP_LINE}}
  read -ra COMP_WORDS <<< "$COMP_LINE"; [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
  COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
  COMPREPLY=()
  "$1" "${{COMP_WORDS[0]}}" "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
  echo "$2|${{COMPREPLY[*]}}"
}}
complete_line() {{ offer __git_wrap__git_main "$1"; }}
complete_line "git handover task done "
complete_line "git handover task --session {tasks_key} show T"
complete_line "git handover task add "
complete_line "git handover task list --session "
complete_line "git -C {repo} handover continue "
complete_line "git -C {repo} handover task start "
"#,
        repo = repo.display()
    );
    // Run from outside the repository: only -C can find it.
    let out = env
        .command("bash")
        .args(["--norc", "-c", &script])
        .current_dir(&repo)
        .env("PATH", user_path(&bin))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = got.lines().collect();
    assert_eq!(lines[0], "git handover task done |T7 T8");
    assert_eq!(
        lines[1],
        format!("git handover task --session {tasks_key} show T|T7 T8")
    );
    assert!(!lines[2].contains("T7"), "add takes a new id: {}", lines[2]);
    let mut keys: Vec<&str> = vec![key.as_str(), tasks_key.as_str()];
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(
        lines[3],
        format!("git handover task list --session |{}", keys.join(" "))
    );
    let outside = env.root();
    let out = env
        .command("bash")
        .args(["--norc", "-c", &script])
        .current_dir(outside)
        .env("PATH", user_path(&bin))
        .output()
        .unwrap();
    let got = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = got.lines().collect();
    assert_eq!(
        lines[4],
        format!(
            "git -C {} handover continue |{}",
            repo.display(),
            keys.join(" ")
        ),
        "{got}"
    );
    assert_eq!(
        lines[5],
        format!("git -C {} handover task start |T7 T8", repo.display())
    );
}

#[test]
fn fish_completes_task_ids_and_honours_git_dash_c() {
    if !have("fish") {
        crate::common::unavailable("fish is not installed");
        return;
    }
    let env = TestEnv::new();
    let bin = install(&env);
    let (repo, _) = completion_repo(&env);
    for id in ["T7", "T8"] {
        let run = env.handover(&repo, &["task", "add", id, "work"]);
        assert_eq!(run.code, 0, "{}", run.snapshot());
    }
    let script = format!(
        "source {COMPLETIONS}/git-handover.fish
for line in 'git -C {repo} handover task done ' 'git-handover task show '
    echo \"$line|\"(complete -C $line | string split -f1 \\t | string join ' ')
end",
        repo = repo.display()
    );
    // From outside the repository: only -C finds it for the first line.
    let out = env
        .command("fish")
        .args(["-c", &script])
        .current_dir(env.root())
        .env("PATH", user_path(&bin))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = String::from_utf8_lossy(&out.stdout);
    let first = got.lines().next().unwrap();
    assert_eq!(
        first,
        format!("git -C {} handover task done |T7 T8", repo.display()),
        "{got}"
    );
}

#[test]
fn zsh_completes_task_ids_and_honours_git_dash_c() {
    if !have("zsh") || !have("tmux") {
        crate::common::unavailable("zsh or tmux is not installed");
        return;
    }
    let env = TestEnv::new();
    let bin = install(&env);
    let (repo, _) = completion_repo(&env);
    let run = env.handover(&repo, &["task", "add", "QX7", "work"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let zdot = env.root().join("zdot");
    env.write(
        &zdot.join(".zshrc"),
        &format!(
            "fpath=({COMPLETIONS} $fpath)\nautoload -U compinit && compinit -u -d {}/zcompdump\nPROMPT='> '\n",
            zdot.display()
        ),
    );
    let session = format!("gh-zsh-c-{}", std::process::id());
    // Outside the repository: only -C can find it.
    let shell = format!(
        "cd {} && env -i PATH={} HOME={} TERM=xterm ZDOTDIR={} GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null zsh -i",
        env.root().display(),
        user_path(&bin),
        zdot.display(),
        zdot.display()
    );
    let started = tmux(
        &session,
        &[
            "new-session",
            "-d",
            "-s",
            &session,
            "-x",
            "200",
            "-y",
            "20",
            &shell,
        ],
    );
    assert!(started.status.success());
    let line = format!("git -C {} handover task done ", repo.display());
    let result = tmux_complete(&session, &session, &line, "QX7");
    let _ = tmux(&session, &["kill-server"]);
    assert_eq!(result, format!("> {line}QX7"));
}
