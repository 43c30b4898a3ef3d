//! The key a session only the notes store has is listed and restored under.

/// The key a store-only session is listed and restored under: its own, unless a
/// session on disk has it (another session: another id), the scan could not see it
/// that deep, or `continue` would take it for a path (it ends in `.md` or `.json`);
/// then one that is free and reachable, said as such. The id's part of a free key is
/// its letters and digits only; `None` when the key still breaks the key rules.
pub(super) fn free_key(
    key: &str,
    id: Option<&str>,
    taken: &dyn Fn(&str) -> bool,
) -> Option<String> {
    let parts: Vec<&str> = key.split('/').collect();
    let mut base = if parts.len() > crate::services::scan::MAX_DEPTH {
        let (head, tail) = parts.split_at(crate::services::scan::MAX_DEPTH - 1);
        format!("{}/{}", head.join("/"), tail.join("-"))
    } else {
        key.to_owned()
    };
    let last = base
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    if let Some(dot) = base.rfind('.')
        && std::path::Path::new(&last)
            .extension()
            .is_some_and(|e| e == "md" || e == "json")
    {
        base.replace_range(dot..=dot, "-");
    }
    if taken(&base) {
        let short: String = id
            .unwrap_or_default()
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .take(8)
            .collect();
        let short = if short.is_empty() {
            "stored".into()
        } else {
            short
        };
        base = format!("{base}-{short}");
        let mut n = 2;
        let first = base.clone();
        while taken(&base) {
            base = format!("{first}-{n}");
            n += 1;
        }
    }
    crate::support::paths::check_relative(crate::k!("what.session_key"), &base)
        .ok()
        .map(|()| base)
}

#[cfg(test)]
mod tests {
    use super::free_key;

    #[test]
    fn a_taken_or_too_deep_key_gets_a_free_one() {
        let none = |_: &str| false;
        let free = |key, id, taken: &dyn Fn(&str) -> bool| free_key(key, id, taken).unwrap();
        assert_eq!(free("main/1", Some("abcdef123"), &none), "main/1");
        let taken = |k: &str| k == "main/1" || k == "main/1-abcdef12";
        assert_eq!(
            free("main/1", Some("abcdef123"), &taken),
            "main/1-abcdef12-2"
        );
        let deep = "a/b/c/d/e/f/g/h/i/j";
        assert_eq!(free(deep, None, &none), "a/b/c/d/e/f/g/h-i-j");
        assert_eq!(free("a/b/c/d/e/f/g/h", None, &none), "a/b/c/d/e/f/g/h");
        // The id's part is letters and digits; a key `continue` reads as a path is not
        // kept as it is.
        let one = |k: &str| k == "main/1";
        assert_eq!(free("main/1", Some("/../../."), &one), "main/1-stored");
        assert_eq!(free("main/1", Some("a-b/c.d9"), &one), "main/1-abcd9");
        assert_eq!(
            free("main/x/project-state.json", None, &none),
            "main/x/project-state-json"
        );
        assert_eq!(free("main/HANDOVER.MD", None, &none), "main/HANDOVER-MD");
    }
}
