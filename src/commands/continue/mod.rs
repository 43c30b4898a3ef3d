//! `continue [KEY | PATH]`: find the handover to resume, from any worktree, and brief on
//! it (SPEC section 5).

mod args;
mod consume;
mod find;
mod plan;
mod report;
mod restore;
mod resume;
mod settle;

use find::{assessed, explicit, needs_worktree, resumable, store_candidates, team_mode};
use resume::resume;

/// The sides of a diverged session, which [`Ask::side`] chooses between.
pub use crate::facts::side::SideFacts;
pub use args::{CONTINUE_HELP, ContinueArgs};
pub use report::{Announcement, Briefing, Candidate, Effect, Outcome, Report};

use std::path::Path;

use crate::git::{History, Worktree};
use crate::services::context::Context;
use crate::services::scan::{self, Found};
use crate::services::sessions;
use crate::support::error::Result;

/// Whether `continue` may change anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Migrate, regenerate, clean and consume, as `git handover continue` does.
    Resume,
    /// Only look: what `hook session-start` does before every agent start.
    ReadOnly,
}

/// Who `continue` can ask: each question returns an index into what it was shown, or
/// `None` when nobody can be asked (no terminal, the hook, JSON output).
pub trait Ask {
    /// Which of several candidates to resume.
    fn candidate(&mut self, candidates: &[Candidate]) -> Option<usize>;
    /// Which side of the diverged session `key` to take.
    fn side(&mut self, key: &str, sides: &[crate::facts::side::SideFacts]) -> Option<usize>;
}

/// Nobody to ask.
pub struct Nobody;

impl Ask for Nobody {
    fn candidate(&mut self, _: &[Candidate]) -> Option<usize> {
        None
    }
    fn side(&mut self, _: &str, _: &[crate::facts::side::SideFacts]) -> Option<usize> {
        None
    }
}

pub fn run(ctx: &Context, args: &ContinueArgs, mode: Mode, ask: &mut dyn Ask) -> Result<Report> {
    // Every history question of the run is asked through one session.
    let mut history = ctx.repo.history();
    let mut report = search_and_resume(ctx, &mut history, args, mode, ask)?;
    report.graph_hint = history.commit_graph_hint();
    // The hook does not build the store's index: what it did not look at, it says.
    let store = ctx.store();
    if store.unindexed() {
        // The next command indexes it, unless no index can be kept: then that is said.
        let said = match store.index_cannot_be_kept() {
            None => Announcement::StoreUnindexed,
            Some((dir, why)) => Announcement::StoreUnkept { dir, why },
        };
        report.announcements.insert(0, said);
    }
    Ok(report)
}

/// [`run`] with its history session.
fn search_and_resume(
    ctx: &Context,
    history: &mut History<'_>,
    args: &ContinueArgs,
    mode: Mode,
    ask: &mut dyn Ask,
) -> Result<Report> {
    let current_path = ctx.repo.current_worktree();
    // First in this worktree alone, without listing the others (the hook's usual path):
    // the answer stands when every candidate is this worktree's own and records no
    // other worktree as its root; otherwise (or on an error) the search starts again
    // with every worktree, as if this had not been tried.
    // A target that names a path is looked for among all worktrees at once (a path may
    // lie in a worktree nested in this one).
    let names_path = args
        .target
        .as_deref()
        .is_some_and(|t| std::fs::symlink_metadata(ctx.cwd.join(t)).is_ok());
    let default = args.target.is_none() && !team_mode(args);
    // When nothing here can be resumed, what was read here stands as it is (whether a
    // session can be resumed depends on its state alone, not on the other worktrees):
    // the search goes on among the others without reading and judging these again.
    let mut nothing_here: Option<Report> = None;
    if !names_path && let Some(here) = ctx.repo.this_worktree() {
        let one = [here];
        let mut report = Report::new(args);
        let found = if default {
            Ok(resumable(
                ctx,
                history,
                &one,
                &[0],
                current_path.as_deref(),
                Some(0),
                &mut report,
            ))
        } else {
            candidates(
                ctx,
                history,
                args,
                &one,
                Some(0),
                current_path.as_deref(),
                &mut report,
                false,
            )
        };
        match found {
            Ok(found)
                if !found.is_empty()
                    && report.announcements.is_empty()
                    && found.iter().all(|c| own(c, &one[0])) =>
            {
                return finish(ctx, history, args, mode, ask, found, Some(&one[0]), report);
            }
            Ok(found) if default && found.is_empty() => nothing_here = Some(report),
            _ => {}
        }
    }
    let worktrees = ctx.repo.worktrees()?;
    let current = current_path
        .as_ref()
        .and_then(|c| worktrees.iter().position(|w| &w.path == c));
    let here_searched = nothing_here.is_some() && current.is_some();
    let mut report = match nothing_here {
        Some(report) if here_searched => report,
        _ => Report::new(args),
    };
    let found = candidates(
        ctx,
        history,
        args,
        &worktrees,
        current,
        current_path.as_deref(),
        &mut report,
        here_searched,
    )?;
    finish(
        ctx,
        history,
        args,
        mode,
        ask,
        found,
        current.map(|i| &worktrees[i]),
        report,
    )
}

