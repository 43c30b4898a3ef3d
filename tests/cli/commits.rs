//! The commit check against real histories: rebased branches, several branches in one
//! walk, ambiguous short shas, with and without a commit-graph (and a stale one).

use std::fmt::Write as _;
use std::path::Path;

use crate::common::TestEnv;
use serde_json::{Value, json};

/// Write a branch session recording `shas` as done tasks T1, T2, …
fn session(env: &TestEnv, worktree: &Path, branch: &str, fingerprint: &str, shas: &[&str]) {
    let tasks: Vec<Value> = shas
        .iter()
        .enumerate()
        .map(|(i, sha)| json!({"id": format!("T{}", i + 1), "status": "done", "commit_sha": sha}))
        .collect();
    env.write(
        &worktree.join(format!(
            ".claude/handover/{branch}/{fingerprint}/project-state.json"
        )),
        &json!({"version": 3, "generated_at": "2026-11-30T11:00:00Z", "status": "ALL_COMPLETE",
                "workspace": {"branch": branch}, "active_tasks": tasks})
        .to_string(),
    );
}

/// `(task, state, rewritten)` of every commit of the session with `key`.
#[track_caller]
fn checks(env: &TestEnv, dir: &Path, key: &str) -> Vec<(String, String, Option<String>)> {
    let run = env.handover(dir, &["status", "--json"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let handover = v["worktrees"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|w| w["handovers"].as_array().unwrap().clone())
        .find(|h| h["key"] == key)
        .unwrap();
    handover["commits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["task"].as_str().unwrap().to_owned(),
                c["state"].as_str().unwrap().to_owned(),
                c["rewritten"].as_str().map(str::to_owned),
            )
        })
        .collect()
}

fn s(task: &str, state: &str, rewritten: Option<&str>) -> (String, String, Option<String>) {
    (
        task.to_owned(),
        state.to_owned(),
        rewritten.map(str::to_owned),
    )
}

#[test]
fn rebased_commits_are_reported_as_rewritten_with_and_without_a_commit_graph() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    env.commit(&repo, "base.txt", "base\n", "base", "2026-11-20T10:00:00Z");
    env.git(&repo, &["checkout", "-q", "-b", "feature"]);
    let f1 = env.commit(
        &repo,
        "f1.txt",
        "f1\n",
        "feature one",
        "2026-11-21T10:00:00Z",
    );
    let f2 = env.commit(
        &repo,
        "f2.txt",
        "f2\n",
        "feature two",
        "2026-11-22T10:00:00Z",
    );
    env.git(&repo, &["checkout", "-q", "main"]);
    env.commit(
        &repo,
        "main.txt",
        "m\n",
        "main moves on",
        "2026-11-23T10:00:00Z",
    );
    env.git(&repo, &["checkout", "-q", "feature"]);
    env.git_at(&repo, "2026-11-24T10:00:00Z", &["rebase", "-q", "main"]);
    let new1 = env.git(&repo, &["rev-parse", "HEAD~1"]);
    let new2 = env.git(&repo, &["rev-parse", "HEAD"]);
    assert_ne!(new1, f1);
    session(&env, &repo, "feature", "20261130-110000", &[&f1, &f2[..8]]);
    let want = vec![
        s("T1", "unreachable", Some(&new1)),
        s("T2", "unreachable", Some(&new2)),
    ];
    assert_eq!(checks(&env, &repo, "feature/20261130-110000"), want);
    assert!(
        !git_handover::api::discover(&repo)
            .unwrap()
            .has_commit_graph()
    );
    env.git(&repo, &["commit-graph", "write", "--reachable"]);
    assert!(
        git_handover::api::discover(&repo)
            .unwrap()
            .has_commit_graph()
    );
    assert_eq!(checks(&env, &repo, "feature/20261130-110000"), want);
}

#[test]
fn one_walk_answers_for_several_branches() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    let base = env.commit(&repo, "a", "a\n", "base", "2026-11-20T10:00:00Z");
    env.git(&repo, &["checkout", "-q", "-b", "left"]);
    let left = env.commit(&repo, "l", "l\n", "left work", "2026-11-21T10:00:00Z");
    env.git(&repo, &["checkout", "-q", "-b", "right", "main"]);
    let right = env.commit(&repo, "r", "r\n", "right work", "2026-11-22T10:00:00Z");
    env.git(&repo, &["checkout", "-q", "main"]);
    session(
        &env,
        &repo,
        "left",
        "20261130-110000",
        &[&base, &left, &right],
    );
    session(
        &env,
        &repo,
        "right",
        "20261130-110000",
        &[&base, &left, &right],
    );
    for graph in [false, true] {
        if graph {
            env.git(&repo, &["commit-graph", "write", "--reachable"]);
        }
        assert_eq!(
            checks(&env, &repo, "left/20261130-110000"),
            [
                s("T1", "ok", None),
                s("T2", "ok", None),
                s("T3", "unreachable", None)
            ],
            "graph: {graph}"
        );
        assert_eq!(
            checks(&env, &repo, "right/20261130-110000"),
            [
                s("T1", "ok", None),
                s("T2", "unreachable", None),
                s("T3", "ok", None)
            ],
            "graph: {graph}"
        );
    }
}

