//! Issue 34, items 5 to 7: a save keeps the agent session that made it (from the
//! agent's environment and what its session-start hook left), `status` and `continue`
//! print the command that resumes that conversation, briefings leave receipts that
//! `status` shows, and `why` names the agent session. The real agents run in
//! `agents/linkage.rs`.

use std::path::Path;

use serde_json::{Value, json};

use crate::common::{TestEnv, read_json, state_path};

const ID: &str = "5f0c1d2e-aaaa-4bbb-8ccc-0123456789ab";

fn claude(cmd: &mut std::process::Command) {
    cmd.env("CLAUDECODE", "1")
        .env("CLAUDE_CODE_SESSION_ID", ID)
        .env("AI_AGENT", "claude-code");
}

/// The session-start hook of Claude Code's session `id` in `dir`, at `now`.
fn hook(env: &TestEnv, dir: &Path, id: &str, now: &str) -> crate::common::Run {
    let event = json!({"session_id": id, "transcript_path": format!("/home/u/.claude/projects/x/{id}.jsonl"),
        "cwd": dir, "hook_event_name": "SessionStart", "source": "startup"})
    .to_string();
    env.handover_fed(
        dir,
        &["hook", "session-start", "--agent", "claude"],
        event.as_bytes(),
        |c| {
            c.env("GIT_HANDOVER_NOW", now);
        },
    )
}

fn task(id: &str) -> Value {
    json!({"active_tasks": [{"id": id, "description": "Port the lexer", "status": "in_progress"}]})
}

fn save_as_claude(env: &TestEnv, dir: &Path, state: &Value) -> String {
    let run = env.save_with(dir, state, &[], claude);
    run.assert_ok();
    run.stdout.trim().to_owned()
}

