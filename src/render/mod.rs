//! Output: one human renderer (the only user of colour) and one JSON renderer with
//! versioned output structs.

pub mod agent_hook;
pub mod human;
pub mod json;
pub mod output;

pub use output::{Notices, Output};

use crate::cli::ColorWhen;
use crate::support::config::ColorChoice;

/// Decide once whether to colour: `--color` wins; then `NO_COLOR` turns colour off and
/// `CLICOLOR_FORCE` on; then `color.handover`/`color.ui`; `auto` means a terminal.
pub fn use_color(
    flag: Option<ColorWhen>,
    config: ColorChoice,
    env: impl Fn(&str) -> Option<String>,
    stdout_is_terminal: bool,
) -> bool {
    let set = |k: &str| env(k).is_some_and(|v| !v.is_empty());
    match flag {
        Some(ColorWhen::Always) => return true,
        Some(ColorWhen::Never) => return false,
        Some(ColorWhen::Auto) | None => {}
    }
    if set("NO_COLOR") {
        return false;
    }
    if set("CLICOLOR_FORCE") && env("CLICOLOR_FORCE").as_deref() != Some("0") {
        return true;
    }
    match (flag, config) {
        (None, ColorChoice::Always) => true,
        (None, ColorChoice::Never) => false,
        // As git decides `auto`: a terminal, or git's pager (GIT_PAGER_IN_USE, set when
        // git pages `git handover`), and a terminal type that can show colour.
        _ => {
            let paged = env("GIT_PAGER_IN_USE")
                .is_some_and(|v| crate::support::config::parse_bool(&v) == Some(true));
            let term_ok = env("TERM").is_some_and(|t| !t.is_empty() && t != "dumb");
            (stdout_is_terminal || paged) && term_ok
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    #[test]
    fn colour_follows_git_for_its_pager_and_dumb_terminals() {
        let auto = ColorChoice::Auto;
        assert!(use_color(
            None,
            auto,
            env(&[("TERM", "xterm"), ("GIT_PAGER_IN_USE", "true")]),
            false
        ));
        assert!(!use_color(None, auto, env(&[("TERM", "dumb")]), true));
        assert!(!use_color(None, auto, env(&[]), true), "no TERM, as git");
        assert!(use_color(
            Some(ColorWhen::Always),
            auto,
            env(&[("TERM", "dumb")]),
            false
        ));
    }

    #[test]
    fn colour_policy() {
        assert!(use_color(
            None,
            ColorChoice::Auto,
            env(&[("TERM", "xterm")]),
            true
        ));
        assert!(!use_color(None, ColorChoice::Auto, env(&[]), false));
        assert!(!use_color(
            None,
            ColorChoice::Auto,
            env(&[("NO_COLOR", "1")]),
            true
        ));
        assert!(use_color(
            None,
            ColorChoice::Auto,
            env(&[("CLICOLOR_FORCE", "1")]),
            false
        ));
        assert!(!use_color(
            None,
            ColorChoice::Auto,
            env(&[("CLICOLOR_FORCE", "0")]),
            false
        ));
        assert!(use_color(
            Some(ColorWhen::Always),
            ColorChoice::Never,
            env(&[("NO_COLOR", "1")]),
            false
        ));
        assert!(!use_color(
            Some(ColorWhen::Never),
            ColorChoice::Always,
            env(&[]),
            true
        ));
        assert!(use_color(None, ColorChoice::Always, env(&[]), false));
        assert!(!use_color(None, ColorChoice::Never, env(&[]), true));
        assert!(!use_color(
            Some(ColorWhen::Auto),
            ColorChoice::Always,
            env(&[]),
            false
        ));
    }
}
