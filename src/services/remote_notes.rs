//! A remote's notes ref as this clone last fetched it (its tracking ref,
//! `refs/notes/remotes/<remote>/<name>`), read as the local store is read: through the
//! notes index of that ref (issue 36), which a fetch brings up to date from a tree diff
//! of the notes commits before and after it. A claim and `sync`'s claim settling ask it
//! for one session's records, so they read that session's notes and what changed since
//! the last fetch, not the whole store. And what a fetch brought, checked to be a notes
//! store before any ref of the user's moves: only what differs from the merge base with
//! the local notes ref (the rest is our own history, checked when it came).

use crate::model::record::Record;
use crate::services::context::Context;
use crate::services::notes_store::{Store, StoredRecord};
use crate::support::config::Settings;
use crate::support::error::Result;

/// The remote's notes as last fetched; nothing when it has no notes ref.
pub struct RemoteNotes<'a> {
    ctx: &'a Context,
    /// The settings with the tracking ref as the notes ref; `None`: the remote had none.
    tracking: Option<Settings>,
    /// The notes commit fetched (what the tracking ref was moved to, or held when it was
    /// read without a fetch): what a push of a decision made on it leases.
    at: Option<String>,
}

impl<'a> RemoteNotes<'a> {
    /// The remote's notes as its tracking ref `tracking` holds them, fetched at `at`.
    pub fn tracking(ctx: &'a Context, tracking: &str, at: String) -> RemoteNotes<'a> {
        let settings = Settings {
            notes_ref: tracking.to_owned(),
            ..ctx.settings.clone()
        };
        RemoteNotes {
            ctx,
            tracking: Some(settings),
            at: Some(at),
        }
    }

    /// A remote that has no notes ref.
    pub fn none(ctx: &'a Context) -> RemoteNotes<'a> {
        RemoteNotes {
            ctx,
            tracking: None,
            at: None,
        }
    }

    /// The notes commit these are (`None`: the remote had no notes ref).
    pub fn at(&self) -> Option<&str> {
        self.at.as_deref()
    }

    /// Whether the tracking ref still holds the commit these were fetched at: a read
    /// made while it held another (another process of this clone fetched meanwhile)
    /// is not what the lease of the push says it was.
    pub fn still_at(&self) -> Result<bool> {
        match &self.tracking {
            Some(s) => Ok(self.ctx.repo.ref_target(&s.notes_ref)?.as_deref() == self.at()),
            None => Ok(true),
        }
    }

    fn store(&self) -> Option<Store<'_>> {
        (self.tracking.as_ref()).map(|s| Store::new(&self.ctx.repo, s, self.ctx.lang))
    }

    /// The remote's newest record of session `id`, with its other sides when the
    /// session diverged there. Only that session's records are read whole.
    pub fn newest(&self, id: &str) -> Result<Option<StoredRecord>> {
        let Some(store) = self.store() else {
            return Ok(None);
        };
        let (found, _) = store.newest_where(&|l| l.session_id == Some(id))?;
        Ok(found
            .into_iter()
            .find(|r| r.record.session_id.as_deref() == Some(id)))
    }

    /// The remote's records of session `id` written as its `seq`-th write.
    pub fn records_at(&self, id: &str, seq: u64) -> Result<Vec<Record>> {
        match self.store() {
            Some(store) => store.records_at(id, seq),
            None => Ok(Vec::new()),
        }
    }

    /// Whether the remote has a record of session `id` holding the state `hash`.
    pub fn has_state(&self, id: &str, hash: &str) -> Result<bool> {
        match self.store() {
            Some(store) => store.has_state(id, hash),
            None => Ok(false),
        }
    }
}

/// What the check of a fetched notes commit found.
pub enum Fetched {
    /// It is in our own history already: it brings nothing new, and was not read.
    Known,
    /// What it brings is a notes store.
    Sound,
    /// It is not a notes store: why.
    Bad(String),
}

/// Check the notes commit the ref `fetched` points to before it goes near a ref of the
/// user's: only the notes that differ from the merge base with the local notes ref are
/// read (issue 36: a fetch costs what it brings).
pub fn check_fetched(ctx: &Context, fetched: &str) -> Result<Fetched> {
    let theirs = ctx.repo.notes_commit_of(fetched)?;
    let ours = ctx.repo.notes_commit_of(&ctx.settings.notes_ref)?;
    let base = match (theirs, ours) {
        (Some(t), Some(o)) if t == o => Some(t),
        (Some(t), Some(o)) => ctx.repo.notes_merge_base(t, o),
        _ => None,
    };
    if base.is_some() && base == theirs {
        return Ok(Fetched::Known);
    }
    let problem = ctx
        .repo
        .notes_problem(fetched, base, crate::model::record::MAX_NOTE_SIZE)?;
    Ok(problem.map_or(Fetched::Sound, Fetched::Bad))
}

/// Push the local notes ref to `remote` on the decision made on `notes`: only while the
/// remote's ref is still what `notes` are, and only as a fast-forward of it (ours must
/// descend from it, else it is fetched and merged again: `Rejected`). The commit pushed
/// is the one checked; once the remote took it, the tracking ref `tracking` is moved to
/// it (only from `notes`: a fetch of another process meanwhile is left as it is), as git
/// moves a remote-tracking branch on a push: the next lease is on what the remote holds,
/// not on what it held before this push (which would be refused and cost a round).
/// Says too the notes commit pushed (`None`: the local ref had none).
pub fn push(
    ctx: &Context,
    remote: &str,
    notes: Option<&str>,
    tracking: &str,
) -> Result<(crate::git::subprocess::Pushed, Option<crate::git::CommitId>)> {
    use crate::git::subprocess::{self as git_cli, Pushed};
    let notes_ref = &ctx.settings.notes_ref;
    let ours = ctx.repo.notes_commit_of(notes_ref)?;
    if let Some(at) = notes {
        let theirs = crate::git::CommitId::from_hex(at);
        let descends = match (theirs, ours) {
            (Some(t), Some(o)) => ctx.repo.notes_descends(t, o),
            _ => false,
        };
        if !descends {
            return Ok((Pushed::Rejected, ours));
        }
    }
    let source = ours.map(|o| o.to_string());
    let pushed = git_cli::push_notes(
        &ctx.repo.common_dir(),
        remote,
        (notes_ref, source.as_deref().unwrap_or(notes_ref)),
        notes,
    )?;
    if let (Pushed::Done, Some(ours)) = (&pushed, &source) {
        ctx.repo.advance_ref(tracking, notes, ours)?;
    }
    Ok((pushed, ours))
}

/// Whether `remote` is a name whose tracking ref `refs/notes/remotes/<remote>/…` is a
/// ref name (what `sync` and the claims accept): no option, no absolute path, URL,
/// empty, `.` or `..` component, only ASCII letters, digits and `._-/`.
pub fn plain_remote(remote: &str) -> bool {
    !remote.starts_with('-')
        && crate::support::paths::check_relative(crate::k!("what.remote"), remote).is_ok()
        && remote
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/'))
}
