//! What a write to a session did, as `save` and `task` report it: plain data, built by
//! the session service from its write transaction.

use std::path::PathBuf;

use crate::git::CommitId;
use crate::model::state::State;
use crate::support::error::Problem;

/// What a write to a session did.
#[derive(Debug)]
pub struct Saved {
    /// The session's key below its handover root.
    pub key: String,
    /// The session's directory.
    pub dir: PathBuf,
    pub created: bool,
    /// False when the state was already as asked (nothing was rewritten).
    pub changed: bool,
    pub state: State,
    /// The commit whose note in the notes store got this write's record.
    pub noted: Option<CommitId>,
    /// Sessions passed over because they could not be read (said as warnings).
    pub skipped: Vec<Problem>,
    /// What was added to `info/exclude` (said once).
    pub exclusion: Exclusion,
    /// Other READY sessions of the branch that this write passed over for the newest.
    pub others: Vec<String>,
    /// Keys and task statuses of the input the format does not know, kept as written
    /// (said as warnings, and under `--json`).
    pub unknown: Vec<crate::model::state::known::Unknown>,
    /// The write went into a finished session of the branch (finished within
    /// `handover.freshFor`) or of the team, reopening it, instead of starting one.
    pub reopened: bool,
    /// A new session was started although the branch has a finished one, finished
    /// longer than `handover.freshFor` ago: its key.
    pub passed_over: Option<String>,
}

/// What keeping the handover roots out of commits did to `info/exclude`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Exclusion {
    /// The `info/exclude` file.
    pub file: PathBuf,
    /// Patterns added now.
    pub added: Vec<String>,
    /// Roots left out because files under them are tracked (said the first time).
    pub tracked: Vec<String>,
}
