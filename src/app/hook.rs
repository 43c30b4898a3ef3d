//! `hook session-start`: the briefing of the agent's worktree as `SessionStart` context.
//! It never fails the agent's start: nothing to resume prints nothing, and any error
//! (a panic too) becomes a one-line note in the context, with exit status 0.

use std::io::IsTerminal as _;
use std::path::PathBuf;

use serde_json::Value;

use super::ProcessOutput;
use crate::cli::{self, ContinueArgs};
use crate::commands::r#continue::{self, Mode};
use crate::support::error::{Error, Result};
use crate::support::text;

pub(super) fn session_start(
    cwd: PathBuf,
    lang: Option<cli::LangArg>,
    overrides: &[(String, String)],
) -> ProcessOutput {
    let event = if std::io::stdin().is_terminal() {
        Vec::new()
    } else {
        read_event(STDIN_WAIT)
    };
    let dir = event_cwd(&event).unwrap_or(cwd);
    // The language before the repository's configuration is read (errors need one).
    let early = super::language(lang, None);
    let context = std::panic::catch_unwind(|| -> Result<Option<String>> {
        let ctx = match super::context(dir.clone(), lang, overrides) {
            Ok(ctx) => ctx,
            Err(Error::NotARepository { .. }) => return Ok(None),
            Err(e) => return Err(e),
        };
        let args = ContinueArgs {
            target: None,
            successor: false,
            keep: true,
            adopt: false,
            team: cli::TeamArgs::default(),
        };
        let report = r#continue::run(&ctx, &args, Mode::ReadOnly, &mut |_| None)?;
        Ok(crate::render::hook::context(&report, ctx.lang))
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

/// The directory the agent's event names (`cwd`), if the event is JSON with one that
/// exists. Empty input, garbage and unknown fields are all fine.
fn event_cwd(stdin: &[u8]) -> Option<PathBuf> {
    let event: Value = serde_json::from_slice(stdin).ok()?;
    let cwd = PathBuf::from(event.get("cwd")?.as_str()?);
    cwd.is_dir().then_some(cwd)
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
