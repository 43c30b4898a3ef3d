//! Removing a finished session, decided again under its lock.

use std::path::Path;

use super::{MARKDOWN_FILE, SessionDir, check_root};
use crate::model::state::State;
use crate::services::scan::STATE_FILE;
use crate::support::config::Settings;
use crate::support::error::{Error, Result, msg};
use crate::support::fsio::{self, Lock};

/// What removing a session directory did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Removal {
    Removed,
    /// The directory holds files the tool did not write (named): the session is kept
    /// whole, nothing removed, so no directory is left without its state.
    KeptWhole(Vec<String>),
    /// The files the tool wrote were removed (a file came in while they were); the directory holds others (named) and
    /// stays.
    KeptOtherFiles(Vec<String>),
    /// Looked at again under the lock, the session no longer qualified (it was
    /// reopened, or changed, since it was chosen): nothing was removed.
    Changed,
}

/// Remove a session directory the tool made: its state, `handover.md` and leftovers,
/// then the directory if nothing else is in it, then empty parents up to the root.
/// Refuses a directory that is a link or that resolves outside the root. The decision
/// is made again under the session's lock on what the file holds then: `still` must
/// accept the state read under the lock, or nothing is removed ([`Removal::Changed`]);
/// a state that cannot be read is never removed.
pub fn remove_session(
    session: &SessionDir,
    settings: &Settings,
    still: impl Fn(&State) -> bool,
    before_removing: impl FnOnce(),
) -> Result<Removal> {
    let dir = session.dir();
    let refuse = |why: &'static str| {
        Error::usage(
            msg(crate::k!("err.refuse_remove"), &[("path", &dir.display())]).word("why", why),
        )
    };
    check_root(&session.root)?;
    if !std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) {
        return Err(refuse(crate::k!("err.why_not_dir")));
    }
    let (Ok(real_root), Ok(real_dir)) = (
        std::fs::canonicalize(&session.root),
        std::fs::canonicalize(&dir),
    ) else {
        return Err(refuse(crate::k!("err.why_unresolved")));
    };
    if !real_dir.starts_with(&real_root) || real_dir == real_root {
        return Err(refuse(crate::k!("err.why_outside")));
    }
    {
        let file = session.state_file();
        let _lock = Lock::acquire(&file, settings.lock_timeout)?;
        let state = State::read(&file)?;
        if !still(&state) {
            return Ok(Removal::Changed);
        }
        let foreign = entries(&dir, true);
        if !foreign.is_empty() {
            return Ok(Removal::KeptWhole(foreign));
        }
        before_removing();
        fsio::remove_stray_temps(&dir);
        // Regular files only: a link (or anything else) in their place is left where
        // it is, and so is the directory that holds it.
        for name in [STATE_FILE, MARKDOWN_FILE] {
            let path = dir.join(name);
            if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
                std::fs::remove_file(&path).map_err(|e| Error::io(&path, "remove", e))?;
            }
        }
    }
    if std::fs::remove_dir(&dir).is_err() {
        return Ok(Removal::KeptOtherFiles(entries(&dir, false)));
    }
    let mut parent = dir.parent().map(Path::to_owned);
    while let Some(p) = parent {
        if p == session.root || !p.starts_with(&session.root) || std::fs::remove_dir(&p).is_err() {
            break;
        }
        parent = p.parent().map(Path::to_owned);
    }
    Ok(Removal::Removed)
}

/// The entries of a session directory, sorted, a directory with a `/`; with `foreign`,
/// only those the tool did not write (its state, `handover.md`, their locks, its
/// temporary files are its own). A symbolic link in place of the tool's own file is
/// not its own.
pub fn entries(dir: &Path, foreign: bool) -> Vec<String> {
    let own = |name: &str, e: &std::fs::DirEntry| {
        let regular = e.file_type().is_ok_and(|t| t.is_file());
        regular
            && (fsio::is_temp_name(name)
                || [STATE_FILE, MARKDOWN_FILE]
                    .iter()
                    .any(|f| name == *f || name.strip_suffix(".lock") == Some(f)))
    };
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if foreign && own(&name, &e) {
                return None;
            }
            Some(if e.file_type().is_ok_and(|t| t.is_dir()) {
                format!("{name}/")
            } else {
                name
            })
        })
        .collect();
    out.sort();
    out
}
