//! `status`: every worktree and every handover in it, checked against git.

use clap::Args;

use jiff::Timestamp;

use crate::services::assess::{self, Handover, Kind, WorktreeHandovers};
use crate::services::context::Context;
use crate::services::notes_store;
use crate::support::error::{Error, Result, msg};

#[derive(Debug, Args, Default)]
pub struct StatusArgs {
    /// Only the current worktree.
    #[arg(long)]
    pub here: bool,

    /// Exit with status 1 when anything needs attention, and list only what does.
    #[arg(long)]
    pub check: bool,

    /// One line per handover, like `git status --short`: a flag (`!` needs attention,
    /// `x` unreadable), the kind (`S` session, `N` note, `L` legacy state, `R` notes
    /// store record), the worktree (`.` for this one), the key, the verdicts and the
    /// next task.
    #[arg(long, short = 's')]
    pub short: bool,

    /// Print only the session keys, one per line: the sessions of every worktree (this
    /// one's with --here), then those only the notes store has. Nothing is checked
    /// against git; shell completion uses this.
    // Plain lines, never a document: with --json it is a usage error.
    #[arg(long, conflicts_with_all = ["check", "json"])]
    pub keys: bool,
}

/// The long help of `status`, after its options.
pub const STATUS_HELP: &str = "\
For each worktree (main first, then linked ones in `git worktree list` order) this shows
its branch and HEAD, and each handover in it: structured sessions, legacy state and the
continue-here note, with their task counts, the next task, freshness (fresh, stale,
superseded), whether their worktree still exists (orphan, offline), the check of their
recorded commits (ok, unreachable, missing, ambiguous, rewritten) and stale tasks.

Examples:
  git handover status
  git handover status --here
  git handover status --check || echo 'handovers need attention'
  git handover status --json | jq '.worktrees[].handovers[].key'";

pub struct Report {
    pub now: Timestamp,
    pub here: bool,
    /// `--check`: exit 1 when anything needs attention (and list only that).
    pub check: bool,
    /// `--short`: a line per handover.
    pub short: bool,
    pub worktrees: Vec<WorktreeHandovers>,
    /// Sessions found only in the notes store (not with `--here`).
    pub stored: Vec<Handover>,
    /// Records of the notes store that could not be read.
    pub store_skipped: Vec<String>,
    /// Sessions written on two clones from one state (not with `--here`).
    pub diverged: Vec<Diverged>,
    /// A hint to write a commit-graph, when the run read much history without one.
    pub graph_hint: Option<String>,
}

/// A session that diverged: the key it has here (or in the store) and each side.
#[derive(Debug, Clone)]
pub struct Diverged {
    pub key: String,
    pub session_id: String,
    /// Each side as the report shows it, newest first.
    pub sides: Vec<crate::facts::side::SideFacts>,
}

impl Report {
    pub fn handover_count(&self) -> usize {
        self.worktrees
            .iter()
            .map(|w| w.handovers.len())
            .sum::<usize>()
            + self.stored.len()
    }

    fn all(&self) -> impl Iterator<Item = &Handover> {
        self.worktrees
            .iter()
            .flat_map(|w| &w.handovers)
            .chain(&self.stored)
    }

    /// Whether any handover file is tracked by git.
    pub fn tracked_any(&self) -> bool {
        self.all().any(|h| h.tracked)
    }

    /// Handovers that need attention (`--check`), invalid ones included.
    pub fn attention_count(&self) -> usize {
        self.all().filter(|h| h.needs_attention()).count() + self.diverged.len()
    }

    /// The handover files that could not be read, and why.
    pub fn invalid(&self) -> impl Iterator<Item = &crate::support::error::Problem> {
        self.all().filter_map(|h| h.error())
    }

    /// The claims lost to another clone's that the sessions tell of: (key, task, what).
    pub fn lost_claims(
        &self,
    ) -> impl Iterator<Item = (&str, &str, &crate::model::claim::Lost)> + '_ {
        self.all().flat_map(|h| {
            h.assessment()
                .and_then(|a| a.session())
                .into_iter()
                .flat_map(|s| &s.lost)
                .map(|(task, lost)| (h.key.as_str(), task.as_str(), lost))
        })
    }

    /// The warnings about handovers, in `lang`, then the store's unreadable lines.
    pub fn warnings(&self, lang: crate::support::i18n::Lang) -> Vec<String> {
        self.all()
            .filter_map(|h| h.assessment())
            .flat_map(|a| a.warnings.iter().map(|w| w.render(lang)))
            .chain(self.store_skipped.iter().cloned())
            .collect()
    }
}

