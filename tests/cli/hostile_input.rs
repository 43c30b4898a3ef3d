//! The hostile corpus (`tests/hostile/`, see its README): every bad input gives its exact
//! outcome — a clear error with the documented exit status, or a safe display — never a
//! panic, never a write outside the handover root, never a deletion of anything the tool
//! did not create, and a file it could not read is never rewritten.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::TestEnv;

const KEY: &str = "h/case";

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/hostile")
            .join(name),
    )
    .unwrap()
}

/// Every file under `dir` (links as their target text), `.git` left out.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            let rel = path.strip_prefix(base).unwrap().to_owned();
            if rel.starts_with(".git") {
                continue;
            }
            let t = entry.file_type().unwrap();
            if t.is_symlink() {
                let target = std::fs::read_link(&path).unwrap();
                out.insert(rel, target.display().to_string().into_bytes());
            } else if t.is_dir() {
                walk(base, &path, out);
            } else {
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn repo(env: &TestEnv) -> PathBuf {
    let repo = env.init("repo");
    env.commit(&repo, "a", "a\n", "first", "2026-11-30T10:00:00Z");
    repo
}

/// A repository whose one session `h/case` holds `bytes` as its state.
fn with_state(env: &TestEnv, bytes: &[u8]) -> (PathBuf, PathBuf) {
    let repo = repo(env);
    let file = repo
        .join(".claude/handover")
        .join(KEY)
        .join("project-state.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, bytes).unwrap();
    (repo, file)
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or_default()
}

/// A state file the tool cannot read: every command that reads it exits 3 with the
/// same message, and the file is never rewritten, moved or removed.
#[track_caller]
fn refused(bytes: &[u8], message: &str) {
    let env = TestEnv::new();
    let (repo, _) = with_state(&env, bytes);
    let before = tree(env.root());
    let expected = format!(
        "git-handover: {}",
        message.replace(
            "[F]",
            "[ROOT]/repo/.claude/handover/h/case/project-state.json"
        )
    );
    let status = env.handover(&repo, &["status"]);
    assert_eq!(status.code, 3, "{}", status.snapshot());
    assert_eq!(first_line(&status.stderr), expected);
    for args in [
        &["continue", KEY][..],
        &["render", KEY],
        &["task", "--session", KEY, "start", "T1"],
    ] {
        let run = env.handover(&repo, args);
        assert_eq!(run.code, 3, "{args:?}: {}", run.snapshot());
        assert_eq!(first_line(&run.stderr), expected, "{args:?}");
    }
    let clean = env.handover(&repo, &["clean", "--older-than", "0s"]);
    assert_eq!(clean.code, 0, "{}", clean.snapshot());
    assert_eq!(
        tree(env.root()),
        before,
        "nothing written, moved or removed"
    );
}

#[test]
fn truncated_json() {
    refused(
        &corpus("truncated.json"),
        "invalid json in [F] at line 1, column 63: EOF while parsing a string",
    );
}

#[test]
fn not_json() {
    refused(
        &corpus("not-json.json"),
        "invalid json in [F] at line 1, column 1: expected value",
    );
}

#[test]
fn wrong_types() {
    refused(
        &corpus("wrong-types.json"),
        "invalid handover [F]: field `active_tasks` must be an array",
    );
}

#[test]
fn null_where_an_array_belongs() {
    refused(
        &corpus("null-arrays.json"),
        "invalid handover [F]: field `active_tasks` is null; it must be an array",
    );
}

#[test]
fn invalid_utf8() {
    refused(
        &corpus("invalid-utf8.json"),
        "invalid json in [F] at line 1, column 76: invalid unicode code point",
    );
}

#[test]
fn a_raw_nul_byte() {
    refused(
        &corpus("nul-raw.json"),
        "invalid json in [F] at line 1, column 74: control character (\\u0000-\\u001F) found while parsing a string",
    );
}

#[test]
fn ten_thousand_levels_of_nesting() {
    refused(
        &corpus("nested-10000.json"),
        "invalid json in [F] at line 1, column 128: recursion limit exceeded",
    );
}

#[test]
fn a_17_mib_file() {
    let mut big = b"{\"version\":3,\"status\":\"READY\",\"active_tasks\":[],\"pad\":\"".to_vec();
    big.resize(17 << 20, b'x');
    refused(
        &big,
        "refusing to read [F]: 17825792 bytes is over the limit of 16777216 bytes",
    );
}

fn many_tasks(n: usize) -> String {
    let tasks: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"id":"T{i}","description":"task {i}","status":"pending"}}"#))
        .collect();
    format!(
        r#"{{"version":3,"status":"READY","active_tasks":[{}]}}"#,
        tasks.join(",")
    )
}

