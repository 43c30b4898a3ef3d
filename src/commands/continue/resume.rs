//! Resuming the chosen candidate: migrate, restore, regenerate, clean, consume, and
//! the briefing.

use std::path::{Path, PathBuf};

use crate::cli::ContinueArgs;
use crate::git::Worktree;
use crate::model::note::Note;
use crate::model::state::{State, TaskStatus};
use crate::services::assess::{self, Kind};
use crate::services::context::Context;
use crate::services::scan::Found;
use crate::services::sessions::{self, SessionDir};
use crate::support::error::{Error, Result, msg};

#[allow(clippy::wildcard_imports)]
use super::*;
use crate::git::subprocess::Removal;
use crate::support::fsio;

/// Carry out the side effects and brief on the chosen handover.
pub(super) fn resume(
    ctx: &Context,
    args: &ContinueArgs,
    mode: Mode,
    mut chosen: Candidate,
    current: Option<&Worktree>,
    effects: &mut Vec<Effect>,
) -> Result<Outcome> {
    // A legacy state is migrated first, and the session it becomes is briefed.
    if chosen.handover.kind == Kind::Legacy && mode == Mode::Resume {
        let status = chosen
            .handover
            .assessment
            .as_ref()
            .and_then(|a| a.status.clone());
        if status.as_deref() == Some(crate::model::state::ALL_COMPLETE) {
            return Ok(Outcome::AllComplete(Box::new(chosen)));
        }
        let migrated = crate::services::legacy::migrate_in(ctx, &chosen.worktree)?;
        effects.push(Effect::Migrated {
            from: migrated.from.clone(),
            key: migrated.session.key.clone(),
        });
        let root_rel = ctx.settings.dir.clone();
        let found = Found::Session {
            root: root_rel,
            key: migrated.session.key.clone(),
            dir: migrated.session.dir(),
        };
        let worktrees = [chosen.worktree.clone()];
        let mut rechecked = assess::check(
            &ctx.repo,
            &ctx.settings,
            ctx.now,
            &worktrees,
            vec![(0, vec![found])],
            None,
        )?;
        let handover = rechecked
            .pop()
            .and_then(|w| w.handovers.into_iter().next())
            .expect("just written");
        chosen = Candidate {
            handle: migrated.session.key.clone(),
            handover,
            worktree: chosen.worktree,
        };
    }

    // A session from the notes store is written into this worktree first.
    if let (Some(stored), Mode::Resume) = (chosen.handover.stored.clone(), mode) {
        let wt = current.ok_or_else(needs_worktree)?.clone();
        let session = restore(ctx, &wt, &chosen.handover.key, &stored)?;
        effects.push(Effect::Restored {
            key: session.key.clone(),
            path: session.dir(),
            commit: stored.commit.clone(),
        });
        let found = Found::Session {
            root: ctx.settings.dir.clone(),
            key: session.key.clone(),
            dir: session.dir(),
        };
        let worktrees = [wt.clone()];
        let mut rechecked = assess::check(
            &ctx.repo,
            &ctx.settings,
            ctx.now,
            &worktrees,
            vec![(0, vec![found])],
            None,
        )?;
        let handover = rechecked
            .pop()
            .and_then(|w| w.handovers.into_iter().next())
            .expect("just written");
        chosen = Candidate {
            handle: session.key.clone(),
            handover,
            worktree: wt,
        };
    }

    let assessment = chosen
        .handover
        .assessment
        .clone()
        .expect("candidates are readable");
    let mut briefing = Briefing {
        candidate: chosen,
        recent: Vec::new(),
        open_tasks: Vec::new(),
        other_tasks: Vec::new(),
        note: None,
        successor: args.successor,
    };
    // The note exactly as briefed: only these bytes may be consumed.
    let mut note_bytes = None;
    match briefing.candidate.handover.kind {
        Kind::Session | Kind::Legacy => {
            let state = match &briefing.candidate.handover.stored {
                Some(stored) => {
                    State::from_doc(stored.state.clone(), &briefing.candidate.handover.file)?
                }
                None => State::read(&briefing.candidate.handover.file)?,
            };
            if !state.is_ready() {
                return Ok(Outcome::AllComplete(Box::new(briefing.candidate)));
            }
            briefing.open_tasks = state
                .tasks
                .iter()
                .filter(|t| t.status.is_open())
                .cloned()
                .collect();
            briefing.other_tasks = state
                .tasks
                .iter()
                .filter(|t| matches!(t.status, TaskStatus::Other(_)))
                .map(|t| t.id.clone())
                .collect();
            if let Some(session) = briefing
                .candidate
                .session()
                .filter(|_| mode == Mode::Resume)
                && sessions::render(&session, &ctx.settings, ctx.lang)?
            {
                effects.push(Effect::Rendered {
                    path: session.dir().join(sessions::MARKDOWN_FILE),
                });
            }
        }
        Kind::ContinueHere => {
            let bytes = crate::support::fsio::read_limited(&briefing.candidate.handover.file)?;
            briefing.note = Some(Note::parse(&String::from_utf8_lossy(&bytes)));
            note_bytes = Some(bytes);
        }
    }
    let tip = assessment
        .branch
        .as_deref()
        .and_then(|b| ctx.repo.branch_tip(b))
        .or(briefing.candidate.worktree.head);
    if let Some(tip) = tip {
        briefing.recent = ctx.repo.recent_commits(tip, 5)?;
    }

    if ctx.settings.auto_clean
        && mode == Mode::Resume
        && let Some(wt) = current
    {
        let mut cleaned = crate::services::cleanup::Report {
            dry_run: false,
            removed: Vec::new(),
            skipped: Vec::new(),
        };
        crate::services::cleanup::clean_worktree(
            ctx,
            wt,
            None,
            ctx.settings.clean_after,
            false,
            &mut |_, _| {},
            &mut cleaned,
        );
        effects.extend(
            cleaned
                .removed
                .into_iter()
                .map(|r| Effect::Cleaned { path: r.path }),
        );
    }
    if let Some(bytes) = note_bytes.filter(|_| !args.keep && mode == Mode::Resume) {
        effects.push(consume(ctx, &briefing.candidate, &bytes)?);
    }
    Ok(Outcome::Briefing(Box::new(briefing)))
}

