//! Resuming the chosen candidate: migrate, restore, regenerate, clean, consume, and
//! the briefing.

use std::path::{Path, PathBuf};

use super::consume::consume;
use super::find::needs_worktree;
use super::{Ask, Briefing, Candidate, ContinueArgs, Effect, Mode, Outcome};
use crate::git::{History, Worktree};
use crate::model::note::Note;
use crate::model::state::{State, TaskStatus};
use crate::services::assess::{self, Kind};
use crate::services::context::Context;
use crate::services::scan::Found;
use crate::services::sessions::{self, SessionDir};
use crate::support::error::{Error, Result};

use super::plan::{Facts, Step, plan};
use crate::support::fsio;

/// Plan the side effects for the chosen handover, carry them out, and brief on it.
#[allow(clippy::too_many_arguments)] // the run's context, session and choices
pub(super) fn resume(
    ctx: &Context,
    history: &mut History<'_>,
    args: &ContinueArgs,
    mode: Mode,
    ask: &mut dyn Ask,
    mut chosen: Candidate,
    current: Option<&Worktree>,
    effects: &mut Vec<Effect>,
) -> Result<Outcome> {
    // A diverged session is never resumed on a side nobody took.
    let settle_on = match side_taken(ctx, args, mode, ask, &mut chosen)? {
        Taken::NotDiverged => None,
        Taken::Side(settle) => Some(settle),
        Taken::Nobody(sides) => {
            return Ok(Outcome::Diverged {
                candidate: Box::new(chosen),
                sides,
            });
        }
    };
    let assessment = chosen
        .handover
        .assessment()
        .expect("candidates are readable");
    let facts = Facts {
        kind: chosen.handover.kind,
        from_store: chosen.handover.stored.is_some(),
        finished: assessment.finished(),
        mode,
        keep: args.keep,
        auto_clean: ctx.settings.auto_clean,
        in_worktree: current.is_some(),
        copy: chosen.handover.copy_of.is_some() || args.adopt && from_elsewhere(&chosen, current),
        adopt: args.adopt,
    };
    if facts.finished {
        return Ok(Outcome::AllComplete(Box::new(chosen)));
    }
    let steps = plan(facts);

    // First the handover becomes a session of a worktree (migrated, restored, adopted),
    // settled on the side taken, and kept out of commits.
    chosen = make_local(ctx, history, &steps, chosen, current, effects)?;
    if let Some(settle) = settle_on {
        chosen = settle_taken(ctx, history, settle, &chosen, effects)?;
    }
    if steps
        .iter()
        .any(|s| matches!(s, Step::Migrate | Step::Restore | Step::Adopt))
    {
        let x = crate::services::exclude::ensure(ctx, &chosen.worktree)?;
        if !x.added.is_empty() {
            effects.push(Effect::Excluded {
                file: x.file,
                patterns: x.added,
            });
        }
    }

    // The briefing, from one read of the state (or of the note).
    let (briefing, note_bytes) = brief(args, chosen)?;
    let mut briefing = match briefing {
        Brief::Finished(candidate) => return Ok(Outcome::AllComplete(candidate)),
        Brief::Open(b) => b,
    };
    let here = current.unwrap_or(&briefing.candidate.worktree);
    briefing.holder = crate::services::claims::holder_of(args.holder.as_deref(), here)?;
    // A successor was briefed: its receipt (issue 34), unless `--full` only looks again.
    if let (Some(view), false) = (&briefing.state, args.full) {
        crate::services::receipts::briefed(
            &ctx.repo.tool_dir(),
            view,
            &briefing.holder,
            args.briefed.clone(),
            Some(&here.path),
            ctx.now,
        );
    }
    let tip = briefing
        .candidate
        .handover
        .assessment()
        .and_then(|a| a.branch.as_deref())
        .and_then(|b| ctx.repo.branch_tip_or_remote(b).map(|(tip, _)| tip))
        .or(briefing.candidate.worktree.head);
    if let Some(tip) = tip {
        briefing.recent = history.recent_commits(tip, 5)?;
    }

    // Then what follows from it.
    follow_up(
        ctx,
        &steps,
        &briefing.candidate,
        note_bytes.as_deref(),
        current,
        effects,
    )?;
    Ok(Outcome::Briefing(briefing))
}

