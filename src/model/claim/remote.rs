//! Claims across clones (SPEC section 10): what another clone's record says about a
//! task's claim, laid over the state a claim is decided on; confirming a claim the
//! remote took; and a claim lost to another clone's, kept on the task as `lost_claim`
//! so its holder is told.

use jiff::Timestamp;
use serde_json::{Map, Value};

use super::{Claim, KEY, claim_of, copies, format_utc};

/// The key of a task that says a claim of it was lost to another clone's.
pub const LOST_KEY: &str = "lost_claim";

fn tasks(doc: &Map<String, Value>) -> impl Iterator<Item = &Map<String, Value>> {
    doc.get("active_tasks")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
}

fn id_of(task: &Map<String, Value>) -> Option<&str> {
    task.get("id").and_then(Value::as_str)
}

/// The first task of `doc` whose claim is not a valid claim: its id and why.
pub fn invalid_claim(doc: &Map<String, Value>) -> Option<(String, &'static str)> {
    tasks(doc).find_map(|t| {
        let why = Claim::from_value(t.get(KEY)?).err()?;
        Some((id_of(t).unwrap_or("").to_owned(), why))
    })
}

/// The claim task `id` of `doc` holds, if it is a valid one.
pub fn claim_on(doc: &Map<String, Value>, id: &str) -> Option<Claim> {
    tasks(doc).find(|t| id_of(t) == Some(id)).and_then(claim_of)
}

/// Lay the remote's live claims of holders other than `holder` over `doc`, and take
/// off the claims of others it let go: the remote's ref is the truth of who holds a
/// task. Returns the ids changed.
pub fn overlay(
    doc: &mut Map<String, Value>,
    remote: &Map<String, Value>,
    holder: &str,
    now: Timestamp,
) -> Vec<String> {
    let theirs: Vec<(String, Claim)> = tasks(remote)
        .filter_map(|t| Some((id_of(t)?.to_owned(), claim_of(t)?)))
        .filter(|(_, c)| c.held_against(holder, now))
        .collect();
    let mut changed = Vec::new();
    for (id, claim) in theirs {
        let mut copies = copies(doc, &id);
        let same = copies.first().map(|t| claim_of(t));
        match same {
            None => continue,
            Some(Some(ours)) if ours.holder == claim.holder && ours.since == claim.since => {
                continue;
            }
            Some(_) => {}
        }
        // Read from the remote: it is there.
        let claim = Claim {
            confirmed: true,
            ..claim
        };
        for task in &mut copies {
            claim.write_into(task);
        }
        changed.push(id);
    }
    // A claim of another holder that this clone knows reached the remote (confirmed),
    // which the remote's newest state, as new as the file or newer, no longer holds: it was let go there (released,
    // done, taken after it ran out). It goes, so a stale copy never refuses the caller.
    let held_there = |id: &str, c: &Claim| {
        claim_on(remote, id).is_some_and(|r| r.holder == c.holder && r.since == c.since)
    };
    // Only on a remote state not behind the file (a stale fetch knows less than it).
    let seq = |d: &Map<String, Value>| d.get("seq").and_then(Value::as_u64).unwrap_or(0);
    if seq(remote) < seq(doc) {
        return changed;
    }
    let gone: Vec<String> = tasks(doc)
        .filter_map(|t| Some((id_of(t)?.to_owned(), claim_of(t)?)))
        .filter(|(id, c)| c.confirmed && c.holder != holder && !held_there(id, c))
        .filter(|(id, _)| tasks(remote).any(|t| id_of(t) == Some(id.as_str())))
        .map(|(id, _)| id)
        .collect();
    for id in gone {
        for task in copies(doc, &id) {
            task.remove(KEY);
        }
        changed.push(id);
    }
    changed
}

