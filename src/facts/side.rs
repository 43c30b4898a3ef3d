//! One side of a diverged session as a report shows it: the record's own facts, its
//! state in short, and the tasks that set it apart from the other sides. Built by
//! `services::notes_store::shown` from the store's sides.

use jiff::Timestamp;

use crate::git::CommitId;

#[derive(Debug, Clone)]
pub struct SideFacts {
    /// The commit whose note holds the record.
    pub commit: CommitId,
    /// The state's own hash, how a side is named (`continue --take`).
    pub hash: String,
    pub seq: Option<u64>,
    pub saved_at: Timestamp,
    /// The worktree the record was saved in.
    pub worktree: Option<String>,
    /// The state's status, tasks done of all, and the next open task's id.
    pub status: String,
    pub done: usize,
    pub total: usize,
    pub next: Option<String>,
    /// `id (status)` of each task whose id and status are not on every side.
    pub differs: Vec<String>,
}
