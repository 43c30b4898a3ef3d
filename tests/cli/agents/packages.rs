//! The packages as each agent loads them: its own validators, the Claude Code plugin,
//! the Gemini CLI extension, and Codex's hooks file and skills.

use std::io::Write as _;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use super::{Agent, World, agent_bin, need, wait_with_timeout};

#[test]
fn the_agents_own_validators_accept_the_packages() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if need(Agent::Claude) {
        let w = World::new();
        // The plugin strictly. The root holds the marketplace and is also the Gemini
        // CLI extension, whose `hooks/hooks.json` Claude Code's validator reads as if
        // the root were a plugin (it is not: the marketplace's plugin is
        // `./plugins/git-handover`): its one warning is Gemini's `PreCompress` event.
        for (path, strict) in [
            (root.join("plugins/git-handover"), true),
            (root.to_path_buf(), false),
        ] {
            let out = w
                .env
                .command(agent_bin(Agent::Claude).unwrap())
                .args(["plugin", "validate"])
                .args(strict.then_some("--strict"))
                .arg(&path)
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success() && text.contains("Validation passed"),
                "{}: {text}{}",
                path.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            if !strict {
                let warnings: Vec<&str> = text.lines().filter(|l| l.contains("❯ hooks")).collect();
                assert!(
                    warnings
                        .iter()
                        .all(|l| l.contains("hooks.PreCompress: unknown hook event")
                            || l.contains("hooks.AfterAgent: unknown hook event")),
                    "{text}"
                );
            }
        }
    }
    if need(Agent::Gemini) {
        let w = World::new();
        let out = w
            .env
            .command(agent_bin(Agent::Gemini).unwrap())
            .args(["extensions", "validate"])
            .arg(root)
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.status.success() && text.contains("successfully validated"),
            "{text}"
        );
    }
}

