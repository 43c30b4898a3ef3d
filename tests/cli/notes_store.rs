//! The notes store (SPEC section 8): interop with `git notes`, fan-out, contention, and
//! sessions that live only in the store. Sync between clones is in `notes_sync`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Stdio;

use crate::common::TestEnv;
use serde_json::{Value, json};

pub(crate) const NOTES: &str = "refs/notes/handover";

pub(crate) fn enable_store(env: &TestEnv, repo: &Path) {
    env.git(repo, &["config", "handover.store", "notes"]);
}

/// A save at `now`, which must succeed: the key it wrote.
#[track_caller]
pub(crate) fn save(env: &TestEnv, dir: &Path, now: &str, state: &Value) -> String {
    let run = env.save_with(dir, state, &[], |c| {
        c.env("GIT_HANDOVER_NOW", now);
    });
    run.assert_ok();
    run.stdout.trim().to_owned()
}

/// Annotated object → note text, as git reads the ref.
pub(crate) fn notes_by_git(
    env: &TestEnv,
    repo: &Path,
    notes_ref: &str,
) -> BTreeMap<String, String> {
    let list = env.git(repo, &["notes", "--ref", notes_ref, "list"]);
    list.lines()
        .map(|l| {
            let (_, object) = l.split_once(' ').unwrap();
            let text = env.git(repo, &["notes", "--ref", notes_ref, "show", object]);
            (object.to_owned(), text)
        })
        .collect()
}

pub(crate) fn tasks(ids: &[&str]) -> Value {
    json!({"active_tasks": ids.iter().map(|id| json!({"id": id, "description": format!("work on {id}"), "status": "in_progress"})).collect::<Vec<_>>()})
}

