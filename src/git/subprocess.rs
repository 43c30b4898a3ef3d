//! The few things done with the `git` binary because gix cannot do them: removing a
//! tracked file with `git rm` and committing that path alone, and fetching and pushing
//! the notes ref over the network for `sync`.

use std::path::Path;
use std::process::Command;

use crate::support::error::{Error, Result, msg};

/// git on the worktree at `worktree` whose git directory is `git_dir`, named explicitly
/// (so a caller's `GIT_DIR`/`GIT_WORK_TREE` setup is honoured, not guessed again), in
/// a fixed locale and never asking for anything.
fn git(git_dir: &Path, worktree: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.arg("--git-dir")
        .arg(git_dir)
        .arg("--work-tree")
        .arg(worktree)
        .current_dir(worktree)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .env("LC_ALL", "C")
        .env("GIT_TERMINAL_PROMPT", "0")
        // A note's path is a file name, never a pathspec: `:(icase)a/CONTINUE_HERE.md`
        // must not reach another file.
        .env("GIT_LITERAL_PATHSPECS", "1");
    cmd
}

/// The action of an error from running `command`.
fn run_msg(command: &str) -> crate::support::error::Msg {
    msg(crate::k!("git.run"), &[("command", &command)])
}

fn run(mut cmd: Command, what: &str) -> Result<()> {
    let out = cmd.output().map_err(|e| Error::git(run_msg(what), e))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(Error::git(
            run_msg(what),
            String::from_utf8_lossy(&out.stderr).trim(),
        ))
    }
}

/// What became of a note that was to be removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Removal {
    /// Tracked: removed and the removal committed (that path alone).
    Committed,
    /// Not tracked by git: left for the caller to remove.
    Untracked,
    /// Left exactly as it was, index included: `why` is a catalog key, `detail` what
    /// git said (possibly empty).
    Kept { why: &'static str, detail: String },
}

/// Whether the index holds a version of `rel` that is neither HEAD's nor the
/// worktree's: removing the note would lose those staged-only edits (the kept copy is
/// the worktree's bytes).
fn staged_only(git_dir: &Path, worktree: &Path, rel: &Path) -> Result<bool> {
    let differs = |cached: bool| -> Result<bool> {
        let mut diff = git(git_dir, worktree);
        diff.args(["diff", "--quiet", "--no-ext-diff", "--no-textconv"]);
        if cached {
            diff.arg("--cached");
        }
        diff.arg("--").arg(rel);
        let status = diff
            .output()
            .map_err(|e| Error::git(msg(crate::k!("git.run"), &[("command", &"git diff")]), e))?
            .status;
        Ok(status.code() != Some(0))
    };
    Ok(differs(true)? && differs(false)?)
}

/// An operation in progress in `git_dir` that a commit of ours must not land in.
fn in_progress(git_dir: &Path) -> Option<&'static str> {
    let has = |name: &str| git_dir.join(name).exists();
    if has("rebase-merge") || has("rebase-apply") {
        Some(crate::k!("consume.kept_rebase"))
    } else if has("MERGE_HEAD") {
        Some(crate::k!("consume.kept_merge"))
    } else if has("CHERRY_PICK_HEAD") || has("REVERT_HEAD") || has("sequencer") {
        Some(crate::k!("consume.kept_cherry_pick"))
    } else if has("BISECT_LOG") {
        Some(crate::k!("consume.kept_bisect"))
    } else {
        None
    }
}

/// Remove `rel` (relative to `worktree`) from the index and the worktree if git tracks
/// it, and commit that path alone with `message`. Nothing is committed during a merge,
/// rebase, cherry-pick, revert or bisect, or on an unborn branch; when `git rm` or the
/// commit fails (signing, a hook-less failure), the index file and the note are put
/// back exactly as they were.
pub fn remove_tracked(
    git_dir: &Path,
    worktree: &Path,
    rel: &Path,
    message: &str,
) -> Result<Removal> {
    let mut ls = git(git_dir, worktree);
    ls.args(["ls-files", "--error-unmatch", "--"]).arg(rel);
    let tracked = ls
        .output()
        .map_err(|e| {
            Error::git(
                msg(crate::k!("git.run"), &[("command", &"git ls-files")]),
                e,
            )
        })?
        .status
        .success();
    if !tracked {
        return Ok(Removal::Untracked);
    }
    if let Some(why) = in_progress(git_dir) {
        return Ok(Removal::Kept {
            why,
            detail: String::new(),
        });
    }
    let mut head = git(git_dir, worktree);
    head.args(["rev-parse", "--verify", "--quiet", "HEAD"]);
    if !head
        .output()
        .map_err(|e| {
            Error::git(
                msg(crate::k!("git.run"), &[("command", &"git rev-parse HEAD")]),
                e,
            )
        })?
        .status
        .success()
    {
        return Ok(Removal::Kept {
            why: crate::k!("consume.kept_unborn"),
            detail: String::new(),
        });
    }
    if staged_only(git_dir, worktree, rel)? {
        return Ok(Removal::Kept {
            why: crate::k!("consume.kept_staged"),
            detail: String::new(),
        });
    }
    let index = git_dir.join("index");
    let index_before = std::fs::read(&index).ok();
    let note = worktree.join(rel);
    let note_before = std::fs::read(&note).ok();
    let note_mode = std::fs::symlink_metadata(&note)
        .ok()
        .map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()));
    let mut rm = git(git_dir, worktree);
    rm.args(["rm", "-q", "-f", "--"]).arg(rel);
    let mut commit = git(git_dir, worktree);
    commit
        .args(["commit", "-q", "--no-verify", "-m", message, "--"])
        .arg(rel);
    let result = run(rm, &format!("git rm {}", rel.display()))
        .and_then(|()| run(commit, &format!("git commit -- {}", rel.display())));
    match result {
        Ok(()) => Ok(Removal::Committed),
        Err(e) => {
            restore(&index, index_before.as_deref())?;
            if let Some(bytes) = &note_before
                && std::fs::symlink_metadata(&note).is_err()
            {
                crate::support::fsio::write_atomic(&note, bytes)?;
                if let Some(mode) = note_mode {
                    let _ = std::fs::set_permissions(
                        &note,
                        std::os::unix::fs::PermissionsExt::from_mode(mode),
                    );
                }
            }
            let detail = match e {
                Error::Git { message, .. } => message,
                other => other.to_string(),
            };
            Ok(Removal::Kept {
                why: crate::k!("consume.kept_commit_failed"),
                detail,
            })
        }
    }
}

