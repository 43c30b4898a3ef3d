//! Claims decided on a remote (SPEC section 10): the remote's notes ref is the single
//! point of truth. Each round fetches it into a scratch ref of this process's own,
//! checks it, merges it into the local notes ref record-wise (as `sync` does) and reads
//! the remote's newest record of the session; the caller decides and writes in the one
//! write transaction (its record goes to the local ref), then pushes the local ref
//! without force: a push git takes is a fast-forward of what was fetched, so the claim
//! was decided on everything the remote held. A rejected push is fetched and decided
//! again. A remote that cannot be reached leaves the claim local and unconfirmed.

use crate::git::subprocess::Pushed;
use crate::model::record::{self, Record};
use crate::services::context::Context;
use crate::services::remote_notes::{self, RemoteNotes, Round};
use crate::services::sessions::{SessionDir, Written};
use crate::support::error::{Error, Result, msg};

/// Rounds of fetch, decide and push before giving up (as `sync`).
pub const MAX_ROUNDS: usize = 5;

/// The remote claims are decided on, and the refs a round uses.
pub struct RemoteClaims<'a> {
    ctx: &'a Context,
    pub remote: String,
    tracking: String,
    scratch: String,
}

/// What one fetch of the remote found.
pub enum Fetched<'a> {
    /// The remote's notes as fetched (none: it has no notes ref).
    Online(RemoteNotes<'a>),
    /// It could not be reached: git's words.
    Offline(String),
}

/// A push begun (`RemoteClaims::start_push`), or git's words when it could not be.
pub type Started = std::result::Result<remote_notes::PushStarted, String>;

/// How a push went.
pub enum Push {
    /// The remote took it: the notes commit pushed (`None`: the local ref had none).
    Done(Option<crate::git::CommitId>),
    Rejected,
    Offline(String),
}

/// The remote a claim verb decides on: `flag`, else `handover.claimRemote`; `None`
/// when neither says one. A remote needs the notes store: refused with the setting
/// that turns it on.
pub fn remote_of(ctx: &Context, flag: Option<&str>) -> Result<Option<String>> {
    let Some(remote) = flag
        .map(str::to_owned)
        .or_else(|| ctx.settings.claim_remote.clone())
    else {
        return Ok(None);
    };
    // As `sync`: a URL or a path has no tracking ref to decide on (its name would not
    // be a ref name): refused by name, not failed on reading the ref.
    if !remote_notes::plain_remote(&remote) {
        return Err(Error::usage_hint(
            msg(
                crate::k!("err.bad_remote"),
                &[("remote", &format!("{remote:?}"))],
            ),
            msg(crate::k!("err.remote_hint"), &[]),
        ));
    }
    if !ctx.store().enabled() {
        return Err(Error::usage_hint(
            msg(
                crate::k!("rclaim.needs_store"),
                &[("remote", &remote), ("store", &ctx.settings.store.as_str())],
            ),
            msg(crate::k!("rclaim.needs_store_hint"), &[]),
        ));
    }
    if ctx
        .repo
        .config_string(&format!("remote.{remote}.url"))
        .is_none()
    {
        return Err(Error::usage(msg(
            crate::k!("err.no_remote"),
            &[("remote", &remote)],
        )));
    }
    Ok(Some(remote))
}

impl<'a> RemoteClaims<'a> {
    pub fn new(ctx: &'a Context, remote: String) -> RemoteClaims<'a> {
        let name = (ctx.settings.notes_ref.trim_start_matches("refs/notes/")).to_owned();
        let own = crate::support::id::random_uuid();
        let scratch = format!(
            "refs/handover-incoming/{}-{}/{remote}/{name}",
            std::process::id(),
            &own[..8]
        );
        let tracking = tracking_ref(ctx, &remote);
        RemoteClaims {
            ctx,
            remote,
            tracking,
            scratch,
        }
    }

    /// Fetch the remote's notes ref, check what it brings is a notes store (only what
    /// differs from the merge base with ours, as `sync`), move it to the tracking ref,
    /// merge it into the local one and return the remote's notes as fetched (read through
    /// the tracking ref's index: what changed since the last fetch, then only the records
    /// of the session asked about).
    pub fn fetch(&self) -> Result<Fetched<'a>> {
        let ctx = self.ctx;
        let round = remote_notes::fetch_round(
            ctx,
            &self.remote,
            &self.scratch,
            &self.tracking,
            "remote_claim_fetched",
        )?;
        Ok(match round {
            Round::Unreachable(message) => Fetched::Offline(first_line(&message)),
            Round::NoNotes => Fetched::Online(RemoteNotes::none(ctx)),
            Round::Merged { at, .. } => {
                Fetched::Online(RemoteNotes::tracking(ctx, &self.tracking, at))
            }
        })
    }

