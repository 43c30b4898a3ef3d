//! The git post-commit hook: whether git runs git-handover's line after each commit,
//! from the directory git runs hooks from (`core.hooksPath`, else `<common dir>/hooks`).

use std::path::Path;

use super::{Check, Outcome};
use crate::services::context::Context;
use crate::services::git_hooks::{BEGIN, MADE, hooks_dir};
use crate::support::text::shell_word;

const INSTALL: &str = "git handover hook install --git post-commit";

fn read(path: &Path) -> Option<String> {
    crate::support::fsio::read_regular(path, 4 << 20)
        .ok()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
}

fn executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

fn note(key: &'static str) -> Check {
    Check {
        outcome: Outcome::Note,
        fix: Some(INSTALL.into()),
        ..Check::ok("git_hook", key)
    }
}

pub(super) fn check(ctx: &Context) -> Check {
    let Ok(dir) = hooks_dir(ctx) else {
        return Check::problem("git_hook", crate::k!("doctor.git_hook_no_dir"), None, false);
    };
    let file = dir.join("post-commit");
    let real = crate::support::fsio::through_links(&file);
    let text = read(&real);
    if let Some(text) = text.as_deref().filter(|t| t.contains(BEGIN)) {
        if executable(&real) {
            return Check::ok("git_hook", crate::k!("doctor.git_hook_ok")).at(file);
        }
        // A file the tool made is its own to make runnable again; a hook of the
        // user's that is off may be off on purpose.
        let ours = text.lines().nth(1) == Some(MADE);
        return Check::problem(
            "git_hook",
            crate::k!("doctor.git_hook_not_executable"),
            Some(format!(
                "chmod +x {}",
                shell_word(&real.display().to_string())
            )),
            ours,
        )
        .at(file);
    }
    // Installed where git used to look, before `core.hooksPath` moved it.
    let default = ctx.repo.common_dir().join("hooks").join("post-commit");
    if crate::support::fsio::through_links(&default) != real
        && read(&default).is_some_and(|t| t.contains(BEGIN))
    {
        return Check::problem(
            "git_hook",
            crate::k!("doctor.git_hook_elsewhere"),
            Some(INSTALL.into()),
            false,
        )
        .with("ignored", default.display())
        .at(file);
    }
    if text.is_some() {
        return note(crate::k!("doctor.git_hook_foreign")).at(file);
    }
    note(crate::k!("doctor.git_hook_none")).at(file)
}

/// `--fix`: make the hook file the tool made executable again.
pub(super) fn apply(ctx: &Context, check: &Check) -> Check {
    if let Some(file) = &check.path {
        use std::os::unix::fs::PermissionsExt as _;
        let real = crate::support::fsio::through_links(file);
        if let Ok(meta) = std::fs::metadata(&real) {
            let mut perms = meta.permissions();
            let mode = perms.mode();
            perms.set_mode(mode | ((mode & 0o444) >> 2));
            let _ = std::fs::set_permissions(&real, perms);
        }
    }
    self::check(ctx)
}