fn receipts(repo: &Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(repo.join(".git/git-handover/receipts"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default()
}

#[test]
fn a_save_under_claude_keeps_its_session_and_status_and_continue_print_its_resume_command() {
    let env = TestEnv::new();
    let repo = env.repo();
    // The agent session's start: nothing to brief yet, but its transcript is left.
    let start = hook(&env, &repo, ID, "2026-11-30T11:00:00Z");
    assert_eq!((start.code, start.stdout.as_str()), (0, ""));
    let key = save_as_claude(&env, &repo, &task("T1"));
    let state = read_json(&state_path(&repo, &key));
    assert_eq!(
        state["agent_session"],
        json!({"agent": "claude", "session_id": ID,
               "transcript_path": format!("/home/u/.claude/projects/x/{ID}.jsonl"),
               "cwd": repo, "saved_at": "2026-11-30T12:00:00+00:00"})
    );
    let status = env.handover(&repo, &["status"]);
    status.assert_ok();
    insta::assert_snapshot!(status.stdout.replace(ID, "[ID]"));
    let printed = env.redact(&format!("cd {} && claude --resume {ID}", repo.display()));
    let v = env.json(&repo, &["status", "--json"]);
    let h = &v["worktrees"][0]["handovers"][0];
    assert_eq!(h["agent_session"]["resume"], printed.as_str());
    assert_eq!(h["agent_session"]["agent"], "claude");
    // Written by an agent session, nobody briefed yet: not picked up since the save.
    assert_eq!(
        h["pickup"],
        json!({"picked_up": false, "by": null, "agent": null,
        "agent_session": null, "at": null, "seconds": 0})
    );
    let cont = env.handover(&repo, &["continue"]);
    cont.assert_ok();
    assert!(cont.stdout.contains(&printed), "{}", cont.stdout);
    let v = env.json(&repo, &["continue", "--json"]);
    assert_eq!(v["handover"]["agent_session"]["resume"], printed.as_str());
}

#[test]
fn a_person_writing_takes_the_agent_session_away_and_a_write_that_changes_nothing_keeps_it() {
    let env = TestEnv::new();
    let repo = env.repo();
    let key = save_as_claude(&env, &repo, &task("T1"));
    let file = state_path(&repo, &key);
    // The same save again, by another agent session: nothing changes, nothing rewritten.
    let before = std::fs::read(&file).unwrap();
    let again = env.save_with(&repo, &task("T1"), &[], |c| {
        c.env("CLAUDE_CODE_SESSION_ID", "other-session");
    });
    again.assert_ok();
    assert_eq!(std::fs::read(&file).unwrap(), before);
    // A task written by Codex names Codex's session.
    let codex = env.handover_with(&repo, &["task", "add", "T2", "more"], |c| {
        c.env("CODEX_THREAD_ID", "0199aa00-1111")
            .env("CODEX_SESSION_ID", "0199aa00-1111");
    });
    codex.assert_ok();
    let state = read_json(&file);
    assert_eq!(state["agent_session"]["agent"], "codex");
    assert_eq!(state["agent_session"]["session_id"], "0199aa00-1111");
    let status = env.handover(&repo, &["status"]);
    assert!(
        status.stdout.contains("codex resume 0199aa00-1111"),
        "{}",
        status.stdout
    );
    // A person's write: the handover no longer says an agent wrote it.
    env.handover(&repo, &["task", "done", "T2"]).assert_ok();
    assert!(read_json(&file).get("agent_session").is_none());
    let status = env.handover(&repo, &["status"]);
    assert!(!status.stdout.contains("resume"), "{}", status.stdout);
}

#[test]
fn the_printed_resume_command_runs_as_printed() {
    // The real agent resumes in `agents/linkage.rs`; here the printed line runs with a
    // `claude` of the test's that says where and with what it was started.
    let env = TestEnv::new();
    let repo = env.repo();
    let wt = env.worktree(&repo, "wt a'b", "feature/x");
    save_as_claude(&env, &wt, &task("T1"));
    // The document as printed (the harness's runs redact the temporary root).
    let out = env
        .command(env!("CARGO_BIN_EXE_git-handover"))
        .current_dir(&repo)
        .args(["status", "--json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let line = v["worktrees"][1]["handovers"][0]["agent_session"]["resume"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        line.starts_with("cd '"),
        "the odd directory is quoted: {line}"
    );
    let bin = env.root().join("fake-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = bin.join("claude");
    std::fs::write(&fake, "#!/bin/sh\npwd\nprintf '%s\\n' \"$@\"\n").unwrap();
    let mut perms = std::fs::metadata(&fake).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&fake, perms).unwrap();
    let out = env
        .shell(&repo, &format!("PATH='{}':$PATH; {line}", bin.display()))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}");
    let real = std::fs::canonicalize(&wt).unwrap();
    assert_eq!(said, format!("{}\n--resume\n{ID}\n", real.display()));
}

#[test]
fn a_briefing_leaves_a_receipt_status_shows_until_a_newer_save() {
    let env = TestEnv::new();
    let repo = env.repo();
    let key = save_as_claude(&env, &repo, &task("T1"));
    // A successor's start, five minutes before the status.
    let start = hook(&env, &repo, "9e8d7c6b-next", "2026-11-30T12:00:00Z");
    assert!(start.hook_context().contains("T1"));
    let later = |c: &mut std::process::Command| {
        c.env("GIT_HANDOVER_NOW", "2026-11-30T12:05:00Z");
    };
    let status = env.handover_with(&repo, &["status"], later);
    status.assert_ok();
    assert!(
        status
            .stdout
            .contains("picked up by claude 9e8d7c6b-next 5m ago"),
        "{}",
        status.stdout
    );
    let v: Value = serde_json::from_str(
        &env.handover_with(&repo, &["status", "--json"], later)
            .stdout,
    )
    .unwrap();
    let p = &v["worktrees"][0]["handovers"][0]["pickup"];
    assert_eq!(p["picked_up"], true);
    assert_eq!(p["agent_session"], "9e8d7c6b-next");
    assert_eq!(p["at"], "2026-11-30T12:00:00Z");
    assert_eq!(p["seconds"], 300);
    // The same agent session's own start (a resume of its work) is no pick-up.
    let writer = hook(&env, &repo, ID, "2026-11-30T12:01:00Z");
    writer.assert_ok();
    let lines = std::fs::read_to_string(&receipts(&repo)[0]).unwrap();
    assert_eq!(lines.lines().count(), 1, "{lines}");
    // A newer save: not picked up again, since that save.
    env.save_with(&repo, &task("T2"), &[], |c| {
        claude(c);
        c.env("GIT_HANDOVER_NOW", "2026-11-30T12:10:00Z");
    })
    .assert_ok();
    let status = env.handover_with(&repo, &["status"], |c| {
        c.env("GIT_HANDOVER_NOW", "2026-11-30T14:10:00Z");
    });
    assert!(
        status.stdout.contains("not picked up for 2h"),
        "{}",
        status.stdout
    );
    let short = env.handover_with(&repo, &["status", "--short"], |c| {
        c.env("GIT_HANDOVER_NOW", "2026-11-30T14:10:00Z");
    });
    assert!(
        short.stdout.contains("not-picked-up-2h"),
        "{}",
        short.stdout
    );
    // `continue` is a briefing too: its receipt names whoever ran it.
    env.handover_with(&repo, &["continue"], |c| {
        c.env("GIT_HANDOVER_NOW", "2026-11-30T14:10:00Z")
            .env("USER", "ada");
    })
    .assert_ok();
    let status = env.handover_with(&repo, &["status", "--lang", "ja"], |c| {
        c.env("GIT_HANDOVER_NOW", "2026-11-30T14:12:00Z");
    });
    assert!(status.stdout.contains("2分前に ada"), "{}", status.stdout);
    let _ = key;
}

#[test]
fn a_receipts_file_that_is_a_link_a_fifo_or_garbage_is_ignored_safely() {
    let env = TestEnv::new();
    let repo = env.repo();
    let key = save_as_claude(&env, &repo, &task("T1"));
    let id = read_json(&state_path(&repo, &key))["session_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let dir = repo.join(".git/git-handover/receipts");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{id}.jsonl"));
    let outside = env.root().join("outside.txt");
    std::fs::write(&outside, "keep me\n").unwrap();
    // A link: nothing written through it, nothing read from it.
    std::os::unix::fs::symlink(&outside, &file).unwrap();
    hook(&env, &repo, "s-link", "2026-11-30T12:00:00Z").assert_ok();
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep me\n");
    let status = env.handover(&repo, &["status"]);
    assert!(status.stdout.contains("not picked up"), "{}", status.stdout);
    // A FIFO: never waited on.
    std::fs::remove_file(&file).unwrap();
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&file)
            .status()
            .unwrap()
            .success()
    );
    let started = std::time::Instant::now();
    hook(&env, &repo, "s-fifo", "2026-11-30T12:00:00Z").assert_ok();
    env.handover(&repo, &["status"]).assert_ok();
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    // Garbage and a torn line: skipped, the good receipt after them read.
    std::fs::remove_file(&file).unwrap();
    std::fs::write(
        &file,
        b"\xff\xfe not json\n{\"state\": 7}\n{\"state\":\"x\",\"by\"",
    )
    .unwrap();
    hook(&env, &repo, "s-good", "2026-11-30T12:00:00Z").assert_ok();
    let status = env.handover(&repo, &["status"]);
    assert!(
        status.stdout.contains("picked up by claude s-good 0s ago"),
        "{}",
        status.stdout
    );
    // The directory a link: no receipt at all, and status still answers.
    std::fs::remove_dir_all(&dir).unwrap();
    let elsewhere = env.root().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &dir).unwrap();
    hook(&env, &repo, "s-dirlink", "2026-11-30T12:00:00Z").assert_ok();
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    env.handover(&repo, &["status"]).assert_ok();
}

