//! Claims (SPEC section 10): a lease on one task, `{holder, since, expires, confirmed}`,
//! kept on the task in the state under the key `claim`. Every rule here is decided on
//! the document the caller holds under the session's lock; keys of a claim the tool
//! does not know stay where they were.

use jiff::Timestamp;
use serde_json::{Map, Value};

/// The key of a task that holds its claim.
pub const KEY: &str = "claim";

/// A lease on one task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub holder: String,
    pub since: Timestamp,
    pub expires: Timestamp,
    /// Decided where it is true (under the lock, or by the remote's ref update); a claim
    /// made offline against a claim remote is `false` until a sync confirms it.
    pub confirmed: bool,
}

impl Claim {
    /// Whether the lease still holds at `now` (it ends at `expires`, exclusive).
    pub fn is_live(&self, now: Timestamp) -> bool {
        now < self.expires
    }

    /// Whether the lease holds at `now` for someone other than `holder`.
    pub fn held_against(&self, holder: &str, now: Timestamp) -> bool {
        self.holder != holder && self.is_live(now)
    }

    /// Read a claim value; the reason when it is not one.
    pub fn from_value(value: &Value) -> Result<Claim, &'static str> {
        let Value::Object(m) = value else {
            return Err("must be an object");
        };
        let holder = match m.get("holder") {
            Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
            _ => return Err("must have a non-empty string holder"),
        };
        let time = |key: &str| {
            m.get(key)
                .and_then(Value::as_str)
                .and_then(|s| s.parse::<Timestamp>().ok())
        };
        let since = time("since").ok_or("must have an RFC 3339 since")?;
        let expires = time("expires").ok_or("must have an RFC 3339 expires")?;
        let confirmed = match m.get("confirmed") {
            None | Some(Value::Null) => true,
            Some(Value::Bool(b)) => *b,
            Some(_) => return Err("must have a boolean confirmed"),
        };
        Ok(Claim {
            holder,
            since,
            expires,
            confirmed,
        })
    }

    /// Write the claim into `task`, keeping any other key its claim object holds.
    fn write_into(&self, task: &mut Map<String, Value>) {
        let slot = task.entry(KEY).or_insert_with(|| Value::Object(Map::new()));
        if !slot.is_object() {
            *slot = Value::Object(Map::new());
        }
        let m = slot.as_object_mut().expect("just made an object");
        m.insert("holder".into(), Value::from(self.holder.clone()));
        m.insert("since".into(), Value::from(format_utc(self.since)));
        m.insert("expires".into(), Value::from(format_utc(self.expires)));
        m.insert("confirmed".into(), Value::from(self.confirmed));
    }
}

/// A claim's times as written: RFC 3339 in UTC, to the second.
pub fn format_utc(t: Timestamp) -> String {
    crate::support::clock::utc_seconds(t)
}

/// What a claim did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Took {
    /// The task was free.
    New,
    /// The caller held it already: the lease is extended.
    Renewed,
    /// Another holder's lease had run out: theirs, as it was.
    Expired(Claim),
    /// Another holder's live lease was overridden with `--force`: theirs.
    Forced(Claim),
}

/// What a release did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Released {
    /// The caller's claim is gone.
    Own,
    /// Another holder's claim is gone (expired, or with `--force`): theirs.
    Other(Claim),
    /// The task had no claim: nothing changed.
    Unclaimed,
}

/// Why a claim verb cannot be done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaimError {
    NoSuchTask,
    /// A done task is not claimed.
    Done,
    /// Another holder's live lease.
    Held(Claim),
}

/// The claim a task object holds, if it is a valid one.
fn claim_of(task: &Map<String, Value>) -> Option<Claim> {
    task.get(KEY).and_then(|v| Claim::from_value(v).ok())
}

fn is_done(task: &Map<String, Value>) -> bool {
    task.get("status").and_then(Value::as_str) == Some("done")
}

fn is_blocked(task: &Map<String, Value>) -> bool {
    task.get("status").and_then(Value::as_str) == Some("blocked")
}

/// The objects of task `id` (a hand-edited file may hold an id twice: every copy is
/// changed, the first decides).
fn copies<'a>(doc: &'a mut Map<String, Value>, id: &str) -> Vec<&'a mut Map<String, Value>> {
    let Some(Value::Array(tasks)) = doc.get_mut("active_tasks") else {
        return Vec::new();
    };
    tasks
        .iter_mut()
        .filter_map(Value::as_object_mut)
        .filter(|t| t.get("id").and_then(Value::as_str) == Some(id))
        .collect()
}

