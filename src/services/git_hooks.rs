//! Where git runs the post-commit hook from and the lines git-handover puts in it:
//! shared by `hook install --git post-commit` (which writes them) and `doctor` (which
//! reads them).

use std::path::{Path, PathBuf};

use crate::services::context::Context;
use crate::support::error::{Error, Result, msg};
use crate::support::fsio;

/// The lines the tool adds, between its markers.
pub const BEGIN: &str =
    "# git-handover: begin (git handover hook uninstall --git post-commit removes this)";
pub const END: &str = "# git-handover: end";
pub const LINE: &str = "command -v git-handover >/dev/null 2>&1 && git-handover hook post-commit >/dev/null 2>&1 || true";

/// The line after the interpreter line of a hook the tool made itself (there was no
/// hook): `uninstall` removes such a file whole, and only such a file. A hook that was
/// there before gets its own text back, byte for byte, whatever it held.
pub const MADE: &str =
    "# git-handover: made this file (git handover hook uninstall --git post-commit removes it)";

/// The directory git runs hooks from: `core.hooksPath`, read as git reads a path (a
/// leading `~/` or `~user/` is that home directory; a relative path is relative to the
/// worktree's top, where git runs hooks), else `<common dir>/hooks`.
pub fn hooks_dir(ctx: &Context) -> Result<PathBuf> {
    if let Some(value) = ctx.repo.config_string("core.hooksPath") {
        let path = expand_home(&value)?;
        if path.is_absolute() {
            return Ok(path);
        }
        let top = ctx.current_worktree()?.path;
        return Ok(top.join(path));
    }
    Ok(ctx.repo.common_dir().join("hooks"))
}

/// `value` with a leading `~` (`$HOME`) or `~user` (that user's home, from
/// `/etc/passwd`) expanded, as git expands a path in its configuration; an error, as in
/// git, when the home is unknown.
fn expand_home(value: &str) -> Result<PathBuf> {
    let Some(rest) = value.strip_prefix('~') else {
        return Ok(PathBuf::from(value));
    };
    let (user, tail) = rest.split_once('/').unwrap_or((rest, ""));
    let home = if user.is_empty() {
        std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
    } else {
        home_of(user)
    };
    let Some(home) = home else {
        return Err(Error::InvalidConfig {
            key: "core.hooksPath".into(),
            value: value.to_owned(),
            expected: msg(crate::k!("err.githook_no_home"), &[]),
        });
    };
    Ok(if tail.is_empty() {
        home
    } else {
        home.join(tail)
    })
}

/// The home directory of `user` in `/etc/passwd`.
fn home_of(user: &str) -> Option<PathBuf> {
    let passwd = fsio::read_regular(Path::new("/etc/passwd"), 16 << 20).ok()?;
    String::from_utf8_lossy(&passwd).lines().find_map(|l| {
        let fields: Vec<&str> = l.split(':').collect();
        (fields.len() >= 7 && fields[0] == user && !fields[5].is_empty())
            .then(|| PathBuf::from(fields[5]))
    })
}
