//! `hook session-start` and `hook install|uninstall` (SPEC section 9).

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::cli::{HookAgent, HookInstallArgs, HookScope};
use crate::services::context::Context;
use crate::support::error::{Error, Result, msg};
use crate::support::fsio;

/// The command `install` registers and `session-start` answers to.
pub const COMMAND: &str = "git handover hook session-start";
pub const MATCHER: &str = "startup|resume|clear|compact";

/// What `install` or `uninstall` did.
pub struct InstallReport {
    /// `install` (else `uninstall`).
    pub install: bool,
    pub settings: PathBuf,
    pub changed: bool,
    pub instructions: Option<(PathBuf, bool)>,
}

fn settings_path(ctx: &Context, agent: HookAgent, scope: HookScope) -> Result<PathBuf> {
    let home = || {
        std::env::var_os("HOME")
            .map(PathBuf::from)
            .ok_or_else(|| Error::usage(msg("err.no_home", &[])))
    };
    let project = || -> Result<PathBuf> { Ok(ctx.current_worktree()?.path) };
    Ok(match (agent, scope) {
        (HookAgent::Claude, HookScope::Project) => project()?.join(".claude/settings.json"),
        (HookAgent::Claude, HookScope::Local) => project()?.join(".claude/settings.local.json"),
        (HookAgent::Claude, HookScope::User) => home()?.join(".claude/settings.json"),
        (HookAgent::Codex, HookScope::Project) => project()?.join(".codex/hooks.json"),
        (HookAgent::Codex, HookScope::User) => home()?.join(".codex/hooks.json"),
        (HookAgent::Gemini, HookScope::Project) => project()?.join(".gemini/settings.json"),
        (HookAgent::Gemini, HookScope::User) => home()?.join(".gemini/settings.json"),
        (agent, HookScope::Local) => {
            return Err(Error::usage_hint(
                msg("err.no_local_scope", &[("agent", &agent.name())]),
                msg("err.scope_hint", &[]),
            ));
        }
    })
}

fn instructions_path(ctx: &Context, agent: HookAgent, scope: HookScope) -> Result<PathBuf> {
    let file = match agent {
        HookAgent::Claude => "CLAUDE.md",
        HookAgent::Codex => "AGENTS.md",
        HookAgent::Gemini => "GEMINI.md",
    };
    Ok(match scope {
        HookScope::Project | HookScope::Local => ctx.current_worktree()?.path.join(file),
        HookScope::User => settings_path(ctx, agent, scope)?.with_file_name(file),
    })
}

const INSTRUCTIONS: &str = "\
## Session continuity

This repository keeps handovers between agent sessions with git-handover. At the start of
a session, read the handover (a SessionStart hook may already have put it in your context;
otherwise run `git handover continue`) and ask before working on its open tasks. Record
progress as you go with `git handover task start|done|block <id>`, and before you stop,
save what remains with `git handover save` or `git handover here`.
";

/// The hook entry for `agent`: Gemini CLI counts the timeout in milliseconds.
fn entry(agent: HookAgent) -> Value {
    let timeout = if agent == HookAgent::Gemini {
        10_000
    } else {
        10
    };
    serde_json::json!({"matcher": MATCHER, "hooks": [{"type": "command", "command": COMMAND, "timeout": timeout}]})
}

/// The most of a settings or instructions file read.
const MAX_SETTINGS_SIZE: u64 = 4 << 20;

fn read_settings(path: &Path) -> Result<Map<String, Value>> {
    let Some(bytes) = fsio::read_if_exists(path, MAX_SETTINGS_SIZE)? else {
        return Ok(Map::new());
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Map::new());
    }
    match serde_json::from_slice(&bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(Error::InvalidField {
            file: path.to_owned(),
            field: "(root)".into(),
            message: "must be a JSON object".into(),
        }),
        Err(e) => Err(Error::json(path, &e)),
    }
}

fn write_settings(path: &Path, settings: &Map<String, Value>) -> Result<()> {
    let mut bytes = serde_json::to_vec_pretty(settings).expect("a JSON map serialises");
    bytes.push(b'\n');
    fsio::write_atomic(path, &bytes)
}

fn is_ours(hook: &Value) -> bool {
    hook.get("command").and_then(Value::as_str) == Some(COMMAND)
}

fn wrong_shape(path: &Path, field: &str, what: &str) -> Error {
    Error::InvalidField {
        file: path.to_owned(),
        field: field.into(),
        message: format!("must be {what}"),
    }
}

/// The text of an instructions file (`CLAUDE.md`, `AGENTS.md`, `GEMINI.md`): empty when
/// there is none; an error when it cannot be read or is not UTF-8, so that a file the
/// tool could not read is never replaced.
fn read_instructions(path: &Path) -> Result<String> {
    let Some(bytes) = fsio::read_if_exists(path, MAX_SETTINGS_SIZE)? else {
        return Ok(String::new());
    };
    String::from_utf8(bytes).map_err(|_| Error::NotText {
        path: path.to_owned(),
    })
}

