//! The repository's checks: the commit-graph, `info/exclude`, sessions that cannot be
//! read, stale locks, and the notes store (`notes.rewriteRef`, the remote's copy).

use std::path::{Path, PathBuf};

use super::{Check, Outcome};
use crate::git::Worktree;
use crate::services::context::Context;
use crate::services::scan::{self, Found, STATE_FILE};
use crate::support::error::Result;
use crate::support::text::shell_word;

pub(super) fn checks(ctx: &Context, wt: &Worktree) -> Result<Vec<Check>> {
    let mut checks = vec![commit_graph(ctx), exclude(ctx, wt)];
    let worktrees: Vec<Worktree> = ctx
        .repo
        .worktrees()?
        .into_iter()
        .filter(|w| w.exists && !w.is_bare)
        .collect();
    let (sessions, locks) = sessions_and_locks(ctx, &worktrees);
    checks.extend(sessions);
    checks.extend(locks);
    if ctx.store().enabled() {
        checks.push(rewrite_ref(ctx));
        checks.push(notes_remote(ctx)?);
    }
    Ok(checks)
}

/// Apply the fix of a `safe` problem; the check as it comes out afterwards.
pub(super) fn apply(ctx: &Context, wt: &Worktree, check: &Check) -> Result<Check> {
    Ok(match check.id {
        "exclude" => {
            crate::services::exclude::ensure(ctx, wt)?;
            exclude(ctx, wt)
        }
        "rewrite_ref" => {
            ctx.repo.add_rewrite_ref(&ctx.settings.notes_ref)?;
            // The repository's configuration as read at the start does not show it yet.
            Check::ok("rewrite_ref", crate::k!("doctor.rewrite_ref_ok"))
                .with("ref", &ctx.settings.notes_ref)
        }
        "opt_in" => {
            ctx.repo.push_local_config("handover", "hook", "true")?;
            let mut after = check.clone();
            after.key = crate::k!("doctor.hook_opted_in");
            after.outcome = Outcome::Ok;
            after
        }
        "lock" => match &check.path {
            Some(lock)
                if crate::support::lock::remove_if_stale(lock, ctx.settings.lock_timeout) =>
            {
                Check::ok("lock", crate::k!("doctor.lock_removed")).at(lock.clone())
            }
            _ => check.clone(),
        },
        _ => check.clone(),
    })
}

/// Below this many commits, walking them one by one is quick: a missing commit-graph
/// is only a note.
const LARGE_HISTORY: usize = 10_000;

fn commit_graph(ctx: &Context) -> Check {
    if ctx.repo.has_commit_graph() {
        Check::ok("commit_graph", crate::k!("doctor.commit_graph_ok"))
    } else if !ctx.repo.history_at_least(LARGE_HISTORY) {
        Check {
            outcome: Outcome::Note,
            fix: Some("git commit-graph write --reachable".into()),
            ..Check::ok("commit_graph", crate::k!("doctor.commit_graph_small"))
        }
    } else {
        Check::problem(
            "commit_graph",
            crate::k!("doctor.commit_graph_missing"),
            Some("git commit-graph write --reachable".into()),
            false,
        )
    }
}

fn exclude(ctx: &Context, wt: &Worktree) -> Check {
    let file = crate::git::normalize(&ctx.repo.common_dir().join("info").join("exclude"));
    if !ctx.settings.exclude {
        return Check {
            outcome: Outcome::Note,
            ..Check::ok("exclude", crate::k!("doctor.exclude_off"))
        };
    }
    // A file that cannot be read (not a regular file, too large) is this check's
    // problem, named with why, to be mended by hand: the other checks still run.
    let missing = match crate::services::exclude::missing(ctx, wt) {
        Ok(missing) => missing,
        Err(e) => {
            let check = Check::problem(
                "exclude",
                crate::k!("doctor.exclude_unreadable"),
                None,
                false,
            );
            return check.with("error", e.message(ctx.lang)).at(file);
        }
    };
    if missing.is_empty() {
        return Check::ok("exclude", crate::k!("doctor.exclude_ok")).at(file);
    }
    let words: Vec<String> = missing.iter().map(|p| shell_word(p)).collect();
    let dir = file
        .parent()
        .map(|d| d.display().to_string())
        .unwrap_or_default();
    let fix = format!(
        "mkdir -p {} && printf '%s\\n' {} >> {}",
        shell_word(&dir),
        words.join(" "),
        shell_word(&file.display().to_string())
    );
    Check::problem(
        "exclude",
        crate::k!("doctor.exclude_missing"),
        Some(fix),
        true,
    )
    .with("patterns", missing.join(" "))
    .at(file)
}

