//! `why REV`: which session, task and decision recorded a commit — from the state files
//! of every worktree and from the notes store, so it still answers after the worktree is
//! gone and on another clone. Exit 1 when nothing recorded it.

use std::path::PathBuf;

use clap::Args;

use crate::git::{CommitId, CommitLine};
use crate::model::why::{Mention, mentions};
use crate::services::context::Context;
use crate::services::scan::{self, Found, STATE_FILE};
use crate::support::error::{Error, Result, msg};

#[derive(Debug, Args)]
pub struct WhyArgs {
    /// The commit (any revision, resolved in this worktree).
    #[arg(value_name = "REV")]
    pub rev: String,
}

/// The long help of `why`, after its options.
pub const WHY_HELP: &str = "\
A commit is recorded by a task done with it (commit_sha), an architecture change, or a
decision that names it. Every session of every worktree is read, then the notes store
(the newest record of each session that names the commit), so a session that was
cleaned, or lives on another clone, still answers. A short sha written in a state counts
only when git resolves it to this very commit.

Examples:
  git handover why HEAD
  git handover why 3f2a9c1
  git handover --json why HEAD~2";

/// Where a mention was read.
#[derive(Debug, Clone)]
pub enum Place {
    /// A session's state file.
    File(PathBuf),
    /// A record of the notes store: the commit it is noted on, and when it was saved.
    Store {
        noted_on: CommitId,
        saved_at: String,
    },
}

#[derive(Debug, Clone)]
pub struct Recorded {
    pub key: String,
    pub session_id: Option<String>,
    pub branch: Option<String>,
    pub place: Place,
    pub mention: Mention,
    /// The agent session that wrote the state the entry was read from (issue 34).
    pub agent_session: Option<crate::model::agent_session::AgentSession>,
}

pub struct Report {
    pub commit: CommitLine,
    pub found: Vec<Recorded>,
    /// State files that could not be read (and so were not searched).
    pub unreadable: Vec<PathBuf>,
    /// Notes store lines that could not be read.
    pub skipped: Vec<String>,
}

pub fn run(ctx: &Context, args: &WhyArgs) -> Result<Report> {
    let full = ctx.repo.resolve_commit(&args.rev).ok_or_else(|| {
        Error::usage_hint(
            msg(
                crate::k!("err.bad_rev"),
                &[("rev", &format!("{:?}", args.rev))],
            ),
            msg(crate::k!("err.rev_hint"), &[]),
        )
    })?;
    let commit = ctx
        .repo
        .history()
        .recent_commits(full, 1)?
        .into_iter()
        .next()
        .unwrap_or(CommitLine {
            id: full,
            subject: String::new(),
        });
    let hex = full.to_string();
    let mut report = Report {
        commit,
        found: Vec::new(),
        unreadable: Vec::new(),
        skipped: Vec::new(),
    };
    in_files(ctx, &hex, &mut report)?;
    in_store(ctx, &hex, &mut report)?;
    Ok(report)
}

/// The agent session a state says wrote it.
fn writer(
    doc: &serde_json::Map<String, serde_json::Value>,
) -> Option<crate::model::agent_session::AgentSession> {
    crate::model::agent_session::AgentSession::from_value(doc.get(crate::model::agent_session::KEY))
}

/// Whether `written` (as a state wrote it) is this commit, asked of git.
fn is_commit(ctx: &Context, written: &str, full: &str) -> bool {
    ctx.repo
        .resolve_commit(&written.trim().to_ascii_lowercase())
        .is_some_and(|c| c.to_string() == full)
}

fn in_files(ctx: &Context, full: &str, report: &mut Report) -> Result<()> {
    for wt in ctx.repo.worktrees()? {
        if !wt.exists || wt.is_bare {
            continue;
        }
        for found in scan::scan_worktree(&wt.path, &ctx.settings.dir) {
            let Found::Session { key, dir, .. } = found else {
                continue;
            };
            let file = dir.join(STATE_FILE);
            let Ok(state) = crate::model::state::State::read(&file) else {
                report.unreadable.push(file);
                continue;
            };
            let doc = state.document();
            for named in mentions(doc, full) {
                if is_commit(ctx, &named.written, full) {
                    report.found.push(Recorded {
                        key: key.clone(),
                        session_id: doc
                            .get("session_id")
                            .and_then(|v| v.as_str())
                            .map(str::to_owned),
                        branch: wt.branch.clone(),
                        place: Place::File(file.clone()),
                        mention: named.mention,
                        agent_session: writer(doc),
                    });
                }
            }
        }
    }
    Ok(())
}

/// The notes store, newest record first: a mention already found (in a file, or in a
/// newer record of the same session) is not said again.
fn in_store(ctx: &Context, full: &str, report: &mut Report) -> Result<()> {
    let (mut records, skipped) = ctx.store().records()?;
    report.skipped = skipped;
    records.sort_by_key(|r| std::cmp::Reverse(r.record.saved_at));
    let (lower, upper) = (full[..7].to_owned(), full[..7].to_ascii_uppercase());
    for stored in records {
        let record = &stored.record;
        let Some(state) = &record.state else {
            continue;
        };
        // Most records do not name the commit at all: looked for before parsing.
        if !(state.text().contains(&lower) || state.text().contains(&upper)) {
            continue;
        }
        let doc = state.doc();
        for named in mentions(&doc, full) {
            let same_session = |r: &Recorded| match (&r.session_id, &record.session_id) {
                (Some(a), Some(b)) => a == b,
                _ => r.key == record.key,
            };
            let seen = report
                .found
                .iter()
                .any(|r| same_session(r) && r.mention == named.mention);
            if !seen && is_commit(ctx, &named.written, full) {
                report.found.push(Recorded {
                    key: record.key.clone(),
                    session_id: record.session_id.clone(),
                    branch: record.branch.clone(),
                    place: Place::Store {
                        noted_on: stored.commit,
                        saved_at: crate::model::session::format_time(record.saved_at),
                    },
                    mention: named.mention,
                    agent_session: writer(&doc),
                });
            }
        }
    }
    Ok(())
}
