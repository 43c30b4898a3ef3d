//! The marks of agent session starts, under `<common dir>/git-handover/hook-starts`:
//! one file per session start (`<session_id>-<source>`), left by `hook session-start`.
//! They let a hook installed at two scopes brief once per start, and tell the reminder
//! when this agent session began. Markers older than a day are swept.

use std::path::{Path, PathBuf};

use super::event::Event;

/// How long a start counts as the same start: a second hook run for the same session
/// and source within it stays silent.
const SAME_START: std::time::Duration = std::time::Duration::from_secs(30);

fn starts_dir(common_dir: &Path) -> PathBuf {
    common_dir.join("git-handover").join("hook-starts")
}

/// When this agent session started: the first `hook session-start` marker of its
/// `session_id` (left by [`already_briefed`]).
pub(super) fn agent_started(common_dir: &Path, event: &Event) -> Option<jiff::Timestamp> {
    let session = event.clean("session_id");
    if session.is_empty() {
        return None;
    }
    std::fs::read_dir(starts_dir(common_dir))
        .ok()?
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.starts_with(&format!("{session}-")))
        })
        .filter_map(|e| e.metadata().and_then(|m| m.modified()).ok())
        .min()
        .and_then(|t| jiff::Timestamp::try_from(t).ok())
}

/// Whether this session start (the event's `session_id` and `source`) was briefed a
/// moment ago by another run of the hook (one per scope the hook is installed at).
/// The first run leaves a marker in the common git directory; old markers go.
pub(super) fn already_briefed(common_dir: &Path, event: &Event) -> bool {
    let session = event.clean("session_id");
    if session.is_empty() {
        return false;
    }
    let source = event.clean("source");
    let dir = starts_dir(common_dir);
    if std::fs::create_dir_all(&dir).is_err() {
        return false;
    }
    let now = std::time::SystemTime::now();
    let age = |p: &Path| {
        std::fs::symlink_metadata(p)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok())
    };
    // Markers older than a day go, looked for at most once an hour (each look stats
    // every marker: a day of agents starting leaves hundreds).
    let swept = dir.join(".swept");
    if age(&swept).is_none_or(|a| a > std::time::Duration::from_secs(3_600)) {
        let _ = std::fs::File::create(&swept);
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for e in entries.flatten() {
                if age(&e.path()).is_some_and(|a| a > std::time::Duration::from_secs(86_400)) {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
    }
    let marker = dir.join(format!("{session}-{source}"));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&marker)
    {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            if age(&marker).is_some_and(|a| a < SAME_START) {
                return true;
            }
            // An old marker of a new start with the same ids: this run briefs.
            let _ = std::fs::remove_file(&marker);
            let _ = std::fs::File::create(&marker);
            false
        }
        Ok(_) | Err(_) => false,
    }
}
