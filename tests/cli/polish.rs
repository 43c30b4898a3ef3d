//! The small things a demanding user notices (issue 20): one assertion each.

use std::path::Path;

use crate::common::TestEnv;
use serde_json::{Value, json};

#[test]
fn log_of_a_key_without_records_says_so_and_lists_close_keys() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.git(&repo, &["config", "handover.store", "both"]);
    let input = env.root().join("in.json");
    env.write(
        &input,
        &json!({"active_tasks": [{"id": "T1", "status": "in_progress"}]}).to_string(),
    );
    let run = env.handover(&repo, &["save", "--from", input.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let log = env.handover(&repo, &["log", "main/19990101-000000"]);
    assert_eq!(log.code, 0, "{}", log.snapshot());
    assert_eq!(
        log.stdout,
        "no records of main/19990101-000000 in refs/notes/handover\nclose keys: main/20261130-120000\n"
    );
}

#[test]
fn a_commit_recorded_twice_is_counted_once_and_rewritten_is_not_red() {
    let env = TestEnv::new();
    let repo = env.repo();
    let sha = env.git(&repo, &["rev-parse", "HEAD"]);
    env.write_session(
        &repo,
        "main/20261130-110000",
        &json!({"version": 3, "status": "READY", "generated_at": "2026-11-30T11:00:00Z",
                "workspace": {"branch": "main"},
                "active_tasks": [
                    {"id": "1", "status": "done", "commit_sha": sha},
                    {"id": "2", "status": "done", "commit_sha": sha},
                    {"id": "3", "status": "in_progress"}]}),
    );
    let run = env.handover(&repo, &["status"]);
    assert!(run.stdout.contains("commits    1 ok\n"), "{}", run.stdout);
    // Numeric ids are shown bracketed, never like counts.
    assert!(
        run.stdout.contains("next       [3] (in_progress)"),
        "{}",
        run.stdout
    );
}

#[test]
fn json_times_have_one_precision_and_old_ages_read_as_dates() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.write_session(
        &repo,
        "main/20150101-000000",
        &json!({"version": 3, "status": "READY", "generated_at": "2015-01-01T00:00:00Z",
                "workspace": {"branch": "main"},
                "active_tasks": [{"id": "T1", "status": "in_progress"}]}),
    );
    let run = env.handover_with(&repo, &["--json", "status"], |c| {
        c.env("GIT_HANDOVER_NOW", "2026-11-30T12:00:00.123456789Z");
    });
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["now"], "2026-11-30T12:00:00Z");
    assert_eq!(
        v["worktrees"][0]["handovers"][0]["written_at"],
        "2015-01-01T00:00:00Z"
    );
    let human = env.handover(&repo, &["status"]);
    assert!(
        human
            .stdout
            .contains("superseded, written on 2015-01-01 on main"),
        "{}",
        human.stdout
    );
}

