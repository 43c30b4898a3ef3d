//! Lost commits by the hundred, and the hook's time limit (issue 16): 300 recorded
//! commits that a rebase left behind, all by the one author of the history, made the
//! rewritten-commit search diff trees for every pair (seconds for `status` and for the
//! hook, past the agent's timeout). Each commit's change is now worked out once, and
//! the session-start hook stops asking history questions at its deadline: what it did
//! not reach is said to be unchecked, never guessed.

use std::fmt::Write as _;

use crate::common::TestEnv;
use serde_json::{Value, json};

/// A history of 5,000 commits by one author at one author date (as an agent's are
/// after a rebase keeps the dates), and 300 commits forked off it and left behind.
#[track_caller]
fn repository(env: &TestEnv) -> (std::path::PathBuf, Vec<String>, Vec<String>) {
    let repo = env.init("repo");
    let mut stream = String::new();
    let data = |s: &mut String, text: &str| {
        let _ = writeln!(s, "data {}\n{text}", text.len());
    };
    for i in 1..=5000 {
        let _ = writeln!(
            stream,
            "commit refs/heads/main\nmark :{i}\nauthor A <a@example.com> 1700000000 +0000\ncommitter A <a@example.com> {} +0000",
            1_700_000_000 + i
        );
        data(&mut stream, &format!("m{}", i % 10));
        if i > 1 {
            let _ = writeln!(stream, "from :{}", i - 1);
        }
        let _ = writeln!(stream, "M 644 inline f{}", i % 50);
        data(&mut stream, &i.to_string());
        stream.push('\n');
    }
    for j in 1..=300 {
        let _ = writeln!(
            stream,
            "commit refs/heads/side\nmark :{}\nauthor A <a@example.com> 1700000000 +0000\ncommitter A <a@example.com> {} +0000",
            10_000 + j,
            1_700_000_000 + j
        );
        data(&mut stream, &format!("m{}", j % 10));
        let _ = writeln!(
            stream,
            "from :{}",
            // Forked near the root: proving them unreachable walks ~5,000 commits,
            // more than the walk goes between looks at the clock.
            if j > 1 { 10_000 + j - 1 } else { 10 }
        );
        let _ = writeln!(stream, "M 644 inline g{}", j % 50);
        data(&mut stream, &format!("x{j}"));
        stream.push('\n');
    }
    env.fast_import(&repo, &stream);
    let lost: Vec<String> = env
        .git(&repo, &["rev-list", "side", "^main"])
        .lines()
        .map(str::to_owned)
        .collect();
    let kept: Vec<String> = env
        .git(&repo, &["rev-list", "-5", "main~100"])
        .lines()
        .map(str::to_owned)
        .collect();
    // The graph is written while the lost commits still have a branch: they are in
    // it, so proving them unreachable means walking down to their generation.
    env.git(&repo, &["commit-graph", "write", "--reachable"]);
    env.git(&repo, &["update-ref", "-d", "refs/heads/side"]);
    env.git(&repo, &["checkout", "-q", "-f", "main"]);
    let mut tasks: Vec<Value> = lost
        .iter()
        .chain(&kept)
        .enumerate()
        .map(|(i, sha)| json!({"id": format!("T{i}"), "status": "done", "commit_sha": sha}))
        .collect();
    tasks.push(json!({"id": "NEXT", "status": "in_progress", "description": "go on"}));
    let input = env.root().join("input.json");
    env.write(&input, &json!({"active_tasks": tasks}).to_string());
    let run = env.handover(&repo, &["save", "--from", input.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    (repo, lost, kept)
}

/// `hook session-start` in `repo` for agent session `session` with `envs` set: its
/// exit status checked, the context it briefs with.
fn hook_context(
    env: &TestEnv,
    repo: &std::path::Path,
    session: &str,
    envs: &[(&str, &str)],
) -> String {
    let event = json!({"session_id": session, "cwd": repo.display().to_string(),
                       "hook_event_name": "SessionStart", "source": "startup"})
    .to_string();
    let run = env.handover_fed(repo, &["hook", "session-start"], event.as_bytes(), |c| {
        c.envs(envs.iter().copied());
    });
    run.hook_context()
}

#[test]
fn three_hundred_lost_commits_are_judged_quickly_and_the_hook_keeps_its_time() {
    let env = TestEnv::new();
    let (repo, lost, kept) = repository(&env);
    assert_eq!(lost.len(), 300);

    // Everything judged, in one batch, each commit's change worked out once: at most
    // once for each lost commit and each commit the rewritten-commit search walks (it
    // stops after 1,000), never once for every pair of them.
    let log = env.event_log("status");
    let run = env.handover_with(&repo, &["status", "--json"], |c| {
        c.env("GIT_HANDOVER_TEST_LOG", log.path());
    });
    assert_eq!(log.count("resolve"), 1, "one batch judges them all");
    assert!(
        log.count("tree-diff") <= lost.len() + 1000,
        "{} tree diffs",
        log.count("tree-diff")
    );
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let commits = doc["worktrees"][0]["handovers"][0]["commits"]
        .as_array()
        .unwrap()
        .clone();
    let state_of = |sha: &str| {
        commits
            .iter()
            .find(|c| c["recorded"] == sha)
            .map(|c| c["state"].as_str().unwrap().to_owned())
    };
    assert!(
        lost.iter()
            .all(|s| state_of(s).as_deref() == Some("unreachable"))
    );
    assert!(kept.iter().all(|s| state_of(s).as_deref() == Some("ok")));

    // The hook at a deadline already past: briefed all the same, in time, with the
    // commits it did not reach unchecked and the cut said; nothing called fresh that
    // was not checked.
    let context = hook_context(&env, &repo, "s1", &[("GIT_HANDOVER_TEST_DEADLINE_MS", "0")]);
    assert!(context.contains("[NEXT]"), "{context}");
    assert!(
        context.contains("the history check stopped at the hook's time limit"),
        "{context}"
    );
    // The walk stopped before it reached the lost commits: unchecked, with the reason,
    // never called unreachable; the kept ones it had reached are ok.
    assert!(context.contains("5 ok, 300 unchecked"), "{context}");
    assert!(
        context.contains("unchecked: not reached within the hook's time limit"),
        "{context}"
    );
    assert!(!context.contains("unreachable"), "{context}");
}

/// The hook's time limit on a real clock: history made slow (each look at the clock
/// first sleeps 400 ms), a limit of 300 ms. The walk stops at its first look past the
/// limit, and the agent is briefed well before its own timeout, with the cut said and
/// nothing it did not reach called unreachable.
#[test]
fn the_hook_stops_at_its_limit_on_a_slow_history() {
    let env = TestEnv::new();
    let (repo, _, _) = repository(&env);
    let log = env.event_log("hook");
    let log_path = log.path().to_str().unwrap();
    let context = hook_context(
        &env,
        &repo,
        "s2",
        &[
            ("GIT_HANDOVER_TEST_DEADLINE_MS", "300"),
            ("GIT_HANDOVER_TEST_PAUSE", "clock:400"),
            ("GIT_HANDOVER_TEST_LOG", log_path),
        ],
    );
    assert_eq!(
        log.count("clock"),
        1,
        "the walk stops at its first look at the clock past the limit"
    );
    assert!(context.contains("[NEXT]"), "{context}");
    assert!(
        context.contains("the history check stopped at the hook's time limit"),
        "{context}"
    );
    assert!(context.contains("unchecked"), "{context}");
    assert!(!context.contains("unreachable"), "{context}");
}
