//! Each format's lines as the agents write them (shapes from the code each parser
//! cites), and the bounds.

use super::*;

const CLAUDE: &str = r#"{"type":"user","uuid":"u1","sessionId":"s","message":{"role":"user","content":"fix the parser\nplease"}}
{"type":"assistant","uuid":"a1","sessionId":"s","message":{"content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"/w/a.rs","content":"x"}},{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"ls /nonexistent"}},{"type":"tool_use","id":"t3","name":"Bash","input":{"command":"true"}}]}}
{"type":"user","uuid":"u2","sessionId":"s","toolUseResult":{},"message":{"content":[{"type":"tool_result","tool_use_id":"t2","is_error":true,"content":"Exit code 2\nls: cannot access '/nonexistent': No such file or directory"},{"type":"tool_result","tool_use_id":"t3","content":""},{"type":"tool_result","tool_use_id":"t1","content":"File created"}]}}
{"type":"assistant","uuid":"a2","sessionId":"s","message":{"content":[{"type":"tool_use","id":"t4","name":"Edit","input":{"file_path":"/w/a.rs"}},{"type":"tool_use","id":"t5","name":"NotebookEdit","input":{"notebook_path":"/w/n.ipynb"}},{"type":"tool_use","id":"t6","name":"Edit","input":{"file_path":"/w/unread.rs"}},{"type":"tool_use","id":"t7","name":"Write","input":{"file_path":"/w/no-answer.rs"}}]}}
{"type":"user","uuid":"u5","sessionId":"s","toolUseResult":{},"message":{"content":[{"type":"tool_result","tool_use_id":"t4","content":"ok"},{"type":"tool_result","tool_use_id":"t5","content":"ok"},{"type":"tool_result","tool_use_id":"t6","is_error":true,"content":"<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>"}]}}
{"type":"user","uuid":"u3","sessionId":"s","isMeta":true,"message":{"content":"Caveat: the messages below"}}
{"type":"user","uuid":"u4","sessionId":"s","message":{"content":"<command-name>/clear</command-name>"}}
{"type":"last-prompt","lastPrompt":"x","sessionId":"s"}
not json
"#;

#[test]
fn claude_request_edits_and_failures() {
    let d = digest(Format::Claude, CLAUDE);
    assert_eq!(d.last_request.as_deref(), Some("fix the parser please"));
    assert_eq!(d.edited_files, ["/w/a.rs", "/w/n.ipynb"]);
    assert_eq!(
        d.failed_commands,
        [FailedCommand {
            command: "ls /nonexistent".into(),
            exit_status: Some(2),
            first_error_line: "ls: cannot access '/nonexistent': No such file or directory".into(),
        }]
    );
    assert_eq!(d.skipped_lines, 1);
}

const CODEX: &str = r#"{"timestamp":"t","type":"session_meta","payload":{"id":"s","cwd":"/w"}}
{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>/w</environment_context>"}]}}
{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"add a test","images":[]}}
{"timestamp":"t","type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","call_id":"c1","input":"*** Begin Patch\n*** Add File: a.txt\n+hi\n*** Update File: b.txt\n*** Move to: c.txt\n*** End Patch"}}
{"timestamp":"t","type":"event_msg","payload":{"type":"patch_apply_end","call_id":"c1","success":true,"changes":{"/w/a.txt":{"add":{"content":"hi"}}}}}
{"timestamp":"t","type":"event_msg","payload":{"type":"exec_command_end","call_id":"c2","command":["bash","-lc","ls /nonexistent"],"exit_code":2,"stdout":"","stderr":"ls: cannot access '/nonexistent'\n","aggregated_output":"x"}}
{"timestamp":"t","type":"event_msg","payload":{"type":"exec_command_end","call_id":"c2","command":["bash","-lc","ls /nonexistent"],"exit_code":2,"stderr":"again"}}
{"timestamp":"t","type":"event_msg","payload":{"type":"exec_command_end","call_id":"c3","command":["true"],"exit_code":0}}
"#;

#[test]
fn codex_request_edits_and_failures() {
    let d = digest(Format::Codex, CODEX);
    assert_eq!(d.last_request.as_deref(), Some("add a test"));
    // The patch's relative paths are the agent's directory's: `/w/a.txt` applied is
    // the `a.txt` the patch added, once.
    assert_eq!(d.edited_files, ["/w/a.txt", "/w/b.txt", "/w/c.txt"]);
    assert_eq!(d.failed_commands.len(), 1);
    assert_eq!(d.failed_commands[0].command, "ls /nonexistent");
    assert_eq!(d.failed_commands[0].exit_status, Some(2));
    assert_eq!(
        d.failed_commands[0].first_error_line,
        "ls: cannot access '/nonexistent'"
    );
    assert_eq!(d.skipped_lines, 0);
}

const GEMINI: &str = r#"{"sessionId":"s","projectHash":"h","startTime":"t","lastUpdated":"t","kind":"main"}
{"id":"m1","timestamp":"t","type":"user","content":[{"text":"write hello.txt"}]}
{"$set":{"lastUpdated":"t"}}
{"id":"m2","timestamp":"t","type":"gemini","content":"","toolCalls":[{"id":"x1","name":"write_file","args":{"file_path":"/w/hello.txt","content":"hi"},"status":"scheduled"}]}
{"id":"m2","timestamp":"t","type":"gemini","content":"","toolCalls":[{"id":"x1","name":"write_file","args":{"file_path":"/w/hello.txt"},"status":"success"},{"id":"x2","name":"run_shell_command","args":{"command":"ls /nonexistent"},"status":"success","result":[{"functionResponse":{"id":"x2","name":"run_shell_command","response":{"output":"Output: ls: cannot access '/nonexistent': No such file or directory\nExit Code: 2"}}}]},{"id":"x3","name":"run_shell_command","args":{"command":"true"},"status":"success","result":[{"functionResponse":{"response":{"output":"Output: (empty)"}}}]},{"id":"x4","name":"replace","args":{"file_path":"/w/b.txt"}}]}
{"id":"m3","timestamp":"t","type":"user","content":"/quit"}
"#;

#[test]
fn gemini_request_edits_and_failures_last_copy_wins() {
    let d = digest(Format::Gemini, GEMINI);
    assert_eq!(d.last_request.as_deref(), Some("write hello.txt"));
    assert_eq!(d.edited_files, ["/w/hello.txt", "/w/b.txt"]);
    assert_eq!(d.failed_commands.len(), 1);
    assert_eq!(d.failed_commands[0].exit_status, Some(2));
    assert_eq!(
        d.failed_commands[0].first_error_line,
        "ls: cannot access '/nonexistent': No such file or directory"
    );
}

#[test]
fn another_agents_format_is_skipped_whole() {
    for (format, text) in [
        (Format::Claude, CODEX),
        (Format::Claude, GEMINI),
        (Format::Codex, CLAUDE),
        (Format::Codex, GEMINI),
        (Format::Gemini, CLAUDE),
        (Format::Gemini, CODEX),
    ] {
        let d = digest(format, text);
        assert_eq!(d.last_request, None, "{format:?}");
        assert!(
            d.edited_files.is_empty() && d.failed_commands.is_empty(),
            "{format:?}"
        );
        assert!(d.skipped_lines > 0, "{format:?}");
    }
    assert_eq!(digest(Format::Claude, ""), Digest::default());
}

#[test]
fn bounds() {
    let long = "é".repeat(500);
    let line = one_line(&long, MAX_REQUEST_CHARS).unwrap();
    assert_eq!(line.chars().count(), MAX_REQUEST_CHARS);
    assert!(line.ends_with('…'));
    assert_eq!(one_line("  a \n\t b  ", 10).as_deref(), Some("a b"));
    assert_eq!(one_line(" \n ", 10), None);
    let mut b = Builder::default();
    for i in 0..100 {
        b.edited(&format!("f{i}"));
        b.edited("f0");
        b.failed(&format!("c{i}"), Some(1), "\n\nboom\nmore");
    }
    let d = b.finish();
    assert_eq!(d.edited_files.len(), MAX_EDITED_FILES);
    assert_eq!(d.failed_commands.len(), MAX_FAILED_COMMANDS);
    assert_eq!(d.failed_commands.last().unwrap().command, "c99");
    assert_eq!(d.failed_commands[0].first_error_line, "boom");
}

/// The request itself before the tail: Claude Code's `last-prompt` line gives it; a
/// request line in the tail wins over it.
#[test]
fn claudes_last_prompt_line_stands_in_for_a_request_before_the_tail() {
    let tail = r#"{"type":"assistant","uuid":"a1","sessionId":"s","message":{"content":[{"type":"text","text":"done"}]}}
{"type":"last-prompt","lastPrompt":"port the lexer","sessionId":"s"}
"#;
    let d = digest(Format::Claude, tail);
    assert_eq!(d.last_request.as_deref(), Some("port the lexer"));
    assert_eq!(d.skipped_lines, 0);
    let with = format!(
        "{tail}{}\n",
        r#"{"type":"user","uuid":"u2","sessionId":"s","message":{"role":"user","content":"now the parser"}}"#
    );
    let d = digest(Format::Claude, &with);
    assert_eq!(d.last_request.as_deref(), Some("now the parser"));
}

/// One file edited by several tools, or named two ways, is one edited file: Codex's
/// patch (relative to the turn's directory, which may change) and its applied change
/// (absolute), Claude Code's `Write` then `Edit` and `MultiEdit`, Gemini CLI's
/// `write_file` then `replace`, an absolute path with `.` or `..` in it.
#[test]
fn a_file_edited_twice_or_named_two_ways_is_one_file() {
    let codex = r#"{"timestamp":"t","type":"session_meta","payload":{"id":"s","cwd":"/w"}}
{"timestamp":"t","type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","call_id":"c1","input":"*** Begin Patch\n*** Update File: ./src/a.rs\n*** End Patch"}}
{"timestamp":"t","type":"event_msg","payload":{"type":"item_completed","item":{"type":"FileChange","id":"c1","changes":{"/w/src/a.rs":{"type":"update"}},"status":"completed"}}}
{"timestamp":"t","type":"event_msg","payload":{"type":"patch_apply_end","call_id":"c1","success":true,"changes":{"/w/src/../src/a.rs":{"update":{}},"src/a.rs":{"update":{}}}}}
{"timestamp":"t","type":"turn_context","payload":{"cwd":"/w/src"}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"apply_patch","call_id":"c2","arguments":"{\"input\":\"*** Begin Patch\\n*** Update File: a.rs\\n*** Add File: b.rs\\n*** End Patch\"}"}}
{"timestamp":"t","type":"event_msg","payload":{"type":"item_completed","item":{"type":"FileChange","id":"c2","changes":{"/w/src/a.rs":{"type":"update"},"/w/src/b.rs":{"type":"add"}},"status":"completed"}}}
"#;
    let d = digest(Format::Codex, codex);
    assert_eq!(d.edited_files, ["/w/src/a.rs", "/w/src/b.rs"]);
    assert_eq!(d.skipped_lines, 0);

    let claude = r#"{"type":"assistant","uuid":"a1","sessionId":"s","message":{"content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"/w/a.rs"}},{"type":"tool_use","id":"t2","name":"Edit","input":{"file_path":"/w/./a.rs"}},{"type":"tool_use","id":"t3","name":"MultiEdit","input":{"file_path":"/w/x/../a.rs"}}]}}
{"type":"user","uuid":"u1","sessionId":"s","toolUseResult":{},"message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"},{"type":"tool_result","tool_use_id":"t2","content":"ok"},{"type":"tool_result","tool_use_id":"t3","content":"ok"}]}}
"#;
    assert_eq!(digest(Format::Claude, claude).edited_files, ["/w/a.rs"]);

    let gemini = r#"{"sessionId":"s","projectHash":"h","startTime":"t","lastUpdated":"t","kind":"main"}
{"id":"m1","timestamp":"t","type":"gemini","content":"","toolCalls":[{"id":"x1","name":"write_file","args":{"file_path":"/w/a.rs"},"status":"success"}]}
{"id":"m2","timestamp":"t","type":"gemini","content":"","toolCalls":[{"id":"x2","name":"replace","args":{"file_path":"/w/./a.rs"},"status":"success"},{"id":"x3","name":"edit","args":{"file_path":"/w/a.rs"},"status":"success"}]}
"#;
    assert_eq!(digest(Format::Gemini, gemini).edited_files, ["/w/a.rs"]);
}
