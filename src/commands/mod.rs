//! One file per subcommand: arguments in, a plain data report out. Commands do not print.

pub mod clean;
pub mod completions;
pub mod r#continue;
pub mod here;
pub mod hook;
pub mod log;
pub mod man;
pub mod migrate;
pub mod render;
pub mod save;
pub mod status;
pub mod sync;
pub mod task;

use std::io::{IsTerminal as _, Read as _};
use std::path::{Path, PathBuf};

use jiff::Timestamp;

use crate::cli::TeamArgs;
use crate::config::{Lang, Settings};
use crate::error::{Error, Result, msg};
use crate::git::{Repo, Worktree};
use crate::store::{self, Owner, SessionDir, TeamChoice};

/// What every command that works on a repository gets.
pub struct Context {
    pub repo: Repo,
    pub settings: Settings,
    pub now: Timestamp,
    pub lang: Lang,
    /// The directory the command runs in (after `-C`).
    pub cwd: PathBuf,
}

impl Context {
    /// The worktree the command runs in; writing commands need one.
    pub fn current_worktree(&self) -> Result<Worktree> {
        let current = self
            .repo
            .current_worktree()
            .ok_or_else(|| Error::usage_hint(msg("err.bare", &[]), msg("err.bare_hint", &[])))?;
        let mut all = self.repo.worktrees()?;
        match all.iter().position(|w| w.path == current) {
            Some(i) => Ok(all.swap_remove(i)),
            // Not registered (GIT_WORK_TREE pointing elsewhere): the main worktree's
            // branch and HEAD, at the path git was pointed at.
            None => {
                let mut w = all.swap_remove(0);
                w.path = current;
                Ok(w)
            }
        }
    }

    /// The handover root writes go to in `wt`.
    pub fn write_root(&self, wt: &Worktree) -> PathBuf {
        wt.path.join(&self.settings.dir)
    }

    /// Whose session this is: the team's when asked, else the worktree's branch.
    pub fn owner(&self, team: &TeamArgs, wt: &Worktree) -> Result<Owner> {
        let branch_key = wt.branch_key();
        if let Some(b) = &branch_key {
            crate::paths::check_relative("what.branch", b).map_err(Error::usage)?;
        }
        store::owner(
            &TeamChoice {
                team: team.team.clone(),
                agent: team.agent.clone(),
            },
            |k| std::env::var(k).ok(),
            branch_key,
        )
    }

    /// An explicit session key, looked for under every handover root of `wt`.
    pub fn session_by_key(&self, wt: &Worktree, key: &str) -> Result<SessionDir> {
        for root in crate::scan::roots(&self.settings.dir) {
            let session = SessionDir::new(&wt.path.join(root), key)?;
            if session.exists() {
                return Ok(session);
            }
        }
        Err(Error::usage_hint(
            msg(
                "err.no_session_in",
                &[("key", &format!("{key:?}")), ("path", &wt.path.display())],
            ),
            msg("err.status_here_hint", &[]),
        ))
    }
}

/// A record of the notes store and the commit whose note holds it.
#[derive(Debug, Clone)]
pub struct StoredRecord {
    pub commit: String,
    pub record: crate::notes::Record,
}

impl Context {
    /// Whether writes also go to the notes store (`handover.store` = notes or both).
    pub fn store_enabled(&self) -> bool {
        self.settings.store != crate::config::Store::Files
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
                    "err.store_no_head",
                    &[("store", &self.settings.store.as_str())],
                ),
                msg("err.store_no_head_hint", &[]),
            )
        })
    }

    /// Append `record` to the note on `head` (from [`Context::store_head`]); nothing
    /// when the store is off.
    pub fn record_at(
        &self,
        head: Option<crate::git::CommitId>,
        record: &crate::notes::Record,
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
    pub fn record(&self, record: &crate::notes::Record) -> Result<Option<crate::git::CommitId>> {
        self.record_at(self.store_head()?, record)
    }

    /// The session record of a write, for [`Context::record`].
    pub fn session_record(&self, written: &store::Written, wt: &Worktree) -> crate::notes::Record {
        crate::notes::Record {
            key: written.session.key.clone(),
            worktree: Some(wt.path.display().to_string()),
            branch: written
                .state
                .workspace
                .branch
                .clone()
                .or_else(|| wt.branch.clone()),
            saved_at: self.now,
            kind: crate::notes::RecordKind::Session,
            state: Some(written.state.document().clone()),
            text: None,
        }
    }

    /// The warning for a line of a note that is not a record.
    fn unreadable_record(&self, commit: &str, line: usize, why: &str) -> String {
        format!(
            "{} note of {}, line {line}: {}",
            self.settings.notes_ref,
            &commit[..12],
            crate::text::escape(why)
        )
    }

    /// The newest readable session record of each key in the notes store, and a line for
    /// each record passed over. Only the winning lines are parsed whole.
    pub fn read_store_newest(&self) -> Result<(Vec<StoredRecord>, Vec<String>)> {
        let notes = self.repo.notes_all(&self.settings.notes_ref)?;
        let texts: Vec<&[u8]> = notes.iter().map(|n| n.text.as_slice()).collect();
        let (found, skipped) = crate::notes::newest_sessions(&texts);
        let records = found
            .into_iter()
            .map(|(ni, record)| StoredRecord {
                commit: notes[ni].commit.clone(),
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
            for parsed in crate::notes::parse_note(&note.text) {
                match parsed.record {
                    Ok(record) => records.push(StoredRecord {
                        commit: note.commit.clone(),
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

/// Input for `save` and `here`: the file named, or stdin. Returns the bytes and a name
/// for error messages.
pub fn read_input(from: Option<&Path>) -> Result<(Vec<u8>, PathBuf)> {
    if let Some(path) = from {
        return Ok((crate::fsio::read_limited(path)?, path.to_owned()));
    }
    if std::io::stdin().is_terminal() {
        return Err(Error::usage_hint(
            msg("err.stdin_terminal", &[]),
            msg("err.stdin_hint", &[]),
        ));
    }
    let limit = crate::state::MAX_FILE_SIZE;
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io("<stdin>", "read", e))?;
    if bytes.len() as u64 > limit {
        return Err(Error::TooLarge {
            file: "<stdin>".into(),
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok((bytes, PathBuf::from("<stdin>")))
}
