//! The one error type of the tool.
//!
//! Every variant carries the data needed to explain itself, maps to one of the exit
//! statuses of the specification, and may carry a hint saying what to do next.
//! Messages are one line, lowercase, and printed as `git-handover: <message>`.

use std::fmt;
use std::path::PathBuf;

use crate::support::i18n::Lang;

/// Exit statuses of SPEC section 5.
pub mod exit {
    pub const OK: u8 = 0;
    /// Nothing to resume, or `--check` found problems.
    pub const ATTENTION: u8 = 1;
    /// A usage error, or an ambiguous choice without a terminal.
    pub const USAGE: u8 = 2;
    /// Invalid handover data.
    pub const INVALID_DATA: u8 = 3;
    /// A lock or ref update lost a race and retries ran out.
    pub const RACE: u8 = 4;
    /// The files were written but the notes store was not updated.
    pub const NOT_RECORDED: u8 = 5;
    /// A task is held by another holder's live claim (SPEC section 10).
    pub const HELD: u8 = 6;
    /// Not inside a git repository.
    pub const NOT_A_REPOSITORY: u8 = 128;
}

#[derive(Debug)]
pub enum Error {
    /// The directory is not inside a git repository.
    NotARepository { dir: PathBuf },
    /// A repository is there but cannot be read (a broken configuration, say).
    UnreadableRepository { git_dir: PathBuf, why: String },
    /// A repository with SHA-256 object names, which this build cannot read yet.
    Sha256Unsupported { git_dir: PathBuf },
    /// A repository of another user, not listed in `safe.directory` (git refuses it).
    DubiousOwnership { dir: PathBuf },
    /// A repository whose refs are in reftable (`extensions.refStorage=reftable`).
    ReftableUnsupported { git_dir: PathBuf },
    /// The input of a command (stdin, or the file of `--from`) is not what it reads:
    /// the error about it, with a hint about the input rather than a stored file.
    /// Everything but the hint is the inner error's.
    BadInput { error: Box<Error>, stdin: bool },
    /// A handover file is not valid JSON (with position) or too large.
    InvalidJson {
        file: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    /// A handover file is valid JSON but a field is wrong.
    InvalidField {
        file: PathBuf,
        field: String,
        message: String,
    },
    /// A handover file holds more JSON values than the tool reads (memory stays bounded).
    TooManyValues { file: PathBuf, limit: usize },
    /// A state the tool was asked to write would be over the size it reads back.
    WouldBeTooLarge {
        file: PathBuf,
        size: u64,
        limit: u64,
    },
    /// A file the tool reads is not a regular file (a FIFO, a device, a directory, a
    /// symbolic link where links are not followed): refused, never waited on.
    NotRegular { path: PathBuf, kind: &'static str },
    /// A text file the tool would edit is not UTF-8: it is left as it is.
    NotText { path: PathBuf },
    /// A file the tool would edit cannot be edited faithfully (an agent's settings
    /// file with comments, or not JSON): it is left as it is (exit 3).
    Unedited { message: Msg, hint: Msg },
    /// A handover file is over the size limit.
    TooLarge {
        file: PathBuf,
        size: u64,
        limit: u64,
    },
    /// A configuration value could not be understood.
    InvalidConfig {
        key: String,
        value: String,
        expected: Msg,
    },
    /// Bad command-line input beyond what clap checks.
    Usage { message: Msg, hint: Option<Msg> },
    /// Reading or writing a file failed.
    Io {
        path: PathBuf,
        action: &'static str,
        source: std::io::Error,
    },
    /// The repository could not be read.
    Git { action: Msg, message: String },
    /// As [`Error::Git`], the cause said in the catalog's words (not git's or gix's).
    GitSaid { action: Msg, why: Msg },
    /// `sync` could not reach the remote (git's words in `why`).
    Unreachable { remote: String, why: String },
    /// There was nothing to do (nothing to resume, nothing to migrate).
    NothingToDo { message: Msg, hint: Option<Msg> },
    /// A lock stayed held by another writer for the whole lock timeout.
    Locked {
        lock: PathBuf,
        /// Who the lock file says holds it.
        owner: Option<LockOwner>,
        /// How long the lock file has existed, when it still did.
        age: Option<std::time::Duration>,
        waited: std::time::Duration,
    },
    /// What a command showed and then acted on changed before it could act under the
    /// lock (another writer came first): nothing was written.
    Changed { message: Msg, hint: Option<Msg> },
    /// A reference kept moving under a compare-and-swap update until retries ran out.
    RefRace {
        reference: String,
        attempts: usize,
        last: String,
    },
    /// A reference's lock file stayed in place the whole time retries ran (a git
    /// process that died left it, most likely).
    RefLocked {
        reference: String,
        lock: PathBuf,
        age: std::time::Duration,
    },
    /// A session's files were written but the notes store did not get the record: the
    /// files are the truth, and `sync --record` records them.
    NotRecorded {
        notes_ref: String,
        key: String,
        why: Box<Error>,
    },
    /// The handovers were listed but some of them could not be read; the report says which.
    InvalidHandovers { count: usize },
    /// A task is held by another holder's live lease: nothing was written.
    Held {
        task: String,
        key: String,
        holder: String,
        since: jiff::Timestamp,
        expires: jiff::Timestamp,
        /// The task says a claim of it was lost to another clone's (`lost_claim`).
        lost: Option<Box<LostClaim>>,
    },
}

impl Error {
    /// A usage error (exit 2) without a hint.
    pub fn usage(message: Msg) -> Self {
        Error::Usage {
            message,
            hint: None,
        }
    }

    /// A usage error (exit 2) with a hint.
    pub fn usage_hint(message: Msg, hint: Msg) -> Self {
        Error::Usage {
            message,
            hint: Some(hint),
        }
    }

    pub fn io(path: impl Into<PathBuf>, action: &'static str, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            action,
            source,
        }
    }

    /// A JSON syntax error in `file`, with serde's position moved into the fields.
    pub fn json(file: &std::path::Path, e: &serde_json::Error) -> Self {
        let message = e.to_string();
        let message = message
            .rfind(" at line ")
            .map_or(message.as_str(), |i| &message[..i])
            .to_owned();
        Error::InvalidJson {
            file: file.to_owned(),
            line: e.line(),
            column: e.column(),
            message,
        }
    }

    pub fn git(action: Msg, err: impl fmt::Display) -> Self {
        Error::Git {
            action,
            message: format!("{err}"),
        }
    }

    /// An error about the input of a command, `<stdin>` (its name as
    /// [`STDIN`]) or a file given with `--from`: its hint speaks of that input, which
    /// is never stored or rewritten. Errors of another kind pass unchanged (a
    /// `--from` that is not a regular file keeps its own hint: replace it with one).
    #[must_use]
    pub fn of_input(self) -> Self {
        match self {
            Error::InvalidJson { .. }
            | Error::InvalidField { .. }
            | Error::TooLarge { .. }
            | Error::TooManyValues { .. }
            | Error::NotText { .. } => {
                let stdin = self.file() == Some(std::path::Path::new(STDIN));
                Error::BadInput {
                    error: Box::new(self),
                    stdin,
                }
            }
            other => other,
        }
    }

    /// The kind of error, a stable word for `--json`.
    pub fn kind(&self) -> &'static str {
        match self {
            Error::BadInput { error, .. } => error.kind(),
            Error::NotARepository { .. } => "not_a_repository",
            Error::UnreadableRepository { .. } => "unreadable_repository",
            Error::Sha256Unsupported { .. } => "sha256_unsupported",
            Error::DubiousOwnership { .. } => "dubious_ownership",
            Error::ReftableUnsupported { .. } => "reftable_unsupported",
            Error::InvalidJson { .. } => "invalid_json",
            Error::InvalidField { .. } => "invalid_field",
            Error::TooManyValues { .. } => "too_many_values",
            Error::WouldBeTooLarge { .. } => "would_be_too_large",
            Error::NotRegular { .. } => "not_a_regular_file",
            Error::NotText { .. } => "not_text",
            Error::Unedited { .. } => "not_editable",
            Error::TooLarge { .. } => "too_large",
            Error::InvalidConfig { .. } => "invalid_config",
            Error::Usage { .. } => "usage",
            Error::Io { .. } => "io",
            Error::Git { .. } | Error::GitSaid { .. } => "git",
            Error::Unreachable { .. } => "unreachable_remote",
            Error::NothingToDo { .. } => "nothing_to_do",
            Error::Locked { .. } => "locked",
            Error::Changed { .. } => "changed",
            Error::RefRace { .. } => "ref_race",
            Error::RefLocked { .. } => "ref_locked",
            Error::NotRecorded { .. } => "not_recorded",
            Error::InvalidHandovers { .. } => "invalid_handovers",
            Error::Held { .. } => "held",
        }
    }

