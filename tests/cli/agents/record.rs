//! Issue 34 with the real Claude Code: its own `SessionStart` and `SessionEnd` hooks
//! (project settings, as the packaged plugin registers them) record what its session
//! did — here a commit its `Bash` tool made, the stub model asking for it — with no
//! save by the model. `claude -p` runs `SessionEnd` when the prompt is done
//! (ENGINEERING-NOTES: every hook event has `session_id`, `transcript_path`, `cwd`).

use serde_json::{Value, json};

use super::{Agent, World, need};
use crate::common::{read_json, sessions_under, state_path};

#[test]
fn claude_codes_own_session_end_hook_records_the_commit_its_session_made() {
    if !need(Agent::Claude) {
        return;
    }
    let world = World::new();
    world.install(Agent::Claude, "project");
    let settings = world.repo.join(".claude/settings.json");
    let mut v: Value = read_json(&settings);
    for (event, verb) in [("PreCompact", "pre-compact"), ("SessionEnd", "session-end")] {
        v["hooks"][event] = json!([{"hooks": [{"type": "command",
            "command": format!("git-handover hook {verb} --agent claude 2>/dev/null || true"),
            "timeout": 10}]}]);
    }
    std::fs::write(&settings, v.to_string()).unwrap();
    world.stub.script(super::models::claude_runs(
        "git commit -q --allow-empty -m 'port the lexer, part one'".into(),
    ));
    let out = world.run(
        Agent::Claude,
        &["-p", "port the lexer", "--allowedTools", "Bash"],
        true,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let env = &world.env;
    let head = env.git(&world.repo, &["rev-parse", "HEAD"]);
    assert_eq!(
        env.git(&world.repo, &["log", "-1", "--format=%s"]),
        "port the lexer, part one"
    );
    let ended: Vec<Value> = world
        .events()
        .into_iter()
        .filter(|e| e["hook_event_name"] == "SessionEnd")
        .collect();
    assert_eq!(ended.len(), 1, "{:?}", world.events());
    let session = ended[0]["session_id"].as_str().unwrap();
    let keys = sessions_under(&world.repo.join(".claude/handover"));
    assert_eq!(keys.len(), 1);
    let state = read_json(&state_path(&world.repo, &keys[0]));
    let change = &state["architecture_changes"][0];
    assert_eq!(change["commit_sha"], head.as_str(), "{state:#}");
    assert_eq!(change["summary"], "port the lexer, part one");
    assert_eq!(change["recorded_by"]["agent"], "claude");
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
    // What the hook said reached the agent's output as its systemMessage.
    assert!(
        world
            .outputs()
            .contains("recorded what this agent session did"),
        "{}",
        world.outputs()
    );
}
