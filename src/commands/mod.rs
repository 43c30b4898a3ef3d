//! One file (or folder) per subcommand: its arguments, and a run that takes them and
//! returns a plain data report. Commands do not print, and no command uses another:
//! what two commands share is a service. [`open`] gives the shell the context a
//! command runs in.

pub mod agent_hook;
pub mod clean;
pub mod completions;
pub mod r#continue;
pub mod git_hook;
pub mod here;
pub mod log;
pub mod man;
pub mod migrate;
pub mod render;
pub mod save;
pub mod status;
pub mod sync;
pub mod task;

use std::path::PathBuf;

pub use crate::services::context::Context;
use crate::support::config::{self, Settings};
use crate::support::error::Result;
use crate::support::i18n::Lang;

/// The context of a run in `dir`: the repository, its settings, the clock, the
/// language (`lang`, the `--lang` flag, else `handover.language`, else the locale).
/// `overrides` (`git -c`, then our own `-c`) are applied to the repository as git
/// applies `-c`.
pub fn open(dir: PathBuf, overrides: &[(String, String)], lang: Option<Lang>) -> Result<Context> {
    let all: Vec<String> = overrides.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let repo = crate::git::discover_with(&dir, &all)?;
    let settings = Settings::from_lookup(|k| repo.config_string(k))?;
    let lang = config::language(lang, settings.language);
    Ok(Context {
        repo,
        settings,
        now: crate::support::clock::now(),
        lang,
        cwd: dir,
    })
}
