//! One file per subcommand: arguments in, a plain data report out. Commands do not print.

pub mod completions;
pub mod man;
pub mod status;

use std::path::PathBuf;

use jiff::Timestamp;

use crate::config::{Lang, Settings};
use crate::git::Repo;

/// What every command that works on a repository gets.
pub struct Context {
    pub repo: Repo,
    pub settings: Settings,
    pub now: Timestamp,
    pub lang: Lang,
    /// The directory the command runs in (after `-C`).
    pub cwd: PathBuf,
}
