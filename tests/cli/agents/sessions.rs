//! Each agent runs the hook `hook install` wrote, for every source it starts, and sends
//! the briefing; user-scope hooks, a missing `git-handover`, a narrower existing hook and
//! Codex's budget.

use std::io::Write as _;
use std::process::Stdio;
use std::time::Duration;

use super::{Agent, MARKER, World, agent_bin, need, wait_with_timeout};
use serde_json::{Value, json};

#[test]
fn claude_code_runs_the_hook_for_every_source_and_sends_the_briefing() {
    if !need(Agent::Claude) {
        return;
    }
    let w = World::new();
    w.install(Agent::Claude, "project");
    for (args, source) in [
        (&["-p", "hello"][..], "startup"),
        (&["-p", "again", "--continue"][..], "resume"),
        (&["-p", "/compact", "--continue"][..], "compact"),
        (&["-p", "/clear", "--continue"][..], "clear"),
        (
            &["-p", "forked", "--continue", "--fork-session"][..],
            "fork",
        ),
    ] {
        let printed = w.outputs().len();
        let (sources, briefed) = w.start(Agent::Claude, args);
        assert!(
            sources.iter().any(|s| s == source),
            "{source}: the hook ran for {sources:?}"
        );
        if source == "clear" {
            // `/clear` alone asks the model nothing: the context waits for the next
            // turn. The hook ran for it and printed the briefing.
            assert!(w.outputs()[printed..].contains(MARKER), "clear: briefed");
        } else {
            assert!(briefed, "{source}: the briefing reached the model");
        }
    }
}

