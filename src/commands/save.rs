//! `save`: create or update the session of the current branch (or team/agent) from a
//! full or partial state given as JSON.

use crate::cli::shared::TeamArgs;
use clap::Args;
use std::path::PathBuf;

use serde_json::Value;

use crate::facts::written::Saved;
use crate::model::session;
use crate::services::context::Context;
use crate::services::input::read_input;
use crate::services::sessions;
use crate::support::error::{Error, Result};

#[derive(Debug, Args)]
pub struct SaveArgs {
    /// Read the state from FILE instead of stdin.
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,

    #[command(flatten)]
    pub team: TeamArgs,
}

/// The long help of `save`, after its options.
pub const SAVE_HELP: &str = "\
The input is a full or partial project-state.json. It is merged into the session: tasks
with the same id are replaced and new ones appended; decisions are appended unless an
identical one exists; architecture changes keep the newest 10; known issues are replaced
when given; status, generated_at and session_hash are the tool's own. The READY session
of this branch is reused, else a new <branch>/<YYYYMMDD-HHMMSS> directory is made. A save
that changes nothing rewrites nothing.

Fields a writer uses (`git handover schema state` prints them all as a JSON Schema):
  active_tasks          [{id, description, status, file_paths, next_action,
                          blockers, commit_sha, last_touched, attempted_approaches}]
    status              pending | in_progress | blocked | done
    commit_sha          a sha or a revision (HEAD), stored as the full id
    attempted_approaches  [{approach, result, reason}]
  recent_decisions      [{decision, rationale, date}]
  architecture_changes  [{commit_sha, summary, files_changed, date}]
  known_issues          [{description, severity, related_files}]
  phase_observations, session_notes, phase_summaries
A key or task status not among these is kept as written, with a warning naming the
nearest known one (under --json, in `warnings`).

Examples:
  echo '{\"active_tasks\":[{\"id\":\"T1\",\"description\":\"Parse\",
        \"status\":\"in_progress\"}]}' | git handover save
  git handover save --from state.json --team alpha --agent reviewer";

pub fn run(ctx: &Context, args: &SaveArgs) -> Result<Saved> {
    let input = parse_input(args).map_err(Error::of_input)?;
    let incoming = input.as_object().expect("checked to be an object");
    // Typos are kept as written (nothing an agent saved is lost) and said.
    let unknown = crate::model::state::known::unknown_in(incoming);
    // `commit_sha` given as a revision (`HEAD`, `main~1`, a short sha) is stored as the
    // full id it names now, like `task done --commit REV`; what does not resolve here
    // (a commit of another clone) is kept as written.
    let mut incoming = incoming.clone();
    if let Some(Value::Array(tasks)) = incoming.get_mut("active_tasks") {
        for t in tasks.iter_mut() {
            let Some(Value::String(rev)) = t.get("commit_sha") else {
                continue;
            };
            if let Some(id) = ctx.repo.resolve_commit(rev.trim()) {
                t["commit_sha"] = Value::from(id.to_string());
            }
        }
    }
    let incoming = &incoming;
    let wt = ctx.current_worktree()?;
    let owner = ctx.owner(&args.team, &wt)?;
    let root = ctx.write_root(&wt);
    let chosen = sessions::choose(
        &root,
        &ctx.other_roots(&wt),
        &owner,
        &wt.path,
        ctx.now,
        true,
        &ctx.settings,
    )?;
    let target = chosen
        .session
        .clone()
        .expect("a session is made when there is none");
    let fresh = !target.exists();
    let workspace = sessions::workspace(&wt, &sessions::recorded_owner(&owner, &target));
    let author = crate::services::agent_session::author(&ctx.repo.tool_dir(), &wt.path);
    let written = sessions::Transaction::recorded(ctx, &wt).and_then(|tx| {
        tx.excluding().by(author).update(&target, |current| {
            let mut doc = current.into_document();
            session::merge(&mut doc, incoming);
            session::merge(&mut doc, &workspace);
            Ok(doc)
        })
    });
    let mut written = match written {
        Ok(w) => w,
        Err(e) => {
            // A session made for this save and left empty by its failure goes again,
            // so the next save does not get a `-2` beside it.
            if fresh {
                let _ = std::fs::remove_dir(target.dir());
            }
            return Err(e);
        }
    };
    written.skipped.splice(0..0, chosen.skipped);
    written.others = chosen.others;
    written.reopened = chosen.reopened;
    written.passed_over = chosen.passed_over;
    let mut saved = written.into_saved();
    saved.unknown = unknown;
    Ok(saved)
}

/// The input, read and validated on its own; its errors name the input.
fn parse_input(args: &SaveArgs) -> Result<Value> {
    let (bytes, name) = read_input(args.from.as_deref())?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    crate::model::state::check_value_count(bytes, &name)?;
    let input =
        crate::model::state::strict::from_slice(bytes).map_err(|e| Error::json(&name, &e))?;
    let incoming =
        session::check_input(&input).map_err(|(field, message)| Error::InvalidField {
            file: name.clone(),
            field,
            message,
        })?;
    validate_input(incoming, &name)?;
    Ok(input)
}

/// Validate the input on its own before anything is merged or created: each task and
/// field as the state reader checks them, with errors naming the input and the input's
/// own field paths (`active_tasks[1].status` of the input, not of the merged state).
fn validate_input(input: &serde_json::Map<String, Value>, name: &std::path::Path) -> Result<()> {
    let mut doc = serde_json::Map::new();
    for (k, v) in input {
        if !v.is_null() {
            doc.insert(k.clone(), v.clone());
        }
    }
    if let Some(Value::Array(tasks)) = doc.get_mut("active_tasks") {
        for t in tasks.iter_mut() {
            if let Value::Object(m) = t {
                m.retain(|_, v| !v.is_null());
            }
        }
    }
    doc.insert("version".into(), Value::from(session::WRITE_VERSION));
    doc.insert("status".into(), Value::from(crate::model::state::READY));
    doc.entry("active_tasks")
        .or_insert_with(|| Value::Array(Vec::new()));
    crate::model::state::State::from_doc(doc, name).map(|_| ())
}
