//! The real Claude Code's own transcript, digested (issue 34, SPEC section 11): the
//! stub model has it run a `Bash` call that fails, and what the reader finds in the
//! transcript Claude Code wrote is the user's request and the failure with its exit
//! status and first error line.

use std::path::{Path, PathBuf};

use git_handover::api::{TranscriptFormat, read_transcript};

use super::models::{claude_runs, codex_runs};
use super::{Agent, World, need};

fn jsonl_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_owned()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "jsonl") {
                out.push(path);
            }
        }
    }
    out
}

#[test]
fn claude_codes_own_transcript_gives_the_request_and_the_failed_command() {
    if !need(Agent::Claude) {
        return;
    }
    let world = World::new();
    world
        .stub
        .script(claude_runs("ls /nonexistent-transcripts".into()));
    let out = world.run_in(
        &world.repo,
        Agent::Claude,
        &["-p", "list the missing directory", "--allowedTools", "Bash"],
        &std::env::var("PATH").unwrap_or_default(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let files = jsonl_under(&world.home().join(".claude/projects"));
    let transcript = files
        .iter()
        .find(|f| !f.to_string_lossy().contains("subagents"))
        .unwrap_or_else(|| panic!("no transcript under the home: {files:?}"));
    // `TRANSCRIPT_FIXTURE_OUT=path` keeps the transcript: how the fixture was made.
    if let Ok(keep) = std::env::var("TRANSCRIPT_FIXTURE_OUT") {
        std::fs::copy(transcript, keep).unwrap();
    }
    let read = read_transcript(transcript, TranscriptFormat::Claude);
    assert_eq!(
        read.problem,
        None,
        "{}",
        std::fs::read_to_string(transcript).unwrap()
    );
    let d = read.digest;
    assert_eq!(
        d.last_request.as_deref(),
        Some("list the missing directory")
    );
    let failed = d.failed_commands.last().expect("the failed Bash call");
    assert_eq!(failed.command, "ls /nonexistent-transcripts");
    assert_eq!(failed.exit_status, Some(2));
    assert!(
        failed.first_error_line.contains("No such file"),
        "{failed:?}"
    );
}

#[test]
fn the_captured_claude_code_transcript_digests() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/transcripts/claude-2.1.332.jsonl");
    let read = read_transcript(&fixture, TranscriptFormat::Claude);
    assert_eq!(read.problem, None);
    let d = read.digest;
    assert_eq!(
        d.last_request.as_deref(),
        Some("list the missing directory")
    );
    assert_eq!(d.failed_commands.len(), 1);
    assert_eq!(d.failed_commands[0].exit_status, Some(2));
    assert!(d.edited_files.is_empty());
    // As another agent's format, it gives nothing.
    let other = read_transcript(&fixture, TranscriptFormat::Codex);
    assert_eq!(other.digest.last_request, None);
    assert!(other.digest.failed_commands.is_empty());
}

/// `bench/transcript.sh`: the reader on the file `TRANSCRIPT_BENCH` names, its time and
/// the process's peak memory.
#[test]
#[ignore = "a benchmark: bench/transcript.sh makes its file and runs it"]
fn bench_transcript_read() {
    let Ok(file) = std::env::var("TRANSCRIPT_BENCH") else {
        return;
    };
    let mut times = Vec::new();
    for _ in 0..7 {
        let started = std::time::Instant::now();
        let read = read_transcript(Path::new(&file), TranscriptFormat::Claude);
        times.push(started.elapsed());
        assert!(read.digest.last_request.is_some(), "{:?}", read.problem);
    }
    times.sort();
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let peak = status
        .lines()
        .find(|l| l.starts_with("VmHWM"))
        .unwrap_or("");
    println!("transcript read: median {:?} of 7, {peak}", times[3]);
}

/// Codex and Gemini CLI, each given a request the stub answers in words: the reader
/// finds the request in the agent's own file (Codex's rollout under `CODEX_HOME/sessions`,
/// Gemini CLI's chat recording under the home's `.gemini/tmp`), and nothing in the other
/// agents' formats. `TRANSCRIPT_FIXTURE_DIR=dir` keeps each file as `<agent>.jsonl`.
#[test]
fn codex_and_gemini_clis_own_files_give_the_request() {
    for (agent, args, under, format) in [
        (
            Agent::Codex,
            &["list the missing directory"][..],
            ".codex/sessions",
            TranscriptFormat::Codex,
        ),
        (
            Agent::Gemini,
            &["-p", "list the missing directory"][..],
            ".gemini/tmp",
            TranscriptFormat::Gemini,
        ),
    ] {
        if !need(agent) {
            continue;
        }
        let world = World::new();
        let out = world.run(agent, args, false);
        assert!(
            out.status.success(),
            "{agent:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let files = jsonl_under(&world.home().join(under));
        let transcript = files
            .first()
            .unwrap_or_else(|| panic!("{agent:?}: no transcript under the home"));
        if let Ok(dir) = std::env::var("TRANSCRIPT_FIXTURE_DIR") {
            std::fs::copy(transcript, Path::new(&dir).join(format!("{agent:?}.jsonl"))).unwrap();
        }
        let read = read_transcript(transcript, format);
        let text = std::fs::read_to_string(transcript).unwrap();
        assert_eq!(read.problem, None, "{agent:?}: {text}");
        assert_eq!(
            read.digest.last_request.as_deref(),
            Some("list the missing directory"),
            "{agent:?}: {text}"
        );
        let other = read_transcript(transcript, TranscriptFormat::Claude);
        assert_eq!(
            other.digest.last_request, None,
            "{agent:?} read as Claude Code's"
        );
    }
}

#[test]
fn the_captured_codex_and_gemini_cli_transcripts_digest() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/transcripts");
    for (file, format) in [
        ("codex-0.171.0.jsonl", TranscriptFormat::Codex),
        ("gemini-0.61.0.jsonl", TranscriptFormat::Gemini),
    ] {
        let read = read_transcript(&dir.join(file), format);
        assert_eq!(read.problem, None, "{file}");
        assert_eq!(
            read.digest.last_request.as_deref(),
            Some("list the missing directory"),
            "{file}"
        );
        assert_eq!(read.digest.skipped_lines, 0, "{file}");
    }
    let shell = read_transcript(
        &dir.join("codex-0.171.0-shell.jsonl"),
        TranscriptFormat::Codex,
    );
    let failed = &shell.digest.failed_commands;
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0].command, "ls /nonexistent-transcripts");
    assert_eq!(failed[0].exit_status, Some(2));
    assert_eq!(
        failed[0].first_error_line,
        "ls: cannot access '/nonexistent-transcripts': No such file or directory"
    );
    let tools = read_transcript(
        &dir.join("gemini-0.61.0-tools.jsonl"),
        TranscriptFormat::Gemini,
    );
    assert_eq!(tools.problem, None);
    assert_eq!(tools.digest.last_request.as_deref(), Some("write hello"));
    assert_eq!(tools.digest.edited_files.len(), 1);
    assert!(tools.digest.edited_files[0].ends_with("/hello.txt"));
    assert_eq!(tools.digest.failed_commands.len(), 1);
    assert_eq!(tools.digest.failed_commands[0].exit_status, Some(2));
    assert_eq!(
        tools.digest.failed_commands[0].first_error_line,
        "ls: cannot access '/nonexistent-transcripts': No such file or directory"
    );
}

