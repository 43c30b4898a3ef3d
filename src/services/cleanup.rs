//! Removing finished sessions: what `clean` does in every worktree and `continue` does
//! in its own.

use std::path::{Path, PathBuf};

use crate::model::state::State;
use crate::model::verdict;
use crate::services::context::Context;
use crate::services::scan::{self, Found};
use crate::services::sessions::{self, Removal, SessionDir};
use crate::support::error::{Error, Problem, msg};

/// A session `clean` removed (or, in a dry run, would remove).
pub struct Removed {
    pub path: PathBuf,
    pub key: String,
    pub kept_other_files: bool,
    /// What was left in the directory (not written by the tool).
    pub left: Vec<String>,
}

/// What one clean did: removed sessions and paths left alone.
pub struct Report {
    pub dry_run: bool,
    pub removed: Vec<Removed>,
    /// Paths left alone, with the reason.
    pub skipped: Vec<(PathBuf, Problem)>,
    /// Finished sessions kept whole (also in `skipped`): each holds files the tool did
    /// not write, named.
    pub kept_whole: Vec<(PathBuf, Vec<String>)>,
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
            .push((link, said(crate::k!("clean.link"), &[])));
    }
    let mut candidates: Vec<(SessionDir, Option<State>)> = Vec::new();
    for found in scan::scan_worktree(&wt.path, &ctx.settings.dir) {
        let Found::Session { root, key, dir } = found else {
            continue;
        };
        if let Some(team) = team
            && key.split('/').next() != Some(team)
        {
            continue;
        }
        let session = SessionDir {
            root: wt.path.join(root),
            key,
        };
        match State::read(&dir.join(scan::STATE_FILE)) {
            Ok(state) => candidates.push((session, Some(state))),
            Err(e) => report.skipped.push((dir, e.into())),
        }
    }
    if team.is_some() {
        let unfinished: Vec<&str> = candidates
            .iter()
            .filter(|(_, s)| s.as_ref().is_none_or(|s| s.is_ready()))
            .map(|(s, _)| s.key.as_str())
            .collect();
        if !unfinished.is_empty() {
            let dir = candidates[0].0.root.join(team.unwrap_or_default());
            report.skipped.push((
                dir,
                said(
                    crate::k!("clean.unfinished"),
                    &[("keys", &unfinished.join(", "))],
                ),
            ));
            return;
        }
    }
    // Finished (and, without a team, old enough): judged on the first read to choose,
    // and again under the session's lock on what the file holds then.
    let qualifies = |s: &State| {
        !s.is_ready()
            && (team.is_some()
                || s.generated_at
                    .as_ref()
                    .is_some_and(|g| verdict::age(g.at, ctx.now) >= limit))
    };
    candidates.retain(|(_, state)| state.as_ref().is_some_and(qualifies));
    for (session, _) in candidates {
        let path = session.dir();
        // A directory holding files the tool did not write is kept whole, said why:
        // removing only the tool's own would leave a directory no command lists.
        let foreign = sessions::session_entries(&path, true);
        if !foreign.is_empty() {
            report.skipped.push((path.clone(), kept_whole(&foreign)));
            report.kept_whole.push((path, foreign));
            continue;
        }
        if dry_run {
            before_removing(&path, true);
            report.removed.push(Removed {
                path,
                key: session.key,
                kept_other_files: false,
                left: Vec::new(),
            });
            continue;
        }
        crate::support::testing::pause("clean");
        let removal = sessions::remove_session(&session, &ctx.settings, qualifies, || {
            before_removing(&path, false);
        });
        match removal {
            Ok(Removal::Changed) => report
                .skipped
                .push((path, said(crate::k!("clean.changed"), &[]))),
            Ok(Removal::KeptWhole(left)) => {
                report.skipped.push((path.clone(), kept_whole(&left)));
                report.kept_whole.push((path, left));
            }
            Ok(outcome) => {
                let left = match outcome {
                    Removal::KeptOtherFiles(left) => left,
                    _ => Vec::new(),
                };
                report.removed.push(Removed {
                    path,
                    key: session.key,
                    kept_other_files: !left.is_empty(),
                    left,
                });
            }
            Err(e) => report.skipped.push((path, e.into())),
        }
    }
}

/// Why a finished session was kept whole: the files in it the tool did not write.
fn kept_whole(left: &[String]) -> Problem {
    let left: Vec<String> = left
        .iter()
        .map(|n| crate::support::text::escape(n))
        .collect();
    said(crate::k!("clean.kept_whole"), &[("left", &left.join(", "))])
}

/// A reason to leave something alone, kept typed until it is shown.
fn said(key: &'static str, args: &[(&'static str, &dyn std::fmt::Display)]) -> Problem {
    Error::usage(msg(key, args)).into()
}
