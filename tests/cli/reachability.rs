//! The reachability walk against git itself (issue 16): 140 branches (more than the
//! 128 tips one walk carries, so two walks of 128-bit masks), merges, commits newer than the commit-graph and
//! commits only other branches have. Every recorded sha of every session is judged by
//! `status` as git's `merge-base --is-ancestor` judges it against the session's branch.

use std::fmt::Write as _;

use crate::common::{Lcg, TestEnv};
use serde_json::Value;

/// A small deterministic generator (the tests must not depend on a seed per run).
#[test]
fn status_judges_every_recorded_commit_as_git_does() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    // History with fast-import: a trunk of 120 commits with a merge every 15; 140
    // branches forking off it, two commits each, every fifth merging the trunk back.
    let mut stream = String::new();
    let mut mark = 0;
    let mut trunk = Vec::new();
    let commit = |stream: &mut String, mark: &mut usize, branch: &str, from: &[usize], i: usize| {
        *mark += 1;
        let _ = write!(
            stream,
            "commit refs/heads/{branch}\nmark :{mark}\ncommitter A <a@example.com> {} +0000\ndata 6\nc{mark:04}\n",
            1_700_000_000 + i * 60
        );
        for (k, parent) in from.iter().enumerate() {
            let _ = writeln!(
                stream,
                "{} :{parent}",
                if k == 0 { "from" } else { "merge" }
            );
        }
        let _ = write!(stream, "M 644 inline f\ndata 5\n{mark:04}\n\n");
        *mark
    };
    for i in 0..120 {
        let parents: Vec<usize> = match (trunk.last(), i % 15 == 14 && i > 20) {
            (None, _) => vec![],
            (Some(&last), false) => vec![last],
            (Some(&last), true) => vec![last, trunk[i - 20]],
        };
        trunk.push(commit(&mut stream, &mut mark, "main", &parents, i));
    }
    let mut tips = Vec::new();
    for b in 0..140 {
        let fork = trunk[(b * 7) % 110];
        let one = commit(
            &mut stream,
            &mut mark,
            &format!("topic-{b:03}"),
            &[fork],
            200 + b,
        );
        let parents = if b % 5 == 0 {
            vec![one, trunk[119]]
        } else {
            vec![one]
        };
        tips.push(commit(
            &mut stream,
            &mut mark,
            &format!("topic-{b:03}"),
            &parents,
            300 + b,
        ));
    }
    env.fast_import(&repo, &stream);
    // One pack, commits stored as deltas of each other where git finds it pays.
    env.git(&repo, &["repack", "-adfq", "--window=250", "--depth=50"]);
    env.git(&repo, &["commit-graph", "write", "--reachable"]);
    // Newer than the graph: one more commit on every third branch, half of them
    // packed into a second pack, half left loose.
    for b in (0..140).step_by(3) {
        if b == 69 {
            env.git(&repo, &["repack", "-dq"]);
        }
        let branch = format!("topic-{b:03}");
        let tip = env.git(&repo, &["rev-parse", &branch]);
        let tree = env.git(&repo, &["rev-parse", &format!("{tip}^{{tree}}")]);
        let new = env.git(
            &repo,
            &["commit-tree", &tree, "-p", &tip, "-m", "after the graph"],
        );
        env.git(
            &repo,
            &["update-ref", &format!("refs/heads/{branch}"), &new],
        );
    }
    let all: Vec<String> = env
        .git(&repo, &["rev-list", "--all"])
        .lines()
        .map(str::to_owned)
        .collect();
    assert!(all.len() > 250);

    let packs = std::fs::read_dir(repo.join(".git/objects/pack"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "idx")
        })
        .count();
    assert_eq!(packs, 2, "two packs, and loose commits beside them");

    let shared = env.root().join("shared");
    env.git(
        env.root(),
        &[
            "clone",
            "-q",
            "--shared",
            "--no-checkout",
            repo.to_str().unwrap(),
            "shared",
        ],
    );
    env.git(
        &shared,
        &[
            "fetch",
            "-q",
            "--update-head-ok",
            "origin",
            "+refs/heads/*:refs/heads/*",
        ],
    );
    assert!(shared.join(".git/objects/info/alternates").is_file());

    // A session per branch, eight recorded commits each, drawn from the whole history.
    let mut rng = Lcg(7);
    let mut recorded: Vec<(String, Vec<String>)> = Vec::new();
    for b in 0..140 {
        let branch = format!("topic-{b:03}");
        let shas: Vec<String> = (0..8).map(|_| all[rng.below(all.len())].clone()).collect();
        let tasks: Vec<Value> = shas
            .iter()
            .enumerate()
            .map(|(i, sha)| serde_json::json!({"id": format!("T{i}"), "status": "done", "commit_sha": sha}))
            .collect();
        for root in [&repo, &shared] {
            let state = serde_json::json!({
                "version": 4, "generated_at": "2026-11-30T11:00:00Z", "status": "ALL_COMPLETE",
                "workspace": {"root": root.display().to_string(), "branch": branch},
                "active_tasks": tasks,
            });
            let dir = root
                .join(".claude/handover")
                .join(&branch)
                .join("20261130-110000");
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("project-state.json"), state.to_string()).unwrap();
        }
        recorded.push((branch, shas));
    }

    let run = env.handover(&repo, &["status", "--json"]);
    // A long walk reads the graph from a compact copy made after 16,384 commits; made
    // before the first commit, it must give the very same answers.
    let compact = env.handover_with(&repo, &["status", "--json"], |c| {
        c.env("GIT_HANDOVER_TEST_LONG_WALK", "0");
    });
    assert_eq!(run.stdout, compact.stdout);
    // Without the commit-graph every commit is read from the two packs (git's way, the
    // mapping of a pack made again every few hundred reads) and as loose objects.
    let objects = env.handover(&repo, &["-c", "core.commitGraph=false", "status", "--json"]);
    assert_eq!(run.stdout, objects.stdout);
    // A clone that reads every object from `repo`'s packs and loose objects, through
    // `objects/info/alternates`, with the same branches and sessions, and no graph.
    let borrowed = env.handover(
        &shared,
        &["-c", "core.commitGraph=false", "status", "--json"],
    );
    let commits_by_branch = |out: &str| -> Vec<(String, Value)> {
        let doc: Value = serde_json::from_str(out).unwrap();
        let mut all: Vec<(String, Value)> = doc["worktrees"][0]["handovers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                (
                    h["branch"].as_str().unwrap().to_owned(),
                    h["commits"].clone(),
                )
            })
            .collect();
        all.sort_by(|a, b| a.0.cmp(&b.0));
        all
    };
    assert_eq!(
        commits_by_branch(&run.stdout),
        commits_by_branch(&borrowed.stdout)
    );
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let mut judged = 0;
    let mut unreachable = 0;
    for h in doc["worktrees"][0]["handovers"].as_array().unwrap() {
        let branch = h["branch"].as_str().unwrap();
        let (_, shas) = recorded.iter().find(|(b, _)| b == branch).unwrap();
        for c in h["commits"].as_array().unwrap() {
            let i: usize = c["task"].as_str().unwrap()[1..].parse().unwrap();
            let sha = &shas[i];
            let git_says = env
                .command("git")
                .current_dir(&repo)
                .args(["merge-base", "--is-ancestor", sha, branch])
                .status()
                .unwrap()
                .success();
            let ours = c["state"].as_str().unwrap();
            assert_eq!(
                ours == "ok",
                git_says,
                "{branch} {sha}: status says {ours}, git says reachable={git_says}"
            );
            judged += 1;
            unreachable += usize::from(!git_says);
        }
    }
    assert_eq!(judged, 140 * 8, "every recorded commit judged");
    assert!(
        unreachable > 100 && unreachable < 1000,
        "both kinds: {unreachable}"
    );
}

