//! The second round of attacks (issue 31) on the sessions room: each test tries to break one
//! promise and failed before its fix. docs/SECURITY.md lists them.

use crate::common::{TestEnv, read_json, sessions_under};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn one_task(env: &TestEnv) -> (PathBuf, String) {
    let repo = env.repo();
    let key = env.saved(
        &repo,
        &json!({"active_tasks": [{"id": "T1", "status": "pending", "description": "d"}]}),
    );
    (repo, key)
}

fn state_of(repo: &Path, key: &str) -> Value {
    read_json(&crate::common::state_path(repo, key))
}

/// Item 42: the same id twice in a hand-edited file; `task done` edits every copy, so
/// the session can be finished with the CLI.
#[test]
fn a_duplicated_task_id_is_edited_everywhere_and_the_session_finishes() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.write_session(
        &repo,
        "main/20261130-110000",
        &json!({"version": 4, "status": "READY", "session_id": "s-1",
            "workspace": {"branch": "main"}, "active_tasks": [
            {"id": "T1", "status": "pending", "description": "a"},
            {"id": "T1", "status": "blocked", "description": "b", "blockers": ["x"]}]}),
    );
    env.handover(&repo, &["task", "done", "T1"]).assert_ok();
    let state = state_of(&repo, "main/20261130-110000");
    assert_eq!(state["status"], "ALL_COMPLETE", "{state}");
    let statuses: Vec<&str> = state["active_tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["done", "done"]);
    env.handover(&repo, &["task", "reopen", "T1"]).assert_ok();
    env.handover(&repo, &["task", "remove", "T1"]).assert_ok();
    let state = state_of(&repo, "main/20261130-110000");
    assert_eq!(state["active_tasks"], json!([]), "{state}");
}

/// Issue 31 item 1: ids are offered by shell completion; `task add` refuses one the
/// shell would act on, naming it, and writes nothing.
#[test]
fn task_add_refuses_an_id_the_shell_would_expand() {
    let env = TestEnv::new();
    let (repo, key) = one_task(&env);
    let before = std::fs::read(crate::common::state_path(&repo, &key)).unwrap();
    for id in [
        "T1$(touch${IFS}pwned)",
        "T`id`",
        "T'1",
        "T\"1",
        "T 1",
        "T\t1",
        "T\u{1b}1",
    ] {
        let run = env.handover(&repo, &["task", "add", id, "desc"]);
        assert_eq!(run.code, 2, "{id:?}: {}", run.snapshot());
        assert!(run.stderr.contains("task id"), "{id:?}: {}", run.stderr);
        assert!(
            run.stderr.contains(&format!("{id:?}")),
            "{id:?}: {}",
            run.stderr
        );
    }
    assert_eq!(
        std::fs::read(crate::common::state_path(&repo, &key)).unwrap(),
        before
    );
    env.handover(&repo, &["task", "add", "T-2.x_y/z", "fine"])
        .assert_ok();
}

/// Item 27: `task reopen` after the last `task done` finished the session reopens it.
#[test]
fn reopen_after_the_session_finished_reopens_it() {
    let env = TestEnv::new();
    let (repo, key) = one_task(&env);
    env.handover(&repo, &["task", "done", "T1"]).assert_ok();
    assert_eq!(state_of(&repo, &key)["status"], "ALL_COMPLETE");
    let run = env.handover(&repo, &["task", "reopen", "T1"]);
    run.assert_ok();
    let state = state_of(&repo, &key);
    assert_eq!(state["status"], "READY", "{state}");
    assert_eq!(state["active_tasks"][0]["status"], "in_progress");
    assert_eq!(
        sessions_under(&repo).len(),
        1,
        "{:?}",
        sessions_under(&repo)
    );
}

/// Items 28 and 41: the branch's only session cannot be read (invalid JSON, over the
/// size limit). `task` and `save` name the file and the problem, exit 3, and never make
/// a parallel session beside it.
#[test]
fn an_unreadable_session_is_named_and_no_parallel_session_is_made() {
    let big = format!(
        "{{\"version\": 4, \"x\": \"{}\"}}",
        "a".repeat(16 * 1024 * 1024 + 10)
    );
    for content in ["{not json", big.as_str()] {
        let env = TestEnv::new();
        let (repo, key) = one_task(&env);
        let file = crate::common::state_path(&repo, &key);
        std::fs::write(&file, content).unwrap();
        for args in [
            &["task", "done", "T1"][..],
            &["task", "start", "T1"],
            &["task", "add", "T2", "d"],
            &["task", "list"],
            &["task", "show", "T1"],
        ] {
            let run = env.handover(&repo, args);
            assert_eq!(run.code, 3, "{args:?}: {}", run.snapshot());
            assert!(run.stderr.contains("project-state.json"), "{}", run.stderr);
            assert!(!run.stderr.contains("no ready session"), "{}", run.stderr);
        }
        let run = env.save(&repo, &json!({"active_tasks": []}), &[]);
        assert_eq!(run.code, 3, "{}", run.snapshot());
        assert_eq!(
            sessions_under(&repo).len(),
            1,
            "{:?}",
            sessions_under(&repo)
        );
        assert_eq!(std::fs::read(&file).unwrap(), content.as_bytes());
    }
}

