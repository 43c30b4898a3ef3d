//! What an agent's own transcript says the session did, read from its tail: the user's
//! last request, the files the agent's edit tools touched and the shell commands that
//! failed (SPEC section 11). Pure: [`digest`] takes the text of complete lines (the
//! reader in `services/transcript.rs` reads the file's tail and drops a torn first line),
//! one parser per agent format. No model, only what the lines say.

mod claude;
mod codex;
mod gemini;

/// Whose transcript format a file is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Claude,
    Codex,
    Gemini,
}

/// What a transcript's tail says, bounded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Digest {
    /// The user's last real request (not a tool result, hook, system or compaction
    /// line): one line, trimmed, at most [`MAX_REQUEST_CHARS`] characters (cut at a
    /// character boundary, ending in `…`).
    pub last_request: Option<String>,
    /// Paths the agent's edit and write tools touched, in first-seen order, without
    /// repeats, at most [`MAX_EDITED_FILES`].
    pub edited_files: Vec<String>,
    /// Shell tool calls that failed, newest last, at most [`MAX_FAILED_COMMANDS`].
    pub failed_commands: Vec<FailedCommand>,
    /// Lines that were not of this format, not JSON, or cut.
    pub skipped_lines: usize,
}

/// A shell tool call that failed: what ran, its exit status when the transcript says
/// it, and the first line of what it printed as an error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailedCommand {
    pub command: String,
    pub exit_status: Option<i32>,
    pub first_error_line: String,
}

/// The longest last request kept, in characters (the `…` included).
pub const MAX_REQUEST_CHARS: usize = 200;
/// The most edited files kept.
pub const MAX_EDITED_FILES: usize = 50;
/// The most failed commands kept (the newest).
pub const MAX_FAILED_COMMANDS: usize = 10;
/// The longest command and error line kept, in characters.
pub const MAX_LINE_CHARS: usize = 200;

/// Digest `tail`, complete lines of a transcript in `format`.
pub fn digest(format: Format, tail: &str) -> Digest {
    match format {
        Format::Claude => claude::digest(tail),
        Format::Codex => codex::digest(tail),
        Format::Gemini => gemini::digest(tail),
    }
}

/// A digest being built, line by line, keeping every bound as it goes.
#[derive(Debug, Default)]
struct Builder {
    digest: Digest,
}

impl Builder {
    /// The user asked `text`: it is the last request so far, when it says anything.
    fn request(&mut self, text: &str) {
        if let Some(line) = one_line(text, MAX_REQUEST_CHARS) {
            self.digest.last_request = Some(line);
        }
    }

    /// A tool edited or wrote `path`. An absolute path is kept with its `.` and `..`
    /// resolved by the words alone, so that one file spelled two ways is one.
    fn edited(&mut self, path: &str) {
        let path = path.trim();
        let resolved = path.starts_with('/').then(|| {
            crate::support::paths::lexical(std::path::Path::new(path))
                .to_string_lossy()
                .into_owned()
        });
        let path = resolved.as_deref().unwrap_or(path);
        let known = self.digest.edited_files.iter().any(|p| p == path);
        if !path.is_empty() && !known && self.digest.edited_files.len() < MAX_EDITED_FILES {
            self.digest.edited_files.push(path.to_owned());
        }
    }

    /// A shell command failed: the newest [`MAX_FAILED_COMMANDS`] are kept.
    fn failed(&mut self, command: &str, exit_status: Option<i32>, output: &str) {
        let failed = &mut self.digest.failed_commands;
        if failed.len() == MAX_FAILED_COMMANDS {
            failed.remove(0);
        }
        failed.push(FailedCommand {
            command: one_line(command, MAX_LINE_CHARS).unwrap_or_default(),
            exit_status,
            first_error_line: output
                .lines()
                .find_map(|l| one_line(l, MAX_LINE_CHARS))
                .unwrap_or_default(),
        });
    }

    /// A line that is not of the format, not JSON or cut.
    fn skipped(&mut self) {
        self.digest.skipped_lines += 1;
    }

    fn finish(self) -> Digest {
        self.digest
    }
}

/// `text` on one line: whitespace runs (newlines included) become one space, the ends
/// are trimmed, and what is longer than `max` characters is cut at a character
/// boundary and ends in `…`. `None` when nothing is left.
fn one_line(text: &str, max: usize) -> Option<String> {
    let mut out = String::new();
    let mut chars = 0;
    for word in text.split_whitespace() {
        for c in (!out.is_empty())
            .then_some(' ')
            .into_iter()
            .chain(word.chars())
        {
            if chars == max {
                out.pop();
                out.push('…');
                return Some(out);
            }
            out.push(c);
            chars += 1;
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The text of a content value: a string as it is, or the `text` of each part of an
/// array joined by newlines.
fn text_of(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(serde_json::Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests;