#[test]
fn render_finds_a_key_in_another_worktree() {
    let env = TestEnv::new();
    let repo = env.repo();
    let wt = env.worktree(&repo, "wt", "side");
    env.write_session(
        &wt,
        "side/20261130-110000",
        &json!({"version": 3, "status": "READY", "workspace": {"branch": "side"},
                "active_tasks": [{"id": "T1", "status": "in_progress"}]}),
    );
    let run = env.handover(&repo, &["render", "side/20261130-110000"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        wt.join(".claude/handover/side/20261130-110000/handover.md")
            .exists()
    );
}

#[test]
fn a_worktree_with_only_a_finished_session_says_so() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.write_session(
        &repo,
        "main/20261130-110000",
        &json!({"version": 3, "status": "ALL_COMPLETE", "generated_at": "2026-11-30T11:00:00Z",
                "workspace": {"branch": "main"},
                "active_tasks": [{"id": "T1", "status": "done"}]}),
    );
    let run = env.handover(&repo, &["continue"]);
    assert_eq!(run.code, 1, "{}", run.snapshot());
    assert!(
        run.stdout.contains(
            "this worktree has one finished session, main/20261130-110000 (every task done)"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn here_refuses_an_empty_note_and_warns_of_missing_sections() {
    let env = TestEnv::new();
    let repo = env.repo();
    let empty = env.root().join("empty.md");
    env.write(&empty, "\n\n");
    let run = env.handover(&repo, &["here", "--from", empty.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(
        run.stderr.contains("is empty: nothing was written"),
        "{}",
        run.stderr
    );
    assert!(!repo.join("CONTINUE_HERE.md").exists());
    let partial = env.root().join("partial.md");
    env.write(&partial, "## Objective\nship it\n");
    let run = env.handover(&repo, &["here", "--from", partial.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        run.stderr.contains(
            "the note has no section Completed, In Progress, Next Steps, Context; it was written as given"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn local_scope_keeps_the_local_settings_out_of_commits() {
    let env = TestEnv::new();
    let repo = env.repo();
    let run = env.handover(&repo, &["hook", "install", "--scope", "local"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let exclude = std::fs::read_to_string(repo.join(".git/info/exclude")).unwrap();
    assert!(
        exclude.lines().any(|l| l == "/.claude/settings.local.json"),
        "{exclude}"
    );
    assert_eq!(env.git(&repo, &["status", "--porcelain"]), "");
}

#[test]
fn dash_c_twice_composes_like_git() {
    let env = TestEnv::new();
    let repo = env.repo();
    std::fs::create_dir_all(repo.join("sub/deeper")).unwrap();
    let run = env.handover(
        env.root(),
        &[
            "-C",
            "repo",
            "-C",
            "sub/deeper",
            "--json",
            "status",
            "--here",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["worktrees"][0]["path"], "[ROOT]/repo");
}

// This only reads README: the command itself (cargo install + status) is run by hand
// from a clean clone before each release of the README; a test that installs would
// double the suite's time.
#[test]
fn the_readme_install_command_has_no_placeholder_and_ends_in_status() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let block = readme.split("```sh\n").nth(1).unwrap();
    let command = block.split("\n```").next().unwrap();
    assert!(
        !command.contains("/path/to/"),
        "no placeholder to edit: {command}"
    );
    assert!(command.ends_with("&& git handover status"), "{command}");
}

#[test]
fn log_says_what_changed_since_the_previous_record() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.git(&repo, &["config", "handover.store", "both"]);
    for args in [
        vec!["task", "add", "T1", "parse"],
        vec!["task", "add", "T2", "docs"],
        vec!["task", "start", "T1"],
        vec!["task", "done", "T1"],
    ] {
        let run = env.handover(&repo, &args);
        assert_eq!(run.code, 0, "{}", run.snapshot());
    }
    let log = env.handover(&repo, &["log"]);
    let lines: Vec<&str> = log.stdout.lines().collect();
    // Newest first: done, started, T2 added, T1 added.
    let changes: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("      "))
        .map(|l| l.trim())
        .collect();
    assert_eq!(
        changes,
        [
            "[T1] in_progress → done",
            "[T1] pending → in_progress",
            "+ [T2] pending",
            "+ [T1] pending",
        ],
        "{}",
        log.stdout
    );
}

#[test]
fn sync_says_what_happened_and_names_a_remote_it_cannot_use() {
    let env = TestEnv::new();
    let repo = env.repo();
    let run = env.handover(&repo, &["sync", "nowhere"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert_eq!(
        run.stderr.lines().next().unwrap(),
        "git-handover: there is no remote named nowhere (see `git remote -v`)"
    );
    let gone = env.root().join("gone.git");
    env.git(&repo, &["remote", "add", "origin", gone.to_str().unwrap()]);
    let run = env.handover(&repo, &["sync"]);
    assert_eq!(run.code, 1, "{}", run.snapshot());
    assert!(
        run.stderr
            .starts_with("git-handover: cannot reach origin: "),
        "{}",
        run.stderr
    );
    env.git(
        env.root(),
        &["init", "-q", "--bare", gone.to_str().unwrap()],
    );
    let run = env.handover(&repo, &["sync"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        run.stdout
            .contains("nothing to do: neither side has records"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_rewritten_commit_is_a_notice_in_yellow_not_an_error_in_red() {
    let f = crate::common::fixture::fixture();
    let run = f
        .env
        .handover(&f.wt_x, &["--color", "always", "status", "--here"]);
    let line = run
        .stdout
        .lines()
        .find(|l| l.contains("rewritten") && l.contains("commits"))
        .unwrap_or_else(|| panic!("{}", run.stdout));
    assert!(line.contains("\u{1b}[33m1 rewritten"), "yellow: {line:?}");
    assert!(!line.contains("\u{1b}[31m1 rewritten"), "not red: {line:?}");
}

/// The README's claim lines (its "Two agents, one task list" block) run as printed, from
/// the repository, one after the other, each doing what its comment says; and its
/// `doctor` lines run and say what is wrong with a fresh repository.
#[test]
fn the_readme_claim_and_doctor_lines_run_as_printed() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.save(
        &repo,
        &json!({"active_tasks": [
            {"id": "T1", "status": "pending", "description": "one"},
            {"id": "T2", "status": "pending", "description": "two"},
            {"id": "T3", "status": "pending", "description": "three"}]}),
        &[],
    )
    .assert_ok();
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let block = |heading: &str| -> Vec<String> {
        let at = readme
            .find(heading)
            .unwrap_or_else(|| panic!("no {heading}"));
        let rest = &readme[at..];
        let start = rest.find("```sh\n").unwrap() + 6;
        let end = start + rest[start..].find("```").unwrap();
        rest[start..end]
            .lines()
            .map(|l| l.split(" # ").next().unwrap().trim().to_owned())
            .filter(|l| !l.is_empty())
            .collect()
    };
    let claims = block("### Two agents, one task list: claims");
    assert_eq!(claims.len(), 3, "{claims:?}");
    for line in &claims {
        let out = env.shell(&repo, line).output().unwrap();
        assert!(
            out.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let key = &crate::common::sessions_under(&repo.join(".claude/handover"))[0];
    let state = crate::common::read_json(&crate::common::state_path(&repo, key));
    // `next --claim` took T1 (first open); T3 was claimed, then released.
    assert_eq!(
        state["active_tasks"][0]["claim"]["holder"], "ada",
        "{state:#}"
    );
    assert!(state["active_tasks"][2].get("claim").is_none(), "{state:#}");
    for line in block("## When something does not work: `doctor`") {
        let out = env.shell(&repo, &line).output().unwrap();
        // A fresh repository has no notes.rewriteRef or exclusion problem once saved,
        // but `doctor` still names what a user should know; exit 0 or 1 as it says.
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{line}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.stdout.is_empty(), "{line} says something");
    }
}
