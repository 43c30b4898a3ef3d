//! `migrate`: move a legacy v2 state into `<root>/<branch>/<fingerprint>/` (SPEC section 7).
//! The new copy is written and read back before the old files are removed.

use crate::services::context::Context;
pub use crate::services::legacy::Report;
use crate::support::error::Result;

pub fn run(ctx: &Context) -> Result<Report> {
    crate::services::legacy::migrate_in(ctx, &ctx.current_worktree()?)
}