/// Items 28 and 41, the other side: a bad file beside a readable READY session stops
/// nothing; the write goes to the readable one and the bad one is named.
#[test]
fn an_unreadable_session_beside_a_ready_one_is_named_and_passed_over() {
    let env = TestEnv::new();
    let (repo, key) = one_task(&env);
    let bad = repo.join(".claude/handover/main/20261130-090000/project-state.json");
    env.write(&bad, "{not json");
    let run = env.handover(&repo, &["task", "done", "T1"]);
    run.assert_ok();
    assert!(
        run.stderr.contains("20261130-090000/project-state.json"),
        "{}",
        run.stderr
    );
    assert_eq!(state_of(&repo, &key)["status"], "ALL_COMPLETE");
}

/// Item 16: whatever is wrong with `info/exclude`, `save` and `task` complete, the
/// write is recorded in the notes store (`store=both`), and one warning names the file.
#[test]
fn a_broken_info_exclude_warns_and_the_write_is_recorded() {
    type Breaker = fn(&Path);
    let cases: &[(&str, Breaker)] = &[
        ("no info dir", |info| std::fs::remove_dir_all(info).unwrap()),
        ("latin-1", |info| {
            std::fs::write(info.join("exclude"), b"caf\xe9\n").unwrap();
        }),
        ("over 1 MiB", |info| {
            std::fs::write(info.join("exclude"), "#".repeat(2 << 20)).unwrap();
        }),
        ("symlink", |info| {
            std::fs::remove_file(info.join("exclude")).ok();
            std::os::unix::fs::symlink("/etc/hostname", info.join("exclude")).unwrap();
        }),
        ("fifo", |info| {
            std::fs::remove_file(info.join("exclude")).ok();
            let path = info.join("exclude");
            let ok = std::process::Command::new("mkfifo")
                .arg(&path)
                .status()
                .unwrap();
            assert!(ok.success());
        }),
        ("read-only dir", |info| {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(info, std::fs::Permissions::from_mode(0o555)).unwrap();
        }),
    ];
    for (name, breaker) in cases {
        if *name == "read-only dir" && crate::common::is_root() {
            continue;
        }
        let env = TestEnv::new();
        let repo = env.repo();
        env.git(&repo, &["config", "handover.store", "both"]);
        let info = repo.join(".git/info");
        breaker(&info);
        let run = env.save(
            &repo,
            &json!({"active_tasks": [{"id": "T1", "status": "pending", "description": "d"}]}),
            &[],
        );
        assert_eq!(run.code, 0, "{name}: {}", run.snapshot());
        let warnings: Vec<&str> = run
            .stderr
            .lines()
            .filter(|l| l.contains("warning"))
            .collect();
        if *name == "no info dir" {
            assert!(warnings.is_empty(), "{name}: {}", run.stderr);
        } else {
            assert_eq!(warnings.len(), 1, "{name}: {}", run.stderr);
            assert!(warnings[0].contains(".git/info"), "{name}: {}", run.stderr);
        }
        let run = env.handover(&repo, &["task", "done", "T1"]);
        assert_eq!(run.code, 0, "{name}: {}", run.snapshot());
        let records = env.handover_notes(&repo).concat();
        assert_eq!(
            records.lines().count(),
            2,
            "{name}: both writes recorded: {records}"
        );
        if *name == "no info dir" {
            let text = std::fs::read_to_string(info.join("exclude")).unwrap();
            assert!(text.contains("/.claude/handover/"), "{text}");
        }
        std::fs::set_permissions(&info, std::os::unix::fs::PermissionsExt::from_mode(0o755)).ok();
    }
}

