//! All repository access, through gix. No gix type leaves this module: callers see
//! paths, strings and [`CommitId`].

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::bstr::ByteSlice;
use jiff::Timestamp;

use crate::support::error::{Error, Result};

mod compact;
mod history;
mod identity;
mod index;
mod notes;
mod notes_diff;
mod notes_fetch;
mod notes_merge;
mod packed;
mod pin;
mod resolve;
mod rewritten;
mod session;
mod since;
mod walk;
mod worktrees;
use worktrees::target_commit;
pub mod subprocess;

pub use notes::NotesEdited;
pub use notes_diff::{NoteChange, NoteReader, NoteText};
pub use notes_merge::{NoteBlob, NoteChoice, NoteRules, NotesMerge};
pub use pin::Pinned;
pub use session::{History, ToolDir};

/// A commit id. Only this module makes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CommitId(ObjectId);

impl CommitId {
    /// The first `n` hex digits.
    pub fn prefix(&self, n: usize) -> String {
        self.0.to_hex_with_len(n).to_string()
    }

    pub fn short(&self) -> String {
        self.0.to_hex_with_len(7).to_string()
    }
}

impl fmt::Display for CommitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One worktree of the repository, as `git worktree list` sees it.
#[derive(Debug, Clone)]
pub struct Worktree {
    /// Canonical when the directory exists, else as registered.
    pub path: PathBuf,
    pub is_main: bool,
    pub is_bare: bool,
    pub head: Option<CommitId>,
    /// The short branch name, when HEAD is on a branch (also when it is unborn).
    pub branch: Option<String>,
    pub detached: bool,
    /// The lock reason (possibly empty) of a locked worktree.
    pub locked: Option<String>,
    pub prunable: bool,
    pub exists: bool,
    /// The worktree's own git directory (`.git`, or `<common>/worktrees/<id>`).
    pub git_dir: PathBuf,
}

/// A commit for people to read: short id and subject.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitLine {
    pub id: CommitId,
    pub subject: String,
}

/// Commits on a branch newer than a handover.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NewerCommits {
    pub count: usize,
    /// The newest few, newest first.
    pub newest: Vec<CommitLine>,
}

/// A question for [`History::newer_commits`].
pub struct NewerQuery<'a> {
    pub tip: CommitId,
    pub since: Timestamp,
    /// Commits that do not count (the handover's own and their rewritten copies), as
    /// full hex ids; decoded only where the tip has newer commits.
    pub own: Vec<&'a str>,
}

/// What the history says of a recorded sha.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommitFound {
    /// A commit reachable from the tip asked about.
    Reachable,
    /// An object that is not in that history (or not a commit).
    Unreachable,
    /// No such object.
    Missing,
    /// An abbreviated sha that matches several objects.
    Ambiguous,
    /// A commit the walk was stopped (by the deadline) before it knew about.
    Unknown,
}

/// The answer for one recorded sha.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitAnswer {
    pub found: CommitFound,
    pub full: Option<String>,
    pub rewritten: Option<String>,
}

/// How many of the newest commits of a branch are searched for a rewritten equivalent.
const REWRITE_SEARCH_DEPTH: usize = 1000;

/// How many newer commits are shown by subject.
const NEWEST_SHOWN: usize = 3;

/// Walking more commits than this without a commit-graph earns a hint to write one.
const SLOW_WALK: usize = 20_000;

/// How the subject of the tool's own commit ends (see `continue`'s consume step).
pub const TOOL_COMMIT_MARK: &str = "(briefed by git handover continue)";
/// How many of the newest commits of a tip are looked at for the tool's own commits.
const TOOL_COMMITS_LOOKED_AT: usize = 16;