#[test]
fn codex_runs_the_hook_once_trusted_and_sends_the_briefing() {
    if !need(Agent::Codex) {
        return;
    }
    let w = World::new();
    w.install(Agent::Codex, "project");
    // Not trusted yet: Codex skips the new hook (what `hook install` warns about).
    let before = w.stub.count();
    let bin = agent_bin(Agent::Codex).unwrap();
    let out = w
        .env
        .command(&bin)
        .current_dir(&w.repo)
        .env(
            "PATH",
            format!("{}:{}", w.bin.display(), std::env::var("PATH").unwrap()),
        )
        .env("CODEX_HOME", w.home().join(".codex"))
        .env("STUB_KEY", "stub")
        .arg("exec")
        .args(["--skip-git-repo-check", "hello"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(w.events().is_empty(), "an untrusted hook does not run");
    assert!(
        !w.stub.since(before).iter().any(|(_, b)| b.contains(MARKER)),
        "no briefing before the hook is trusted"
    );
    for (args, source) in [
        (&["hello"][..], "startup"),
        (&["resume", "--last", "again"][..], "resume"),
    ] {
        let (sources, briefed) = w.start(Agent::Codex, args);
        assert_eq!(sources, [source], "{args:?}");
        assert!(briefed, "{source}: the briefing reached the model");
    }
}

#[test]
fn gemini_cli_runs_the_hook_and_sends_the_briefing() {
    if !need(Agent::Gemini) {
        return;
    }
    let w = World::new();
    // A settings file with comments (Gemini reads JSON with comments): the hook is
    // inserted, the comments kept.
    let settings = w.repo.join(".gemini/settings.json");
    let commented = "{\n  // the project's own settings\n  \"general\": {\"vimMode\": false}\n}\n";
    w.env.write(&settings, commented);
    w.install(Agent::Gemini, "project");
    let edited = std::fs::read_to_string(&settings).unwrap();
    assert!(
        edited.starts_with(
            "{\n  // the project's own settings\n  \"general\": {\"vimMode\": false},\n"
        ),
        "{edited}"
    );
    for (args, source) in [
        (&["-p", "hello"][..], "startup"),
        (&["-p", "again", "--resume", "latest"][..], "resume"),
    ] {
        let (sources, briefed) = w.start(Agent::Gemini, args);
        assert_eq!(sources, [source], "{args:?}: matched as an exact string");
        assert!(briefed, "{source}: the briefing reached the model");
    }
}

#[test]
fn the_clear_source_of_codex_and_gemini_is_briefed_as_documented() {
    // Replay: only their terminal UIs start a `clear` session. The installed command
    // line, run through sh with the documented event, briefs.
    for agent in [Agent::Codex, Agent::Gemini] {
        let w = World::new();
        w.install(agent, "project");
        let file = match agent {
            Agent::Codex => ".codex/hooks.json",
            _ => ".gemini/settings.json",
        };
        let settings: Value =
            serde_json::from_str(&std::fs::read_to_string(w.repo.join(file)).unwrap()).unwrap();
        let group = &settings["hooks"]["SessionStart"][0];
        // Codex compares the matcher as a regex, Gemini as an exact string (or none).
        match agent {
            Agent::Codex => {
                assert!(
                    group["matcher"]
                        .as_str()
                        .unwrap()
                        .split('|')
                        .any(|m| m == "clear")
                );
            }
            _ => assert!(group.get("matcher").is_none(), "{group}"),
        }
        let command = group["hooks"][0]["command"].as_str().unwrap();
        let event = json!({"session_id": "s", "cwd": w.repo.display().to_string(),
                           "hook_event_name": "SessionStart", "source": "clear"});
        let mut child = w
            .env
            .command("sh")
            .args(["-c", command])
            .current_dir(&w.repo)
            .env(
                "PATH",
                format!("{}:{}", w.bin.display(), std::env::var("PATH").unwrap()),
            )
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(event.to_string().as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        assert!(
            String::from_utf8_lossy(&out.stdout).contains(MARKER),
            "{agent:?}"
        );
    }
}

#[test]
fn user_scope_hooks_follow_the_agents_variables_and_brief_only_where_opted_in() {
    for agent in [Agent::Claude, Agent::Codex, Agent::Gemini] {
        if !need(agent) {
            continue;
        }
        let w = World::new();
        // The agent's user directory moved by its variable; `hook install --scope user`
        // writes there, and the agent, started with the same variable, runs the hook.
        let moved = w.env.root().join("moved");
        let (var, settings_home) = match agent {
            Agent::Claude => ("CLAUDE_CONFIG_DIR", moved.clone()),
            Agent::Codex => ("CODEX_HOME", moved.clone()),
            Agent::Gemini => ("GEMINI_CLI_HOME", moved.clone()),
        };
        std::fs::create_dir_all(&moved).unwrap();
        if agent == Agent::Codex {
            std::fs::copy(
                w.home().join(".codex/config.toml"),
                moved.join("config.toml"),
            )
            .unwrap();
        }
        if agent == Agent::Gemini {
            std::fs::create_dir_all(moved.join(".gemini")).unwrap();
            std::fs::copy(
                w.home().join(".gemini/settings.json"),
                moved.join(".gemini/settings.json"),
            )
            .unwrap();
        }
        let run = w.env.handover_with(
            &w.repo,
            &[
                "hook",
                "install",
                "--agent",
                agent.name(),
                "--scope",
                "user",
            ],
            |c| {
                c.env(var, &settings_home);
            },
        );
        assert_eq!(run.code, 0, "{}", run.snapshot());
        let bin = agent_bin(agent).unwrap();
        let go = |opted: bool| -> (usize, bool) {
            if opted {
                w.env.git(&w.repo, &["config", "handover.hook", "true"]);
            }
            let before_events = w.events().len();
            let before = w.stub.count();
            let mut cmd = w.env.command(&bin);
            cmd.current_dir(&w.repo)
                .env(
                    "PATH",
                    format!("{}:{}", w.bin.display(), std::env::var("PATH").unwrap()),
                )
                .env(var, &settings_home)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            match agent {
                Agent::Claude => {
                    cmd.env("ANTHROPIC_BASE_URL", w.stub.url())
                        .env("ANTHROPIC_API_KEY", "sk-stub")
                        .env("DISABLE_TELEMETRY", "1")
                        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
                        .args(["-p", "hello", "--model", "claude-opus-4-5"]);
                }
                Agent::Codex => {
                    cmd.env("STUB_KEY", "stub").args([
                        "exec",
                        "--dangerously-bypass-hook-trust",
                        "--skip-git-repo-check",
                        "hello",
                    ]);
                }
                Agent::Gemini => {
                    cmd.env("GEMINI_API_KEY", "stub")
                        .env("GOOGLE_GEMINI_BASE_URL", w.stub.url())
                        .args(["-m", "gemini-2.5-pro", "-p", "hello"]);
                }
            }
            let out = wait_with_timeout(cmd.spawn().unwrap(), Duration::from_secs(120));
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            // The start's hook (install also registers the record's events, which run
            // at the end of the prompt).
            let ran = w.events()[before_events..]
                .iter()
                .filter(|e| e["hook_event_name"] == "SessionStart")
                .count();
            let briefed = w.stub.since(before).iter().any(|(_, b)| b.contains(MARKER));
            (ran, briefed)
        };
        let (ran, briefed) = go(false);
        assert_eq!(ran, 1, "{agent:?}: the user-scope hook ran");
        assert!(!briefed, "{agent:?}: not opted in, nothing injected");
        let (ran, briefed) = go(true);
        assert_eq!(ran, 1, "{agent:?}");
        assert!(briefed, "{agent:?}: opted in (handover.hook=true), briefed");
    }
}

#[test]
fn without_git_handover_on_path_every_agent_starts_cleanly() {
    for agent in [Agent::Claude, Agent::Codex, Agent::Gemini] {
        if !need(agent) {
            continue;
        }
        let w = World::new();
        w.install(agent, "project");
        let args: &[&str] = match agent {
            Agent::Claude | Agent::Gemini => &["-p", "hello"],
            Agent::Codex => &["hello"],
        };
        let before = w.stub.count();
        let out = w.run(agent, args, false);
        assert!(
            out.status.success(),
            "{agent:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stderr = String::from_utf8_lossy(&out.stderr).to_lowercase();
        assert!(
            !stderr.contains("hook") || !stderr.contains("fail"),
            "{agent:?}: {stderr}"
        );
        assert!(w.stub.count() > before, "{agent:?} went on to the model");
    }
}

#[test]
fn an_existing_narrower_hook_is_widened_not_duplicated_and_runs_once() {
    if !need(Agent::Claude) {
        return;
    }
    let w = World::new();
    // A hook the user wrote by hand for startup only, by absolute path.
    let settings = w.repo.join(".claude/settings.json");
    let absolute = w.bin.join("git-handover");
    w.env.write(
        &settings,
        &json!({"hooks": {"SessionStart": [{"matcher": "startup", "hooks": [
            {"type": "command", "command": format!("{} hook session-start --agent claude", absolute.display())}]}]}})
        .to_string(),
    );
    w.install(Agent::Claude, "project");
    for (args, source) in [
        (&["-p", "hello"][..], "startup"),
        (&["-p", "again", "--continue"][..], "resume"),
    ] {
        let (sources, briefed) = w.start(Agent::Claude, args);
        assert_eq!(sources, [source], "one run per start, {source} covered");
        assert!(briefed);
    }
}

#[test]
fn a_briefing_over_codex_budget_is_sent_inline_cut_by_priority() {
    if !need(Agent::Codex) {
        return;
    }
    let w = World::new();
    // 150 more tasks: far over 2,500 tokens.
    for i in 0..150 {
        let run = w.env.handover(
            &w.repo,
            &[
                "task",
                "add",
                &format!("P{i}"),
                &format!(
                    "pending work item {i} with a description of some length to fill the context"
                ),
            ],
        );
        assert_eq!(run.code, 0);
    }
    w.install(Agent::Codex, "project");
    let before = w.stub.count();
    let (_, briefed) = w.start(Agent::Codex, &["hello"]);
    assert!(briefed);
    let body = w
        .stub
        .since(before)
        .into_iter()
        .map(|(_, b)| b)
        .find(|b| b.contains(MARKER))
        .unwrap();
    assert!(
        body.contains("cut to fit the agent's context"),
        "cut by priority"
    );
    assert!(
        body.contains("Record progress on this session"),
        "what must stay stayed"
    );
    assert!(
        !body.contains("hook output was saved to") && !body.contains("saved to file"),
        "inline, not spilled to a file"
    );
}
