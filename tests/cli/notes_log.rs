//! The notes store as a log that orders itself (issue 15, SPEC section 8): records
//! appended under the session's lock, ordered by `seq` and not by time or line order,
//! grouped by `session_id`, honest when the store cannot be updated, and a `sync` that
//! checks what it fetched before moving a ref. Each test attacks one of these.

use std::path::{Path, PathBuf};

use crate::common::TestEnv;
use serde_json::{Value, json};

const NOTES: &str = "refs/notes/handover";

fn store_repo(env: &TestEnv, name: &str) -> PathBuf {
    let repo = env.init(name);
    env.commit(&repo, "a", "a\n", "first", "2026-11-30T10:00:00Z");
    env.git(&repo, &["config", "handover.store", "notes"]);
    repo
}

#[track_caller]
fn ok(env: &TestEnv, dir: &Path, args: &[&str]) {
    let run = env.handover(dir, args);
    assert_eq!(run.code, 0, "{args:?}: {}", run.snapshot());
}

fn state_of(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("project-state.json")).unwrap()).unwrap()
}

fn session_dir(repo: &Path) -> PathBuf {
    let main = repo.join(".claude/handover/main");
    let entry = std::fs::read_dir(&main).unwrap().next().unwrap().unwrap();
    entry.path()
}

/// Every record of the store as git shows it, one JSON value per line.
fn records(env: &TestEnv, repo: &Path) -> Vec<Value> {
    env.handover_notes(repo)
        .iter()
        .flat_map(|text| text.lines())
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .collect()
}

