//! The hooks that must never fail: the agent hooks (`hook session-start`,
//! `hook pre-compact`, `hook session-end`) and git's (`hook post-commit`). Each runs
//! its command, and whatever the command does, an error or a panic included, becomes
//! silence or one line, with exit status 0: a hook must not fail the agent's start or
//! make a commit look failed.

use crate::commands::agent_hook::{self, Event, Moment, Reminder, ReminderArgs, SessionStartArgs};
use crate::commands::r#continue::{self, ContinueArgs, Mode};
use crate::commands::git_hook;
use crate::render::human::Painter;
use crate::support::error::{Error, Result};
use crate::support::text;

use super::ProcessOutput;
use super::invocation::Invocation;

/// `hook session-start`: the briefing of the agent's worktree as `SessionStart`
/// context. Nothing to resume prints nothing; an error becomes a one-line note in the
/// context.
pub(super) fn session_start(inv: &mut Invocation, args: &SessionStartArgs) -> ProcessOutput {
    let event = Event::read(&inv.cwd);
    // The language before the repository's configuration is read (errors need one).
    let early = inv.lang;
    if nowhere(event.dir()) {
        let line = format!("git-handover: {}\n", nowhere_line(early));
        return ProcessOutput::ok(crate::render::agent_hook::hook_output(args.agent, &line));
    }
    let context = std::panic::catch_unwind(std::panic::AssertUnwindSafe(
        || -> Result<Option<String>> {
            let mut ctx = match inv.open(event.dir().to_owned()) {
                Ok(ctx) => ctx,
                Err(Error::NotARepository { .. }) => return Ok(None),
                Err(e) => return Err(e),
            };
            let briefed = agent_hook::agent_session(&ctx, &event, args);
            if !agent_hook::session_start(&mut ctx, &event, args) {
                return Ok(None);
            }
            let mut briefing = ContinueArgs::briefing();
            briefing.briefed = briefed;
            briefing.holder = args.agent.and_then(|a| event.claim_name(a));
            let report = r#continue::run(&ctx, &briefing, Mode::ReadOnly, &mut r#continue::Nobody)?;
            let budget = crate::render::agent_hook::Budget::of(args.agent);
            Ok(crate::render::agent_hook::context(
                &report, ctx.lang, budget,
            ))
        },
    ));
    let text = match context {
        Ok(Ok(Some(text))) => text,
        Ok(Ok(None)) => return ProcessOutput::ok(Vec::new()),
        Ok(Err(e)) => format!("git-handover: {}\n", text::escape(&e.message(early))),
        Err(_) => format!(
            "git-handover: {}\n",
            crate::support::i18n::text(early, crate::k!("hook.internal"))
        ),
    };
    ProcessOutput::ok(crate::render::agent_hook::hook_output(args.agent, &text))
}

/// `hook pre-compact` / `hook session-end`: what this agent session did, recorded into
/// the worktree's session (at the end, its claims released), then a reminder to save
/// the handover, as the `systemMessage` agents show the user (Claude Code, Gemini CLI).
/// Nothing to say prints nothing; an error becomes one line. Worded for `moment`.
pub(super) fn reminder(inv: &mut Invocation, args: &ReminderArgs, moment: Moment) -> ProcessOutput {
    let event = Event::read(&inv.cwd);
    if nowhere(event.dir()) {
        return said(nowhere_line(inv.lang));
    }
    let early = inv.lang;
    let text = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| -> Option<String> {
        // Outside a repository there is nothing to record or say; a repository git
        // cannot read is said, as the start says it (one line).
        let mut ctx = match inv.open(event.dir().to_owned()) {
            Ok(ctx) => ctx,
            Err(Error::NotARepository { .. }) => return None,
            Err(e) => {
                let why = text::escape(&e.message(early));
                let line = crate::k!("record.unreadable");
                return Some(crate::support::i18n::fill(early, line, &[("why", &why)]));
            }
        };
        let mut lines = match agent_hook::record(&mut ctx, &event, args, moment) {
            Ok(recorded) => record_lines(&recorded, ctx.lang),
            Err(e) => vec![crate::support::i18n::fill(
                ctx.lang,
                crate::k!("record.unreadable"),
                &[("why", &text::escape(&e.message(ctx.lang)))],
            )],
        };
        if let Ok(Some(reminder)) = agent_hook::reminder(&ctx, &event, args, moment) {
            lines.push(reminder_text(&reminder, moment, &inv.painter(false)));
        }
        (!lines.is_empty()).then(|| lines.join("\n"))
    }));
    match text {
        Ok(Some(text)) => {
            let v = serde_json::json!({ "systemMessage": text });
            ProcessOutput::ok(format!("{v}\n").into_bytes())
        }
        Ok(None) => ProcessOutput::ok(Vec::new()),
        Err(_) => said(crate::support::i18n::text(early, crate::k!("hook.internal")).to_owned()),
    }
}

