//! A diverged session (written on two clones from one state, SPEC section 8): finding
//! its sides, and settling it on the side the user took.

use super::{Candidate, ContinueArgs};
use crate::git::Worktree;
use crate::services::context::Context;
use crate::services::notes_store::Side;
use crate::services::sessions::{self, SessionDir};
use crate::support::error::{Error, Result, msg};

/// The sides of the chosen session when it diverged, newest first; `None` when it
/// did not (or has no id, or there is no store).
pub(super) fn sides_of(ctx: &Context, chosen: &Candidate) -> Result<Option<Vec<Side>>> {
    let id = chosen
        .handover
        .assessment()
        .and_then(|a| a.session())
        .and_then(|s| s.session_id.clone());
    let Some(id) = id else {
        return Ok(None);
    };
    if ctx.repo.ref_target(&ctx.settings.notes_ref)?.is_none() {
        return Ok(None);
    }
    ctx.store().sides(&id)
}

/// The side `--take HASH` names: the one whose state hash starts with it.
pub(super) fn taken(args: &ContinueArgs, key: &str, sides: &[Side]) -> Result<Option<usize>> {
    let Some(hash) = args.take.as_deref() else {
        return Ok(None);
    };
    let hash = hash.to_ascii_lowercase();
    let matching: Vec<usize> = (0..sides.len())
        .filter(|&i| hash.len() >= 4 && sides[i].hash().starts_with(&hash))
        .collect();
    match matching.as_slice() {
        [one] => Ok(Some(*one)),
        _ => Err(Error::usage_hint(
            msg(
                crate::k!("err.take_no_side"),
                &[("hash", &hash), ("key", &key)],
            ),
            msg(crate::k!("err.take_hint"), &[("key", &key)]),
        )),
    }
}

/// `--take` on a session that did not diverge.
pub(super) fn not_diverged(key: &str) -> Error {
    Error::usage(msg(crate::k!("err.take_not_diverged"), &[("key", &key)]))
}

/// Before a session's files are replaced by the side taken: the state they hold must
/// be one the store has (a state written here and never recorded would be lost). The
/// state is known by its content, not by the `session_hash` field a hand edit leaves
/// stale. That hash, returned, is what the settle finds again under the lock.
pub(super) fn check_recorded(ctx: &Context, session: &SessionDir, id: &str) -> Result<String> {
    let file = session.state_file();
    let state = crate::model::state::State::read(&file)?;
    let hash = crate::model::session::session_hash(state.document());
    if ctx.store().has_state(id, &hash)? {
        Ok(hash)
    } else {
        Err(Error::usage_hint(
            msg(
                crate::k!("err.take_unrecorded"),
                &[("path", &file.display())],
            ),
            msg(crate::k!("err.take_unrecorded_hint"), &[]),
        ))
    }
}

/// What a `--take` decided on, found again under the session's lock before anything is
/// replaced: the session, its sides as shown, and the content hash of its file then.
pub(super) struct Taking<'a> {
    pub id: &'a str,
    pub sides: &'a [Side],
    pub taken: usize,
    pub file_hash: &'a str,
}

/// Settle the divergence on `sides[taken]`: the session's files get that side's state
/// (pointed at `wt`), counted after every side, and the notes store gets a record
/// naming the taken state as its parent and setting the others aside. Decided under
/// the session's lock: when the file or the sides changed since they were shown (a
/// write, another take), nothing is written and the take is refused (exit 4).
pub(super) fn settle(
    ctx: &Context,
    wt: &Worktree,
    session: &SessionDir,
    taking: &Taking<'_>,
) -> Result<()> {
    crate::support::testing::pause("take");
    let head = ctx.store().record_head()?;
    let sides = taking.sides;
    let side = &sides[taking.taken];
    let floor = sides.iter().filter_map(|s| s.record.seq).max().unwrap_or(0);
    let state = side.record.state_doc();
    let set_aside = sides
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != taking.taken)
        .map(|(_, s)| s.hash())
        .collect();
    let key = session.key.clone();
    sessions::Transaction::recorded_on(ctx, wt, head)
        .after(floor)
        .settling(side.hash(), set_aside)
        .update(session, |current| {
            let now = current
                .state()
                .map(|s| crate::model::session::session_hash(s.document()));
            if now.as_deref() != Some(taking.file_hash) {
                return Err(changed(&key, &session.state_file()));
            }
            let hashes = |s: &[Side]| {
                let mut h: Vec<String> = s.iter().map(Side::hash).collect();
                h.sort();
                h
            };
            let sides_now = ctx.store().sides(taking.id)?;
            if sides_now.as_deref().map(hashes) != Some(hashes(sides)) {
                return Err(changed(&key, &session.state_file()));
            }
            let mut doc = state;
            sessions::point_here(&mut doc, wt);
            Ok(doc)
        })?;
    Ok(())
}

/// The take found the session changed under its lock.
fn changed(key: &str, file: &std::path::Path) -> Error {
    Error::Changed {
        message: msg(
            crate::k!("err.take_changed"),
            &[("key", &key), ("path", &file.display())],
        ),
        hint: Some(msg(crate::k!("err.take_hint"), &[("key", &key)])),
    }
}
