#!/usr/bin/env python3
"""The CPU time of the session-start hook after records another process appended
(issue 36, the update laid over the index as a delta), by wait4:

  bench/hook-cpu.py BIN DIR APPENDER N APPENDS
      N times: run `python3 APPENDER` APPENDS times (a script that appends one record
      to DIR's store, e.g. /tmp/s16/app1.py with its path pointed at DIR), then one
      `BIN hook session-start` in DIR with a new session id. Prints the median, mean
      and slowest wall time, the median and mean CPU (user + system) and peak RSS.
      APPENDS 0: the hook on a current index.
"""
import os, sys, subprocess, time, random, statistics
b, d, app, n, k = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
W, C, M = [], [], 0
for i in range(n):
    for j in range(k):
        subprocess.run(["python3", app], check=True)
    ev = '{"session_id":"x-%d-%d","cwd":"%s","hook_event_name":"SessionStart","source":"startup"}' % (os.getpid(), random.getrandbits(40), d)
    t = time.perf_counter()
    p = subprocess.Popen([b, "hook", "session-start"], cwd=d, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    p.stdin.write(ev.encode()); p.stdin.close()
    _, st, ru = os.wait4(p.pid, 0)
    W.append((time.perf_counter() - t) * 1000); C.append((ru.ru_utime + ru.ru_stime) * 1000); M = max(M, ru.ru_maxrss)
print("wall median %.1f mean %.1f max %.1f ms | cpu median %.1f mean %.1f ms | rss %.1f MiB" % (statistics.median(W), statistics.mean(W), max(W), statistics.median(C), statistics.mean(C), M / 1024))
