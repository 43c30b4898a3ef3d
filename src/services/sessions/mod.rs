//! Sessions on disk: which session a write goes to, and writing and removing session
//! directories safely (SPEC sections 1, 2 and 5).
//!
//! Every write is one [`Transaction`]: it holds the lock of `project-state.json` across
//! read-modify-write and until the notes store has its record, replaces files
//! atomically, and never goes through a symbolic link: directories are created one
//! component at a time below the handover root and a link is refused.

use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde_json::{Map, Value};

use crate::services::scan::STATE_FILE;
use crate::support::config::Settings;
use crate::support::error::{Error, Problem, Result, msg};
use crate::support::fsio::Lock;

mod adopt;
mod remove;
mod team;
mod transaction;
mod write;

pub use adopt::{ConfirmReady, adopt, catch_up, confirm, confirm_ready, prepare_confirm};
pub use remove::{Removal, entries as session_entries, remove_session};
pub use team::{Owner, TeamChoice, owner};
pub use transaction::Transaction;
pub use write::{Current, Written, regenerate_markdown};

pub const MARKDOWN_FILE: &str = "handover.md";

/// A session directory below a handover root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionDir {
    /// The handover root (absolute).
    pub root: PathBuf,
    pub key: String,
}

impl SessionDir {
    pub fn new(root: &Path, key: &str) -> Result<Self> {
        crate::support::paths::check_relative(crate::k!("what.session_key"), key)
            .map_err(Error::usage)?;
        Ok(SessionDir {
            root: root.to_owned(),
            key: key.to_owned(),
        })
    }

    pub fn dir(&self) -> PathBuf {
        self.root.join(&self.key)
    }

    pub fn state_file(&self) -> PathBuf {
        self.dir().join(STATE_FILE)
    }

    /// Anything but a directory where the state belongs: a link or a device too, so that
    /// reading it refuses it by name instead of the session being said not to exist.
    pub fn exists(&self) -> bool {
        std::fs::symlink_metadata(self.state_file()).is_ok_and(|m| !m.is_dir())
    }
}

/// The session `save` and `task` use: the team's, or the newest READY session of the
/// branch (`None` when the branch has none yet). A session that cannot be read is
/// passed over and named in `skipped`: one bad file must not stop every write.
pub fn current_session(
    root: &Path,
    owner: &Owner,
    here: &Path,
    skipped: &mut Vec<Problem>,
) -> Result<Option<SessionDir>> {
    match owner {
        Owner::Team { team, agent } => {
            let session = SessionDir::new(root, &format!("{team}/{agent}"))?;
            if session.exists()
                && let Ok(state) = crate::model::state::View::read(&session.state_file())
                && let Some(other) = belongs_elsewhere(&state, here)
            {
                return Err(Error::usage_hint(
                    msg(
                        crate::k!("err.copy_here"),
                        &[("key", &session.key), ("path", &other.display())],
                    ),
                    msg(crate::k!("err.copy_adopt"), &[("key", &session.key)]),
                ));
            }
            Ok(Some(session))
        }
        Owner::Branch(branch) => {
            let mut ready = ready_sessions(root, branch, here, skipped);
            Ok(ready.drain(..).next().map(|(s, _)| s))
        }
    }
}

/// The READY sessions of `branch` under `root` that belong to `here`, newest first (by
/// `generated_at`, then by name): any directory holding a valid state is a session,
/// whatever its name. Sessions that cannot be read are named in `skipped`.
pub fn ready_sessions(
    root: &Path,
    branch: &str,
    here: &Path,
    skipped: &mut Vec<Problem>,
) -> Vec<(SessionDir, Option<Timestamp>)> {
    let mut unreadable = Vec::new();
    let out = branch_sessions(root, branch, here, true, &mut unreadable);
    skipped.extend(unreadable.into_iter().map(Problem::from));
    out
}

