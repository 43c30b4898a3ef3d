//! Agent hooks: the installed command line run as the agent would run it, the settings
//! files before and after, and a hook that never fails the agent's start.

use std::path::Path;

use crate::common::TestEnv;
use serde_json::{Value, json};

fn ready_session(env: &TestEnv, repo: &Path, tasks: usize) {
    let tasks: Vec<Value> = (1..=tasks)
        .map(|i| json!({"id": format!("T{i}"), "status": "in_progress",
                        "description": format!("task number {i} with a description long enough to fill the context"),
                        "next_action": "keep going", "last_touched": "2026-11-30T11:00:00Z"}))
        .collect();
    env.write(
        &repo.join(".claude/handover/main/20261130-110000/project-state.json"),
        &json!({"version": 3, "generated_at": "2026-11-30T11:00:00Z", "status": "READY",
                "workspace": {"branch": "main"}, "active_tasks": tasks})
        .to_string(),
    );
}

/// Run a hook command line the way an agent does: through a shell, with the event on
/// stdin, git-handover on PATH. Returns exit status and stdout.
fn run_hook(env: &TestEnv, dir: &Path, command: &str, event: &[u8]) -> (i32, String) {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_git-handover"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = crate::common::fed(
        env.command("sh")
            .args(["-c", command])
            .env("PATH", path)
            .current_dir(dir),
        event,
    );
    (
        out.status.code().unwrap_or(-1),
        env.redact(&String::from_utf8_lossy(&out.stdout)),
    )
}

fn event(cwd: &Path, source: &str) -> Vec<u8> {
    json!({"session_id": "abc", "transcript_path": "/tmp/t.jsonl", "cwd": cwd.display().to_string(),
           "hook_event_name": "SessionStart", "source": source, "something_new": [1, 2]})
    .to_string()
    .into_bytes()
}

/// The context of a hook's output, checking the documented shape on the way.
#[track_caller]
fn context(stdout: &str) -> String {
    assert!(
        stdout.ends_with('\n') && stdout.lines().count() == 1,
        "one line of JSON: {stdout:?}"
    );
    let v: Value = serde_json::from_str(stdout).unwrap();
    let outer = v.as_object().unwrap();
    assert_eq!(outer.keys().collect::<Vec<_>>(), ["hookSpecificOutput"]);
    let inner = v["hookSpecificOutput"].as_object().unwrap();
    assert_eq!(
        inner.keys().collect::<Vec<_>>(),
        ["hookEventName", "additionalContext"]
    );
    assert_eq!(inner["hookEventName"], "SessionStart");
    inner["additionalContext"].as_str().unwrap().to_owned()
}

const EXISTING: &str = r#"{
  "model": "opus",
  "permissions": {"allow": ["Bash(cargo test:*)"]},
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo pre"}]}],
    "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hello"}]}]
  },
  "zz_last": true
}
"#;

#[test]
fn install_merges_into_existing_settings_and_the_installed_command_briefs() {
    let env = TestEnv::new();
    let repo = env.repo();
    ready_session(&env, &repo, 2);
    let settings = repo.join(".claude/settings.json");
    env.write(&settings, EXISTING);
    let run = env.handover(
        &repo,
        &["hook", "install", "--agent", "claude", "--scope", "project"],
    );
    assert_eq!(
        run.stdout,
        "added git-handover's hooks to [ROOT]/repo/.claude/settings.json\n",
        "{}",
        run.snapshot()
    );
    let after = std::fs::read_to_string(&settings).unwrap();
    insta::assert_snapshot!("claude_settings_after_install", after);
    let again = env.handover(&repo, &["hook", "install"]);
    assert_eq!(
        again.stdout,
        "[ROOT]/repo/.claude/settings.json already has git-handover's hooks\n"
    );
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        after,
        "a second install changes no byte"
    );

    // Run exactly what was installed, for every source the matcher names.
    let v: Value = serde_json::from_str(&after).unwrap();
    let group = v["hooks"]["SessionStart"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(group["matcher"], "startup|resume|clear|compact|fork");
    let command = group["hooks"][0]["command"].as_str().unwrap();
    let sub = repo.join("src");
    std::fs::create_dir_all(&sub).unwrap();
    for source in ["startup", "resume", "clear", "compact", "fork"] {
        // The agent runs hooks from anywhere; the event's cwd says where it works.
        let (code, stdout) = run_hook(&env, env.root(), command, &event(&sub, source));
        assert_eq!(code, 0, "{source}");
        let context = context(&stdout);
        assert!(
            context.contains("[T1] in_progress task number 1"),
            "{source}: {context}"
        );
        assert!(context.contains("Next: ask the user"), "{context}");
    }

    let removed = env.handover(&repo, &["hook", "uninstall"]);
    assert_eq!(
        removed.stdout,
        "removed git-handover's hooks from [ROOT]/repo/.claude/settings.json\n"
    );
    let back: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    let original: Value = serde_json::from_str(EXISTING).unwrap();
    assert_eq!(back, original, "uninstall removes only what install added");
}

