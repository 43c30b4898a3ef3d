//! The README's install lines, one per agent ("## Agent hooks"), run as printed by a
//! shell with the real agents on its `PATH`, offline: the one change is the
//! repository's address, which is a clone of this repository's committed tree here
//! (`https://github.com/git-handover/git-handover` → its path,
//! `https://raw.githubusercontent.com/…/main` → `file://` it). Each then shows in
//! the agent's own list (`claude plugin list`, `gemini extensions list`, `codex plugin
//! list`) and in `doctor`, read from the agent's own records.

use std::path::Path;

use serde_json::Value;

use super::{Agent, World, agents_dir, need};

fn install_lines() -> Vec<String> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let rest = &readme[readme.find("## Agent hooks").expect("the section")..];
    let start = rest.find("```sh\n").unwrap() + 6;
    let end = start + rest[start..].find("```").unwrap();
    rest[start..end]
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_readme_has_one_install_line_per_agent_and_each_runs_as_printed() {
    let lines = install_lines();
    let firsts: Vec<&str> = lines
        .iter()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(
        firsts,
        ["claude", "gemini", "codex", "git", "mkdir"],
        "{lines:#?}"
    );
    assert!(lines[3].contains("--agent copilot") && lines[4].contains("opencode"));
    if !(need(Agent::Claude) && need(Agent::Gemini) && need(Agent::Codex)) {
        return;
    }
    let w = World::new();
    let clone = w.env.root().join("clone");
    w.env.git(
        w.env.root(),
        &[
            "clone",
            "-q",
            env!("CARGO_MANIFEST_DIR"),
            clone.to_str().unwrap(),
        ],
    );
    if !clone.join("gemini-extension.json").is_file() {
        // The committed tree predates the packages (a run on uncommitted work).
        return;
    }
    let path = format!(
        "{}:{}:{}",
        Path::new(env!("CARGO_BIN_EXE_git-handover"))
            .parent()
            .unwrap()
            .display(),
        agents_dir().join("node_modules/.bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let here = clone.display().to_string();
    for line in &lines {
        let line = line
            .replace(
                "https://raw.githubusercontent.com/git-handover/git-handover/main",
                &format!("file://{here}"),
            )
            .replace("https://github.com/git-handover/git-handover", &here);
        let out = w
            .env
            .shell(&w.repo, &line)
            .env("PATH", &path)
            .env("DISABLE_AUTOUPDATER", "1")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{line}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // Each agent lists what it installed, by its own code.
    for list in [
        "claude plugin list",
        "gemini extensions list",
        "codex plugin list",
    ] {
        let out = w
            .env
            .shell(&w.repo, list)
            .env("PATH", &path)
            .env("DISABLE_AUTOUPDATER", "1")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .output()
            .unwrap();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.status.success() && said.contains("git-handover"),
            "{list}: {said}"
        );
    }
    let run = w.env.handover(&w.repo, &["--json", "doctor"]);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let checks = doc["checks"].as_array().unwrap();
    for agent in ["Claude Code", "Gemini CLI", "Codex CLI"] {
        assert!(
            checks.iter().any(|c| c["id"] == "package"
                && c["values"]["agent"] == agent
                && c["outcome"] == "ok"),
            "{agent}: {doc:#}"
        );
    }
    // Every one is the user's: this repository did not opt in, and doctor says so.
    for agent in [
        "Claude Code",
        "Gemini CLI",
        "Codex CLI",
        "GitHub Copilot CLI",
        "OpenCode",
    ] {
        assert!(
            checks
                .iter()
                .any(|c| c["id"] == "opt_in" && c["values"]["agent"] == agent),
            "{agent}: {doc:#}"
        );
    }
}
