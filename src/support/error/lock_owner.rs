//! Who holds a lock, as its file says, in words.

use crate::support::i18n::Lang;

/// Who a lock file says holds it: `<pid> <host>` (the host may be missing when the
/// writer died while writing its name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockOwner {
    pub pid: String,
    pub host: Option<String>,
}

impl LockOwner {
    /// The owner in words, in `lang`; `None` (no owner written) has words of its own.
    pub fn describe(owner: Option<&LockOwner>, lang: Lang) -> String {
        use crate::support::i18n::{fill, text};
        match owner {
            Some(LockOwner {
                pid,
                host: Some(host),
            }) => fill(
                lang,
                crate::k!("lock.owner_on"),
                &[("pid", pid), ("host", host)],
            ),
            Some(LockOwner { pid, host: None }) => {
                fill(lang, crate::k!("lock.owner"), &[("pid", pid)])
            }
            None => text(lang, crate::k!("lock.no_owner")).to_owned(),
        }
    }
}
