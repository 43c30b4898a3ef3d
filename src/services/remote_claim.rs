//! Claims decided on a remote (SPEC section 10): the remote's notes ref is the single
//! point of truth. Each round fetches it into a scratch ref of this process's own,
//! checks it, merges it into the local notes ref record-wise (as `sync` does) and reads
//! the remote's newest record of the session; the caller decides and writes in the one
//! write transaction (its record goes to the local ref), then pushes the local ref
//! without force: a push git takes is a fast-forward of what was fetched, so the claim
//! was decided on everything the remote held. A rejected push is fetched and decided
//! again. A remote that cannot be reached leaves the claim local and unconfirmed.

use crate::git::subprocess::{self as git_cli, Pushed};
use crate::model::record::{self, Record};
use crate::services::context::Context;
use crate::services::record_rules::RecordRules;
use crate::services::remote_notes::{self, RemoteNotes};
use crate::services::sessions::Written;
use crate::support::error::{Error, Result, msg};

/// Rounds of fetch, decide and push before giving up (as `sync`).
pub const MAX_ROUNDS: usize = 5;

/// The remote claims are decided on, and the refs a round uses.
pub struct RemoteClaims<'a> {
    ctx: &'a Context,
    pub remote: String,
    notes_ref: String,
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
        let notes_ref = ctx.settings.notes_ref.clone();
        let name = notes_ref.trim_start_matches("refs/notes/").to_owned();
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
            notes_ref,
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
        let (ctx, remote) = (self.ctx, self.remote.as_str());
        let git_dir = ctx.repo.common_dir();
        let had = match git_cli::fetch_notes(&git_dir, remote, &self.notes_ref, &self.scratch) {
            Ok(had) => had,
            Err(Error::Git { message, .. }) => return Ok(Fetched::Offline(first_line(&message))),
            Err(e) => return Err(e),
        };
        crate::support::testing::pause("remote_claim_fetched");
        if !had {
            return Ok(Fetched::Online(RemoteNotes::none(ctx)));
        }
        if let remote_notes::Fetched::Bad(why) = remote_notes::check_fetched(ctx, &self.scratch)? {
            ctx.repo.delete_ref(&self.scratch)?;
            return Err(Error::usage(msg(
                crate::k!("err.remote_notes_bad"),
                &[
                    ("remote", &remote),
                    ("notes_ref", &self.notes_ref.as_str()),
                    ("why", &why),
                ],
            )));
        }
        let Some(at) = ctx.repo.ref_target(&self.scratch)? else {
            return Ok(Fetched::Online(RemoteNotes::none(ctx)));
        };
        ctx.repo.move_ref(&self.scratch, &self.tracking)?;
        ctx.repo
            .notes_merge(&self.notes_ref, &self.tracking, &RecordRules)?;
        Ok(Fetched::Online(RemoteNotes::tracking(
            ctx,
            &self.tracking,
            at,
        )))
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

    /// Push the local notes ref to the remote, never forced, only while the remote's
    /// ref is still what the claim was decided on (`notes`): another process of this
    /// clone may have merged more of the remote into ours since, which a plain push
    /// would carry as though it had been decided on.
    pub fn push(&self, notes: &RemoteNotes<'_>) -> Result<Push> {
        crate::support::testing::pause("remote_claim_push");
        match remote_notes::push(self.ctx, &self.remote, notes.at(), &self.tracking) {
            Ok((Pushed::Done, pushed)) => Ok(Push::Done(pushed)),
            Ok((Pushed::Rejected, _)) => Ok(Push::Rejected),
            Err(Error::Git { message, .. }) => Ok(Push::Offline(first_line(&message))),
            Err(e) => Err(e),
        }
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
        &|old| {
            let mut out = Vec::with_capacity(old.len());
            for line in old.split_inclusive(|b| *b == b'\n') {
                if keep(line.strip_suffix(b"\n").unwrap_or(line)) {
                    out.extend_from_slice(line);
                }
            }
            out
        },
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
