use super::*;
use serde_json::json;

fn at(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn doc() -> Map<String, Value> {
    let v = json!({"active_tasks": [
        {"id": "T1", "status": "done"},
        {"id": "T2", "status": "blocked", "blockers": ["x"]},
        {"id": "T3", "status": "pending"},
        {"id": "T4", "status": "in_progress"},
    ]});
    v.as_object().unwrap().clone()
}

const NOW: &str = "2026-11-30T12:00:00Z";
const LATER: &str = "2026-11-30T12:30:00Z";
const STAMP: &str = "2026-11-30T12:00:00+00:00";

#[test]
fn a_free_task_is_claimed_and_put_in_progress() {
    let mut d = doc();
    let took = claim(&mut d, "T3", "a", at(NOW), at(LATER), false, STAMP);
    assert_eq!(took, Ok(Took::New));
    let t = &d["active_tasks"][2];
    assert_eq!(t["status"], "in_progress");
    assert_eq!(
        t["claim"],
        json!({"holder": "a", "since": NOW, "expires": LATER, "confirmed": true})
    );
    assert_eq!(t["last_touched"], STAMP);
}

#[test]
fn renewal_keeps_since_and_extends() {
    let mut d = doc();
    claim(&mut d, "T3", "a", at(NOW), at(LATER), false, STAMP).unwrap();
    let later = "2026-11-30T13:00:00Z";
    let took = claim(&mut d, "T3", "a", at(LATER), at(later), false, STAMP);
    assert_eq!(took, Ok(Took::Renewed));
    assert_eq!(d["active_tasks"][2]["claim"]["since"], NOW);
    assert_eq!(d["active_tasks"][2]["claim"]["expires"], later);
}

#[test]
fn a_live_lease_refuses_another_holder_and_force_overrides_it() {
    let mut d = doc();
    claim(&mut d, "T3", "a", at(NOW), at(LATER), false, STAMP).unwrap();
    let before = d.clone();
    let Err(ClaimError::Held(c)) = claim(&mut d, "T3", "b", at(NOW), at(LATER), false, STAMP)
    else {
        panic!("not refused")
    };
    assert_eq!(c.holder, "a");
    assert_eq!(c.expires, at(LATER));
    assert_eq!(d, before, "a refusal changes nothing");
    let took = claim(&mut d, "T3", "b", at(NOW), at(LATER), true, STAMP).unwrap();
    assert!(matches!(took, Took::Forced(c) if c.holder == "a"));
    assert_eq!(d["active_tasks"][2]["claim"]["holder"], "b");
}

#[test]
fn an_expired_lease_is_taken_and_names_its_holder() {
    let mut d = doc();
    claim(&mut d, "T3", "a", at(NOW), at(LATER), false, STAMP).unwrap();
    // The lease ends at `expires`, exclusive.
    let took = claim(
        &mut d,
        "T3",
        "b",
        at(LATER),
        at("2026-11-30T14:00:00Z"),
        false,
        STAMP,
    );
    assert!(matches!(took, Ok(Took::Expired(c)) if c.holder == "a"));
    assert_eq!(d["active_tasks"][2]["claim"]["since"], LATER);
}

#[test]
fn done_and_unknown_tasks_are_refused() {
    let mut d = doc();
    assert_eq!(
        claim(&mut d, "T1", "a", at(NOW), at(LATER), false, STAMP),
        Err(ClaimError::Done)
    );
    assert_eq!(
        claim(&mut d, "T9", "a", at(NOW), at(LATER), false, STAMP),
        Err(ClaimError::NoSuchTask)
    );
    assert_eq!(
        release(&mut d, "T9", "a", at(NOW), false),
        Err(ClaimError::NoSuchTask)
    );
    assert_eq!(d, doc());
}

#[test]
fn a_blocked_task_claimed_stays_blocked() {
    let mut d = doc();
    claim(&mut d, "T2", "a", at(NOW), at(LATER), false, STAMP).unwrap();
    assert_eq!(d["active_tasks"][1]["status"], "blocked");
}

#[test]
fn release_rules() {
    let mut d = doc();
    assert_eq!(
        release(&mut d, "T3", "a", at(NOW), false),
        Ok(Released::Unclaimed)
    );
    claim(&mut d, "T3", "a", at(NOW), at(LATER), false, STAMP).unwrap();
    assert!(matches!(
        release(&mut d, "T3", "b", at(NOW), false),
        Err(ClaimError::Held(c)) if c.holder == "a"
    ));
    assert!(matches!(
        release(&mut d, "T3", "b", at(NOW), true),
        Ok(Released::Other(c)) if c.holder == "a"
    ));
    assert!(d["active_tasks"][2].get("claim").is_none());
    claim(&mut d, "T3", "a", at(NOW), at(LATER), false, STAMP).unwrap();
    assert_eq!(
        release(&mut d, "T3", "a", at(NOW), false),
        Ok(Released::Own)
    );
    claim(&mut d, "T3", "a", at(NOW), at(LATER), false, STAMP).unwrap();
    assert!(matches!(
        release(&mut d, "T3", "b", at(LATER), false),
        Ok(Released::Other(_))
    ));
}

#[test]
fn done_ends_any_claim_block_only_the_callers_or_an_expired_one() {
    let mut d = doc();
    claim(&mut d, "T3", "a", at(NOW), at(LATER), false, STAMP).unwrap();
    assert_eq!(
        release_on_edit(&mut d, "T3", "b", at(NOW), false),
        Released::Unclaimed
    );
    assert!(d["active_tasks"][2].get("claim").is_some());
    assert_eq!(
        release_on_edit(&mut d, "T3", "a", at(NOW), false),
        Released::Own
    );
    assert!(d["active_tasks"][2].get("claim").is_none());
    claim(&mut d, "T3", "a", at(NOW), at(LATER), false, STAMP).unwrap();
    assert!(matches!(
        release_on_edit(&mut d, "T3", "b", at(NOW), true),
        Released::Other(c) if c.holder == "a"
    ));
    assert!(d["active_tasks"][2].get("claim").is_none());
}

#[test]
fn next_is_the_first_not_done_not_blocked_not_held_by_another() {
    let mut d = doc();
    assert_eq!(next_free(&d, "a", at(NOW)).as_deref(), Some("T3"));
    claim(&mut d, "T3", "a", at(NOW), at(LATER), false, STAMP).unwrap();
    assert_eq!(
        next_free(&d, "a", at(NOW)).as_deref(),
        Some("T3"),
        "its own"
    );
    assert_eq!(next_free(&d, "b", at(NOW)).as_deref(), Some("T4"));
    claim(&mut d, "T4", "c", at(NOW), at(LATER), false, STAMP).unwrap();
    assert_eq!(next_free(&d, "b", at(NOW)), None);
    assert_eq!(
        next_free(&d, "b", at(LATER)).as_deref(),
        Some("T3"),
        "expired"
    );
}

#[test]
fn unknown_keys_of_a_claim_and_a_task_are_kept() {
    let mut d = doc();
    let tasks = d["active_tasks"].as_array_mut().unwrap();
    tasks[2]["claim"] = json!({"holder": "a", "since": NOW, "expires": NOW, "via": "x"});
    tasks[2]["extra"] = json!(1);
    claim(&mut d, "T3", "b", at(NOW), at(LATER), false, STAMP).unwrap();
    assert_eq!(d["active_tasks"][2]["claim"]["via"], "x");
    assert_eq!(d["active_tasks"][2]["claim"]["holder"], "b");
    assert_eq!(d["active_tasks"][2]["extra"], 1);
}

#[test]
fn claim_values_are_read_strictly() {
    let ok = json!({"holder": "a", "since": NOW, "expires": LATER});
    assert!(Claim::from_value(&ok).unwrap().confirmed);
    for bad in [
        json!("a"),
        json!({"holder": "", "since": NOW, "expires": LATER}),
        json!({"holder": "a", "since": "yesterday", "expires": LATER}),
        json!({"holder": "a", "since": NOW}),
        json!({"holder": "a", "since": NOW, "expires": LATER, "confirmed": "yes"}),
    ] {
        assert!(Claim::from_value(&bad).is_err(), "{bad}");
    }
}
