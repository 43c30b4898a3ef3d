//! Finding the candidates: by key or path, team mode, this worktree, the others, and
//! the notes store.

use std::path::Path;

use super::{Candidate, ContinueArgs, Report};
use crate::git::{History, Worktree};
use crate::services::assess::{self, Assessment, Kind};
use crate::services::context::Context;
use crate::services::scan::{self, Found};
use crate::support::error::{Error, Result, msg};

pub(super) fn needs_worktree() -> Error {
    Error::usage_hint(
        msg(crate::k!("err.bare"), &[]),
        msg(crate::k!("err.bare_hint_or_name"), &[]),
    )
}

pub(super) fn team_mode(args: &ContinueArgs) -> bool {
    let set = |flag: &Option<String>, var: &str| {
        flag.as_deref().is_some_and(|v| !v.is_empty())
            || std::env::var(var).is_ok_and(|v| !v.is_empty())
    };
    set(&args.team.team, "GIT_HANDOVER_TEAM") || set(&args.team.agent, "GIT_HANDOVER_AGENT")
}

/// READY sessions, legacy state and the continue-here note of the worktrees `indices`.
pub(super) fn resumable(
    ctx: &Context,
    history: &mut History<'_>,
    worktrees: &[Worktree],
    indices: &[usize],
    current_path: Option<&Path>,
    current: Option<usize>,
    report: &mut Report,
) -> Vec<Candidate> {
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
    let mut all = assessed(
        ctx,
        history,
        worktrees,
        found,
        current_path,
        current,
        report,
    );
    // Finished sessions of this worktree are not resumed, but said, so that "nothing
    // to resume" does not read as "no sessions".
    for c in &all {
        let here = current.is_some_and(|i| worktrees[i].path == c.worktree.path);
        if here && c.handover.assessment().is_some_and(Assessment::finished) {
            report.finished_here.push(c.handover.key.clone());
        }
    }
    all.retain(|c| {
        c.handover.kind != Kind::Session || c.handover.assessment().is_some_and(|a| !a.finished())
    });
    all
}

/// Check what was found against git and make candidates of what could be read.
pub(super) fn assessed(
    ctx: &Context,
    history: &mut History<'_>,
    worktrees: &[Worktree],
    found: Vec<(usize, Vec<Found>)>,
    current_path: Option<&Path>,
    current: Option<usize>,
    report: &mut Report,
) -> Vec<Candidate> {
    let checked = assess::check(
        history,
        &ctx.settings,
        ctx.now,
        worktrees,
        found,
        current_path,
    );
    let mut out = Vec::new();
    for wh in checked {
        let here = current.is_some_and(|c| worktrees[c].path == wh.worktree.path);
        for h in wh.handovers {
            if let Some(e) = h.error() {
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
    out
}

/// An explicit key or path: the worktree it is in and what it is.
pub(super) fn explicit(
    ctx: &Context,
    worktrees: &[Worktree],
    current: Option<usize>,
    target: &str,
) -> Result<(usize, Found)> {
    let path = ctx.cwd.join(target);
    let lower = target.to_ascii_lowercase();
    // A target that can only be a path (a key never looks like these) and is not there.
    let path_like = target.starts_with('/')
        || target.starts_with("./")
        || target.starts_with("../")
        || target == "."
        || target == ".."
        || Path::new(&lower)
            .extension()
            .is_some_and(|e| e == "md" || e == "json");
    let no_such_path = || {
        Error::usage(msg(
            crate::k!("err.no_such_path"),
            &[("path", &path.display())],
        ))
    };
    let meta = std::fs::symlink_metadata(&path);
    if path_like && meta.is_err() {
        return Err(no_such_path());
    }
    if let Ok(meta) = meta {
        // A link is never followed to a handover: the file must be where it is named.
        if meta.file_type().is_symlink() {
            return Err(Error::NotRegular {
                path,
                kind: crate::k!("file.link"),
            });
        }
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
        let not_a_target =
            || Error::usage(msg(crate::k!("err.not_a_target"), &[("target", &target)]));
        if !crate::support::paths::plain_below(&wt.path, &path) {
            return Err(Error::usage(msg(
                crate::k!("err.outside_worktree"),
                &[("path", &path.display()), ("worktree", &wt.path.display())],
            )));
        }
        let (dir, file) = if meta.is_dir() {
            (path.clone(), path.join(scan::STATE_FILE))
        } else {
            (path.parent().unwrap_or(&path).to_owned(), path.clone())
        };
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if meta.is_file() && name.eq_ignore_ascii_case("CONTINUE_HERE.md") {
            return Ok((wi, Found::ContinueHere { path }));
        }
        let state_is_file = std::fs::symlink_metadata(&file).is_ok_and(|m| m.is_file());
        if name != scan::STATE_FILE || !state_is_file {
            return Err(not_a_target());
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
    crate::support::paths::check_relative(crate::k!("what.session_key"), target)
        .map_err(Error::usage)?;
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
            // Anything but a directory where the state belongs is the session named:
            // a link or a device is then refused by name, never said not to exist.
            let state = std::fs::symlink_metadata(dir.join(scan::STATE_FILE));
            if state.is_ok_and(|m| !m.is_dir()) && !dir.is_symlink() {
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
            crate::k!("err.no_session_or_store"),
            &[("key", &format!("{target:?}"))],
        ),
        hint: Some(msg(crate::k!("err.no_session_or_store_hint"), &[])),
    })
}

/// Unfinished sessions found only in the notes store (only `key`, when given).
pub(super) fn store_candidates(
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
            if let Found::Session { key, dir, .. } = f {
                on_disk.push((key, scan::session_id_of(&dir)));
            }
        }
    }
    let on_disk: Vec<crate::services::notes_store::OnDisk<'_>> = on_disk
        .iter()
        .map(|(key, id)| crate::services::notes_store::OnDisk {
            key,
            session_id: id.as_deref(),
        })
        .collect();
    let (mut found, _skipped) = ctx.store().only(&on_disk);
    if let Some(key) = key {
        found.retain(|f| matches!(f, Found::Stored { record, .. } if record.key == key));
    }
    Ok(found)
}
