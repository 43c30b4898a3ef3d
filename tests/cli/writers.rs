//! What agents write (issue 32): `save` warning about typos with the nearest known
//! name, hints that fit their input (stdin or a file), paths printed without `..`.

use crate::common::TestEnv;

/// Item 7: an input that cannot be read is the command's input, not a stored file:
/// its hint says to fix the input (stdin or the `--from` file), never to remove it.
#[test]
fn hints_fit_their_input() {
    let env = TestEnv::new();
    let repo = env.repo();
    let empty = env.handover_fed(&repo, &["save"], b"", |_| {});
    assert_eq!(empty.code, 3, "{}", empty.snapshot());
    assert!(
        empty
            .stderr
            .contains("hint: fix the input given on stdin and run the command again"),
        "{}",
        empty.snapshot()
    );
    assert!(
        !empty.stderr.contains("remove <stdin>"),
        "{}",
        empty.snapshot()
    );
    let json = env.handover_fed(&repo, &["save", "--json"], b"[1]", |_| {});
    let doc = json.json();
    assert_eq!(doc["error"]["kind"], "invalid_field", "{doc}");
    assert_eq!(doc["error"]["file"], "<stdin>");
    assert!(
        doc["error"]["hint"].as_str().unwrap().contains("stdin"),
        "{doc}"
    );
    let file = env.root().join("bad.json");
    env.write(&file, "{\"active_tasks\": [");
    let bad = env.handover(&repo, &["save", "--from", file.to_str().unwrap()]);
    assert_eq!(bad.code, 3, "{}", bad.snapshot());
    assert!(
        bad.stderr.contains(
            "hint: fix [ROOT]/bad.json and run the command again; nothing was written, \
             and [ROOT]/bad.json is left as it is"
        ),
        "{}",
        bad.snapshot()
    );
    let here = env.handover_fed(&repo, &["here"], b"\xff\xfe", |_| {});
    assert_eq!(here.code, 3, "{}", here.snapshot());
    assert!(here.stderr.contains("on stdin"), "{}", here.snapshot());
    // A stored handover that cannot be read keeps its hint: fix or remove it by hand.
    env.write_session(&repo, "main/20261130-100000", &serde_json::json!([1]));
    let stored = env.handover(&repo, &["render", "main/20261130-100000"]);
    assert!(
        stored.stderr.contains("fix or remove"),
        "{}",
        stored.snapshot()
    );
}

/// Item 15: a linked worktree's common directory is printed without `..`, and so is a
/// man directory named through `bin/..`.
#[test]
fn printed_paths_have_no_dot_dot() {
    let env = TestEnv::new();
    let repo = env.repo();
    let wt = env.worktree(&repo, "linked", "feature/x");
    let run = env.handover_fed(
        &wt,
        &["save"],
        br#"{"active_tasks":[{"id":"T1","description":"d","status":"in_progress"}]}"#,
        |_| {},
    );
    run.assert_ok();
    assert!(
        run.stderr.contains("/.git/info/exclude"),
        "{}",
        run.snapshot()
    );
    assert!(!run.stderr.contains(".."), "{}", run.snapshot());
    let bin = env.root().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let dir = format!("{}/../share/man/man1", bin.display());
    let man = env.handover(&repo, &["man", &dir]);
    man.assert_ok();
    assert!(!man.stdout.contains(".."), "{}", man.snapshot());
    assert!(
        man.stdout.contains("share/man/man1/git-handover.1"),
        "{}",
        man.snapshot()
    );
}