/// The sessions of `branch` under `root` that belong to `here` (only the READY ones
/// when `ready_only`), newest first; what cannot be read goes to `unreadable`.
fn branch_sessions(
    root: &Path,
    branch: &str,
    here: &Path,
    ready_only: bool,
    skipped: &mut Vec<Error>,
) -> Vec<(SessionDir, Option<Timestamp>)> {
    let base = root.join(branch);
    let entries = match std::fs::read_dir(&base) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(e) => {
            skipped.push(Error::io(&base, "read", e));
            return Vec::new();
        }
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .collect();
    names.sort();
    let mut out = Vec::new();
    for name in names.into_iter().rev() {
        let Ok(candidate) = SessionDir::new(root, &format!("{branch}/{name}")) else {
            continue;
        };
        match std::fs::symlink_metadata(candidate.state_file()) {
            Ok(m) if m.is_file() => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Ok(_) => {
                skipped.push(Error::NotRegular {
                    path: candidate.state_file(),
                    kind: crate::k!("file.other"),
                });
                continue;
            }
            Err(e) => {
                skipped.push(Error::io(candidate.dir(), "read", e));
                continue;
            }
        }
        match crate::model::state::View::read(&candidate.state_file()) {
            // A copy of another worktree's session is never written into.
            Ok(state) if belongs_elsewhere(&state, here).is_some() => {}
            Ok(state)
                if (state.is_ready() || !ready_only)
                    && state.workspace.branch.as_deref() == Some(branch) =>
            {
                let at = state.generated_at.as_ref().map(|g| g.at);
                out.push((candidate, at));
            }
            Ok(_) => {}
            Err(e) => skipped.push(e),
        }
    }
    // Newest first; the sort is stable, so names break ties (newest name first).
    out.sort_by_key(|s| std::cmp::Reverse(s.1));
    out
}

/// The owner a write into `session` records: a detached worktree's session keeps the
/// `detached-<sha7>` it started on, whatever commit HEAD is on now.
pub fn recorded_owner(owner: &Owner, session: &SessionDir) -> Owner {
    match owner {
        Owner::Branch(b) if b.starts_with("detached-") => {
            let first = session.key.split('/').next().unwrap_or(b);
            Owner::Branch(first.to_owned())
        }
        other => other.clone(),
    }
}

/// The `detached-<sha7>` directories under `root`.
fn detached_keys(root: &Path) -> Vec<String> {
    std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter(|n| n.starts_with("detached-"))
        .collect()
}

/// The worktree a state records as its own (`workspace.root`) when that is not
/// `here`: a copy that arrived with a checkout or a merge. Writes never go into it.
pub fn belongs_elsewhere(state: &crate::model::state::View, here: &Path) -> Option<PathBuf> {
    let root = crate::git::normalize(Path::new(state.workspace.root.as_deref()?));
    (root != crate::git::normalize(here)).then_some(root)
}

/// The session a write goes to, chosen (or made) while holding the branch's lock
/// (`<root>/<branch>.lock`, git forbids branch names ending in `.lock`), so that
/// writers racing to make a branch's first session make exactly one. Keep the value
/// until the write is done: dropping it releases the lock.
pub struct Chosen {
    pub session: Option<SessionDir>,
    /// Other READY sessions of the branch, passed over for the newest (said, with how
    /// to pick one).
    pub others: Vec<String>,
    /// Sessions passed over because they could not be read.
    pub skipped: Vec<Problem>,
    /// With no session chosen: the first session that could not be read (the write
    /// stops on it; `choose` with `create` returns it as its error).
    pub unreadable: Option<Error>,
    /// The session chosen was finished (every task done) and is written into again:
    /// the branch's, finished within `handover.freshFor`, or the team's.
    pub reopened: bool,
    /// A new session was made although the branch has a finished one, because that
    /// one was finished longer than `handover.freshFor` ago: its key.
    pub passed_over: Option<String>,
    _branch_lock: Option<Lock>,
}

