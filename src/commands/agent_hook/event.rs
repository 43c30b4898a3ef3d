//! The agent's event, the JSON an agent hands its hooks on stdin.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// How long the hook waits for the agent's event on stdin before it goes on without it
/// (an agent may keep the pipe open).
const STDIN_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// What the agent said (nothing on a terminal), and the directory to work in: the one
/// the event names, else where the hook was started.
pub struct Event {
    bytes: Vec<u8>,
    dir: PathBuf,
}

impl Event {
    /// The event on stdin, and its directory (else `cwd`). Never fails: empty input,
    /// garbage and unknown fields are all fine.
    pub fn read(cwd: &Path) -> Event {
        let bytes = if std::io::stdin().is_terminal() {
            Vec::new()
        } else {
            read_stdin(STDIN_WAIT)
        };
        let dir = event_cwd(&bytes).unwrap_or_else(|| cwd.to_owned());
        Event { bytes, dir }
    }

    /// The directory the hook works in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The claim holder's name for the agent session of this event (`claude-1a2b3c4d`,
    /// as its tools derive it from the session id in their environment), unless
    /// `GIT_HANDOVER_AS` names one: then `None`, and the name comes from there.
    pub fn claim_name(&self, agent: crate::cli::shared::HookAgent) -> Option<String> {
        use crate::cli::shared::HookAgent;
        if std::env::var_os(crate::services::claims::AS_ENV).is_some() {
            return None;
        }
        let word = match agent {
            HookAgent::Claude => "claude",
            HookAgent::Codex => "codex",
            HookAgent::Gemini => "gemini",
            HookAgent::Copilot => "copilot",
        };
        crate::services::claims::agent_identity(word, &self.clean("session_id"))
    }

    /// The event's string `field` as given (a path, a message), if any.
    pub(super) fn text(&self, field: &str) -> Option<String> {
        let event = serde_json::from_slice::<Value>(&self.bytes).ok()?;
        event.get(field)?.as_str().map(str::to_owned)
    }

    /// Whether the event's boolean `field` is `true`.
    pub(super) fn flag(&self, field: &str) -> bool {
        serde_json::from_slice::<Value>(&self.bytes)
            .ok()
            .and_then(|e| e.get(field).and_then(Value::as_bool))
            .unwrap_or(false)
    }

    /// The event's `field`, kept to the characters a file name may safely hold (at
    /// most 100); empty when the event is not JSON or has no such string.
    pub(super) fn clean(&self, field: &str) -> String {
        let Ok(event) = serde_json::from_slice::<Value>(&self.bytes) else {
            return String::new();
        };
        // GitHub Copilot CLI names the session `sessionId`.
        let camel = (field == "session_id").then_some("sessionId");
        event
            .get(field)
            .or_else(|| camel.and_then(|c| event.get(c)))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
            .take(100)
            .collect()
    }
}

/// Stdin up to 1 MiB, read on a thread, and whatever has come when the pipe closes or
/// `wait` runs out (the thread is left behind; the process ends).
fn read_stdin(wait: std::time::Duration) -> Vec<u8> {
    use std::io::Read as _;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut event = Vec::new();
        let _ = std::io::stdin().take(1 << 20).read_to_end(&mut event);
        let _ = tx.send(event);
    });
    rx.recv_timeout(wait).unwrap_or_else(|_| {
        crate::support::testing::note("stdin-wait-over");
        Vec::new()
    })
}

/// The directory the agent's event names (`cwd`), if the event is JSON with one that
/// exists.
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
