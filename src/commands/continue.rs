//! `continue [KEY | PATH]`: find the handover to resume, from any worktree, and brief on
//! it (SPEC section 5).

use std::path::{Path, PathBuf};

use super::Context;
use crate::assess::{self, Handover, Kind};
use crate::cli::ContinueArgs;
use crate::continue_here::Note;
use crate::error::{Error, Result, msg};
use crate::git::{CommitLine, Worktree};
use crate::scan::{self, Found};
use crate::state::{State, Task, TaskStatus};
use crate::store::{self, SessionDir};

/// Where the search for a handover had to go, said before the briefing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Announcement {
    /// Nothing in this worktree, but another worktree has these keys.
    OtherWorktree { path: PathBuf, keys: Vec<String> },
    /// Nothing in any worktree, but the notes store has these keys.
    Store { keys: Vec<String> },
}

impl std::fmt::Display for Announcement {
    /// The English sentence (JSON output carries this).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Announcement::OtherWorktree { path, keys } => write!(
                f,
                "no sessions here, but worktree {} has: {}",
                path.display(),
                keys.join(", ")
            ),
            Announcement::Store { keys } => write!(
                f,
                "no sessions in any worktree, but the notes store has: {}",
                keys.join(", ")
            ),
        }
    }
}

/// A handover that could be resumed.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub handover: Handover,
    pub worktree: Worktree,
    /// What to pass to `git handover continue` to pick this one.
    pub handle: String,
}

impl Candidate {
    fn session(&self) -> Option<SessionDir> {
        match self.handover.kind {
            Kind::Session => {
                let dir = self.handover.file.parent()?;
                let root = self
                    .handover
                    .root
                    .as_deref()
                    .map(|r| self.worktree.path.join(r))?;
                Some(SessionDir {
                    root,
                    key: self.handover.key.clone(),
                })
                .filter(|s| s.dir() == dir)
            }
            _ => None,
        }
    }
}

/// Something `continue` did besides briefing, said in one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    Migrated {
        from: PathBuf,
        key: String,
    },
    Rendered {
        path: PathBuf,
    },
    Cleaned {
        path: PathBuf,
    },
    Consumed {
        path: PathBuf,
        /// Where the copy went: a file, or the notes store (`<ref> on <commit>`).
        copy: String,
        committed: bool,
    },
    /// A session found only in the notes store was written into this worktree.
    Restored {
        key: String,
        path: PathBuf,
        commit: String,
    },
}

#[derive(Debug)]
pub struct Briefing {
    pub candidate: Candidate,
    /// Last commits of the branch, for orientation.
    pub recent: Vec<CommitLine>,
    /// The tasks a successor picks up (`in_progress`, `blocked`), in order.
    pub open_tasks: Vec<Task>,
    /// Other unfinished tasks (`pending` and the like), by id.
    pub other_tasks: Vec<String>,
    pub note: Option<Note>,
    pub successor: bool,
}

#[derive(Debug)]
pub enum Outcome {
    /// Nothing to resume anywhere.
    Nothing,
    /// Several candidates and no terminal to ask on.
    Choose(Vec<Candidate>),
    /// The chosen session has no open task left.
    AllComplete(Box<Candidate>),
    Briefing(Box<Briefing>),
}

#[derive(Debug)]
pub struct Report {
    /// "no sessions here, but worktree … has: …", when the search left this worktree.
    pub announcements: Vec<Announcement>,
    pub outcome: Outcome,
    pub effects: Vec<Effect>,
    /// Handover files that could not be read and were passed over.
    pub skipped: Vec<String>,
}

/// Whether `continue` may change anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Migrate, regenerate, clean and consume, as `git handover continue` does.
    Resume,
    /// Only look: what `hook session-start` does before every agent start.
    ReadOnly,
}