/// Every session of every worktree: one problem per state that cannot be read, and one
/// check per lock left in a session directory or the tool's own directory.
fn sessions_and_locks(ctx: &Context, worktrees: &[Worktree]) -> (Vec<Check>, Vec<Check>) {
    let mut unreadable = Vec::new();
    let mut locks = Vec::new();
    let mut read = 0usize;
    let mut lock_dirs: Vec<PathBuf> = vec![ctx.repo.tool_dir().path().to_owned()];
    for wt in worktrees {
        for found in scan::scan_worktree(&wt.path, &ctx.settings.dir) {
            let Found::Session { dir, .. } = found else {
                continue;
            };
            read += 1;
            let state = dir.join(STATE_FILE);
            if let Err(e) = crate::model::state::View::read(&state) {
                unreadable.push(
                    Check::problem(
                        "sessions",
                        crate::k!("doctor.session_unreadable"),
                        None,
                        false,
                    )
                    .with("error", e.message(ctx.lang))
                    .at(state),
                );
            }
            lock_dirs.push(dir);
        }
    }
    for dir in lock_dirs {
        locks.extend(lock_checks(ctx, &dir));
    }
    if unreadable.is_empty() {
        let key = if read == 1 {
            crate::k!("doctor.sessions_ok_one")
        } else {
            crate::k!("doctor.sessions_ok")
        };
        unreadable.push(Check::ok("sessions", key).with("count", read));
    }
    (unreadable, locks)
}

/// The locks in `dir`: a stale one is a problem (`--fix` removes it, re-checking under
/// the lock's own rule that it is stale), a live one is a note naming its owner.
fn lock_checks(ctx: &Context, dir: &Path) -> Vec<Check> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|x| x != "lock") {
            continue;
        }
        let owner = crate::support::lock::lock_owner(&path);
        let owner = crate::support::error::LockOwner::describe(owner.as_ref(), ctx.lang);
        if crate::support::lock::is_stale(&path, ctx.settings.lock_timeout) {
            out.push(
                Check::problem(
                    "lock",
                    crate::k!("doctor.lock_stale"),
                    Some(format!("rm {}", shell_word(&path.display().to_string()))),
                    true,
                )
                .with("owner", owner)
                .at(path),
            );
        } else {
            out.push(
                Check {
                    outcome: Outcome::Note,
                    ..Check::ok("lock", crate::k!("doctor.lock_held"))
                }
                .with("owner", owner)
                .at(path),
            );
        }
    }
    out
}

fn rewrite_ref(ctx: &Context) -> Check {
    let notes_ref = &ctx.settings.notes_ref;
    if ctx.repo.has_rewrite_ref(notes_ref) {
        return Check::ok("rewrite_ref", crate::k!("doctor.rewrite_ref_ok")).with("ref", notes_ref);
    }
    Check::problem(
        "rewrite_ref",
        crate::k!("doctor.rewrite_ref_missing"),
        Some(format!(
            "git config --add notes.rewriteRef {}",
            shell_word(notes_ref)
        )),
        true,
    )
    .with("ref", notes_ref)
}

/// The notes store against `origin`'s copy, as last fetched by `sync` (no network).
fn notes_remote(ctx: &Context) -> Result<Check> {
    let notes_ref = &ctx.settings.notes_ref;
    if ctx.repo.config_string("remote.origin.url").is_none() {
        return Ok(Check {
            outcome: Outcome::Note,
            ..Check::ok("notes_remote", crate::k!("doctor.notes_no_remote"))
        });
    }
    let tracking = crate::services::remote_claim::tracking_ref(ctx, "origin");
    let local = ctx.repo.ref_target(notes_ref)?;
    let remote = ctx.repo.ref_target(&tracking)?;
    let (key, outcome) = match (&local, &remote) {
        (_, None) => (crate::k!("doctor.notes_never_synced"), Outcome::Note),
        (Some(l), Some(r)) if l == r => (crate::k!("doctor.notes_in_sync"), Outcome::Ok),
        _ => (crate::k!("doctor.notes_differ"), Outcome::Note),
    };
    let mut check = Check {
        outcome,
        ..Check::ok("notes_remote", key)
    }
    .with("remote", "origin");
    if outcome != Outcome::Ok {
        check.fix = Some("git handover sync origin".into());
    }
    Ok(check)
}