/// An open repository. Its history questions are asked through a session the caller
/// owns ([`Repo::history`], [`History`]), which holds the run's state for them; the
/// repository holds none.
#[allow(clippy::struct_field_names)] // `repo.repo`: the gix repository inside ours.
pub struct Repo {
    repo: gix::Repository,
    /// When history questions stop being asked (the hook's time limit), for the
    /// sessions opened from now on ([`Repo::set_deadline`]).
    deadline: Option<std::time::Instant>,
    /// Object store handles opened when first needed, and kept for the run: the
    /// repository with an object store that never looks at the disk again on a miss,
    /// and the packs read git's way ([`packed`]), without gix's index opening. They
    /// hold no answers, only what is on disk.
    no_refresh: std::cell::OnceCell<gix::Repository>,
    packs: std::cell::OnceCell<packed::Packs>,
    /// The boundary commits of a shallow clone (`.git/shallow`), read when a walk first
    /// decodes a commit: their parents are absent by design, and git reads them as
    /// having none.
    shallow: std::cell::OnceCell<HashSet<ObjectId>>,
    /// Refs read as pointing at a fixed commit while a [`Pinned`] guard lives, whatever
    /// they point to meanwhile: a remote's tracking ref, read as of the commit a
    /// decision's push leases (another process of the clone may move the ref, and move
    /// it back, while the records are read).
    pins: std::cell::RefCell<std::collections::HashMap<String, ObjectId>>,
}

/// Open the repository containing `dir`, honouring `GIT_DIR` and friends like git.
pub fn discover(dir: &Path) -> Result<Repo> {
    discover_with(dir, &[])
}

/// Open the repository containing `dir` with `overrides` (`name=value`, in order, the
/// last winning) applied as git applies `-c`: above every configuration file, seen by
/// every configuration read of this run, gix's own included.
pub fn discover_with(dir: &Path, overrides: &[String]) -> Result<Repo> {
    let mut trust = gix::sec::trust::Mapping::<gix::open::Options>::default();
    trust.full = trust
        .full
        .cli_overrides(overrides.iter().map(String::as_str));
    trust.reduced = trust
        .reduced
        .cli_overrides(overrides.iter().map(String::as_str));
    // A repository of another user is refused as git refuses it (CVE-2022-24765),
    // unless `safe.directory` lets it through: gix checks that on the ownership it
    // already looked at, at no extra cost.
    trust.full = trust.full.bail_if_untrusted(true);
    trust.reduced = trust.reduced.bail_if_untrusted(true);
    // A ceiling that does not lie above `dir` is ignored, as git ignores it.
    let upwards = gix::discover::upwards::Options {
        match_ceiling_dir_or_error: false,
        ..Default::default()
    };
    let opened =
        gix::ThreadSafeRepository::discover_with_environment_overrides_opts(dir, upwards, trust)
            .map(gix::Repository::from);
    let repo = opened.map_err(|e| {
        // gix could not open one: tell a repository git cannot read (broken config,
        // SHA-256 objects) apart from no repository at all, and from one of another user.
        if e.is_permission_denied() {
            return Error::DubiousOwnership {
                dir: dubious_dir(dir),
            };
        }
        // None within the ceiling (`GIT_CEILING_DIRECTORIES`) is none, as git says.
        let not_found = matches!(
            e.downcast_any_ref::<gix::discover::upwards::Error>(),
            Some(
                gix::discover::upwards::Error::NoGitRepository { .. }
                    | gix::discover::upwards::Error::NoGitRepositoryWithinCeiling { .. }
                    | gix::discover::upwards::Error::NoGitRepositoryWithinFs { .. }
            )
        );
        match git_dir_above(dir).filter(|_| !not_found) {
            None => Error::NotARepository {
                dir: dir.to_owned(),
            },
            Some(git_dir) if object_format(&git_dir).as_deref() == Some("sha256") => {
                Error::Sha256Unsupported { git_dir }
            }
            Some(git_dir) => Error::UnreadableRepository {
                git_dir,
                why: e.to_string(),
            },
        }
    })?;
    if found_at_ceiling(dir, &repo) {
        return Err(Error::NotARepository {
            dir: dir.to_owned(),
        });
    }
    // gix reads refs from files only: a reftable repository would read as unborn.
    if repo
        .config_snapshot()
        .string("extensions.refStorage")
        .is_some_and(|v| v.eq_ignore_ascii_case(b"reftable"))
    {
        return Err(Error::ReftableUnsupported {
            git_dir: crate::support::paths::lexical(repo.common_dir()),
        });
    }
    Ok(Repo::with(repo, None))
}

/// The git directory `dir` belongs to, found the plain way (`GIT_DIR`, or a `.git`
/// directory or file in `dir` or a parent), without reading any configuration.
fn git_dir_above(dir: &Path) -> Option<PathBuf> {
    if let Some(git_dir) = std::env::var_os("GIT_DIR") {
        return Some(dir.join(git_dir));
    }
    let mut at = Some(dir);
    while let Some(p) = at {
        let dot_git = p.join(".git");
        if dot_git.is_dir() || dot_git.is_file() {
            return Some(dot_git);
        }
        if p.join("HEAD").is_file() && p.join("objects").is_dir() && p.join("refs").is_dir() {
            return Some(p.to_owned());
        }
        at = p.parent();
    }
    None
}

