//! `sync` settles the claims made while the remote could not be reached (SPEC section
//! 10), between its merge and its push, against the remote's notes ref as it was
//! fetched. The winning rule: the claim whose record reached the remote first. An
//! unconfirmed claim of a task the remote's newest record of the session gives to
//! another holder's live claim lost (that record is on the remote, ours is not yet):
//! the winner's claim goes on the task and `lost_claim` tells ours, so its holder is
//! told by `sync`, by the claim verbs and in the briefing. Any other unconfirmed claim
//! stands: its record reaches the remote with this push, and only once the push
//! succeeded is it said confirmed (`confirm`, a write of the file alone: `confirmed` is
//! this clone's own knowledge, in no record). Each session is changed under its lock,
//! on what its file holds then.

use crate::git::Worktree;
use crate::model::claim::{self, Claim};
use crate::model::record::Record;
use crate::model::state::State;
use crate::services::context::Context;
use crate::services::remote_notes::RemoteNotes;
use crate::services::scan::{self, Found};
use crate::services::sessions::{SessionDir, Transaction};
use crate::support::error::Result;

pub use crate::facts::settled::Settled;

/// The claims that stood against the remote, to be said confirmed once the push that
/// carries them succeeded: each session and its (task, claim as settled).
#[derive(Default)]
pub struct Standing(Vec<(SessionDir, Vec<(String, Claim)>)>);

/// A session on disk as `sync` found it after its merge: its worktree, directory, key
/// and the state its file held then (files that could not be read are left out).
pub struct OnDisk {
    wt: Worktree,
    session: SessionDir,
    key: String,
    state: State,
}

/// Every readable session file in every worktree, read once for both [`catch_up`] and
/// [`settle`] (which take the files without and with an unconfirmed claim in turn).
pub fn on_disk(ctx: &Context) -> Result<Vec<OnDisk>> {
    let mut out = Vec::new();
    for wt in ctx.repo.worktrees()? {
        if !wt.exists || wt.is_bare {
            continue;
        }
        for found in scan::scan_worktree(&wt.path, &ctx.settings.dir) {
            let Found::Session { root, key, .. } = found else {
                continue;
            };
            let session = SessionDir::new(&wt.path.join(&root), &key)?;
            let Ok(state) = State::read(&session.state_file()) else {
                continue;
            };
            out.push(OnDisk {
                wt: wt.clone(),
                session,
                key,
                state,
            });
        }
    }
    Ok(out)
}

/// Settle every unconfirmed claim of the sessions `on_disk` against the remote's notes
/// as fetched (`remote`: of each such session, only its own records are read).
pub fn settle(
    ctx: &Context,
    on_disk: Vec<OnDisk>,
    remote: &RemoteNotes<'_>,
) -> Result<(Settled, Standing)> {
    let mut out = Settled::default();
    let mut standing = Standing::default();
    for found in on_disk {
        let OnDisk {
            wt,
            session,
            key,
            state,
        } = found;
        if claim::unconfirmed(state.document()).is_empty() {
            continue;
        }
        let newest = match state
            .document()
            .get("session_id")
            .and_then(serde_json::Value::as_str)
        {
            Some(id) => remote.newest(id)?,
            None => None,
        };
        // Every head of the remote's session: its newest record and, when it diverged
        // (two clones' claims pushed side by side by a third push), each side. An
        // unconfirmed claim gives way to another holder's live claim on any of them:
        // which reached the remote first cannot be told from the records, and giving
        // way can leave a task unclaimed but never claimed twice.
        let heads: Vec<_> = (newest.iter())
            .flat_map(|n| std::iter::once(&n.record).chain(n.diverged.iter().map(|d| &d.record)))
            .map(Record::state_doc)
            .collect();
        let now = ctx.now;
        let lost = match &newest {
            Some(n) if n.diverged.is_empty() => {
                give_way(ctx, &session, state.document(), (remote, &n.record), now)?
            }
            _ => None,
        };
        if let Some(lost) = lost {
            out.lost
                .extend(lost.into_iter().map(|(t, w)| (key.clone(), t, w)));
            continue;
        }
        let mut done = Settled::default();
        let mut stands = Vec::new();
        Transaction::recorded(ctx, &wt)?.update(&session, |current| {
            let mut doc = current.into_document();
            for (task, ours) in claim::unconfirmed(&doc) {
                match heads
                    .iter()
                    .find_map(|theirs| winner(theirs, &task, &ours, now))
                {
                    Some(won) => {
                        claim::lose(&mut doc, &task, &ours, &won, now);
                        done.lost.push((key.clone(), task, won.holder));
                    }
                    None => stands.push((task, ours)),
                }
            }
            Ok(doc)
        })?;
        out.lost.extend(done.lost);
        if !stands.is_empty() {
            standing.0.push((session, stands));
        }
    }
    Ok((out, standing))
}

