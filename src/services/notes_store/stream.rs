//! Plain `log` as a stream (issue 36): every record of the store, newest first, each
//! with what changed since the record of its session before it, handed on as soon as
//! it is known, never the whole store at once.
//!
//! The notes are read in the order of the newest record each holds (the index's
//! `.times`; notes it has no time for first); a record read goes on once no unread
//! note can hold a newer one. What changed needs the next older record of the same
//! session with a state, which comes later in this order: a record waits in a queue
//! until that one is read (or the store ends), and records behind it wait with it. So
//! what is held is the records between one record and its session's previous one,
//! not the store. The set listed, the order and what changed are those of the store
//! read whole ([`super::Store::history`]); the lines named unreadable too (every line
//! is parsed whole: each is printed). The index is only the order of reading: the list
//! of notes is the notes tree's own, and a note holding a newer record than the index
//! said makes the index be built afresh by the next reader.

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap, VecDeque};

use super::index;
use super::indexed::IndexedAt as Indexed;
use super::replaced::Walk;
use super::{Store, StoredRecord};
use crate::git::{CommitId, NoteText};
use crate::model::changes::{Change, Summary};
use crate::model::record::{MAX_NOTE_SIZE, Record};
use crate::support::error::Result;

/// Where a record goes among the others: newest first; the same instant in key order,
/// then (one session) the higher write count first, then the line appended last first
/// (`history.rs`'s `newer_first`).
type Rank = (
    Reverse<jiff::Timestamp>,
    String,
    Reverse<Option<u64>>,
    Reverse<(CommitId, usize)>,
);

fn rank_of(note: CommitId, line: usize, r: &Record) -> Rank {
    (
        Reverse(r.saved_at),
        r.key.clone(),
        Reverse(r.seq),
        Reverse((note, line)),
    )
}

/// A note's blob, its text, and where each of its lines starts and ends.
type Lines = (NoteText, Vec<u8>, Vec<(usize, usize)>);

/// A record in the queue, with what changed once its session's previous record is
/// known. Once it is, its state is let go and read again from its note when the
/// record goes out: a record waiting behind others costs its place, not its state.
struct Slot {
    stored: StoredRecord,
    changes: Option<Vec<Change>>,
    /// While it waits: the walk to the state it replaced (`replaced.rs`).
    walk: Option<Walk<Summary>>,
    /// Where to read it again: its note's blob and its line.
    at: (NoteText, usize),
    /// Its state was let go.
    light: bool,
}

/// Plain `log`'s records, newest first, read as they are asked for.
pub struct LogStream<'a> {
    store: Store<'a>,
    /// Notes not read yet, the next to read last: (newest record's time, note, blob).
    unread: Vec<(jiff::Timestamp, CommitId, NoteText)>,
    /// Records read and not yet in the queue, in their order, with where they are.
    read: BTreeMap<Rank, (StoredRecord, NoteText)>,
    /// The last note read again for a record going out, and where each of its lines
    /// starts and ends.
    again: Option<Lines>,
    queue: VecDeque<Slot>,
    /// The number of the queue's first slot (slots are numbered as they come).
    first: usize,
    /// Slots waiting for their session's previous record, by session id and by key.
    by_id: HashMap<String, Vec<usize>>,
    by_key: HashMap<String, Vec<usize>>,
    skips: BTreeMap<(CommitId, usize), String>,
    /// A note held a record newer than the index said.
    misordered: bool,
}

impl<'a> Store<'a> {
    /// Plain `log` as a stream; `None` when the index cannot give the order of reading
    /// (the caller then reads the store whole: [`Store::history`]).
    pub fn history_stream(&self) -> Result<Option<LogStream<'a>>> {
        let commit = match self.index()? {
            None => return Ok(None),
            Some(Indexed::NoRef) => return Ok(Some(self.stream_of(Vec::new()))),
            Some(Indexed::At(commit, _)) => commit,
        };
        let Some(times) = index::times(self.repo, &self.settings.notes_ref, commit) else {
            // Its times are gone or not whole: built afresh by the next reader.
            index::forget(self.repo, &self.settings.notes_ref);
            return Ok(None);
        };
        let mut unread: Vec<(jiff::Timestamp, CommitId, NoteText)> = (self.repo)
            .notes_listing(commit)?
            .into_iter()
            .map(|(note, blob)| {
                let at = times.get(&note).copied().unwrap_or(jiff::Timestamp::MAX);
                (at, note, blob)
            })
            .collect();
        unread.sort_unstable_by_key(|(at, note, _)| (*at, *note));
        Ok(Some(self.stream_of(unread)))
    }

    fn stream_of(&self, unread: Vec<(jiff::Timestamp, CommitId, NoteText)>) -> LogStream<'a> {
        LogStream {
            store: *self,
            unread,
            read: BTreeMap::new(),
            again: None,
            queue: VecDeque::new(),
            first: 0,
            by_id: HashMap::new(),
            by_key: HashMap::new(),
            skips: BTreeMap::new(),
            misordered: false,
        }
    }
}