#[test]
fn twenty_thousand_tasks_are_read_and_summarised() {
    let env = TestEnv::new();
    let state = many_tasks(20_000);
    let (repo, file) = with_state(&env, state.as_bytes());
    let status = env.handover(&repo, &["status"]);
    assert_eq!(status.code, 0, "{}", first_line(&status.stderr));
    assert!(
        status.stdout.contains("READY, 0/20000 done"),
        "{}",
        status.stdout
    );
    assert!(status.stdout.contains("next       [T0] (pending) task 0"));
    assert_eq!(std::fs::read(&file).unwrap(), state.as_bytes(), "read only");
}

/// 100,000 tasks (700,000 values) are over the value limit that bounds memory: a clear
/// error naming the file, the file as it was.
#[test]
fn a_hundred_thousand_tasks_are_refused_by_name() {
    let env = TestEnv::new();
    let state = many_tasks(100_000);
    let (repo, file) = with_state(&env, state.as_bytes());
    for args in [
        &["status"][..],
        &["task", "start", "T1", "--session", "h/case"],
    ] {
        let run = env.handover(&repo, args);
        assert_eq!(run.code, 3, "{}", run.snapshot());
        assert!(
            run.stderr
                .contains("project-state.json: it holds more than 150000 JSON values"),
            "{}",
            run.stderr
        );
    }
    assert_eq!(
        std::fs::read(&file).unwrap(),
        state.as_bytes(),
        "left as it was"
    );
}

