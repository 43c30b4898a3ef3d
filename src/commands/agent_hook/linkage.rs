//! What the session-start hook learns of the agent session it starts (issue 34, item
//! 5): its id, transcript and directory, left in the tool's directory for the saves
//! that agent session makes later (their environment names the session, not its
//! transcript), and the agent session a briefing's receipt names (item 6).

use super::args::SessionStartArgs;
use super::event::Event;
use crate::cli::shared::{HookAgent, HookScope};
use crate::model::agent_session::AgentSession;
use crate::services::context::Context;

/// The agent session of this hook's `event` (the agent of `--agent`, else the
/// environment's), after leaving its transcript and directory for its later saves.
/// `None` without a session id, and where a user-scope hook may not brief (the
/// repository did not opt in: nothing is left in it). Never fails.
pub fn agent_session(
    ctx: &Context,
    event: &Event,
    args: &SessionStartArgs,
) -> Option<AgentSession> {
    if args.scope == Some(HookScope::User) && !crate::services::agent_paths::opted_in(ctx) {
        return None;
    }
    let tool = ctx.repo.tool_dir();
    let word = match args.agent {
        Some(HookAgent::Claude) => "claude".to_owned(),
        Some(HookAgent::Codex) => "codex".to_owned(),
        Some(HookAgent::Gemini) => "gemini".to_owned(),
        Some(HookAgent::Copilot) => "copilot".to_owned(),
        None => {
            crate::services::agent_session::from_env(&|k| std::env::var(k).ok(), &tool, None)?.agent
        }
    };
    let id = event
        .text("session_id")
        .or_else(|| event.text("sessionId"))
        .filter(|id| !id.is_empty() && id.len() <= 200 && !id.chars().any(char::is_control))?;
    let transcript = event.text("transcript_path").unwrap_or_default();
    crate::services::agent_session::remember(&tool, &word, &id, &transcript, event.dir());
    let transcript =
        (!transcript.is_empty() && !transcript.chars().any(char::is_control)).then_some(transcript);
    Some(AgentSession {
        agent: word,
        session_id: id,
        transcript_path: transcript,
        cwd: event.dir().to_str().map(str::to_owned),
        saved_at: None,
    })
}
