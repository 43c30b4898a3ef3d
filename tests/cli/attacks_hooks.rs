//! The second round of attacks (issue 31) on the hooks room: each test tries to break one
//! promise and failed before its fix. docs/SECURITY.md lists them.

use std::path::Path;

use serde_json::{Value, json};

use crate::common::TestEnv;

/// The repository with a ready session of one task in progress.
fn ready(env: &TestEnv) -> std::path::PathBuf {
    let repo = env.repo();
    env.write(
        &repo.join(".claude/handover/main/20261130-110000/project-state.json"),
        &json!({"version": 4, "generated_at": "2026-11-30T11:00:00Z", "status": "READY",
                "session_id": "s-1", "workspace": {"branch": "main"}, "active_tasks": [
                {"id": "T1", "status": "in_progress", "description": "lexer",
                 "file_paths": ["src/lex.rs"], "last_touched": "2026-11-30T11:00:00Z"}]})
        .to_string(),
    );
    repo
}

fn start_event(cwd: &Path) -> Vec<u8> {
    json!({"session_id": "abc", "cwd": cwd.display().to_string(),
           "hook_event_name": "SessionStart", "source": "startup"})
    .to_string()
    .into_bytes()
}

/// Item 3: a link planted at `hook-starts/.swept` (old enough to be swept again) is
/// neither followed nor truncated by the read-only session-start hook.
#[test]
fn the_session_start_hook_never_writes_through_a_link_at_swept() {
    let env = TestEnv::new();
    let repo = ready(&env);
    let precious = env.root().join("precious.txt");
    env.write(&precious, "the user's own file\n");
    let starts = repo.join(".git/git-handover/hook-starts");
    std::fs::create_dir_all(&starts).unwrap();
    let swept = starts.join(".swept");
    std::os::unix::fs::symlink(&precious, &swept).unwrap();
    // The link itself two hours old: the hook sweeps (and used to touch `.swept`).
    let touched = env
        .command("touch")
        .args(["-h", "-d", "2 hours ago"])
        .arg(&swept)
        .status()
        .unwrap();
    assert!(touched.success());
    let run = env.handover_fed(
        &repo,
        &["hook", "session-start"],
        &start_event(&repo),
        |_| {},
    );
    assert!(run.hook_context().contains("lexer"), "{}", run.snapshot());
    assert_eq!(
        std::fs::read_to_string(&precious).unwrap(),
        "the user's own file\n"
    );
    assert!(std::fs::symlink_metadata(&swept).unwrap().is_symlink());
}

/// Item 3, the directory: a `hook-starts` that is a link to another directory is not
/// swept (the sweep removes files older than a day, and would remove the user's).
#[test]
fn the_session_start_hook_never_sweeps_through_a_linked_directory() {
    let env = TestEnv::new();
    let repo = ready(&env);
    let elsewhere = env.root().join("documents");
    let old = elsewhere.join("thesis.txt");
    env.write(&old, "years of work\n");
    let aged = env
        .command("touch")
        .args(["-d", "3 days ago"])
        .arg(&old)
        .status()
        .unwrap();
    assert!(aged.success());
    let tool = repo.join(".git/git-handover");
    std::fs::create_dir_all(&tool).unwrap();
    std::os::unix::fs::symlink(&elsewhere, tool.join("hook-starts")).unwrap();
    let run = env.handover_fed(
        &repo,
        &["hook", "session-start"],
        &start_event(&repo),
        |_| {},
    );
    assert!(run.hook_context().contains("lexer"), "{}", run.snapshot());
    assert_eq!(std::fs::read_to_string(&old).unwrap(), "years of work\n");
    assert_eq!(
        std::fs::read_dir(&elsewhere).unwrap().count(),
        1,
        "no marker there"
    );
}

