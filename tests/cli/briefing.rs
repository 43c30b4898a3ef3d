//! The briefing an agent is handed (issue 17, items 10–11): every task whole, pending
//! ones with their descriptions, decisions, known issues, approaches, observations and
//! notes; within each agent's budget, cut by priority, saying what was cut and how to
//! see it.

use std::path::Path;

use crate::common::TestEnv;
use serde_json::{Value, json};

/// A session of `n` tasks (the first three open), each with a description of two
/// lines, next actions, files, approaches on the open ones, five decisions, five known
/// issues, observations and notes. `ja`: the text in Japanese.
fn session(env: &TestEnv, repo: &Path, n: usize, ja: bool) {
    let (desc, next, tried) = if ja {
        (
            "字句解析器を新しいトークナイザに移植する。CLI 向けの古い API は安定に保つこと",
            "ヒアドキュメントの状態を仕上げ、ファズのコーパスを流す",
            "正規表現ベースの字句解析",
        )
    } else {
        (
            "Port the lexer to the new tokenizer; keep the old API stable for the CLI",
            "finish the heredoc states, then run the fuzz corpus",
            "a regex-based lexer",
        )
    };
    let tasks: Vec<Value> = (1..=n)
        .map(|i| {
            let status = if i <= 3 { "in_progress" } else { "pending" };
            let mut t = json!({
                "id": format!("M{i}"), "status": status,
                "description": format!("{desc} ({i}).\n{desc}."),
                "next_action": format!("{next} ({i})"),
                "file_paths": [format!("src/part{i}.rs")],
                "last_touched": "2026-11-30T11:00:00Z"
            });
            if i <= 3 {
                t["attempted_approaches"] = json!([{"approach": tried, "result": "failed",
                    "reason": "backtracking", "learnings": "a state machine"}]);
            }
            t
        })
        .collect();
    let five = |what: &str| -> Vec<String> { (1..=5).map(|i| format!("{what} {i}")).collect() };
    let doc = json!({
        "version": 4, "generated_at": "2026-11-30T11:00:00Z", "status": "READY",
        "language": if ja { "ja" } else { "en" },
        "workspace": {"branch": "main"}, "active_tasks": tasks,
        "recent_decisions": five("decision").iter().map(|d| json!({"decision": d, "rationale": "measured"})).collect::<Vec<_>>(),
        "known_issues": five("issue").iter().map(|d| json!({"severity": "high", "description": d})).collect::<Vec<_>>(),
        "phase_observations": [{"phase": "2", "observations": [{"criteria_id": "C1", "observation": "observation one"}]}],
        "session_notes": [{"category": "warning", "content": "session note one"}]
    });
    env.write(
        &repo.join(".claude/handover/main/20261130-110000/project-state.json"),
        &doc.to_string(),
    );
}

fn hook(env: &TestEnv, repo: &Path, agent: &str, ja: bool) -> String {
    let run = env.handover_with(repo, &["hook", "session-start", "--agent", agent], |c| {
        c.env("LANG", if ja { "ja_JP.UTF-8" } else { "C" });
        c.stdin(std::process::Stdio::null());
    });
    run.hook_context()
}

/// How an agent measures its context.
type Cost = fn(&str) -> usize;

/// (agent, its budget measured as it measures)
const AGENTS: [(&str, Cost, usize); 3] = [
    ("claude", |s| s.chars().count(), 10_000),
    ("gemini", |s| s.chars().count(), 10_000),
    ("codex", str::len, 9_600),
];

