#!/usr/bin/env bash
# Run each fuzz target (cargo-fuzz, libFuzzer) for SECONDS, default 60:
#   bash fuzz/run.sh [SECONDS] [TARGET...]
# Targets: state_reader continue_here notes_record config (all when none is named).
# Needs a nightly toolchain (`rustup toolchain install nightly`); installs cargo-fuzz
# when it is missing. The committed seeds stay in fuzz/corpus/<target>; what the fuzzer
# finds goes to fuzz/work/<target> (not committed), crashes to fuzz/artifacts/<target>.
# Prints, per target, the executions, the coverage and whether it crashed; exits 1 when
# any target crashed. `bash fuzz/run.sh 30` is the short run for CI.
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(state_reader continue_here notes_record config)
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
status=0
for t in "${targets[@]}"; do
    mkdir -p "work/$t"
    log="work/$t.log"
    if cargo +nightly fuzz run "$t" "work/$t" "corpus/$t" -- \
        -max_total_time="$secs" -max_len=65536 -timeout=10 -print_final_stats=1 >"$log" 2>&1; then
        result=ok
    else
        result=CRASH
        status=1
    fi
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo '?')
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo '?')
    corpus=$(find "work/$t" -type f | wc -l)
    printf '%-14s %-5s %5ss  %10s execs  cov %5s  ft %6s  corpus %5s\n' \
        "$t" "$result" "$secs" "$execs" "$cov" "$ft" "$corpus"
    [ "$result" = ok ] || tail -n 40 "$log"
done
exit $status
