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
use crate::services::remote_claim::{self, Fetched, MAX_ROUNDS, Push, RemoteClaims, Theirs};
use crate::services::remote_notes::RemoteNotes;
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
            None => match rc.fetch() {
                Ok(fetched) => fetched,
                // What the fetch brought is refused (a forged record, a note that is
                // not records): the claim decided on the last fetch never reached
                // the remote, and the command fails; it leaves nothing written.
                Err(e) => {
                    if let Some((w, ..)) = &pending {
                        take_back(ctx, &rc, session, w)?;
                    }
                    return Err(e);
                }
            },
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
        let theirs = match &id {
            Some(id) => match remote_claim::newest_of(notes, id, &op.key, remote) {
                Ok(theirs) => theirs,
                // A record of the remote refused by name (a forged claim): as above.
                Err(e) => {
                    if let Some((w, ..)) = &pending {
                        take_back(ctx, &rc, session, w)?;
                    }
                    return Err(e);
                }
            },
            None => None,
        };
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
        match rc.push(notes)? {
            // The remote holds what our ref held; whether that still held our record
            // is asked of the store: another process of this clone (a sync) may have
            // settled our claim lost and taken its record out meanwhile.
            Push::Done(pushed) if !carried(ctx, &w, pushed, notes, theirs.as_ref())? => {
                pending = Some((w, task, act));
                last = Again::NotCarried;
            }
            Push::Done(_) => return Ok((confirm(ctx, session, w, &task)?, task, act, None)),
            Push::Rejected => {
                pending = Some((w, task, act));
                last = Again::Rejected;
            }
            Push::Offline(why) => return Ok((w, task, act, Some(why))),
        }
    }
    Err(last.error(ctx, remote))
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

/// Whether the local notes ref, which the remote now holds, holds the record of the
/// write `w` and no other side of its session: another process of this clone may have
/// merged a winner's record beside ours and pushed both, our claim undecided against
/// it (a write without a session id or a record is taken as carried). Known without
/// the store when the push carried the decision as it was made (`as_decided`), else
/// the local store is asked.
fn carried(
    ctx: &Context,
    w: &Written,
    pushed: Option<crate::git::CommitId>,
    notes: &RemoteNotes<'_>,
    theirs: Option<&Theirs>,
) -> Result<bool> {
    let doc = w.state.document();
    let field = |k: &str| doc.get(k).and_then(serde_json::Value::as_str);
    let (Some(on), Some(id), Some(hash)) = (w.noted, field("session_id"), field("session_hash"))
    else {
        return Ok(true);
    };
    if let Some(made) = w.notes.filter(|_| as_decided(w, pushed, notes, theirs)) {
        crate::support::testing::note("claim_carried_as_decided");
        // What the remote holds at the commit pushed is known: the next claim decided
        // on it takes this record as kept.
        if let Some(line) = &w.line {
            notes.remember(&crate::services::remote_notes::Known {
                at: made.commit,
                id: id.to_owned(),
                noted: on,
                hash: hash.to_owned(),
                line: line.clone(),
            });
        }
        return Ok(true);
    }
    crate::support::testing::note("claim_carried_asked_store");
    let store = ctx.store();
    if !store.has_state(id, hash)? {
        return Ok(false);
    }
    let (found, _) = store.newest_where(&|l| l.session_id == Some(id))?;
    Ok(!(found.iter())
        .any(|r| r.record.session_id.as_deref() == Some(id) && !r.diverged.is_empty()))
}

/// Whether the commit the remote took is the very notes commit the record of `w` made,
/// made on the remote's notes the claim was decided on (`notes`, the lease's commit),
/// where the session's newest record (`theirs`) had no other side and is the state `w`
/// was written on (or the remote had no record of the session): the remote then holds
/// what it held plus this one record, written on its newest, so it holds the record
/// and the session has no other side there. Decided on commit ids alone, whatever
/// round wrote `w`; anything else (another process moved our ref before the push, a
/// write on a state the remote does not hold as newest) is asked of the store.
fn as_decided(
    w: &Written,
    pushed: Option<crate::git::CommitId>,
    notes: &RemoteNotes<'_>,
    theirs: Option<&Theirs>,
) -> bool {
    let Some(made) = w.notes else {
        return false;
    };
    if pushed != Some(made.commit) || made.parent.map(|p| p.to_string()).as_deref() != notes.at() {
        return false;
    }
    let Some(theirs) = theirs else {
        return true;
    };
    let parent = w.state.document().get("parent_hash");
    !theirs.diverged && parent.is_some() && theirs.record.state_doc().get("session_hash") == parent
}

/// The push that carried the write of `task`'s claim succeeded: the claim is said
/// confirmed where the file still holds it as written (a write of the file alone).
fn confirm(ctx: &Context, session: &SessionDir, mut w: Written, task: &str) -> Result<Written> {
    let Some(mine) = claim::claim_on(w.state.document(), task).filter(|c| !c.confirmed) else {
        return Ok(w);
    };
    if let Some(state) = sessions::confirm(ctx, session, &[(task.to_owned(), mine)])? {
        w.state = state;
    }
    Ok(w)
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

/// Take back a write that never reached the remote: its record out of the local notes
/// ref, and the file back to the state it was written on (that state's record, read
/// from the local store), only while the file still holds this write: a write made on
/// top of it since is never undone.
fn take_back(
    ctx: &Context,
    rc: &RemoteClaims<'_>,
    session: &SessionDir,
    w: &Written,
) -> Result<()> {
    let doc = w.state.document();
    let field = |k: &str| doc.get(k).and_then(serde_json::Value::as_str);
    let (Some(id), Some(hash), Some(parent)) = (
        field("session_id"),
        field("session_hash"),
        field("parent_hash"),
    ) else {
        return Ok(());
    };
    let seq = doc
        .get("seq")
        .and_then(serde_json::Value::as_u64)
        .unwrap_or(0);
    let store = ctx.store();
    let before = (store.records_at(id, seq.saturating_sub(1))?)
        .into_iter()
        .map(|r| r.state_doc())
        .find(|d| d.get("session_hash").and_then(serde_json::Value::as_str) == Some(parent));
    let Some(before) = before else {
        return Ok(());
    };
    // What this clone knew of each claim put back stays (`mark_recorded` in the
    // take would say every one confirmed: this state came from the local store).
    let mut before = before;
    crate::model::claim::confirmed_as_in(&mut before, doc);
    if sessions::adopt(ctx, session, hash, before)? {
        rc.withdraw(w)?;
    }
    Ok(())
}
