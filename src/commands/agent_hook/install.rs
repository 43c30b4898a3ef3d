//! `hook session-start` and `hook install|uninstall` (SPEC section 9).

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Map, Value};

use crate::cli::shared::{HookAgent, HookInstallArgs, HookScope};
use crate::model::state::strict;
use crate::support::error::{Error, Result, msg};
use crate::support::fsio;

use super::entry::{entry, events, installed, is_ours, remove_ours};
use crate::services::agent_paths::{settings_path, user_dir};

/// What `install` or `uninstall` did.
pub struct InstallReport {
    /// `install` (else `uninstall`).
    pub install: bool,
    pub agent: HookAgent,
    pub settings: PathBuf,
    pub changed: bool,
    pub instructions: Option<(PathBuf, bool)>,
    /// `info/exclude`, when the local settings file was added to it.
    pub excluded: Option<PathBuf>,
    /// The settings file of the other scope, when it runs the hook too (Codex runs
    /// both; the hook then briefs once, but one registration is enough).
    pub also_at: Option<PathBuf>,
    /// Codex in a linked worktree: the main worktree, whose `.codex/hooks.json` got
    /// the hook because Codex reads project hooks only there.
    pub main_worktree: Option<PathBuf>,
    /// The linked worktree's `.codex` directory, made so that Codex reads the main
    /// worktree's hooks from it.
    pub made_codex_dir: Option<PathBuf>,
}

impl InstallReport {
    /// The catalog key of what the user must do before the agent runs the hook, if
    /// anything: Codex skips a new or changed hook until it is trusted in `/hooks`,
    /// and reads a project's `.codex/` only in a trusted project.
    pub fn next_step(&self) -> Option<&'static str> {
        (self.install && self.agent == HookAgent::Codex).then_some(crate::k!("hook.codex_trust"))
    }
}

