//! A claim verb decided on a remote's notes ref (SPEC section 10): fetch, decide on
//! the remote's newest record of the session laid over the file, write (the record
//! goes to the local notes ref), push without force; a rejected push is fetched and
//! decided again. The winning rule: the claim whose record reached the remote first.
//! A claim that lost the race gives way: its record, which never left this clone, is
//! taken back out of the local notes ref, and the file takes the winner's state (or,
//! when the file had moved on from the state the winner's came from, the winner's
//! claim, written as a write of its own), then the verb is decided again on it.

use super::transact;
use super::verb::{Act, Op};
use crate::model::claim;
use crate::model::record::Record;
use crate::services::context::Context;
use crate::services::remote_claim::{self, Fetched, MAX_ROUNDS, Push, RemoteClaims};
use crate::services::remote_notes::{self, RemoteNotes};
use crate::services::sessions::{self, Owner, SessionDir, Written};
use crate::support::error::{Error, Result};

type Decided = (Written, String, Act, Option<String>);

/// Run `op` decided on `remote`: the write, the task, what was done, and why it is
/// unconfirmed when the remote could not be reached.
pub(super) fn decide(
    ctx: &Context,
    remote: &str,
    wt: &crate::git::Worktree,
    session: &SessionDir,
    owner: Option<&Owner>,
    op: &Op<'_>,
) -> Result<Decided> {
    let rc = RemoteClaims::new(ctx, remote.to_owned());
    let id = crate::model::state::State::read(&session.state_file())
        .ok()
        .and_then(|s| {
            s.document()
                .get("session_id")
                .and_then(serde_json::Value::as_str)
                .map(str::to_owned)
        });
    let mut pending: Option<(Written, String, Act)> = None;
    // Why the last round was done again (said when the rounds run out).
    let mut last = Again::Rejected;
    for round in 0..MAX_ROUNDS {
        // The first round decides on what the last fetch saw, when there was one: the
        // push alone then asks the remote (a rejection is fetched and decided again).
        let known = if round == 0 { rc.known()? } else { None };
        let stale = known.is_some();
        let fetched = match known {
            Some(notes) => Fetched::Online(notes),
            // What the fetch brought is refused (a forged record, a note that is not
            // records): the claim decided on the last fetch never reached the remote,
            // and the command fails; it leaves nothing written.
            None => refused(&rc, session, pending.as_ref(), rc.fetch())?,
        };
        let notes = match &fetched {
            Fetched::Online(notes) => notes,
            Fetched::Offline(why) => {
                let why = why.clone();
                // A claim written is unconfirmed until its push succeeds.
                let (w, task, act) = match pending {
                    Some(mine) => mine,
                    None => write(ctx, wt, session, owner, op, None)?,
                };
                return Ok((w, task, act, Some(why)));
            }
        };
        // A record of the remote refused by name (a forged claim): as above.
        let theirs = match &id {
            Some(id) => refused(
                &rc,
                session,
                pending.as_ref(),
                remote_claim::newest_of(notes, id, &op.key, remote),
            )?,
            None => None,
        };
        // A session diverged there has no one newest record to decide on: said at
        // once (a write of this run stays, unconfirmed, for `sync` to settle), once
        // the remote itself says so: on what the last fetch saw, another clone may
        // have picked a side since.
        if theirs.as_ref().is_some_and(|t| t.diverged) {
            if stale {
                continue;
            }
            return Err(remote_claim::diverged(&op.key, remote));
        }
        let their_record = theirs.as_ref().map(|t| &t.record);
        if let Some((w, task, act)) = pending.take() {
            pending = give_way(
                ctx,
                &rc,
                wt,
                session,
                owner,
                op,
                (w, task, act),
                their_record,
                notes,
            )?;
        }
        let (w, task, act) = match pending.take() {
            Some(p) => p,
            None => {
                if let Some(theirs) = their_record {
                    fast_forward(ctx, session, notes, theirs)?;
                }
                match write(ctx, wt, session, owner, op, their_record) {
                    // Refused on what the last fetch saw: a refusal never pushes, so
                    // it is asked of the remote itself (the holder may have let go).
                    Err(Error::Held { .. } | Error::NothingToDo { .. }) if stale => continue,
                    written => written?,
                }
            }
        };
        let started = rc.start_push(notes)?;
        // While git pushes: what the remote taking it establishes, kept, and the
        // confirmation made ready (said only once the push succeeded).
        let pushing = (started.as_ref().ok()).and_then(remote_notes::PushStarted::pushing);
        let kept = RemoteClaims::keep_decided(&w, pushing, notes, theirs.as_ref());
        let ready = pushing.and_then(|_| prepare(ctx, session, &w, &task));
        crate::support::testing::pause("remote_claim_pushing");
        let pushed = rc.finish_push(started, notes)?;
        match pushed {
            // The remote holds what our ref held; whether that still held our record
            // is asked of the store: another process of this clone (a sync) may have
            // settled our claim lost and taken its record out meanwhile.
            Push::Done(pushed) if !rc.carried(&w, pushed, notes, (theirs.as_ref(), kept))? => {
                pending = Some((w, task, act));
                last = Again::NotCarried;
            }
            Push::Done(_) => {
                let c = confirm(ctx, session, w, &task, ready)?;
                return Ok((c, task, act, None));
            }
            Push::Rejected => {
                pending = Some((w, task, act));
                last = Again::Rejected;
            }
            Push::Offline(why) => return Ok((w, task, act, Some(why))),
        }
    }
    Err(last.error(ctx, remote))
}

