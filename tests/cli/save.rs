//! `save`: creating and reusing the ready session, branches with slashes, detached
//! heads and teams, bad input and links refused with nothing written, the notes store
//! beside the files, and a terminal without input.

use crate::common::{TestEnv, read_json, sessions_under};
use serde_json::{Value, json};

#[test]
fn save_creates_then_reuses_the_ready_session_and_skips_unchanged_writes() {
    let env = TestEnv::new();
    let repo = env.repo();
    let input = json!({"session_id": "s1", "active_tasks": [{"id": "T1", "description": "Parse", "status": "in_progress"}]});
    let first = env.save(&repo, &input, &[]);
    assert_eq!(
        (first.code, first.stdout.as_str()),
        (0, "main/20261130-120000\n"),
        "{}",
        first.snapshot()
    );
    let dir = repo.join(".claude/handover/main/20261130-120000");
    let state = read_json(&dir.join("project-state.json"));
    assert_eq!(state["status"], "READY");
    assert_eq!(
        state["workspace"],
        json!({"root": repo.display().to_string(), "branch": "main", "is_worktree": false})
    );
    let keys: Vec<&String> = state.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "version",
            "generated_at",
            "session_id",
            "seq",
            "language",
            "status",
            "workspace",
            "active_tasks",
            "session_hash"
        ]
    );
    let bytes = std::fs::read(dir.join("project-state.json")).unwrap();

    // The same input later: same session, nothing rewritten (generated_at unchanged).
    let again = env.handover_with(&repo, &["save", "--json"], |c| {
        c.env("GIT_HANDOVER_NOW", "2026-11-30T13:00:00Z")
            .stdin(std::process::Stdio::piped());
    });
    // stdin was empty: that is invalid JSON, exit 3, nothing touched.
    assert_eq!(again.code, 3, "{}", again.snapshot());
    let same = env.save(&repo, &input, &["--json"]);
    let v: Value = serde_json::from_str(&same.stdout).unwrap();
    assert_eq!(
        (v["key"].as_str(), v["changed"].as_bool()),
        (Some("main/20261130-120000"), Some(false))
    );
    assert_eq!(
        std::fs::read(dir.join("project-state.json")).unwrap(),
        bytes
    );

    // A change is merged into the same session.
    let more = env.save(
        &repo,
        &json!({"active_tasks": [{"id": "T2", "status": "pending"}]}),
        &["--json"],
    );
    let v: Value = serde_json::from_str(&more.stdout).unwrap();
    assert_eq!(v["changed"], true);
    assert_eq!(
        read_json(&dir.join("project-state.json"))["active_tasks"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(
        sessions_under(&repo.join(".claude/handover")),
        ["main/20261130-120000"]
    );
}

#[test]
fn branches_with_slashes_detached_heads_and_fingerprint_collisions() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.git(&repo, &["checkout", "-q", "-b", "feature/x"]);
    let done = json!({"active_tasks": [{"id": "T1", "status": "done"}]});
    assert_eq!(
        env.save(&repo, &done, &[]).stdout,
        "feature/x/20261130-120000\n"
    );
    // That session is finished just now, within handover.freshFor: the next save
    // reopens it (issue 32, item 3, tests/cli/reopen.rs) ...
    assert_eq!(
        env.save(&repo, &done, &[]).stdout,
        "feature/x/20261130-120000\n"
    );
    // ... and with freshFor at zero, a new one is made at the same second beside it.
    env.git(&repo, &["config", "handover.freshFor", "0s"]);
    assert_eq!(
        env.save(&repo, &done, &[]).stdout,
        "feature/x/20261130-120000-2\n"
    );
    let head = env.git(&repo, &["rev-parse", "--short=7", "HEAD"]);
    env.git(&repo, &["checkout", "-q", "--detach"]);
    let run = env.save(&repo, &json!({}), &[]);
    assert_eq!(
        run.stdout,
        format!("detached-{head}/20261130-120000\n"),
        "{}",
        run.snapshot()
    );
    assert_eq!(
        sessions_under(&repo.join(".claude/handover")),
        [
            format!("detached-{head}/20261130-120000"),
            "feature/x/20261130-120000".into(),
            "feature/x/20261130-120000-2".into()
        ]
    );
}

#[test]
fn team_sessions_from_flags_environment_and_the_team_config() {
    let env = TestEnv::new();
    let repo = env.repo();
    let input = json!({"active_tasks": [{"id": "R1", "status": "pending"}]});
    assert_eq!(
        env.save(&repo, &input, &["--team", "alpha", "--agent", "reviewer"])
            .stdout,
        "alpha/reviewer\n"
    );
    let by_env = env.handover_with(&repo, &["task", "start", "R1"], |c| {
        c.env("GIT_HANDOVER_TEAM", "alpha")
            .env("GIT_HANDOVER_AGENT", "reviewer");
    });
    assert_eq!(
        by_env.stdout,
        "[R1] in_progress in alpha/reviewer (READY)\n",
        "{}",
        by_env.snapshot()
    );
    // An agent alone: the team comes from ~/.claude/teams/<team>/config.json.
    env.write(
        &env.root().join("home/.claude/teams/beta/config.json"),
        r#"{"members": [{"name": "writer"}]}"#,
    );
    assert_eq!(
        env.save(&repo, &input, &["--agent", "writer"]).stdout,
        "beta/writer\n"
    );
    assert_eq!(
        env.save(&repo, &input, &["--team", "gamma"]).stdout,
        "gamma/default\n"
    );
    let state = read_json(&repo.join(".claude/handover/gamma/default/project-state.json"));
    assert_eq!(
        state["workspace"].get("branch"),
        None,
        "a team session has no branch"
    );
}

