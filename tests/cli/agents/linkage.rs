//! Issue 34, items 5 and 6, with the real agents: what each agent puts in the
//! environment of the commands its shell tool runs (where a save learns which agent
//! session it is), and the resume command a handover prints, run as printed.
//!
//! The model is the stub: the first request that offers the agent's shell tool is
//! answered with a call of it, anything after the tool's result with text.

use std::path::Path;

use serde_json::{Value, json};

use super::models::{claude_runs, codex_runs, gemini_runs};
use super::{Agent, World, need};

/// The environment the agent's shell tool gave its command, as `NAME=value` lines of
/// the variables that name an agent or a session.
fn agent_env(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let mut lines: Vec<String> = text
        .lines()
        .filter(|l| {
            let name = l.split('=').next().unwrap_or("");
            name.contains("SESSION")
                || name.contains("THREAD")
                || name.starts_with("CODEX")
                || name.starts_with("GEMINI")
                || name.starts_with("CLAUDE")
                || name == "AI_AGENT"
        })
        .map(str::to_owned)
        .collect();
    lines.sort();
    lines
}

/// What Codex and Gemini CLI tell the commands their shell tools run: which variables
/// name the agent session. Seen with Codex 0.171: `CODEX_THREAD_ID` and
/// `CODEX_SESSION_ID`, both the session id `codex resume` takes; Gemini CLI 0.61:
/// `GEMINI_CLI=1` and no session id at all (its session-start hook's event has it).
#[test]
fn each_agent_names_its_session_in_its_shell_tools_environment() {
    if !need(Agent::Codex) || !need(Agent::Gemini) {
        return;
    }
    let world = World::new();
    let file = world.env.root().join("codex-env.txt");
    world
        .stub
        .script(codex_runs(format!("env > '{}'", file.display())));
    let out = world.run_in(
        &world.repo,
        Agent::Codex,
        &["--dangerously-bypass-approvals-and-sandbox", "show env"],
        &std::env::var("PATH").unwrap_or_default(),
    );
    let codex = agent_env(&file);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let var = |lines: &[String], name: &str| {
        lines
            .iter()
            .find_map(|l| l.strip_prefix(&format!("{name}=")).map(str::to_owned))
    };
    let thread = var(&codex, "CODEX_THREAD_ID").unwrap_or_else(|| panic!("{codex:#?}\n{stderr}"));
    assert_eq!(var(&codex, "CODEX_SESSION_ID").as_ref(), Some(&thread));
    assert!(
        stderr.contains(&format!("session id: {thread}")),
        "the id Codex names its session by: {stderr}"
    );
    let gfile = world.env.root().join("gemini-env.txt");
    world
        .stub
        .script(gemini_runs(format!("env > '{}'", gfile.display())));
    let out = world.run_in(
        &world.repo,
        Agent::Gemini,
        &["--yolo", "-p", "show env"],
        &std::env::var("PATH").unwrap_or_default(),
    );
    let gemini = agent_env(&gfile);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        var(&gemini, "GEMINI_CLI").as_deref(),
        Some("1"),
        "{gemini:#?}\n{stderr}"
    );
    assert!(
        !gemini.iter().any(|l| l.contains("SESSION_ID")),
        "Gemini CLI names no session in its shell tool's environment: {gemini:#?}"
    );
}

