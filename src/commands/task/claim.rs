//! `task claim|next|release` (SPEC section 10): a lease on one task, decided in the
//! one write transaction on what the session's file holds under its lock; with a
//! remote, on the remote's notes ref too (`remote.rs`).

use std::path::PathBuf;

use super::target::target;
use super::verb::{Act, Op, nothing_left};
use super::{TaskArgs, TaskOp, transact};
use crate::facts::written::Saved;
use crate::model::claim;
use crate::model::session;
use crate::model::state::State;
use crate::services::claims;
use crate::services::context::Context;
use crate::support::error::Result;

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
    /// The remote the claim was decided on, with `--remote` or `handover.claimRemote`.
    pub remote: Option<String>,
    /// Why the remote could not confirm the claim (it could not be reached): the claim
    /// is local and unconfirmed until a sync.
    pub unconfirmed: Option<String>,
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
            remote: None,
            unconfirmed: None,
        });
    }
    let (flag, lease) = match &args.op {
        TaskOp::Claim { remote, lease, .. } | TaskOp::Next { remote, lease, .. } => {
            (remote.remote.as_deref(), Some(lease.lease))
        }
        TaskOp::Release { remote, .. } => (remote.remote.as_deref(), None),
        _ => unreachable!("only claim verbs come here"),
    };
    let remote = crate::services::remote_claim::remote_of(ctx, flag)?;
    let (home, session, chosen) = target(ctx, args, &wt, false, false)?;
    let owner = chosen.as_ref().map(|(_, o)| o);
    let path = session.state_file();
    let op = Op {
        verb: &args.op,
        holder: &holder,
        now: ctx.now,
        until: lease.map(|l| claims::until(ctx, l)).transpose()?,
        stamp: session::format_time(ctx.now),
        key: session.key.clone(),
    };
    let (written, task, act, unconfirmed) = match &remote {
        Some(remote) => super::remote::decide(ctx, remote, &home, &session, owner, &op)?,
        None => {
            let mut done = None;
            let written = transact(ctx, &home, &session, owner, |doc| {
                crate::support::testing::pause("claim");
                done = Some(op.apply(doc)?);
                Ok(())
            })?;
            let (task, act) = done.expect("a write that succeeded ran its change");
            (written, task, act, None)
        }
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
        act,
        next: matches!(args.op, TaskOp::Next { .. }),
        written: Some(written),
        remote,
        unconfirmed,
    })
}
