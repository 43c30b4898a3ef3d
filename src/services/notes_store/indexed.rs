//! The store's questions answered from the notes index ([`super::index`]): `None`
//! whenever the index cannot answer for certain, and the caller reads the store itself.

pub(super) use self::Indexed as IndexedAt;
use super::index::{self, Reader};
use super::index_file::{self, GroupEntry, Heads};
use super::open::{self, OpenAt};
use super::open_file::OpenEntry;
use super::{Store, StoredRecord};
use crate::support::error::Result;

/// The index of a run: the ref has no commit, or its answers as of the ref's commit.
pub(super) enum Indexed {
    NoRef,
    At(crate::git::CommitId, Heads),
}

/// The newest records a listing wants and the lines passed over.
#[derive(Default)]
pub(super) struct Listed {
    pub records: Vec<StoredRecord>,
    pub skipped: Vec<String>,
}

/// A located record did not read back as a record of its group.
struct Forged;

impl Store<'_> {
    /// The index as of the notes ref's commit, when it may be used.
    pub(super) fn index(&self) -> Result<Option<Indexed>> {
        if !index::wanted() {
            return Ok(None);
        }
        Ok(Some(
            match index::current(self.repo, &self.settings.notes_ref)? {
                None => Indexed::NoRef,
                Some((commit, heads)) => Indexed::At(commit, heads),
            },
        ))
    }

    /// A group's newest record with its sides, read back through `reader`; `None`
    /// when a located record does not read back (a forged or damaged index).
    fn entry_record(
        &self,
        reader: &mut Reader,
        group: &str,
        e: &GroupEntry,
    ) -> std::result::Result<Option<StoredRecord>, Forged> {
        let Some(newest) = &e.newest else {
            return Ok(None);
        };
        let (commit, record) = reader.record(self.repo, newest, group).ok_or(Forged)?;
        let mut diverged = Vec::new();
        for side in &e.sides {
            let (commit, record) = reader.record(self.repo, side, group).ok_or(Forged)?;
            diverged.push(StoredRecord {
                commit,
                record,
                diverged: Vec::new(),
            });
        }
        Ok(Some(StoredRecord {
            commit,
            record,
            diverged,
        }))
    }

    /// [`Store::newest_where`] from the index: only the records `keep` wants are read.
    /// `open_only`: `keep` wants no finished session unless it diverged, and the open
    /// part of the index is read alone (see [`open::open`]). `None` when the index
    /// cannot answer and the store itself must be read.
    pub(super) fn newest_indexed(
        &self,
        keep: &dyn Fn(&super::Light<'_>) -> bool,
        open_only: bool,
    ) -> Result<Option<Listed>> {
        if !index::wanted() {
            return Ok(None);
        }
        if open_only {
            return self.newest_open(keep);
        }
        let (groups, said) = match self.index()? {
            None => return Ok(None),
            Some(Indexed::NoRef) => return Ok(Some(Listed::default())),
            Some(Indexed::At(_, heads)) => {
                let said = index_file::said(&heads);
                let shown = index_file::shown(&heads);
                let groups: Vec<(String, GroupEntry)> = (heads.groups.iter())
                    .filter(|(g, _)| shown(g))
                    .map(|(g, e)| (g.clone(), e.clone()))
                    .collect();
                (groups, said)
            }
        };
        let mut reader = Reader::default();
        let mut records = Vec::new();
        for (g, e) in &groups {
            let light = super::Light {
                key: &e.key,
                session_id: g.strip_prefix("i:"),
                finished: e.finished,
                diverged: !e.sides.is_empty(),
            };
            if e.newest.is_some() && !keep(&light) {
                continue;
            }
            match self.entry_record(&mut reader, g, e) {
                Ok(Some(r)) => records.push(r),
                Ok(None) => {}
                Err(Forged) => {
                    index::forget(self.repo, &self.settings.notes_ref);
                    return Ok(None);
                }
            }
        }
        Ok(self.listed_from(records, said))
    }

    /// [`Store::newest_indexed`] from the open part alone: each wanted record from the
    /// copy of its line `.open` carries (no note is read), checked against its group.
    fn newest_open(&self, keep: &dyn Fn(&super::Light<'_>) -> bool) -> Result<Option<Listed>> {
        let mut at = open::open(self.repo, &self.settings.notes_ref)?;
        for again in [false, true] {
            let part = match at {
                // Without an index (the hook) nothing of the store is listed, and the
                // briefing says so ([`Store::unindexed`]).
                OpenAt::NoRef | OpenAt::Unindexed => return Ok(Some(Listed::default())),
                OpenAt::Damaged => return Ok(None),
                OpenAt::At(part) => part,
            };
            let said = part.said().to_vec();
            if let Some(records) = part
                .groups(self.repo)
                .and_then(|g| Self::open_records(&g, keep))
            {
                return Ok(self.listed_from(records, said));
            }
            if again {
                break;
            }
            // A body or a record that does not hold: `.open` made again from the index.
            at = open::remade(self.repo, &self.settings.notes_ref)?;
        }
        index::forget(self.repo, &self.settings.notes_ref);
        Ok(None)
    }

    /// The records of `groups` that `keep` wants, from the lines carried; `None` when
    /// one does not hold.
    fn open_records(
        groups: &std::collections::BTreeMap<String, OpenEntry>,
        keep: &dyn Fn(&super::Light<'_>) -> bool,
    ) -> Option<Vec<StoredRecord>> {
        let mut records = Vec::new();
        for (g, e) in groups {
            let light = super::Light {
                key: &e.key,
                session_id: g.strip_prefix("i:"),
                finished: e.finished,
                diverged: !e.sides.is_empty(),
            };
            if !keep(&light) {
                continue;
            }
            records.push(carried(g, e)?);
        }
        Some(records)
    }

    /// The listing of `records`, sorted as the store's reader sorts them, with the
    /// lines passed over `said`.
    fn listed_from(
        &self,
        mut records: Vec<StoredRecord>,
        said: Vec<(String, usize, String)>,
    ) -> Option<Listed> {
        records.sort_by(|a, b| {
            (&a.record.key, &a.record.session_id).cmp(&(&b.record.key, &b.record.session_id))
        });
        let mut skipped = Vec::with_capacity(said.len());
        for (note, line, why) in said {
            let Some(commit) = crate::git::CommitId::from_hex(&note) else {
                index::forget(self.repo, &self.settings.notes_ref);
                return None;
            };
            skipped.push(self.unreadable_record(&commit, line, &why));
        }
        Some(Listed { records, skipped })
    }

    /// Whether this run answered without the store for want of an index (the hook,
    /// see [`open::open`]): the briefing says so.
    #[allow(clippy::unused_self)] // asked of the store, as its other questions
    pub fn unindexed(&self) -> bool {
        open::unindexed()
    }

    /// Why no index of this store can be kept, with its directory (`None`: it can).
    pub fn index_cannot_be_kept(&self) -> Option<(std::path::PathBuf, String)> {
        index::cannot_keep(self.repo, &self.settings.notes_ref)
    }

    /// [`Store::sides`] from the index (empty: the session did not diverge, or the
    /// store does not have it); `None` when the index cannot say.
    pub(super) fn sides_indexed(&self, id: &str) -> Result<Option<Vec<super::Side>>> {
        if !index::wanted() {
            return Ok(None);
        }
        let group = format!("i:{id}");
        // Every diverged session is in the open part; without an index (the hook), no
        // side is told: the briefing says the store was not looked at. The sides are
        // read back from their notes (what is settled or restored is never a copy).
        // `Err`: the index cannot say; `Ok(None)`: the session did not diverge.
        let diverged = |at: OpenAt| match at {
            OpenAt::NoRef | OpenAt::Unindexed => Ok(Ok(None)),
            OpenAt::Damaged => Ok(Err(())),
            OpenAt::At(part) => part.diverged(&group).map(Ok),
        };
        let found = match diverged(open::open(self.repo, &self.settings.notes_ref)?) {
            Ok(found) => found,
            // A body that does not hold: `.open` made again from the index.
            Err(_) => match diverged(open::remade(self.repo, &self.settings.notes_ref)?) {
                Ok(found) => found,
                Err(_) => {
                    index::forget(self.repo, &self.settings.notes_ref);
                    return Ok(None);
                }
            },
        };
        let e = match found {
            Err(()) => return Ok(None),
            Ok(None) => return Ok(Some(Vec::new())),
            Ok(Some(e)) => GroupEntry {
                newest: Some(e.newest),
                sides: e.sides,
                ..GroupEntry::default()
            },
        };
        match self.entry_record(&mut Reader::default(), &group, &e) {
            Ok(r) => Ok(Some(r.as_ref().map(super::sides).unwrap_or_default())),
            Err(Forged) => {
                index::forget(self.repo, &self.settings.notes_ref);
                Ok(None)
            }
        }
    }

    /// The objects whose notes hold records of session `id` and the notes commit they
    /// are of, from the index: only the members' part of that session is read. `None`
    /// when the index cannot say (the caller reads the store itself).
    pub(super) fn group_notes(
        &self,
        id: &str,
    ) -> Result<Option<(Option<crate::git::CommitId>, Vec<crate::git::CommitId>)>> {
        let (commit, heads) = match self.index()? {
            None => return Ok(None),
            Some(Indexed::NoRef) => return Ok(Some((None, Vec::new()))),
            Some(Indexed::At(commit, heads)) => (commit, heads),
        };
        let group = format!("i:{id}");
        let Some(entry) = heads.groups.get(&group) else {
            return Ok(Some((Some(commit), Vec::new())));
        };
        let notes = index::MembersOf::open(self.repo, &self.settings.notes_ref, commit)
            .and_then(|mut m| m.of(&group, entry));
        Ok(notes.map(|n| (Some(commit), n)))
    }

    /// The texts of the notes holding records of session `id`, from the index; `None`
    /// when it cannot say.
    pub(super) fn session_notes(&self, id: &str) -> Result<Option<Vec<Vec<u8>>>> {
        let (commit, notes) = match self.group_notes(id)? {
            None => return Ok(None),
            Some((Some(commit), notes)) => (commit, notes),
            Some((None, _)) => return Ok(Some(Vec::new())),
        };
        let mut texts = Vec::new();
        for note in &notes {
            let Some(blob) = self.repo.note_text_at(commit, *note)? else {
                return Ok(None);
            };
            let Some(text) = self
                .repo
                .note_text(blob, crate::model::record::MAX_NOTE_SIZE)
            else {
                return Ok(None);
            };
            texts.push(text);
        }
        Ok(Some(texts))
    }
}

/// A group's newest record with its sides from the lines `.open` carries, when each
/// is a session record of the group (and the newest one of its key); `None` otherwise
/// (a damaged or forged file).
fn carried(group: &str, e: &OpenEntry) -> Option<StoredRecord> {
    let read = |line: &str, l: &super::index_file::Located| {
        let record = crate::model::record::parse_record(line.as_bytes()).ok()?;
        let name = match &record.session_id {
            Some(id) => format!("i:{id}"),
            None => format!("k:{}", record.key),
        };
        if name != group || record.kind != crate::model::record::RecordKind::Session {
            return None;
        }
        let (commit, _) = index_file::parse_located(l)?;
        Some(StoredRecord {
            commit,
            record,
            diverged: Vec::new(),
        })
    };
    let mut newest = read(e.lines.first()?, &e.newest)?;
    if newest.record.key != e.key {
        return None;
    }
    for (line, l) in e.lines[1..].iter().zip(&e.sides) {
        newest.diverged.push(read(line, l)?);
    }
    Some(newest)
}
