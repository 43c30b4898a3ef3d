//! Issue 32, "The day, as a test": three linked worktrees; real Claude Code in A
//! finishes a task, commits and adds the next one (one session, reopened); real Codex
//! in B is briefed on A's session by its `SessionStart` hook and runs every command the
//! briefing prints (each succeeds; `task done` records B's HEAD).
//!
//! The model is the stub: it answers the agent's first request with a call of the
//! agent's own shell tool, and anything after the tool's result with text. What the
//! test relies on of each agent: Claude Code sends the Anthropic Messages API with a
//! `Bash` tool and runs a `tool_use` block of it when `--allowedTools Bash` allows it,
//! then sends the `tool_result` (<https://docs.anthropic.com/en/docs/claude-code/cli-reference>,
//! `--allowedTools`); Codex `exec` sends the Responses API with its shell tool (the
//! stub calls whichever of the tools it offered runs a command: its name and the shape
//! of its arguments are read from the request, so the test follows the version
//! installed; Codex 0.171 offers `exec_command {cmd, login}`, run with `login: false`
//! so that the shell keeps the PATH the agent was given) and runs a `function_call` of
//! it, then sends `function_call_output`. Codex in a linked worktree runs the project
//! hooks of the main worktree's `.codex/hooks.json`, and only when the linked worktree
//! has a `.codex` directory (found by running it: with the file only in B, or only in
//! the main worktree and no `.codex` in B, no hook runs); its project trust follows the
//! main worktree's entry in `config.toml`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::models::{claude_runs, sse};
use super::{Agent, Reply, World, need};
use crate::common::{read_json, sessions_under};

/// The `git handover` commands a briefing prints (backquoted), with `ID` filled as an
/// agent would: `T1` to start and finish, `T2` to block, a new `T9` to add.
fn printed_commands(text: &str) -> Vec<String> {
    // Each backquoted span that starts so (the agent's own prompt has backquotes too).
    text.split("`git handover task ")
        .skip(1)
        .filter_map(|rest| rest.split_once('`'))
        .map(|(c, _)| format!("git handover task {c}"))
        .map(|c| {
            let id = if c.contains(" block ") {
                "T2"
            } else if c.contains(" add ") {
                "T9"
            } else {
                "T1"
            };
            c.replace(" ID ", &format!(" {id} "))
        })
        .collect()
}

/// Codex's model: its first request (no tool output yet) is answered with one call of
/// its shell tool running every command the briefing in the request prints, in
/// order, each logged with its exit status to `log`.
fn codex_runs_the_briefing(log: PathBuf) -> Reply {
    Box::new(move |path, body| {
        if !path.contains("/responses") || body.contains("function_call_output") {
            return None;
        }
        let v: Value = serde_json::from_str(body).ok()?;
        // The briefing as the model reads it: the text of the request's input.
        let text: String = v["input"].to_string().replace("\\\"", "\"");
        let commands = printed_commands(&text);
        if commands.is_empty() {
            return None;
        }
        let mut script = String::new();
        for c in &commands {
            let log = log.display();
            let _ = writeln!(script, "{c} 2>> '{log}.err'; echo \"$? {c}\" >> '{log}'");
        }
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
        let item = json!({"type": "function_call", "id": "fc_day", "call_id": "call_day", "name": name,
                          "arguments": arguments.to_string()});
        let events = [
            json!({"type": "response.created", "response": {"id": "resp_day"}}),
            json!({"type": "response.output_item.done", "item": item}),
            json!({"type": "response.completed", "response": {"id": "resp_day", "usage": {"input_tokens": 1, "input_tokens_details": null, "output_tokens": 1, "output_tokens_details": null, "total_tokens": 2}}}),
        ];
        Some(("text/event-stream", sse(&events)))
    })
}

