//! Issue 32, item 3: finishing the last task and then adding one (`task add` or `save`)
//! reopens the branch's session finished within `handover.freshFor` (SPEC section 5,
//! `save`), so its decisions and known issues stay in one handover; a new session
//! starts only when the finished one is older, and the output says which happened.

use crate::common::{TestEnv, read_json, sessions_under, state_path};
use serde_json::{Value, json};

/// A finished session of `main` in `repo`, last written at `at`.
fn finished(env: &TestEnv, repo: &std::path::Path, key: &str, at: &str) {
    env.write_session(
        repo,
        key,
        &json!({"version": 4, "generated_at": at, "status": "ALL_COMPLETE",
            "workspace": {"branch": "main"},
            "decisions": [{"decision": "use gix", "rationale": "no libgit2"}],
            "active_tasks": [{"id": "A1", "status": "done", "description": "Parse"}]}),
    );
}

#[test]
fn task_add_after_the_last_task_reopens_the_fresh_finished_session() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.saved(
        &repo,
        &json!({"decisions": [{"decision": "use gix", "rationale": "no libgit2"}],
                "active_tasks": [{"id": "A1", "description": "Parse", "status": "in_progress"}]}),
    );
    let done = env.json(&repo, &["--json", "task", "done", "A1"]);
    assert_eq!(done["session_status"], "ALL_COMPLETE");
    let key = done["key"].as_str().unwrap().to_owned();
    let add = env.handover(&repo, &["task", "add", "A2", "Lex"]);
    add.assert_ok();
    assert!(
        add.stdout.contains(&format!("in {key} (READY)")),
        "{}",
        add.stdout
    );
    assert!(
        add.stderr
            .contains(&format!("{key} was finished and is reopened")),
        "the output says the session was reopened: {}",
        add.stderr
    );
    assert_eq!(
        sessions_under(&repo.join(".claude/handover")).len(),
        1,
        "one session, not two"
    );
    let state = read_json(&state_path(&repo, &key));
    assert_eq!(
        state["decisions"][0]["decision"], "use gix",
        "its decisions stay"
    );
    assert_eq!(state["status"], "READY");
    // The next add writes to the READY session: nothing is reopened any more.
    let again = env.json(&repo, &["--json", "task", "add", "A3", "More"]);
    assert_eq!(again["reopened"], false);
    assert_eq!(again["key"], key.as_str());
}

#[test]
fn save_reopens_the_fresh_finished_session_and_says_so_in_json() {
    let env = TestEnv::new();
    let repo = env.repo();
    finished(&env, &repo, "main/20261130-110000", "2026-11-30T11:00:00Z");
    let run = env.save(
        &repo,
        &json!({"active_tasks": [{"id": "A2", "description": "Lex", "status": "pending"}]}),
        &["--json"],
    );
    run.assert_ok();
    let v: Value = run.json();
    assert_eq!(v["key"], "main/20261130-110000");
    assert_eq!(v["reopened"], true);
    assert_eq!(v["created"], false);
    assert_eq!(v["status"], "READY");
    assert_eq!(v["passed_over"], Value::Null);
    assert_eq!(
        sessions_under(&repo.join(".claude/handover")),
        vec!["main/20261130-110000".to_owned()]
    );
}

