//! The notes store seen as records: whether writes are recorded, appending a record on
//! HEAD's note, and reading the newest record of each session.

mod free_key;
mod history;
mod index;
mod index_build;
mod index_delta;
mod index_file;
mod index_kept;
mod index_members;
mod index_scan;
mod index_update;
mod indexed;
mod note_texts;
mod open;
mod open_file;
mod replaced;
mod sides;
mod stream;

pub use self::{sides::facts, stream::LogStream};
pub use index::{after_write, bring_writes_along, unkept as index_unkept};

use indexed::Listed;

use crate::git::Repo;
use crate::services::scan::Found;
use crate::support::config::Settings;
use crate::support::error::{Error, Result, msg};
use crate::support::i18n::Lang;

/// A record of the notes store and the commit whose note holds it.
#[derive(Debug, Clone)]
pub struct StoredRecord {
    pub commit: crate::git::CommitId,
    pub record: crate::model::record::Record,
    /// For a session's newest record: the other sides, when the session diverged.
    pub diverged: Vec<StoredRecord>,
}

/// The notes store of a run (`Context::store`): the ref records go to, and the
/// questions asked of it. Reading goes through it whatever `handover.store` says; it
/// only decides whether writes are recorded.
#[derive(Clone, Copy)]
pub struct Store<'a> {
    repo: &'a Repo,
    settings: &'a Settings,
    lang: Lang,
}

