//! The words of an error: its message and hint in the run's language.

use std::fmt;

use super::{Error, LockOwner};
use crate::support::i18n::Lang;

impl Error {
    /// What the user can do about it, if there is something to say (in English).
    pub fn hint(&self) -> Option<String> {
        self.hint_in(Lang::En)
    }

    /// What the user can do about it, in `lang`.
    pub fn hint_in(&self, lang: Lang) -> Option<String> {
        let f = |key: &str, args: &[(&str, &dyn fmt::Display)]| {
            crate::support::i18n::fill(lang, key, args)
        };
        match self {
            Error::BadInput { stdin: true, .. } => Some(f(crate::k!("err.hint_fix_stdin"), &[])),
            Error::BadInput { error, .. } => Some(f(
                crate::k!("err.hint_fix_input"),
                &[(
                    "file",
                    &error
                        .file()
                        .map(|p| p.display().to_string())
                        .unwrap_or_default(),
                )],
            )),
            Error::NotARepository { .. } => Some(f(crate::k!("err.hint_not_a_repo"), &[])),
            Error::UnreadableRepository { .. } => {
                Some(f(crate::k!("err.hint_unreadable_repo"), &[]))
            }
            Error::DubiousOwnership { dir } => Some(f(
                crate::k!("err.hint_dubious_ownership"),
                &[("dir", &dir.display())],
            )),
            Error::ReftableUnsupported { .. } => Some(f(crate::k!("err.hint_reftable"), &[])),
            Error::InvalidJson { file, .. } | Error::InvalidField { file, .. } => Some(f(
                crate::k!("err.hint_fix_file"),
                &[("file", &file.display())],
            )),
            Error::TooLarge { file, .. } | Error::TooManyValues { file, .. } => Some(f(
                crate::k!("err.hint_too_large"),
                &[("file", &file.display())],
            )),
            Error::NotRegular { path, .. } => Some(f(
                crate::k!("err.hint_not_regular"),
                &[("path", &path.display())],
            )),
            Error::Unedited { hint, .. } => Some(hint.render(lang)),
            Error::NotText { path } => Some(f(
                crate::k!("err.hint_not_text"),
                &[("path", &path.display())],
            )),
            Error::WouldBeTooLarge { .. } => Some(f(crate::k!("err.hint_would_be_too_large"), &[])),
            Error::InvalidConfig { key, .. } => {
                Some(f(crate::k!("err.hint_config"), &[("key", key)]))
            }
            Error::Usage { hint, .. }
            | Error::Changed { hint, .. }
            | Error::NothingToDo { hint, .. } => hint.as_ref().map(|h| h.render(lang)),
            Error::InvalidHandovers { .. } => Some(f(crate::k!("err.hint_fix_files"), &[])),
            Error::Held { task, expires, .. } => Some(f(
                crate::k!("claim.hint_held"),
                &[("id", task), ("expires", &utc(expires))],
            )),
            Error::Locked { lock, .. } => Some(f(
                crate::k!("err.hint_locked"),
                &[("lock", &lock.display())],
            )),
            Error::RefRace { reference, .. } => Some(f(
                crate::k!("err.hint_ref_race"),
                &[("reference", reference)],
            )),
            Error::RefLocked { lock, .. } => Some(f(
                crate::k!("err.hint_ref_locked"),
                &[("lock", &lock.display())],
            )),
            Error::NotRecorded { why, .. } => {
                let record = f(crate::k!("err.hint_not_recorded"), &[]);
                Some(match why.hint_in(lang) {
                    Some(first) => format!("{first}; {record}"),
                    None => record,
                })
            }
            Error::Io { .. }
            | Error::Git { .. }
            | Error::GitSaid { .. }
            | Error::Unreachable { .. }
            | Error::Sha256Unsupported { .. } => None,
        }
    }

