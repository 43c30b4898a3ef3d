//! Who claims and for how long (SPEC section 10): the holder's name and the lease.

use std::time::Duration;

use jiff::Timestamp;

use crate::services::context::Context;
use crate::support::error::{Error, Result, msg};

/// The environment variable that names the holder when `--as` does not.
pub const AS_ENV: &str = "GIT_HANDOVER_AS";

/// The agents' own session ids in the environment their tools run in, and the word
/// each identity starts with: each seen by running the agent's shell tool
/// (ENGINEERING-NOTES for Claude Code; tests/cli/agents/linkage.rs for Codex 0.171,
/// which sets both of its names to the same id). Gemini CLI 0.61 sets only
/// `GEMINI_CLI=1`, no session id.
const AGENT_SESSIONS: &[(&str, &str)] = &[
    ("CLAUDE_CODE_SESSION_ID", "claude"),
    ("CODEX_THREAD_ID", "codex"),
    ("CODEX_SESSION_ID", "codex"),
];

/// The identity of an agent session: `claude-1a2b3c4d` (the agent, then the first
/// eight letters or digits of its session id). The hook's briefing gives the same
/// name for the session id of its event, so the name an agent is told is the one its
/// commands derive.
pub fn agent_identity(agent: &str, session_id: &str) -> Option<String> {
    let short: String = session_id
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(8)
        .collect();
    (!short.is_empty()).then(|| format!("{agent}-{}", short.to_ascii_lowercase()))
}

/// The holder of the run: `flag` (`--as`), else `GIT_HANDOVER_AS`, else the calling
/// agent session's identity, else `user@host:worktree` (the worktree's directory
/// name, so that two sessions in two worktrees of one user never share a name).
pub fn holder(
    flag: Option<&str>,
    env: &dyn Fn(&str) -> Option<String>,
    worktree: &std::path::Path,
) -> Result<String> {
    let given = flag
        .map(str::to_owned)
        .or_else(|| env(AS_ENV).filter(|s| !s.is_empty()));
    if let Some(name) = given {
        return check_name(name);
    }
    for (var, agent) in AGENT_SESSIONS {
        if let Some(name) = env(var).and_then(|id| agent_identity(agent, &id)) {
            return Ok(name);
        }
    }
    let user = env("USER")
        .or_else(|| env("LOGNAME"))
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| "user".to_owned());
    let place = worktree
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    Ok(format!(
        "{user}@{}:{place}",
        crate::support::lock::hostname()
    ))
}

/// A holder's name: not empty, no control characters, at most 200 bytes.
fn check_name(name: String) -> Result<String> {
    if name.trim().is_empty() || name.chars().any(char::is_control) || name.len() > 200 {
        return Err(Error::usage(msg(
            crate::k!("claim.bad_name"),
            &[("name", &format!("{name:?}"))],
        )));
    }
    Ok(name)
}

/// The holder of this run in `ctx` (the process environment).
pub fn holder_of(flag: Option<&str>, wt: &crate::git::Worktree) -> Result<String> {
    holder(flag, &|k| std::env::var(k).ok(), &wt.path)
}

/// When a lease of `lease` (else `handover.claimFor`) taken at `now` ends.
pub fn until(ctx: &Context, lease: Option<Duration>) -> Result<Timestamp> {
    let lease = lease.unwrap_or(ctx.settings.claim_for);
    jiff::SignedDuration::try_from(lease)
        .ok()
        .and_then(|d| ctx.now.checked_add(d).ok())
        .ok_or_else(|| Error::usage(msg(crate::k!("claim.too_long"), &[])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_holder_is_the_flag_then_the_variable_then_the_agent_then_the_user() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                vars.iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        let wt = std::path::Path::new("/x/wt-a");
        let all = env(&[
            (AS_ENV, "lead"),
            ("CLAUDE_CODE_SESSION_ID", "1A2b-3c4d-5e6f"),
            ("USER", "ada"),
        ]);
        assert_eq!(holder(Some("me"), &all, wt).unwrap(), "me");
        assert_eq!(holder(None, &all, wt).unwrap(), "lead");
        let agent = env(&[
            ("CLAUDE_CODE_SESSION_ID", "1A2b-3c4d-5e6f"),
            ("USER", "ada"),
        ]);
        assert_eq!(holder(None, &agent, wt).unwrap(), "claude-1a2b3c4d");
        let codex = env(&[("CODEX_THREAD_ID", "0199aa")]);
        assert_eq!(holder(None, &codex, wt).unwrap(), "codex-0199aa");
        let user = env(&[("USER", "ada")]);
        let name = holder(None, &user, wt).unwrap();
        assert!(
            name.starts_with("ada@") && name.ends_with(":wt-a"),
            "{name}"
        );
        assert!(holder(Some(" "), &user, wt).is_err());
        assert!(holder(Some("a\nb"), &user, wt).is_err());
    }
}
