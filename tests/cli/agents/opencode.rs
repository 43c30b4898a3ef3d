//! The `OpenCode` plugin (`plugins/opencode/git-handover.js`), loaded by `OpenCode`'s own
//! loader (`opencode run`, offline, the stub as its Anthropic endpoint through
//! `OPENCODE_CONFIG_CONTENT`: ENGINEERING-NOTES "More agents"). `OpenCode` loads plugins
//! from `~/.config/opencode/plugin/` and `<project>/.opencode/plugin/`
//! (<https://opencode.ai/docs/plugins>). Installed for the user it briefs only where
//! the repository opted in; committed into the project it is the project's opt-in.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use super::{MARKER, World, agents_dir, wait_with_timeout};

fn opencode() -> Option<PathBuf> {
    let bin = agents_dir().join("node_modules/.bin/opencode");
    if bin.exists() {
        return Some(bin);
    }
    crate::common::unavailable(&format!(
        "opencode is not installed under {} (.ci/run installs it from the npm registry)",
        agents_dir().display()
    ));
    None
}

/// Run `opencode run hello` in the world's repository; whether the briefing reached
/// the model.
fn briefed(w: &World, bin: &Path) -> bool {
    let before = w.stub.count();
    let home = w.home();
    let config = serde_json::json!({
        "model": "anthropic/claude-opus-4-5",
        "provider": {"anthropic": {"options": {"baseURL": format!("{}/v1", w.stub.url()), "apiKey": "sk-stub"}}},
        "share": "disabled", "autoupdate": false
    });
    let path = format!(
        "{}:{}",
        Path::new(env!("CARGO_BIN_EXE_git-handover"))
            .parent()
            .unwrap()
            .display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd: Command = w.env.command(bin);
    cmd.current_dir(&w.repo)
        .args(["run", "hello"])
        .env("PATH", path)
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env("OPENCODE_CONFIG_CONTENT", config.to_string())
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
fn opencode_loads_the_plugin_for_the_user_and_for_the_project() {
    let Some(bin) = opencode() else {
        return;
    };
    let w = World::new();
    let plugin = Path::new(env!("CARGO_MANIFEST_DIR")).join("plugins/opencode/git-handover.js");
    // Installed for the user: not briefed until the repository opts in.
    let user = w.home().join(".config/opencode/plugin");
    std::fs::create_dir_all(&user).unwrap();
    std::fs::copy(&plugin, user.join("git-handover.js")).unwrap();
    assert!(!briefed(&w, &bin), "a repository that did not opt in");
    w.env.git(&w.repo, &["config", "handover.hook", "true"]);
    assert!(briefed(&w, &bin), "the opted-in repository is briefed");
    // Committed into the project instead: the project's own opt-in.
    std::fs::remove_file(user.join("git-handover.js")).unwrap();
    w.env.git(&w.repo, &["config", "handover.hook", "false"]);
    let project = w.repo.join(".opencode/plugin");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::copy(&plugin, project.join("git-handover.js")).unwrap();
    assert!(briefed(&w, &bin), "the project's own plugin briefs");
}