    /// What the remote held at the last fetch (its tracking ref, merged into the local
    /// ref then), read without asking the remote: a first round decides on it and
    /// pushes, and a push git rejects because the remote moved since is fetched and
    /// decided again like any lost race. `None` when it was never fetched.
    pub fn known(&self) -> Result<Option<RemoteNotes<'a>>> {
        let Some(at) = self.ctx.repo.ref_target(&self.tracking)? else {
            return Ok(None);
        };
        crate::support::testing::pause("remote_claim_fetched");
        Ok(Some(RemoteNotes::tracking(self.ctx, &self.tracking, at)))
    }

    /// Start pushing the local notes ref to the remote, never forced, only while the
    /// remote's ref is still what the claim was decided on (`notes`): another process of
    /// this clone may have merged more of the remote into ours since, which a plain push
    /// would carry as though it had been decided on. git runs on its own until
    /// [`RemoteClaims::finish_push`]: what does not depend on its answer is done
    /// meanwhile.
    pub fn start_push(&self, notes: &RemoteNotes<'_>) -> Result<Started> {
        crate::support::testing::pause("remote_claim_push");
        match remote_notes::start_push(self.ctx, &self.remote, notes.at()) {
            Ok(started) => Ok(Ok(started)),
            Err(Error::Git { message, .. }) => Ok(Err(first_line(&message))),
            Err(e) => Err(e),
        }
    }

    /// Wait for the push `started` on `notes`: how it went.
    pub fn finish_push(&self, started: Started, notes: &RemoteNotes<'_>) -> Result<Push> {
        let started = match started {
            Ok(started) => started,
            Err(why) => return Ok(Push::Offline(why)),
        };
        match started.finish(self.ctx, notes.at(), &self.tracking) {
            Ok((Pushed::Done, pushed)) => Ok(Push::Done(pushed)),
            Ok((Pushed::Rejected, _)) => Ok(Push::Rejected),
            Err(Error::Git { message, .. }) => Ok(Push::Offline(first_line(&message))),
            Err(e) => Err(e),
        }
    }

    /// What the push of `w` under way (`pushing`) establishes once the remote takes it
    /// (`as_decided`), kept while it runs: a fact of the commit pushed, whatever becomes
    /// of the push, read only once the remote holds that commit. Whether it was kept.
    pub fn keep_decided(
        w: &Written,
        pushing: Option<crate::git::CommitId>,
        notes: &RemoteNotes<'_>,
        theirs: Option<&Theirs>,
    ) -> bool {
        as_decided(w, pushing, notes, theirs) && remember(w, notes)
    }

    /// Whether the local notes ref, which the remote now holds, holds the record of the
    /// write `w` and no other side of its session: another process of this clone may have
    /// merged a winner's record beside ours and pushed both, our claim undecided against
    /// it (a write without a session id or a record is taken as carried). Known without
    /// the store when the push carried the decision as it was made (`as_decided`; what
    /// it establishes is kept then, unless `kept` while it ran), else the store is asked.
    pub fn carried(
        &self,
        w: &Written,
        pushed: Option<crate::git::CommitId>,
        notes: &RemoteNotes<'_>,
        (theirs, kept): (Option<&Theirs>, bool),
    ) -> Result<bool> {
        let doc = w.state.document();
        let field = |k: &str| doc.get(k).and_then(serde_json::Value::as_str);
        let (Some(id), Some(hash)) = (field("session_id"), field("session_hash")) else {
            return Ok(true);
        };
        if w.noted.is_none() {
            return Ok(true);
        }
        if as_decided(w, pushed, notes, theirs) {
            crate::support::testing::note("claim_carried_as_decided");
            // The next claim decided on the commit pushed takes this record as kept.
            if !kept {
                remember(w, notes);
            }
            return Ok(true);
        }
        crate::support::testing::note("claim_carried_asked_store");
        let store = self.ctx.store();
        if !store.has_state(id, hash)? {
            return Ok(false);
        }
        let (found, _) = store.newest_where(&|l| l.session_id == Some(id))?;
        Ok(!(found.iter())
            .any(|r| r.record.session_id.as_deref() == Some(id) && !r.diverged.is_empty()))
    }

    /// Take back a write that never reached the remote: its record out of the local notes
    /// ref, and the file back to the state it was written on (that state's record, read
    /// from the local store), only while the file still holds this write: a write made on
    /// top of it since is never undone.
    pub fn take_back(&self, session: &SessionDir, w: &Written) -> Result<()> {
        let ctx = self.ctx;
        let doc = w.state.document();
        let field = |k: &str| doc.get(k).and_then(serde_json::Value::as_str);
        let (Some(id), Some(hash), Some(parent)) = (
            field("session_id"),
            field("session_hash"),
            field("parent_hash"),
        ) else {
            return Ok(());
        };
        let seq = doc
            .get("seq")
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(0);
        let store = ctx.store();
        let before = (store.records_at(id, seq.saturating_sub(1))?)
            .into_iter()
            .map(|r| r.state_doc())
            .find(|d| d.get("session_hash").and_then(serde_json::Value::as_str) == Some(parent));
        let Some(before) = before else {
            return Ok(());
        };
        // What this clone knew of each claim put back stays (`mark_recorded` in the
        // take would say every one confirmed: this state came from the local store).
        let mut before = before;
        crate::model::claim::confirmed_as_in(&mut before, doc);
        if crate::services::sessions::adopt(ctx, session, hash, before)? {
            self.withdraw(w)?;
        }
        Ok(())
    }
    /// Take the record of `written` back out of the local notes ref: it never reached
    /// the remote and its claim lost (or the session moved on there).
    pub fn withdraw(&self, written: &Written) -> Result<()> {
        let Some(commit) = written.noted else {
            return Ok(());
        };
        let doc = written.state.document();
        let id = doc.get("session_id").and_then(serde_json::Value::as_str);
        let hash = doc.get("session_hash").and_then(serde_json::Value::as_str);
        let (Some(id), Some(hash)) = (id, hash) else {
            return Ok(());
        };
        withdraw_at(self.ctx, commit, id, hash)
    }
}