fn instructions_path(
    project: Option<&Path>,
    agent: HookAgent,
    scope: HookScope,
) -> Result<PathBuf> {
    let file = match agent {
        HookAgent::Claude => "CLAUDE.md",
        HookAgent::Codex => "AGENTS.md",
        HookAgent::Gemini => "GEMINI.md",
        // Copilot's custom instructions: `.github/copilot-instructions.md` in the
        // repository, `copilot-instructions.md` in its home directory.
        HookAgent::Copilot => "copilot-instructions.md",
    };
    Ok(match scope {
        HookScope::Project | HookScope::Local => settings_path(project, agent, HookScope::Project)?
            .parent()
            .and_then(Path::parent)
            .map_or_else(|| PathBuf::from(file), |p| p.join(file)),
        HookScope::User => user_dir(agent)?.join(file),
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

/// The most of a settings or instructions file read.
const MAX_SETTINGS_SIZE: u64 = 4 << 20;

/// A settings file as the agent reads it, and its text when it has comments (Gemini CLI
/// reads JSON with comments; see [`crate::support::jsonc`]): an edit then keeps them.
struct Settings {
    map: Map<String, Value>,
    commented: Option<String>,
}

/// The settings file at `path` of `agent`: JSON, and for Gemini CLI JSON with comments
/// (Claude Code and Codex parse plain JSON).
fn read_settings(path: &Path, agent: HookAgent) -> Result<Settings> {
    let Some(bytes) = fsio::read_if_exists(path, MAX_SETTINGS_SIZE)? else {
        return Ok(Settings {
            map: Map::new(),
            commented: None,
        });
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Settings {
            map: Map::new(),
            commented: None,
        });
    }
    // Comments are blanked as the agent's reader blanks them (offsets kept, so the
    // lines and columns said below are the file's own).
    let text = std::str::from_utf8(&bytes)
        .ok()
        .filter(|_| agent == HookAgent::Gemini);
    let plain = text.map(crate::support::jsonc::blank_comments);
    let commented = text
        .filter(|t| plain.as_deref() != Some(*t))
        .map(str::to_owned);
    let bytes = plain.map_or(bytes, String::into_bytes);
    // One strict parse. Only a file that names a key twice is parsed again, plainly, so
    // that one that is also not JSON (further on) or not an object is told that first.
    let parsed = strict::from_slice(&bytes);
    let duplicate = parsed.as_ref().err().and_then(strict::duplicate_named);
    let parsed = match duplicate {
        Some(_) => serde_json::from_slice(&bytes),
        None => parsed,
    };
    match parsed {
        Ok(Value::Object(map)) => match duplicate {
            None => Ok(Settings { map, commented }),
            Some((key, line)) => Err(Error::Unedited {
                message: msg(
                    crate::k!("err.settings_duplicate"),
                    &[("file", &path.display()), ("key", &key), ("line", &line)],
                ),
                hint: msg(crate::k!("err.settings_duplicate_hint"), &[]),
            }),
        },
        Ok(_) => Err(Error::InvalidField {
            file: path.to_owned(),
            field: "(root)".into(),
            message: "must be a JSON object".into(),
        }),
        Err(e) => {
            let m = e.to_string();
            Err(not_json(
                path,
                e.line(),
                e.column(),
                &m.rfind(" at line ")
                    .map_or(m.clone(), |i| m[..i].to_owned()),
            ))
        }
    }
}

fn not_json(path: &Path, line: usize, column: usize, why: &str) -> Error {
    Error::Unedited {
        message: msg(
            crate::k!("err.settings_not_json"),
            &[
                ("file", &path.display()),
                ("line", &line),
                ("column", &column),
                ("why", &why),
            ],
        ),
        hint: msg(
            crate::k!("err.settings_not_json_hint"),
            &[("command", &"git-handover hook session-start")],
        ),
    }
}

/// Write `settings`: a file with comments is edited in place, only where it changes
/// (its comments and layout stay); any other is written whole.
fn write_settings(path: &Path, settings: &Settings) -> Result<()> {
    let map = Value::Object(settings.map.clone());
    let bytes = match &settings.commented {
        Some(text) => crate::support::jsonc::edit(text, &map)
            .ok_or_else(|| not_json(path, 1, 1, "cannot be edited keeping its comments"))?
            .into_bytes(),
        None => {
            let mut bytes = serde_json::to_vec_pretty(&map).expect("a JSON map serialises");
            bytes.push(b'\n');
            bytes
        }
    };
    fsio::write_atomic(path, &bytes)
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

/// Add the hooks (and, when asked, the instructions), keeping everything else: each of
/// the agent's events (`entry::events`), so an older install that registered the start
/// alone gains the record's events when run again. A registration of ours that misses
/// some session source is replaced by the full one.
/// `project` is the worktree (`None` outside a repository: user scope only).
pub fn install(
    project: Option<&Path>,
    instructions_in: Option<&Path>,
    args: &HookInstallArgs,
    lock_timeout: Duration,
) -> Result<InstallReport> {
    let path = settings_path(project, args.agent, args.scope)?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, "create", e))?;
    }
    // A linked settings file (a dotfile manager's) is edited where it lives.
    let real = fsio::through_links(&path);
    let _lock = fsio::Lock::acquire(&real, lock_timeout)?;
    let mut settings = read_settings(&real, args.agent)?;
    if args.agent == HookAgent::Copilot {
        let changed = super::copilot::add(&mut settings.map, args.scope)
            .ok_or_else(|| wrong_shape(&path, "hooks", "an object of event lists"))?;
        if changed {
            write_settings(&real, &settings)?;
        }
        return finish(project, instructions_in, args, path, changed, lock_timeout);
    }
    let hooks = settings
        .map
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let hooks = hooks
        .as_object_mut()
        .ok_or_else(|| wrong_shape(&path, "hooks", "an object"))?;
    // Every event's list is checked before any is changed: a file of the wrong shape
    // is left whole.
    for (event, _) in events(args.agent) {
        if hooks.get(*event).is_some_and(|g| !g.is_array()) {
            return Err(wrong_shape(&path, &format!("hooks.{event}"), "an array"));
        }
    }
    let mut changed = false;
    for (event, verb) in events(args.agent) {
        let groups = hooks
            .entry(*event)
            .or_insert_with(|| Value::Array(Vec::new()))
            .as_array_mut()
            .expect("checked above");
        if !installed(args.agent, args.scope, verb, groups) {
            remove_ours(groups, verb);
            groups.push(entry(args.agent, args.scope, verb));
            changed = true;
        }
    }
    if changed {
        write_settings(&real, &settings)?;
    }
    finish(project, instructions_in, args, path, changed, lock_timeout)
}

