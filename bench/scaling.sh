#!/usr/bin/env bash
# Issue 16's scaling rows: the full history with 1, 10, 50 and 200 worktrees, and with
# 1, 10, 100 and 1,000 sessions; `status --json` and `git rev-list --count HEAD` timed
# in the same rounds (bench/time.py) on each. Each repository takes about a minute to
# build and is removed after it is measured.
# Usage: bench/scaling.sh WORKDIR [ROUNDS]     (prints one markdown table)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: bench/scaling.sh WORKDIR [ROUNDS]}
rounds=${2:-7}
bin=${GIT_HANDOVER:-$here/../target/release/git-handover}
[ -x "$bin" ] || (cd "$here/.." && cargo build --release --locked)
mkdir -p "$work"
echo "| repository | status --json ms | rev-list --count ms | ratio | peak RSS MiB |"
echo "|---|---:|---:|---:|---:|"
row() {
  local label=$1; shift
  local dir=$work/scale
  env "$@" "$here/make-repo.sh" "$dir" full > /dev/null
  GIT_HANDOVER=$bin NAMES="status_json rev_list_count" python3 "$here/time.py" "$dir" "$rounds" 2> /dev/null |
    awk -F'|' -v label="$label" '
      $2 ~ /status_json/ { s = $3; rss = $6 }
      $2 ~ /rev_list_count/ { r = $3 }
      END { printf "| %s | %.1f | %.1f | %.2f | %s |\n", label, s, r, s / r, rss }'
  rm -rf "$dir"
}
row "1 worktree, 500 sessions" WORKTREES=1 DELETED=0 LOCKED=0
for w in 10 50 200; do row "$w worktrees, 500 sessions" WORKTREES=$w; done
for s in 1 10 100 1000; do row "50 worktrees, $s sessions" SESSIONS=$s; done