/// `choose` is asked to pick among several candidates (it returns an index), or returns
/// `None` when nobody can be asked.
pub fn run(
    ctx: &Context,
    args: &ContinueArgs,
    mode: Mode,
    choose: &mut dyn FnMut(&[Candidate]) -> Option<usize>,
) -> Result<Report> {
    let worktrees = ctx.repo.worktrees()?;
    let current_path = ctx.repo.current_worktree();
    let current = current_path
        .as_ref()
        .and_then(|c| worktrees.iter().position(|w| &w.path == c));
    let mut report = Report {
        announcements: Vec::new(),
        outcome: Outcome::Nothing,
        effects: Vec::new(),
        skipped: Vec::new(),
    };

    let candidates = if let Some(target) = &args.target {
        let (wi, found) = explicit(ctx, &worktrees, current, target)?;
        assessed(
            ctx,
            &worktrees,
            vec![(wi, vec![found])],
            current_path.as_deref(),
            current,
            &mut report,
        )?
    } else if team_mode(args) {
        let wi = current.ok_or_else(needs_worktree)?;
        let wt = &worktrees[wi];
        let store::Owner::Team { team, agent } = ctx.owner(&args.team, wt)? else {
            unreachable!("team mode was asked for")
        };
        let key = format!("{team}/{agent}");
        let found: Vec<Found> = scan::roots(&ctx.settings.dir)
            .into_iter()
            .map(|root| Found::Session {
                dir: wt.path.join(&root).join(&key),
                root,
                key: key.clone(),
            })
            .filter(
                |f| matches!(f, Found::Session { dir, .. } if dir.join(scan::STATE_FILE).is_file()),
            )
            .take(1)
            .collect();
        assessed(
            ctx,
            &worktrees,
            vec![(wi, found)],
            current_path.as_deref(),
            current,
            &mut report,
        )?
    } else {
        let here: Vec<usize> = current.into_iter().collect();
        let mut found = resumable(
            ctx,
            &worktrees,
            &here,
            current_path.as_deref(),
            current,
            &mut report,
        )?;
        if found.is_empty() {
            let others: Vec<usize> = (0..worktrees.len())
                .filter(|i| Some(*i) != current)
                .collect();
            found = resumable(
                ctx,
                &worktrees,
                &others,
                current_path.as_deref(),
                current,
                &mut report,
            )?;
            let mut by_worktree: Vec<(&Path, Vec<&str>)> = Vec::new();
            for c in &found {
                match by_worktree.iter_mut().find(|(p, _)| *p == c.worktree.path) {
                    Some((_, keys)) => keys.push(&c.handover.key),
                    None => by_worktree.push((&c.worktree.path, vec![&c.handover.key])),
                }
            }
            report.announcements = by_worktree
                .into_iter()
                .map(|(path, keys)| Announcement::OtherWorktree {
                    path: path.to_owned(),
                    keys: keys.into_iter().map(str::to_owned).collect(),
                })
                .collect();
        }
        if found.is_empty() {
            let stored = store_candidates(ctx, &worktrees, None)?;
            if !stored.is_empty() {
                let wi = current.unwrap_or(0);
                found = assessed(
                    ctx,
                    &worktrees,
                    vec![(wi, stored)],
                    current_path.as_deref(),
                    current,
                    &mut report,
                )?;
                let keys: Vec<String> = found.iter().map(|c| c.handover.key.clone()).collect();
                if !keys.is_empty() {
                    report.announcements.push(Announcement::Store { keys });
                }
            }
        }
        found
    };

    let chosen = match candidates.len() {
        0 => return Ok(report),
        1 => candidates.into_iter().next().expect("one"),
        _ => match choose(&candidates) {
            Some(i) if i < candidates.len() => candidates.into_iter().nth(i).expect("in range"),
            _ => {
                report.outcome = Outcome::Choose(candidates);
                return Ok(report);
            }
        },
    };
    report.outcome = resume(
        ctx,
        args,
        mode,
        chosen,
        current.map(|i| &worktrees[i]),
        &mut report.effects,
    )?;
    Ok(report)
}

fn needs_worktree() -> Error {
    Error::usage_hint(msg("err.bare", &[]), msg("err.bare_hint_or_name", &[]))
}

fn team_mode(args: &ContinueArgs) -> bool {
    let set = |flag: &Option<String>, var: &str| {
        flag.as_deref().is_some_and(|v| !v.is_empty())
            || std::env::var(var).is_ok_and(|v| !v.is_empty())
    };
    set(&args.team.team, "GIT_HANDOVER_TEAM") || set(&args.team.agent, "GIT_HANDOVER_AGENT")
}

/// READY sessions, legacy state and the continue-here note of the worktrees `indices`.
fn resumable(
    ctx: &Context,
    worktrees: &[Worktree],
    indices: &[usize],
    current_path: Option<&Path>,
    current: Option<usize>,
    report: &mut Report,
) -> Result<Vec<Candidate>> {
    let found = indices
        .iter()
        .filter(|i| worktrees[**i].exists && !worktrees[**i].is_bare)
        .map(|i| {
            (
                *i,
                scan::scan_worktree(&worktrees[*i].path, &ctx.settings.dir),
            )
        })
        .collect();
    let mut all = assessed(ctx, worktrees, found, current_path, current, report)?;
    all.retain(|c| {
        c.handover.kind != Kind::Session
            || c.handover
                .assessment
                .as_ref()
                .is_some_and(|a| a.status.as_deref() == Some(crate::state::READY))
    });
    Ok(all)
}