/// Write a session of the notes store into `wt`'s handover root under its key, with
/// `workspace` pointing at `wt` (the worktree it was saved in may be gone), and the
/// time it was written kept. Refuses to overwrite a session that is there.
pub(super) fn restore(
    ctx: &Context,
    wt: &Worktree,
    key: &str,
    stored: &assess::Stored,
) -> Result<SessionDir> {
    let head = ctx.store_head()?;
    let session = SessionDir::new(&ctx.write_root(wt), key)?;
    let file = session.state_file();
    let mut doc = stored.state.clone();
    let mut workspace = doc
        .get("workspace")
        .and_then(serde_json::Value::as_object)
        .cloned()
        .unwrap_or_default();
    workspace.insert(
        "root".into(),
        serde_json::Value::from(wt.path.display().to_string()),
    );
    workspace.insert("is_worktree".into(), serde_json::Value::from(!wt.is_main));
    doc.insert("workspace".into(), serde_json::Value::Object(workspace));
    crate::model::session::seal(&mut doc);
    let state = State::from_doc(doc, &file)?;
    if !sessions::create(&session, &state, &ctx.settings, ctx.lang)? {
        return Err(Error::usage_hint(
            msg(
                "err.restore_exists",
                &[("key", &key), ("path", &file.display())],
            ),
            msg("err.resume_it", &[("key", &key)]),
        ));
    }
    let written = sessions::Written {
        session: session.clone(),
        created: true,
        changed: true,
        state,
        noted: None,
        skipped: Vec::new(),
    };
    ctx.record_at(head, &ctx.session_record(&written, wt))?;
    Ok(session)
}

