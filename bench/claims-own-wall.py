#!/usr/bin/env python3
"""The remote claim's own wall time: each claim's wall minus the wall of the one
`git push` it runs (timed by a `git` wrapper first in PATH, so both binaries pay the
wrapper alike), binaries alternating in the same rounds on the repository
`bench/claims.sh DIR` leaves in DIR/repo. Much less moved by a loaded machine's pushes
than the ratio is; the ratio on a quiet machine is about 1 + own / push.
    bench/claims-own-wall.py DIR ROUNDS BINARY...
"""
import os, shutil, statistics, subprocess, sys, tempfile, time

d, rounds, bins = sys.argv[1] + "/repo", int(sys.argv[2]), sys.argv[3:]
wrap = tempfile.mkdtemp(prefix="claims-own-")
log = os.path.join(wrap, "log")
with open(os.path.join(wrap, "git"), "w") as f:
    f.write('#!/bin/sh\ns=$(date +%%s%%N); %s "$@"; r=$?; e=$(date +%%s%%N)\n'
            'echo "$s $e" >> %s; exit $r\n' % (shutil.which("git"), log))
os.chmod(os.path.join(wrap, "git"), 0o755)
env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null", LC_ALL="C",
           PATH=wrap + ":" + os.environ["PATH"])
res = {b: [] for b in bins}
for i in range(rounds):
    for b in bins if i % 2 == 0 else bins[::-1]:
        if os.path.exists(log):
            os.remove(log)
        until = "%dh" % (1 + len(res[b]) % 2)
        start = time.time_ns()
        subprocess.run([b, "task", "next", "--claim", "--as", "bench", "--for", until,
                        "--remote", "origin"], cwd=d, env=env, check=True,
                       stdout=subprocess.DEVNULL)
        wall = time.time_ns() - start
        (s, e), = [tuple(map(int, l.split())) for l in open(log)]
        res[b].append(((wall - (e - s)) / 1e6, (e - s) / 1e6))
for b, r in res.items():
    own = [x[0] for x in r]
    q = statistics.quantiles(own, n=4)
    print("%-30s own median %6.2f ms (quartiles %.2f-%.2f, min %.2f), its push median %.1f ms"
          % (b, statistics.median(own), q[0], q[2], min(own), statistics.median(x[1] for x in r)))
shutil.rmtree(wrap)
