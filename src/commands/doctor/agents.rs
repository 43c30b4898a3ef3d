//! The agents' checks: for each agent, where a git-handover hook is registered (the
//! project's files, the user's), whether a user-scope hook will brief this repository
//! (the opt-in rule), whether Codex has trusted the hook, and whether the hook's bare
//! `git-handover` is on the `PATH`.

use std::path::{Path, PathBuf};

use super::packages::packages;
use super::{Check, Outcome};
use crate::cli::shared::{HookAgent, HookScope};
use crate::git::Worktree;
use crate::services::agent_paths::{opted_in, runs_our_hook, settings_path, user_dir};
use crate::services::context::Context;
use crate::support::text::shell_word;

const AGENTS: [HookAgent; 4] = [
    HookAgent::Claude,
    HookAgent::Codex,
    HookAgent::Gemini,
    HookAgent::Copilot,
];

fn word(agent: HookAgent) -> &'static str {
    match agent {
        HookAgent::Claude => "claude",
        HookAgent::Codex => "codex",
        HookAgent::Gemini => "gemini",
        HookAgent::Copilot => "copilot",
    }
}

pub(super) fn checks(ctx: &Context, wt: &Worktree) -> Vec<Check> {
    // The main worktree's root, where Codex reads a project's hooks; none when the main
    // worktree is bare (Codex then reads only the user's).
    let main = match ctx.repo.worktrees() {
        Ok(all) => match all.into_iter().find(|w| w.is_main) {
            Some(w) if w.is_bare => None,
            Some(w) => Some(w.path),
            None => Some(wt.path.clone()),
        },
        Err(_) => Some(wt.path.clone()),
    };
    let mut out = Vec::new();
    let mut any = false;
    for agent in AGENTS {
        let mut found = registrations(agent, &wt.path, main.as_deref());
        out.extend(
            found
                .iter()
                .filter_map(|(scope, file)| older_install(agent, *scope, file)),
        );
        if agent == HookAgent::Codex {
            out.extend(found.iter().filter_map(|(_, file)| codex_trust(file)));
        }
        // The packaged installs are the user's, each on or off where the agent runs.
        for package in packages(agent, &wt.path) {
            out.push(package_check(agent, &package));
            if package.enable.is_none() {
                found.push((HookScope::User, package.file));
            }
        }
        any |= !found.is_empty();
        // Where `hook install` can put it from here: a project's hook, else (Codex
        // with a bare main worktree) the user's.
        let scope = if agent == HookAgent::Codex && main.is_none() {
            "user"
        } else {
            "project"
        };
        let install = format!(
            "git handover hook install --agent {} --scope {scope}",
            word(agent)
        );
        out.push(hook_check(ctx, agent.name(), Some(install), &found));
    }
    let found = super::opencode::registrations(&wt.path);
    any |= !found.is_empty();
    out.push(hook_check(ctx, "OpenCode", None, &found));
    if any {
        out.push(on_path());
    }
    out
}

/// The files that register our hook for `agent`, with their scope. Codex reads a
/// project's hooks from the main worktree only (`main`; none when it is bare).
fn registrations(agent: HookAgent, here: &Path, main: Option<&Path>) -> Vec<(HookScope, PathBuf)> {
    let project = if agent == HookAgent::Codex {
        main
    } else {
        Some(here)
    };
    let mut scopes = vec![HookScope::Project, HookScope::User];
    if agent == HookAgent::Claude {
        scopes.insert(1, HookScope::Local);
    }
    scopes
        .into_iter()
        .filter_map(|scope| {
            let project = match scope {
                HookScope::User => project.unwrap_or(here),
                _ => project?,
            };
            let file = settings_path(Some(project), agent, scope).ok()?;
            runs_our_hook(&file).then_some((scope, file))
        })
        .collect()
}

/// A settings file that runs our session-start hook but not our session-end hook: an
/// install by an earlier version (`SessionStart` alone), so the agent session's work is
/// never recorded by itself (issue 34). Its fix is the install again, which adds the
/// rest and keeps everything else. Copilot's file has had sessionEnd from the start;
/// a package's hooks are the package's.
fn older_install(agent: HookAgent, scope: HookScope, file: &Path) -> Option<Check> {
    if agent == HookAgent::Copilot || !file.ends_with(settings_tail(agent, scope)?) {
        return None;
    }
    let text = crate::support::fsio::read_regular(file, 4 << 20).ok()?;
    let text = String::from_utf8_lossy(&text);
    if text.contains("hook session-end") {
        return None;
    }
    let scope_word = match scope {
        HookScope::Project => "project",
        HookScope::Local => "local",
        HookScope::User => "user",
    };
    Some(
        Check::problem(
            "record",
            crate::k!("doctor.record_missing"),
            Some(format!(
                "git handover hook install --agent {} --scope {scope_word}",
                word(agent)
            )),
            false,
        )
        .with("agent", agent.name())
        .at(file.to_owned()),
    )
}

