//! The open part of the notes index (`.open`, see [`super::index_file::Open`]): what
//! the hook, `continue` and `status` list the store's sessions from, read alone when it
//! is of the ref's commit; and the hook's rule for an index that would have to be
//! built: only within a budget, otherwise answered without the store and said.

use super::index::{Within, within};
use super::index_file::Files;
use super::open_file::{self as file, Open};
use crate::git::Repo;
use crate::support::error::Result;

/// The open part of the index of `notes_ref`: what a listing of the sessions to resume
/// reads.
pub enum OpenAt {
    /// The ref has no commit: nothing in the store.
    NoRef,
    At(Open),
    /// No index this run may use: it would have to be built from every note, and this
    /// run (the hook, under its deadline) could not do that within its budget; the
    /// next command that is not a hook builds it.
    Unindexed,
}

/// The open part as of the notes ref's current commit: its file when it is of that
/// commit (nothing else is read), otherwise the index brought up to date or built
/// (see [`current`]) — under a deadline (the hook), a build only within a budget.
pub fn open(repo: &Repo, notes_ref: &str) -> Result<OpenAt> {
    let Some(now) = repo.notes_commit_of(notes_ref)? else {
        return Ok(OpenAt::NoRef);
    };
    let files = Files::at(&repo.tool_dir().notes_index(notes_ref));
    if let Some((at, open)) = file::read_open(&files, notes_ref)
        && at == now
    {
        return Ok(OpenAt::At(open));
    }
    // The hook builds an index only as far as its budget goes (a small store's);
    // otherwise it answers without the store, and the next command builds it.
    let budget = repo
        .has_deadline()
        .then(|| std::time::Instant::now() + build_budget());
    Ok(match within(repo, notes_ref, budget)? {
        Within::NoRef => OpenAt::NoRef,
        Within::At(commit, heads) => {
            // Of the ref's commit, and our file was not: written for the next reader
            // (an index built before this file existed has none).
            let open = Open::of(&heads);
            file::write_open(&files, notes_ref, commit, &open);
            OpenAt::At(open)
        }
        Within::OverBudget => {
            UNINDEXED.store(true, std::sync::atomic::Ordering::Relaxed);
            OpenAt::Unindexed
        }
    })
}

/// Set when this run answered without the store for want of an index ([`open`]).
static UNINDEXED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether this run answered without the store for want of an index.
pub fn unindexed() -> bool {
    UNINDEXED.load(std::sync::atomic::Ordering::Relaxed)
}

/// How long a run under a deadline (the hook) may spend building the index: a store
/// of a few thousand records is built in it; a larger one is left to the next command.
fn build_budget() -> std::time::Duration {
    crate::support::testing::knob("GIT_HANDOVER_TEST_INDEX_BUDGET_MS")
        .and_then(|ms| ms.parse().ok())
        .map_or(
            std::time::Duration::from_millis(300),
            std::time::Duration::from_millis,
        )
}