impl<'a> Store<'a> {
    pub fn new(repo: &'a Repo, settings: &'a Settings, lang: Lang) -> Store<'a> {
        Store {
            repo,
            settings,
            lang,
        }
    }

    /// Whether writes also go to the notes store (`handover.store` = notes or both).
    pub fn enabled(&self) -> bool {
        self.settings.store != crate::support::config::Store::Files
    }

    /// The commit records go on: HEAD, when the store is enabled (`None` when it is
    /// off). Asked before a write, so that a write that cannot be recorded is not made.
    pub fn head(&self) -> Result<Option<crate::git::CommitId>> {
        if !self.enabled() {
            return Ok(None);
        }
        self.record_head().map(Some)
    }

    /// HEAD, for a record asked for whatever `handover.store` says (`sync --record`,
    /// settling a divergence); an unborn HEAD is a usage error.
    pub fn record_head(&self) -> Result<crate::git::CommitId> {
        self.repo.head_commit().ok_or_else(|| {
            Error::usage_hint(
                msg(
                    crate::k!("err.store_no_head"),
                    &[("store", &self.settings.store.as_str())],
                ),
                msg(crate::k!("err.store_no_head_hint"), &[]),
            )
        })
    }

    /// Append `record` to the note on `head` (from [`Store::head`]); nothing when the
    /// store is off.
    pub fn record_at(
        &self,
        head: Option<crate::git::CommitId>,
        record: &crate::model::record::Record,
    ) -> Result<Option<crate::git::CommitId>> {
        Ok(self
            .record_made(head, record, &mut || Ok(()))?
            .map(|(head, ..)| head))
    }

    /// [`Store::record_at`], saying too the notes commit made, the one it was made on and
    /// the line appended; the ref moves only once `ready` (the write's files) succeeded.
    pub fn record_made(
        &self,
        head: Option<crate::git::CommitId>,
        record: &crate::model::record::Record,
        ready: &mut dyn FnMut() -> Result<()>,
    ) -> Result<Option<(crate::git::CommitId, crate::git::NotesEdited, String)>> {
        let Some(head) = head else {
            return ready().map(|()| None);
        };
        crate::support::testing::pause("record");
        let line = record.to_line();
        let (unready, timeout) = (std::cell::Cell::new(false), self.settings.lock_timeout);
        let edit = |old| crate::model::record::append_line(old, &line);
        let mut ready = || ready().inspect_err(|_| unready.set(true));
        let made =
            (self.repo).notes_edit(&self.settings.notes_ref, head, &edit, &mut ready, timeout);
        let not_recorded = |why| Error::NotRecorded {
            notes_ref: self.settings.notes_ref.clone(),
            key: record.key.clone(),
            why: Box::new(why),
        };
        let made = made.map_err(|e| if unready.get() { e } else { not_recorded(e) })?;
        Ok(Some((head, made, line)))
    }

    /// Append `record` to the note on HEAD when the store is enabled.
    pub fn record(
        &self,
        record: &crate::model::record::Record,
    ) -> Result<Option<crate::git::CommitId>> {
        self.record_at(self.head()?, record)
    }

    /// The warning for a line of a note that is not a record.
    fn unreadable_record(&self, commit: &crate::git::CommitId, line: usize, why: &str) -> String {
        format!(
            "{} note of {}, line {line}: {}",
            self.settings.notes_ref,
            commit.prefix(12),
            crate::support::text::escape(why)
        )
    }

    /// The sides of session `id` when it diverged, newest first; `None` when it did not
    /// or the store does not have it. Only that session's sides are parsed whole.
    pub fn sides(&self, id: &str) -> Result<Option<Vec<Side>>> {
        if let Some(sides) = self.sides_indexed(id)? {
            return Ok(Some(sides).filter(|s| !s.is_empty()));
        }
        let notes = self.repo.notes_all(&self.settings.notes_ref)?;
        let texts: Vec<&[u8]> = notes.iter().map(|n| n.text.as_slice()).collect();
        let Some(n) = crate::model::record::newest_session_of(&texts, id) else {
            return Ok(None);
        };
        if n.diverged.is_empty() {
            return Ok(None);
        }
        let at = |ni: usize| notes[ni].commit;
        let newest = StoredRecord {
            commit: at(n.note),
            record: n.record,
            diverged: n
                .diverged
                .into_iter()
                .map(|(ni, record)| StoredRecord {
                    commit: at(ni),
                    record,
                    diverged: Vec::new(),
                })
                .collect(),
        };
        Ok(Some(sides(&newest)))
    }

    /// The texts of the notes that may hold records of session `id`: those the index
    /// names, or every note when it cannot say.
    fn session_texts(&self, id: &str) -> Result<Vec<Vec<u8>>> {
        Ok(match self.session_notes(id)? {
            Some(texts) => texts,
            None => (self.repo.notes_all(&self.settings.notes_ref)?)
                .into_iter()
                .map(|n| n.text)
                .collect(),
        })
    }

    /// The readable records of session `id` written with `seq` (more than one: it
    /// diverged there); only its notes are read, where the index knows them.
    pub fn records_at(&self, id: &str, seq: u64) -> Result<Vec<crate::model::record::Record>> {
        let texts = self.session_texts(id)?;
        Ok(crate::model::record::records_at(&texts, id, seq))
    }

    /// The objects whose notes hold records of session `id`, where the notes index
    /// knows them; `None` when it cannot say (the caller reads the store itself).
    pub fn notes_of_session(&self, id: &str) -> Result<Option<Vec<crate::git::CommitId>>> {
        Ok(self.group_notes(id)?.map(|(_, notes)| notes))
    }

    /// Whether the store has a record of session `id` holding the state `hash`
    /// (records' heads only: nothing is parsed whole).
    pub fn has_state(&self, id: &str, hash: &str) -> Result<bool> {
        let texts = self.session_texts(id)?;
        Ok(texts.iter().any(|n| {
            n.split(|b| *b == b'\n').any(|line| {
                crate::model::record::parse_head(line).is_some_and(|h| {
                    h.session_id.as_deref() == Some(id) && h.hash.as_deref() == Some(hash)
                })
            })
        }))
    }

    /// The newest readable session record of each key in the notes store, and a line for
    /// each record passed over. Only the winning lines are parsed whole.
    pub fn newest(&self) -> Result<(Vec<StoredRecord>, Vec<String>)> {
        self.newest_where(&|_| true)
    }

    /// [`Store::newest`], of the sessions `keep` wants only (the others' records are
    /// not read whole when the index can tell them apart).
    pub fn newest_where(
        &self,
        keep: &dyn Fn(&Light<'_>) -> bool,
    ) -> Result<(Vec<StoredRecord>, Vec<String>)> {
        let listed = self.listed(keep, false)?;
        Ok((listed.records, listed.skipped))
    }

    /// [`Store::newest_where`]; `open_only`: `keep` wants no finished session that did
    /// not diverge (only the open part of the index is read).
    fn listed(&self, keep: &dyn Fn(&Light<'_>) -> bool, open_only: bool) -> Result<Listed> {
        if let Some(listed) = self.newest_indexed(keep, open_only)? {
            return Ok(listed);
        }
        let (mut records, skipped) = self.newest_read()?;
        records.retain(|r| {
            keep(&Light {
                key: &r.record.key,
                session_id: r.record.session_id.as_deref(),
                finished: r
                    .record
                    .state
                    .as_ref()
                    .and_then(crate::model::record::StateText::status)
                    .as_deref()
                    == Some(crate::model::state::ALL_COMPLETE),
                diverged: !r.diverged.is_empty(),
            })
        });
        Ok(Listed { records, skipped })
    }

    /// [`Store::newest`] read from the store itself.
    fn newest_read(&self) -> Result<(Vec<StoredRecord>, Vec<String>)> {
        let notes = self.repo.notes_all(&self.settings.notes_ref)?;
        let texts: Vec<&[u8]> = notes.iter().map(|n| n.text.as_slice()).collect();
        let (found, skipped) = crate::model::record::newest_sessions(&texts);
        let records = found
            .into_iter()
            .map(|n| StoredRecord {
                commit: notes[n.note].commit,
                record: n.record,
                diverged: n
                    .diverged
                    .into_iter()
                    .map(|(ni, record)| StoredRecord {
                        commit: notes[ni].commit,
                        record,
                        diverged: Vec::new(),
                    })
                    .collect(),
            })
            .collect();
        // Notes over the size limit were never read: said in their place, as the reader
        // says it of a text over the limit.
        let mut skipped = skipped;
        skipped.extend(
            (notes.iter().enumerate())
                .filter_map(|(ni, n)| n.oversize_problem().map(|why| (ni, 1, why))),
        );
        skipped.sort_by_key(|(ni, _, _)| *ni);
        let skipped = skipped
            .into_iter()
            .map(|(ni, line, why)| self.unreadable_record(&notes[ni].commit, line, &why))
            .collect();
        Ok((records, skipped))
    }

    /// Every record of the notes store, and a line for each one that could not be read.
    /// The store is read whatever `handover.store` says: a fetched store is worth seeing.
    pub fn records(&self) -> Result<(Vec<StoredRecord>, Vec<String>)> {
        let mut records = Vec::new();
        let mut skipped = Vec::new();
        for note in self.repo.notes_all(&self.settings.notes_ref)? {
            if let Some(why) = note.oversize_problem() {
                skipped.push(self.unreadable_record(&note.commit, 1, &why));
            }
            for parsed in crate::model::record::parse_note(&note.text) {
                match parsed.record {
                    Ok(record) => records.push(StoredRecord {
                        commit: note.commit,
                        record,
                        diverged: Vec::new(),
                    }),
                    Err(why) => {
                        skipped.push(self.unreadable_record(&note.commit, parsed.line, &why));
                    }
                }
            }
        }
        Ok((records, skipped))
    }
}

/// What a listing knows of a session's newest record before reading it whole.
#[derive(Debug, Clone, Copy)]
pub struct Light<'a> {
    pub key: &'a str,
    pub session_id: Option<&'a str>,
    pub finished: bool,
    pub diverged: bool,
}

