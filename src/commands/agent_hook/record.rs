//! What `hook pre-compact` and `hook session-end` record by themselves (SPEC section
//! 11): what the agent session did since its start (the start marker's HEAD and the
//! tracked files already changed then), in git's words and from the agent's
//! transcript, written into the worktree's session through the one write transaction
//! (`model/auto_record.rs` decides what changes); with no session and work done, the
//! session is made as `save` makes it, with one task in progress. At the session's
//! end, the claims its agent session holds are released in the same write.
//!
//! Bounded: commits, files and the transcript's tail are read against a deadline well
//! under each agent's hook timeout (Codex clamps a `SessionEnd` hook to 3 s), and the
//! session's lock is waited for a moment only: held, the record is skipped and said.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use super::args::{Moment, ReminderArgs};
use super::event::Event;
use super::start_seen::StartSeen;
use crate::cli::shared::{HookAgent, HookScope, TeamArgs};
use crate::model::auto_record::{self, CommitFact, Facts, Failure, Note};
use crate::model::session;
use crate::services::context::Context;
use crate::services::sessions;
use crate::support::error::{Error, LockOwner, Result};
use crate::support::i18n::{Lang, fill, text};

/// Commits looked at since the start, at most (the newest ten are recorded).
const COMMITS_LOOKED_AT: usize = 100;
/// Files named in a note, at most.
const FILES_NAMED: usize = 12;
/// How long the session's lock is waited for.
const LOCK_WAIT: Duration = Duration::from_millis(500);

/// What the record did.
#[derive(Debug, Default)]
pub struct Recorded {
    /// The session written (or that would have been).
    pub key: Option<String>,
    /// The session was made by this record, with this task.
    pub created: Option<String>,
    /// Something was written.
    pub wrote: bool,
    pub commits: usize,
    pub files: usize,
    /// The tasks whose claims were released, and the holder.
    pub released: Vec<String>,
    pub holder: Option<String>,
    /// The session's lock was held: nothing was written.
    pub locked: bool,
    /// Who held it, when known.
    pub lock_owner: Option<LockOwner>,
    /// One-line notes of what could not be read.
    pub notes: Vec<String>,
}

