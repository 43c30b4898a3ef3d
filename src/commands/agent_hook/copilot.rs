//! GitHub Copilot CLI's hooks file: `"version": 1`, camelCase events, each a list of
//! `{"type": "command", "bash": …, "timeoutSec": …}` (GitHub's reference,
//! <https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference>:
//! "Hook configuration files are loaded automatically from .github/hooks/*.json in your
//! repository"; user hooks in `$COPILOT_HOME/hooks`, else `~/.copilot/hooks`). The
//! file is this tool's own (`git-handover.json`); another tool's keys in it are kept.

use serde_json::{Map, Value, json};

use crate::cli::shared::{HookAgent, HookScope};

use super::entry::{hook_command, is_ours_for};

/// The events registered, each with the hook it runs: the briefing at `sessionStart`
/// (its `additionalContext` reaches the model), and the automatic record (issue 34)
/// with its reminder at `preCompact` and `sessionEnd`. Copilot CLI 1.0.102 has
/// `preCompact` (its `prebuilds/linux-x64/runtime.node`: `"hooks.preCompact"`, "Hooks
/// that run before context compaction begins (cannot block it)", input
/// `transcriptPath`, `trigger`, `customInstructions`); its `agentStop` is not
/// registered: the stop gate answers only Claude Code's, Codex's and Gemini CLI's
/// blocking forms.
fn ours(scope: HookScope) -> [(&'static str, Value); 3] {
    let hook = |verb: &str| {
        json!({"type": "command", "bash": hook_command(verb, HookAgent::Copilot, scope),
               "timeoutSec": 10})
    };
    [
        ("sessionStart", hook("session-start")),
        ("preCompact", hook("pre-compact")),
        ("sessionEnd", hook("session-end")),
    ]
}

/// Whether `hook` (an entry of an event's list) is one this tool writes or wrote.
fn is_our_entry(hook: &Value) -> bool {
    let Some(bash) = hook.get("bash").and_then(Value::as_str) else {
        return false;
    };
    let hook = json!({ "command": bash });
    ["session-start", "pre-compact", "session-end"]
        .iter()
        .any(|verb| is_ours_for(&hook, verb))
}

/// Add our hooks to `settings` (replacing older ones of ours); whether it changed.
/// `None` when the file's shape is not Copilot's (`hooks` not an object, an event not
/// a list): it is left alone.
pub(super) fn add(settings: &mut Map<String, Value>, scope: HookScope) -> Option<bool> {
    let before = settings.clone();
    settings.entry("version").or_insert(json!(1));
    let hooks = settings
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()?;
    for (event, hook) in ours(scope) {
        let list = hooks
            .entry(event)
            .or_insert_with(|| Value::Array(Vec::new()))
            .as_array_mut()?;
        if list.iter().filter(|h| is_our_entry(h)).count() == 1 && list.contains(&hook) {
            continue;
        }
        list.retain(|h| !is_our_entry(h));
        list.push(hook);
    }
    Some(*settings != before)
}

/// Take our hooks out of `settings` (and an event list or `hooks` they alone filled);
/// whether anything was removed.
pub(super) fn remove(settings: &mut Map<String, Value>) -> bool {
    let Some(Value::Object(hooks)) = settings.get_mut("hooks") else {
        return false;
    };
    let mut changed = false;
    hooks.retain(|_, list| {
        let Value::Array(list) = list else {
            return true;
        };
        let had = list.len();
        list.retain(|h| !is_our_entry(h));
        changed |= list.len() != had;
        !(list.is_empty() && had > 0)
    });
    if hooks.is_empty() && changed {
        settings.remove("hooks");
    }
    changed
}
