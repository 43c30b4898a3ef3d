//! Issue 34 with the real agents: the hooks `git handover hook install` registers (and
//! nothing added by hand) record what an agent session did — here a commit its shell
//! tool made, the stub model asking for it — with no save by the model, and the stop
//! hook it registers beside them lets the agent stop (`handover.stopGate` is off).
//! Where each agent names the events and gives `transcript_path`: `entry::events`'s doc
//! comment (Claude Code's `hook_event_name:"SessionEnd",reason:…` in `bin/claude.exe`,
//! Codex's embedded hook schemas, Gemini CLI's `createBaseInput` in
//! `bundle/chunk-5FZXKDXH.js`); ENGINEERING-NOTES lists the fields.

use serde_json::Value;

use super::models::{claude_runs, codex_runs, gemini_runs};
use super::{Agent, World, need};
use crate::common::{read_json, sessions_under, state_path};

/// Install with `hook install --agent <agent> --scope project`, run one prompt whose
/// model commits, and return the world and the session-end events the hook was given.
fn run_installed(agent: Agent, subject: &str) -> (World, Vec<Value>) {
    let world = World::new();
    world.install(agent, "project");
    let commit = format!("git commit -q --allow-empty -m '{subject}'");
    let out = match agent {
        Agent::Claude => {
            world.stub.script(claude_runs(commit));
            world.run(
                agent,
                &["-p", "port the lexer", "--allowedTools", "Bash"],
                true,
            )
        }
        Agent::Codex => {
            world.stub.script(codex_runs(commit));
            world.run(
                agent,
                &[
                    "--dangerously-bypass-approvals-and-sandbox",
                    "port the lexer",
                ],
                true,
            )
        }
        Agent::Gemini => {
            world.stub.script(gemini_runs(commit));
            world.run(agent, &["-p", "port the lexer", "--yolo"], true)
        }
    };
    assert!(
        out.status.success(),
        "{agent:?}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        world.env.git(&world.repo, &["log", "-1", "--format=%s"]),
        subject,
        "{agent:?}: the model's commit"
    );
    let ended = world
        .events()
        .into_iter()
        .filter(|e| e["hook_event_name"] == "SessionEnd")
        .collect();
    (world, ended)
}

/// The state records the commit, by the agent session that ended.
fn assert_recorded(world: &World, agent: &str, session: &str) {
    let head = world.env.git(&world.repo, &["rev-parse", "HEAD"]);
    let keys = sessions_under(&world.repo.join(".claude/handover"));
    assert_eq!(keys.len(), 1);
    let state = read_json(&state_path(&world.repo, &keys[0]));
    let change = &state["architecture_changes"][0];
    assert_eq!(change["commit_sha"], head.as_str(), "{agent}: {state:#}");
    assert_eq!(change["recorded_by"]["agent"], agent);
    assert_eq!(change["recorded_by"]["session_id"], session);
    let note = state["session_notes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["recorded_by"]["session_id"] == session)
        .expect("the agent session's note");
    assert!(
        note["content"].as_str().unwrap().contains("1 commit(s)"),
        "{note}"
    );
}

#[test]
fn claude_codes_installed_session_end_hook_records_the_commit_its_session_made() {
    if !need(Agent::Claude) {
        return;
    }
    let (world, ended) = run_installed(Agent::Claude, "port the lexer, part one");
    assert_eq!(ended.len(), 1, "{:?}", world.events());
    assert_recorded(&world, "claude", ended[0]["session_id"].as_str().unwrap());
    // The Stop hook ran too, and with the gate off let Claude stop.
    assert!(
        world
            .events()
            .iter()
            .any(|e| e["hook_event_name"] == "Stop"),
        "{:?}",
        world.events()
    );
    // What the hook said reached the agent's output as its systemMessage.
    assert!(
        world
            .outputs()
            .contains("recorded what this agent session did"),
        "{}",
        world.outputs()
    );
}

#[test]
fn gemini_clis_installed_session_end_hook_records_the_commit_its_session_made() {
    if !need(Agent::Gemini) {
        return;
    }
    let (world, ended) = run_installed(Agent::Gemini, "port the lexer, part two");
    assert_eq!(ended.len(), 1, "{:?}", world.events());
    assert_recorded(&world, "gemini", ended[0]["session_id"].as_str().unwrap());
    assert!(
        world
            .events()
            .iter()
            .any(|e| e["hook_event_name"] == "AfterAgent"),
        "{:?}",
        world.events()
    );
}

#[test]
fn codexs_installed_session_end_hook_records_the_commit_its_session_made() {
    if !need(Agent::Codex) {
        return;
    }
    let (world, ended) = run_installed(Agent::Codex, "port the lexer, part three");
    // `codex exec` runs SessionStart, Stop, then SessionEnd (reason "other").
    assert_eq!(ended.len(), 1, "{:?}", world.events());
    assert_recorded(&world, "codex", ended[0]["session_id"].as_str().unwrap());
    assert!(
        world
            .events()
            .iter()
            .any(|e| e["hook_event_name"] == "Stop"),
        "{:?}",
        world.events()
    );
}