/// Item 8: `hook install` takes out only the exact line the tool writes; the user's own
/// commands that run the hook among other things stay, and `uninstall` gives the file
/// back as it was (its `hooks`, and a group the user left empty, included).
#[test]
fn install_and_uninstall_leave_the_users_own_session_start_commands() {
    let env = TestEnv::new();
    let repo = ready(&env);
    let settings = repo.join(".claude/settings.json");
    let original = json!({"hooks": {"SessionStart": [
        {"matcher": "startup", "hooks": [
            {"type": "command", "command": "./scripts/setup-env.sh && git-handover hook session-start"}]},
        {"matcher": "resume", "hooks": [
            {"type": "command", "command": "timeout 5 git-handover hook session-start --agent claude"}]},
        {"matcher": "clear", "hooks": []}]}});
    env.write(&settings, &serde_json::to_string_pretty(&original).unwrap());
    let run = env.handover(&repo, &["hook", "install"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let after: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    let groups = after["hooks"]["SessionStart"].as_array().unwrap();
    assert_eq!(groups.len(), 4, "theirs kept, ours added: {after:#}");
    assert_eq!(
        groups[..3],
        original["hooks"]["SessionStart"].as_array().unwrap()[..]
    );
    let run = env.handover(&repo, &["hook", "uninstall"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let back: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(
        back, original,
        "uninstall takes out only what install added"
    );
}

/// Item 42 (second half): a settings file with a key given twice is refused by name,
/// exit 3, and not rewritten (one of the values would be lost).
#[test]
fn a_settings_file_with_a_duplicate_key_is_refused_by_name() {
    let env = TestEnv::new();
    let repo = ready(&env);
    let settings = repo.join(".claude/settings.json");
    let text = "{\n  \"model\": \"opus\",\n  \"permissions\": {\"allow\": []},\n  \"model\": \"sonnet\"\n}\n";
    env.write(&settings, text);
    let run = env.handover(&repo, &["hook", "install"]);
    assert_eq!(run.code, 3, "{}", run.snapshot());
    assert!(
        run.stderr.contains("[ROOT]/repo/.claude/settings.json")
            && run.stderr.contains("model")
            && run.stderr.contains("twice"),
        "{}",
        run.snapshot()
    );
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), text);
}

/// The settings file is parsed once, strictly; a key given twice in a file that is also
/// broken further on, or whose root is not an object, is told that first, as the
/// plain parse tells it, and nothing is written.
#[test]
fn a_repeated_key_in_a_broken_file_is_told_the_file_is_broken() {
    let env = TestEnv::new();
    let repo = ready(&env);
    let settings = repo.join(".claude/settings.json");
    for (text, said) in [
        ("{\"a\": 1,\n \"a\": 2,\n \"b\": }\n", "line 3"),
        ("[{\"a\": 1, \"a\": 2}]\n", "JSON object"),
    ] {
        env.write(&settings, text);
        let run = env.handover(&repo, &["hook", "install"]);
        assert_ne!(run.code, 0, "{}", run.snapshot());
        assert!(
            run.stderr.contains(said) && !run.stderr.contains("twice"),
            "{text}: {}",
            run.snapshot()
        );
        assert_eq!(std::fs::read_to_string(&settings).unwrap(), text);
    }
}

/// A post-commit hook of the user's in `repo`, holding `text`, with `mode`.
fn hook_file(repo: &Path, text: &[u8], mode: u32) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let hook = repo.join(".git/hooks/post-commit");
    std::fs::create_dir_all(hook.parent().unwrap()).unwrap();
    std::fs::write(&hook, text).unwrap();
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(mode)).unwrap();
    hook
}

fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