/// Whether `repo` was found in a directory of `GIT_CEILING_DIRECTORIES` above `dir`.
/// git looks only below a ceiling (at `dir` itself always); gix looks at the ceiling
/// too. Only a run with the variable set pays for this.
fn found_at_ceiling(dir: &Path, repo: &gix::Repository) -> bool {
    let Some(ceilings) = std::env::var_os("GIT_CEILING_DIRECTORIES") else {
        return false;
    };
    if std::env::var_os("GIT_DIR").is_some() {
        return false;
    }
    let found = normalize(repo.workdir().unwrap_or_else(|| repo.git_dir()));
    let dir = normalize(dir);
    found != dir
        && std::env::split_paths(&ceilings)
            .filter(|c| c.is_absolute())
            .any(|c| normalize(&c) == found && dir.starts_with(&found))
}

/// The directory git names when it refuses a repository of another user: the
/// worktree, or the git directory of a bare repository (as `safe.directory` takes it).
fn dubious_dir(dir: &Path) -> PathBuf {
    let Some(git_dir) = git_dir_above(dir) else {
        return dir.to_owned();
    };
    let git_dir = normalize(&git_dir);
    match git_dir.file_name() {
        Some(name) if name == ".git" => git_dir.parent().map_or(git_dir.clone(), Path::to_owned),
        _ => git_dir,
    }
}

/// `extensions.objectFormat` of the repository at `git_dir`, read from its `config`
/// file by hand (the configuration may be what gix could not read).
fn object_format(git_dir: &Path) -> Option<String> {
    let config = if git_dir.is_file() {
        // A `.git` file of a linked worktree: `gitdir: <path>`, then `commondir`.
        let text = std::fs::read_to_string(git_dir).ok()?;
        let linked = PathBuf::from(text.strip_prefix("gitdir:")?.trim());
        let common = std::fs::read_to_string(linked.join("commondir")).ok();
        let common = common.map_or(linked.clone(), |c| linked.join(c.trim()));
        common.join("config")
    } else {
        git_dir.join("config")
    };
    let bytes = crate::support::fsio::read_regular(&config, 1 << 20).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    text.lines().find_map(|l| {
        let (k, v) = l.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("objectformat")
            .then(|| v.trim().to_ascii_lowercase())
    })
}