#[test]
fn commits_newer_than_a_stale_commit_graph_are_still_found() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    let old = env.commit(&repo, "a", "a\n", "old", "2026-11-20T10:00:00Z");
    env.git(&repo, &["commit-graph", "write", "--reachable"]);
    let new = env.commit(&repo, "b", "b\n", "new", "2026-11-21T10:00:00Z");
    env.git(&repo, &["checkout", "-q", "-b", "side", &old]);
    let side = env.commit(&repo, "c", "c\n", "side", "2026-11-22T10:00:00Z");
    env.git(&repo, &["checkout", "-q", "main"]);
    session(&env, &repo, "main", "20261130-110000", &[&old, &new, &side]);
    assert_eq!(
        checks(&env, &repo, "main/20261130-110000"),
        [
            s("T1", "ok", None),
            s("T2", "ok", None),
            s("T3", "unreachable", None)
        ]
    );
}

#[test]
fn short_shas_missing_ambiguous_and_not_hex() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    let head = env.commit(&repo, "a", "a\n", "a", "2026-11-20T10:00:00Z");
    // Enough objects that two share a 4-hex-digit prefix (deterministic content).
    let mut seen = std::collections::HashMap::new();
    let mut ambiguous = None;
    for i in 0..2000 {
        let out = env
            .command("git")
            .current_dir(&repo)
            .args(["hash-object", "-w", "--stdin"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write as _;
                child
                    .stdin
                    .take()
                    .unwrap()
                    .write_all(format!("blob {i}\n").as_bytes())?;
                child.wait_with_output()
            })
            .unwrap();
        let sha = String::from_utf8(out.stdout).unwrap().trim().to_owned();
        if let Some(_other) = seen.insert(sha[..4].to_owned(), sha.clone()) {
            ambiguous = Some(sha[..4].to_owned());
            break;
        }
    }
    let ambiguous = ambiguous.expect("a shared prefix among 2000 objects");
    session(
        &env,
        &repo,
        "main",
        "20261130-110000",
        &[&head[..7], &ambiguous, "0000000", "not-a-sha"],
    );
    assert_eq!(
        checks(&env, &repo, "main/20261130-110000"),
        [
            s("T1", "ok", None),
            s("T2", "ambiguous", None),
            s("T3", "missing", None),
            s("T4", "missing", None)
        ]
    );
}

#[test]
fn worktrees_are_listed_like_git_worktree_list() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    env.commit(&repo, "a", "a\n", "a", "2026-11-20T10:00:00Z");
    for (name, extra) in [
        ("zeta", vec![]),
        ("alpha", vec!["--detach"]),
        ("mid", vec![]),
    ] {
        let path = env.root().join(name);
        let mut args = vec!["worktree", "add", "-q"];
        args.extend(extra);
        args.push(path.to_str().unwrap());
        env.git(&repo, &args);
    }
    env.git(
        &repo,
        &[
            "worktree",
            "lock",
            "--reason",
            "kept",
            env.root().join("mid").to_str().unwrap(),
        ],
    );
    std::fs::remove_dir_all(env.root().join("zeta")).unwrap();

    // `git worktree list --porcelain`, reduced to path, head, branch, locked, prunable.
    let porcelain = env.git(&repo, &["worktree", "list", "--porcelain"]);
    let mut from_git = Vec::new();
    for block in porcelain.split("\n\n") {
        let mut row = (
            String::new(),
            String::new(),
            String::from("-"),
            false,
            false,
        );
        for line in block.lines() {
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "worktree" => row.0 = env.redact(value),
                "HEAD" => row.1 = value.to_owned(),
                "branch" => row.2 = value.trim_start_matches("refs/heads/").to_owned(),
                "locked" => row.3 = true,
                "prunable" => row.4 = true,
                _ => {}
            }
        }
        from_git.push(row);
    }
    let run = env.handover(&repo, &["status", "--json"]);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let from_tool: Vec<_> = v["worktrees"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["path"].as_str().unwrap().to_owned(),
                w["head"].as_str().unwrap().to_owned(),
                if w["detached"] == true {
                    "-".to_owned()
                } else {
                    w["branch"].as_str().unwrap().to_owned()
                },
                w["locked"] == true,
                w["prunable"] == true,
            )
        })
        .collect();
    assert_eq!(from_tool, from_git);
    assert_eq!(from_git.len(), 4);
}

