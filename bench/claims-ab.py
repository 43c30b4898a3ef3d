#!/usr/bin/env python3
"""Remote claims against one `git push` of a new notes commit, in the same rounds on the
same repository (the one `bench/claims.sh DIR` leaves in DIR/repo; claims.sh's last
table is this script run with its one binary): each round appends one record to the
pushed note (as the claims' own notes grow) and runs push, claim A[, push, claim B],
the binaries' order swapped every round, so that a shared machine's load falls on all
alike. Prints each one's median wall and CPU (the process and its children: the claim's
own `git push` included), and each claim's ratio to the pushes of its rounds.
    bench/claims-ab.py DIR BINARY_A [BINARY_B] [ROUNDS]
"""
import os, statistics, subprocess, sys, time

args = sys.argv[2:]
rounds = int(args.pop()) if args and args[-1].isdigit() else 31
if not args:
    sys.exit(__doc__)
d, binaries = sys.argv[1] + "/repo", args
env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null", LC_ALL="C")


def git(*args, **kw):
    return subprocess.run(["git", *args], cwd=d, env=env, check=True, **kw)


def timed(argv):
    start = time.perf_counter_ns()
    p = subprocess.Popen(argv, cwd=d, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    assert status == 0, argv
    return (time.perf_counter_ns() - start) / 1e6, (usage.ru_utime + usage.ru_stime) * 1e3


git("update-ref", "refs/notes/bench-push", "refs/notes/handover")
git("push", "-q", "-f", "origin", "refs/notes/bench-push")
line = git("notes", "--ref=handover", "show", "HEAD", capture_output=True, text=True).stdout.splitlines()[-1]
runs = {"push": [], **{b: [] for b in binaries}}
n = 0


def push():
    global n
    n += 1
    git("notes", "--ref=bench-push", "append", "-m", line.replace('"seq"', '"x%d"' % n, 1), "HEAD")
    runs["push"].append(timed(["git", "push", "-q", "origin", "refs/notes/bench-push"]))


for i in range(rounds):
    for binary in binaries if i % 2 == 0 else binaries[::-1]:
        push()
        runs[binary].append(timed([binary, "task", "next", "--claim", "--as", "bench", "--for",
                                   "%dh" % (1 + n % 2), "--remote", "origin"]))
med = lambda rs, k: statistics.median(r[k] for r in rs)
for name, label in [("push", "git push origin (a new notes commit)")] + [(b, b) for b in binaries]:
    print("%-60s median %6.1f ms  cpu %6.1f ms" % (label[-60:], med(runs[name], 0), med(runs[name], 1)))
for binary in binaries:
    print("claim / push, %s: %.2fx wall, %.2fx cpu" % (binary, med(runs[binary], 0) / med(runs["push"], 0),
                                                      med(runs[binary], 1) / med(runs["push"], 1)))
