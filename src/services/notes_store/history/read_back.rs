//! Reading a shown record's previous one back from its session's notes (`log -n N`,
//! the fallback when neither the shown records after it nor the kept ones tell): the
//! notes in the order of their newest record's time, stopping early only at the record
//! of the state it names as parent.

use std::cmp::Ordering;
use std::collections::BTreeSet;

use super::{Placed, Reading, hash_of, lines_of, rank, sort, walk};
use crate::git::CommitId;
use crate::model::changes::Summary;
use crate::services::notes_store::index_kept::{Rank, newer_first, same_session};
use crate::services::notes_store::replaced::Before;
use crate::support::error::Result;

impl Reading<'_> {
    /// Every older record of `r`'s session in `notes`, newest first, walked (a
    /// fallback: the shown or kept records tell in the usual case). The notes are read
    /// in the order of their newest record's time (`.times`), and a record is walked
    /// once no unread note can hold a newer one, so the record `r` names as parent ends
    /// the reading: a record's previous one costs the notes newer than it, not every
    /// note of its session (at 1,000,000 records, a hundred notes read for each record
    /// shown past the kept ones). The walk told any other way (no parent named, sides,
    /// a parent without a record), and every note is read and the walk made again over
    /// all of them in order, as before: only the parent's own state is taken on the
    /// strength of `.times` (any record of that state holds it).
    pub(super) fn read_back(
        &mut self,
        r: &Placed,
        notes: BTreeSet<CommitId>,
    ) -> Result<std::result::Result<Before, ()>> {
        let time = |n: &CommitId| self.times.get(n).copied().unwrap_or(jiff::Timestamp::MAX);
        let mut notes: Vec<CommitId> = notes.into_iter().collect();
        notes.sort_by_key(|n| std::cmp::Reverse((time(n), *n)));
        let parent = r.record.parent.clone();
        let mut w = walk(&r.record);
        let (mut older, mut walked, mut read) = (Vec::new(), 0, 0);
        'reading: loop {
            let bar = notes.get(read).map(time);
            sort(&mut older);
            let ready = (older.iter())
                .take_while(|p| bar.is_none_or(|b| p.record.saved_at > b))
                .count();
            for p in older.iter().take(ready).skip(walked) {
                let hash = hash_of(&p.record);
                let told = w.step(p.record.seq, hash.as_deref(), || {
                    Summary::of(&p.record.state_doc())
                });
                match told {
                    Some(b) if parent.is_some() && hash == parent => return Ok(Ok(b)),
                    Some(_) => break 'reading,
                    None => {}
                }
            }
            walked = ready.max(walked);
            let Some(&note) = notes.get(read) else { break };
            read += 1;
            crate::support::testing::note("log-before-note");
            let Ok(()) = self.older_in(r, note, &mut older)? else {
                return Ok(Err(()));
            };
        }
        // Told otherwise: every note, the walk again in order.
        for &note in &notes[read..] {
            crate::support::testing::note("log-before-note");
            let Ok(()) = self.older_in(r, note, &mut older)? else {
                return Ok(Err(()));
            };
        }
        sort(&mut older);
        let mut w = walk(&r.record);
        for p in &older {
            let told = w.step(p.record.seq, hash_of(&p.record).as_deref(), || {
                Summary::of(&p.record.state_doc())
            });
            if let Some(b) = told {
                return Ok(Ok(b));
            }
        }
        Ok(Ok(w.decide()))
    }

    /// The records of note `note` older than `r`, of its session, with a state, added
    /// to `out`; `Err(())`: the index named a note the store does not have.
    fn older_in(
        &mut self,
        r: &Placed,
        note: CommitId,
        out: &mut Vec<Placed>,
    ) -> Result<std::result::Result<(), ()>> {
        let (id, key) = (r.record.session_id.as_deref(), r.record.key.as_str());
        let Ok(text) = self.text(note)? else {
            return Ok(Err(()));
        };
        for (line_no, line, head) in lines_of(&text) {
            let Some(h) = head else { continue };
            let place = Rank {
                saved_at: h.saved_at,
                key: &h.key,
                seq: h.seq,
                note,
                line: line_no,
            };
            let is_older = newer_first(&rank(r), &place) == Ordering::Less;
            if !(is_older && same_session((h.session_id.as_deref(), &h.key), (id, key))) {
                continue;
            }
            if let Some(record) = self.parse(note, line_no, line)
                && record.state.is_some()
            {
                out.push(Placed {
                    note,
                    line: line_no,
                    record,
                });
            }
        }
        Ok(Ok(()))
    }
}