#[test]
fn a_long_walk_without_a_commit_graph_says_once_how_to_write_one() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    // 25,000 commits on main and one side commit, through fast-import.
    let mut stream = String::new();
    for i in 1..=25_000u64 {
        let from = if i > 1 {
            format!("from :{}\n", i - 1)
        } else {
            String::new()
        };
        let _ = write!(
            stream,
            "commit refs/heads/main\nmark :{i}\ncommitter a <a@example.com> {} +0000\ndata 2\nc\n{from}\n",
            1_700_000_000 + i * 60
        );
    }
    stream.push_str("commit refs/heads/side\nmark :99999\ncommitter a <a@example.com> 1800000000 +0000\ndata 2\ns\nfrom :1\n\n");
    env.fast_import(&repo, &stream);
    let side = env.git(&repo, &["rev-parse", "side"]);
    session(&env, &repo, "main", "20261130-110000", &[&side]);
    let run = env.handover(&repo, &["status"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    // About 25,000: every commit of the history, and the few the newest-first walk
    // reads to know where to stop.
    let hint = run.stderr.strip_prefix("hint: ").unwrap_or_default();
    let (count, rest) = hint.split_once(' ').unwrap_or_default();
    assert!(
        (25_000..25_010).contains(&count.parse::<u32>().unwrap_or(0)),
        "{}",
        run.stderr
    );
    assert_eq!(
        rest,
        "commits were read without a commit-graph; `git commit-graph write --reachable` makes this much faster\n"
    );
    env.git(&repo, &["commit-graph", "write", "--reachable"]);
    let run = env.handover(&repo, &["status"]);
    assert_eq!(run.stderr, "", "no hint once the graph is there");
    assert!(run.stdout.contains("1 unreachable"), "{}", run.stdout);
}

#[test]
fn an_amended_message_is_found_by_its_change_and_an_amended_change_by_its_subject() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    env.commit(&repo, "base", "b\n", "base", "2026-11-20T10:00:00Z");
    let first = env.commit(&repo, "one", "1\n", "first subject", "2026-11-21T10:00:00Z");
    env.git_at(
        &repo,
        "2026-11-21T11:00:00Z",
        &["commit", "-q", "--amend", "-m", "a better subject"],
    );
    let new_first = env.git(&repo, &["rev-parse", "HEAD"]);
    let second = env.commit(
        &repo,
        "two",
        "2\n",
        "second subject",
        "2026-11-22T10:00:00Z",
    );
    env.write(&repo.join("two"), "2, fixed\n");
    env.git(&repo, &["add", "two"]);
    env.git_at(
        &repo,
        "2026-11-22T11:00:00Z",
        &["commit", "-q", "--amend", "--no-edit"],
    );
    let new_second = env.git(&repo, &["rev-parse", "HEAD"]);
    session(&env, &repo, "main", "20261130-110000", &[&first, &second]);
    assert_eq!(
        checks(&env, &repo, "main/20261130-110000"),
        [
            s("T1", "unreachable", Some(&new_first)),
            s("T2", "unreachable", Some(&new_second))
        ]
    );
}

/// A gc that packs the recorded commits while `status` resolves them (forced: a pause
/// after the first sha). The object store looks at the disk once a run, after every
/// sha was asked without it: the commit gc moved into a new pack is found, not called
/// missing, and the sha that names nothing is still missing.
#[test]
fn a_gc_while_status_resolves_is_seen_once_all_shas_are_asked() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    env.commit(&repo, "a", "a\n", "a", "2026-11-20T10:00:00Z");
    let loose = env.commit(&repo, "b", "b\n", "b", "2026-11-20T11:00:00Z");
    assert!(
        repo.join(".git/objects")
            .join(&loose[..2])
            .join(&loose[2..])
            .exists(),
        "the commit is a loose object"
    );
    let nothing = "0123456789abcdef0123456789abcdef01234567";
    session(&env, &repo, "main", "20261130-110000", &[nothing, &loose]);
    let child = env.spawn_at_pause(&repo, &["status", "--json"], "resolve:60000");
    // Packs the commit into a new pack and removes the loose object (no commit-graph
    // is used by the run: it had none when it looked).
    env.git(&repo, &["gc", "-q", "--prune=now"]);
    assert!(
        !repo
            .join(".git/objects")
            .join(&loose[..2])
            .join(&loose[2..])
            .exists(),
        "gc packed it"
    );
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let commits = &v["worktrees"][0]["handovers"][0]["commits"];
    let state = |task: &str| {
        commits
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["task"] == task)
            .map(|c| c["state"].as_str().unwrap().to_owned())
    };
    assert_eq!(state("T1").as_deref(), Some("missing"), "{commits}");
    assert_eq!(state("T2").as_deref(), Some("ok"), "{commits}");
}
