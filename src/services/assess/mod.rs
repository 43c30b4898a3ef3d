//! Checking every handover found against git: the facts `status` reports and
//! `continue` briefs on. Reads files and the repository; writes nothing.

use std::path::Path;

use jiff::Timestamp;

use crate::git::{CommitFound, CommitId, History, NewerCommits, NewerQuery, Worktree};
use crate::model::note::Note;
use crate::model::state::View;
use crate::model::verdict::CommitCheck;
use crate::services::scan::{self, Found};
use crate::support::config::Settings;
use std::sync::Arc;

mod judge;
mod read;

// The types live with the facts the reports carry, so that a renderer prints them
// without importing this service; they are named here too for the commands that
// ask for an assessment.
pub use crate::facts::assessed::{Assessment, Handover, Kind, Reading, Stored, WorktreeHandovers};

use judge::judge;
use read::read_found;

/// What was read from disk, before git is asked anything.
pub(super) enum Parsed {
    State(Arc<View>),
    Note(Note),
}

pub(super) struct Pending {
    pub(super) handover: Handover,
    pub(super) parsed: Option<Parsed>,
    /// Where commits are checked: the handover's branch, else the worktree's HEAD.
    pub(super) tip: Option<CommitId>,
    /// The remote-tracking branch the tip came from, when the branch is not local.
    pub(super) tip_ref: Option<String>,
    /// The handover's branch exists neither here nor on a remote.
    pub(super) branch_gone: bool,
    pub(super) written: Option<(Timestamp, bool)>,
}

/// Scan `worktrees` (those with `include` true) and check everything found against git,
/// through the run's history session.
pub fn assess(
    history: &mut History<'_>,
    settings: &Settings,
    now: Timestamp,
    worktrees: &[Worktree],
    include: impl Fn(&Worktree) -> bool,
    current: Option<&Path>,
) -> Vec<WorktreeHandovers> {
    let found = worktrees
        .iter()
        .enumerate()
        .filter(|(_, wt)| include(wt))
        .map(|(wi, wt)| {
            let found = if wt.exists && !wt.is_bare {
                scan::scan_worktree(&wt.path, &settings.dir)
            } else {
                Vec::new()
            };
            (wi, found)
        })
        .collect();
    check(history, settings, now, worktrees, found, current)
}

/// The handovers waiting for git's answers, by worktree (an index into the worktree
/// list) and then by handover: a handover's place is `[pi][hi]`.
type PendingByWorktree = Vec<(usize, Vec<Pending>)>;

/// What the history session said about itself while answering; said on every handover
/// whose commits it was asked about.
#[derive(Default)]
struct HistoryNotes {
    /// The session was stopped by its deadline.
    cut_short: bool,
    /// The repository is a shallow clone: commits beyond its boundary are unchecked.
    shallow: bool,
    /// Why the commit-graph was set aside, if it was.
    graph_damage: Option<String>,
    /// Why the history could not be read, if it could not.
    unreadable: Option<String>,
}

impl HistoryNotes {
    fn warn(&self, reading: &mut Reading) {
        if let (true, Reading::Read(a)) = (self.cut_short, &mut *reading) {
            a.history_cut_short = true;
            a.warnings.push(crate::support::error::msg(
                crate::k!("warn.history_cut_short"),
                &[],
            ));
        }
        if let (true, Reading::Read(a)) = (self.shallow, &mut *reading)
            && a.commits
                .iter()
                .any(|c| c.state == crate::model::verdict::CommitState::Unchecked)
        {
            a.history_shallow = true;
            a.warnings.push(crate::support::error::msg(
                crate::k!("warn.history_shallow"),
                &[],
            ));
        }
        if let (Some(why), Reading::Read(a)) = (&self.graph_damage, &mut *reading) {
            a.warnings.push(crate::support::error::msg(
                crate::k!("warn.graph_damaged"),
                &[("why", why)],
            ));
        }
        if let (Some(why), Reading::Read(a)) = (&self.unreadable, &mut *reading) {
            a.history_unreadable = true;
            a.freshness = None;
            a.warnings.push(crate::support::error::msg(
                crate::k!("warn.history_unreadable"),
                &[("why", why)],
            ));
        }
    }
}

