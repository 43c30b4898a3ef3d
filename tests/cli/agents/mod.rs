//! The agents themselves (issue 17, "Done when"): Claude Code, Codex and Gemini CLI,
//! installed from the npm registry by `.ci/run` (pinned versions, into
//! `target/agents`), run offline against a stub model server on 127.0.0.1 that
//! answers every request and keeps what it was sent. Each real agent runs the
//! `SessionStart` hook that `git handover hook install` wrote, and the test reads the
//! injected briefing in the request the agent sent to the stub.
//!
//! Sources each agent can start from the command line are run for real: Claude Code
//! startup, resume, compact, clear and fork (`-p`, `--continue`, `/compact`, `/clear`,
//! `--fork-session`); Codex startup and resume (`exec`, `exec resume --last`); Gemini
//! CLI startup and resume (`-p`, `--resume latest`). The sources only their terminal
//! UI starts (Codex and Gemini `clear`) are replayed with the installed command line
//! and the event their documentation gives (<https://developers.openai.com/codex/hooks>,
//! `SessionStart`: source startup, resume or clear; <https://geminicli.com/docs/hooks>,
//! `SessionStart`: "startup, resume, clear").
//!
//! Without the agents (not installed) the tests say so and return; under `CI=true`
//! they fail (tests/cli/common `unavailable`).
//!
//! This module is the stub and the agents' world; `sessions` runs the hooks through
//! each agent, `packages` the plugin, extension and Codex setup.

mod copilot;
mod day;
mod doctor;
mod edits;
mod linkage;
mod models;
mod opencode;
mod packages;
mod readme;
mod record;
mod sessions;
mod transcripts;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::common::TestEnv;
use serde_json::{Value, json};

/// A unique text of the session's task: found in a request, the briefing got there.
const MARKER: &str = "QUOKKA-7 port the lexer";

// ---------------------------------------------------------------------------------
// The stub model server.

/// What the stub was sent: (path, body).
type Log = Arc<Mutex<Vec<(String, String)>>>;

/// A test's own answers, tried before the usual ones (a model that calls tools):
/// (content type, body) for a request (path, body), or `None` for the usual answer.
type Reply = Box<dyn Fn(&str, &str) -> Option<(&'static str, String)> + Send>;
type Script = Arc<Mutex<Option<Reply>>>;

struct Stub {
    port: u16,
    log: Log,
    script: Script,
}

impl Stub {
    fn start() -> Stub {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let log: Log = Arc::default();
        let script: Script = Arc::default();
        let shared = Arc::clone(&log);
        let scripted = Arc::clone(&script);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let log = Arc::clone(&shared);
                let script = Arc::clone(&scripted);
                std::thread::spawn(move || serve(stream, &log, &script));
            }
        });
        Stub { port, log, script }
    }

    /// Answer with `reply` first from now on (where it gives an answer).
    fn script(&self, reply: Reply) {
        *self.script.lock().unwrap() = Some(reply);
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The requests since `from`, as (path, body).
    fn since(&self, from: usize) -> Vec<(String, String)> {
        self.log.lock().unwrap()[from..].to_vec()
    }

    fn count(&self) -> usize {
        self.log.lock().unwrap().len()
    }
}

fn serve(stream: TcpStream, log: &Log, script: &Script) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(60)));
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut out = stream;
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        let path = request_line
            .split_whitespace()
            .nth(1)
            .unwrap_or("/")
            .to_owned();
        let mut length = 0usize;
        let mut chunked = false;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            let lower = line.to_ascii_lowercase();
            if let Some(v) = lower.strip_prefix("content-length:") {
                length = v.trim().parse().unwrap_or(0);
            }
            if lower.starts_with("transfer-encoding:") && lower.contains("chunked") {
                chunked = true;
            }
        }
        let mut body = Vec::new();
        if chunked {
            loop {
                let mut size = String::new();
                reader.read_line(&mut size).unwrap();
                let n = usize::from_str_radix(size.trim().split(';').next().unwrap(), 16).unwrap();
                let mut chunk = vec![0; n + 2];
                reader.read_exact(&mut chunk).unwrap();
                if n == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..n]);
            }
        } else {
            body.resize(length, 0);
            if reader.read_exact(&mut body).is_err() {
                return;
            }
        }
        let body = String::from_utf8_lossy(&body).into_owned();
        let scripted = script
            .lock()
            .unwrap()
            .as_ref()
            .and_then(|f| f(&path, &body));
        let (kind, reply) = scripted.unwrap_or_else(|| answer(&path, &body));
        log.lock().unwrap().push((path, body));
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: {kind}\r\ncontent-length: {}\r\n\r\n",
            reply.len()
        );
        if out.write_all(head.as_bytes()).is_err() || out.write_all(reply.as_bytes()).is_err() {
            return;
        }
    }
}

