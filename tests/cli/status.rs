//! `git handover status` on real repositories with linked, deleted and locked worktrees.

use crate::common::TestEnv;
use crate::common::fixture::fixture;
use serde_json::{Value, json};

#[test]
fn status_reports_every_worktree_and_verdict() {
    let f = fixture();
    let run = f.env.handover(&f.main.join("sub/dir"), &["status"]);
    insta::assert_snapshot!("status_human", run.snapshot());
    let json = f
        .env
        .handover(&f.main.join("sub/dir"), &["status", "--json"]);
    insta::assert_snapshot!("status_json", json.snapshot());
}

#[test]
fn status_is_the_same_from_a_subdirectory_of_every_worktree() {
    let f = fixture();
    let from_main = f
        .env
        .handover(&f.main.join("sub/dir"), &["status", "--json"]);
    let from_x = f
        .env
        .handover(&f.wt_x.join("sub/dir"), &["status", "--json"]);
    assert_eq!(from_main.code, 0);
    let strip_current = |s: &str| {
        let mut v: Value = serde_json::from_str(s).unwrap();
        for w in v["worktrees"].as_array_mut().unwrap() {
            w["current"] = Value::Null;
        }
        v
    };
    assert_eq!(
        strip_current(&from_main.stdout),
        strip_current(&from_x.stdout)
    );
    let v: Value = serde_json::from_str(&from_x.stdout).unwrap();
    let current: Vec<&str> = v["worktrees"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["current"] == true)
        .map(|w| w["path"].as_str().unwrap())
        .collect();
    assert_eq!(current, ["[ROOT]/wt-x"]);
}

#[test]
fn verdicts_in_json() {
    let f = fixture();
    let run = f.env.handover(&f.main, &["status", "--json"]);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["schema"], "git-handover/status/1");
    let find = |key: &str| -> Value {
        v["worktrees"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|w| w["handovers"].as_array().unwrap().clone())
            .find(|h| h["key"] == key)
            .unwrap_or_else(|| panic!("no handover {key}"))
    };
    let x = find("feature/x/20261129-080000");
    assert_eq!(x["freshness"], "superseded");
    assert_eq!(x["newer_commits"]["count"], 1);
    assert_eq!(
        x["newer_commits"]["newest"][0]["subject"],
        "unrelated fix after the handover"
    );
    let states: Vec<(&str, &str, bool)> = x["commits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["task"].as_str().unwrap(),
                c["state"].as_str().unwrap(),
                c["rewritten"].is_string(),
            )
        })
        .collect();
    assert_eq!(
        states,
        [
            ("T1", "ok", false),
            ("T2", "unreachable", true),
            ("T3", "missing", false)
        ]
    );
    let amended = f.env.git(&f.wt_x, &["rev-parse", "HEAD~1"]);
    assert_eq!(x["commits"][1]["rewritten"], amended.as_str());
    assert_eq!(x["stale_tasks"][0]["id"], "T4");
    assert_eq!(x["stale_tasks"].as_array().unwrap().len(), 1);
    assert_eq!(find("gone/20261128-120000")["presence"], "orphan");
    assert_eq!(find("usb/20261129-090000")["presence"], "offline");
    assert_eq!(find("alpha-team/reviewer")["team"], true);
    assert_eq!(find("alpha-team/reviewer")["freshness"], "fresh");
    assert_eq!(find(".claude/project-state.json")["freshness"], "stale");
    let note = find("CONTINUE_HERE.md");
    assert_eq!(note["freshness"], "superseded");
    assert_eq!(note["note"]["user_items"][0], "approve the licence");
    assert_eq!(note["note"]["missing_sections"][0], "Context");
}

