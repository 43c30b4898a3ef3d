//! The agent hooks: `hook session-start`, `hook pre-compact`, `hook session-end`, and
//! `hook install|uninstall`, which register the first in an agent's settings file.

mod args;
mod install;

pub use args::{ReminderArgs, SessionStartArgs};
pub use install::{InstallReport, install, uninstall};