    /// The one-line message, in `lang`. Text that comes from elsewhere (the operating
    /// system, the JSON parser, gix, a file) is quoted as it is.
    pub fn message(&self, lang: Lang) -> String {
        let f = |key: &str, args: &[(&str, &dyn fmt::Display)]| {
            crate::support::i18n::fill(lang, key, args)
        };
        match self {
            Error::BadInput { error, .. } => error.message(lang),
            Error::NotARepository { dir } => {
                f(crate::k!("err.not_a_repo"), &[("dir", &dir.display())])
            }
            Error::UnreadableRepository { git_dir, why } => f(
                crate::k!("err.unreadable_repo"),
                &[("git_dir", &git_dir.display()), ("why", why)],
            ),
            Error::Sha256Unsupported { git_dir } => {
                f(crate::k!("err.sha256"), &[("git_dir", &git_dir.display())])
            }
            Error::DubiousOwnership { dir } => f(
                crate::k!("err.dubious_ownership"),
                &[("dir", &dir.display())],
            ),
            Error::ReftableUnsupported { git_dir } => f(
                crate::k!("err.reftable"),
                &[("git_dir", &git_dir.display())],
            ),
            Error::InvalidJson { .. }
            | Error::InvalidField { .. }
            | Error::NotText { .. }
            | Error::TooManyValues { .. }
            | Error::WouldBeTooLarge { .. }
            | Error::NotRegular { .. }
            | Error::TooLarge { .. } => self.file_message(lang),
            Error::Locked { .. } | Error::RefRace { .. } | Error::RefLocked { .. } => {
                self.lock_message(lang)
            }
            Error::InvalidConfig {
                key,
                value,
                expected,
            } => f(
                crate::k!("err.invalid_config"),
                &[
                    ("value", &format!("{value:?}")),
                    ("key", key),
                    ("expected", &expected.render(lang)),
                ],
            ),
            Error::Usage { message, .. }
            | Error::Changed { message, .. }
            | Error::Unedited { message, .. }
            | Error::NothingToDo { message, .. } => message.render(lang),
            Error::Io {
                path,
                action,
                source,
            } => f(
                crate::k!("err.io"),
                &[
                    (
                        "action",
                        &crate::support::i18n::text_or(lang, &format!("io.{action}"), action),
                    ),
                    ("path", &path.display()),
                    ("why", &lowercase_first(&source.to_string())),
                ],
            ),
            Error::Unreachable { remote, why } => f(
                crate::k!("err.unreachable_remote"),
                &[("remote", remote), ("why", &one_line(why))],
            ),
            Error::Git { action, message } => f(
                crate::k!("err.git"),
                &[
                    ("action", &action.render(lang)),
                    ("why", &one_line(message)),
                ],
            ),
            Error::GitSaid { action, why } => f(
                crate::k!("err.git"),
                &[("action", &action.render(lang)), ("why", &why.render(lang))],
            ),
            Error::NotRecorded {
                notes_ref,
                key,
                why,
            } => f(
                crate::k!("err.not_recorded"),
                &[
                    ("key", key),
                    ("notes_ref", notes_ref),
                    ("why", &why.message(lang)),
                ],
            ),
            Error::InvalidHandovers { count } => {
                if *count == 1 {
                    f(crate::k!("err.invalid_one"), &[])
                } else {
                    f(crate::k!("err.invalid_many"), &[("n", count)])
                }
            }
            Error::Held {
                task,
                key,
                holder,
                since,
                expires,
                ..
            } => f(
                crate::k!("claim.held"),
                &[
                    ("id", &format!("{task:?}")),
                    ("key", key),
                    ("holder", &format!("{holder:?}")),
                    ("since", &utc(since)),
                    ("expires", &utc(expires)),
                ],
            ),
        }
    }

    /// The message of an error about one file's content or kind.
    fn file_message(&self, lang: Lang) -> String {
        let f = |key: &str, args: &[(&str, &dyn fmt::Display)]| {
            crate::support::i18n::fill(lang, key, args)
        };
        match self {
            Error::InvalidJson {
                file,
                line,
                column,
                message,
            } => f(
                crate::k!("err.invalid_json"),
                &[
                    ("file", &file.display()),
                    ("line", line),
                    ("column", column),
                    ("message", message),
                ],
            ),
            Error::InvalidField {
                file,
                field,
                message,
            } => f(
                crate::k!("err.invalid_field"),
                &[
                    ("file", &file.display()),
                    ("field", field),
                    ("message", message),
                ],
            ),
            Error::NotText { path } => f(crate::k!("err.not_text"), &[("path", &path.display())]),
            Error::TooManyValues { file, limit } => f(
                crate::k!("err.too_many_values"),
                &[("file", &file.display()), ("limit", limit)],
            ),
            Error::WouldBeTooLarge { file, size, limit } => f(
                crate::k!("err.would_be_too_large"),
                &[("file", &file.display()), ("size", size), ("limit", limit)],
            ),
            Error::NotRegular { path, kind } => f(
                crate::k!("err.not_regular_file"),
                &[
                    ("path", &path.display()),
                    ("kind", &crate::support::i18n::text(lang, kind)),
                ],
            ),
            Error::TooLarge { file, size, limit } => f(
                crate::k!("err.too_large"),
                &[("file", &file.display()), ("size", size), ("limit", limit)],
            ),
            _ => unreachable!("not an error about a file: {self:?}"),
        }
    }

    /// The message of an error about a lock held by another writer.
    fn lock_message(&self, lang: Lang) -> String {
        let f = |key: &str, args: &[(&str, &dyn fmt::Display)]| {
            crate::support::i18n::fill(lang, key, args)
        };
        match self {
            Error::Locked {
                lock,
                owner,
                age,
                waited,
            } => {
                let owner = match owner {
                    Some(o) => LockOwner::describe(Some(o), lang),
                    None => {
                        crate::support::i18n::text(lang, crate::k!("err.another_writer")).to_owned()
                    }
                };
                let waited = crate::support::i18n::duration(lang, *waited);
                let Some(age) = age else {
                    return f(
                        crate::k!("err.locked_gone"),
                        &[("lock", &lock.display()), ("waited", &waited)],
                    );
                };
                f(
                    crate::k!("err.locked"),
                    &[
                        ("lock", &lock.display()),
                        ("owner", &owner),
                        ("age", &crate::support::i18n::duration(lang, *age)),
                        ("waited", &waited),
                    ],
                )
            }
            Error::RefRace {
                reference,
                attempts,
                last,
            } => f(
                crate::k!("err.ref_race"),
                &[
                    ("reference", reference),
                    ("attempts", attempts),
                    ("last", last),
                ],
            ),
            Error::RefLocked {
                reference,
                lock,
                age,
            } => f(
                crate::k!("err.ref_locked"),
                &[
                    ("reference", reference),
                    ("lock", &lock.display()),
                    ("age", &crate::support::i18n::duration(lang, *age)),
                ],
            ),
            _ => unreachable!("not an error about a lock: {self:?}"),
        }
    }
}

/// A claim's time in a message: RFC 3339, UTC, to the second.
fn utc(t: &jiff::Timestamp) -> String {
    crate::support::clock::utc_seconds(*t)
}

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

/// A claim of a task lost to another clone's, as an error document tells it.
#[derive(Debug, Clone)]
pub struct LostClaim {
    pub holder: String,
    pub since: jiff::Timestamp,
    pub winner: String,
    pub at: jiff::Timestamp,
}
