//! Which agent session runs this command (issue 34, item 5), from the environment the
//! agent gives the commands its shell tool runs, and what the agent's session-start
//! hook left of it in the tool's directory (`agent-sessions/<agent>-<id>`: its
//! transcript and the directory it started in, which the environment does not carry).
//!
//! The variables (each seen by running the real agent's shell tool: ENGINEERING-NOTES,
//! tests/cli/agents/linkage.rs): Claude Code `CLAUDE_CODE_SESSION_ID` (with
//! `CLAUDECODE=1`), Codex 0.171 `CODEX_THREAD_ID` (and `CODEX_SESSION_ID`, the same
//! id). Gemini CLI 0.61 sets `GEMINI_CLI=1` and no session id: its session is the one
//! Gemini session whose start the hook saw in this directory within a day, and none
//! when there were several (which one runs this command is not known then).

use std::path::Path;

use serde_json::Value;

use crate::git::ToolDir;
use crate::model::agent_session::{AgentSession, Author};

/// The agents' session ids in their tools' environment, and each agent's word.
pub const VARIABLES: &[(&str, &str)] = &[
    ("CLAUDE_CODE_SESSION_ID", "claude"),
    ("CODEX_THREAD_ID", "codex"),
    ("CODEX_SESSION_ID", "codex"),
];

/// How long a Gemini CLI start counts for a save in its directory.
const GEMINI_DAY: std::time::Duration = std::time::Duration::from_secs(86_400);

/// The most a remembered file holds.
const LIMIT: u64 = 16 * 1024;

/// The agent session of the environment `env`, with what its start left in `tool`;
/// `here`: the worktree (a Gemini CLI session is known by its directory).
pub fn from_env(
    env: &dyn Fn(&str) -> Option<String>,
    tool: &ToolDir,
    here: Option<&Path>,
) -> Option<AgentSession> {
    let found = VARIABLES.iter().find_map(|(var, agent)| {
        env(var)
            .filter(|id| !id.is_empty() && id.len() <= 200 && !id.chars().any(char::is_control))
            .map(|id| (id, *agent))
    });
    let (id, agent) = match found {
        Some(found) => found,
        None if env("GEMINI_CLI").as_deref() == Some("1") => (gemini_here(tool, here?)?, "gemini"),
        None => return None,
    };
    let mut session = AgentSession {
        agent: agent.to_owned(),
        session_id: id,
        transcript_path: None,
        cwd: None,
        saved_at: None,
    };
    if let Some(left) = recall(tool, agent, &session.session_id) {
        session.transcript_path = text(&left, "transcript_path");
        session.cwd = text(&left, "cwd");
    }
    Some(session)
}

/// Who makes a write of this process in the worktree `here`: the agent session of its
/// environment, else a person.
pub fn author(tool: &ToolDir, here: &Path) -> Author {
    from_env(&|k| std::env::var(k).ok(), tool, Some(here)).map_or(Author::Person, Author::Agent)
}

/// The one Gemini CLI session whose start in `here` (or a directory in it) the hook saw
/// within a day; `None` when there were none or several.
fn gemini_here(tool: &ToolDir, here: &Path) -> Option<String> {
    let now = std::time::SystemTime::now();
    let mut found = None;
    for e in std::fs::read_dir(tool.agent_sessions()).ok()?.flatten() {
        let name = e.file_name();
        let Some(id) = name
            .to_str()
            .and_then(|n| n.strip_prefix("gemini-"))
            .and_then(|n| n.strip_suffix(".json"))
        else {
            continue;
        };
        let recent = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|a| a < GEMINI_DAY);
        let inside = recall(tool, "gemini", id)
            .and_then(|v| text(&v, "cwd"))
            .is_some_and(|cwd| Path::new(&cwd).starts_with(here));
        if recent && inside {
            if found.is_some() {
                return None;
            }
            found = Some(id.to_owned());
        }
    }
    found
}

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty() && s.len() <= 4096 && !s.chars().any(char::is_control))
        .map(str::to_owned)
}

/// A file name's safe form of an id: letters, digits, `-` and `_`, at most 100.
pub fn file_word(id: &str) -> String {
    id.chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .take(100)
        .collect()
}

fn remembered(tool: &ToolDir, agent: &str, session_id: &str) -> Option<std::path::PathBuf> {
    let id = file_word(session_id);
    (!id.is_empty()).then(|| tool.agent_sessions().join(format!("{agent}-{id}.json")))
}

/// What the session-start hook of `agent`'s session `session_id` left, if anything
/// readable (a link, a FIFO or garbage there is nothing).
fn recall(tool: &ToolDir, agent: &str, session_id: &str) -> Option<Value> {
    let file = remembered(tool, agent, session_id)?;
    let bytes = crate::support::read::read_regular(&file, LIMIT).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Leave, for the later saves of this agent session, its transcript and the directory
/// it started in (the session-start hook's event). Never fails: a directory that is a
/// link, or anything that cannot be written, leaves nothing. Files older than a week
/// go, looked for at most once a day.
pub fn remember(tool: &ToolDir, agent: &str, session_id: &str, transcript: &str, cwd: &Path) {
    let Some(file) = remembered(tool, agent, session_id) else {
        return;
    };
    let dir = tool.agent_sessions();
    if std::fs::create_dir_all(&dir).is_err() || !own_dir(&dir) {
        return;
    }
    let mut v = serde_json::Map::new();
    if !transcript.is_empty() && !transcript.chars().any(char::is_control) {
        v.insert("transcript_path".into(), Value::from(transcript));
    }
    if let Some(cwd) = cwd.to_str() {
        v.insert("cwd".into(), Value::from(cwd));
    }
    let v = Value::Object(v);
    if recall(tool, agent, session_id).is_some_and(|old| old == v) {
        return;
    }
    let bytes = v.to_string();
    let _ = crate::support::fsio::write_cache(&file, bytes.as_bytes());
    sweep(&dir, std::time::Duration::from_secs(7 * 86_400));
}

/// Whether `dir` and its parent are directories of their own, not links.
pub fn own_dir(dir: &Path) -> bool {
    let real = |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir());
    real(dir) && dir.parent().is_none_or(real)
}

/// Remove the files of `dir` older than `age`, at most once a day (a `.swept` stamp).
pub fn sweep(dir: &Path, age: std::time::Duration) {
    let now = std::time::SystemTime::now();
    let older = |p: &Path, than: std::time::Duration| {
        std::fs::symlink_metadata(p)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .is_none_or(|a| a > than)
    };
    let stamp = dir.join(".swept");
    if !older(&stamp, std::time::Duration::from_secs(86_400)) {
        return;
    }
    let _ = crate::support::fsio::write_cache(&stamp, b"");
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.file_name() != ".swept" && older(&e.path(), age) {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_agent_variable_names_the_session() {
        let tool = ToolDir::at(std::path::PathBuf::from("/nonexistent/git-handover"));
        let env = |k: &str| (k == "CODEX_THREAD_ID").then(|| "0199-ab".to_owned());
        let s = from_env(&env, &tool, None).unwrap();
        assert_eq!(
            (s.agent.as_str(), s.session_id.as_str()),
            ("codex", "0199-ab")
        );
        assert_eq!(s.transcript_path, None);
        assert!(from_env(&|_| None, &tool, None).is_none());
        assert!(from_env(&|_| Some(String::new()), &tool, None).is_none());
        let gemini = |k: &str| (k == "GEMINI_CLI").then(|| "1".to_owned());
        assert!(from_env(&gemini, &tool, Some(Path::new("/x"))).is_none());
    }
}