/// Put the index file back as it was, under git's own `index.lock`.
fn restore(index: &Path, before: Option<&[u8]>) -> Result<()> {
    let _lock = crate::support::fsio::Lock::acquire(index, std::time::Duration::from_secs(5))?;
    match before {
        Some(bytes) => crate::support::fsio::write_atomic(index, bytes),
        None => match std::fs::remove_file(index) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(Error::io(index, "remove", e))
            }
            _ => Ok(()),
        },
    }
}

/// git run on the repository at `git_dir` (no worktree needed).
fn git_in(git_dir: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.arg("--git-dir")
        .arg(git_dir)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        // git's messages in English, whatever the user's locale: they are matched below.
        .env("LC_ALL", "C")
        // Never stop to ask for credentials: an agent has no one to answer.
        .env("GIT_TERMINAL_PROMPT", "0");
    cmd
}

/// Fetch `remote`'s `notes_ref` into `scratch` (a ref of the tool's own, replaced
/// whole), for checking before it goes anywhere else. Returns false when the remote
/// has no such ref: the fetch itself says so (`couldn't find remote ref`, git's words
/// under `LC_ALL=C`), so one connection asks both.
pub fn fetch_notes(git_dir: &Path, remote: &str, notes_ref: &str, scratch: &str) -> Result<bool> {
    let mut cmd = git_in(git_dir);
    cmd.args([
        "fetch",
        "--quiet",
        "--no-tags",
        "--no-write-fetch-head",
        "--",
        remote,
    ])
    .arg(format!("+{notes_ref}:{scratch}"));
    let what = format!("git fetch {remote} {notes_ref}");
    let out = cmd.output().map_err(|e| Error::git(run_msg(&what), e))?;
    if out.status.success() {
        return Ok(true);
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    if stderr.lines().any(|l| {
        l.strip_prefix("fatal: couldn't find remote ref ")
            .is_some_and(|r| r.trim() == notes_ref)
    }) {
        return Ok(false);
    }
    Err(Error::git(run_msg(&what), stderr.trim()))
}

/// How a push of the notes ref went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pushed {
    Done,
    /// The remote has commits we lack (it moved since the fetch): fetch and merge again.
    Rejected,
}

/// A push of the notes ref under way (`start_push_notes`): git runs on its own while
/// the caller prepares what does not depend on its answer; [`PushChild::finish`] waits
/// for it and says how it went.
pub struct PushChild {
    child: std::process::Child,
    what: String,
}

/// Start pushing `source` (a commit id, or `notes_ref` itself) to `notes_ref` on
/// `remote`, only while the remote's ref is still `expect` (the caller checked ours
/// descends from it: a fast-forward, never forced); git is running when this returns.
pub fn start_push_notes(
    git_dir: &Path,
    remote: &str,
    (notes_ref, source): (&str, &str),
    expect: Option<&str>,
) -> Result<PushChild> {
    let mut cmd = git_in(git_dir);
    // The lease: the remote's ref must still be the commit the decision was made on
    // (`expect`; none: it must have no such ref), not merely an ancestor of ours. Our
    // ref may have taken in more of the remote since (another process of this clone
    // fetched and merged): a plain push would then carry a decision made without it.
    cmd.args(["push", "--quiet", "--porcelain"])
        .arg(format!(
            "--force-with-lease={notes_ref}:{}",
            expect.unwrap_or("")
        ))
        .args(["--", remote])
        .arg(format!("{source}:{notes_ref}"))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let what = format!("git push {remote} {notes_ref}");
    let child = cmd.spawn().map_err(|e| Error::git(run_msg(&what), e))?;
    Ok(PushChild { child, what })
}

impl PushChild {
    /// Wait for the push: done, rejected (the remote moved), or git's error.
    pub fn finish(self) -> Result<Pushed> {
        let what = self.what;
        let out = (self.child.wait_with_output()).map_err(|e| Error::git(run_msg(&what), e))?;
        pushed(&what, &out)
    }
}

/// How a push ended, from git's exit status and porcelain output.
fn pushed(what: &str, out: &std::process::Output) -> Result<Pushed> {
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
        run_msg(what),
        format!("{} {}", stdout.trim(), stderr.trim()).trim(),
    ))
}
