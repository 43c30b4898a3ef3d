//! Names that become paths under a handover root (team, agent, branch, session key).
//! They must never escape the root.

use crate::support::error::{Msg, msg};

/// Check that `value` is a relative path of plain components: no empty component,
/// no `.` or `..`, not absolute, no NUL or control characters, no backslash.
/// Returns why not, as a message of the catalog; `what` is the catalog word naming the
/// value (`what.session_key`, `what.team`, …).
pub fn check_relative(what: &'static str, value: &str) -> Result<(), Msg> {
    let why = |key: &'static str| Err(msg(key, &[]).word("what", what));
    if value.is_empty() {
        return why("path.empty");
    }
    if value.starts_with('/') {
        return why("path.absolute");
    }
    if value.chars().any(|c| c.is_control() || c == '\\') {
        return why("path.control");
    }
    for component in value.split('/') {
        match component {
            "" => return why("path.empty_component"),
            "." | ".." => return why("path.dots"),
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_relative;

    #[test]
    fn rejects_escapes() {
        for bad in [
            "", "/abs", "a/../b", "..", "a//b", "a/", "./a", "a\0b", "a\nb", "a\\b",
        ] {
            assert!(
                check_relative("what.session_key", bad).is_err(),
                "{bad:?} accepted"
            );
        }
        for good in [
            "main",
            "feature/x",
            "alpha-team/reviewer",
            "feature/x/20261130-101500",
            "a..b",
        ] {
            assert!(
                check_relative("what.session_key", good).is_ok(),
                "{good:?} refused"
            );
        }
    }
}
