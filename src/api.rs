//! What the integration tests, the property tests and the fuzz targets reach inside the
//! crate. Not a public interface: the binary is the product.

pub use crate::git::discover;
pub use crate::model::markdown::render as render_markdown;
pub use crate::model::record::{self as notes, Record, RecordKind};
pub use crate::model::session::{merge, seal, session_hash};
pub use crate::model::state::{State, View};
pub use crate::model::transcript::{
    Digest as TranscriptDigest, FailedCommand, Format as TranscriptFormat,
    digest as transcript_digest,
};
pub use crate::services::transcript::{
    Problem as TranscriptProblem, Read as TranscriptRead, read as read_transcript,
    read_bounded as read_transcript_bounded,
};
pub use crate::support::i18n::Lang;
pub use crate::support::jsonc::blank_comments as blank_json_comments;

/// The note a hook prints for a transcript's problem, in `lang`.
pub fn transcript_note(problem: &TranscriptProblem, lang: Lang) -> String {
    crate::services::transcript::note(problem).render(lang)
}

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

/// The completion script for `shell`, as `completions` prints it.
pub fn completions(shell: clap_complete::Shell) -> Vec<u8> {
    crate::commands::completions::generate(shell, crate::cli::command())
}

/// Every man page as `(file name, roff)`, as `man` writes them.
pub fn man_pages() -> crate::support::error::Result<Vec<(String, Vec<u8>)>> {
    crate::commands::man::pages(crate::cli::command(), crate::cli::EXAMPLES)
}