/// Check what was found against git and make candidates of what could be read.
fn assessed(
    ctx: &Context,
    worktrees: &[Worktree],
    found: Vec<(usize, Vec<Found>)>,
    current_path: Option<&Path>,
    current: Option<usize>,
    report: &mut Report,
) -> Result<Vec<Candidate>> {
    let checked = assess::check(
        &ctx.repo,
        &ctx.settings,
        ctx.now,
        worktrees,
        found,
        current_path,
    )?;
    let mut out = Vec::new();
    for wh in checked {
        let here = current.is_some_and(|c| worktrees[c].path == wh.worktree.path);
        for h in wh.handovers {
            if let Some(e) = &h.error {
                report.skipped.push(e.clone());
                continue;
            }
            let handle = match (h.kind, here) {
                (Kind::Session, false) => h.file.parent().unwrap_or(&h.file).display().to_string(),
                (_, true) => h.key.clone(),
                (_, false) => h.file.display().to_string(),
            };
            out.push(Candidate {
                handover: h,
                worktree: wh.worktree.clone(),
                handle,
            });
        }
    }
    Ok(out)
}

/// An explicit key or path: the worktree it is in and what it is.
fn explicit(
    ctx: &Context,
    worktrees: &[Worktree],
    current: Option<usize>,
    target: &str,
) -> Result<(usize, Found)> {
    let path = ctx.cwd.join(target);
    if std::fs::symlink_metadata(&path).is_ok() {
        let path = crate::git::normalize(&path);
        let wi = worktrees
            .iter()
            .enumerate()
            .filter(|(_, w)| path.starts_with(&w.path))
            .max_by_key(|(_, w)| w.path.as_os_str().len())
            .map(|(i, _)| i)
            .or(current)
            .ok_or_else(needs_worktree)?;
        let wt = &worktrees[wi];
        let (dir, file) = if path.is_dir() {
            (path.clone(), path.join(scan::STATE_FILE))
        } else {
            (path.parent().unwrap_or(&path).to_owned(), path.clone())
        };
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.eq_ignore_ascii_case("CONTINUE_HERE.md")
            || (path.is_file()
                && path
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("md")))
        {
            return Ok((wi, Found::ContinueHere { path }));
        }
        if name != scan::STATE_FILE || !file.is_file() {
            return Err(Error::usage(msg(
                "err.not_a_target",
                &[("target", &target)],
            )));
        }
        if file == wt.path.join(scan::LEGACY_STATE) {
            return Ok((wi, Found::Legacy { path: file }));
        }
        for root in scan::roots(&ctx.settings.dir) {
            if let Ok(rel) = dir.strip_prefix(wt.path.join(&root)) {
                let key = rel.to_string_lossy().into_owned();
                if !key.is_empty() {
                    return Ok((wi, Found::Session { root, key, dir }));
                }
            }
        }
        // A session directory outside the handover roots: its parent acts as the root.
        let root = dir.parent().unwrap_or(&dir).display().to_string();
        let key = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        return Ok((wi, Found::Session { root, key, dir }));
    }
    crate::paths::check_relative("what.session_key", target).map_err(Error::usage)?;
    let order: Vec<usize> = current
        .into_iter()
        .chain((0..worktrees.len()).filter(|i| Some(*i) != current))
        .collect();
    for wi in order {
        let wt = &worktrees[wi];
        if !wt.exists || wt.is_bare {
            continue;
        }
        for root in scan::roots(&ctx.settings.dir) {
            let dir = wt.path.join(&root).join(target);
            if dir.join(scan::STATE_FILE).is_file() && !dir.is_symlink() {
                return Ok((
                    wi,
                    Found::Session {
                        root,
                        key: target.to_owned(),
                        dir,
                    },
                ));
            }
        }
    }
    if let Some(found) = store_candidates(ctx, worktrees, Some(target))?
        .into_iter()
        .next()
    {
        return Ok((current.unwrap_or(0), found));
    }
    Err(Error::NothingToDo {
        message: msg(
            "err.no_session_anywhere",
            &[("key", &format!("{target:?}"))],
        ),
    })
}

/// Unfinished sessions found only in the notes store (only `key`, when given).
fn store_candidates(
    ctx: &Context,
    worktrees: &[Worktree],
    key: Option<&str>,
) -> Result<Vec<Found>> {
    // No store, nothing to find: skip the scan of every worktree (the hook's usual path
    // in a repository without handovers).
    if ctx.repo.ref_target(&ctx.settings.notes_ref)?.is_none() {
        return Ok(Vec::new());
    }
    let mut on_disk = Vec::new();
    for wt in worktrees.iter().filter(|w| w.exists && !w.is_bare) {
        for f in scan::scan_worktree(&wt.path, &ctx.settings.dir) {
            if let Found::Session { key, .. } = f {
                on_disk.push(key);
            }
        }
    }
    let on_disk: Vec<&str> = on_disk.iter().map(String::as_str).collect();
    let (mut found, _skipped) = super::status::store_only(ctx, &on_disk)?;
    if let Some(key) = key {
        found.retain(|f| matches!(f, Found::Stored { record, .. } if record.key == key));
    }
    Ok(found)
}

