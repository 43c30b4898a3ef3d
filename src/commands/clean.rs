//! `clean`: remove finished (`ALL_COMPLETE`) sessions older than a limit, in every
//! worktree, or a finished team's directory with `--team`.

use clap::Args;

use std::path::Path;

pub use crate::services::cleanup::Report;
use crate::services::cleanup::clean_worktree;
use crate::services::context::Context;
use crate::support::error::{Error, Result, msg};

#[derive(Debug, Args)]
pub struct CleanArgs {
    /// Remove finished sessions older than this (default handover.cleanAfter, 7d).
    #[arg(long, value_name = "DURATION")]
    pub older_than: Option<String>,

    /// Say what would be removed, and remove nothing.
    #[arg(long)]
    pub dry_run: bool,

    /// Remove the directory of this team, when all its sessions are finished.
    #[arg(long, value_name = "TEAM")]
    pub team: Option<String>,
}

/// The long help of `clean`, after its options.
pub const CLEAN_HELP: &str = "\
Only ALL_COMPLETE sessions are removed, judged by generated_at; only the files the tool
writes are removed, and a directory holding anything else is kept and named.

Examples:
  git handover clean --dry-run
  git handover clean --older-than 36h
  git handover clean --team alpha";

/// `before_removing` is called with each path (and whether it is a dry run) before it
/// is removed, so the caller can say so first.
pub fn run(
    ctx: &Context,
    args: &CleanArgs,
    before_removing: &mut dyn FnMut(&Path, bool),
) -> Result<Report> {
    let limit = match &args.older_than {
        Some(v) => crate::support::config::parse_duration(v).map_err(|expected| Error::Usage {
            message: msg(
                crate::k!("err.older_than"),
                &[("value", &format!("{v:?}")), ("expected", &expected)],
            ),
            hint: None,
        })?,
        None => ctx.settings.clean_after,
    };
    if let Some(team) = &args.team {
        crate::support::paths::check_relative(crate::k!("what.team"), team)
            .map_err(Error::usage)?;
        if team.contains('/') {
            return Err(Error::usage(
                msg(
                    crate::k!("path.one_component"),
                    &[("value", &format!("{team:?}"))],
                )
                .word("what", crate::k!("what.team")),
            ));
        }
    }
    let mut report = Report {
        dry_run: args.dry_run,
        removed: Vec::new(),
        skipped: Vec::new(),
        kept_whole: Vec::new(),
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
