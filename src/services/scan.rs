//! Finding handovers on disk inside one worktree (SPEC section 1). Read-only.

use std::path::{Path, PathBuf};

use crate::support::paths::plain_below;

/// Handover roots scanned in every worktree, besides `handover.dir`.
pub const ROOTS: [&str; 2] = [".claude/handover", ".agents/handover"];

/// Where a continue-here note may be, first match wins.
pub const NOTE_PLACES: [&str; 3] = [
    "CONTINUE_HERE.md",
    "docs/CONTINUE_HERE.md",
    ".claude/CONTINUE_HERE.md",
];

/// The legacy (v2) state file.
pub const LEGACY_STATE: &str = ".claude/project-state.json";

pub const STATE_FILE: &str = "project-state.json";

/// Session directories lie at most this deep below a root.
pub const MAX_DEPTH: usize = 8;

#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    /// A session directory: its root (relative to the worktree) and key.
    Session {
        root: String,
        key: String,
        dir: PathBuf,
    },
    Legacy {
        path: PathBuf,
    },
    ContinueHere {
        path: PathBuf,
    },
    /// A session found only in the notes store: its newest record, on `commit`, under
    /// a key that is free here (`saved_as` holds the key it was saved under when that
    /// one was another session's, or deeper than the scan reaches).
    Stored {
        commit: crate::git::CommitId,
        record: Box<crate::model::record::Record>,
        saved_as: Option<String>,
    },
}

/// The handover roots of a worktree: `handover.dir` first, then the two standard ones.
pub fn roots(configured: &str) -> Vec<String> {
    let mut roots = vec![configured.trim_end_matches('/').to_owned()];
    for r in ROOTS {
        if !roots.iter().any(|x| x == r) {
            roots.push(r.to_owned());
        }
    }
    roots
}

/// Everything handover-like in `worktree`: sessions (by root, then key), the legacy
/// state, the continue-here note. Symbolic links are never followed: a session
/// directory that is a link is not read, so nothing outside the root is.
pub fn scan_worktree(worktree: &Path, configured_dir: &str) -> Vec<Found> {
    let mut found = Vec::new();
    for root in roots(configured_dir) {
        let base = worktree.join(&root);
        if !is_real_dir(&base) || !plain_below(worktree, &base) {
            continue;
        }
        let mut keys = Vec::new();
        walk(&base, &mut Vec::new(), &mut keys);
        keys.sort();
        for key in keys {
            let dir = base.join(&key);
            found.push(Found::Session {
                root: root.clone(),
                key,
                dir,
            });
        }
    }
    let legacy = worktree.join(LEGACY_STATE);
    if is_real_file(&legacy) && plain_below(worktree, &legacy) {
        found.push(Found::Legacy { path: legacy });
    }
    if let Some(path) = NOTE_PLACES
        .iter()
        .map(|p| worktree.join(p))
        .find(|p| is_real_file(p) && plain_below(worktree, p))
    {
        found.push(Found::ContinueHere { path });
    }
    found
}