/// The end of the settings file `hook install` writes for `agent` at `scope` (a
/// package's file is another).
fn settings_tail(agent: HookAgent, scope: HookScope) -> Option<&'static str> {
    Some(match (agent, scope) {
        (HookAgent::Claude, HookScope::Local) => "settings.local.json",
        (HookAgent::Claude | HookAgent::Gemini, _) => "settings.json",
        (HookAgent::Codex, _) => "hooks.json",
        (HookAgent::Copilot, _) => return None,
    })
}

/// A package the agent installed: on, or off here with the agent's command that turns
/// it on (the agent's own settings: never changed by `--fix`).
fn package_check(agent: HookAgent, package: &super::packages::Package) -> Check {
    let check = match &package.enable {
        // Codex keeps a plugin's hooks untrusted until the user trusts them in /hooks;
        // where it records that for a plugin is not read here, so it is said, not checked.
        None if agent == HookAgent::Codex => {
            Check::ok("package", crate::k!("doctor.package_ok_codex"))
        }
        None => Check::ok("package", crate::k!("doctor.package_ok")),
        Some(fix) => Check::problem(
            "package",
            crate::k!("doctor.package_off"),
            Some(fix.clone()),
            false,
        ),
    };
    check
        .with("agent", agent.name())
        .with("name", &package.name)
        .at(package.file.clone())
}

fn hook_check(
    ctx: &Context,
    name: &'static str,
    install: Option<String>,
    found: &[(HookScope, PathBuf)],
) -> Check {
    if found.is_empty() {
        let mut c = Check::ok("hook", crate::k!("doctor.hook_none")).with("agent", name);
        c.outcome = Outcome::Note;
        c.fix = install;
        return c;
    }
    let files: Vec<String> = found.iter().map(|(_, f)| f.display().to_string()).collect();
    let user_only = found.iter().all(|(s, _)| *s == HookScope::User);
    if user_only && !opted_in(ctx) {
        return Check::problem(
            "opt_in",
            crate::k!("doctor.hook_not_opted_in"),
            Some("git config handover.hook true".into()),
            true,
        )
        .with("agent", name)
        .with("files", files.join(", "));
    }
    Check::ok("hook", crate::k!("doctor.hook_ok"))
        .with("agent", name)
        .with("files", files.join(", "))
}

/// Codex runs a hook only once it is trusted in `/hooks`: its trust is kept in
/// `$CODEX_HOME/config.toml` under `hooks.state."<file>:session_start:…"` with a
/// `trusted_hash` (read from Codex 0.171's own strings; the hash itself is Codex's).
fn codex_trust(file: &Path) -> Option<Check> {
    let config = user_dir(HookAgent::Codex).ok()?.join("config.toml");
    let text = crate::support::fsio::read_regular(&config, 4 << 20)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    let key = format!("{}:session_start", file.display());
    let trusted = super::toml::sections(&text)
        .any(|(header, body)| header.contains(&key) && body.contains("trusted_hash"));
    let dir = file.parent().and_then(Path::parent).unwrap_or(file);
    Some(if trusted {
        Check::ok("codex_trust", crate::k!("doctor.codex_trusted")).at(file.to_owned())
    } else {
        Check::problem(
            "codex_trust",
            crate::k!("doctor.codex_untrusted"),
            Some(format!(
                "cd {} && codex",
                shell_word(&dir.display().to_string())
            )),
            false,
        )
        .at(file.to_owned())
    })
}

/// The hooks call `git-handover` by name: without it on the `PATH` they do nothing.
fn on_path() -> Check {
    let found = std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::metadata(dir.join("git-handover"))
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    });
    if found {
        return Check::ok("path", crate::k!("doctor.path_ok"));
    }
    let exe = std::env::current_exe()
        .map_or_else(|_| "git-handover".to_owned(), |p| p.display().to_string());
    Check::problem(
        "path",
        crate::k!("doctor.path_missing"),
        Some(format!(
            "mkdir -p ~/.local/bin && ln -sf {} ~/.local/bin/git-handover",
            shell_word(&exe)
        )),
        false,
    )
}
