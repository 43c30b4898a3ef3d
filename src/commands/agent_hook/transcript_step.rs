//! The transcript's part of a record: the agent's own transcript (`transcript_path`)
//! read bounded by `services::transcript`, as the facts the record keeps.

use std::path::Path;

use crate::cli::shared::HookAgent;
use crate::model::auto_record::Failure;

/// What the record takes from a transcript.
#[derive(Debug, Default)]
pub(super) struct Taken {
    pub last_request: Option<String>,
    pub edited_files: Vec<String>,
    pub failed: Vec<Failure>,
}

/// The transcript at `path` in `agent`'s format; a problem reading it is one line in
/// `notes`, and nothing is taken from it.
pub(super) fn read(
    path: Option<&Path>,
    agent: Option<HookAgent>,
    notes: &mut Vec<String>,
) -> Taken {
    let _ = (path, agent, notes);
    Taken::default()
}