/// Real Claude Code saves from its Bash tool: the state keeps its session (the id its
/// hook event named, the transcript the hook was given); `status` prints
/// `cd <worktree> && claude --resume ID`, and that line, run as printed (with a prompt
/// after it, as `-p` needs), makes the real Claude Code resume that conversation: the
/// model is sent the first conversation's prompt again.
#[test]
fn claude_saves_its_session_and_the_printed_resume_command_resumes_it() {
    if !need(Agent::Claude) {
        return;
    }
    let world = World::new();
    world.install(Agent::Claude, "project");
    let input = world.env.root().join("input.json");
    std::fs::write(
        &input,
        json!({"active_tasks": [{"id": "T5", "description": "Port the parser", "status": "in_progress"}]})
            .to_string(),
    )
    .unwrap();
    world.stub.script(claude_runs(format!(
        "git handover save --from '{}'",
        input.display()
    )));
    let out = world.run(
        Agent::Claude,
        &["-p", "WOMBAT-3 save the handover", "--allowedTools", "Bash"],
        true,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let start = world
        .events()
        .into_iter()
        .find(|e| e["hook_event_name"] == "SessionStart")
        .expect("the hook ran");
    let id = start["session_id"].as_str().unwrap().to_owned();
    let run = world
        .env
        .command(env!("CARGO_BIN_EXE_git-handover"))
        .current_dir(&world.repo)
        .args(["status", "--json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&run.stdout).unwrap();
    let h = v["worktrees"][0]["handovers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["agent_session"].is_object())
        .unwrap_or_else(|| panic!("a handover names the agent session: {v:#}"))
        .clone();
    assert_eq!(h["agent_session"]["agent"], "claude");
    assert_eq!(h["agent_session"]["session_id"], id.as_str());
    assert_eq!(
        h["agent_session"]["transcript_path"],
        start["transcript_path"]
    );
    let line = h["agent_session"]["resume"].as_str().unwrap().to_owned();
    assert!(line.ends_with(&format!("claude --resume {id}")), "{line}");
    // Run as printed, from elsewhere: the line's own `cd` finds the conversation.
    world.stub.script(Box::new(|_, _| None));
    let before = world.stub.count();
    let bin = super::agent_bin(Agent::Claude).unwrap();
    let out = world
        .env
        .shell(
            world.env.root(),
            &format!("{line} -p 'go on' --model claude-opus-4-5"),
        )
        .env(
            "PATH",
            format!(
                "{}:{}",
                bin.parent().unwrap().display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .env("ANTHROPIC_BASE_URL", world.stub.url())
        .env("ANTHROPIC_API_KEY", "sk-stub")
        .env("DISABLE_TELEMETRY", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{line}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let resumed = world.stub.since(before).iter().any(|(p, body)| {
        p.contains("/v1/messages") && body.contains("WOMBAT-3") && body.contains("go on")
    });
    assert!(resumed, "the resumed conversation reached the model");
}

/// The handover of `world`'s main worktree that names an agent session, as `status
/// --json` prints it (not redacted: its resume line runs).
fn linked_handover(world: &World) -> Value {
    let run = world
        .env
        .command(env!("CARGO_BIN_EXE_git-handover"))
        .current_dir(&world.repo)
        .args(["status", "--json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&run.stdout).unwrap();
    v["worktrees"][0]["handovers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["agent_session"].is_object())
        .unwrap_or_else(|| panic!("a handover names the agent session: {v:#}"))
        .clone()
}

/// A state file for the agent's shell to save.
fn input(world: &World) -> std::path::PathBuf {
    let input = world.env.root().join("input.json");
    std::fs::write(
        &input,
        json!({"active_tasks": [{"id": "T5", "description": "Port the parser", "status": "in_progress"}]})
            .to_string(),
    )
    .unwrap();
    input
}

/// Codex saves from its shell tool (`CODEX_THREAD_ID`); `status` prints `codex resume
/// ID`, which, run as printed, takes the id (and then wants a terminal, which a test has
/// not: Codex's `resume` is its interactive form). The same id given to `codex exec
/// resume` resumes that very conversation with the stub.
#[test]
fn codex_saves_its_session_and_its_resume_command_takes_that_id() {
    if !need(Agent::Codex) {
        return;
    }
    let world = World::new();
    let input = input(&world);
    world.stub.script(codex_runs(format!(
        "git handover save --from '{}'",
        input.display()
    )));
    let out = world.run(
        Agent::Codex,
        &[
            "--dangerously-bypass-approvals-and-sandbox",
            "NUMBAT-4 save it",
        ],
        true,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let h = linked_handover(&world);
    assert_eq!(h["agent_session"]["agent"], "codex");
    let id = h["agent_session"]["session_id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(&format!("session id: {id}")),
        "the id Codex gave its session"
    );
    let line = h["agent_session"]["resume"].as_str().unwrap().to_owned();
    assert!(line.ends_with(&format!("codex resume {id}")), "{line}");
    let bin = super::agent_bin(Agent::Codex).unwrap();
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = world
        .env
        .shell(world.env.root(), &line)
        .env("PATH", &path)
        .env("CODEX_HOME", world.home().join(".codex"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("stdin is not a terminal") && !said.contains("Usage:"),
        "the id is taken: {said}"
    );
    world.stub.script(Box::new(|_, _| None));
    let before = world.stub.count();
    let out = world.run(Agent::Codex, &["resume", &id, "go on"], true);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let resumed = world.stub.since(before).iter().any(|(p, body)| {
        p.contains("/responses") && body.contains("NUMBAT-4") && body.contains("go on")
    });
    assert!(resumed, "the resumed conversation reached the model");
}

/// Gemini CLI names no session in its shell's environment: its session-start hook
/// leaves the id of the session it starts, and a save from that session's shell
/// (`GEMINI_CLI=1`) in that worktree names it. `status` prints `gemini --resume ID`
/// (Gemini CLI 0.61 takes "latest", an index or a full session UUID:
/// `packages/cli/src/utils/sessionUtils.ts`, `resolveSession`), and that line, run
/// as printed with a prompt, resumes that conversation.
#[test]
fn gemini_saves_its_session_and_the_printed_resume_command_resumes_it() {
    if !need(Agent::Gemini) {
        return;
    }
    let world = World::new();
    world.install(Agent::Gemini, "project");
    let input = input(&world);
    world.stub.script(gemini_runs(format!(
        "git handover save --from '{}'",
        input.display()
    )));
    let out = world.run(Agent::Gemini, &["--yolo", "-p", "KOALA-5 save it"], true);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let start = world
        .events()
        .into_iter()
        .find(|e| e["hook_event_name"] == "SessionStart")
        .expect("the hook ran");
    let id = start["session_id"].as_str().unwrap().to_owned();
    let h = linked_handover(&world);
    assert_eq!(h["agent_session"]["agent"], "gemini");
    assert_eq!(h["agent_session"]["session_id"], id.as_str());
    let line = h["agent_session"]["resume"].as_str().unwrap().to_owned();
    assert!(line.ends_with(&format!("gemini --resume {id}")), "{line}");
    world.stub.script(Box::new(|_, _| None));
    let before = world.stub.count();
    let bin = super::agent_bin(Agent::Gemini).unwrap();
    let out = world
        .env
        .shell(
            world.env.root(),
            &format!("{line} -p 'go on' -m gemini-2.5-pro"),
        )
        .env(
            "PATH",
            format!(
                "{}:{}",
                bin.parent().unwrap().display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .env("GEMINI_API_KEY", "stub")
        .env("GOOGLE_GEMINI_BASE_URL", world.stub.url())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{line}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let resumed = world.stub.since(before).iter().any(|(p, body)| {
        // The first conversation's call of its shell tool is in the history sent.
        p.contains("enerateContent")
            && body.contains(&format!("handover save --from '{}'", input.display()))
            && body.contains("go on")
    });
    assert!(
        resumed,
        "the resumed conversation reached the model: {}\n{:#?}",
        String::from_utf8_lossy(&out.stderr),
        world
            .stub
            .since(before)
            .iter()
            .map(|(p, b)| format!("{p} {}", b.len()))
            .collect::<Vec<_>>()
    );
}
