//! git's own hooks: adding `git-handover hook post-commit` to the post-commit hook git
//! runs (in `core.hooksPath`, else the repository's `hooks/`), before what the hook
//! already does, and taking it out again. An existing hook is kept and never
//! overwritten; one that is not a shell script is refused by name.

use std::path::{Path, PathBuf};

pub use crate::facts::git_hook::GitHookReport;
use crate::services::context::Context;
use crate::support::error::{Error, Result, msg};
use crate::support::fsio;

/// The lines the tool adds, between its markers.
const BEGIN: &str =
    "# git-handover: begin (git handover hook uninstall --git post-commit removes this)";
const END: &str = "# git-handover: end";
const LINE: &str = "command -v git-handover >/dev/null 2>&1 && git-handover hook post-commit >/dev/null 2>&1 || true";

/// The directory git runs hooks from: `core.hooksPath` (relative to the worktree's
/// top, as git reads it), else `<common dir>/hooks`.
fn hooks_dir(ctx: &Context) -> Result<PathBuf> {
    if let Some(path) = ctx.repo.config_string("core.hooksPath") {
        let path = PathBuf::from(path);
        if path.is_absolute() {
            return Ok(path);
        }
        let top = ctx.current_worktree()?.path;
        return Ok(top.join(path));
    }
    Ok(ctx.repo.common_dir().join("hooks"))
}

fn block() -> String {
    format!("{BEGIN}\n{LINE}\n{END}\n")
}

pub fn install(ctx: &Context) -> Result<GitHookReport> {
    let dir = hooks_dir(ctx)?;
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, "create", e))?;
    let path = dir.join("post-commit");
    let real = fsio::through_links(&path);
    let _lock = fsio::Lock::acquire(&real, ctx.settings.lock_timeout)?;
    let existing = fsio::read_if_exists(&real, fsio::MAX_FILE_SIZE)?;
    let Some(bytes) = existing else {
        let text = format!("#!/bin/sh\n{}", block());
        fsio::write_atomic(&real, text.as_bytes())?;
        make_executable(&real)?;
        return Ok(GitHookReport {
            install: true,
            path,
            changed: true,
            chained: false,
        });
    };
    let text = String::from_utf8(bytes).map_err(|_| Error::NotText { path: real.clone() })?;
    if text.contains(BEGIN) {
        return Ok(GitHookReport {
            install: true,
            path,
            changed: false,
            chained: true,
        });
    }
    // Ours goes right after the interpreter line: it runs first and can never stop
    // what follows (its failures are swallowed), whatever the script does later.
    let Some(first) = text.lines().next().filter(|l| {
        l.starts_with("#!") && (l.contains("sh") || l.contains("bash") || l.contains("zsh"))
    }) else {
        return Err(Error::Unedited {
            message: msg(
                crate::k!("err.githook_not_shell"),
                &[("path", &real.display())],
            ),
            hint: msg(crate::k!("err.githook_hint"), &[("line", &LINE)]),
        });
    };
    let rest = &text[first.len()..];
    let new = format!(
        "{first}\n{}{}",
        block(),
        rest.strip_prefix('\n').unwrap_or(rest)
    );
    fsio::write_atomic(&real, new.as_bytes())?;
    Ok(GitHookReport {
        install: true,
        path,
        changed: true,
        chained: true,
    })
}

pub fn uninstall(ctx: &Context) -> Result<GitHookReport> {
    let dir = hooks_dir(ctx)?;
    let path = dir.join("post-commit");
    let real = fsio::through_links(&path);
    let mut report = GitHookReport {
        install: false,
        path: path.clone(),
        changed: false,
        chained: false,
    };
    if std::fs::symlink_metadata(&real).is_err() {
        return Ok(report);
    }
    let _lock = fsio::Lock::acquire(&real, ctx.settings.lock_timeout)?;
    let Some(bytes) = fsio::read_if_exists(&real, fsio::MAX_FILE_SIZE)? else {
        return Ok(report);
    };
    let text = String::from_utf8(bytes).map_err(|_| Error::NotText { path: real.clone() })?;
    let Some(start) = text.find(BEGIN) else {
        return Ok(report);
    };
    let Some(end) = text[start..].find(END).map(|e| start + e + END.len()) else {
        return Ok(report);
    };
    let end = if text[end..].starts_with('\n') {
        end + 1
    } else {
        end
    };
    let rest = format!("{}{}", &text[..start], &text[end..]);
    // A hook that was only ours goes; one that had more keeps the rest.
    if rest.trim() == "#!/bin/sh" {
        std::fs::remove_file(&real).map_err(|e| Error::io(&real, "remove", e))?;
    } else {
        fsio::write_atomic(&real, rest.as_bytes())?;
        report.chained = true;
    }
    report.changed = true;
    Ok(report)
}

fn make_executable(path: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, "read", e))?;
    let mut perms = meta.permissions();
    // Executable where readable, as git's own sample hooks are.
    let mode = perms.mode();
    perms.set_mode(mode | ((mode & 0o444) >> 2));
    std::fs::set_permissions(path, perms).map_err(|e| Error::io(path, "chmod", e))
}
