//! `status`: every worktree and every handover in it, checked against git.

use jiff::Timestamp;

use super::Context;
use crate::assess::{self, WorktreeHandovers};
use crate::cli::StatusArgs;
use crate::error::{Error, Result};

pub struct Report {
    pub now: Timestamp,
    pub here: bool,
    pub worktrees: Vec<WorktreeHandovers>,
}

impl Report {
    pub fn handover_count(&self) -> usize {
        self.worktrees.iter().map(|w| w.handovers.len()).sum()
    }

    /// Handovers that need attention (`--check`), invalid ones included.
    pub fn attention_count(&self) -> usize {
        self.worktrees
            .iter()
            .flat_map(|w| &w.handovers)
            .filter(|h| h.needs_attention())
            .count()
    }

    /// Error messages of the handover files that could not be read.
    pub fn invalid(&self) -> impl Iterator<Item = &str> {
        self.worktrees
            .iter()
            .flat_map(|w| &w.handovers)
            .filter_map(|h| h.error.as_deref())
    }

    pub fn warnings(&self) -> impl Iterator<Item = &str> {
        self.worktrees
            .iter()
            .flat_map(|w| &w.handovers)
            .filter_map(|h| h.assessment.as_ref())
            .flat_map(|a| a.warnings.iter().map(String::as_str))
    }
}

pub fn run(ctx: &Context, args: &StatusArgs) -> Result<Report> {
    let worktrees = ctx.repo.worktrees()?;
    let current = ctx.repo.current_worktree();
    if args.here && current.is_none() {
        return Err(Error::Usage {
            message: "--here needs a worktree, and this repository is bare".into(),
            hint: Some("run it inside one of the worktrees, or leave out --here".into()),
        });
    }
    let worktrees = assess::assess(
        &ctx.repo,
        &ctx.settings,
        ctx.now,
        &worktrees,
        |w| !args.here || current.as_ref() == Some(&w.path),
        current.as_deref(),
    )?;
    Ok(Report {
        now: ctx.now,
        here: args.here,
        worktrees,
    })
}
