//! Names that become paths under a handover root (team, agent, branch, session key).
//! They must never escape the root.

/// Check that `value` is a relative path of plain components: no empty component,
/// no `.` or `..`, not absolute, no NUL or control characters, no backslash.
/// Returns why not, in words fit for an error message.
pub fn check_relative(what: &str, value: &str) -> Result<(), String> {
    if value.is_empty() {
        return Err(format!("{what} must not be empty"));
    }
    if value.starts_with('/') {
        return Err(format!("{what} must be a relative path"));
    }
    if value.chars().any(|c| c.is_control() || c == '\\') {
        return Err(format!(
            "{what} must not contain control characters or backslashes"
        ));
    }
    for component in value.split('/') {
        match component {
            "" => return Err(format!("{what} must not contain an empty path component")),
            "." | ".." => return Err(format!("{what} must not contain `.` or `..` components")),
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
            assert!(check_relative("key", bad).is_err(), "{bad:?} accepted");
        }
        for good in [
            "main",
            "feature/x",
            "alpha-team/reviewer",
            "feature/x/20261130-101500",
            "a..b",
        ] {
            assert!(check_relative("key", good).is_ok(), "{good:?} refused");
        }
    }
}