/// `result`, or its error once a write of this run that never reached the remote
/// (`pending`) is taken back.
fn refused<T>(
    rc: &RemoteClaims<'_>,
    session: &SessionDir,
    pending: Option<&(Written, String, Act)>,
    result: Result<T>,
) -> Result<T> {
    if result.is_err()
        && let Some((w, ..)) = pending
    {
        rc.take_back(session, w)?;
    }
    result
}

/// Why a claim's round was done again.
enum Again {
    /// The remote's ref moved: the push was rejected.
    Rejected,
    /// The push went through without this claim's record as decided.
    NotCarried,
}

impl Again {
    /// The error of the rounds run out, the last one's reason said as it was.
    fn error(&self, ctx: &Context, remote: &str) -> Error {
        use crate::support::i18n::fill;
        let (reference, last) = match self {
            Again::Rejected => (
                format!("{} on {remote}", ctx.settings.notes_ref),
                fill(ctx.lang, crate::k!("race.push_rejected"), &[]),
            ),
            Again::NotCarried => (
                format!("{} on {remote}", ctx.settings.notes_ref),
                fill(ctx.lang, crate::k!("race.not_carried"), &[]),
            ),
        };
        Error::RefRace {
            reference,
            attempts: MAX_ROUNDS,
            last,
        }
    }
}

/// The verb's write: the remote's claims laid over the file first. A claim is written
/// unconfirmed: it is said confirmed only once its push succeeded (`confirm`), so a
/// process killed between its write and its push leaves a claim that says it is not
/// on the remote, which `sync` confirms or loses.
fn write(
    ctx: &Context,
    wt: &crate::git::Worktree,
    session: &SessionDir,
    owner: Option<&Owner>,
    op: &Op<'_>,
    theirs: Option<&Record>,
) -> Result<(Written, String, Act)> {
    let mut done = None;
    let written = transact(ctx, wt, session, owner, |doc| {
        if let Some(theirs) = theirs {
            claim::overlay(doc, &theirs.state_doc(), op.holder, op.now);
        }
        crate::support::testing::pause("claim");
        let (task, act) = op.apply(doc)?;
        if matches!(act, Act::Claimed(_)) {
            claim::set_confirmed(doc, &task, op.holder, false);
            claim::clear_lost(doc, &task);
        }
        done = Some((task, act));
        Ok(())
    })?;
    let (task, act) = done.expect("a write that succeeded ran its change");
    Ok((written, task, act))
}

/// The push that carried the write of `task`'s claim succeeded: the claim is said
/// confirmed where the file still holds it as written (a write of the file alone), by
/// the confirmation made ready while the push ran when there is one.
fn confirm(
    ctx: &Context,
    session: &SessionDir,
    mut w: Written,
    task: &str,
    ready: Option<sessions::ConfirmReady>,
) -> Result<Written> {
    let Some(mine) = claim::claim_on(w.state.document(), task).filter(|c| !c.confirmed) else {
        return Ok(w);
    };
    let state = match ready {
        Some(ready) => sessions::confirm_ready(ctx, session, ready)?,
        None => sessions::confirm(ctx, session, &[(task.to_owned(), mine)])?,
    };
    if let Some(state) = state {
        w.state = state;
    }
    Ok(w)
}

