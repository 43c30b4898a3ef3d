//! `OpenCode`'s plugin: `OpenCode` 1.18.33 loads every `{plugin,plugins}/*.{ts,js}` of
//! each of its config directories (its bundle, `ConfigPaths.directories` and the
//! plugin glob): `$XDG_CONFIG_HOME/opencode` (else `~/.config/opencode`), each
//! `.opencode` from the working directory up to the worktree's top, `~/.opencode`, and
//! `$OPENCODE_CONFIG_DIR`. The ones in the project are the project's opt-in; the others
//! are the user's.

use std::path::{Path, PathBuf};

use crate::cli::shared::HookScope;
use crate::services::agent_paths::runs_our_hook;

fn var(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// The plugin files of `OpenCode`'s directories that run git-handover's hook, with
/// their scope.
pub(super) fn registrations(here: &Path) -> Vec<(HookScope, PathBuf)> {
    let home = var("HOME");
    let mut dirs: Vec<(HookScope, PathBuf)> = vec![(HookScope::Project, here.join(".opencode"))];
    let config = var("XDG_CONFIG_HOME").or_else(|| home.as_ref().map(|h| h.join(".config")));
    dirs.extend(config.map(|c| (HookScope::User, c.join("opencode"))));
    dirs.extend(home.map(|h| (HookScope::User, h.join(".opencode"))));
    dirs.extend(var("OPENCODE_CONFIG_DIR").map(|d| (HookScope::User, d)));
    let mut out = Vec::new();
    for (scope, dir) in dirs {
        for sub in ["plugin", "plugins"] {
            let Ok(entries) = std::fs::read_dir(dir.join(sub)) else {
                continue;
            };
            let mut files: Vec<PathBuf> = entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "js" || x == "ts"))
                .filter(|p| runs_our_hook(p))
                .collect();
            files.sort();
            out.extend(files.into_iter().map(|f| (scope, f)));
        }
    }
    out.dedup_by(|a, b| a.1 == b.1);
    out
}
