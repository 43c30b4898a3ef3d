//! The write side: save, task, render, here, migrate, clean — on real repositories,
//! with bad input, and with concurrent and killed writers.

use std::path::Path;

use crate::common::{TestEnv, read_json};
use serde_json::{Value, json};

fn sessions_under(dir: &Path) -> Vec<String> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.join("project-state.json").is_file() {
                out.push(p.strip_prefix(base).unwrap().display().to_string());
            }
            if e.file_type().unwrap().is_dir() {
                walk(base, &p, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

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
    // That session is finished, so the next save at the same second makes a new one.
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
fn task_done_stores_the_full_sha_and_the_last_one_completes_the_session() {
    let env = TestEnv::new();
    let repo = env.repo();
    let second = env.commit(&repo, "b.txt", "b\n", "second", "2026-11-30T11:00:00Z");
    let first = env.git(&repo, &["rev-parse", "HEAD~1"]);
    assert_eq!(
        env.handover(&repo, &["task", "add", "T1", "One", "--file", "a.txt"])
            .code,
        0
    );
    assert_eq!(
        env.handover(&repo, &["task", "add", "T2", "Two", "--next", "write it"])
            .code,
        0
    );
    let run = env.handover(&repo, &["task", "done", "T1", "--commit", "HEAD~1"]);
    assert_eq!(
        run.stdout,
        "[T1] done in main/20261130-120000 (READY)\n",
        "{}",
        run.snapshot()
    );
    let run = env.handover(&repo, &["task", "done", "T2"]);
    assert_eq!(
        run.stdout,
        "[T2] done in main/20261130-120000 (ALL_COMPLETE)\n"
    );
    let dir = repo.join(".claude/handover/main/20261130-120000");
    let state = read_json(&dir.join("project-state.json"));
    assert_eq!(state["active_tasks"][0]["commit_sha"], first.as_str());
    assert_eq!(state["active_tasks"][1]["commit_sha"], second.as_str());
    assert_eq!(
        state["active_tasks"][1]["last_touched"],
        "2026-11-30T12:00:00+00:00"
    );
    let md = std::fs::read_to_string(dir.join("handover.md")).unwrap();
    assert!(md.contains(&format!("- [T2] Two ({second})")), "{md}");
    assert!(md.contains("> Status: ALL_COMPLETE"), "{md}");
    let bad = env.handover(&repo, &["task", "done", "T1", "--commit", "no-such-rev"]);
    insta::assert_snapshot!(bad.snapshot(), @r#"
    exit: 2
    --- stdout
    --- stderr
    git-handover: cannot resolve "no-such-rev" to a commit
    hint: name a commit: a sha, a branch, HEAD~1
    "#);
}

#[test]
fn a_state_written_by_the_original_tools_keeps_every_unknown_key_through_task_done() {
    let env = TestEnv::new();
    let repo = env.repo();
    let dir = repo.join(".claude/handover/main/20261129-080000");
    let original = json!({
        "version": 3,
        "generated_at": "2026-11-29T08:00:00+09:00",
        "session_id": "shell-tool-session",
        "status": "READY",
        "workspace": {"root": repo.display().to_string(), "branch": "main", "is_worktree": false, "shell": "zsh"},
        "agent_model": {"name": "some-model", "temperature": 0.70},
        "active_tasks": [
            {"id": "T1", "description": "d", "status": "in_progress", "file_paths": [], "priority": 1,
             "notes": {"tried": ["a", "b"]}, "last_touched": "2026-11-29T08:00:00+09:00"}
        ],
        "recent_decisions": [{"decision": "x", "rationale": "y", "date": "2026-11-29", "author": "agent-7"}],
        "architecture_changes": [],
        "known_issues": [{"description": "flaky", "severity": "low", "ticket": 42}],
        "session_hash": "whatever-the-shell-tool-wrote"
    });
    // Written as the shell tools would (jq), with a number spelt `0.70`.
    let text = serde_json::to_string_pretty(&original)
        .unwrap()
        .replace("0.7", "0.70");
    env.write(&dir.join("project-state.json"), &text);
    let original: Value = serde_json::from_str(&text).unwrap();
    let run = env.handover(&repo, &["task", "done", "T1"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let after = read_json(&dir.join("project-state.json"));
    assert_eq!(after["workspace"]["shell"], "zsh");
    assert_eq!(after["agent_model"], original["agent_model"]);
    assert_eq!(after["active_tasks"][0]["priority"], 1);
    assert_eq!(
        after["active_tasks"][0]["notes"],
        original["active_tasks"][0]["notes"]
    );
    assert_eq!(after["recent_decisions"][0]["author"], "agent-7");
    assert_eq!(after["known_issues"][0]["ticket"], 42);
    assert_eq!(after["status"], "ALL_COMPLETE");
    let text = std::fs::read_to_string(dir.join("project-state.json")).unwrap();
    assert!(text.contains("0.70"), "numbers keep their spelling: {text}");
    let keys: Vec<&String> = after.as_object().unwrap().keys().collect();
    let mut original_keys: Vec<&String> = original.as_object().unwrap().keys().collect();
    // The write count and the state it replaced are the keys added, after the id
    // (SPEC section 8).
    let (seq, parent) = ("seq".to_owned(), "parent_hash".to_owned());
    let at = original_keys
        .iter()
        .position(|k| *k == "session_id")
        .unwrap();
    original_keys.insert(at + 1, &seq);
    original_keys.insert(at + 2, &parent);
    assert_eq!(keys, original_keys, "key order is kept");
    assert_eq!(after["seq"], 1, "the first write the tool counts");
    assert!(
        after["parent_hash"].is_string(),
        "and names what it replaced"
    );
}

#[test]
fn bad_input_is_refused_and_nothing_is_written() {
    let env = TestEnv::new();
    let repo = env.repo();
    let dir = repo.join(".claude/handover/main/20261130-100000");
    let corrupt = "{\"version\": 3, \"status\": \"READY\",\n \"active_tasks\": [\n";
    env.write(&dir.join("project-state.json"), corrupt);
    // The bad session is named and left alone; the agent's write goes on in a session
    // of its own (issue 14, item 8: one bad file must not stop every save).
    let run = env.handover(&repo, &["task", "add", "T1", "x"]);
    insta::assert_snapshot!(run.snapshot(), @r"
    exit: 0
    --- stdout
    [T1] pending in main/20261130-120000 (READY)
    --- stderr
    git-handover: added /.claude/handover/ /.agents/handover/ to [ROOT]/repo/.git/info/exclude: handover state stays out of commits (handover.exclude=false turns this off)
    git-handover: warning: invalid json in [ROOT]/repo/.claude/handover/main/20261130-100000/project-state.json at line 3, column 0: EOF while parsing a list
    ");
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
fn render_writes_golden_handover_md_in_english_and_japanese() {
    let env = TestEnv::new();
    let repo = env.repo();
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let dir = repo.join(".claude/handover/main/20261130-100000");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        golden.join("project-state.json"),
        dir.join("project-state.json"),
    )
    .unwrap();
    for (lang, file) in [("en", "handover.en.md"), ("ja", "handover.ja.md")] {
        let run = env.handover(&repo, &["--lang", lang, "render", "main/20261130-100000"]);
        assert_eq!(run.code, 0, "{}", run.snapshot());
        let rendered = std::fs::read_to_string(dir.join("handover.md")).unwrap();
        assert_eq!(
            rendered,
            std::fs::read_to_string(golden.join(file)).unwrap(),
            "{lang}"
        );
        let again = env.handover(&repo, &["--lang", lang, "render", "main/20261130-100000"]);
        let same = if lang == "en" {
            "is up to date\n"
        } else {
            "は最新です\n"
        };
        assert!(
            again.stdout.ends_with(same),
            "byte-stable: {}",
            again.stdout
        );
    }
    assert_eq!(
        env.handover(&repo, &["--lang", "en", "render", "main/20261130-100000"])
            .code,
        0
    );
    let by_locale = env.handover_with(&repo, &["render", "main/20261130-100000"], |c| {
        c.env("LANG", "ja_JP.UTF-8");
    });
    assert!(
        by_locale.stdout.ends_with("handover.md を再生成しました\n"),
        "the locale chose Japanese: {}",
        by_locale.snapshot()
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("handover.md")).unwrap(),
        std::fs::read_to_string(golden.join("handover.ja.md")).unwrap()
    );
}

#[test]
fn here_writes_a_stamped_note_and_refuses_to_replace_one_without_force() {
    let env = TestEnv::new();
    let repo = env.repo();
    let body = env.root().join("body.md");
    env.write(&body, "# Continue Here\r\n> Last updated: old | Branch: old\r\n\r\n## Objective\r\nShip it\r\n## Next Steps\r\n1. **[USER]** approve\r\n");
    let run = env.handover(&repo, &["here", "--from", body.to_str().unwrap()]);
    assert_eq!(
        run.stdout,
        "wrote [ROOT]/repo/CONTINUE_HERE.md\n",
        "{}",
        run.snapshot()
    );
    assert_eq!(
        std::fs::read_to_string(repo.join("CONTINUE_HERE.md")).unwrap(),
        "# Continue Here\n\n> Last updated: 2026-11-30T12:00:00Z | Branch: main\n\n## Objective\nShip it\n## Next Steps\n1. **[USER]** approve\n"
    );
    let refused = env.handover(&repo, &["here", "--from", body.to_str().unwrap()]);
    insta::assert_snapshot!(refused.snapshot(), @r"
    exit: 2
    --- stdout
    --- stderr
    git-handover: [ROOT]/repo/CONTINUE_HERE.md exists and has not been consumed
    hint: brief on it with `git handover continue`, or replace it with --force
    ");
    let forced = env.handover(
        &repo,
        &["here", "--force", "--from", body.to_str().unwrap()],
    );
    assert_eq!(forced.stdout, "replaced [ROOT]/repo/CONTINUE_HERE.md\n");
    let names: Vec<_> = std::fs::read_dir(&repo)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        names.iter().all(|n| !n.to_string_lossy().contains("tmp")),
        "no draft left: {names:?}"
    );
}

#[test]
fn migrate_moves_a_legacy_state_and_removes_the_old_files_only_after_the_copy_reads_back() {
    let env = TestEnv::new();
    let repo = env.repo();
    let legacy = json!({"version": 2, "generated_at": "2026-11-28T09:00:00Z", "status": "READY", "x_legacy": [1],
                        "active_tasks": [{"id": "T1", "status": "in_progress", "description": "old work"}]});
    env.write(
        &repo.join(".claude/project-state.json"),
        &legacy.to_string(),
    );
    env.write(&repo.join(".claude/handover.md"), "old view\n");
    let run = env.handover(&repo, &["migrate"]);
    insta::assert_snapshot!(run.snapshot(), @r"
    exit: 0
    --- stdout
    migrated [ROOT]/repo/.claude/project-state.json to session main/20261130-120000
    removed the old .claude/handover.md
    --- stderr
    ");
    assert!(!repo.join(".claude/project-state.json").exists());
    assert!(!repo.join(".claude/handover.md").exists());
    let state = read_json(&repo.join(".claude/handover/main/20261130-120000/project-state.json"));
    assert_eq!(state["version"], 4);
    assert_eq!(state["x_legacy"], json!([1]));
    assert_eq!(
        state["generated_at"], "2026-11-28T09:00:00Z",
        "the handover's own time is kept"
    );
    assert_eq!(state["workspace"]["branch"], "main");
    assert!(
        repo.join(".claude/handover/main/20261130-120000/handover.md")
            .is_file()
    );
    let again = env.handover(&repo, &["migrate"]);
    assert_eq!(again.code, 1, "{}", again.snapshot());

    // An invalid legacy state is not migrated and not touched.
    env.write(&repo.join(".claude/project-state.json"), "{\"version\": 2}");
    let bad = env.handover(&repo, &["migrate"]);
    assert_eq!(bad.code, 3, "{}", bad.snapshot());
    assert_eq!(
        std::fs::read_to_string(repo.join(".claude/project-state.json")).unwrap(),
        "{\"version\": 2}"
    );
}

#[test]
fn clean_removes_old_finished_sessions_in_every_worktree_and_nothing_else() {
    let env = TestEnv::new();
    let repo = env.repo();
    let wt = env.worktree(&repo, "wt", "other");
    let write = |dir: &Path, key: &str, status: &str, at: &str| {
        env.write(
            &dir.join(".claude/handover")
                .join(key)
                .join("project-state.json"),
            &json!({"version": 3, "generated_at": at, "status": status, "active_tasks": []})
                .to_string(),
        );
    };
    write(
        &repo,
        "main/20261101-000000",
        "ALL_COMPLETE",
        "2026-11-01T00:00:00Z",
    );
    write(
        &repo,
        "main/20261129-000000",
        "ALL_COMPLETE",
        "2026-11-29T00:00:00Z",
    );
    write(
        &repo,
        "main/20261102-000000",
        "READY",
        "2026-11-02T00:00:00Z",
    );
    write(
        &wt,
        "other/20261103-000000",
        "ALL_COMPLETE",
        "2026-11-03T00:00:00Z",
    );
    env.write(
        &repo.join(".claude/handover/main/20261101-000000/notes.txt"),
        "mine, not the tool's",
    );
    let outside = env.root().join("outside-session");
    write(&outside, "x/1", "ALL_COMPLETE", "2026-11-01T00:00:00Z");
    std::os::unix::fs::symlink(
        outside.join(".claude/handover/x"),
        repo.join(".claude/handover/linked"),
    )
    .unwrap();

    let dry = env.handover(&repo, &["clean", "--dry-run"]);
    insta::assert_snapshot!(dry.snapshot(), @r"
    exit: 0
    --- stdout
    would remove [ROOT]/repo/.claude/handover/main/20261101-000000
    would remove [ROOT]/wt/.claude/handover/other/20261103-000000
    2 sessions would be removed
    --- stderr
    git-handover: warning: skipped [ROOT]/repo/.claude/handover/linked: a symbolic link: not followed, not removed
    ");
    assert!(
        repo.join(".claude/handover/main/20261101-000000/project-state.json")
            .exists()
    );
    let run = env.handover(&repo, &["clean"]);
    insta::assert_snapshot!(run.snapshot(), @r"
    exit: 0
    --- stdout
    removing [ROOT]/repo/.claude/handover/main/20261101-000000
    removing [ROOT]/wt/.claude/handover/other/20261103-000000
    kept [ROOT]/repo/.claude/handover/main/20261101-000000: the session's own files were removed, but it holds notes.txt, which git-handover did not write (remove it by hand when done)
    removed 2 sessions
    --- stderr
    git-handover: warning: skipped [ROOT]/repo/.claude/handover/linked: a symbolic link: not followed, not removed
    ");
    assert_eq!(
        sessions_under(&repo.join(".claude/handover")),
        ["main/20261102-000000", "main/20261129-000000"]
    );
    assert!(
        repo.join(".claude/handover/main/20261101-000000/notes.txt")
            .exists()
    );
    assert!(
        !wt.join(".claude/handover/other").exists(),
        "empty parents are removed"
    );
    assert!(
        outside
            .join(".claude/handover/x/1/project-state.json")
            .exists(),
        "nothing behind the link is touched"
    );
    let older = env.handover(&repo, &["clean", "--older-than", "12h"]);
    assert!(
        older.stdout.contains("main/20261129-000000"),
        "{}",
        older.snapshot()
    );
}

#[test]
fn clean_team_removes_a_finished_team_only() {
    let env = TestEnv::new();
    let repo = env.repo();
    let write = |key: &str, status: &str| {
        env.write(
            &repo.join(".claude/handover").join(key).join("project-state.json"),
            &json!({"version": 3, "generated_at": "2026-11-30T11:00:00Z", "status": status, "active_tasks": []}).to_string(),
        );
    };
    write("done-team/a", "ALL_COMPLETE");
    write("done-team/b", "ALL_COMPLETE");
    write("busy-team/a", "ALL_COMPLETE");
    write("busy-team/b", "READY");
    let run = env.handover(&repo, &["clean", "--team", "busy-team"]);
    assert!(
        run.stderr
            .contains("the team has unfinished sessions: busy-team/b"),
        "{}",
        run.snapshot()
    );
    assert!(repo.join(".claude/handover/busy-team/a").exists());
    let run = env.handover(&repo, &["clean", "--team", "done-team"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(!repo.join(".claude/handover/done-team").exists());
    assert_eq!(env.handover(&repo, &["clean", "--team", "../x"]).code, 2);
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
