//! Legacy (v2) state: moving `.claude/project-state.json` into a session directory
//! (SPEC section 7), for `migrate` and for `continue`.

use std::path::PathBuf;

use crate::git::Worktree;
use crate::model::session;
use crate::model::state::State;
use crate::services::context::Context;
use crate::services::scan::LEGACY_STATE;
use crate::services::sessions::{self, MARKDOWN_FILE, Owner, SessionDir};
use crate::support::error::{Error, Result, msg};
use crate::support::fsio::Lock;

pub struct Report {
    pub from: PathBuf,
    pub session: SessionDir,
    pub removed_markdown: bool,
}

/// Migrate the legacy state of worktree `wt`.
pub fn migrate_in(ctx: &Context, wt: &Worktree) -> Result<Report> {
    let legacy = wt.path.join(LEGACY_STATE);
    if !std::fs::symlink_metadata(&legacy).is_ok_and(|m| m.is_file()) {
        return Err(Error::NothingToDo {
            message: msg(crate::k!("err.no_legacy"), &[("path", &legacy.display())]),
            hint: None,
        });
    }
    // Reached through a link (`.claude` leading outside the worktree): not this
    // worktree's state, and nothing of it is removed.
    if !crate::support::paths::plain_below(&wt.path, &legacy) {
        return Err(Error::usage(msg(
            crate::k!("err.outside_worktree"),
            &[
                ("path", &legacy.display()),
                ("worktree", &wt.path.display()),
            ],
        )));
    }
    let _old_lock = Lock::acquire(&legacy, ctx.settings.lock_timeout)?;
    let state = State::read(&legacy)?;
    let Owner::Branch(branch) = ctx.owner(&crate::cli::shared::TeamArgs::default(), wt)? else {
        unreachable!("no team was asked for");
    };
    let tx = sessions::Transaction::recorded(ctx, wt)?;
    let target = sessions::new_branch_session(&ctx.write_root(wt), &branch, ctx.now)?;
    let mut doc = state.document().clone();
    session::merge(&mut doc, &sessions::workspace(wt, &Owner::Branch(branch)));
    // A session from now on: its id (the one it has kept, as the original procedure
    // wrote it) and its first write.
    let has_id = doc
        .get("session_id")
        .and_then(serde_json::Value::as_str)
        .is_some_and(|id| !id.trim().is_empty());
    if !has_id {
        doc.insert(
            "session_id".into(),
            serde_json::Value::from(crate::support::id::random_uuid()),
        );
    }
    doc.insert("seq".into(), serde_json::Value::from(1));
    session::seal(&mut doc);
    let file = target.state_file();
    let migrated = State::from_doc(doc, &file)?;
    let bytes = migrated.to_json_bytes();
    let readback = || {
        Error::usage(msg(
            crate::k!("err.migrate_readback"),
            &[("path", &file.display()), ("legacy", &legacy.display())],
        ))
    };
    let mut removed_markdown = false;
    // The fingerprint directory was just made, so it holds no state yet. The record
    // follows the removal of the old files, under the new session's lock.
    let created = tx.create(&target, migrated, |_| {
        // Read the copy back; only an identical, valid copy lets the old files go.
        let back = State::read(&file)?;
        if back.to_json_bytes() != bytes {
            return Err(readback());
        }
        std::fs::remove_file(&legacy).map_err(|e| Error::io(&legacy, "remove", e))?;
        let old_md = legacy.with_file_name(MARKDOWN_FILE);
        removed_markdown = std::fs::symlink_metadata(&old_md).is_ok_and(|m| m.is_file())
            && std::fs::remove_file(&old_md).is_ok();
        Ok(back)
    })?;
    // A state there already is not the copy just made.
    if created.is_none() {
        return Err(readback());
    }
    Ok(Report {
        from: legacy,
        session: target,
        removed_markdown,
    })
}
