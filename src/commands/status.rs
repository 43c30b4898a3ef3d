//! `status`: every worktree and every handover in it, checked against git.

use jiff::Timestamp;

use super::Context;
use crate::assess::{self, Handover, Kind, WorktreeHandovers};
use crate::cli::StatusArgs;
use crate::error::{Error, Result, msg};

pub struct Report {
    pub now: Timestamp,
    pub here: bool,
    pub worktrees: Vec<WorktreeHandovers>,
    /// Sessions found only in the notes store (not with `--here`).
    pub stored: Vec<Handover>,
    /// Records of the notes store that could not be read.
    pub store_skipped: Vec<String>,
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

    /// Handovers that need attention (`--check`), invalid ones included.
    pub fn attention_count(&self) -> usize {
        self.all().filter(|h| h.needs_attention()).count()
    }

    /// Error messages of the handover files that could not be read.
    pub fn invalid(&self) -> impl Iterator<Item = &str> {
        self.all().filter_map(|h| h.error.as_deref())
    }

    /// The warnings about handovers, in `lang`, then the store's unreadable lines.
    pub fn warnings(&self, lang: crate::config::Lang) -> Vec<String> {
        self.all()
            .filter_map(|h| h.assessment.as_ref())
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
            msg("err.here_bare", &[]),
            msg("err.here_bare_hint", &[]),
        ));
    }
    let assessed = assess::assess(
        &ctx.repo,
        &ctx.settings,
        ctx.now,
        &worktrees,
        |w| !args.here || current.as_ref() == Some(&w.path),
        current.as_deref(),
    )?;
    let (stored, store_skipped) = if args.here {
        (Vec::new(), Vec::new())
    } else {
        let on_disk: Vec<&str> = assessed
            .iter()
            .flat_map(|w| &w.handovers)
            .filter(|h| h.kind == Kind::Session)
            .map(|h| h.key.as_str())
            .collect();
        let (found, skipped) = store_only(ctx, &on_disk)?;
        let stored = if found.is_empty() {
            Vec::new()
        } else {
            assess::check(
                &ctx.repo,
                &ctx.settings,
                ctx.now,
                &worktrees,
                vec![(0, found)],
                current.as_deref(),
            )?
            .into_iter()
            .flat_map(|w| w.handovers)
            .collect()
        };
        (stored, skipped)
    };
    Ok(Report {
        now: ctx.now,
        here: args.here,
        worktrees: assessed,
        stored,
        store_skipped,
    })
}

/// `status --keys`: session keys on disk (every worktree, or this one with `--here`),
/// then those only the notes store has; nothing is checked against git.
pub fn keys(ctx: &Context, args: &StatusArgs) -> Result<Vec<String>> {
    let current = ctx.repo.current_worktree();
    let mut keys: Vec<String> = Vec::new();
    for wt in ctx.repo.worktrees()? {
        if !wt.exists || wt.is_bare || (args.here && current.as_ref() != Some(&wt.path)) {
            continue;
        }
        for found in crate::scan::scan_worktree(&wt.path, &ctx.settings.dir) {
            if let crate::scan::Found::Session { key, .. } = found {
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
        }
    }
    if !args.here {
        let on_disk: Vec<&str> = keys.iter().map(String::as_str).collect();
        let (stored, _) = store_only(ctx, &on_disk)?;
        let stored: Vec<String> = stored
            .into_iter()
            .filter_map(|f| match f {
                crate::scan::Found::Stored { record, .. } => Some(record.key),
                _ => None,
            })
            .collect();
        keys.extend(stored);
    }
    Ok(keys)
}

/// Unfinished sessions whose newest record in the notes store has no session directory
/// in any worktree (`on_disk` holds the keys that do), and the store's unreadable lines.
/// Finished sessions stay out: `clean` removes their directories, and their records
/// would otherwise come back in every listing.
pub fn store_only(
    ctx: &Context,
    on_disk: &[&str],
) -> crate::error::Result<(Vec<crate::scan::Found>, Vec<String>)> {
    let (newest, skipped) = ctx.read_store_newest()?;
    let found = newest
        .into_iter()
        .filter(|r| !on_disk.contains(&r.record.key.as_str()))
        .filter(|r| {
            r.record
                .state
                .as_ref()
                .and_then(|s| s.get("status"))
                .and_then(serde_json::Value::as_str)
                != Some(crate::state::ALL_COMPLETE)
        })
        .map(|r| crate::scan::Found::Stored {
            commit: r.commit,
            record: Box::new(r.record),
        })
        .collect();
    Ok((found, skipped))
}
