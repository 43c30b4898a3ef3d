#!/usr/bin/env python3
"""Two binaries' remote claims against one `git push` of a new notes commit, in the
same rounds on the same repository (the one `bench/claims.sh DIR` leaves in DIR/repo):
each round appends one record to the pushed note (as the claims' own notes grow) and
runs push, claim A, push, claim B, so that a shared machine's load falls on all alike.
Prints each one's median wall and CPU (the process and its children: the claim's own
`git push` included), and each claim's ratio to the pushes of its round.
    bench/claims-ab.py DIR BINARY_A BINARY_B [ROUNDS]
"""
import os, statistics, subprocess, sys, time

d, a, b = sys.argv[1] + "/repo", sys.argv[2], sys.argv[3]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 31
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
runs = {"push": [], "A": [], "B": []}
n = 0


def push():
    global n
    n += 1
    git("notes", "--ref=bench-push", "append", "-m", line.replace('"seq"', '"x%d"' % n, 1), "HEAD")
    runs["push"].append(timed(["git", "push", "-q", "origin", "refs/notes/bench-push"]))


for i in range(rounds):
    for name, binary in (("A", a), ("B", b)) if i % 2 == 0 else (("B", b), ("A", a)):
        push()
        runs[name].append(timed([binary, "task", "next", "--claim", "--as", "bench", "--for",
                                 "%dh" % (1 + n % 2), "--remote", "origin"]))
med = lambda rs, k: statistics.median(r[k] for r in rs)
for name, label in (("push", "git push origin (a new notes commit)"), ("A", a), ("B", b)):
    print("%-60s median %6.1f ms  cpu %6.1f ms" % (label[-60:], med(runs[name], 0), med(runs[name], 1)))
for name, binary in (("A", a), ("B", b)):
    print("claim / push, %s: %.2fx wall, %.2fx cpu" % (binary, med(runs[name], 0) / med(runs["push"], 0),
                                                      med(runs[name], 1) / med(runs["push"], 1)))