impl LogStream<'_> {
    /// The next record, newest first, and what changed since its session's previous
    /// record with a state.
    pub fn next_record(&mut self) -> Result<Option<(StoredRecord, Vec<Change>)>> {
        loop {
            if let Some(front) = self.queue.front_mut() {
                let done = self.unread.is_empty() && self.read.is_empty();
                if front.changes.is_none() && done {
                    // No older record left: what its walk tells at the end.
                    let before = front.walk.take().map(|mut w| w.decide());
                    let after = front.stored.record.state.as_ref();
                    let after = after.map(|s| Summary::of(&s.doc()));
                    front.changes = Some(match (before, after) {
                        (Some(b), Some(a)) => b.changes(&a),
                        _ => Vec::new(),
                    });
                }
                if front.changes.is_some() {
                    let mut slot = self.queue.pop_front().expect("a front");
                    self.first += 1;
                    if slot.light {
                        slot.stored.record = self.read_again(slot.at)?;
                    }
                    return Ok(Some((slot.stored, slot.changes.unwrap_or_default())));
                }
            } else if self.unread.is_empty() && self.read.is_empty() {
                return Ok(None);
            }
            self.step()?;
        }
    }

    /// The lines that are no record, named (once every record has been read).
    pub fn skipped(&self) -> Vec<String> {
        (self.skips.iter())
            .map(|((note, line), why)| self.store.unreadable_record(note, *line, why))
            .collect()
    }

    /// One record on into the queue, reading the next note first when no record read
    /// is surely the next.
    fn step(&mut self) -> Result<()> {
        loop {
            let next_note = self.unread.last().map(|(at, _, _)| *at);
            if let Some(entry) = self.read.first_entry()
                && next_note.is_none_or(|at| entry.key().0.0 > at)
            {
                let line = (entry.key().3).0.1;
                let (stored, blob) = entry.remove();
                self.enqueue(stored, (blob, line));
                return Ok(());
            }
            let Some((at, note, blob)) = self.unread.pop() else {
                return Ok(());
            };
            self.read_note(at, note, blob)?;
        }
    }

    fn read_note(&mut self, at: jiff::Timestamp, note: CommitId, blob: NoteText) -> Result<()> {
        let repo = self.store.repo;
        let size = repo.note_size(blob).unwrap_or_default();
        if usize::try_from(size).map_or(true, |n| n > MAX_NOTE_SIZE) {
            self.skips
                .insert((note, 1), super::index_scan::oversize(size).why);
            return Ok(());
        }
        let Some(text) = repo.note_text(blob, MAX_NOTE_SIZE) else {
            return Err(super::index_scan::missing(&note));
        };
        for parsed in crate::model::record::parse_note(&text) {
            match parsed.record {
                Ok(record) => {
                    if record.saved_at > at && !self.misordered {
                        self.misordered = true;
                        index::forget(repo, &self.store.settings.notes_ref);
                    }
                    let stored = StoredRecord {
                        commit: note,
                        record,
                        diverged: Vec::new(),
                    };
                    self.read
                        .insert(rank_of(note, parsed.line, &stored.record), (stored, blob));
                }
                Err(why) => {
                    self.skips.insert((note, parsed.line), why);
                }
            }
        }
        Ok(())
    }

    /// `stored` at the end of the queue, a step of the walk of every slot of its
    /// session that waits (when it holds a state): those it tells get their change.
    fn enqueue(&mut self, stored: StoredRecord, at: (NoteText, usize)) {
        let slot = self.first + self.queue.len();
        let Some(state) = stored.record.state.as_ref() else {
            self.queue.push_back(Slot {
                stored,
                changes: Some(Vec::new()),
                walk: None,
                at,
                light: false,
            });
            return;
        };
        let r = &stored.record;
        let (id, key) = (r.session_id.clone(), r.key.clone());
        let hash = state.session_hash();
        let mut summary: Option<Summary> = None;
        for s in self.waiting_of(id.as_deref(), &key) {
            let Some(w) = s
                .checked_sub(self.first)
                .and_then(|i| self.queue.get_mut(i))
            else {
                continue;
            };
            let Some(walk) = w.walk.as_mut() else {
                continue;
            };
            let told = walk.step(r.seq, hash.as_deref(), || {
                summary
                    .get_or_insert_with(|| Summary::of(&state.doc()))
                    .clone()
            });
            let Some(before) = told else { continue };
            let after = w.stored.record.state.take();
            let after = after.as_ref().map(|s| Summary::of(&s.doc()));
            w.changes = Some(after.map_or_else(Vec::new, |a| before.changes(&a)));
            w.walk = None;
            w.light = true;
        }
        let walk = Walk::of(r.seq, r.parent.as_deref());
        // A new session replaced nothing: told at once, waits for nothing.
        let changes = walk
            .at_once()
            .map(|b| b.changes(&Summary::of(&state.doc())));
        if changes.is_none() {
            if let Some(id) = &id {
                self.by_id.entry(id.clone()).or_default().push(slot);
            }
            self.by_key.entry(key).or_default().push(slot);
        }
        let walk = changes.is_none().then_some(walk);
        self.queue.push_back(Slot {
            stored,
            changes,
            walk,
            at,
            light: false,
        });
    }

    /// The slots still waiting of the session (`id`, `key`), those told dropped from
    /// the lists. Two records are of one session when their ids are equal, or, when
    /// either has none, their keys.
    fn waiting_of(&mut self, id: Option<&str>, key: &str) -> Vec<usize> {
        let (queue, first) = (&self.queue, self.first);
        let slot_of = |s: &usize| s.checked_sub(first).and_then(|i| queue.get(i));
        let mut waiting: Vec<usize> = Vec::new();
        if let Some(id) = id
            && let Some(slots) = self.by_id.get_mut(id)
        {
            slots.retain(|s| slot_of(s).is_some_and(|w| w.changes.is_none()));
            waiting.extend(slots.iter().copied());
            if slots.is_empty() {
                self.by_id.remove(id);
            }
        }
        if let Some(slots) = self.by_key.get_mut(key) {
            slots.retain(|s| slot_of(s).is_some_and(|w| w.changes.is_none()));
            waiting.extend((slots.iter().copied()).filter(|s| {
                slot_of(s).is_some_and(|w| id.is_none() || w.stored.record.session_id.is_none())
            }));
            if slots.is_empty() {
                self.by_key.remove(key);
            }
        }
        waiting.sort_unstable();
        waiting.dedup();
        waiting
    }

    /// The record at `at`, read again from its note (the last note read again is
    /// kept: records going out one after the other are mostly on one note).
    fn read_again(&mut self, (blob, line): (NoteText, usize)) -> Result<Record> {
        if self.again.as_ref().is_none_or(|(b, _, _)| *b != blob) {
            let text = self.store.repo.note_text(blob, MAX_NOTE_SIZE);
            self.again = text.map(|t| {
                let mut lines = Vec::new();
                let mut start = 0;
                for end in (t.iter().enumerate())
                    .filter_map(|(i, b)| (*b == b'\n').then_some(i))
                    .chain([t.len()])
                {
                    lines.push((start, end));
                    start = end + 1;
                }
                (blob, t, lines)
            });
        }
        let found = (self.again.as_ref()).and_then(|(_, text, lines)| {
            let (start, end) = *lines.get(line.checked_sub(1)?)?;
            text.get(start..end)
        });
        found
            .and_then(|l| crate::model::record::parse_record(l).ok())
            .ok_or_else(|| crate::support::error::Error::GitSaid {
                action: crate::support::error::msg(
                    crate::k!("git.read"),
                    &[("what", &blob.to_hex())],
                ),
                why: crate::support::error::msg(crate::k!("git.record_gone"), &[]),
            })
    }
}
