//! The store across clones, attacked from outside the tool (issue item 1): what a user
//! does with plain git to the notes ref — `git notes merge -s cat_sort_uniq` instead of
//! `sync`, a plain `git fetch` of the ref, `git update-ref` away and back — and another
//! tool's note on the same commit. Every reader agrees with the store read whole, and
//! nothing is lost.

use std::path::{Path, PathBuf};

use crate::common::TestEnv;

const NOTES: &str = "refs/notes/handover";

/// `<root>/remote.git` with one commit on `main`, and two clones of it, `a` and `b`,
/// the notes store on in both.
fn two_clones(env: &TestEnv) -> (PathBuf, PathBuf) {
    let seed = env.init("seed");
    env.commit(&seed, "a", "a\n", "first", "2026-11-30T10:00:00Z");
    env.git(env.root(), &["clone", "-q", "--bare", "seed", "remote.git"]);
    let clone = |name: &str| {
        env.git(env.root(), &["clone", "-q", "remote.git", name]);
        let dir = env.root().join(name);
        env.git(&dir, &["config", "handover.store", "both"]);
        dir
    };
    (clone("a"), clone("b"))
}

fn task(id: &str, description: &str, status: &str) -> serde_json::Value {
    serde_json::json!({"active_tasks": [{"id": id, "description": description, "status": status}]})
}

/// The session both clones hold: saved in `a`, synced, restored in `b` by `continue`.
fn shared_session(env: &TestEnv, a: &Path, b: &Path) -> String {
    let key = env.saved(a, &task("T1", "shared", "in_progress"));
    env.handover(a, &["sync"]).assert_ok();
    env.handover(b, &["sync"]).assert_ok();
    env.handover(b, &["continue", &key]).assert_ok();
    key
}

/// The note of `HEAD` in `refs/notes/handover`, as git shows it.
fn note_of_head(env: &TestEnv, dir: &Path) -> String {
    env.git(dir, &["notes", "--ref=handover", "show", "HEAD"])
}

/// Another tool's line in the tool's own notes ref, on the very commit the tool writes
/// its records on, survives every save and task edit byte for byte, and the first
/// sync carries it to the remote; another tool's note in git's default notes ref is
/// never touched.
#[test]
fn another_tools_note_survives_every_write_byte_for_byte() {
    let env = TestEnv::new();
    let (a, _) = two_clones(&env);
    let written = foreign_notes(&env, &a);
    env.saved(&a, &task("T1", "one", "in_progress"));
    env.handover(&a, &["task", "add", "T2", "two"]).assert_ok();
    env.handover(&a, &["task", "done", "T1"]).assert_ok();
    env.handover(&a, &["sync"]).assert_ok();
    let remote = env.root().join("remote.git");
    for dir in [&a, &remote] {
        let note = env.git(dir, &["notes", "--ref=handover", "show", "main"]);
        assert_eq!(note.lines().next(), Some(written.as_str()), "{note}");
        assert_eq!(note.matches("lint-bot").count(), 1, "{note}");
        assert_eq!(note.lines().count(), 4, "three records beside it: {note}");
    }
    assert_eq!(env.git(&a, &["notes", "show", "HEAD"]), "plain git note");
}

/// `a`'s own sync pushes the note holding another tool's line (above); `b`'s sync takes
/// it (a line that opens no JSON object is no record: skipped by readers, carried
/// untouched), and the line is still there, once, after both clones wrote and synced.
/// It was refused ("line 1 of the note of … is not a JSON object", exit 2) by every
/// other clone's sync: one clone published what no other could fetch.
#[test]
fn another_tools_note_survives_sync_between_clones() {
    let env = TestEnv::new();
    let (a, b) = two_clones(&env);
    let written = foreign_notes(&env, &a);
    let key = env.saved(&a, &task("T1", "one", "in_progress"));
    env.handover(&a, &["sync"]).assert_ok();
    env.git(&a, &["push", "-q", "origin", "refs/notes/commits"]);
    env.handover(&b, &["sync"]).assert_ok();
    env.handover(&b, &["continue", &key]).assert_ok();
    env.handover(&b, &["task", "done", "T1"]).assert_ok();
    env.handover(&b, &["sync"]).assert_ok();
    env.handover(&a, &["sync"]).assert_ok();
    for dir in [&a, &b] {
        let note = env.git(dir, &["notes", "--ref=handover", "show", "main"]);
        assert_eq!(note.lines().next(), Some(written.as_str()), "{note}");
        assert_eq!(note.matches("lint-bot").count(), 1, "{note}");
    }
}

/// Another tool's line in `dir`'s `refs/notes/handover` note of `HEAD`, and a note in
/// git's default notes ref: the line as git stored it.
fn foreign_notes(env: &TestEnv, dir: &Path) -> String {
    let foreign = "reviewed-by: lint-bot \u{2713}";
    env.git(
        dir,
        &["notes", "--ref=handover", "add", "-m", foreign, "HEAD"],
    );
    env.git(dir, &["notes", "add", "-m", "plain git note", "HEAD"]);
    note_of_head(env, dir)
}

