//! A remote's notes ref as this clone last fetched it (its tracking ref,
//! `refs/notes/remotes/<remote>/<name>`), read as the local store is read: through the
//! notes index of that ref (issue 36), which a fetch brings up to date from a tree diff
//! of the notes commits before and after it. A claim and `sync`'s claim settling ask it
//! for one session's records, so they read that session's notes and what changed since
//! the last fetch, not the whole store. And what a fetch brought, checked to be a notes
//! store before any ref of the user's moves: only what differs from the merge base with
//! the local notes ref (the rest is our own history, checked when it came).

use crate::git::CommitId;
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

    fn store(&self) -> Option<Store<'_>> {
        (self.tracking.as_ref()).map(|s| Store::new(&self.ctx.repo, s, self.ctx.lang))
    }

    /// The tracking ref read as the commit these are, whatever it points to meanwhile,
    /// while the guard lives: every answer is of the commit the push leases, even when
    /// another process of the clone moves the ref away and back during the read.
    fn pin(&self) -> Option<crate::git::Pinned<'_>> {
        let (tracking, at) = (self.tracking.as_ref()?, self.at.as_deref()?);
        Some(self.ctx.repo.pin(&tracking.notes_ref, at))
    }

    /// The remote's newest record of session `id`, with its other sides when the
    /// session diverged there. Only that session's records are read whole: from the
    /// one note a claim pushed as decided names (`Known`), else through the index.
    pub fn newest(&self, id: &str) -> Result<Option<StoredRecord>> {
        let _pin = self.pin();
        let Some(store) = self.store() else {
            return Ok(None);
        };
        if let Some(known) = self.known_newest(id) {
            crate::support::testing::note("remote_newest_known");
            return Ok(Some(known));
        }
        let (found, _) = store.newest_where(&|l| l.session_id == Some(id))?;
        Ok(found
            .into_iter()
            .find(|r| r.record.session_id.as_deref() == Some(id)))
    }

    /// The newest record of session `id` at the commit these are, as a claim pushed
    /// as decided left it known (`Known`): its line, kept with it, taken only when it
    /// is a session record of `id` whose state hashes to the state known (no note is
    /// read); `None` when nothing is known of this commit and session.
    fn known_newest(&self, id: &str) -> Option<StoredRecord> {
        let (tracking, at) = (self.tracking.as_ref()?, self.at.as_deref()?);
        let path = self.ctx.repo.tool_dir().claim_known(&tracking.notes_ref);
        let bytes = crate::support::fsio::read_if_exists(&path, Known::MAX_SIZE as u64).ok()??;
        let known = Known::parse(&bytes)?;
        if known.at.to_string() != at || known.id != id {
            return None;
        }
        let head = crate::model::record::parse_head(known.line.as_bytes())?;
        if head.kind != crate::model::record::RecordKind::Session
            || head.session_id.as_deref() != Some(id)
            || head.hash.as_deref() != Some(known.hash.as_str())
        {
            return None;
        }
        let record = crate::model::record::parse_record(known.line.as_bytes()).ok()?;
        if crate::model::canonical::session_hash(&record.state_doc()) != known.hash {
            return None;
        }
        Some(StoredRecord {
            commit: known.noted,
            record,
            diverged: Vec::new(),
        })
    }

    /// Keep `known` for the next claim decided on this remote's notes at that commit
    /// (one per remote: the last replaces it). A cache: not written is not wrong.
    pub fn remember(&self, known: &Known) {
        let Some(tracking) = &self.tracking else {
            return;
        };
        let path = self.ctx.repo.tool_dir().claim_known(&tracking.notes_ref);
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let text = known.text();
        if text.len() <= Known::MAX_SIZE {
            let _ = crate::support::fsio::write_cache(&path, text.as_bytes());
        }
    }

    /// The remote's records of session `id` written as its `seq`-th write.
    pub fn records_at(&self, id: &str, seq: u64) -> Result<Vec<Record>> {
        let _pin = self.pin();
        match self.store() {
            Some(store) => store.records_at(id, seq),
            None => Ok(Vec::new()),
        }
    }

    /// Whether the remote has a record of session `id` holding the state `hash`.
    pub fn has_state(&self, id: &str, hash: &str) -> Result<bool> {
        let _pin = self.pin();
        match self.store() {
            Some(store) => store.has_state(id, hash),
            None => Ok(false),
        }
    }
}

