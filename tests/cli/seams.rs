//! Issue 32, item 1: every `git handover …` command a briefing or a hook prints runs as
//! printed, through `sh`, from the directory the agent stands in, and does what it says:
//! briefings on the agent's own worktree, on another worktree's session, on a team
//! session, on a session restored from the notes store, and on a `CONTINUE_HERE.md`, from
//! `continue` and from `hook session-start`.

use std::path::{Path, PathBuf};

use crate::common::{Run, TestEnv, read_json};
use serde_json::{Value, json};

/// Every command the text prints: each backquoted `git handover …`, and the `(git
/// handover continue)` a hook's header names.
fn printed_commands(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|c| c.starts_with("git handover "))
        .map(str::to_owned)
        .collect();
    if text.contains("(git handover continue)") || text.contains("（git handover continue）") {
        out.push("git handover continue".into());
    }
    out
}

/// `command` with its placeholder filled as an agent would: the task it names (`ID`)
/// is `T1` for `start` and `done`, `T2` for `block`, the new `T9` for `add`.
fn filled(command: &str) -> String {
    let id = if command.contains(" task block ") {
        "T2"
    } else if command.contains(" task add ") {
        "T9"
    } else {
        "T1"
    };
    command.replace(" ID ", &format!(" {id} "))
}