/// Both clones change the shared session offline; `b` then merges `a`'s notes with a
/// plain `git notes merge -s cat_sort_uniq` (no `sync`): `status`, `continue`, `log`,
/// `log KEY` and the session-start hook all say the session diverged, as the store
/// read whole does, and no side's task is lost.
#[test]
fn a_plain_cat_sort_uniq_merge_is_read_as_the_store_whole() {
    let env = TestEnv::new();
    let (a, b) = two_clones(&env);
    let key = shared_session(&env, &a, &b);
    env.handover(&a, &["task", "add", "T2", "from a"])
        .assert_ok();
    env.handover(&b, &["task", "add", "T3", "from b"])
        .assert_ok();
    env.handover(&a, &["sync"]).assert_ok();
    env.git(
        &b,
        &[
            "fetch",
            "-q",
            "origin",
            &format!("{NOTES}:refs/notes/theirs"),
        ],
    );
    env.git(
        &b,
        &[
            "notes",
            "--ref=handover",
            "merge",
            "-q",
            "-s",
            "cat_sort_uniq",
            "refs/notes/theirs",
        ],
    );
    let status = env.json(&b, &["--json", "status"]);
    assert_eq!(
        status["diverged"].as_array().map(Vec::len),
        Some(1),
        "{status:#}"
    );
    let continued = env.handover(&b, &["continue", &key]);
    assert!(
        continued.stdout.contains("diverged"),
        "{}",
        continued.snapshot()
    );
    assert!(continued.stdout.contains("T2") && continued.stdout.contains("T3"));
    let hook = env.handover(&b, &["hook", "session-start"]);
    hook.assert_ok();
    let context = hook.hook_context();
    assert!(context.contains("diverged"), "{context}");
    for args in [&["--json", "log"][..], &["--json", "log", &key]] {
        let log = env.json(&b, args);
        let records = log["records"].as_array().unwrap();
        assert_eq!(records.len(), 3, "{args:?}: {log:#}");
        let tasks: Vec<String> = records
            .iter()
            .flat_map(|r| r["state"]["active_tasks"].as_array().unwrap().clone())
            .map(|t| t["id"].as_str().unwrap().to_owned())
            .collect();
        assert!(tasks.contains(&"T2".into()) && tasks.contains(&"T3".into()));
    }
}

/// A session this clone never saw, arriving by a plain `git fetch` of the notes ref
/// (not `sync`): `status` lists it from the store, `continue KEY` restores it whole.
#[test]
fn a_session_arriving_by_a_plain_git_fetch_is_listed_and_restored() {
    let env = TestEnv::new();
    let (a, b) = two_clones(&env);
    let key = env.saved(&a, &task("T1", "made in a", "in_progress"));
    env.git(&a, &["push", "-q", "origin", NOTES]);
    env.git(&b, &["fetch", "-q", "origin", &format!("{NOTES}:{NOTES}")]);
    let status = env.handover(&b, &["status"]);
    status.assert_ok();
    assert!(status.stdout.contains(&key), "{}", status.snapshot());
    env.handover(&b, &["continue", &key]).assert_ok();
    let restored = crate::common::read_json(&crate::common::state_path(&b, &key));
    assert_eq!(restored["active_tasks"][0]["description"], "made in a");
}

/// The notes ref moved by the user to an unrelated commit, then back: while away the
/// tool reads no records and a save still records (on top of what the ref holds);
/// back, every record the ref held is read again, and the files were never touched.
#[test]
fn the_notes_ref_moved_away_and_back_loses_nothing() {
    let env = TestEnv::new();
    let (a, _) = two_clones(&env);
    let key = env.saved(&a, &task("T1", "one", "in_progress"));
    env.handover(&a, &["task", "add", "T2", "two"]).assert_ok();
    let held = env.git(&a, &["rev-parse", NOTES]);
    let unrelated = env.git(
        &a,
        &[
            "commit-tree",
            "-m",
            "unrelated",
            "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
        ],
    );
    env.git(&a, &["update-ref", NOTES, &unrelated]);
    let away = env.json(&a, &["--json", "log"]);
    assert_eq!(
        away["records"].as_array().map(Vec::len),
        Some(0),
        "{away:#}"
    );
    env.handover(&a, &["status"]).assert_ok();
    env.git(&a, &["update-ref", NOTES, &held]);
    let back = env.json(&a, &["--json", "log", &key]);
    assert_eq!(
        back["records"].as_array().map(Vec::len),
        Some(2),
        "{back:#}"
    );
    let status = env.json(&a, &["--json", "status"]);
    assert!(status.to_string().contains(&key));
}