#[test]
fn a_saved_record_reads_with_git_notes_and_git_fan_out_notes_read_with_the_tool() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    let head = env.commit(&repo, "a", "a\n", "first", "2026-11-30T10:00:00Z");
    enable_store(&env, &repo);
    let key = save(&env, &repo, crate::common::NOW, &tasks(&["T1"]));

    // The tool's note, read by git: one JSON record per line.
    let note = env.git(&repo, &["notes", "--ref=handover", "show", &head]);
    let lines: Vec<&str> = note.lines().collect();
    assert_eq!(lines.len(), 1);
    let record: Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(record["key"], key);
    assert_eq!(record["kind"], "session");
    assert_eq!(record["branch"], "main");
    // UTC, with the sub-second digits the clock has (the pinned clock has none).
    assert_eq!(record["saved_at"], "2026-11-30T12:00:00Z");
    // Identity and order (SPEC section 8): the session's id, its first write, no parent.
    assert_eq!(record["session_id"], record["state"]["session_id"]);
    assert_eq!(record["seq"], 1);
    assert_eq!(record["parent"], Value::Null);
    assert_eq!(record["state"]["active_tasks"][0]["id"], "T1");
    assert_eq!(
        record["worktree"],
        repo.display().to_string(),
        "the worktree it was saved in"
    );
    // The ref moved by compare-and-swap with a reflog entry, like git's own update.
    let reflog = env.git(&repo, &["reflog", "show", "--format=%H %gs", NOTES]);
    assert_eq!(reflog.lines().count(), 1, "{reflog}");

    // A task change appends a second record to the same note.
    let run = env.handover(&repo, &["task", "done", "T1"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let note = env.git(&repo, &["notes", "--ref=handover", "show", &head]);
    assert_eq!(note.lines().count(), 2);

    // 300 commits, each annotated by `git notes add`: git switches to a fan-out tree.
    let mut script = String::new();
    for i in 0..300 {
        let message = format!("commit {i}\n");
        let _ = writeln!(
            script,
            "commit refs/heads/many\nmark :{}\ncommitter Ada Agent <ada@example.com> {} +0000\ndata {}\n{message}",
            i + 1,
            1_790_000_000 + i,
            message.len()
        );
    }
    env.fast_import(&repo, &script);
    let shas = env.git(&repo, &["rev-list", "refs/heads/many"]);
    let mut add = String::from("set -e\n");
    for (i, sha) in shas.lines().enumerate() {
        let line = json!({"key": format!("fan/{i:03}"), "worktree": null, "branch": "many",
            "saved_at": format!("2026-11-29T{:02}:{:02}:00Z", i / 60, i % 60), "kind": "session",
            "state": {"version": 3, "status": "ALL_COMPLETE", "active_tasks": []}});
        let _ = writeln!(
            add,
            "git notes --ref=handover add -m '{}' {sha}",
            line.to_string().replace('\'', "'\\''")
        );
    }
    let out = env
        .command("sh")
        .current_dir(&repo)
        .args(["-c", &add])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let top = env.git(&repo, &["ls-tree", NOTES]);
    assert!(
        top.lines().all(|l| l.contains(" tree ")) && top.lines().count() > 100,
        "git wrote a fan-out tree:\n{}",
        &top[..top.len().min(400)]
    );

    let log = env.json(&repo, &["--json", "log"]);
    let records = log["records"].as_array().unwrap();
    assert_eq!(records.len(), 302, "300 notes by git and two by the tool");
    assert_eq!(records[0]["key"], key, "newest first");
    assert_eq!(log["skipped"], json!([]));
    let one = env.json(&repo, &["--json", "log", "fan/123"]);
    assert_eq!(one["records"].as_array().unwrap().len(), 1);
    assert_eq!(one["records"][0]["saved_at"], "2026-11-29T02:03:00Z");

    // The tool appends to the fan-out tree, and git still reads every note.
    let run = env.handover(&repo, &["task", "add", "T2", "more"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let by_git = notes_by_git(&env, &repo, "handover");
    assert_eq!(by_git.len(), 301);
    assert_eq!(by_git[&head].lines().count(), 3);
}

#[test]
fn sixteen_saves_at_once_make_sixteen_records_in_a_linear_history() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    let head = env.commit(&repo, "a", "a\n", "first", "2026-11-30T10:00:00Z");
    enable_store(&env, &repo);
    let input = env.root().join("input.json");
    env.write(&input, &tasks(&["T1"]).to_string());
    let children: Vec<_> = (0..16)
        .map(|i| {
            env.command(env!("CARGO_BIN_EXE_git-handover"))
                .current_dir(&repo)
                .args([
                    "save",
                    "--team",
                    "crew",
                    "--agent",
                    &format!("agent-{i:02}"),
                ])
                .args(["--from", input.to_str().unwrap()])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let note = env.git(&repo, &["notes", "--ref=handover", "show", &head]);
    let mut keys: Vec<String> = note
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["key"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    keys.sort();
    let expected: Vec<String> = (0..16).map(|i| format!("crew/agent-{i:02}")).collect();
    assert_eq!(keys, expected, "no record lost");
    assert_eq!(env.git(&repo, &["rev-list", "--count", NOTES]), "16");
    assert_eq!(
        env.git(&repo, &["rev-list", "--merges", NOTES]),
        "",
        "linear"
    );
    let reflog = env.git(&repo, &["reflog", "show", "--format=%H", NOTES]);
    assert_eq!(reflog.lines().count(), 16);
}

#[test]
fn a_removed_worktree_session_shows_from_the_store_and_continue_restores_it() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    env.commit(&repo, "a", "a\n", "first", "2026-11-30T10:00:00Z");
    enable_store(&env, &repo);
    let wt = env.worktree(&repo, "wt-feature", "feature");
    env.commit(&wt, "f", "f\n", "feature work", "2026-11-30T10:30:00Z");
    let key = save(
        &env,
        &wt,
        "2026-11-30T11:00:00Z",
        &json!({"active_tasks": [
            {"id": "F1", "description": "finish the parser", "status": "in_progress", "next_action": "write the tests"},
            {"id": "F0", "description": "sketch", "status": "done"}
        ]}),
    );
    env.git(
        &repo,
        &["worktree", "remove", "--force", wt.to_str().unwrap()],
    );

    let status = env.handover(&repo, &["status"]);
    insta::assert_snapshot!("status_shows_orphan_from_store", status.snapshot());
    let json = env.json(&repo, &["--json", "status"]);
    assert_eq!(json["stored"][0]["key"], key);
    assert_eq!(json["stored"][0]["presence"], "orphan");
    assert_eq!(
        json["stored"][0]["stored"]["saved_at"],
        "2026-11-30T11:00:00Z"
    );
    assert_eq!(json["needs_attention"], true);

    let run = env.handover(&repo, &["continue", &key]);
    insta::assert_snapshot!("continue_restores_from_store", run.snapshot());
    let file = repo
        .join(".claude/handover")
        .join(&key)
        .join("project-state.json");
    let state: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(state["workspace"]["root"], repo.display().to_string());
    assert_eq!(state["workspace"]["branch"], "feature");
    assert_eq!(
        state["generated_at"], "2026-11-30T11:00:00+00:00",
        "the time it was written"
    );
    // Now on disk: status lists it in the main worktree and no longer from the store.
    let json = env.json(&repo, &["--json", "status"]);
    assert_eq!(json["stored"], json!([]));
    assert_eq!(json["worktrees"][0]["handovers"][0]["key"], key);
}

#[test]
fn continue_without_a_key_falls_back_to_the_store_and_a_consumed_note_goes_there() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    let head = env.commit(&repo, "a", "a\n", "first", "2026-11-30T10:00:00Z");
    enable_store(&env, &repo);
    let wt = env.worktree(&repo, "wt", "side");
    let key = save(&env, &wt, "2026-11-30T11:00:00Z", &tasks(&["S1"]));
    env.git(
        &repo,
        &["worktree", "remove", "--force", wt.to_str().unwrap()],
    );

    // The hook (read-only) briefs from the store and writes nothing.
    let hook = env.handover(&repo, &["hook", "session-start"]);
    assert_eq!(hook.code, 0);
    assert!(hook.stdout.contains(&key), "{}", hook.stdout);
    assert!(!repo.join(".claude/handover").exists());

    let run = env.handover(&repo, &["continue", "--successor"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        run.stdout
            .contains("no sessions in any worktree, but the notes store has")
    );
    assert!(run.stdout.contains("restored session"));

    env.write(
        &repo.join("CONTINUE_HERE.md"),
        "# Continue Here\nLast updated: 2026-11-30T11:30:00Z\nBranch: main\n\n## Objective\nship\n",
    );
    let run = env.handover(&repo, &["continue", "CONTINUE_HERE.md"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(!repo.join("CONTINUE_HERE.md").exists());
    assert!(
        !repo.join(".claude/handover/consumed").exists(),
        "no file copy with the store on"
    );
    let log = env.json(&repo, &["--json", "log", "CONTINUE_HERE.md"]);
    assert_eq!(log["records"][0]["kind"], "continue-here");
    assert!(
        log["records"][0]["text"]
            .as_str()
            .unwrap()
            .contains("## Objective\nship")
    );
    assert_eq!(log["records"][0]["commit"], head);
}

#[test]
fn unreadable_records_are_named_and_skipped() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    let head = env.commit(&repo, "a", "a\n", "first", "2026-11-30T10:00:00Z");
    env.git(
        &repo,
        &["notes", "--ref=handover", "add", "-m", "not json\n{\"key\":\"../../etc\",\"saved_at\":\"2026-11-30T10:00:00Z\",\"kind\":\"session\",\"state\":{}}", &head],
    );
    let run = env.handover(&repo, &["log"]);
    assert_eq!(run.code, 0);
    insta::assert_snapshot!("unreadable_records", run.snapshot());
    // And the store never breaks status.
    let status = env.handover(&repo, &["status"]);
    assert_eq!(status.code, 0, "{}", status.snapshot());
}

#[test]
fn a_migrated_legacy_state_is_recorded_too() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    let head = env.commit(&repo, "a", "a\n", "first", "2026-11-30T10:00:00Z");
    enable_store(&env, &repo);
    env.write(
        &repo.join(".claude/project-state.json"),
        r#"{"version":2,"status":"READY","active_tasks":[{"id":"L1","description":"old","status":"in_progress"}]}"#,
    );
    let run = env.handover(&repo, &["migrate"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let log = env.json(&repo, &["--json", "log"]);
    assert_eq!(log["records"].as_array().unwrap().len(), 1);
    assert_eq!(log["records"][0]["commit"], head);
    assert_eq!(log["records"][0]["state"]["version"], 4);
    assert_eq!(log["records"][0]["state"]["active_tasks"][0]["id"], "L1");
}

/// A notes commit is made as git makes a commit (`git/identity.rs`, without gix's zone
/// database walk): with `GIT_COMMITTER_DATE` / `GIT_AUTHOR_DATE` set, its author and
/// committer lines are those of a commit git makes in the same environment, byte for
/// byte; without them, its offset under `TZ=America/New_York` is the one git writes.
#[test]
fn a_notes_commit_has_gits_identity_dates_and_offset() {
    let env = TestEnv::new();
    let repo = env.repo();
    enable_store(&env, &repo);
    let people = |text: &str| -> Vec<String> {
        (text.lines())
            .filter(|l| l.starts_with("author ") || l.starts_with("committer "))
            .map(str::to_owned)
            .collect()
    };
    let git_commit = |dates: &[(&str, &str)]| -> String {
        let tree = env.git(&repo, &["rev-parse", "HEAD^{tree}"]);
        let mut cmd = env.command("git");
        cmd.current_dir(&repo)
            .args(["commit-tree", tree.trim(), "-m", "x"])
            .env("TZ", "America/New_York")
            .env_remove("GIT_COMMITTER_DATE")
            .env_remove("GIT_AUTHOR_DATE");
        for (k, v) in dates {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{out:?}");
        let id = String::from_utf8(out.stdout).unwrap();
        env.git(&repo, &["cat-file", "commit", id.trim()])
    };
    let dates = [
        ("GIT_COMMITTER_DATE", "2026-07-01T12:00:00+02:00"),
        ("GIT_AUTHOR_DATE", "1700000000 -0500"),
    ];
    for (round, dates) in [&dates[..], &[]].into_iter().enumerate() {
        let run = env.handover_with(
            &repo,
            &["task", "add", &format!("T{round}"), "a task"],
            |c| {
                // The harness pins both dates: here they are set or not, as git's.
                c.env("TZ", "America/New_York")
                    .env_remove("GIT_COMMITTER_DATE")
                    .env_remove("GIT_AUTHOR_DATE");
                for (k, v) in dates {
                    c.env(k, v);
                }
            },
        );
        assert_eq!(run.code, 0, "{}", run.snapshot());
        let ours = people(&env.git(&repo, &["cat-file", "commit", NOTES]));
        let theirs = people(&git_commit(dates));
        assert_eq!(ours.len(), 2, "{ours:?}");
        if dates.is_empty() {
            // The seconds are each commit's own now; the offset is the zone's.
            let offset = |l: &String| l.rsplit(' ').next().unwrap().to_owned();
            let ours: Vec<String> = ours.iter().map(offset).collect();
            let theirs: Vec<String> = theirs.iter().map(offset).collect();
            assert_eq!(ours, theirs);
            assert!(ours[0] == "-0500" || ours[0] == "-0400", "{ours:?}");
        } else {
            assert_eq!(ours, theirs);
        }
    }
}