#[test]
fn a_session_finished_longer_ago_than_fresh_for_is_not_reopened() {
    let env = TestEnv::new();
    let repo = env.repo();
    // 25 hours before the pinned clock (2026-11-30T12:00:00Z); freshFor is 24h.
    finished(&env, &repo, "main/20261129-110000", "2026-11-29T11:00:00Z");
    let v = env.json(&repo, &["--json", "task", "add", "A2", "Lex"]);
    assert_eq!(v["reopened"], false);
    assert_eq!(v["created"], true);
    assert_eq!(v["passed_over"], "main/20261129-110000");
    assert_ne!(v["key"], "main/20261129-110000");
    let human = env.handover(&repo, &["task", "add", "A3", "More"]);
    human.assert_ok();
    assert!(!human.stderr.contains("reopened"), "{}", human.stderr);
    // The old one is untouched, still finished.
    let old = read_json(&state_path(&repo, "main/20261129-110000"));
    assert_eq!(old["status"], "ALL_COMPLETE");
    assert_eq!(old["active_tasks"].as_array().unwrap().len(), 1);
    // With freshFor raised, the same session would have been reopened: the setting is
    // what decides.
    let env2 = TestEnv::new();
    let repo2 = env2.repo();
    finished(
        &env2,
        &repo2,
        "main/20261129-110000",
        "2026-11-29T11:00:00Z",
    );
    env2.git(&repo2, &["config", "handover.freshFor", "48h"]);
    let v = env2.json(&repo2, &["--json", "task", "add", "A2", "Lex"]);
    assert_eq!(v["reopened"], true);
    assert_eq!(v["key"], "main/20261129-110000");
    // The human output of a new session names the one it passed over.
    let env3 = TestEnv::new();
    let repo3 = env3.repo();
    finished(
        &env3,
        &repo3,
        "main/20261129-110000",
        "2026-11-29T11:00:00Z",
    );
    let run = env3.handover(&repo3, &["task", "add", "A2", "Lex"]);
    run.assert_ok();
    assert!(
        run.stderr
            .contains("main/20261129-110000 was finished longer ago than handover.freshFor"),
        "{}",
        run.stderr
    );
}

#[test]
fn of_two_finished_sessions_the_newest_is_reopened() {
    let env = TestEnv::new();
    let repo = env.repo();
    // The name sorts last but the state was written first: the write time decides.
    finished(&env, &repo, "main/20261130-090000", "2026-11-30T11:30:00Z");
    finished(&env, &repo, "main/20261130-100000", "2026-11-30T10:00:00Z");
    let v = env.json(&repo, &["--json", "task", "add", "A2", "Lex"]);
    assert_eq!(v["reopened"], true);
    assert_eq!(v["key"], "main/20261130-090000");
    let other = read_json(&state_path(&repo, "main/20261130-100000"));
    assert_eq!(
        other["status"], "ALL_COMPLETE",
        "the other one is left as it was"
    );
}

#[test]
fn a_finished_team_session_is_reopened_and_says_so() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.write_session(
        &repo,
        "alpha/reviewer",
        &json!({"version": 4, "generated_at": "2026-11-30T11:00:00Z", "status": "ALL_COMPLETE",
            "active_tasks": [{"id": "R1", "status": "done", "description": "Review"}]}),
    );
    let team = ["--team", "alpha", "--agent", "reviewer"];
    let mut args = vec!["--json", "task"];
    args.extend(team);
    args.extend(["add", "R2", "Review again"]);
    let v = env.json(&repo, &args);
    assert_eq!(v["key"], "alpha/reviewer");
    assert_eq!(v["reopened"], true);
    assert_eq!(v["session_status"], "READY");
    // Written into again while READY: not a reopening.
    let mut args = vec!["--json", "task"];
    args.extend(team);
    args.extend(["start", "R2"]);
    assert_eq!(env.json(&repo, &args)["reopened"], false);
}

#[test]
fn an_unreadable_session_stops_the_add_rather_than_reopening_beside_it() {
    let env = TestEnv::new();
    let repo = env.repo();
    finished(&env, &repo, "main/20261130-100000", "2026-11-30T10:00:00Z");
    // A newer session that cannot be read may be the READY one meant.
    let bad = state_path(&repo, "main/20261130-113000");
    env.write(&bad, "{ not json");
    let run = env.handover(&repo, &["task", "add", "A2", "Lex"]);
    assert_ne!(run.code, 0, "{}", run.snapshot());
    assert!(run.stderr.contains("20261130-113000"), "{}", run.stderr);
    let old = read_json(&state_path(&repo, "main/20261130-100000"));
    assert_eq!(old["status"], "ALL_COMPLETE", "nothing reopened");
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), "{ not json");
    assert_eq!(
        sessions_under(&repo.join(".claude/handover")).len(),
        2,
        "no new session beside them"
    );
}
