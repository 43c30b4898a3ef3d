#!/usr/bin/env python3
"""Two builds of git-handover against each other on the timed paths, process to process
(fork/exec from this process, reaped by wait4: no shell in the timing), the builds and
`git rev-parse HEAD` alternating within each round, the order of the builds swapped
every round. For build settings (Cargo.toml's profile), where only the code generation
differs.

Usage: bench/binary-ab.py DIR ROUNDS OLD NEW
  DIR made by `bench/notes-index.py make` with its `usual` clone (made by
  `bench/notes-index.py run DIR 1 hook_usual`): `hook session-start` runs in DIR/usual
  (an agent starting where its session is), `status --json` in DIR/repo.
Prints, per command and build: median wall ms, median CPU ms (user + system, from
wait4's rusage: steadier than wall time on a shared machine), the wall ratio to
`git rev-parse HEAD` of the same rounds, and NEW's medians over OLD's.
"""
import json
import os
import statistics
import subprocess
import sys
import time

ENV = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
ENV.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null", LC_ALL="C")


def timed(argv, cwd, stdin):
    start = time.perf_counter_ns()
    p = subprocess.Popen(argv, cwd=cwd, env=ENV,
                         stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if stdin:
        p.stdin.write(stdin)
        p.stdin.close()
    _, status, usage = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("%s failed in %s" % (" ".join(argv), cwd))
    return (time.perf_counter_ns() - start) / 1e6, (usage.ru_utime + usage.ru_stime) * 1e3


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    d, rounds = os.path.abspath(sys.argv[1]), int(sys.argv[2])
    builds = {"old": os.path.abspath(sys.argv[3]), "new": os.path.abspath(sys.argv[4])}
    repo, usual = os.path.join(d, "repo"), os.path.join(d, "usual")
    # Each start a new agent session (one already briefed is not briefed again).
    def event(run):
        return json.dumps({"session_id": "bench-%d" % run, "cwd": usual,
                           "hook_event_name": "SessionStart", "source": "startup"}).encode()
    commands = {"hook_session_start": (["hook", "session-start"], usual, event),
                "status_json": (["status", "--json"], repo, None)}
    # Each build's index of the store brought up to date once, untimed.
    for b in builds.values():
        for _, cwd, _ in commands.values():
            subprocess.run([b, "status"], cwd=cwd, env=ENV, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = {(n, b): [] for n in commands for b in builds}
    cpu = {(n, b): [] for n in commands for b in builds}
    git = []
    for r in range(rounds):
        order = list(builds) if r % 2 == 0 else list(reversed(builds))
        git.append(timed(["git", "rev-parse", "HEAD"], repo, None)[0])
        for n, (args, cwd, stdin) in commands.items():
            for b in order:
                w, c = timed([builds[b]] + args, cwd, stdin and stdin(time.time_ns()))
                wall[(n, b)].append(w)
                cpu[(n, b)].append(c)
    base = statistics.median(git)
    print("git rev-parse HEAD: median %.1f ms over %d rounds" % (base, rounds))
    print("| command | build | wall ms | CPU ms | × rev-parse |")
    print("|---|---|---:|---:|---:|")
    for n in commands:
        for b in builds:
            w, c = statistics.median(wall[(n, b)]), statistics.median(cpu[(n, b)])
            print("| %s | %s | %.1f | %.1f | %.2f |" % (n, b, w, c, w / base))
        ratio_w = statistics.median(wall[(n, "new")]) / statistics.median(wall[(n, "old")])
        ratio_c = statistics.median(cpu[(n, "new")]) / statistics.median(cpu[(n, "old")])
        print("| %s | new / old | %.3f | %.3f | |" % (n, ratio_w, ratio_c))


if __name__ == "__main__":
    main()
