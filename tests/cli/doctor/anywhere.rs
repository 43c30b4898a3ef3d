//! SPEC section 5, `doctor`: every command it prints runs as printed from where the
//! user stands (a subdirectory, another linked worktree) and its check then passes;
//! a `doctor` that only diagnoses writes nothing, anywhere; its `--json` is its
//! schema's.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{check, plant_lock, repo_with_session, run_as_printed};
use crate::common::TestEnv;
use serde_json::Value;

/// Every file and directory under `dir`: its content (files), its mode and its
/// modification time, so a rewrite with the same bytes shows too.
fn tree(dir: &Path) -> BTreeMap<PathBuf, (Vec<u8>, u32, std::time::SystemTime)> {
    use std::os::unix::fs::MetadataExt as _;
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_owned()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let path = e.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let bytes = if meta.is_file() {
                std::fs::read(&path).unwrap()
            } else {
                Vec::new()
            };
            if meta.is_dir() {
                todo.push(path.clone());
            }
            out.insert(path, (bytes, meta.mode(), meta.modified().unwrap()));
        }
    }
    out
}

/// A repository with a problem of each kind doctor fixes with the tool's own files
/// (nothing excluded, no rewriteRef, a stale lock), a linked worktree `wt`, and a
/// subdirectory in each. Returns (repo, its subdirectory, wt's subdirectory).
fn with_problems(env: &TestEnv) -> (PathBuf, PathBuf, PathBuf) {
    let repo = repo_with_session(env);
    let session = repo.join(&crate::common::sessions_under(&repo)[0]);
    plant_lock(
        &session.join("project-state.json.lock"),
        "4194305",
        Duration::from_secs(600),
    );
    let wt = env.worktree(&repo, "wt", "feature/wt");
    let (sub, wt_sub) = (repo.join("src/deep"), wt.join("src/deep"));
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::create_dir_all(&wt_sub).unwrap();
    (repo, sub, wt_sub)
}

fn doctor_in(env: &TestEnv, dir: &Path) -> (i32, Value) {
    let run = env.handover(dir, &["--json", "doctor"]);
    let doc: Value =
        serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.snapshot()));
    (run.code, doc)
}

#[test]
fn each_printed_fix_runs_from_a_subdirectory_and_from_another_worktree() {
    for from_wt in [false, true] {
        let env = TestEnv::new();
        let (_, sub, wt_sub) = with_problems(&env);
        let dir = if from_wt { &wt_sub } else { &sub };
        let (code, doc) = doctor_in(&env, dir);
        assert_eq!(code, 1, "{doc:#}");
        for id in ["exclude", "rewrite_ref", "lock"] {
            let c = check(&doc, id);
            assert_eq!(c["outcome"], "problem", "from {}: {c:#}", dir.display());
            run_as_printed(&env, dir, c["fix"].as_str().unwrap());
        }
        // Every problem gone (a lock is checked only while there is one).
        let (code, doc) = doctor_in(&env, dir);
        assert_eq!((code, &doc["problems"]), (0, &Value::from(0)), "{doc:#}");
        assert_eq!(check(&doc, "exclude")["outcome"], "ok");
        assert_eq!(check(&doc, "rewrite_ref")["outcome"], "ok");
    }
}

/// Doctor without `--fix`, human and `--json`, from the repository, a subdirectory and
/// another worktree, with problems to find (a stale lock among them, a notes store
/// never indexed, agents' hooks to look at): not one file of the repositories or of the home directory is made,
/// changed or touched.
#[test]
fn a_doctor_that_only_diagnoses_writes_nothing() {
    let env = TestEnv::new();
    let (repo, sub, wt_sub) = with_problems(&env);
    // A commit-graph never verified by the tool (a reader stamps one it verified).
    env.git(&repo, &["commit-graph", "write", "--reachable"]);
    let stamp = repo.join(".git/git-handover/graph-verified");
    let _ = std::fs::remove_file(&stamp);
    // The store's index is a cache a reader makes: none yet.
    let index = repo.join(".git/git-handover/notes-index");
    if index.exists() {
        std::fs::remove_dir_all(&index).unwrap();
    }
    // Each agent's hook installed, so doctor reads every agent's files too.
    for (agent, scope) in [
        ("claude", "user"),
        ("codex", "project"),
        ("gemini", "project"),
    ] {
        let args = ["hook", "install", "--agent", agent, "--scope", scope];
        env.handover(&repo, &args).assert_ok();
    }
    let before = tree(env.root());
    for dir in [&repo, &sub, &wt_sub] {
        for args in [&["doctor"][..], &["--json", "doctor"]] {
            let run = env.handover(dir, args);
            assert_eq!(run.code, 1, "{}", run.snapshot());
            let after = tree(env.root());
            let changed: Vec<&PathBuf> = (before.keys().chain(after.keys()))
                .filter(|p| before.get(*p) != after.get(*p))
                .collect();
            assert!(
                changed.is_empty(),
                "{args:?} from {}: {changed:#?}",
                dir.display()
            );
        }
    }
}