    /// The file the error is about, when it is about one.
    pub fn file(&self) -> Option<&std::path::Path> {
        match self {
            Error::BadInput { error, .. } => error.file(),
            Error::NotARepository { dir } | Error::DubiousOwnership { dir } => Some(dir),
            Error::UnreadableRepository { git_dir, .. }
            | Error::Sha256Unsupported { git_dir }
            | Error::ReftableUnsupported { git_dir } => Some(git_dir),
            Error::InvalidJson { file, .. }
            | Error::InvalidField { file, .. }
            | Error::TooManyValues { file, .. }
            | Error::WouldBeTooLarge { file, .. }
            | Error::TooLarge { file, .. } => Some(file),
            Error::NotRegular { path, .. } | Error::NotText { path } | Error::Io { path, .. } => {
                Some(path)
            }
            Error::Locked { lock, .. } | Error::RefLocked { lock, .. } => Some(lock),
            _ => None,
        }
    }

    /// The field path the error is about (`active_tasks[2].status`), or the
    /// configuration key.
    pub fn field(&self) -> Option<&str> {
        match self {
            Error::BadInput { error, .. } => error.field(),
            Error::InvalidField { field, .. } => Some(field),
            Error::InvalidConfig { key, .. } => Some(key),
            _ => None,
        }
    }

