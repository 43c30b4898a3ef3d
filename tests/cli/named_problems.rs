//! Problems named, never hidden and never failing the hook (issue 14): an agent that
//! keeps stdin open, a broken git configuration, a directory nobody can list, a SHA-256
//! repository, invisible characters, duplicate task ids, a handover from the future.

use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::{TestEnv, read_json};
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_git-handover");

// 14. The hook does not wait for an agent that keeps stdin open: it gives the event
//     its time, then goes on without it and ends while the pipe is still open.
#[test]
fn the_hook_does_not_wait_for_an_open_stdin() {
    let env = TestEnv::new();
    let repo = env.repo();
    let log = env.event_log("hook");
    let mut child = env
        .command(BIN)
        .current_dir(&repo)
        .args(["hook", "session-start"])
        .env("GIT_HANDOVER_TEST_LOG", log.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take();
    // A watchdog far beyond the hook's own wait: a hook that waited for the pipe to
    // close would never end.
    let mut polls = 0;
    while child.try_wait().unwrap().is_none() {
        polls += 1;
        if polls == 1000 {
            let _ = child.kill();
            panic!("the hook waited for stdin");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        log.count("stdin-wait-over"),
        1,
        "the hook waited for the event until its time ran out, once"
    );
    drop(stdin);
}

// 15. A broken git configuration: the hook still answers, the error names the cause.
#[test]
fn a_broken_git_config_is_named_and_never_fails_the_hook() {
    let env = TestEnv::new();
    let repo = env.repo();
    let install = env.handover(&repo, &["hook", "install"]);
    assert_eq!(install.code, 0);
    let config = repo.join(".git/config");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str("[core\n  broken");
    std::fs::write(&config, text).unwrap();
    let status = env.handover(&repo, &["status"]);
    assert_eq!(status.code, 128);
    assert!(
        status
            .stderr
            .contains("the repository at [ROOT]/repo/.git cannot be read"),
        "{}",
        status.stderr
    );
    let settings = read_json(&repo.join(".claude/settings.json"));
    let command = settings["hooks"]["SessionStart"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    let bin_dir = Path::new(BIN).parent().unwrap();
    for path in [
        format!("{}:/usr/bin:/bin", bin_dir.display()),
        // git-handover not on the agent's PATH at all.
        "/usr/bin:/bin".to_owned(),
    ] {
        let out = env
            .command("sh")
            .args(["-c", &command])
            .env("PATH", &path)
            .current_dir(&repo)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{path}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        if path.starts_with(&bin_dir.display().to_string()) {
            let v: Value = serde_json::from_str(&stdout).unwrap();
            let context = v["hookSpecificOutput"]["additionalContext"]
                .as_str()
                .unwrap();
            assert!(context.contains("cannot be read"), "{context}");
        } else {
            assert!(stdout.is_empty());
        }
    }
}

// 16. A directory nobody can list is reported, not invisible.
#[test]
fn an_unreadable_session_directory_is_reported() {
    let env = TestEnv::new();
    let repo = env.repo();
    let key = env.saved(
        &repo,
        &json!({"active_tasks": [{"id": "T1", "status": "in_progress"}]}),
    );
    let dir = repo.join(".claude/handover").join(&key);
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o000)).unwrap();
    // Permissions do not stop root: run as nobody, where this machine allows it.
    let as_nobody = nix_user_switch();
    let mut cmd = match &as_nobody {
        Some(prefix) => {
            let mut c = env.command(&prefix[0]);
            c.args(&prefix[1..]).arg(BIN);
            c
        }
        None => env.command(BIN),
    };
    if as_nobody.is_some() {
        // nobody must reach the repository and its configuration.
        for p in [env.root(), &env.root().join("home")] {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        // The repository is root's: nobody trusts it, as git would need to.
        let global = env.root().join("nobody.gitconfig");
        std::fs::write(&global, "[safe]\n\tdirectory = *\n").unwrap();
        cmd.env("GIT_CONFIG_GLOBAL", &global);
    } else if crate::common::is_root() {
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        crate::common::unavailable("root, and no setpriv to drop to nobody");
        return;
    }
    let out = cmd.current_dir(&repo).arg("status").output().unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let stdout = env.redact(&String::from_utf8_lossy(&out.stdout));
    let stderr = env.redact(&String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(3), "{stdout}{stderr}");
    assert!(stdout.contains(&key), "{stdout}");
    assert!(stderr.contains("permission denied"), "{stderr}");
}

/// The command prefix that runs a program as `nobody`, when we are root and can.
fn nix_user_switch() -> Option<Vec<String>> {
    if !crate::common::is_root() {
        return None;
    }
    let ok = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "true"])
        .status()
        .is_ok_and(|s| s.success());
    ok.then(|| {
        [
            "setpriv",
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
        ]
        .map(str::to_owned)
        .to_vec()
    })
}

