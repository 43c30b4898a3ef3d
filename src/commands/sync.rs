//! `sync [REMOTE]`: exchange the notes store with a remote (SPEC sections 5 and 8).
//! Fetch into `refs/notes/remotes/<remote>/<name>`, merge, push without force; when the
//! push is rejected because the remote moved, do it all again, a bounded number of times.

use clap::Args;

use crate::git::NotesMerge;
use crate::git::subprocess::Pushed;
use crate::services::context::Context;
use crate::services::remote_notes::{RemoteNotes, Round};
use crate::support::error::{Error, Result, msg};

#[derive(Debug, Args)]
pub struct SyncArgs {
    /// The remote to exchange with.
    #[arg(default_value = "origin")]
    pub remote: String,

    /// Also add the notes ref to `notes.rewriteRef` in the repository's config, so that
    /// `git rebase` and `git commit --amend` carry the notes to the new commits.
    #[arg(long)]
    pub rewrite_ref: bool,

    /// Only record: append to the notes store a record of every session whose files
    /// hold a state the store does not have as its newest (after a save that exited 5,
    /// "files written, store not updated"). Nothing is fetched or pushed.
    #[arg(long)]
    pub record: bool,
}

/// The long help of `sync`, after its options.
pub const SYNC_HELP: &str = "\
Fetches the remote's notes ref into refs/notes/remotes/<REMOTE>/handover, merges it into
the local one (each note joined line by line, as `git notes merge -s cat_sort_uniq`
does; when reading, the newest record of each session wins), and pushes the result as a
fast-forward of what it fetched, leased on it (git push
--force-with-lease=<ref>:<fetched commit>, once the result is checked to descend from
it): the remote's ref only moves forward, never rewritten. If the push is rejected because the remote moved, it fetches, merges and
pushes again, up to 5 times (then exit 4). Uses the git binary for fetch and push.

Examples:
  git handover sync
  git handover sync upstream
  git handover sync --rewrite-ref    # also make notes follow rebase and --amend";

/// Rounds of fetch, merge and push before giving up.
pub const MAX_ROUNDS: usize = 5;

#[derive(Debug)]
pub struct Report {
    pub remote: String,
    pub notes_ref: String,
    pub tracking: String,
    /// Whether the remote had a notes ref (in the last round).
    pub remote_had_notes: bool,
    /// What each round's merge did.
    pub merges: Vec<NotesMerge>,
    pub pushed: bool,
    pub rounds: usize,
    /// The local notes ref after the sync.
    pub local: Option<String>,
    /// `Some(true)` when `notes.rewriteRef` was added, `Some(false)` when it was there.
    pub rewrite_ref: Option<bool>,
    /// With `--record`: the sessions recorded (keys), and those already recorded.
    pub recorded: Option<Recorded>,
    /// The unconfirmed claims settled against the remote (SPEC section 10).
    pub claims: crate::facts::settled::Settled,
}

impl Report {
    fn new(remote: &str, notes_ref: &str, tracking: String) -> Report {
        Report {
            remote: remote.to_owned(),
            notes_ref: notes_ref.to_owned(),
            tracking,
            remote_had_notes: false,
            merges: Vec::new(),
            pushed: false,
            rounds: 0,
            local: None,
            rewrite_ref: None,
            recorded: None,
            claims: crate::facts::settled::Settled::default(),
        }
    }
}

#[derive(Debug, Default)]
pub struct Recorded {
    pub keys: Vec<String>,
    pub already: usize,
}

/// `sync --record`: every session on disk whose state is not the newest record of its
/// session in the store gets a record of its files as they are, made under its lock.
fn record(ctx: &Context) -> Result<Recorded> {
    use crate::services::scan::{self, Found};
    let head = ctx.store().record_head()?;
    let (newest, _) = ctx.store().newest()?;
    let hash_of = |state: &serde_json::Map<String, serde_json::Value>| {
        state
            .get("session_hash")
            .and_then(serde_json::Value::as_str)
            .map_or_else(|| crate::model::session::session_hash(state), str::to_owned)
    };
    let mut out = Recorded::default();
    for wt in ctx.repo.worktrees()? {
        if !wt.exists || wt.is_bare {
            continue;
        }
        for found in scan::scan_worktree(&wt.path, &ctx.settings.dir) {
            let Found::Session { root, key, .. } = found else {
                continue;
            };
            let session = crate::services::sessions::SessionDir::new(&wt.path.join(&root), &key)?;
            let tx = crate::services::sessions::Transaction::recorded_on(ctx, &wt, head);
            let recorded = tx.record_as_is(&session, |state| {
                let doc = state.document();
                let id = doc.get("session_id").and_then(serde_json::Value::as_str);
                let hash = hash_of(doc);
                let stored = newest.iter().find(|r| match (id, &r.record.session_id) {
                    (Some(id), Some(theirs)) => id == theirs,
                    (None, None) => r.record.key == key,
                    _ => false,
                });
                stored.is_some_and(|r| {
                    std::iter::once(&r.record)
                        .chain(r.diverged.iter().map(|d| &d.record))
                        .any(|rec| {
                            rec.state.as_ref().map(|s| hash_of(&s.doc())).as_deref()
                                == Some(hash.as_str())
                        })
                })
            })?;
            if !recorded {
                out.already += 1;
                continue;
            }
            out.keys.push(key);
        }
    }
    Ok(out)
}

