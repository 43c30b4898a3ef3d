//! The few things done with the `git` binary because gix cannot do them: removing a
//! tracked file with `git rm` and committing that path alone.

use std::path::Path;
use std::process::Command;

use crate::error::{Error, Result};

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
