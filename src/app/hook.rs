//! `hook session-start`: the briefing of the agent's worktree as `SessionStart` context.
//! It never fails the agent's start: nothing to resume prints nothing, and any error
//! (a panic too) becomes a one-line note in the context, with exit status 0.

use std::io::IsTerminal as _;
use std::path::PathBuf;

use serde_json::Value;

use super::ProcessOutput;
use crate::cli;
use crate::commands::agent_hook::SessionStartArgs;
use crate::commands::r#continue::ContinueArgs;
use crate::commands::r#continue::{self, Mode};
use crate::support::error::{Error, Result};
use crate::support::text;

pub(super) fn session_start(
    cwd: PathBuf,
    lang: Option<cli::LangArg>,
    overrides: &[(String, String)],
    hook: &SessionStartArgs,
) -> ProcessOutput {
    let (event, dir) = event_and_dir(cwd);
    // The language before the repository's configuration is read (errors need one).
    let early = super::language(lang, None);
    let context = std::panic::catch_unwind(|| -> Result<Option<String>> {
        let ctx = match super::context(dir.clone(), lang, overrides) {
            Ok(ctx) => ctx,
            Err(Error::NotARepository { .. }) => return Ok(None),
            Err(e) => return Err(e),
        };
        // A user-scope hook runs in every repository the user opens: it briefs only
        // where the repository opted in, so a cloned repository's files are not put
        // into every session unasked.
        if hook.scope == Some(cli::shared::HookScope::User) && !opted_in(&ctx) {
            return Ok(None);
        }
        // Installed at two scopes (Codex runs both), the hook briefs once per start.
        if already_briefed(&ctx.repo.common_dir(), &event) {
            return Ok(None);
        }
        let args = ContinueArgs {
            target: None,
            successor: false,
            keep: true,
            adopt: false,
            take: None,
            full: false,
            team: cli::shared::TeamArgs::default(),
        };
        // Well under the 10 s the hook is installed with: history questions still open
        // then are said to be unchecked, and the agent is briefed in time.
        ctx.repo.set_deadline(hook_deadline());
        let report = r#continue::run(&ctx, &args, Mode::ReadOnly, &mut r#continue::Nobody)?;
        let budget = crate::render::hook::Budget::of(hook.agent);
        Ok(crate::render::hook::context(&report, ctx.lang, budget))
    });
    let text = match context {
        Ok(Ok(Some(text))) => text,
        Ok(Ok(None)) => return ProcessOutput::ok(Vec::new()),
        Ok(Err(e)) => format!("git-handover: {}\n", text::escape(&e.message(early))),
        Err(_) => format!(
            "git-handover: {}\n",
            crate::support::i18n::text(early, crate::k!("hook.internal"))
        ),
    };
    ProcessOutput::ok(crate::render::hook::hook_output(&text))
}

/// `hook pre-compact` / `hook session-end`: a reminder to save the handover, as the
/// `systemMessage` agents show the user (Claude Code, Gemini CLI). It never blocks and
/// never fails: nothing to say, or any error, prints nothing.
pub(super) fn reminder(
    cwd: PathBuf,
    lang: Option<cli::LangArg>,
    overrides: &[(String, String)],
) -> ProcessOutput {
    let (event, dir) = event_and_dir(cwd);
    let text = std::panic::catch_unwind(|| -> Option<String> {
        let ctx = super::context(dir, lang, overrides).ok()?;
        let wt = ctx.current_worktree().ok()?;
        let session = ctx
            .ready_session(&wt, &cli::shared::TeamArgs::default())
            .ok()?
            .0?;
        let state = crate::model::state::View::read(&session.state_file()).ok()?;
        if !state.is_ready() {
            return None;
        }
        let started = agent_started(&ctx.repo.common_dir(), &event);
        let unsaved: Vec<String> = state
            .tasks
            .iter()
            .filter(|t| t.status == crate::model::state::TaskStatus::InProgress)
            .filter(|t| match (started, &t.last_touched) {
                // Times in files are to the second: compare seconds.
                (Some(start), Some(touched)) => touched.at.as_second() < start.as_second(),
                // Never touched, or no start known for this agent session: every task
                // in progress is named.
                (Some(_), None) | (None, _) => true,
            })
            .map(|t| format!("[{}]", text::escape(&t.id)))
            .collect();
        let p = crate::render::human::Painter::new(false, ctx.lang);
        let key = text::escape(&session.key);
        Some(if unsaved.is_empty() {
            p.f(crate::k!("remind.saved"), &[("key", &key)])
        } else {
            p.f(
                crate::k!("remind.unsaved"),
                &[("key", &key), ("tasks", &unsaved.join(", "))],
            )
        })
    });
    match text {
        Ok(Some(text)) => {
            let v = serde_json::json!({ "systemMessage": text });
            ProcessOutput::ok(format!("{v}\n").into_bytes())
        }
        _ => ProcessOutput::ok(Vec::new()),
    }
}

/// `hook post-commit`: update this worktree's session for HEAD's commit. Silent and
/// never failing: whatever happens, nothing is printed and the exit status is 0 (the
/// commit is made already; a hook must not make it look failed).
pub(super) fn post_commit(
    cwd: PathBuf,
    lang: Option<cli::LangArg>,
    overrides: &[(String, String)],
) -> ProcessOutput {
    let _ = std::panic::catch_unwind(|| {
        let ctx = super::context(cwd, lang, overrides).ok()?;
        crate::services::post_commit::run(&ctx).ok()
    });
    ProcessOutput::ok(Vec::new())
}

