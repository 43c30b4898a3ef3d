//! Claims as JSON: a task's claim, and the documents of `task claim|next|release`.

use serde::Serialize;

use super::lost::{TaskLostClaimV1, lost_claims_v1};
use super::writes::{ClaimV1, claim_v1};
use crate::commands::task::{Act, ClaimReport};
use crate::model::claim::{Claim, Released, Took};

/// A claim as status shows it: the claim, whether it ran out, how long is left.
#[derive(Serialize)]
pub struct ClaimStatusV1 {
    #[serde(flatten)]
    pub claim: ClaimV1,
    pub expired: bool,
    /// Seconds until it expires (0 once expired).
    pub left_seconds: u64,
    /// Seconds since it was taken.
    pub age_seconds: u64,
}

pub fn claim_status_v1(c: &Claim, now: jiff::Timestamp) -> ClaimStatusV1 {
    let secs = |a: jiff::Timestamp, b: jiff::Timestamp| {
        u64::try_from(b.duration_since(a).as_secs()).unwrap_or(0)
    };
    ClaimStatusV1 {
        claim: claim_v1(c),
        expired: !c.is_live(now),
        left_seconds: secs(now, c.expires),
        age_seconds: secs(c.since, now),
    }
}

/// A task's claim in `status`: the task, then the claim as status shows it.
#[derive(Serialize)]
pub struct TaskClaimV1 {
    pub task: String,
    #[serde(flatten)]
    pub claim: ClaimStatusV1,
}

pub fn task_claim_v1(c: &crate::facts::assessed::TaskClaim) -> TaskClaimV1 {
    TaskClaimV1 {
        task: c.task.clone(),
        claim: claim_status_v1(&c.claim, c.now),
    }
}

#[derive(Serialize)]
pub struct ClaimReportV1 {
    pub schema: &'static str,
    pub key: String,
    pub path: String,
    pub holder: String,
    /// `claimed`, `renewed`, `took_expired`, `forced`, `released`, `released_other`,
    /// `not_claimed`, or `shown` (`next` without `--claim`).
    pub action: &'static str,
    /// The claim it replaced or released, another holder's.
    pub previous: Option<ClaimV1>,
    /// The task, whole, as it stands after the verb (its claim included).
    pub task: super::writes::TaskV1,
    pub changed: bool,
    pub noted: Option<String>,
    /// The remote the verb was decided on (`--remote`, `handover.claimRemote`).
    pub remote: Option<String>,
    /// Why the remote could not confirm the claim (it could not be reached): the claim
    /// is local, `confirmed: false`, until a sync. `null` when confirmed or no remote.
    pub unconfirmed: Option<String>,
    /// The claims of the session's tasks lost to another clone's, told to their
    /// holders (the verb's own task says its `lost_claim` too); absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lost_claims: Vec<TaskLostClaimV1>,
}

pub fn report(r: &ClaimReport) -> String {
    let (action, previous) = match &r.act {
        Act::Shown => ("shown", None),
        Act::Claimed(Took::New) => ("claimed", None),
        Act::Claimed(Took::Renewed) => ("renewed", None),
        Act::Claimed(Took::Expired(c)) => ("took_expired", Some(claim_v1(c))),
        Act::Claimed(Took::Forced(c)) => ("forced", Some(claim_v1(c))),
        Act::Released(Released::Own) => ("released", None),
        Act::Released(Released::Other(c)) => ("released_other", Some(claim_v1(c))),
        Act::Released(Released::Unclaimed) => ("not_claimed", None),
    };
    let schema = match &r.act {
        _ if r.next => "git-handover/task-next/1",
        Act::Released(_) => "git-handover/task-release/1",
        _ => "git-handover/task-claim/1",
    };
    let i = r
        .state
        .tasks
        .iter()
        .position(|t| t.id == r.task)
        .expect("the verb's task is in the state");
    super::to_string(&ClaimReportV1 {
        schema,
        key: r.key.clone(),
        path: r.path.display().to_string(),
        holder: r.holder.clone(),
        action,
        previous,
        task: super::writes::task_v1(&r.state, i),
        changed: r.written.as_ref().is_some_and(|w| w.changed),
        noted: r
            .written
            .as_ref()
            .and_then(|w| w.noted.map(|c| c.to_string())),
        remote: r.remote.clone(),
        unconfirmed: r.unconfirmed.clone(),
        lost_claims: lost_claims_v1(&r.state),
    })
}