#[test]
fn escapes_and_bidi_controls_are_shown_escaped() {
    let env = TestEnv::new();
    let (repo, _) = with_state(&env, &corpus("escapes-bidi.json"));
    env.write(
        &repo.join("CONTINUE_HERE.md"),
        &String::from_utf8(corpus("note-escapes.md")).unwrap(),
    );
    let status = env.handover(&repo, &["status"]);
    assert_eq!(status.code, 0, "{}", status.snapshot());
    let continue_ = env.handover(&repo, &["continue", "--keep", KEY]);
    assert_eq!(continue_.code, 0, "{}", continue_.snapshot());
    let note = env.handover(&repo, &["continue", "--keep", "CONTINUE_HERE.md"]);
    assert_eq!(note.code, 0, "{}", note.snapshot());
    for run in [&status, &continue_, &note] {
        for out in [&run.stdout, &run.stderr] {
            assert!(
                !out.chars().any(|c| c.is_control() && c != '\n'
                    || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')),
                "a raw control character reached the output: {out:?}"
            );
        }
    }
    assert!(status.stdout.contains(
        r"next       [T1\u{1b}[2J] (in_progress) \u{1b}]0;pwned\u{7}clear \u{1b}[31mred\u{1b}[0m \u{202e}evil\u{202c} \u{2066}iso\u{2069}"
    ), "{}", status.stdout);
    assert!(
        status
            .stdout
            .contains(r"[USER]     \u{1b}[1mrm -rf /\u{1b}[0m")
    );
    assert_eq!(
        first_line(&status.stderr),
        r"git-handover: warning: [ROOT]/repo/CONTINUE_HERE.md: `Last updated: \u{1b}[2J2026-11-30T10:00:00Z` is not a timestamp; the file's modification time is used"
    );
    let nul = {
        let env = TestEnv::new();
        let (repo, _) = with_state(&env, &corpus("nul-escaped.json"));
        env.handover(&repo, &["status"])
    };
    assert!(
        nul.stdout.contains(r"[T1] (pending) nul\u{0}here"),
        "{}",
        nul.stdout
    );
}

#[test]
fn dotdot_and_absolute_names_are_refused() {
    let env = TestEnv::new();
    let (repo, _) = with_state(&env, &corpus("dotdot-branch.json"));
    let before = tree(env.root());
    let cases: [(&[&str], i32, &str); 7] = [
        (
            &["continue", "../../etc"],
            2,
            "git-handover: no such file or directory: [ROOT]/repo/../../etc",
        ),
        (
            &["continue", "/etc"],
            2,
            "git-handover: refusing /etc: it is reached through a symbolic link, or lies outside the worktree [ROOT]/repo",
        ),
        (
            &["task", "--session", "../x", "start", "T1"],
            2,
            "git-handover: session key must not contain `.` or `..` components",
        ),
        (
            &["task", "--session", "/etc", "start", "T1"],
            2,
            "git-handover: session key must be a relative path",
        ),
        (
            &["render", "h/../../../x"],
            2,
            "git-handover: session key must not contain `.` or `..` components",
        ),
        (
            &["clean", "--team", "../.."],
            2,
            "git-handover: team must not contain `.` or `..` components",
        ),
        (
            &["-c", "handover.dir=/tmp", "status"],
            2,
            "git-handover: invalid value \"/tmp\" for config key handover.dir: expected handover.dir must be a relative path",
        ),
    ];
    for (args, code, line) in cases {
        let run = env.handover(&repo, args);
        assert_eq!(run.code, code, "{args:?}: {}", run.snapshot());
        assert_eq!(first_line(&run.stderr), line, "{args:?}");
    }
    let input = env.root().join("in.json");
    env.write(&input, "{}");
    let run = env.handover(
        &repo,
        &["save", "--team", "..", "--from", input.to_str().unwrap()],
    );
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert_eq!(
        first_line(&run.stderr),
        "git-handover: team must not contain `.` or `..` components"
    );
    std::fs::remove_file(&input).unwrap();
    assert_eq!(tree(env.root()), before);

    // A state claiming the branch `../../etc` and the root `/` is only displayed; a task
    // edit writes its own session file and nothing else (besides keeping the handover
    // roots out of commits in the repository's own info/exclude, issue 19).
    let status = env.handover(&repo, &["status"]);
    assert!(
        status.stdout.contains("on ../../etc (worktree is on main)"),
        "{}",
        status.stdout
    );
    let run = env.handover(&repo, &["task", "--session", KEY, "start", "T1"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let after = tree(env.root());
    let changed: Vec<&PathBuf> = after
        .keys()
        .filter(|k| before.get(*k) != after.get(*k))
        .collect();
    assert_eq!(
        changed,
        [
            Path::new("repo/.claude/handover/h/case/handover.md"),
            Path::new("repo/.claude/handover/h/case/project-state.json"),
            Path::new("repo/.git/info/exclude")
        ]
    );
}

#[test]
fn links_to_the_root_directory_are_never_followed() {
    let env = TestEnv::new();
    let repo = repo(&env);
    let outside = env.root().join("outside");
    std::fs::create_dir_all(outside.join("s")).unwrap();
    env.write(
        &outside.join("s/project-state.json"),
        r#"{"version":3,"status":"ALL_COMPLETE","active_tasks":[],"generated_at":"2020-01-01T00:00:00Z"}"#,
    );
    std::fs::create_dir_all(repo.join(".claude/handover")).unwrap();
    std::os::unix::fs::symlink("/", repo.join(".claude/handover/evil")).unwrap();
    std::os::unix::fs::symlink(&outside, repo.join(".claude/handover/away")).unwrap();
    let before = tree(env.root());

    let status = env.handover(&repo, &["status"]);
    assert_eq!(status.code, 0, "{}", status.snapshot());
    assert!(status.stdout.contains("no handovers"), "{}", status.stdout);
    let clean = env.handover(&repo, &["clean", "--older-than", "0s"]);
    assert_eq!(clean.code, 0, "{}", clean.snapshot());
    let run = env.handover(&repo, &["continue", "evil"]);
    assert_eq!(run.code, 1, "{}", run.snapshot());
    assert_eq!(
        first_line(&run.stderr),
        "git-handover: no session \"evil\" in any worktree or in the notes store"
    );
    let input = env.root().join("in.json");
    env.write(&input, "{}");
    let run = env.handover(
        &repo,
        &["save", "--team", "evil", "--from", input.to_str().unwrap()],
    );
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert_eq!(
        first_line(&run.stderr),
        "git-handover: refusing to write through [ROOT]/repo/.claude/handover/evil: not a plain directory"
    );
    let run = env.handover(&repo, &["task", "--session", "away/s", "reopen", "X"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert_eq!(
        first_line(&run.stderr),
        "git-handover: refusing to write through [ROOT]/repo/.claude/handover/away: not a plain directory"
    );
    std::fs::remove_file(&input).unwrap();
    assert_eq!(
        tree(env.root()),
        before,
        "the links and what they point to are untouched"
    );

    // The handover root itself a link to `/`: refused before anything is written.
    std::fs::remove_file(repo.join(".claude/handover/evil")).unwrap();
    std::fs::remove_file(repo.join(".claude/handover/away")).unwrap();
    std::fs::remove_dir(repo.join(".claude/handover")).unwrap();
    std::os::unix::fs::symlink(&outside, repo.join(".claude/handover")).unwrap();
    env.write(&input, "{}");
    let run = env.handover(&repo, &["save", "--from", input.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert_eq!(
        first_line(&run.stderr),
        "git-handover: refusing to write through [ROOT]/repo/.claude/handover: not a plain directory"
    );
    assert_eq!(tree(&outside).len(), 1, "nothing written through the link");
}

#[test]
fn notes_records_from_a_remote_cannot_write_outside() {
    let env = TestEnv::new();
    let repo = repo(&env);
    let head = env.git(&repo, &["rev-parse", "HEAD"]);
    let mut records = corpus("record-root-slash.jsonl");
    records.extend(corpus("record-bad-keys.jsonl"));
    let notes = env.root().join("notes.jsonl");
    std::fs::write(&notes, &records).unwrap();
    env.git(
        &repo,
        &[
            "notes",
            "--ref=handover",
            "add",
            "-F",
            notes.to_str().unwrap(),
            &head,
        ],
    );
    let before = tree(env.root());
    let log = env.handover(&repo, &["log"]);
    assert_eq!(log.code, 0, "{}", log.snapshot());
    let short = &head[..12];
    assert_eq!(
        log.stderr,
        format!(
            "git-handover: warning: refs/notes/handover note of {short}, line 2: field `key`: session key must not contain `.` or `..` components\n\
             git-handover: warning: refs/notes/handover note of {short}, line 3: field `key`: session key must be a relative path\n\
             git-handover: warning: refs/notes/handover note of {short}, line 4: field `state` is not an object\n"
        )
    );
    let status = env.handover(&repo, &["status"]);
    assert_eq!(status.code, 0, "{}", status.snapshot());
    assert!(
        status.stdout.contains("session main/20261130-090000"),
        "{}",
        status.stdout
    );
    // Nothing but the tool's own index of the store (issue 36), in its own directory.
    let mut after = tree(env.root());
    after.retain(|path, _| !path.starts_with("repo/.git/git-handover/notes-index/"));
    assert_eq!(after, before, "reading the store writes nothing");

    // Restoring the record that claims `/` writes into this worktree's root only.
    let run = env.handover(&repo, &["continue", "main/20261130-090000", "--successor"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let after = tree(env.root());
    let added: Vec<&PathBuf> = (after.keys())
        .filter(|k| !before.contains_key(*k))
        .filter(|k| !k.starts_with("repo/.git/git-handover/notes-index/"))
        .collect();
    assert_eq!(
        added,
        [
            Path::new("repo/.claude/handover/main/20261130-090000/handover.md"),
            Path::new("repo/.claude/handover/main/20261130-090000/project-state.json")
        ]
    );
    let state: serde_json::Value = serde_json::from_slice(
        &after[Path::new("repo/.claude/handover/main/20261130-090000/project-state.json")],
    )
    .unwrap();
    assert_eq!(state["workspace"]["root"], repo.display().to_string());
}
