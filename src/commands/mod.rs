//! One file per subcommand: arguments in, a plain data report out. Commands do not
//! print, and no command uses another: what two commands share is a service.

pub mod agent_hook;
pub mod clean;
pub mod completions;
pub mod r#continue;
pub mod here;
pub mod log;
pub mod man;
pub mod migrate;
pub mod render;
pub mod save;
pub mod status;
pub mod sync;
pub mod task;