/// The compact copy of the commit-graph a long walk reads is read from the graph files
/// directly: record for record what gix reads, for a single file and for a chain of
/// split graphs, octopus merges (extra edges) included. The same for the positions of
/// recorded shas, looked up all at once (the chain's files are sorted each on its own).
#[test]
fn the_compact_copy_of_the_graph_is_what_gix_reads_in_every_layout() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    let mut stream = String::new();
    for mark in 1..=60usize {
        let _ = write!(
            stream,
            "commit refs/heads/main\nmark :{mark}\ncommitter A <a@example.com> {} +0000\ndata 6\nc{mark:04}\n",
            1_700_000_000 + mark * 60
        );
        if mark > 1 {
            let _ = writeln!(stream, "from :{}", mark - 1);
        }
        // A merge every tenth commit, an octopus of four every twentieth.
        if mark % 10 == 0 {
            let _ = writeln!(stream, "merge :{}", mark - 5);
        }
        if mark % 20 == 0 {
            let _ = writeln!(stream, "merge :{}\nmerge :{}", mark - 7, mark - 9);
        }
        let _ = write!(stream, "M 644 inline f\ndata 5\n{mark:04}\n\n");
    }
    env.fast_import(&repo, &stream);
    let agrees = || {
        git_handover::api::discover(&repo)
            .unwrap()
            .compact_reading_agrees()
    };
    // The graph positions of recorded shas, looked up all at once in id order.
    let positions = || {
        git_handover::api::discover(&repo)
            .unwrap()
            .graph_positions_agree()
    };
    env.git(&repo, &["commit-graph", "write", "--reachable"]);
    assert_eq!(agrees(), Some(true), "a single file");
    assert_eq!(positions(), Some(true), "a single file");
    // A chain of two layers: the older half, then the rest on top.
    std::fs::remove_file(repo.join(".git/objects/info/commit-graph")).unwrap();
    let mut child = env
        .command("git")
        .current_dir(&repo)
        .args(["commit-graph", "write", "--split", "--stdin-commits"])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write as _;
        let older = env.git(&repo, &["rev-parse", "main~30"]);
        writeln!(child.stdin.take().unwrap(), "{}", older.trim()).unwrap();
    }
    assert!(child.wait().unwrap().success());
    env.git(
        &repo,
        &["commit-graph", "write", "--reachable", "--split=no-merge"],
    );
    let chain =
        std::fs::read_to_string(repo.join(".git/objects/info/commit-graphs/commit-graph-chain"))
            .unwrap();
    assert_eq!(chain.lines().count(), 2, "two layers: {chain}");
    assert_eq!(agrees(), Some(true), "a chain of two files");
    assert_eq!(positions(), Some(true), "a chain of two files");
}
