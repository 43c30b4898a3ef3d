//! Keeping handover state out of commits (issue 19): on a write, the handover roots
//! are added to `info/exclude` of the repository's common git directory, so every
//! worktree inherits it, unless `handover.exclude=false`, the root is already ignored,
//! or files under it are already tracked (those are left, and said once).

use std::path::{Path, PathBuf};

use crate::git::Worktree;
use crate::services::context::Context;
use crate::services::scan;
use crate::support::error::{Error, Result};
use crate::support::fsio::{self, Lock};

/// The comment line before the patterns the tool adds.
const HEADER: &str =
    "# git-handover: handover state stays out of commits (handover.exclude=false turns this off)";
/// The comment the tool leaves for a root it did not exclude because files under it
/// are tracked, so that it says so once, not on every write.
const TRACKED_MARK: &str = "# git-handover: tracked, not excluded: ";

pub use crate::facts::written::Exclusion;

/// The pattern for a handover root: anchored at the worktree's top, a directory, the
/// root's name taken literally: git's glob characters and the backslash are escaped, so
/// `handover.dir=ho[1]` excludes `ho[1]/`, never the user's `ho1/`. (After the leading
/// slash, `!` and `#` have no meaning of their own.)
fn pattern(root: &str) -> String {
    let mut out = String::from("/");
    for c in root.trim_matches('/').chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('/');
    out
}

/// Make sure the handover roots of `wt` are excluded. Cheap once done: the file is
/// read, nothing else.
pub fn ensure(ctx: &Context, wt: &Worktree) -> Result<Exclusion> {
    let file = ctx.repo.common_dir().join("info").join("exclude");
    let mut out = Exclusion {
        file: file.clone(),
        ..Exclusion::default()
    };
    if !ctx.settings.exclude || wt.is_bare {
        return Ok(out);
    }
    let roots = scan::roots(&ctx.settings.dir);
    let text = read(&file)?;
    let known = |line: &str| text.lines().any(|l| l.trim() == line);
    let pending: Vec<&String> = roots
        .iter()
        .filter(|r| !known(&pattern(r)) && !known(&format!("{TRACKED_MARK}{}", pattern(r))))
        .collect();
    if pending.is_empty() {
        return Ok(out);
    }
    make_info_dir(&file)?;
    let _lock = Lock::acquire(&file, ctx.settings.lock_timeout)?;
    // Read again under the lock: another writer may have added them meanwhile.
    let mut text = read(&file)?;
    let mut lines: Vec<String> = Vec::new();
    for root in pending {
        let pat = pattern(root);
        if text.lines().any(|l| l.trim() == pat) {
            continue;
        }
        let tracked = ctx
            .repo
            .tracked_under(&wt.git_dir, std::slice::from_ref(root));
        if !tracked.is_empty() {
            let mark = format!("{TRACKED_MARK}{pat}");
            if !text.lines().any(|l| l.trim() == mark) {
                lines.push(mark);
                out.tracked.push(pat);
            }
            continue;
        }
        if ctx.repo.is_ignored_dir(root.trim_matches('/')) == Some(true) {
            continue;
        }
        lines.push(pat.clone());
        out.added.push(pat);
    }
    if lines.is_empty() {
        return Ok(out);
    }
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    if !text.contains(HEADER) && !out.added.is_empty() {
        text.push_str(HEADER);
        text.push('\n');
    }
    for line in lines {
        text.push_str(&line);
        text.push('\n');
    }
    fsio::write_atomic(&file, text.as_bytes())?;
    Ok(out)
}

/// The patterns of `wt`'s handover roots that a write would add to `info/exclude` now
/// (not there, not tracked, not ignored otherwise), without writing: `doctor` asks.
pub fn missing(ctx: &Context, wt: &Worktree) -> Result<Vec<String>> {
    if !ctx.settings.exclude || wt.is_bare {
        return Ok(Vec::new());
    }
    let file = ctx.repo.common_dir().join("info").join("exclude");
    let text = read(&file)?;
    let known = |line: &str| text.lines().any(|l| l.trim() == line);
    Ok(scan::roots(&ctx.settings.dir)
        .iter()
        .filter(|r| !known(&pattern(r)) && !known(&format!("{TRACKED_MARK}{}", pattern(r))))
        .filter(|r| {
            ctx.repo
                .tracked_under(&wt.git_dir, std::slice::from_ref(*r))
                .is_empty()
        })
        .filter(|r| ctx.repo.is_ignored_dir(r.trim_matches('/')) != Some(true))
        .map(|r| pattern(r))
        .collect())
}

/// Add one `pattern` to `info/exclude` (like Claude Code does for its own local
/// settings file) unless it is there or the path is already ignored. Returns the file
/// when it added the pattern.
pub fn ensure_pattern(ctx: &Context, pattern: &str) -> Result<Option<PathBuf>> {
    let file = ctx.repo.common_dir().join("info").join("exclude");
    let known = |text: &str| text.lines().any(|l| l.trim() == pattern);
    if known(&read(&file)?) {
        return Ok(None);
    }
    make_info_dir(&file)?;
    let _lock = Lock::acquire(&file, ctx.settings.lock_timeout)?;
    let mut text = read(&file)?;
    if known(&text) || ctx.repo.is_ignored_file(pattern.trim_start_matches('/')) == Some(true) {
        return Ok(None);
    }
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(pattern);
    text.push('\n');
    fsio::write_atomic(&file, text.as_bytes())?;
    Ok(Some(file))
}

/// Make `info/` (a repository may have none) before its lock is taken in it.
fn make_info_dir(file: &Path) -> Result<()> {
    match file.parent() {
        Some(dir) => std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, "create", e)),
        None => Ok(()),
    }
}

/// `info/exclude` as text; empty when there is none. A file that cannot be read is an
/// error: it is never rewritten.
fn read(file: &Path) -> Result<String> {
    let Some(bytes) = fsio::read_if_exists(file, 1 << 20)? else {
        return Ok(String::new());
    };
    String::from_utf8(bytes).map_err(|_| Error::NotText {
        path: file.to_owned(),
    })
}