/// What a push the remote took of a claim as it was decided establishes (see
/// `services/remote_claim.rs` `as_decided`): at notes commit `at`, the one pushed, the
/// newest record of session `id` holds the state `hash`, in the note of `noted`, and
/// the session has no other side there; `line` is that record as appended. A commit's
/// notes never change, so this stays true of `at` whatever the refs do since; a claim
/// decided on that commit takes the record from here instead of reading its note (a
/// note of HEAD grows by a record a write) or bringing the remote's notes index up to
/// date.
pub struct Known {
    pub at: CommitId,
    pub id: String,
    pub noted: CommitId,
    pub hash: String,
    pub line: String,
}

impl Known {
    const VERSION: &'static str = "claim-known 2";
    /// The most of it kept (a larger record is not kept: its note is read then).
    const MAX_SIZE: usize = 1 << 20;

    fn text(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\n",
            Self::VERSION,
            self.at,
            self.noted,
            self.hash,
            self.id,
            self.line
        )
    }

    /// A whole file as `text` writes it, else nothing (a torn, older or foreign file).
    /// A record's line holds no tab or newline (JSON escapes them).
    fn parse(bytes: &[u8]) -> Option<Known> {
        let text = std::str::from_utf8(bytes).ok()?.strip_suffix('\n')?;
        let fields: Vec<&str> = text.split('\t').collect();
        let [version, at, noted, hash, id, line] = fields.as_slice() else {
            return None;
        };
        if *version != Self::VERSION || hash.is_empty() || id.is_empty() || line.is_empty() {
            return None;
        }
        Some(Known {
            at: CommitId::from_hex(at)?,
            noted: CommitId::from_hex(noted)?,
            hash: (*hash).to_owned(),
            id: (*id).to_owned(),
            line: (*line).to_owned(),
        })
    }
}

/// What the check of a fetched notes commit found.
enum Fetched {
    /// It is in our own history already: it brings nothing new, and was not read.
    Known,
    /// What it brings is a notes store.
    Sound,
    /// It is not a notes store: why.
    Bad(String),
}

