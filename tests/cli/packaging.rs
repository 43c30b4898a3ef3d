//! The packages for the agents (issue 18): the Claude Code plugin and marketplace, the
//! Gemini CLI extension and the Codex setup, drift-tested against the CLI and against
//! what `hook install` writes. Each agent's own validator runs in
//! tests/cli/agents/packages.rs.

use std::path::{Path, PathBuf};

use crate::common::TestEnv;
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[track_caller]
fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every `git handover …` and `git-handover …` command line written in `file`: a JSON
/// file's `command` values, or a text's backticked spans and `!{…}` shell injections.
fn command_lines(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let pieces: Vec<String> = if file.extension().is_some_and(|x| x == "json") {
        let mut commands = Vec::new();
        let mut pending = vec![json(file)];
        while let Some(v) = pending.pop() {
            match v {
                Value::Object(m) => {
                    for (k, v) in m {
                        match v {
                            Value::String(s) if k == "command" => commands.push(s),
                            other => pending.push(other),
                        }
                    }
                }
                Value::Array(a) => pending.extend(a),
                _ => {}
            }
        }
        commands
    } else {
        text.split(['`', '{', '}']).map(str::to_owned).collect()
    };
    let mut out = Vec::new();
    for piece in pieces {
        let piece = piece.trim().trim_start_matches('!');
        let rest = piece
            .strip_prefix("git handover ")
            .or_else(|| piece.strip_prefix("git-handover "));
        if let Some(rest) = rest {
            // The part before a shell operator is the command.
            let rest = rest
                .split(" 2>")
                .next()
                .unwrap()
                .split(" ||")
                .next()
                .unwrap();
            out.push(rest.to_owned());
        }
    }
    out
}

/// A command line as the CLI would get it: placeholders filled in, alternatives
/// (`start|done|block`) taken one by one, `…` left out.
fn variants(line: &str) -> Vec<Vec<String>> {
    let words: Vec<String> = shell_words(line)
        .into_iter()
        .filter(|w| w != "…")
        .map(|w| match w.as_str() {
            "<id>" | "ID" => "T1".to_owned(),
            "KEY" | "<key>" => "main/20261130-120000".to_owned(),
            "HASH" => "abcd1234".to_owned(),
            "<file>" => "state.json".to_owned(),
            _ => w,
        })
        .collect();
    let mut out = vec![Vec::new()];
    for w in words {
        let choices: Vec<String> = if w.contains('|') && !w.contains(' ') {
            w.split('|').map(str::to_owned).collect()
        } else {
            vec![w]
        };
        out = out
            .into_iter()
            .flat_map(|prefix: Vec<String>| {
                choices.iter().map(move |c| {
                    let mut v = prefix.clone();
                    v.push(c.clone());
                    v
                })
            })
            .collect();
    }
    out
}

/// Words of a command line, double quotes grouping.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            _ => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(word);
    }
    words
}

fn package_files() -> Vec<PathBuf> {
    // The Gemini CLI extension is the repository's root (`gemini extensions install`
    // clones or copies a root): its manifest, context file, hooks, skills, commands.
    let mut out = vec![
        root().join("gemini-extension.json"),
        root().join("gemini-context.md"),
    ];
    let mut pending = vec![
        root().join("plugins"),
        root().join("extensions"),
        root().join("hooks"),
        root().join("skills"),
        root().join("commands"),
    ];
    while let Some(dir) = pending.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                pending.push(p);
            } else if p
                .extension()
                .is_some_and(|x| x == "md" || x == "json" || x == "toml")
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_command_in_the_skills_hooks_and_commands_is_one_the_cli_takes() {
    let mut checked = 0;
    for file in package_files() {
        for line in command_lines(&file) {
            for args in variants(&line) {
                git_handover::api::parse_args(&args).unwrap_or_else(|e| {
                    panic!(
                        "{}: `{}` does not parse:\n{e}",
                        file.display(),
                        args.join(" ")
                    )
                });
                checked += 1;
            }
        }
    }
    assert!(checked > 30, "only {checked} command lines found");
}

