#!/usr/bin/env python3
"""The notes store at scale (issue 36): generate a repository whose refs/notes/handover
holds RECORDS session records with `git fast-import`, then time the readers against it
process to process (fork/exec, reaped by wait4: wall time and the child's peak RSS).

  bench/notes-index.py make DIR RECORDS [--latest-only]
      DIR/repo: RECORDS/20 commits on main; RECORDS/100 sessions of 100 writes each,
      every record an 8-task state (tasks done as the session goes on; nine sessions
      in ten end finished, as a year of sessions does), written in time order on the commit that was HEAD then, 20 records
      per notes commit (RECORDS/20 notes commits). DIR/origin.git: a bare clone with the
      same store, the repository's `origin`, for `sync`. --latest-only keeps only each
      session's newest record (the one-record-per-session store of the same sessions).
      --all-open: RECORDS sessions of one record each, none finished (every one open).
  bench/notes-index.py run DIR ROUNDS [NAME...]      (GIT_HANDOVER= the binary)
      Times hook session-start, continue --json, status --json, log -n 20, sync and
      `git rev-parse HEAD`, alternating within each round. Prints a markdown table.
      In DIR/repo no session is on disk: the hook and `continue` list the store-only
      unfinished sessions (RECORDS/1000 of them). hook_usual / continue_usual run in
      DIR/usual instead (made on first use: a clone with the same store and one
      unfinished session of it on disk, the hook's usual case: an agent starting where
      its session is); the first run there builds that clone's index (not timed).
      update_usual: before each run (not timed) one record is appended to DIR/usual's
      store with `git notes append` on HEAD; the hook timed is the one that brings the
      index up to date by that one record (issue 36: an update costs the change).
      update_usual_7: the same after seven records appended one after another.
      update_own: the hook in DIR/usual after this tool wrote one record from another
      worktree (DIR/usual-w2, made on first use, `-c handover.store=both task edit`):
      the usual write of another agent, which brings the index along itself.
      log_n_20_usual: log -n 20 in DIR/usual, whose newest records are (after the
      update runs) one session's run of writes, each told by the one shown after it.
      Every hook event's session id is new (this invocation's process id, the round):
      a second start of one id takes a short path and pays no update.
      The table gives the median, mean and slowest run of each command.
"""
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time

ENV = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
ENV.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null", LC_ALL="C",
           GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.com",
           GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@example.com")
PER_SESSION = 100
# `make DIR N --all-open`: one record per session, none finished (every session open).
ALL_OPEN = False
PER_NOTES_COMMIT = 20
PER_COMMIT = 20
TASKS = 8