/// Carry out the side effects and brief on the chosen handover.
fn resume(
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
        if status.as_deref() == Some(crate::state::ALL_COMPLETE) {
            return Ok(Outcome::AllComplete(Box::new(chosen)));
        }
        let migrated = super::migrate::migrate_in(ctx, &chosen.worktree)?;
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
            {
                if store::render(&session, &ctx.settings, ctx.lang)? {
                    effects.push(Effect::Rendered {
                        path: session.dir().join(store::MARKDOWN_FILE),
                    });
                }
            }
        }
        Kind::ContinueHere => {
            let text = std::fs::read(&briefing.candidate.handover.file)
                .map_err(|e| Error::io(&briefing.candidate.handover.file, "read", e))?;
            briefing.note = Some(Note::parse(&String::from_utf8_lossy(&text)));
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

    if ctx.settings.auto_clean && mode == Mode::Resume {
        if let Some(wt) = current {
            let mut cleaned = super::clean::Report {
                dry_run: false,
                removed: Vec::new(),
                skipped: Vec::new(),
            };
            super::clean::clean_worktree(
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
    }
    if briefing.candidate.handover.kind == Kind::ContinueHere && !args.keep && mode == Mode::Resume
    {
        effects.push(consume(ctx, &briefing.candidate)?);
    }
    Ok(Outcome::Briefing(Box::new(briefing)))
}

/// Write a session of the notes store into `wt`'s handover root under its key, with
/// `workspace` pointing at `wt` (the worktree it was saved in may be gone), and the
/// time it was written kept. Refuses to overwrite a session that is there.
fn restore(ctx: &Context, wt: &Worktree, key: &str, stored: &assess::Stored) -> Result<SessionDir> {
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
    crate::session::finish(&mut doc);
    let state = State::from_doc(doc, &file)?;
    if !store::create(&session, &state, &ctx.settings, ctx.lang)? {
        return Err(Error::usage_hint(
            msg(
                "err.restore_exists",
                &[("key", &key), ("path", &file.display())],
            ),
            msg("err.resume_it", &[("key", &key)]),
        ));
    }
    let written = store::Written {
        session: session.clone(),
        created: true,
        changed: true,
        state,
        noted: None,
    };
    ctx.record_at(head, &ctx.session_record(&written, wt))?;
    Ok(session)
}

/// Keep a copy of the note under the handover root's `consumed/`, read back.
fn copy_to_consumed(ctx: &Context, note: &Candidate, path: &Path, bytes: &[u8]) -> Result<PathBuf> {
    let root = note.worktree.path.join(&ctx.settings.dir);
    store::make_dirs(&root, Path::new("consumed"))?;
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
    while copy.exists() {
        copy = root.join("consumed").join(format!("{stamp}-{n}-{name}"));
        n += 1;
    }
    crate::fsio::write_atomic(&copy, bytes)?;
    if std::fs::read(&copy).ok().as_deref() != Some(bytes) {
        return Err(Error::usage(msg(
            "err.copy_unreadable",
            &[("path", &copy.display())],
        )));
    }
    Ok(copy)
}

/// Keep a copy of the note (in the notes store when it is enabled, else under the
/// handover root's `consumed/`), then remove it: a tracked note with `git rm` and a
/// commit of that path alone.
fn consume(ctx: &Context, note: &Candidate) -> Result<Effect> {
    let path = note.handover.file.clone();
    let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, "read", e))?;
    let rel = path
        .strip_prefix(&note.worktree.path)
        .unwrap_or(&path)
        .to_owned();
    let copy = if ctx.store_enabled() {
        let record = crate::notes::Record {
            key: rel.display().to_string(),
            worktree: Some(note.worktree.path.display().to_string()),
            branch: note.worktree.branch.clone(),
            saved_at: ctx.now,
            kind: crate::notes::RecordKind::ContinueHere,
            state: None,
            text: Some(String::from_utf8_lossy(&bytes).into_owned()),
        };
        let commit = ctx.record(&record)?.expect("the store is enabled");
        format!("{} on {}", ctx.settings.notes_ref, commit.short())
    } else {
        copy_to_consumed(ctx, note, &path, &bytes)?
            .display()
            .to_string()
    };
    let committed = crate::git_cli::remove_tracked(
        &note.worktree.path,
        &rel,
        &format!(
            "Consume {} (briefed by git handover continue)",
            rel.display()
        ),
    )?;
    if !committed {
        std::fs::remove_file(&path).map_err(|e| Error::io(&path, "remove", e))?;
    }
    Ok(Effect::Consumed {
        path,
        copy,
        committed,
    })
}
