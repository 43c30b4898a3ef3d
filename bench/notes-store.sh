#!/usr/bin/env bash
# The notes store's read cost: a repository whose notes store holds RECORDS session
# records (KEYS sessions, 20 tasks each, ~3.8 KB a record) and no session files, then
# `git handover status` timed over ROUNDS runs with peak memory.
#   bench/notes-store.sh DIR [RECORDS] [KEYS] [ROUNDS]     (GIT_HANDOVER= a binary)
set -euo pipefail
dir=${1:?usage: bench/notes-store.sh DIR [RECORDS] [KEYS] [ROUNDS]}
records=${2:-5000}
keys=${3:-200}
rounds=${4:-5}
bin=${GIT_HANDOVER:-$(command -v git-handover)}
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
git init -q -b main repo && cd repo
git commit -q --allow-empty -m start
tasks=$(for i in $(seq 0 19); do
    status=done; [ $((i % 3)) = 0 ] && status=in_progress
    printf '{"id":"T%s","description":"task number %s with some words to make it realistic","status":"%s","file_paths":["src/a.rs","src/b.rs"],"next_action":"do the next thing"},' "$i" "$i" "$status"
done)
tasks="[${tasks%,}]"
for n in $(seq 0 $((records - 1))); do
    day=$(printf '%02d' $((1 + n * 28 / records)))
    printf '{"key":"t/a%s","worktree":"/gone","branch":"main","saved_at":"2026-11-%sT10:00:00+00:00","kind":"session","state":{"version":3,"status":"READY","active_tasks":%s,"workspace":{"root":"/gone"}}}\n' \
        $((n % keys)) "$day" "$tasks"
done > ../records.jsonl
git notes --ref=handover add -F ../records.jsonl HEAD
echo "store: $(wc -c < ../records.jsonl) bytes, $records records, $keys keys"
for _ in $(seq "$rounds"); do
    /usr/bin/time -f '%e s  %M KB' "$bin" status > /dev/null
done