pub fn run(ctx: &Context, args: &StatusArgs) -> Result<Report> {
    let worktrees = ctx.repo.worktrees()?;
    let current = ctx.repo.current_worktree();
    if args.here && current.is_none() {
        return Err(Error::usage_hint(
            msg(crate::k!("err.here_bare"), &[]),
            msg(crate::k!("err.here_bare_hint"), &[]),
        ));
    }
    // Every history question of the run is asked through one session.
    let mut history = ctx.repo.history();
    let mut assessed = assess::assess(
        &mut history,
        &ctx.settings,
        ctx.now,
        &worktrees,
        |w| !args.here || current.as_ref() == Some(&w.path),
        current.as_deref(),
    );
    // The states as read are kept for a briefing; a status says only the verdicts
    // (with many sessions, the views are a large part of the peak).
    // Who picked each one up is read from them first (issue 34).
    let tool = ctx.repo.tool_dir();
    for h in assessed.iter_mut().flat_map(|w| &mut w.handovers) {
        crate::services::receipts::fill(&tool, h, ctx.now);
        h.view = None;
    }
    let (stored, store_skipped, diverged) = if args.here {
        (Vec::new(), Vec::new(), Vec::new())
    } else {
        let on_disk: Vec<notes_store::OnDisk<'_>> = assessed
            .iter()
            .flat_map(|w| &w.handovers)
            .filter(|h| h.kind == Kind::Session)
            .map(|h| notes_store::OnDisk {
                key: h.key.as_str(),
                session_id: h
                    .assessment()
                    .and_then(|a| a.session())
                    .and_then(|s| s.session_id.as_deref()),
            })
            .collect();
        let view = ctx.store().view(&on_disk);
        let diverged = view
            .diverged
            .into_iter()
            .map(|(id, sides)| Diverged {
                key: on_disk
                    .iter()
                    .find(|d| d.session_id == Some(id.as_str()))
                    .map_or_else(|| sides[0].record.key.clone(), |d| d.key.to_owned()),
                session_id: id,
                sides: notes_store::facts(&sides),
            })
            .collect();
        let (found, skipped) = (view.only, view.skipped);
        let stored = if found.is_empty() {
            Vec::new()
        } else {
            assess::check(
                &mut history,
                &ctx.settings,
                ctx.now,
                &worktrees,
                vec![(0, found)],
                current.as_deref(),
            )
            .into_iter()
            .flat_map(|w| w.handovers)
            .collect()
        };
        (stored, skipped, diverged)
    };
    // Every history question is answered: what the walks read is not kept mapped
    // while the report is rendered.
    let graph_hint = history.commit_graph_hint();
    drop(history);
    Ok(Report {
        now: ctx.now,
        here: args.here,
        check: args.check,
        short: args.short,
        worktrees: assessed,
        stored,
        store_skipped,
        diverged,
        graph_hint,
    })
}

/// The session keys `status --keys` prints, one a line.
pub struct Keys(pub Vec<String>);

/// `status --keys`: session keys on disk (every worktree, or this one with `--here`),
/// then those only the notes store has; nothing is checked against git.
pub fn keys(ctx: &Context, args: &StatusArgs) -> Result<Keys> {
    let current = ctx.repo.current_worktree();
    let mut keys: Vec<String> = Vec::new();
    let mut ids: Vec<(String, Option<String>)> = Vec::new();
    for wt in ctx.repo.worktrees()? {
        if !wt.exists || wt.is_bare || (args.here && current.as_ref() != Some(&wt.path)) {
            continue;
        }
        for found in crate::services::scan::scan_worktree(&wt.path, &ctx.settings.dir) {
            if let crate::services::scan::Found::Session { key, dir, .. } = found {
                if !args.here {
                    ids.push((key.clone(), crate::services::scan::session_id_of(&dir)));
                }
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
        }
    }
    if !args.here {
        let on_disk: Vec<notes_store::OnDisk<'_>> = ids
            .iter()
            .map(|(key, id)| notes_store::OnDisk {
                key: key.as_str(),
                session_id: id.as_deref(),
            })
            .collect();
        let (stored, _) = ctx.store().only(&on_disk);
        let stored: Vec<String> = stored
            .into_iter()
            .filter_map(|f| match f {
                crate::services::scan::Found::Stored { record, .. } => Some(record.key),
                _ => None,
            })
            .collect();
        keys.extend(stored);
    }
    Ok(Keys(keys))
}
