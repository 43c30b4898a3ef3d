//! `doctor` (issue 35, item 8): each problem it names is made here for real, the
//! command it prints for it is run as printed (through `sh`, from the repository), and
//! the check then passes; `--fix` applies only the fixes that change the tool's own
//! files and config, and never touches a file it could not read.

mod anywhere;
mod git_hook;
mod opencode;

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use crate::common::{Run, TestEnv};
use serde_json::{Value, json};

fn check<'a>(doc: &'a Value, id: &str) -> &'a Value {
    doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no {id} check in {doc:#}"))
}

/// Run `command` as printed, through `sh`, in `dir`, with git-handover on the `PATH`
/// (as `git handover` finds it once installed).
fn run_as_printed(env: &TestEnv, dir: &Path, command: &str) {
    let command = command.replace("[ROOT]", env.root().to_str().unwrap());
    let out = env.shell(dir, &command).output().unwrap();
    assert!(
        out.status.success(),
        "{command}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A repository with one session, written with the store on and nothing excluded.
fn repo_with_session(env: &TestEnv) -> std::path::PathBuf {
    let repo = env.repo();
    env.save_with(
        &repo,
        &json!({"active_tasks": [{"id": "T1", "status": "pending", "description": "x"}]}),
        &["-c", "handover.exclude=false", "-c", "handover.store=both"],
        |_| {},
    )
    .assert_ok();
    env.git(&repo, &["config", "handover.store", "both"]);
    repo
}

fn doctor(env: &TestEnv, repo: &Path, args: &[&str]) -> (Run, Value) {
    let mut all = vec!["--json", "doctor"];
    all.extend_from_slice(args);
    let run = env.handover(repo, &all);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    (run, doc)
}

#[test]
fn each_printed_fix_runs_as_printed_and_the_check_then_passes() {
    let env = TestEnv::new();
    let repo = repo_with_session(&env);
    let human = env.handover(&repo, &["doctor"]);
    insta::assert_snapshot!("doctor_problems", env.redact(&human.snapshot()));
    let (run, doc) = doctor(&env, &repo, &[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(doc["schema"], "git-handover/doctor/1");
    for id in ["exclude", "rewrite_ref"] {
        let c = check(&doc, id);
        assert_eq!(c["outcome"], "problem", "{c:#}");
        assert_eq!(c["fixable"], true, "{c:#}");
        run_as_printed(&env, &repo, c["fix"].as_str().unwrap());
    }
    let (run, doc) = doctor(&env, &repo, &[]);
    assert_eq!(run.code, 0, "{doc:#}");
    assert_eq!(check(&doc, "exclude")["outcome"], "ok");
    assert_eq!(check(&doc, "rewrite_ref")["outcome"], "ok");
    // git itself now keeps the state out and carries the notes through a rebase.
    let ignored = env.git(&repo, &["check-ignore", ".claude/handover/x"]);
    assert!(ignored.contains(".claude/handover"), "{ignored}");
}

#[test]
fn fix_applies_the_tool_s_own_fixes_and_lists_the_rest() {
    let env = TestEnv::new();
    let repo = repo_with_session(&env);
    let (run, doc) = doctor(&env, &repo, &["--fix"]);
    assert_eq!(run.code, 0, "{doc:#}");
    assert_eq!(check(&doc, "exclude")["outcome"], "fixed");
    assert_eq!(check(&doc, "rewrite_ref")["outcome"], "fixed");
    let values = env.git(&repo, &["config", "--get-all", "notes.rewriteRef"]);
    assert_eq!(values.trim(), "refs/notes/handover");
    let exclude = std::fs::read_to_string(repo.join(".git/info/exclude")).unwrap();
    assert!(exclude.contains("/.claude/handover/"), "{exclude}");
    // Once is enough: a second --fix changes nothing and finds nothing.
    let (run, doc) = doctor(&env, &repo, &["--fix"]);
    assert_eq!(run.code, 0, "{doc:#}");
    assert!(
        doc["checks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["outcome"] != "fixed")
    );
    let again = std::fs::read_to_string(repo.join(".git/info/exclude")).unwrap();
    assert_eq!(again, exclude);
}

#[test]
fn a_session_that_cannot_be_read_is_named_and_never_touched() {
    let env = TestEnv::new();
    let repo = env.repo();
    let file = repo.join(".claude/handover/main/20261130-110000/project-state.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, b"{\"active_tasks\": [\xff").unwrap();
    let before = std::fs::read(&file).unwrap();
    let (run, doc) = doctor(&env, &repo, &["--fix"]);
    assert_eq!(run.code, 1, "{doc:#}");
    let c = check(&doc, "sessions");
    assert_eq!(c["outcome"], "problem", "{c:#}");
    assert!(
        c["path"].as_str().unwrap().ends_with("project-state.json"),
        "{c:#}"
    );
    assert!(c["fix"].is_null(), "{c:#}");
    assert_eq!(std::fs::read(&file).unwrap(), before);
    let human = env.handover(&repo, &["doctor"]);
    assert!(human.stdout.contains("by hand"), "{}", human.stdout);
}

fn plant_lock(lock: &Path, pid: &str, age: Duration) {
    let host =
        std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_else(|_| "localhost".into());
    std::fs::write(lock, format!("{pid} {}\n", host.trim())).unwrap();
    std::fs::File::options()
        .write(true)
        .open(lock)
        .unwrap()
        .set_modified(std::time::SystemTime::now() - age)
        .unwrap();
}

#[test]
fn a_stale_lock_is_removed_and_a_live_one_is_left() {
    let env = TestEnv::new();
    let repo = repo_with_session(&env);
    let dir = repo.join(&crate::common::sessions_under(&repo)[0]);
    let stale = dir.join("project-state.json.lock");
    // A pid above the kernel's maximum: its process cannot exist.
    plant_lock(&stale, "4194305", Duration::from_secs(600));
    let (run, doc) = doctor(&env, &repo, &[]);
    assert_eq!(run.code, 1, "{doc:#}");
    let c = check(&doc, "lock");
    assert_eq!(c["outcome"], "problem", "{c:#}");
    run_as_printed(&env, &repo, c["fix"].as_str().unwrap());
    assert!(!stale.exists());
    // Planted again, --fix removes it; a live process's lock (pid 1) stays, as a note.
    plant_lock(&stale, "4194305", Duration::from_secs(600));
    let live = dir.join("other.json.lock");
    plant_lock(&live, "1", Duration::from_secs(600));
    let (_, doc) = doctor(&env, &repo, &["--fix"]);
    assert!(!stale.exists());
    assert!(live.exists());
    let outcomes: Vec<&str> = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["id"] == "lock")
        .map(|c| c["outcome"].as_str().unwrap())
        .collect();
    assert!(
        outcomes.contains(&"fixed") && outcomes.contains(&"note"),
        "{outcomes:?}"
    );
}

#[test]
fn a_large_history_without_a_commit_graph_is_a_problem_git_fixes() {
    let env = TestEnv::new();
    let repo = env.init("big");
    let mut stream = String::new();
    for i in 1..=10_001 {
        let _ = write!(
            stream,
            "commit refs/heads/main\ncommitter A <a@example.com> {} +0000\ndata 2\nc\n",
            1_700_000_000 + i
        );
    }
    env.fast_import(&repo, &stream);
    env.git(&repo, &["reset", "-q", "--hard", "main"]);
    let (run, doc) = doctor(&env, &repo, &[]);
    assert_eq!(run.code, 1, "{doc:#}");
    let c = check(&doc, "commit_graph");
    assert_eq!(c["outcome"], "problem", "{c:#}");
    // Not the tool's own file: --fix leaves it to the user.
    assert_eq!(c["fixable"], false);
    let (_, after_fix) = doctor(&env, &repo, &["--fix"]);
    assert_eq!(check(&after_fix, "commit_graph")["outcome"], "problem");
    run_as_printed(&env, &repo, c["fix"].as_str().unwrap());
    let (_, doc) = doctor(&env, &repo, &[]);
    assert_eq!(check(&doc, "commit_graph")["outcome"], "ok", "{doc:#}");
}

#[test]
fn the_notes_store_is_compared_with_the_remote_s_last_fetched_copy() {
    let env = TestEnv::new();
    let origin = repo_with_session(&env);
    let clone = env.root().join("clone");
    env.git(
        env.root(),
        &["clone", "-q", origin.to_str().unwrap(), "clone"],
    );
    env.git(&clone, &["config", "handover.store", "both"]);
    let (_, doc) = doctor(&env, &clone, &[]);
    let c = check(&doc, "notes_remote");
    assert_eq!(c["outcome"], "note", "{c:#}");
    run_as_printed(&env, &clone, c["fix"].as_str().unwrap());
    let (_, doc) = doctor(&env, &clone, &[]);
    assert_eq!(check(&doc, "notes_remote")["outcome"], "ok", "{doc:#}");
}

/// The agents: a user-scope hook in a repository that did not opt in briefs nothing
/// (a problem `--fix` fixes with the tool's own config); a Codex hook not yet trusted is
/// named with where to trust it; the hooks' bare `git-handover` must be on the `PATH`.
#[test]
fn agent_hooks_that_would_not_fire_are_named_with_their_fix() {
    let env = TestEnv::new();
    let repo = env.repo();
    let home = env.root().join("home");
    let user_hook = env.handover_with(
        &repo,
        &["hook", "install", "--agent", "claude", "--scope", "user"],
        |c| {
            c.env("HOME", &home);
        },
    );
    user_hook.assert_ok();
    let doctor_at = |args: &[&str], path: Option<&str>| {
        let mut all = vec!["--json", "doctor"];
        all.extend_from_slice(args);
        let run = env.handover_with(&repo, &all, |c| {
            c.env("HOME", &home);
            if let Some(p) = path {
                c.env("PATH", p);
            }
        });
        let doc: Value = serde_json::from_str(&run.stdout).unwrap();
        (run, doc)
    };
    let (run, doc) = doctor_at(&[], None);
    assert_eq!(run.code, 1, "{doc:#}");
    let c = check(&doc, "opt_in");
    assert_eq!(c["outcome"], "problem", "{c:#}");
    assert_eq!(c["fixable"], true);
    let p = check(&doc, "path");
    assert_eq!(p["outcome"], "problem", "{p:#}");
    // --fix opts the repository in; the PATH is the user's to change.
    let (_, doc) = doctor_at(&["--fix"], None);
    assert_eq!(check(&doc, "opt_in")["outcome"], "fixed", "{doc:#}");
    assert_eq!(env.git(&repo, &["config", "handover.hook"]).trim(), "true");
    assert_eq!(check(&doc, "path")["outcome"], "problem");
    // The PATH fix, run as printed (HOME is the test's), then a PATH that has it.
    let out = env
        .shell(&repo, p["fix"].as_str().unwrap())
        .env("HOME", &home)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let path = format!(
        "{}:{}",
        home.join(".local/bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let (_, doc) = doctor_at(&[], Some(&path));
    assert_eq!(check(&doc, "path")["outcome"], "ok", "{doc:#}");
    // Codex: the project's hook, untrusted until Codex's config says so.
    env.handover_with(
        &repo,
        &["hook", "install", "--agent", "codex", "--scope", "project"],
        |c| {
            c.env("HOME", &home);
        },
    )
    .assert_ok();
    let (_, doc) = doctor_at(&[], Some(&path));
    let t = check(&doc, "codex_trust");
    assert_eq!(t["outcome"], "problem", "{t:#}");
    let hooks = t["path"]
        .as_str()
        .unwrap()
        .replace("[ROOT]", env.root().to_str().unwrap());
    env.write(
        &home.join(".codex/config.toml"),
        &format!("[hooks.state.\"{hooks}:session_start:0:0\"]\ntrusted_hash = \"abc\"\n"),
    );
    let (_, doc) = doctor_at(&[], Some(&path));
    assert_eq!(check(&doc, "codex_trust")["outcome"], "ok", "{doc:#}");
}
