#!/usr/bin/env bash
# Generate the benchmark repository of issue 8 with git fast-import:
#   COMMITS commits on main (a merge every 50), FILES files in the tree, a commit-graph,
#   WORKTREES linked worktrees on branches forked across history (5 deleted, 2 locked),
#   SESSIONS sessions spread over them with TASKS tasks each; done tasks record commits
#   from across their branch's history, 5% of them rewritten (unreachable) or missing.
# Usage: bench/make-repo.sh DIR [small|full]   (or set the variables yourself)
set -euo pipefail

dir=${1:?usage: bench/make-repo.sh DIR [small|full]}
size=${2:-full}
case "$size" in
  full)  : "${COMMITS:=300000}" "${FILES:=3000}" "${WORKTREES:=50}" "${SESSIONS:=500}" "${TASKS:=20}" ;;
  small) : "${COMMITS:=3000}" "${FILES:=300}" "${WORKTREES:=10}" "${SESSIONS:=40}" "${TASKS:=20}" ;;
  *) echo "size is small or full" >&2; exit 2 ;;
esac
: "${DELETED:=5}" "${LOCKED:=2}"
[ "$WORKTREES" -gt $((DELETED + LOCKED)) ] || { echo "need more worktrees than deleted+locked" >&2; exit 2; }

export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com

rm -rf "$dir"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
repo=$dir/repo
git init -q -b main "$repo"
start=$(date +%s)

# Commit i is at time BASE + i*60; the newest is an hour before "now" of the run.
base=$(( $(date +%s) - COMMITS * 60 - 3600 ))
awk -v n="$COMMITS" -v files="$FILES" -v base="$base" -v wts="$WORKTREES" '
function blob(text) { printf "data %d\n%s\n", length(text) + 1, text }
BEGIN {
  srand(42)
  for (i = 1; i <= n; i++) {
    t = base + i * 60
    if (i % 50 == 0 && i > 50) {
      # A side commit on its own ref, then merged: history with merges.
      printf "commit refs/heads/side\nmark :%d\ncommitter bench <bench@example.com> %d +0000\n", n + i, t - 30
      blob("side change"); printf "from :%d\n", i - 10
      f = int(rand() * files); printf "M 100644 inline d%02d/f%04d.txt\n", f % 100, f; blob("side " i)
      printf "commit refs/heads/main\nmark :%d\ncommitter bench <bench@example.com> %d +0000\n", i, t
      blob("merge side " i); printf "from :%d\nmerge :%d\n", i - 1, n + i
      continue
    }
    printf "commit refs/heads/main\nmark :%d\ncommitter bench <bench@example.com> %d +0000\n", i, t
    msg = "change " i
    printf "data %d\n%s\n", length(msg) + 1, msg
    if (i > 1) printf "from :%d\n", i - 1
    if (i == 1) {
      for (f = 0; f < files; f++) { printf "M 100644 inline d%02d/f%04d.txt\n", f % 100, f; blob("file " f) }
    } else {
      k = 1 + int(rand() * 3)
      for (j = 0; j < k; j++) { f = int(rand() * files); printf "M 100644 inline d%02d/f%04d.txt\n", f % 100, f; blob("v" i " " j) }
    }
  }
  # Worktree branches fork across history (the newest fork 1% from the tip).
  for (w = 1; w <= wts; w++) {
    fork = int(n * (0.3 + 0.69 * w / wts))
    printf "reset refs/heads/wt-%02d\nfrom :%d\n\n", w, fork
  }
}' | git -C "$repo" fast-import --quiet --export-marks="$dir/marks"

git -C "$repo" commit-graph write --reachable
git -C "$repo" gc --quiet --auto || true
echo "history: $(git -C "$repo" rev-list --count HEAD) commits in $(( $(date +%s) - start ))s" >&2

# Worktrees (no checkout: the tool reads no working files but its own).
for k in $(seq 1 "$WORKTREES"); do
  w=$(printf %02d "$k")
  git -C "$repo" worktree add -q --no-checkout "$dir/wt-$w" "wt-$w"
done

# Sessions: round-robin over the worktrees that will survive, plus main.
awk -v sessions="$SESSIONS" -v tasks="$TASKS" -v n="$COMMITS" -v wts="$WORKTREES" \
    -v deleted="$DELETED" -v locked="$LOCKED" -v dir="$dir" -v repo="$repo" -v now="$(date +%s)" '
