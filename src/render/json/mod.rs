//! JSON output: versioned structs, kept apart from internal types so that the schema
//! changes only on purpose. Every document names its schema.

mod briefing;
pub mod claims;
mod doctor;
pub mod linkage;
mod log;
pub mod lost;
pub mod settled;
mod stream;
mod why;
mod writes;

use serde::Serialize;

pub use briefing::*;
pub use doctor::doctor;
pub use log::{log_end, log_record, log_start};
pub use stream::{to_string, write_status};
pub use why::why;
pub use writes::*;

use crate::commands::status;
use crate::facts::assessed::{Assessment, Handover};
use crate::git::Worktree;

pub const STATUS_SCHEMA: &str = "git-handover/status/1";

#[derive(Serialize)]
pub struct StatusV1 {
    pub schema: &'static str,
    pub now: String,
    pub needs_attention: bool,
    pub worktrees: Vec<WorktreeV1>,
    /// Sessions found only in the notes store.
    pub stored: Vec<HandoverV1>,
    /// Sessions written on two clones from one state: every side, nothing picked.
    pub diverged: Vec<DivergedV1>,
}

#[derive(Serialize)]
pub struct DivergedV1 {
    pub key: String,
    pub session_id: String,
    pub sides: Vec<SideV1>,
}

#[derive(Serialize)]
pub struct SideV1 {
    /// The state's `session_hash`: what `continue --take` names.
    pub hash: String,
    pub seq: Option<u64>,
    pub saved_at: String,
    pub worktree: Option<String>,
    /// The commit whose note holds the record.
    pub commit: String,
    pub status: String,
    pub done: usize,
    pub total: usize,
    pub next: Option<String>,
    /// The tasks (`id (status)`) that set this side apart from the others.
    pub differs: Vec<String>,
}

#[derive(Serialize)]
pub struct WorktreeV1 {
    pub path: String,
    pub main: bool,
    pub current: bool,
    pub bare: bool,
    pub exists: bool,
    pub branch: Option<String>,
    pub head: Option<String>,
    pub detached: bool,
    pub locked: bool,
    pub lock_reason: Option<String>,
    pub prunable: bool,
    pub handovers: Vec<HandoverV1>,
}

#[derive(Serialize)]
pub struct HandoverV1 {
    pub kind: &'static str,
    pub key: String,
    pub root: Option<String>,
    pub path: String,
    pub valid: bool,
    pub error: Option<String>,
    pub needs_attention: bool,
    /// Only for a session read from the notes store.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stored: Option<StoredV1>,
    /// The file is tracked by git (it travels with checkouts).
    pub tracked: bool,
    /// The worktree whose session this is a copy of, when it is one.
    pub copy_of: Option<String>,
    #[serde(flatten)]
    pub details: Option<DetailsV1>,
}

#[derive(Serialize)]
pub struct StoredV1 {
    /// The commit whose note holds the record.
    pub commit: String,
    pub saved_at: String,
    pub worktree: Option<String>,
}

#[derive(Serialize)]
pub struct DetailsV1 {
    pub status: Option<String>,
    pub session_id: Option<String>,
    pub team: bool,
    pub branch: Option<String>,
    pub written_at: Option<String>,
    pub written_from_mtime: bool,
    pub age_seconds: Option<u64>,
    pub freshness: Option<&'static str>,
    pub branch_matches: bool,
    pub newer_commits: NewerV1,
    pub workspace_root: Option<String>,
    /// The remote-tracking branch commits were checked against, when the branch is
    /// not local (`origin/feature`).
    pub checked_against: Option<String>,
    /// The handover's branch is gone and its commits are on this branch: renamed?
    pub renamed_to: Option<String>,
    pub presence: &'static str,
    /// `null` for a continue-here note, which has no task list.
    pub tasks: Option<TasksV1>,
    pub next_task: Option<TaskV1>,
    pub commits: Vec<CommitV1>,
    pub stale_tasks: Vec<StaleTaskV1>,
    /// The claims on tasks not done (SPEC section 10); absent when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<claims::TaskClaimV1>,
    /// The claims of tasks lost to another clone's, told to their holders (SPEC
    /// section 10); absent when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lost_claims: Vec<lost::TaskLostClaimV1>,
    /// The agent session that wrote the state and how to resume it (issue 34);
    /// absent when no agent session is recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_session: Option<linkage::AgentSessionV1>,
    /// Who picked the state up, or for how long nobody has (`status` only); absent
    /// where not asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pickup: Option<linkage::PickupV1>,
    pub note: Option<NoteV1>,
    pub warnings: Vec<String>,
}

