//! The one error type of the tool.
//!
//! Every variant carries the data needed to explain itself, maps to one of the exit
//! statuses of the specification, and may carry a hint saying what to do next.
//! Messages are one line, lowercase, and printed as `git-handover: <message>`.

use std::fmt;
use std::path::PathBuf;

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
    /// Not inside a git repository.
    pub const NOT_A_REPOSITORY: u8 = 128;
}

#[derive(Debug)]
pub enum Error {
    /// The directory is not inside a git repository.
    NotARepository { dir: PathBuf },
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
        expected: String,
    },
    /// Bad command-line input beyond what clap checks.
    Usage {
        message: String,
        hint: Option<String>,
    },
    /// Reading or writing a file failed.
    Io {
        path: PathBuf,
        action: &'static str,
        source: std::io::Error,
    },
    /// The repository could not be read.
    Git { action: String, message: String },
    /// There was nothing to do (nothing to resume, nothing to migrate).
    NothingToDo { message: String },
    /// A lock stayed held by another writer for the whole lock timeout.
    Locked {
        lock: PathBuf,
        /// Who the lock file says holds it (`process <pid> on <host>`).
        owner: Option<String>,
        waited: std::time::Duration,
    },
    /// A reference kept moving under a compare-and-swap update until retries ran out.
    RefRace {
        reference: String,
        attempts: usize,
        last: String,
    },
    /// The handovers were listed but some of them could not be read; the report says which.
    InvalidHandovers { count: usize },
}

impl Error {
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

    pub fn git(action: impl Into<String>, err: impl fmt::Display) -> Self {
        Error::Git {
            action: action.into(),
            message: format!("{err:#}"),
        }
    }

    /// The exit status this error ends the process with.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::NotARepository { .. } => exit::NOT_A_REPOSITORY,
            Error::InvalidJson { .. }
            | Error::InvalidField { .. }
            | Error::TooLarge { .. }
            | Error::InvalidHandovers { .. } => exit::INVALID_DATA,
            Error::InvalidConfig { .. } | Error::Usage { .. } => exit::USAGE,
            Error::Io { .. } | Error::Git { .. } | Error::NothingToDo { .. } => exit::ATTENTION,
            Error::Locked { .. } | Error::RefRace { .. } => exit::RACE,
        }
    }

    /// What the user can do about it, if there is something to say.
    pub fn hint(&self) -> Option<String> {
        match self {
            Error::NotARepository { .. } => Some(
                "run it inside a git repository or one of its worktrees, or point at one with -C <path>"
                    .into(),
            ),
            Error::InvalidJson { file, .. } | Error::InvalidField { file, .. } => Some(format!(
                "fix or remove {} by hand; git-handover never rewrites a file it cannot read",
                file.display()
            )),
            Error::TooLarge { file, .. } => {
                Some(format!("{} is not a handover the tool wrote; inspect it by hand", file.display()))
            }
            Error::InvalidConfig { key, .. } => {
                Some(format!("correct it with `git config {key} <value>` (or the -c that set it), or remove it"))
            }
            Error::Usage { hint, .. } => hint.clone(),
            Error::InvalidHandovers { .. } => Some(
                "fix or remove each named file by hand; git-handover never rewrites a file it cannot read"
                    .into(),
            ),
            Error::Locked { lock, .. } => Some(format!(
                "another git-handover is writing; it is removed by itself once it is older than handover.lockTimeout and its process is gone; if no git-handover runs, remove {}",
                lock.display()
            )),
            Error::RefRace { reference, .. } => Some(format!(
                "other writers kept updating {reference}; run the command again"
            )),
            Error::Io { .. } | Error::Git { .. } | Error::NothingToDo { .. } => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NotARepository { dir } => write!(
                f,
                "not a git repository (or any of the parent directories): {}",
                dir.display()
            ),
            Error::InvalidJson {
                file,
                line,
                column,
                message,
            } => write!(
                f,
                "invalid json in {} at line {line}, column {column}: {message}",
                file.display()
            ),
            Error::InvalidField {
                file,
                field,
                message,
            } => {
                write!(
                    f,
                    "invalid handover {}: field `{field}` {message}",
                    file.display()
                )
            }
            Error::TooLarge { file, size, limit } => write!(
                f,
                "refusing to read {}: {size} bytes is over the limit of {limit} bytes",
                file.display()
            ),
            Error::InvalidConfig {
                key,
                value,
                expected,
            } => {
                write!(
                    f,
                    "invalid value {value:?} for config key {key}: expected {expected}"
                )
            }
            Error::Usage { message, .. } | Error::NothingToDo { message } => f.write_str(message),
            Error::Io {
                path,
                action,
                source,
            } => {
                write!(
                    f,
                    "cannot {action} {}: {}",
                    path.display(),
                    lowercase_first(&source.to_string())
                )
            }
            Error::Git { action, message } => write!(f, "cannot {action}: {}", one_line(message)),
            Error::Locked {
                lock,
                owner,
                waited,
            } => write!(
                f,
                "cannot take the lock {}: held by {} for {}",
                lock.display(),
                owner.as_deref().unwrap_or("another writer"),
                crate::config::human_duration(*waited)
            ),
            Error::RefRace {
                reference,
                attempts,
                last,
            } => write!(
                f,
                "cannot update {reference}: it kept changing under {attempts} attempts (last: {last})"
            ),
            Error::InvalidHandovers { count } => {
                if *count == 1 {
                    f.write_str("1 handover file is invalid")
                } else {
                    write!(f, "{count} handover files are invalid")
                }
            }
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T, E = Error> = std::result::Result<T, E>;

fn lowercase_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn one_line(s: &str) -> String {
    lowercase_first(&s.split_whitespace().collect::<Vec<_>>().join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_lowercase_line() {
        let err = Error::io(
            "/x/y",
            "read",
            std::io::Error::new(std::io::ErrorKind::NotFound, "No such file"),
        );
        assert_eq!(err.to_string(), "cannot read /x/y: no such file");
        let err = Error::git("walk history", "Object\n  abc missing");
        assert_eq!(err.to_string(), "cannot walk history: object abc missing");
    }

    #[test]
    fn exit_codes_follow_the_spec() {
        assert_eq!(Error::NotARepository { dir: "/".into() }.exit_code(), 128);
        let bad = Error::InvalidField {
            file: "f".into(),
            field: "active_tasks[2].status".into(),
            message: "must be a string".into(),
        };
        assert_eq!(bad.exit_code(), 3);
        assert_eq!(
            bad.to_string(),
            "invalid handover f: field `active_tasks[2].status` must be a string"
        );
    }
}