/// Item 18: a hook whose interpreter merely has "sh" somewhere in its line is not a
/// shell script, and is not edited; a shell behind `env` (also `env -S`) is one.
#[test]
fn only_a_shell_interpreter_gets_shell_lines() {
    let env = TestEnv::new();
    let repo = env.repo();
    for line in [
        "#!/home/u/.pyenv/shims/python3",
        "#!/bin/csh",
        "#!/usr/bin/env -S deno run --allow-all # sh",
        "#!/usr/bin/fish",
    ] {
        let text = format!("{line}\nprint('x')\n");
        let hook = hook_file(&repo, text.as_bytes(), 0o755);
        let run = env.handover(&repo, &["hook", "install", "--git", "post-commit"]);
        assert_eq!(run.code, 3, "{line}: {}", run.snapshot());
        assert_eq!(std::fs::read_to_string(&hook).unwrap(), text, "{line}");
    }
    for line in [
        "#!/usr/bin/env bash",
        "#!/usr/bin/env -S bash -e",
        "#!/bin/dash -e",
    ] {
        let hook = hook_file(&repo, format!("{line}\necho x\n").as_bytes(), 0o755);
        let run = env.handover(&repo, &["hook", "install", "--git", "post-commit"]);
        assert_eq!(run.code, 0, "{line}: {}", run.snapshot());
        assert!(
            std::fs::read_to_string(&hook)
                .unwrap()
                .contains("hook post-commit")
        );
    }
}

/// Item 19: `core.hooksPath='~/hooks'` is the hooks directory in the home directory,
/// as git reads it, not a directory named `~` in the worktree.
#[test]
fn a_hooks_path_with_a_tilde_is_in_the_home_directory() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.git(&repo, &["config", "core.hooksPath", "~/hooks"]);
    let run = env.handover(&repo, &["hook", "install", "--git", "post-commit"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        run.stdout.contains("[ROOT]/home/hooks/post-commit"),
        "{}",
        run.snapshot()
    );
    assert!(env.root().join("home/hooks/post-commit").is_file());
    assert!(!repo.join("~").exists(), "no ./~ in the worktree");
}

