//! A message of the catalog with its arguments, kept typed until it is shown.

use std::fmt;

use crate::support::i18n::Lang;

/// An argument of a message: text as it is, or a word of the catalog (translated too).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    Text(String),
    Word(&'static str),
}

/// A message of the catalog (`support/i18n`) with its arguments, rendered in the language
/// of the run when it is printed. `Display` gives the English text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Msg {
    key: &'static str,
    args: Vec<(&'static str, Arg)>,
}

impl Msg {
    pub fn new(key: &'static str, args: &[(&'static str, &dyn fmt::Display)]) -> Msg {
        Msg {
            key,
            args: args
                .iter()
                .map(|(name, value)| (*name, Arg::Text(value.to_string())))
                .collect(),
        }
    }

    /// Add an argument that is itself a word of the catalog.
    #[must_use]
    pub fn word(mut self, name: &'static str, key: &'static str) -> Msg {
        self.args.push((name, Arg::Word(key)));
        self
    }

    pub fn render(&self, lang: Lang) -> String {
        let values: Vec<(&str, String)> = self
            .args
            .iter()
            .map(|(name, arg)| {
                let value = match arg {
                    Arg::Text(t) => t.clone(),
                    Arg::Word(key) => crate::support::i18n::text(lang, key).to_owned(),
                };
                (*name, value)
            })
            .collect();
        let refs: Vec<(&str, &dyn fmt::Display)> = values
            .iter()
            .map(|(n, v)| (*n, v as &dyn fmt::Display))
            .collect();
        crate::support::i18n::fill(lang, self.key, &refs)
    }
}

impl fmt::Display for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(Lang::En))
    }
}

/// A message of the catalog: `msg("err.bad_rev", &[("rev", &rev)])`.
pub fn msg(key: &'static str, args: &[(&'static str, &dyn fmt::Display)]) -> Msg {
    Msg::new(key, args)
}
