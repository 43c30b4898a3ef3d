//! The store's questions answered from the notes index ([`super::index`]): `None`
//! whenever the index cannot answer for certain, and the caller reads the store itself.

use std::collections::HashSet;

pub(super) use self::Indexed as IndexedAt;
use super::index::{self, Reader};
use super::index_file::{GroupEntry, Heads};
use super::{Store, StoredRecord};
use crate::support::error::Result;

/// The index of a run: the ref has no commit, or its answers as of the ref's commit.
pub(super) enum Indexed {
    NoRef,
    At(crate::git::CommitId, Heads),
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
    pub(super) fn newest_indexed(
        &self,
        keep: &dyn Fn(&super::Light<'_>) -> bool,
    ) -> Result<Option<(Vec<StoredRecord>, Vec<String>)>> {
        let heads = match self.index()? {
            None => return Ok(None),
            Some(Indexed::NoRef) => return Ok(Some((Vec::new(), Vec::new()))),
            Some(Indexed::At(_, heads)) => heads,
        };
        let with_ids: HashSet<&str> = (heads.groups.iter())
            .filter(|(g, _)| g.starts_with("i:"))
            .flat_map(|(_, e)| e.keys.iter().map(String::as_str))
            .collect();
        let shown = |g: &str| g.strip_prefix("k:").is_none_or(|k| !with_ids.contains(k));
        let mut reader = Reader::default();
        let mut records = Vec::new();
        for (g, e) in heads.groups.iter().filter(|(g, _)| shown(g)) {
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
        records.sort_by(|a, b| {
            (&a.record.key, &a.record.session_id).cmp(&(&b.record.key, &b.record.session_id))
        });
        // As the store's reader says them: by note, its own lines first, then each
        // group's in group order.
        let mut skipped: Vec<(&str, usize, usize, usize, &str)> = Vec::new();
        for (note, skips) in &heads.notes {
            for (i, s) in skips.iter().enumerate() {
                skipped.push((note, 0, i, s.line, &s.why));
            }
        }
        let mut n = 0;
        for (_, e) in heads.groups.iter().filter(|(g, _)| shown(g)) {
            for (note, line, why) in &e.skipped {
                n += 1;
                skipped.push((note, 1, n, *line, why));
            }
        }
        skipped.sort_by(|a, b| (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)));
        let mut said = Vec::with_capacity(skipped.len());
        for (note, _, _, line, why) in skipped {
            let Some(commit) = crate::git::CommitId::from_hex(note) else {
                index::forget(self.repo, &self.settings.notes_ref);
                return Ok(None);
            };
            said.push(self.unreadable_record(&commit, line, why));
        }
        Ok(Some((records, said)))
    }

    /// [`Store::sides`] from the index (empty: the session did not diverge, or the
    /// store does not have it); `None` when the index cannot say.
    pub(super) fn sides_indexed(&self, id: &str) -> Result<Option<Vec<super::Side>>> {
        let heads = match self.index()? {
            None => return Ok(None),
            Some(Indexed::NoRef) => return Ok(Some(Vec::new())),
            Some(Indexed::At(_, heads)) => heads,
        };
        let group = format!("i:{id}");
        let Some(e) = heads.groups.get(&group).filter(|e| !e.sides.is_empty()) else {
            return Ok(Some(Vec::new()));
        };
        match self.entry_record(&mut Reader::default(), &group, e) {
            Ok(r) => Ok(Some(r.as_ref().map(super::sides).unwrap_or_default())),
            Err(Forged) => {
                index::forget(self.repo, &self.settings.notes_ref);
                Ok(None)
            }
        }
    }

    /// The texts of the notes holding records of session `id`, from the index; `None`
    /// when it cannot say.
    pub(super) fn session_notes(&self, id: &str) -> Result<Option<Vec<Vec<u8>>>> {
        let commit = match self.index()? {
            None => return Ok(None),
            Some(Indexed::NoRef) => return Ok(Some(Vec::new())),
            Some(Indexed::At(commit, _)) => commit,
        };
        let Some(members) = index::members(self.repo, &self.settings.notes_ref, commit) else {
            return Ok(None);
        };
        let mut texts = Vec::new();
        for note in members.get(&format!("i:{id}")).into_iter().flatten() {
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
