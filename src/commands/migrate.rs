//! `migrate`: move a legacy v2 state into `<root>/<branch>/<fingerprint>/` (SPEC section 7).
//! The new copy is written and read back before the old files are removed.

use std::path::PathBuf;

use super::Context;
use crate::error::{Error, Result, msg};
use crate::fsio::Lock;
use crate::git::Worktree;
use crate::scan::LEGACY_STATE;
use crate::session;
use crate::state::State;
use crate::store::{self, MARKDOWN_FILE, Owner, SessionDir};

pub struct Report {
    pub from: PathBuf,
    pub session: SessionDir,
    pub removed_markdown: bool,
}

pub fn run(ctx: &Context) -> Result<Report> {
    migrate_in(ctx, &ctx.current_worktree()?)
}

/// Migrate the legacy state of worktree `wt`.
pub fn migrate_in(ctx: &Context, wt: &Worktree) -> Result<Report> {
    let legacy = wt.path.join(LEGACY_STATE);
    if !std::fs::symlink_metadata(&legacy).is_ok_and(|m| m.is_file()) {
        return Err(Error::NothingToDo {
            message: msg("err.no_legacy", &[("path", &legacy.display())]),
        });
    }
    let _old_lock = Lock::acquire(&legacy, ctx.settings.lock_timeout)?;
    let state = State::read(&legacy)?;
    let Owner::Branch(branch) = ctx.owner(&crate::cli::TeamArgs::default(), wt)? else {
        unreachable!("no team was asked for");
    };
    let head = ctx.store_head()?;
    let target = store::new_branch_session(&ctx.write_root(wt), &branch, ctx.now)?;
    let mut doc = state.document().clone();
    session::merge(
        &mut doc,
        &super::save::workspace(wt, &Owner::Branch(branch)),
    );
    session::finish(&mut doc);
    let file = target.state_file();
    let migrated = State::from_doc(doc, &file)?;
    let bytes = migrated.to_json_bytes();
    // The fingerprint directory was just made, so it holds no state yet.
    store::create(&target, &migrated, &ctx.settings, ctx.lang)?;
    // Read the copy back; only an identical, valid copy lets the old files go.
    let back = State::read(&file)?;
    if back.to_json_bytes() != bytes {
        return Err(Error::usage(msg(
            "err.migrate_readback",
            &[("path", &file.display()), ("legacy", &legacy.display())],
        )));
    }
    std::fs::remove_file(&legacy).map_err(|e| Error::io(&legacy, "remove", e))?;
    let old_md = legacy.with_file_name(MARKDOWN_FILE);
    let removed_markdown = std::fs::symlink_metadata(&old_md).is_ok_and(|m| m.is_file())
        && std::fs::remove_file(&old_md).is_ok();
    let written = store::Written {
        session: target.clone(),
        created: true,
        changed: true,
        state: back,
        noted: None,
    };
    ctx.record_at(head, &ctx.session_record(&written, wt))?;
    Ok(Report {
        from: legacy,
        session: target,
        removed_markdown,
    })
}
