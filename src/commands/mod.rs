//! One file (or folder) per subcommand: its arguments, and a run that takes them and
//! returns a plain data report. Commands do not print, and no command uses another:
//! what two commands share is a service. [`open`] gives the shell the context a
//! command runs in.

pub mod agent_hook;
pub mod clean;
pub mod completions;
pub mod r#continue;
pub mod doctor;
pub mod git_hook;
pub mod here;
pub mod log;
pub mod man;
pub mod migrate;
pub mod render;
pub mod save;
pub mod schema;
pub mod status;
pub mod sync;
pub mod task;
pub mod why;

use std::path::PathBuf;

pub use crate::services::context::Context;
use crate::support::error::Result;
use crate::support::i18n::Lang;

/// The context of a run in `dir` ([`Context::open`]), for the shell.
pub fn open(dir: PathBuf, overrides: &[(String, String)], lang: Option<Lang>) -> Result<Context> {
    Context::open(dir, overrides, lang)
}

/// What the run ran into that no command's report carries (stale locks taken over, a
/// notes index not kept), each once, for the shell to add to any command's warnings.
pub fn run_notices() -> crate::facts::run_notices::RunNotices {
    crate::services::run_notices::take()
}
