//! Issue 32, item 2: where `hook install --agent codex --scope project` registers the
//! hook when run from a linked worktree, and its refusal when there is nowhere Codex
//! reads it.

use crate::common::{TestEnv, read_json};
use serde_json::Value;

/// Issue 32, item 2: Codex reads a project's `.codex/hooks.json` only from the main
/// worktree's root, so `--scope project` in a linked worktree registers it there and
/// says so; the instructions stay in the worktree (Codex reads AGENTS.md from its cwd
/// up to the worktree's root).
#[test]
fn codex_project_hook_from_a_linked_worktree_goes_where_codex_reads_it() {
    let env = TestEnv::new();
    let repo = env.repo();
    let b = env.worktree(&repo, "day-b", "feature/b");
    let args = [
        "hook",
        "install",
        "--agent",
        "codex",
        "--scope",
        "project",
        "--instructions",
    ];
    let run = env.handover(&b, &args);
    run.assert_ok();
    let main_file = repo.join(".codex/hooks.json");
    assert!(main_file.is_file(), "{}", run.snapshot());
    assert!(
        !b.join(".codex/hooks.json").exists(),
        "nothing Codex never reads"
    );
    // Codex reads the main worktree's hooks from a linked worktree only when it has a
    // `.codex` directory (tests/cli/agents/day.rs runs Codex so): made, and said.
    assert!(b.join(".codex").is_dir());
    assert!(
        run.stdout.contains("made [ROOT]/day-b/.codex"),
        "{}",
        run.stdout
    );
    assert!(
        b.join("AGENTS.md").is_file(),
        "instructions where Codex reads them"
    );
    assert!(
        run.stdout.contains(&format!(
            "registered in {}",
            env.redact(&main_file.display().to_string())
        )) && run.stdout.contains("only from the main worktree's root"),
        "{}",
        run.stdout
    );
    let hooks = read_json(&main_file);
    assert!(
        hooks["hooks"]["SessionStart"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .contains("hook session-start --agent codex"),
        "{hooks}"
    );
    // Again: present, in the same place; JSON names the main worktree.
    let mut json_args = vec!["--json"];
    json_args.extend(args);
    let v = env.json(&b, &json_args);
    assert_eq!(v["changed"], false);
    assert_eq!(v["settings"], env.redact(&main_file.display().to_string()));
    assert_eq!(v["main_worktree"], env.redact(&repo.display().to_string()));
    // In the main worktree itself, nothing more to say.
    let v = env.json(&repo, &json_args);
    assert_eq!(v["main_worktree"], Value::Null);
    // Uninstall from the linked worktree takes it out of the file it went to.
    let run = env.handover(
        &b,
        &[
            "hook",
            "uninstall",
            "--agent",
            "codex",
            "--scope",
            "project",
        ],
    );
    run.assert_ok();
    let hooks = read_json(&main_file);
    assert!(!hooks.to_string().contains("hook session-start"), "{hooks}");
}

/// A bare repository (`bare.git`, cloned from a repository with one commit) and its
/// linked worktree `wt` on branch `x`: a main worktree that is bare. Returns `wt`.
pub(crate) fn bare_main_worktree(env: &TestEnv) -> std::path::PathBuf {
    let repo = env.repo();
    let bare = env.root().join("bare.git");
    env.git(
        &repo,
        &["clone", "-q", "--bare", ".", bare.to_str().unwrap()],
    );
    let wt = env.root().join("wt");
    env.git(
        &bare,
        &["worktree", "add", "-q", "-b", "x", wt.to_str().unwrap()],
    );
    wt
}

#[test]
fn codex_project_hook_with_a_bare_main_worktree_is_refused_with_the_way() {
    let env = TestEnv::new();
    let wt = bare_main_worktree(&env);
    let run = env.handover(
        &wt,
        &["hook", "install", "--agent", "codex", "--scope", "project"],
    );
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(
        run.stderr.contains("main worktree is bare"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("--scope user"), "{}", run.stderr);
    assert!(!wt.join(".codex").exists());
}