/// Check the handovers `found` in the worktrees (by index into `worktrees`) against git:
/// every recorded commit in one walk, newer commits in one walk per branch, through the
/// run's history session.
pub fn check(
    history: &mut History<'_>,
    settings: &Settings,
    now: Timestamp,
    worktrees: &[Worktree],
    found: Vec<(usize, Vec<Found>)>,
    current: Option<&Path>,
) -> Vec<WorktreeHandovers> {
    let resolved = judge::Roots::default();
    let pending_by_worktree = read_pending(history, settings, worktrees, found);
    let mut notes = HistoryNotes::default();
    let mut checks = check_recorded(history, &pending_by_worktree, &mut notes);
    let mut newer = newer_commits(history, &pending_by_worktree, &checks, &mut notes);

    let mut out = Vec::new();
    for (pi, (wi, pending)) in pending_by_worktree.into_iter().enumerate() {
        let wt = &worktrees[wi];
        let handovers = pending
            .into_iter()
            .enumerate()
            .map(|(hi, p)| {
                let commits = std::mem::take(&mut checks[pi][hi]);
                let newer = std::mem::take(&mut newer[pi][hi]);
                let touched = p.tip.is_some();
                let mut h = judge(p, wt, worktrees, &resolved, settings, now, commits, newer);
                if touched {
                    notes.warn(&mut h.reading);
                }
                h
            })
            .collect();
        out.push(WorktreeHandovers {
            worktree: wt.clone(),
            current: current.is_some_and(|c| c == wt.path),
            handovers,
        });
    }
    out
}

/// Read every handover `found` (the states through the history session), with where its
/// commits are checked and whether its file is tracked.
fn read_pending(
    history: &mut History<'_>,
    settings: &Settings,
    worktrees: &[Worktree],
    found: Vec<(usize, Vec<Found>)>,
) -> PendingByWorktree {
    let repo = history.repo();
    let roots = scan::roots(&settings.dir);
    let mut tips = read::Tips::new(repo);
    let parsed = read::parse_states(history, &found);
    found
        .into_iter()
        .zip(parsed)
        .map(|((wi, items), parsed)| {
            let wt = &worktrees[wi];
            // The index is read only where there are session files to look up, and
            // not at all when tracked handover files are intended (exclude=false).
            let tracked =
                if settings.exclude && items.iter().any(|f| matches!(f, Found::Session { .. })) {
                    repo.tracked_under(&wt.git_dir, &roots)
                } else {
                    Vec::new()
                };
            let pending = items
                .iter()
                .zip(parsed)
                .map(|(f, parsed)| {
                    let mut p = read_found(&mut tips, wt, f, parsed);
                    if let Ok(rel) = p.handover.file.strip_prefix(&wt.path) {
                        let rel = rel.to_string_lossy();
                        p.handover.tracked = tracked.iter().any(|t| *t == rel);
                    }
                    p
                })
                .collect();
            (wi, pending)
        })
        .collect()
}

