//! Taking the notes store's state of a session into its file as the store holds it
//! (the same `seq`; the file's own `workspace` kept, as a restore does): a claim that
//! lost a race on the remote gives way to the winner's state, and a file a write behind
//! the remote catches up before a claim is decided on it. Not recorded: the state is
//! the store's already.

use serde_json::Value;

use super::SessionDir;
use crate::model::state::State;
use crate::services::context::Context;
use crate::support::error::Result;
use crate::support::fsio::{self, Lock};

/// Replace `session`'s state with `doc`, under its lock, only while the file still
/// holds the state hashed `expected`. Whether it was replaced.
pub fn adopt(
    ctx: &Context,
    session: &SessionDir,
    expected: &str,
    doc: serde_json::Map<String, Value>,
) -> Result<bool> {
    take(ctx, session, expected, doc, Check::Field)
}

/// A file `sync` left behind the store catches up (SPEC section 10: a clone that did
/// not claim shows who holds what): as [`adopt`], and only while the file's content
/// still hashes to `expected` too, as the tool wrote it (a person's edit since, its
/// `session_hash` left as it was, is never overwritten). A file that cannot be read is
/// left alone. Whether it was replaced.
pub fn catch_up(
    ctx: &Context,
    session: &SessionDir,
    expected: &str,
    doc: serde_json::Map<String, Value>,
) -> Result<bool> {
    crate::support::testing::pause("sync_catch_up");
    take(ctx, session, expected, doc, Check::Content)
}

/// What a take checks of the file under the lock: its `session_hash` field, or that
/// and its content hashed.
#[derive(Clone, Copy, PartialEq)]
enum Check {
    Field,
    Content,
}

fn take(
    ctx: &Context,
    session: &SessionDir,
    expected: &str,
    doc: serde_json::Map<String, Value>,
    check: Check,
) -> Result<bool> {
    let file = session.state_file();
    let _lock = Lock::acquire(&file, ctx.settings.lock_timeout)?;
    let current = match State::read(&file) {
        Ok(current) => current,
        Err(_) if check == Check::Content => return Ok(false),
        Err(e) => return Err(e),
    };
    let held = current
        .document()
        .get("session_hash")
        .and_then(Value::as_str);
    if held != Some(expected)
        || (check == Check::Content
            && crate::model::canonical::session_hash(current.document()) != expected)
    {
        return Ok(false);
    }
    // The file's own workspace stays (the state came from another clone's worktree).
    let mut doc = doc;
    if let Some(ours) = current.document().get("workspace") {
        doc.insert("workspace".into(), ours.clone());
    }
    // A record's claims reached the remote: said so in the file.
    crate::model::claim::mark_recorded(&mut doc);
    put(ctx, session, doc, true)?;
    Ok(true)
}

/// Say confirmed each of `claims` (task, the claim as this clone wrote it) that the
/// file of `session` still holds as written (the holder, the same lease) unconfirmed,
/// under its lock: its record reached the remote. A write of the file alone, not
/// recorded and not counted: `confirmed` is this clone's own knowledge, in no record
/// and not in the state's hash. The state written, `None` when nothing changed.
pub fn confirm(
    ctx: &Context,
    session: &SessionDir,
    claims: &[(String, crate::model::claim::Claim)],
) -> Result<Option<State>> {
    let file = session.state_file();
    let _lock = Lock::acquire(&file, ctx.settings.lock_timeout)?;
    let Ok(current) = State::read(&file) else {
        return Ok(None);
    };
    let mut doc = current.into_document();
    if !say_confirmed(&mut doc, claims) {
        return Ok(None);
    }
    crate::support::testing::pause("claim_confirm");
    // A confirmation a crash takes back leaves the claim unconfirmed, as it was written
    // (durably) before its push: nothing lost, nothing false, and `sync` confirms it
    // again. So its new name is not synced to disk (one fsync less on every claim).
    put(ctx, session, doc, false).map(Some)
}

/// A confirmation made ready while the push that decides it runs (`prepare_confirm`):
/// the state a claim's write left, its claims said confirmed, on disk beside the file.
pub struct ConfirmReady {
    file: fsio::Prepared,
    /// What the file must hold for it to be renamed in: the bytes the write left.
    written: Vec<u8>,
    state: State,
    markdown: String,
    claims: Vec<(String, crate::model::claim::Claim)>,
}