/// A path made canonical when it exists; lexically cleaned otherwise, so that a
/// missing directory still compares equal to the same spelling elsewhere.
pub fn normalize(path: &Path) -> PathBuf {
    if let Ok(p) = gix::path::realpath(path) {
        return p;
    }
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// A repository to open again ([`Repo::reopen_later`]).
pub struct Reopen(PathBuf, gix::open::Options);

impl Reopen {
    /// The repository, opened again; `None` when it cannot be.
    pub fn open(self) -> Option<Repo> {
        gix::open_opts(self.0, self.1)
            .ok()
            .map(|r| Repo::with(r, None))
    }
}

impl Repo {
    /// `repo` with no run state yet but `deadline`: the one place a [`Repo`] is made.
    fn with(repo: gix::Repository, deadline: Option<std::time::Instant>) -> Repo {
        Repo {
            repo,
            deadline,
            no_refresh: std::cell::OnceCell::new(),
            packs: std::cell::OnceCell::new(),
            shallow: std::cell::OnceCell::new(),
            pins: std::cell::RefCell::default(),
        }
    }

    /// The repository opened again, as it was opened (its options, `-c` overrides
    /// included), with an object store of its own: what that store maps of the packs
    /// is let go when it is dropped, not kept for the run as the repository's own
    /// store keeps it. `None` when it cannot be opened (the callers then read through
    /// the repository's own store).
    fn fresh_store(&self) -> Option<gix::Repository> {
        gix::open_opts(self.repo.path(), self.repo.open_options().clone()).ok()
    }

    /// What opens this repository again, as it was opened, once this handle is gone
    /// (work left for the end of the run, [`Reopen::open`]).
    pub fn reopen_later(&self) -> Reopen {
        Reopen(
            self.repo.path().to_owned(),
            self.repo.open_options().clone(),
        )
    }

    /// The worktree the repository was discovered from, if it has one.
    pub fn current_worktree(&self) -> Option<PathBuf> {
        self.repo.workdir().map(normalize)
    }

    /// The repository's common git directory (shared by all worktrees).
    /// Spelled without `..` (gix gives a linked worktree's as `<admin>/../..`), as every
    /// path the tool prints.
    pub fn common_dir(&self) -> PathBuf {
        crate::support::paths::lexical(self.repo.common_dir())
    }

    /// The raw value of a configuration key, as git would read it (all scopes, includes).
    pub fn config_string(&self, key: &str) -> Option<String> {
        self.repo
            .config_snapshot()
            .string(key)
            .map(|v| v.to_str_lossy().into_owned())
    }

    /// The commit `rev` names (`HEAD`, `main~2`, a sha, a tag), peeled to a commit.
    pub fn resolve_commit(&self, rev: &str) -> Option<CommitId> {
        let id = self.repo.rev_parse_single(rev).ok()?;
        let commit = id.object().ok()?.peel_to_commit().ok()?;
        Some(CommitId(commit.id))
    }

    /// Whether a commit-graph is present and enabled (`core.commitGraph`).
    pub fn has_commit_graph(&self) -> bool {
        self.repo.commit_graph_if_enabled().ok().flatten().is_some()
    }

    /// Stop walking history `after` from now, in the sessions opened from now on: what
    /// is not known by then is said to be unchecked (`cut_short`), never guessed.
    pub fn set_deadline(&mut self, after: std::time::Duration) {
        self.deadline = Some(std::time::Instant::now() + after);
    }

    /// Whether this run has a deadline ([`Repo::set_deadline`]): the hook's, which must
    /// not pay for work the next command can do.
    pub fn has_deadline(&self) -> bool {
        self.deadline.is_some()
    }

    /// [`Repo::no_refresh`]'s repository.
    pub(super) fn no_refresh(&self) -> &gix::Repository {
        self.no_refresh.get_or_init(|| {
            let mut repo = self.repo.clone();
            repo.objects.refresh_never();
            repo
        })
    }

    /// Whether `id` is a boundary commit of a shallow clone: a commit whose parents
    /// the clone does not have.
    pub(super) fn is_shallow_boundary(&self, id: &ObjectId) -> bool {
        self.shallow
            .get_or_init(|| {
                let commits = self.repo.shallow_commits().ok().flatten();
                commits
                    .map(|c| c.iter().copied().collect())
                    .unwrap_or_default()
            })
            .contains(id)
    }

    /// Whether HEAD's history holds at least `n` commits (walks at most `n`).
    pub fn history_at_least(&self, n: usize) -> bool {
        let Some(head) = self.head_commit() else {
            return false;
        };
        self.repo
            .rev_walk([head.0])
            .all()
            .is_ok_and(|walk| walk.take(n).flatten().count() >= n)
    }

    /// Whether the repository is a shallow clone (`.git/shallow` lists commits).
    pub fn is_shallow(&self) -> bool {
        self.repo.is_shallow().unwrap_or(false)
    }

    /// The commit a local branch points to, if the branch exists.
    /// The tip of `branch`, or when there is no such local branch, of a
    /// remote-tracking branch of that name (`origin` first), with the ref used.
    pub fn branch_tip_or_remote(&self, branch: &str) -> Option<(CommitId, Option<String>)> {
        if let Some(tip) = self.branch_tip(branch) {
            return Some((tip, None));
        }
        let mut remotes: Vec<String> = self
            .repo
            .remote_names()
            .into_iter()
            .map(|n| n.to_string())
            .collect();
        remotes.sort_by_key(|n| n != "origin");
        remotes.into_iter().find_map(|remote| {
            let name = format!("refs/remotes/{remote}/{branch}");
            let r = self.repo.try_find_reference(name.as_str()).ok()??;
            target_commit(r).map(|tip| (tip, Some(format!("{remote}/{branch}"))))
        })
    }

    pub fn branch_tip(&self, branch: &str) -> Option<CommitId> {
        let r = self
            .repo
            .try_find_reference(format!("refs/heads/{branch}").as_str())
            .ok()??;
        target_commit(r)
    }
}

/// The first line of a commit message.
fn subject_of(message: &[u8]) -> String {
    message
        .lines()
        .next()
        .map(|l| l.to_str_lossy().trim().to_owned())
        .unwrap_or_default()
}
