//! The agent session that wrote a state (issue 34, item 5): the state's top-level
//! `agent_session` key, `{"agent", "session_id", "transcript_path", "cwd", "saved_at"}`,
//! set by a write that changed something when an agent made it, taken away when a
//! person did (a handover never says an agent wrote what a person wrote), and left as
//! it is by the tool's own writes (git's post-commit hook). It is part of the state
//! like any other key, so of its `session_hash` too (SPEC section 2 leaves no key
//! out); it never churns, since a write that changes nothing else is not made.
//!
//! From it, the command that resumes that very conversation, each agent's own:
//! Claude Code `claude --resume ID`, Codex `codex resume ID`, Gemini CLI
//! `gemini --resume ID` (a full session UUID; `latest` and an index also work there).

use serde_json::{Map, Value};

/// The state's key.
pub const KEY: &str = "agent_session";

/// The longest session id or path kept (anything longer is not an agent's).
const MAX: usize = 4096;

/// An agent session: which agent, its own session id, its transcript and the directory
/// it runs in (where its resume command must run), when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentSession {
    /// `claude`, `codex`, `gemini`, or another agent's word.
    pub agent: String,
    pub session_id: String,
    pub transcript_path: Option<String>,
    pub cwd: Option<String>,
    /// When it wrote the state (RFC 3339, to the second).
    pub saved_at: Option<String>,
}

/// Who makes a write, for its `agent_session`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Author {
    /// The tool itself (a git hook): the key stays as the file has it.
    Keep,
    /// A person: the key goes.
    Person,
    /// An agent session: the key names it.
    Agent(AgentSession),
}

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty() && s.len() <= MAX && !s.chars().any(char::is_control))
        .map(str::to_owned)
}

impl AgentSession {
    /// The key's value as a state holds it; `None` when it is missing or not of this
    /// shape (a hand edit): then nothing is said of it.
    pub fn from_value(v: Option<&Value>) -> Option<AgentSession> {
        let v = v?;
        Some(AgentSession {
            agent: text(v, "agent").filter(|a| a.len() <= 40)?,
            session_id: text(v, "session_id")?,
            transcript_path: text(v, "transcript_path"),
            cwd: text(v, "cwd"),
            saved_at: text(v, "saved_at"),
        })
    }

    /// The value the state keeps.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("agent".into(), Value::from(self.agent.clone()));
        m.insert("session_id".into(), Value::from(self.session_id.clone()));
        for (k, v) in [
            ("transcript_path", &self.transcript_path),
            ("cwd", &self.cwd),
            ("saved_at", &self.saved_at),
        ] {
            if let Some(v) = v {
                m.insert(k.into(), Value::from(v.clone()));
            }
        }
        Value::Object(m)
    }

    /// The words of the agent's own command that resumes this conversation, or `None`
    /// for an agent without one known, or a session id that is not an id (it could
    /// be taken for an option).
    pub fn resume_words(&self) -> Option<Vec<String>> {
        let id = &self.session_id;
        let plain = id.len() <= 200
            && !id.starts_with('-')
            && id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        if !plain {
            return None;
        }
        let words: &[&str] = match self.agent.as_str() {
            "claude" => &["claude", "--resume"],
            "codex" => &["codex", "resume"],
            "gemini" => &["gemini", "--resume"],
            _ => return None,
        };
        let mut out: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
        out.push(id.clone());
        Some(out)
    }

    /// The command that resumes this conversation where it ran: `cd DIR && claude
    /// --resume ID`, every word shell-quoted. The directory is the one the agent
    /// started in (its hook's `cwd`), else `worktree`: each agent finds its
    /// conversations by the directory it runs in.
    pub fn resume_command(&self, worktree: Option<&str>) -> Option<String> {
        let words = self.resume_words()?;
        let command = words
            .iter()
            .map(|w| crate::support::text::shell_word(w))
            .collect::<Vec<_>>()
            .join(" ");
        Some(match self.cwd.as_deref().or(worktree) {
            Some(dir) => format!("cd {} && {command}", crate::support::text::shell_word(dir)),
            None => command,
        })
    }
}

/// Set the document's `agent_session` as `author` says (the write is known to change
/// something), at `saved_at`.
pub fn stamp(doc: &mut Map<String, Value>, author: &Author, saved_at: &str) {
    match author {
        Author::Keep => {}
        Author::Person => {
            doc.remove(KEY);
        }
        Author::Agent(agent) => {
            let mut agent = agent.clone();
            agent.saved_at = Some(saved_at.to_owned());
            doc.insert(KEY.into(), agent.to_value());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn claude(id: &str) -> AgentSession {
        AgentSession {
            agent: "claude".into(),
            session_id: id.into(),
            transcript_path: Some("/t.jsonl".into()),
            cwd: None,
            saved_at: None,
        }
    }

    #[test]
    fn the_key_reads_back_and_a_hand_edit_is_ignored() {
        let a = claude("1a2b");
        assert_eq!(AgentSession::from_value(Some(&a.to_value())), Some(a));
        for bad in [
            json!("claude"),
            json!({"agent": "claude"}),
            json!({"agent": 1, "session_id": "x"}),
            json!({"agent": "claude", "session_id": "a\nb"}),
        ] {
            assert_eq!(AgentSession::from_value(Some(&bad)), None, "{bad}");
        }
    }

    #[test]
    fn each_agent_resumes_with_its_own_words_and_an_odd_id_with_none() {
        assert_eq!(
            claude("1a-2b").resume_words().unwrap(),
            ["claude", "--resume", "1a-2b"]
        );
        let mut codex = claude("0199");
        codex.agent = "codex".into();
        assert_eq!(codex.resume_words().unwrap(), ["codex", "resume", "0199"]);
        codex.agent = "gemini".into();
        assert_eq!(
            codex.resume_words().unwrap(),
            ["gemini", "--resume", "0199"]
        );
        codex.agent = "copilot".into();
        assert_eq!(codex.resume_words(), None);
        assert_eq!(claude("--help").resume_words(), None);
        assert_eq!(claude("a b;rm").resume_words(), None);
    }

    #[test]
    fn a_person_takes_the_key_away_and_the_tool_leaves_it() {
        let mut doc = Map::new();
        stamp(
            &mut doc,
            &Author::Agent(claude("x")),
            "2026-11-30T12:00:00Z",
        );
        assert_eq!(doc[KEY]["saved_at"], "2026-11-30T12:00:00Z");
        stamp(&mut doc, &Author::Keep, "later");
        assert_eq!(doc[KEY]["session_id"], "x");
        stamp(&mut doc, &Author::Person, "later");
        assert!(!doc.contains_key(KEY));
    }
}
