#!/usr/bin/env bash
# What a script does today without git-handover (the procedure of the two seed skills):
# list worktrees, read each project-state.json with jq, check each recorded sha with
# git cat-file -e and git merge-base --is-ancestor, count newer commits with
# git rev-list --count --since, flag stale tasks. One jq call per file.
# Usage: bench/reference.sh REPO
set -u
repo=${1:-.}
now=$(date +%s)
git -C "$repo" worktree list --porcelain | sed -n 's/^worktree //p' | while read -r wt; do
  if [ ! -d "$wt" ]; then echo "$wt: missing"; continue; fi
  current=$(git -C "$wt" branch --show-current)
  for root in "$wt/.claude/handover" "$wt/.agents/handover"; do
    [ -d "$root" ] || continue
    find "$root" -maxdepth 9 -name project-state.json -type f | sort | while read -r f; do
      {
        read -r status generated branch stale
        ok=0 bad=0
        tip=${branch:-HEAD}
        while read -r sha; do
          [ -n "$sha" ] || continue
          if git -C "$wt" cat-file -e "$sha^{commit}" 2>/dev/null \
             && git -C "$wt" merge-base --is-ancestor "$sha" "$tip" 2>/dev/null; then
            ok=$((ok + 1))
          else
            bad=$((bad + 1))
          fi
        done
        newer=$(git -C "$wt" rev-list --count --since="$generated" "$tip" 2>/dev/null || echo "?")
        fresh=stale
        [ "$branch" = "$current" ] && [ "$newer" = 0 ] && fresh=fresh
        echo "${f#"$wt"/} $status commits ok=$ok bad=$bad newer=$newer $fresh stale_tasks=$stale"
      } < <(jq -r --argjson now "$now" '
          ([.status, .generated_at, (.workspace.branch // ""),
            ([.active_tasks[] | select(.status == "in_progress" or .status == "blocked")
              | select(.last_touched != null and (.last_touched | fromdateiso8601) <= ($now - 172800))] | length)]
           | @tsv),
          (.active_tasks[] | select(.commit_sha != null) | .commit_sha)' "$f")
    done
  done
  [ -f "$wt/.claude/project-state.json" ] && echo "$wt: legacy state"
  for n in CONTINUE_HERE.md docs/CONTINUE_HERE.md .claude/CONTINUE_HERE.md; do
    [ -f "$wt/$n" ] && { echo "$wt/$n: continue-here note"; break; }
  done
done
