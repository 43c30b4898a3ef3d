//! The `handover.*` settings of SPEC section 6.
//!
//! Parsing is pure: values come in through a lookup function, so the rules are tested
//! without a repository. `git::Repo::config_string` supplies git's own view of the
//! configuration (system, global, repository, worktree, includes).

use std::time::Duration;

use crate::support::error::{Error, Msg, Result, msg};
use crate::support::i18n::{Lang, parse_lang};

pub const DEFAULT_DIR: &str = ".claude/handover";

/// Where handovers are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Store {
    Files,
    Notes,
    Both,
}

impl Store {
    pub fn as_str(self) -> &'static str {
        match self {
            Store::Files => "files",
            Store::Notes => "notes",
            Store::Both => "both",
        }
    }
}

/// The colour setting, before a terminal is considered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub dir: String,
    pub store: Store,
    pub notes_ref: String,
    pub fresh_for: Duration,
    pub stale_after: Duration,
    pub clean_after: Duration,
    pub auto_clean: bool,
    /// `handover.exclude`: keep the handover roots out of commits through `info/exclude`.
    pub exclude: bool,
    pub lock_timeout: Duration,
    /// `None` when `handover.language` is unset: the locale decides.
    pub language: Option<Lang>,
    pub color: ColorChoice,
    /// `handover.hook`: whether a user-scope agent hook briefs here; `None` when unset
    /// (the project's agent settings decide). A value that is not a boolean is false:
    /// a hook must never fail on it.
    pub hook: Option<bool>,
    /// `handover.recordCommits`: the post-commit hook adds each commit to
    /// `architecture_changes`. A value that is not a boolean is false, as for `hook`.
    pub record_commits: bool,
    /// `handover.claimFor`: how long a claim's lease lasts unless `--for` says.
    pub claim_for: Duration,
    /// `handover.claimRemote`: claims are decided on this remote's notes ref (as with
    /// `--remote`); `None` when unset or empty.
    pub claim_remote: Option<String>,
    /// `handover.stopGate`: at an agent's Stop, once per agent session that worked
    /// without updating a task, hold the stop with the command that records the
    /// handover. Off by default; a value that is not a boolean is false.
    pub stop_gate: bool,
}

/// The `name=value` pairs git passes to a subcommand for `git -c name=value …`, from
/// `GIT_CONFIG_PARAMETERS`: shell-quoted words, `'name'='value'` (git ≥ 2.31) or
/// `'name=value'`; a quote inside is written `'\''`. Names are lowercased, as git
/// compares them. Unreadable text yields what was read before it.
pub fn parse_config_parameters(text: &str) -> Vec<(String, String)> {
    let mut words: Vec<String> = Vec::new();
    let mut chars = text.chars().peekable();
    let mut current: Option<String> = None;
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                let word = current.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => word.push(ch),
                        None => return pairs(words),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(ch) => current.get_or_insert_with(String::new).push(ch),
                None => break,
            },
            ' ' | '\t' | '\n' => {
                if let Some(w) = current.take() {
                    words.push(w);
                }
            }
            '=' => current.get_or_insert_with(String::new).push('\0'),
            _ => return pairs(words),
        }
    }
    if let Some(w) = current.take() {
        words.push(w);
    }
    pairs(words)
}

/// Words of [`parse_config_parameters`] as pairs: a NUL marks the `=` outside quotes.
fn pairs(words: Vec<String>) -> Vec<(String, String)> {
    words
        .into_iter()
        .filter_map(|w| {
            let (name, value) = match w.split_once('\0') {
                Some((n, v)) => (n.to_owned(), v.replace('\0', "=")),
                None => {
                    let (n, v) = w.split_once('=')?;
                    (n.to_owned(), v.to_owned())
                }
            };
            Some((name.to_ascii_lowercase(), value))
        })
        .collect()
}

