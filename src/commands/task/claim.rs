//! `task claim|next|release` (SPEC section 10): a lease on one task, decided in the
//! one write transaction on what the session's file holds under its lock.

use std::path::PathBuf;

use super::target::target;
use super::{TaskArgs, TaskOp, no_task, transact};
use crate::facts::written::Saved;
use crate::model::claim::{self, ClaimError, Released, Took};
use crate::model::session;
use crate::model::state::State;
use crate::services::claims;
use crate::services::context::Context;
use crate::support::error::{Error, Result, msg};

/// What a claim verb did.
#[derive(Debug)]
pub enum Act {
    /// `claim`, `next --claim`.
    Claimed(Took),
    Released(Released),
    /// `next` without `--claim`: shown, nothing written.
    Shown,
}

/// The report of `task claim|next|release`.
pub struct ClaimReport {
    pub key: String,
    pub path: PathBuf,
    /// The state after the verb (as read, for `next` alone).
    pub state: State,
    pub task: String,
    pub holder: String,
    pub act: Act,
    /// The verb was `next`: the bare id is the first word of the output.
    pub next: bool,
    /// The write, when there was one.
    pub written: Option<Saved>,
}

/// `task claim ID`, `task next [--claim]`, `task release ID`.
pub fn claims(ctx: &Context, args: &TaskArgs) -> Result<ClaimReport> {
    let wt = ctx.current_worktree()?;
    let holder = claims::holder_of(args.holder.as_deref(), &wt)?;
    if let TaskOp::Next { claim: false, .. } = &args.op {
        let listing = super::read(ctx, args)?;
        let task = claim::next_free(listing.state.document(), &holder, ctx.now)
            .ok_or_else(|| nothing_left(&listing.key))?;
        return Ok(ClaimReport {
            key: listing.key,
            path: listing.path,
            state: listing.state,
            task,
            holder,
            act: Act::Shown,
            next: true,
            written: None,
        });
    }
    let (home, session, chosen) = target(ctx, args, &wt, false, false)?;
    let owner = chosen.as_ref().map(|(_, o)| o);
    let key = session.key.clone();
    let path = session.state_file();
    let stamp = session::format_time(ctx.now);
    let now = ctx.now;
    let mut task = String::new();
    let mut act = None;
    let written = match &args.op {
        TaskOp::Claim { id, lease, force } => {
            let until = claims::until(ctx, lease.lease)?;
            task.clone_from(id);
            transact(ctx, &home, &session, owner, |doc| {
                crate::support::testing::pause("claim");
                let took = claim::claim(doc, id, &holder, now, until, *force, &stamp)
                    .map_err(|e| refused(e, id, &key))?;
                act = Some(Act::Claimed(took));
                Ok(())
            })?
        }
        TaskOp::Next { lease, .. } => {
            let until = claims::until(ctx, lease.lease)?;
            transact(ctx, &home, &session, owner, |doc| {
                // Chosen under the lock, on what the file holds now: two callers
                // never get the same task.
                crate::support::testing::pause("claim");
                let id = claim::next_free(doc, &holder, now).ok_or_else(|| nothing_left(&key))?;
                let took = claim::claim(doc, &id, &holder, now, until, false, &stamp)
                    .map_err(|e| refused(e, &id, &key))?;
                act = Some(Act::Claimed(took));
                task = id;
                Ok(())
            })?
        }
        TaskOp::Release { id, force } => {
            task.clone_from(id);
            transact(ctx, &home, &session, owner, |doc| {
                let released = claim::release(doc, id, &holder, now, *force)
                    .map_err(|e| refused(e, id, &key))?;
                act = Some(Act::Released(released));
                Ok(())
            })?
        }
        _ => unreachable!("only claim verbs come here"),
    };
    let mut written = written.into_saved();
    if let Some((c, _)) = chosen {
        written.skipped.splice(0..0, c.skipped);
        written.others = c.others;
    }
    Ok(ClaimReport {
        key: written.key.clone(),
        path,
        state: written.state.clone(),
        task,
        holder,
        act: act.expect("a write that succeeded ran its change"),
        next: matches!(args.op, TaskOp::Next { .. }),
        written: Some(written),
    })
}

/// Why a claim verb was refused, as the error of the run.
fn refused(e: ClaimError, id: &str, key: &str) -> Error {
    match e {
        ClaimError::NoSuchTask => no_task(id, key),
        ClaimError::Done => Error::usage(msg(
            crate::k!("claim.done"),
            &[("id", &format!("{id:?}")), ("key", &key)],
        )),
        ClaimError::Held(c) => Error::Held {
            task: id.to_owned(),
            key: key.to_owned(),
            holder: c.holder,
            since: c.since,
            expires: c.expires,
        },
    }
}

/// Nothing left to work on in session `key` (exit 1).
fn nothing_left(key: &str) -> Error {
    Error::NothingToDo {
        message: msg(crate::k!("claim.nothing_left"), &[("key", &key)]),
        hint: None,
    }
}
