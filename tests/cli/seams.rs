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
fn sh(env: &TestEnv, dir: &Path, command: &str) -> Run {
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
fn run_all(env: &TestEnv, dir: &Path, text: &str, state_file: Option<&Path>) -> usize {
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

fn state(branch: &str) -> Value {
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

#[test]
fn codex_project_hook_with_a_bare_main_worktree_is_refused_with_the_way() {
    let env = TestEnv::new();
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

/// A repository whose notes store holds a session of `feature/parser` (saved in a
/// worktree on it), and a second clone of it with the notes fetched, on `main`.
fn second_clone(env: &TestEnv) -> (PathBuf, String) {
    let repo = env.repo();
    env.git(&repo, &["config", "handover.store", "notes"]);
    let wt = env.worktree(&repo, "wt-parser", "feature/parser");
    env.commit(&wt, "p.rs", "p\n", "parser work", "2026-11-30T10:30:00Z");
    let key = env.saved(&wt, &state("feature/parser"));
    let clone = env.root().join("clone");
    env.git(
        env.root(),
        &["clone", "-q", repo.to_str().unwrap(), "clone"],
    );
    env.git(
        &clone,
        &[
            "fetch",
            "-q",
            "origin",
            "refs/notes/handover:refs/notes/handover",
        ],
    );
    env.git(&clone, &["config", "handover.store", "notes"]);
    (clone, key)
}

/// Issue 32, item 14: with a worktree on the session's branch, `continue KEY` from a
/// worktree on another branch restores into that one, and says so before the briefing.
#[test]
fn continue_of_a_stored_session_restores_into_the_worktree_on_its_branch() {
    let env = TestEnv::new();
    let (clone, key) = second_clone(&env);
    let parser = env.root().join("clone-parser");
    env.git(
        &clone,
        &[
            "worktree",
            "add",
            "-q",
            parser.to_str().unwrap(),
            "feature/parser",
        ],
    );
    let run = env.handover(&clone, &["continue", &key]);
    run.assert_ok();
    let file = parser
        .join(".claude/handover")
        .join(&key)
        .join("project-state.json");
    assert!(file.is_file(), "{}", run.snapshot());
    assert!(!clone.join(".claude/handover").join(&key).exists());
    assert_eq!(
        read_json(&file)["workspace"]["root"],
        parser.display().to_string()
    );
    let restored = run.stdout.find("restored session").expect("said");
    let briefing = run
        .stdout
        .find("Resuming in [ROOT]/clone-parser")
        .expect("resumed there");
    assert!(
        restored < briefing,
        "said before the briefing:\n{}",
        run.stdout
    );
    assert!(!run.stdout.contains("stale"), "{}", run.stdout);
    assert!(!run.stdout.contains("git switch"), "{}", run.stdout);
    // Its commands run as printed from where the agent stands.
    assert_eq!(run_all(&env, &clone, &run.stdout, Some(&file)), 4);
}

/// Without one, it is restored here, judged against its own branch (its commits, from
/// the remote-tracking branch of a clone), and the switch is named first.
#[test]
fn continue_of_a_stored_session_on_another_branch_names_it_and_judges_it_by_it() {
    let env = TestEnv::new();
    let (clone, key) = second_clone(&env);
    let run = env.handover(&clone, &["continue", &key]);
    run.assert_ok();
    let out = &run.stdout;
    let switch = out.find("`git switch feature/parser`").expect(out);
    let briefing = out.find("Resuming in").expect(out);
    assert!(switch < briefing, "said before the briefing:\n{out}");
    assert!(!out.contains("(worktree is on main)"), "{out}");
    assert!(!out.contains("stale"), "{out}");
    assert!(out.contains("parser work"), "the branch's commits: {out}");
    let json = env.json(&clone, &["--json", "status"]);
    assert_eq!(json["worktrees"][0]["handovers"][0]["key"], key.as_str());
    // The switch runs as printed (git makes the branch from origin's).
    let run = sh(&env, &clone, "git switch -q feature/parser");
    run.assert_ok();
    assert_eq!(
        env.git(&clone, &["branch", "--show-current"]),
        "feature/parser"
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