#[test]
fn claude_code_loads_the_plugin_whose_hooks_brief_and_remind() {
    if !need(Agent::Claude) {
        return;
    }
    let w = World::new();
    // A task in progress, last touched before this agent session started.
    let run = w.env.handover(&w.repo, &["task", "start", "T1"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let plugin = Path::new(env!("CARGO_MANIFEST_DIR")).join("plugins/git-handover");
    let plugin = plugin.to_str().unwrap();
    // The plugin is installed for the user: in a repository that did not opt in, its
    // hook runs and briefs nothing (the repository's files are not put into every
    // session unasked), and its reminders say nothing either.
    let (sources, briefed) = w.start(Agent::Claude, &["-p", "hello", "--plugin-dir", plugin]);
    assert_eq!(sources, ["startup"], "the plugin's SessionStart hook ran");
    assert!(!briefed, "a repository that did not opt in is not briefed");
    assert_eq!(
        w.outputs(),
        "",
        "nothing said where the repository did not opt in"
    );
    w.env.git(&w.repo, &["config", "handover.hook", "true"]);
    let (sources, briefed) = w.start(Agent::Claude, &["-p", "hello", "--plugin-dir", plugin]);
    assert_eq!(sources, ["startup"], "the plugin's SessionStart hook ran");
    assert!(
        briefed,
        "the plugin's briefing reached the opted-in repository's model"
    );
    let before = w.events().len();
    w.start(
        Agent::Claude,
        &["-p", "/compact", "--continue", "--plugin-dir", plugin],
    );
    let names: Vec<String> = w.events()[before..]
        .iter()
        .map(|e| e["hook_event_name"].as_str().unwrap_or("?").to_owned())
        .collect();
    assert!(
        names.iter().any(|n| n == "PreCompact"),
        "the plugin's PreCompact hook ran: {names:?}"
    );
    assert!(
        w.outputs().contains("systemMessage")
            && w.outputs().contains("save the handover")
            && w.outputs().contains("[T1]"),
        "it reminded: {}",
        w.outputs()
    );
}

#[test]
fn gemini_cli_links_the_extension_whose_hooks_brief_and_remind() {
    if !need(Agent::Gemini) {
        return;
    }
    let w = World::new();
    // The repository's root is the extension (`gemini extensions install <URL>` clones
    // the root and needs `gemini-extension.json` there); linking it reads the same files.
    let ext = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut child = w
        .env
        .command(agent_bin(Agent::Gemini).unwrap())
        .args(["extensions", "link"])
        .arg(ext)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // It asks before enabling an extension with skills.
    child.stdin.take().unwrap().write_all(b"y\n").unwrap();
    let out = wait_with_timeout(child, Duration::from_secs(60));
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("linked successfully"), "{said}");
    let run = w.env.handover(&w.repo, &["task", "start", "T1"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    // The extension is installed for the user: a repository that did not opt in is
    // neither briefed nor reminded.
    let (sources, briefed) = w.start(Agent::Gemini, &["-p", "hello"]);
    assert_eq!(sources, ["startup"], "the extension's hook ran");
    assert!(!briefed, "a repository that did not opt in is not briefed");
    assert_eq!(
        w.outputs(),
        "",
        "nothing said where the repository did not opt in"
    );
    w.env.git(&w.repo, &["config", "handover.hook", "true"]);
    let before = w.events().len();
    let (sources, briefed) = w.start(Agent::Gemini, &["-p", "hello"]);
    assert_eq!(
        sources,
        ["startup"],
        "the extension's SessionStart hook ran"
    );
    assert!(
        briefed,
        "the extension's briefing reached the opted-in repository's model"
    );
    let names: Vec<String> = w.events()[before..]
        .iter()
        .map(|e| e["hook_event_name"].as_str().unwrap_or("?").to_owned())
        .collect();
    // Gemini CLI runs both PreCompress and SessionEnd for one headless prompt: the
    // reminder is said once, worded for the first.
    assert!(names.iter().any(|n| n == "PreCompress"), "{names:?}");
    assert!(names.iter().any(|n| n == "SessionEnd"), "{names:?}");
    assert_eq!(
        w.outputs().matches("systemMessage").count(),
        1,
        "one reminder: {}",
        w.outputs()
    );
    assert!(w.outputs().contains("save the handover"), "{}", w.outputs());
    // Nothing an agent hook writes has angle brackets, which Gemini CLI escapes.
    assert!(!w.outputs().contains('<'), "{}", w.outputs());
    // With the Codex setup's skills in `.agents/skills/` as well (Gemini CLI reads
    // them too), no skill overrides another.
    let skills = Path::new(env!("CARGO_MANIFEST_DIR")).join("extensions/codex/skills");
    for skill in ["handover", "continue"] {
        let to = w.repo.join(".agents/skills").join(skill);
        std::fs::create_dir_all(&to).unwrap();
        std::fs::copy(skills.join(skill).join("SKILL.md"), to.join("SKILL.md")).unwrap();
    }
    let before = w.stub.count();
    let out = w.run(Agent::Gemini, &["-p", "hello"], true);
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{said}");
    assert!(!said.contains("Skill conflict"), "{said}");
    let sent: String = w.stub.since(before).into_iter().map(|(_, b)| b).collect();
    assert!(
        sent.contains("gemini-handover"),
        "the extension's skill is offered"
    );
}

#[test]
fn codex_runs_the_packaged_hooks_file() {
    if !need(Agent::Codex) {
        return;
    }
    let w = World::new();
    let packaged = Path::new(env!("CARGO_MANIFEST_DIR")).join("extensions/codex/hooks.json");
    std::fs::create_dir_all(w.repo.join(".codex")).unwrap();
    std::fs::copy(&packaged, w.repo.join(".codex/hooks.json")).unwrap();
    let run = w.env.handover(&w.repo, &["task", "start", "T1"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let out = w.run(Agent::Codex, &["hello"], true);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("invalid"), "{stderr}");
    let names: Vec<String> = w
        .events()
        .iter()
        .map(|e| e["hook_event_name"].as_str().unwrap_or("?").to_owned())
        .collect();
    // `Stop` at the end of the turn (the stop gate, silent while off), then the end.
    assert_eq!(names, ["SessionStart", "Stop", "SessionEnd"]);
    assert!(
        w.outputs().contains("this agent session ended") && w.outputs().contains("[T1]"),
        "{}",
        w.outputs()
    );
}

#[test]
fn codex_reads_the_skills_where_the_codex_setup_puts_them() {
    if !need(Agent::Codex) {
        return;
    }
    let w = World::new();
    let skills = Path::new(env!("CARGO_MANIFEST_DIR")).join("extensions/codex/skills");
    for skill in ["handover", "continue"] {
        let to = w.repo.join(".agents/skills").join(skill);
        std::fs::create_dir_all(&to).unwrap();
        std::fs::copy(skills.join(skill).join("SKILL.md"), to.join("SKILL.md")).unwrap();
    }
    let before = w.stub.count();
    let out = w.run(Agent::Codex, &["hello"], true);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sent: String = w.stub.since(before).into_iter().map(|(_, b)| b).collect();
    assert!(
        sent.contains("Save the session's handover with git-handover"),
        "the handover skill is offered to the model"
    );
    assert!(sent.contains("Resume the work a previous session handed over"));
}

/// `hook install --agent gemini` into a settings file with comments (Gemini CLI reads
/// JSON with comments): the comments stay, and the real agent reads the file and runs
/// the hook.
#[test]
fn gemini_cli_runs_the_hook_installed_into_settings_with_comments() {
    if !need(Agent::Gemini) {
        return;
    }
    let w = World::new();
    let settings = w.repo.join(".gemini/settings.json");
    let text = "{\n  // the user's own note, and a URL: http://example.com/x\n  \"ui\": {\"hideTips\": true} /* kept */\n}\n";
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, text).unwrap();
    w.install(Agent::Gemini, "project");
    let edited = std::fs::read_to_string(&settings).unwrap();
    assert!(edited.contains("// the user's own note") && edited.contains("/* kept */"));
    let (sources, briefed) = w.start(Agent::Gemini, &["-p", "hello"]);
    assert_eq!(sources, ["startup"], "{edited}");
    assert!(briefed);
}

/// The Codex plugin, installed with Codex's own commands from the repository's
/// marketplace (`.agents/plugins/marketplace.json`, read first by Codex:
/// `codex-rs/core-plugins/src/marketplace.rs`; the manifest
/// `extensions/codex/.codex-plugin/plugin.json` with `skills` and inline `hooks`:
/// `codex-rs/core-plugins/src/manifest.rs`, `RawPluginManifest`). It is installed for
/// the user: a repository that did not opt in is not briefed; one that did is, and
/// the plugin's skills reach the model.
#[test]
fn codex_installs_the_plugin_from_the_marketplace_and_runs_its_hooks() {
    if !need(Agent::Codex) {
        return;
    }
    let w = World::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let codex = |args: &[&str]| {
        let out = w
            .env
            .command(agent_bin(Agent::Codex).unwrap())
            .args(args)
            .env("CODEX_HOME", w.home().join(".codex"))
            .output()
            .unwrap();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "{args:?}: {said}");
        said
    };
    let said = codex(&["plugin", "marketplace", "add", root.to_str().unwrap()]);
    assert!(said.contains("Added marketplace `git-handover`"), "{said}");
    let said = codex(&["plugin", "add", "git-handover@git-handover"]);
    assert!(said.contains("Added plugin `git-handover`"), "{said}");
    let said = codex(&["plugin", "list"]);
    assert!(said.contains("installed, enabled"), "{said}");
    let (sources, briefed) = w.start(Agent::Codex, &["hello"]);
    assert_eq!(sources, ["startup"], "the plugin's SessionStart hook ran");
    assert!(!briefed, "a repository that did not opt in is not briefed");
    w.env.git(&w.repo, &["config", "handover.hook", "true"]);
    let before = w.stub.count();
    let (sources, briefed) = w.start(Agent::Codex, &["hello"]);
    assert_eq!(sources, ["startup"]);
    assert!(briefed, "the plugin's briefing reached the model");
    let sent: String = w.stub.since(before).into_iter().map(|(_, b)| b).collect();
    assert!(
        sent.contains("Save the session's handover with git-handover"),
        "the plugin's skills are offered to the model"
    );
}

/// `gemini extensions install <repository> --consent` runs unattended (stdin closed)
/// and installs the extension from the repository's root: Gemini CLI 0.61 copies a local
/// source whole, clones a URL's root, and asks only for the folder trust of a local
/// path in a trust-enabled setup (`@google/gemini-cli` 0.61.0,
/// `bundle/gemini-3HFX2LNT.js`, the install handler's `isWorkspaceTrusted`); the world
/// here has folder trust off, as a URL install needs none. The source is a clone of
/// this repository's committed tree (a copy of the worktree would take `target/`).
#[test]
fn gemini_cli_installs_the_extension_from_the_repository_root_unattended() {
    if !need(Agent::Gemini) {
        return;
    }
    let w = World::new();
    let clone = w.env.root().join("clone");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    w.env.git(
        w.env.root(),
        &[
            "clone",
            "-q",
            root.to_str().unwrap(),
            clone.to_str().unwrap(),
        ],
    );
    if !clone.join("gemini-extension.json").is_file() {
        // The committed tree predates the root extension (a run on uncommitted work).
        return;
    }
    let child = w
        .env
        .command(agent_bin(Agent::Gemini).unwrap())
        .args(["extensions", "install"])
        .arg(&clone)
        .arg("--consent")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = wait_with_timeout(child, Duration::from_secs(60));
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success() && said.contains("installed successfully"),
        "{said}"
    );
    w.env.git(&w.repo, &["config", "handover.hook", "true"]);
    let (sources, briefed) = w.start(Agent::Gemini, &["-p", "hello"]);
    assert_eq!(sources, ["startup"], "the installed extension's hook ran");
    assert!(briefed);
}