/// The skills are one text in every package, named so that no two an agent reads at
/// once share a name: Gemini CLI reads its extensions' skills and the open layout's
/// (`.agents/skills/`, `~/.agents/skills/`, where the Codex setup puts them) and warns
/// `Skill conflict detected` when two have one name (`@google/gemini-cli` 0.61.0,
/// `bundle/chunk-5FZXKDXH.js`, `SkillManager.discoverSkills` and
/// `addSkillsWithPrecedence`). So the open layout's copies (one for every agent that
/// reads it) keep the plain names, and the Gemini extension's are named after it.
/// Claude Code reads no `.agents/`, and names a plugin's skills after the plugin.
#[test]
fn the_skills_are_one_text_for_every_agent() {
    let body = |text: &str| {
        text.split_once('\n')
            .unwrap()
            .1
            .split_once('\n')
            .unwrap()
            .1
            .to_owned()
    };
    for skill in ["handover", "continue"] {
        let claude = std::fs::read_to_string(
            root().join(format!("plugins/git-handover/skills/{skill}/SKILL.md")),
        )
        .unwrap();
        assert!(claude.starts_with(&format!("---\nname: {skill}\ndescription: ")));
        for (other, name) in [
            (".", format!("gemini-{skill}")),
            ("extensions/codex", skill.to_owned()),
        ] {
            let copy =
                std::fs::read_to_string(root().join(format!("{other}/skills/{name}/SKILL.md")))
                    .unwrap();
            assert!(
                copy.starts_with(&format!("---\nname: {name}\n")),
                "{other}/{name}"
            );
            assert_eq!(
                body(&copy),
                body(&claude),
                "{other}/skills/{name} drifted from the plugin's"
            );
        }
    }
    // Every skill Gemini CLI may read at once has a name of its own.
    let mut names: Vec<String> = ["skills", "extensions/codex/skills"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root().join(d)).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let all = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), all, "{names:?}");
}

#[test]
fn the_packaged_hooks_are_what_hook_install_writes() {
    let env = TestEnv::new();
    let repo = env.repo();
    // The Claude Code plugin and the Gemini CLI extension are installed for the user
    // (`claude plugin install`, `gemini extensions install`): their hooks are the
    // user-scope ones, which brief only where the repository opted in. Codex's file is
    // copied into the project's `.codex/`.
    let home = env.root().join("home");
    for (agent, scope, installed, packaged) in [
        (
            "claude",
            "user",
            home.join(".claude/settings.json"),
            "plugins/git-handover/hooks/hooks.json",
        ),
        (
            "gemini",
            "user",
            home.join(".gemini/settings.json"),
            "hooks/hooks.json",
        ),
        (
            "codex",
            "project",
            repo.join(".codex/hooks.json"),
            "extensions/codex/hooks.json",
        ),
        // The Codex plugin, installed for the user, carries its hooks inline.
        (
            "codex",
            "user",
            home.join(".codex/hooks.json"),
            "extensions/codex/.codex-plugin/plugin.json",
        ),
    ] {
        let run = env.handover_with(
            &repo,
            &["hook", "install", "--agent", agent, "--scope", scope],
            |c| {
                c.env("HOME", &home)
                    .env_remove("CLAUDE_CONFIG_DIR")
                    .env_remove("CODEX_HOME")
                    .env_remove("GEMINI_CLI_HOME");
            },
        );
        assert_eq!(run.code, 0, "{}", run.snapshot());
        let installed = json(&installed);
        let mut packaged = json(&root().join(packaged));
        if packaged.get("skills").is_some() {
            packaged = packaged["hooks"].take();
        }
        // Every event the package registers, `hook install` registers the same way
        // (issue 34: the automatic record needs pre-compact and session-end).
        assert_eq!(
            packaged["hooks"], installed["hooks"],
            "{agent}: the package's hooks drifted from `hook install`"
        );
        // The reminders follow the same rule as the briefing.
        for (event, hooks) in packaged["hooks"].as_object().unwrap() {
            for h in hooks[0]["hooks"].as_array().unwrap() {
                let command = h["command"].as_str().unwrap();
                assert_eq!(
                    command.contains("--scope user"),
                    scope == "user",
                    "{agent} {event}: {command}"
                );
            }
        }
    }
    // The marketplace names the plugin where it is.
    let market = json(&root().join(".claude-plugin/marketplace.json"));
    let source = market["plugins"][0]["source"].as_str().unwrap();
    assert!(
        root()
            .join(source)
            .join(".claude-plugin/plugin.json")
            .is_file()
    );
    assert_eq!(market["plugins"][0]["name"], "git-handover");
    // Codex's marketplace names its plugin where it is, by a local path.
    let market = json(&root().join(".agents/plugins/marketplace.json"));
    let source = &market["plugins"][0]["source"];
    assert_eq!(source["source"], "local");
    let plugin = root().join(source["path"].as_str().unwrap());
    let manifest = json(&plugin.join(".codex-plugin/plugin.json"));
    assert_eq!(manifest["name"], market["plugins"][0]["name"]);
    assert!(plugin.join(manifest["skills"].as_str().unwrap()).is_dir());
}

