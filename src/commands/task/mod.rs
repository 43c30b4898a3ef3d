//! `task add|start|done|block|reopen|edit|remove`: edit one task of a session;
//! `task list|show`: read them; `task claim|next|release`: leases (`claim.rs`).

mod args;
mod claim;
mod list;
mod remote;
mod target;
mod verb;

pub use args::{TASK_HELP, TaskArgs, TaskOp};
pub use claim::{ClaimReport, claims};
pub use list::{Listing, read};
pub use verb::Act;

use crate::facts::written::Saved;
use crate::model::session;
use crate::model::task_edit::{self, TaskEdit, TaskError};
use crate::services::context::Context;
use crate::services::sessions::{self, Owner};
use crate::support::error::{Error, Result, msg};
use target::target;

pub struct Report {
    pub written: Saved,
    pub task: String,
    /// `task done`: the commit recorded (resolved in the caller's worktree: `HEAD` is
    /// the HEAD of the worktree the command runs in), with its subject.
    pub commit: Option<(crate::git::CommitId, String)>,
}

pub fn run(ctx: &Context, args: &TaskArgs) -> Result<Report> {
    let wt = ctx.current_worktree()?;
    let (id, edit) = edit_of(ctx, &args.op)?;
    check_id(&id, &edit)?;
    let is_add = matches!(edit, TaskEdit::Add { .. });
    let reopen = edit == TaskEdit::Reopen;
    let commit = match &edit {
        TaskEdit::Done { commit } => ctx
            .repo
            .resolve_commit(commit)
            .map(|id| (id, ctx.repo.subject(id))),
        _ => None,
    };
    let (home, target, chosen) = target(ctx, args, &wt, is_add, reopen)?;
    let owner = chosen.as_ref().map(|(_, o)| o);
    let holder = match edit {
        TaskEdit::Done { .. } | TaskEdit::Block { .. } => Some(crate::services::claims::holder_of(
            args.holder.as_deref(),
            &wt,
        )?),
        _ => None,
    };
    let mut written = write(ctx, &home, &target, owner, &id, edit, holder.as_deref())?;
    if let Some((c, _)) = chosen {
        written.skipped.splice(0..0, c.skipped);
        written.others = c.others;
        written.reopened = c.reopened;
        written.passed_over = c.passed_over;
    }
    Ok(Report {
        written: written.into_saved(),
        task: id,
        commit,
    })
}

/// The task id and the edit `op` asks for (`--commit` resolved to a full sha).
fn edit_of(ctx: &Context, op: &TaskOp) -> Result<(String, TaskEdit)> {
    Ok(match op {
        TaskOp::Add {
            id,
            description,
            files,
            next,
        } => (
            id.clone(),
            TaskEdit::Add {
                description: description.clone(),
                files: files.clone(),
                next: next.clone(),
            },
        ),
        TaskOp::Start { id } => (id.clone(), TaskEdit::Start),
        TaskOp::Done { id, commit } => {
            let rev = commit.as_deref().unwrap_or("HEAD");
            let full = ctx.repo.resolve_commit(rev).ok_or_else(|| {
                Error::usage_hint(
                    msg(crate::k!("err.bad_rev"), &[("rev", &format!("{rev:?}"))]),
                    msg(crate::k!("err.rev_hint"), &[]),
                )
            })?;
            (
                id.clone(),
                TaskEdit::Done {
                    commit: full.to_string(),
                },
            )
        }
        TaskOp::Block { id, reasons } => (
            id.clone(),
            TaskEdit::Block {
                reasons: reasons.clone(),
            },
        ),
        TaskOp::Reopen { id } => (id.clone(), TaskEdit::Reopen),
        TaskOp::Edit {
            id,
            description,
            next,
            files,
        } => {
            if description.is_none() && next.is_none() && files.is_empty() {
                return Err(Error::usage(msg(crate::k!("err.edit_nothing"), &[])));
            }
            (
                id.clone(),
                TaskEdit::Edit {
                    description: description.clone(),
                    next: next.clone(),
                    files: files.clone(),
                },
            )
        }
        TaskOp::Remove { id } => (id.clone(), TaskEdit::Remove),
        TaskOp::List { .. } | TaskOp::Show { .. } => unreachable!("read by `read`"),
        TaskOp::Claim { .. } | TaskOp::Next { .. } | TaskOp::Release { .. } => {
            unreachable!("made by `claims`")
        }
    })
}

