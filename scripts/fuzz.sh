#!/usr/bin/env bash
# Coverage-guided fuzzing of wsd's parsers with cargo-afl (AFL++, stable Rust).
#
#   scripts/fuzz.sh                 every target, 360 s each, one after another
#   scripts/fuzz.sh TARGET [SECS]   one target (names: scripts/fuzz.sh --list)
#
# Needs `cargo install cargo-afl` (the first `cargo afl` builds AFL++).
# Seeds: fuzz/seeds/TARGET (committed, small); findings: fuzz/out/TARGET
# (git-ignored). One fuzzer process at a time, under `nice -n 19`. At the end
# of each run it prints one line: target, seconds, executions, crashes, hangs.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

TARGETS=(data_line index_line sense_index exc semcor xml keys nb_params ic
         model_file nb_body knn_body pos_body)
if [[ ${1:-} == --list ]]; then printf '%s\n' "${TARGETS[@]}"; exit 0; fi
if ! cargo afl --version >/dev/null 2>&1; then
    echo "fuzz.sh: cargo-afl is missing; install it with: cargo install cargo-afl" >&2
    exit 2
fi
if [[ -n ${1:-} ]]; then
    [[ " ${TARGETS[*]} " == *" $1 "* ]] || { echo "fuzz.sh: no target $1 (--list)" >&2; exit 2; }
    TARGETS=("$1")
fi
SECS=${2:-360}

# WSD_FUZZ_NO_BUILD=1: fuzz the binaries already built (a series of runs
# while the sources change: each build of the instrumented crate is minutes).
[[ -n ${WSD_FUZZ_NO_BUILD:-} ]] || nice -n 19 cargo afl build --release --quiet
# A shared machine: no CPU pinning, no core-pattern or governor checks.
export AFL_NO_AFFINITY=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
export AFL_NO_UI=1 AFL_QUIET=1
for t in "${TARGETS[@]}"; do
    out=out/$t
    mkdir -p "$out"
    # Resume a previous run's queue when there is one.
    in=seeds/$t
    [[ -d $out/default/queue ]] && in=-
    nice -n 19 cargo afl fuzz -V "$SECS" -t 2000 -m none -i "$in" -o "$out" \
        "target/release/$t" >"$out/log.txt" 2>&1 || true
    rm -rf /tmp/fuzz-scratch-* 2>/dev/null || true
    s=$out/default/fuzzer_stats
    if [[ -f $s ]]; then
        get() { awk -v k="$1" '$1 == k { print $3 }' "$s"; }
        echo "$t seconds=$(( $(get last_update) - $(get start_time) )) execs=$(get execs_done) crashes=$(get saved_crashes) hangs=$(get saved_hangs) corpus=$(get corpus_count)"
    else
        echo "$t: no stats (see fuzz/out/$t/log.txt)"; tail -5 "$out/log.txt"
    fi
done
