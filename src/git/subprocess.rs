//! The few things done with the `git` binary because gix cannot do them: removing a
//! tracked file with `git rm` and committing that path alone, and fetching and pushing
//! the notes ref over the network for `sync`.

use std::path::Path;
use std::process::Command;

use crate::support::error::{Error, Result};

fn git(worktree: &Path) -> Command {
    let mut cmd = Command::new("git");
    // Point git at this worktree alone, whatever the caller's environment says.
    cmd.current_dir(worktree)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE");
    cmd
}

fn run(mut cmd: Command, what: &str) -> Result<()> {
    let out = cmd.output().map_err(|e| Error::git(what, e))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(Error::git(
            what,
            String::from_utf8_lossy(&out.stderr).trim(),
        ))
    }
}

/// Remove `rel` (relative to `worktree`) from the index and the worktree if git tracks
/// it, and commit that path alone with `message`. Returns whether it was tracked; an
/// untracked file is left for the caller.
pub fn remove_tracked(worktree: &Path, rel: &Path, message: &str) -> Result<bool> {
    let mut rm = git(worktree);
    rm.args(["rm", "-q", "-f", "--ignore-unmatch", "--"])
        .arg(rel);
    run(rm, &format!("git rm {}", rel.display()))?;
    if worktree.join(rel).exists() {
        return Ok(false);
    }
    let mut commit = git(worktree);
    commit
        .args(["commit", "-q", "--no-verify", "-m", message, "--"])
        .arg(rel);
    run(commit, &format!("commit the removal of {}", rel.display()))?;
    Ok(true)
}

/// git run on the repository at `git_dir` (no worktree needed).
fn git_in(git_dir: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.arg("--git-dir")
        .arg(git_dir)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        // Never stop to ask for credentials: an agent has no one to answer.
        .env("GIT_TERMINAL_PROMPT", "0");
    cmd
}

/// Fetch `remote`'s `notes_ref` into `tracking` (a local copy, replaced whole). Returns
/// false when the remote has no such ref yet.
pub fn fetch_notes(git_dir: &Path, remote: &str, notes_ref: &str, tracking: &str) -> Result<bool> {
    let mut cmd = git_in(git_dir);
    cmd.args([
        "fetch",
        "--quiet",
        "--no-tags",
        "--no-write-fetch-head",
        "--",
        remote,
    ])
    .arg(format!("+{notes_ref}:{tracking}"));
    let what = format!("git fetch {remote} {notes_ref}");
    let out = cmd.output().map_err(|e| Error::git(&what, e))?;
    if out.status.success() {
        return Ok(true);
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    if stderr.contains("couldn't find remote ref") {
        return Ok(false);
    }
    Err(Error::git(what, stderr.trim()))
}

/// How a push of the notes ref went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pushed {
    Done,
    /// The remote has commits we lack (it moved since the fetch): fetch and merge again.
    Rejected,
}

/// Push `notes_ref` to the same name on `remote`, never forced.
pub fn push_notes(git_dir: &Path, remote: &str, notes_ref: &str) -> Result<Pushed> {
    let mut cmd = git_in(git_dir);
    cmd.args(["push", "--quiet", "--porcelain", "--", remote])
        .arg(format!("{notes_ref}:{notes_ref}"));
    let what = format!("git push {remote} {notes_ref}");
    let out = cmd.output().map_err(|e| Error::git(&what, e))?;
    if out.status.success() {
        return Ok(Pushed::Done);
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Porcelain output marks a rejected ref with `!` and says why in brackets: the
    // remote has commits we lack, or it moved between our fetch and our push.
    let rejected = stdout.lines().any(|l| {
        l.starts_with('!')
            && [
                "fetch first",
                "non-fast-forward",
                "stale info",
                "failed to update ref",
                "cannot lock ref",
                "failed to lock",
            ]
            .iter()
            .any(|why| l.contains(why))
    });
    if rejected {
        return Ok(Pushed::Rejected);
    }
    Err(Error::git(
        what,
        format!("{} {}", stdout.trim(), stderr.trim()).trim(),
    ))
}