/// Whether `c` is `here`'s own: found in it (not in the notes store, which is searched
/// knowing every worktree's sessions), and recording no other root.
fn own(c: &Candidate, here: &Worktree) -> bool {
    c.worktree.path == here.path
        && c.handover.stored.is_none()
        && c.handover.view.as_ref().is_none_or(|v| {
            v.workspace
                .root
                .as_deref()
                .is_none_or(|r| crate::git::normalize(Path::new(r)) == here.path)
        })
}

impl Report {
    fn new(args: &ContinueArgs) -> Self {
        Report {
            announcements: Vec::new(),
            outcome: Outcome::Nothing,
            effects: Vec::new(),
            skipped: Vec::new(),
            named: args.target.is_some(),
            finished_here: Vec::new(),
            graph_hint: None,
        }
    }
}

/// The handovers that could be resumed, among `worktrees` (`current` the index of this
/// one; `here_searched`: this one was searched already and holds nothing to resume).
#[allow(clippy::too_many_arguments)] // the run's context, session and choices
fn candidates(
    ctx: &Context,
    history: &mut History<'_>,
    args: &ContinueArgs,
    worktrees: &[Worktree],
    current: Option<usize>,
    current_path: Option<&Path>,
    report: &mut Report,
    here_searched: bool,
) -> Result<Vec<Candidate>> {
    let candidates = if let Some(target) = &args.target {
        let (wi, found) = explicit(ctx, worktrees, current, target)?;
        assessed(
            ctx,
            history,
            worktrees,
            vec![(wi, vec![found])],
            current_path,
            current,
            report,
        )
    } else if team_mode(args) {
        let wi = current.ok_or_else(needs_worktree)?;
        let wt = &worktrees[wi];
        let sessions::Owner::Team { team, agent } = ctx.owner(&args.team, wt)? else {
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
            history,
            worktrees,
            vec![(wi, found)],
            current_path,
            current,
            report,
        )
    } else {
        let here: Vec<usize> = current.into_iter().filter(|_| !here_searched).collect();
        let mut found = resumable(
            ctx,
            history,
            worktrees,
            &here,
            current_path,
            current,
            report,
        );
        if found.is_empty() {
            let others: Vec<usize> = (0..worktrees.len())
                .filter(|i| Some(*i) != current)
                .collect();
            found = resumable(
                ctx,
                history,
                worktrees,
                &others,
                current_path,
                current,
                report,
            );
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
            let stored = store_candidates(ctx, worktrees, None)?;
            if !stored.is_empty() {
                let wi = current.unwrap_or(0);
                found = assessed(
                    ctx,
                    history,
                    worktrees,
                    vec![(wi, stored)],
                    current_path,
                    current,
                    report,
                );
                let keys: Vec<String> = found.iter().map(|c| c.handover.key.clone()).collect();
                if !keys.is_empty() {
                    report.announcements.push(Announcement::Store { keys });
                }
            }
        }
        found
    };
    Ok(candidates)
}

/// Resume the one candidate (or the one chosen among several).
#[allow(clippy::too_many_arguments)] // the run's context, session and choices
fn finish(
    ctx: &Context,
    history: &mut History<'_>,
    args: &ContinueArgs,
    mode: Mode,
    ask: &mut dyn Ask,
    candidates: Vec<Candidate>,
    current: Option<&Worktree>,
    mut report: Report,
) -> Result<Report> {
    let chosen = match candidates.len() {
        0 => return Ok(report),
        1 => candidates.into_iter().next().expect("one"),
        _ => match ask.candidate(&candidates) {
            Some(i) if i < candidates.len() => candidates.into_iter().nth(i).expect("in range"),
            _ => {
                report.outcome = Outcome::Choose(candidates);
                return Ok(report);
            }
        },
    };
    report.outcome = resume(
        ctx,
        history,
        args,
        mode,
        ask,
        chosen,
        current,
        &mut report.effects,
    )?;
    Ok(report)
}
