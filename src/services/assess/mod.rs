//! Checking every handover found against git: the facts `status` reports and
//! `continue` briefs on. Reads files and the repository; writes nothing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use jiff::Timestamp;

use crate::git::{CommitId, NewerCommits, NewerQuery, Repo, Worktree};
use crate::model::note::{Known, Note};
use crate::model::state::State;
use crate::model::verdict::{self, CommitCheck, Freshness, Presence, RegisteredWorktree};
use crate::services::scan::{self, Found};
use crate::support::config::Settings;
use crate::support::error::Result;

mod judge;
mod read;

use judge::judge;
use read::read_found;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Session,
    Legacy,
    ContinueHere,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Session => "session",
            Kind::Legacy => "legacy",
            Kind::ContinueHere => "continue-here",
        }
    }
}

/// One handover found in a worktree, checked.
#[derive(Debug, Clone)]
pub struct Handover {
    pub kind: Kind,
    /// The session key, or the file's path relative to the worktree.
    pub key: String,
    /// The handover root a session lives in (relative to the worktree).
    pub root: Option<String>,
    /// The file read (`project-state.json` or the note).
    pub file: PathBuf,
    /// What is wrong with the file, when it could not be read.
    pub error: Option<crate::support::error::Problem>,
    pub assessment: Option<Assessment>,
    /// Where a session found only in the notes store was read from.
    pub stored: Option<Stored>,
}

/// A session read from the notes store rather than from a file.
#[derive(Debug, Clone)]
pub struct Stored {
    /// The commit whose note holds the record.
    pub commit: String,
    pub saved_at: Timestamp,
    /// The worktree the record was saved in.
    pub worktree: Option<String>,
    /// The whole state document, for `continue` to restore.
    pub state: serde_json::Map<String, serde_json::Value>,
}

#[derive(Debug, Clone)]
pub struct TaskBrief {
    pub id: String,
    pub description: String,
    pub status: String,
}

#[derive(Debug, Clone)]
pub struct StaleTask {
    pub id: String,
    pub untouched_for: Duration,
}

#[derive(Debug, Clone, Default)]
pub struct NoteBrief {
    pub objective: Option<String>,
    pub in_progress: Vec<String>,
    pub next_steps: Vec<String>,
    pub user_items: Vec<String>,
    pub missing_sections: Vec<&'static str>,
    pub missing_header: Vec<&'static str>,
}

#[derive(Debug, Clone)]
pub struct Assessment {
    /// `READY` or `ALL_COMPLETE` for structured state; `None` for a note.
    pub status: Option<String>,
    pub session_id: Option<String>,
    /// A team session (a structured session without `workspace.branch`).
    pub team: bool,
    /// The branch the handover was written on, when it says.
    pub branch: Option<String>,
    pub written_at: Option<Timestamp>,
    /// True when the time comes from the file's modification time.
    pub written_from_mtime: bool,
    pub age: Option<Duration>,
    /// How far ahead of this clock the handover is dated, beyond the allowed skew.
    pub ahead: Option<Duration>,
    pub freshness: Option<Freshness>,
    pub branch_matches: bool,
    pub newer: NewerCommits,
    pub workspace_root: Option<String>,
    pub presence: Presence,
    pub done: usize,
    pub total: usize,
    pub next: Option<TaskBrief>,
    pub commits: Vec<CommitCheck>,
    pub stale_tasks: Vec<StaleTask>,
    pub note: Option<NoteBrief>,
    pub warnings: Vec<crate::support::error::Msg>,
}

impl Assessment {
    /// Whether this handover needs a person's (or an agent's) attention: an open
    /// handover that is superseded, orphaned, has a commit that does not check out, or
    /// has stale tasks. Finished sessions need none; offline worktrees are deliberate.
    pub fn needs_attention(&self) -> bool {
        if self.status.as_deref() == Some(crate::model::state::ALL_COMPLETE) {
            return false;
        }
        matches!(
            self.freshness,
            Some(Freshness::Superseded | Freshness::Future)
        ) || self.presence == Presence::Orphan
            || self.commits.iter().any(CommitCheck::needs_attention)
            || !self.stale_tasks.is_empty()
    }
}

impl Handover {
    pub fn needs_attention(&self) -> bool {
        self.error.is_some()
            || self
                .assessment
                .as_ref()
                .is_some_and(Assessment::needs_attention)
    }
}

#[derive(Debug, Clone)]
pub struct WorktreeHandovers {
    pub worktree: Worktree,
    pub current: bool,
    pub handovers: Vec<Handover>,
}

/// What was read from disk, before git is asked anything.
pub(super) enum Parsed {
    State(Box<State>),
    Note(Note),
}

