//! `render [KEY]`: regenerate a session's `handover.md` from its state.

use crate::cli::shared::TeamArgs;
use clap::Args;

use crate::services::context::Context;
use crate::services::sessions::{self, SessionDir};
use crate::support::error::{Error, Result, msg};

#[derive(Debug, Args)]
pub struct RenderArgs {
    /// The session key; this branch's ready session when left out.
    pub key: Option<String>,

    #[command(flatten)]
    pub team: TeamArgs,
}

/// The long help of `render`, after its options.
pub const RENDER_HELP: &str = "\
Examples:
  git handover render
  git handover render feature/x/20261129-080000
  git handover render --team alpha --agent reviewer";

pub struct Report {
    pub session: SessionDir,
    /// The `handover.md` regenerated.
    pub markdown: std::path::PathBuf,
    pub changed: bool,
}

pub fn run(ctx: &Context, args: &RenderArgs) -> Result<Report> {
    let wt = ctx.current_worktree()?;
    let session = match &args.key {
        // Any worktree's session, this one's first, like `task --session KEY`; a key
        // kept only in the notes store is named with the command that restores it.
        Some(key) => ctx.session_anywhere(&wt, key)?.1,
        None => {
            let owner = ctx.owner(&args.team, &wt)?;
            sessions::current_session(&ctx.write_root(&wt), &owner, &wt.path, &mut Vec::new())?
                .filter(SessionDir::exists)
                .ok_or_else(|| {
                    Error::usage_hint(
                        msg(crate::k!("err.render_none"), &[]),
                        msg(crate::k!("err.render_hint"), &[]),
                    )
                })?
        }
    };
    let changed = sessions::regenerate_markdown(&session, &ctx.settings, ctx.lang)?;
    let markdown = session.dir().join(sessions::MARKDOWN_FILE);
    Ok(Report {
        session,
        markdown,
        changed,
    })
}