/// Add the hook (and, when asked, the instructions), keeping everything else.
pub fn install(ctx: &Context, args: &HookInstallArgs) -> Result<InstallReport> {
    let path = settings_path(ctx, args.agent, args.scope)?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, "create", e))?;
    }
    // A linked settings file (a dotfile manager's) is edited where it lives.
    let real = fsio::through_links(&path);
    let _lock = fsio::Lock::acquire(&real, ctx.settings.lock_timeout)?;
    let mut settings = read_settings(&real)?;
    let hooks = settings
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let hooks = hooks
        .as_object_mut()
        .ok_or_else(|| wrong_shape(&path, "hooks", "an object"))?;
    let groups = hooks
        .entry("SessionStart")
        .or_insert_with(|| Value::Array(Vec::new()));
    let groups = groups
        .as_array_mut()
        .ok_or_else(|| wrong_shape(&path, "hooks.SessionStart", "an array"))?;
    let present = groups.iter().any(|g| {
        g.get("hooks")
            .and_then(Value::as_array)
            .is_some_and(|hs| hs.iter().any(is_ours))
    });
    if !present {
        groups.push(entry(args.agent));
        write_settings(&real, &settings)?;
    }
    let instructions = if args.instructions {
        let file = instructions_path(ctx, args.agent, args.scope)?;
        let real = fsio::through_links(&file);
        if let Some(dir) = real.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, "create", e))?;
        }
        let _lock = fsio::Lock::acquire(&real, ctx.settings.lock_timeout)?;
        let text = read_instructions(&real)?;
        let has = text.lines().any(|l| l.trim() == "## Session continuity");
        if !has {
            let sep = match (
                text.is_empty(),
                text.ends_with("\n\n"),
                text.ends_with('\n'),
            ) {
                (true, _, _) | (false, true, _) => "",
                (false, false, true) => "\n",
                (false, false, false) => "\n\n",
            };
            fsio::write_atomic(&real, format!("{text}{sep}{INSTRUCTIONS}").as_bytes())?;
        }
        Some((file, !has))
    } else {
        None
    };
    Ok(InstallReport {
        install: true,
        settings: path,
        changed: !present,
        instructions,
    })
}

/// Remove what `install` added: its hook entry (and a matcher group, `SessionStart` or
/// `hooks` it left empty), and with `--instructions` the section it wrote.
pub fn uninstall(ctx: &Context, args: &HookInstallArgs) -> Result<InstallReport> {
    let path = settings_path(ctx, args.agent, args.scope)?;
    let mut changed = false;
    let real = fsio::through_links(&path);
    if std::fs::symlink_metadata(&real).is_ok() {
        let _lock = fsio::Lock::acquire(&real, ctx.settings.lock_timeout)?;
        let mut settings = read_settings(&real)?;
        if let Some(Value::Object(hooks)) = settings.get_mut("hooks") {
            if let Some(Value::Array(groups)) = hooks.get_mut("SessionStart") {
                for group in groups.iter_mut() {
                    if let Some(Value::Array(hs)) = group.get_mut("hooks") {
                        let before = hs.len();
                        hs.retain(|h| !is_ours(h));
                        changed |= hs.len() != before;
                    }
                }
                groups.retain(|g| {
                    g.get("hooks")
                        .and_then(Value::as_array)
                        .is_none_or(|hs| !hs.is_empty())
                });
                if groups.is_empty() {
                    hooks.remove("SessionStart");
                }
            }
            if hooks.is_empty() && changed {
                settings.remove("hooks");
            }
        }
        if changed {
            write_settings(&real, &settings)?;
        }
    }
    let instructions = if args.instructions {
        let file = instructions_path(ctx, args.agent, args.scope)?;
        let real = fsio::through_links(&file);
        let _lock = if std::fs::symlink_metadata(&real).is_ok() {
            Some(fsio::Lock::acquire(&real, ctx.settings.lock_timeout)?)
        } else {
            None
        };
        let text = read_instructions(&real)?;
        let removed = text.contains(INSTRUCTIONS);
        if removed {
            let rest = text.replacen(INSTRUCTIONS, "", 1);
            let rest = rest.trim_end_matches('\n');
            let rest = if rest.is_empty() {
                String::new()
            } else {
                format!("{rest}\n")
            };
            fsio::write_atomic(&real, rest.as_bytes())?;
        }
        Some((file, removed))
    } else {
        None
    };
    Ok(InstallReport {
        install: false,
        settings: path,
        changed,
        instructions,
    })
}