/// `-c name=value` pairs of the command line, lowercased names; a pair without `=` is an
/// error naming it.
pub fn parse_overrides(raw: &[String]) -> Result<Vec<(String, String)>> {
    raw.iter()
        .map(|item| {
            let (name, value) = item.split_once('=').ok_or_else(|| {
                crate::support::error::Error::usage_hint(
                    msg(
                        crate::k!("err.c_no_value"),
                        &[("item", &format!("{item:?}"))],
                    ),
                    msg(crate::k!("err.c_example"), &[]),
                )
            })?;
            Ok((name.to_ascii_lowercase(), value.to_owned()))
        })
        .collect()
}

impl Settings {
    /// Read every setting through `get`, which returns the raw value of a key.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Self> {
        let duration = |key: &str, default: Duration| -> Result<Duration> {
            get(key).map_or(Ok(default), |v| {
                parse_duration(&v).map_err(|expected| invalid(key, &v, expected))
            })
        };
        let store = match get("handover.store") {
            None => Store::Files,
            Some(v) => match v.to_ascii_lowercase().as_str() {
                "files" => Store::Files,
                "notes" => Store::Notes,
                "both" => Store::Both,
                _ => {
                    return Err(invalid(
                        "handover.store",
                        &v,
                        msg(crate::k!("cfg.store"), &[]),
                    ));
                }
            },
        };
        let auto_clean = match get("handover.autoClean") {
            None => true,
            Some(v) => parse_bool(&v).ok_or_else(|| {
                invalid("handover.autoClean", &v, msg(crate::k!("cfg.bool"), &[]))
            })?,
        };
        let exclude = match get("handover.exclude") {
            None => true,
            Some(v) => parse_bool(&v)
                .ok_or_else(|| invalid("handover.exclude", &v, msg(crate::k!("cfg.bool"), &[])))?,
        };
        let language = match get("handover.language") {
            None => None,
            Some(v) => Some(parse_lang(&v).ok_or_else(|| {
                invalid("handover.language", &v, msg(crate::k!("cfg.lang"), &[]))
            })?),
        };
        let color_key = if get("color.handover").is_some() {
            "color.handover"
        } else {
            "color.ui"
        };
        let color = match get(color_key) {
            None => ColorChoice::Auto,
            Some(v) => parse_color(&v)
                .ok_or_else(|| invalid(color_key, &v, msg(crate::k!("cfg.color"), &[])))?,
        };
        let dir = get("handover.dir").unwrap_or_else(|| DEFAULT_DIR.to_owned());
        crate::support::paths::check_relative(crate::k!("what.handover_dir"), &dir)
            .map_err(|why| invalid("handover.dir", &dir, why))?;
        let notes_ref =
            get("handover.notesRef").unwrap_or_else(|| "refs/notes/handover".to_owned());
        match notes_ref.strip_prefix("refs/notes/") {
            Some(rest)
                if crate::support::paths::check_relative(crate::k!("what.ref"), rest).is_ok()
                    && !rest.contains(['*', '?', '[', ':', '~', '^', ' ']) => {}
            _ => {
                return Err(invalid(
                    "handover.notesRef",
                    &notes_ref,
                    msg(crate::k!("cfg.notes_ref"), &[]),
                ));
            }
        }
        Ok(Settings {
            dir,
            store,
            notes_ref,
            fresh_for: duration("handover.freshFor", hours(24))?,
            stale_after: duration("handover.staleAfter", hours(48))?,
            clean_after: duration("handover.cleanAfter", hours(24 * 7))?,
            auto_clean,
            exclude,
            lock_timeout: duration("handover.lockTimeout", Duration::from_secs(5))?,
            language,
            color,
            hook: get("handover.hook").map(|v| parse_bool(&v) == Some(true)),
            record_commits: get("handover.recordCommits")
                .is_some_and(|v| parse_bool(&v) == Some(true)),
            claim_for: match get("handover.claimFor") {
                None => Duration::from_secs(30 * 60),
                Some(v) => parse_lease(&v).map_err(|e| invalid("handover.claimFor", &v, e))?,
            },
            claim_remote: get("handover.claimRemote").filter(|v| !v.trim().is_empty()),
            stop_gate: get("handover.stopGate").is_some_and(|v| parse_bool(&v) == Some(true)),
        })
    }

    #[cfg(test)]
    /// The defaults of SPEC section 6, as if nothing were configured.
    pub fn defaults() -> Self {
        Self::from_lookup(|_| None).expect("defaults are valid")
    }
}