/// Take the records of session `id` holding the state hashed `hash` out of the note
/// of `commit` in the local notes ref.
fn withdraw_at(ctx: &Context, commit: crate::git::CommitId, id: &str, hash: &str) -> Result<()> {
    let keep = |line: &[u8]| {
        record::parse_head(line)
            .is_none_or(|h| h.session_id.as_deref() != Some(id) || h.hash.as_deref() != Some(hash))
    };
    ctx.repo.notes_edit(
        &ctx.settings.notes_ref,
        commit,
        &|old: Vec<u8>| {
            let mut out = Vec::with_capacity(old.len());
            for line in old.split_inclusive(|b| *b == b'\n') {
                if keep(line.strip_suffix(b"\n").unwrap_or(line)) {
                    out.extend_from_slice(line);
                }
            }
            out
        },
        &mut || Ok(()),
        ctx.settings.lock_timeout,
    )?;
    Ok(())
}

/// Take every record of session `id` holding the state hashed `hash` out of the local
/// notes ref (a record that never reached the remote, found in whichever note holds it:
/// of the notes the index says hold the session's records, else of every note).
pub fn withdraw_state(ctx: &Context, id: &str, hash: &str) -> Result<()> {
    let needle = format!("\"session_hash\":\"{hash}\"");
    let holds = |text: &[u8]| text.windows(needle.len()).any(|w| w == needle.as_bytes());
    if let Some(objects) = ctx.store().notes_of_session(id)? {
        let Some(at) = ctx.repo.notes_commit_of(&ctx.settings.notes_ref)? else {
            return Ok(());
        };
        for object in objects {
            let text = (ctx.repo.note_text_at(at, object)?)
                .and_then(|blob| ctx.repo.note_text(blob, record::MAX_NOTE_SIZE));
            if text.is_some_and(|t| holds(&t)) {
                withdraw_at(ctx, object, id, hash)?;
            }
        }
        return Ok(());
    }
    for note in ctx.repo.notes_all(&ctx.settings.notes_ref)? {
        if holds(&note.text) {
            withdraw_at(ctx, note.commit, id, hash)?;
        }
    }
    Ok(())
}

/// Keep what a push of `w` as decided establishes of the commit its record made (the
/// remote's newest record of the session at that commit, `remote_notes::Known`).
fn remember(w: &Written, notes: &RemoteNotes<'_>) -> bool {
    let doc = w.state.document();
    let field = |k: &str| doc.get(k).and_then(serde_json::Value::as_str);
    let (Some(on), Some(made), Some(id), Some(hash), Some(line)) = (
        w.noted,
        w.notes.as_ref(),
        field("session_id"),
        field("session_hash"),
        &w.line,
    ) else {
        return false;
    };
    notes.remember(&crate::services::remote_notes::Known {
        at: made.commit,
        id: id.to_owned(),
        noted: on,
        hash: hash.to_owned(),
        line: line.clone(),
    });
    true
}