/// A side taken of a diverged session, to settle on once the session is local.
struct Settle {
    sides: Vec<crate::services::notes_store::Side>,
    taken: usize,
    id: String,
    /// The content hash of the session's file when the sides were shown (`None`: the
    /// session is restored from the store first).
    file_hash: Option<String>,
}

/// What became of a divergence before anything is written.
enum Taken {
    NotDiverged,
    Side(Settle),
    /// Nobody took a side: the sides, as the report shows them.
    Nobody(Vec<crate::facts::side::SideFacts>),
}

/// The side of the chosen session to settle on, when it diverged: the one `--take`
/// names, or the one asked for. A session restored from the store is restored as that
/// side; a session's files must hold a state the store has.
fn side_taken(
    ctx: &Context,
    args: &ContinueArgs,
    mode: Mode,
    ask: &mut dyn Ask,
    chosen: &mut Candidate,
) -> Result<Taken> {
    let key = chosen.handover.key.clone();
    let sides = match super::settle::sides_of(ctx, chosen)? {
        None if args.take.is_some() => return Err(super::settle::not_diverged(&key)),
        None => return Ok(Taken::NotDiverged),
        Some(sides) => sides,
    };
    let pick = match super::settle::taken(args, &key, &sides)? {
        Some(i) => Some(i),
        None if mode == Mode::Resume => {
            ask.side(&key, &crate::services::notes_store::facts(&sides))
        }
        None => None,
    };
    let Some(taken) = pick else {
        return Ok(Taken::Nobody(crate::services::notes_store::facts(&sides)));
    };
    let id = chosen
        .handover
        .assessment()
        .and_then(|a| a.session())
        .and_then(|s| s.session_id.clone())
        .unwrap_or_default();
    let mut file_hash = None;
    if let Some(stored) = chosen.handover.stored.as_mut() {
        // Restored as the side taken, then settled.
        stored.state = sides[taken].record.state.clone().unwrap_or_default();
    } else if let Some(session) = chosen.session() {
        file_hash = Some(super::settle::check_recorded(ctx, &session, &id)?);
    }
    Ok(Taken::Side(Settle {
        sides,
        taken,
        id,
        file_hash,
    }))
}

/// Make the handover a session of a worktree, as the plan says: migrated, restored
/// from the store, or adopted. The candidate it now is.
fn make_local(
    ctx: &Context,
    history: &mut History<'_>,
    steps: &[Step],
    mut chosen: Candidate,
    current: Option<&Worktree>,
    effects: &mut Vec<Effect>,
) -> Result<Candidate> {
    for step in steps {
        match step {
            Step::Migrate => {
                let migrated = crate::services::legacy::migrate_in(ctx, &chosen.worktree)?;
                effects.push(Effect::Migrated {
                    from: migrated.from.clone(),
                    key: migrated.session.key.clone(),
                });
                chosen = recheck(ctx, history, &migrated.session, chosen.worktree);
            }
            Step::Restore => {
                let here = current.ok_or_else(needs_worktree)?;
                let stored = chosen.handover.stored.clone().expect("from the store");
                let branch = chosen.handover.assessment().and_then(|a| a.branch.clone());
                let place = super::restore::place(ctx, here, branch.as_deref())?;
                let session =
                    super::restore::restore(ctx, &place.wt, &chosen.handover.key, &stored)?;
                effects.push(Effect::Restored {
                    key: session.key.clone(),
                    path: session.dir(),
                    commit: stored.commit,
                    saved_as: stored.saved_as.clone(),
                    other_branch: place.other_branch.clone(),
                });
                chosen = recheck(ctx, history, &session, place.judged);
                chosen.worktree = place.wt;
            }
            Step::Adopt => {
                let wt = current.ok_or_else(needs_worktree)?.clone();
                let session = chosen.session().expect("a copy is a session");
                let from = chosen
                    .handover
                    .copy_of
                    .clone()
                    .or_else(|| recorded_root(&chosen))
                    .unwrap_or_default();
                adopt(ctx, &wt, &session)?;
                effects.push(Effect::Adopted {
                    key: session.key.clone(),
                    from,
                });
                chosen = recheck(ctx, history, &session, wt);
            }
            Step::Render | Step::Clean | Step::Consume => {}
        }
    }
    Ok(chosen)
}

