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
        return why(crate::k!("path.empty"));
    }
    if value.starts_with('/') {
        return why(crate::k!("path.absolute"));
    }
    if value.chars().any(|c| c.is_control() || c == '\\') {
        return why(crate::k!("path.control"));
    }
    for component in value.split('/') {
        match component {
            "" => return why(crate::k!("path.empty_component")),
            "." | ".." => return why(crate::k!("path.dots")),
            _ => {}
        }
    }
    Ok(())
}

/// Whether `path` lies below `top` with no symbolic link on the way: every component
/// after `top` that exists is a real directory (or, last, a real file) and, once
/// resolved, the path is still inside `top`. What does not exist yet is fine: it will
/// be made as a plain directory. `top` itself may be reached through links.
pub fn plain_below(top: &std::path::Path, path: &std::path::Path) -> bool {
    let Ok(rest) = path.strip_prefix(top) else {
        return false;
    };
    let mut at = top.to_owned();
    let mut deepest = top.to_owned();
    for component in rest.components() {
        match component {
            std::path::Component::Normal(c) => at.push(c),
            _ => return false,
        }
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => return false,
            Ok(_) => deepest.clone_from(&at),
            Err(_) => break,
        }
    }
    match (std::fs::canonicalize(top), std::fs::canonicalize(&deepest)) {
        (Ok(top), Ok(deepest)) => deepest.starts_with(top),
        _ => false,
    }
}

/// `path` without `.` and `..` components, cleaned lexically (a `..` takes off the
/// component before it; at the root it stays at the root), for the paths the tool
/// prints: `<admin>/../../info/exclude` is `<common>/info/exclude`. A `..` with nothing
/// before it to take off (a relative path climbing out) is kept.
pub fn lexical(path: &std::path::Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(c),
            },
            other => out.push(other),
        }
    }
    if out.is_empty() {
        return std::path::PathBuf::from(".");
    }
    out.iter().collect()
}

#[cfg(test)]
mod tests {
    use super::{check_relative, lexical, plain_below};

    #[test]
    fn lexical_takes_out_dots() {
        let l = |p: &str| lexical(std::path::Path::new(p)).display().to_string();
        assert_eq!(
            l("/r/.git/worktrees/x/../../info/exclude"),
            "/r/.git/info/exclude"
        );
        assert_eq!(
            l("/h/.cargo/bin/../share/man/man1"),
            "/h/.cargo/share/man/man1"
        );
        assert_eq!(l("/../a/./b/"), "/a/b");
        assert_eq!(l("../a/../../b"), "../../b");
        assert_eq!(l("a/.."), ".");
    }

    #[test]
    fn links_on_the_way_are_not_below() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().join("wt");
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(top.join("real/sub")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::os::unix::fs::symlink(&outside, top.join("linked")).unwrap();
        std::os::unix::fs::symlink(top.join("real"), top.join("inner")).unwrap();
        assert!(plain_below(&top, &top.join("real/sub/new/file")));
        assert!(plain_below(&top, &top.join("real")));
        assert!(!plain_below(&top, &top.join("linked/x")));
        assert!(!plain_below(&top, &top.join("linked")));
        // A link that stays inside is still a link: not followed either.
        assert!(!plain_below(&top, &top.join("inner/sub")));
        assert!(!plain_below(&top, &top.join("../outside")));
        assert!(!plain_below(&top, &outside));
    }

    #[test]
    fn rejects_escapes() {
        for bad in [
            "", "/abs", "a/../b", "..", "a//b", "a/", "./a", "a\0b", "a\nb", "a\\b",
        ] {
            assert!(
                check_relative(crate::k!("what.session_key"), bad).is_err(),
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
                check_relative(crate::k!("what.session_key"), good).is_ok(),
                "{good:?} refused"
            );
        }
    }
}