/// A short, valid answer for each API the agents speak.
fn answer(path: &str, body: &str) -> (&'static str, String) {
    let sse = |events: &[Value]| -> String {
        let mut out = String::new();
        for e in events {
            out.push_str("event: ");
            out.push_str(e["type"].as_str().unwrap());
            out.push_str("\ndata: ");
            out.push_str(&e.to_string());
            out.push_str("\n\n");
        }
        out
    };
    if path.contains("/v1/messages") && path.contains("count_tokens") {
        return ("application/json", json!({"input_tokens": 10}).to_string());
    }
    if path.contains("/v1/messages") {
        // Anthropic Messages API, streamed.
        let model = serde_json::from_str::<Value>(body).map_or(json!("m"), |v| v["model"].clone());
        let events = [
            json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": model, "content": [], "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 1, "output_tokens": 1}}}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "ok"}}),
            json!({"type": "content_block_stop", "index": 0}),
            json!({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": null}, "usage": {"output_tokens": 1}}),
            json!({"type": "message_stop"}),
        ];
        return ("text/event-stream", sse(&events));
    }
    if path.contains("/responses") {
        // OpenAI Responses API, streamed (Codex).
        let events = [
            json!({"type": "response.created", "response": {"id": "resp_1"}}),
            json!({"type": "response.output_item.done", "item": {"type": "message", "role": "assistant", "id": "m1", "content": [{"type": "output_text", "text": "ok"}]}}),
            json!({"type": "response.completed", "response": {"id": "resp_1", "usage": {"input_tokens": 1, "input_tokens_details": null, "output_tokens": 1, "output_tokens_details": null, "total_tokens": 2}}}),
        ];
        return ("text/event-stream", sse(&events));
    }
    if path.contains(":countTokens") {
        return ("application/json", json!({"totalTokens": 1}).to_string());
    }
    if path.contains("GenerateContent") || path.contains("generateContent") {
        // Gemini API (Gemini CLI), streamed or not.
        let chunk = json!({"candidates": [{"content": {"parts": [{"text": "ok"}], "role": "model"}, "finishReason": "STOP", "index": 0}],
                           "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2}});
        if path.contains("stream") {
            return ("text/event-stream", format!("data: {chunk}\r\n\r\n"));
        }
        return ("application/json", chunk.to_string());
    }
    ("application/json", "{}".to_owned())
}

// ---------------------------------------------------------------------------------
// The agents.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Agent {
    Claude,
    Codex,
    Gemini,
}

impl Agent {
    fn name(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
        }
    }
}

/// Where `.ci/run` installs the agents.
fn agents_dir() -> PathBuf {
    std::env::var_os("GIT_HANDOVER_AGENTS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("target/agents"),
        PathBuf::from,
    )
}

fn agent_bin(agent: Agent) -> Option<PathBuf> {
    let bin = agents_dir().join("node_modules/.bin").join(agent.name());
    bin.exists().then_some(bin)
}

/// A repository with a session whose task carries [`MARKER`], the stub, and a bin
/// directory whose `git-handover` logs each hook event it is given (stdin) before
/// running the real binary: which sources fired, and how often.
struct World {
    env: TestEnv,
    repo: PathBuf,
    stub: Stub,
    bin: PathBuf,
    events: PathBuf,
}

impl World {
    fn new() -> World {
        let env = TestEnv::new();
        let repo = env.repo();
        let run = env.handover(&repo, &["task", "add", "T1", MARKER]);
        assert_eq!(run.code, 0, "{}", run.snapshot());
        let bin = env.root().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        let events = env.root().join("events.jsonl");
        let wrapper = bin.join("git-handover");
        std::fs::write(
            &wrapper,
            format!(
                "#!/bin/sh\ninput=$(cat)\nprintf '%s\\n' \"$input\" >> '{}'\nprintf '%s' \"$input\" | '{}' \"$@\" | tee -a '{}'\n",
                events.display(),
                env!("CARGO_BIN_EXE_git-handover"),
                env.root().join("outputs.txt").display()
            ),
        )
        .unwrap();
        let mut perms = std::fs::metadata(&wrapper).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
        std::fs::set_permissions(&wrapper, perms).unwrap();
        let world = World {
            stub: Stub::start(),
            env,
            repo,
            bin,
            events,
        };
        world.configure();
        world
    }

    fn home(&self) -> PathBuf {
        self.env.root().join("home")
    }

