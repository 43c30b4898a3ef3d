//! The open part of the notes index, `<name>.open`: the groups shown whose newest
//! record is unfinished or diverged, and every line passed over, so that the hook,
//! `continue` and `status` read a file the size of the open sessions, not of every
//! session. Checked as the index's other files are (see [`super::index_file`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::index_file::{Files, GroupEntry, HEADS_LIMIT, Heads, said, shown, unwrap, wrap};
use crate::git::CommitId;

/// What a listing of the sessions to resume needs (`.open`): the groups shown whose
/// newest record is unfinished or diverged, and every line passed over.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Open {
    pub groups: BTreeMap<String, GroupEntry>,
    /// (note, line, why), in the order the readers say them.
    pub said: Vec<(String, usize, String)>,
}

impl Open {
    /// The open part of `heads`.
    pub fn of(heads: &Heads) -> Open {
        let shown = shown(heads);
        Open {
            groups: (heads.groups.iter())
                .filter(|(g, e)| {
                    shown(g) && e.newest.is_some() && (!e.finished || !e.sides.is_empty())
                })
                .map(|(g, e)| (g.clone(), e.clone()))
                .collect(),
            said: said(heads),
        }
    }
}

/// The open part as of its notes commit, when the file is there and whole.
pub fn read_open(files: &Files, notes_ref: &str) -> Option<(CommitId, Open)> {
    let bytes = crate::support::read::read_regular(&files.open, HEADS_LIMIT).ok()?;
    let (commit, body) = unwrap(&bytes, "open", notes_ref)?;
    Some((commit, serde_json::from_slice(&body).ok()?))
}

/// Write the open part for `commit` (best effort), taken from heads of that commit.
pub fn write_open(files: &Files, notes_ref: &str, commit: CommitId, open: &Open) {
    let Ok(body) = serde_json::to_vec(open) else {
        return;
    };
    let _ = crate::support::fsio::write_cache(&files.open, &wrap("open", notes_ref, commit, &body));
}