/// Record what this agent session did (see the module's comment). `Ok` with nothing
/// written when there is nothing to record; an error only when the session cannot
/// be read (the caller says it in one line).
pub fn record(
    ctx: &mut Context,
    event: &Event,
    args: &ReminderArgs,
    moment: Moment,
) -> Result<Recorded> {
    let mut out = Recorded::default();
    if args.scope == Some(HookScope::User) && !crate::services::agent_paths::opted_in(ctx) {
        return Ok(out);
    }
    ctx.settings.lock_timeout = ctx.settings.lock_timeout.min(LOCK_WAIT);
    let deadline = Instant::now() + deadline();
    let facts =
        super::starts::agent_start(&ctx.repo.tool_dir().hook_starts(), event).map(|(at, seen)| {
            facts(
                ctx,
                event,
                args.agent,
                (at, &seen),
                deadline,
                &mut out.notes,
            )
        });
    let facts = facts.filter(|f| !f.is_empty());
    let holder = (moment == Moment::End)
        .then(|| holder(event, args.agent))
        .flatten();
    if facts.is_none() && holder.is_none() {
        return Ok(out);
    }
    let wt = ctx.current_worktree()?;
    let create = facts.as_ref().is_some_and(Facts::did_work);
    // No handover here: nothing to record means nothing to release either (and the
    // session is not chosen: that makes the handover directory). And when this agent
    // session saved its own in another worktree's session (`--session KEY`), that is
    // its handover: none is made here besides it.
    let none_here = super::saved_elsewhere::none_here(ctx, &wt.path);
    if none_here && !create {
        return Ok(out);
    }
    if none_here
        && let Some(key) =
            super::saved_elsewhere::saved_elsewhere(ctx, &event.clean("session_id"), deadline)
    {
        let line = crate::support::i18n::fill(
            ctx.lang,
            crate::k!("record.saved_elsewhere"),
            &[("key", &key)],
        );
        out.notes.push(line);
        return Ok(out);
    }
    let owner = ctx.owner(&TeamArgs::default(), &wt)?;
    let chosen = sessions::choose(
        &ctx.write_root(&wt),
        &ctx.other_roots(&wt),
        &owner,
        &wt.path,
        ctx.now,
        create,
        &ctx.settings,
    );
    let chosen = match chosen {
        Err(e @ Error::Locked { .. }) => return locked(out, e, None),
        other => other?,
    };
    if let Some(e) = chosen.unreadable {
        return Err(e);
    }
    let Some(target) = chosen.session.clone() else {
        return Ok(out);
    };
    if !target.exists() && !create {
        return Ok(out);
    }
    out.key = Some(target.key.clone());
    out.holder.clone_from(&holder);
    let fresh = !target.exists();
    let workspace = sessions::workspace(&wt, &sessions::recorded_owner(&owner, &target));
    let lang = ctx.lang;
    let now = session::format_time(ctx.now);
    let at = ctx.now;
    let mut made = None;
    let mut released = Vec::new();
    let written = sessions::Transaction::recorded(ctx, &wt).and_then(|tx| {
        tx.excluding().update(&target, |current| {
            // Under the session's lock: a test holds it here to race two records.
            crate::support::testing::pause("auto-record");
            let mut doc = current.into_document();
            if doc.is_empty() {
                session::merge(&mut doc, &workspace);
                if let Some(f) = &facts {
                    made = Some(first_task(&mut doc, f, lang, &now));
                }
            }
            if let Some(f) = &facts {
                let notes = [note(f, lang)];
                let words = |x: &Failure| approach(x, lang);
                auto_record::apply(&mut doc, f, &notes, &words, &now);
            }
            if let Some(h) = &holder {
                released = release(&mut doc, h, at);
            }
            Ok(doc)
        })
    });
    drop(chosen);
    let written = match written {
        Ok(w) => w,
        Err(e) => {
            if fresh {
                let _ = std::fs::remove_dir(target.dir());
            }
            return match e {
                e @ Error::Locked { .. } => locked(out, e, Some(target.key)),
                e => Err(e),
            };
        }
    };
    out.wrote = written.changed;
    out.created = made.filter(|_| fresh && written.changed);
    out.released = released;
    if let Some(f) = &facts {
        out.commits = f.commits.len();
        out.files = merged_files(f).len();
    }
    Ok(out)
}

/// The record skipped for a held lock.
fn locked(mut out: Recorded, e: Error, key: Option<String>) -> Result<Recorded> {
    let Error::Locked { owner, .. } = e else {
        return Err(e);
    };
    out.locked = true;
    out.lock_owner = owner;
    if key.is_some() {
        out.key = key;
    }
    Ok(out)
}

/// The time the record may spend reading git and the transcript: 1.5 s (a test may
/// change it with `GIT_HANDOVER_TEST_DEADLINE_MS`).
fn deadline() -> Duration {
    crate::support::testing::knob("GIT_HANDOVER_TEST_DEADLINE_MS")
        .and_then(|ms| ms.parse().ok())
        .map_or(Duration::from_millis(1_500), Duration::from_millis)
}

/// The claim holder's name of this agent session, as session-start derives it.
fn holder(event: &Event, agent: Option<HookAgent>) -> Option<String> {
    agent.and_then(|a| event.claim_name(a)).or_else(|| {
        std::env::var(crate::services::claims::AS_ENV)
            .ok()
            .filter(|s| !s.trim().is_empty())
    })
}

