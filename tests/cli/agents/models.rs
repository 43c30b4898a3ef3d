//! Scripted models for the stub (a model that calls tools): each answers the agent's
//! first request that offers its shell tool with one call of `command`, in the agent's
//! own wire format (Anthropic messages, `OpenAI` responses), as server-sent events.

use serde_json::{Value, json};

use super::Reply;

/// Server-sent events as the Anthropic and `OpenAI` streams write them.
pub(super) fn sse(events: &[Value]) -> String {
    let mut out = String::new();
    for e in events {
        out.push_str("event: ");
        out.push_str(e["type"].as_str().unwrap());
        out.push_str("\ndata: ");
        out.push_str(&e.to_string());
        out.push_str("\n\n");
    }
    out
}

/// Claude Code's model: the conversation's first request (it offers `Bash`, and no
/// tool result is in it yet) is answered with a `Bash` call of `command`.
pub(super) fn claude_runs(command: String) -> Reply {
    Box::new(move |path, body| {
        if !path.contains("/v1/messages") || path.contains("count_tokens") {
            return None;
        }
        let v: Value = serde_json::from_str(body).ok()?;
        let offers_bash = v["tools"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t["name"] == "Bash"));
        if !offers_bash || body.contains("tool_result") {
            return None;
        }
        let input = json!({"command": command, "description": "record the work"}).to_string();
        let events = [
            json!({"type": "message_start", "message": {"id": "msg_t", "type": "message", "role": "assistant", "model": v["model"], "content": [], "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 1, "output_tokens": 1}}}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_day1", "name": "Bash", "input": {}}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": input}}),
            json!({"type": "content_block_stop", "index": 0}),
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": null}, "usage": {"output_tokens": 1}}),
            json!({"type": "message_stop"}),
        ];
        Some(("text/event-stream", sse(&events)))
    })
}

/// Codex's model: its first request is answered with one call of its shell tool
/// (whichever it offers: its name and arguments' shape are read from the request).
pub(super) fn codex_runs(script: String) -> Reply {
    Box::new(move |path, body| {
        if !path.contains("/responses") || body.contains("function_call_output") {
            return None;
        }
        let v: Value = serde_json::from_str(body).ok()?;
        let tools = v["tools"].as_array()?;
        let (name, arguments) = tools.iter().find_map(|t| {
            let name = t["name"].as_str()?;
            let props = &t["parameters"]["properties"];
            if props.get("cmd").is_some() {
                Some((name, json!({"cmd": script, "login": false})))
            } else if props.get("command").is_some() {
                Some((name, json!({"command": ["sh", "-c", script]})))
            } else {
                None
            }
        })?;
        let item = json!({"type": "function_call", "id": "fc_env", "call_id": "call_env", "name": name,
                          "arguments": arguments.to_string()});
        let events = [
            json!({"type": "response.created", "response": {"id": "resp_env"}}),
            json!({"type": "response.output_item.done", "item": item}),
            json!({"type": "response.completed", "response": {"id": "resp_env", "usage": {"input_tokens": 1, "input_tokens_details": null, "output_tokens": 1, "output_tokens_details": null, "total_tokens": 2}}}),
        ];
        Some(("text/event-stream", sse(&events)))
    })
}

/// Gemini CLI's model: the first request that offers `run_shell_command` (and holds no
/// function response yet) is answered with a call of it.
pub(super) fn gemini_runs(script: String) -> Reply {
    Box::new(move |path, body| {
        if !path.contains("enerateContent") || body.contains("functionResponse") {
            return None;
        }
        if !body.contains("run_shell_command") {
            return None;
        }
        let chunk = json!({"candidates": [{"content": {"parts": [{"functionCall": {"name": "run_shell_command", "args": {"command": script, "description": "env"}}}], "role": "model"}, "finishReason": "STOP", "index": 0}],
                           "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2}});
        if path.contains("stream") {
            return Some(("text/event-stream", format!("data: {chunk}\r\n\r\n")));
        }
        Some(("application/json", chunk.to_string()))
    })
}
