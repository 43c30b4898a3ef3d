//! One write of a session, from taking its lock to letting it go. The change runs on
//! what the file holds under the lock, the files are written, the handover roots are
//! kept out of commits, the notes store gets the write's record, and only then is the
//! lock released: the store's newest record of a session is always its file.
//!
//! A change is a closure that gets the [`Current`] state and returns the new document;
//! it may look at the state and refuse with an error, and then nothing is written.

use serde_json::{Map, Value};

use super::write;
use super::{Current, SessionDir, Written};
use crate::git::{CommitId, Worktree};
use crate::model::record::{Record, RecordKind, StateText};
use crate::model::state::State;
use crate::services::context::Context;
use crate::support::error::Result;

/// How the notes store hears of a write.
#[derive(Debug, Clone, Copy)]
enum Recording {
    /// Not at all: the state came from the store.
    Off,
    /// A write that changed something is recorded on this commit (`None`: the store is
    /// off).
    Changes(Option<CommitId>),
    /// Recorded on this commit whatever `handover.store` says, changed or not.
    Always(CommitId),
}

/// A write of one session: how it is counted, whether it keeps the handover roots out
/// of commits, and how the notes store hears of it. Built, then run once with
/// [`Transaction::update`], [`Transaction::create`] or [`Transaction::record_as_is`].
pub struct Transaction<'a> {
    ctx: &'a Context,
    wt: &'a Worktree,
    recording: Recording,
    /// A write that settles: always made, counted after this.
    floor: Option<u64>,
    exclude: bool,
    /// The record's parent and the states it sets aside, for a write that settles a
    /// divergence.
    settles: Option<(String, Vec<String>)>,
    /// Whether the session's lock is waited for (else tried once).
    wait: bool,
    /// Who makes the write: its `agent_session` (issue 34).
    author: crate::model::agent_session::Author,
}

