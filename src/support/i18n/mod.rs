//! The message catalog: every message and label of the human output, in English and
//! Japanese (SPEC section 6, `handover.language`, `--lang`). `--json` output does not
//! go through here: it is the same in both languages.
//!
//! A message is looked up by key; `{name}` in it is replaced by the argument of that
//! name. The tests check that both languages have the same placeholders and that every
//! key the source asks for exists.

use std::fmt::Display;
use std::time::Duration;

mod catalog;
mod claims;
mod diagnose;
mod errors;
mod linkage;
mod reach2;
mod record;
mod remote_claims;
mod transcripts;

use catalog::Entry;

/// The catalog's parts, a file each (errors, claims, and `why` with `doctor`, have their own).
const PARTS: &[&[Entry]] = &[
    catalog::CATALOG,
    errors::ERRORS,
    claims::CLAIMS,
    diagnose::DIAGNOSE,
    reach2::REACH2,
    transcripts::TRANSCRIPTS,
    remote_claims::REMOTE_CLAIMS,
    linkage::LINKAGE,
    record::RECORD,
];

/// Which output language messages and `handover.md` words use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    En,
    Ja,
}

pub fn parse_lang(v: &str) -> Option<Lang> {
    let v = v.to_ascii_lowercase();
    if v.starts_with("ja") {
        Some(Lang::Ja)
    } else if v.starts_with("en") {
        Some(Lang::En)
    } else {
        None
    }
}

/// The language from the locale variables, as git's own gettext would pick it.
pub fn lang_from_locale(get_env: impl Fn(&str) -> Option<String>) -> Lang {
    for var in ["LC_ALL", "LC_MESSAGES", "LANG"] {
        if let Some(v) = get_env(var).filter(|v| !v.is_empty()) {
            return if v.to_ascii_lowercase().starts_with("ja") {
                Lang::Ja
            } else {
                Lang::En
            };
        }
    }
    Lang::En
}

/// Render a duration the way people read it: `2d 3h`, `5h 10m`, `45m`, `30s`.
pub fn human_duration(d: Duration) -> String {
    let s = d.as_secs();
    let (days, hours, minutes) = (s / 86_400, (s % 86_400) / 3600, (s % 3600) / 60);
    match (days, hours, minutes) {
        (0, 0, 0) => format!("{s}s"),
        (0, 0, m) => format!("{m}m"),
        (0, h, 0) => format!("{h}h"),
        (0, h, m) => format!("{h}h {m}m"),
        (d, 0, _) => format!("{d}d"),
        (d, h, _) => format!("{d}d {h}h"),
    }
}

/// Whether `key` is in the catalog. A `const fn`, so [`k!`](crate::k) checks every
/// key while the crate compiles: a key that is not in the catalog does not build.
pub const fn has(key: &str) -> bool {
    let mut p = 0;
    while p < PARTS.len() {
        let part = PARTS[p];
        let mut i = 0;
        while i < part.len() {
            if same(part[i].key.as_bytes(), key.as_bytes()) {
                return true;
            }
            i += 1;
        }
        p += 1;
    }
    false
}

const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A message key of the catalog, checked while compiling: `k!("status.none_here")`.
#[macro_export]
#[doc(hidden)]
macro_rules! k {
    ($key:literal) => {{
        const KEY: &str = $key;
        const _: () = assert!(
            $crate::support::i18n::has(KEY),
            concat!("no message ", $key, " in the catalog")
        );
        KEY
    }};
}

/// The catalog by key, built on first use (a status of hundreds of handovers looks up
/// thousands of labels).
fn index() -> &'static std::collections::HashMap<&'static str, &'static Entry> {
    static INDEX: std::sync::OnceLock<std::collections::HashMap<&'static str, &'static Entry>> =
        std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        PARTS
            .iter()
            .flat_map(|part| part.iter())
            .map(|e| (e.key, e))
            .collect()
    })
}

/// The message `key` in `lang`, or `fallback` when the catalog has no such key.
pub fn text_or<'a>(lang: Lang, key: &str, fallback: &'a str) -> &'a str {
    match index().get(key) {
        Some(e) => match lang {
            Lang::En => e.en,
            Lang::Ja => e.ja,
        },
        None => fallback,
    }
}

/// The message `key` in `lang`, as it stands. A key missing from the catalog (a bug the
/// tests look for) shows as itself rather than stopping the program.
pub fn text(lang: Lang, key: &str) -> &str {
    debug_assert!(
        index().contains_key(key),
        "message {key:?} is not in the catalog"
    );
    text_or(lang, key, key)
}

