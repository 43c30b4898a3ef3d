//! `clean`: remove finished (`ALL_COMPLETE`) sessions older than a limit, in every
//! worktree, or a finished team's directory with `--team`.

use std::path::{Path, PathBuf};

use super::Context;
use crate::cli::CleanArgs;
use crate::error::{Error, Result, msg};
use crate::scan::{self, Found};
use crate::state::State;
use crate::store::{self, Removal, SessionDir};
use crate::verdict;

pub struct Removed {
    pub path: PathBuf,
    pub key: String,
    pub kept_other_files: bool,
}

pub struct Report {
    pub dry_run: bool,
    pub removed: Vec<Removed>,
    /// Paths left alone, with the reason.
    pub skipped: Vec<(PathBuf, String)>,
}

/// `before_removing` is called with each path (and whether it is a dry run) before it
/// is removed, so the caller can say so first.
pub fn run(
    ctx: &Context,
    args: &CleanArgs,
    before_removing: &mut dyn FnMut(&Path, bool),
) -> Result<Report> {
    let limit = match &args.older_than {
        Some(v) => crate::config::parse_duration(v).map_err(|expected| Error::Usage {
            message: msg(
                "err.older_than",
                &[("value", &format!("{v:?}")), ("expected", &expected)],
            ),
            hint: None,
        })?,
        None => ctx.settings.clean_after,
    };
    if let Some(team) = &args.team {
        crate::paths::check_relative("what.team", team).map_err(Error::usage)?;
        if team.contains('/') {
            return Err(Error::usage(
                msg("path.one_component", &[("value", &format!("{team:?}"))])
                    .word("what", "what.team"),
            ));
        }
    }
    let mut report = Report {
        dry_run: args.dry_run,
        removed: Vec::new(),
        skipped: Vec::new(),
    };
    for wt in ctx.repo.worktrees()? {
        clean_worktree(
            ctx,
            &wt,
            args.team.as_deref(),
            limit,
            args.dry_run,
            before_removing,
            &mut report,
        );
    }
    Ok(report)
}

/// Clean one worktree: its finished sessions older than `limit`, or with `team`, that
/// team's sessions when all of them are finished. What is left alone goes to `skipped`.
pub fn clean_worktree(
    ctx: &Context,
    wt: &crate::git::Worktree,
    team: Option<&str>,
    limit: std::time::Duration,
    dry_run: bool,
    before_removing: &mut dyn FnMut(&Path, bool),
    report: &mut Report,
) {
    if !wt.exists || wt.is_bare {
        return;
    }
    for link in scan::links(&wt.path, &ctx.settings.dir) {
        report
            .skipped
            .push((link, "a symbolic link: not followed, not removed".into()));
    }
    let mut candidates: Vec<(SessionDir, Option<State>)> = Vec::new();
    for found in scan::scan_worktree(&wt.path, &ctx.settings.dir) {
        let Found::Session { root, key, dir } = found else {
            continue;
        };
        if let Some(team) = team {
            if key.split('/').next() != Some(team) {
                continue;
            }
        }
        let session = SessionDir {
            root: wt.path.join(root),
            key,
        };
        match State::read(&dir.join(scan::STATE_FILE)) {
            Ok(state) => candidates.push((session, Some(state))),
            Err(e) => report.skipped.push((dir, e.to_string())),
        }
    }
    if team.is_some() {
        let unfinished: Vec<&str> = candidates
            .iter()
            .filter(|(_, s)| s.as_ref().is_none_or(State::is_ready))
            .map(|(s, _)| s.key.as_str())
            .collect();
        if !unfinished.is_empty() {
            let dir = candidates[0].0.root.join(team.unwrap_or_default());
            report.skipped.push((
                dir,
                format!(
                    "the team has unfinished sessions: {}",
                    unfinished.join(", ")
                ),
            ));
            return;
        }
    } else {
        candidates.retain(|(_, state)| {
            state.as_ref().is_some_and(|s| {
                !s.is_ready()
                    && s.generated_at
                        .as_ref()
                        .is_some_and(|g| verdict::age(g.at, ctx.now) >= limit)
            })
        });
    }
    for (session, _) in candidates {
        let path = session.dir();
        before_removing(&path, dry_run);
        if dry_run {
            report.removed.push(Removed {
                path,
                key: session.key,
                kept_other_files: false,
            });
            continue;
        }
        match store::remove_session(&session, &ctx.settings) {
            Ok(outcome) => report.removed.push(Removed {
                path,
                key: session.key,
                kept_other_files: outcome == Removal::KeptOtherFiles,
            }),
            Err(e) => report.skipped.push((path, e.to_string())),
        }
    }
}