/// Item 30: over a hook that is not executable (git does not run it), install says so
/// plainly and does not make it executable behind the user's back.
#[test]
fn install_over_a_disabled_hook_says_git_does_not_run_it() {
    let env = TestEnv::new();
    let repo = env.repo();
    let hook = hook_file(&repo, b"#!/bin/sh\necho mine\n", 0o644);
    let run = env.handover(&repo, &["hook", "install", "--git", "post-commit"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        run.stderr
            .contains("is not executable, so git does not run it")
            && run.stderr.contains("chmod +x"),
        "{}",
        run.snapshot()
    );
    assert_eq!(mode_of(&hook), 0o644);
    // The command it prints, run as printed from the worktree, makes git run the hook
    // (the user's line and the tool's) at the next commit.
    let printed = run
        .stderr
        .lines()
        .find_map(|l| l.split_once("make it executable: ").map(|(_, c)| c))
        .expect("the warning names the command")
        .replace("[ROOT]", &env.root().display().to_string());
    let chmod = env
        .command("sh")
        .args(["-c", &printed])
        .current_dir(&repo)
        .status()
        .unwrap();
    assert!(chmod.success(), "{printed}");
    let commit = env
        .command("git")
        .args(["commit", "-q", "--allow-empty", "-m", "after the chmod"])
        .current_dir(&repo)
        .output()
        .unwrap();
    assert!(commit.status.success());
    // git gives a hook's output on its stderr.
    assert!(
        String::from_utf8_lossy(&commit.stderr).contains("mine"),
        "{}",
        String::from_utf8_lossy(&commit.stderr)
    );
}

/// Item 31: install then uninstall gives a user's hook back byte for byte, with its
/// mode, even one that is only `#!/bin/sh` (with or without its newline).
#[test]
fn install_then_uninstall_gives_a_bare_hook_back_byte_for_byte() {
    let env = TestEnv::new();
    let repo = env.repo();
    for text in [
        &b"#!/bin/sh"[..],
        b"#!/bin/sh\n",
        b"#!/bin/sh\n\n",
        b"#!/bin/bash\n# mine\n",
    ] {
        let hook = hook_file(&repo, text, 0o750);
        env.handover(&repo, &["hook", "install", "--git", "post-commit"])
            .assert_ok();
        assert!(
            std::fs::read_to_string(&hook)
                .unwrap()
                .contains("hook post-commit")
        );
        env.handover(&repo, &["hook", "uninstall", "--git", "post-commit"])
            .assert_ok();
        assert_eq!(
            std::fs::read(&hook).unwrap(),
            text,
            "{:?}",
            String::from_utf8_lossy(text)
        );
        assert_eq!(mode_of(&hook), 0o750);
    }
    // A hook the tool made itself goes whole.
    std::fs::remove_file(repo.join(".git/hooks/post-commit")).unwrap();
    env.handover(&repo, &["hook", "install", "--git", "post-commit"])
        .assert_ok();
    env.handover(&repo, &["hook", "uninstall", "--git", "post-commit"])
        .assert_ok();
    assert!(!repo.join(".git/hooks/post-commit").exists());
    // ... and one the user added to keeps their lines, without the tool's.
    env.handover(&repo, &["hook", "install", "--git", "post-commit"])
        .assert_ok();
    let hook = repo.join(".git/hooks/post-commit");
    let made = std::fs::read_to_string(&hook).unwrap();
    std::fs::write(&hook, format!("{made}echo mine\n")).unwrap();
    env.handover(&repo, &["hook", "uninstall", "--git", "post-commit"])
        .assert_ok();
    assert_eq!(
        std::fs::read_to_string(&hook).unwrap(),
        "#!/bin/sh\necho mine\n"
    );
}

/// `git-handover` with `args`, started in a directory removed before it runs, with
/// `input` on stdin.
fn from_a_removed_dir(env: &TestEnv, args: &[&str], input: &[u8]) -> crate::common::Run {
    let gone = env.root().join("gone");
    std::fs::create_dir_all(&gone).unwrap();
    let out = crate::common::fed(
        env.command("sh")
            .arg("-c")
            .arg("rmdir \"$PWD\" && exec \"$0\" \"$@\"")
            .arg(env!("CARGO_BIN_EXE_git-handover"))
            .args(args)
            .current_dir(&gone),
        input,
    );
    crate::common::Run {
        code: out.status.code().unwrap_or(-1),
        stdout: env.redact(&String::from_utf8_lossy(&out.stdout)),
        stderr: env.redact(&String::from_utf8_lossy(&out.stderr)),
    }
}

/// Item 12: hooks started from a removed directory work from the directory the event
/// or `-C` names; from nowhere, the never-fail hooks say one line and exit 0.
#[test]
fn hooks_started_from_a_removed_directory_work_where_they_are_told() {
    let env = TestEnv::new();
    let repo = ready(&env);
    let run = from_a_removed_dir(&env, &["hook", "session-start"], &start_event(&repo));
    assert!(run.hook_context().contains("lexer"), "{}", run.snapshot());
    let event = json!({"session_id": "abc", "cwd": repo.display().to_string()}).to_string();
    let run = from_a_removed_dir(&env, &["hook", "pre-compact"], event.as_bytes());
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.contains("systemMessage"), "{}", run.snapshot());
    let abs = repo.display().to_string();
    let run = from_a_removed_dir(&env, &["-C", &abs, "status"], b"");
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.contains("main"), "{}", run.snapshot());
    env.commit(&repo, "src/lex.rs", "x\n", "lex", "2026-11-30T11:30:00Z");
    let run = from_a_removed_dir(&env, &["-C", &abs, "hook", "post-commit"], b"");
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let state = crate::common::read_json(
        &repo.join(".claude/handover/main/20261130-110000/project-state.json"),
    );
    assert_eq!(
        state["active_tasks"][0]["last_touched"],
        "2026-11-30T11:30:00+00:00"
    );
    // Nowhere at all: one line, exit 0.
    for hook in ["session-start", "pre-compact", "post-commit"] {
        let run = from_a_removed_dir(&env, &["hook", hook], b"{}");
        assert_eq!(run.code, 0, "{hook}: {}", run.snapshot());
        let said = format!("{}{}", run.stdout, run.stderr);
        assert!(
            said.contains("no longer exists"),
            "{hook}: {}",
            run.snapshot()
        );
        assert_eq!(run.stderr.lines().count() + run.stdout.lines().count(), 1);
    }
}