/// Mark `holder`'s claim of task `id` confirmed or not. Whether it was there.
pub fn set_confirmed(
    doc: &mut Map<String, Value>,
    id: &str,
    holder: &str,
    confirmed: bool,
) -> bool {
    let mut found = false;
    for task in copies(doc, id) {
        if let Some(mut c) = claim_of(task).filter(|c| c.holder == holder) {
            c.confirmed = confirmed;
            c.write_into(task);
            found = true;
        }
    }
    found
}

/// A claim lost: what the task says to its holder (`lost_claim`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lost {
    /// Whose claim lost, and since when it was held.
    pub holder: String,
    pub since: Timestamp,
    /// Who won it.
    pub winner: String,
    /// When it was found lost.
    pub at: Timestamp,
}

/// Task `id`'s claim by `ours.holder` lost to `winner`: the winner's claim goes on the
/// task, and `lost_claim` says whose lost, to whom and when, until the task is claimed
/// again.
pub fn lose(doc: &mut Map<String, Value>, id: &str, ours: &Claim, winner: &Claim, at: Timestamp) {
    // The winner's claim was read from the remote: it is there.
    let winner = Claim {
        confirmed: true,
        ..winner.clone()
    };
    for task in copies(doc, id) {
        winner.write_into(task);
        let mut lost = Map::new();
        lost.insert("holder".into(), Value::from(ours.holder.clone()));
        lost.insert("since".into(), Value::from(format_utc(ours.since)));
        lost.insert("winner".into(), Value::from(winner.holder.clone()));
        lost.insert("at".into(), Value::from(format_utc(at)));
        task.insert(LOST_KEY.into(), Value::Object(lost));
    }
}

/// The claim of task `id` that `doc` says was lost, if it tells of one.
pub fn lost_on(doc: &Map<String, Value>, id: &str) -> Option<Lost> {
    tasks(doc)
        .find(|t| id_of(t) == Some(id))
        .and_then(|t| Lost::from_value(t.get(LOST_KEY)?))
}

/// Forget task `id`'s lost claim notice (the task was claimed again).
pub fn clear_lost(doc: &mut Map<String, Value>, id: &str) {
    for task in copies(doc, id) {
        task.remove(LOST_KEY);
    }
}

impl Lost {
    /// Read a `lost_claim` value; `None` when it is not one.
    pub fn from_value(value: &Value) -> Option<Lost> {
        let m = value.as_object()?;
        let time = |k: &str| m.get(k)?.as_str()?.parse::<Timestamp>().ok();
        let since = time("since")?;
        Some(Lost {
            holder: m.get("holder")?.as_str()?.to_owned(),
            since,
            winner: m.get("winner")?.as_str()?.to_owned(),
            at: time("at")?,
        })
    }
}

/// `doc` without its claims' `confirmed`, or `None` when no claim has one. Whether a
/// claim reached the remote is this clone's own knowledge: it is kept in the file,
/// never in a record nor in the state's hash, so a claim is said confirmed (a write of
/// the file alone) only once its push succeeded, and every record, read from the remote
/// by any clone, holds claims that are on the remote.
pub fn without_confirmed(doc: &Map<String, Value>) -> Option<Map<String, Value>> {
    let has = |t: &Map<String, Value>| {
        t.get(KEY)
            .and_then(Value::as_object)
            .is_some_and(|c| c.contains_key("confirmed"))
    };
    if !tasks(doc).any(has) {
        return None;
    }
    let mut out = doc.clone();
    if let Some(Value::Array(tasks)) = out.get_mut("active_tasks") {
        for task in tasks.iter_mut().filter_map(Value::as_object_mut) {
            if let Some(Value::Object(c)) = task.get_mut(KEY) {
                c.remove("confirmed");
            }
        }
    }
    Some(out)
}

/// Say confirmed every claim of `doc` that does not say whether it is: a state taken
/// from a record (the remote's) holds claims that reached the remote.
pub fn mark_recorded(doc: &mut Map<String, Value>) {
    if let Some(Value::Array(tasks)) = doc.get_mut("active_tasks") {
        for task in tasks.iter_mut().filter_map(Value::as_object_mut) {
            if let Some(Value::Object(c)) = task.get_mut(KEY) {
                c.entry("confirmed").or_insert(Value::Bool(true));
            }
        }
    }
}

