//! git's own hooks: adding `git-handover hook post-commit` to the post-commit hook git
//! runs (in `core.hooksPath`, else the repository's `hooks/`), before what the hook
//! already does, and taking it out again. An existing hook is kept and never
//! overwritten; one that is not a shell script is refused by name.

use std::path::Path;

pub use crate::facts::git_hook::GitHookReport;
use crate::services::context::Context;
use crate::support::error::{Error, Result, msg};
use crate::support::fsio;

use crate::services::git_hooks::{BEGIN, END, LINE, MADE, hooks_dir};

/// Whether `line` (a hook's first line) runs a shell: the interpreter's own name is
/// `sh`, `bash`, `dash`, `zsh` or `ksh`, also behind `env` (its options and
/// `NAME=value` words skipped, `-S` split). Anything else (`python3` under a `shims`
/// directory, `csh`, `env -S deno … # sh`) is not.
fn runs_a_shell(line: &str) -> bool {
    const SHELLS: [&str; 5] = ["sh", "bash", "dash", "zsh", "ksh"];
    let Some(rest) = line.strip_prefix("#!") else {
        return false;
    };
    let name = |w: &str| w.rsplit('/').next().unwrap_or(w).to_owned();
    let mut words = rest.split_whitespace();
    let Some(first) = words.next() else {
        return false;
    };
    let mut interpreter = name(first);
    if interpreter == "env" {
        // `env -S 'bash -e'`: the split string's words come first.
        let words: Vec<&str> = words
            .flat_map(|w| match w.strip_prefix("-S") {
                Some(joined) if !joined.is_empty() => vec!["-S", joined],
                _ => vec![w],
            })
            .collect();
        let mut i = 0;
        while i < words.len() {
            let w = words[i];
            match w {
                // Options that take a value as the next word.
                "-u" | "--unset" | "-C" | "--chdir" => i += 2,
                w if w.starts_with('-') || w.contains('=') => i += 1,
                w => {
                    interpreter = name(w);
                    break;
                }
            }
        }
        if interpreter == "env" {
            return false;
        }
    }
    SHELLS.contains(&interpreter.as_str())
}

/// Whether git would run the file at `path`: executable by its owner, group or others.
fn executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
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
        let text = format!("#!/bin/sh\n{MADE}\n{}", block());
        fsio::write_atomic(&real, text.as_bytes())?;
        make_executable(&real)?;
        return Ok(GitHookReport {
            install: true,
            path,
            changed: true,
            chained: false,
            disabled: false,
        });
    };
    let text = String::from_utf8(bytes).map_err(|_| Error::NotText { path: real.clone() })?;
    // A hook that is not executable is one git does not run (disabled, perhaps on
    // purpose): it is not made executable behind the user's back, and the report says so.
    let disabled = !executable(&real);
    if text.contains(BEGIN) {
        return Ok(GitHookReport {
            install: true,
            path,
            changed: false,
            chained: true,
            disabled,
        });
    }
    // Ours goes right after the interpreter line: it runs first and can never stop
    // what follows (its failures are swallowed), whatever the script does later.
    let Some(first) = text.lines().next().filter(|l| runs_a_shell(l)) else {
        return Err(Error::Unedited {
            message: msg(
                crate::k!("err.githook_not_shell"),
                &[("path", &real.display())],
            ),
            hint: msg(crate::k!("err.githook_hint"), &[("line", &LINE)]),
        });
    };
    // The interpreter line ends with its newline, or the file with it (`#!/bin/sh`
    // alone): uninstall puts back exactly what was there.
    let rest = &text[first.len()..];
    let (newline, rest) = match rest.strip_prefix('\n') {
        Some(after) => ("\n", after),
        None => ("", rest),
    };
    let marker = if newline.is_empty() {
        format!("{BEGIN} (no newline)")
    } else {
        BEGIN.to_owned()
    };
    let new = format!("{first}\n{marker}\n{LINE}\n{END}\n{rest}");
    fsio::write_atomic(&real, new.as_bytes())?;
    Ok(GitHookReport {
        install: true,
        path,
        changed: true,
        chained: true,
        disabled,
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
        disabled: false,
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
    let mut before = &text[..start];
    // An interpreter line that had no newline of its own gets none back.
    if text[start..].starts_with(&format!("{BEGIN} (no newline)")) {
        before = before.strip_suffix('\n').unwrap_or(before);
    }
    let rest = format!("{before}{}", &text[end..]);
    // A hook the tool made goes; one the user added to after keeps their lines (and
    // loses the tool's mark). Any other keeps the rest, which is what was there before
    // install.
    let made = format!("#!/bin/sh\n{MADE}\n");
    if rest == made {
        std::fs::remove_file(&real).map_err(|e| Error::io(&real, "remove", e))?;
    } else {
        let rest = match rest.strip_prefix(&made) {
            Some(theirs) => format!("#!/bin/sh\n{theirs}"),
            None => rest,
        };
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
