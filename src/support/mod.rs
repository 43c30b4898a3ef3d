//! The bottom layer: errors, the message catalog, configuration, file I/O, paths,
//! text escaping and the clock. Support imports nothing else of the crate.

pub mod clock;
pub mod config;
pub mod error;
pub mod fsio;
pub mod i18n;
pub mod id;
pub mod jsonc;
pub mod lock;
pub mod paths;
pub mod read;
pub mod testing;
pub mod text;
