//! Which registrations in an agent's settings file are this tool's: the command and
//! matcher group `install` writes, what counts as ours when reading a file back (the
//! lines the tool writes or wrote, and the hook's bare invocation written by hand), and
//! which session sources a matcher covers.

use serde_json::Value;

use crate::cli::shared::{HookAgent, HookScope};

/// The command `install` registers for the hook `verb`. It calls the binary directly, not through `git`
/// (a broken git configuration makes `git` itself exit before the hook runs), and it
/// never fails the agent's start: where git-handover is not on the agent's `PATH` (a
/// teammate who pulled the project's settings, a cloud session) it does nothing.
/// It names the agent (its context budget) and, for the user's own settings, the scope
/// (a user-scope hook briefs only in repositories that opted in).
pub(super) fn hook_command(verb: &str, agent: HookAgent, scope: HookScope) -> String {
    let agent = match agent {
        HookAgent::Claude => "claude",
        HookAgent::Codex => "codex",
        HookAgent::Gemini => "gemini",
        HookAgent::Copilot => "copilot",
    };
    let scope = if scope == HookScope::User {
        " --scope user"
    } else {
        ""
    };
    format!("git-handover hook {verb} --agent {agent}{scope} 2>/dev/null || true")
}

/// The events `install` registers for `agent` (Copilot's are `copilot.rs`'s), each with
/// the hook it runs: the briefing at the start, the automatic record before a
/// compaction and at the end (issue 34), and the stop gate, which does nothing unless
/// `handover.stopGate` is on. The names are each agent's own:
/// - Claude Code 2.1.332 (`bin/claude.exe`): `hook_event_name:"PreCompact",trigger:…`,
///   `hook_event_name:"SessionEnd",reason:…`, `hook_event_name:"Stop",stop_hook_active:…`;
/// - Codex 0.171.0 (its binary's embedded hook schemas): `"const": "PreCompact"`,
///   `"const": "SessionEnd"`, `"const": "Stop"`;
/// - Gemini CLI 0.61.0 (`bundle/chunk-5FZXKDXH.js`): `HookEventName2["PreCompress"]`,
///   `["SessionEnd"]`, `["AfterAgent"]`, each input built by `createBaseInput`, which
///   carries `transcript_path`.
pub(super) fn events(agent: HookAgent) -> &'static [(&'static str, &'static str)] {
    const CLAUDE_CODEX: [(&str, &str); 4] = [
        ("SessionStart", "session-start"),
        ("PreCompact", "pre-compact"),
        ("SessionEnd", "session-end"),
        ("Stop", "stop"),
    ];
    const GEMINI: [(&str, &str); 4] = [
        ("SessionStart", "session-start"),
        ("PreCompress", "pre-compact"),
        ("SessionEnd", "session-end"),
        ("AfterAgent", "stop"),
    ];
    match agent {
        HookAgent::Gemini => &GEMINI,
        HookAgent::Claude | HookAgent::Codex => &CLAUDE_CODEX,
        HookAgent::Copilot => &CLAUDE_CODEX[..1],
    }
}

/// Every session source Claude Code and Codex document for `SessionStart`; both read a
/// `|`-separated matcher as alternatives (a list of exact strings, or a regex).
pub(super) const SOURCES: [&str; 5] = ["startup", "resume", "clear", "compact", "fork"];

/// The matcher group `install` adds for `agent`: Claude Code and Codex get every session
/// source they document; Gemini CLI compares lifecycle matchers as exact strings
/// (`startup|resume` would match nothing), so its group has no matcher, which matches
/// every source. Gemini CLI counts the timeout in milliseconds.
/// The other events' groups have no matcher (every trigger, every reason), as the
/// packaged forms register them.
pub(super) fn entry(agent: HookAgent, scope: HookScope, verb: &str) -> Value {
    let hook = serde_json::json!({"type": "command",
                                  "command": hook_command(verb, agent, scope),
                                  "timeout": timeout(agent, verb)});
    match agent {
        _ if verb != "session-start" => serde_json::json!({"hooks": [hook]}),
        HookAgent::Gemini => serde_json::json!({"hooks": [hook]}),
        HookAgent::Claude | HookAgent::Codex | HookAgent::Copilot => {
            serde_json::json!({"matcher": SOURCES.join("|"), "hooks": [hook]})
        }
    }
}

/// Gemini CLI counts in milliseconds; Codex clamps a `SessionEnd` hook to 3 s, so it is
/// given 3 (the record keeps to 1.5 s).
fn timeout(agent: HookAgent, verb: &str) -> u64 {
    match agent {
        HookAgent::Gemini => 10_000,
        HookAgent::Codex if verb == "session-end" => 3,
        _ => 10,
    }
}

