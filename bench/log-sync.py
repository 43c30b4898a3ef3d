#!/usr/bin/env python3
"""Plain `log` and `sync` on a store of bench/notes-index.py (issue 36, round 3),
process to process (fork/exec, reaped by wait4: wall time and the child's peak RSS),
two binaries and git in the same rounds.

  bench/log-sync.py log DIR ROUNDS OLD NEW
      `log`, `log --json` (stdout drained; also the time to the first line) and
      `log | head -1` (stdout closed after the first line) for each binary, against
      `git rev-parse HEAD`; DIR/repo's notes index made current first.
  bench/log-sync.py sync DIR ROUNDS OLD NEW
      Each round: one new record on the remote (DIR/origin.git, pushed from a helper
      clone) and one written offline in each of three copies of DIR/repo; then, in an
      order that turns each round, `git fetch` of the notes ref in one copy, `sync`
      with OLD in another, `sync` with NEW in the third (each a real merge of one new
      record on each side).
"""
import os
import shutil
import statistics
import subprocess
import sys
import time

ENV = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
ENV.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null", LC_ALL="C",
           GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.com",
           GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@example.com")


def timed(cmd, cwd, first_line=False, head=False):
    """(ms, ms to the first line or None, peak RSS MiB, exit)."""
    start = time.perf_counter_ns()
    p = subprocess.Popen(cmd, cwd=cwd, env=ENV, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE if (first_line or head) else subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    first = None
    if first_line or head:
        p.stdout.readline()
        first = (time.perf_counter_ns() - start) / 1e6
        if head:
            p.stdout.close()
        else:
            while p.stdout.read(1 << 16):
                pass
    _, status, usage = os.wait4(p.pid, 0)
    ms = (time.perf_counter_ns() - start) / 1e6
    return ms, first, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def table(rows, base, base_name):
    print("| command | median ms | × %s | first line ms | peak RSS MiB | exit |" % base_name)
    print("|---|---:|---:|---:|---:|---:|")
    for name, runs in rows.items():
        ms = statistics.median(r[0] for r in runs)
        firsts = [r[1] for r in runs if r[1] is not None]
        first = "%.1f" % statistics.median(firsts) if firsts else ""
        print("| %s | %.1f | %.2f | %s | %.1f | %d |" % (
            name, ms, ms / base, first, max(r[2] for r in runs), max(r[3] for r in runs)))


def log(d, rounds, old, new):
    repo = os.path.join(d, "repo")
    subprocess.run([new, "log", "-n", "1"], cwd=repo, env=ENV, check=True,
                   stdout=subprocess.DEVNULL)
    cases = {"git rev-parse HEAD": (["git", "rev-parse", "HEAD"], {})}
    for label, b in (("old", old), ("new", new)):
        cases["%s log" % label] = ([b, "log"], {"first_line": True})
        cases["%s log --json" % label] = ([b, "--json", "log"], {"first_line": True})
        cases["%s log | head -1" % label] = ([b, "log"], {"head": True})
        cases["%s log -n 20" % label] = ([b, "log", "-n", "20"], {})
    rows = {n: [] for n in cases}
    for _ in range(rounds):
        for n, (cmd, kw) in cases.items():
            rows[n].append(timed(cmd, repo, **kw))
    table(rows, statistics.median(r[0] for r in rows["git rev-parse HEAD"]), "rev-parse")


def git(cwd, *args):
    subprocess.run(["git"] + list(args), cwd=cwd, env=ENV, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def record(n, who):
    return ('{"key":"w0/bench-new-%s","session_id":"bench-new-%s","seq":%d,"parent":null,'
            '"worktree":"/gone","branch":"main","saved_at":"2026-12-31T10:%02d:%02d.000000Z",'
            '"kind":"session","state":{"version":3,"session_id":"bench-new-%s","status":"READY",'
            '"active_tasks":[]}}' % (who, who, n, n // 60 % 60, n % 60, who))


def sync(d, rounds, old, new):
    src = os.path.join(d, "repo")
    copies = {}
    for name in ("fetch", "old", "new", "helper"):
        path = os.path.join(d, "sync-" + name)
        shutil.rmtree(path, ignore_errors=True)
        subprocess.run(["cp", "-a", src, path], check=True)
        copies[name] = path
    git(copies["helper"], "fetch", "-q", "origin", "+refs/notes/handover:refs/notes/handover")
    cases = {
        "git fetch (notes ref)": ("fetch", ["git", "fetch", "-q", "origin",
                                            "+refs/notes/handover:refs/notes/remotes/origin/handover"]),
        "old sync": ("old", [old, "sync"]),
        "new sync": ("new", [new, "sync"]),
    }
    rows = {n: [] for n in cases}
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=src, env=ENV, check=True,
                          capture_output=True, text=True).stdout.strip()
    for r in range(rounds):
        h = copies["helper"]
        git(h, "fetch", "-q", "origin", "+refs/notes/handover:refs/notes/handover")
        git(h, "notes", "--ref=handover", "append", "--no-separator", "-m", record(r, "remote"), head)
        git(h, "push", "-q", "origin", "refs/notes/handover")
        for name in ("fetch", "old", "new"):
            git(copies[name], "notes", "--ref=handover", "append", "--no-separator", "-m",
                record(r, name), head)
        names = list(cases)
        names = names[r % 3:] + names[:r % 3]
        for n in names:
            where, cmd = cases[n]
            rows[n].append(timed(cmd, copies[where]))
    table(rows, statistics.median(r[0] for r in rows["git fetch (notes ref)"]), "git fetch")


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] in ("log", "sync"):
        f = log if sys.argv[1] == "log" else sync
        f(os.path.abspath(sys.argv[2]), int(sys.argv[3]), os.path.abspath(sys.argv[4]),
          os.path.abspath(sys.argv[5]))
    else:
        sys.exit(__doc__)