/// Claim task `id` for `holder` from `now` until `until`. A task not done and not
/// blocked is put in progress; its `last_touched` is `stamp`.
pub fn claim(
    doc: &mut Map<String, Value>,
    id: &str,
    holder: &str,
    now: Timestamp,
    until: Timestamp,
    force: bool,
    stamp: &str,
) -> Result<Took, ClaimError> {
    let mut tasks = copies(doc, id);
    let Some(first) = tasks.first() else {
        return Err(ClaimError::NoSuchTask);
    };
    if is_done(first) {
        return Err(ClaimError::Done);
    }
    let (took, since) = match claim_of(first) {
        None => (Took::New, now),
        Some(c) if c.holder == holder => (Took::Renewed, c.since),
        Some(c) if !c.is_live(now) => (Took::Expired(c), now),
        Some(c) if force => (Took::Forced(c), now),
        Some(c) => return Err(ClaimError::Held(c)),
    };
    let claim = Claim {
        holder: holder.to_owned(),
        since,
        expires: until,
        confirmed: true,
    };
    for task in &mut tasks {
        claim.write_into(task);
        // Claimed again: a notice of a claim lost before has been heard.
        task.remove(LOST_KEY);
        if !is_blocked(task) {
            task.insert("status".into(), Value::from("in_progress"));
        }
        task.insert("last_touched".into(), Value::from(stamp));
    }
    Ok(took)
}

/// Release task `id`'s claim for `holder`: another holder's live claim only with
/// `force`.
pub fn release(
    doc: &mut Map<String, Value>,
    id: &str,
    holder: &str,
    now: Timestamp,
    force: bool,
) -> Result<Released, ClaimError> {
    let mut tasks = copies(doc, id);
    let Some(first) = tasks.first() else {
        return Err(ClaimError::NoSuchTask);
    };
    let released = match claim_of(first) {
        None if first.get(KEY).is_none() => return Ok(Released::Unclaimed),
        None => Released::Unclaimed,
        Some(c) if c.holder == holder => Released::Own,
        Some(c) if !c.is_live(now) || force => Released::Other(c),
        Some(c) => return Err(ClaimError::Held(c)),
    };
    for task in &mut tasks {
        task.remove(KEY);
    }
    Ok(released)
}

/// `done` and `block` of task `id` by `holder`: the caller's own claim goes, and so
/// does an expired one; `done` ends any claim (the work it protected is finished),
/// while `block` leaves another holder's live lease in place. Never refuses.
pub fn release_on_edit(
    doc: &mut Map<String, Value>,
    id: &str,
    holder: &str,
    now: Timestamp,
    done: bool,
) -> Released {
    let mut tasks = copies(doc, id);
    let Some(first) = tasks.first() else {
        return Released::Unclaimed;
    };
    let released = match claim_of(first) {
        None => Released::Unclaimed,
        Some(c) if c.holder == holder => Released::Own,
        Some(c) if done || !c.is_live(now) => Released::Other(c),
        Some(_) => return Released::Unclaimed,
    };
    if released != Released::Unclaimed || first.get(KEY).is_some() && done {
        for task in &mut tasks {
            task.remove(KEY);
        }
    }
    released
}

/// The next task for `holder`: the first, in the session's order, not done, not
/// blocked and not held by another live lease.
pub fn next_free(doc: &Map<String, Value>, holder: &str, now: Timestamp) -> Option<String> {
    doc.get("active_tasks")?
        .as_array()?
        .iter()
        .filter_map(Value::as_object)
        .find(|t| {
            !is_done(t)
                && !is_blocked(t)
                && !claim_of(t).is_some_and(|c| c.held_against(holder, now))
        })
        .and_then(|t| t.get("id").and_then(Value::as_str).map(str::to_owned))
}

mod remote;
pub use remote::{
    LOST_KEY, Lost, claim_on, clear_lost, confirmed_as_in, invalid_claim, lose, lost_on,
    mark_recorded, overlay, set_confirmed, unconfirmed, without_confirmed,
};

#[cfg(test)]
mod tests;
