//! The note texts an update of the notes index read whole (the old and new text of each
//! note that changed), kept for what the update reads again: the head of a group's
//! newest record, the lines of the open groups' entries (`index_delta.rs`). Each of
//! those is a note inflated again otherwise: at 1,000,000 records the note of HEAD is
//! 460 KB, inflated in about 0.4 ms. A write of this tool gives the texts it made
//! (`index::after_write`): the update after it then reads no note at all.

use crate::git::{NoteReader, NoteText};
use crate::model::record::MAX_NOTE_SIZE;

/// The texts read so far: each blob's place in one of the texts (a note's text before
/// an append is the start of its text after), or none when it is over the size limit.
#[derive(Default)]
pub(super) struct Texts {
    blobs: Vec<(NoteText, Option<(usize, usize)>)>,
    held: Vec<Vec<u8>>,
    /// The texts given (not read), never let go.
    given: usize,
}

/// The most bytes of the texts read that are kept past the change that read them.
const KEPT: usize = 4 << 20;

impl Texts {
    /// A write's note: its text `text` now (blob `now`), of which the first `before`
    /// bytes were its text as blob `was`. Nothing when it is over the size limit: the
    /// update then reads both as every reader does (the note passed over whole).
    pub(super) fn given(
        was: Option<NoteText>,
        (now, text): (NoteText, Vec<u8>),
        before: usize,
    ) -> Texts {
        let mut t = Texts::default();
        if text.len() > MAX_NOTE_SIZE {
            return t;
        }
        if let Some(was) = was.filter(|_| before <= text.len()) {
            t.blobs.push((was, Some((0, before))));
        }
        t.blobs.push((now, Some((0, text.len()))));
        t.held.push(text);
        t.given = 1;
        t
    }

    /// Let go of the texts read when they hold more than [`KEPT`] bytes (the given
    /// ones stay).
    pub(super) fn trim(&mut self) {
        let read: usize = self.held[self.given.min(self.held.len())..]
            .iter()
            .map(Vec::len)
            .sum();
        if read > KEPT {
            let given = self.given;
            self.held.truncate(given);
            self.blobs
                .retain(|(_, at)| at.is_none_or(|(i, _)| i < given));
        }
    }

    /// Read `blob` through `reader` unless it is here; `Err(())` when it is not in the
    /// object database.
    pub(super) fn load(
        &mut self,
        reader: &mut NoteReader<'_>,
        blob: Option<NoteText>,
    ) -> Result<(), ()> {
        let Some(blob) = blob.filter(|b| !self.blobs.iter().any(|(h, _)| h == b)) else {
            return Ok(());
        };
        let at = super::index_build::text_of(reader, blob)?.map(|text| {
            self.held.push(text);
            (self.held.len() - 1, self.held.last().map_or(0, Vec::len))
        });
        self.blobs.push((blob, at));
        Ok(())
    }

    /// The text of `blob` when it is here and within the size limit.
    pub(super) fn text(&self, blob: NoteText) -> Option<&[u8]> {
        let (_, at) = self.blobs.iter().find(|(b, _)| *b == blob)?;
        at.and_then(|(i, len)| self.held.get(i)?.get(..len))
    }
}