pub(super) struct Pending {
    pub(super) handover: Handover,
    pub(super) parsed: Option<Parsed>,
    /// Where commits are checked: the handover's branch, else the worktree's HEAD.
    pub(super) tip: Option<CommitId>,
    pub(super) written: Option<(Timestamp, bool)>,
}

/// Scan `worktrees` (those with `include` true) and check everything found against git.
pub fn assess(
    repo: &Repo,
    settings: &Settings,
    now: Timestamp,
    worktrees: &[Worktree],
    include: impl Fn(&Worktree) -> bool,
    current: Option<&Path>,
) -> Result<Vec<WorktreeHandovers>> {
    let found = worktrees
        .iter()
        .enumerate()
        .filter(|(_, wt)| include(wt))
        .map(|(wi, wt)| {
            let found = if wt.exists && !wt.is_bare {
                scan::scan_worktree(&wt.path, &settings.dir)
            } else {
                Vec::new()
            };
            (wi, found)
        })
        .collect();
    check(repo, settings, now, worktrees, found, current)
}

/// Check the handovers `found` in the worktrees (by index into `worktrees`) against git:
/// every recorded commit in one walk, newer commits in one walk per branch.
pub fn check(
    repo: &Repo,
    settings: &Settings,
    now: Timestamp,
    worktrees: &[Worktree],
    found: Vec<(usize, Vec<Found>)>,
    current: Option<&Path>,
) -> Result<Vec<WorktreeHandovers>> {
    let pending_by_worktree: Vec<(usize, Vec<Pending>)> = found
        .into_iter()
        .map(|(wi, items)| {
            (
                wi,
                items
                    .iter()
                    .map(|f| read_found(repo, &worktrees[wi], f))
                    .collect(),
            )
        })
        .collect();

    // One walk for every recorded commit of every handover.
    let mut queries: Vec<(String, CommitId)> = Vec::new();
    let mut query_owner: Vec<(usize, usize, String)> = Vec::new();
    for (pi, (_, pending)) in pending_by_worktree.iter().enumerate() {
        for (hi, p) in pending.iter().enumerate() {
            let (Some(Parsed::State(state)), Some(tip)) = (&p.parsed, p.tip) else {
                continue;
            };
            for task in &state.tasks {
                if let Some(sha) = &task.commit_sha {
                    queries.push((sha.clone(), tip));
                    query_owner.push((pi, hi, task.id.clone()));
                }
            }
        }
    }
    let answers = repo.check_commits(&queries)?;
    let mut checks: HashMap<(usize, usize), Vec<CommitCheck>> = HashMap::new();
    for (((pi, hi, task_id), (sha, _)), answer) in
        query_owner.into_iter().zip(&queries).zip(answers)
    {
        checks.entry((pi, hi)).or_default().push(CommitCheck {
            task_id,
            recorded: sha.clone(),
            state: answer.state,
            full: answer.full,
            rewritten: answer.rewritten,
        });
    }

    // Newer commits, one walk per branch.
    let mut newer_index: Vec<(usize, usize)> = Vec::new();
    let mut excludes: Vec<Vec<String>> = Vec::new();
    let mut newer_inputs: Vec<(CommitId, Timestamp)> = Vec::new();
    for (pi, (_, pending)) in pending_by_worktree.iter().enumerate() {
        for (hi, p) in pending.iter().enumerate() {
            let (Some(tip), Some((written, _))) = (p.tip, p.written) else {
                continue;
            };
            let own: Vec<String> = checks
                .get(&(pi, hi))
                .into_iter()
                .flatten()
                .filter_map(|c| c.full.clone())
                .collect();
            newer_index.push((pi, hi));
            excludes.push(own);
            newer_inputs.push((tip, written));
        }
    }
    let newer_queries: Vec<NewerQuery<'_>> = newer_inputs
        .iter()
        .zip(&excludes)
        .map(|((tip, since), exclude)| NewerQuery {
            tip: *tip,
            since: *since,
            exclude,
        })
        .collect();
    let newer_answers = repo.newer_commits(&newer_queries)?;
    let mut newer: HashMap<(usize, usize), NewerCommits> =
        newer_index.into_iter().zip(newer_answers).collect();

    let mut out = Vec::new();
    for (pi, (wi, pending)) in pending_by_worktree.into_iter().enumerate() {
        let wt = &worktrees[wi];
        let handovers = pending
            .into_iter()
            .enumerate()
            .map(|(hi, p)| {
                let commits = checks.remove(&(pi, hi)).unwrap_or_default();
                let newer = newer.remove(&(pi, hi)).unwrap_or_default();
                judge(p, wt, worktrees, settings, now, commits, newer)
            })
            .collect();
        out.push(WorktreeHandovers {
            worktree: wt.clone(),
            current: current.is_some_and(|c| c == wt.path),
            handovers,
        });
    }
    Ok(out)
}