/// Release every claim `holder` has in `doc`; the tasks released.
fn release(doc: &mut Map<String, Value>, holder: &str, now: jiff::Timestamp) -> Vec<String> {
    let held: Vec<String> = doc
        .get("active_tasks")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|t| {
            t.get(crate::model::claim::KEY)
                .and_then(|c| crate::model::claim::Claim::from_value(c).ok())
                .is_some_and(|c| c.holder == holder)
        })
        .filter_map(|t| t.get("id").and_then(Value::as_str).map(str::to_owned))
        .collect();
    let mut out = Vec::new();
    for id in held {
        if !out.contains(&id)
            && crate::model::claim::release(doc, &id, holder, now, false)
                == Ok(crate::model::claim::Released::Own)
        {
            out.push(id);
        }
    }
    out
}

/// The facts of this agent session since its start (`at`, and what it `seen`).
pub(super) fn facts(
    ctx: &Context,
    event: &Event,
    agent: Option<HookAgent>,
    (at, seen): (jiff::Timestamp, &StartSeen),
    deadline: Instant,
    notes: &mut Vec<String>,
) -> Facts {
    let head = seen.head.as_deref().unwrap_or_default();
    let since = ctx.repo.commits_since(
        head,
        COMMITS_LOOKED_AT,
        crate::model::session::KEEP_ARCHITECTURE_CHANGES,
        deadline,
    );
    let (dirty, _) = ctx
        .repo
        .dirty_files(super::start_seen::DIRTY_KEPT, deadline);
    let path = event
        .text("transcript_path")
        .map(PathBuf::from)
        .or_else(|| seen.transcript.clone());
    let root = ctx.current_worktree().ok().map(|w| w.path);
    let mut digest = super::transcript_step::read(path.as_deref(), agent, ctx.lang, notes);
    digest.edited_files =
        super::transcript_step::in_worktree(digest.edited_files, root.as_deref(), event.dir());
    let mut files: Vec<String> = since.files.clone();
    // Changed and not committed: what differs from HEAD now and was modified at or
    // after the start (a file's time and the marker's are the kernel's coarse clock,
    // so "at" counts; a file changed before the start and left alone is not this agent
    // session's work); a file gone counts only when the agent's tools touched it.
    let modified_since = |p: &str| {
        let file = root.as_ref()?.join(p);
        let time = std::fs::symlink_metadata(file).ok()?.modified().ok()?;
        jiff::Timestamp::try_from(time).ok().map(|t| t >= at)
    };
    files.extend(
        dirty
            .into_iter()
            .map(|(p, _)| p)
            .filter(|p| modified_since(p).unwrap_or_else(|| digest.edited_files.contains(p))),
    );
    files.sort();
    files.dedup();
    let commits = since
        .commits
        .iter()
        .map(|c| CommitFact {
            sha: c.id.to_string(),
            subject: c.subject.clone(),
            files: c.files.clone(),
            date: jiff::Timestamp::from_second(c.time)
                .map_or_else(|_| String::new(), session::format_time),
        })
        .collect();
    Facts {
        agent: agent_word(agent).to_owned(),
        session_id: event.clean("session_id"),
        commits,
        more_commits: since.more,
        files_changed: files,
        last_request: digest.last_request,
        edited_files: digest.edited_files,
        failed: digest.failed,
    }
}

fn agent_word(agent: Option<HookAgent>) -> &'static str {
    match agent {
        Some(HookAgent::Claude) => "claude",
        Some(HookAgent::Codex) => "codex",
        Some(HookAgent::Gemini) => "gemini",
        Some(HookAgent::Copilot) => "copilot",
        None => "agent",
    }
}

/// The files changed and edited, sorted, once each.
fn merged_files(f: &Facts) -> Vec<String> {
    let mut all: Vec<String> = f
        .files_changed
        .iter()
        .chain(&f.edited_files)
        .cloned()
        .collect();
    all.sort();
    all.dedup();
    all
}

/// At most `n` characters of `s` on one line, with `…` when cut.
fn short(s: &str, n: usize) -> String {
    let one: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() <= n {
        return one;
    }
    let mut cut: String = one.chars().take(n).collect();
    cut.push('…');
    cut
}

