//! Which session a task edit goes to.

use super::{TaskArgs, no_session};
use crate::services::context::Context;
use crate::services::sessions::{self, Owner};
use crate::support::error::Result;

/// The worktree a session lives in, the session, and what `choose` found (with the
/// owner) when it was chosen rather than named.
pub(super) type Target = (
    crate::git::Worktree,
    sessions::SessionDir,
    Option<(sessions::Chosen, Owner)>,
);

/// The session the edit goes to, with the worktree it lives in: the one named with
/// `--session` (in any worktree), or the one `choose` picks in `wt` (kept with the
/// owner: it holds the branch's lock until the write is done).
pub(super) fn target(
    ctx: &Context,
    args: &TaskArgs,
    wt: &crate::git::Worktree,
    is_add: bool,
    reopen: bool,
) -> Result<Target> {
    if let Some(key) = &args.session {
        let (home, session) = ctx.session_anywhere(wt, key)?;
        return Ok((home, session, None));
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
    Ok((wt.clone(), target, Some((c, owner))))
}
