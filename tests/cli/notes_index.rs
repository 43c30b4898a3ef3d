//! The notes index (issue 36): whatever happened to it or to the store — appends,
//! rewritten and removed notes, a rewritten ref, a forged, torn, foreign or deleted
//! index, two readers updating it at once, one killed mid-update, a record arriving by
//! sync for a session it never saw — every reader answers what the store itself says
//! (the same command with the index turned off, `GIT_HANDOVER_TEST_NO_INDEX`).

use std::path::{Path, PathBuf};

use crate::common::{TestEnv, finish};
use crate::notes_store::{NOTES, enable_store};
use serde_json::json;

pub(crate) const HEADS: &str = ".git/git-handover/notes-index/refs%notes%handover.heads";
pub(crate) const MEMBERS: &str = ".git/git-handover/notes-index/refs%notes%handover.members";
const TIMES: &str = ".git/git-handover/notes-index/refs%notes%handover.times";
const OPEN: &str = ".git/git-handover/notes-index/refs%notes%handover.open";

/// One session record's line: state `hash` written from `parent` as write `seq`.
pub(crate) fn record(sid: &str, seq: u64, parent: Option<&str>, hash: &str, at: &str) -> String {
    let state = json!({"version": 3, "session_id": sid, "status": "READY",
        "active_tasks": [{"id": format!("T{seq}"), "description": "work", "status": "in_progress"}],
        "session_hash": hash});
    let mut rec = json!({"key": format!("main/{sid}"), "session_id": sid, "seq": seq,
        "parent": parent, "worktree": "/gone", "branch": "main", "saved_at": at,
        "kind": "session"});
    rec["state"] = state;
    rec.to_string()
}

pub(crate) fn legacy(key: &str, at: &str, task: &str) -> String {
    json!({"key": key, "worktree": "/gone", "branch": "main", "saved_at": at, "kind": "session",
        "state": {"version": 3, "status": "READY",
        "active_tasks": [{"id": task, "description": "old", "status": "in_progress"}]}})
    .to_string()
}

/// A repository with `n` commits (named c0…), the store enabled.
pub(crate) fn repo_with(env: &TestEnv, n: usize) -> (PathBuf, Vec<String>) {
    let repo = env.repo();
    enable_store(env, &repo);
    let mut commits = vec![env.git(&repo, &["rev-parse", "HEAD"])];
    for i in 1..n {
        env.commit(
            &repo,
            "f",
            &format!("{i}\n"),
            &format!("c{i}"),
            "2026-11-30T10:00:00Z",
        );
        commits.push(env.git(&repo, &["rev-parse", "HEAD"]));
    }
    (repo, commits)
}

/// Append `lines` to the note of `commit`, as git does.
pub(crate) fn append(env: &TestEnv, repo: &Path, commit: &str, lines: &[String]) {
    for l in lines {
        env.git(
            repo,
            &[
                "notes",
                "--ref=handover",
                "append",
                "--no-separator",
                "-m",
                l,
                commit,
            ],
        );
    }
}

/// What the readers answer: `status --json` (every session's newest record, the
/// diverged sides, the unreadable lines) and its warnings.
fn answer(env: &TestEnv, repo: &Path, index: bool) -> String {
    let run = env.handover_with(repo, &["--json", "status"], |c| {
        if !index {
            c.env("GIT_HANDOVER_TEST_NO_INDEX", "1");
        }
    });
    format!("{}\n{}\n{}", run.code, run.stdout, run.stderr)
}

#[track_caller]
pub(crate) fn same(env: &TestEnv, repo: &Path, why: &str) -> String {
    let truth = answer(env, repo, false);
    assert_eq!(answer(env, repo, true), truth, "{why}");
    truth
}

/// A store of three sessions, one diverged, one written before ids, a line that is no
/// record, over four commits.
pub(crate) fn populated(env: &TestEnv) -> (PathBuf, Vec<String>) {
    populated_with(env, true)
}

/// [`populated`], with the line that is no record or without it (`sync` refuses a
/// store that has one).
pub(crate) fn populated_with(env: &TestEnv, junk: bool) -> (PathBuf, Vec<String>) {
    let (repo, c) = repo_with(env, 4);
    append(
        env,
        &repo,
        &c[0],
        &[
            record("s1", 1, None, "h11", "2026-11-30T10:00:00Z"),
            record("s2", 1, None, "h21", "2026-11-30T10:01:00Z"),
            legacy("old/a", "2026-11-30T09:00:00Z", "L1"),
        ],
    );
    append(
        env,
        &repo,
        &c[1],
        &[record("s1", 2, Some("h11"), "h12", "2026-11-30T11:00:00Z")],
    );
    if junk {
        append(env, &repo, &c[1], &["{not a record".to_owned()]);
    }
    append(
        env,
        &repo,
        &c[2],
        &[
            record("s2", 2, Some("h21"), "h22a", "2026-11-30T11:00:00Z"),
            record("s2", 2, Some("h21"), "h22b", "2026-11-30T11:05:00Z"),
        ],
    );
    (repo, c)
}