/// Make ready, without the lock, the confirmation of `claims` on the state `written`
/// (as `confirm` would write it on a file that still holds that state): `None` when
/// there is nothing to say or it could not be made ready (then `confirm` does it all).
pub fn prepare_confirm(
    ctx: &Context,
    session: &SessionDir,
    written: &State,
    claims: &[(String, crate::model::claim::Claim)],
) -> Option<ConfirmReady> {
    let mut doc = written.document().clone();
    if !say_confirmed(&mut doc, claims) {
        return None;
    }
    let file = session.state_file();
    crate::model::session::seal(&mut doc);
    let state = State::from_doc(doc, &file).ok()?;
    let ready = fsio::Prepared::new(&file, &state.to_json_bytes()).ok()?;
    let markdown =
        crate::model::markdown::render(&state, super::write::session_lang(&state, ctx.lang));
    Some(ConfirmReady {
        file: ready,
        written: written.to_json_bytes(),
        state,
        markdown,
        claims: claims.to_vec(),
    })
}

/// [`confirm`] with the confirmation made ready: under the lock, renamed in only while
/// the file holds exactly the write it was made from (no one wrote since); else
/// [`confirm`] decides on what the file holds now.
pub fn confirm_ready(
    ctx: &Context,
    session: &SessionDir,
    ready: ConfirmReady,
) -> Result<Option<State>> {
    let file = session.state_file();
    let ConfirmReady {
        file: prepared,
        written,
        state,
        markdown,
        claims,
    } = ready;
    {
        let _lock = Lock::acquire(&file, ctx.settings.lock_timeout)?;
        if fsio::read_if_exists(&file, fsio::MAX_FILE_SIZE)?.as_deref() == Some(&written[..]) {
            crate::support::testing::pause("claim_confirm");
            // Its new name is not synced, as `confirm`'s (see there). A replacement a
            // writer since took away (its stray temporary files removed) is done again.
            if prepared.replace(false).is_ok() {
                let md = session.dir().join(super::MARKDOWN_FILE);
                if fsio::read_if_exists(&md, fsio::MAX_FILE_SIZE)?.as_deref()
                    != Some(markdown.as_bytes())
                {
                    fsio::write_atomic(&md, markdown.as_bytes())?;
                }
                return Ok(Some(state));
            }
        }
    }
    confirm(ctx, session, &claims)
}

/// Say confirmed each of `claims` that `doc` holds as written, unconfirmed. Whether one was.
fn say_confirmed(
    doc: &mut serde_json::Map<String, Value>,
    claims: &[(String, crate::model::claim::Claim)],
) -> bool {
    use crate::model::claim;
    let mut changed = false;
    for (task, written) in claims {
        let same = claim::claim_on(doc, task).is_some_and(|c| {
            !c.confirmed
                && c.holder == written.holder
                && c.since == written.since
                && c.expires == written.expires
        });
        if same {
            changed |= claim::set_confirmed(doc, task, &written.holder, true);
        }
    }
    changed
}

/// Write `doc` as `session`'s state and its `handover.md` (the lock held by the caller).
fn put(
    ctx: &Context,
    session: &SessionDir,
    mut doc: serde_json::Map<String, Value>,
    durable: bool,
) -> Result<State> {
    let file = session.state_file();
    crate::model::session::seal(&mut doc);
    let state = State::from_doc(doc, &file)?;
    if durable {
        fsio::write_atomic(&file, &state.to_json_bytes())?;
    } else {
        fsio::write_atomic_unsynced_name(&file, &state.to_json_bytes())?;
    }
    let lang = super::write::session_lang(&state, ctx.lang);
    // A confirmation changes nothing `handover.md` shows: a file that already says
    // what it would be rewritten to is left alone (no temporary file, no fsync).
    let rendered = crate::model::markdown::render(&state, lang);
    let md = session.dir().join(super::MARKDOWN_FILE);
    if fsio::read_if_exists(&md, fsio::MAX_FILE_SIZE)?.as_deref() != Some(rendered.as_bytes()) {
        fsio::write_atomic(&md, rendered.as_bytes())?;
    }
    Ok(state)
}
