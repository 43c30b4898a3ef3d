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
    let out = crate::common::fed(
        &mut env.shell(
            dir,
            &format!("git-handover hook {args} 2>/dev/null || true"),
        ),
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

/// Gemini CLI reads `settings.json` as JSON with comments (`strip-json-comments`, then
/// `JSON.parse`): `hook install` edits such a file where it changes, and `uninstall`
/// gives back the text it found.
#[test]
fn gemini_settings_with_comments_are_edited_keeping_them() {
    let env = TestEnv::new();
    let repo = env.repo();
    let settings = repo.join(".gemini/settings.json");
    let text = r#"{
    // my model: "not": a key
    "model": {"name": "gemini-2.5-pro"}, /* a block
       comment */
    "url": "http://example.com/*not a comment*/", // a URL in a string
    "hooks": {
        "SessionStart": [
            {"hooks": [{"type": "command", "command": "./mine.sh"}]} // mine
        ]
    }
}
"#;
    env.write(&settings, text);
    let run = env.handover(&repo, &["hook", "install", "--agent", "gemini"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let edited = std::fs::read_to_string(&settings).unwrap();
    let (kept, _) = text.split_once("        ]").unwrap();
    let kept = kept.replace("} // mine", "}, // mine");
    assert!(edited.starts_with(&kept), "{edited}");
    let read: Value = serde_json::from_str(&strip(&edited)).unwrap();
    let groups = read["hooks"]["SessionStart"].as_array().unwrap();
    assert_eq!(groups.len(), 2, "{edited}");
    assert_eq!(
        groups[1]["hooks"][0]["command"],
        "git-handover hook session-start --agent gemini 2>/dev/null || true"
    );
    assert_eq!(read["url"], "http://example.com/*not a comment*/");
    // Again: nothing to do, nothing written.
    let run = env.handover(&repo, &["hook", "install", "--agent", "gemini"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), edited);
    let run = env.handover(&repo, &["hook", "uninstall", "--agent", "gemini"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), text);
}

#[test]
fn gemini_settings_gemini_would_not_read_are_left_alone() {
    let env = TestEnv::new();
    let repo = env.repo();
    let settings = repo.join(".gemini/settings.json");
    // A trailing comma: JSON.parse refuses it after the comments go, and so does this.
    for text in [
        "{\n  // c\n  \"model\": \"x\",\n}\n",
        "{\n  \"model\": \"x\" /* never closed\n}\n",
    ] {
        env.write(&settings, text);
        let run = env.handover(&repo, &["hook", "install", "--agent", "gemini"]);
        assert_eq!(run.code, 3, "{}", run.snapshot());
        assert!(run.stderr.contains("is not plain JSON"), "{}", run.stderr);
        assert_eq!(std::fs::read_to_string(&settings).unwrap(), text);
    }
    // Comments only where nothing is yet: the hook goes into the object, the comment stays.
    env.write(&settings, "// nothing yet\n{}\n");
    let run = env.handover(&repo, &["hook", "install", "--agent", "gemini"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let edited = std::fs::read_to_string(&settings).unwrap();
    assert!(
        edited.starts_with("// nothing yet\n{\n  \"hooks\": {"),
        "{edited}"
    );
}

/// Comments blanked as `strip-json-comments` does, for reading a file back here.
fn strip(text: &str) -> String {
    git_handover::api::blank_json_comments(text)
}

/// `hook install --agent copilot`: GitHub Copilot CLI's own hooks file, in the shape
/// its reference documents (`"version": 1`, `sessionStart` / `sessionEnd` lists of
/// `{"type": "command", "bash": …, "timeoutSec": …}`), and the briefing as the
/// top-level `additionalContext` Copilot reads.
#[test]
fn copilot_gets_its_own_hooks_file_and_its_own_output_shape() {
    let env = TestEnv::new();
    let repo = repo_with_work(&env);
    let run = env.handover(&repo, &["hook", "install", "--agent", "copilot"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let file = repo.join(".github/hooks/git-handover.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(v["version"], 1);
    let start = &v["hooks"]["sessionStart"][0];
    assert_eq!(start["type"], "command");
    assert_eq!(start["timeoutSec"], 10);
    let bash = start["bash"].as_str().unwrap();
    assert_eq!(
        bash,
        "git-handover hook session-start --agent copilot 2>/dev/null || true"
    );
    assert!(
        v["hooks"]["sessionEnd"][0]["bash"]
            .as_str()
            .unwrap()
            .contains("hook session-end")
    );
    // Run as Copilot runs it, with its event (sessionId, timestamp in ms, source "new").
    let event = json!({"sessionId": "c1", "timestamp": 1_764_000_000_000_u64,
                       "cwd": repo.display().to_string(), "source": "new", "initialPrompt": "hi"});
    let out = hook(
        &env,
        &repo,
        bash.trim_start_matches("git-handover hook ")
            .trim_end_matches(" 2>/dev/null || true"),
        &event,
    );
    let out: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(out.as_object().unwrap().len(), 1, "{out}");
    assert!(
        out["additionalContext"].as_str().unwrap().contains("T1"),
        "{out}"
    );
    // Again: unchanged. Uninstalled, the file (this tool's own) goes.
    let run = env.handover(&repo, &["hook", "install", "--agent", "copilot"]);
    assert!(!run.stdout.contains("added"), "{}", run.snapshot());
    let run = env.handover(&repo, &["hook", "uninstall", "--agent", "copilot"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(!file.exists());
}

#[test]
fn copilot_user_scope_honours_copilot_home_and_the_opt_in() {
    let env = TestEnv::new();
    let repo = repo_with_work(&env);
    let home = env.root().join("copilot-home");
    let run = env.handover_with(
        &repo,
        &["hook", "install", "--agent", "copilot", "--scope", "user"],
        |c| {
            c.env("COPILOT_HOME", &home);
        },
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let v: Value = serde_json::from_str(
        &std::fs::read_to_string(home.join("hooks/git-handover.json")).unwrap(),
    )
    .unwrap();
    let bash = v["hooks"]["sessionStart"][0]["bash"].as_str().unwrap();
    assert!(bash.contains("--agent copilot --scope user"), "{bash}");
    let event = json!({"sessionId": "u1", "cwd": repo.display().to_string(), "source": "new"});
    let args = "session-start --agent copilot --scope user";
    assert_eq!(hook(&env, &repo, args, &event), "", "not opted in");
    // A project-scope Copilot hook is the repository's opt-in.
    let run = env.handover(&repo, &["hook", "install", "--agent", "copilot"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let event = json!({"sessionId": "u2", "cwd": repo.display().to_string(), "source": "new"});
    assert!(hook(&env, &repo, args, &event).contains("additionalContext"));
}
