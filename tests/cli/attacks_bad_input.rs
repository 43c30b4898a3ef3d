//! Bad input against every verb that writes a session (the guide's promise: a clear
//! error naming the file and the field, the documented exit status, nothing lost, a
//! file that could not be read never rewritten or deleted). `hostile_input.rs` covers
//! the readers and `task start`; here the writers: `save`, every `task` verb, `here`
//! and `sync` beside them, on a state with a field of the wrong type, a key given
//! twice, a byte that is not UTF-8 in a task's title, a 2 GB sparse file and a link to
//! `/dev/zero`.

use std::path::{Path, PathBuf};

use crate::common::TestEnv;

const KEY: &str = "main/20261130-100000";

/// A repository with a bare `origin` and the notes store on, whose branch session
/// `KEY` is made by `make` (given the state file's path).
fn repo_with(env: &TestEnv, make: impl Fn(&Path)) -> (PathBuf, PathBuf) {
    let remote = env.root().join("remote.git");
    env.git(env.root(), &["init", "-q", "--bare", "remote.git"]);
    let repo = env.repo();
    env.git(
        &repo,
        &["remote", "add", "origin", remote.to_str().unwrap()],
    );
    env.git(&repo, &["push", "-q", "origin", "main"]);
    env.git(&repo, &["config", "handover.store", "both"]);
    let file = repo
        .join(".claude/handover")
        .join(KEY)
        .join("project-state.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    make(&file);
    (repo, file)
}

/// What the file is now: its link target, its length, or its bytes (never reading
/// past a small size, so neither the sparse file nor `/dev/zero` is read).
fn snapshot(file: &Path) -> String {
    let meta = std::fs::symlink_metadata(file).expect("the file is still there");
    if meta.file_type().is_symlink() {
        return format!("link to {}", std::fs::read_link(file).unwrap().display());
    }
    if meta.len() > 1 << 20 {
        return format!("{} bytes, mode {:o}", meta.len(), {
            use std::os::unix::fs::PermissionsExt as _;
            meta.permissions().mode()
        });
    }
    format!("{:?}", std::fs::read(file).unwrap())
}

/// Every writer of the session refuses it with exit 3 and one of `messages` (`[F]` the
/// file) as its first line; the file stays as it was and no second session is made beside
/// it. `here` and `sync`, which do not read the session, succeed and leave it too.
#[track_caller]
fn writers_refuse(make: impl Fn(&Path), messages: &[&str]) {
    let env = TestEnv::new();
    let (repo, file) = repo_with(&env, make);
    let before = snapshot(&file);
    let expected: Vec<String> = messages
        .iter()
        .map(|m| {
            format!(
                "git-handover: {}",
                m.replace("[F]", &env.redact(&file.display().to_string()))
            )
        })
        .collect();
    let input = env.root().join("input.json");
    env.write(
        &input,
        r#"{"active_tasks":[{"id":"T9","description":"new"}]}"#,
    );
    let verbs: [&[&str]; 10] = [
        &["save", "--from", input.to_str().unwrap()],
        &["task", "add", "T2", "another"],
        &["task", "start", "T1"],
        &["task", "done", "T1"],
        &["task", "block", "T1", "--reason", "waiting"],
        &["task", "reopen", "T1"],
        &["task", "edit", "T1", "--next", "later"],
        &["task", "--session", KEY, "start", "T1"],
        &["continue", KEY],
        &["render", KEY],
    ];
    for args in verbs {
        let run = env.handover(&repo, args);
        assert_eq!(run.code, 3, "{args:?}: {}", run.snapshot());
        let first = run.stderr.lines().next().unwrap_or_default();
        assert!(expected.iter().any(|e| e == first), "{args:?}: {first}");
        assert_eq!(snapshot(&file), before, "{args:?} left the file as it was");
        let sessions: Vec<_> = std::fs::read_dir(repo.join(".claude/handover/main"))
            .unwrap()
            .collect();
        assert_eq!(sessions.len(), 1, "{args:?} made no second session");
    }
    let note = env.root().join("note.md");
    env.write(&note, "## Objective\nship\n");
    for args in [&["here", "--from", note.to_str().unwrap()][..], &["sync"]] {
        let run = env.handover(&repo, args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.snapshot());
        assert_eq!(snapshot(&file), before, "{args:?} left the file as it was");
    }
}

fn state_with(task_and_rest: &str) -> String {
    format!(
        r#"{{"version":4,"status":"READY","workspace":{{"branch":"main"}},"active_tasks":[{task_and_rest}}}"#
    )
}

#[test]
fn a_field_of_the_wrong_type() {
    writers_refuse(
        |file| {
            let text = state_with(r#"{"id":"T1","description":5,"status":"in_progress"}]"#);
            std::fs::write(file, text).unwrap();
        },
        &["invalid handover [F]: field `active_tasks[0].description` must be a string"],
    );
}

/// `serde_json` keeps the last copy of a key given twice; a rewrite would then lose the
/// first (`"x_tool": 1` here, another tool's field) without a word.
#[test]
fn a_key_given_twice_at_the_top() {
    writers_refuse(
        |file| {
            let text = state_with(
                r#"{"id":"T1","description":"a","status":"in_progress"}],"x_tool":1,"x_tool":2"#,
            );
            std::fs::write(file, text).unwrap();
        },
        &["invalid json in [F] at line 1, column 149: duplicate key `x_tool`"],
    );
}

#[test]
fn a_key_given_twice_in_a_task() {
    writers_refuse(
        |file| {
            let text = state_with(
                r#"{"id":"T1","description":"a","description":"b","status":"in_progress"}]"#,
            );
            std::fs::write(file, text).unwrap();
        },
        &["invalid json in [F] at line 1, column 118: duplicate key `active_tasks[0].description`"],
    );
}

#[test]
fn a_byte_that_is_not_utf8_in_a_task_title() {
    writers_refuse(
        |file| {
            let mut text = state_with(r#"{"id":"T1","description":"a?b","status":"in_progress"}]"#)
                .into_bytes();
            let at = text.iter().position(|b| *b == b'?').unwrap();
            text[at] = 0xff;
            std::fs::write(file, text).unwrap();
        },
        &["invalid json in [F] at line 1, column 104: invalid unicode code point"],
    );
}

#[test]
fn a_two_gigabyte_sparse_file() {
    writers_refuse(
        |file| {
            let f = std::fs::File::create(file).unwrap();
            f.set_len(2 << 30).unwrap();
        },
        &["refusing to read [F]: 2147483648 bytes is over the limit of 16777216 bytes"],
    );
}

#[test]
fn a_link_to_dev_zero() {
    writers_refuse(
        |file| std::os::unix::fs::symlink("/dev/zero", file).unwrap(),
        &[
            "refusing [F]: it is something else, not a regular file",
            "refusing [F]: it is a symbolic link, not a regular file",
        ],
    );
}

/// A save whose input names a key twice is refused by the input's name, before
/// anything is created.
#[test]
fn a_save_input_with_a_key_given_twice_is_refused() {
    let env = TestEnv::new();
    let repo = env.repo();
    let input = env.root().join("input.json");
    env.write(
        &input,
        r#"{"active_tasks":[{"id":"T1","description":"a","status":"pending","status":"done"}]}"#,
    );
    let run = env.handover(&repo, &["save", "--from", input.to_str().unwrap()]);
    assert_eq!(run.code, 3, "{}", run.snapshot());
    assert_eq!(
        run.stderr.lines().next().unwrap(),
        "git-handover: invalid json in [ROOT]/input.json at line 1, column 73: \
         duplicate key `active_tasks[0].status`"
    );
    assert!(!repo.join(".claude/handover").exists(), "nothing created");
}

/// The readers that never write (`status`, the session-start hook) take the typed
/// reading, which skips unknown keys unbuilt: a key given twice there was read (last
/// copy) instead of refused, so `status` said nothing was wrong with a file every
/// writer refuses with exit 3. The readers now refuse it as the writers do.
#[test]
fn status_refuses_what_the_writers_refuse() {
    let env = TestEnv::new();
    let (repo, file) = repo_with(&env, |file| {
        let text = state_with(
            r#"{"id":"T1","description":"a","status":"in_progress"}],"x_tool":1,"x_tool":2"#,
        );
        std::fs::write(file, text).unwrap();
    });
    let write = env.handover(&repo, &["task", "start", "T1"]);
    assert_eq!(write.code, 3, "{}", write.snapshot());
    let status = env.handover(&repo, &["status"]);
    assert_eq!(status.code, 3, "{}", status.snapshot());
    assert!(
        status.stderr.contains("duplicate key `x_tool`"),
        "{}",
        status.snapshot()
    );
    assert!(std::fs::read(&file).unwrap().ends_with(b"\"x_tool\":2}"));
}

/// A byte that is not UTF-8 in a task's title or reason given on the command line
/// (not in a file): a usage error (exit 2) before anything is read or written.
#[test]
fn a_byte_that_is_not_utf8_in_an_argument_is_a_usage_error() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt as _;
    let env = TestEnv::new();
    let repo = env.repo();
    let key = env.saved(
        &repo,
        &serde_json::json!({"active_tasks": [{"id": "T1", "description": "ok"}]}),
    );
    let file = crate::common::state_path(&repo, &key);
    let before = std::fs::read(&file).unwrap();
    let bad = OsStr::from_bytes(b"bad\xfftext");
    for args in [
        vec![OsStr::new("task"), OsStr::new("add"), OsStr::new("T2"), bad],
        vec![
            OsStr::new("task"),
            OsStr::new("block"),
            OsStr::new("T1"),
            OsStr::new("--reason"),
            bad,
        ],
        vec![
            OsStr::new("task"),
            OsStr::new("edit"),
            OsStr::new("T1"),
            OsStr::new("--next"),
            bad,
        ],
    ] {
        let out = env
            .command(env!("CARGO_BIN_EXE_git-handover"))
            .current_dir(&repo)
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("invalid UTF-8"));
        assert_eq!(std::fs::read(&file).unwrap(), before, "{args:?}");
    }
}
