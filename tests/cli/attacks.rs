//! The second round of attacks (issue 31): each test tries to break one promise the
//! tool makes about what it reads and writes. docs/SECURITY.md lists them.

use std::path::Path;

use crate::common::{self, TestEnv};
use crate::git_extension::have;

fn save(env: &TestEnv, dir: &Path, args: &[&str], state: &str) -> common::Run {
    let input = env.root().join("input.json");
    env.write(&input, state);
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["save", "--from", input.to_str().unwrap()]);
    env.handover(dir, &all)
}

const ONE_TASK: &str =
    r#"{"active_tasks": [{"id": "T1", "status": "in_progress", "description": "work"}]}"#;

/// Item 17: a handover.dir with glob characters is excluded literally — the handover
/// stays out of `git status`, and the user's `ho1/` is not ignored.
#[test]
fn a_handover_dir_with_glob_characters_is_excluded_literally() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    env.commit(&repo, "a.txt", "a\n", "first", "2026-11-30T10:00:00Z");
    env.write(&repo.join("ho1/mine.txt"), "the user's own file\n");
    let run = save(&env, &repo, &["-c", "handover.dir=ho[1]"], ONE_TASK);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let exclude = std::fs::read_to_string(repo.join(".git/info/exclude")).unwrap();
    assert!(exclude.contains("/ho\\[1\\]/\n"), "{exclude}");
    let status = env.git(&repo, &["status", "--porcelain", "--untracked-files=all"]);
    assert_eq!(status, "?? ho1/mine.txt", "{exclude}");
    // Said once: the pattern is found again on the next write.
    let again = save(&env, &repo, &["-c", "handover.dir=ho[1]"], ONE_TASK);
    assert_eq!(again.code, 0, "{}", again.snapshot());
    assert_eq!(again.stderr, "", "{}", again.snapshot());
}

