//! Verdicts that must be true in every repository shape (issue 16, items 1, 3 and 4).

use crate::common::TestEnv;
use serde_json::Value;

#[track_caller]
fn status_json(env: &TestEnv, repo: &std::path::Path) -> Value {
    let run = env.handover(repo, &["--json", "status", "--here"]);
    serde_json::from_str(&run.stdout).unwrap_or_else(|_| panic!("{}", run.snapshot()))
}

#[test]
fn a_detached_worktree_keeps_one_session_across_its_commits() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.git(&repo, &["checkout", "-q", "--detach"]);
    let run = env.handover(&repo, &["task", "add", "T1", "work", "--next", "commit it"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let run = env.handover(&repo, &["task", "add", "T2", "more"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    env.commit(&repo, "b.txt", "b\n", "second", "2026-11-30T11:00:00Z");
    let run = env.handover(&repo, &["task", "done", "T1"]);
    assert_eq!(
        run.code,
        0,
        "the same session after a commit: {}",
        run.snapshot()
    );
    let v = status_json(&env, &repo);
    let handovers = v["worktrees"][0]["handovers"].as_array().unwrap();
    assert_eq!(handovers.len(), 1, "one session: {v}");
    let h = &handovers[0];
    assert_eq!(h["tasks"]["done"], 1);
    assert_eq!(h["branch_matches"], true, "{h}");
    assert_ne!(h["freshness"], "stale", "written 0 s ago: {h}");
}

#[test]
fn rewritten_copies_of_its_own_commits_are_not_newer_work() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.git(&repo, &["checkout", "-q", "-b", "feature"]);
    let c1 = env.commit(
        &repo,
        "f1.txt",
        "1\n",
        "feature one",
        "2026-11-30T10:10:00Z",
    );
    let c2 = env.commit(
        &repo,
        "f2.txt",
        "2\n",
        "feature two",
        "2026-11-30T10:20:00Z",
    );
    let input = env.root().join("in.json");
    env.write(
        &input,
        &serde_json::json!({"active_tasks": [
            {"id": "T1", "status": "done", "commit_sha": c1},
            {"id": "T2", "status": "done", "commit_sha": c2},
            {"id": "T3", "status": "in_progress"}]})
        .to_string(),
    );
    let run = env.handover_with(&repo, &["save", "--from", input.to_str().unwrap()], |c| {
        c.env("GIT_HANDOVER_NOW", "2026-11-30T10:30:00Z");
    });
    assert_eq!(run.code, 0, "{}", run.snapshot());
    // main moves on; the feature is rebased onto it (its commits are rewritten, newer).
    env.git(&repo, &["checkout", "-q", "main"]);
    env.commit(&repo, "m.txt", "m\n", "main moves", "2026-11-30T10:05:00Z");
    env.git(&repo, &["checkout", "-q", "feature"]);
    env.git_at(&repo, "2026-11-30T11:00:00Z", &["rebase", "-q", "main"]);
    let v = status_json(&env, &repo);
    let h = &v["worktrees"][0]["handovers"][0];
    assert_eq!(h["newer_commits"]["count"], 0, "{h}");
    assert_ne!(h["freshness"], "superseded", "{h}");
}

#[test]
fn the_tools_own_consume_commit_is_not_newer_work() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.commit(
        &repo,
        "CONTINUE_HERE.md",
        "# Continue Here\n\n> Last updated: 2026-11-30T10:00:00Z | Branch: main\n\n## Objective\nship\n",
        "add the note",
        "2026-11-30T10:00:00Z",
    );
    let run = env.handover(&repo, &["task", "add", "T1", "x"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let run = env.handover(&repo, &["continue", "CONTINUE_HERE.md"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.contains("committed"), "{}", run.stdout);
    let check = env.handover(&repo, &["status", "--check"]);
    assert_eq!(check.code, 0, "{}", check.snapshot());
}

#[test]
fn a_branch_only_on_the_remote_is_checked_there_and_nothing_is_skipped_silently() {
    let env = TestEnv::new();
    let origin = env.root().join("origin.git");
    env.git(
        env.root(),
        &[
            "init",
            "-q",
            "--bare",
            "-b",
            "main",
            origin.to_str().unwrap(),
        ],
    );
    let a = env.repo();
    env.git(&a, &["remote", "add", "origin", origin.to_str().unwrap()]);
    env.git(&a, &["config", "handover.store", "both"]);
    env.git(&a, &["checkout", "-q", "-b", "feature"]);
    let c1 = env.commit(&a, "f.txt", "f\n", "feature work", "2026-11-30T10:10:00Z");
    let input = env.root().join("in.json");
    env.write(
        &input,
        &serde_json::json!({"active_tasks": [
            {"id": "T1", "status": "done", "commit_sha": c1},
            {"id": "T2", "status": "in_progress"}]})
        .to_string(),
    );
    let run = env.handover(&a, &["save", "--from", input.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    env.git(&a, &["push", "-q", "origin", "main", "feature"]);
    let run = env.handover(&a, &["sync"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    // A fresh clone: only main is local; feature is origin/feature.
    let b = env.root().join("b");
    env.git(
        env.root(),
        &["clone", "-q", origin.to_str().unwrap(), b.to_str().unwrap()],
    );
    let run = env.handover(&b, &["sync"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let run = env.handover(&b, &["--json", "status"]);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let stored = &v["stored"][0];
    assert_eq!(stored["checked_against"], "origin/feature", "{stored}");
    assert_eq!(stored["commits"][0]["state"], "ok", "{stored}");
    let human = env.handover(&b, &["status"]);
    assert!(
        human
            .stdout
            .contains("1 ok (checked against origin/feature)"),
        "{}",
        human.stdout
    );
    // With the branch gone from the remote too, the commits are unchecked, and said.
    env.git(&b, &["update-ref", "-d", "refs/remotes/origin/feature"]);
    let run = env.handover(&b, &["--json", "status", "--check"]);
    assert_eq!(run.code, 1, "needs attention: {}", run.snapshot());
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["stored"][0]["commits"][0]["state"], "unchecked");
}

#[test]
fn a_revision_given_as_commit_sha_is_stored_as_the_commit_it_names() {
    let env = TestEnv::new();
    let repo = env.repo();
    let head = env.git(&repo, &["rev-parse", "HEAD"]);
    let input = env.root().join("in.json");
    env.write(
        &input,
        &serde_json::json!({"active_tasks": [
            {"id": "T1", "status": "done", "commit_sha": "HEAD"},
            {"id": "T2", "status": "done", "commit_sha": &head[..7]},
            {"id": "T3", "status": "done", "commit_sha": "0123456789abcdef0123456789abcdef01234567"}]})
        .to_string(),
    );
    let run = env.handover(&repo, &["save", "--from", input.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let v = status_json(&env, &repo);
    let commits = &v["worktrees"][0]["handovers"][0]["commits"];
    assert_eq!(commits[0]["recorded"], head.as_str());
    assert_eq!(commits[0]["state"], "ok");
    assert_eq!(commits[1]["recorded"], head.as_str());
    assert_eq!(commits[2]["state"], "missing", "kept as written");
}

#[test]
fn a_notes_ref_at_a_tree_is_named_and_the_rest_is_listed() {
    let env = TestEnv::new();
    let repo = env.repo();
    let run = env.handover(&repo, &["task", "add", "T1", "work"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let tree = env.git(&repo, &["write-tree"]);
    env.git(&repo, &["update-ref", "refs/notes/handover", &tree]);
    let status = env.handover(&repo, &["status"]);
    assert_eq!(status.code, 0, "{}", status.snapshot());
    assert!(
        status.stdout.contains("[T1]"),
        "the session is listed: {}",
        status.stdout
    );
    assert!(
        status.stderr.contains("cannot read notes commit"),
        "{}",
        status.stderr
    );
}

#[test]
fn a_renamed_branch_is_pointed_out() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.git(&repo, &["checkout", "-q", "-b", "old-name"]);
    let c1 = env.commit(&repo, "f.txt", "f\n", "work", "2026-11-30T10:10:00Z");
    let input = env.root().join("in.json");
    env.write(
        &input,
        &serde_json::json!({"active_tasks": [
            {"id": "T1", "status": "done", "commit_sha": c1},
            {"id": "T2", "status": "in_progress"}]})
        .to_string(),
    );
    let run = env.handover(&repo, &["save", "--from", input.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    env.git(&repo, &["branch", "-m", "old-name", "new-name"]);
    let v = status_json(&env, &repo);
    assert_eq!(v["worktrees"][0]["handovers"][0]["renamed_to"], "new-name");
    let human = env.handover(&repo, &["status"]);
    assert!(
        human
            .stdout
            .contains("old-name is gone, and the commits it recorded are on new-name: renamed?"),
        "{}",
        human.stdout
    );
}

/// A READY session whose task T1 is done at the first of five commits, and T2 open.
#[track_caller]
fn session_on_history(env: &TestEnv) -> std::path::PathBuf {
    let repo = env.repo();
    let first = env.git(&repo, &["rev-parse", "HEAD"]);
    for i in 0..4 {
        env.commit(
            &repo,
            &format!("f{i}"),
            "x\n",
            &format!("c{i}"),
            "2026-11-30T10:30:00Z",
        );
    }
    for args in [
        &["task", "add", "T1", "done one"][..],
        &["task", "add", "T2", "open one"][..],
        &["task", "done", "T1", "--commit", &first][..],
    ] {
        let run = env.handover(&repo, args);
        assert_eq!(run.code, 0, "{}", run.snapshot());
    }
    repo
}

#[test]
fn a_commit_graph_with_bad_parent_positions_is_set_aside_not_believed() {
    let env = TestEnv::new();
    let repo = session_on_history(&env);
    env.git(&repo, &["commit-graph", "write", "--reachable"]);
    let v = status_json(&env, &repo);
    assert_eq!(
        v["worktrees"][0]["handovers"][0]["commits"][0]["state"],
        "ok"
    );
    // Every commit of the graph loses its parents (GRAPH_PARENT_NONE), checksum as it
    // was: read as is, the recorded commit would be "unreachable".
    let file = repo.join(".git/objects/info/commit-graph");
    let mut bytes = std::fs::read(&file).unwrap();
    let chunks = usize::from(bytes[6]);
    let mut cdat = None;
    for c in 0..chunks {
        let at = 8 + c * 12;
        if &bytes[at..at + 4] == b"CDAT" {
            let offset = u64::from_be_bytes(bytes[at + 4..at + 12].try_into().unwrap());
            cdat = Some(usize::try_from(offset).unwrap());
        }
    }
    let cdat = cdat.expect("a CDAT chunk");
    for i in 0..5 {
        let parent = cdat + i * 36 + 20;
        bytes[parent..parent + 4].copy_from_slice(&0x7000_0000u32.to_be_bytes());
    }
    let mut perms = std::fs::metadata(&file).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o644);
    std::fs::set_permissions(&file, perms).unwrap();
    std::fs::write(&file, &bytes).unwrap();

    let v = status_json(&env, &repo);
    let h = &v["worktrees"][0]["handovers"][0];
    assert_eq!(
        h["commits"][0]["state"], "ok",
        "checked from the objects: {h}"
    );
    let warnings = h["warnings"].to_string();
    assert!(warnings.contains("commit-graph is damaged"), "{warnings}");

    // Read ahead beside many state files, the graph's records are the walk's from its
    // first step (GIT_HANDOVER_TEST_LONG_WALK=0: whatever the graph's size): the same
    // damaged records, the same verdict.
    let file = std::path::PathBuf::from(
        h["path"]
            .as_str()
            .unwrap()
            .replace("[ROOT]", &env.root().display().to_string()),
    );
    let text = std::fs::read_to_string(&file).unwrap();
    let sessions = file.parent().unwrap().parent().unwrap();
    for i in 0..70 {
        env.write(
            &sessions
                .join(format!("20261130-13{:02}{:02}", i / 60, i % 60))
                .join("project-state.json"),
            &text,
        );
    }
    let _ = std::fs::remove_dir_all(repo.join(".git/git-handover"));
    let run = env.handover_with(&repo, &["status", "--json"], |c| {
        c.env("GIT_HANDOVER_TEST_LONG_WALK", "0");
    });
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let all = v["worktrees"][0]["handovers"].as_array().unwrap();
    assert_eq!(all.len(), 71, "{}", run.stdout);
    for h in all {
        assert_eq!(h["commits"][0]["state"], "ok", "{h}");
        assert!(
            h["warnings"]
                .to_string()
                .contains("commit-graph is damaged"),
            "{h}"
        );
    }
}

#[test]
fn a_damaged_pack_index_is_said_per_handover_and_the_rest_is_listed() {
    let env = TestEnv::new();
    let repo = session_on_history(&env);
    env.git(&repo, &["gc", "-q"]);
    // gc writes a commit-graph, from which every answer here would come without a
    // look at the pack: removed, so that history is read from the damaged pack.
    let _ = std::fs::remove_file(repo.join(".git/objects/info/commit-graph"));
    let pack = repo.join(".git/objects/pack");
    let idx = std::fs::read_dir(&pack)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "idx"))
        .unwrap();
    let mut bytes = std::fs::read(&idx).unwrap();
    // Scramble the whole sorted id table (after the 8-byte header and 256 fan-out
    // entries, the last of which counts the objects): no object can be found. (A few
    // scrambled entries hide only some objects, which a walk may never need.)
    let count = u32::from_be_bytes(bytes[8 + 255 * 4..8 + 256 * 4].try_into().unwrap()) as usize;
    for b in &mut bytes[8 + 256 * 4..8 + 256 * 4 + 20 * count] {
        *b ^= 0xff;
    }
    let mut perms = std::fs::metadata(&idx).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o644);
    std::fs::set_permissions(&idx, perms).unwrap();
    std::fs::write(&idx, &bytes).unwrap();
    let run = env.handover(&repo, &["--json", "status"]);
    assert_eq!(run.code, 0, "status lists what it can: {}", run.snapshot());
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let h = &v["worktrees"][0]["handovers"][0];
    assert_eq!(h["next_task"]["id"], "T2", "{h}");
    assert_ne!(h["freshness"], "fresh", "nothing is called fresh: {h}");
    assert_eq!(h["needs_attention"], true);
    let check = env.handover(&repo, &["status", "--check"]);
    assert_eq!(check.code, 1, "{}", check.snapshot());
    assert!(
        check.stderr.contains("history could not be read")
            || check.stdout.contains("history could not be read"),
        "{}",
        check.snapshot()
    );
}

#[test]
fn a_branch_at_the_zero_id_does_not_stop_status() {
    let env = TestEnv::new();
    let repo = session_on_history(&env);
    std::fs::write(
        repo.join(".git/refs/heads/zero"),
        "0000000000000000000000000000000000000000\n",
    )
    .unwrap();
    let run = env.handover(&repo, &["--json", "status"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["worktrees"][0]["handovers"][0]["next_task"]["id"], "T2");
}

/// A graph verified once (before a negative verdict) is not verified again until it
/// changes, whichever worktree asks: gix spells the objects directory differently from
/// a linked worktree, and a stamp that named files by that spelling had runs in two
/// worktrees hash the whole graph by turns.
#[test]
fn a_verified_graph_is_not_verified_again_from_another_worktree() {
    let env = TestEnv::new();
    let repo = session_on_history(&env);
    // A recorded commit the branch does not reach, in the graph: a negative verdict.
    env.git(&repo, &["checkout", "-q", "-b", "side"]);
    let lost = env.commit(&repo, "s", "s\n", "side", "2026-11-30T10:40:00Z");
    env.git(&repo, &["checkout", "-q", "main"]);
    env.git(&repo, &["commit-graph", "write", "--reachable"]);
    env.git(&repo, &["branch", "-D", "side"]);
    let run = env.handover(&repo, &["task", "done", "T2", "--commit", &lost]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let other = env.worktree(&repo, "other", "other");
    let stamp = repo.join(".git/git-handover/graph-verified");
    let v = status_json(&env, &repo);
    assert!(v.to_string().contains("unreachable"), "{v}");
    let first = std::fs::read(&stamp).expect("the graph was verified");
    let written = std::fs::metadata(&stamp).unwrap().modified().unwrap();
    std::fs::remove_file(&stamp).unwrap();
    std::fs::write(&stamp, &first).unwrap();
    let kept = std::fs::metadata(&stamp).unwrap().modified().unwrap();
    assert!(kept >= written);
    for dir in [&other, &repo, &other] {
        let run = env.handover(dir, &["--json", "status"]);
        assert!(run.stdout.contains("unreachable"), "{}", run.snapshot());
        assert_eq!(
            std::fs::read(&stamp).unwrap(),
            first,
            "from {}",
            dir.display()
        );
        assert_eq!(
            std::fs::metadata(&stamp).unwrap().modified().unwrap(),
            kept,
            "not written again from {}",
            dir.display()
        );
    }
}