/// The confirmation of `task`'s claim as the write `w` left it, made ready while its
/// push runs (`None`: nothing to confirm, or `confirm` does it all after the push).
fn prepare(
    ctx: &Context,
    session: &SessionDir,
    w: &Written,
    task: &str,
) -> Option<sessions::ConfirmReady> {
    let mine = claim::claim_on(w.state.document(), task).filter(|c| !c.confirmed)?;
    sessions::prepare_confirm(ctx, session, &w.state, &[(task.to_owned(), mine)])
}

/// The remote moved after our record was made. When its newest record of the session
/// came from the state ours came from, ours gives way: withdrawn, the file takes the
/// winner's state, and the verb is decided again (`None`). When the file had moved on
/// from there and the remote holds the task for another, the winner's claim goes on
/// the task as a write of its own and the verb is refused. Else ours stands and is
/// pushed again.
#[allow(clippy::too_many_arguments)]
fn give_way(
    ctx: &Context,
    rc: &RemoteClaims<'_>,
    wt: &crate::git::Worktree,
    session: &SessionDir,
    owner: Option<&Owner>,
    op: &Op<'_>,
    ours: (Written, String, Act),
    theirs: Option<&Record>,
    notes: &RemoteNotes<'_>,
) -> Result<Option<(Written, String, Act)>> {
    let Some(theirs) = theirs else {
        return Ok(Some(ours));
    };
    let doc = ours.0.state.document();
    let field = |k: &str| {
        doc.get(k)
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned)
    };
    let (our_parent, our_hash) = (field("parent_hash"), field("session_hash"));
    let their_doc = theirs.state_doc();
    let their_hash = their_doc
        .get("session_hash")
        .and_then(serde_json::Value::as_str);
    if their_hash == our_hash.as_deref() || their_hash == our_parent.as_deref() {
        // The remote did not move in this session: ours stands.
        return Ok(Some(ours));
    }
    // Ours was this verb's write alone on a state the remote has: it gives way.
    let seq = doc
        .get("seq")
        .and_then(serde_json::Value::as_u64)
        .unwrap_or(0);
    let id = field("session_id").unwrap_or_default();
    let base = (notes.records_at(&id, seq.saturating_sub(1))?)
        .iter()
        .any(|r| remote_claim::same_but(&r.state_doc(), doc, &[ours.1.as_str()]));
    if base && theirs.seq.unwrap_or(0) >= seq {
        // The record is taken out only once the file gave way (under its lock, still
        // holding our write): a write made on top of ours since keeps its parent.
        let hash = our_hash.unwrap_or_default();
        if sessions::adopt(ctx, session, &hash, their_doc)? {
            rc.withdraw(&ours.0)?;
            return Ok(None);
        }
    }
    let won =
        claim::claim_on(&theirs.state_doc(), &ours.1).filter(|c| c.held_against(op.holder, op.now));
    let Some(won) = won else {
        return Ok(Some(ours));
    };
    let mine = claim::claim_on(doc, &ours.1);
    let task = ours.1.clone();
    let lost = transact(ctx, wt, session, owner, |doc| {
        if let Some(mine) = &mine {
            claim::lose(doc, &task, mine, &won, op.now);
        }
        Ok(())
    })?;
    Err(super::verb::refused_on(
        claim::ClaimError::Held(won),
        &task,
        &op.key,
        lost.state.document(),
    ))
}

/// The remote's newest record of the session came after the state the file holds (a
/// record of that state is on the remote): the file takes it as it is, so the verb is
/// decided on the newest state and a refusal leaves the file saying who holds what.
fn fast_forward(
    ctx: &Context,
    session: &SessionDir,
    notes: &RemoteNotes<'_>,
    theirs: &Record,
) -> Result<()> {
    let Ok(state) = crate::model::state::State::read(&session.state_file()) else {
        return Ok(());
    };
    let doc = state.document();
    let seq = doc
        .get("seq")
        .and_then(serde_json::Value::as_u64)
        .unwrap_or(0);
    let Some(hash) = doc.get("session_hash").and_then(serde_json::Value::as_str) else {
        return Ok(());
    };
    if theirs.seq.unwrap_or(0) <= seq {
        return Ok(());
    }
    let Some(id) = doc.get("session_id").and_then(serde_json::Value::as_str) else {
        return Ok(());
    };
    let known = (notes.records_at(id, seq)?)
        .iter()
        .any(|r| remote_claim::same_write(&r.state_doc(), doc));
    if known {
        sessions::adopt(ctx, session, hash, theirs.state_doc())?;
    }
    Ok(())
}