/// Item 1: pressing TAB never runs code from a task id or a session key. Both come from
/// files anyone can write (a handover file, a notes record any remote can push); bash's
/// `compgen -W` would expand `$(…)` and backquotes inside them.
#[test]
fn bash_completion_runs_nothing_from_task_ids_or_session_keys() {
    let git_completion = "/usr/share/bash-completion/completions/git";
    if !Path::new(git_completion).is_file() || !have("bash") {
        common::unavailable(&format!(
            "no bash or no git completion script at {git_completion}"
        ));
        return;
    }
    let env = TestEnv::new();
    let repo = env.init("repo");
    env.commit(&repo, "a", "a\n", "first", "2026-11-30T10:00:00Z");
    let run = save(&env, &repo, &[], ONE_TASK);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let key = run.stdout.trim().to_owned();
    // An agent (or a cloned repository) wrote the ids; a directory gives the key.
    let state = repo
        .join(".claude/handover")
        .join(&key)
        .join("project-state.json");
    // Edited as JSON, not as text: a textual splice would leave a key twice in one
    // task, which the reader refuses (a rewrite would lose one copy).
    let mut doc = common::read_json(&state);
    doc["active_tasks"][0]["id"] = "T1$(touch${IFS}pwned)".into();
    doc["active_tasks"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!(
            {"id": "T2`touch${IFS}pwned2`", "status": "pending", "description": "x"}
        ));
    env.write(&state, &doc.to_string());
    let evil = repo.join(".claude/handover/x$(touch${IFS}pwned3)/1/project-state.json");
    env.write(&evil, ONE_TASK);
    let bin = env.root().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_git-handover"), bin.join("git-handover")).unwrap();
    let completions = concat!(env!("CARGO_MANIFEST_DIR"), "/completions");
    let script = format!(
        r#"source {git_completion}
source {completions}/git-handover.bash
offer() {{
  COMP_LINE="$2"; COMP_POINT=${{#COMP_LINE}}
  read -ra COMP_WORDS <<< "$COMP_LINE"; [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
  COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
  COMPREPLY=()
  "$1" "${{COMP_WORDS[0]}}" "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
  printf '%s|' "$2" "${{COMPREPLY[@]}}"; echo
}}
offer __git_wrap__git_main "git handover task done "
offer __git_wrap__git_main "git handover task done T1"
offer __git_wrap__git_main "git handover continue "
offer __git_wrap__git_main "git handover task list --session "
"#
    );
    let out = env
        .command("bash")
        .args(["--norc", "-c", &script])
        .current_dir(&repo)
        .env(
            "PATH",
            format!("{}:/usr/local/bin:/usr/bin:/bin", bin.display()),
        )
        .output()
        .unwrap();
    let got = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for file in ["pwned", "pwned2", "pwned3"] {
        assert!(
            !repo.join(file).exists(),
            "TAB ran code: {file} made\n{got}"
        );
    }
    // The words are offered as they are written, nothing expanded.
    let lines: Vec<&str> = got.lines().collect();
    assert_eq!(
        lines[0], "git handover task done |T1$(touch${IFS}pwned)|T2`touch${IFS}pwned2`|",
        "{got}"
    );
    assert_eq!(
        lines[1], "git handover task done T1|T1$(touch${IFS}pwned)|",
        "{got}"
    );
    assert!(lines[2].contains("|x$(touch${IFS}pwned3)/1|"), "{got}");
    assert!(lines[3].contains("|x$(touch${IFS}pwned3)/1|"), "{got}");
}

/// Item 4: the test knobs (pause points, the event log, a shortened hook deadline, the
/// long-walk threshold) exist only in test builds. The release binary — what `cargo
/// install` makes — ignores them: no pause point is even reached. `.ci/run` builds it
/// before the tests; elsewhere the test needs `cargo build --release` first.
#[test]
fn the_release_binary_has_no_test_knobs() {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("target"),
        std::path::PathBuf::from,
    );
    let release = target.join("release/git-handover");
    if !release.is_file() {
        common::unavailable(&format!(
            "no release binary at {} (cargo build --release --locked)",
            release.display()
        ));
        return;
    }
    let env = TestEnv::new();
    let repo = env.init("repo");
    env.commit(&repo, "a.txt", "a\n", "first", "2026-11-30T10:00:00Z");
    let log = env.root().join("events.log");
    let run = |bin: &Path| {
        env.command(bin)
            .args(["status", "--json"])
            .current_dir(&repo)
            .env("GIT_HANDOVER_TEST_PAUSE", "exit:1")
            .env("GIT_HANDOVER_TEST_LOG", &log)
            .env("GIT_HANDOVER_TEST_DEADLINE_MS", "0")
            .output()
            .unwrap()
    };
    // The test build honours them (the log names the exit point) ...
    assert!(
        run(Path::new(env!("CARGO_BIN_EXE_git-handover")))
            .status
            .success()
    );
    let seen = std::fs::read_to_string(&log).unwrap();
    assert!(seen.lines().any(|l| l == "exit"), "{seen}");
    std::fs::remove_file(&log).unwrap();
    // ... the release build does not: nothing is logged, nothing paused.
    let out = run(&release);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!log.exists(), "the release binary wrote the test log");
}

/// Item 15: a write count at the top of the range is refused by name, never wrapped to
/// 0 (every later write would rank below the forged one); the file is left as it was.
#[test]
fn a_write_count_at_the_top_is_refused_not_wrapped() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    env.commit(&repo, "a.txt", "a\n", "first", "2026-11-30T10:00:00Z");
    let run = save(&env, &repo, &[], ONE_TASK);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let key = run.stdout.trim().to_owned();
    let state = repo
        .join(".claude/handover")
        .join(&key)
        .join("project-state.json");
    let text = std::fs::read_to_string(&state).unwrap();
    let at = text.find("\"seq\": 1,").expect(&text);
    for top in [9_007_199_254_740_991_u64, u64::MAX] {
        let forged = format!("{}\"seq\": {top},{}", &text[..at], &text[at + 9..]);
        env.write(&state, &forged);
        let run = env.handover(&repo, &["task", "add", "T2", "more"]);
        assert_eq!(run.code, 3, "{}", run.snapshot());
        assert!(
            run.stderr.contains("project-state.json") && run.stderr.contains("seq"),
            "{}",
            run.stderr
        );
        assert_eq!(std::fs::read_to_string(&state).unwrap(), forged);
    }
}
