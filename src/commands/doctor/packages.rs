//! The packaged installs, read from each agent's own records (seen in the files the
//! agents write when they install this repository's packages offline):
//!
//! - Claude Code 2.1.332, `claude plugin marketplace add <repo>` then `claude plugin
//!   install git-handover@git-handover`: `$CLAUDE_CONFIG_DIR/plugins/installed_plugins.json`
//!   (`{"version": 2, "plugins": {"<name>@<marketplace>": [{"scope", "installPath", …}]}}`,
//!   the plugin's hooks in `<installPath>/hooks/hooks.json`) and `enabledPlugins` in the
//!   settings (`claude plugin disable` writes `false` there).
//! - Gemini CLI 0.61, `gemini extensions install <repo> --consent`:
//!   `$GEMINI_CLI_HOME/.gemini/extensions/<name>/` (its `gemini-extension.json` and
//!   `hooks/hooks.json`), enabled per directory by `extensions/extension-enablement.json`
//!   (`{"<name>": {"overrides": ["/dir/*", "!/other/*"]}}`, the last matching rule wins:
//!   `packages/cli/src/config/extensions/extensionEnablement.ts`, `isEnabled`).
//! - Codex 0.171, `codex plugin marketplace add <repo>` then `codex plugin add
//!   git-handover@git-handover`: `[plugins."<name>@<marketplace>"] enabled = …` in
//!   `$CODEX_HOME/config.toml` and the plugin in
//!   `$CODEX_HOME/plugins/cache/<marketplace>/<name>/<version>/` (`plugin add` again
//!   sets `enabled = true`).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::cli::shared::HookAgent;
use crate::services::agent_paths::{runs_our_hook, user_dir};
use crate::support::text::shell_word;

/// A package of git-handover's the agent installed.
pub(super) struct Package {
    /// The file its hooks are in.
    pub file: PathBuf,
    /// Its name, as the agent names it.
    pub name: String,
    /// The agent's own command that turns it on, when it is off here.
    pub enable: Option<String>,
}

pub(super) fn packages(agent: HookAgent, here: &Path) -> Vec<Package> {
    match agent {
        HookAgent::Claude => claude(here),
        HookAgent::Gemini => gemini(here),
        HookAgent::Codex => codex(),
        HookAgent::Copilot => Vec::new(),
    }
}

fn read_json(path: &Path) -> Option<Value> {
    let bytes = crate::support::fsio::read_regular(path, 4 << 20).ok()?;
    serde_json::from_slice(&bytes).ok()
}

fn claude(here: &Path) -> Vec<Package> {
    let Ok(dir) = user_dir(HookAgent::Claude) else {
        return Vec::new();
    };
    let Some(record) = read_json(&dir.join("plugins/installed_plugins.json")) else {
        return Vec::new();
    };
    // Local settings over the project's over the user's, as Claude reads them.
    let layers = [
        (here.join(".claude/settings.local.json"), "local"),
        (here.join(".claude/settings.json"), "project"),
        (dir.join("settings.json"), "user"),
    ];
    let mut out = Vec::new();
    for (key, installs) in record["plugins"].as_object().into_iter().flatten() {
        let file = installs.as_array().into_iter().flatten().find_map(|i| {
            let for_here = i["projectPath"]
                .as_str()
                .is_none_or(|p| Path::new(p) == here);
            let file = Path::new(i["installPath"].as_str()?).join("hooks/hooks.json");
            (for_here && runs_our_hook(&file)).then_some(file)
        });
        let Some(file) = file else {
            continue;
        };
        let setting = layers.iter().find_map(|(f, scope)| {
            read_json(f)
                .and_then(|v| v["enabledPlugins"][key].as_bool())
                .map(|on| (on, *scope))
        });
        let enable = match setting {
            Some((false, scope)) => Some(format!(
                "claude plugin enable {} --scope {scope}",
                shell_word(key)
            )),
            _ => None,
        };
        out.push(Package {
            file,
            name: key.clone(),
            enable,
        });
    }
    out
}