/// Item 39: a note's path is literal when its removal is committed: a note at
/// `:(icase)a/CONTINUE_HERE.md` never removes `A/CONTINUE_HERE.md`.
#[test]
fn a_consumed_note_path_is_never_a_pathspec() {
    let env = TestEnv::new();
    let repo = env.repo();
    let note = "# Continue Here\n\n## Objective\nship it\n";
    env.commit(
        &repo,
        "A/CONTINUE_HERE.md",
        note,
        "other",
        "2026-11-30T10:05:00Z",
    );
    env.write(&repo.join(":(icase)a/CONTINUE_HERE.md"), note);
    env.git(
        &repo,
        &["--literal-pathspecs", "add", ":(icase)a/CONTINUE_HERE.md"],
    );
    env.git(&repo, &["commit", "-q", "-m", "note"]);
    let run = env.handover(&repo, &["continue", ":(icase)a/CONTINUE_HERE.md"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        repo.join("A/CONTINUE_HERE.md").exists(),
        "{}",
        run.snapshot()
    );
    let tracked = env.git(&repo, &["ls-files"]);
    assert!(
        tracked.lines().any(|l| l == "A/CONTINUE_HERE.md"),
        "{tracked}"
    );
    assert!(!tracked.contains(":(icase)"), "{tracked}");
    assert!(!repo.join(":(icase)a/CONTINUE_HERE.md").exists());
}

/// Item 40: a tracked note whose index version is neither HEAD's nor the file's is
/// kept, with why: consuming it would lose the staged edits.
#[test]
fn a_tracked_note_with_staged_only_edits_is_kept() {
    let env = TestEnv::new();
    let repo = env.repo();
    let v1 = "# Continue Here\n\n## Objective\nv1\n";
    env.commit(
        &repo,
        "CONTINUE_HERE.md",
        v1,
        "note",
        "2026-11-30T10:10:00Z",
    );
    let note = repo.join("CONTINUE_HERE.md");
    env.write(&note, "# Continue Here\n\n## Objective\nv2 staged\n");
    env.git(&repo, &["add", "CONTINUE_HERE.md"]);
    env.write(&note, "# Continue Here\n\n## Objective\nv3 in the file\n");
    let head = env.git(&repo, &["rev-parse", "HEAD"]);
    let run = env.handover(&repo, &["continue"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.contains("staged"), "{}", run.snapshot());
    assert_eq!(
        env.git(&repo, &["show", ":CONTINUE_HERE.md"]),
        "# Continue Here\n\n## Objective\nv2 staged"
    );
    assert!(
        std::fs::read_to_string(&note)
            .unwrap()
            .contains("v3 in the file")
    );
    assert_eq!(env.git(&repo, &["rev-parse", "HEAD"]), head);
    // Staged and in the file alike: nothing is lost, the note is consumed.
    env.git(&repo, &["add", "CONTINUE_HERE.md"]);
    let run = env.handover(&repo, &["continue"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(!note.exists(), "{}", run.snapshot());
}

/// Item 22: `log --json` carries what docs/json.md documents: `session_id`, `seq`,
/// `parent`, `set_aside`, and `saved_at` with its sub-second digits.
#[test]
fn log_json_carries_the_documented_record_fields() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.git(&repo, &["config", "handover.store", "both"]);
    let key = env.saved(
        &repo,
        &json!({"active_tasks": [{"id": "T1", "status": "pending"}]}),
    );
    env.handover(&repo, &["task", "done", "T1"]).assert_ok();
    let line = json!({"key": "main/old", "session_id": "s-9", "seq": 7, "parent": "abc",
        "set_aside": ["def"], "worktree": null, "branch": "main",
        "saved_at": "2026-11-30T09:00:00.123456Z", "kind": "session",
        "state": {"version": 4, "status": "READY", "active_tasks": []}});
    let head = env.git(&repo, &["rev-parse", "HEAD"]);
    env.git(
        &repo,
        &[
            "notes",
            "--ref=handover",
            "append",
            "-m",
            &line.to_string(),
            &head,
        ],
    );
    let log = env.json(&repo, &["--json", "log"]);
    let records = log["records"].as_array().unwrap();
    assert_eq!(records.len(), 3, "{log}");
    let newest = &records[0];
    assert_eq!(newest["key"], key.as_str());
    assert!(newest["session_id"].is_string(), "{newest}");
    assert_eq!(newest["seq"], 2, "{newest}");
    assert!(newest["parent"].is_string(), "{newest}");
    assert_eq!(newest["set_aside"], json!([]));
    assert_eq!(
        records[1]["parent"],
        Value::Null,
        "a new session has no parent"
    );
    let old = &records[2];
    assert_eq!(old["session_id"], "s-9");
    assert_eq!(old["seq"], 7);
    assert_eq!(old["parent"], "abc");
    assert_eq!(old["set_aside"], json!(["def"]));
    assert_eq!(old["saved_at"], "2026-11-30T09:00:00.123456Z");
}

/// Item 21: under `--json`, command-line errors are the documented error document on
/// stdout, wherever `--json` is; `status --json --keys` is one of them.
#[test]
fn command_line_errors_under_json_are_error_documents() {
    let env = TestEnv::new();
    let repo = env.repo();
    for args in [
        &["--json", "task", "done"][..],
        &["task", "add", "--json"],
        &["--json", "status", "--agent", "nope"],
        &["--json", "log", "-n", "x"],
        &["status", "--bogus", "--json"],
        &["--json", "--color=sometimes", "status"],
        &["--lang=fr", "--json"],
        &["status", "--json", "--keys"],
    ] {
        let run = env.handover(&repo, args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.snapshot());
        let doc: Value = serde_json::from_str(&run.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", run.snapshot()));
        assert_eq!(doc["schema"], "git-handover/error/1", "{args:?}");
        assert_eq!(doc["error"]["kind"], "usage", "{args:?}");
        assert_eq!(doc["error"]["exit"], 2, "{args:?}");
        assert!(
            !doc["error"]["message"].as_str().unwrap().is_empty(),
            "{args:?}"
        );
        assert!(
            run.stderr.contains("error"),
            "{args:?}: clap still says it on stderr"
        );
    }
    let run = env.handover(&repo, &["--json", "task", "add"]);
    assert!(run.stdout.contains("<ID>"), "{}", run.stdout);
    // Without --json nothing changes: stdout stays empty, keys stay plain lines.
    let run = env.handover(&repo, &["task", "done"]);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    let run = env.handover(&repo, &["status", "--keys"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
}

/// Item 25: a recorded worktree path that now holds another repository, or a link to
/// elsewhere, is not present; a link to the worktree itself is.
#[test]
fn presence_means_a_registered_worktree_of_this_repository() {
    let env = TestEnv::new();
    let repo = env.repo();
    let wt = env.worktree(&repo, "wt", "feature");
    let other = env.init("other");
    let link_elsewhere = env.root().join("link-elsewhere");
    std::os::unix::fs::symlink(&other, &link_elsewhere).unwrap();
    let link_here = env.root().join("link-here");
    std::os::unix::fs::symlink(&wt, &link_here).unwrap();
    let replaced = env.worktree(&repo, "replaced", "gone");
    std::fs::remove_dir_all(&replaced).unwrap();
    env.init("replaced");
    let cases = [
        ("other", other.clone(), "orphan"),
        ("link-elsewhere", link_elsewhere, "orphan"),
        ("link-here", link_here, "present"),
        ("replaced", replaced, "orphan"),
        ("wt", wt.clone(), "present"),
    ];
    for (name, root, _) in &cases {
        env.write_session(
            &repo,
            &format!("team-{name}/a"),
            &json!({"version": 4, "status": "READY", "session_id": name,
                "workspace": {"root": root.display().to_string()},
                "active_tasks": [{"id": "T1", "status": "pending"}]}),
        );
    }
    let status = env.handover(&repo, &["--json", "status"]).json();
    let handovers: Vec<&Value> = status["worktrees"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|w| w["handovers"].as_array().unwrap())
        .collect();
    for (name, _, want) in &cases {
        let h = handovers
            .iter()
            .find(|h| h["key"] == format!("team-{name}/a"))
            .unwrap_or_else(|| panic!("{name}: {status}"));
        assert_eq!(h["presence"], *want, "{name}: {h}");
    }
}

/// Item 37: `here --force` never writes a note found behind a `docs/` link that leads
/// out of the worktree: refused by name, the file outside unchanged.
#[test]
fn here_refuses_a_note_behind_a_link_out_of_the_worktree() {
    let env = TestEnv::new();
    let repo = env.repo();
    let outside = env.root().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let victim = outside.join("CONTINUE_HERE.md");
    std::fs::write(&victim, "precious\n").unwrap();
    std::os::unix::fs::symlink(&outside, repo.join("docs")).unwrap();
    let body = env.root().join("body.md");
    env.write(&body, "## Objective\nship it\n");
    let run = env.handover(
        &repo,
        &["here", "--force", "--from", body.to_str().unwrap()],
    );
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(
        run.stderr.contains("docs/CONTINUE_HERE.md"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    assert!(!repo.join("CONTINUE_HERE.md").exists());
}
