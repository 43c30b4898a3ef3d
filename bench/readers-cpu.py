#!/usr/bin/env python3
"""`log -n 20` and `status --json`, alternating over several binaries and stores,
wall and CPU time (user + system) by wait4 (issue 36: the readers against the
one-record store):

  bench/readers-cpu.py ROUNDS BIN:DIR [BIN:DIR...]
"""
import os, sys, subprocess, time, statistics
rounds = int(sys.argv[1]); targets = [t.split(":") for t in sys.argv[2:]]
cmds = {"log_n_20": ["log", "-n", "20"], "status_json": ["status", "--json"]}
res = {}
for r in range(rounds):
    for b, d in targets:
        for n, a in cmds.items():
            t = time.perf_counter()
            p = subprocess.Popen([b] + a, cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, st, ru = os.wait4(p.pid, 0)
            res.setdefault((b, d, n), []).append(((time.perf_counter() - t) * 1000, (ru.ru_utime + ru.ru_stime) * 1000, ru.ru_maxrss))
for (b, d, n), v in res.items():
    print("%-14s %-28s %-12s wall med %.1f  cpu med %.1f mean %.1f  rss %.1f MiB" % (os.path.basename(b), d, n, statistics.median(x[0] for x in v), statistics.median(x[1] for x in v), statistics.mean(x[1] for x in v), max(x[2] for x in v) / 1024))