#[test]
fn the_index_answers_as_the_store_through_appends_rewrites_and_removals() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    let first = same(&env, &repo, "built afresh");
    assert!(repo.join(HEADS).is_file() && repo.join(MEMBERS).is_file());
    assert!(
        first.contains("h22a") || first.contains("diverged"),
        "{first}"
    );
    same(&env, &repo, "read back unchanged");

    // An append: only the appended line's session is worked out again.
    append(
        &env,
        &repo,
        &c[1],
        &[record("s1", 3, Some("h12"), "h13", "2026-11-30T12:00:00Z")],
    );
    same(&env, &repo, "after an append");
    // A session never seen, on a commit that had no note.
    append(
        &env,
        &repo,
        &c[3],
        &[record("s3", 1, None, "h31", "2026-11-30T12:30:00Z")],
    );
    same(&env, &repo, "a new session");
    // A note rewritten by hand: s1's newest record is gone, its older one wins again.
    let note1 = format!(
        "{}\n{{not a record\n",
        record("s1", 2, Some("h11"), "h12", "2026-11-30T11:00:00Z")
    );
    env.git(
        &repo,
        &[
            "notes",
            "--ref=handover",
            "add",
            "-f",
            "-m",
            note1.trim_end(),
            &c[1],
        ],
    );
    same(&env, &repo, "a note rewritten");
    // A note removed: the divergence goes with it.
    env.git(&repo, &["notes", "--ref=handover", "remove", &c[2]]);
    let after = same(&env, &repo, "a note removed");
    assert!(!after.contains("h22b"), "{after}");
    // The ref rewritten to an unrelated history (not a descendant of what was indexed).
    let old = env.git(&repo, &["rev-parse", &format!("{NOTES}~3")]);
    env.git(&repo, &["update-ref", NOTES, &old]);
    same(&env, &repo, "the ref rewritten");
    // The ref deleted: nothing in the store.
    env.git(&repo, &["update-ref", "-d", NOTES]);
    same(&env, &repo, "the ref deleted");
}

#[test]
fn a_forged_torn_foreign_or_deleted_index_is_not_believed() {
    let env = TestEnv::new();
    let (repo, _) = populated(&env);
    let truth = same(&env, &repo, "built afresh");
    let heads = repo.join(HEADS);
    let good = std::fs::read(&heads).unwrap();

    // Torn: cut in half (a write that never finished).
    std::fs::write(&heads, &good[..good.len() / 2]).unwrap();
    assert_eq!(answer(&env, &repo, true), truth, "torn");
    // Forged body, old checksum.
    let text = String::from_utf8(good.clone()).unwrap();
    std::fs::write(&heads, text.replace("\"line\":1", "\"line\":2")).unwrap();
    assert_eq!(
        answer(&env, &repo, true),
        truth,
        "forged under the old checksum"
    );
    // Forged with a checksum that holds: s1's newest pointed at a line its note lacks.
    let (header, body) = text.split_at(nth_line_end(&text, 4));
    let s1_at = body.find("\"i:s1\"").unwrap();
    let mut forged = body.to_owned();
    let blob_at = s1_at + body[s1_at..].find("\"line\":").unwrap();
    forged.replace_range(blob_at..blob_at + 8, "\"line\":9");
    let sum = sha256_hex(forged.as_bytes());
    let header: Vec<&str> = header.lines().collect();
    let resealed = format!(
        "{}\n{}\n{}\n{sum}\n{forged}",
        header[0], header[1], header[2]
    );
    std::fs::write(&heads, resealed).unwrap();
    assert_eq!(
        answer(&env, &repo, true),
        truth,
        "forged with a good checksum"
    );
    // Another ref's index under this one's name.
    std::fs::write(
        &heads,
        text.replacen("refs/notes/handover", "refs/notes/other", 1),
    )
    .unwrap();
    assert_eq!(answer(&env, &repo, true), truth, "another ref's index");
    // A link where the file should be: not followed, and the answer is the store's.
    std::fs::remove_file(&heads).unwrap();
    std::os::unix::fs::symlink(env.root().join("elsewhere"), &heads).unwrap();
    assert_eq!(answer(&env, &repo, true), truth, "a link");
    assert!(
        !env.root().join("elsewhere").exists(),
        "nothing written through the link"
    );
    std::fs::remove_file(&heads).unwrap();
    // Deleted, every file.
    let _ = std::fs::remove_file(repo.join(MEMBERS));
    let _ = std::fs::remove_file(repo.join(TIMES));
    let _ = std::fs::remove_file(repo.join(OPEN));
    assert_eq!(answer(&env, &repo, true), truth, "deleted");
    assert!(heads.is_file(), "built again");
}

