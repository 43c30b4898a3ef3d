#!/bin/sh
# Issue 34: reading the tail of a realistic 50 MB Claude Code transcript.
#   bench/transcript.sh [FILE] [MB]
# makes FILE (default /tmp/transcript-50mb.jsonl): MB megabytes of Claude Code 2.1.332
# lines in the shapes of tests/fixtures/transcripts/claude-2.1.332.jsonl (user requests,
# Write/Edit/Bash tool calls, tool results of a few KB, one failing `ls` in ten), then
# reads it through the hidden test entry `bench_transcript_read` (in-process, the
# transcript reader alone: its time and the process's peak memory, VmHWM). The
# session-end hook that uses the reader (branch record) is timed against
# `git log --oneline -100` once it exists. PROFILE=--release times an optimised build.
set -eu
file=${1:-/tmp/transcript-50mb.jsonl}
mb=${2:-50}
python3 - "$file" "$mb" <<'PY'
import json, sys
path, mb = sys.argv[1], int(sys.argv[2])
out = open(path, "w")
size, i = 0, 0
blob = "x" * 3000
while size < mb * 1024 * 1024:
    i += 1
    lines = [
        {"type": "user", "uuid": f"u{i}", "sessionId": "s", "message": {"role": "user", "content": f"request {i}: fix the module {i}"}},
        {"type": "assistant", "uuid": f"a{i}", "sessionId": "s", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": f"w{i}", "name": "Write", "input": {"file_path": f"/w/src/m{i % 80}.rs", "content": blob}},
            {"type": "tool_use", "id": f"b{i}", "name": "Bash", "input": {"command": f"ls /nonexistent-{i}" if i % 10 == 0 else "cargo test"}}]}},
        {"type": "user", "uuid": f"r{i}", "sessionId": "s", "toolUseResult": {}, "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"w{i}", "content": "ok"},
            {"type": "tool_result", "tool_use_id": f"b{i}", "is_error": i % 10 == 0,
             "content": f"Exit code 2\nls: cannot access '/nonexistent-{i}': No such file or directory" if i % 10 == 0 else blob}]}},
    ]
    for l in lines:
        s = json.dumps(l) + "\n"
        out.write(s)
        size += len(s)
PY
ls -l "$file"
TRANSCRIPT_BENCH="$file" cargo test --locked ${PROFILE:-} --test cli -- --ignored --nocapture bench_transcript_read