/// The one session note of an agent session: who, what was asked, the commits, the
/// files, the commands that failed.
fn note(f: &Facts, lang: Lang) -> Note {
    let session: String = f.session_id.chars().take(8).collect();
    let mut parts = vec![fill(
        lang,
        crate::k!("record.note_who"),
        &[("agent", &f.agent), ("session", &session)],
    )];
    if let Some(r) = &f.last_request {
        parts.push(fill(
            lang,
            crate::k!("record.note_request"),
            &[("request", &short(r, 200))],
        ));
    }
    if !f.commits.is_empty() {
        let list: Vec<String> = f
            .commits
            .iter()
            .take(5)
            .map(|c| format!("{} {}", &c.sha[..c.sha.len().min(7)], short(&c.subject, 60)))
            .collect();
        let more = f.commits.len().saturating_sub(5);
        let mut list = list.join("; ");
        if more > 0 {
            list.push_str(&fill(
                lang,
                crate::k!("record.and_more"),
                &[("n", &more.to_string())],
            ));
        }
        parts.push(fill(
            lang,
            crate::k!("record.note_commits"),
            &[("n", &count(f)), ("list", &list)],
        ));
    }
    let files = merged_files(f);
    if !files.is_empty() {
        let mut list = files
            .iter()
            .take(FILES_NAMED)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        let more = files.len().saturating_sub(FILES_NAMED);
        if more > 0 {
            list.push_str(&fill(
                lang,
                crate::k!("record.and_more"),
                &[("n", &more.to_string())],
            ));
        }
        parts.push(fill(
            lang,
            crate::k!("record.note_files"),
            &[("list", &list)],
        ));
    }
    if !f.failed.is_empty() {
        let list: Vec<String> = f
            .failed
            .iter()
            .take(3)
            .map(|x| approach(x, lang).1)
            .collect();
        parts.push(fill(
            lang,
            crate::k!("record.note_failed"),
            &[("list", &list.join("; "))],
        ));
    }
    Note {
        category: "automatic",
        content: parts.join(" "),
    }
}

/// How many commits, `100+` when there were more than were looked at.
pub(super) fn count(f: &Facts) -> String {
    let n = f.commits.len();
    if f.more_commits {
        format!("{n}+")
    } else {
        n.to_string()
    }
}

/// A failed command as an attempted approach: its words and the reason.
fn approach(f: &Failure, lang: Lang) -> (String, String) {
    let command = short(&f.command, 120);
    let status = f
        .exit_status
        .map_or_else(|| "?".to_owned(), |s| s.to_string());
    (
        fill(lang, crate::k!("record.approach"), &[("command", &command)]),
        fill(
            lang,
            crate::k!("record.failed"),
            &[
                ("command", &command),
                ("status", &status),
                ("error", &short(&f.first_error_line, 160)),
            ],
        ),
    )
}

/// The task of a session the record makes: "Continue: <the last request>", in
/// progress, naming the files. Its id.
fn first_task(doc: &mut Map<String, Value>, f: &Facts, lang: Lang, now: &str) -> String {
    let description = match &f.last_request {
        Some(r) => fill(
            lang,
            crate::k!("record.continue"),
            &[("request", &short(r, 200))],
        ),
        None => text(lang, crate::k!("record.continue_unknown")).to_owned(),
    };
    let files: Vec<String> = merged_files(f).into_iter().take(FILES_NAMED).collect();
    let mut by = Map::new();
    by.insert("agent".into(), Value::from(f.agent.clone()));
    by.insert("session_id".into(), Value::from(f.session_id.clone()));
    by.insert("automatic".into(), Value::from(true));
    let task = serde_json::json!({
        "id": "T1",
        "description": description,
        "status": "in_progress",
        "file_paths": files,
        "last_touched": now,
        auto_record::RECORDED_BY: by,
    });
    doc.insert("active_tasks".into(), Value::Array(vec![task]));
    "T1".to_owned()
}