/// Symbolic links found below the handover roots of `worktree` (they are never followed).
pub fn links(worktree: &Path, configured_dir: &str) -> Vec<PathBuf> {
    fn visit(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
        if depth > MAX_DEPTH {
            return;
        }
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            match entry.file_type() {
                Ok(t) if t.is_symlink() => out.push(entry.path()),
                Ok(t) if t.is_dir() => visit(&entry.path(), depth + 1, out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    // A link on the way to a root or a note (`.claude`, `docs`) is reported too.
    let places = roots(configured_dir)
        .into_iter()
        .chain(NOTE_PLACES.iter().map(|p| (*p).to_owned()))
        .chain([LEGACY_STATE.to_owned()]);
    for place in places {
        let mut at = worktree.to_owned();
        for component in Path::new(&place).components() {
            at.push(component);
            if std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
                if !out.contains(&at) {
                    out.push(at.clone());
                }
                break;
            }
        }
    }
    for root in roots(configured_dir) {
        let base = worktree.join(root);
        if is_real_dir(&base) && plain_below(worktree, &base) {
            visit(&base, 1, &mut out);
        }
    }
    out.sort();
    out
}

fn walk(dir: &Path, key: &mut Vec<String>, out: &mut Vec<String>) {
    if key.len() >= MAX_DEPTH {
        return;
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        // A directory that cannot be listed (mode 000) may hide sessions: it is listed
        // itself, and reading it then says why it could not be read.
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            let here = if key.is_empty() {
                ".".to_owned()
            } else {
                key.join("/")
            };
            if !out.contains(&here) {
                out.push(here);
            }
            return;
        }
        Err(_) => return,
    };
    for entry in entries.flatten() {
        // `file_type` does not follow links: a linked directory is skipped.
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        let path = entry.path();
        key.push(name);
        let state = std::fs::symlink_metadata(path.join(STATE_FILE));
        let unreadable = state
            .as_ref()
            .is_err_and(|e| e.kind() == std::io::ErrorKind::PermissionDenied);
        // A state that is a link, a FIFO or a device is listed too: reading it then
        // refuses it by name, instead of it being silently invisible.
        let session = state.is_ok_and(|m| !m.is_dir());
        if session || unreadable {
            out.push(key.join("/"));
        }
        // A session directory with no directory inside it (a link count of 2: its own
        // entry and `.`) holds no nested session: it is not listed (`find` does the
        // same). Listing costs five system calls, this one; a file system that does not
        // count subdirectories in the links (btrfs says 1) is listed.
        let leaf = session
            && std::fs::symlink_metadata(&path).is_ok_and(|m| {
                use std::os::unix::fs::MetadataExt as _;
                m.is_dir() && m.nlink() == 2
            });
        if !leaf {
            walk(&path, key, out);
        }
        key.pop();
    }
}

/// The `session_id` a session directory's state holds, read without building the
/// rest (`None` when it has none or cannot be read: reading it later says why).
pub fn session_id_of(dir: &Path) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Id {
        #[serde(default)]
        session_id: Option<String>,
    }
    let bytes = crate::support::fsio::read_limited(&dir.join(STATE_FILE)).ok()?;
    serde_json::from_slice::<Id>(&bytes).ok()?.session_id
}

fn is_real_dir(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir())
}

fn is_real_file(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(p: &Path) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "{}").unwrap();
    }

    #[test]
    fn finds_sessions_legacy_and_note() {
        let t = tempfile::tempdir().unwrap();
        let w = t.path();
        touch(&w.join(".claude/handover/feature/x/20261129-080000/project-state.json"));
        touch(&w.join(".claude/handover/main/20261130-101500/project-state.json"));
        touch(&w.join(".agents/handover/alpha-team/reviewer/project-state.json"));
        touch(&w.join(".claude/handover/main/not-a-session/handover.md"));
        touch(&w.join(".claude/project-state.json"));
        touch(&w.join("docs/CONTINUE_HERE.md"));
        touch(&w.join(".claude/CONTINUE_HERE.md"));
        let keys: Vec<_> = scan_worktree(w, ".claude/handover")
            .into_iter()
            .map(|f| match f {
                Found::Session { root, key, .. } => format!("{root}:{key}"),
                Found::Legacy { path } | Found::ContinueHere { path } => {
                    path.strip_prefix(w).unwrap().display().to_string()
                }
                Found::Stored { .. } => unreachable!("not on disk"),
            })
            .collect();
        assert_eq!(
            keys,
            [
                ".claude/handover:feature/x/20261129-080000",
                ".claude/handover:main/20261130-101500",
                ".agents/handover:alpha-team/reviewer",
                ".claude/project-state.json",
                "docs/CONTINUE_HERE.md",
            ]
        );
    }

    #[test]
    fn a_session_inside_a_session_directory_is_found() {
        let t = tempfile::tempdir().unwrap();
        let w = t.path();
        touch(&w.join(".claude/handover/team/agent/project-state.json"));
        touch(&w.join(".claude/handover/team/agent/sub/20261130-101500/project-state.json"));
        touch(&w.join(".claude/handover/team/agent/handover.md"));
        let keys: Vec<String> = scan_worktree(w, ".claude/handover")
            .into_iter()
            .filter_map(|f| match f {
                Found::Session { key, .. } => Some(key),
                _ => None,
            })
            .collect();
        assert_eq!(keys, ["team/agent", "team/agent/sub/20261130-101500"]);
    }

    #[test]
    fn depth_is_limited_and_links_are_not_followed() {
        let t = tempfile::tempdir().unwrap();
        let w = t.path();
        touch(&w.join(".claude/handover/1/2/3/4/5/6/7/8/project-state.json"));
        touch(&w.join(".claude/handover/1/2/3/4/5/6/7/8/9/project-state.json"));
        let outside = tempfile::tempdir().unwrap();
        touch(&outside.path().join("s/project-state.json"));
        std::os::unix::fs::symlink(outside.path(), w.join(".claude/handover/link")).unwrap();
        let found = scan_worktree(w, ".claude/handover");
        assert_eq!(found.len(), 1, "{found:?}");
    }
}
