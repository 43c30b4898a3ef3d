//! The agent hooks as packages run them (issue 32, items 4, 9, 10): a user-scope hook
//! (the Claude Code plugin's, the Gemini CLI extension's) briefs and reminds only in a
//! repository that opted in; one reminder per agent session, worded for its event; no
//! angle brackets in any hook text (Gemini CLI HTML-escapes them: `@google/gemini-cli`
//! 0.61.0, `bundle/chunk-5FZXKDXH.js`, `getAdditionalContext()`:
//! `context2.replace(/</g, "&lt;").replace(/>/g, "&gt;")`).

use std::path::Path;

use crate::common::TestEnv;
use serde_json::{Value, json};

/// Run `git-handover hook …` as an agent does: through a shell, the event on stdin.
fn hook(env: &TestEnv, dir: &Path, args: &str, event: &Value) -> String {
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
            .args([
                "-c",
                &format!("git-handover hook {args} 2>/dev/null || true"),
            ])
            .env("PATH", path)
            .current_dir(dir),
        event.to_string().as_bytes(),
    );
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn start_event(dir: &Path, session: &str) -> Value {
    json!({"session_id": session, "cwd": dir.display().to_string(),
           "hook_event_name": "SessionStart", "source": "startup"})
}

fn event(dir: &Path, session: &str, name: &str) -> Value {
    json!({"session_id": session, "cwd": dir.display().to_string(), "hook_event_name": name})
}

/// A repository with task T1 in progress.
fn repo_with_work(env: &TestEnv) -> std::path::PathBuf {
    let repo = env.repo();
    for args in [&["task", "add", "T1", "work"][..], &["task", "start", "T1"]] {
        let run = env.handover(&repo, args);
        assert_eq!(run.code, 0, "{}", run.snapshot());
    }
    repo
}

#[track_caller]
fn no_angle_brackets(text: &str) {
    assert!(
        !text.contains('<') && !text.contains('>'),
        "hook text with angle brackets: {text}"
    );
}

#[test]
fn a_user_scope_hook_briefs_and_reminds_only_where_the_repository_opted_in() {
    let env = TestEnv::new();
    let repo = repo_with_work(&env);
    for agent in ["claude", "gemini", "codex"] {
        let start = format!("session-start --agent {agent} --scope user");
        assert_eq!(hook(&env, &repo, &start, &start_event(&repo, agent)), "");
        for reminder in ["pre-compact", "session-end"] {
            let args = format!("{reminder} --agent {agent} --scope user");
            let e = event(&repo, agent, "PreCompact");
            assert_eq!(hook(&env, &repo, &args, &e), "", "{args}");
        }
    }
    // The same hooks without `--scope user` (a project's own) say what they have.
    let e = event(&repo, "project", "PreCompact");
    assert!(hook(&env, &repo, "pre-compact --agent claude", &e).contains("[T1]"));
    // Opted in: the user-scope hooks brief and remind.
    env.git(&repo, &["config", "handover.hook", "true"]);
    let out = hook(
        &env,
        &repo,
        "session-start --agent gemini --scope user",
        &start_event(&repo, "later"),
    );
    assert!(out.contains("T1"), "{out}");
    let e = event(&repo, "later", "PreCompress");
    let out = hook(&env, &repo, "pre-compact --agent gemini --scope user", &e);
    assert!(out.contains("[T1]"), "{out}");
}

#[test]
fn one_reminder_per_agent_session_worded_for_its_event() {
    let env = TestEnv::new();
    let repo = repo_with_work(&env);
    let compact = hook(
        &env,
        &repo,
        "pre-compact --agent gemini",
        &event(&repo, "s1", "PreCompress"),
    );
    let v: Value = serde_json::from_str(&compact).unwrap();
    let message = v["systemMessage"].as_str().unwrap();
    assert!(
        message.contains("before the context is compacted"),
        "{message}"
    );
    assert!(
        message.contains("git handover task done T1 --session main/"),
        "a real id, not a placeholder: {message}"
    );
    no_angle_brackets(message);
    // Gemini CLI then runs SessionEnd for the same headless prompt: said already.
    let end = event(&repo, "s1", "SessionEnd");
    assert_eq!(hook(&env, &repo, "session-end --agent gemini", &end), "");
    // Another agent session's end: reminded, in the words of an end.
    let end = hook(
        &env,
        &repo,
        "session-end --agent gemini",
        &event(&repo, "s2", "SessionEnd"),
    );
    let v: Value = serde_json::from_str(&end).unwrap();
    let message = v["systemMessage"].as_str().unwrap();
    assert!(message.contains("this agent session ended"), "{message}");
    assert!(!message.contains("compacted"), "{message}");
    no_angle_brackets(message);
    // Before another compaction the agent is reminded again: the first reminder is
    // compacted away with the rest, and the agent can still act on it.
    let e = event(&repo, "s1", "PreCompress");
    assert!(hook(&env, &repo, "pre-compact --agent gemini", &e).contains("[T1]"));
    // Something new to say in the same agent session (another task in progress): said.
    for args in [&["task", "add", "T2", "more"][..], &["task", "start", "T2"]] {
        let run = env.handover(&repo, args);
        assert_eq!(run.code, 0, "{}", run.snapshot());
    }
    let again = hook(
        &env,
        &repo,
        "session-end --agent gemini",
        &event(&repo, "s1", "SessionEnd"),
    );
    assert!(again.contains("[T2]"), "{again}");
    // In Japanese, too, each event has its words.
    let ja = |session: &str, args: &str| {
        let out = crate::common::fed(
            env.command(env!("CARGO_BIN_EXE_git-handover"))
                .args(["--lang", "ja"])
                .args(args.split(' '))
                .current_dir(&repo),
            event(&repo, session, "x").to_string().as_bytes(),
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert!(ja("j1", "hook pre-compact").contains("圧縮される前に"));
    assert!(ja("j2", "hook session-end").contains("終了しました"));
}

#[test]
fn the_briefing_a_hook_prints_has_no_angle_brackets() {
    let env = TestEnv::new();
    let repo = repo_with_work(&env);
    let out = hook(
        &env,
        &repo,
        "session-start --agent gemini",
        &start_event(&repo, "b1"),
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    let context = v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(context.contains("git handover task start ID"), "{context}");
    no_angle_brackets(context);
}
