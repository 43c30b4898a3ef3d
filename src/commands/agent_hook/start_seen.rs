//! What an agent session's start saw, kept in its start marker (`starts.rs`) for the
//! hooks at its end: HEAD's commit, the transcript the agent named, and the tracked
//! files that already differed from HEAD (so that the end counts only what changed
//! since). One line per fact: `head <hex>`, `transcript <path>`, `dirty <path>\t<id>`.

use std::path::{Path, PathBuf};

use crate::git::Dirty;

/// Files kept of those dirty at the start; a start with more keeps none and says so
/// (`dirty-more`), and the end then counts a file only when the agent edited it.
pub(super) const DIRTY_KEPT: usize = 2_000;
/// The most a marker is read.
const MARKER_LIMIT: u64 = 512 * 1024;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StartSeen {
    pub head: Option<String>,
    pub transcript: Option<PathBuf>,
    pub dirty: Vec<Dirty>,
    /// More files were dirty than were kept.
    pub dirty_more: bool,
}

impl StartSeen {
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        if let Some(head) = &self.head {
            let _ = writeln!(out, "head {head}");
        }
        if let Some(t) = self.transcript.as_ref().and_then(|t| t.to_str())
            && !t.contains('\n')
        {
            let _ = writeln!(out, "transcript {t}");
        }
        if self.dirty_more {
            out.push_str("dirty-more\n");
        }
        for (path, id) in &self.dirty {
            if !path.contains(['\n', '\t']) {
                let _ = writeln!(out, "dirty {path}\t{id}");
            }
        }
        out
    }

    pub fn parse(text: &str) -> StartSeen {
        let mut seen = StartSeen::default();
        for line in text.lines() {
            if let Some(h) = line.strip_prefix("head ") {
                seen.head = Some(h.trim().to_owned());
            } else if let Some(t) = line.strip_prefix("transcript ") {
                seen.transcript = Some(PathBuf::from(t));
            } else if line == "dirty-more" {
                seen.dirty_more = true;
            } else if let Some((p, id)) =
                line.strip_prefix("dirty ").and_then(|d| d.split_once('\t'))
            {
                seen.dirty.push((p.to_owned(), id.to_owned()));
            }
        }
        seen
    }

    /// Read from a marker: bounded, a regular file only, never through a link.
    pub fn read(marker: &Path) -> Option<StartSeen> {
        let bytes = crate::support::read::read_regular(marker, MARKER_LIMIT).ok()?;
        Some(StartSeen::parse(&String::from_utf8_lossy(&bytes)))
    }
}

/// What this start sees: HEAD, the event's transcript, the tracked files already
/// changed (looked at for at most half a second).
pub(super) fn now(repo: &crate::git::Repo, event: &super::event::Event) -> StartSeen {
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(500);
    let (dirty, more) = repo.dirty_files(DIRTY_KEPT, deadline);
    StartSeen {
        head: repo.head_hex(),
        transcript: event.text("transcript_path").map(PathBuf::from),
        dirty: if more { Vec::new() } else { dirty },
        dirty_more: more,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_reads_back_as_written() {
        let seen = StartSeen {
            head: Some("ab".repeat(20)),
            transcript: Some(PathBuf::from("/tmp/x y.jsonl")),
            dirty: vec![("src/a b.rs".into(), "-".into())],
            dirty_more: false,
        };
        assert_eq!(StartSeen::parse(&seen.to_text()), seen);
        assert_eq!(StartSeen::parse("garbage\n\u{0}"), StartSeen::default());
    }
}