pub(crate) fn nth_line_end(text: &str, n: usize) -> usize {
    text.match_indices('\n').nth(n - 1).unwrap().0 + 1
}

pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    use std::fmt::Write as _;
    sha2::Sha256::digest(bytes)
        .iter()
        .fold(String::new(), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

#[test]
fn a_reader_killed_between_the_two_files_leaves_an_index_that_is_not_believed() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    same(&env, &repo, "built afresh");
    append(
        &env,
        &repo,
        &c[3],
        &[record("s4", 1, None, "h41", "2026-11-30T13:00:00Z")],
    );
    // Killed after the members of the new commit are written, before the heads.
    let mut child = env.spawn_at_pause(&repo, &["status"], "notes-index-write:20000");
    child.kill().unwrap();
    let _ = child.wait();
    same(&env, &repo, "after the kill");
}

#[test]
fn two_readers_updating_at_once_leave_an_index_that_answers_as_the_store() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    same(&env, &repo, "built afresh");
    append(
        &env,
        &repo,
        &c[3],
        &[record("s4", 1, None, "h41", "2026-11-30T13:00:00Z")],
    );
    // The first reader has worked out the store as it is and waits to write that.
    let slow = env.spawn_at_pause(&repo, &["status"], "notes-index-write:60000");
    // Meanwhile the store moves on and a second reader indexes the newer store.
    append(
        &env,
        &repo,
        &c[1],
        &[record("s1", 3, Some("h12"), "h13", "2026-11-30T12:00:00Z")],
    );
    let fast = env.handover(&repo, &["status"]);
    assert_eq!(fast.code, 0, "{}", fast.snapshot());
    // The first then writes its older index over the newer one: the last rename wins,
    // and the next reader brings it up to date.
    let (code, _, err) = finish(slow);
    assert_eq!(code, 0, "{err}");
    same(&env, &repo, "after both wrote");
}

#[test]
fn a_record_arriving_by_sync_for_a_session_never_seen_is_read() {
    let env = TestEnv::new();
    let (repo, c) = populated_with(&env, false);
    same(&env, &repo, "built afresh");
    let remote = env.root().join("remote.git");
    env.git(
        env.root(),
        &[
            "clone",
            "-q",
            "--bare",
            repo.to_str().unwrap(),
            remote.to_str().unwrap(),
        ],
    );
    env.git(
        &repo,
        &["remote", "add", "origin", remote.to_str().unwrap()],
    );
    env.git(&repo, &["push", "-q", "origin", NOTES]);
    env.git(
        env.root(),
        &["clone", "-q", remote.to_str().unwrap(), "other"],
    );
    let other = env.root().join("other");
    enable_store(&env, &other);
    env.git(
        &other,
        &["fetch", "-q", "origin", &format!("{NOTES}:{NOTES}")],
    );
    // The other clone writes a new session and a line on a note both have.
    append(
        &env,
        &other,
        &c[0],
        &[record("s9", 1, None, "h91", "2026-11-30T14:00:00Z")],
    );
    env.git(&other, &["push", "-q", "origin", NOTES]);
    // Here, a record of our own meanwhile: the sync merges record-wise.
    append(
        &env,
        &repo,
        &c[2],
        &[record("s2", 3, Some("h22b"), "h23", "2026-11-30T14:10:00Z")],
    );
    let sync = env.handover(&repo, &["sync"]);
    assert_eq!(sync.code, 0, "{}", sync.snapshot());
    let after = same(&env, &repo, "after the sync");
    assert!(after.contains("s9"), "{after}");
}

#[test]
fn an_append_is_indexed_from_the_changed_note_and_a_rewritten_ref_afresh() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    let log = env.event_log("index");
    let status = || {
        let run = env.handover_with(&repo, &["status"], |cmd| {
            cmd.env("GIT_HANDOVER_TEST_LOG", log.path());
        });
        assert_eq!(run.code, 0, "{}", run.snapshot());
    };
    status();
    assert_eq!(log.count("notes-index-built"), 1);
    status();
    assert_eq!(log.count("notes-index-built"), 1, "read back, not built");
    append(
        &env,
        &repo,
        &c[1],
        &[record("s1", 3, Some("h12"), "h13", "2026-11-30T12:00:00Z")],
    );
    status();
    assert_eq!(log.count("notes-index-built"), 1, "brought up to date");
    assert_eq!(log.count("notes-index-updated"), 1);
    same(&env, &repo, "after the update");
    let old = env.git(&repo, &["rev-parse", &format!("{NOTES}~2")]);
    env.git(&repo, &["update-ref", NOTES, &old]);
    status();
    assert_eq!(
        log.count("notes-index-built"),
        2,
        "a rewritten ref is indexed afresh"
    );
    same(&env, &repo, "after the rewrite");
}