/// The `OpenCode` plugin runs the same `git-handover hook …` commands as the hooks files:
/// each verb it names, with `--agent claude` and the user scope it passes when it is not
/// the project's own, is one the CLI takes; and it briefs, reminds and ends through all
/// three, as every other packaged form does.
#[test]
fn the_opencode_plugin_runs_commands_the_cli_takes() {
    let text = std::fs::read_to_string(root().join("plugins/opencode/git-handover.js")).unwrap();
    assert!(text.contains("git-handover hook ${verb} --agent claude ${scope}"));
    assert!(text.contains(r#"["--scope", "user"]"#));
    let verbs: Vec<&str> = text
        .split("hook(\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    assert_eq!(verbs, ["session-start", "pre-compact", "session-end"]);
    for verb in verbs {
        for scope in [&[][..], &["--scope", "user"][..]] {
            let mut args: Vec<String> = ["hook", verb, "--agent", "claude"]
                .iter()
                .map(ToString::to_string)
                .collect();
            args.extend(scope.iter().map(ToString::to_string));
            git_handover::api::parse_args(&args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        }
    }
}

/// Issue 35, item 6: what `cargo install` ships is small (≤ 10 MB), and a panic in it
/// still names its place: the file of every panic site is the binary's data, kept when
/// the symbols and debug info are stripped.
#[test]
fn the_release_binary_is_small_and_its_panics_name_their_place() {
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    let release = target.join("release/git-handover");
    if !release.is_file() {
        crate::common::unavailable(&format!(
            "no release binary at {} (cargo build --release --locked)",
            release.display()
        ));
        return;
    }
    let bytes = std::fs::read(&release).unwrap();
    assert!(bytes.len() <= 10_000_000, "{} bytes", bytes.len());
    // The crate's own files named by its panic sites (which files have one left after
    // inlining moves with the code: no one file is asked for).
    let text = String::from_utf8_lossy(&bytes);
    let own: std::collections::BTreeSet<&str> = ["src/app/", "src/commands/", "src/services/"]
        .iter()
        .flat_map(|dir| text.match_indices(dir))
        .filter_map(|(at, _)| {
            let rest = &text[at..];
            let end = rest.find(".rs")?;
            (end < 80).then(|| &rest[..end + 3])
        })
        .collect();
    assert!(
        own.len() >= 10,
        "panic locations are gone from the release binary: {own:?}"
    );
}

/// Issue 35, item 7: `cargo package` takes what the crate, its tests and its docs need,
/// and nothing of the benchmarks, the fuzz harness or CI; the manifest has what
/// crates.io and cargo-binstall read.
#[test]
fn cargo_package_lists_only_what_the_crate_needs() {
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "package",
            "--list",
            "--allow-dirty",
            "--locked",
            "--offline",
        ])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let list = String::from_utf8(out.stdout).unwrap();
    for needed in [
        "Cargo.toml",
        "Cargo.lock",
        "README.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "src/main.rs",
        "tests/cli/main.rs",
        "plugins/git-handover/.claude-plugin/plugin.json",
        ".claude-plugin/marketplace.json",
    ] {
        assert!(
            list.lines().any(|l| l == needed),
            "{needed} is missing:\n{list}"
        );
    }
    for line in list.lines() {
        assert!(
            !(line.starts_with("bench/")
                || line.starts_with("fuzz/")
                || line.starts_with(".ci/")
                || line.starts_with("target/")),
            "{line} is packaged"
        );
    }
    let manifest: String = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    for key in [
        "description =",
        "license =",
        "repository =",
        "readme =",
        "keywords =",
        "categories =",
        "rust-version =",
        "[package.metadata.binstall]",
    ] {
        assert!(manifest.contains(key), "Cargo.toml has no {key}");
    }
}