/// Run `command` through `sh -c` in `dir`, `git-handover` on PATH (so that `git
/// handover` finds it, as it does for a user).
pub(crate) fn sh(env: &TestEnv, dir: &Path, command: &str) -> Run {
    let out = env.shell(dir, command).output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The task `id` of the session in `state_file`.
fn task(state_file: &Path, id: &str) -> Value {
    let state = read_json(state_file);
    state["active_tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .cloned()
        .unwrap_or(Value::Null)
}

/// Run every command `text` prints from `dir` and check each did what it says to the
/// session whose state is `state_file` (when the text names one). Returns how many
/// task commands ran.
#[track_caller]
pub(crate) fn run_all(env: &TestEnv, dir: &Path, text: &str, state_file: Option<&Path>) -> usize {
    let commands = printed_commands(text);
    assert!(!commands.is_empty(), "the text prints commands:\n{text}");
    let mut tasks = 0;
    for printed in &commands {
        // The harness shows the temporary directory as [ROOT]; the agent sees the path.
        let command = filled(printed).replace("[ROOT]", &env.root().display().to_string());
        let run = sh(env, dir, &command);
        // The header's `git handover continue` names where the text came from; run
        // after a printed command used the note up, it says so with exit 1 (nothing
        // to do), which is what it says.
        let used_up = command == "git handover continue"
            && run.code == 1
            && run.stdout.starts_with("nothing to resume");
        assert_eq!(
            if used_up { 0 } else { run.code },
            0,
            "`{command}` (printed as `{printed}`) fails from {}:\n{}\nin:\n{text}",
            dir.display(),
            run.snapshot()
        );
        let Some(file) = state_file else { continue };
        let head = env.git(dir, &["rev-parse", "HEAD"]);
        if command.contains(" task start T1 ") {
            assert_eq!(task(file, "T1")["status"], "in_progress", "{command}");
        } else if command.contains(" task done T1 ") {
            let t = task(file, "T1");
            assert_eq!(t["status"], "done", "{command}");
            assert_eq!(t["commit_sha"], head.as_str(), "HEAD of {}", dir.display());
        } else if command.contains(" task block T2 ") {
            assert_eq!(task(file, "T2")["status"], "blocked", "{command}");
        } else if command.contains(" task add T9 ") {
            assert_eq!(task(file, "T9")["status"], "pending", "{command}");
        } else {
            continue;
        }
        tasks += 1;
    }
    tasks
}

pub(crate) fn state(branch: &str) -> Value {
    json!({"version": 4, "generated_at": "2026-11-30T11:00:00Z", "status": "READY",
        "workspace": {"branch": branch}, "active_tasks": [
        {"id": "T1", "status": "in_progress", "description": "Port the lexer"},
        {"id": "T2", "status": "pending", "description": "Write the guide"}]})
}

/// A repository with two linked worktrees, `a` (feature/a, with a session) and `b`
/// (feature/b, none), each with a commit of its own. Returns (repo, a, b, a's state).
fn three_worktrees(env: &TestEnv) -> (PathBuf, PathBuf, PathBuf, PathBuf) {
    let repo = env.repo();
    let a = env.worktree(&repo, "day-a", "feature/a");
    let b = env.worktree(&repo, "day-b", "feature/b");
    env.commit(&a, "a.rs", "a\n", "work in a", "2026-11-30T10:30:00Z");
    env.commit(&b, "b.rs", "b\n", "work in b", "2026-11-30T10:40:00Z");
    let mut s = state("feature/a");
    s["workspace"]["root"] = json!(a.display().to_string());
    let file = env.write_session(&a, "feature/a/20261130-110000", &s);
    (repo, a, b, file)
}

fn hook(env: &TestEnv, dir: &Path, args: &[&str]) -> String {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    // An agent session of its own each time: a session is briefed once.
    let id = format!("s{}", N.fetch_add(1, Ordering::Relaxed));
    let event = json!({"session_id": id, "cwd": dir.display().to_string(),
        "hook_event_name": "SessionStart", "source": "startup"})
    .to_string();
    let mut all = vec!["hook", "session-start"];
    all.extend(args);
    let run = env.handover_fed(dir, &all, event.as_bytes(), |_| {});
    run.hook_context()
}

#[test]
fn commands_of_a_briefing_on_another_worktree_run_where_the_agent_stands() {
    let env = TestEnv::new();
    let (_repo, _a, b, file) = three_worktrees(&env);
    // From a subdirectory of B, as an agent often stands.
    let sub = b.join("src");
    std::fs::create_dir_all(&sub).unwrap();
    let run = env.handover(&sub, &["continue"]);
    run.assert_ok();
    assert_eq!(run_all(&env, &sub, &run.stdout, Some(&file)), 4);
    // `--commit HEAD` recorded B's commit (checked in run_all), not A's.
    let subject = env.git(&b, &["log", "-1", "--format=%s"]);
    assert_eq!(subject, "work in b");
}

#[test]
fn commands_of_the_hook_briefing_run_as_printed_in_own_and_other_worktrees() {
    for own in [true, false] {
        let env = TestEnv::new();
        let (_repo, a, b, file) = three_worktrees(&env);
        let dir = if own { a } else { b };
        for agent in ["claude", "codex"] {
            let text = hook(&env, &dir, &["--agent", agent]);
            // Reset the tasks between agents: each agent's briefing is run whole.
            let mut s = state("feature/a");
            s["workspace"]["root"] = read_json(&file)["workspace"]["root"].clone();
            std::fs::write(&file, s.to_string()).unwrap();
            assert_eq!(
                run_all(&env, &dir, &text, Some(&file)),
                4,
                "{agent} own={own}"
            );
        }
    }
}

#[test]
fn commands_of_a_team_briefing_run_as_printed() {
    let env = TestEnv::new();
    let repo = env.repo();
    let b = env.worktree(&repo, "day-b", "feature/b");
    let mut s = state("main");
    s["workspace"] = json!({"root": repo.display().to_string()});
    let file = env.write_session(&repo, "alpha/reviewer", &s);
    let run = env.handover(&b, &["continue", "alpha/reviewer"]);
    run.assert_ok();
    assert_eq!(run_all(&env, &b, &run.stdout, Some(&file)), 4);
    std::fs::write(&file, s.to_string()).unwrap();
    let run = env.handover(
        &repo,
        &["continue", "--team", "alpha", "--agent", "reviewer"],
    );
    run.assert_ok();
    assert_eq!(run_all(&env, &repo, &run.stdout, Some(&file)), 4);
}

#[test]
fn commands_of_a_briefing_restored_from_the_notes_store_run_as_printed() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.git(&repo, &["config", "handover.store", "notes"]);
    let wt = env.worktree(&repo, "wt-gone", "feature/gone");
    let key = env.saved(&wt, &state("feature/gone"));
    env.git(
        &repo,
        &["worktree", "remove", "--force", wt.to_str().unwrap()],
    );
    let b = env.worktree(&repo, "day-b", "feature/b");
    // Before it is restored, a task command names the command that restores it.
    let refused = sh(
        &env,
        &b,
        &format!("git handover task start T1 --session {key}"),
    );
    assert_eq!(refused.code, 2, "{}", refused.snapshot());
    assert!(
        refused
            .stderr
            .contains(&format!("`git handover continue {key}`")),
        "{}",
        refused.stderr
    );
    let run = env.handover(&b, &["continue", &key]);
    run.assert_ok();
    let file = b
        .join(".claude/handover")
        .join(&key)
        .join("project-state.json");
    assert!(file.is_file(), "{}", run.snapshot());
    assert_eq!(run_all(&env, &b, &run.stdout, Some(&file)), 4);
}

#[test]
fn commands_of_a_continue_here_briefing_run_as_printed() {
    let env = TestEnv::new();
    let repo = env.repo();
    let b = env.worktree(&repo, "day-b", "feature/b");
    env.write(
        &b.join("CONTINUE_HERE.md"),
        "# Continue here\n\nNext: finish the parser.\n",
    );
    let sub = b.join("src");
    std::fs::create_dir_all(&sub).unwrap();
    let text = hook(&env, &sub, &["--agent", "claude"]);
    assert!(text.contains("CONTINUE_HERE.md"), "{text}");
    run_all(&env, &sub, &text, None);
    assert!(
        !b.join("CONTINUE_HERE.md").exists(),
        "the printed command consumed the note"
    );
}

/// A hook that could not index the notes store in its budget says the next `git
/// handover status` indexes it (it speaks when something is to be said: here a session
/// file that does not read): printed, run from the directory the agent stands in (a
/// subdirectory), it indexes the store, and the next briefing lists the store's
/// sessions and no longer says it.
#[test]
fn the_unindexed_stores_status_command_runs_as_printed_and_indexes_it() {
    let env = TestEnv::new();
    let (repo, _) = crate::notes_index::populated_with(&env, false);
    env.write(
        &repo.join(".claude/handover/main/broken/project-state.json"),
        "{",
    );
    let sub = repo.join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    // An agent session of its own each time: a session is briefed once.
    let brief = |id: &str| {
        let event = json!({"session_id": id, "cwd": sub.display().to_string(),
            "hook_event_name": "SessionStart", "source": "startup"})
        .to_string();
        let run = env.handover_fed(&sub, &["hook", "session-start"], event.as_bytes(), |c| {
            c.env("GIT_HANDOVER_TEST_INDEX_BUDGET_MS", "0");
        });
        run.hook_context()
    };
    let text = brief("a1");
    assert!(text.contains("not indexed yet"), "{text}");
    let printed: Vec<String> = printed_commands(&text)
        .into_iter()
        .filter(|c| c.contains("status"))
        .collect();
    assert_eq!(printed, ["git handover status"], "{text}");
    let run = sh(&env, &sub, &printed[0]);
    // Exit 3: the file that does not read is invalid; the store is listed.
    assert_eq!(run.code, 3, "{}", run.snapshot());
    assert!(run.stdout.contains("main/s1"), "{}", run.snapshot());
    assert!(
        repo.join(".git/git-handover/notes-index/refs%notes%handover.heads")
            .is_file()
    );
    let text = brief("a2");
    assert!(!text.contains("not indexed yet"), "{text}");
    assert!(text.contains("main/s1"), "{text}");
}
