//! What checking a handover against git found: the verdicts `status` reports and
//! `continue` briefs on, built by `services::assess`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;

use crate::git::{NewerCommits, Worktree};
use crate::model::state::{SessionStatus, View};
use crate::model::verdict::{CommitCheck, Freshness, Presence};
use crate::support::error::Problem;

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
    /// Where a session found only in the notes store was read from.
    pub stored: Option<Stored>,
    /// The file is tracked by git: it travels with every checkout (issue 19).
    pub tracked: bool,
    /// The session belongs to another worktree of the repository (its
    /// `workspace.root`): a copy that arrived with a checkout or a merge.
    pub copy_of: Option<PathBuf>,
    /// The state as it was read for the verdicts, so that a briefing does not read the
    /// file again.
    pub view: Option<Arc<View>>,
    pub reading: Reading,
}

/// What reading a handover found: it could not be read (and why), or it was read and
/// judged against git.
#[derive(Debug, Clone)]
pub enum Reading {
    Invalid(Problem),
    Read(Box<Assessment>),
}

impl Handover {
    /// Why the file could not be read, if it could not.
    pub fn error(&self) -> Option<&Problem> {
        match &self.reading {
            Reading::Invalid(p) => Some(p),
            Reading::Read(_) => None,
        }
    }

    /// The verdicts, when the file could be read.
    pub fn assessment(&self) -> Option<&Assessment> {
        match &self.reading {
            Reading::Read(a) => Some(a),
            Reading::Invalid(_) => None,
        }
    }

    pub fn needs_attention(&self) -> bool {
        match &self.reading {
            Reading::Invalid(_) => true,
            Reading::Read(a) => a.needs_attention(),
        }
    }
}

/// A session read from the notes store rather than from a file.
#[derive(Debug, Clone)]
pub struct Stored {
    /// The commit whose note holds the record.
    pub commit: crate::git::CommitId,
    pub saved_at: Timestamp,
    /// The worktree the record was saved in.
    pub worktree: Option<String>,
    /// The whole state document, for `continue` to restore.
    pub state: crate::model::record::StateText,
    /// The key it was saved under, when it is listed under another (that one is
    /// another session's here, or too deep for the scan).
    pub saved_as: Option<String>,
}

#[derive(Debug, Clone)]
pub struct TaskBrief {
    pub id: String,
    pub description: String,
    pub status: crate::model::state::TaskStatus,
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

/// The verdicts every handover gets, and what is particular to its kind.
#[derive(Debug, Clone)]
pub struct Assessment {
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
    pub presence: Presence,
    pub commits: Vec<CommitCheck>,
    /// The remote-tracking branch commits were checked against (the handover's branch
    /// is not here), e.g. `origin/feature`.
    pub checked_against: Option<String>,
    /// The handover's branch is gone, and its recorded commits are all on the branch
    /// of this worktree (named here): it was renamed, most likely.
    pub renamed_to: Option<String>,
    /// The repository's history could not be read (a damaged pack or commit-graph):
    /// commits are unchecked and newer work unknown, so nothing here is called fresh.
    pub history_unreadable: bool,
    /// The history check stopped at the hook's deadline: commits the walk had not
    /// reached are unchecked, and rewritten copies may not all be known.
    pub history_cut_short: bool,
    /// A shallow clone: recorded commits it does not have are unchecked, its history
    /// ending before them.
    pub history_shallow: bool,
    pub warnings: Vec<crate::support::error::Msg>,
    pub of: Of,
}

/// What an assessment holds for its kind of handover.
#[derive(Debug, Clone)]
pub enum Of {
    /// A structured session (or legacy state).
    Session(SessionFacts),
    /// A continue-here note.
    Note(NoteBrief),
}

/// What a structured session says of itself.
#[derive(Debug, Clone)]
pub struct SessionFacts {
    pub status: SessionStatus,
    pub session_id: Option<String>,
    /// A team session (a structured session without `workspace.branch`).
    pub team: bool,
    pub workspace_root: Option<String>,
    pub done: usize,
    pub total: usize,
    pub next: Option<TaskBrief>,
    pub stale_tasks: Vec<StaleTask>,
    /// The claims on tasks not done (SPEC section 10), in task order.
    pub claims: Vec<TaskClaim>,
    /// Claims of tasks lost to another clone's (task id, what was lost), told to their
    /// holders.
    pub lost: Vec<(String, crate::model::claim::Lost)>,
    /// The agent session that wrote it, its resume command, who picked it up.
    pub linkage: Box<crate::facts::linkage::Linkage>,
}

/// A claim on a task, as seen at `now` (the run's time).
#[derive(Debug, Clone)]
pub struct TaskClaim {
    pub task: String,
    pub claim: crate::model::claim::Claim,
    pub now: Timestamp,
}

impl TaskClaim {
    pub fn expired(&self) -> bool {
        !self.claim.is_live(self.now)
    }
}

impl Assessment {
    /// The session's own facts, for a structured session.
    pub fn session(&self) -> Option<&SessionFacts> {
        match &self.of {
            Of::Session(s) => Some(s),
            Of::Note(_) => None,
        }
    }

    /// The note's sections, for a continue-here note.
    pub fn note(&self) -> Option<&NoteBrief> {
        match &self.of {
            Of::Note(n) => Some(n),
            Of::Session(_) => None,
        }
    }

    /// Whether every task is done (a note is never finished).
    pub fn finished(&self) -> bool {
        self.session()
            .is_some_and(|s| s.status == SessionStatus::AllComplete)
    }

    /// Whether this handover needs a person's (or an agent's) attention: an open
    /// handover that is superseded, dated in the future, orphaned, has a commit that
    /// does not check out, or has stale tasks. Finished sessions need none; offline
    /// worktrees are deliberate.
    pub fn needs_attention(&self) -> bool {
        if self.finished() {
            return false;
        }
        matches!(
            self.freshness,
            Some(Freshness::Superseded | Freshness::Future)
        ) || self.presence == Presence::Orphan
            || self.history_unreadable
            || self.commits.iter().any(CommitCheck::needs_attention)
            || self.session().is_some_and(|s| !s.stale_tasks.is_empty())
            || self
                .session()
                .is_some_and(|s| s.claims.iter().any(TaskClaim::expired))
    }
}

#[derive(Debug, Clone)]
pub struct WorktreeHandovers {
    pub worktree: Worktree,
    pub current: bool,
    pub handovers: Vec<Handover>,
}
