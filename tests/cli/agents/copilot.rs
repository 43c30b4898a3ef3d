//! GitHub Copilot CLI 1.0.102 (npm `@github/copilot`) runs the hooks file `hook install
//! --agent copilot` writes, offline: `COPILOT_OFFLINE=true` and the stub as its
//! Anthropic provider (`COPILOT_PROVIDER_TYPE`, `COPILOT_PROVIDER_BASE_URL`,
//! `COPILOT_PROVIDER_API_KEY`, `COPILOT_MODEL`: all read by its bundled code, which it
//! unpacks into `~/.cache/copilot/pkg/linux-x64/1.0.102/`: `cli-main.js` reads
//! `process.env.COPILOT_OFFLINE`, `prebuilds/linux-x64/runtime.node` names the
//! provider variables and says `Offline mode requires a local model provider. Set
//! COPILOT_PROVIDER_BASE_URL`). It runs a repository's `.github/hooks/*.json` only in a
//! trusted folder (`cli-main.js`: `folderTrustIsTrusted(gitRoot, configDir)`; kept as
//! `trusted_folders` in `$COPILOT_HOME/config.json`, which its trust prompt writes):
//! without it the hook does not run at all (seen with the real agent). The
//! `sessionStart` hook gets `{"sessionId", "timestamp", "cwd", "source": "new",
//! "initialPrompt"}` and its top-level `additionalContext` reaches the model; the
//! `sessionEnd` hook gets `{"sessionId", "timestamp", "cwd", "reason"}`.

use std::path::{Path, PathBuf};

use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::Duration;

use super::{MARKER, World, agents_dir, wait_with_timeout};

fn copilot() -> Option<PathBuf> {
    let bin = agents_dir().join("node_modules/.bin/copilot");
    if bin.exists() {
        return Some(bin);
    }
    crate::common::unavailable(&format!(
        "copilot is not installed under {} (.ci/run installs it from the npm registry)",
        agents_dir().display()
    ));
    None
}

/// Run `copilot -p hello` in the world's repository (a folder the user trusted);
/// whether the briefing reached the model.
fn briefed(w: &World, bin: &Path) -> bool {
    let home = w.home().join(".copilot");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(
        home.join("config.json"),
        serde_json::json!({"trusted_folders": [w.repo.display().to_string()]}).to_string(),
    )
    .unwrap();
    let before = w.stub.count();
    // The world's git-handover: it logs each event it is given, then runs the tool.
    let path = format!(
        "{}:{}",
        w.bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd: Command = w.env.command(bin);
    cmd.current_dir(&w.repo)
        .args(["-p", "hello", "--allow-all-tools"])
        .env("PATH", path)
        .env("HOME", w.home())
        .env("COPILOT_HOME", &home)
        .env("COPILOT_OFFLINE", "true")
        .env("COPILOT_PROVIDER_TYPE", "anthropic")
        .env("COPILOT_PROVIDER_BASE_URL", w.stub.url())
        .env("COPILOT_PROVIDER_API_KEY", "sk-stub")
        .env("COPILOT_MODEL", "claude-opus-4-5")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let out = wait_with_timeout(cmd.spawn().unwrap(), Duration::from_secs(120));
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    w.stub
        .since(before)
        .iter()
        .any(|(_, body)| body.contains(MARKER))
}

#[test]
fn copilot_runs_the_installed_hooks_at_project_and_user_scope() {
    let Some(bin) = copilot() else {
        return;
    };
    let w = World::new();
    // The user's own hook: not briefed where the repository did not opt in.
    let run = w.env.handover_with(
        &w.repo,
        &["hook", "install", "--agent", "copilot", "--scope", "user"],
        |c| {
            c.env("COPILOT_HOME", w.home().join(".copilot"));
        },
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(w.home().join(".copilot/hooks/git-handover.json").is_file());
    assert!(!briefed(&w, &bin), "a repository that did not opt in");
    // The project's own hook is its opt-in: briefed (once, though both scopes run).
    let run = w
        .env
        .handover(&w.repo, &["hook", "install", "--agent", "copilot"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let before = w.events().len();
    assert!(briefed(&w, &bin), "the project's Copilot hook briefs");
    // Both scopes' hooks ran, at the start and at the end of the session; the briefing
    // was given once.
    let events: Vec<Value> = w.events()[before..].to_vec();
    let starts = events.iter().filter(|e| e["source"] == "new").count();
    let ends = events.iter().filter(|e| e.get("reason").is_some()).count();
    assert_eq!((starts, ends), (2, 2), "{events:#?}");
    assert_eq!(w.outputs().matches(MARKER).count(), 1, "{}", w.outputs());
}