/// The push carried the claims that stood (or the remote had their records already):
/// each is said confirmed where its file still holds it as it was settled (a write of
/// the file alone). Never before: a sync killed before its push leaves them unconfirmed.
pub fn confirm(ctx: &Context, standing: Standing, settled: &mut Settled) -> Result<()> {
    for (session, claims) in standing.0 {
        let Some(state) = crate::services::sessions::confirm(ctx, &session, &claims)? else {
            continue;
        };
        for (task, _) in claims {
            let now = claim::claim_on(state.document(), &task);
            if now.is_some_and(|c| c.confirmed) {
                settled.confirmed.push((session.key.clone(), task));
            }
        }
    }
    Ok(())
}

/// Every unconfirmed claim of `doc` lost, and the file is one write beyond a state the
/// remote has, whose only change is those claims: that write never reached the
/// remote, so it is taken back out of the local notes ref and the file takes the
/// remote's newest state (`newest`) with `lost_claim` on each task (no divergence is
/// left behind). The tasks and winners, or `None` when this does not apply.
fn give_way(
    ctx: &Context,
    session: &SessionDir,
    doc: &serde_json::Map<String, serde_json::Value>,
    (remote, newest): (&RemoteNotes<'_>, &Record),
    now: jiff::Timestamp,
) -> Result<Option<Vec<(String, String)>>> {
    use serde_json::Value;
    let field = |k: &str| doc.get(k).and_then(Value::as_str);
    let (Some(id), Some(hash)) = (field("session_id"), field("session_hash")) else {
        return Ok(None);
    };
    let mut theirs = newest.state_doc();
    let mut lost = Vec::new();
    for (task, ours) in claim::unconfirmed(doc) {
        let Some(won) = winner(&theirs, &task, &ours, now) else {
            return Ok(None);
        };
        claim::lose(&mut theirs, &task, &ours, &won, now);
        lost.push((task, won.holder));
    }
    let seq = doc.get("seq").and_then(Value::as_u64).unwrap_or(0);
    let ids: Vec<&str> = lost.iter().map(|(t, _)| t.as_str()).collect();
    let base = (remote.records_at(id, seq.saturating_sub(1))?)
        .into_iter()
        .any(|r| crate::services::remote_claim::same_but(&r.state_doc(), doc, &ids));
    if !base || remote.has_state(id, hash)? {
        return Ok(None);
    }
    // The record is taken out only once the file gave way (under its lock, still
    // holding this write): a write made on top of it since keeps its parent.
    if !crate::services::sessions::adopt(ctx, session, hash, theirs)? {
        return Ok(None);
    }
    crate::services::remote_claim::withdraw_state(ctx, id, hash)?;
    Ok(Some(lost))
}

/// The claim that won task `task` over `ours`: another holder's live claim on the
/// remote's newest state of the session.
fn winner(
    theirs: &serde_json::Map<String, serde_json::Value>,
    task: &str,
    ours: &Claim,
    now: jiff::Timestamp,
) -> Option<Claim> {
    claim::claim_on(theirs, task).filter(|c| c.holder != ours.holder && c.is_live(now))
}

/// After a merge, each session file on disk that is exactly a state the store recorded,
/// behind the store's newest record of its session (another clone wrote since, a claim
/// among its writes), takes that newest state: so a clone that did not claim shows who
/// holds what. Never a file the store has no record of (a write not recorded here), one
/// with an unconfirmed claim (settled by [`settle`]), one a person edited since, or a
/// session that diverged. The keys of the sessions that caught up.
pub fn catch_up(ctx: &Context, on_disk: &[OnDisk]) -> Result<Vec<String>> {
    let behind: Vec<(&OnDisk, &str, &str, Option<u64>)> = on_disk
        .iter()
        .filter(|d| claim::unconfirmed(d.state.document()).is_empty())
        .filter_map(|d| {
            let doc = d.state.document();
            let field = |k: &str| doc.get(k).and_then(serde_json::Value::as_str);
            let seq = doc.get("seq").and_then(serde_json::Value::as_u64);
            Some((d, field("session_id")?, field("session_hash")?, seq))
        })
        .collect();
    if behind.is_empty() {
        return Ok(Vec::new());
    }
    let store = ctx.store();
    let ids: Vec<&str> = behind.iter().map(|b| b.1).collect();
    let (newest, _) = store.newest_where(&|l| l.session_id.is_some_and(|s| ids.contains(&s)))?;
    let mut caught = Vec::new();
    for (found, id, hash, seq) in behind {
        let Some(n) = newest
            .iter()
            .find(|n| n.record.session_id.as_deref() == Some(id))
        else {
            continue;
        };
        let (Some(theirs), Some(ours)) = (n.record.seq, seq) else {
            continue;
        };
        if theirs <= ours || !n.diverged.is_empty() {
            continue;
        }
        // The file is the one write the store holds at its `seq` (as written here or
        // restored into this worktree, its own workspace aside): the newest descends
        // from it.
        let at = store.records_at(id, ours)?;
        let recorded = at.len() == 1
            && crate::services::remote_claim::same_write(
                &at[0].state_doc(),
                found.state.document(),
            );
        if !recorded {
            continue;
        }
        let theirs = n.record.state_doc();
        if crate::services::sessions::catch_up(ctx, &found.session, hash, theirs)? {
            caught.push(found.key.clone());
        }
    }
    Ok(caught)
}
