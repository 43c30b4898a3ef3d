//! The git hook: `hook install|uninstall --git post-commit`, which put
//! `git-handover hook post-commit` into git's post-commit hook and take it out, and
//! `hook post-commit`, what that hook runs after each commit.

mod install;
mod post_commit;

pub use install::{install, uninstall};
pub use post_commit::{PostCommit, run as post_commit};
