#!/usr/bin/env bash
# End-to-end benchmarks: medians of whole-process runs, each printed next to
# a correctness figure, alternatives measured in the same run. Results are
# also saved under scripts/runs/<date>-<host>/. Machines here are shared and
# noisy: compare ratios within one run, not absolute times across runs.
#
#   scripts/bench.sh [section…]     sections: wordnet (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/fetch-data.sh >/dev/null 2>&1 || scripts/fetch-data.sh
cargo build --release --quiet
WSD=$PWD/target/release/wsd
DICT=$PWD/wordnet/dict
N=${BENCH_N:-11}
RUN=scripts/runs/$(date +%Y%m%d-%H%M%S)-$(hostname)
mkdir -p "$RUN"
exec > >(tee "$RUN/summary.txt") 2>&1
T="python3 scripts/timeit.py"
sections=${*:-wordnet}
echo "wsd bench $(date -Is) on $(hostname), $(nproc) cores; medians of $N runs"

# Princeton's wn (Debian package `wordnet`, unpacked privately, not installed).
wn_tool() {
  local dir=scripts/runs/.tools/wordnet
  if [ ! -x "$dir/usr/bin/wn" ]; then
    mkdir -p "$dir" && (cd "$dir" && apt-get download wordnet wordnet-dev >/dev/null 2>&1 &&
      for d in *.deb; do dpkg-deb -x "$d" .; done) || return 1
  fi
  echo "$PWD/$dir"
}

# NLTK's WordNet reader pointed at the same dict folder.
nltk_setup() {
  python3 -c 'import nltk' 2>/dev/null || pip install -q nltk >/dev/null 2>&1 || return 1
  local x=scripts/runs/.tools/nltk
  mkdir -p "$x/corpora" && ln -sfn "$DICT" "$x/corpora/wordnet"
  echo "$PWD/$x"
}

if [[ " $sections " == *" wordnet "* ]]; then
  echo; echo "== WordNet inventory (goals: cold senses <= 20 ms, full load <= 200 ms, RSS <= 200 MB)"
  echo "check: $($WSD senses bass --pos n | grep -c '^bass.n') noun senses of bass (expect 8)"
  $T "$N" "wsd senses bank (cold process)" -- "$WSD" senses bank
  $T "$N" "wsd info (load whole inventory, process)" -- "$WSD" info
  loads=$(for _ in $(seq "$N"); do "$WSD" info --format json | python3 -c 'import json,sys;print(json.load(sys.stdin)["load_ms"])'; done | sort -n)
  echo "wsd inventory load (in-process) median $(echo "$loads" | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}') ms"
  if wn=$(wn_tool); then
    $T "$N" "Princeton wn bank -over" --any-exit -- env LD_LIBRARY_PATH="$wn/usr/lib" WNSEARCHDIR="$DICT" "$wn/usr/bin/wn" bank -over
  else
    echo "Princeton wn: not available (apt-get download wordnet failed)"
  fi
  if x=$(nltk_setup); then
    cat > "$RUN/nltk_senses.py" <<PY
import nltk; nltk.data.path[:0] = ["$x", "$DICT"]
from nltk.corpus import wordnet as wn
for s in wn.synsets("bank"): s.definition()
PY
    cat > "$RUN/nltk_load.py" <<PY
import nltk; nltk.data.path[:0] = ["$x", "$DICT"]
from nltk.corpus import wordnet as wn
n = sum(1 for _ in wn.all_synsets())
assert n == 117659, n
PY
    $T "$N" "NLTK wordnet.synsets('bank') (process)" -- python3 "$RUN/nltk_senses.py"
    $T 3 "NLTK all_synsets() (process, n=3)" -- python3 "$RUN/nltk_load.py"
  else
    echo "NLTK: not available"
  fi
fi
echo; echo "saved in $RUN/summary.txt"
