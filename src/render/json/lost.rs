//! Claims lost to another clone's (SPEC section 10) as JSON: a task's `lost_claim`, and
//! the `lost_claims` of a session that `status`, `continue` and the task verbs list.

use serde::Serialize;

/// A claim of a task lost to another clone's (`lost_claim`, SPEC section 10): whose
/// claim, since when, who won it and when it was found lost.
#[derive(Serialize)]
pub struct LostClaimV1 {
    pub holder: String,
    /// RFC 3339, UTC.
    pub since: String,
    pub winner: String,
    pub at: String,
}

pub fn lost_claim_v1(l: &crate::model::claim::Lost) -> LostClaimV1 {
    LostClaimV1 {
        holder: l.holder.clone(),
        since: crate::model::claim::format_utc(l.since),
        winner: l.winner.clone(),
        at: crate::model::claim::format_utc(l.at),
    }
}

/// A lost claim with its task, as `status`, `continue` and the task verbs list them.
#[derive(Serialize)]
pub struct TaskLostClaimV1 {
    pub task: String,
    #[serde(flatten)]
    pub lost: LostClaimV1,
}

/// The lost claims `state` tells of, in task order.
pub fn lost_claims_v1(state: &crate::model::state::State) -> Vec<TaskLostClaimV1> {
    state
        .tasks
        .iter()
        .filter_map(|t| {
            Some(TaskLostClaimV1 {
                task: t.id.clone(),
                lost: lost_claim_v1(t.lost.as_ref()?),
            })
        })
        .collect()
}
