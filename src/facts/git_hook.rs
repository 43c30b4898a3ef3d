//! What adding the tool to git's post-commit hook, or taking it out, did.

use std::path::PathBuf;

/// What `hook install|uninstall --git post-commit` did.
#[derive(Debug)]
pub struct GitHookReport {
    pub install: bool,
    pub path: PathBuf,
    pub changed: bool,
    /// The hook was there before: ours runs first, then it, as before.
    pub chained: bool,
    /// The hook is not executable: git does not run it (nor the tool's line in it).
    pub disabled: bool,
}
