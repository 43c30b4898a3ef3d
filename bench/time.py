#!/usr/bin/env python3
"""Time git-handover and git process to process: no shell between the timer and the
command. Each command is started with fork/exec from this process (subprocess, no
shell=True), timed from just before the start to its reaping by wait4, whose rusage
gives the command's own peak RSS. Commands alternate within each round.

Usage: bench/time.py DIR [ROUNDS]          (DIR made by bench/make-repo.sh)
  GIT_HANDOVER=path/to/git-handover        (default: target/release/git-handover)
  NAMES="status rev_parse_head"            (default: all below)
Prints a markdown table: median ms, ratio to `git rev-parse HEAD` and to
`git rev-list --count HEAD` run in the same rounds, peak RSS (a value at or under
the harness's own floor is printed as "≤ floor": see `true` below).
"""
import os
import statistics
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
d = os.path.abspath(sys.argv[1])
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 11
binary = os.environ.get("GIT_HANDOVER", os.path.join(here, "..", "target/release/git-handover"))
repo, hook = os.path.join(d, "repo"), os.path.join(d, "hook")
event = ('{"session_id":"bench","cwd":"%s","hook_event_name":"SessionStart","source":"startup"}' % hook).encode()

env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null", LC_ALL="C")

# name -> (argv, cwd, stdin bytes)
commands = {
    "status": ([binary, "status"], repo, None),
    "status_json": ([binary, "status", "--json"], repo, None),
    "continue_json": ([binary, "continue", "hook/20261130-000000", "--json"], hook, None),
    "hook_session_start": ([binary, "hook", "session-start"], "/", event),
    "shas_10": ([binary, "status", "--here"], os.path.join(d, "shas-10"), None),
    "shas_10000": ([binary, "status", "--here"], os.path.join(d, "shas-10000"), None),
    "shas_recent_10": ([binary, "status", "--here"], os.path.join(d, "shas-recent-10"), None),
    "shas_recent_10000": ([binary, "status", "--here"], os.path.join(d, "shas-recent-10000"), None),
    # The same without the commit-graph: history read from the pack alone.
    "status_json_no_graph": ([binary, "-c", "core.commitGraph=false", "status", "--json"], repo, None),
    "shas_10000_no_graph": (
        [binary, "-c", "core.commitGraph=false", "status", "--here"], os.path.join(d, "shas-10000"), None),
    "shas_recent_10000_no_graph": (
        [binary, "-c", "core.commitGraph=false", "status", "--here"], os.path.join(d, "shas-recent-10000"), None),
    "rev_list_count_no_graph": (
        ["git", "-C", repo, "-c", "core.commitGraph=false", "rev-list", "--count", "HEAD"], "/", None),
    "worktree_list": (["git", "-C", repo, "worktree", "list", "--porcelain"], "/", None),
    "rev_list_count": (["git", "-C", repo, "rev-list", "--count", "HEAD"], "/", None),
    "rev_parse_head": (["git", "-C", repo, "rev-parse", "HEAD"], "/", None),
    # Linux carries the forking process's peak RSS across exec, so every child reports
    # at least this harness's own; `true` measures that floor.
    "true": (["true"], "/", None),
}
names = os.environ.get("NAMES", "").split() or list(commands)
for floor in ("rev_parse_head", "rev_list_count", "true"):
    if floor not in names:
        names.append(floor)


def run(argv, cwd, stdin):
    start = time.perf_counter_ns()
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if stdin:
        p.stdin.write(stdin)
        p.stdin.close()
    _, status, usage = os.wait4(p.pid, 0)
    elapsed = time.perf_counter_ns() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    return elapsed / 1e6, usage.ru_maxrss, p.returncode


times = {n: [] for n in names}
rss = {n: 0 for n in names}
codes = {}
for r in range(rounds):
    for n in names:
        argv, cwd, stdin = commands[n]
        # A new agent session each run: the hook briefs once per session start, so a
        # repeated session_id would time a run that prints nothing.
        if stdin is not None:
            # Unique across runs of this script too (the markers stay behind).
            stdin = stdin.replace(
                b'"session_id":"bench"', b'"session_id":"bench-%d-%d-%d"' % (os.getpid(), time.time_ns(), r)
            )
        ms, kib, code = run(argv, cwd, stdin)
        times[n].append(ms)
        rss[n] = max(rss[n], kib)
        codes[n] = code
    print(f"round {r + 1} of {rounds} done", file=sys.stderr)

med = {n: statistics.median(times[n]) for n in names}
print("| command | median ms | × rev-parse | × rev-list --count | peak RSS MiB | exit |")
print("|---|---:|---:|---:|---:|---:|")
floor = rss["true"]
for n in names:
    if n == "true":
        continue
    mem = f"≤ {floor / 1024:.1f}" if rss[n] <= floor else f"{rss[n] / 1024:.1f}"
    print(f"| {n} | {med[n]:.1f} | {med[n] / med['rev_parse_head']:.2f} | "
          f"{med[n] / med['rev_list_count']:.2f} | {mem} | {codes[n]} |")