def canonical_hash(doc):
    text = json.dumps({k: v for k, v in doc.items() if k != "session_hash"},
                      sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def state(sid, seq, finish):
    done = TASKS if finish and seq == PER_SESSION else min(TASKS - 1, seq * TASKS // PER_SESSION)
    tasks = [{"id": "T%d" % t, "description": "task %d of session %s: some words to make it "
              "realistic, as an agent writes them" % (t, sid),
              "status": "done" if t < done else ("in_progress" if t == done else "pending"),
              "file_paths": ["src/a%d.rs" % t, "src/b%d.rs" % t],
              "next_action": "do the next thing for task %d" % t} for t in range(TASKS)]
    doc = {"version": 3, "generated_at": "2026-11-01T10:00:00Z", "session_id": sid,
           "seq": seq, "status": "ALL_COMPLETE" if done == TASKS else "READY",
           "workspace": {"root": "/gone/%s" % sid}, "active_tasks": tasks,
           "recent_decisions": [], "architecture_changes": [], "known_issues": []}
    doc["session_hash"] = canonical_hash(doc)
    return doc


def records(n, latest_only):
    """(commit index, record line) in time order."""
    sessions = max(1, n // PER_SESSION)
    commits = max(1, n // PER_COMMIT)
    rng = random.Random(36)
    order = [s for s in range(sessions) for _ in range(PER_SESSION)]
    rng.shuffle(order)
    seq = [0] * sessions
    parent = [None] * sessions
    out = []
    for i, s in enumerate(order):
        seq[s] += 1
        sid = "bench-%06d" % s
        doc = state(sid, seq[s], s % 10 != 0 and not ALL_OPEN)
        rec = {"key": "w%d/%s" % (s % 50, sid), "session_id": sid, "seq": seq[s],
               "parent": parent[s], "worktree": "/gone/w%d" % (s % 50), "branch": "main",
               "saved_at": "2026-%02d-%02dT%02d:%02d:%02d.%06dZ" % (
                   1 + i * 11 // n, 1 + (i * 28 * 11 // n) % 28, (i // 3600) % 24,
                   (i // 60) % 60, i % 60, i % 1000000),
               "kind": "session"}
        parent[s] = doc["session_hash"]
        line = json.dumps(rec, separators=(",", ":")).rstrip("}") + ',"state":' + \
            json.dumps(doc, separators=(",", ":")) + "}"
        if latest_only and seq[s] != PER_SESSION:
            continue
        out.append((i * commits // n, line))
    return commits, out


def make(d, n, latest_only):
    subprocess.run(["rm", "-rf", d], check=True)
    os.makedirs(d)
    repo = os.path.join(d, "repo")
    subprocess.run(["git", "init", "-q", "-b", "main", repo], check=True, env=ENV)
    commits, recs = records(n, latest_only)
    p = subprocess.Popen(["git", "fast-import", "--quiet"], cwd=repo, env=ENV,
                         stdin=subprocess.PIPE)
    w = p.stdin.write

    def data(b):
        w(b"data %d\n" % len(b))
        w(b)
        w(b"\n")

    t0 = 1761991200
    for c in range(commits):
        w(b"commit refs/heads/main\nmark :%d\ncommitter bench <b@e> %d +0000\n" % (c + 1, t0 + c * 60))
        data(b"commit %d" % c)
        w(b"M 644 inline file%d.txt\n" % (c % 300))
        data(b"content %d\n" % c)
    notes = {}
    batch = []
    nc = 0

    def flush():
        nonlocal nc
        if not batch:
            return
        w(b"commit refs/notes/handover\ncommitter bench <b@e> %d +0000\n" % (t0 + nc * 30))
        data(b"Notes added by 'git handover'")
        for c in sorted(set(batch)):
            w(b"N inline :%d\n" % (c + 1))
            data(notes[c])
        batch.clear()
        nc += 1

    for c, line in recs:
        notes[c] = notes.get(c, b"") + line.encode() + b"\n"
        batch.append(c)
        if len(batch) == PER_NOTES_COMMIT:
            flush()
    flush()
    p.stdin.close()
    if p.wait() != 0:
        sys.exit("fast-import failed")
    for args in (["reset", "-q", "--hard", "main"], ["config", "user.name", "bench"],
                 ["config", "user.email", "bench@example.com"]):
        subprocess.run(["git", "-C", repo] + args, check=True, env=ENV)
    subprocess.run(["git", "clone", "-q", "--bare", repo, os.path.join(d, "origin.git")],
                   check=True, env=ENV)
    subprocess.run(["git", "-C", repo, "remote", "add", "origin", os.path.join(d, "origin.git")],
                   check=True, env=ENV)
    subprocess.run(["git", "-C", repo, "push", "-q", "origin", "refs/notes/handover"],
                   check=True, env=ENV)
    subprocess.run(["git", "-C", repo, "fetch", "-q", "origin"], check=True, env=ENV)
    size = subprocess.run(["du", "-sh", os.path.join(repo, ".git")], capture_output=True,
                          text=True).stdout.split()[0]
    print("%s: %d records, %d sessions, %d commits, %d notes commits, .git %s"
          % (repo, len(recs), max(1, n // PER_SESSION), commits, nc, size))


def usual(d, binary):
    """DIR/usual: a clone holding the store, one of its unfinished sessions on disk."""
    u = os.path.join(d, "usual")
    if os.path.isdir(u):
        # Its index brought up to date (or built, when the copy's is of another format:
        # the hook never builds one past its budget), untimed.
        subprocess.run([binary, "status"], cwd=u, env=ENV, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return u
    subprocess.run(["git", "clone", "-q", os.path.join(d, "repo"), u], check=True, env=ENV)
    for args in (["fetch", "-q", "origin", "refs/notes/handover:refs/notes/handover"],
                 ["config", "user.name", "bench"], ["config", "user.email", "bench@example.com"]):
        subprocess.run(["git", "-C", u] + args, check=True, env=ENV)
    save_unfinished(binary, u, "bench-000000")
    subprocess.run([binary, "status"], cwd=u, env=ENV, check=True, stdout=subprocess.DEVNULL)
    return u


def save_unfinished(binary, where, sid):
    """Save an unfinished session `sid` in worktree `where` (on disk, not recorded)."""
    doc = state(sid, PER_SESSION, False)
    doc["workspace"]["root"] = where
    doc.pop("seq")
    doc["session_hash"] = canonical_hash(doc)
    subprocess.run([binary, "save"], cwd=where, env=ENV, input=json.dumps(doc).encode(),
                   check=True, stdout=subprocess.DEVNULL)


def own_writer(d, binary):
    """DIR/usual-w2: a linked worktree of DIR/usual (HEAD detached on the same commit)
    with a session of its own, whose writes record into the store (`update_own`)."""
    u, w = os.path.join(d, "usual"), os.path.join(d, "usual-w2")
    if not os.path.isdir(w):
        subprocess.run(["git", "-C", u, "worktree", "add", "-q", "--detach", w], check=True,
                       env=ENV)
        save_unfinished(binary, w, "bench-own")
    return w


def run(d, rounds, names):
    binary = os.path.abspath(os.environ.get("GIT_HANDOVER", "target/release/git-handover"))
    repo = os.path.join(d, "repo")
    def event(cwd):
        return json.dumps({"session_id": "bench", "cwd": cwd, "hook_event_name": "SessionStart",
                           "source": "startup"})
    commands = {
        "hook_session_start": [binary, "hook", "session-start"],
        "continue_json": [binary, "continue", "--json"],
        "status_json": [binary, "status", "--json"],
        "log_n_20": [binary, "log", "-n", "20"],
        "sync": [binary, "sync"],
        "rev_parse_head": ["git", "rev-parse", "HEAD"],
        "hook_usual": [binary, "hook", "session-start"],
        "continue_usual": [binary, "continue", "--json"],
        "update_usual": [binary, "hook", "session-start"],
        "update_usual_7": [binary, "hook", "session-start"],
        "update_own": [binary, "hook", "session-start"],
        "log_n_20_usual": [binary, "log", "-n", "20"],
    }
    names = names or [n for n in commands if "_usual" not in n]
    here = {n: repo for n in commands}
    appended = [0]
    # The newest record of session 1 in DIR/usual's store (the usual write goes on top
    # of it), found from the ones this function appended before.
    sid = "bench-%06d" % 1
    top = [PER_SESSION, state(sid, PER_SESSION, True)["session_hash"]]
    usual_dir = os.path.join(d, "usual")
    if os.path.isdir(usual_dir):
        for line in subprocess.run(["git", "-C", usual_dir, "notes", "--ref=handover", "show",
                                    "HEAD"], capture_output=True, text=True,
                                   env=ENV).stdout.splitlines():
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if r.get("session_id") == sid and r.get("seq", 0) > top[0]:
                top[:] = [r["seq"], r["state"]["session_hash"]]

    def append_one(cwd):
        """One more record of a finished session, written on top of its newest, appended
        to HEAD's note."""
        appended[0] += 1
        seq = top[0] + 1
        doc = state(sid, seq, True)
        rec = {"key": "w1/%s" % sid, "session_id": sid, "seq": seq, "parent": top[1],
               "worktree": "/gone/w1", "branch": "main",
               "saved_at": "2026-12-31T00:00:%02d.%06dZ" % (appended[0] % 60, appended[0]),
               "kind": "session"}
        line = json.dumps(rec, separators=(",", ":")).rstrip("}") + ',"state":' + \
            json.dumps(doc, separators=(",", ":")) + "}"
        subprocess.run(["git", "-C", cwd, "notes", "--ref=handover", "append", "-m", line,
                        "HEAD"], check=True, env=ENV)
        top[:] = [seq, doc["session_hash"]]

    for n in names:
        if "_usual" in n or n == "update_own":
            here[n] = usual(d, binary)
    writer = own_writer(d, binary) if "update_own" in names else None
    if "rev_parse_head" not in names:
        names.append("rev_parse_head")
    times = {n: [] for n in names}
    rss = {n: 0 for n in names}
    codes = {}
    for r in range(rounds):
        for n in names:
            # A new agent session each run, across invocations too.
            sid_run = '"bench-%d-%d-%s"' % (os.getpid(), r, n)
            stdin = (event(here[n]).replace('"bench"', sid_run)).encode() \
                if n.startswith("hook_") or n.startswith("update_") else None
            for _ in range({"update_usual": 1, "update_usual_7": 7}.get(n, 0)):
                append_one(here[n])
            if n == "update_own":
                subprocess.run([binary, "-c", "handover.store=both", "task", "edit", "T1",
                                "--next", "step %d-%d" % (os.getpid(), r)], cwd=writer,
                               env=ENV, check=True, stdout=subprocess.DEVNULL)
            start = time.perf_counter_ns()
            p = subprocess.Popen(commands[n], cwd=here[n], env=ENV,
                                 stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if stdin:
                p.stdin.write(stdin)
                p.stdin.close()
            _, status, usage = os.wait4(p.pid, 0)
            times[n].append((time.perf_counter_ns() - start) / 1e6)
            rss[n] = max(rss[n], usage.ru_maxrss)
            codes[n] = os.waitstatus_to_exitcode(status)
    base = statistics.median(times["rev_parse_head"])
    print("| command | median ms | × rev-parse | mean ms | max ms | peak RSS MiB | exit |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for n in names:
        m = statistics.median(times[n])
        print("| %s | %.1f | %.2f | %.1f | %.1f | %.1f | %d |"
              % (n, m, m / base, statistics.mean(times[n]), max(times[n]), rss[n] / 1024,
                 codes[n]))


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "make":
        if "--all-open" in sys.argv[4:]:
            ALL_OPEN, PER_SESSION = True, 1
        make(os.path.abspath(sys.argv[2]), int(sys.argv[3]), "--latest-only" in sys.argv[4:])
    elif len(sys.argv) >= 4 and sys.argv[1] == "run":
        run(os.path.abspath(sys.argv[2]), int(sys.argv[3]), sys.argv[4:])
    else:
        sys.exit(__doc__)