/// The lines that say what the record did: the session made or written, the claims
/// released, a lock that kept it from writing, what could not be read.
fn record_lines(r: &agent_hook::Recorded, lang: crate::support::i18n::Lang) -> Vec<String> {
    use crate::support::i18n::fill;
    let key = text::escape(r.key.as_deref().unwrap_or_default());
    let (commits, files) = (r.commits.to_string(), r.files.to_string());
    let mut lines: Vec<String> = r
        .notes
        .iter()
        .map(|n| {
            fill(
                lang,
                crate::k!("record.transcript"),
                &[("why", &text::escape(n))],
            )
        })
        .collect();
    if r.locked {
        let owner = crate::support::error::LockOwner::describe(r.lock_owner.as_ref(), lang);
        lines.push(fill(
            lang,
            crate::k!("record.locked"),
            &[("key", &key), ("owner", &owner)],
        ));
        return lines;
    }
    if let Some(task) = &r.created {
        lines.push(fill(
            lang,
            crate::k!("record.created"),
            &[
                ("key", &key),
                ("task", &text::escape(task)),
                ("commits", &commits),
                ("files", &files),
            ],
        ));
    } else if r.wrote && (r.commits > 0 || r.files > 0 || r.released.is_empty()) {
        lines.push(fill(
            lang,
            crate::k!("record.recorded"),
            &[("key", &key), ("commits", &commits), ("files", &files)],
        ));
    }
    if let (Some(holder), false) = (&r.holder, r.released.is_empty()) {
        let tasks: Vec<String> = r
            .released
            .iter()
            .map(|t| format!("[{}]", text::escape(t)))
            .collect();
        lines.push(fill(
            lang,
            crate::k!("record.released"),
            &[
                ("holder", &text::escape(holder)),
                ("tasks", &tasks.join(", ")),
                ("key", &key),
            ],
        ));
    }
    lines
}

/// `hook stop`: the stop gate. Held, the agent's blocking form (Claude Code and Codex
/// `Stop`, Gemini CLI `AfterAgent` all take `{"decision":"block","reason":…}`); else,
/// and on any error, nothing: the agent stops.
pub(super) fn stop(inv: &mut Invocation, args: &ReminderArgs) -> ProcessOutput {
    let event = Event::read(&inv.cwd);
    if nowhere(event.dir()) {
        return ProcessOutput::ok(Vec::new());
    }
    let reason = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let ctx = inv.open(event.dir().to_owned()).ok()?;
        agent_hook::stop(&ctx, &event, args).ok()?
    }));
    match reason {
        Ok(Some(reason)) => {
            let v = serde_json::json!({ "decision": "block", "reason": reason });
            ProcessOutput::ok(format!("{v}\n").into_bytes())
        }
        _ => ProcessOutput::ok(Vec::new()),
    }
}

/// The reminder's words. Its commands name a real task id, not a placeholder: Gemini
/// CLI HTML-escapes angle brackets in hook text (`<id>` reaches the model as
/// `&lt;id&gt;`), and a command with a real id runs as printed.
fn reminder_text(reminder: &Reminder, moment: Moment, p: &Painter) -> String {
    let key = text::escape(&reminder.key);
    let Some(first) = reminder.unsaved.first() else {
        return p.f(crate::k!("remind.saved"), &[("key", &key)]);
    };
    {
        let tasks: Vec<String> = reminder
            .unsaved
            .iter()
            .map(|id| format!("[{}]", text::escape(id)))
            .collect();
        let words = match moment {
            Moment::Compact => crate::k!("remind.unsaved_compact"),
            Moment::End => crate::k!("remind.unsaved_end"),
        };
        p.f(
            words,
            &[
                ("key", &key),
                ("tasks", &tasks.join(", ")),
                ("id", &text::escape(first)),
            ],
        )
    }
}

/// `hook post-commit`: update this worktree's session for HEAD's commit. Whatever
/// happens, the exit status is 0 (the commit is made already), and nothing is printed
/// but one line when the session's lock was held (the hook never waits for it) or
/// there is no directory to work in.
pub(super) fn post_commit(inv: &mut Invocation) -> ProcessOutput {
    if nowhere(&inv.cwd) {
        return said(nowhere_line(inv.lang));
    }
    let skipped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let ctx = inv.open(inv.cwd.clone()).ok()?;
        match git_hook::post_commit(&ctx).ok()? {
            git_hook::PostCommit::Skipped { key, owner } => {
                let owner = crate::support::error::LockOwner::describe(owner.as_ref(), ctx.lang);
                Some(crate::support::i18n::fill(
                    ctx.lang,
                    crate::k!("githook.skipped_locked"),
                    &[("key", &text::escape(&key)), ("owner", &owner)],
                ))
            }
            git_hook::PostCommit::Unchanged | git_hook::PostCommit::Written => None,
        }
    }));
    match skipped {
        Ok(Some(line)) => said(line),
        _ => ProcessOutput::ok(Vec::new()),
    }
}

/// Whether the hook has no directory to work in: the one it was started in was
/// removed, and neither `-C` nor the agent's event named another that exists.
fn nowhere(dir: &std::path::Path) -> bool {
    dir.as_os_str().is_empty()
}

fn nowhere_line(lang: crate::support::i18n::Lang) -> String {
    crate::support::i18n::text(lang, crate::k!("hook.nowhere")).to_owned()
}

/// Exit status 0, nothing on stdout (an agent reads it as JSON), and `line` on stderr.
fn said(line: String) -> ProcessOutput {
    let mut out = ProcessOutput::ok(Vec::new());
    out.notices.infos.push(line);
    out
}
