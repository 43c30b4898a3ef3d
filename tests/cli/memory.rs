//! Memory stays within a small multiple of what is read (issue 14, item 9): states of
//! every hostile shape at the value limit, a large text state, and a notes store full
//! of large records, each read and rewritten by real processes whose peak resident size
//! is read from `/proc` while they wait at their exit (`GIT_HANDOVER_TEST_PAUSE=exit`).
//!
//! The bound: 64 MiB (the process and everything a state at the value limit can cost,
//! whatever its shape) plus 6× the size of the file or note read.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use crate::common::TestEnv;
use serde_json::{Value, json};

const MIB: u64 = 1 << 20;

fn bound(size: u64) -> u64 {
    64 * MIB + 6 * size
}

/// Run the tool in `dir` and return its exit status, stderr and peak resident size
/// (bytes), read from `/proc/<pid>/status` (`VmHWM`) until it exits. `None` where the
/// machine has no `/proc`.
#[track_caller]
fn peak(env: &TestEnv, dir: &Path, args: &[&str]) -> Option<(i32, String, u64)> {
    if !Path::new("/proc/self/status").exists() {
        crate::common::unavailable("no /proc to read a process's peak memory from");
        return None;
    }
    let err_file = env.root().join(format!("stderr-{}", args.join("-")));
    let mut cmd = env.command(env!("CARGO_BIN_EXE_git-handover"));
    cmd.current_dir(dir)
        .args(args)
        .env("GIT_HANDOVER_TEST_PAUSE", "exit:400")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&err_file).unwrap());
    let mut child = cmd.spawn().expect("git-handover runs");
    let status_file = format!("/proc/{}/status", child.id());
    let mut high = 0u64;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_file)
            && let Some(kb) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            high = high.max(kb * 1024);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    assert!(high > 0, "the peak of {args:?} was read");
    let stderr = env.redact(&std::fs::read_to_string(&err_file).unwrap_or_default());
    Some((status.code().unwrap_or(-1), stderr, high))
}

