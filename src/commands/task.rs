//! `task add|start|done|block|reopen|edit|remove`: edit one task of a session;
//! `task list|show`: read them.

use crate::cli::shared::TeamArgs;
use crate::facts::written::Saved;
use clap::{Args, Subcommand};

use crate::model::session;
use crate::model::task_edit::{self, TaskEdit, TaskError};
use crate::services::context::Context;
use crate::services::sessions::{self, Owner};
use crate::support::error::{Error, Result, msg};

#[derive(Debug, Args)]
pub struct TaskArgs {
    #[command(subcommand)]
    pub op: TaskOp,

    /// Edit the session with this key instead of this branch's ready session.
    #[arg(long, value_name = "KEY", global = true)]
    pub session: Option<String>,

    #[command(flatten)]
    pub team: TeamArgs,
}

#[derive(Debug, Subcommand)]
pub enum TaskOp {
    /// Add a task (status `pending`).
    Add {
        /// The new task's id (unique in the session).
        id: String,
        /// What the task is.
        description: String,
        /// A file the task touches; repeatable.
        #[arg(long = "file", value_name = "PATH")]
        files: Vec<String>,
        /// What to do next.
        #[arg(long, value_name = "TEXT")]
        next: Option<String>,
    },
    /// Mark a task in progress.
    Start {
        /// The task's id.
        id: String,
    },
    /// Mark a task done, recording the commit that did it.
    Done {
        /// The task's id.
        id: String,
        /// The commit (any revision; default HEAD), stored as a full sha.
        #[arg(long, value_name = "REV")]
        commit: Option<String>,
    },
    /// Mark a task blocked.
    Block {
        /// The task's id.
        id: String,
        /// Why; repeatable.
        #[arg(long = "reason", value_name = "TEXT", required = true)]
        reasons: Vec<String>,
    },
    /// Put a done or blocked task back in progress, clearing its blockers.
    Reopen {
        /// The task's id.
        id: String,
    },
    /// Change what a task says: its description, next action or files.
    Edit {
        /// The task's id.
        id: String,
        /// The new description.
        #[arg(long, value_name = "TEXT")]
        description: Option<String>,
        /// The new next action.
        #[arg(long, value_name = "TEXT")]
        next: Option<String>,
        /// The task's files (repeatable); given once or more, they replace the list.
        #[arg(long = "file", value_name = "PATH")]
        files: Vec<String>,
    },
    /// Remove a task from the session (it stays in the notes store's history).
    Remove {
        /// The task's id.
        id: String,
    },
    /// List the session's tasks, one a line (read-only).
    List {
        /// Print only the task ids, one a line (shell completion uses this).
        #[arg(long)]
        ids: bool,
    },
    /// Show one task whole: description, next action, files, blockers, what was tried
    /// (read-only).
    Show {
        /// The task's id.
        id: String,
    },
}

/// The long help of `task`, after its options.
pub const TASK_HELP: &str = "\
The session is this branch's READY session (or the team's with --team/--agent), or the one
named with --session. `add` makes the session when the branch has none. Each edit sets the
task's last_touched, recomputes the session's status (ALL_COMPLETE when every task is done)
and regenerates handover.md, under the session's lock.

Examples:
  git handover task add T2 \"Write the docs\" --file README.md --next \"outline\"
  git handover task start T2
  git handover task done T1 --commit HEAD~1
  git handover task block T2 --reason \"waiting for review\"
  git handover task reopen T2
  git handover task --session main/20261130-120000 done T3";

pub struct Report {
    pub written: Saved,
    pub task: String,
}