#[derive(Serialize)]
pub struct NewerV1 {
    pub count: usize,
    pub newest: Vec<CommitLineV1>,
}

#[derive(Serialize)]
pub struct CommitLineV1 {
    pub sha: String,
    pub subject: String,
}

#[derive(Serialize)]
pub struct TasksV1 {
    pub done: usize,
    pub total: usize,
}

#[derive(Serialize)]
pub struct TaskV1 {
    pub id: String,
    pub status: String,
    pub description: String,
}

#[derive(Serialize)]
pub struct CommitV1 {
    pub task: String,
    pub recorded: String,
    pub state: &'static str,
    pub sha: Option<String>,
    pub rewritten: Option<String>,
}

#[derive(Serialize)]
pub struct StaleTaskV1 {
    pub id: String,
    pub untouched_seconds: u64,
}

#[derive(Serialize)]
pub struct NoteV1 {
    pub objective: Option<String>,
    pub in_progress: Vec<String>,
    pub next_steps: Vec<String>,
    pub user_items: Vec<String>,
    pub missing_sections: Vec<&'static str>,
    pub missing_header: Vec<&'static str>,
}

pub fn status(report: &status::Report) -> StatusV1 {
    StatusV1 {
        worktrees: report.worktrees.iter().map(worktree_of).collect(),
        ..status_without_worktrees(report)
    }
}

/// A worktree of the status document, with its handovers.
pub(super) fn worktree_of(w: &crate::facts::assessed::WorktreeHandovers) -> WorktreeV1 {
    WorktreeV1 {
        handovers: w.handovers.iter().map(handover).collect(),
        current: w.current,
        ..worktree(&w.worktree)
    }
}

/// The status document with no worktrees (they are rendered apart).
pub(super) fn status_without_worktrees(report: &status::Report) -> StatusV1 {
    StatusV1 {
        schema: STATUS_SCHEMA,
        now: time(report.now),
        needs_attention: report.attention_count() > 0,
        worktrees: Vec::new(),
        stored: report.stored.iter().map(handover).collect(),
        diverged: report
            .diverged
            .iter()
            .map(|d| DivergedV1 {
                key: d.key.clone(),
                session_id: d.session_id.clone(),
                sides: d.sides.iter().map(side).collect(),
            })
            .collect(),
    }
}

pub(super) fn side(side: &crate::facts::side::SideFacts) -> SideV1 {
    SideV1 {
        hash: side.hash.clone(),
        seq: side.seq,
        saved_at: side.saved_at.to_string(),
        worktree: side.worktree.clone(),
        commit: side.commit.to_string(),
        status: side.status.clone(),
        done: side.done,
        total: side.total,
        next: side.next.clone(),
        differs: side.differs.clone(),
    }
}

pub(super) fn worktree(w: &Worktree) -> WorktreeV1 {
    WorktreeV1 {
        path: w.path.display().to_string(),
        main: w.is_main,
        current: false,
        bare: w.is_bare,
        exists: w.exists,
        branch: w.branch.clone(),
        head: w.head.map(|h| h.to_string()),
        detached: w.detached,
        locked: w.locked.is_some(),
        lock_reason: w.locked.clone(),
        prunable: w.prunable,
        handovers: Vec::new(),
    }
}

