//! What an agent session's start saw, kept in its start marker (`starts.rs`) for the
//! hooks at its end: HEAD's commit and the transcript the agent named. One line per
//! fact: `head <hex>`, `transcript <path>` (lines of other kinds, such as the `dirty`
//! lines of earlier versions, are skipped). A start does not look at the worktree (on
//! 50,000 tracked files that look made every agent start about ten times slower): the
//! end counts a changed file as this agent session's when it was modified at or after
//! the start (the marker's own time).

use std::path::{Path, PathBuf};

/// The most changed files the end looks at.
pub(super) const DIRTY_KEPT: usize = 2_000;
/// The most a marker is read.
const MARKER_LIMIT: u64 = 512 * 1024;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StartSeen {
    pub head: Option<String>,
    pub transcript: Option<PathBuf>,
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
        out
    }

    pub fn parse(text: &str) -> StartSeen {
        let mut seen = StartSeen::default();
        for line in text.lines() {
            if let Some(h) = line.strip_prefix("head ") {
                seen.head = Some(h.trim().to_owned());
            } else if let Some(t) = line.strip_prefix("transcript ") {
                seen.transcript = Some(PathBuf::from(t));
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

/// What this start sees: HEAD and the event's transcript.
pub(super) fn now(repo: &crate::git::Repo, event: &super::event::Event) -> StartSeen {
    StartSeen {
        head: repo.head_hex(),
        transcript: event.text("transcript_path").map(PathBuf::from),
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
        };
        assert_eq!(StartSeen::parse(&seen.to_text()), seen);
        // An earlier version's lines of files changed at the start are skipped.
        let old = format!("{}dirty-more\ndirty src/a.rs\t-\n", seen.to_text());
        assert_eq!(StartSeen::parse(&old), seen);
        assert_eq!(StartSeen::parse("garbage\n\u{0}"), StartSeen::default());
    }
}