#[test]
fn more_changed_notes_than_an_update_takes_are_indexed_afresh_and_answer_as_the_store() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    let log = env.event_log("index");
    let status = || {
        let run = env.handover_with(&repo, &["status"], |cmd| {
            cmd.env("GIT_HANDOVER_TEST_LOG", log.path());
            cmd.env("GIT_HANDOVER_TEST_MOST_CHANGED", "1");
        });
        assert_eq!(run.code, 0, "{}", run.snapshot());
    };
    status();
    assert_eq!(log.count("notes-index-built"), 1);
    // One note changed: at the bound, brought up to date.
    let at = "2026-11-30T12:00:00Z";
    append(
        &env,
        &repo,
        &c[1],
        &[record("s1", 3, Some("h12"), "h13", at)],
    );
    status();
    assert_eq!(log.count("notes-index-updated"), 1, "one note: updated");
    assert_eq!(log.count("notes-index-update-too-large"), 0);
    // Two notes changed (two commits fetched at once): past it, built afresh.
    append(
        &env,
        &repo,
        &c[1],
        &[record("s1", 4, Some("h13"), "h14", at)],
    );
    append(&env, &repo, &c[2], &[record("s9", 1, None, "h91", at)]);
    status();
    assert_eq!(log.count("notes-index-update-too-large"), 1);
    assert_eq!(log.count("notes-index-updated"), 1, "not updated");
    assert_eq!(log.count("notes-index-built"), 2, "built afresh");
    let answer = same(&env, &repo, "after the build");
    assert!(answer.contains("s9"), "{answer}");
}

#[test]
fn a_forged_torn_or_foreign_open_or_times_file_is_not_believed() {
    let env = TestEnv::new();
    let (repo, _) = populated(&env);
    let truth = same(&env, &repo, "built afresh");
    for file in [OPEN, TIMES] {
        let path = repo.join(file);
        let good = std::fs::read(&path).unwrap();
        std::fs::write(&path, &good[..good.len() / 2]).unwrap();
        assert_eq!(answer(&env, &repo, true), truth, "{file} torn");
        let text = String::from_utf8_lossy(&good).into_owned();
        std::fs::write(
            &path,
            text.replacen("refs/notes/handover", "refs/notes/other", 1),
        )
        .unwrap();
        assert_eq!(answer(&env, &repo, true), truth, "{file} of another ref");
        let mut forged = good.clone();
        let last = forged.len() - 2;
        forged[last] ^= 1;
        std::fs::write(&path, &forged).unwrap();
        assert_eq!(answer(&env, &repo, true), truth, "{file} forged");
        std::fs::remove_file(&path).unwrap();
        assert_eq!(answer(&env, &repo, true), truth, "{file} deleted");
    }
}

#[test]
fn the_hook_does_not_build_a_large_index_and_says_so_and_the_next_command_does() {
    let env = TestEnv::new();
    let (repo, _) = populated_with(&env, false);
    let log = env.event_log("index");
    let hook = env.handover_with(&repo, &["hook", "session-start"], |c| {
        c.env("GIT_HANDOVER_TEST_INDEX_BUDGET_MS", "0");
        c.env("GIT_HANDOVER_TEST_LOG", log.path());
    });
    assert_eq!(hook.code, 0, "{}", hook.snapshot());
    // Nothing else to brief on: the hook stays silent (a briefing would carry the line
    // that the store was not looked at).
    assert!(!hook.stdout.contains("main/s1"), "{}", hook.stdout);
    assert_eq!(log.count("notes-index-built"), 0);
    assert!(!repo.join(OPEN).exists());
    // The next command that is not a hook builds it; the hook then lists the store.
    same(&env, &repo, "built by status");
    let hook = env.handover_with(&repo, &["hook", "session-start"], |c| {
        c.env("GIT_HANDOVER_TEST_INDEX_BUDGET_MS", "0");
    });
    assert!(!hook.stdout.contains("not indexed yet"), "{}", hook.stdout);
    assert!(hook.stdout.contains("main/s1"), "{}", hook.stdout);
}

#[test]
fn a_reader_killed_before_the_open_file_leaves_an_index_that_answers_as_the_store() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    same(&env, &repo, "built afresh");
    append(
        &env,
        &repo,
        &c[3],
        &[record("s4", 1, None, "h41", "2026-11-30T13:00:00Z")],
    );
    // Killed after the heads of the new commit are written, before the open part:
    // `.open` still names the older commit and is not believed.
    let mut child = env.spawn_at_pause(&repo, &["status"], "notes-index-write-open:20000");
    child.kill().unwrap();
    let _ = child.wait();
    let after = same(&env, &repo, "after the kill");
    assert!(after.contains("s4"), "{after}");
}