fn hours(n: u64) -> Duration {
    Duration::from_secs(n * 3600)
}

fn invalid(key: &str, value: &str, expected: Msg) -> Error {
    Error::InvalidConfig {
        key: key.to_owned(),
        value: value.to_owned(),
        expected,
    }
}

/// The output language: `--lang`, else `handover.language`, else the locale. Before the
/// configuration is read (or outside a repository), `configured` is `None`.
pub fn language(flag: Option<Lang>, configured: Option<Lang>) -> Lang {
    flag.or(configured)
        .unwrap_or_else(|| crate::support::i18n::lang_from_locale(|k| std::env::var(k).ok()))
}

/// Parse a duration like `36h`, `7d`, `90m`, `1w`, `2 days` or `P7D`.
/// Days are 24 hours; calendar units (months, years) are refused, as their length varies.
pub fn parse_duration(s: &str) -> std::result::Result<Duration, Msg> {
    let expected = || msg(crate::k!("cfg.duration"), &[]);
    let span: jiff::Span = s.trim().parse().map_err(|_| expected())?;
    if span.get_years() != 0 || span.get_months() != 0 {
        return Err(expected());
    }
    let signed = span
        .to_duration(jiff::SpanRelativeTo::days_are_24_hours())
        .map_err(|_| expected())?;
    Duration::try_from(signed).map_err(|_| msg(crate::k!("cfg.not_negative"), &[]))
}

/// A lease's length ([`parse_duration`]), more than nothing.
pub fn parse_lease(s: &str) -> std::result::Result<Duration, Msg> {
    match parse_duration(s)? {
        d if d.is_zero() => Err(msg(crate::k!("cfg.lease"), &[])),
        d => Ok(d),
    }
}

/// A boolean as git spells it (`true`/`yes`/`on`/`1`, `false`/`no`/`off`/`0`/empty, any
/// case); `None` for anything else. The one parser of the crate's booleans.
pub fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Some(true),
        "false" | "no" | "off" | "0" | "" => Some(false),
        _ => None,
    }
}