/// After the same plain merge, each side's write was shown with what changed since
/// the record before it in time, which is the other side's: "+ [T3] pending, - [T2]"
/// said `b` removed T2, a task `b` never had. What changed is told against the record
/// the write replaced (its `parent`): each side adds its own task and removes none,
/// in plain `log` (streamed), `log KEY` and `log -n` (from the index's kept records).
#[test]
fn log_tells_no_side_removed_what_it_never_had() {
    let env = TestEnv::new();
    let (a, b) = two_clones(&env);
    let key = shared_session(&env, &a, &b);
    env.handover(&a, &["task", "add", "T2", "from a"])
        .assert_ok();
    env.handover(&b, &["task", "add", "T3", "from b"])
        .assert_ok();
    env.handover(&a, &["sync"]).assert_ok();
    env.git(
        &b,
        &[
            "fetch",
            "-q",
            "origin",
            &format!("{NOTES}:refs/notes/theirs"),
        ],
    );
    env.git(
        &b,
        &[
            "notes",
            "--ref=handover",
            "merge",
            "-q",
            "-s",
            "cat_sort_uniq",
            "refs/notes/theirs",
        ],
    );
    for args in [&["log"][..], &["log", &key], &["log", "-n", "5"]] {
        let log = env.handover(&b, args);
        log.assert_ok();
        for (added, other) in [("T3", "T2"), ("T2", "T3")] {
            assert!(
                log.stdout.contains(&format!("+ [{added}]")),
                "{args:?}: {}",
                log.stdout
            );
            assert!(
                !log.stdout.contains(&format!("- [{other}]")),
                "{args:?}: {}",
                log.stdout
            );
        }
        for block in log.stdout.split("\n20") {
            for (added, other) in [("T3", "T2"), ("T2", "T3")] {
                if block.contains(&format!("+ [{added}]")) {
                    assert!(
                        !block.contains(&format!("- [{other}]")),
                        "{args:?}: {}",
                        log.stdout
                    );
                }
            }
        }
    }
}

/// `b` holds the shared session; `a` writes it on, and `b`'s copy is made unreadable
/// (a key given twice by hand, then a link to `/dev/zero`): `b`'s sync takes `a`'s
/// records into the store but never rewrites the file it cannot read, and `continue
/// KEY` refuses it by name (exit 3) instead of restoring over it.
#[test]
fn sync_and_continue_never_rewrite_a_session_file_they_cannot_read() {
    let env = TestEnv::new();
    let (a, b) = two_clones(&env);
    let key = shared_session(&env, &a, &b);
    env.handover(&a, &["task", "add", "T2", "from a"])
        .assert_ok();
    env.handover(&a, &["sync"]).assert_ok();
    let file = crate::common::state_path(&b, &key);
    let text = std::fs::read_to_string(&file).unwrap();
    let twice = text.replacen('{', "{\"x_tool\": 1, \"x_tool\": 2,", 1);
    std::fs::write(&file, &twice).unwrap();
    env.handover(&b, &["sync"]).assert_ok();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), twice);
    let continued = env.handover(&b, &["continue", &key]);
    assert_eq!(continued.code, 3, "{}", continued.snapshot());
    assert!(
        continued.stderr.contains("duplicate key `x_tool`"),
        "{}",
        continued.snapshot()
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), twice);
    std::fs::remove_file(&file).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &file).unwrap();
    env.handover(&a, &["task", "add", "T3", "more from a"])
        .assert_ok();
    env.handover(&a, &["sync"]).assert_ok();
    env.handover(&b, &["sync"]).assert_ok();
    let continued = env.handover(&b, &["continue", &key]);
    assert_eq!(continued.code, 3, "{}", continued.snapshot());
    assert_eq!(std::fs::read_link(&file).unwrap(), Path::new("/dev/zero"));
    let log = env.json(&b, &["--json", "log", &key]);
    assert_eq!(
        log["records"][0]["state"]["active_tasks"]
            .as_array()
            .map(Vec::len),
        Some(3)
    );
}

/// After `sync` both ways made the session diverge, `b` writes on its side again (a
/// higher `seq` on one side only) and both clones sync again: the divergence is still
/// shown in both, each side's own tasks named, never resolved by the higher `seq`.
#[test]
fn a_write_on_one_side_after_divergence_does_not_resolve_it() {
    let env = TestEnv::new();
    let (a, b) = two_clones(&env);
    let key = shared_session(&env, &a, &b);
    env.handover(&a, &["task", "add", "T2", "from a"])
        .assert_ok();
    env.handover(&b, &["task", "add", "T3", "from b"])
        .assert_ok();
    env.handover(&a, &["sync"]).assert_ok();
    env.handover(&b, &["sync"]).assert_ok();
    env.handover(&b, &["task", "add", "T4", "after"])
        .assert_ok();
    env.handover(&b, &["sync"]).assert_ok();
    env.handover(&a, &["sync"]).assert_ok();
    for dir in [&a, &b] {
        let status = env.json(dir, &["--json", "status"]);
        let diverged = &status["diverged"];
        assert_eq!(diverged.as_array().map(Vec::len), Some(1), "{status:#}");
        assert_eq!(diverged[0]["key"], key.as_str());
        let differs: Vec<String> = diverged[0]["sides"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["differs"].to_string())
            .collect();
        assert!(differs.iter().any(|d| d.contains("T2")), "{differs:?}");
        assert!(
            differs.iter().any(|d| d.contains("T3") && d.contains("T4")),
            "{differs:?}"
        );
    }
}