/// When this agent session started: the first `hook session-start` marker of its
/// `session_id` (left by [`already_briefed`]).
fn agent_started(common_dir: &std::path::Path, event: &[u8]) -> Option<jiff::Timestamp> {
    let event: Value = serde_json::from_slice(event).ok()?;
    let session: String = event
        .get("session_id")?
        .as_str()?
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .take(100)
        .collect();
    if session.is_empty() {
        return None;
    }
    let dir = common_dir.join("git-handover").join("hook-starts");
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.starts_with(&format!("{session}-")))
        })
        .filter_map(|e| e.metadata().and_then(|m| m.modified()).ok())
        .min()
        .and_then(|t| jiff::Timestamp::try_from(t).ok())
}

/// Whether this repository opted in to briefings from a user-scope hook: a
/// project-scope hook of git-handover is registered for some agent, or
/// `handover.hook` is true.
fn opted_in(ctx: &crate::services::context::Context) -> bool {
    if let Some(v) = ctx.repo.config_string("handover.hook") {
        return matches!(v.to_ascii_lowercase().as_str(), "true" | "yes" | "on" | "1");
    }
    let Ok(wt) = ctx.current_worktree() else {
        return false;
    };
    [
        ".claude/settings.json",
        ".claude/settings.local.json",
        ".codex/hooks.json",
        ".gemini/settings.json",
    ]
    .iter()
    .any(|f| {
        crate::support::fsio::read_regular(&wt.path.join(f), 4 << 20)
            .ok()
            .is_some_and(|b| {
                let text = String::from_utf8_lossy(&b);
                text.contains("hook session-start")
                    && (text.contains("git-handover") || text.contains("git handover"))
            })
    })
}

/// How long a start counts as the same start: a second hook run for the same session
/// and source within it stays silent.
const SAME_START: std::time::Duration = std::time::Duration::from_secs(30);

/// Whether this session start (the event's `session_id` and `source`) was briefed a
/// moment ago by another run of the hook (one per scope the hook is installed at).
/// The first run leaves a marker in the common git directory; old markers go.
fn already_briefed(common_dir: &std::path::Path, event: &[u8]) -> bool {
    let Ok(event) = serde_json::from_slice::<Value>(event) else {
        return false;
    };
    let clean = |v: Option<&Value>| -> String {
        v.and_then(Value::as_str)
            .unwrap_or_default()
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
            .take(100)
            .collect()
    };
    let session = clean(event.get("session_id"));
    if session.is_empty() {
        return false;
    }
    let source = clean(event.get("source"));
    let dir = common_dir.join("git-handover").join("hook-starts");
    if std::fs::create_dir_all(&dir).is_err() {
        return false;
    }
    let now = std::time::SystemTime::now();
    let age = |p: &std::path::Path| {
        std::fs::symlink_metadata(p)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok())
    };
    // Markers older than a day go, looked for at most once an hour (each look stats
    // every marker: a day of agents starting leaves hundreds).
    let swept = dir.join(".swept");
    if age(&swept).is_none_or(|a| a > std::time::Duration::from_secs(3_600)) {
        let _ = std::fs::File::create(&swept);
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for e in entries.flatten() {
                if age(&e.path()).is_some_and(|a| a > std::time::Duration::from_secs(86_400)) {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
    }
    let marker = dir.join(format!("{session}-{source}"));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&marker)
    {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            if age(&marker).is_some_and(|a| a < SAME_START) {
                return true;
            }
            // An old marker of a new start with the same ids: this run briefs.
            let _ = std::fs::remove_file(&marker);
            let _ = std::fs::File::create(&marker);
            false
        }
        Ok(_) | Err(_) => false,
    }
}

/// How long the hook waits for the agent's event on stdin before it goes on without it
/// (an agent may keep the pipe open).
const STDIN_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// The agent's event: stdin up to 1 MiB, read on a thread, and whatever has come when
/// the pipe closes or `wait` runs out (the thread is left behind; the process ends).
fn read_event(wait: std::time::Duration) -> Vec<u8> {
    use std::io::Read as _;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut event = Vec::new();
        let _ = std::io::stdin().take(1 << 20).read_to_end(&mut event);
        let _ = tx.send(event);
    });
    rx.recv_timeout(wait).unwrap_or_default()
}

/// The agent's event (nothing on a terminal), and the directory to work in: the one
/// the event names, else `cwd`.
fn event_and_dir(cwd: PathBuf) -> (Vec<u8>, PathBuf) {
    let event = if std::io::stdin().is_terminal() {
        Vec::new()
    } else {
        read_event(STDIN_WAIT)
    };
    let dir = event_cwd(&event).unwrap_or(cwd);
    (event, dir)
}

/// The directory the agent's event names (`cwd`), if the event is JSON with one that
/// exists. Empty input, garbage and unknown fields are all fine.
fn event_cwd(stdin: &[u8]) -> Option<PathBuf> {
    let event: Value = serde_json::from_slice(stdin).ok()?;
    let cwd = PathBuf::from(event.get("cwd")?.as_str()?);
    cwd.is_dir().then_some(cwd)
}

/// How long the session-start hook spends on history: 3 s (a test may shorten it with
/// `GIT_HANDOVER_TEST_DEADLINE_MS`, to see what a cut-short briefing says).
fn hook_deadline() -> std::time::Duration {
    std::env::var("GIT_HANDOVER_TEST_DEADLINE_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map_or(
            std::time::Duration::from_secs(3),
            std::time::Duration::from_millis,
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_cwd_tolerates_anything() {
        assert_eq!(event_cwd(b""), None);
        assert_eq!(event_cwd(b"garbage"), None);
        assert_eq!(event_cwd(br#"{"cwd": 7}"#), None);
        assert_eq!(event_cwd(br#"{"cwd": "/no/such/dir/anywhere"}"#), None);
        assert_eq!(
            event_cwd(br#"{"cwd": "/", "extra": {"x": 1}}"#),
            Some(PathBuf::from("/"))
        );
    }
}
