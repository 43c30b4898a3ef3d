#!/usr/bin/env python3
"""The notes index built from nothing (issue 36): the first command after the index is
missing (after install, an index format change, the index lost) reads every note.

  bench/index-build.py DIR ROUNDS COMMAND BINARY...
      DIR: a store made by `bench/notes-index.py make` (use a copy: each run deletes
      and rebuilds DIR/repo's index). COMMAND: continue, status (each with --json) or
      hook (the session-start hook, a new session id each run: it gives the build up
      after its 300 ms budget). Each round runs COMMAND once per BINARY, in turn, the
      index deleted before each run, under `/usr/bin/time`: wall time, CPU time (user
      + system: steadier than the wall on a shared machine) and peak RSS of each run,
      then each binary's medians.
"""
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile


def one(repo, command, binary):
    tool = os.path.join(repo, ".git", "git-handover")
    subprocess.run(["rm", "-rf", os.path.join(tool, "notes-index"),
                    os.path.join(tool, "hook-starts")], check=True)
    stdin = b""
    argv = [binary, command, "--json"]
    if command == "hook":
        argv = [binary, "hook", "session-start"]
        stdin = json.dumps({"session_id": f"bench-{random.getrandbits(48):x}", "cwd": repo,
                            "hook_event_name": "SessionStart",
                            "source": "startup"}).encode()
    with tempfile.NamedTemporaryFile("r") as out:
        subprocess.run(["/usr/bin/time", "-f", "%e %M %U %S", "-o", out.name, *argv], cwd=repo,
                       input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=False)
        wall, kb, user, sys_ = out.read().split()[-4:]
    return float(wall), int(kb), float(user) + float(sys_)


def main():
    d, rounds, command = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    binaries = [os.path.abspath(b) for b in sys.argv[4:]]
    repo = os.path.join(os.path.abspath(d), "repo")
    seen = {b: [] for b in binaries}
    for r in range(rounds):
        for b in binaries:
            wall, kb, cpu = one(repo, command, b)
            seen[b].append((wall, kb, cpu))
            print(f"round {r + 1} {b}: {wall:.2f} s ({cpu:.2f} s CPU) {kb / 1024:.1f} MiB",
                  flush=True)
    for b, runs in seen.items():
        walls, kbs, cpus = zip(*runs)
        print(f"{b}: median {statistics.median(walls):.2f} s "
              f"({statistics.median(cpus):.2f} s CPU), "
              f"peak {min(kbs) / 1024:.1f}-{max(kbs) / 1024:.1f} MiB over {len(runs)} runs")


if __name__ == "__main__":
    main()