#[test]
fn codex_and_gemini_settings() {
    let env = TestEnv::new();
    let repo = env.repo();
    let run = env.handover(&repo, &["hook", "install", "--agent", "codex"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let codex: Value =
        serde_json::from_str(&std::fs::read_to_string(repo.join(".codex/hooks.json")).unwrap())
            .unwrap();
    assert_eq!(codex["hooks"]["SessionStart"][0]["hooks"][0]["timeout"], 10);
    let run = env.handover(
        &repo,
        &["hook", "install", "--agent", "gemini", "--scope", "user"],
    );
    assert_eq!(
        run.stdout,
        "added git-handover's hooks to [ROOT]/home/.gemini/settings.json\n",
        "{}",
        run.snapshot()
    );
    let gemini = std::fs::read_to_string(env.root().join("home/.gemini/settings.json")).unwrap();
    insta::assert_snapshot!("gemini_settings_after_install", gemini);
    let local = env.handover(
        &repo,
        &["hook", "install", "--agent", "codex", "--scope", "local"],
    );
    assert_eq!(local.code, 2, "{}", local.snapshot());
    let user = env.handover(&repo, &["hook", "install", "--scope", "user"]);
    assert_eq!(
        user.stdout,
        "added git-handover's hooks to [ROOT]/home/.claude/settings.json\n"
    );
}

#[test]
fn a_settings_file_that_is_not_json_is_refused_and_left_alone() {
    let env = TestEnv::new();
    let repo = env.repo();
    let settings = repo.join(".claude/settings.local.json");
    env.write(&settings, "{\"hooks\": {,}}\n");
    let run = env.handover(&repo, &["hook", "install", "--scope", "local"]);
    insta::assert_snapshot!(run.snapshot(), @r"
    exit: 3
    --- stdout
    --- stderr
    git-handover: refusing to edit [ROOT]/repo/.claude/settings.local.json: it is not plain JSON (line 1, column 12: key must be a string); it was left as it is
    hint: add the SessionStart hook by hand (command: git-handover hook session-start --agent <agent>), or remove the comments and run this again
    ");
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        "{\"hooks\": {,}}\n"
    );
}

#[test]
fn instructions_are_added_once_and_removed_by_uninstall() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.write(&repo.join("CLAUDE.md"), "# Project\n\nBuild with cargo.");
    let run = env.handover(&repo, &["hook", "install", "--instructions"]);
    assert!(
        run.stdout
            .contains("added a Session continuity section to [ROOT]/repo/CLAUDE.md"),
        "{}",
        run.snapshot()
    );
    let once = std::fs::read_to_string(repo.join("CLAUDE.md")).unwrap();
    assert!(
        once.starts_with("# Project\n\nBuild with cargo.\n\n## Session continuity\n"),
        "{once}"
    );
    env.handover(&repo, &["hook", "install", "--instructions"])
        .assert_ok();
    assert_eq!(
        std::fs::read_to_string(repo.join("CLAUDE.md")).unwrap(),
        once
    );
    env.handover(
        &repo,
        &["hook", "install", "--agent", "codex", "--instructions"],
    )
    .assert_ok();
    assert!(
        std::fs::read_to_string(repo.join("AGENTS.md"))
            .unwrap()
            .starts_with("## Session continuity\n")
    );
    env.handover(&repo, &["hook", "uninstall", "--instructions"])
        .assert_ok();
    assert_eq!(
        std::fs::read_to_string(repo.join("CLAUDE.md")).unwrap(),
        "# Project\n\nBuild with cargo.\n"
    );
}

#[test]
fn session_start_prints_nothing_when_there_is_nothing_to_resume() {
    let env = TestEnv::new();
    let repo = env.repo();
    for input in [
        &b""[..],
        b"not json at all",
        b"{\"cwd\": 42}",
        &event(&repo, "startup"),
    ] {
        let (code, stdout) = run_hook(&env, &repo, "git handover hook session-start", input);
        assert_eq!(
            (code, stdout.as_str()),
            (0, ""),
            "{:?}",
            String::from_utf8_lossy(input)
        );
    }
    let outside = env.root().join("not-a-repo");
    std::fs::create_dir_all(&outside).unwrap();
    let (code, stdout) = run_hook(
        &env,
        &outside,
        "GIT_CEILING_DIRECTORIES=$PWD/.. git handover hook session-start",
        b"",
    );
    assert_eq!((code, stdout.as_str()), (0, ""));
}

#[test]
fn session_start_is_read_only() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.write(
        &repo.join(".claude/project-state.json"),
        &json!({"version": 2, "generated_at": "2026-11-30T11:00:00Z", "status": "READY",
                "active_tasks": [{"id": "L1", "status": "in_progress", "description": "legacy work"}]})
        .to_string(),
    );
    let (code, stdout) = run_hook(
        &env,
        &repo,
        "git handover hook session-start",
        &event(&repo, "startup"),
    );
    assert_eq!(code, 0);
    assert!(
        context(&stdout).contains("[L1] in_progress legacy work"),
        "{stdout}"
    );
    assert!(
        repo.join(".claude/project-state.json").exists(),
        "not migrated"
    );
    assert!(!repo.join(".claude/handover").exists(), "nothing written");

    std::fs::remove_file(repo.join(".claude/project-state.json")).unwrap();
    env.write(
        &repo.join("CONTINUE_HERE.md"),
        "# Continue Here\n\n## Next Steps\n1. **[USER]** decide\n",
    );
    let (_, stdout) = run_hook(
        &env,
        &repo,
        "git handover hook session-start",
        &event(&repo, "resume"),
    );
    assert!(context(&stdout).contains("Needs the user"), "{stdout}");
    assert!(repo.join("CONTINUE_HERE.md").exists(), "not consumed");
}

