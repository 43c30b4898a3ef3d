//! Where each agent keeps the settings a git-handover hook is registered in: the
//! project's files and the user's own directory, as each agent reads them. Shared by
//! `hook install` (which writes them) and `doctor` (which reads them).

use std::path::{Path, PathBuf};

use crate::cli::shared::{HookAgent, HookScope};
use crate::services::context::Context;
use crate::support::error::{Error, Result, msg};

/// Where the hook goes: the project's worktree (`None` outside a repository, which only
/// `--scope user` accepts) and the agent's configuration directory for user scope.
pub fn settings_path(
    project: Option<&Path>,
    agent: HookAgent,
    scope: HookScope,
) -> Result<PathBuf> {
    let project = || {
        project
            .map(Path::to_owned)
            .ok_or_else(|| Error::NotARepository {
                dir: std::env::current_dir().unwrap_or_default(),
            })
    };
    Ok(match (agent, scope) {
        (HookAgent::Claude, HookScope::Project) => project()?.join(".claude/settings.json"),
        (HookAgent::Claude, HookScope::Local) => project()?.join(".claude/settings.local.json"),
        (HookAgent::Codex, HookScope::Project) => project()?.join(".codex/hooks.json"),
        (HookAgent::Gemini, HookScope::Project) => project()?.join(".gemini/settings.json"),
        (HookAgent::Copilot, HookScope::Project) => {
            project()?.join(".github/hooks/git-handover.json")
        }
        (agent, HookScope::User) => user_dir(agent)?.join(match agent {
            HookAgent::Codex => "hooks.json",
            HookAgent::Claude | HookAgent::Gemini => "settings.json",
            HookAgent::Copilot => "hooks/git-handover.json",
        }),
        (agent, HookScope::Local) => {
            return Err(Error::usage_hint(
                msg(crate::k!("err.no_local_scope"), &[("agent", &agent.name())]),
                msg(crate::k!("err.scope_hint"), &[]),
            ));
        }
    })
}

/// The agent's user configuration directory: `$CLAUDE_CONFIG_DIR` (else
/// `~/.claude`), `$CODEX_HOME` (else `~/.codex`), `$GEMINI_CLI_HOME/.gemini` (Gemini
/// CLI's variable replaces the home directory; else `~/.gemini`), `$COPILOT_HOME` (else
/// `~/.copilot`).
pub fn user_dir(agent: HookAgent) -> Result<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let home = || var("HOME").ok_or_else(|| Error::usage(msg(crate::k!("err.no_home"), &[])));
    Ok(match agent {
        HookAgent::Claude => match var("CLAUDE_CONFIG_DIR") {
            Some(dir) => dir,
            None => home()?.join(".claude"),
        },
        HookAgent::Codex => match var("CODEX_HOME") {
            Some(dir) => dir,
            None => home()?.join(".codex"),
        },
        HookAgent::Gemini => match var("GEMINI_CLI_HOME") {
            Some(dir) => dir.join(".gemini"),
            None => home()?.join(".gemini"),
        },
        HookAgent::Copilot => match var("COPILOT_HOME") {
            Some(dir) => dir,
            None => home()?.join(".copilot"),
        },
    })
}

/// Whether the file at `path` (a settings file, a hooks file or a plugin) runs
/// git-handover's session-start hook: it names `hook session-start` and the tool (or is
/// the `OpenCode` plugin, which builds the command from the verb). Read
/// bounded, a regular file only; one that cannot be read runs nothing.
pub fn runs_our_hook(path: &Path) -> bool {
    crate::support::fsio::read_regular(path, 4 << 20)
        .ok()
        .is_some_and(|b| {
            let text = String::from_utf8_lossy(&b);
            // The `OpenCode` plugin runs `git-handover hook ${verb}` with "session-start".
            let plugin =
                text.contains("git-handover hook ${verb}") && text.contains("\"session-start\"");
            plugin
                || text.contains("hook session-start")
                    && (text.contains("git-handover") || text.contains("git handover"))
        })
}

/// The agent settings files a project-scope hook of git-handover is registered in.
pub const PROJECT_SETTINGS: [&str; 7] = [
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".codex/hooks.json",
    ".gemini/settings.json",
    ".github/hooks/git-handover.json",
    // The `OpenCode` plugin committed into the project's plugin directory.
    ".opencode/plugin/git-handover.js",
    ".opencode/plugins/git-handover.js",
];

/// Whether this repository opted in to briefings from a user-scope hook: a
/// project-scope hook of git-handover is registered for some agent, or
/// `handover.hook` is true.
pub fn opted_in(ctx: &Context) -> bool {
    if let Some(on) = ctx.settings.hook {
        return on;
    }
    let Ok(wt) = ctx.current_worktree() else {
        return false;
    };
    PROJECT_SETTINGS
        .iter()
        .any(|f| runs_our_hook(&wt.path.join(f)))
}