/// Whether a registered hook is one `install` wrote: its command exactly a line this
/// tool writes or wrote (for any agent and scope), or the same invocation written by
/// hand (`/usr/local/bin/git-handover hook session-start --agent claude`: it runs this
/// tool's hook and nothing else, so it is taken over and the hook runs once a start). A
/// command of the user's own that runs the hook among other things (`./setup.sh &&
/// git-handover hook session-start`, `timeout 5 git-handover …`) is theirs, and is left
/// alone.
pub(super) fn is_ours(hook: &Value) -> bool {
    is_ours_for(hook, "session-start")
}

/// [`is_ours`] for the hook `verb` (`session-start`, `pre-compact`, `session-end`,
/// `stop`).
pub(super) fn is_ours_for(hook: &Value, verb: &str) -> bool {
    // What earlier versions wrote: without the agent, and before that through `git`.
    let earlier = [
        format!("git handover hook {verb}"),
        format!("git-handover hook {verb} 2>/dev/null || true"),
    ];
    let Some(c) = hook.get("command").and_then(Value::as_str) else {
        return false;
    };
    let c = c.trim();
    earlier.iter().any(|e| e == c)
        || only_our_hook(c, verb)
        || [
            HookAgent::Claude,
            HookAgent::Codex,
            HookAgent::Gemini,
            HookAgent::Copilot,
        ]
        .into_iter()
        .flat_map(|a| {
            [
                hook_command(verb, a, HookScope::Project),
                hook_command(verb, a, HookScope::User),
            ]
        })
        .any(|ours| ours == c)
}

/// Whether `command` is one invocation of `git-handover hook <verb>` and nothing
/// else: the program named `git-handover` (by any path), our own options only, and at
/// most the error silencing the tool writes after it.
fn only_our_hook(command: &str, verb: &str) -> bool {
    let mut words: Vec<&str> = command.split_whitespace().collect();
    if words.ends_with(&["2>/dev/null", "||", "true"]) {
        words.truncate(words.len() - 3);
    }
    let [program, "hook", named, options @ ..] = words.as_slice() else {
        return false;
    };
    if *named != verb {
        return false;
    }
    if std::path::Path::new(program).file_name() != Some("git-handover".as_ref()) {
        return false;
    }
    options.chunks(2).all(|pair| {
        matches!(
            pair,
            ["--agent", "claude" | "codex" | "gemini" | "copilot"]
                | ["--scope", "project" | "user" | "local"]
        )
    })
}

/// The session sources a matcher covers for `agent`, of those it documents.
pub(super) fn covered(agent: HookAgent, matcher: Option<&str>) -> Vec<&'static str> {
    let sources: &[&str] = match agent {
        HookAgent::Gemini => &SOURCES[..3],
        HookAgent::Claude | HookAgent::Codex | HookAgent::Copilot => &SOURCES,
    };
    let Some(m) = matcher
        .map(str::trim)
        .filter(|m| !m.is_empty() && *m != "*")
    else {
        return sources.to_vec();
    };
    let alternatives: Vec<&str> = m.split('|').map(str::trim).collect();
    sources
        .iter()
        .copied()
        .filter(|s| match agent {
            HookAgent::Gemini => m == *s,
            // A list of exact strings (or a regex of alternatives): an alternative that
            // is the source, or a regex that plainly matches anything.
            HookAgent::Claude | HookAgent::Codex | HookAgent::Copilot => alternatives
                .iter()
                .any(|a| a == s || *a == ".*" || *a == ".+"),
        })
        .collect()
}

/// Whether our hook `verb` is registered in `groups` exactly as `install` registers it
/// (for session-start: for every session source the agent documents), and no other of
/// ours.
pub(super) fn installed(agent: HookAgent, scope: HookScope, verb: &str, groups: &[Value]) -> bool {
    // Exactly the registration `install` makes, and no other of ours: an older one (a
    // narrower matcher, a command without the agent) is replaced by it.
    let wanted = entry(agent, scope, verb);
    let ours = groups
        .iter()
        .filter(|g| {
            g.get("hooks")
                .and_then(Value::as_array)
                .is_some_and(|hs| hs.iter().any(|h| is_ours_for(h, verb)))
        })
        .count();
    ours == 1
        && groups.contains(&wanted)
        && covered(agent, wanted.get("matcher").and_then(Value::as_str)).len()
            == covered(agent, None).len()
}

/// Remove our hook `verb` from every group, dropping the groups that held nothing else
/// (a group the user left empty stays). Returns whether anything was removed.
pub(super) fn remove_ours(groups: &mut Vec<Value>, verb: &str) -> bool {
    let mut changed = false;
    groups.retain_mut(|group| {
        let Some(Value::Array(hs)) = group.get_mut("hooks") else {
            return true;
        };
        let had = hs.len();
        hs.retain(|h| !is_ours_for(h, verb));
        changed |= hs.len() != had;
        !(hs.is_empty() && had > 0)
    });
    changed
}
