//! The repository of the foundation issue's acceptance list, shared by the `status` and
//! `continue` tests.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::TestEnv;

pub fn write_state(env: &TestEnv, path: &Path, state: &Value) {
    env.write(path, &serde_json::to_string_pretty(state).unwrap());
}

/// The repository of the foundation issue's acceptance list.
pub struct Fixture {
    pub env: TestEnv,
    pub main: PathBuf,
    pub wt_x: PathBuf,
}

pub fn fixture() -> Fixture {
    let env = TestEnv::new();
    let main = main_worktree(&env);
    let wt_x = feature_worktree(&env, &main);
    vanished_worktrees(&env, &main);
    std::fs::create_dir_all(main.join("sub/dir")).unwrap();
    std::fs::create_dir_all(wt_x.join("sub/dir")).unwrap();
    Fixture { env, main, wt_x }
}

/// The main worktree: a legacy v2 state and a continue-here note, then a commit after the
/// note (so the note is superseded) but before the legacy state.
fn main_worktree(env: &TestEnv) -> PathBuf {
    let main = env.init("repo");
    let c1 = env.commit(
        &main,
        "README",
        "hello\n",
        "initial commit",
        "2026-11-20T10:00:00Z",
    );
    write_state(
        env,
        &main.join(".claude/project-state.json"),
        &json!({
            "version": 2,
            "generated_at": "2026-11-28T09:00:00Z",
            "session_id": "legacy-1",
            "status": "READY",
            "active_tasks": [
                {"id": "T1", "description": "Write the README", "status": "done", "commit_sha": &c1[..7]},
                {"id": "T2", "description": "Add a licence", "status": "pending"}
            ]
        }),
    );
    env.write(
        &main.join("CONTINUE_HERE.md"),
        "# Continue Here\n\n> Last updated: 2026-11-24T10:00:00Z | Branch: main\n\n## Objective\nPublish the crate.\n\n## Completed\n- [x] README\n\n## In Progress\n- [ ] licence\n\n## Next Steps\n1. Pick the licence text\n2. **[USER]** approve the licence\n",
    );
    env.commit(
        &main,
        "src.txt",
        "code\n",
        "add code after the note",
        "2026-11-25T10:00:00Z",
    );
    main
}

/// A linked worktree on feature/x with a session whose done tasks point at a reachable
/// commit, an amended-away commit and a sha that does not exist, newer work after it, and
/// a team session beside it.
fn feature_worktree(env: &TestEnv, main: &Path) -> PathBuf {
    let wt_x = env.root().join("wt-x");
    env.git(
        main,
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "feature/x",
            wt_x.to_str().unwrap(),
        ],
    );
    let f1 = env.commit(
        &wt_x,
        "x1.txt",
        "one\n",
        "feature: first step",
        "2026-11-27T10:00:00Z",
    );
    let f2 = env.commit(
        &wt_x,
        "x2.txt",
        "two\n",
        "feature: second step",
        "2026-11-28T10:00:00Z",
    );
    env.git_at(
        &wt_x,
        "2026-11-28T11:00:00Z",
        &["commit", "-q", "--amend", "--no-edit"],
    );
    let session = wt_x.join(".claude/handover/feature/x/20261129-080000/project-state.json");
    write_state(
        env,
        &session,
        &json!({
            "version": 3,
            "generated_at": "2026-11-29T08:00:00Z",
            "session_id": "sess-x",
            "status": "READY",
            "workspace": {"root": wt_x.to_str().unwrap(), "branch": "feature/x", "is_worktree": true},
            "active_tasks": [
                {"id": "T1", "description": "First step", "status": "done", "commit_sha": f1,
                 "last_touched": "2026-11-27T10:00:00Z"},
                {"id": "T2", "description": "Second step", "status": "done", "commit_sha": &f2[..10],
                 "last_touched": "2026-11-28T10:00:00Z"},
                {"id": "T3", "description": "Third step", "status": "done",
                 "commit_sha": "deadbeefdeadbeefdeadbeefdeadbeefdeadbeef"},
                {"id": "T4", "description": "Wire the parser into the CLI", "status": "in_progress",
                 "file_paths": ["src/cli.rs"], "next_action": "add the flag",
                 "last_touched": "2026-11-27T08:00:00Z"},
                {"id": "T5", "description": "Benchmark", "status": "blocked",
                 "blockers": ["needs the large repository"], "last_touched": "2026-11-29T08:00:00Z"}
            ]
        }),
    );
    // Somebody went on working on the branch after the handover.
    env.commit(
        &wt_x,
        "other.txt",
        "x\n",
        "unrelated fix after the handover",
        "2026-11-29T20:00:00Z",
    );
    // A team session lives in the same worktree.
    write_state(
        env,
        &wt_x.join(".claude/handover/alpha-team/reviewer/project-state.json"),
        &json!({
            "version": 3,
            "generated_at": "2026-11-30T09:00:00Z",
            "status": "READY",
            "active_tasks": [{"id": "R1", "description": "Review the parser", "status": "pending"}]
        }),
    );
    wt_x
}

/// Worktrees that are no longer where their sessions say: one deleted with rm -rf, one
/// locked and moved away.
fn vanished_worktrees(env: &TestEnv, main: &Path) {
    // A linked worktree deleted with rm -rf; its session is recorded in main.
    let gone = env.root().join("wt-gone");
    env.git(
        main,
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "gone",
            gone.to_str().unwrap(),
        ],
    );
    std::fs::remove_dir_all(&gone).unwrap();
    write_state(
        env,
        &main.join(".claude/handover/gone/20261128-120000/project-state.json"),
        &json!({
            "version": 3,
            "generated_at": "2026-11-28T12:00:00Z",
            "status": "READY",
            "workspace": {"root": gone.to_str().unwrap(), "branch": "gone"},
            "active_tasks": [{"id": "G1", "description": "Finish the gone work", "status": "in_progress",
                              "last_touched": "2026-11-29T12:00:00Z"}]
        }),
    );

    // A locked worktree whose directory was moved away (an unplugged disk).
    let locked = env.root().join("wt-locked");
    env.git(
        main,
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "usb",
            locked.to_str().unwrap(),
        ],
    );
    env.git(
        main,
        &[
            "worktree",
            "lock",
            "--reason",
            "on the usb disk",
            locked.to_str().unwrap(),
        ],
    );
    std::fs::rename(&locked, env.root().join("moved-away")).unwrap();
    write_state(
        env,
        &main.join(".claude/handover/usb/20261129-090000/project-state.json"),
        &json!({
            "version": 3,
            "generated_at": "2026-11-29T09:00:00Z",
            "status": "ALL_COMPLETE",
            "workspace": {"root": locked.to_str().unwrap(), "branch": "usb"},
            "active_tasks": [{"id": "U1", "description": "Copy files", "status": "done"}]
        }),
    );
}