/// Whether the commit the remote took is the very notes commit the record of `w` made,
/// made on the remote's notes the claim was decided on (`notes`, the lease's commit),
/// where the session's newest record (`theirs`) had no other side and is the state `w`
/// was written on (or the remote had no record of the session): the remote then holds
/// what it held plus this one record, written on its newest, so it holds the record
/// and the session has no other side there. Decided on commit ids alone, whatever
/// round wrote `w`; anything else (another process moved our ref before the push, a
/// write on a state the remote does not hold as newest) is asked of the store.
fn as_decided(
    w: &Written,
    pushed: Option<crate::git::CommitId>,
    notes: &RemoteNotes<'_>,
    theirs: Option<&Theirs>,
) -> bool {
    let Some(made) = w.notes.as_ref() else {
        return false;
    };
    if pushed != Some(made.commit) || made.parent.map(|p| p.to_string()).as_deref() != notes.at() {
        return false;
    }
    let Some(theirs) = theirs else {
        return true;
    };
    let parent = w.state.document().get("parent_hash");
    !theirs.diverged && parent.is_some() && theirs.record.state_doc().get("session_hash") == parent
}

impl Drop for RemoteClaims<'_> {
    fn drop(&mut self) {
        let _ = self.ctx.repo.delete_ref(&self.scratch);
    }
}

/// The remote's newest record of a session, and whether the session diverged there.
pub struct Theirs {
    pub record: Record,
    pub diverged: bool,
}

/// The remote's newest record of session `id` (`key` names it), its claims checked:
/// a record whose claim of a task is not a claim is refused by name.
pub fn newest_of(
    notes: &RemoteNotes<'_>,
    id: &str,
    key: &str,
    remote: &str,
) -> Result<Option<Theirs>> {
    let Some(newest) = notes.newest(id)? else {
        return Ok(None);
    };
    for r in std::iter::once(&newest.record).chain(newest.diverged.iter().map(|s| &s.record)) {
        if let Some((task, why)) = crate::model::claim::invalid_claim(&r.state_doc()) {
            return Err(Error::usage_hint(
                msg(
                    crate::k!("rclaim.forged"),
                    &[
                        ("remote", &remote),
                        ("key", &key),
                        ("id", &format!("{task:?}")),
                        ("why", &why),
                    ],
                ),
                msg(crate::k!("rclaim.forged_hint"), &[("remote", &remote)]),
            ));
        }
    }
    Ok(Some(Theirs {
        diverged: !newest.diverged.is_empty(),
        record: newest.record,
    }))
}

/// Whether two states are the same write, as a restore into another worktree keeps it
/// (its own `workspace`, so its own hash).
pub fn same_write(
    a: &serde_json::Map<String, serde_json::Value>,
    b: &serde_json::Map<String, serde_json::Value>,
) -> bool {
    let strip = |m: &serde_json::Map<String, serde_json::Value>| {
        let mut m = crate::model::claim::without_confirmed(m).unwrap_or_else(|| m.clone());
        m.remove("workspace");
        m.remove("session_hash");
        m
    };
    strip(a) == strip(b)
}

/// The first line of git's words: what went wrong, without the advice after it.
fn first_line(message: &str) -> String {
    message.lines().next().unwrap_or("").trim().to_owned()
}

/// Whether `a` and `b` are the same state but for the tasks `ids` and the tool's own
/// fields (the workspace, the count, the hashes, the time).
pub fn same_but(
    a: &serde_json::Map<String, serde_json::Value>,
    b: &serde_json::Map<String, serde_json::Value>,
    ids: &[&str],
) -> bool {
    let strip = |m: &serde_json::Map<String, serde_json::Value>| {
        let mut m = crate::model::claim::without_confirmed(m).unwrap_or_else(|| m.clone());
        for k in [
            "workspace",
            "session_hash",
            "parent_hash",
            "seq",
            "generated_at",
            "status",
        ] {
            m.remove(k);
        }
        if let Some(serde_json::Value::Array(tasks)) = m.get_mut("active_tasks") {
            tasks.retain(|t| {
                !t.get("id")
                    .and_then(serde_json::Value::as_str)
                    .is_some_and(|id| ids.contains(&id))
            });
        }
        m
    };
    strip(a) == strip(b)
}

/// This clone's tracking ref of `remote`'s notes ref (`refs/notes/remotes/<remote>/<name>`).
pub fn tracking_ref(ctx: &Context, remote: &str) -> String {
    let name = ctx.settings.notes_ref.trim_start_matches("refs/notes/");
    format!("refs/notes/remotes/{remote}/{name}")
}

/// The refusal of a claim in session `key`, diverged on `remote` (written on two clones
/// from one state, no side picked): no one newest record to decide on.
pub fn diverged(key: &str, remote: &str) -> Error {
    Error::usage_hint(
        msg(
            crate::k!("rclaim.diverged"),
            &[("key", &key), ("remote", &remote)],
        ),
        msg(
            crate::k!("rclaim.diverged_hint"),
            &[("key", &key), ("remote", &remote)],
        ),
    )
}
