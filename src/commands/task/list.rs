//! `task list|show`: read a session's tasks, change nothing.

use super::{TaskArgs, TaskOp, no_session};
use crate::services::context::Context;
use crate::services::sessions::{self, Owner};
use crate::support::error::Result;

/// `task list` and `task show ID`: the session's tasks as the file holds them.
pub struct Listing {
    pub key: String,
    pub path: std::path::PathBuf,
    pub state: crate::model::state::State,
    /// `show`: the task asked for.
    pub show: Option<String>,
    /// `list --ids`: ids only.
    pub ids: bool,
    /// The run's time, that claims are shown at.
    pub now: jiff::Timestamp,
}

/// `task list|show`: read the session `task` would edit, change nothing.
pub fn read(ctx: &Context, args: &TaskArgs) -> Result<Listing> {
    let wt = ctx.current_worktree()?;
    let target = if let Some(key) = &args.session {
        ctx.session_anywhere(&wt, key)?.1
    } else {
        match ctx.ready_session(&wt, &args.team)? {
            (Some(s), _) => s,
            (None, Owner::Branch(branch)) => {
                // A session that cannot be read is named, not called missing.
                let c = sessions::choose(
                    &ctx.write_root(&wt),
                    &ctx.other_roots(&wt),
                    &Owner::Branch(branch.clone()),
                    &wt.path,
                    ctx.now,
                    false,
                    &ctx.settings,
                )?;
                return Err(c.unreadable.unwrap_or_else(|| no_session(&branch)));
            }
            (None, Owner::Team { team, agent }) => {
                return Err(no_session(&format!("{team}/{agent}")));
            }
        }
    };
    let path = target.state_file();
    let state = crate::model::state::State::read(&path)?;
    let show = match &args.op {
        TaskOp::Show { id } => {
            if !state.tasks.iter().any(|t| &t.id == id) {
                return Err(super::no_task(id, &target.key));
            }
            Some(id.clone())
        }
        _ => None,
    };
    Ok(Listing {
        key: target.key,
        path,
        state,
        show,
        ids: matches!(args.op, TaskOp::List { ids: true }),
        now: ctx.now,
    })
}
