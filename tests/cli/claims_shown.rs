//! How claims are shown (issue 33, SPEC section 10): `status` names each holder, the
//! claim's age and time left, or that it expired, and `check` counts an expired claim;
//! the briefing lists the tasks others hold and gives the claim command first; a claim
//! not yet confirmed by its push is said to be unconfirmed.

use serde_json::json;

use crate::claims::{KEY, at, claim_of, session};
use crate::common::TestEnv;

#[test]
fn status_shows_holder_age_time_left_and_expired_and_check_counts_an_expired_claim() {
    let env = TestEnv::new();
    let repo = session(&env, 3);
    assert_eq!(
        env.handover(&repo, &["task", "claim", "T1", "--as", "a"])
            .code,
        0
    );
    let later = "2026-11-30T12:10:00Z";
    let check = at(&env, &repo, later, &["status", "--check"]);
    assert!(
        !check.stdout.contains("claim "),
        "a live claim needs no attention: {}",
        check.stdout
    );
    let claim = env.handover(&repo, &["task", "claim", "T2", "--as", "b", "--for", "5m"]);
    assert_eq!(claim.code, 0, "{}", claim.stderr);
    let long = at(&env, &repo, later, &["status"]);
    assert!(
        long.stdout.contains("[T1] claimed by a 10m ago, 20m left"),
        "{}",
        long.stdout
    );
    assert!(
        long.stdout
            .contains("[T2] claimed by b 10m ago, expired 5m ago"),
        "{}",
        long.stdout
    );
    let list = at(&env, &repo, later, &["task", "list"]);
    assert!(
        list.stdout
            .contains("task 1 · claimed by a 10m ago, 20m left"),
        "{}",
        list.stdout
    );
    let show = at(&env, &repo, later, &["task", "show", "T2"]);
    assert!(
        show.stdout
            .contains("claim        claimed by b 10m ago, expired 5m ago"),
        "{}",
        show.stdout
    );
    let short = at(&env, &repo, later, &["status", "--short"]);
    assert!(
        short.stdout.contains("1-claimed 1-expired"),
        "{}",
        short.stdout
    );
    let check = at(&env, &repo, later, &["status", "--check"]);
    assert_eq!(
        check.code, 1,
        "an expired claim on an unfinished task: {}",
        check.stdout
    );
    assert!(check.stdout.contains("expired 5m ago"), "{}", check.stdout);
    let doc = at(&env, &repo, later, &["--json", "status"]).json();
    let claims = &doc["worktrees"][0]["handovers"][0]["claims"];
    assert_eq!(claims[0]["task"], "T1");
    assert_eq!(claims[0]["holder"], "a");
    assert_eq!(claims[0]["expired"], false);
    assert_eq!(claims[0]["left_seconds"], 1200);
    assert_eq!(claims[0]["age_seconds"], 600);
    assert_eq!(claims[1]["expired"], true);
    assert_eq!(claims[1]["confirmed"], true);
}

#[test]
fn the_briefing_lists_tasks_others_hold_and_gives_the_claim_command_first() {
    let env = TestEnv::new();
    let repo = session(&env, 3);
    assert_eq!(
        env.handover(&repo, &["task", "claim", "T2", "--as", "bob"])
            .code,
        0
    );
    let run = env.handover(&repo, &["continue", "--as", "carol"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert!(
        out.contains(
            "Claimed by other agents (leave these alone):\n  [T2] claimed by bob 0s ago, 30m left"
        ),
        "{out}"
    );
    let claim = format!(
        "Claim your task first: `git handover task next --claim --session {KEY} --as carol`"
    );
    let at_claim = out.find(&claim).unwrap_or_else(|| panic!("{out}"));
    let at_next = out.find("Next:").unwrap();
    assert!(at_claim < at_next, "the claim command comes first: {out}");
    // bob's own briefing does not call bob's claim another's.
    let own = env.handover(&repo, &["continue", "--as", "bob"]);
    assert!(
        !own.stdout.contains("Claimed by other agents"),
        "{}",
        own.stdout
    );
    // JSON: the holder and the command, and each task's claim.
    let doc = env.json(&repo, &["--json", "continue", "--as", "carol"]);
    assert_eq!(doc["claim"]["holder"], "carol");
    assert_eq!(doc["claim"]["command"][3], "next");
    assert_eq!(doc["open_tasks"][0]["claim"]["holder"], "bob");
    // The hook names the agent session as its tools will derive it.
    let hook = env.handover_with(
        &repo,
        &["hook", "session-start", "--agent", "claude"],
        |c| {
            c.env_remove("GIT_HANDOVER_AS");
            c.env("CLAUDE_CODE_SESSION_ID", "5e55-10n1d");
            c.stdin(std::process::Stdio::null());
        },
    );
    let context = hook.hook_context();
    // No event on stdin: the agent's environment names the session.
    assert!(context.contains("--as claude-5e5510n1"), "{context}");
    assert!(context.contains("[T2] claimed by bob"), "{context}");
    // An event names its session: the briefing's name is the agent's.
    let event = json!({"session_id": "abcdef12-3456", "cwd": repo}).to_string();
    let fed = env.handover_fed(
        &repo,
        &["hook", "session-start", "--agent", "codex"],
        event.as_bytes(),
        |c| {
            c.env_remove("GIT_HANDOVER_AS");
        },
    );
    assert!(
        fed.hook_context().contains("--as codex-abcdef12"),
        "{}",
        fed.stdout
    );
    // What the briefing says works as printed, from the agent's environment.
    let next = env.handover_with(&repo, &["task", "--session", KEY, "next", "--claim"], |c| {
        c.env_remove("GIT_HANDOVER_AS");
        c.env("CLAUDE_CODE_SESSION_ID", "5e55-10n1d");
    });
    assert_eq!(next.code, 0, "{}", next.stderr);
    assert!(next.stdout.starts_with("T1 "), "{}", next.stdout);
    assert_eq!(claim_of(&repo, "T1")["holder"], "claude-5e5510n1");
}

#[test]
fn an_unconfirmed_claim_is_shown_as_such() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.write_session(
        &repo,
        KEY,
        &json!({"version": 4, "status": "READY", "workspace": {"branch": "main"},
            "active_tasks": [{"id": "T1", "status": "in_progress", "claim": {"holder": "far",
                "since": "2026-11-30T11:55:00Z", "expires": "2026-11-30T12:25:00Z",
                "confirmed": false, "via": "origin"}}]}),
    );
    let status = env.handover(&repo, &["status"]);
    assert!(
        status
            .stdout
            .contains("[T1] claimed by far 5m ago, 25m left, unconfirmed"),
        "{}",
        status.stdout
    );
    let doc = env.json(&repo, &["--json", "status"]);
    assert_eq!(
        doc["worktrees"][0]["handovers"][0]["claims"][0]["confirmed"],
        false
    );
    // Renewed by its holder here, the unknown key of the claim stays.
    assert_eq!(
        env.handover(&repo, &["task", "claim", "T1", "--as", "far"])
            .code,
        0
    );
    assert_eq!(claim_of(&repo, "T1")["via"], "origin");
}