pub(super) fn handover(h: &Handover) -> HandoverV1 {
    HandoverV1 {
        kind: h.kind.as_str(),
        key: h.key.clone(),
        root: h.root.clone(),
        path: h.file.display().to_string(),
        valid: h.error().is_none(),
        error: h.error().map(ToString::to_string),
        needs_attention: h.needs_attention(),
        tracked: h.tracked,
        copy_of: h.copy_of.as_ref().map(|p| p.display().to_string()),
        stored: h.stored.as_ref().map(|s| StoredV1 {
            commit: s.commit.to_string(),
            saved_at: time(s.saved_at),
            worktree: s.worktree.clone(),
        }),
        details: h.assessment().map(details),
    }
}

pub(super) fn details(a: &Assessment) -> DetailsV1 {
    let s = a.session();
    DetailsV1 {
        status: s.map(|s| s.status.as_str().to_owned()),
        session_id: s.and_then(|s| s.session_id.clone()),
        team: s.is_some_and(|s| s.team),
        branch: a.branch.clone(),
        written_at: a.written_at.map(time),
        written_from_mtime: a.written_from_mtime,
        age_seconds: a.age.map(|d| d.as_secs()),
        freshness: a.freshness.map(crate::model::verdict::Freshness::as_str),
        branch_matches: a.branch_matches,
        newer_commits: NewerV1 {
            count: a.newer.count,
            newest: a
                .newer
                .newest
                .iter()
                .map(|c| CommitLineV1 {
                    sha: c.id.to_string(),
                    subject: c.subject.clone(),
                })
                .collect(),
        },
        workspace_root: s.and_then(|s| s.workspace_root.clone()),
        checked_against: a.checked_against.clone(),
        renamed_to: a.renamed_to.clone(),
        presence: a.presence.as_str(),
        tasks: s.map(|s| TasksV1 {
            done: s.done,
            total: s.total,
        }),
        next_task: s.and_then(|s| s.next.as_ref()).map(|t| TaskV1 {
            id: t.id.clone(),
            status: t.status.as_str().to_owned(),
            description: t.description.clone(),
        }),
        commits: a
            .commits
            .iter()
            .map(|c| CommitV1 {
                task: c.task_id.clone(),
                recorded: c.recorded.clone(),
                state: c.state.as_str(),
                sha: c.full.clone(),
                rewritten: c.rewritten.clone(),
            })
            .collect(),
        stale_tasks: s
            .map(|s| s.stale_tasks.as_slice())
            .unwrap_or_default()
            .iter()
            .map(|s| StaleTaskV1 {
                id: s.id.clone(),
                untouched_seconds: s.untouched_for.as_secs(),
            })
            .collect(),
        claims: s
            .map(|s| s.claims.as_slice())
            .unwrap_or_default()
            .iter()
            .map(claims::task_claim_v1)
            .collect(),
        lost_claims: s
            .map(|s| s.lost.as_slice())
            .unwrap_or_default()
            .iter()
            .map(|(task, l)| lost::TaskLostClaimV1 {
                task: task.clone(),
                lost: lost::lost_claim_v1(l),
            })
            .collect(),
        agent_session: s.and_then(|s| linkage::agent_session_v1(&s.linkage)),
        pickup: s.and_then(|s| linkage::pickup_v1(&s.linkage)),
        note: a.note().map(|n| NoteV1 {
            objective: n.objective.clone(),
            in_progress: n.in_progress.clone(),
            next_steps: n.next_steps.clone(),
            user_items: n.user_items.clone(),
            missing_sections: n.missing_sections.clone(),
            missing_header: n.missing_header.clone(),
        }),
        warnings: a.warnings.iter().map(ToString::to_string).collect(),
    }
}

/// A time in JSON: RFC 3339 in UTC, whole seconds (`2026-11-30T12:00:00Z`), the same
/// precision everywhere (docs/json.md).
pub fn time(t: jiff::Timestamp) -> String {
    crate::support::clock::utc_seconds(t)
}