/// Each claim of `doc` said confirmed as `from` says it of the same claim (the same
/// holder and lease on the same task), and unconfirmed where `from` does not hold it
/// as it is: a state put back keeps what this clone knew of it (see [`mark_recorded`],
/// which then leaves every claim as said).
pub fn confirmed_as_in(doc: &mut Map<String, Value>, from: &Map<String, Value>) {
    let Some(Value::Array(tasks)) = doc.get_mut("active_tasks") else {
        return;
    };
    for task in tasks.iter_mut().filter_map(Value::as_object_mut) {
        let Some(mut c) = claim_of(task) else {
            continue;
        };
        let known = id_of(task).and_then(|id| claim_on(from, id));
        c.confirmed = known.is_some_and(|k| {
            k.confirmed && k.holder == c.holder && k.since == c.since && k.expires == c.expires
        });
        c.write_into(task);
    }
}

/// The unconfirmed claims of `doc`: task id and claim.
pub fn unconfirmed(doc: &Map<String, Value>) -> Vec<(String, Claim)> {
    tasks(doc)
        .filter_map(|t| Some((id_of(t)?.to_owned(), claim_of(t)?)))
        .filter(|(_, c)| !c.confirmed)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_state_put_back_keeps_what_this_clone_knew_of_each_claim() {
        let claim = |h: &str, c: bool| json!({"holder": h, "since": "2026-11-30T10:00:00Z", "expires": "2026-11-30T11:00:00Z", "confirmed": c});
        let doc = |t1: Value, t2: Value| {
            json!({"active_tasks": [{"id": "T1", "claim": t1}, {"id": "T2", "claim": t2}]})
                .as_object()
                .unwrap()
                .clone()
        };
        // Put back: T1 as it was (confirmed), T2 another holder's than the later write's.
        let mut back = doc(claim("a", false), claim("b", false));
        let later = doc(claim("a", true), claim("c", false));
        confirmed_as_in(&mut back, &later);
        assert!(claim_on(&back, "T1").unwrap().confirmed);
        assert!(!claim_on(&back, "T2").unwrap().confirmed);
        let mut recorded = back.clone();
        mark_recorded(&mut recorded);
        assert_eq!(recorded, back, "mark_recorded leaves them as said");
    }

    fn doc(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => unreachable!("an object"),
        }
    }

    fn at(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn the_remotes_live_claims_of_others_are_laid_over_and_nothing_else() {
        let c = |h: &str, until: &str| json!({"holder": h, "since": "2026-11-30T12:00:00Z", "expires": until});
        let mut ours = doc(json!({"active_tasks": [
            {"id": "T1"}, {"id": "T2", "claim": c("me", "2026-11-30T13:00:00Z")}, {"id": "T3"}]}));
        let theirs = doc(json!({"active_tasks": [
            {"id": "T1", "claim": c("them", "2026-11-30T13:00:00Z")},
            {"id": "T2", "claim": c("me", "2026-11-30T13:00:00Z")},
            {"id": "T3", "claim": c("old", "2026-11-30T12:10:00Z")},
            {"id": "T9", "claim": c("them", "2026-11-30T13:00:00Z")}]}));
        let changed = overlay(&mut ours, &theirs, "me", at("2026-11-30T12:30:00Z"));
        assert_eq!(changed, ["T1"]);
        assert_eq!(claim_on(&ours, "T1").unwrap().holder, "them");
        assert!(
            claim_on(&ours, "T3").is_none(),
            "an expired claim is not laid over"
        );
    }

    #[test]
    fn a_confirmed_claim_of_another_the_remote_let_go_is_taken_off_an_unconfirmed_one_stays() {
        let c = |h: &str, confirmed: bool| {
            json!({"holder": h, "since": "2026-11-30T12:00:00Z",
            "expires": "2026-11-30T13:00:00Z", "confirmed": confirmed})
        };
        let mut ours = doc(json!({"active_tasks": [
            {"id": "T1", "claim": c("them", true)}, {"id": "T2", "claim": c("near", false)},
            {"id": "T3", "claim": c("me", true)}]}));
        let theirs = doc(json!({"active_tasks": [{"id": "T1"}, {"id": "T2"}, {"id": "T3"}]}));
        let changed = overlay(&mut ours, &theirs, "me", at("2026-11-30T12:30:00Z"));
        assert_eq!(changed, ["T1"]);
        assert!(claim_on(&ours, "T1").is_none());
        assert_eq!(claim_on(&ours, "T2").unwrap().holder, "near");
        assert_eq!(claim_on(&ours, "T3").unwrap().holder, "me");
    }

    #[test]
    fn a_lost_claim_gives_the_task_to_the_winner_and_says_whose_lost() {
        let mine = Claim {
            holder: "me".into(),
            since: at("2026-11-30T12:00:00Z"),
            expires: at("2026-11-30T12:30:00Z"),
            confirmed: false,
        };
        let won = Claim {
            holder: "them".into(),
            confirmed: true,
            ..mine.clone()
        };
        let mut d = doc(
            json!({"active_tasks": [{"id": "T1", "claim": {"holder": "me", "since": "2026-11-30T12:00:00Z", "expires": "2026-11-30T12:30:00Z", "confirmed": false}}]}),
        );
        assert_eq!(unconfirmed(&d).len(), 1);
        lose(&mut d, "T1", &mine, &won, at("2026-11-30T12:05:00Z"));
        assert_eq!(claim_on(&d, "T1"), Some(won));
        let lost = Lost::from_value(&d["active_tasks"][0][LOST_KEY]).unwrap();
        assert_eq!((lost.holder.as_str(), lost.winner.as_str()), ("me", "them"));
        assert!(unconfirmed(&d).is_empty());
        clear_lost(&mut d, "T1");
        assert!(d["active_tasks"][0].get(LOST_KEY).is_none());
    }

    #[test]
    fn confirmed_is_in_neither_the_hash_nor_the_record_and_a_record_says_it_is_there() {
        let c = |confirmed: bool| {
            json!({"active_tasks": [{"id": "T1", "claim": {"holder": "x",
            "since": "2026-11-30T12:00:00Z", "expires": "2026-11-30T13:00:00Z", "confirmed": confirmed}}]})
        };
        let (yes, no) = (doc(c(true)), doc(c(false)));
        assert_eq!(
            crate::model::session::session_hash(&yes),
            crate::model::session::session_hash(&no)
        );
        let text = crate::model::record::StateText::of(&no);
        assert!(!text.text().contains("confirmed"), "{}", text.text());
        let mut taken = text.doc();
        assert!(claim_on(&taken, "T1").unwrap().confirmed);
        mark_recorded(&mut taken);
        assert_eq!(taken["active_tasks"][0]["claim"]["confirmed"], true);
        assert!(without_confirmed(&doc(json!({"active_tasks": [{"id": "T1"}]}))).is_none());
    }

    #[test]
    fn a_claim_that_is_not_one_is_named_and_confirming_touches_only_the_holders() {
        let d = doc(
            json!({"active_tasks": [{"id": "T1"}, {"id": "T2", "claim": {"holder": "x", "since": "2026-11-30T12:00:00Z", "expires": "never"}}]}),
        );
        assert_eq!(
            invalid_claim(&d),
            Some(("T2".into(), "must have an RFC 3339 expires"))
        );
        let mut d = doc(
            json!({"active_tasks": [{"id": "T1", "claim": {"holder": "x", "since": "2026-11-30T12:00:00Z", "expires": "2026-11-30T13:00:00Z", "confirmed": false}}]}),
        );
        assert!(!set_confirmed(&mut d, "T1", "y", true));
        assert!(set_confirmed(&mut d, "T1", "x", true));
        assert!(claim_on(&d, "T1").unwrap().confirmed);
    }
}
