//! `log`'s question of the store (issue 36): its records newest first, each with the
//! record of its session it replaced, and the lines that are no record.
//!
//! From the index, `log -n N` reads the notes in the order of their newest record's
//! time (the index's `.times`) and stops when no unread note can hold a newer record
//! than the N it has; what the record each shown one replaced holds is told by the
//! shown records after it (the newest of the store: a run of one agent's writes tells
//! itself), else by the records the index keeps of its session's groups
//! (`index_kept.rs`: a shown record is its session's newest, or nearly), else
//! looked for in the notes of its session alone (`.members`), newest first, stopping at
//! the first that cannot hold a newer one. `log KEY` reads the notes of the groups that have that key. Only
//! the lines that may be shown are parsed whole. Plain `log` is streamed (`stream.rs`);
//! this reads the whole store for it only when the index cannot be used.
//!
//! What this changes in what `log` says: the lines named unreadable are those the
//! index knows (every line that is no record, and the records it read whole that do
//! not parse, a kept record that does not among them when it is passed over on the way
//! to a shown record's previous one), not a whole parse of every record of the store.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

mod read_back;

use super::index;
use super::index_file::Times;
use super::index_kept::{Rank, newer_first, same_session};
use super::indexed::IndexedAt as Indexed;
use super::replaced::{Before, Walk};
use super::{Store, StoredRecord};
use crate::git::CommitId;
use crate::model::changes::Summary;
use crate::model::record::{Record, parse_head, parse_record};
use crate::support::error::Result;

/// What `log` lists.
#[derive(Debug, Default)]
pub struct History {
    /// Newest first.
    pub records: Vec<StoredRecord>,
    /// For each record, what the state it replaced holds (`replaced.rs`).
    pub before: Vec<Before>,
    /// Lines of notes that are not records, named.
    pub skipped: Vec<String>,
    /// Every key of the store, sorted (for the keys close to one asked for).
    pub keys: Vec<String>,
    /// Whether each of `keys` has a record that reads whole (the store read whole);
    /// from the index, a key may be only that of lines whose head reads.
    pub keys_read: bool,
}

/// A record and its place: the note (annotated object) and the line.
struct Placed {
    note: CommitId,
    line: usize,
    record: Record,
}

fn rank(p: &Placed) -> Rank<'_> {
    Rank {
        saved_at: p.record.saved_at,
        key: &p.record.key,
        seq: p.record.seq,
        note: p.note,
        line: p.line,
    }
}

fn sort(records: &mut [Placed]) {
    records.sort_by(|a, b| newer_first(&rank(a), &rank(b)));
}

/// A record's state's own `session_hash`.
fn hash_of(r: &Record) -> Option<String> {
    r.state.as_ref()?.session_hash()
}

fn walk<T>(r: &Record) -> Walk<T> {
    Walk::of(r.seq, r.parent.as_deref())
}

/// For each of the first `shown` of `records` (sorted), the state it replaced
/// (`replaced.rs`: its session's older records with a state, walked newest first).
fn befores(records: &[Placed], shown: usize) -> Vec<Before> {
    (0..shown.min(records.len()))
        .map(|i| walk_after(records, i).unwrap_or_else(|mut w| w.decide()))
        .collect()
}

/// What the records after `records[i]` (sorted, the newest of the store) tell of the
/// state it replaced, walked as [`befores`] does; `None` when they run out before the
/// walk tells (an older record, not among them, may).
fn told_by_shown(records: &[Placed], i: usize) -> Option<Before> {
    walk_after(records, i).ok()
}

/// The walk for `records[i]` over the records after it of its session with a state:
/// what it told, or the walk when they ran out first.
fn walk_after(records: &[Placed], i: usize) -> std::result::Result<Before, Box<Walk<Summary>>> {
    let r = &records[i].record;
    let mut w = walk(r);
    let older = (records[i + 1..].iter().map(|p| &p.record)).filter(|p| {
        p.state.is_some()
            && same_session(
                (p.session_id.as_deref(), &p.key),
                (r.session_id.as_deref(), &r.key),
            )
    });
    for p in older {
        let told = w.step(p.seq, hash_of(p).as_deref(), || Summary::of(&p.state_doc()));
        if let Some(b) = told {
            return Ok(b);
        }
    }
    Err(Box::new(w))
}

