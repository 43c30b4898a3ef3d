//! `save`: create or update the session of the current branch (or team/agent) from a
//! full or partial state given as JSON.

use serde_json::Value;

use crate::cli::SaveArgs;
use crate::model::session;
use crate::services::context::Context;
use crate::services::input::read_input;
use crate::services::sessions::{self, Written};
use crate::support::error::{Error, Result};

pub fn run(ctx: &Context, args: &SaveArgs) -> Result<Written> {
    let (bytes, name) = read_input(args.from.as_deref())?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    crate::model::state::check_value_count(bytes, &name)?;
    let input: Value = serde_json::from_slice(bytes).map_err(|e| Error::json(&name, &e))?;
    let incoming =
        session::check_input(&input).map_err(|(field, message)| Error::InvalidField {
            file: name.clone(),
            field,
            message,
        })?;
    let wt = ctx.current_worktree()?;
    let owner = ctx.owner(&args.team, &wt)?;
    let root = ctx.write_root(&wt);
    let chosen = sessions::choose(&root, &owner, &wt.path, ctx.now, true, &ctx.settings)?;
    let target = chosen
        .session
        .clone()
        .expect("a session is made when there is none");
    let head = ctx.store_head()?;
    let workspace = sessions::workspace(&wt, &owner);
    let mut written = sessions::update(&target, &ctx.settings, ctx.lang, ctx.now, |existing| {
        let mut doc = existing.unwrap_or_default();
        session::merge(&mut doc, incoming);
        session::merge(&mut doc, &workspace);
        Ok(doc)
    })?;
    written.skipped = chosen.skipped;
    if written.changed {
        written.exclusion = crate::services::exclude::ensure(ctx, &wt)?;
        written.noted = ctx.record_at(head, &ctx.session_record(&written, &wt))?;
    }
    Ok(written)
}