/// Choose the write target for `owner` under `root`: the team's directory, or the
/// branch's READY session, made anew when `create` and there is none.
pub fn choose(
    root: &Path,
    other_roots: &[PathBuf],
    owner: &Owner,
    here: &Path,
    now: Timestamp,
    create: bool,
    settings: &Settings,
) -> Result<Chosen> {
    let mut unreadable = Vec::new();
    let branch_lock = match owner {
        // A look that makes nothing (`create` off) where the branch has no directory
        // yet has nothing to lock or read: it makes no directory either (a hook's
        // read in a worktree without a handover left an empty one behind).
        Owner::Branch(branch)
            if !create
                && !root
                    .join(Path::new(branch).parent().unwrap_or(Path::new("")))
                    .is_dir() =>
        {
            None
        }
        Owner::Branch(branch) => {
            let parent = Path::new(branch).parent().unwrap_or(Path::new(""));
            make_dirs(root, parent)?;
            Some(Lock::acquire(&root.join(branch), settings.lock_timeout)?)
        }
        Owner::Team { .. } => None,
    };
    let mut others = Vec::new();
    let mut session = match owner {
        // The branch's READY sessions in every handover root of the worktree (the
        // write root first): writes go where the agent was briefed.
        Owner::Branch(branch) => {
            let mut ready =
                branch_candidates(root, other_roots, branch, here, true, &mut unreadable);
            let mut keys = ready.drain(..).map(|(s, _)| s);
            let first = keys.next();
            others = keys.map(|s| s.key).collect();
            first
        }
        Owner::Team { .. } => {
            let mut problems = Vec::new();
            let s = current_session(root, owner, here, &mut problems)?;
            let reopened = create
                && s.as_ref().is_some_and(|s| {
                    s.exists()
                        && crate::model::state::View::read(&s.state_file())
                            .is_ok_and(|v| !v.is_ready())
                });
            return Ok(Chosen {
                session: s,
                others,
                skipped: problems,
                unreadable: None,
                reopened,
                passed_over: None,
                _branch_lock: branch_lock,
            });
        }
    };
    // With no READY session to write into, a session that cannot be read may be the
    // one meant: the write stops and names it rather than going to a new session
    // beside it (which would hide it).
    let mut blocked = None;
    if session.is_none() && !unreadable.is_empty() {
        let first = unreadable.remove(0);
        if create {
            return Err(first);
        }
        blocked = Some(first);
    }
    // With none READY, the branch's newest session finished within `freshFor` is
    // reopened (SPEC section 5, `save`): adding the next task to work just finished
    // keeps its decisions, known issues and tried approaches in one handover.
    let (mut reopened, mut passed_over) = (false, None);
    if session.is_none()
        && create
        && let Owner::Branch(branch) = owner
    {
        let newest = branch_candidates(root, other_roots, branch, here, false, &mut Vec::new())
            .into_iter()
            .next();
        session = match newest {
            Some((s, Some(at))) if finished_recently(at, now, settings) => {
                reopened = true;
                Some(s)
            }
            other => {
                passed_over = other.map(|(s, _)| s.key);
                Some(new_branch_session(root, branch, now)?)
            }
        };
    }
    let skipped = unreadable.into_iter().map(Problem::from).collect();
    Ok(Chosen {
        session,
        others,
        skipped,
        unreadable: blocked,
        reopened,
        passed_over,
        _branch_lock: branch_lock,
    })
}

/// Whether a session last written at `at` was finished within `handover.freshFor`
/// of `now` (a time ahead of the clock counts as just now).
fn finished_recently(at: Timestamp, now: Timestamp, settings: &Settings) -> bool {
    let age = now.as_second().saturating_sub(at.as_second());
    u64::try_from(age).map_or(true, |a| a < settings.fresh_for.as_secs())
}

/// The sessions of `branch` in `root` and then `other_roots` that belong to `here`
/// (only READY ones when `ready_only`), newest first. A detached worktree keeps its
/// session across commits: the sessions it started on other commits
/// (`detached-<sha7>`) are its own too.
fn branch_candidates(
    root: &Path,
    other_roots: &[PathBuf],
    branch: &str,
    here: &Path,
    ready_only: bool,
    unreadable: &mut Vec<Error>,
) -> Vec<(SessionDir, Option<Timestamp>)> {
    let mut found = Vec::new();
    for r in std::iter::once(root.to_owned()).chain(other_roots.iter().cloned()) {
        found.extend(branch_sessions(&r, branch, here, ready_only, unreadable));
        if branch.starts_with("detached-") {
            for other in detached_keys(&r).into_iter().filter(|k| k != branch) {
                found.extend(branch_sessions(&r, &other, here, ready_only, unreadable));
            }
        }
    }
    found.sort_by_key(|s| std::cmp::Reverse(s.1));
    found
}

/// The newest session of `branch` whatever its status (`task reopen` after the last
/// task was done finished it). Call it while holding the [`Chosen`] of the branch.
pub fn newest_session(
    root: &Path,
    other_roots: &[PathBuf],
    branch: &str,
    here: &Path,
) -> Option<SessionDir> {
    branch_candidates(root, other_roots, branch, here, false, &mut Vec::new())
        .into_iter()
        .next()
        .map(|(s, _)| s)
}