fn stored(p: Placed) -> StoredRecord {
    StoredRecord {
        commit: p.note,
        record: p.record,
        diverged: Vec::new(),
    }
}

/// The lines of a note with what orders them: each record's head (or, when its head
/// does not read, the record itself).
fn lines_of(
    text: &[u8],
) -> impl Iterator<Item = (usize, &[u8], Option<crate::model::record::Head>)> {
    text.split(|b| *b == b'\n')
        .enumerate()
        .filter(|(_, l)| !l.iter().all(u8::is_ascii_whitespace))
        .map(|(i, l)| (i + 1, l, parse_head(l)))
}

impl Store<'_> {
    /// `log`'s records (of `key` only, when given; the newest `max`, when given).
    pub fn history(&self, key: Option<&str>, max: Option<usize>) -> Result<History> {
        if let Some(h) = self.history_indexed(key, max)? {
            return Ok(h);
        }
        self.history_read(key, max)
    }

    /// [`Store::history`] read from the whole store.
    fn history_read(&self, key: Option<&str>, max: Option<usize>) -> Result<History> {
        let mut all = Vec::new();
        let mut skipped = Vec::new();
        for note in self.repo.notes_all(&self.settings.notes_ref)? {
            if let Some(why) = note.oversize_problem() {
                skipped.push(self.unreadable_record(&note.commit, 1, &why));
            }
            for parsed in crate::model::record::parse_note(&note.text) {
                match parsed.record {
                    Ok(record) => all.push(Placed {
                        note: note.commit,
                        line: parsed.line,
                        record,
                    }),
                    Err(why) => {
                        skipped.push(self.unreadable_record(&note.commit, parsed.line, &why));
                    }
                }
            }
        }
        let mut keys: Vec<String> = all.iter().map(|p| p.record.key.clone()).collect();
        keys.sort_unstable();
        keys.dedup();
        if let Some(key) = key {
            all.retain(|p| p.record.key == key);
        }
        sort(&mut all);
        let shown = max.unwrap_or(all.len()).min(all.len());
        let before = befores(&all, shown);
        all.truncate(shown);
        Ok(History {
            records: all.into_iter().map(stored).collect(),
            before,
            skipped,
            keys,
            keys_read: true,
        })
    }

    /// [`Store::history`] from the index; `None` when it cannot answer for certain (or
    /// would read the whole store anyway: plain `log`).
    fn history_indexed(&self, key: Option<&str>, max: Option<usize>) -> Result<Option<History>> {
        if key.is_none() && max.is_none() {
            return Ok(None);
        }
        let (commit, heads) = match self.index()? {
            None => return Ok(None),
            Some(Indexed::NoRef) => return Ok(Some(History::default())),
            Some(Indexed::At(commit, heads)) => (commit, heads),
        };
        let notes_ref = &self.settings.notes_ref;
        let (Some(members), Some(times)) = (
            index::MembersOf::open(self.repo, notes_ref, commit),
            index::times(self.repo, notes_ref, commit),
        ) else {
            return Ok(None);
        };
        let mut keys: BTreeSet<String> = BTreeSet::new();
        for (g, e) in &heads.groups {
            keys.extend(g.strip_prefix("k:").map(str::to_owned));
            keys.extend(e.keys.iter().chain(&e.other_keys).cloned());
        }
        let mut reading = Reading {
            reader: self.repo.note_reader(),
            commit,
            times: &times,
            members,
            groups: &heads.groups,
            skips: BTreeMap::new(),
            texts: std::collections::HashMap::new(),
        };
        let answer = match key {
            Some(key) => reading.of_key(key, max)?,
            None => reading.newest(max.unwrap_or(0))?,
        };
        let Ok((records, before)) = answer else {
            index::forget(self.repo, notes_ref);
            return Ok(None);
        };
        let mut skips = reading.skips;
        for (note, lines) in &heads.notes {
            let Some(note) = CommitId::from_hex(note) else {
                index::forget(self.repo, notes_ref);
                return Ok(None);
            };
            for s in lines {
                skips.entry((note, s.line)).or_insert_with(|| s.why.clone());
            }
        }
        for e in heads.groups.values() {
            for (note, line, why) in &e.skipped {
                let Some(note) = CommitId::from_hex(note) else {
                    index::forget(self.repo, notes_ref);
                    return Ok(None);
                };
                skips.entry((note, *line)).or_insert_with(|| why.clone());
            }
        }
        Ok(Some(History {
            records: records.into_iter().map(stored).collect(),
            before,
            skipped: (skips.into_iter())
                .map(|((note, line), why)| self.unreadable_record(&note, line, &why))
                .collect(),
            keys: keys.into_iter().collect(),
            keys_read: false,
        }))
    }
}

