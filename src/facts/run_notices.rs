//! What a run ran into deep inside a command that no report carries: the stale locks
//! it took over (a lock is taken deep inside a write) and the directory the notes
//! store's index could not be kept in (a store is read deep inside a command). Every
//! command in a repository adds them to its warnings.

use std::path::PathBuf;

use crate::support::error::LockOwner;

#[derive(Debug, Default)]
pub struct RunNotices {
    /// Each stale lock taken over, with the owner its file named.
    pub stale_locks: Vec<(PathBuf, Option<LockOwner>)>,
    /// The notes index's directory, when an index could not be kept there.
    pub index_unkept: Option<PathBuf>,
}