BEGIN { srand(7) }
{ sub(/^:/, "", $1); sha[$1] = $2 }
END {
  live = wts - deleted - locked
  for (s = 0; s < sessions; s++) {
    w = s % (live + 1)                 # 0 is main
    if (w == 0) { root = repo; branch = "main"; top = n }
    else { root = sprintf("%s/wt-%02d", dir, w + deleted + locked); branch = sprintf("wt-%02d", w + deleted + locked)
           top = int(n * (0.3 + 0.69 * (w + deleted + locked) / wts)) }
    fp = sprintf("20261101-%06d", s)
    path = sprintf("%s/.claude/handover/%s/%s", root, branch, fp)
    system("mkdir -p " path)
    file = path "/project-state.json"
    gen = now - 86400 - s * 37
    printf "{\n  \"version\": 3,\n  \"generated_at\": \"%s\",\n  \"session_id\": \"bench-%d\",\n  \"status\": \"READY\",\n", strftime("%Y-%m-%dT%H:%M:%SZ", gen, 1), s > file
    printf "  \"workspace\": {\"root\": \"%s\", \"branch\": \"%s\", \"is_worktree\": %s},\n  \"active_tasks\": [\n", root, branch, (w == 0 ? "false" : "true") > file
    for (t = 1; t <= tasks; t++) {
      if (t <= tasks / 2) {
        r = rand()
        if (r < 0.025) c = "deadbeef" sprintf("%08x", s * 100 + t)             # missing
        else if (r < 0.05) c = sha[n + 50 * (1 + int(rand() * (n / 50 - 2)))]  # a side commit: unreachable
        else c = sha[1 + int(rand() * (top - 1))]                               # in history
        if (c == "") c = sha[1]
        printf "    {\"id\": \"T%d\", \"description\": \"done task %d\", \"status\": \"done\", \"commit_sha\": \"%s\", \"file_paths\": [\"d01/f0001.txt\"], \"last_touched\": \"%s\"}", t, t, c, strftime("%Y-%m-%dT%H:%M:%SZ", gen, 1) > file
      } else {
        st = (t % 3 == 0) ? "blocked" : "in_progress"
        printf "    {\"id\": \"T%d\", \"description\": \"open task %d\", \"status\": \"%s\", \"next_action\": \"continue\", \"blockers\": [], \"last_touched\": \"%s\"}", t, t, st, strftime("%Y-%m-%dT%H:%M:%SZ", gen - 3 * 86400 * (t % 2), 1) > file
      }
      printf "%s\n", (t < tasks ? "," : "") > file
    }
    printf "  ]\n}\n" > file
    close(file)
  }
}' "$dir/marks"

# A worktree for the hook and continue targets: one session whose recorded commits are
# among the last 1,000 of its branch.
git -C "$repo" worktree add -q --no-checkout -b hook "$dir/hook" main
awk -v n="$COMMITS" -v root="$dir/hook" -v now="$(date +%s)" -v tasks="$TASKS" '
{ sub(/^:/, "", $1); sha[$1] = $2 }
END {
  srand(11)
  path = root "/.claude/handover/hook/20261130-000000"
  system("mkdir -p " path)
  file = path "/project-state.json"
  printf "{\n  \"version\": 3,\n  \"generated_at\": \"%s\",\n  \"status\": \"READY\",\n", strftime("%Y-%m-%dT%H:%M:%SZ", now - 600, 1) > file
  printf "  \"workspace\": {\"root\": \"%s\", \"branch\": \"hook\", \"is_worktree\": true},\n  \"active_tasks\": [\n", root > file
  for (t = 1; t <= tasks; t++) {
    if (t <= tasks / 2) printf "    {\"id\": \"T%d\", \"description\": \"done\", \"status\": \"done\", \"commit_sha\": \"%s\"}", t, sha[n - int(rand() * 999)] > file
    else printf "    {\"id\": \"T%d\", \"description\": \"open task %d\", \"status\": \"in_progress\", \"next_action\": \"go on\"}", t, t > file
    printf "%s\n", (t < tasks ? "," : "") > file
  }
  printf "  ]\n}\n" > file
}' "$dir/marks"

# Worktrees for the many-shas target: sessions recording 10 and 10,000 commits, deep
# in history (from depth n/2 on, the deepest the same for both) and recent (among the
# newest 10,000 commits). They belong to a clone sharing the objects, so that the
# repository status is compared on stays the one described above.
git clone -q --shared --no-checkout "$repo" "$dir/shas-repo"
git -C "$dir/shas-repo" commit-graph write --reachable
for spec in 10:deep 10000:deep 10:recent 10000:recent; do
  count=${spec%%:*} where=${spec##*:}
  name=shas-$count
  [ "$where" = recent ] && name=shas-recent-$count
  git -C "$dir/shas-repo" worktree add -q --no-checkout -b "$name" "$dir/$name" origin/main
  awk -v n="$COMMITS" -v count="$count" -v where="$where" -v name="$name" -v root="$dir/$name" -v now="$(date +%s)" '
  { sub(/^:/, "", $1); sha[$1] = $2 }
  END {
    path = root "/.claude/handover/" name "/20261130-000000"
    system("mkdir -p " path)
    file = path "/project-state.json"
    printf "{\"version\": 3, \"generated_at\": \"%s\", \"status\": \"READY\",\n", strftime("%Y-%m-%dT%H:%M:%SZ", now - 600, 1) > file
    printf " \"workspace\": {\"branch\": \"%s\"},\n \"active_tasks\": [\n", name > file
    # Deep: commits between depth n/2 and n/2 + 10,000 from the root, the deepest one
    # the same for both sessions. Recent: among the newest 10,000.
    base = (where == "deep") ? int(n / 2) : n - 10000
    for (t = 1; t <= count; t++) {
      c = (t == 1) ? base : base + 1 + int((t - 1) * (10000 / count))
      if (c > n) c = n
      if (c % 50 == 0) c++
      printf "  {\"id\": \"T%d\", \"status\": \"done\", \"commit_sha\": \"%s\"},\n", t, sha[c] > file
    }
    printf "  {\"id\": \"open\", \"status\": \"in_progress\"}\n ]\n}\n" > file
  }' "$dir/marks"
done

# Deleted and locked worktrees (sessions recorded in them are gone with them).
for k in $(seq 1 "$DELETED"); do rm -rf "$dir/wt-$(printf %02d "$k")"; done
for k in $(seq 1 "$LOCKED"); do
  w=$(printf '%02d' $((DELETED + k)))
  git -C "$repo" worktree lock --reason "bench" "$dir/wt-$w"
done
echo "done: $repo, $WORKTREES worktrees, $SESSIONS sessions, in $(( $(date +%s) - start ))s" >&2