pub fn run(ctx: &Context, args: &SyncArgs) -> Result<Report> {
    let remote = args.remote.as_str();
    if args.record {
        let mut report = Report::new(remote, &ctx.settings.notes_ref, String::new());
        report.recorded = Some(record(ctx)?);
        return Ok(report);
    }
    if !crate::services::remote_notes::plain_remote(remote) {
        return Err(Error::usage_hint(
            msg(
                crate::k!("err.bad_remote"),
                &[("remote", &format!("{remote:?}"))],
            ),
            msg(crate::k!("err.remote_hint"), &[]),
        ));
    }
    // A name that is not a configured remote is named as such (a URL or a path was
    // refused above: it has no tracking ref).
    if ctx
        .repo
        .config_string(&format!("remote.{remote}.url"))
        .is_none()
    {
        // `--rewrite-ref` alone (the remote left at its default) is a change of the
        // local configuration: no remote is needed for it.
        if args.rewrite_ref && remote == "origin" {
            let notes_ref = &ctx.settings.notes_ref;
            let mut report = Report::new(remote, notes_ref, String::new());
            report.rewrite_ref = Some(ctx.repo.add_rewrite_ref(notes_ref)?);
            return Ok(report);
        }
        return Err(Error::usage(msg(
            crate::k!("err.no_remote"),
            &[("remote", &remote)],
        )));
    }
    let notes_ref = ctx.settings.notes_ref.clone();
    let name = notes_ref.trim_start_matches("refs/notes/");
    let tracking = crate::services::remote_claim::tracking_ref(ctx, remote);
    // Each sync fetches into a ref of its own (two at once never take each other's),
    // removed whatever happens.
    let own = crate::support::id::random_uuid();
    let scratch = format!(
        "refs/handover-incoming/{}-{}/{remote}/{name}",
        std::process::id(),
        &own[..8]
    );
    let mut report = Report::new(remote, &notes_ref, tracking);
    if args.rewrite_ref {
        report.rewrite_ref = Some(ctx.repo.add_rewrite_ref(&notes_ref)?);
    }
    let result = rounds(ctx, &mut report, &scratch);
    let _ = ctx.repo.delete_ref(&scratch);
    result.map(|()| report)
}

/// Fetch, merge and push until the remote takes ours, through the ref `scratch`.
fn rounds(ctx: &Context, report: &mut Report, scratch: &str) -> Result<()> {
    let (remote, notes_ref, tracking) = (
        report.remote.clone(),
        report.notes_ref.clone(),
        report.tracking.clone(),
    );
    let (remote, notes_ref, tracking) = (remote.as_str(), notes_ref.as_str(), tracking.as_str());
    for _ in 0..MAX_ROUNDS {
        report.rounds += 1;
        let round = crate::services::remote_notes::fetch_round(
            ctx,
            remote,
            scratch,
            tracking,
            "sync_fetched",
        )?;
        let (fetched, merged) = match round {
            Round::Unreachable(why) => {
                return Err(Error::Unreachable {
                    remote: remote.to_owned(),
                    why,
                });
            }
            Round::NoNotes => (None, NotesMerge::NoOther),
            Round::Merged { at, merge, known } => {
                if known {
                    // A remote commit already in our history brings nothing new, and
                    // was not read again (issue 36: sync costs what it exchanges).
                    crate::support::testing::note("sync-remote-known");
                }
                (Some(at), merge)
            }
        };
        report.remote_had_notes = fetched.is_some();
        report.merges.push(merged);
        crate::support::testing::pause("sync_merged");
        // A session file here that the merge left behind the store takes its newest
        // state (another clone's claim shown here too).
        let on_disk = crate::services::claim_settle::on_disk(ctx)?;
        for key in crate::services::claim_settle::catch_up(ctx, &on_disk)? {
            if !report.claims.caught_up.contains(&key) {
                report.claims.caught_up.push(key);
            }
        }
        // Claims made offline are confirmed or lost on what the remote held, before
        // the push carries the result.
        let theirs = match &fetched {
            Some(at) => RemoteNotes::tracking(ctx, tracking, at.clone()),
            None => RemoteNotes::none(ctx),
        };
        let settled = crate::services::claim_settle::settle(ctx, on_disk, &theirs)?;
        let (settled, standing) = settled;
        report.claims.lost.extend(settled.lost);
        report.local = ctx.repo.ref_target(notes_ref)?;
        // What was fetched, which every read of the remote's records was made on (they
        // are pinned to it, whatever another process of this clone does to the tracking
        // ref meanwhile) and the push leases.
        let remote_tip = theirs.at().map(str::to_owned);
        // The claims that stood are said confirmed only once the remote holds them
        // (this round's push, or it had their records already).
        if report.local.is_none() || report.local == remote_tip {
            return crate::services::claim_settle::confirm(ctx, standing, &mut report.claims);
        }
        crate::support::testing::pause("sync_push");
        // Leased on what was fetched and settled on: a remote ref moved since, or ours
        // taking in more of the remote meanwhile (another process of this clone),
        // is fetched and settled again.
        match crate::services::remote_notes::push(ctx, remote, theirs.at(), tracking)?.0 {
            Pushed::Done => {
                report.pushed = true;
                return crate::services::claim_settle::confirm(ctx, standing, &mut report.claims);
            }
            Pushed::Rejected => {}
        }
    }
    Err(Error::RefRace {
        reference: format!("{notes_ref} on {remote}"),
        attempts: MAX_ROUNDS,
        last: crate::support::i18n::fill(ctx.lang, crate::k!("race.push_rejected"), &[]),
    })
}