/// A listing read through the index; `Err(())` from a step: the index named a note the
/// store does not have.
struct Reading<'a> {
    /// The notes are read through it (bounded resident packs).
    reader: crate::git::NoteReader<'a>,
    commit: CommitId,
    times: &'a Times,
    /// Read as groups are asked for; a group whose members lack the notes its entry
    /// names makes the listing answer from the store.
    members: index::MembersOf,
    groups: &'a BTreeMap<String, super::index_file::GroupEntry>,
    /// Records read whole that do not parse, by (note, line).
    skips: BTreeMap<(CommitId, usize), String>,
    /// The notes read so far (`None`: over the size limit): a record's previous one is
    /// often on a note already read for another (issue 36 item 3: each note was
    /// inflated again for every record shown).
    texts: std::collections::HashMap<CommitId, std::rc::Rc<Vec<u8>>>,
}

type Listed = std::result::Result<(Vec<Placed>, Vec<Before>), ()>;

/// The notes a listing keeps read (at most 64 notes of 1 MiB: a bound, whatever `-n`).
const KEPT: usize = 64;

impl Reading<'_> {
    /// The text of `note` (empty over the size limit), read once while the last
    /// [`KEPT`] notes are kept; `Err(())`: the index named a note the store does not
    /// have.
    fn text(&mut self, note: CommitId) -> Result<std::result::Result<std::rc::Rc<Vec<u8>>, ()>> {
        if let Some(t) = self.texts.get(&note) {
            return Ok(Ok(t.clone()));
        }
        let Ok(text) = index::note_text(&mut self.reader, self.commit, note)? else {
            return Ok(Err(()));
        };
        let text = std::rc::Rc::new(text.unwrap_or_default());
        if self.texts.len() >= KEPT {
            self.texts.clear();
        }
        self.texts.insert(note, text.clone());
        Ok(Ok(text))
    }

    /// The line parsed whole, or `None` (said among the skipped lines).
    fn parse(&mut self, note: CommitId, line_no: usize, line: &[u8]) -> Option<Record> {
        match parse_record(line) {
            Ok(r) => Some(r),
            Err(why) => {
                self.skips.insert((note, line_no), why);
                None
            }
        }
    }

    /// The records of the notes of the groups that have `key`, of that key.
    fn of_key(&mut self, key: &str, max: Option<usize>) -> Result<Listed> {
        let mut notes: BTreeSet<CommitId> = BTreeSet::new();
        for (g, e) in self.groups {
            let has = g.strip_prefix("k:") == Some(key)
                || e.keys.iter().chain(&e.other_keys).any(|k| k == key);
            if has {
                let Some(of) = self.members.of(g, e) else {
                    return Ok(Err(()));
                };
                notes.extend(of);
            }
        }
        let mut all = Vec::new();
        for note in notes {
            let Ok(text) = index::note_text(&mut self.reader, self.commit, note)? else {
                return Ok(Err(()));
            };
            let text = text.unwrap_or_default();
            for (line_no, line, head) in lines_of(&text) {
                if head.as_ref().is_some_and(|h| h.key != key) {
                    continue;
                }
                if let Some(record) = self.parse(note, line_no, line)
                    && record.key == key
                {
                    all.push(Placed {
                        note,
                        line: line_no,
                        record,
                    });
                }
            }
        }
        sort(&mut all);
        let shown = max.unwrap_or(all.len()).min(all.len());
        let before = befores(&all, shown);
        all.truncate(shown);
        Ok(Ok((all, before)))
    }

    /// The newest `n` records of the store, and the record each replaced.
    fn newest(&mut self, n: usize) -> Result<Listed> {
        let mut order: Vec<(&CommitId, &jiff::Timestamp)> = self.times.iter().collect();
        order.sort_by(|a, b| (b.1, b.0).cmp(&(a.1, a.0)));
        let mut top: Vec<Placed> = Vec::new();
        for (note, at) in order {
            if n == 0 || (top.len() >= n && *at < top[n - 1].record.saved_at) {
                break;
            }
            let Ok(text) = self.text(*note)? else {
                return Ok(Err(()));
            };
            // The nth newest so far, as the note is begun (sorted): the lines this note
            // adds come after it in `top`, unsorted, so `top[n - 1]` is no bar once one
            // was added (a line newer than the nth was passed over for being older than
            // the last line added).
            let bar = (top.len() >= n).then(|| top.get(n - 1)).flatten().map(|p| {
                (
                    p.record.saved_at,
                    p.record.key.clone(),
                    p.record.seq,
                    p.note,
                    p.line,
                )
            });
            for (line_no, line, head) in lines_of(&text) {
                // Only a line that would enter the newest n is parsed whole.
                if let (Some(h), Some((saved_at, key, seq, at_note, at_line))) = (&head, &bar) {
                    let r = Rank {
                        saved_at: h.saved_at,
                        key: &h.key,
                        seq: h.seq,
                        note: *note,
                        line: line_no,
                    };
                    let last = Rank {
                        saved_at: *saved_at,
                        key,
                        seq: *seq,
                        note: *at_note,
                        line: *at_line,
                    };
                    if newer_first(&r, &last) != Ordering::Less {
                        continue;
                    }
                }
                if let Some(record) = self.parse(*note, line_no, line) {
                    top.push(Placed {
                        note: *note,
                        line: line_no,
                        record,
                    });
                }
            }
            sort(&mut top);
            top.truncate(n);
        }
        let mut before = Vec::with_capacity(top.len());
        for (i, r) in top.iter().enumerate() {
            // The shown records are the newest of the store, so those of its session
            // after it are the newest of its older ones: when they tell, nothing is read
            // (twenty writes of one agent shown: each told by the next).
            if let Some(b) = told_by_shown(&top, i) {
                crate::support::testing::note("log-before-shown");
                before.push(b);
                continue;
            }
            match self.before(r)? {
                Ok(b) => before.push(b),
                Err(()) => return Ok(Err(())),
            }
        }
        Ok(Ok((top, before)))
    }

    /// What the state `r` replaced holds (`replaced.rs`): from the records the index
    /// keeps of the groups it may be in when they tell (the usual case), else read
    /// from their notes, newest first.
    fn before(&mut self, r: &Placed) -> Result<std::result::Result<Before, ()>> {
        let (id, key) = (r.record.session_id.as_deref(), r.record.key.as_str());
        if let Some(b) = walk::<Summary>(&r.record).at_once() {
            return Ok(Ok(b));
        }

        let groups: Vec<(&String, &super::index_file::GroupEntry)> = (self.groups.iter())
            .filter(|(g, e)| match g.strip_prefix("i:") {
                Some(gid) => match id {
                    Some(id) => gid == id,
                    None => e.keys.iter().chain(&e.other_keys).any(|k| k == key),
                },
                None => g.strip_prefix("k:") == Some(key),
            })
            .collect();
        let mut kept = Vec::with_capacity(groups.len());
        for (g, e) in &groups {
            let Some(k) = self.members.kept(g, e) else {
                return Ok(Err(()));
            };
            kept.push((g.as_str(), k));
        }
        let kept: Vec<(&str, &super::index_kept::Kept)> =
            kept.iter().map(|(g, k)| (*g, k)).collect();
        let told = super::replaced::kept_before(&rank(r), id, walk(&r.record), &kept);
        if let Some((found, passed)) = told {
            crate::support::testing::note("log-before-kept");
            self.skips
                .extend(passed.into_iter().map(|(n, l, why)| ((n, l), why)));
            return Ok(Ok(found.map(|f| f.read.clone().unwrap_or_default())));
        }
        crate::support::testing::note("log-before-read");
        let mut notes: BTreeSet<CommitId> = BTreeSet::new();
        for (g, e) in groups {
            let Some(of) = self.members.of(g, e) else {
                return Ok(Err(()));
            };
            notes.extend(of);
        }
        self.read_back(r, notes)
    }
}
