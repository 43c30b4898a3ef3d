//! The agent hooks: `hook session-start`, `hook pre-compact`, `hook session-end`, and
//! `hook install|uninstall`, which register the first in an agent's settings file.
//! (git's own post-commit hook is [`crate::commands::git_hook`].)

mod args;
mod copilot;
mod duplicates;
mod entry;
mod event;
mod install;
mod session;
mod starts;

use std::time::Duration;

pub use args::{Moment, ReminderArgs, SessionStartArgs};
pub use event::Event;
pub use install::InstallReport;
pub use session::{Reminder, reminder, session_start};

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
    let mut report = install::install(project.as_deref(), args, timeout)?;
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
    install::uninstall(project.as_deref(), args, timeout)
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
