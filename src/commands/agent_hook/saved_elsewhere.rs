//! Whether the agent session that ends saved its handover in a session of another
//! worktree (`save`, `task … --session KEY` stamp the writer's `agent_session` into the
//! state, issue 34 item 5): then the record does not make a second handover here, in a
//! worktree that has none, for work the agent already handed over there.

use std::path::Path;
use std::time::Instant;

use serde_json::Value;

use crate::services::context::Context;
use crate::services::scan::{Found, STATE_FILE, scan_worktree};

/// The most of a state file read to look for its writer.
const MAX_STATE: u64 = 16 << 20;

/// Whether the worktree `here` has no session (a session-end with nothing to record
/// then has nothing to release either, and must not make the handover directory).
pub(super) fn none_here(ctx: &Context, here: &Path) -> bool {
    !scan_worktree(here, &ctx.settings.dir)
        .iter()
        .any(|f| matches!(f, Found::Session { .. }))
}

/// The key of a session, in any worktree of the repository, whose state was last
/// written by agent session `session_id` (looked for until `deadline`).
pub(super) fn saved_elsewhere(
    ctx: &Context,
    session_id: &str,
    deadline: Instant,
) -> Option<String> {
    if session_id.is_empty() {
        return None;
    }
    let worktrees = ctx.repo.worktrees().ok()?;
    for wt in worktrees.iter().filter(|w| !w.is_bare) {
        for found in scan_worktree(&wt.path, &ctx.settings.dir) {
            if Instant::now() >= deadline {
                return None;
            }
            let Found::Session { key, dir, .. } = found else {
                continue;
            };
            if written_by(&dir.join(STATE_FILE), session_id) {
                return Some(key);
            }
        }
    }
    None
}

/// Whether the state at `file` names `session_id` as its writer's agent session.
fn written_by(file: &Path, session_id: &str) -> bool {
    let Ok(bytes) = crate::support::fsio::read_regular(file, MAX_STATE) else {
        return false;
    };
    // Most states are not this agent session's: a look for its id before parsing.
    if memchr::memmem::find(&bytes, session_id.as_bytes()).is_none() {
        return false;
    }
    serde_json::from_slice::<Value>(&bytes)
        .ok()
        .and_then(|v| {
            v.get("agent_session")?
                .get("session_id")?
                .as_str()
                .map(|s| s == session_id)
        })
        .unwrap_or(false)
}
