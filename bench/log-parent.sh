#!/bin/bash
# Plain `log`, two binaries on their own copies of a bench/notes-index.py store (each its
# own index), git rev-parse in the same rounds. Usage: bench/log-parent.sh STORE OLD NEW
set -e
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C
store=$1; declare -A bin=([old]=$2 [new]=$3)
for b in old new; do rm -rf /tmp/lp-$b; cp -a "$store" /tmp/lp-$b; done
for b in old new; do (cd /tmp/lp-$b/repo && ${bin[$b]} log >/tmp/lp-out-$b.txt 2>/dev/null; ${bin[$b]} log --json >/tmp/lp-json-$b.txt 2>/dev/null); done
cmp /tmp/lp-out-old.txt /tmp/lp-out-new.txt && cmp /tmp/lp-json-old.txt /tmp/lp-json-new.txt && echo "same output"
rm -f /tmp/lp-times.txt
for r in 1 2 3 4 5; do for b in old new; do
  cd /tmp/lp-$b/repo
  /usr/bin/time -f "git %e s %M KiB" git rev-parse HEAD >/dev/null
  /usr/bin/time -a -o /tmp/lp-times.txt -f "$b %e s %M KiB" ${bin[$b]} log >/dev/null 2>&1
done; done
cat /tmp/lp-times.txt