#[test]
fn hooks_starting_at_once_each_leave_a_whole_receipt() {
    let env = TestEnv::new();
    let repo = env.repo();
    save_as_claude(&env, &repo, &task("T1"));
    let children: Vec<_> = (0..8)
        .map(|i| {
            let event = json!({"session_id": format!("par-{i}"), "cwd": &repo,
                "hook_event_name": "SessionStart", "source": "startup"})
            .to_string();
            let mut cmd = env.command(env!("CARGO_BIN_EXE_git-handover"));
            cmd.current_dir(&repo)
                .args(["hook", "session-start", "--agent", "claude"])
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped());
            let mut child = cmd.spawn().unwrap();
            std::io::Write::write_all(&mut child.stdin.take().unwrap(), event.as_bytes()).unwrap();
            child
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
    }
    let text = std::fs::read_to_string(&receipts(&repo)[0]).unwrap();
    let mut who: Vec<String> = text
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?}"));
            v["agent_session"].as_str().unwrap().to_owned()
        })
        .collect();
    who.sort();
    let want: Vec<String> = (0..8).map(|i| format!("par-{i}")).collect();
    assert_eq!(who, want);
}

#[test]
fn why_names_the_agent_session_that_recorded_the_commit() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.commit(
        &repo,
        "a.rs",
        "a\n",
        "port the lexer",
        "2026-11-30T10:00:00Z",
    );
    let head = env.git(&repo, &["rev-parse", "HEAD"]);
    save_as_claude(
        &env,
        &repo,
        &json!({"active_tasks": [{"id": "T1", "description": "Port the lexer", "status": "done", "commit_sha": head}]}),
    );
    let run = env.handover(&repo, &["why", "HEAD"]);
    run.assert_ok();
    assert!(
        run.stdout.contains(&format!("agent session: claude {ID}")),
        "{}",
        run.stdout
    );
    let v = env.json(&repo, &["why", "HEAD", "--json"]);
    assert_eq!(v["recorded"][0]["agent_session"]["session_id"], ID);
}