/// A repository with one branch session (T1 in progress), and its state file.
#[track_caller]
fn session(env: &TestEnv) -> (PathBuf, PathBuf, Value) {
    let repo = env.repo();
    let input = env.root().join("input.json");
    env.write(
        &input,
        &json!({"active_tasks": [{"id": "T1", "status": "in_progress", "description": "first"}]})
            .to_string(),
    );
    let run = env.handover(&repo, &["save", "--from", input.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let file = repo
        .join(".claude/handover")
        .join(run.stdout.trim())
        .join("project-state.json");
    let doc: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    (repo, file, doc)
}

/// Hostile shapes just under the value limit (150,000), and a large text state.
fn shapes(base: &Value) -> Vec<(&'static str, String)> {
    const N: usize = 148_000;
    let with = |f: &dyn Fn(&mut serde_json::Map<String, Value>)| {
        let mut doc = base.as_object().unwrap().clone();
        f(&mut doc);
        serde_json::to_string(&doc).unwrap()
    };
    let tasks = |doc: &mut serde_json::Map<String, Value>| -> Vec<Value> {
        doc["active_tasks"].as_array().unwrap().clone()
    };
    vec![
        (
            "an array of tiny values",
            with(&|d| {
                d.insert("x".into(), Value::Array(vec![json!(0); N]));
            }),
        ),
        (
            "tiny top-level keys",
            with(&|d| {
                for i in 0..N / 2 {
                    d.insert(format!("k{i:x}"), json!(0));
                }
            }),
        ),
        (
            "tiny tasks",
            with(&|d| {
                let mut t = tasks(d);
                t.extend((0..N / 5).map(|i| json!({"id": format!("{i:x}"), "status": "done"})));
                d.insert("active_tasks".into(), Value::Array(t));
            }),
        ),
        (
            "a task with tiny file paths",
            with(&|d| {
                let mut t = tasks(d);
                t[0]["file_paths"] = Value::Array(vec![json!("a"); N - 20]);
                d.insert("active_tasks".into(), Value::Array(t));
            }),
        ),
        (
            "tiny decisions",
            with(&|d| {
                d.insert(
                    "recent_decisions".into(),
                    Value::Array(vec![json!({"decision": "a"}); N / 3]),
                );
            }),
        ),
        (
            "a 15 MB description",
            with(&|d| {
                let mut t = tasks(d);
                t[0]["description"] = json!("x".repeat(15_000_000));
                d.insert("active_tasks".into(), Value::Array(t));
            }),
        ),
    ]
}

#[test]
fn reading_and_rewriting_a_state_of_any_shape_stays_bounded() {
    let env = TestEnv::new();
    let (repo, file, base) = session(&env);
    let mut report = Vec::new();
    for (shape, text) in shapes(&base) {
        let size = text.len() as u64;
        for args in [
            &["status", "--json"][..],
            &["continue", "--full"],
            &["task", "done", "T1"],
        ] {
            std::fs::write(&file, &text).unwrap();
            let Some((code, stderr, high)) = peak(&env, &repo, args) else {
                return;
            };
            assert_eq!(code, 0, "{shape}, {args:?}: {stderr}");
            report.push(format!(
                "{shape} ({size} bytes), {args:?}: {} MiB",
                high / MIB
            ));
            assert!(
                high <= bound(size),
                "{shape} ({size} bytes), {args:?}: peak {high} bytes, over {}\n{}",
                bound(size),
                report.join("\n")
            );
        }
        // `task done` rewrote it, whole.
        let doc: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        assert_eq!(doc["active_tasks"][0]["status"], "done", "{shape}");
        let before: Value = serde_json::from_str(&text).unwrap();
        for key in before.as_object().unwrap().keys() {
            assert!(doc.get(key).is_some(), "{shape}: {key} kept");
        }
    }
    eprintln!("{}", report.join("\n"));
}

#[test]
fn a_state_over_the_value_limit_is_refused_in_little_memory() {
    let env = TestEnv::new();
    let (repo, file, _) = session(&env);
    let text = format!(
        r#"{{"version":4,"status":"READY","active_tasks":[],"x":[{}0]}}"#,
        "0,".repeat(4_000_000)
    );
    std::fs::write(&file, &text).unwrap();
    // `status` says so (exit 3); `task add` says so too (exit 3) and never writes a new
    // session beside it, which would hide it (issue 31, item 41).
    for (args, want) in [(&["status"][..], 3), (&["task", "add", "T9", "more"], 3)] {
        let Some((code, stderr, high)) = peak(&env, &repo, args) else {
            return;
        };
        assert_eq!(code, want, "{args:?}: {stderr}");
        assert!(stderr.contains("more than 150000 JSON values"), "{stderr}");
        assert!(high <= 48 * MIB, "{args:?}: peak {high} bytes");
    }
    assert_eq!(
        std::fs::read(&file).unwrap(),
        text.as_bytes(),
        "left as it was"
    );
}

/// A notes store from a remote is anyone's text: sixty records at the value limit (a
/// 16 MB note) are read for `status` and `log` one state at a time, and a record over
/// the limit is passed over, named, unparsed.
#[test]
fn a_notes_store_of_large_records_is_read_in_bounded_memory() {
    let env = TestEnv::new();
    let (repo, _, _) = session(&env);
    let mut lines: Vec<String> = (0..60)
        .map(|i| {
            let state = json!({
                "version": 4, "session_id": format!("s{i}"), "seq": 1, "status": "READY",
                "active_tasks": [{"id": "T1", "status": "pending"}],
                "x": vec![0; 140_000],
            });
            json!({
                "key": format!("main/s{i}"), "session_id": format!("s{i}"), "seq": 1,
                "saved_at": format!("2026-11-30T10:00:{:02}Z", i % 60),
                "kind": "session", "state": state,
            })
            .to_string()
        })
        .collect();
    lines.push(
        json!({
            "key": "main/huge", "saved_at": "2026-11-30T11:00:00Z", "kind": "session",
            "state": {"version": 4, "status": "READY", "active_tasks": [], "x": vec![0; 400_000]},
        })
        .to_string(),
    );
    let note = env.root().join("note");
    std::fs::write(&note, lines.join("\n") + "\n").unwrap();
    let size = std::fs::metadata(&note).unwrap().len();
    env.git(
        &repo,
        &[
            "notes",
            "--ref=handover",
            "add",
            "-F",
            note.to_str().unwrap(),
            "HEAD",
        ],
    );
    for args in [&["status"][..], &["log"], &["log", "--json"]] {
        let Some((code, stderr, high)) = peak(&env, &repo, args) else {
            return;
        };
        assert_eq!(code, 0, "{args:?}: {stderr}");
        assert!(
            stderr.contains("line 61: the record holds more than 160000 JSON values"),
            "{args:?}: {stderr}"
        );
        assert!(
            high <= bound(size),
            "{args:?}: peak {high} bytes for a note of {size} bytes"
        );
    }
    let status = env.handover(&repo, &["status"]);
    assert!(status.stdout.contains("main/s59"), "{}", status.stdout);
}

/// A walk without a commit-graph reads every commit of the history from the pack. Read
/// through a mapping of the whole pack (as gix, and git, read it), every page of the
/// pack a commit sits in stays resident to the end: here 25,000 commits whose messages
/// do not compress, a 60 MB pack. The walk reads the pack git's way, its mapping made
/// again every few hundred commits, and keeps its state by commit, not whole commits.
#[test]
fn a_walk_without_a_commit_graph_does_not_hold_the_pack_in_memory() {
    use std::fmt::Write as _;
    const COMMITS: usize = 25_000;
    const MESSAGE: usize = 3_000;
    let env = TestEnv::new();
    let repo = env.init("big");
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut stream = String::new();
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for i in 1..=COMMITS {
        let mut message = String::with_capacity(MESSAGE + 1);
        for _ in 0..MESSAGE {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            message.push(char::from(alphabet[(seed >> 58) as usize]));
        }
        message.push('\n');
        let _ = write!(
            stream,
            "commit refs/heads/main\nmark :{i}\ncommitter A <a@example.com> {} +0000\ndata {}\n{message}",
            1_700_000_000 + i * 60,
            message.len()
        );
        if i > 1 {
            let _ = writeln!(stream, "from :{}", i - 1);
        }
        stream.push('\n');
    }
    env.fast_import(&repo, &stream);
    env.git(&repo, &["reset", "-q", "--hard", "main"]);
    let pack_size: u64 = std::fs::read_dir(repo.join(".git/objects/pack"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "pack"))
        .map(|e| e.metadata().unwrap().len())
        .sum();
    assert!(pack_size > 55_000_000, "a large pack: {pack_size} bytes");
    // A session whose recorded commits are the first and a missing one: the walk goes
    // down to the root.
    let root = env.git(&repo, &["rev-list", "--max-parents=0", "main"]);
    let state = json!({
        "version": 4, "generated_at": "2026-11-30T11:00:00Z", "status": "READY",
        "workspace": {"root": repo.display().to_string(), "branch": "main"},
        "active_tasks": [
            {"id": "T1", "status": "done", "commit_sha": root},
            {"id": "T2", "status": "done", "commit_sha": "0123456789012345678901234567890123456789"},
        ],
    });
    let dir = repo.join(".claude/handover/main/20261130-110000");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("project-state.json"), state.to_string()).unwrap();
    let Some((code, stderr, high)) = peak(
        &env,
        &repo,
        &["-c", "core.commitGraph=false", "status", "--json"],
    ) else {
        return;
    };
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("commits were read without"), "{stderr}");
    eprintln!("pack {} MiB, peak {} MiB", pack_size / MIB, high / MIB);
    assert!(
        high < 40 * MIB,
        "peak {} MiB with a {} MiB pack",
        high / MIB,
        pack_size / MIB
    );
}