/// Make a new `<root>/<branch>/<fingerprint>/` directory, the fingerprint being the local
/// time `YYYYMMDD-HHMMSS`, with `-2`, `-3` … on collision.
pub fn new_branch_session(root: &Path, branch: &str, now: Timestamp) -> Result<SessionDir> {
    let stamp = now
        .to_zoned_datetime(crate::support::clock::local_zone())
        .strftime("%Y%m%d-%H%M%S")
        .to_string();
    make_dirs(root, Path::new(branch))?;
    for n in 1..1000 {
        let name = if n == 1 {
            stamp.clone()
        } else {
            format!("{stamp}-{n}")
        };
        let session = SessionDir::new(root, &format!("{branch}/{name}"))?;
        match std::fs::create_dir(session.dir()) {
            Ok(()) => return Ok(session),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(Error::io(session.dir(), "create", e)),
        }
    }
    Err(Error::usage(msg(
        crate::k!("err.too_many_sessions"),
        &[("stamp", &stamp), ("dir", &root.join(branch).display())],
    )))
}

/// Refuse a handover root that is, or lies below, a symbolic link (or a non-directory)
/// inside its worktree: `.claude` or `.claude/handover` linked anywhere (another
/// repository included) must not let a write or a removal land outside. The walk goes
/// up from `root` to the worktree's top (the first directory holding `.git`), looking
/// at each directory itself before looking inside it; what does not exist yet is fine,
/// it will be made. The part that exists must, resolved, still lie inside the top.
pub fn check_root(root: &Path) -> Result<()> {
    let refuse = |p: &Path| {
        Err(Error::usage_hint(
            msg(crate::k!("err.not_plain_dir"), &[("path", &p.display())]),
            msg(crate::k!("err.no_links"), &[]),
        ))
    };
    let mut at = Some(root);
    let mut deepest: Option<&Path> = None;
    let mut top = None;
    while let Some(p) = at {
        if let Ok(m) = std::fs::symlink_metadata(p) {
            if m.file_type().is_symlink() || !m.is_dir() {
                return refuse(p);
            }
            deepest.get_or_insert(p);
        }
        if std::fs::symlink_metadata(p.join(".git")).is_ok() {
            top = Some(p);
            break;
        }
        at = p.parent();
    }
    if let (Some(top), Some(deepest)) = (top, deepest) {
        match (std::fs::canonicalize(top), std::fs::canonicalize(deepest)) {
            (Ok(t), Ok(d)) if d.starts_with(&t) => {}
            _ => return refuse(deepest),
        }
    }
    Ok(())
}

/// Create `root` and then `rel` below it one component at a time, refusing to go through
/// a symbolic link or anything that is not a directory.
pub fn make_dirs(root: &Path, rel: &Path) -> Result<()> {
    check_root(root)?;
    std::fs::create_dir_all(root).map_err(|e| Error::io(root, "create", e))?;
    let mut at = root.to_owned();
    for component in rel.components() {
        at.push(component);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(Error::usage_hint(
                    msg(crate::k!("err.not_plain_dir"), &[("path", &at.display())]),
                    msg(crate::k!("err.no_links"), &[]),
                ));
            }
            Err(_) => match std::fs::create_dir(&at) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(Error::io(&at, "create", e)),
            },
        }
    }
    Ok(())
}

/// The `workspace` the tool records: the worktree and, for a branch session, the branch.
pub fn workspace(wt: &crate::git::Worktree, owner: &Owner) -> Map<String, Value> {
    let mut ws = Map::new();
    ws.insert("root".into(), Value::from(wt.path.display().to_string()));
    if let Owner::Branch(branch) = owner {
        ws.insert("branch".into(), Value::from(branch.clone()));
    }
    ws.insert("is_worktree".into(), Value::from(!wt.is_main));
    let mut outer = Map::new();
    outer.insert("workspace".into(), Value::Object(ws));
    outer
}

/// Point a session's `workspace` at `wt` (its root and whether it is a linked
/// worktree), keeping its other workspace fields (the branch above all).
pub fn point_here(doc: &mut Map<String, Value>, wt: &crate::git::Worktree) {
    let mut workspace = doc
        .get("workspace")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    workspace.insert("root".into(), Value::from(wt.path.display().to_string()));
    workspace.insert("is_worktree".into(), Value::from(!wt.is_main));
    doc.insert("workspace".into(), Value::Object(workspace));
}