    /// Each agent's own configuration: the stub as its model endpoint, nothing sent
    /// anywhere else.
    fn configure(&self) {
        let home = self.home();
        let codex = home.join(".codex");
        std::fs::create_dir_all(&codex).unwrap();
        std::fs::write(
            codex.join("config.toml"),
            format!(
                "model = \"gpt-5\"\nmodel_provider = \"stub\"\n[model_providers.stub]\nname = \"stub\"\nbase_url = \"{}/v1\"\nwire_api = \"responses\"\nenv_key = \"STUB_KEY\"\n[projects.\"{}\"]\ntrust_level = \"trusted\"\n",
                self.stub.url(),
                self.repo.display()
            ),
        )
        .unwrap();
        let gemini = home.join(".gemini");
        std::fs::create_dir_all(&gemini).unwrap();
        std::fs::write(
            gemini.join("settings.json"),
            json!({"security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": false}},
                   "privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false}})
            .to_string(),
        )
        .unwrap();
    }

    fn install(&self, agent: Agent, scope: &str) {
        let run = self.env.handover_with(
            &self.repo,
            &["hook", "install", "--agent", agent.name(), "--scope", scope],
            |c| {
                c.env("CODEX_HOME", self.home().join(".codex"));
            },
        );
        assert_eq!(run.code, 0, "{}", run.snapshot());
    }

    fn events(&self) -> Vec<Value> {
        std::fs::read_to_string(&self.events)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    }

    /// Run the real agent with `args`; `path_has_tool`: git-handover on its PATH.
    fn run(&self, agent: Agent, args: &[&str], path_has_tool: bool) -> std::process::Output {
        let path = if path_has_tool {
            format!(
                "{}:{}",
                self.bin.display(),
                std::env::var("PATH").unwrap_or_default()
            )
        } else {
            std::env::var("PATH").unwrap_or_default()
        };
        self.run_in(&self.repo, agent, args, &path)
    }

    /// Run the real agent with `args` in `dir`, with `path` as its PATH.
    fn run_in(&self, dir: &Path, agent: Agent, args: &[&str], path: &str) -> std::process::Output {
        let bin = agent_bin(agent).expect("checked");
        let mut cmd: Command = self.env.command(&bin);
        cmd.current_dir(dir)
            .env("PATH", path)
            .env("CODEX_HOME", self.home().join(".codex"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        match agent {
            Agent::Claude => {
                cmd.env("ANTHROPIC_BASE_URL", self.stub.url())
                    .env("ANTHROPIC_API_KEY", "sk-stub")
                    .env("DISABLE_TELEMETRY", "1")
                    .env("DISABLE_AUTOUPDATER", "1")
                    .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
                    .args(args)
                    .args(["--model", "claude-opus-4-5"]);
            }
            Agent::Codex => {
                cmd.env("STUB_KEY", "stub").arg("exec");
                // Hook trust is given once in Codex's /hooks screen (what `hook install`
                // tells the user); this run stands in for a user who did.
                cmd.args(["--dangerously-bypass-hook-trust", "--skip-git-repo-check"])
                    .args(args);
            }
            Agent::Gemini => {
                cmd.env("GEMINI_API_KEY", "stub")
                    .env("GOOGLE_GEMINI_BASE_URL", self.stub.url())
                    .args(["-m", "gemini-2.5-pro"])
                    .args(args);
            }
        }
        let child = cmd.spawn().unwrap();
        wait_with_timeout(child, Duration::from_secs(120))
    }

    /// What the hook printed, every run together.
    fn outputs(&self) -> String {
        std::fs::read_to_string(self.env.root().join("outputs.txt")).unwrap_or_default()
    }

    /// Run the agent and return (the sources the hook was started with, whether a
    /// request to the stub carried the briefing).
    fn start(&self, agent: Agent, args: &[&str]) -> (Vec<String>, bool) {
        let before_events = self.events().len();
        let before = self.stub.count();
        let out = self.run(agent, args, true);
        assert!(
            out.status.success(),
            "{agent:?} {args:?}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let sources = self.events()[before_events..]
            .iter()
            .filter(|e| e["hook_event_name"] == "SessionStart")
            .map(|e| e["source"].as_str().unwrap_or("?").to_owned())
            .collect();
        let briefed = self
            .stub
            .since(before)
            .iter()
            .any(|(_, body)| body.contains(MARKER));
        (sources, briefed)
    }
}

/// Wait for `child`; a watchdog (polls every 20 ms, `limit` of them in all, far beyond
/// a run that does not hang) kills an agent that never ends and fails the test.
#[track_caller]
fn wait_with_timeout(mut child: std::process::Child, limit: Duration) -> std::process::Output {
    const POLL: Duration = Duration::from_millis(20);
    for _ in 0..limit.as_millis() / POLL.as_millis() {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        std::thread::sleep(POLL);
    }
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    panic!(
        "the agent ran over {limit:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The agent, or `None` after saying it is missing (a failure under CI).
fn need(agent: Agent) -> bool {
    if agent_bin(agent).is_none() {
        crate::common::unavailable(&format!(
            "{} is not installed under {} (.ci/run installs it from the npm registry)",
            agent.name(),
            agents_dir().display()
        ));
        return false;
    }
    true
}