#[test]
fn a_user_scope_hook_leaves_nothing_where_the_repository_did_not_opt_in() {
    let env = TestEnv::new();
    let repo = env.repo();
    let event = json!({"session_id": "u-1", "transcript_path": "/t/u-1.jsonl", "cwd": &repo,
        "hook_event_name": "SessionStart", "source": "startup"})
    .to_string();
    env.handover_fed(
        &repo,
        &[
            "hook",
            "session-start",
            "--agent",
            "claude",
            "--scope",
            "user",
        ],
        event.as_bytes(),
        |_| {},
    )
    .assert_ok();
    assert!(!repo.join(".git/git-handover/agent-sessions").exists());
}

/// A receipts file grown by many agent starts on one state (every receipt of the
/// newest state, so a cut by state keeps them all): past the bound it is read from its
/// tail and cut to its newest receipts, and `status` still names the newest pick-up.
/// Before, past 512 KiB it read as no receipt (status: "not picked up") and was never
/// cut again.
#[test]
fn a_receipts_file_of_many_starts_on_one_state_stays_bounded_and_is_read() {
    let env = TestEnv::new();
    let repo = env.repo();
    let key = save_as_claude(&env, &repo, &task("T1"));
    hook(&env, &repo, "9e8d7c6b-first", "2026-11-30T12:00:00Z").assert_ok();
    let file = receipts(&repo).pop().expect("a receipt");
    let line = std::fs::read_to_string(&file).unwrap();
    let old = line
        .replace("9e8d7c6b-first", "0ld-start")
        .replace("12:00:00", "11:00:00");
    // 600 KB of receipts of the same state, then the newest pick-up.
    let mut big = old.repeat(600 * 1024 / old.len() + 1);
    big.push_str(&line);
    std::fs::write(&file, &big).unwrap();
    let later = |c: &mut std::process::Command| {
        c.env("GIT_HANDOVER_NOW", "2026-11-30T12:05:00Z");
    };
    let status = env.handover_with(&repo, &["status"], later);
    assert!(
        status
            .stdout
            .contains("picked up by claude 9e8d7c6b-first 5m ago"),
        "{}",
        status.stdout
    );
    // The next start cuts it to the newest receipts, its own appended after them.
    hook(&env, &repo, "9e8d7c6b-second", "2026-11-30T12:06:00Z").assert_ok();
    let kept = std::fs::read_to_string(&file).unwrap();
    assert!(
        kept.len() <= 64 * 1024 + 2 * line.len(),
        "{} bytes",
        kept.len()
    );
    let last: Vec<&str> = kept.lines().rev().take(2).collect();
    assert!(
        last[0].contains("9e8d7c6b-second") && last[1].contains("9e8d7c6b-first"),
        "{last:?}"
    );
    assert!(
        kept.lines()
            .all(|l| serde_json::from_str::<Value>(l).is_ok())
    );
    let status = env.handover_with(&repo, &["status"], |c| {
        c.env("GIT_HANDOVER_NOW", "2026-11-30T12:07:00Z");
    });
    assert!(
        status
            .stdout
            .contains("picked up by claude 9e8d7c6b-second 1m ago"),
        "{}",
        status.stdout
    );
    let _ = key;
}