pub fn run(ctx: &Context, args: &TaskArgs) -> Result<Report> {
    let wt = ctx.current_worktree()?;
    let (id, edit) = edit_of(ctx, &args.op)?;
    check_id(&id, &edit)?;
    let is_add = matches!(edit, TaskEdit::Add { .. });
    let reopen = edit == TaskEdit::Reopen;
    let (target, chosen) = target(ctx, args, &wt, is_add, reopen)?;
    let owner = chosen.as_ref().map(|(_, o)| o);
    let mut written = write(ctx, &wt, &target, owner, &id, edit)?;
    if let Some((c, _)) = chosen {
        written.skipped.splice(0..0, c.skipped);
        written.others = c.others;
    }
    Ok(Report {
        written: written.into_saved(),
        task: id,
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

/// The session the edit goes to: the one named with `--session`, or the one `choose`
/// picks (kept with the owner: it holds the branch's lock until the write is done).
fn target(
    ctx: &Context,
    args: &TaskArgs,
    wt: &crate::git::Worktree,
    is_add: bool,
    reopen: bool,
) -> Result<(sessions::SessionDir, Option<(sessions::Chosen, Owner)>)> {
    if let Some(key) = &args.session {
        return Ok((ctx.session_by_key(wt, key)?, None));
    }
    let owner = ctx.owner(&args.team, wt)?;
    let root = ctx.write_root(wt);
    let mut c = sessions::choose(
        &root,
        &ctx.other_roots(wt),
        &owner,
        &wt.path,
        ctx.now,
        is_add,
        &ctx.settings,
    )?;
    let target = match (c.session.clone(), &owner) {
        (Some(s), Owner::Team { .. }) if !s.exists() && !is_add => {
            return Err(no_session(&s.key));
        }
        (Some(s), _) => s,
        (None, Owner::Branch(branch)) => {
            // Reopening a task of a finished session reopens the branch's newest one.
            let newest = reopen
                .then(|| sessions::newest_session(&root, &ctx.other_roots(wt), branch, &wt.path))
                .flatten();
            match (newest, c.unreadable.take()) {
                (Some(s), _) => s,
                (None, Some(e)) => return Err(e),
                (None, None) => return Err(no_session(branch)),
            }
        }
        (None, Owner::Team { .. }) => unreachable!("a team always has a session directory"),
    };
    Ok((target, Some((c, owner))))
}

/// Apply `edit` to task `id` of `target` in one transaction.
fn write(
    ctx: &Context,
    wt: &crate::git::Worktree,
    target: &sessions::SessionDir,
    owner: Option<&Owner>,
    id: &str,
    edit: TaskEdit,
) -> Result<sessions::Written> {
    let now = session::format_time(ctx.now);
    let key = target.key.clone();
    let tx = sessions::Transaction::recorded(ctx, wt)?.excluding();
    tx.update(target, |current| {
        let mut doc = current.into_document();
        if let Some(owner) = owner
            && !doc.contains_key("workspace")
        {
            session::merge(&mut doc, &sessions::workspace(wt, owner));
        }
        task_edit::edit_task(&mut doc, id, edit, &now).map_err(|e| match e {
            TaskError::NoSuchTask => Error::usage_hint(
                msg(
                    crate::k!("err.no_task"),
                    &[("id", &format!("{id:?}")), ("key", &key)],
                ),
                msg(crate::k!("err.no_task_hint"), &[("id", &id)]),
            ),
            TaskError::AlreadyExists => Error::usage(msg(
                crate::k!("err.task_exists"),
                &[("id", &format!("{id:?}")), ("key", &key)],
            )),
        })?;
        Ok(doc)
    })
}

/// `task list` and `task show ID`: the session's tasks as the file holds them.
pub struct Listing {
    pub key: String,
    pub path: std::path::PathBuf,
    pub state: crate::model::state::State,
    /// `show`: the task asked for.
    pub show: Option<String>,
    /// `list --ids`: ids only.
    pub ids: bool,
}

/// `task list|show`: read the session `task` would edit, change nothing.
pub fn read(ctx: &Context, args: &TaskArgs) -> Result<Listing> {
    let wt = ctx.current_worktree()?;
    let target = if let Some(key) = &args.session {
        ctx.session_by_key(&wt, key)?
    } else {
        match ctx.ready_session(&wt, &args.team)? {
            (Some(s), _) => s,
            (None, Owner::Branch(branch)) => {
                // A session that cannot be read is named, not called missing.
                let c = sessions::choose(
                    &ctx.write_root(&wt),
                    &ctx.other_roots(&wt),
                    &Owner::Branch(branch.clone()),
                    &wt.path,
                    ctx.now,
                    false,
                    &ctx.settings,
                )?;
                return Err(c.unreadable.unwrap_or_else(|| no_session(&branch)));
            }
            (None, Owner::Team { team, agent }) => {
                return Err(no_session(&format!("{team}/{agent}")));
            }
        }
    };
    let path = target.state_file();
    let state = crate::model::state::State::read(&path)?;
    let show = match &args.op {
        TaskOp::Show { id } => {
            if !state.tasks.iter().any(|t| &t.id == id) {
                return Err(Error::usage_hint(
                    msg(
                        crate::k!("err.no_task"),
                        &[("id", &format!("{id:?}")), ("key", &target.key)],
                    ),
                    msg(crate::k!("err.no_task_hint"), &[("id", id)]),
                ));
            }
            Some(id.clone())
        }
        _ => None,
    };
    Ok(Listing {
        key: target.key,
        path,
        state,
        show,
        ids: matches!(args.op, TaskOp::List { ids: true }),
    })
}

fn no_session(what: &str) -> Error {
    Error::usage_hint(
        msg(crate::k!("err.no_ready_session"), &[("what", &what)]),
        msg(crate::k!("err.no_ready_session_hint"), &[]),
    )
}
