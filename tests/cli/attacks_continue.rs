//! The second round of attacks (issue 31) on the continue room: each test tries to break one
//! promise and failed before its fix. docs/SECURITY.md lists them.

use crate::common::{TestEnv, read_json, state_path};
use serde_json::{Value, json};

fn legacy_state(id: Option<&str>) -> Value {
    let mut state = json!({"version": 2, "generated_at": "2026-11-28T09:00:00Z", "status": "READY",
                           "active_tasks": [{"id": "T1", "status": "in_progress", "description": "old work"}]});
    if let Some(id) = id {
        state["session_id"] = json!(id);
    }
    state
}

// 9. Migrating a legacy state keeps the session id the original procedure gave it.
#[test]
fn migrating_a_legacy_state_keeps_its_own_session_id() {
    let env = TestEnv::new();
    let repo = env.repo();
    let legacy = legacy_state(Some("test-session"));
    env.write(
        &repo.join(".claude/project-state.json"),
        &legacy.to_string(),
    );
    let run = env.handover(&repo, &["migrate"]);
    run.assert_ok();
    let state = read_json(&state_path(&repo, "main/20261130-120000"));
    assert_eq!(state["session_id"], "test-session", "{state}");
    // One without an id gets a new one.
    let other = env.init("other");
    env.commit(&other, "a.txt", "a\n", "first", "2026-11-30T10:00:00Z");
    env.write(
        &other.join(".claude/project-state.json"),
        &legacy_state(None).to_string(),
    );
    env.handover(&other, &["migrate"]).assert_ok();
    let state = read_json(&state_path(&other, "main/20261130-120000"));
    assert!(
        state["session_id"].as_str().is_some_and(|s| s.len() > 8),
        "{state}"
    );
}

// 38. A legacy state reached through a linked `.claude` outside the worktree is not
// migrated and not removed.
#[cfg(unix)]
#[test]
fn migrate_refuses_a_legacy_state_behind_a_linked_claude_dir() {
    let env = TestEnv::new();
    let repo = env.repo();
    let outside = env.root().join("outside");
    let legacy = legacy_state(Some("elsewhere")).to_string();
    env.write(&outside.join("project-state.json"), &legacy);
    env.write(&outside.join("handover.md"), "their view\n");
    std::os::unix::fs::symlink(&outside, repo.join(".claude")).unwrap();
    let run = env.handover(&repo, &["migrate"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(
        run.stderr
            .contains("refusing [ROOT]/repo/.claude/project-state.json"),
        "{}",
        run.snapshot()
    );
    assert_eq!(
        std::fs::read_to_string(outside.join("project-state.json")).unwrap(),
        legacy
    );
    assert!(outside.join("handover.md").is_file());
    assert!(
        !outside.join("handover").exists(),
        "nothing written through the link"
    );
}