/// Every file doctor reads made a FIFO in turn (the agents' settings, git's exclude
/// and post-commit hook, Codex's config, a lock): doctor never waits on one, names what
/// it could not read (`info/exclude` as the exclude check's problem, not an error that
/// ends every check), and its `--json` is still its schema's.
#[test]
fn doctor_never_waits_on_a_fifo_where_a_file_it_reads_belongs() {
    let env = TestEnv::new();
    let repo = repo_with_session(&env);
    let home = env.root().join("home");
    let places = [
        home.join(".claude/settings.json"),
        repo.join(".claude/settings.json"),
        repo.join(".claude/settings.local.json"),
        repo.join(".codex/hooks.json"),
        home.join(".codex/config.toml"),
        repo.join(".gemini/settings.json"),
        repo.join(".git/info/exclude"),
        repo.join(".git/hooks/post-commit"),
    ];
    for fifo in &places {
        std::fs::create_dir_all(fifo.parent().unwrap()).unwrap();
        let _ = std::fs::remove_file(fifo);
        let made = std::process::Command::new("mkfifo").arg(fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            crate::common::unavailable("mkfifo");
            return;
        }
        let mut child = env
            .command(env!("CARGO_BIN_EXE_git-handover"))
            .current_dir(&repo)
            .args(["--json", "doctor"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // A watchdog only: a doctor blocked on the FIFO never ends by itself.
        let mut ended = false;
        for _ in 0..1000 {
            if child.try_wait().unwrap().is_some() {
                ended = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        if !ended {
            let _ = child.kill();
            panic!("doctor waits on the FIFO {}", fifo.display());
        }
        let out = child.wait_with_output().unwrap();
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "{}: {e}: {}",
                fifo.display(),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        crate::common::schema::fits(&env, "doctor", &doc);
        if fifo.ends_with("info/exclude") {
            // The check it is of names it, to be mended by hand; the others still ran.
            let c = check(&doc, "exclude");
            assert_eq!(c["outcome"], "problem", "{c:#}");
            assert!(c["message"].as_str().unwrap().contains("FIFO"), "{c:#}");
            assert!(c["fix"].is_null(), "{c:#}");
            check(&doc, "sessions");
        }
        std::fs::remove_file(fifo).unwrap();
    }
}

/// Every `git handover …` fix doctor prints (each agent's hook, git's post-commit
/// hook), run as printed from a subdirectory of a linked worktree, is seen done by the
/// next doctor from there: the check no longer prints that fix.
#[test]
fn each_printed_git_handover_fix_from_another_worktree_is_seen_done() {
    let env = TestEnv::new();
    let (_, _, wt_sub) = with_problems(&env);
    printed_fixes_run_and_are_seen_done(&env, &wt_sub);
}

/// The same from a linked worktree of a repository whose main worktree is bare (where
/// Codex reads no project's hooks: its fix is the user's scope).
#[test]
fn each_printed_git_handover_fix_from_a_bare_repositorys_worktree_is_seen_done() {
    let env = TestEnv::new();
    let wt = crate::codex_project_hook::bare_main_worktree(&env);
    let sub = wt.join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    printed_fixes_run_and_are_seen_done(&env, &sub);
}

/// Run every `git handover …` fix doctor prints in `dir`, as printed; the next doctor
/// from there prints none of them.
fn printed_fixes_run_and_are_seen_done(env: &TestEnv, dir: &Path) {
    let wt_sub = dir;
    let (_, doc) = doctor_in(env, wt_sub);
    let fixes: Vec<(String, String)> = (doc["checks"].as_array().unwrap().iter())
        .filter_map(|c| {
            let fix = c["fix"].as_str()?;
            fix.starts_with("git handover ")
                .then(|| (c["id"].as_str().unwrap().to_owned(), fix.to_owned()))
        })
        .collect();
    assert!(fixes.len() >= 5, "{doc:#}");
    for (_, fix) in &fixes {
        run_as_printed(env, wt_sub, fix);
    }
    let (_, after) = doctor_in(env, wt_sub);
    for (id, fix) in &fixes {
        let still = (after["checks"].as_array().unwrap().iter())
            .any(|c| c["id"] == id.as_str() && c["fix"] == fix.as_str());
        assert!(!still, "{fix} ran, and doctor still prints it:\n{after:#}");
    }
}

/// A handover directory named with the shell's own characters (a space, `$( )`, a
/// quote, a `;`): the exclude fix doctor prints, run as printed, runs nothing it names
/// and adds exactly the pattern, and the check then passes.
#[test]
fn the_exclude_fix_quotes_a_directory_named_with_shell_characters() {
    let env = TestEnv::new();
    let repo = env.repo();
    let dir = "my hand'over;$(touch PWNED)";
    env.git(&repo, &["config", "handover.dir", dir]);
    let (_, doc) = doctor_in(&env, &repo);
    let c = check(&doc, "exclude");
    assert_eq!(c["outcome"], "problem", "{doc:#}");
    run_as_printed(&env, &repo, c["fix"].as_str().unwrap());
    assert!(!repo.join("PWNED").exists() && !env.root().join("PWNED").exists());
    let (_, doc) = doctor_in(&env, &repo);
    assert_eq!(check(&doc, "exclude")["outcome"], "ok", "{doc:#}");
    let exclude = std::fs::read_to_string(repo.join(".git/info/exclude")).unwrap();
    assert!(exclude.lines().any(|l| l.contains("PWNED")), "{exclude}");
}