/// Item 13: after a rebase, the short and the long `status` count the same commits
/// (each once, however many tasks record it), in the same words.
#[test]
fn short_and_long_status_count_rewritten_commits_alike() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    env.commit(&repo, "base.txt", "base\n", "base", "2026-11-20T10:00:00Z");
    env.git(&repo, &["checkout", "-q", "-b", "feature"]);
    let f1 = env.commit(&repo, "f1.txt", "1\n", "one", "2026-11-21T10:00:00Z");
    let f2 = env.commit(&repo, "f2.txt", "2\n", "two", "2026-11-22T10:00:00Z");
    env.git(&repo, &["checkout", "-q", "main"]);
    env.commit(&repo, "m.txt", "m\n", "main moves", "2026-11-23T10:00:00Z");
    env.git(&repo, &["checkout", "-q", "feature"]);
    env.git_at(&repo, "2026-11-24T10:00:00Z", &["rebase", "-q", "main"]);
    env.write(
        &repo.join(".claude/handover/feature/20261130-110000/project-state.json"),
        &serde_json::json!({"version": 4, "generated_at": "2026-11-30T11:00:00Z",
            "status": "READY", "workspace": {"branch": "feature"}, "active_tasks": [
            {"id": "T1", "status": "done", "commit_sha": f1},
            {"id": "T2", "status": "done", "commit_sha": f2},
            {"id": "T3", "status": "done", "commit_sha": &f1[..10]},
            {"id": "T4", "status": "in_progress", "description": "more"}]})
        .to_string(),
    );
    let long = env.handover(&repo, &["status"]);
    assert!(long.stdout.contains("2 rewritten"), "{}", long.snapshot());
    let rows: Vec<&str> = long
        .stdout
        .lines()
        .filter(|l| l.contains("rewritten →"))
        .collect();
    assert_eq!(rows.len(), 2, "{}", long.snapshot());
    assert!(rows[0].contains("[T1, T3]"), "{}", long.snapshot());
    let short = env.handover(&repo, &["status", "--short"]);
    assert!(
        short.stdout.contains(" 2-commits-rewritten "),
        "{}",
        short.snapshot()
    );
}

/// Item 5: typos in a save's input are kept as written (nothing lost) and said, with
/// the nearest known name, on stderr and under `--json`; the save succeeds.
#[test]
fn save_warns_about_unknown_keys_and_statuses() {
    let env = TestEnv::new();
    let repo = env.repo();
    let input = br#"{"notes": "x", "active_tasks": [{"id": "T1", "status": "in-progress",
        "descripton": "Parse", "files": ["a.rs"], "next": "heredocs"},
        {"id": "T2", "status": "pending", "description": "ok"}]}"#;
    let run = env.handover_fed(&repo, &["save"], input, |_| {});
    insta::assert_snapshot!(run.snapshot(), @r#"
    exit: 0
    --- stdout
    main/20261130-120000
    --- stderr
    git-handover: added /.claude/handover/ /.agents/handover/ to [ROOT]/repo/.git/info/exclude: handover state stays out of commits (handover.exclude=false turns this off)
    git-handover: warning: notes: unknown key "notes", kept as written (did you mean "session_notes"?)
    git-handover: warning: active_tasks[0].status: unknown task status "in-progress", kept as written (did you mean "in_progress"?)
    git-handover: warning: active_tasks[0].descripton: unknown key "descripton", kept as written (did you mean "description"?)
    git-handover: warning: active_tasks[0].files: unknown key "files", kept as written (did you mean "file_paths"?)
    git-handover: warning: active_tasks[0].next: unknown key "next", kept as written (did you mean "next_action"?)
    "#);
    let state = crate::common::read_json(
        &repo.join(".claude/handover/main/20261130-120000/project-state.json"),
    );
    let t1 = &state["active_tasks"][0];
    assert_eq!(t1["status"], "in-progress");
    assert_eq!(t1["descripton"], "Parse");
    assert_eq!(t1["files"], serde_json::json!(["a.rs"]));
    assert_eq!(state["notes"], "x");
    let run = env.handover_fed(&repo, &["save", "--json", "-q"], input, |_| {});
    run.assert_ok();
    assert_eq!(run.stderr, "", "-q says nothing");
    let doc = run.json();
    let w = &doc["warnings"];
    assert_eq!(w.as_array().unwrap().len(), 5, "{doc}");
    assert_eq!(
        w[1],
        serde_json::json!({"kind": "unknown_status", "field": "active_tasks[0].status",
            "found": "in-progress", "nearest": "in_progress",
            "message": "active_tasks[0].status: unknown task status \"in-progress\", kept as written (did you mean \"in_progress\"?)"})
    );
    let clean = env.handover_fed(
        &repo,
        &["save", "--json"],
        br#"{"active_tasks": [{"id": "T3", "status": "done", "commit_sha": "HEAD"}]}"#,
        |_| {},
    );
    assert_eq!(clean.json()["warnings"], serde_json::json!([]));
    assert_eq!(clean.stderr, "");
}