#[test]
fn check_exits_one_when_something_needs_attention() {
    let f = fixture();
    assert_eq!(f.env.handover(&f.main, &["status", "--check"]).code, 1);
    let env = TestEnv::new();
    let repo = env.init("clean");
    env.commit(&repo, "a", "a\n", "a", "2026-11-30T10:00:00Z");
    env.write(
        &repo.join(".claude/handover/main/20261130-110000/project-state.json"),
        &json!({"version": 3, "generated_at": "2026-11-30T11:00:00Z", "status": "READY",
                "workspace": {"branch": "main"},
                "active_tasks": [{"id": "T1", "status": "in_progress", "last_touched": "2026-11-30T11:00:00Z"}]})
        .to_string(),
    );
    let run = env.handover(&repo, &["status", "--check"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
}

#[test]
fn here_limits_to_the_current_worktree() {
    let f = fixture();
    let run = f.env.handover(&f.wt_x, &["status", "--here", "--json"]);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let paths: Vec<&str> = v["worktrees"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["[ROOT]/wt-x"]);
}

#[test]
fn no_handovers_is_one_line_and_success() {
    let env = TestEnv::new();
    let repo = env.init("empty");
    env.commit(&repo, "a", "a\n", "a", "2026-11-30T10:00:00Z");
    let run = env.handover(&repo, &["status"]);
    insta::assert_snapshot!(run.snapshot(), @r"
    exit: 0
    --- stdout
    no handovers in the repository's only worktree
    --- stderr
    ");
}

#[test]
fn outside_a_repository_exits_128() {
    let env = TestEnv::new();
    let dir = env.root().join("plain");
    std::fs::create_dir_all(&dir).unwrap();
    let run = env.handover_with(&dir, &["status"], |c| {
        c.env("GIT_CEILING_DIRECTORIES", env.root());
    });
    insta::assert_snapshot!(run.snapshot(), @r"
    exit: 128
    --- stdout
    --- stderr
    git-handover: not a git repository (or any of the parent directories): [ROOT]/plain
    hint: run it inside a git repository or one of its worktrees, or point at one with -C <path>
    ");
}

#[test]
fn dash_c_and_git_dir_find_the_repository() {
    let f = fixture();
    let elsewhere = f.env.root().join("home");
    let by_c = f.env.handover(
        &elsewhere,
        &["-C", "../wt-x/sub", "status", "--here", "--json"],
    );
    assert_eq!(by_c.code, 0, "{}", by_c.snapshot());
    assert!(by_c.stdout.contains("\"[ROOT]/wt-x\""), "{}", by_c.stdout);
    let git_dir = f.main.join(".git");
    let by_env = f.env.handover_with(&elsewhere, &["status", "--json"], |c| {
        c.env("GIT_DIR", &git_dir).env("GIT_WORK_TREE", &f.main);
    });
    assert_eq!(by_env.code, 0, "{}", by_env.snapshot());
    let v: Value = serde_json::from_str(&by_env.stdout).unwrap();
    assert_eq!(v["worktrees"][0]["current"], true);
}

#[test]
fn an_invalid_state_is_named_exits_three_and_is_left_alone() {
    let env = TestEnv::new();
    let repo = env.init("bad");
    env.commit(&repo, "a", "a\n", "a", "2026-11-30T10:00:00Z");
    let path = repo.join(".claude/handover/main/20261130-100000/project-state.json");
    let bad = "{\n  \"version\": 3,\n  \"status\": \"READY\",\n  \"active_tasks\": [\n    {\"id\": \"T1\",}\n  ]\n}\n";
    env.write(&path, bad);
    let wrong = repo.join(".claude/handover/main/20261130-110000/project-state.json");
    env.write(
        &wrong,
        r#"{"version": 3, "status": "READY", "active_tasks": [{"id": "T1", "status": ["done"]}]}"#,
    );
    let run = env.handover(&repo, &["status"]);
    insta::assert_snapshot!(run.snapshot());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), bad);
}

#[test]
fn escape_sequences_in_files_do_not_reach_the_terminal() {
    let env = TestEnv::new();
    let repo = env.init("evil");
    env.commit(&repo, "a", "a\n", "a", "2026-11-30T10:00:00Z");
    env.write(
        &repo.join(".claude/handover/main/20261130-100000/project-state.json"),
        &json!({"version": 3, "generated_at": "2026-11-30T10:00:00Z", "status": "READY",
                "workspace": {"branch": "main"},
                "active_tasks": [{"id": "T1\u{1b}[2J", "description": "clear \u{1b}]0;pwned\u{7} \u{202e}txt.exe",
                                  "status": "in_progress"}]})
        .to_string(),
    );
    let run = env.handover_with(&repo, &["status"], |c| {
        c.env("CLICOLOR_FORCE", "1");
    });
    assert!(!run.stdout.contains("\u{1b}]0"), "{:?}", run.stdout);
    assert!(!run.stdout.contains("\u{1b}[2J"), "{:?}", run.stdout);
    assert!(!run.stdout.contains('\u{202e}'), "{:?}", run.stdout);
    assert!(run.stdout.contains("\\u{1b}[2J"), "{:?}", run.stdout);
    // Colour was forced, so escape codes of the tool's own are there.
    assert!(run.stdout.contains("\u{1b}[1m"), "{:?}", run.stdout);
    let plain = env.handover(&repo, &["status"]);
    assert!(
        !plain.stdout.contains('\u{1b}'),
        "no colour off a terminal: {:?}",
        plain.stdout
    );
}

/// Many session files are read and parsed on several threads (from 64 on): each
/// result still lands on its own handover, in order, and a file that cannot be read
/// (bad JSON, a wrong field, a FIFO) is named on its own while the rest are listed.
#[test]
fn many_sessions_read_on_several_threads_each_keep_their_own_reading() {
    let env = TestEnv::new();
    let repo = env.init("many");
    env.commit(&repo, "a", "a\n", "a", "2026-11-30T10:00:00Z");
    let dir = |i: usize| {
        repo.join(format!(
            ".claude/handover/main/20261130-10{:02}{:02}",
            i / 60,
            i % 60
        ))
    };
    let broken = [7usize, 40, 77];
    for i in 0..90 {
        let file = dir(i).join("project-state.json");
        match i {
            7 => env.write(
                &file,
                "{\"version\": 3, \"status\": \"READY\", \"active_tasks\": [,]}",
            ),
            40 => env.write(
                &file,
                r#"{"version": 3, "status": "READY", "active_tasks": [{"id": "T1", "status": 5}]}"#,
            ),
            77 => {
                std::fs::create_dir_all(dir(i)).unwrap();
                let made = std::process::Command::new("mkfifo").arg(&file).status();
                assert!(made.is_ok_and(|s| s.success()), "mkfifo");
            }
            _ => env.write(
                &file,
                &json!({"version": 4, "generated_at": "2026-11-30T10:00:00Z", "status": "READY",
                        "session_id": format!("s{i}"), "workspace": {"branch": "main"},
                        "active_tasks": [{"id": format!("T{i}"), "description": format!("task {i}"),
                                          "status": "in_progress"}]})
                .to_string(),
            ),
        }
    }
    let run = env.handover(&repo, &["status", "--json"]);
    assert_eq!(run.code, 3, "{}", run.snapshot());
    // Threads that cannot be started (here: a stack no mapping can hold) leave their
    // files to the main thread, with the same result.
    let alone = env.handover_with(&repo, &["status", "--json"], |c| {
        c.env("RUST_MIN_STACK", (1u64 << 46).to_string());
    });
    assert_eq!(alone.code, 3, "{}", alone.snapshot());
    let strip_now = |out: &str| {
        let mut v: Value = serde_json::from_str(out).unwrap();
        v["now"] = Value::Null;
        v
    };
    assert_eq!(strip_now(&run.stdout), strip_now(&alone.stdout));
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let handovers = v["worktrees"][0]["handovers"].as_array().unwrap();
    assert_eq!(handovers.len(), 90, "{}", run.stdout);
    for h in handovers {
        let file = h["path"].as_str().unwrap();
        let i = (0..90)
            .find(|i| file.contains(&format!("20261130-10{:02}{:02}", i / 60, i % 60)))
            .unwrap();
        let text = h.to_string();
        if broken.contains(&i) {
            assert_eq!(h["valid"], false, "{i}: {text}");
            assert!(h["error"].as_str().unwrap().contains(file), "{i}: {text}");
            assert!(!text.contains("\"T"), "{i}: no task of another: {text}");
        } else {
            assert_eq!(h["valid"], true, "{i}: {text}");
            assert!(text.contains(&format!("\"T{i}\"")), "{i}: {text}");
            assert!(!text.contains(&format!("\"T{}\"", i + 1)), "{i}: {text}");
        }
    }
}

/// With many handovers the report's later worktrees are rendered on another thread
/// and spliced in: the document must be laid out exactly as `serde_json` lays out the
/// same value (two spaces a level, keys in order), whichever worktree the split falls
/// on, and with none of the others' handovers lost or doubled.
#[test]
fn a_report_rendered_on_two_threads_is_laid_out_as_one() {
    let env = TestEnv::new();
    let repo = env.init("split");
    env.commit(&repo, "a", "a\n", "a", "2026-11-30T10:00:00Z");
    let mut roots = vec![(repo.clone(), "main".to_owned())];
    for w in ["one", "two", "three"] {
        let path = env.worktree(&repo, w, w);
        roots.push((path, w.to_owned()));
    }
    // 90 sessions in each of four worktrees: 360 handovers, split in the middle.
    for (root, branch) in &roots {
        for i in 0..90 {
            env.write(
                &root.join(format!(
                    ".claude/handover/{branch}/20261130-1{i:03}00/project-state.json"
                )),
                &json!({"version": 4, "generated_at": "2026-11-30T10:00:00Z",
                        "status": "READY", "workspace": {"branch": branch},
                        "active_tasks": [{"id": format!("{branch}-{i}"), "description": "d",
                                          "status": "in_progress", "file_paths": [],
                                          "blockers": ["b"]}]})
                .to_string(),
            );
        }
    }
    let run = env.handover(&repo, &["status", "--json"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        run.stdout,
        format!("{}\n", serde_json::to_string_pretty(&v).unwrap())
    );
    // A second thread that cannot be started (a stack no mapping can hold): the later
    // worktrees are rendered on this one, to the same bytes (the clock aside).
    let alone = env.handover_with(&repo, &["status", "--json"], |c| {
        c.env("RUST_MIN_STACK", (1u64 << 46).to_string());
    });
    assert_eq!(alone.code, 0, "{}", alone.snapshot());
    let without_now = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| !l.starts_with("  \"now\""))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(without_now(&alone.stdout), without_now(&run.stdout));
    let worktrees = v["worktrees"].as_array().unwrap();
    assert_eq!(worktrees.len(), 4);
    for w in worktrees {
        let branch = w["branch"].as_str().unwrap();
        let ids: Vec<String> = w["handovers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["next_task"]["id"].as_str().unwrap().to_owned())
            .collect();
        let mut expected: Vec<String> = (0..90).map(|i| format!("{branch}-{i}")).collect();
        expected.sort();
        let mut got = ids.clone();
        got.sort();
        assert_eq!(got, expected, "{branch}");
    }
}

/// `status --json` writes its document as it renders it, straight to stdout: the
/// document is whole and ends the output, the exit status and the errors on stderr are
/// those of the report; a reader that leaves early is no error (exit 0, nothing said),
/// a stdout that cannot be written is (exit 1, said).
#[test]
fn the_json_report_is_written_as_it_is_rendered() {
    let env = TestEnv::new();
    let repo = env.init("stream");
    env.commit(&repo, "a", "a\n", "a", "2026-11-30T10:00:00Z");
    // 300 sessions: a document of several pipe buffers.
    for i in 0..300 {
        let file = repo.join(format!(
            ".claude/handover/main/20261130-1{i:03}00/project-state.json"
        ));
        env.write(
            &file,
            &json!({"version": 4, "generated_at": "2026-11-30T10:00:00Z", "status": "READY",
                    "workspace": {"branch": "main"},
                    "active_tasks": [{"id": "T1", "description": "x".repeat(400),
                                      "status": "in_progress"}]})
            .to_string(),
        );
    }
    env.write(
        &repo.join(".claude/handover/main/20261130-999999/project-state.json"),
        "{not json",
    );
    let run = env.handover(&repo, &["status", "--json"]);
    assert_eq!(run.code, 3, "{}", run.snapshot());
    assert!(run.stdout.len() > 4 * 65_536, "{} bytes", run.stdout.len());
    assert!(run.stdout.ends_with("}\n"));
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        v["worktrees"][0]["handovers"].as_array().unwrap().len(),
        301
    );
    assert!(run.stderr.contains("20261130-999999"), "{}", run.stderr);

    // A reader that takes a few bytes and leaves.
    let mut child = env
        .command(env!("CARGO_BIN_EXE_git-handover"))
        .current_dir(&repo)
        .args(["status", "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Read as _;
        let mut out = child.stdout.take().unwrap();
        let mut first = [0u8; 16];
        out.read_exact(&mut first).unwrap();
        assert_eq!(&first[..1], b"{");
    }
    let left = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&left.stderr);
    assert_eq!(left.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("cannot write"), "{stderr}");

    // A stdout that cannot be written.
    let full = env.handover_with(&repo, &["status", "--json"], |c| {
        c.stdout(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        );
    });
    assert_eq!(full.code, 1, "{}", full.snapshot());
    assert!(
        full.stderr.contains("cannot write output"),
        "{}",
        full.stderr
    );
}
