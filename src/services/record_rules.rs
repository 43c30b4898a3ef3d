//! The notes store's merge rules: each note joined record-wise, as `git notes merge
//! -s cat_sort_uniq` does: `sync`'s merge and the claims decided on a remote
//! (`services/remote_claim.rs`) use the one set of rules.

use crate::git::{NoteBlob, NoteChoice, NoteRules};
use crate::model::record::{self, Merged};

/// The notes of the store merged as the records say ([`record::merge3`],
/// [`record::cat_sort_uniq`]).
pub struct RecordRules;

impl NoteRules for RecordRules {
    fn choose(
        &self,
        base: Option<&NoteBlob>,
        local: Option<&NoteBlob>,
        theirs: Option<&NoteBlob>,
    ) -> NoteChoice {
        match record::merge3(base, local, theirs) {
            Merged::Local => NoteChoice::Keep,
            Merged::Theirs(_) => NoteChoice::Take,
            Merged::Remove => NoteChoice::Remove,
            Merged::Combine => NoteChoice::Join,
        }
    }

    fn join(&self, local: &[u8], theirs: &[u8]) -> Vec<u8> {
        record::cat_sort_uniq(local, theirs)
    }
}