/// The task `id` of the session in `file`.
fn task(file: &Path, id: &str) -> Value {
    read_json(file)["active_tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .cloned()
        .unwrap_or(Value::Null)
}

/// PATH for the agents: the real git-handover first (what a user installed).
fn path() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_git-handover"))
        .parent()
        .unwrap();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

#[test]
fn the_day_in_three_worktrees_with_claude_and_codex() {
    if !need(Agent::Claude) || !need(Agent::Codex) {
        return;
    }
    let world = World::new();
    let env = &world.env;
    // The day has no session in the main worktree: B is briefed on A's alone.
    std::fs::remove_dir_all(world.repo.join(".claude/handover")).unwrap();
    let a = env.worktree(&world.repo, "day-a", "feature/a");
    let b = env.worktree(&world.repo, "day-b", "feature/b");
    let _c = env.worktree(&world.repo, "day-c", "feature/c");
    env.commit(&b, "b.rs", "b\n", "work in b", "2026-11-30T10:40:00Z");
    // A's session: one task in progress, a decision that must stay with the next task.
    let key = env.saved(
        &a,
        &json!({"decisions": [{"decision": "keep the old API", "rationale": "the CLI uses it"}],
                "active_tasks": [{"id": "T1", "description": "Port the lexer", "status": "in_progress"}]}),
    );
    let file = a
        .join(".claude/handover")
        .join(&key)
        .join("project-state.json");
    for (dir, agent) in [(&a, "claude"), (&b, "codex")] {
        // Run in B: Codex reads project hooks from the main worktree's root, and from
        // B only when B has a `.codex` directory; the install does both (item 2).
        let run = env.handover_with(
            dir,
            &["hook", "install", "--agent", agent, "--scope", "project"],
            |c| {
                c.env("CODEX_HOME", world.home().join(".codex"));
            },
        );
        run.assert_ok();
    }

    // Claude in A: finishes T1 with a commit, then adds T2, as the packaged skill says.
    world.stub.script(claude_runs(
        "git commit -q --allow-empty -m 'finish the lexer' && git handover task done T1 --commit HEAD && git handover task add T2 'Write the guide'".into(),
    ));
    let out = world.run_in(
        &a,
        Agent::Claude,
        &["-p", "finish T1", "--allowedTools", "Bash"],
        &path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let a_head = env.git(&a, &["rev-parse", "HEAD"]);
    assert_eq!(
        env.git(&a, &["log", "-1", "--format=%s"]),
        "finish the lexer"
    );
    assert_eq!(task(&file, "T1")["status"], "done");
    assert_eq!(task(&file, "T1")["commit_sha"], a_head.as_str());
    assert_eq!(
        task(&file, "T2")["status"],
        "pending",
        "T2 joined the session"
    );
    assert_eq!(
        sessions_under(&a.join(".claude/handover")),
        vec![key.clone()],
        "one session: the finished one was reopened"
    );
    assert_eq!(
        read_json(&file)["decisions"][0]["decision"],
        "keep the old API"
    );

    // Codex in B: briefed on A's session, runs every command the briefing prints.
    env.git(&b, &["commit", "-q", "--allow-empty", "-m", "codex in b"]);
    let b_head = env.git(&b, &["rev-parse", "HEAD"]);
    assert!(world.repo.join(".codex/hooks.json").is_file());
    assert!(!b.join(".codex/hooks.json").exists());
    // Only the main worktree is trusted in Codex's config (World::configure): the
    // project trust of a linked worktree follows it.
    let log = env.root().join("codex-commands.log");
    world.stub.script(codex_runs_the_briefing(log.clone()));
    let out = world.run_in(
        &b,
        Agent::Codex,
        &[
            "--dangerously-bypass-approvals-and-sandbox",
            "continue the handover",
        ],
        &path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ran = std::fs::read_to_string(&log).unwrap_or_default();
    let lines: Vec<&str> = ran.lines().collect();
    let requests: Vec<String> = world
        .stub
        .since(0)
        .iter()
        .filter(|(p, _)| p.contains("/responses"))
        .map(|(_, body)| {
            let v: Value = serde_json::from_str(body).unwrap_or_default();
            let tools: Vec<String> = v["tools"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|t| format!("{}{}", t["name"], t["parameters"]["properties"]))
                .collect();
            format!("tools {tools:?}; briefed: {}", body.contains("--session"))
        })
        .collect();
    // The claim command the briefing gives first, then the four record commands.
    assert_eq!(
        lines.len(),
        5,
        "every printed command ran:\n{ran}\nrequests: {requests:#?}"
    );
    for line in &lines {
        assert!(
            line.starts_with("0 "),
            "each succeeded as printed:\n{ran}\n{}",
            std::fs::read_to_string(log.with_extension("log.err")).unwrap_or_default()
        );
        assert!(line.contains(&format!("--session {key}")), "{line}");
    }
    // T1 was done already: the printed `task done T1` records B's HEAD now.
    assert_eq!(task(&file, "T1")["commit_sha"], b_head.as_str());
    assert_eq!(task(&file, "T9")["status"], "pending");
    // First the claim (`task block T2`, run after it, releases the caller's claim).
    assert!(lines[0].contains("task next --claim"), "{ran}");
    assert!(!b.join(".claude/handover").exists(), "nothing written in B");
}