// 17. SHA-256 repositories are named, not called "not a repository".
#[test]
fn a_sha256_repository_is_named() {
    let env = TestEnv::new();
    let dir = env.root().join("s256");
    std::fs::create_dir_all(&dir).unwrap();
    env.git(&dir, &["init", "-q", "--object-format=sha256"]);
    let run = env.handover(&dir, &["status"]);
    assert_eq!(run.code, 128);
    assert_eq!(
        run.stderr.trim(),
        "git-handover: the repository at [ROOT]/s256/.git uses SHA-256 object names, which git-handover does not support yet"
    );
}

// 18. Invisible characters are escaped, in the terminal and in the agent's context.
#[test]
fn invisible_characters_are_escaped_everywhere() {
    let env = TestEnv::new();
    let repo = env.repo();
    let sneaky = "fix tests\u{200b}\u{2028}\u{e0049}\u{e0067}\u{e006e}\u{e006f}\u{e0072}\u{e0065}";
    env.saved(
        &repo,
        &json!({"active_tasks": [{"id": "T1", "status": "in_progress", "description": sneaky,
                                  "next_action": "go\u{2060}on"}]}),
    );
    let status = env.handover(&repo, &["status"]);
    let context = env
        .handover(&repo, &["hook", "session-start"])
        .hook_context();
    for out in [status.stdout.as_str(), context.as_str()] {
        assert!(
            !out.chars().any(|c| matches!(
                c,
                '\u{200b}' | '\u{2028}' | '\u{2060}' | '\u{e0000}'..='\u{e007f}'
            )),
            "{out}"
        );
        assert!(
            out.contains("\\u{200b}") || out.contains("\\u{2060}"),
            "{out}"
        );
    }
}

// 19. Duplicate task ids: refused on save, reported on read.
#[test]
fn duplicate_task_ids_are_refused_and_reported() {
    let env = TestEnv::new();
    let repo = env.repo();
    let input = env.root().join("dup.json");
    env.write(
        &input,
        &json!({"active_tasks": [{"id": "T1", "status": "done"}, {"id": "T1", "status": "in_progress"}]})
            .to_string(),
    );
    let run = env.handover(&repo, &["save", "--from", input.to_str().unwrap()]);
    assert_eq!(run.code, 3, "{}", run.snapshot());
    assert!(run.stderr.contains("active_tasks[1].id"), "{}", run.stderr);
    assert!(
        !repo.join(".claude/handover").exists(),
        "nothing was created"
    );
    let file = repo.join(".claude/handover/main/20261130-110000/project-state.json");
    env.write(
        &file,
        &json!({"version": 3, "status": "READY", "workspace": {"branch": "main"},
                "active_tasks": [{"id": "T1", "status": "done"}, {"id": "T1", "status": "in_progress"}]})
        .to_string(),
    );
    let status = env.handover(&repo, &["status"]);
    assert!(
        status.stderr.contains("task id \"T1\" is used twice"),
        "{}",
        status.stderr
    );
}

// 20. A handover dated in the future is flagged, never fresh.
#[test]
fn a_handover_from_the_future_is_flagged() {
    let env = TestEnv::new();
    let repo = env.repo();
    for stamp in ["2027-01-01T00:00:00Z", "9999-12-31T23:59:59Z"] {
        let file = repo.join(".claude/handover/main/20261130-110000/project-state.json");
        env.write(
            &file,
            &json!({"version": 3, "status": "READY", "generated_at": stamp,
                    "workspace": {"branch": "main"},
                    "active_tasks": [{"id": "T1", "status": "in_progress"}]})
            .to_string(),
        );
        let run = env.handover(&repo, &["status", "--check"]);
        assert_eq!(run.code, 1, "{stamp}: {}", run.snapshot());
        assert!(run.stdout.contains("dated in the future"), "{}", run.stdout);
        let json = env.handover(&repo, &["--json", "status"]);
        let v: Value = serde_json::from_str(&json.stdout).unwrap();
        assert_eq!(v["worktrees"][0]["handovers"][0]["freshness"], "future");
    }
}
