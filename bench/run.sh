#!/usr/bin/env bash
# Time git-handover against the reference script and git's own floors, alternating the
# commands in each round, and write the medians, ratios and peak memory to BENCHMARKS.md.
# Usage: bench/run.sh DIR [ROUNDS]      (DIR made by bench/make-repo.sh)
#   GIT_HANDOVER=path/to/git-handover   (default: target/release/git-handover, built if missing)
#   OUT=file                            (default: BENCHMARKS.md beside this script's parent)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(cd "${1:?usage: bench/run.sh DIR [ROUNDS]}" && pwd)
rounds=${2:-5}
out=${OUT:-$here/../BENCHMARKS.md}
bin=${GIT_HANDOVER:-$here/../target/release/git-handover}
[ -x "$bin" ] || (cd "$here/.." && cargo build --release --locked)
for tool in jq /usr/bin/time; do
  command -v "$tool" >/dev/null || { apt-get install -y -qq jq time >/dev/null; break; }
done
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
repo=$dir/repo
hook=$dir/hook
event=$(printf '{"session_id":"bench","cwd":"%s","hook_event_name":"SessionStart","source":"startup"}' "$hook")

names=(status status_json continue_json hook_session_start reference worktree_list rev_list_count rev_parse_head
       shas_10 shas_10000)
# HALF=DIR: a repository made with half the worktrees and sessions, for the scaling ratio.
[ -n "${HALF:-}" ] && names+=(status_half)
# NAMES="status status_half": time only these (the ratios that need others are left out).
[ -n "${NAMES:-}" ] && read -r -a names <<< "$NAMES"
run_one() {
  case "$1" in
    status) (cd "$repo" && "$bin" status) ;;
    status_json) (cd "$repo" && "$bin" status --json) ;;
    continue_json) (cd "$hook" && "$bin" continue hook/20261130-000000 --json) ;;
    hook_session_start) (cd / && printf '%s' "$event" | "$bin" hook session-start) ;;
    reference) "$here/reference.sh" "$repo" ;;
    worktree_list) git -C "$repo" worktree list --porcelain ;;
    rev_list_count) git -C "$repo" rev-list --count HEAD ;;
    rev_parse_head) git -C "$repo" rev-parse HEAD ;;
    shas_10) (cd "$dir/shas-10" && "$bin" status --here) ;;
    shas_10000) (cd "$dir/shas-10000" && "$bin" status --here) ;;
    status_half) (cd "$HALF/repo" && "$bin" status) ;;
  esac
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for r in $(seq 1 "$rounds"); do
  for n in "${names[@]}"; do
    start=$(date +%s%N)
    /usr/bin/time -f %M -o "$tmp/mem" bash -c "$(declare -f run_one); bin='$bin' repo='$repo' hook='$hook' here='$here' dir='$dir' HALF='${HALF:-}' event='$event' run_one $n" >/dev/null 2>"$tmp/err" || true
    end=$(date +%s%N)
    echo $(( (end - start) / 1000 )) >> "$tmp/$n.us"
    tail -1 "$tmp/mem" >> "$tmp/$n.kib"
  done
  echo "round $r of $rounds done" >&2
done

median() { sort -n "$1" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : int((a[NR/2] + a[NR/2+1]) / 2)}'; }
declare -A med mem
for n in "${names[@]}"; do med[$n]=$(median "$tmp/$n.us"); mem[$n]=$(sort -n "$tmp/$n.kib" | tail -1); done
has() { [ -n "${med[$1]:-}" ]; }
ms() { awk -v u="$1" 'BEGIN {printf "%.1f", u / 1000}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

commits=$(git -C "$repo" rev-list --count HEAD)
worktrees=$(git -C "$repo" worktree list | wc -l)
sessions=$(find "$dir" -name project-state.json | wc -l)
{
  echo "# Benchmarks"
  echo
  echo "Produced by \`bench/run.sh\` on $(date -u +%Y-%m-%d), $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB,"
  echo "$(uname -sr), $(git --version). Repository: $commits commits, $worktrees worktrees,"
  echo "$sessions sessions (\`bench/make-repo.sh\`), commit-graph written. Medians of $rounds rounds,"
  echo "the commands alternating in each round; wall time includes process start."
  echo
  echo "| command | median ms | peak RSS MiB |"
  echo "|---|---:|---:|"
  for n in "${names[@]}"; do
    echo "| $n | $(ms "${med[$n]}") | $(awk -v k="${mem[$n]}" 'BEGIN {printf "%.1f", k / 1024}') |"
  done
  echo
  echo "| ratio | value | target |"
  echo "|---|---:|---|"
  has reference && has status && echo "| reference / status | $(ratio "${med[reference]}" "${med[status]}") | ≥ 50 |"
  has status && has rev_list_count && echo "| status / rev-list --count HEAD | $(ratio "${med[status]}" "${med[rev_list_count]}") | ≤ 1 |"
  has hook_session_start && has rev_parse_head && echo "| hook session-start / rev-parse HEAD | $(ratio "${med[hook_session_start]}" "${med[rev_parse_head]}") | ≤ 5 |"
  has continue_json && has rev_parse_head && echo "| continue --json / rev-parse HEAD | $(ratio "${med[continue_json]}" "${med[rev_parse_head]}") | ≤ 5 |"
  has shas_10000 && has shas_10 && echo "| 10,000 shas / 10 shas, same depth | $(ratio "${med[shas_10000]}" "${med[shas_10]}") | ≤ 1.5 |"
  has status_half && has status && echo "| status, twice the worktrees and sessions | $(ratio "${med[status]}" "${med[status_half]}") | ≤ 2.2 |"
  has status && echo "| status peak RSS | $(awk -v k="${mem[status]}" 'BEGIN {printf "%.1f MiB", k / 1024}') | ≤ 64 MiB |"
} > "$out"
cat "$out"
