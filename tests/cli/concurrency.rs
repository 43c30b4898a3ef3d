//! Concurrent and killed writers: no update is lost, and a killed writer never leaves
//! a state file that does not parse.

use std::path::Path;
use std::process::{Child, Stdio};

use crate::common::{Lcg, TestEnv};
use serde_json::{Value, json};

#[track_caller]
fn state(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    let parsed: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("state does not parse: {e}\n{text}"));
    git_handover::api::State::parse(text.as_bytes(), path).expect("state is valid");
    parsed
}

fn spawn(env: &TestEnv, dir: &Path, args: &[&str]) -> Child {
    env.command(env!("CARGO_BIN_EXE_git-handover"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn sixteen_task_edits_and_sixteen_saves_at_once_lose_nothing() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    env.commit(&repo, "a", "a\n", "a", "2026-11-30T10:00:00Z");
    // T17 stays open: were the session to finish before the last saves ran, those saves
    // would rightly start a new session (SPEC section 5) and the test would depend on
    // the order the writers happen to run in.
    let tasks: Vec<Value> = (1..=17)
        .map(|i| json!({"id": format!("T{i}"), "status": "in_progress", "description": "work"}))
        .collect();
    let setup = env.root().join("setup.json");
    env.write(&setup, &json!({"active_tasks": tasks}).to_string());
    let key = env
        .handover(&repo, &["save", "--from", setup.to_str().unwrap()])
        .stdout;
    let file = repo
        .join(".claude/handover")
        .join(key.trim())
        .join("project-state.json");

    let mut children = Vec::new();
    for i in 1..=16 {
        let input = env.root().join(format!("decision-{i}.json"));
        env.write(
            &input,
            &json!({"recent_decisions": [{"decision": format!("decision {i}")}]}).to_string(),
        );
        children.push(spawn(&env, &repo, &["task", "done", &format!("T{i}")]));
        children.push(spawn(
            &env,
            &repo,
            &["save", "--from", input.to_str().unwrap()],
        ));
    }
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let after = state(&file);
    let done = after["active_tasks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["status"] == "done")
        .count();
    assert_eq!(done, 16);
    assert_eq!(after["recent_decisions"].as_array().unwrap().len(), 16);
    assert_eq!(after["status"], "READY");
    let leftovers: Vec<_> = std::fs::read_dir(file.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        leftovers.len(),
        2,
        "only the state and handover.md: {leftovers:?}"
    );
}

/// A small deterministic generator, so a failing run can be repeated.
#[test]
fn writers_killed_at_random_moments_never_corrupt_the_state() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    env.commit(&repo, "a", "a\n", "a", "2026-11-30T10:00:00Z");
    // A short lock timeout: a lock left by a killed writer is taken over quickly.
    env.git(&repo, &["config", "handover.lockTimeout", "40ms"]);
    let first = env.root().join("first.json");
    env.write(
        &first,
        &json!({"active_tasks": [{"id": "T1", "status": "in_progress"}]}).to_string(),
    );
    let key = env
        .handover(&repo, &["save", "--from", first.to_str().unwrap()])
        .stdout;
    let dir = repo.join(".claude/handover").join(key.trim());
    let file = dir.join("project-state.json");

    let noop = env.root().join("noop.json");
    env.write(&noop, "{}");
    let mut rng = Lcg(0x5eed);
    let mut kills = 0;
    // Kills that hit a writer holding the lock (it left its lock or temporary file).
    let mut mid_write = 0;
    let mut decisions = 0usize;
    let mut attempt = 0;
    while kills < 200 {
        attempt += 1;
        assert!(attempt < 5000, "could not kill 200 writers in flight");
        let input = env.root().join("next.json");
        env.write(
            &input,
            &json!({"recent_decisions": [{"decision": format!("d{attempt}")}]}).to_string(),
        );
        let mut child = spawn(&env, &repo, &["save", "--from", input.to_str().unwrap()]);
        // Let it run for a random while (0 to 6 ms) before the kill: the point is to
        // land the kill anywhere in the write, not to order anything.
        std::thread::sleep(std::time::Duration::from_micros(rng.next() % 6000));
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            kills += 1;
        }
        let _ = child.wait();
        let left = std::fs::read_dir(&dir).unwrap().flatten().any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name == "project-state.json.lock" || name.starts_with(".git-handover-tmp-")
        });
        mid_write += usize::from(left);
        let now = state(&file)["recent_decisions"]
            .as_array()
            .map_or(0, Vec::len);
        assert!(
            now == decisions || now == decisions + 1,
            "old or new state only: {decisions} -> {now}"
        );
        decisions = now;
        // A save that changes nothing takes over a stale lock and clears stray temporary
        // files, so the next writer starts from a clean directory.
        let lock_text = std::fs::read_to_string(dir.join("project-state.json.lock")).ok();
        let recover = env.handover(&repo, &["save", "--from", noop.to_str().unwrap()]);
        assert_eq!(
            recover.code,
            0,
            "{}\nlock held: {lock_text:?}",
            recover.snapshot()
        );
        assert_eq!(
            state(&file)["recent_decisions"]
                .as_array()
                .map_or(0, Vec::len),
            decisions
        );
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            2,
            "clean after a successful write"
        );
    }
    eprintln!("{kills} kills in {attempt} attempts, {mid_write} of them inside the write");
    assert!(
        mid_write >= 20,
        "only {mid_write} kills landed inside a write"
    );
    // A later successful write clears what the killed ones left.
    let last = env.root().join("last.json");
    env.write(
        &last,
        &json!({"recent_decisions": [{"decision": "last"}]}).to_string(),
    );
    let run = env.handover(&repo, &["save", "--from", last.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["handover.md", "project-state.json"]);
    assert_eq!(
        state(&file)["recent_decisions"].as_array().unwrap().len(),
        decisions + 1
    );
}
