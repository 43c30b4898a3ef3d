//! Issue 34, items 5 and 6, with the real agents: what each agent puts in the
//! environment of the commands its shell tool runs (where a save learns which agent
//! session it is), and the resume command a handover prints, run as printed.
//!
//! The model is the stub: the first request that offers the agent's shell tool is
//! answered with a call of it, anything after the tool's result with text.

use std::path::Path;

use serde_json::{Value, json};

use super::{Agent, Reply, World, need};

/// Server-sent events as the Anthropic and `OpenAI` streams write them.
fn sse(events: &[Value]) -> String {
    let mut out = String::new();
    for e in events {
        out.push_str("event: ");
        out.push_str(e["type"].as_str().unwrap());
        out.push_str("\ndata: ");
        out.push_str(&e.to_string());
        out.push_str("\n\n");
    }
    out
}

/// Codex's model: its first request is answered with one call of its shell tool
/// (whichever it offers: its name and arguments' shape are read from the request).
fn codex_runs(script: String) -> Reply {
    Box::new(move |path, body| {
        if !path.contains("/responses") || body.contains("function_call_output") {
            return None;
        }
        let v: Value = serde_json::from_str(body).ok()?;
        let tools = v["tools"].as_array()?;
        let (name, arguments) = tools.iter().find_map(|t| {
            let name = t["name"].as_str()?;
            let props = &t["parameters"]["properties"];
            if props.get("cmd").is_some() {
                Some((name, json!({"cmd": script, "login": false})))
            } else if props.get("command").is_some() {
                Some((name, json!({"command": ["sh", "-c", script]})))
            } else {
                None
            }
        })?;
        let item = json!({"type": "function_call", "id": "fc_env", "call_id": "call_env", "name": name,
                          "arguments": arguments.to_string()});
        let events = [
            json!({"type": "response.created", "response": {"id": "resp_env"}}),
            json!({"type": "response.output_item.done", "item": item}),
            json!({"type": "response.completed", "response": {"id": "resp_env", "usage": {"input_tokens": 1, "input_tokens_details": null, "output_tokens": 1, "output_tokens_details": null, "total_tokens": 2}}}),
        ];
        Some(("text/event-stream", sse(&events)))
    })
}

/// Gemini CLI's model: the first request that offers `run_shell_command` (and holds no
/// function response yet) is answered with a call of it.
fn gemini_runs(script: String) -> Reply {
    Box::new(move |path, body| {
        if !path.contains("enerateContent") || body.contains("functionResponse") {
            return None;
        }
        if !body.contains("run_shell_command") {
            return None;
        }
        let chunk = json!({"candidates": [{"content": {"parts": [{"functionCall": {"name": "run_shell_command", "args": {"command": script, "description": "env"}}}], "role": "model"}, "finishReason": "STOP", "index": 0}],
                           "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2}});
        if path.contains("stream") {
            return Some(("text/event-stream", format!("data: {chunk}\r\n\r\n")));
        }
        Some(("application/json", chunk.to_string()))
    })
}

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
