#!/usr/bin/env bash
# The cost of a claim: `task next --claim` (pick the next task under the lock and
# claim it, here renewing the caller's own lease each round) against `task start`
# (the plain write it extends), process to process with bench/ab.py, on a session of
# TASKS tasks. Goal (issue 33): the claim within 1.5x of the start; then a claim
# decided on a local bare remote against one `git push` of the notes ref (goal 1.5x).
#   bench/claims.sh DIR [TASKS] [ROUNDS]     (GIT_HANDOVER= a binary)
set -euo pipefail
dir=${1:?usage: bench/claims.sh DIR [TASKS] [ROUNDS]}
tasks=${2:-20}
rounds=${3:-21}
bin=${GIT_HANDOVER:-$(command -v git-handover)}
here=$(cd "$(dirname "$0")" && pwd)
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
git init -q -b main repo && cd repo
git commit -q --allow-empty -m start
for i in $(seq 1 "$tasks"); do
    "$bin" task add "T$i" "task number $i with some words to make it realistic" \
        --file src/a.rs --next "do the next thing" > /dev/null
done
"$bin" task next --claim --as bench > /dev/null
# Every run writes: start and block change T2's status in turn, and the two claims
# renew the caller's lease on T1 to a different end in turn (a run that changes
# nothing writes nothing, and would not be the same work).
python3 "$here/ab.py" "$dir/repo" "$rounds" \
    "$bin" task start T2 :: \
    "$bin" task block T2 --reason r :: \
    "$bin" task next --claim --as bench --for 1h :: \
    "$bin" task next --claim --as bench --for 2h

# A claim across clones (`--remote`: fetch the remote's notes ref, decide, write, push
# without force) against one `git push` of the notes ref, on a bare remote on the same
# disk. Every run does its work: the claims renew the lease to a different end in turn
# (a write and a fast-forward push each), and each push moves a ref of the remote
# between two notes commits in turn (forced, so that it always updates).
cd "$dir"
git init -q --bare remote.git
cd repo
git config handover.store both
# ab.py clears GIT_*: the notes commits and reflogs need an identity of the repository's.
git config user.name bench
git config user.email bench@example.com
git remote add origin "$dir/remote.git"
"$bin" sync origin > /dev/null
"$bin" task next --claim --as bench --for 3h > /dev/null
one=$(git rev-parse refs/notes/handover)
"$bin" task next --claim --as bench --for 4h > /dev/null
two=$(git rev-parse refs/notes/handover)
"$bin" sync origin > /dev/null
python3 "$here/ab.py" "$dir/repo" "$rounds" \
    git push -q -f origin "$one:refs/notes/bench" :: \
    git push -q -f origin "$two:refs/notes/bench" :: \
    "$bin" task next --claim --as bench --for 1h --remote origin :: \
    "$bin" task next --claim --as bench --for 2h --remote origin
# A round that asks the remote (the first claim of a process that never fetched, a
# rejected push, every `sync`): `sync origin` fetches the notes ref, merges, settles
# and has nothing to push, against the one `git fetch` of that ref it makes.
python3 "$here/ab.py" "$dir/repo" "$rounds" \
    git fetch -q --no-tags origin +refs/notes/handover:refs/notes/bench-fetch :: \
    "$bin" sync origin
# The same push carrying what a claim's push carries: one new notes commit whose note
# is the session's note with one more record (made by `git notes append` before each
# push, outside the timing), pushed as a fast-forward; in the same rounds, alternating,
# the remote claim (its note grows by one record a round too), so that the machine's
# load falls on both alike. The ratio of the medians is the issue's figure.
python3 "$here/claims-ab.py" "$dir" "$bin" "$rounds"