#[test]
fn a_long_briefing_is_cut_at_a_line_end() {
    let env = TestEnv::new();
    let repo = env.repo();
    ready_session(&env, &repo, 200);
    let (code, stdout) = run_hook(
        &env,
        &repo,
        "git handover hook session-start",
        &event(&repo, "compact"),
    );
    assert_eq!(code, 0);
    let context = context(&stdout);
    assert!(
        context.chars().count() <= 10_000,
        "{}",
        context.chars().count()
    );
    assert!(
        context.chars().count() > 9_000,
        "the budget is used: {}",
        context.chars().count()
    );
    assert!(
        context.ends_with(
            "\n[cut: the briefing is longer; run `git handover continue --keep` to see all of it]\n"
        ),
        "{context}"
    );
    let full = env.handover(&repo, &["continue", "--keep"]).stdout;
    let kept = context.rsplit_once("[cut:").unwrap().0;
    // After the two lines that say where the briefing comes from.
    let body = kept.splitn(3, '\n').nth(2).unwrap();
    assert!(
        full.starts_with(body),
        "the context is the briefing's beginning, cut at a line end"
    );
}

#[test]
fn a_corrupt_state_becomes_a_note_and_exit_zero() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.write(
        &repo.join(".claude/handover/main/20261130-110000/project-state.json"),
        "{\"version\": 3,",
    );
    let (code, stdout) = run_hook(
        &env,
        &repo,
        "git handover hook session-start",
        &event(&repo, "startup"),
    );
    assert_eq!(code, 0);
    insta::assert_snapshot!(context(&stdout), @r"
    git-handover: could not read a handover: invalid json in [ROOT]/repo/.claude/handover/main/20261130-110000/project-state.json at line 1, column 14: EOF while parsing a value
    nothing to resume: no ready session, legacy state or continue-here note in any worktree
    ");
    // A configuration error is a note too, not a failed start.
    env.git(&repo, &["config", "handover.freshFor", "soon"]);
    let (code, stdout) = run_hook(
        &env,
        &repo,
        "git handover hook session-start",
        &event(&repo, "startup"),
    );
    assert_eq!(code, 0);
    assert!(
        context(&stdout)
            .starts_with("git-handover: invalid value \"soon\" for config key handover.freshFor"),
        "{stdout}"
    );
}

