//! `task add|start|done|block|reopen`: edit one task of a session.

use super::Context;
use crate::cli::{TaskArgs, TaskOp};
use crate::error::{Error, Result};
use crate::session::{self, TaskEdit, TaskError};
use crate::store::{self, Owner, Written};

pub struct Report {
    pub written: Written,
    pub task: String,
}

pub fn run(ctx: &Context, args: &TaskArgs) -> Result<Report> {
    let wt = ctx.current_worktree()?;
    let (id, edit) = match &args.op {
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
            let full = ctx.repo.resolve_commit(rev).ok_or_else(|| Error::Usage {
                message: format!("cannot resolve {rev:?} to a commit"),
                hint: Some("name a commit: a sha, a branch, HEAD~1".into()),
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
    };
    if id.is_empty() {
        return Err(Error::Usage {
            message: "a task id must not be empty".into(),
            hint: None,
        });
    }
    let is_add = matches!(edit, TaskEdit::Add { .. });
    let (target, owner) = if let Some(key) = &args.session {
        (ctx.session_by_key(&wt, key)?, None)
    } else {
        let owner = ctx.owner(&args.team, &wt)?;
        let root = ctx.write_root(&wt);
        match (store::current_session(&root, &owner)?, &owner) {
            (Some(s), Owner::Team { .. }) if !s.exists() && !is_add => {
                return Err(no_session(&s.key));
            }
            (Some(s), _) => (s, Some(owner)),
            (None, Owner::Branch(branch)) if is_add => (
                store::new_branch_session(&root, branch, ctx.now)?,
                Some(owner),
            ),
            (None, Owner::Branch(branch)) => return Err(no_session(branch)),
            (None, Owner::Team { .. }) => unreachable!("a team always has a session directory"),
        }
    };
    let head = ctx.store_head()?;
    let now = session::format_time(ctx.now);
    let key = target.key.clone();
    let mut written = store::update(&target, &ctx.settings, ctx.lang, ctx.now, |existing| {
        let mut doc = existing.unwrap_or_default();
        if let Some(owner) = &owner {
            if !doc.contains_key("workspace") {
                session::merge(&mut doc, &super::save::workspace(&wt, owner));
            }
        }
        session::edit_task(&mut doc, &id, edit, &now).map_err(|e| match e {
            TaskError::NoSuchTask => Error::Usage {
                message: format!("no task {id:?} in session {key}"),
                hint: Some(format!(
                    "add it with `git handover task add {id} <description>`"
                )),
            },
            TaskError::AlreadyExists => Error::Usage {
                message: format!("task {id:?} already exists in session {key}"),
                hint: None,
            },
        })?;
        Ok(doc)
    })?;
    if written.changed {
        written.noted = ctx.record_at(head, &ctx.session_record(&written, &wt))?;
    }
    Ok(Report { written, task: id })
}

fn no_session(what: &str) -> Error {
    Error::Usage {
        message: format!("no ready session for {what} in this worktree"),
        hint: Some("create one with `git handover save` or `git handover task add`".into()),
    }
}
