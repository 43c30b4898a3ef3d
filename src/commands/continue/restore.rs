//! Restoring a session kept only in the notes store: into the worktree on its branch
//! when there is one, else into this one, judged against the session's branch and
//! saying which branch it is on and how to switch to it (issue 32, item 14).

use serde_json::Value;

use crate::git::Worktree;
use crate::model::state::State;
use crate::services::assess;
use crate::services::context::Context;
use crate::services::sessions::{self, SessionDir};
use crate::support::error::{Error, Result, msg};

/// Where a session of the notes store is restored, and how it is judged.
pub(super) struct Place {
    /// The worktree it is restored into.
    pub wt: Worktree,
    /// The same worktree as the briefing judges it: on the session's branch (its
    /// tip, local or a remote's), when the worktree is on another.
    pub judged: Worktree,
    /// The session's branch, when the worktree restored into is on another one.
    pub other_branch: Option<(String, Option<String>)>,
}

/// The worktree on the session's `branch` if one exists (this one first), else
/// `here`. A careful user would switch there before working on it; the briefing
/// says so, and judges the session against its own branch, not the worktree's.
pub(super) fn place(ctx: &Context, here: &Worktree, branch: Option<&str>) -> Result<Place> {
    let Some(branch) = branch else {
        return Ok(Place {
            wt: here.clone(),
            judged: here.clone(),
            other_branch: None,
        });
    };
    let on_branch = |w: &Worktree| w.exists && !w.is_bare && w.branch.as_deref() == Some(branch);
    let wt = if on_branch(here) {
        here.clone()
    } else {
        ctx.repo
            .worktrees()?
            .into_iter()
            .find(on_branch)
            .unwrap_or_else(|| here.clone())
    };
    if on_branch(&wt) {
        return Ok(Place {
            judged: wt.clone(),
            wt,
            other_branch: None,
        });
    }
    let mut judged = wt.clone();
    judged.branch = Some(branch.to_owned());
    judged.detached = false;
    judged.head = ctx.repo.branch_tip_or_remote(branch).map(|(tip, _)| tip);
    Ok(Place {
        other_branch: Some((branch.to_owned(), wt.branch.clone())),
        judged,
        wt,
    })
}

/// Write a session of the notes store into `wt`'s handover root under its key, with
/// `workspace` pointing at `wt` (the worktree it was saved in may be gone), and the
/// time it was written kept. Refuses to overwrite a session that is there.
pub(super) fn restore(
    ctx: &Context,
    wt: &Worktree,
    key: &str,
    stored: &assess::Stored,
) -> Result<SessionDir> {
    let session = SessionDir::new(&ctx.write_root(wt), key)?;
    let file = session.state_file();
    // What a listing found may be the index's copy of the record: restored only when a
    // note holds it (a forged or damaged index is dropped, and nothing is written).
    // The state is parsed once: its `session_id` (where else a note may hold it) read
    // from the same document that is then written.
    let mut doc = stored.state.doc();
    let id = doc.get("session_id").and_then(Value::as_str);
    if !ctx.store().holds(stored.commit, id, &stored.state)? {
        ctx.store().forget_index();
        return Err(Error::usage_hint(
            msg(crate::k!("err.restore_not_held"), &[("key", &key)]),
            msg(crate::k!("err.resume_it"), &[("key", &key)]),
        ));
    }
    sessions::point_here(&mut doc, wt);
    crate::model::session::seal(&mut doc);
    let state = State::from_doc(doc, &file)?;
    // Not recorded again: the store has this state already (its `seq` is kept, so the
    // next write here follows the record it came from).
    let created = sessions::Transaction::unrecorded(ctx, wt).create(&session, state, Ok)?;
    if created.is_none() {
        return Err(Error::usage_hint(
            msg(
                crate::k!("err.restore_exists"),
                &[("key", &key), ("path", &file.display())],
            ),
            msg(crate::k!("err.resume_it"), &[("key", &key)]),
        ));
    }
    Ok(session)
}
