//! The second round of attacks (issue 31) on the hooks room: each test tries to break one
//! promise and failed before its fix. docs/SECURITY.md lists them.

use std::path::Path;

use serde_json::json;

use crate::common::TestEnv;

/// The repository with a ready session of one task in progress.
fn ready(env: &TestEnv) -> std::path::PathBuf {
    let repo = env.repo();
    env.write(
        &repo.join(".claude/handover/main/20261130-110000/project-state.json"),
        &json!({"version": 4, "generated_at": "2026-11-30T11:00:00Z", "status": "READY",
                "session_id": "s-1", "workspace": {"branch": "main"}, "active_tasks": [
                {"id": "T1", "status": "in_progress", "description": "lexer",
                 "file_paths": ["src/lex.rs"], "last_touched": "2026-11-30T11:00:00Z"}]})
        .to_string(),
    );
    repo
}

fn start_event(cwd: &Path) -> Vec<u8> {
    json!({"session_id": "abc", "cwd": cwd.display().to_string(),
           "hook_event_name": "SessionStart", "source": "startup"})
    .to_string()
    .into_bytes()
}

/// Item 3: a link planted at `hook-starts/.swept` (old enough to be swept again) is
/// neither followed nor truncated by the read-only session-start hook.
#[test]
fn the_session_start_hook_never_writes_through_a_link_at_swept() {
    let env = TestEnv::new();
    let repo = ready(&env);
    let precious = env.root().join("precious.txt");
    env.write(&precious, "the user's own file\n");
    let starts = repo.join(".git/git-handover/hook-starts");
    std::fs::create_dir_all(&starts).unwrap();
    let swept = starts.join(".swept");
    std::os::unix::fs::symlink(&precious, &swept).unwrap();
    // The link itself two hours old: the hook sweeps (and used to touch `.swept`).
    let touched = env
        .command("touch")
        .args(["-h", "-d", "2 hours ago"])
        .arg(&swept)
        .status()
        .unwrap();
    assert!(touched.success());
    let run = env.handover_fed(
        &repo,
        &["hook", "session-start"],
        &start_event(&repo),
        |_| {},
    );
    assert!(run.hook_context().contains("lexer"), "{}", run.snapshot());
    assert_eq!(
        std::fs::read_to_string(&precious).unwrap(),
        "the user's own file\n"
    );
    assert!(std::fs::symlink_metadata(&swept).unwrap().is_symlink());
}

/// Item 3, the directory: a `hook-starts` that is a link to another directory is not
/// swept (the sweep removes files older than a day, and would remove the user's).
#[test]
fn the_session_start_hook_never_sweeps_through_a_linked_directory() {
    let env = TestEnv::new();
    let repo = ready(&env);
    let elsewhere = env.root().join("documents");
    let old = elsewhere.join("thesis.txt");
    env.write(&old, "years of work\n");
    let aged = env
        .command("touch")
        .args(["-d", "3 days ago"])
        .arg(&old)
        .status()
        .unwrap();
    assert!(aged.success());
    let tool = repo.join(".git/git-handover");
    std::fs::create_dir_all(&tool).unwrap();
    std::os::unix::fs::symlink(&elsewhere, tool.join("hook-starts")).unwrap();
    let run = env.handover_fed(
        &repo,
        &["hook", "session-start"],
        &start_event(&repo),
        |_| {},
    );
    assert!(run.hook_context().contains("lexer"), "{}", run.snapshot());
    assert_eq!(std::fs::read_to_string(&old).unwrap(), "years of work\n");
    assert_eq!(
        std::fs::read_dir(&elsewhere).unwrap().count(),
        1,
        "no marker there"
    );
}