    /// The error as `--json` prints it on stdout: English message, the hint, what it
    /// is about, and the exit status.
    pub fn to_json(&self) -> serde_json::Value {
        let mut doc = serde_json::json!({
            "schema": "git-handover/error/1",
            "error": {
                "kind": self.kind(),
                "message": self.message(Lang::En),
                "hint": self.hint_in(Lang::En),
                "file": self.file().map(|f| f.display().to_string()),
                "field": self.field(),
                "exit": self.exit_code(),
            }
        });
        if let Error::Held {
            task,
            holder,
            since,
            expires,
            lost,
            ..
        } = self
        {
            let utc = |t: &jiff::Timestamp| crate::support::clock::utc_seconds(*t);
            let e = &mut doc["error"];
            e["task"] = task.as_str().into();
            e["holder"] = holder.as_str().into();
            e["since"] = utc(since).into();
            e["expires"] = utc(expires).into();
            if let Some(l) = lost {
                e["lost_claim"] = serde_json::json!({"holder": l.holder, "since": utc(&l.since),
                    "winner": l.winner, "at": utc(&l.at)});
            }
        }
        doc
    }

    /// The exit status this error ends the process with.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::BadInput { error, .. } => error.exit_code(),
            Error::NotARepository { .. }
            | Error::UnreadableRepository { .. }
            | Error::Sha256Unsupported { .. }
            | Error::DubiousOwnership { .. }
            | Error::ReftableUnsupported { .. } => exit::NOT_A_REPOSITORY,
            Error::InvalidJson { .. }
            | Error::InvalidField { .. }
            | Error::TooLarge { .. }
            | Error::NotRegular { .. }
            | Error::NotText { .. }
            | Error::Unedited { .. }
            | Error::TooManyValues { .. }
            | Error::WouldBeTooLarge { .. }
            | Error::InvalidHandovers { .. } => exit::INVALID_DATA,
            Error::InvalidConfig { .. } | Error::Usage { .. } => exit::USAGE,
            Error::Io { .. }
            | Error::Git { .. }
            | Error::GitSaid { .. }
            | Error::Unreachable { .. }
            | Error::NothingToDo { .. } => exit::ATTENTION,
            Error::Locked { .. }
            | Error::Changed { .. }
            | Error::RefRace { .. }
            | Error::RefLocked { .. } => exit::RACE,
            Error::NotRecorded { .. } => exit::NOT_RECORDED,
            Error::Held { .. } => exit::HELD,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::NotRecorded { why, .. } => Some(why.as_ref()),
            Error::BadInput { error, .. } => Some(error.as_ref()),
            _ => None,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The name standard input goes by in messages.
pub const STDIN: &str = "<stdin>";

/// An error kept in a report (a handover that could not be read, a session passed
/// over), typed until it is shown: rendered in the run's language for people, in
/// English for `--json`.
#[derive(Debug, Clone)]
pub struct Problem(std::sync::Arc<Error>);

impl Problem {
    /// The message in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        self.0.message(lang)
    }
}

impl From<Error> for Problem {
    fn from(e: Error) -> Self {
        Problem(std::sync::Arc::new(e))
    }
}

impl fmt::Display for Problem {
    /// The English message (JSON output carries this).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

mod lock_owner;
mod msg;
mod render;
pub use lock_owner::LockOwner;
pub use msg::{Msg, msg};
pub use render::LostClaim;
#[cfg(test)]
mod tests;