/// The rest of `install`: the instructions, when asked, and the report.
fn finish(
    project: Option<&Path>,
    instructions_in: Option<&Path>,
    args: &HookInstallArgs,
    path: PathBuf,
    changed: bool,
    lock_timeout: Duration,
) -> Result<InstallReport> {
    let instructions = if args.instructions {
        let file = instructions_path(instructions_in, args.agent, args.scope)?;
        let real = fsio::through_links(&file);
        if let Some(dir) = real.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, "create", e))?;
        }
        let _lock = fsio::Lock::acquire(&real, lock_timeout)?;
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
        excluded: None,
        also_at: other_scope(project, args),
        main_worktree: None,
        made_codex_dir: None,
        agent: args.agent,
        settings: path,
        changed,
        instructions,
    })
}

/// For Codex, which runs the hooks of the user's and the project's files alike: the
/// other scope's file, when it registers our hook as well.
fn other_scope(project: Option<&Path>, args: &HookInstallArgs) -> Option<PathBuf> {
    if args.agent != HookAgent::Codex {
        return None;
    }
    let other = match args.scope {
        HookScope::User => HookScope::Project,
        HookScope::Project | HookScope::Local => HookScope::User,
    };
    let path = settings_path(project, args.agent, other).ok()?;
    let settings = read_settings(&fsio::through_links(&path), args.agent)
        .ok()?
        .map;
    let registered = settings
        .get("hooks")
        .and_then(|h| h.get("SessionStart"))
        .and_then(Value::as_array)
        .is_some_and(|groups| {
            groups.iter().any(|g| {
                g.get("hooks")
                    .and_then(Value::as_array)
                    .is_some_and(|hs| hs.iter().any(is_ours))
            })
        });
    registered.then_some(path)
}

/// Remove what `install` added: its hook entries (and a matcher group, an event's list
/// or `hooks` that held nothing but them), and with `--instructions` the section it wrote.
pub fn uninstall(
    project: Option<&Path>,
    instructions_in: Option<&Path>,
    args: &HookInstallArgs,
    lock_timeout: Duration,
) -> Result<InstallReport> {
    let path = settings_path(project, args.agent, args.scope)?;
    let mut changed = false;
    let real = fsio::through_links(&path);
    if std::fs::symlink_metadata(&real).is_ok() {
        let _lock = fsio::Lock::acquire(&real, lock_timeout)?;
        let mut settings = read_settings(&real, args.agent)?;
        if args.agent == HookAgent::Copilot {
            changed = super::copilot::remove(&mut settings.map);
        }
        // A container goes only when taking ours out emptied it: one the user left
        // empty (`"SessionStart": []`, `"hooks": {}`) stays as it was.
        if let Some(Value::Object(hooks)) = settings
            .map
            .get_mut("hooks")
            .filter(|_| args.agent != HookAgent::Copilot)
        {
            for (event, verb) in events(args.agent) {
                if let Some(Value::Array(groups)) = hooks.get_mut(*event) {
                    let had = groups.len();
                    let removed = remove_ours(groups, verb);
                    if removed && groups.is_empty() && had > 0 {
                        hooks.remove(*event);
                    }
                    changed |= removed;
                }
            }
            if hooks.is_empty() && changed {
                settings.map.remove("hooks");
            }
        }
        // Copilot's file is this tool's own: what is left of it when ours went is
        // `"version"` alone, and then it goes.
        let only_version = settings.map.keys().all(|k| k == "version");
        if changed && args.agent == HookAgent::Copilot && only_version {
            std::fs::remove_file(&real).map_err(|e| Error::io(&real, "remove", e))?;
        } else if changed {
            write_settings(&real, &settings)?;
        }
    }
    let instructions = if args.instructions {
        let file = instructions_path(instructions_in, args.agent, args.scope)?;
        let real = fsio::through_links(&file);
        let _lock = if std::fs::symlink_metadata(&real).is_ok() {
            Some(fsio::Lock::acquire(&real, lock_timeout)?)
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
        excluded: None,
        also_at: None,
        main_worktree: None,
        made_codex_dir: None,
        agent: args.agent,
        settings: path,
        changed,
        instructions,
    })
}
