//! What the agent hooks decide: whether `hook session-start` briefs, and what
//! `hook pre-compact` / `hook session-end` remind of. The briefing itself is
//! `continue`'s, read-only; the shell runs it when [`session_start`] says so.

use super::args::{Moment, ReminderArgs, SessionStartArgs};
use super::event::Event;
use super::starts::{agent_started, already_briefed, already_reminded};
use crate::cli::shared::{HookScope, TeamArgs};
use crate::model::state::{TaskStatus, View};
use crate::services::context::Context;
use crate::support::error::Result;

/// `hook session-start`: whether to brief on this start. A user-scope hook briefs only
/// where the repository opted in; a hook installed at two scopes (Codex runs both)
/// briefs once per start. When it briefs, history questions get the hook's deadline.
pub fn session_start(ctx: &mut Context, event: &Event, args: &SessionStartArgs) -> bool {
    // A user-scope hook runs in every repository the user opens: it briefs only
    // where the repository opted in, so a cloned repository's files are not put
    // into every session unasked.
    if args.scope == Some(HookScope::User) && !crate::services::agent_paths::opted_in(ctx) {
        return false;
    }
    let seen = || super::start_seen::now(&ctx.repo, event).to_text();
    if already_briefed(&ctx.repo.tool_dir().hook_starts(), event, seen) {
        return false;
    }
    // Well under the 10 s the hook is installed with: history questions still open
    // then are said to be unchecked, and the agent is briefed in time.
    ctx.repo.set_deadline(hook_deadline());
    true
}

/// What `hook pre-compact` / `hook session-end` remind of: this worktree's ready
/// session, and the tasks in progress not updated since this agent session started.
pub struct Reminder {
    pub key: String,
    /// The ids of the tasks in progress not saved since the start, in the session's order.
    pub unsaved: Vec<String>,
}

/// `hook pre-compact` / `hook session-end`: `None` when there is no ready session, when
/// a user-scope hook runs in a repository that did not opt in (the reminder names the
/// repository's session and tasks, as a briefing would), and at a session's end when
/// this agent session was reminded of the same already (Gemini CLI runs both
/// `PreCompress` and `SessionEnd` for one headless prompt). Before a compaction it
/// always reminds: each one takes the earlier reminder out of the agent's context, and
/// the agent can still act on it.
pub fn reminder(
    ctx: &Context,
    event: &Event,
    args: &ReminderArgs,
    moment: Moment,
) -> Result<Option<Reminder>> {
    if args.scope == Some(HookScope::User) && !crate::services::agent_paths::opted_in(ctx) {
        return Ok(None);
    }
    let wt = ctx.current_worktree()?;
    let Some(session) = ctx.ready_session(&wt, &TeamArgs::default())?.0 else {
        return Ok(None);
    };
    let state = View::read(&session.state_file())?;
    if !state.is_ready() {
        return Ok(None);
    }
    let started = agent_started(&ctx.repo.tool_dir().hook_starts(), event);
    let unsaved = state
        .tasks
        .iter()
        .filter(|t| t.status == TaskStatus::InProgress)
        .filter(|t| match (started, &t.last_touched) {
            // Times in files are to the second: compare seconds.
            (Some(start), Some(touched)) => touched.at.as_second() < start.as_second(),
            // Never touched, or no start known for this agent session: every task
            // in progress is named.
            (Some(_), None) | (None, _) => true,
        })
        .map(|t| t.id.clone())
        .collect::<Vec<_>>();
    let said = format!("{}\n{}", session.key, unsaved.join("\n"));
    if already_reminded(&ctx.repo.tool_dir().hook_starts(), event, &said) && moment == Moment::End {
        return Ok(None);
    }
    Ok(Some(Reminder {
        key: session.key.clone(),
        unsaved,
    }))
}

/// How long the session-start hook spends on history: 3 s (a test may shorten it with
/// `GIT_HANDOVER_TEST_DEADLINE_MS`, to see what a cut-short briefing says).
fn hook_deadline() -> std::time::Duration {
    crate::support::testing::knob("GIT_HANDOVER_TEST_DEADLINE_MS")
        .and_then(|ms| ms.parse().ok())
        .map_or(
            std::time::Duration::from_secs(3),
            std::time::Duration::from_millis,
        )
}
