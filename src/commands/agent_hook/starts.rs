//! The marks of agent session starts, in the tool's directory's `hook-starts`
//! (`ToolDir::hook_starts` in `git/session.rs`): one file per session start
//! (`<session_id>-<source>`), left by `hook session-start`. They let a hook installed
//! at two scopes brief once per start, and tell the reminder when this agent session
//! began. Markers older than a day are swept.
//!
//! Every file here is made with `O_EXCL` or opened with `O_NOFOLLOW` and never
//! truncated: the directory is in the repository's git directory, and a link planted
//! there must not make the hook of a read-only briefing write through it.

use std::os::unix::fs::OpenOptionsExt as _;
use std::path::Path;

use super::event::Event;

/// How long a start counts as the same start: a second hook run for the same session
/// and source within it stays silent.
const SAME_START: std::time::Duration = std::time::Duration::from_secs(30);

/// When this agent session started: the first `hook session-start` marker of its
/// `session_id` in `dir` (left by [`already_briefed`]).
pub(super) fn agent_started(dir: &Path, event: &Event) -> Option<jiff::Timestamp> {
    let session = event.clean("session_id");
    if session.is_empty() {
        return None;
    }
    std::fs::read_dir(dir)
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

/// When this agent session started and what its start saw: the earliest start
/// marker of its `session_id` in `dir` (`None` without one, or for a marker made by a
/// version that kept nothing in it: no HEAD of the start is known).
pub(super) fn agent_start(
    dir: &Path,
    event: &Event,
) -> Option<(jiff::Timestamp, super::start_seen::StartSeen)> {
    let session = event.clean("session_id");
    if session.is_empty() || !own_dir(dir) {
        return None;
    }
    let (at, path) = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.starts_with(&format!("{session}-")))
        })
        .filter_map(|e| Some((e.metadata().and_then(|m| m.modified()).ok()?, e.path())))
        .min()?;
    let seen = super::start_seen::StartSeen::read(&path)?;
    seen.head.as_ref()?;
    Some((jiff::Timestamp::try_from(at).ok()?, seen))
}

/// Whether this is the first time the stop gate would hold this agent session: the
/// first call leaves `.stop-<session_id>` in `dir` (made with `O_EXCL`), every later
/// one finds it. Without a session id, or where the marker cannot be made, the gate
/// never holds (it must never hold twice).
pub(super) fn first_stop(dir: &Path, event: &Event) -> bool {
    let session = event.clean("session_id");
    if session.is_empty() || std::fs::create_dir_all(dir).is_err() || !own_dir(dir) {
        return false;
    }
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(dir.join(format!(".stop-{session}")))
        .is_ok()
}

/// Whether this session start (the event's `session_id` and `source`) was briefed a
/// moment ago by another run of the hook (one per scope the hook is installed at).
/// The first run leaves a marker in `dir`; old markers go.
pub(super) fn already_briefed(dir: &Path, event: &Event, start: impl FnOnce() -> String) -> bool {
    let session = event.clean("session_id");
    if session.is_empty() {
        return false;
    }
    let source = event.clean("source");
    if std::fs::create_dir_all(dir).is_err() || !own_dir(dir) {
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
        touch(&swept);
        if let Ok(entries) = std::fs::read_dir(dir) {
            for e in entries.flatten() {
                if age(&e.path()).is_some_and(|a| a > std::time::Duration::from_secs(86_400)) {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
    }
    let marker = dir.join(format!("{session}-{source}"));
    let create = || {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&marker)
    };
    match create() {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            if age(&marker).is_some_and(|a| a < SAME_START) {
                return true;
            }
            // An old marker of a new start with the same ids: this run briefs.
            let _ = std::fs::remove_file(&marker);
            if let Ok(mut file) = create() {
                let _ = std::io::Write::write_all(&mut file, start().as_bytes());
            }
            false
        }
        Ok(mut file) => {
            // Made by this run (`O_EXCL`): what the start saw goes in it.
            let _ = std::io::Write::write_all(&mut file, start().as_bytes());
            false
        }
        Err(_) => false,
    }
}

/// Whether this agent session (the event's `session_id`) was reminded of `said` (the
/// session and the tasks named) by an earlier `hook pre-compact` or `hook session-end`,
/// so that its end does not say it again. The first run leaves a marker
/// `.remind-<session_id>-<digest of said>` in `dir` (a dot first: no session id starts
/// with one, so [`agent_started`] never takes it for a start). Without a session id
/// every run reminds.
pub(super) fn already_reminded(dir: &Path, event: &Event, said: &str) -> bool {
    let session = event.clean("session_id");
    if session.is_empty() || std::fs::create_dir_all(dir).is_err() || !own_dir(dir) {
        return false;
    }
    // FNV-1a: stable across runs and builds, which std's hasher is not promised to be.
    let digest = said.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let marker = dir.join(format!(".remind-{session}-{digest:016x}"));
    matches!(
        std::fs::OpenOptions::new().write(true).create_new(true).open(&marker),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists
    )
}

/// Whether `dir` and the tool's directory holding it are directories of their own, not
/// links: the sweep removes old files, and through a link it would remove somebody
/// else's.
fn own_dir(dir: &Path) -> bool {
    let real = |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir());
    real(dir) && dir.parent().is_none_or(real)
}

/// Mark `path` as written now: made when missing, never truncated, never followed (a
/// link or a FIFO there is left as it is, and so is what a link points to).
fn touch(path: &Path) {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path);
    if let Ok(file) = file
        && file.metadata().is_ok_and(|m| m.is_file())
    {
        let _ = file.set_modified(std::time::SystemTime::now());
    }
}
