//! The notes store seen as records: whether writes are recorded, appending a record on
//! HEAD's note, and reading the newest record of each session.

use crate::git::Worktree;
use crate::services::context::Context;
use crate::services::scan::Found;
use crate::services::sessions;
use crate::support::error::{Error, Result, msg};

/// A record of the notes store and the commit whose note holds it.
#[derive(Debug, Clone)]
pub struct StoredRecord {
    pub commit: crate::git::CommitId,
    pub record: crate::model::record::Record,
}

impl Context {
    /// Whether writes also go to the notes store (`handover.store` = notes or both).
    pub fn store_enabled(&self) -> bool {
        self.settings.store != crate::support::config::Store::Files
    }

    /// The commit records go on: HEAD, when the store is enabled (`None` when it is
    /// off). Asked before a write, so that a write that cannot be recorded is not made.
    pub fn store_head(&self) -> Result<Option<crate::git::CommitId>> {
        if !self.store_enabled() {
            return Ok(None);
        }
        self.repo.head_commit().map(Some).ok_or_else(|| {
            Error::usage_hint(
                msg(
                    crate::k!("err.store_no_head"),
                    &[("store", &self.settings.store.as_str())],
                ),
                msg(crate::k!("err.store_no_head_hint"), &[]),
            )
        })
    }

    /// Append `record` to the note on `head` (from [`Context::store_head`]); nothing
    /// when the store is off.
    pub fn record_at(
        &self,
        head: Option<crate::git::CommitId>,
        record: &crate::model::record::Record,
    ) -> Result<Option<crate::git::CommitId>> {
        let Some(head) = head else {
            return Ok(None);
        };
        self.repo.notes_append(
            &self.settings.notes_ref,
            head,
            &record.to_line(),
            self.settings.lock_timeout,
        )?;
        Ok(Some(head))
    }

    /// Append `record` to the note on HEAD when the store is enabled.
    pub fn record(
        &self,
        record: &crate::model::record::Record,
    ) -> Result<Option<crate::git::CommitId>> {
        self.record_at(self.store_head()?, record)
    }

    /// The session record of a write, for [`Context::record`].
    pub fn session_record(
        &self,
        written: &sessions::Written,
        wt: &Worktree,
    ) -> crate::model::record::Record {
        crate::model::record::Record {
            key: written.session.key.clone(),
            worktree: Some(wt.path.display().to_string()),
            branch: written
                .state
                .workspace
                .branch
                .clone()
                .or_else(|| wt.branch.clone()),
            saved_at: self.now,
            kind: crate::model::record::RecordKind::Session,
            state: Some(written.state.document().clone()),
            text: None,
        }
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

    /// The newest readable session record of each key in the notes store, and a line for
    /// each record passed over. Only the winning lines are parsed whole.
    pub fn read_store_newest(&self) -> Result<(Vec<StoredRecord>, Vec<String>)> {
        let notes = self.repo.notes_all(&self.settings.notes_ref)?;
        let texts: Vec<&[u8]> = notes.iter().map(|n| n.text.as_slice()).collect();
        let (found, skipped) = crate::model::record::newest_sessions(&texts);
        let records = found
            .into_iter()
            .map(|(ni, record)| StoredRecord {
                commit: notes[ni].commit,
                record,
            })
            .collect();
        let skipped = skipped
            .into_iter()
            .map(|(ni, line, why)| self.unreadable_record(&notes[ni].commit, line, &why))
            .collect();
        Ok((records, skipped))
    }

    /// Every record of the notes store, and a line for each one that could not be read.
    /// The store is read whatever `handover.store` says: a fetched store is worth seeing.
    pub fn read_store(&self) -> Result<(Vec<StoredRecord>, Vec<String>)> {
        let mut records = Vec::new();
        let mut skipped = Vec::new();
        for note in self.repo.notes_all(&self.settings.notes_ref)? {
            for parsed in crate::model::record::parse_note(&note.text) {
                match parsed.record {
                    Ok(record) => records.push(StoredRecord {
                        commit: note.commit,
                        record,
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

/// Unfinished sessions whose newest record in the notes store has no session directory
/// in any worktree (`on_disk` holds the keys that do), and the store's unreadable lines.
/// Finished sessions stay out: `clean` removes their directories, and their records
/// would otherwise come back in every listing.
pub fn store_only(ctx: &Context, on_disk: &[&str]) -> (Vec<Found>, Vec<String>) {
    // A damaged store (its ref at a tree, an unreadable commit) is said, and everything
    // else is still listed: one broken thing never hides the rest.
    let (newest, skipped) = match ctx.read_store_newest() {
        Ok(read) => read,
        Err(e) => return (Vec::new(), vec![e.message(ctx.lang)]),
    };
    let found = newest
        .into_iter()
        .filter(|r| !on_disk.contains(&r.record.key.as_str()))
        .filter(|r| {
            r.record
                .state
                .as_ref()
                .and_then(|s| s.get("status"))
                .and_then(serde_json::Value::as_str)
                != Some(crate::model::state::ALL_COMPLETE)
        })
        .map(|r| Found::Stored {
            commit: r.commit,
            record: Box::new(r.record),
        })
        .collect();
    (found, skipped)
}