/// Every recorded commit of every handover checked in one walk: each handover's checks,
/// by its place (`checks[pi][hi]`).
fn check_recorded(
    history: &mut History<'_>,
    pending_by_worktree: &PendingByWorktree,
    notes: &mut HistoryNotes,
) -> Vec<Vec<Vec<CommitCheck>>> {
    let mut queries: Vec<(&str, CommitId)> = Vec::new();
    let mut query_owner: Vec<(usize, usize, String)> = Vec::new();
    for (pi, (_, pending)) in pending_by_worktree.iter().enumerate() {
        for (hi, p) in pending.iter().enumerate() {
            let (Some(Parsed::State(state)), Some(tip)) = (&p.parsed, p.tip) else {
                continue;
            };
            for task in &state.tasks {
                if let Some(sha) = &task.commit_sha {
                    queries.push((sha.as_str(), tip));
                    query_owner.push((pi, hi, task.id.clone()));
                }
            }
        }
    }
    // A repository whose history cannot be read (a damaged pack, commit-graph) is said
    // for each handover it touches, and everything else is still listed: commits are
    // unchecked, newer work unknown.
    let checked = history.check_commits(&queries);
    (notes.cut_short, notes.graph_damage) = (checked.cut_short, checked.damaged);
    notes.shallow = checked.shallow > 0;
    let answers = checked.answers.unwrap_or_else(|e| {
        notes.unreadable = Some(e.to_string());
        queries
            .iter()
            .map(|_| crate::git::CommitAnswer {
                found: CommitFound::Unknown,
                full: None,
                rewritten: None,
            })
            .collect()
    });
    // A session with recorded commits and nothing to check them against: unchecked,
    // said, and needing attention (never silently skipped).
    let mut unchecked: Vec<((usize, usize), CommitCheck)> = Vec::new();
    for (pi, (_, pending)) in pending_by_worktree.iter().enumerate() {
        for (hi, p) in pending.iter().enumerate() {
            let (Some(Parsed::State(state)), None) = (&p.parsed, p.tip) else {
                continue;
            };
            for task in &state.tasks {
                if let Some(sha) = &task.commit_sha {
                    unchecked.push((
                        (pi, hi),
                        CommitCheck {
                            task_id: task.id.clone(),
                            recorded: sha.clone(),
                            state: crate::model::verdict::CommitState::Unchecked,
                            full: None,
                            rewritten: None,
                        },
                    ));
                }
            }
        }
    }
    let mut checks: Vec<Vec<Vec<CommitCheck>>> = by_place(pending_by_worktree);
    for (((pi, hi, task_id), (sha, _)), answer) in
        query_owner.into_iter().zip(&queries).zip(answers)
    {
        checks[pi][hi].push(CommitCheck {
            task_id,
            recorded: (*sha).to_owned(),
            state: judge::commit_state(answer.found),
            full: answer.full,
            rewritten: answer.rewritten,
        });
    }

    for ((pi, hi), c) in unchecked {
        checks[pi][hi].push(c);
    }
    checks
}

/// Newer commits, one walk per branch, by each handover's place. The handover's own
/// commits, and their rewritten copies, are not newer work.
fn newer_commits(
    history: &mut History<'_>,
    pending_by_worktree: &PendingByWorktree,
    checks: &[Vec<Vec<CommitCheck>>],
    notes: &mut HistoryNotes,
) -> Vec<Vec<NewerCommits>> {
    let mut newer_index: Vec<(usize, usize)> = Vec::new();
    let mut newer_queries: Vec<NewerQuery<'_>> = Vec::new();
    for (pi, (_, pending)) in pending_by_worktree.iter().enumerate() {
        for (hi, p) in pending.iter().enumerate() {
            let (Some(tip), Some((written, _))) = (p.tip, p.written) else {
                continue;
            };
            newer_index.push((pi, hi));
            newer_queries.push(NewerQuery {
                tip,
                since: written,
                own: checks[pi][hi]
                    .iter()
                    .flat_map(|c| [c.full.as_deref(), c.rewritten.as_deref()])
                    .flatten()
                    .collect(),
            });
        }
    }
    let newer_answers = history.newer_commits(&newer_queries).unwrap_or_else(|e| {
        notes.unreadable.get_or_insert(e.to_string());
        newer_queries
            .iter()
            .map(|_| NewerCommits::default())
            .collect()
    });
    drop(newer_queries);
    let mut newer: Vec<Vec<NewerCommits>> = by_place(pending_by_worktree);
    for ((pi, hi), answer) in newer_index.into_iter().zip(newer_answers) {
        newer[pi][hi] = answer;
    }
    newer
}

/// A table with an empty entry for every pending handover, by its place (`[pi][hi]`).
fn by_place<T: Default>(pending_by_worktree: &[(usize, Vec<Pending>)]) -> Vec<Vec<T>> {
    pending_by_worktree
        .iter()
        .map(|(_, pending)| pending.iter().map(|_| T::default()).collect())
        .collect()
}