/// Keep a copy of the note under the handover root's `consumed/`, read back and
/// compared byte for byte.
pub(super) fn copy_to_consumed(
    ctx: &Context,
    note: &Candidate,
    path: &Path,
    bytes: &[u8],
) -> Result<PathBuf> {
    let root = note.worktree.path.join(&ctx.settings.dir);
    sessions::make_dirs(&root, Path::new("consumed"))?;
    let stamp = ctx
        .now
        .to_zoned_datetime(jiff::tz::TimeZone::system())
        .strftime("%Y%m%d-%H%M%S")
        .to_string();
    let name = path.file_name().map_or_else(
        || "CONTINUE_HERE.md".into(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut copy = root.join("consumed").join(format!("{stamp}-{name}"));
    let mut n = 2;
    while std::fs::symlink_metadata(&copy).is_ok() {
        copy = root.join("consumed").join(format!("{stamp}-{n}-{name}"));
        n += 1;
    }
    fsio::write_atomic(&copy, bytes)?;
    if fsio::read_limited(&copy).ok().as_deref() != Some(bytes) {
        return Err(Error::usage(msg(
            "err.copy_unreadable",
            &[("path", &copy.display())],
        )));
    }
    Ok(copy)
}

/// Keep a copy of the note in the notes store, read back and compared: the text the
/// note of `commit` holds for it.
fn copy_to_store(ctx: &Context, note: &Candidate, rel: &Path, text: &str) -> Result<String> {
    let record = crate::model::record::Record {
        key: rel.display().to_string(),
        worktree: Some(note.worktree.path.display().to_string()),
        branch: note.worktree.branch.clone(),
        saved_at: ctx.now,
        kind: crate::model::record::RecordKind::ContinueHere,
        state: None,
        text: Some(text.to_owned()),
    };
    let commit = ctx.record(&record)?.expect("the store is enabled");
    let kept = ctx
        .repo
        .notes_all(&ctx.settings.notes_ref)?
        .into_iter()
        .filter(|n| n.commit == commit.to_string())
        .flat_map(|n| crate::model::record::parse_note(&n.text))
        .filter_map(|p| p.record.ok())
        .any(|r| r.key == record.key && r.text.as_deref() == Some(text));
    if !kept {
        return Err(Error::usage(msg(
            "err.copy_unreadable",
            &[(
                "path",
                &format!("{} on {}", ctx.settings.notes_ref, commit.short()),
            )],
        )));
    }
    Ok(format!("{} on {}", ctx.settings.notes_ref, commit.short()))
}

/// Consume the note that was briefed (`briefed`, its bytes then): under the note's own
/// lock (the one `here` takes), check it still holds those bytes, keep a verified copy
/// (in the notes store when it is enabled and the note is UTF-8 text, else under the
/// handover root's `consumed/`, bytes as they are), then remove it: a tracked note with
/// `git rm` and a commit of that path alone, refused during a merge or rebase.
pub(super) fn consume(ctx: &Context, note: &Candidate, briefed: &[u8]) -> Result<Effect> {
    let path = note.handover.file.clone();
    crate::support::testing::pause("consume");
    let _lock = fsio::Lock::acquire(&path, ctx.settings.lock_timeout)?;
    let bytes = fsio::read_limited(&path)?;
    if bytes != briefed {
        return Ok(Effect::Kept {
            path,
            copy: None,
            why: "consume.kept_changed",
            detail: String::new(),
        });
    }
    let rel = path
        .strip_prefix(&note.worktree.path)
        .unwrap_or(&path)
        .to_owned();
    let copy = match std::str::from_utf8(&bytes) {
        Ok(text) if ctx.store_enabled() => copy_to_store(ctx, note, &rel, text)?,
        _ => copy_to_consumed(ctx, note, &path, &bytes)?
            .display()
            .to_string(),
    };
    let removal = crate::git::subprocess::remove_tracked(
        &note.worktree.git_dir,
        &note.worktree.path,
        &rel,
        &format!(
            "Consume {} (briefed by git handover continue)",
            rel.display()
        ),
    )?;
    let committed = match removal {
        Removal::Committed => true,
        Removal::Untracked => {
            std::fs::remove_file(&path).map_err(|e| Error::io(&path, "remove", e))?;
            false
        }
        Removal::Kept { why, detail } => {
            return Ok(Effect::Kept {
                path,
                copy: Some(copy),
                why,
                detail,
            });
        }
    };
    Ok(Effect::Consumed {
        path,
        copy,
        committed,
    })
}