impl<'a> Transaction<'a> {
    fn new(ctx: &'a Context, wt: &'a Worktree, recording: Recording) -> Transaction<'a> {
        Transaction {
            ctx,
            wt,
            recording,
            floor: None,
            exclude: false,
            settles: None,
            wait: true,
            author: crate::model::agent_session::Author::Keep,
        }
    }

    /// A write the notes store records when it is on. HEAD is asked for now, before
    /// anything is written, so that a write that cannot be recorded is not made.
    pub fn recorded(ctx: &'a Context, wt: &'a Worktree) -> Result<Transaction<'a>> {
        let head = ctx.store().head()?;
        Ok(Transaction::new(ctx, wt, Recording::Changes(head)))
    }

    /// A write recorded on `head` whatever `handover.store` says and whether or not it
    /// changed the files (settling a divergence, `sync --record`).
    pub fn recorded_on(ctx: &'a Context, wt: &'a Worktree, head: CommitId) -> Transaction<'a> {
        Transaction::new(ctx, wt, Recording::Always(head))
    }

    /// A write the notes store is not told of: the state came from it.
    pub fn unrecorded(ctx: &'a Context, wt: &'a Worktree) -> Transaction<'a> {
        Transaction::new(ctx, wt, Recording::Off)
    }

    /// The write is counted after `floor` at least, and made even when the state it
    /// ends at is the file's (a settle is a write of its own).
    #[must_use]
    pub fn after(mut self, floor: u64) -> Transaction<'a> {
        self.floor = Some(floor);
        self
    }

    /// A write that changes something makes sure the handover roots are in
    /// `info/exclude`.
    #[must_use]
    pub fn excluding(mut self) -> Transaction<'a> {
        self.exclude = true;
        self
    }

    /// The write settles a divergence: its record names the state taken as its parent
    /// and sets the other sides' states aside.
    #[must_use]
    pub fn settling(mut self, parent: String, set_aside: Vec<String>) -> Transaction<'a> {
        self.settles = Some((parent, set_aside));
        self
    }

    /// The write is `author`'s: a write that changes something keeps the agent session
    /// that made it, or, made by a person, no agent session at all.
    #[must_use]
    pub fn by(mut self, author: crate::model::agent_session::Author) -> Transaction<'a> {
        self.author = author;
        self
    }

    /// The session's lock is tried once and never waited for: held by another writer,
    /// the write is [`crate::support::error::Error::Locked`] at once (git's post-commit
    /// hook must not hold a commit). The notes store's lock is waited for as usual.
    #[must_use]
    pub fn without_waiting(mut self) -> Transaction<'a> {
        self.wait = false;
        self
    }

    /// Read-modify-write `session` (made when it has no state yet): `change` gets what
    /// the file holds under the lock and returns the new document, or an error, and
    /// then nothing is written.
    pub fn update(
        self,
        session: &SessionDir,
        change: impl FnOnce(Current) -> Result<Map<String, Value>>,
    ) -> Result<Written> {
        let ctx = self.ctx;
        let tried;
        let settings = if self.wait {
            &ctx.settings
        } else {
            tried = crate::support::config::Settings {
                lock_timeout: std::time::Duration::ZERO,
                ..ctx.settings.clone()
            };
            &tried
        };
        let (mut written, lock, mut pending) = write::update(
            session,
            settings,
            ctx.lang,
            ctx.now,
            self.floor,
            &self.author,
            change,
        )?;
        // The files' own failure comes first: a record that failed before it waited
        // for them must not say they were written.
        let finished = self.finish(&mut written, pending.as_mut());
        if let Some(files) = &mut pending {
            files.wait()?;
        }
        finished?;
        drop(lock);
        self.bring_index_along(&mut written.notes);
        Ok(written)
    }

    /// Write a new session whole, as given (the time it was written kept). `then` runs
    /// once the files are written, still under the lock and before the record: it gets
    /// the state written and returns the one that stands (a migration reads its copy
    /// back). `None`, nothing written, when the session already has a state file.
    pub fn create(
        self,
        session: &SessionDir,
        state: State,
        then: impl FnOnce(State) -> Result<State>,
    ) -> Result<Option<Written>> {
        let ctx = self.ctx;
        let Some(lock) = write::create(session, &state, &ctx.settings, ctx.lang)? else {
            return Ok(None);
        };
        let mut written = Written::whole(session.clone(), then(state)?, true);
        self.finish(&mut written, None)?;
        drop(lock);
        self.bring_index_along(&mut written.notes);
        Ok(Some(written))
    }

    /// Record the existing `session` as its file holds it, read under its lock, unless
    /// `known` says the store has that state already; nothing is written. Whether it
    /// was recorded.
    pub fn record_as_is(
        self,
        session: &SessionDir,
        known: impl FnOnce(&State) -> bool,
    ) -> Result<bool> {
        let (state, lock) = write::hold(session, &self.ctx.settings)?;
        if known(&state) {
            return Ok(false);
        }
        let written = Written::whole(session.clone(), state, false);
        let head = match self.recording {
            Recording::Off => None,
            Recording::Changes(head) => head,
            Recording::Always(head) => Some(head),
        };
        let mut made = self.record(&written, head, None)?.map(|(_, made, _)| made);
        drop(lock);
        self.bring_index_along(&mut made);
        Ok(true)
    }

    /// The notes index brought along by the record the write made, if any, at the end
    /// of the run, when no lock is held ([`crate::services::notes_store::after_write`]).
    fn bring_index_along(&self, made: &mut Option<crate::git::NotesEdited>) {
        if let Some(made) = made {
            let notes_ref = &self.ctx.settings.notes_ref;
            crate::services::notes_store::after_write(&self.ctx.repo, notes_ref, made);
        }
    }

    /// What follows a write while its lock is still held: `info/exclude`, then the
    /// record, which takes its place only once the files (`pending`) are written.
    fn finish(
        &self,
        written: &mut Written,
        pending: Option<&mut crate::support::fsio::PairWrite>,
    ) -> Result<()> {
        if written.changed && self.exclude {
            // The state is being written: a problem with `info/exclude` is a warning
            // and never keeps the write from being recorded.
            match crate::services::exclude::ensure(self.ctx, self.wt) {
                Ok(exclusion) => written.exclusion = exclusion,
                Err(e) => written.skipped.push(e.into()),
            }
        }
        let head = match self.recording {
            Recording::Off => None,
            Recording::Changes(head) => head.filter(|_| written.changed),
            Recording::Always(head) => Some(head),
        };
        let made = self.record(written, head, pending)?;
        if let Some((head, notes, line)) = made {
            written.noted = Some(head);
            written.notes = Some(notes);
            written.line = Some(line);
        }
        Ok(())
    }

    /// Append the record of `written` on `head`; nothing when there is none. The
    /// notes ref is moved to it only once the files (`pending`) are written: the
    /// record's objects are made meanwhile.
    fn record(
        &self,
        written: &Written,
        head: Option<CommitId>,
        mut pending: Option<&mut crate::support::fsio::PairWrite>,
    ) -> Result<Option<(CommitId, crate::git::NotesEdited, String)>> {
        let mut files = || pending.as_mut().map_or(Ok(()), |p| p.wait());
        if head.is_none() {
            files()?;
            return Ok(None);
        }
        let mut record = session_record(written, self.wt);
        if let Some((parent, set_aside)) = &self.settles {
            record.parent = Some(parent.clone());
            record.set_aside.clone_from(set_aside);
        }
        self.ctx.store().record_made(head, &record, &mut files)
    }
}

/// The session record of a write: made while the write still holds the session's lock,
/// with the time of that moment (sub-second), not the run's start.
fn session_record(written: &Written, wt: &Worktree) -> Record {
    let doc = written.state.document();
    Record {
        key: written.session.key.clone(),
        session_id: doc
            .get("session_id")
            .and_then(Value::as_str)
            .map(str::to_owned),
        seq: doc.get("seq").and_then(Value::as_u64),
        parent: doc
            .get("parent_hash")
            .and_then(Value::as_str)
            .map(str::to_owned),
        set_aside: Vec::new(),
        worktree: Some(wt.path.display().to_string()),
        branch: written
            .state
            .workspace
            .branch
            .clone()
            .or_else(|| wt.branch.clone()),
        saved_at: crate::support::clock::now_precise(),
        kind: RecordKind::Session,
        state: Some(StateText::of(doc)),
        text: None,
    }
}