fn parse_color(v: &str) -> Option<ColorChoice> {
    match v.to_ascii_lowercase().as_str() {
        "auto" => Some(ColorChoice::Auto),
        "always" => Some(ColorChoice::Always),
        "never" => Some(ColorChoice::Never),
        other => parse_bool(other).map(|b| {
            if b {
                ColorChoice::Auto
            } else {
                ColorChoice::Never
            }
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::support::i18n::{human_duration, lang_from_locale};

    #[test]
    fn git_dash_c_parameters_are_read_as_git_writes_them() {
        assert_eq!(
            parse_config_parameters("'handover.freshFor'='36h' 'Color.UI'='always'"),
            [
                ("handover.freshfor".to_owned(), "36h".to_owned()),
                ("color.ui".to_owned(), "always".to_owned())
            ]
        );
        assert_eq!(
            parse_config_parameters("'handover.dir=a=b'"),
            [("handover.dir".to_owned(), "a=b".to_owned())]
        );
        assert_eq!(
            parse_config_parameters("'handover.dir'='it'\\''s'"),
            [("handover.dir".to_owned(), "it's".to_owned())]
        );
        assert_eq!(parse_config_parameters("'unterminated"), []);
        assert!(parse_overrides(&["novalue".into()]).is_err());
    }

    #[test]
    fn hook_settings_read_git_booleans_and_never_fail() {
        let with = |k: &'static str, v: &'static str| {
            Settings::from_lookup(move |key| (key == k).then(|| v.to_owned())).unwrap()
        };
        assert_eq!(Settings::defaults().hook, None);
        assert!(!Settings::defaults().record_commits);
        assert_eq!(with("handover.hook", "Yes").hook, Some(true));
        assert_eq!(with("handover.hook", "off").hook, Some(false));
        assert_eq!(with("handover.hook", "maybe").hook, Some(false));
        assert!(with("handover.recordCommits", "ON").record_commits);
        assert!(!with("handover.recordCommits", "2").record_commits);
        assert_eq!(parse_bool(""), Some(false));
        assert_eq!(parse_bool("1"), Some(true));
        assert_eq!(parse_bool("nope"), None);
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("36h"), Ok(hours(36)));
        assert_eq!(parse_duration("7d"), Ok(hours(168)));
        assert_eq!(parse_duration("90m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_duration("1w"), Ok(hours(168)));
        assert_eq!(parse_duration("2 days"), Ok(hours(48)));
        assert_eq!(parse_duration("P7D"), Ok(hours(168)));
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("1 month").is_err());
        assert!(parse_duration("-2h").is_err());
    }

    #[test]
    fn settings_defaults_and_overrides() {
        let d = Settings::defaults();
        assert_eq!(d.dir, ".claude/handover");
        assert_eq!(d.fresh_for, hours(24));
        assert_eq!(d.stale_after, hours(48));
        assert_eq!(d.clean_after, hours(168));
        assert!(d.auto_clean);
        assert_eq!(d.color, ColorChoice::Auto);

        let s = Settings::from_lookup(|k| match k {
            "handover.freshFor" => Some("36h".into()),
            "handover.autoClean" => Some("false".into()),
            "color.ui" => Some("never".into()),
            "handover.store" => Some("both".into()),
            _ => None,
        })
        .unwrap();
        assert_eq!(s.fresh_for, hours(36));
        assert!(!s.auto_clean);
        assert_eq!(s.color, ColorChoice::Never);
        assert_eq!(s.store, Store::Both);
    }

    #[test]
    fn color_handover_wins_over_color_ui() {
        let s = Settings::from_lookup(|k| match k {
            "color.handover" => Some("always".into()),
            "color.ui" => Some("never".into()),
            _ => None,
        })
        .unwrap();
        assert_eq!(s.color, ColorChoice::Always);
    }

    #[test]
    fn invalid_values_name_key_and_value() {
        let err = Settings::from_lookup(|k| (k == "handover.staleAfter").then(|| "forever".into()))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid value \"forever\" for config key handover.staleAfter: expected a duration such as 90m, 36h, 7d or 1w"
        );
        assert_eq!(err.exit_code(), 2);
        let err =
            Settings::from_lookup(|k| (k == "handover.dir").then(|| "../x".into())).unwrap_err();
        assert!(err.to_string().contains("handover.dir"), "{err}");
    }

    #[test]
    fn locale_picks_japanese() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        assert_eq!(lang_from_locale(env(&[("LANG", "ja_JP.UTF-8")])), Lang::Ja);
        assert_eq!(
            lang_from_locale(env(&[("LC_ALL", "C"), ("LANG", "ja_JP.UTF-8")])),
            Lang::En
        );
        assert_eq!(lang_from_locale(env(&[])), Lang::En);
    }

    #[test]
    fn human_durations() {
        assert_eq!(human_duration(Duration::from_secs(30)), "30s");
        assert_eq!(human_duration(Duration::from_secs(45 * 60)), "45m");
        assert_eq!(
            human_duration(Duration::from_secs(5 * 3600 + 600)),
            "5h 10m"
        );
        assert_eq!(
            human_duration(Duration::from_secs(2 * 86_400 + 3 * 3600 + 59)),
            "2d 3h"
        );
        assert_eq!(human_duration(Duration::from_secs(3 * 86_400)), "3d");
    }
}
