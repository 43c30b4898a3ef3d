//! The agent hooks: `hook session-start`, `hook pre-compact`, `hook session-end`, and
//! `hook install|uninstall`, which register the first in an agent's settings file.
//! (git's own post-commit hook is [`crate::commands::git_hook`].)

mod args;
mod copilot;
mod entry;
mod event;
mod install;
mod linkage;
mod record;
mod saved_elsewhere;
mod session;
mod start_seen;
mod starts;
mod stop;
mod transcript_step;

use std::time::Duration;

pub use args::{Moment, ReminderArgs, SessionStartArgs};
pub use event::Event;
pub use install::InstallReport;
pub use linkage::agent_session;
pub use record::{Recorded, record};
pub use session::{Reminder, reminder, session_start};
pub use stop::stop;

use crate::cli::shared::{HookInstallArgs, HookScope};
use crate::services::context::Context;
use crate::support::error::Result;

/// How long to wait for a settings file's lock outside a repository (the default of
/// `handover.lockTimeout`).
const LOCK_TIMEOUT: Duration = Duration::from_secs(5);

/// `hook install`, in the repository of `ctx`; `None` outside one, which only the
/// user's own settings (`--scope user`) accept. A user-scope hook goes to the agent's
/// own directory, whatever the repository.
pub fn install(ctx: Option<&Context>, args: &HookInstallArgs) -> Result<InstallReport> {
    let (project, timeout) = place(ctx, args)?;
    let here = ctx.and_then(|c| c.current_worktree().ok()).map(|w| w.path);
    let settings_at = codex_reads(ctx, args, project.as_deref())?;
    let mut report = install::install(
        settings_at.as_deref().or(project.as_deref()),
        project.as_deref(),
        args,
        timeout,
    )?;
    report.main_worktree = settings_at.filter(|m| Some(m) != here.as_ref());
    // Codex reads the main worktree's file from a linked worktree only when that
    // worktree has a `.codex` directory of its own (its project layer; checked by
    // running Codex 0.171 in tests/cli/agents/day.rs): made, empty, when missing.
    if report.main_worktree.is_some()
        && let Some(here) = &here
    {
        let dir = here.join(".codex");
        if std::fs::symlink_metadata(&dir).is_err() {
            std::fs::create_dir(&dir)
                .map_err(|e| crate::support::error::Error::io(&dir, "create", e))?;
            report.made_codex_dir = Some(dir);
        }
    }
    // A local settings file stays out of commits, as Claude Code keeps its own.
    if let Some(ctx) = ctx.filter(|_| args.scope == HookScope::Local) {
        report.excluded =
            crate::services::exclude::ensure_pattern(ctx, "/.claude/settings.local.json")?;
    }
    Ok(report)
}

/// `hook uninstall`: what `install` added, taken out.
pub fn uninstall(ctx: Option<&Context>, args: &HookInstallArgs) -> Result<InstallReport> {
    let (project, timeout) = place(ctx, args)?;
    let settings_at = codex_reads(ctx, args, project.as_deref())?;
    let mut report = install::uninstall(
        settings_at.as_deref().or(project.as_deref()),
        project.as_deref(),
        args,
        timeout,
    )?;
    let here = ctx.and_then(|c| c.current_worktree().ok()).map(|w| w.path);
    report.main_worktree = settings_at.filter(|m| Some(m) != here.as_ref());
    Ok(report)
}

/// Where Codex reads a project's `.codex/hooks.json`: only the main worktree's root
/// (its trust prompt names `<main>/.codex/hooks.json`; ENGINEERING-NOTES), whichever
/// linked worktree it runs in, once that worktree has a `.codex` directory. So
/// `--scope project` in a linked worktree registers the hook there (the hook briefs
/// the worktree Codex runs in, from the event's `cwd`). `None` for every other
/// agent and scope. A bare main worktree has no root to read: refused, with `--scope
/// user` as the way.
fn codex_reads(
    ctx: Option<&Context>,
    args: &HookInstallArgs,
    project: Option<&std::path::Path>,
) -> Result<Option<std::path::PathBuf>> {
    let (Some(ctx), Some(_)) = (ctx, project) else {
        return Ok(None);
    };
    if args.agent != crate::cli::shared::HookAgent::Codex || args.scope != HookScope::Project {
        return Ok(None);
    }
    let worktrees = ctx.repo.worktrees()?;
    match worktrees.iter().find(|w| w.is_main) {
        Some(main) if !main.is_bare && main.exists => Ok(Some(main.path.clone())),
        _ => Err(crate::support::error::Error::usage_hint(
            crate::support::error::msg(crate::k!("err.codex_bare_main"), &[]),
            crate::support::error::msg(crate::k!("err.codex_bare_main_hint"), &[]),
        )),
    }
}

/// The project's worktree (none for the user's scope) and the lock timeout.
fn place(
    ctx: Option<&Context>,
    args: &HookInstallArgs,
) -> Result<(Option<std::path::PathBuf>, Duration)> {
    let Some(ctx) = ctx else {
        return Ok((None, LOCK_TIMEOUT));
    };
    let project = if args.scope == HookScope::User {
        None
    } else {
        Some(ctx.current_worktree()?.path)
    };
    Ok((project, ctx.settings.lock_timeout))
}