fn gemini(here: &Path) -> Vec<Package> {
    let Ok(dir) = user_dir(HookAgent::Gemini) else {
        return Vec::new();
    };
    let extensions = dir.join("extensions");
    let enablement = read_json(&extensions.join("extension-enablement.json"));
    let Ok(entries) = std::fs::read_dir(&extensions) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    dirs.sort();
    let mut out = Vec::new();
    for ext in dirs {
        // A linked extension (`gemini extensions link`) keeps its files at the source.
        let install = read_json(&ext.join(".gemini-extension-install.json"));
        let root = match install.as_ref().filter(|i| i["type"] == "link") {
            Some(i) => i["source"].as_str().map_or(ext.clone(), PathBuf::from),
            None => ext.clone(),
        };
        let Some(manifest) = read_json(&root.join("gemini-extension.json")) else {
            continue;
        };
        let file = root.join("hooks/hooks.json");
        if !runs_our_hook(&file) {
            continue;
        }
        let name = manifest["name"].as_str().map_or_else(
            || ext.file_name().unwrap_or_default().to_string_lossy().into(),
            str::to_owned,
        );
        let rules = enablement.as_ref().map(|e| &e[&name]["overrides"]);
        let on = gemini_enabled(rules.and_then(Value::as_array), here);
        out.push(Package {
            file,
            enable: (!on).then(|| {
                format!(
                    "gemini extensions enable {} --scope workspace",
                    shell_word(&name)
                )
            }),
            name,
        });
    }
    out
}

/// Gemini CLI's rule: enabled unless the last override matching the directory (with a
/// trailing `/`) is a `!` one; `dir/*` matches the directory and all below it.
fn gemini_enabled(rules: Option<&Vec<Value>>, here: &Path) -> bool {
    let path = format!("{}/", here.display().to_string().trim_end_matches('/'));
    let mut on = true;
    for rule in rules.into_iter().flatten().filter_map(Value::as_str) {
        let (disable, rule) = match rule.strip_prefix('!') {
            Some(r) => (true, r),
            None => (false, rule),
        };
        let matches = match rule.strip_suffix('*') {
            Some(base) => path.starts_with(&format!("{}/", base.trim_end_matches('/'))),
            None => path == format!("{}/", rule.trim_end_matches('/')),
        };
        if matches {
            on = !disable;
        }
    }
    on
}

fn codex() -> Vec<Package> {
    let Ok(dir) = user_dir(HookAgent::Codex) else {
        return Vec::new();
    };
    let text = crate::support::fsio::read_regular(&dir.join("config.toml"), 4 << 20)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    let mut out = Vec::new();
    for (header, body) in super::toml::sections(&text) {
        let Some(key) = header
            .strip_prefix("[plugins.\"")
            .and_then(|h| h.strip_suffix("\"]"))
        else {
            continue;
        };
        let Some((name, market)) = key.split_once('@') else {
            continue;
        };
        let Some(file) = codex_plugin_file(&dir.join("plugins/cache").join(market).join(name))
        else {
            continue;
        };
        let off = body.lines().any(|l| l.replace(' ', "") == "enabled=false");
        out.push(Package {
            file,
            name: key.to_owned(),
            enable: off.then(|| format!("codex plugin add {}", shell_word(key))),
        });
    }
    out
}

/// The file of a cached Codex plugin (any version) that runs our hook: its manifest
/// with the hooks inline, or its `hooks.json`.
fn codex_plugin_file(dir: &Path) -> Option<PathBuf> {
    let mut versions: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .collect();
    versions.sort();
    versions.iter().rev().find_map(|v| {
        [v.join(".codex-plugin/plugin.json"), v.join("hooks.json")]
            .into_iter()
            .find(|f| runs_our_hook(f))
    })
}