/// The newest record of each session, as the tool's reader picks it (by id and seq).
#[track_caller]
fn newest_hashes(env: &TestEnv, repo: &Path) -> Vec<(String, String)> {
    let texts = env.handover_notes(repo);
    let notes: Vec<&[u8]> = texts.iter().map(String::as_bytes).collect();
    let (found, skipped) = git_handover::api::notes::newest_sessions(&notes);
    assert!(skipped.is_empty(), "{skipped:?}");
    found
        .into_iter()
        .map(|n| {
            let state = n.record.state.unwrap().doc();
            (
                n.record.session_id.unwrap_or_default(),
                state["session_hash"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_record_is_appended_before_the_session_lock_is_released() {
    // Writer A holds its lock between writing the files and appending the record (a
    // forced pause there). Writer B, started meanwhile, must wait: when both are done
    // the store's newest record is the file, and the two records are seq 2 and 3.
    let env = TestEnv::new();
    let repo = store_repo(&env, "repo");
    ok(&env, &repo, &["task", "add", "T0", "first"]);
    // A inside its pause, its record not yet appended; its files are written on a
    // thread of their own meanwhile (the record takes its place only after them), so
    // they are waited for here, A still paused and holding its lock.
    let a = env.spawn_at_pause(&repo, &["task", "add", "TA", "from a"], "record:60000");
    let dir = session_dir(&repo);
    let written = || {
        std::fs::read_to_string(dir.join("project-state.json")).is_ok_and(|s| s.contains("\"TA\""))
    };
    let since = std::time::Instant::now();
    while !written() && since.elapsed() < std::time::Duration::from_secs(30) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(written(), "A wrote its file before its record");
    let b_log = env.event_log("b");
    let mut b = env.spawn_logged(&repo, &["task", "add", "TB", "from b"], &b_log);
    // A is let go only once B is seen waiting for its lock.
    env.until_logged(&b_log, "lock-wait", &mut b);
    assert!(a.wait_with_output().unwrap().status.success());
    let (code, out, err) = crate::common::finish(b);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        b_log.count("lock-wait") > 0,
        "B waited for A's lock, held until A's record was appended"
    );
    let file = state_of(&dir);
    let all = records(&env, &repo);
    let seqs: Vec<u64> = all.iter().map(|r| r["seq"].as_u64().unwrap()).collect();
    assert_eq!(
        seqs,
        [1, 2, 3],
        "one record a write, in the order of the writes"
    );
    let last = all.last().unwrap();
    assert_eq!(last["state"], file, "the store's newest record is the file");
    assert_eq!(
        last["parent"], all[1]["state"]["session_hash"],
        "each record names the state it replaced"
    );
    assert_eq!(
        newest_hashes(&env, &repo),
        [(
            file["session_id"].as_str().unwrap().to_owned(),
            file["session_hash"].as_str().unwrap().to_owned()
        )]
    );
}

#[test]
fn records_of_one_second_are_ordered_by_seq_even_after_a_sorting_merge() {
    // task add, then task done, in the same second: the records differ only in seq.
    // Lines sorted as `cat_sort_uniq` sorts them put the older one last, and the older
    // one (READY with an open task) must not win: the session stays finished.
    let env = TestEnv::new();
    let repo = store_repo(&env, "repo");
    ok(&env, &repo, &["task", "add", "T1", "only task"]);
    ok(&env, &repo, &["task", "done", "T1"]);
    let head = env.git(&repo, &["rev-parse", "HEAD"]);
    let note = env.git(&repo, &["notes", "--ref=handover", "show", &head]);
    let mut lines: Vec<&str> = note.lines().collect();
    assert_eq!(lines.len(), 2);
    lines.sort_unstable();
    lines.reverse();
    // Whichever order the lines end in, the newest is the seq-2 (finished) record.
    for order in [lines.clone(), {
        let mut l = lines.clone();
        l.reverse();
        l
    }] {
        let text = order.join("\n") + "\n";
        let (found, _) = git_handover::api::notes::newest_sessions(&[text.as_bytes()]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].record.seq, Some(2));
        assert_eq!(
            found[0].record.state.as_ref().unwrap().doc()["status"],
            "ALL_COMPLETE"
        );
    }
    // And through the tool: the session's directory is gone (cleaned), the store has
    // it finished, so nothing comes back as READY from the store.
    std::fs::remove_dir_all(repo.join(".claude/handover")).unwrap();
    let status = env.json(&repo, &["--json", "status"]);
    assert_eq!(status["stored"], json!([]), "{status}");
}

#[test]
fn two_clones_that_make_the_same_key_keep_both_sessions() {
    // Two machines create the branch session in the same second: the same key, two
    // session ids. After sync neither is shadowed: the other one is listed under a
    // free key, restored there, and said to have been saved under the taken key.
    let env = TestEnv::new();
    store_repo(&env, "seed");
    let remote = env.root().join("remote.git");
    env.git(
        env.root(),
        &["clone", "-q", "--bare", "seed", remote.to_str().unwrap()],
    );
    let mut clones = Vec::new();
    for name in ["a", "b"] {
        env.git(env.root(), &["clone", "-q", remote.to_str().unwrap(), name]);
        let dir = env.root().join(name);
        env.git(&dir, &["config", "handover.store", "notes"]);
        ok(&env, &dir, &["task", "add", &format!("{name}-1"), "work"]);
        clones.push(dir);
    }
    let (a, b) = (&clones[0], &clones[1]);
    let key_a = session_dir(a).file_name().unwrap().to_owned();
    assert_eq!(key_a, session_dir(b).file_name().unwrap(), "the same key");
    for dir in [a, b, a] {
        ok(&env, dir, &["sync"]);
    }
    let status = env.json(b, &["--json", "status"]);
    let stored = status["stored"].as_array().unwrap();
    assert_eq!(
        stored.len(),
        1,
        "a's session is not shadowed by b's: {status}"
    );
    let listed = stored[0]["key"].as_str().unwrap().to_owned();
    let own = format!("main/{}", key_a.to_str().unwrap());
    assert!(listed.starts_with(&format!("{own}-")), "{listed}");
    let run = env.handover(b, &["continue", &listed, "--successor"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        run.stdout.contains(&format!("saved as {own}")),
        "{}",
        run.snapshot()
    );
    let restored = state_of(&b.join(".claude/handover").join(&listed));
    assert_eq!(restored["active_tasks"][0]["id"], "a-1");
    let own_state = state_of(&b.join(".claude/handover").join(&own));
    assert_eq!(
        own_state["active_tasks"][0]["id"], "b-1",
        "b's own is untouched"
    );
    let status = env.json(b, &["--json", "status"]);
    assert_eq!(
        status["stored"],
        json!([]),
        "restored, so no longer store-only"
    );
}

#[test]
fn a_store_that_cannot_be_updated_after_the_files_were_written_exits_5_and_sync_record_repairs() {
    let env = TestEnv::new();
    let repo = store_repo(&env, "repo");
    env.git(&repo, &["config", "handover.lockTimeout", "300ms"]);
    ok(&env, &repo, &["task", "add", "T1", "first"]);
    // A git process died holding the notes ref's lock.
    let lock = repo.join(".git/refs/notes/handover.lock");
    std::fs::write(&lock, "").unwrap();
    let run = env.handover(&repo, &["task", "add", "T2", "second"]);
    assert_eq!(run.code, 5, "{}", run.snapshot());
    insta::assert_snapshot!("store_not_updated", run.snapshot());
    let json = env.handover(&repo, &["--json", "task", "add", "T3", "third"]);
    assert_eq!(json.code, 5);
    let doc: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(doc["error"]["kind"], "not_recorded");
    // The files are the truth: both tasks are there.
    let file = state_of(&session_dir(&repo));
    let ids: Vec<&str> = file["active_tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["T1", "T2", "T3"]);
    assert_eq!(records(&env, &repo).len(), 1);

    std::fs::remove_file(&lock).unwrap();
    let run = env.handover(&repo, &["sync", "--record"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.contains("1 recorded"), "{}", run.snapshot());
    let all = records(&env, &repo);
    assert_eq!(all.len(), 2);
    assert_eq!(
        all[1]["state"], file,
        "the store's newest is the file again"
    );
    // Nothing more to record the second time.
    let again = env.handover(&repo, &["sync", "--record"]);
    assert!(
        again.stdout.contains("0 recorded, 1 already"),
        "{}",
        again.snapshot()
    );
}

#[test]
fn sync_refuses_a_remote_notes_ref_that_is_not_a_notes_store_and_changes_nothing() {
    let env = TestEnv::new();
    let seed = store_repo(&env, "seed");
    let remote = env.root().join("remote.git");
    env.git(
        env.root(),
        &["clone", "-q", "--bare", "seed", remote.to_str().unwrap()],
    );
    env.git(env.root(), &["clone", "-q", remote.to_str().unwrap(), "a"]);
    let a = env.root().join("a");
    env.git(&a, &["config", "handover.store", "notes"]);
    ok(&env, &a, &["task", "add", "T1", "work"]);
    let before = env.git(&a, &["rev-parse", NOTES]);
    let refs_before = env.git(&a, &["for-each-ref"]);

    // The remote's notes ref points at a tree, then at a commit whose note opens a JSON
    // object that is not one (a line that opens none is another tool's, and carried).
    let tree = env.git(&remote, &["rev-parse", "HEAD^{tree}"]);
    env.git(&remote, &["update-ref", NOTES, &tree]);
    let run = env.handover(&a, &["sync"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(
        run.stderr.contains("points to a tree"),
        "{}",
        run.snapshot()
    );
    let junk = env.root().join("junk");
    env.git(env.root(), &["init", "-q", junk.to_str().unwrap()]);
    let head = env.git(&seed, &["rev-parse", "HEAD"]);
    env.write(&junk.join(&head), "{not json\n");
    env.git(&junk, &["add", "."]);
    env.git_at(
        &junk,
        "2026-11-30T10:00:00Z",
        &["commit", "-q", "-m", "junk"],
    );
    env.git(
        &junk,
        &[
            "push",
            "-q",
            remote.to_str().unwrap(),
            &format!("HEAD:{NOTES}"),
            "--force",
        ],
    );
    let run = env.handover(&a, &["sync"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(
        run.stderr.contains("is not a JSON object"),
        "{}",
        run.snapshot()
    );
    assert_eq!(env.git(&a, &["rev-parse", NOTES]), before);
    assert_eq!(
        env.git(&a, &["for-each-ref"]),
        refs_before,
        "no ref moved, no tracking ref made, no scratch ref left"
    );
    ok(&env, &a, &["status"]);
}

#[test]
fn a_stored_key_deeper_than_the_scan_is_restored_where_the_scan_sees_it() {
    let env = TestEnv::new();
    let repo = store_repo(&env, "repo");
    let head = env.git(&repo, &["rev-parse", "HEAD"]);
    let deep = "t/a/b/c/d/e/f/g/h/i";
    let record = json!({
        "key": deep, "session_id": "deep-1", "seq": 1, "parent": null,
        "worktree": "/elsewhere", "branch": null, "saved_at": "2026-11-30T11:00:00Z",
        "kind": "session",
        "state": {"version": 4, "generated_at": "2026-11-30T11:00:00Z", "status": "READY", "active_tasks": [
            {"id": "D1", "description": "deep work", "status": "in_progress"}]}
    });
    env.git(
        &repo,
        &[
            "notes",
            "--ref=handover",
            "add",
            "-m",
            &record.to_string(),
            &head,
        ],
    );
    let status = env.json(&repo, &["--json", "status"]);
    let key = status["stored"][0]["key"].as_str().unwrap().to_owned();
    assert_eq!(key, "t/a/b/c/d/e/f/g-h-i");
    let run = env.handover(&repo, &["continue", &key, "--successor"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let status = env.json(&repo, &["--json", "status"]);
    assert_eq!(
        status["stored"],
        json!([]),
        "once restored it is on disk: {status}"
    );
    assert_eq!(status["worktrees"][0]["handovers"][0]["key"], key);
}
