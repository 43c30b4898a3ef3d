//! Claims reach every caller (issue 33): every claim verb (`claim`, `next --claim`,
//! `release`, `done`, `block`) from a linked worktree with `--session KEY`, and from a
//! clone that has the session only in the notes store once `continue KEY` restored it;
//! the caller named by `--as`, `GIT_HANDOVER_AS` or its agent session, for `done` and
//! `block` too; the briefing's claim command run as printed from the agent's own
//! directory; hundreds of rounds with a writer held inside its decision, each task
//! claimed exactly once; a clone that did not claim a task shows who holds it after a
//! `sync`, and a sync never takes over a file with a write of its own or a person's edit.

use std::path::Path;

use crate::claims::{KEY, claim_of, session, tasks};
use crate::claims_remote::{claim_in, two_clones};
use crate::common::{Run, TestEnv, finish};
use serde_json::{Value, json};

/// `git-handover args…` in `dir` as the Claude Code session `id` (no `GIT_HANDOVER_AS`).
fn as_claude(env: &TestEnv, dir: &Path, id: &str, args: &[&str]) -> Run {
    env.handover_with(dir, args, |c| {
        c.env_remove("GIT_HANDOVER_AS");
        c.env("CLAUDE_CODE_SESSION_ID", id);
    })
}

fn as_env(env: &TestEnv, dir: &Path, name: &str, args: &[&str]) -> Run {
    env.handover_with(dir, args, |c| {
        c.env("GIT_HANDOVER_AS", name);
    })
}

