//! What the integration tests, the property tests and the fuzz targets reach inside the
//! crate. Not a public interface: the binary is the product.

pub use crate::commands::{completions::generate as completions, man::pages as man_pages};
pub use crate::git::discover;
pub use crate::model::markdown::render as render_markdown;
pub use crate::model::record::{self as notes, Record, RecordKind};
pub use crate::model::session::{merge, seal, session_hash};
pub use crate::model::state::{State, View};
pub use crate::support::i18n::Lang;

/// Whether `args` (without the program name) is a command line the CLI accepts: a
/// renamed flag or subcommand in a skill or a hook file fails the drift tests.
pub fn parse_args(args: &[String]) -> Result<(), String> {
    use clap::Parser as _;
    crate::cli::Cli::try_parse_from(
        std::iter::once("git-handover".to_owned()).chain(args.iter().cloned()),
    )
    .map(|_| ())
    .map_err(|e| e.to_string())
}
