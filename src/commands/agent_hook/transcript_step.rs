//! The transcript's part of a record: the agent's own transcript (`transcript_path`)
//! read bounded by `services::transcript`, as the facts the record keeps.

use std::path::Path;

use crate::cli::shared::HookAgent;
use crate::model::auto_record::Failure;
use crate::services::transcript::{self, Problem};
use crate::support::i18n::Lang;

/// What the record takes from a transcript.
#[derive(Debug, Default)]
pub(super) struct Taken {
    pub last_request: Option<String>,
    pub edited_files: Vec<String>,
    pub failed: Vec<Failure>,
}

/// The transcript at `path` in `agent`'s format (none for an agent whose format is not
/// read, Copilot's, or when the event names no transcript). A transcript that could not
/// be read (not a regular file, a link to none, an I/O error, another agent's format)
/// is one line in `notes`, and nothing is taken from it; one read in part (its
/// tail only, or with lines that are not UTF-8 skipped) gives what was read, silently,
/// since what it gives is still true.
pub(super) fn read(
    path: Option<&Path>,
    agent: Option<HookAgent>,
    lang: Lang,
    notes: &mut Vec<String>,
) -> Taken {
    let (Some(path), Some(format)) = (path, agent.and_then(transcript::format_of)) else {
        return Taken::default();
    };
    let read = transcript::read(path, format);
    match &read.problem {
        // No transcript there (the agent wrote none, or not yet): nothing to say.
        Some(Problem::Missing) => return Taken::default(),
        None | Some(Problem::Truncated { .. } | Problem::NotUtf8) => {}
        Some(problem) => {
            notes.push(transcript::note(problem).render(lang));
            return Taken::default();
        }
    }
    let digest = read.digest;
    Taken {
        last_request: digest.last_request,
        edited_files: digest.edited_files,
        failed: digest
            .failed_commands
            .into_iter()
            .map(|f| Failure {
                command: f.command,
                exit_status: f.exit_status,
                first_error_line: f.first_error_line,
            })
            .collect(),
    }
}