fn status_of(dir: &Path, key: &str, id: &str) -> Value {
    let doc = crate::common::read_json(&crate::common::state_path(dir, key));
    doc["active_tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .unwrap()["status"]
        .clone()
}

#[test]
fn every_claim_verb_works_from_a_linked_worktree_naming_the_caller_every_way() {
    let env = TestEnv::new();
    let repo = session(&env, 4);
    let wt = env.worktree(&repo, "wt1", "b1");
    let s = ["task", "--session", KEY];
    let with =
        |rest: &[&str]| -> Vec<String> { s.iter().chain(rest).map(|a| (*a).to_owned()).collect() };
    let run = |r: Run| {
        assert_eq!(r.code, 0, "{}", r.snapshot());
        r
    };
    let args = with(&["claim", "T1", "--as", "a"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    env.handover(&wt, &args).assert_ok();
    assert_eq!(claim_of(&repo, "T1")["holder"], "a");
    let args = with(&["next", "--claim"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let next = run(as_env(&env, &wt, "b", &args));
    assert!(next.stdout.starts_with("T2 "), "{}", next.stdout);
    assert_eq!(claim_of(&repo, "T2")["holder"], "b");
    let args = with(&["release", "T1", "--as", "a"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    env.handover(&wt, &args).assert_ok();
    assert_eq!(claim_of(&repo, "T1"), Value::Null);
    // The agent session's own name, derived, for claim and done.
    let args = with(&["claim", "T1"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    as_claude(&env, &wt, "c1a0de00-1", &args).assert_ok();
    assert_eq!(claim_of(&repo, "T1")["holder"], "claude-c1a0de00");
    let args = with(&["done", "T1"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    as_claude(&env, &wt, "c1a0de00-1", &args).assert_ok();
    assert_eq!(claim_of(&repo, "T1"), Value::Null);
    assert_eq!(status_of(&repo, KEY, "T1"), "done");
    // GIT_HANDOVER_AS for block; --as for done.
    let args = with(&["block", "T2", "--reason", "r"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    as_env(&env, &wt, "b", &args).assert_ok();
    assert_eq!(claim_of(&repo, "T2"), Value::Null);
    let args = with(&["claim", "T3", "--as", "c"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    env.handover(&wt, &args).assert_ok();
    // Another's block of a live claim leaves it; its holder's done ends it.
    let args = with(&["block", "T3", "--reason", "r", "--as", "d"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    env.handover(&wt, &args).assert_ok();
    assert_eq!(claim_of(&repo, "T3")["holder"], "c");
    let args = with(&["done", "T3", "--as", "c"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    env.handover(&wt, &args).assert_ok();
    assert_eq!(claim_of(&repo, "T3"), Value::Null);
    assert!(
        !wt.join(".claude/handover").exists(),
        "every write went to the session's own worktree"
    );
}

#[test]
fn every_claim_verb_works_from_a_clone_that_restored_the_session_with_continue() {
    let env = TestEnv::new();
    // b has the session only from the notes store: `continue KEY` restored it.
    let (_remote, a, b, key) = two_clones(&env, &["T1", "T2", "T3", "T4"]);
    let verbs: [&[&str]; 6] = [
        &["claim", "T1", "--as", "bee", "--remote", "origin"],
        &["next", "--claim", "--as", "bee", "--remote", "origin"],
        &["release", "T1", "--as", "bee", "--remote", "origin"],
        &["done", "T2", "--as", "bee"],
        &["claim", "T3", "--as", "bee"],
        &["block", "T3", "--reason", "r", "--as", "bee"],
    ];
    for verb in verbs {
        let args: Vec<&str> = ["task", "--session", key.as_str()]
            .into_iter()
            .chain(verb.iter().copied())
            .collect();
        let run = env.handover(&b, &args);
        assert_eq!(run.code, 0, "{verb:?}: {}", run.snapshot());
    }
    assert_eq!(claim_in(&b, &key, "T1"), Value::Null);
    assert_eq!(claim_in(&b, &key, "T2"), Value::Null);
    assert_eq!(claim_in(&b, &key, "T3"), Value::Null);
    assert_eq!(status_of(&b, &key, "T2"), "done");
    assert_eq!(status_of(&b, &key, "T3"), "blocked");
    // What b did reaches a: its next claim on the remote gets T1 (T2 done, T3 blocked).
    env.handover(&b, &["sync"]).assert_ok();
    let run = env.handover(
        &a,
        &[
            "task", "next", "--claim", "--as", "ay", "--remote", "origin",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.starts_with("T1 "), "{}", run.stdout);
}

#[test]
fn the_briefings_claim_command_runs_as_printed_from_the_agents_own_worktree() {
    let env = TestEnv::new();
    let repo = session(&env, 2);
    let wt = env.worktree(&repo, "wt1", "b1");
    env.git(&repo, &["config", "handover.claimFor", "45m"]);
    let hook = env.handover_with(&wt, &["hook", "session-start", "--agent", "claude"], |c| {
        c.env_remove("GIT_HANDOVER_AS");
        c.env("CLAUDE_CODE_SESSION_ID", "ab12cd34-9");
        c.stdin(std::process::Stdio::null());
    });
    let context = hook.hook_context();
    let command = context
        .split('`')
        .find(|c| c.contains("task next --claim"))
        .unwrap_or_else(|| panic!("no claim command: {context}"));
    assert!(command.contains("--as claude-ab12cd34"), "{command}");
    let out = env
        .shell(&wt, command)
        .env_remove("GIT_HANDOVER_AS")
        .env("CLAUDE_CODE_SESSION_ID", "ab12cd34-9")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{command}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("T1 "));
    let c = claim_of(&repo, "T1");
    assert_eq!(c["holder"], "claude-ab12cd34");
    assert_eq!(c["expires"], "2026-11-30T12:45:00Z", "handover.claimFor");
}

/// Each round holds one writer inside its decision (its gate opened only once the two
/// others are seen waiting for its lock, `lock-wait`), so every round forces the race
/// it names however slowly the machine runs.
#[test]
fn hundreds_of_rounds_with_a_writer_held_inside_its_decision_never_give_a_task_twice() {
    let env = TestEnv::new();
    let repo = env.repo();
    let dirs = [
        repo.clone(),
        env.worktree(&repo, "wt1", "b1"),
        env.worktree(&repo, "wt2", "b2"),
    ];
    for round in 0..200 {
        env.write_session(
            &repo,
            KEY,
            &json!({"version": 4, "status": "READY", "workspace": {"branch": "main"},
                "active_tasks": tasks(3)}),
        );
        let name = |w: usize| format!("r{round}-w{w}");
        let args = |w: usize| -> Vec<String> {
            ["task", "--session", KEY, "next", "--claim", "--as"]
                .map(str::to_owned)
                .into_iter()
                .chain([name(w)])
                .collect()
        };
        // The first caller (in a worktree that changes every round) is held inside its
        // decision, the session's lock taken; the two others start meanwhile, and it is
        // let go only once both are seen waiting for that lock.
        let a0 = args(0);
        let a0: Vec<&str> = a0.iter().map(String::as_str).collect();
        let held = env.spawn_at_pause(&dirs[round % 3], &a0, "claim:60000");
        let mut others: Vec<std::process::Child> = (1..3)
            .map(|w| {
                let a = args(w);
                let a: Vec<&str> = a.iter().map(String::as_str).collect();
                let log = env.event_log(&format!("r{round}-w{w}"));
                let mut child = env.spawn_logged(&dirs[(round + w) % 3], &a, &log);
                env.until_logged(&log, "lock-wait", &mut child);
                child
            })
            .collect();
        let first = finish(held);
        let others: Vec<(i32, String, String)> = others.drain(..).map(finish).collect();
        let mut taken = Vec::new();
        for (w, (code, out, err)) in std::iter::once(first).chain(others).enumerate() {
            assert_eq!(code, 0, "round {round} w{w}: {err}");
            let id = out.split_whitespace().next().unwrap().to_owned();
            assert_eq!(claim_of(&repo, &id)["holder"], name(w), "round {round}");
            taken.push(id);
        }
        taken.sort();
        assert_eq!(taken, ["T1", "T2", "T3"], "round {round}: every task once");
    }
}

#[test]
fn a_clone_that_did_not_claim_a_task_shows_who_holds_it_after_a_sync() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1", "T2"]);
    let run = env.handover(
        &a,
        &[
            "task", "claim", "T1", "--as", "agent-a", "--remote", "origin",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let sync = env.handover(&b, &["sync"]);
    sync.assert_ok();
    assert!(sync.stdout.contains(&key), "{}", sync.snapshot());
    let status = env.handover(&b, &["status"]);
    assert!(
        status.stdout.contains("[T1] claimed by agent-a"),
        "{}",
        status.stdout
    );
    assert_eq!(claim_in(&b, &key, "T1")["holder"], "agent-a");
    assert_eq!(claim_in(&b, &key, "T1")["confirmed"], true);
    // Nothing more to take: a second sync leaves the file as it is.
    let again = env.json(&b, &["--json", "sync"]);
    assert_eq!(again["claims"]["caught_up"], json!([]), "{again}");
    // b claims the other task locally: its first claim is refused as T1 is held.
    let run = env.handover(&b, &["task", "claim", "T1", "--as", "agent-b"]);
    assert_eq!(run.code, 6, "{}", run.snapshot());
}

#[test]
fn a_sync_never_takes_over_a_file_with_a_write_of_its_own_or_a_persons_edit() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1", "T2"]);
    let run = env.handover(
        &a,
        &[
            "task", "claim", "T1", "--as", "agent-a", "--remote", "origin",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    // A person edits b's file by hand (not through the tool): it stays theirs.
    let path = crate::common::state_path(&b, &key);
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = text.replace("\"pending\"", "\"blocked\"");
    assert_ne!(edited, text);
    std::fs::write(&path, &edited).unwrap();
    let sync = env.json(&b, &["--json", "sync"]);
    assert_eq!(sync["claims"]["caught_up"], json!([]), "{sync}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
    // A write of b's own that the remote has not: the sessions diverge, nothing taken over.
    std::fs::write(&path, &text).unwrap();
    let run = env.handover(&b, &["task", "start", "T2", "--session", &key]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let before = std::fs::read_to_string(&path).unwrap();
    let sync = env.json(&b, &["--json", "sync"]);
    assert_eq!(sync["claims"]["caught_up"], json!([]), "{sync}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
}

#[test]
fn a_persons_edit_while_a_sync_decides_to_catch_up_is_kept() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1", "T2"]);
    let run = env.handover(
        &a,
        &[
            "task", "claim", "T1", "--as", "agent-a", "--remote", "origin",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    // The sync has found b's file behind the store; before it takes the lock, a person
    // edits the file by hand (its session_hash left as it was).
    let sync = env.spawn_at_pause(&b, &["--json", "sync"], "sync_catch_up:60000");
    let path = crate::common::state_path(&b, &key);
    let edited = std::fs::read_to_string(&path)
        .unwrap()
        .replace("\"pending\"", "\"blocked\"");
    std::fs::write(&path, &edited).unwrap();
    let out = sync.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["claims"]["caught_up"], json!([]), "{doc}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
}

#[test]
fn a_clone_that_did_not_claim_a_task_shows_who_holds_it_after_its_own_remote_verb() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1", "T2"]);
    let run = env.handover(
        &a,
        &[
            "task", "claim", "T1", "--as", "agent-a", "--remote", "origin",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    // b's store has it after a sync; b's file, once b decides anything on the remote.
    env.handover(&b, &["sync"]).assert_ok();
    let log = env.json(&b, &["--json", "log"]).to_string();
    assert!(log.contains("agent-a"), "{log}");
    let run = env.handover(
        &b,
        &[
            "task", "claim", "T2", "--as", "agent-b", "--remote", "origin",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let status = env.handover(&b, &["status"]);
    assert!(
        status.stdout.contains("[T1] claimed by agent-a"),
        "{}",
        status.stdout
    );
    assert!(!status.stdout.contains("unconfirmed"), "{}", status.stdout);
    let doc = env.json(&b, &["--json", "task", "show", "T1"]);
    assert_eq!(doc["task"]["claim"]["holder"], "agent-a", "{doc}");
    assert_eq!(doc["task"]["claim"]["confirmed"], true, "{doc}");
    assert_eq!(claim_in(&b, &key, "T2")["holder"], "agent-b");
}
