//! A history session: the run's state for history questions, owned by the caller.

use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Instant;

use super::compact::Compact;
use super::{Repo, SLOW_WALK};

/// One run's history questions, asked of a [`Repo`] ([`Repo::history`]): the caller
/// opens it once for a run, asks its batch questions through it
/// ([`History::check_commits`], [`History::newer_commits`], ...), and drops it when the
/// history questions are answered.
///
/// # What is cached
///
/// - The commit-graph, mapped when first needed and shared by every walk of the
///   session (each opening maps the file again, and a mapping per walk adds up in
///   the resident size of a run with many branch tips).
/// - The stamp of the graph files the graph was opened from (name, inode, size,
///   modification time), to know whether a verification is of those files.
/// - A compact copy of the graph's records, read ahead on another thread
///   ([`History::read_graph_ahead`]) for the walks of the session.
/// - Whether the graph was found damaged, and why: from then on the session reads the
///   history from the objects alone.
/// - On disk, in [`ToolDir::graph_verified`]: the stamp of the last graph that held up
///   under verification, so that a later run does not hash the same files again.
///
/// # What is NOT cached
///
/// - Commits, subjects and reachability answers: every batch walks again. (The count
///   of commits its walks read without a graph is kept, for
///   [`History::commit_graph_hint`].)
/// - Refs and branch tips: they are the caller's to read ([`Repo::branch_tip`]).
/// - The packs read git's way and the object store that never refreshes: they belong
///   to the [`Repo`], not to a session.
///
/// # How long, and what invalidates it
///
/// The graph and the compact copy live until the session is dropped, or until a
/// verification hashed the graph (its pages are let go of then; the graph is mapped
/// again when next asked for). The damage lasts for the session. The stamp on disk is
/// replaced by the next good verification, and stands only while the graph files are
/// the same (any rewrite of them changes the stamp, and the graph is verified again).
///
/// # Invariants
///
/// - A negative verdict read from the graph is given only after the graph held up.
/// - Once the deadline has passed, every answer of the session says it was cut short
///   (`cut_short`): what was not known by then is unknown, never guessed.
/// - Every answer carries the damage found so far in the session (`damaged`).
pub struct History<'r> {
    pub(super) repo: &'r Repo,
    /// The commit-graph (`None`: not opened; `Some(None)`: there is none).
    #[allow(clippy::option_option)]
    graph: Option<Option<Rc<gix::commitgraph::Graph>>>,
    /// The graph files as they were when the graph was opened ([`Repo::graph_stamp`]).
    graph_opened: Option<String>,
    /// The compact copy read ahead for this session's walks; let go with the graph.
    pub(super) compact: Option<Rc<Compact>>,
    /// Why the commit-graph is not used any more this session.
    damaged: Option<String>,
    /// When history questions stop being asked (the repository's deadline when the
    /// session was opened, [`Repo::set_deadline`]).
    deadline: Option<Instant>,
    /// Whether a history question was stopped by the deadline.
    cut_short: bool,
    /// Commits read from objects (not from a commit-graph) by this session's walks.
    walked_without_graph: usize,
}

impl Repo {
    /// Open a history session for this run ([`History`]).
    pub fn history(&self) -> History<'_> {
        History {
            repo: self,
            graph: None,
            graph_opened: None,
            compact: None,
            damaged: None,
            deadline: self.deadline,
            cut_short: false,
            walked_without_graph: 0,
        }
    }

    /// The tool's own directory in this repository's git directory.
    pub fn tool_dir(&self) -> ToolDir {
        ToolDir(crate::support::paths::lexical(self.repo.common_dir()).join("git-handover"))
    }

    /// The commit-graph files as they are on disk (name, size, modification time), or
    /// `None` when they cannot be looked at.
    fn graph_stamp(&self) -> Option<String> {
        use std::fmt::Write as _;
        use std::os::unix::fs::MetadataExt as _;
        let info = self.repo.objects.store_ref().path().join("info");
        let mut files = vec![info.join("commit-graph")];
        if let Ok(entries) = std::fs::read_dir(info.join("commit-graphs")) {
            let mut chain: Vec<_> = entries.flatten().map(|e| e.path()).collect();
            chain.sort();
            files.extend(chain);
        }
        let mut stamp = String::new();
        for f in files {
            let Ok(meta) = std::fs::metadata(&f) else {
                continue;
            };
            let modified = meta
                .modified()
                .ok()?
                .duration_since(std::time::UNIX_EPOCH)
                .ok()?
                .as_nanos();
            // Named from the objects directory: gix spells it differently from each
            // worktree (`<admin>/../../objects`), and a stamp spelled per worktree had
            // runs in two worktrees verify the graph by turns.
            let _ = writeln!(
                stamp,
                "{} {} {} {modified}",
                f.strip_prefix(&info).unwrap_or(&f).display(),
                meta.ino(),
                meta.len()
            );
        }
        (!stamp.is_empty()).then_some(stamp)
    }
}