/// Item 11 (hook half): while another writer really holds the session's lock, the
/// post-commit hook does not wait for it (the commit would be held for the whole lock
/// timeout): it says in one line that it skipped, and writes nothing.
#[test]
fn the_post_commit_hook_never_waits_for_a_held_session_lock() {
    let env = TestEnv::new();
    let repo = ready(&env);
    env.git(&repo, &["config", "handover.lockTimeout", "2s"]);
    env.commit(&repo, "src/lex.rs", "x\n", "lex", "2026-11-30T11:30:00Z");
    let file = repo.join(".claude/handover/main/20261130-110000/project-state.json");
    let before = std::fs::read(&file).unwrap();
    // Held by a live process on this host: this test's own.
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    let lock = file.with_file_name("project-state.json.lock");
    std::fs::write(&lock, format!("{} {}\n", std::process::id(), host.trim())).unwrap();
    let log = env.event_log("post-commit");
    let run = env.handover_with(&repo, &["hook", "post-commit"], |c| {
        c.env("GIT_HANDOVER_TEST_LOG", log.path());
    });
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(log.count("lock-wait"), 0, "the hook waited for the lock");
    assert_eq!(run.stdout, "");
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.snapshot());
    assert!(
        run.stderr.contains("main/20261130-110000") && run.stderr.contains("does not wait"),
        "{}",
        run.snapshot()
    );
    assert_eq!(std::fs::read(&file).unwrap(), before);
    assert!(lock.exists(), "the other writer's lock is left alone");
}

/// Item 23: with `handover.recordCommits`, `architecture_changes` keeps the newest ten,
/// as `save` does, however many commits are made.
#[test]
fn recorded_commits_keep_the_newest_ten_as_save_does() {
    let env = TestEnv::new();
    let repo = ready(&env);
    env.git(&repo, &["config", "handover.recordCommits", "true"]);
    let mut last = String::new();
    for i in 0..12 {
        last = env.commit(
            &repo,
            &format!("f{i}.txt"),
            "x\n",
            &format!("c{i}"),
            "2026-11-30T11:30:00Z",
        );
        env.handover(&repo, &["hook", "post-commit"]).assert_ok();
    }
    let state = crate::common::read_json(
        &repo.join(".claude/handover/main/20261130-110000/project-state.json"),
    );
    let changes = state["architecture_changes"].as_array().unwrap();
    assert_eq!(changes.len(), 10, "{changes:#?}");
    assert_eq!(changes[0]["summary"], "c2");
    assert_eq!(changes[9]["commit_sha"], last.as_str());
}

/// Item 8's sibling: the hook's own invocation written by hand (by absolute path, for
/// one source) runs this tool and nothing else, so `install` takes it over and widens
/// it instead of adding a second entry: the hook runs once a start.
#[test]
fn a_hand_written_invocation_of_the_hook_is_widened_not_duplicated() {
    let env = TestEnv::new();
    let repo = ready(&env);
    let settings = repo.join(".claude/settings.json");
    let own = "/usr/local/bin/git-handover hook session-start --agent claude";
    env.write(
        &settings,
        &json!({"hooks": {"SessionStart": [{"matcher": "startup", "hooks": [
            {"type": "command", "command": own}]}]}})
        .to_string(),
    );
    let run = env.handover(&repo, &["hook", "install"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let after: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    let commands: Vec<&str> = after["hooks"]["SessionStart"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["hooks"].as_array().unwrap())
        .filter_map(|h| h["command"].as_str())
        .collect();
    assert_eq!(commands.len(), 1, "one hook, not two: {after:#}");
    let matcher = after["hooks"]["SessionStart"][0]["matcher"]
        .as_str()
        .unwrap();
    assert!(
        ["startup", "resume", "clear", "compact"]
            .iter()
            .all(|s| matcher.contains(s)),
        "{after:#}"
    );
}