#[test]
fn pre_compact_and_session_end_remind_with_the_exact_commands_and_never_fail() {
    let env = TestEnv::new();
    let repo = env.repo();
    for args in [
        &["task", "add", "T1", "work"][..],
        &["task", "start", "T1"][..],
    ] {
        let run = env.handover(&repo, args);
        assert_eq!(run.code, 0, "{}", run.snapshot());
    }
    for hook in ["pre-compact", "session-end"] {
        let (code, stdout) = run_hook(
            &env,
            &repo,
            &format!("git-handover hook {hook} --agent claude"),
            format!(r#"{{"session_id":"new-{hook}","hook_event_name":"PreCompact"}}"#).as_bytes(),
        );
        assert_eq!(code, 0);
        let v: Value = serde_json::from_str(&stdout).unwrap();
        let message = v["systemMessage"].as_str().unwrap();
        assert!(message.contains("[T1]"), "{message}");
        assert!(
            message.contains("git handover task done T1 --session main/20261130-120000"),
            "{message}"
        );
    }
    // Nowhere to look: nothing printed, exit 0.
    let (code, stdout) = run_hook(
        &env,
        env.root(),
        "git-handover hook pre-compact",
        b"garbage",
    );
    assert_eq!((code, stdout.as_str()), (0, ""));
}

/// The markers of agent starts (one per session and source) go after a day, looked for
/// at most once an hour: each look stats every marker, and a day of agents leaves
/// hundreds, which every hook run used to stat.
#[test]
fn start_markers_older_than_a_day_are_swept_at_most_hourly() {
    let env = TestEnv::new();
    let repo = env.repo();
    ready_session(&env, &repo, 1);
    let markers = repo.join(".git/git-handover/hook-starts");
    std::fs::create_dir_all(&markers).unwrap();
    let old = |name: &str| {
        let path = markers.join(name);
        std::fs::write(&path, "").unwrap();
        let two_days_ago =
            std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 86_400);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(two_days_ago)
            .unwrap();
        path
    };
    let first = old("gone-startup");
    let start = |id: &str| {
        let e = json!({"session_id": id, "cwd": repo.display().to_string(),
                       "hook_event_name": "SessionStart", "source": "startup"});
        run_hook(
            &env,
            &repo,
            "git-handover hook session-start",
            e.to_string().as_bytes(),
        )
    };
    let (code, out) = start("s-1");
    assert_eq!(code, 0);
    assert!(context(&out).contains("T1"), "{out}");
    assert!(!first.exists(), "a marker two days old is swept");
    assert!(markers.join("s-1-startup").exists());
    // Within the hour, no second look: an old marker stays until the next sweep.
    let second = old("later-startup");
    let (code, _) = start("s-2");
    assert_eq!(code, 0);
    assert!(second.exists(), "not looked for again within the hour");
    // The sweep's own stamp, an hour old: the next start sweeps.
    std::fs::File::options()
        .write(true)
        .open(markers.join(".swept"))
        .unwrap()
        .set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(3_601))
        .unwrap();
    let (code, _) = start("s-3");
    assert_eq!(code, 0);
    assert!(!second.exists(), "swept an hour later");
    assert!(markers.join("s-1-startup").exists(), "a fresh marker stays");
}