/// A session on disk, as the notes store is matched with it.
#[derive(Debug, Clone, Copy)]
pub struct OnDisk<'a> {
    pub key: &'a str,
    pub session_id: Option<&'a str>,
}

/// One side of a diverged session: a record written from the same state as another.
#[derive(Debug, Clone)]
pub struct Side {
    pub commit: crate::git::CommitId,
    pub record: crate::model::record::Record,
}

/// Every side of a session's newest record, newest first (itself, then the sides it
/// diverged into).
fn sides(r: &StoredRecord) -> Vec<Side> {
    std::iter::once(r)
        .chain(&r.diverged)
        .map(|s| Side {
            commit: s.commit,
            record: s.record.clone(),
        })
        .collect()
}

/// What the notes store says beyond the files: the sessions only it has, the sessions
/// that diverged (each side, newest first), and its unreadable lines.
#[derive(Debug, Default)]
pub struct StoreView {
    pub only: Vec<Found>,
    /// By session id: the sides of every diverged session, on disk or not.
    pub diverged: std::collections::BTreeMap<String, Vec<Side>>,
    pub skipped: Vec<String>,
}

impl Store<'_> {
    /// The notes store against the sessions `on_disk`: unfinished sessions whose newest
    /// record has no session directory in any worktree (matched by `session_id`, or by key
    /// for records without one), the diverged sessions, and the store's unreadable lines.
    /// Finished sessions stay out of `only`: `clean` removes their directories, and their
    /// records would otherwise come back in every listing.
    pub fn view(&self, on_disk: &[OnDisk<'_>]) -> StoreView {
        // A damaged store (its ref at a tree, an unreadable commit) is said, and everything
        // else is still listed: one broken thing never hides the rest.
        // Only what the view may show is read whole: diverged sessions, and unfinished
        // ones no session directory holds.
        let keep = |l: &Light<'_>| {
            let here = match l.session_id {
                Some(id) => on_disk.iter().any(|d| d.session_id == Some(id)),
                None => on_disk.iter().any(|d| d.key == l.key),
            };
            l.diverged || !(here || l.finished)
        };
        let (newest, skipped) = match self.listed(&keep, true) {
            Ok(read) => (read.records, read.skipped),
            Err(e) => {
                return StoreView {
                    skipped: vec![e.message(self.lang)],
                    ..StoreView::default()
                };
            }
        };
        let mut view = StoreView {
            skipped,
            ..StoreView::default()
        };
        let mut listed: Vec<String> = Vec::new();
        for r in newest {
            let id = r.record.session_id.clone();
            if let Some(id) = &id
                && !r.diverged.is_empty()
            {
                view.diverged.insert(id.clone(), sides(&r));
            }
            let here = match id.as_deref() {
                Some(id) => on_disk.iter().any(|d| d.session_id == Some(id)),
                None => on_disk.iter().any(|d| d.key == r.record.key),
            };
            let finished = r
                .record
                .state
                .as_ref()
                .and_then(crate::model::record::StateText::status)
                .as_deref()
                == Some(crate::model::state::ALL_COMPLETE);
            if here || finished {
                continue;
            }
            let taken =
                |k: &str| on_disk.iter().any(|d| d.key == k) || listed.iter().any(|l| l == k);
            let Some(key) = free_key::free_key(&r.record.key, id.as_deref(), &taken) else {
                continue;
            };
            let saved_as = (key != r.record.key).then(|| r.record.key.clone());
            listed.push(key.clone());
            let mut record = r.record;
            record.key = key;
            if let Some(state) = restored_state(&record) {
                record.state = Some(state);
            }
            view.only.push(Found::Stored {
                commit: r.commit,
                record: Box::new(record),
                saved_as,
            });
        }
        view
    }

    /// Whether the store as it is now holds the state `state` as a session record's:
    /// in the note on `commit`, or else in a note of session `id`. What `continue`
    /// asks before it restores a record a listing found, since a listing reads the
    /// copies the index keeps of the open sessions' records (see `open_file`): what is
    /// written into a worktree is always what a note holds.
    pub fn holds(
        &self,
        commit: crate::git::CommitId,
        id: Option<&str>,
        state: &crate::model::record::StateText,
    ) -> Result<bool> {
        let held = |text: &[u8]| {
            text.split(|b| *b == b'\n').any(|line| {
                crate::model::record::parse_record(line).is_ok_and(|r| {
                    r.kind == crate::model::record::RecordKind::Session
                        && (r.state.as_ref().is_some_and(|s| s.text() == state.text())
                            || restored_state(&r).is_some_and(|s| s.text() == state.text()))
                })
            })
        };
        if let Some(now) = self.repo.notes_commit_of(&self.settings.notes_ref)?
            && let Some(blob) = self.repo.note_text_at(now, commit)?
            && let Some(text) = self
                .repo
                .note_text(blob, crate::model::record::MAX_NOTE_SIZE)
            && held(&text)
        {
            return Ok(true);
        }
        let Some(id) = id else {
            return Ok(false);
        };
        let texts = self.session_texts(id)?;
        Ok(texts.iter().any(|t| held(t)))
    }

    /// Drop the notes index (one found not to hold): the next reader builds it.
    pub fn forget_index(&self) {
        index::forget(self.repo, &self.settings.notes_ref);
    }

    /// Unfinished sessions found only in the notes store, and the store's unreadable lines
    /// (see [`Store::view`]).
    pub fn only(&self, on_disk: &[OnDisk<'_>]) -> (Vec<Found>, Vec<String>) {
        let view = self.view(on_disk);
        (view.only, view.skipped)
    }
}

/// The state a session record is restored as: its own, carrying the record's session
/// id when it has none (the state restored is the same session); `None` when it
/// carries it already, or holds no state.
fn restored_state(
    record: &crate::model::record::Record,
) -> Option<crate::model::record::StateText> {
    let (Some(id), Some(state)) = (&record.session_id, record.state.as_ref()) else {
        return None;
    };
    let mut doc = state.doc();
    if doc.contains_key("session_id") {
        return None;
    }
    doc.insert("session_id".into(), serde_json::Value::from(id.clone()));
    Some(crate::model::record::StateText::of(&doc))
}
