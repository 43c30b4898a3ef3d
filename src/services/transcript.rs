//! Reading an agent's transcript (the `transcript_path` of a hook event) for what the
//! session did (SPEC section 11): its tail only, regular files only, never blocking,
//! never failing. What could not be read is a [`Problem`], a one-line note for the hook
//! to print ([`note`]); a partial read still gives a digest.

use std::path::Path;

use crate::cli::shared::HookAgent;
use crate::model::transcript::{self, Digest, Format};
use crate::support::error::Msg;
use crate::support::read::{TailRefused, read_tail};

/// The most of a transcript read: its last 1 MiB. A 200 MB transcript costs what a
/// 1 MiB one does; the edits and the failures of the session's end are in its tail,
/// and so is the last request, or Claude Code's `last-prompt` line that repeats it
/// after each turn. (4 MiB made session-end on a 50 MB transcript 3.9x `git log
/// --oneline -100`, the parse of the tail most of it; 1 MiB makes it 2.5x:
/// bench/BENCHMARKS.md, issue 34.)
pub const TAIL_LIMIT: u64 = 1024 * 1024;

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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Seek as _, Write as _};
    use std::time::{Duration, Instant};

    const LINE: &str =
        r#"{"type":"user","uuid":"u","sessionId":"s","message":{"content":"do it"}}"#;

    fn in_time(path: std::path::PathBuf) -> Read {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || tx.send(read(&path, Format::Claude)));
        rx.recv_timeout(Duration::from_secs(5))
            .expect("read blocked")
    }

    #[test]
    fn a_fifo_a_directory_and_nothing_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo.jsonl");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        assert_eq!(in_time(fifo.clone()).problem, Some(Problem::NotRegular));
        assert_eq!(
            in_time(dir.path().to_owned()).problem,
            Some(Problem::NotRegular)
        );
        assert_eq!(
            in_time(dir.path().join("none")).problem,
            Some(Problem::Missing)
        );
        let link = dir.path().join("to-fifo");
        std::os::unix::fs::symlink(&fifo, &link).unwrap();
        assert_eq!(in_time(link).problem, Some(Problem::Symlink));
    }

    #[test]
    fn links_are_followed_to_regular_files_only() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.jsonl");
        std::fs::write(&real, format!("{LINE}\n")).unwrap();
        let link = dir.path().join("linked.jsonl");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let r = in_time(link);
        assert_eq!(r.problem, None);
        assert_eq!(r.digest.last_request.as_deref(), Some("do it"));
        for (name, target) in [
            ("zero", "/dev/zero"),
            ("dangling", "/nonexistent/x"),
            ("self", "self"),
        ] {
            let link = dir.path().join(name);
            std::os::unix::fs::symlink(target, &link).unwrap();
            let r = in_time(link);
            assert_eq!(r.problem, Some(Problem::Symlink), "{name}");
            assert_eq!(r.digest, Digest::default());
        }
    }

    #[test]
    fn a_200_mb_transcript_reads_its_tail_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.jsonl");
        let mut f = std::fs::File::create(&path).unwrap();
        f.set_len(200 * 1024 * 1024).unwrap();
        f.seek(std::io::SeekFrom::End(0)).unwrap();
        write!(f, "\n{LINE}\n").unwrap();
        let started = Instant::now();
        let r = read(&path, Format::Claude);
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(r.digest.last_request.as_deref(), Some("do it"));
        assert!(
            matches!(r.problem, Some(Problem::Truncated { read_bytes, total })
            if read_bytes == TAIL_LIMIT && total > 200 * 1024 * 1024)
        );
    }

    #[test]
    fn a_torn_line_and_bytes_not_utf8_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        // A tail that starts inside a line, a line with bytes that are not UTF-8, and a
        // last line cut mid-write.
        let mut bytes = format!("{LINE}\n{LINE}\n").into_bytes();
        bytes.extend_from_slice(
            b"{\"type\":\"user\",\"uuid\":\"v\",\"message\":{\"content\":\"\xff\xfe\"}}\n",
        );
        bytes.extend_from_slice(&LINE.as_bytes()[..30]);
        std::fs::write(&path, &bytes).unwrap();
        let r = read_bounded(&path, Format::Claude, bytes.len() as u64 - 10);
        assert_eq!(r.problem, Some(Problem::NotUtf8));
        assert_eq!(r.digest.last_request.as_deref(), Some("do it"));
        assert_eq!(r.digest.skipped_lines, 2);
        // Only the torn last line is left of a 40-byte tail: not of the format.
        let r = read_bounded(&path, Format::Claude, 40);
        assert_eq!(r.problem, Some(Problem::OtherFormat));
        assert_eq!(r.digest.skipped_lines, 1);
        assert_eq!(r.digest.last_request, None);
    }

    #[test]
    fn empty_and_other_formats() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        std::fs::write(&path, "").unwrap();
        assert_eq!(
            read(&path, Format::Claude),
            Read {
                digest: Digest::default(),
                problem: None
            }
        );
        std::fs::write(&path, format!("{LINE}\n")).unwrap();
        let r = read(&path, Format::Codex);
        assert_eq!(r.problem, Some(Problem::OtherFormat));
        assert_eq!(r.digest.last_request, None);
        std::fs::write(&path, b"\x00\x01 binary\n").unwrap();
        assert_eq!(
            read(&path, Format::Gemini).problem,
            Some(Problem::OtherFormat)
        );
    }

    #[test]
    fn every_problem_has_a_note_in_both_languages() {
        use crate::support::i18n::Lang;
        let all = [
            Problem::Missing,
            Problem::NotRegular,
            Problem::Symlink,
            Problem::Truncated {
                read_bytes: TAIL_LIMIT,
                total: 200 << 20,
            },
            Problem::NotUtf8,
            Problem::Io("denied".into()),
            Problem::OtherFormat,
        ];
        for p in &all {
            for lang in [Lang::En, Lang::Ja] {
                let line = note(p).render(lang);
                assert!(!line.contains('{') && !line.contains('\n'), "{line}");
            }
        }
        assert_eq!(
            note(&all[3]).render(Lang::En),
            "only the last 1.0 MiB of the agent's 200.0 MiB transcript were read"
        );
        assert_eq!(format_of(HookAgent::Copilot), None);
        assert_eq!(format_of(HookAgent::Gemini), Some(Format::Gemini));
    }
}
