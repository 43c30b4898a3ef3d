//! Reading an agent's transcript (the `transcript_path` of a hook event) for what the
//! session did (SPEC section 11): its tail only, regular files only, never blocking,
//! never failing. What could not be read is a [`Problem`], a one-line note for the hook
//! to print ([`note`]); a partial read still gives a digest.

use std::path::Path;

use crate::cli::shared::HookAgent;
use crate::model::transcript::{self, Digest, Format};
use crate::support::error::Msg;
use crate::support::read::{TailRefused, read_tail};

/// The most of a transcript read: its last 4 MiB. A 200 MB transcript costs what a
/// 4 MiB one does; the last request, the edits and the failures of the session's end
/// are in its tail.
pub const TAIL_LIMIT: u64 = 4 * 1024 * 1024;

/// What reading a transcript gave: a digest (empty when nothing could be read) and
/// what stood in the way, if anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Read {
    pub digest: Digest,
    pub problem: Option<Problem>,
}

/// Why a transcript was read only in part, or not at all.
///
/// A link is followed when it leads to a regular file (agents' directories are often
/// links into a dotfiles checkout): that is no problem. [`Problem::Symlink`] is a link
/// that leads to anything else — nothing (dangling), a loop, a FIFO, a device such as
/// `/dev/zero` — which is refused without being read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// No file at the path.
    Missing,
    /// The path is a FIFO, a directory, a device or a socket.
    NotRegular,
    /// The path is a link to no regular file.
    Symlink,
    /// Only the last `read_bytes` of `total` were read (the torn first line dropped).
    Truncated { read_bytes: u64, total: u64 },
    /// Lines with bytes that are not UTF-8 were skipped.
    NotUtf8,
    /// Reading failed: the system's words.
    Io(String),
    /// The file has lines, but none of them is in the agent's format.
    OtherFormat,
}

/// The transcript format of an agent's hook events, when the tool reads it (GitHub
/// Copilot CLI's is not read).
#[allow(dead_code, reason = "the recording hooks (issue 34) call it")]
pub fn format_of(agent: HookAgent) -> Option<Format> {
    match agent {
        HookAgent::Claude => Some(Format::Claude),
        HookAgent::Codex => Some(Format::Codex),
        HookAgent::Gemini => Some(Format::Gemini),
        HookAgent::Copilot => None,
    }
}

/// Read the transcript at `path`, in `format`: its last [`TAIL_LIMIT`] bytes at most.
pub fn read(path: &Path, format: Format) -> Read {
    read_bounded(path, format, TAIL_LIMIT)
}

/// [`read`] with another limit (the tests use a small one).
pub fn read_bounded(path: &Path, format: Format, limit: u64) -> Read {
    let tail = match read_tail(path, limit) {
        Ok(tail) => tail,
        Err(refused) => {
            let problem = match refused {
                TailRefused::Missing => Problem::Missing,
                TailRefused::NotRegular => Problem::NotRegular,
                TailRefused::Link => Problem::Symlink,
                TailRefused::Io(e) => Problem::Io(e.to_string()),
            };
            return Read {
                digest: Digest::default(),
                problem: Some(problem),
            };
        }
    };
    let mut bytes = tail.bytes.as_slice();
    let truncated = tail.start > 0;
    if truncated {
        // The first line began before the tail: drop it whole, torn or not.
        bytes = memchr::memchr(b'\n', bytes).map_or(&[][..], |i| &bytes[i + 1..]);
    }
    let (text, bad_lines) = utf8_lines(bytes);
    let mut digest = transcript::digest(format, &text);
    digest.skipped_lines += bad_lines;
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    let problem = if lines > 0 && digest.skipped_lines >= lines + bad_lines {
        Some(Problem::OtherFormat)
    } else if bad_lines > 0 {
        Some(Problem::NotUtf8)
    } else if truncated {
        Some(Problem::Truncated {
            read_bytes: tail.bytes.len() as u64,
            total: tail.total,
        })
    } else {
        None
    };
    Read { digest, problem }
}

/// The lines of `bytes` that are UTF-8, and how many were not (each skipped whole).
fn utf8_lines(bytes: &[u8]) -> (std::borrow::Cow<'_, str>, usize) {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return (text.into(), 0);
    }
    let mut text = String::with_capacity(bytes.len());
    let mut bad = 0;
    for line in bytes.split(|&b| b == b'\n') {
        match std::str::from_utf8(line) {
            Ok(line) => {
                text.push_str(line);
                text.push('\n');
            }
            Err(_) => bad += 1,
        }
    }
    (text.into(), bad)
}

/// The one-line note a hook prints for `problem`.
pub fn note(problem: &Problem) -> Msg {
    match problem {
        Problem::Missing => Msg::new(crate::k!("transcript.missing"), &[]),
        Problem::NotRegular => Msg::new(crate::k!("transcript.not_regular"), &[]),
        Problem::Symlink => Msg::new(crate::k!("transcript.symlink"), &[]),
        Problem::Truncated { read_bytes, total } => Msg::new(
            crate::k!("transcript.truncated"),
            &[("read", &mib(*read_bytes)), ("total", &mib(*total))],
        ),
        Problem::NotUtf8 => Msg::new(crate::k!("transcript.not_utf8"), &[]),
        Problem::Io(why) => Msg::new(crate::k!("transcript.io"), &[("why", why)]),
        Problem::OtherFormat => Msg::new(crate::k!("transcript.other_format"), &[]),
    }
}

/// A size in MiB with one decimal, for the note.
fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}
