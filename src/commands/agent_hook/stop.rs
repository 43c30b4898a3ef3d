//! `hook stop`: the optional stop gate (`handover.stopGate=true`, SPEC section 11). At
//! the agent's Stop (Claude Code and Codex `Stop`, Gemini CLI `AfterAgent`), once per
//! agent session, when the session worked (commits or changed files since its start)
//! and no task of the handover was updated since then, the stop is held with a reason
//! that is the exact command recording the handover, so the model itself saves it.
//! Never while `stop_hook_active` (the agent is already continuing because of a stop
//! hook), and never twice: the first hold leaves `.stop-<session_id>` in the start
//! markers' directory (`starts::first_stop`). Off, or with anything unknown, silent.

use std::time::Instant;

use serde_json::Value;

use super::args::ReminderArgs;
use super::event::Event;
use crate::cli::shared::{HookScope, TeamArgs};
use crate::model::auto_record;
use crate::services::context::Context;
use crate::support::error::Result;
use crate::support::i18n::{fill, text};
use crate::support::text::shell_word;

/// The reason the stop is held with, or `None`: the agent stops.
pub fn stop(ctx: &Context, event: &Event, args: &ReminderArgs) -> Result<Option<String>> {
    if !ctx.settings.stop_gate || event.flag("stop_hook_active") {
        return Ok(None);
    }
    if args.scope == Some(HookScope::User) && !crate::services::agent_paths::opted_in(ctx) {
        return Ok(None);
    }
    let dir = ctx.repo.tool_dir().hook_starts();
    let Some((started, seen)) = super::starts::agent_start(&dir, event) else {
        return Ok(None);
    };
    let deadline = Instant::now() + std::time::Duration::from_millis(1_500);
    let mut notes = Vec::new();
    let facts = super::record::facts(
        ctx,
        event,
        args.agent,
        (started, &seen),
        deadline,
        &mut notes,
    );
    if !facts.did_work() {
        return Ok(None);
    }
    let wt = ctx.current_worktree()?;
    let session = ctx.ready_session(&wt, &TeamArgs::default())?.0;
    let doc = match &session {
        Some(s) => Some(crate::model::state::State::read(&s.state_file())?.into_document()),
        None => None,
    };
    let tasks: Vec<&Value> = doc
        .as_ref()
        .and_then(|d| d.get("active_tasks"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
    let updated = tasks.iter().any(|t| {
        !auto_record::is_automatic_of(t, None)
            && t.get("last_touched")
                .and_then(Value::as_str)
                .and_then(|s| s.parse::<jiff::Timestamp>().ok())
                .is_some_and(|at| at.as_second() >= started.as_second())
    });
    if updated || !super::starts::first_stop(&dir, event) {
        return Ok(None);
    }
    let lang = ctx.lang;
    let next = shell_word(text(lang, crate::k!("stop.next_words")));
    let commits = super::record::count(&facts);
    let files = facts
        .files_changed
        .len()
        .max(facts.edited_files.len())
        .to_string();
    let in_progress = tasks
        .iter()
        .find(|t| t.get("status").and_then(Value::as_str) == Some("in_progress"))
        .and_then(|t| t.get("id").and_then(Value::as_str));
    if let (Some(session), Some(id)) = (&session, in_progress) {
        let key = shell_word(&session.key);
        let id = shell_word(id);
        let command = format!("git handover task edit {id} --session {key} --next {next}");
        return Ok(Some(fill(
            lang,
            crate::k!("stop.edit"),
            &[
                ("commits", &commits),
                ("files", &files),
                ("key", &key),
                ("command", &command),
                ("id", &id),
            ],
        )));
    }
    let id = free_id(&tasks);
    let description = match &facts.last_request {
        Some(r) => fill(
            lang,
            crate::k!("record.continue"),
            &[("request", &one_line(r))],
        ),
        None => text(lang, crate::k!("record.continue_unknown")).to_owned(),
    };
    let session = session
        .map(|s| format!(" --session {}", shell_word(&s.key)))
        .unwrap_or_default();
    let command = format!(
        "git handover task add {id} {}{session} --next {next}",
        shell_word(&description)
    );
    Ok(Some(fill(
        lang,
        crate::k!("stop.add"),
        &[
            ("commits", &commits),
            ("files", &files),
            ("command", &command),
        ],
    )))
}

/// The first `T<n>` no task has.
fn free_id(tasks: &[&Value]) -> String {
    // One more than there are tasks: one of these ids is free.
    (1..=tasks.len() + 1)
        .map(|n| format!("T{n}"))
        .find(|id| {
            !tasks
                .iter()
                .any(|t| t.get("id").and_then(Value::as_str) == Some(id.as_str()))
        })
        .unwrap_or_default()
}

/// A request on one line, at most 120 characters, with no character a shell word or
/// a hook's text would trip on (the word is quoted; control characters go).
fn one_line(s: &str) -> String {
    let one: String = s
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    if one.chars().count() <= 120 {
        return one;
    }
    let mut cut: String = one.chars().take(120).collect();
    cut.push('…');
    cut
}
