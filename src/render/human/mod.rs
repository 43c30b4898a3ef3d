//! Human output. The only place that colours; everything read from handover files is
//! escaped before it is printed.

mod brief;
mod briefing;
pub mod claims;
mod doctor;
mod handover;
mod linkage;
pub mod run_notices;
mod short;
mod status;
mod why;
mod writes;

use owo_colors::{OwoColorize as _, Style};

pub use brief::{Block, Priority, blocks as briefing_blocks, fit};
pub use briefing::{announcements, candidates, continue_};
pub use doctor::doctor;
pub use short::sides;
pub use status::status;
pub use why::why;
pub use writes::{
    clean, here, hook, log, log_entry, log_none, migrate, render, save, sync, task, task_list,
    task_show,
};

use crate::support::i18n::Lang;

/// Width of the labels of detail lines, so values line up.
const LABEL: usize = 10;
/// Descriptions are cut to this many characters in one-line summaries.
const SUMMARY_WIDTH: usize = 72;

/// How human output looks: colour or not, and its language.
pub struct Painter {
    color: bool,
    lang: Lang,
}

impl Painter {
    pub fn new(color: bool, lang: Lang) -> Self {
        Painter { color, lang }
    }

    /// The language of the output.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// A message of the catalog.
    pub fn t<'a>(&self, key: &'a str) -> &'a str {
        crate::support::i18n::text(self.lang, key)
    }

    fn duration(&self, d: std::time::Duration) -> String {
        crate::support::i18n::duration(self.lang, d)
    }

    pub fn separator(&self) -> &'static str {
        crate::support::i18n::list_separator(self.lang)
    }

    /// A message of the catalog with its `{name}` arguments filled in.
    pub fn f(&self, key: &str, args: &[(&str, &dyn std::fmt::Display)]) -> String {
        crate::support::i18n::fill(self.lang, key, args)
    }

    fn paint(&self, text: &str, style: Style) -> String {
        if self.color {
            text.style(style).to_string()
        } else {
            text.to_owned()
        }
    }

    fn bold(&self, t: &str) -> String {
        self.paint(t, Style::new().bold())
    }
    fn good(&self, t: &str) -> String {
        self.paint(t, Style::new().green())
    }
    fn warn(&self, t: &str) -> String {
        self.paint(t, Style::new().yellow())
    }
    fn bad(&self, t: &str) -> String {
        self.paint(t, Style::new().red().bold())
    }
    fn dim(&self, t: &str) -> String {
        self.paint(t, Style::new().dimmed())
    }
}