/// The message `key` in `lang`, with each `{name}` replaced by its argument. The
/// message is read once, left to right: an argument's own text is never searched for
/// placeholders (a branch named `feat{head}` stays as it is).
pub fn fill(lang: Lang, key: &str, args: &[(&str, &dyn Display)]) -> String {
    let template = text(lang, key);
    let mut out = String::with_capacity(template.len() + 16 * args.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let arg = after.find('}').and_then(|close| {
            let name = &after[..close];
            args.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (close, v))
        });
        match arg {
            Some((close, value)) => {
                use std::fmt::Write as _;
                let _ = write!(out, "{value}");
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A duration for people, in `lang`: `1d 3h` in English, `1日3時間` in Japanese.
pub fn duration(lang: Lang, d: std::time::Duration) -> String {
    let english = human_duration(d);
    match lang {
        Lang::En => english,
        Lang::Ja => {
            let mut out = String::new();
            for part in english.split(' ') {
                let (number, unit) = part.split_at(part.len() - 1);
                out.push_str(number);
                out.push_str(match unit {
                    "d" => "日",
                    "h" => "時間",
                    "m" => "分",
                    _ => "秒",
                });
            }
            out
        }
    }
}

/// The separator of a list in running text.
pub fn list_separator(lang: Lang) -> &'static str {
    match lang {
        Lang::En => ", ",
        Lang::Ja => "、",
    }
}

/// Columns a string takes on a terminal: East Asian wide characters take two,
/// combining marks none.
pub fn width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

/// `s` padded with spaces to `columns` terminal columns.
pub fn pad(s: &str, columns: usize) -> String {
    let w = width(s);
    if w >= columns {
        s.to_owned()
    } else {
        format!("{s}{}", " ".repeat(columns - w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placeholders(s: &str) -> Vec<&str> {
        let mut out: Vec<&str> = s
            .split('{')
            .skip(1)
            .filter_map(|p| p.split_once('}').map(|(name, _)| name))
            .collect();
        out.sort_unstable();
        out
    }

    #[test]
    fn keys_are_unique_and_both_languages_have_the_same_placeholders() {
        let catalog: Vec<&Entry> = PARTS.iter().flat_map(|part| part.iter()).collect();
        for (i, a) in catalog.iter().enumerate() {
            assert!(
                catalog[i + 1..].iter().all(|b| b.key != a.key),
                "{} twice",
                a.key
            );
            assert_eq!(placeholders(a.en), placeholders(a.ja), "{}", a.key);
            assert!(!a.ja.is_empty() && !a.en.is_empty());
        }
    }

    #[test]
    fn every_key_the_source_asks_for_is_in_the_catalog() {
        // Every string literal shaped like a key of one of the catalog's namespaces.
        let catalog: Vec<&Entry> = PARTS.iter().flat_map(|part| part.iter()).collect();
        let namespaces: Vec<&str> = catalog
            .iter()
            .map(|e| e.key.split('.').next().unwrap())
            .collect();
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
        let mut files = Vec::new();
        let mut dirs = vec![std::path::PathBuf::from(dir)];
        while let Some(d) = dirs.pop() {
            for entry in std::fs::read_dir(d).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    files.push(path);
                }
            }
        }
        let mut asked = 0;
        for file in files {
            let source = std::fs::read_to_string(&file).unwrap();
            for (i, piece) in source.split('"').enumerate() {
                let Some((ns, rest)) = piece.split_once('.') else {
                    continue;
                };
                let shaped = i % 2 == 1
                    && namespaces.contains(&ns)
                    && !rest.is_empty()
                    && rest.chars().all(|c| c.is_ascii_lowercase() || c == '_');
                if shaped {
                    asked += 1;
                    assert!(
                        catalog.iter().any(|e| e.key == piece),
                        "{} asks for {piece:?}",
                        file.display()
                    );
                }
            }
        }
        assert!(asked > 150, "the scan found the lookups ({asked})");
    }

    #[test]
    fn fill_reads_the_message_once() {
        // An argument that looks like a placeholder stays as written.
        assert_eq!(
            fill(Lang::En, "status.none_any", &[("n", &"{n}")]),
            "no handovers in any of {n} worktrees"
        );
    }

    #[test]
    fn fill_and_width() {
        assert_eq!(
            fill(Lang::Ja, "status.none_any", &[("n", &3)]),
            "3 個のワークツリーのどれにも引き継ぎはありません"
        );
        assert_eq!(width("鮮度"), 4);
        let d = std::time::Duration::from_secs(27 * 3600);
        assert_eq!(duration(Lang::En, d), "1d 3h");
        assert_eq!(duration(Lang::Ja, d), "1日3時間");
        assert_eq!(
            duration(Lang::Ja, std::time::Duration::from_secs(45)),
            "45秒"
        );
        assert_eq!(pad("鮮度", 6), "鮮度  ");
        assert_eq!(pad("next", 6), "next  ");
    }
}
