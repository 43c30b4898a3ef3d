//! `doctor` reads the packaged installs from the records the agents themselves write:
//! each package installed here with the agent's own command, found by `doctor`, turned
//! off with the agent's own command (or, for Codex, which has none, in its config as
//! its plugin screen keeps it), found off, and turned on again by the command `doctor`
//! prints, run as printed.

use std::io::Write as _;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;

use super::{Agent, World, agent_bin, agents_dir, need, wait_with_timeout};

/// Run the agent with `args` in the world's repository, `stdin` as its input.
fn agent(w: &World, agent: Agent, args: &[&str], stdin: &[u8]) -> String {
    let mut child = w
        .env
        .command(agent_bin(agent).unwrap())
        .args(args)
        .current_dir(&w.repo)
        .env("DISABLE_AUTOUPDATER", "1")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = wait_with_timeout(child, Duration::from_secs(60));
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{args:?}: {said}");
    said
}

/// doctor's check of the package `agent` (a display name) installed.
fn package(w: &World, name: &str) -> Value {
    let run = w.env.handover(&w.repo, &["--json", "doctor"]);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "package" && c["values"]["agent"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("no package check for {name}: {doc:#}"))
}

/// Run `command` as printed, with the agents on the `PATH` too.
fn run_fix(w: &World, command: &str) {
    let path = format!(
        "{}:{}:{}",
        Path::new(env!("CARGO_BIN_EXE_git-handover"))
            .parent()
            .unwrap()
            .display(),
        agents_dir().join("node_modules/.bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = w
        .env
        .shell(&w.repo, command)
        .env("PATH", path)
        .env("DISABLE_AUTOUPDATER", "1")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{command}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Found on, then off, then on again by the printed command.
fn off_and_on_again(w: &World, name: &str, turn_off: impl FnOnce()) {
    let c = package(w, name);
    assert_eq!(c["outcome"], "ok", "{c:#}");
    turn_off();
    let c = package(w, name);
    assert_eq!(
        (c["outcome"].as_str(), c["fixable"].as_bool()),
        (Some("problem"), Some(false)),
        "{c:#}"
    );
    run_fix(w, c["fix"].as_str().unwrap());
    let c = package(w, name);
    assert_eq!(c["outcome"], "ok", "{c:#}");
}

#[test]
fn doctor_reads_the_claude_code_plugin_claude_installed_and_disabled() {
    if !need(Agent::Claude) {
        return;
    }
    let w = World::new();
    let root = env!("CARGO_MANIFEST_DIR");
    agent(
        &w,
        Agent::Claude,
        &["plugin", "marketplace", "add", root],
        b"",
    );
    agent(
        &w,
        Agent::Claude,
        &["plugin", "install", "git-handover@git-handover"],
        b"",
    );
    off_and_on_again(&w, "Claude Code", || {
        agent(
            &w,
            Agent::Claude,
            &["plugin", "disable", "git-handover@git-handover"],
            b"",
        );
    });
}

#[test]
fn doctor_reads_the_gemini_extension_gemini_linked_and_disabled_here() {
    if !need(Agent::Gemini) {
        return;
    }
    let w = World::new();
    let root = env!("CARGO_MANIFEST_DIR");
    // It asks before enabling an extension with skills.
    agent(&w, Agent::Gemini, &["extensions", "link", root], b"y\n");
    off_and_on_again(&w, "Gemini CLI", || {
        agent(
            &w,
            Agent::Gemini,
            &[
                "extensions",
                "disable",
                "git-handover",
                "--scope",
                "workspace",
            ],
            b"",
        );
    });
}

#[test]
fn doctor_reads_the_codex_plugin_codex_added_and_one_turned_off() {
    if !need(Agent::Codex) {
        return;
    }
    let w = World::new();
    let root = env!("CARGO_MANIFEST_DIR");
    agent(
        &w,
        Agent::Codex,
        &["plugin", "marketplace", "add", root],
        b"",
    );
    agent(
        &w,
        Agent::Codex,
        &["plugin", "add", "git-handover@git-handover"],
        b"",
    );
    let config = w.home().join(".codex/config.toml");
    off_and_on_again(&w, "Codex CLI", || {
        let text = std::fs::read_to_string(&config).unwrap();
        assert!(text.contains("enabled = true"), "{text}");
        std::fs::write(&config, text.replace("enabled = true", "enabled = false")).unwrap();
    });
}
