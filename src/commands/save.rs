//! `save`: create or update the session of the current branch (or team/agent) from a
//! full or partial state given as JSON.

use serde_json::{Map, Value};

use super::{Context, read_input};
use crate::cli::SaveArgs;
use crate::error::{Error, Result};
use crate::session;
use crate::store::{self, Owner, Written};

pub fn run(ctx: &Context, args: &SaveArgs) -> Result<Written> {
    let (bytes, name) = read_input(args.from.as_deref())?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
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
    let target = match store::current_session(&root, &owner)? {
        Some(s) => s,
        None => match &owner {
            Owner::Branch(branch) => store::new_branch_session(&root, branch, ctx.now)?,
            Owner::Team { .. } => unreachable!("a team always has a session directory"),
        },
    };
    let head = ctx.store_head()?;
    let workspace = workspace(&wt, &owner);
    let mut written = store::update(&target, &ctx.settings, ctx.lang, ctx.now, |existing| {
        let mut doc = existing.unwrap_or_default();
        session::merge(&mut doc, incoming);
        session::merge(&mut doc, &workspace);
        Ok(doc)
    })?;
    if written.changed {
        written.noted = ctx.record_at(head, &ctx.session_record(&written, &wt))?;
    }
    Ok(written)
}

/// The `workspace` the tool records: the worktree and, for a branch session, the branch.
pub fn workspace(wt: &crate::git::Worktree, owner: &Owner) -> Map<String, Value> {
    let mut ws = Map::new();
    ws.insert("root".into(), Value::from(wt.path.display().to_string()));
    if let Owner::Branch(branch) = owner {
        ws.insert("branch".into(), Value::from(branch.clone()));
    }
    ws.insert("is_worktree".into(), Value::from(!wt.is_main));
    let mut outer = Map::new();
    outer.insert("workspace".into(), Value::Object(ws));
    outer
}