impl<'r> History<'r> {
    /// The repository the session asks.
    pub fn repo(&self) -> &'r Repo {
        self.repo
    }

    /// Whether a history question of this session was stopped by the deadline.
    pub(super) fn cut_short(&self) -> bool {
        self.cut_short
    }

    /// Why the commit-graph was set aside this session, if it was.
    pub(super) fn damaged(&self) -> Option<String> {
        self.damaged.clone()
    }

    /// Count `n` more commits read from their objects.
    pub(super) fn walked(&mut self, n: usize) {
        self.walked_without_graph += n;
    }

    /// A hint to write a commit-graph, when this session walked much history without
    /// one.
    pub fn commit_graph_hint(&self) -> Option<String> {
        (self.walked_without_graph > SLOW_WALK && !self.repo.has_commit_graph()).then(|| {
            format!(
                "{} commits were read without a commit-graph; `git commit-graph write --reachable` makes this much faster",
                self.walked_without_graph
            )
        })
    }

    /// Whether the deadline has passed; from then on the session is cut short.
    pub(super) fn out_of_time(&mut self) -> bool {
        let over = past(self.deadline);
        self.cut_short |= over;
        over
    }

    /// The session's deadline, for a walk to ask ([`past`]).
    pub(super) fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Note that a walk was stopped by the deadline.
    pub(super) fn stopped(&mut self) {
        self.cut_short = true;
    }

    /// The commit-graph, when present, enabled, and not found damaged this session:
    /// opened once and shared by every walk.
    pub(super) fn graph(&mut self) -> Option<Rc<gix::commitgraph::Graph>> {
        if self.damaged.is_some() {
            return None;
        }
        if self.graph.is_none() {
            self.graph_opened = self.repo.graph_stamp();
            self.graph = Some(
                self.repo
                    .repo
                    .commit_graph_if_enabled()
                    .ok()
                    .flatten()
                    .map(Rc::new),
            );
        }
        self.graph.clone().flatten()
    }

    /// Let go of the commit-graph's mapping and the compact copy: the pages a walk read
    /// stay resident while it is mapped. Opened again if asked for again.
    fn release(&mut self) {
        self.graph = None;
        self.compact = None;
    }

    /// Before a negative verdict read from `graph`: whether the graph holds up (its
    /// checksums and its own consistency). When it does not, it is not used again this
    /// session, and the answers say why (`damaged`).
    pub(super) fn graph_holds(&mut self, graph: &gix::commitgraph::Graph) -> bool {
        // A graph verified before and not changed since (same files, sizes, times) is
        // not hashed again: the stamp of the last good check is kept beside it.
        let stamp = self.repo.graph_stamp();
        let kept = self.repo.tool_dir().graph_verified();
        if stamp
            .as_deref()
            .is_some_and(|s| std::fs::read(&kept).ok().as_deref() == Some(s.as_bytes()))
        {
            return true;
        }
        // Hashing maps in every page of the graph. It is done through the session's
        // own mapping, which is let go of right after (the next question maps the graph
        // again), so those pages are not kept for the rest of the run. A second mapping
        // of its own added its whole size to the pages the walk had touched in the
        // first. The stamp is kept only when the files are the ones `graph` was opened
        // from.
        let same_files = stamp.is_some() && self.graph_opened == stamp;
        let verified = graph.verify_integrity(|_| Ok::<(), std::io::Error>(()));
        self.release();
        match verified {
            Ok(_) => {
                if same_files
                    && let Some(stamp) = stamp
                    && std::fs::create_dir_all(kept.parent().expect("a parent")).is_ok()
                {
                    let _ = crate::support::fsio::write_atomic(&kept, stamp.as_bytes());
                }
                true
            }
            Err(e) => {
                self.damaged = Some(e.to_string());
                false
            }
        }
    }
}

/// Whether `deadline` has passed.
pub(super) fn past(deadline: Option<Instant>) -> bool {
    // A test makes history slow here, to see the real clock stop the hook.
    crate::support::testing::pause("clock");
    deadline.is_some_and(|d| Instant::now() >= d)
}

/// A ref's name as a file name: `/` as `%`, so two refs never share one.
fn ref_file_name(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            '/' => '%',
            c if c.is_ascii_alphanumeric() || "-_.".contains(c) => c,
            _ => '_',
        })
        .collect()
}

/// The tool's own directory in the repository's common git directory,
/// `<common>/git-handover/`: every file the tool keeps there is named here.
#[derive(Debug, Clone)]
pub struct ToolDir(PathBuf);

impl ToolDir {
    /// The directory itself (it may not exist yet).
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The stamp of the last commit-graph that held up under verification.
    pub fn graph_verified(&self) -> PathBuf {
        self.0.join("graph-verified")
    }

    /// The notes index of `notes_ref` (issue 36): what its readers need, kept as of one
    /// notes commit. A cache: any of it may be removed at any time. The file name is
    /// the ref's own with `/` as `%`, so two refs never share one.
    pub fn notes_index(&self, notes_ref: &str) -> PathBuf {
        self.0.join("notes-index").join(ref_file_name(notes_ref))
    }

    /// What the last claim pushed as it was decided established about the notes
    /// commit it pushed to a remote whose tracking ref is `tracking`
    /// (`services/remote_notes.rs` `Known`): kept by commit id, a cache.
    pub fn claim_known(&self, tracking: &str) -> PathBuf {
        self.0.join("claims-known").join(ref_file_name(tracking))
    }

    /// The markers of agent starts already briefed by the session-start hook.
    pub fn hook_starts(&self) -> PathBuf {
        self.0.join("hook-starts")
    }

    /// What each agent session's start left for its later saves (its transcript and
    /// directory), `<agent>-<session id>.json` (`services/agent_session.rs`).
    pub fn agent_sessions(&self) -> PathBuf {
        self.0.join("agent-sessions")
    }

    /// Who was briefed on each handover, `<session_id>.jsonl` (`services/receipts.rs`).
    pub fn receipts(&self) -> PathBuf {
        self.0.join("receipts")
    }

    /// A tool directory at `path`, for unit tests.
    #[cfg(test)]
    pub fn at(path: PathBuf) -> ToolDir {
        ToolDir(path)
    }
}