/// Settle the chosen session on the side taken: the candidate it now is.
fn settle_taken(
    ctx: &Context,
    history: &mut History<'_>,
    settle: Settle,
    chosen: &Candidate,
    effects: &mut Vec<Effect>,
) -> Result<Candidate> {
    let session = chosen.session().ok_or_else(needs_worktree)?;
    let wt = chosen.worktree.clone();
    // A session restored just now holds what was restored.
    let file_hash = match settle.file_hash {
        Some(hash) => hash,
        None => crate::model::session::session_hash(State::read(&session.state_file())?.document()),
    };
    let taking = super::settle::Taking {
        id: &settle.id,
        sides: &settle.sides,
        taken: settle.taken,
        file_hash: &file_hash,
    };
    super::settle::settle(ctx, &wt, &session, &taking)?;
    let hash = settle.sides[settle.taken].hash();
    effects.push(Effect::Took {
        key: session.key.clone(),
        hash: hash.get(..12).unwrap_or(&hash).to_owned(),
    });
    Ok(recheck(ctx, history, &session, wt))
}

/// What follows the briefing, as the plan says: `handover.md` regenerated, finished
/// sessions cleaned, the note briefed on (its bytes then) consumed.
fn follow_up(
    ctx: &Context,
    steps: &[Step],
    briefed: &Candidate,
    note_bytes: Option<&[u8]>,
    current: Option<&Worktree>,
    effects: &mut Vec<Effect>,
) -> Result<()> {
    for step in steps {
        match step {
            Step::Render => {
                if let Some(session) = briefed.session() {
                    effects.extend(regenerate(ctx, &session)?);
                }
            }
            Step::Clean => {
                let wt = current.ok_or_else(needs_worktree)?;
                let mut cleaned = crate::services::cleanup::Report {
                    dry_run: false,
                    removed: Vec::new(),
                    skipped: Vec::new(),
                    kept_whole: Vec::new(),
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
                // A finished session kept whole (it holds files the tool did not
                // write) is said, with why; other reasons to skip stay `clean`'s.
                effects.extend(
                    cleaned
                        .kept_whole
                        .into_iter()
                        .map(|(path, left)| Effect::Kept {
                            path,
                            copy: None,
                            why: crate::k!("effect.kept_whole"),
                            detail: left.join(", "),
                        }),
                );
            }
            Step::Consume => {
                if let Some(bytes) = note_bytes {
                    effects.push(consume(ctx, briefed, bytes)?);
                }
            }
            Step::Migrate | Step::Restore | Step::Adopt => {}
        }
    }
    Ok(())
}

/// The worktree root the candidate's state records, when it records one.
fn recorded_root(chosen: &Candidate) -> Option<PathBuf> {
    let view = chosen.handover.view.as_ref()?;
    let root = view.workspace.root.as_deref()?;
    Some(crate::git::normalize(Path::new(root)))
}

/// Whether the candidate is a session of this worktree's files that records a root
/// which is no worktree here (a copy from another clone): one `--adopt` makes this
/// worktree's own. A copy of another worktree of this repository is `copy_of`.
fn from_elsewhere(chosen: &Candidate, current: Option<&Worktree>) -> bool {
    let Some(here) = current else {
        return false;
    };
    chosen.handover.kind == Kind::Session
        && chosen.handover.stored.is_none()
        && chosen.worktree.path == here.path
        && recorded_root(chosen).is_some_and(|root| root != here.path && !root.exists())
}

/// Regenerate the session's `handover.md` when it is not what the state renders to.
/// One that cannot be written (a read-only file system, a directory without write
/// permission) is kept as it is and said: the briefing needs nothing written.
fn regenerate(ctx: &Context, session: &SessionDir) -> Result<Option<Effect>> {
    let path = session.dir().join(sessions::MARKDOWN_FILE);
    match sessions::regenerate_markdown(session, &ctx.settings, ctx.lang) {
        Ok(true) => Ok(Some(Effect::Rendered { path })),
        Ok(false) => Ok(None),
        Err(Error::Io { source, .. }) => Ok(Some(Effect::Kept {
            path,
            copy: None,
            why: crate::k!("effect.render_skipped"),
            detail: source.to_string(),
        })),
        Err(e) => Err(e),
    }
}

/// Make the copy at `session` this worktree's own: `workspace` points at `wt`, a new
/// `session_id`, recorded in the notes store when it is on.
fn adopt(ctx: &Context, wt: &Worktree, session: &SessionDir) -> Result<()> {
    sessions::Transaction::recorded(ctx, wt)?.update(session, |current| {
        let mut doc = current.into_document();
        sessions::point_here(&mut doc, wt);
        doc.insert(
            "session_id".into(),
            serde_json::Value::from(crate::support::id::random_uuid()),
        );
        Ok(doc)
    })?;
    Ok(())
}

/// The candidate `session` now is, checked against git again.
fn recheck(
    ctx: &Context,
    history: &mut History<'_>,
    session: &SessionDir,
    worktree: Worktree,
) -> Candidate {
    let found = Found::Session {
        root: ctx.settings.dir.clone(),
        key: session.key.clone(),
        dir: session.dir(),
    };
    let worktrees = [worktree];
    let mut rechecked = assess::check(
        history,
        &ctx.settings,
        ctx.now,
        &worktrees,
        vec![(0, vec![found])],
        None,
    );
    let handover = rechecked
        .pop()
        .and_then(|w| w.handovers.into_iter().next())
        .expect("just written");
    let [worktree] = worktrees;
    Candidate {
        handle: session.key.clone(),
        handover,
        worktree,
    }
}

/// What reading the handover for the briefing found.
enum Brief {
    /// Every task is done after all.
    Finished(Box<Candidate>),
    Open(Box<Briefing>),
}

/// Read the chosen handover once and build the briefing; for a note, also the exact
/// bytes briefed on (only those may be consumed).
fn brief(args: &ContinueArgs, chosen: Candidate) -> Result<(Brief, Option<Vec<u8>>)> {
    let mut briefing = Briefing {
        candidate: chosen,
        recent: Vec::new(),
        open_tasks: Vec::new(),
        other_tasks: Vec::new(),
        state: None,
        note: None,
        successor: args.successor,
        holder: String::new(),
    };
    let file = briefing.candidate.handover.file.clone();
    match briefing.candidate.handover.kind {
        Kind::Session | Kind::Legacy => {
            // The state as the verdicts read it; read again only if it was not kept.
            let state = match (
                &briefing.candidate.handover.view,
                &briefing.candidate.handover.stored,
            ) {
                (Some(view), _) => std::sync::Arc::clone(view),
                (None, Some(stored)) => {
                    std::sync::Arc::new(State::from_doc(stored.state.doc(), &file)?.into_view())
                }
                (None, None) => std::sync::Arc::new(crate::model::state::View::read(&file)?),
            };
            if !state.is_ready() {
                return Ok((Brief::Finished(Box::new(briefing.candidate)), None));
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
            briefing.state = Some(state);
            Ok((Brief::Open(Box::new(briefing)), None))
        }
        Kind::ContinueHere => {
            let bytes = fsio::read_limited(&file)?;
            briefing.note = Some(Note::parse(&String::from_utf8_lossy(&bytes)));
            Ok((Brief::Open(Box::new(briefing)), Some(bytes)))
        }
    }
}
