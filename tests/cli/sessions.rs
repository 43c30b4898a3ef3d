//! Sessions stay one (issue 17, items 13–15): writes go to the session the agent was
//! briefed on, wherever its root and whatever its directory's name, and a choice
//! between several ready sessions is said.

use std::path::Path;

use crate::common::TestEnv;
use serde_json::{Value, json};

fn ready(env: &TestEnv, dir: &Path, generated: &str, task: &str) {
    env.write(
        &dir.join("project-state.json"),
        &json!({"version": 4, "status": "READY", "generated_at": generated,
                "workspace": {"branch": "main"},
                "active_tasks": [{"id": task, "status": "in_progress"}]})
        .to_string(),
    );
}

fn ids(file: &Path) -> Vec<String> {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    v["active_tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_session_under_agents_handover_is_written_where_it_is() {
    let env = TestEnv::new();
    let repo = env.repo();
    let dir = repo.join(".agents/handover/main/20261130-110000");
    ready(&env, &dir, "2026-11-30T11:00:00Z", "A1");
    let run = env.handover(&repo, &["task", "add", "A2", "more"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let run = env.handover(&repo, &["task", "done", "A1"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let input = env.root().join("in.json");
    env.write(
        &input,
        &json!({"recent_decisions": [{"decision": "d"}]}).to_string(),
    );
    let run = env.handover(&repo, &["save", "--from", input.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(ids(&dir.join("project-state.json")), ["A1", "A2"]);
    assert!(
        !repo.join(".claude/handover/main").exists(),
        "no second session"
    );
    let cont = env.handover(&repo, &["continue", "--json"]);
    assert_eq!(
        cont.code,
        0,
        "one candidate, no choice: {}",
        cont.snapshot()
    );
}

#[test]
fn any_directory_holding_a_valid_state_is_a_session() {
    let env = TestEnv::new();
    let repo = env.repo();
    let dir = repo.join(".claude/handover/main/session-001");
    ready(&env, &dir, "2026-11-30T11:00:00Z", "S1");
    let run = env.handover(&repo, &["task", "start", "S1"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.contains("main/session-001"), "{}", run.stdout);
}

#[test]
fn with_two_ready_sessions_the_newest_is_used_and_the_choice_is_said() {
    let env = TestEnv::new();
    let repo = env.repo();
    let old = repo.join(".claude/handover/main/zz-old");
    let new = repo.join(".claude/handover/main/aa-new");
    ready(&env, &old, "2026-11-29T11:00:00Z", "O1");
    ready(&env, &new, "2026-11-30T11:00:00Z", "N1");
    let run = env.handover(&repo, &["task", "add", "N2", "next"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(ids(&new.join("project-state.json")), ["N1", "N2"]);
    assert!(
        run.stderr.contains(
            "wrote to main/aa-new, the newest of this branch's ready sessions; the others are main/zz-old"
        ),
        "{}",
        run.stderr
    );
    let run = env.handover(
        &repo,
        &["task", "--session", "main/zz-old", "add", "O2", "x"],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(ids(&old.join("project-state.json")), ["O1", "O2"]);
}
