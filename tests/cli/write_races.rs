//! Writers that race (issue 14, attacks on "nothing an agent saved is ever lost"):
//! clean decides again under the lock, two waiters on one stale lock both land, racing
//! first saves make one session, and a bad session beside does not block a save. Real
//! processes, real races forced by `GIT_HANDOVER_TEST_PAUSE`.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use crate::common::{TestEnv, finish, read_json};
use serde_json::json;

const BIN: &str = env!("CARGO_BIN_EXE_git-handover");

// 2. The decision to delete is made again under the lock.
#[test]
fn clean_never_removes_a_session_reopened_while_it_decided() {
    let env = TestEnv::new();
    let repo = env.repo();
    let team = json!({"active_tasks": [{"id": "T1", "status": "done", "description": "old"}]});
    let input = env.root().join("team.json");
    env.write(&input, &team.to_string());
    let run = env.handover(
        &repo,
        &[
            "save",
            "--team",
            "crew",
            "--agent",
            "dev",
            "--from",
            input.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let state = repo.join(".claude/handover/crew/dev/project-state.json");
    assert_eq!(read_json(&state)["status"], "ALL_COMPLETE");
    // clean chooses the finished team, then waits; meanwhile the agent reopens it.
    let clean = env.spawn_at_pause(&repo, &["clean", "--team", "crew"], "clean:60000");
    let reopen = env.handover(
        &repo,
        &[
            "task", "--team", "crew", "--agent", "dev", "add", "T2", "new work",
        ],
    );
    assert_eq!(reopen.code, 0, "{}", reopen.snapshot());
    let (code, stdout, stderr) = finish(clean);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stderr.contains("it changed since it was chosen"),
        "{stderr}"
    );
    let after = read_json(&state);
    assert_eq!(after["status"], "READY");
    assert_eq!(after["active_tasks"][1]["id"], "T2");
}

/// A lock left by a process that is gone, old enough to be taken over.
fn plant_stale_lock(lock: &Path) {
    let host =
        std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_else(|_| "localhost".into());
    std::fs::write(lock, format!("4194305 {}\n", host.trim())).unwrap();
    let old = std::time::SystemTime::now() - Duration::from_secs(600);
    std::fs::File::options()
        .write(true)
        .open(lock)
        .unwrap()
        .set_modified(old)
        .unwrap();
}

// 3. Two waiters on one stale lock: exactly one takes it over, both updates land.
#[test]
fn two_waiters_on_a_stale_lock_both_land() {
    let env = TestEnv::new();
    let repo = env.repo();
    let key = env.saved(
        &repo,
        &json!({"active_tasks": [{"id": "T0", "status": "in_progress"}]}),
    );
    let dir = repo.join(".claude/handover").join(&key);
    plant_stale_lock(&dir.join("project-state.json.lock"));
    // Each waiter, once it judges the lock stale, holds on for 700 ms before removing
    // it: without the takeover guard the second removes the first one's fresh lock.
    let a = env.spawn_paused(&repo, &["task", "add", "A1", "from a"], "takeover:700");
    let b = env.spawn_paused(&repo, &["task", "add", "B1", "from b"], "takeover:700");
    let (ca, _, ea) = finish(a);
    let (cb, _, eb) = finish(b);
    assert_eq!((ca, cb), (0, 0), "{ea}\n{eb}");
    let ids: Vec<String> = read_json(&dir.join("project-state.json"))["active_tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        ids.contains(&"A1".into()) && ids.contains(&"B1".into()),
        "{ids:?}"
    );
    let said = [&ea, &eb]
        .iter()
        .filter(|e| e.contains("removed the stale lock"))
        .count();
    assert_eq!(said, 1, "exactly one takeover:\n{ea}\n{eb}");
}

// 7. Racing first saves make one session.
#[test]
fn sixteen_racing_first_saves_make_one_session() {
    let env = TestEnv::new();
    let repo = env.repo();
    let mut children = Vec::new();
    for i in 0..16 {
        let input = env.root().join(format!("in-{i}.json"));
        env.write(
            &input,
            &json!({"active_tasks": [{"id": format!("T{i}"), "status": "in_progress"}],
                    "recent_decisions": [{"decision": format!("d{i}")}]})
            .to_string(),
        );
        children.push(
            env.command(BIN)
                .current_dir(&repo)
                .args(["save", "--from", input.to_str().unwrap()])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap(),
        );
    }
    for c in children {
        let (code, _, err) = finish(c);
        assert_eq!(code, 0, "{err}");
    }
    let sessions: Vec<_> = std::fs::read_dir(repo.join(".claude/handover/main"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_type().unwrap().is_dir())
        .collect();
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    let state = read_json(&sessions[0].path().join("project-state.json"));
    assert_eq!(state["recent_decisions"].as_array().unwrap().len(), 16);
}

// 8. One bad session does not stop saving into a readable one beside it; when it is
//    the branch's only session, the save names it (exit 3) and never makes a new
//    session beside it, which would hide it (issue 31, item 28).
#[test]
fn an_invalid_session_beside_does_not_block_save() {
    let env = TestEnv::new();
    let repo = env.repo();
    let bad = repo.join(".claude/handover/main/20261130-110000/project-state.json");
    env.write(&bad, "{ not json");
    let input = json!({"active_tasks": [{"id": "T1", "status": "in_progress"}]});
    let run = env.save(&repo, &input, &[]);
    assert_eq!(run.code, 3, "{}", run.snapshot());
    assert!(
        run.stderr.contains("20261130-110000/project-state.json"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), "{ not json");
    env.write_session(
        &repo,
        "main/20261130-120000",
        &json!({"version": 4, "status": "READY", "workspace": {"branch": "main"},
            "active_tasks": []}),
    );
    let key = env.saved(&repo, &input);
    assert_eq!(key, "main/20261130-120000");
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), "{ not json");
}
