//! What `continue` reports: where it looked, the candidates, what it did besides the
//! briefing, and the briefing itself.

use std::path::PathBuf;

use crate::git::{CommitLine, Worktree};
use crate::model::note::Note;
use crate::model::state::Task;
use crate::services::assess::{Handover, Kind};
use crate::services::sessions::SessionDir;

/// Where the search for a handover had to go, said before the briefing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Announcement {
    /// Nothing in this worktree, but another worktree has these keys.
    OtherWorktree { path: PathBuf, keys: Vec<String> },
    /// Nothing in any worktree, but the notes store has these keys.
    Store { keys: Vec<String> },
    /// The notes store was not looked at: it has no index yet, and the hook does not
    /// build one (the next command does).
    StoreUnindexed,
    /// As [`Announcement::StoreUnindexed`], but no index can be kept in `dir` (`why`):
    /// no command will index it until that is mended.
    StoreUnkept { dir: PathBuf, why: String },
}

impl std::fmt::Display for Announcement {
    /// The English sentence of the catalog (JSON output carries this; the human
    /// output renders the same entry in the run's language).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::support::i18n::{Lang, fill};
        let text = match self {
            Announcement::OtherWorktree { path, keys } => fill(
                Lang::En,
                crate::k!("cont.other_worktree"),
                &[("path", &path.display()), ("keys", &keys.join(", "))],
            ),
            Announcement::StoreUnindexed => fill(Lang::En, crate::k!("cont.store_unindexed"), &[]),
            Announcement::StoreUnkept { dir, why } => fill(
                Lang::En,
                crate::k!("cont.store_unkept"),
                &[("dir", &dir.display()), ("why", why)],
            ),
            Announcement::Store { keys } => fill(
                Lang::En,
                crate::k!("cont.store"),
                &[("keys", &keys.join(", "))],
            ),
        };
        f.write_str(&text)
    }
}

/// A handover that could be resumed.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub handover: Handover,
    pub worktree: Worktree,
    /// What to pass to `git handover continue` to pick this one.
    pub handle: String,
}

impl Candidate {
    pub(super) fn session(&self) -> Option<SessionDir> {
        match self.handover.kind {
            Kind::Session => {
                let dir = self.handover.file.parent()?;
                let root = self
                    .handover
                    .root
                    .as_deref()
                    .map(|r| self.worktree.path.join(r))?;
                Some(SessionDir {
                    root,
                    key: self.handover.key.clone(),
                })
                .filter(|s| s.dir() == dir)
            }
            _ => None,
        }
    }
}

/// Something `continue` did besides briefing, said in one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    Migrated {
        from: PathBuf,
        key: String,
    },
    Rendered {
        path: PathBuf,
    },
    Cleaned {
        path: PathBuf,
    },
    Consumed {
        path: PathBuf,
        /// Where the copy went: a file, or the notes store (`<ref> on <commit>`).
        copy: String,
        committed: bool,
    },
    /// The note was briefed on but left where it is, or a session's `handover.md` was
    /// not regenerated: `why` is a catalog key, `detail` what git (or the system) said;
    /// `copy` names the copy kept before, if one was.
    Kept {
        path: PathBuf,
        copy: Option<String>,
        why: &'static str,
        detail: String,
    },
    /// The handover roots were added to `info/exclude` (first write in the repository).
    Excluded {
        file: PathBuf,
        patterns: Vec<String>,
    },
    /// A copy of another worktree's session was made this worktree's own.
    Adopted {
        key: String,
        from: PathBuf,
    },
    /// A diverged session was settled on the side taken.
    Took {
        key: String,
        hash: String,
    },
    /// A session found only in the notes store was written into this worktree.
    Restored {
        key: String,
        path: PathBuf,
        commit: crate::git::CommitId,
        /// The key it was saved under, when that one is another session's here.
        saved_as: Option<String>,
        /// The session's branch and the branch of the worktree it was restored into,
        /// when they differ (no worktree is on the session's branch).
        other_branch: Option<(String, Option<String>)>,
    },
}

#[derive(Debug)]
pub struct Briefing {
    pub candidate: Candidate,
    /// Last commits of the branch, for orientation.
    pub recent: Vec<CommitLine>,
    /// The tasks a successor picks up (`in_progress`, `blocked`), in order.
    pub open_tasks: Vec<Task>,
    /// Other unfinished tasks (`pending` and the like), by id.
    pub other_tasks: Vec<String>,
    /// The session's state as read for the verdicts (tasks whole, decisions, known
    /// issues, approaches, observations, notes), for a session.
    pub state: Option<std::sync::Arc<crate::model::state::View>>,
    pub note: Option<Note>,
    pub successor: bool,
    /// The caller's name for claims (SPEC section 10): the briefing gives the claim
    /// command with it, and lists the tasks others hold.
    pub holder: String,
}

#[derive(Debug)]
pub enum Outcome {
    /// Nothing to resume anywhere.
    Nothing,
    /// Several candidates and no terminal to ask on.
    Choose(Vec<Candidate>),
    /// The chosen session has no open task left.
    AllComplete(Box<Candidate>),
    /// The chosen session diverged and no side was taken: nothing is picked silently.
    Diverged {
        candidate: Box<Candidate>,
        sides: Vec<crate::facts::side::SideFacts>,
    },
    Briefing(Box<Briefing>),
}

#[derive(Debug)]
pub struct Report {
    /// "no sessions here, but worktree … has: …", when the search left this worktree.
    pub announcements: Vec<Announcement>,
    pub outcome: Outcome,
    pub effects: Vec<Effect>,
    /// Handover files that could not be read and were passed over.
    pub skipped: Vec<crate::support::error::Problem>,
    /// A handover was asked for by key or path.
    pub named: bool,
    /// Finished sessions of this worktree (not resumed; said when nothing else is).
    pub finished_here: Vec<String>,
    /// A hint to write a commit-graph, when the run read much history without one.
    pub graph_hint: Option<String>,
}
