//! One claim verb (`claim`, `next --claim`, `release`) as the rules of the model do it
//! on a document under the lock, and why it is refused: shared by the verb on one
//! machine (`claim.rs`) and on a remote (`remote.rs`).

use jiff::Timestamp;

use super::{TaskOp, no_task};
use crate::model::claim::{self, ClaimError, Released, Took};
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

/// One claim verb, ready to run on a document under the lock.
pub(super) struct Op<'a> {
    pub verb: &'a TaskOp,
    pub holder: &'a str,
    pub now: Timestamp,
    pub until: Option<Timestamp>,
    pub stamp: String,
    pub key: String,
}

impl Op<'_> {
    /// Do the verb on `doc`: the task it acted on and what it did, or why not.
    pub fn apply(
        &self,
        doc: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(String, Act)> {
        let (holder, now, key) = (self.holder, self.now, self.key.as_str());
        let until = self.until.unwrap_or(now);
        match self.verb {
            TaskOp::Claim { id, force, .. } => {
                let took = claim::claim(doc, id, holder, now, until, *force, &self.stamp)
                    .map_err(|e| refused_on(e, id, key, doc))?;
                Ok((id.clone(), Act::Claimed(took)))
            }
            TaskOp::Next { .. } => {
                // Chosen under the lock, on what the file holds now: two callers
                // never get the same task.
                let id = claim::next_free(doc, holder, now).ok_or_else(|| nothing_left(key))?;
                let took = claim::claim(doc, &id, holder, now, until, false, &self.stamp)
                    .map_err(|e| refused(e, &id, key))?;
                Ok((id, Act::Claimed(took)))
            }
            TaskOp::Release { id, force, .. } => {
                let released = claim::release(doc, id, holder, now, *force)
                    .map_err(|e| refused_on(e, id, key, doc))?;
                Ok((id.clone(), Act::Released(released)))
            }
            _ => unreachable!("only claim verbs come here"),
        }
    }
}

/// Why a claim verb was refused, as the error of the run; a refusal because the task
/// is held says too the claim of it this clone lost, when the task tells of one.
pub(super) fn refused_on(
    e: ClaimError,
    id: &str,
    key: &str,
    doc: &serde_json::Map<String, serde_json::Value>,
) -> Error {
    let mut e = refused(e, id, key);
    if let Error::Held { lost, .. } = &mut e {
        *lost = claim::lost_on(doc, id).map(|l| {
            Box::new(crate::support::error::LostClaim {
                holder: l.holder,
                since: l.since,
                winner: l.winner,
                at: l.at,
            })
        });
    }
    e
}

/// Why a claim verb was refused, as the error of the run.
pub(super) fn refused(e: ClaimError, id: &str, key: &str) -> Error {
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
            lost: None,
        },
    }
}

/// Nothing left to work on in session `key` (exit 1).
pub(super) fn nothing_left(key: &str) -> Error {
    Error::NothingToDo {
        message: msg(crate::k!("claim.nothing_left"), &[("key", &key)]),
        hint: None,
    }
}