#[test]
fn a_twenty_task_briefing_fits_every_agent_whole() {
    for ja in [false, true] {
        let env = TestEnv::new();
        let repo = env.repo();
        session(&env, &repo, 20, ja);
        for (agent, cost, budget) in AGENTS {
            let text = hook(&env, &repo, agent, ja);
            assert!(
                cost(&text) <= budget,
                "{agent} ja={ja}: {} over {budget}",
                cost(&text)
            );
            for i in 1..=20 {
                assert!(
                    text.contains(&format!("[M{i}]")) && text.contains(&format!("({i}).")),
                    "{agent} ja={ja}: task M{i} whole:\n{text}"
                );
            }
            let (tried, decision, issue, cut) = if ja {
                (
                    "試したこと: 正規表現ベースの字句解析",
                    "decision 5（理由: measured）",
                    "[high] issue 5",
                    "省略",
                )
            } else {
                (
                    "tried: a regex-based lexer → failed: backtracking (a state machine)",
                    "decision 5 (reason: measured)",
                    "[high] issue 5",
                    "[cut",
                )
            };
            assert!(text.contains(tried), "{agent} ja={ja}: approaches:\n{text}");
            assert!(text.contains(decision), "{agent} ja={ja}: decisions");
            assert!(text.contains(issue), "{agent} ja={ja}: known issues");
            assert!(text.contains("observation one") && text.contains("session note one"));
            assert!(!text.contains(cut), "{agent} ja={ja}: nothing cut:\n{text}");
            assert!(
                text.contains("--session main/20261130-110000"),
                "how to record"
            );
        }
    }
}

#[test]
fn a_briefing_over_the_budget_is_cut_by_priority_and_says_what_was_cut() {
    let env = TestEnv::new();
    let repo = env.repo();
    session(&env, &repo, 120, false);
    for (agent, cost, budget) in AGENTS {
        let text = hook(&env, &repo, agent, false);
        assert!(cost(&text) <= budget, "{agent}: {}", cost(&text));
        // What must stay stays: the open tasks whole, what to do next, how to record.
        for i in 1..=3 {
            assert!(text.contains(&format!("[M{i}] in_progress")), "{agent}");
        }
        assert!(text.contains("tried: a regex-based lexer"));
        assert!(text.contains("Next: "), "{agent}:\n{text}");
        assert!(text.contains("Record progress on this session"));
        // Knowledge before background, the first pending tasks before the last.
        assert!(text.contains("[M4] pending"));
        assert!(!text.contains("[M120] pending"));
        let cut = text
            .lines()
            .find(|l| l.starts_with("[cut to fit"))
            .unwrap_or_else(|| panic!("{agent}: no cut line:\n{text}"));
        assert!(
            cut.contains("pending tasks (M") && cut.contains("… M120)"),
            "{cut}"
        );
        assert!(
            !cut.contains("decisions"),
            "knowledge before far-off tasks: {cut}"
        );
        assert!(cut.contains("recent commits"), "{cut}");
        assert!(cut.contains("git handover continue --full"), "{cut}");
    }
    // The full briefing, read-only: every task, and nothing changed on disk.
    let before = std::fs::read_dir(repo.join(".claude/handover/main/20261130-110000"))
        .unwrap()
        .count();
    let full = env.handover(&repo, &["continue", "--full"]);
    assert_eq!(full.code, 0, "{}", full.snapshot());
    assert!(full.stdout.contains("[M120] pending"));
    assert!(!full.stdout.contains("[cut"));
    let after = std::fs::read_dir(repo.join(".claude/handover/main/20261130-110000"))
        .unwrap()
        .count();
    assert_eq!(before, after, "no handover.md written by --full");
}

#[test]
fn pending_tasks_alone_still_get_an_open_tasks_header_with_their_descriptions() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.write(
        &repo.join(".claude/handover/main/20261130-110000/project-state.json"),
        &json!({"version": 4, "generated_at": "2026-11-30T11:00:00Z", "status": "READY",
                "workspace": {"branch": "main"}, "active_tasks": [
                    {"id": "P1", "status": "pending", "description": "first of two\nwith a second line"},
                    {"id": "P2", "status": "pending", "description": "second"}]})
        .to_string(),
    );
    let run = env.handover(&repo, &["continue", "--full"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    insta::assert_snapshot!("pending_only", run.snapshot());
}