/// Item 17: the README's completion lines run as printed on a fresh HOME (no directory
/// made beforehand) and write each script; `completions --help` gives the same lines.
#[test]
fn the_readme_completion_lines_run_on_a_fresh_home_and_agree_with_the_help() {
    let env = TestEnv::new();
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let section = readme
        .split("## Shell completion and man pages\n")
        .nth(1)
        .unwrap();
    let block = section
        .split("```sh\n")
        .nth(1)
        .unwrap()
        .split("\n```")
        .next()
        .unwrap();
    let lines: Vec<&str> = block.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 6, "{block}");
    let help = env.handover(env.root(), &["completions", "--help"]);
    for line in &lines {
        assert!(
            help.stdout.contains(&format!("  {line}\n")),
            "{line} not in {}",
            help.stdout
        );
    }
    let home = env.root().join("fresh-home");
    std::fs::create_dir(&home).unwrap();
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_git-handover"))
        .parent()
        .unwrap()
        .to_owned();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = env
        .command("bash")
        .args(["-e", "-c", block])
        .current_dir(&home)
        .env("HOME", &home)
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for file in [
        ".local/share/bash-completion/completions/git-handover",
        ".zfunc/_git-handover",
        ".config/fish/completions/git-handover.fish",
    ] {
        let len = std::fs::metadata(home.join(file)).map_or(0, |m| m.len());
        assert!(len > 1000, "{file}: {len} bytes");
    }
    assert!(!readme.contains("../shared/"), "a clone has no ../shared");
    assert!(readme.contains("git handover hook install --git post-commit"));
}

/// Item 17: `continue` of a key no worktree or store has points to `status --keys`.
#[test]
fn continue_of_an_unknown_key_points_to_status_keys() {
    let env = TestEnv::new();
    let repo = env.repo();
    let run = env.handover(&repo, &["continue", "nosuch/key"]);
    insta::assert_snapshot!(run.snapshot(), @r#"
    exit: 1
    --- stdout
    --- stderr
    git-handover: no session "nosuch/key" in any worktree or in the notes store
    hint: `git handover status --keys` lists the key of every session, in every worktree and in the notes store
    "#);
}

/// Item 16: `save --help`'s first example, which spans two lines inside its JSON, runs
/// as printed; the usage line says `git handover`, and the global options come after
/// the command's own.
#[test]
fn the_save_example_runs_as_printed_and_help_puts_globals_last() {
    let env = TestEnv::new();
    let repo = env.repo();
    let help = env.handover(&repo, &["save", "--help"]);
    help.assert_ok();
    assert!(
        help.stdout.contains("Usage: git handover save [OPTIONS]"),
        "{}",
        help.stdout
    );
    let own = help.stdout.find("--from <FILE>").unwrap();
    let globals = help.stdout.find("Global options:").unwrap();
    assert!(
        own < globals && help.stdout[globals..].contains("--json"),
        "{}",
        help.stdout
    );
    let examples = help.stdout.split("Examples:\n").nth(1).unwrap();
    // The lines up to the one that pipes into `git handover save`.
    let mut first = String::new();
    for line in examples.lines() {
        first.push_str(line.trim_start());
        first.push('\n');
        if line.ends_with("| git handover save") {
            break;
        }
    }
    assert!(first.starts_with("echo '{"), "{first}");
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_git-handover"))
        .parent()
        .unwrap()
        .to_owned();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = env
        .command("bash")
        .args(["-e", "-c", &first])
        .current_dir(&repo)
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{first}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let state = crate::common::read_json(
        &repo.join(".claude/handover/main/20261130-120000/project-state.json"),
    );
    assert_eq!(state["active_tasks"][0]["status"], "in_progress");
    assert_eq!(state["active_tasks"][0]["description"], "Parse");
}