/// Check the notes commit `theirs` the ref `fetched` points to before it goes near a
/// ref of the user's: only the notes that differ from the merge base with the local
/// notes ref are read (issue 36: a fetch costs what it brings).
fn check_fetched(ctx: &Context, fetched: &str, theirs: CommitId) -> Result<Fetched> {
    let ours = ctx.repo.notes_commit_of(&ctx.settings.notes_ref)?;
    let base = match ours {
        Some(o) if o == theirs => Some(theirs),
        Some(o) => ctx.repo.notes_merge_base(theirs, o),
        None => None,
    };
    if base == Some(theirs) {
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
    start_push(ctx, remote, notes)?.finish(ctx, notes, tracking)
}

/// A [`push`] under way, or refused before it began.
pub enum PushStarted {
    /// Ours does not descend from what was decided on: fetch and decide again.
    Refused(Option<CommitId>),
    /// git is pushing `ours` (the local ref's commit when it started).
    Running {
        child: crate::git::subprocess::PushChild,
        ours: Option<CommitId>,
    },
}

/// Start [`push`]: the check that ours descends from `notes`, then git running on its
/// own; [`PushStarted::finish`] waits for it.
pub fn start_push(ctx: &Context, remote: &str, notes: Option<&str>) -> Result<PushStarted> {
    let notes_ref = &ctx.settings.notes_ref;
    let ours = ctx.repo.notes_commit_of(notes_ref)?;
    if let Some(at) = notes {
        let theirs = crate::git::CommitId::from_hex(at);
        let descends = match (theirs, ours) {
            (Some(t), Some(o)) => ctx.repo.notes_descends(t, o),
            _ => false,
        };
        if !descends {
            return Ok(PushStarted::Refused(ours));
        }
    }
    let source = ours.map(|o| o.to_string());
    let child = crate::git::subprocess::start_push_notes(
        &ctx.repo.common_dir(),
        remote,
        (notes_ref, source.as_deref().unwrap_or(notes_ref)),
        notes,
    )?;
    Ok(PushStarted::Running { child, ours })
}

impl PushStarted {
    /// The notes commit pushed (`None`: refused, or the local ref had none).
    pub fn pushing(&self) -> Option<CommitId> {
        match self {
            PushStarted::Refused(_) => None,
            PushStarted::Running { ours, .. } => *ours,
        }
    }

    /// Wait for the push; once the remote took it, the tracking ref `tracking` moves to
    /// the commit pushed (only from `notes`). How it went, and the commit pushed.
    pub fn finish(
        self,
        ctx: &Context,
        notes: Option<&str>,
        tracking: &str,
    ) -> Result<(crate::git::subprocess::Pushed, Option<CommitId>)> {
        use crate::git::subprocess::Pushed;
        let (child, ours) = match self {
            PushStarted::Refused(ours) => return Ok((Pushed::Rejected, ours)),
            PushStarted::Running { child, ours } => (child, ours),
        };
        let pushed = child.finish()?;
        if let (Pushed::Done, Some(ours)) = (&pushed, &ours) {
            ctx.repo.advance_ref(tracking, notes, &ours.to_string())?;
        }
        Ok((pushed, ours))
    }
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

/// What one fetch of a remote's notes ref brought (`fetch_round`).
pub enum Round {
    /// The remote could not be reached: git's words.
    Unreachable(String),
    /// It has no notes ref.
    NoNotes,
    /// Its notes commit `at`, checked, is now the tracking ref and merged into the
    /// local notes ref (`known`: it was in our history already, and was not read).
    Merged {
        at: String,
        merge: crate::git::NotesMerge,
        known: bool,
    },
}

/// One fetch round of `sync` and of a claim decided on `remote`: fetch its notes ref
/// into `scratch` (a ref of this process's own), check what it brings is a notes store
/// (only what differs from the merge base with ours: `check_fetched`; a store that is
/// not one is refused by name and moves no ref of the user's), move it to the tracking
/// ref `tracking` and merge it into the local notes ref record-wise. `pause` names the
/// test pause point after the fetch.
pub fn fetch_round(
    ctx: &Context,
    remote: &str,
    scratch: &str,
    tracking: &str,
    pause: &str,
) -> Result<Round> {
    use crate::support::error::{Error, msg};
    let notes_ref = ctx.settings.notes_ref.as_str();
    let git_dir = ctx.repo.common_dir();
    let had = match crate::git::subprocess::fetch_notes(&git_dir, remote, notes_ref, scratch) {
        Ok(had) => had,
        Err(Error::Git { message, .. }) => return Ok(Round::Unreachable(message)),
        Err(e) => return Err(e),
    };
    crate::support::testing::pause(pause);
    if !had {
        return Ok(Round::NoNotes);
    }
    // The commit fetched, read once: checked, moved to the tracking ref, decided on.
    let Some(theirs) = ctx.repo.notes_commit_of(scratch)? else {
        return Ok(Round::NoNotes);
    };
    let known = match check_fetched(ctx, scratch, theirs)? {
        Fetched::Known => true,
        Fetched::Sound => false,
        Fetched::Bad(why) => {
            ctx.repo.delete_ref(scratch)?;
            return Err(Error::usage(msg(
                crate::k!("err.remote_notes_bad"),
                &[
                    ("remote", &remote),
                    ("notes_ref", &notes_ref),
                    ("why", &why),
                ],
            )));
        }
    };
    let at = theirs.to_string();
    ctx.repo.move_ref(scratch, tracking)?;
    let merge = (ctx.repo).notes_merge(
        notes_ref,
        tracking,
        &crate::services::record_rules::RecordRules,
    )?;
    Ok(Round::Merged { at, merge, known })
}
