#!/usr/bin/env bash
# Time git-handover against git's own floors, process to process (bench/time.py: no
# shell between the timer and the command), and print the markdown table that
# bench/BENCHMARKS.md carries.
# Usage: bench/run.sh DIR [ROUNDS]      (DIR made by bench/make-repo.sh)
#   GIT_HANDOVER=path/to/git-handover   (default: target/release/git-handover, built if missing)
#   NAMES="status rev_parse_head"       (default: every command of bench/time.py)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(cd "${1:?usage: bench/run.sh DIR [ROUNDS]}" && pwd)
bin=${GIT_HANDOVER:-$here/../target/release/git-handover}
[ -x "$bin" ] || (cd "$here/.." && cargo build --release --locked)
GIT_HANDOVER=$bin exec python3 "$here/time.py" "$dir" "${2:-9}"
