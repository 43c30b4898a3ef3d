#!/usr/bin/env python3
"""Time commands against each other, process to process, alternating within each
round (fork/exec from this process, reaped by wait4: no shell in the timing).

Usage: bench/ab.py DIR ROUNDS CMD [ARG...] [:: CMD [ARG...]]...
  Each command runs in DIR with git's environment cleared (as bench/time.py does).
  An argument @PATH stands for the lines of the file PATH, one argument each.
Prints, per command: median and minimum ms, the median CPU time (user + system, from
wait4's rusage: steadier than wall time on a machine whose speed drifts), and peak
RSS (MiB, the largest seen).

Examples (BENCHMARKS.md, session 7):
  bench/ab.py /tmp/bench-full/repo 5 old/git-handover -c core.commitGraph=false status --json \\
      :: target/release/git-handover -c core.commitGraph=false status --json
  find /tmp/bench-s100 -path '*/.claude/*' -name project-state.json > /tmp/f100
  find /tmp/bench-s1000 -path '*/.claude/*' -name project-state.json > /tmp/f1000
  bench/ab.py / 11 cat @/tmp/f100 :: cat @/tmp/f1000     (the file reading they add)
"""
import os
import statistics
import subprocess
import sys
import time

d, rounds = sys.argv[1], int(sys.argv[2])
groups, current = [], []
for a in sys.argv[3:]:
    if a == "::":
        groups.append(current)
        current = []
    elif a.startswith("@"):
        current.extend(line.rstrip("\n") for line in open(a[1:]) if line.strip())
    else:
        current.append(a)
groups.append(current)
# A program named by a relative path is found from where this is run, not from DIR.
for argv in groups:
    if "/" in argv[0] and os.path.exists(argv[0]):
        argv[0] = os.path.abspath(argv[0])
env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null", LC_ALL="C")
times = [[] for _ in groups]
cpu = [[] for _ in groups]
rss = [0 for _ in groups]
for _ in range(rounds):
    for i, argv in enumerate(groups):
        start = time.perf_counter_ns()
        p = subprocess.Popen(argv, cwd=d, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(p.pid, 0)
        times[i].append((time.perf_counter_ns() - start) / 1e6)
        cpu[i].append((usage.ru_utime + usage.ru_stime) * 1e3)
        rss[i] = max(rss[i], usage.ru_maxrss)
for i, argv in enumerate(groups):
    shown = " ".join(argv if len(argv) < 8 else argv[:2] + ["... (%d args)" % len(argv)])
    print("%-60s median %8.1f ms  min %8.1f ms  cpu %8.1f ms  peak %6.1f MiB"
          % (shown, statistics.median(times[i]), min(times[i]), statistics.median(cpu[i]),
             rss[i] / 1024))