#[test]
fn bad_input_is_refused_and_nothing_is_written() {
    let env = TestEnv::new();
    let repo = env.repo();
    let dir = repo.join(".claude/handover/main/20261130-100000");
    let corrupt = "{\"version\": 3, \"status\": \"READY\",\n \"active_tasks\": [\n";
    env.write(&dir.join("project-state.json"), corrupt);
    // The bad session is named and left alone. It is the branch's newest, so the write
    // stops on it (issue 31, items 28 and 41): a session of its own beside it would hide
    // it. A bad file beside a readable READY session still stops nothing (issue 14,
    // item 8): the write goes to the readable one with a warning.
    let run = env.handover(&repo, &["task", "add", "T1", "x"]);
    insta::assert_snapshot!(run.snapshot(), @r"
    exit: 3
    --- stdout
    --- stderr
    git-handover: invalid json in [ROOT]/repo/.claude/handover/main/20261130-100000/project-state.json at line 3, column 0: EOF while parsing a list
    hint: fix or remove [ROOT]/repo/.claude/handover/main/20261130-100000/project-state.json by hand; git-handover never rewrites a file it cannot read
    ");
    assert_eq!(
        sessions_under(&repo.join(".claude/handover")),
        ["main/20261130-100000"]
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("project-state.json")).unwrap(),
        corrupt
    );
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "no lock, temp or markdown left"
    );

    let before = sessions_under(&repo.join(".claude/handover"));
    for (args, message) in [
        (
            vec!["--team", "../../x"],
            "team must not contain `.` or `..` components",
        ),
        (
            vec!["--team", "t", "--agent", "a/b"],
            "agent must be one path component, not \"a/b\"",
        ),
        (vec!["--team", "/abs"], "team must be a relative path"),
    ] {
        let run = env.save(&repo, &json!({}), &args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.snapshot());
        assert_eq!(run.stderr, format!("git-handover: {message}\n"), "{args:?}");
    }
    let run = env.handover(
        &repo,
        &["task", "--session", "main/../../../x", "start", "T1"],
    );
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert_eq!(
        run.stderr,
        "git-handover: session key must not contain `.` or `..` components\n"
    );
    let run = env.save(&repo, &json!({"active_tasks": [{"status": "done"}]}), &[]);
    assert_eq!(run.code, 3);
    assert!(
        run.stderr
            .contains("field `active_tasks[0].id` must be a non-empty string"),
        "{}",
        run.stderr
    );
    assert_eq!(sessions_under(&repo.join(".claude/handover")), before);
    assert!(!env.root().join("x").exists());
}

#[test]
fn nothing_is_written_through_a_symlink_out_of_the_root() {
    let env = TestEnv::new();
    let repo = env.repo();
    let outside = env.root().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::create_dir_all(repo.join(".claude/handover")).unwrap();
    std::os::unix::fs::symlink(&outside, repo.join(".claude/handover/main")).unwrap();
    let run = env.save(&repo, &json!({}), &[]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(
        run.stderr.contains("not a plain directory"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
}

#[test]
fn store_both_writes_files_and_a_record_and_bad_store_settings_are_refused() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.git(&repo, &["config", "handover.store", "both"]);
    let run = env.save(&repo, &json!({}), &["--json", "-q"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(run.stderr, "");
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    let head = env.git(&repo, &["rev-parse", "HEAD"]);
    assert_eq!(report["noted"], head.as_str());
    assert!(
        repo.join(".claude/handover")
            .join(report["key"].as_str().unwrap())
            .join("project-state.json")
            .is_file()
    );
    assert_eq!(
        env.git(&repo, &["notes", "--ref=handover", "list"])
            .split(' ')
            .nth(1),
        Some(head.as_str())
    );

    env.git(&repo, &["config", "handover.notesRef", "refs/heads/main"]);
    let run = env.save(&repo, &json!({}), &[]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert_eq!(
        run.stderr.lines().next().unwrap(),
        "git-handover: invalid value \"refs/heads/main\" for config key handover.notesRef: expected a reference name under refs/notes/"
    );

    // No commit to put the note on: refused before anything is written.
    let empty = env.init("empty");
    env.git(&empty, &["config", "handover.store", "notes"]);
    let run = env.save(&empty, &json!({}), &["--team", "t"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(
        run.stderr
            .contains("HEAD has no commit to attach the note to"),
        "{}",
        run.stderr
    );
    assert!(!empty.join(".claude").exists(), "nothing written");
}

#[test]
fn save_on_a_terminal_without_input_says_so_instead_of_waiting() {
    let env = TestEnv::new();
    let repo = env.repo();
    let cmd = format!(
        "{} save; echo \"exit=$?\"",
        env!("CARGO_BIN_EXE_git-handover")
    );
    let out = env
        .command("script")
        .args(["-qec", &cmd, "/dev/null"])
        .current_dir(&repo)
        .stdin(std::process::Stdio::piped())
        .output()
        .expect("script(1) from util-linux runs");
    let screen = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    assert!(
        screen.contains(
            "git-handover: no input: this command reads from stdin, and stdin is a terminal"
        ),
        "{screen}"
    );
    assert!(screen.contains("exit=2"), "{screen}");
    assert!(!repo.join(".claude/handover").exists());
}
