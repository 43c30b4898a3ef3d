#!/usr/bin/env python3
"""The remote claim's own CPU against a push's, robust to a shared machine's load
better than wall times: in the same rounds on the repository `bench/claims.sh DIR`
leaves in DIR/repo, a push of a new notes commit (one record more, as the claims'
notes grow) timed with its children (`perf stat -e task-clock`), then a claim of each
binary timed without its children (`--no-inherit`: its own `git push` left out), each
binary's claims three in a row (the first of each three not counted: it follows the
other binary's push), the order swapped each block. A claim costs about push + own.
    bench/claims-own-cpu.py DIR BINARY_A BINARY_B [BLOCKS]
"""
import os, statistics, subprocess, sys

d, binaries = sys.argv[1] + "/repo", {"A": sys.argv[2], "B": sys.argv[3]}
blocks = int(sys.argv[4]) if len(sys.argv) > 4 else 8
env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null", LC_ALL="C")


def git(*args, **kw):
    return subprocess.run(["git", *args], cwd=d, env=env, check=True, **kw)


def cpu(argv, inherit):
    out = subprocess.run(["perf", "stat", *([] if inherit else ["--no-inherit"]), "-x,", "-e",
                          "task-clock", "--", *argv], cwd=d, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return float(out.stderr.strip().splitlines()[-1].split(",")[0])


line = git("notes", "--ref=handover", "show", "HEAD", capture_output=True, text=True).stdout.splitlines()[-1]
git("update-ref", "refs/notes/bench-push", "refs/notes/handover")
git("push", "-q", "-f", "origin", "refs/notes/bench-push")
runs, n = {"push": [], "A": [], "B": []}, 0
for i in range(blocks):
    for name in ("A", "B") if i % 2 == 0 else ("B", "A"):
        for j in range(3):
            n += 1
            git("notes", "--ref=bench-push", "append", "-m", line.replace('"seq"', '"x%d"' % n, 1), "HEAD")
            runs["push"].append(cpu(["git", "push", "-q", "origin", "refs/notes/bench-push"], True))
            own = cpu([binaries[name], "task", "next", "--claim", "--as", "bench", "--for", "%dh" % (j + 1),
                       "--remote", "origin"], False)
            if j > 0:
                runs[name].append(own)
push = statistics.median(runs["push"])
print("push of a new notes commit (with its children): cpu median %.2f ms" % push)
for name in ("A", "B"):
    own = statistics.median(runs[name])
    print("%s: the claim's own cpu median %.2f ms (n=%d); push + own = %.2fx the push"
          % (binaries[name], own, len(runs[name]), (push + own) / push))
