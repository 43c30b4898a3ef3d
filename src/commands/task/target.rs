//! Which session a task edit goes to.

use super::{TaskArgs, no_session};
use crate::services::context::Context;
use crate::services::sessions::{self, Owner};
use crate::support::error::Result;

/// The session the edit goes to: the one named with `--session`, or the one `choose`
/// picks (kept with the owner: it holds the branch's lock until the write is done).
pub(super) fn target(
    ctx: &Context,
    args: &TaskArgs,
    wt: &crate::git::Worktree,
    is_add: bool,
    reopen: bool,
) -> Result<(sessions::SessionDir, Option<(sessions::Chosen, Owner)>)> {
    if let Some(key) = &args.session {
        return Ok((ctx.session_by_key(wt, key)?, None));
    }
    let owner = ctx.owner(&args.team, wt)?;
    let root = ctx.write_root(wt);
    let mut c = sessions::choose(
        &root,
        &ctx.other_roots(wt),
        &owner,
        &wt.path,
        ctx.now,
        is_add,
        &ctx.settings,
    )?;
    let target = match (c.session.clone(), &owner) {
        (Some(s), Owner::Team { .. }) if !s.exists() && !is_add => {
            return Err(no_session(&s.key));
        }
        (Some(s), _) => s,
        (None, Owner::Branch(branch)) => {
            // Reopening a task of a finished session reopens the branch's newest one.
            let newest = reopen
                .then(|| sessions::newest_session(&root, &ctx.other_roots(wt), branch, &wt.path))
                .flatten();
            match (newest, c.unreadable.take()) {
                (Some(s), _) => s,
                (None, Some(e)) => return Err(e),
                (None, None) => return Err(no_session(branch)),
            }
        }
        (None, Owner::Team { .. }) => unreachable!("a team always has a session directory"),
    };
    Ok((target, Some((c, owner))))
}