#[test]
fn codexs_own_rollout_gives_the_failed_command() {
    if !need(Agent::Codex) {
        return;
    }
    let world = World::new();
    world
        .stub
        .script(codex_runs("ls /nonexistent-transcripts".into()));
    let out = world.run(Agent::Codex, &["list the missing directory"], false);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let files = jsonl_under(&world.home().join(".codex/sessions"));
    let transcript = files.first().expect("a rollout");
    if let Ok(dir) = std::env::var("TRANSCRIPT_FIXTURE_DIR") {
        std::fs::copy(transcript, Path::new(&dir).join("codex-shell.jsonl")).unwrap();
    }
    let d = read_transcript(transcript, TranscriptFormat::Codex).digest;
    let failed = d.failed_commands.last().expect("the failed shell call");
    assert!(
        failed.command.contains("ls /nonexistent-transcripts"),
        "{failed:?}"
    );
    assert_eq!(failed.exit_status, Some(2), "{failed:?}");
}

/// Gemini CLI's model calls `write_file` and `run_shell_command` (a command that fails).
fn gemini_runs(file: String) -> super::Reply {
    Box::new(move |path, body| {
        if !path.contains("enerateContent") || body.contains("functionResponse") {
            return None;
        }
        let parts = serde_json::json!([
            {"functionCall": {"name": "write_file", "args": {"file_path": file, "content": "hi\n"}}},
            {"functionCall": {"name": "run_shell_command", "args": {"command": "ls /nonexistent-transcripts"}}}
        ]);
        let chunk = serde_json::json!({"candidates": [{"content": {"parts": parts, "role": "model"}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2}});
        if path.contains("stream") {
            return Some(("text/event-stream", format!("data: {chunk}\r\n\r\n")));
        }
        Some(("application/json", chunk.to_string()))
    })
}

#[test]
fn gemini_clis_own_recording_gives_the_edit_and_the_failed_command() {
    if !need(Agent::Gemini) {
        return;
    }
    let world = World::new();
    let file = world.repo.join("hello.txt").display().to_string();
    world.stub.script(gemini_runs(file.clone()));
    let out = world.run(Agent::Gemini, &["-p", "write hello", "--yolo"], false);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let files = jsonl_under(&world.home().join(".gemini/tmp"));
    let transcript = files.first().expect("a chat recording");
    if let Ok(dir) = std::env::var("TRANSCRIPT_FIXTURE_DIR") {
        std::fs::copy(transcript, Path::new(&dir).join("gemini-tools.jsonl")).unwrap();
    }
    let d = read_transcript(transcript, TranscriptFormat::Gemini).digest;
    assert_eq!(d.edited_files, [file]);
    let failed = d.failed_commands.last().expect("the failed shell call");
    assert_eq!(failed.command, "ls /nonexistent-transcripts");
    assert_eq!(failed.exit_status, Some(2), "{failed:?}");
}

/// The edit tools' transcripts captured from the real agents (`agents::edits`): each
/// gives the files edited, and nothing for an edit the agent refused.
#[test]
fn the_captured_edit_transcripts_give_the_edited_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/transcripts");
    let names = |file: &str, format| -> Vec<String> {
        let read = read_transcript(&dir.join(file), format);
        assert_eq!(read.problem, None, "{file}");
        assert_eq!(read.digest.skipped_lines, 0, "{file}");
        // The runs' temporary directories differ: the file names say enough.
        read.digest
            .edited_files
            .iter()
            .map(|p| p.rsplit('/').next().unwrap().to_owned())
            .collect()
    };
    // Claude Code: `Edit` of old.txt refused (not read first), `Write` then `Edit` of
    // notes.txt.
    assert_eq!(
        names("claude-2.1.332-edits.jsonl", TranscriptFormat::Claude),
        ["notes.txt"]
    );
    // Codex: the patch's relative paths (the turn's directory's) and the applied
    // `FileChange`'s absolute ones are the same two files, each named once.
    let codex = read_transcript(
        &dir.join("codex-0.171.0-patch.jsonl"),
        TranscriptFormat::Codex,
    );
    let root = "/tmp/.tmpqGuMOD/repo";
    assert_eq!(
        codex.digest.edited_files,
        [format!("{root}/new.txt"), format!("{root}/old.txt")]
    );
    assert_eq!(
        names("gemini-0.61.0-edits.jsonl", TranscriptFormat::Gemini),
        ["new.txt", "old.txt"]
    );
}
