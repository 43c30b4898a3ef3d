#!/usr/bin/env bash
# Issue 34: `hook session-end` on a 50 MB Claude Code transcript with 100 commits since
# the agent session's start, process to process against `git log --oneline -100` in
# the same rounds, and its peak memory. Goal: ≤ 3× and ≤ 64 MiB.
#   bench/session-end.sh DIR [ROUNDS] [MB]     (GIT_HANDOVER= a binary; default
#                                              target/release/git-handover)
# DIR gets a repository whose session has a task in progress, a start marker left by
# `hook session-start` (the transcript named in its event), then 100 commits of a file
# each and a changed file not committed; the transcript is bench/transcript.sh's.
# Every round first puts back the session and the start markers as they were before
# any run (untimed), so each timed run records the same work into the same state:
# the commits (the newest 10 as architecture_changes), the files, the transcript's
# tail read and digested, the note written under the lock.
set -euo pipefail
dir=${1:?usage: bench/session-end.sh DIR [ROUNDS] [MB]}
rounds=${2:-11}
mb=${3:-50}
here=$(cd "$(dirname "$0")" && pwd)
bin=${GIT_HANDOVER:-$here/../target/release/git-handover}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
transcript=$dir/transcript.jsonl
# The transcript alone (bench/transcript.sh's generator, not its in-process read).
sed -n '/^python3 - /,/^PY$/p' "$here/transcript.sh" | sed '1s/.*/python3 - "$transcript" "$mb" <<'"'"'PY'"'"'/' > make.sh
transcript=$transcript mb=$mb bash make.sh
git init -q -b main repo && cd repo
mkdir src && echo start > src/start.rs && git add . && git commit -q -m start
"$bin" task add T1 "port the lexer" --file src/lexer.rs > /dev/null
"$bin" task start T1 > /dev/null
session=5f0c2a9e-1b7d-4c3e-9a61-2d8e7f4b0c11
event() {
    printf '{"session_id":"%s","transcript_path":"%s","cwd":"%s","hook_event_name":"%s"%s}' \
        "$session" "$transcript" "$dir/repo" "$1" "$2"
}
event SessionStart ',"source":"startup"' | "$bin" hook session-start --agent claude > /dev/null
sleep 0.05
for i in $(seq 1 100); do
    echo "$i" > "src/m$((i % 40)).rs"
    git add -A && git commit -q -m "step $i: the module $((i % 40))"
done
echo changed > src/start.rs
event SessionEnd ',"reason":"prompt_input_exit"' > "$dir/end.json"
common=$(git rev-parse --git-common-dir)
cp -a .claude "$dir/claude.saved"
cp -a "$common/git-handover" "$dir/tool.saved"
python3 - "$dir" "$rounds" "$bin" "$common" <<'PY'
import os, shutil, statistics, subprocess, sys, time
d, rounds, binary, common = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
repo = os.path.join(d, "repo")
common = os.path.join(repo, common) if not os.path.isabs(common) else common
end = open(os.path.join(d, "end.json"), "rb").read()
env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null", LC_ALL="C")

def restore():
    for saved, live in (("claude.saved", os.path.join(repo, ".claude")),
                        ("tool.saved", os.path.join(common, "git-handover"))):
        shutil.rmtree(live)
        shutil.copytree(os.path.join(d, saved), live, symlinks=True)

def run(argv, stdin):
    start = time.perf_counter_ns()
    p = subprocess.Popen(argv, cwd=repo, env=env, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if stdin:
        p.stdin.write(stdin)
        p.stdin.close()
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    return (time.perf_counter_ns() - start) / 1e6, usage.ru_maxrss, os.waitstatus_to_exitcode(status), out

commands = {
    "session_end": ([binary, "hook", "session-end", "--agent", "claude"], end),
    "git_log_oneline_100": (["git", "log", "--oneline", "-100"], None),
    "true": (["true"], None),
}
times = {n: [] for n in commands}
said = b""
for r in range(rounds):
    for n, (argv, stdin) in commands.items():
        if n == "session_end":
            restore()
        ms, kib, code, out = run(argv, stdin)
        assert code == 0, (n, code)
        if n == "session_end":
            said = out
        times[n].append(ms)
print("hook said:", said.decode(errors="replace").strip()[:300], file=sys.stderr)
# Peak memory without this harness's floor: /usr/bin/time forks the command from its own
# small process, so the command's maxrss is its own (a child of this Python process
# starts with Python's peak, which Linux carries across exec).
def peak(argv, stdin):
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, cwd=repo, env=env, input=stdin or b"",
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return int(p.stderr.decode().strip().splitlines()[-1])
own = {}
for n, (argv, stdin) in commands.items():
    own[n] = 0
    for _ in range(3):
        if n == "session_end":
            restore()
        own[n] = max(own[n], peak(argv, stdin))
med = {n: statistics.median(v) for n, v in times.items()}
print(f"| command | median ms of {rounds} | × git log --oneline -100 | peak RSS MiB (own, under /usr/bin/time) |")
print("|---|---:|---:|---:|")
for n in ("session_end", "git_log_oneline_100", "true"):
    print(f"| {n} | {med[n]:.1f} | {med[n] / med['git_log_oneline_100']:.2f} | {own[n] / 1024:.1f} |")
PY