/// Refuse an empty id, and a new id the shell would act on: ids are offered by shell
/// completion, so `$`, backquotes, quotes, whitespace and control characters are
/// refused where an id is made.
fn check_id(id: &str, edit: &TaskEdit) -> Result<()> {
    if id.is_empty() {
        return Err(Error::usage(msg(crate::k!("err.empty_task_id"), &[])));
    }
    if !matches!(edit, TaskEdit::Add { .. }) {
        return Ok(());
    }
    let what = id.chars().find_map(|c| match c {
        '$' => Some(crate::k!("task_id.dollar")),
        '`' => Some(crate::k!("task_id.backquote")),
        '"' | '\'' => Some(crate::k!("task_id.quote")),
        c if c.is_control() => Some(crate::k!("task_id.control")),
        c if c.is_whitespace() => Some(crate::k!("task_id.space")),
        _ => None,
    });
    match what {
        None => Ok(()),
        Some(what) => Err(Error::usage(
            msg(crate::k!("err.bad_task_id"), &[("id", &format!("{id:?}"))]).word("what", what),
        )),
    }
}

/// Apply `edit` to task `id` of `target` in one transaction; `done` and `block`
/// release `holder`'s claim on it in the same write.
fn write(
    ctx: &Context,
    wt: &crate::git::Worktree,
    target: &sessions::SessionDir,
    owner: Option<&Owner>,
    id: &str,
    edit: TaskEdit,
    holder: Option<&str>,
) -> Result<sessions::Written> {
    let now = session::format_time(ctx.now);
    let key = target.key.clone();
    let done = matches!(edit, TaskEdit::Done { .. });
    transact(ctx, wt, target, owner, |doc| {
        task_edit::edit_task(doc, id, edit, &now).map_err(|e| match e {
            TaskError::NoSuchTask => no_task(id, &key),
            TaskError::AlreadyExists => Error::usage(msg(
                crate::k!("err.task_exists"),
                &[("id", &format!("{id:?}")), ("key", &key)],
            )),
        })?;
        if let Some(holder) = holder {
            crate::model::claim::release_on_edit(doc, id, holder, ctx.now, done);
        }
        Ok(())
    })
}

/// Change the document of `target` with `change` in the one write transaction: it
/// gets what the file holds under the lock, and may refuse (then nothing is written).
fn transact(
    ctx: &Context,
    wt: &crate::git::Worktree,
    target: &sessions::SessionDir,
    owner: Option<&Owner>,
    change: impl FnOnce(&mut serde_json::Map<String, serde_json::Value>) -> Result<()>,
) -> Result<sessions::Written> {
    let author = crate::services::agent_session::author(&ctx.repo.tool_dir(), &wt.path);
    let tx = sessions::Transaction::recorded(ctx, wt)?
        .excluding()
        .by(author);
    tx.update(target, |current| {
        let mut doc = current.into_document();
        if let Some(owner) = owner
            && !doc.contains_key("workspace")
        {
            session::merge(&mut doc, &sessions::workspace(wt, owner));
        }
        change(&mut doc)?;
        Ok(doc)
    })
}

/// No task `id` in session `key`: an error naming both.
fn no_task(id: &str, key: &str) -> Error {
    Error::usage_hint(
        msg(
            crate::k!("err.no_task"),
            &[("id", &format!("{id:?}")), ("key", &key)],
        ),
        msg(crate::k!("err.no_task_hint"), &[("id", &id)]),
    )
}

fn no_session(what: &str) -> Error {
    Error::usage_hint(
        msg(crate::k!("err.no_ready_session"), &[("what", &what)]),
        msg(crate::k!("err.no_ready_session_hint"), &[]),
    )
}
