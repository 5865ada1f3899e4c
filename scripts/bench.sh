#!/usr/bin/env bash
# End-to-end benchmarks: medians of whole-process runs, each printed next to
# a correctness figure, alternatives measured in the same run. Results are
# also saved under scripts/runs/<date>-<host>/. Machines here are shared and
# noisy: compare ratios within one run, not absolute times across runs.
#
#   scripts/bench.sh [section…]     sections: wordnet corpus methods nb tag encoder knn tagknn memory
#                                   (default: all but knn, whose training takes ~20 min,
#                                   memory, which writes a 200 MB input, and tagknn, which
#                                   needs WSD_KNN_MODEL: see its section)
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
sections=${*:-wordnet corpus methods nb tag encoder}
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
XML=corpora/wsd-eval/semeval2007/semeval2007.data.xml
GOLD=corpora/wsd-eval/semeval2007/semeval2007.gold.key.txt
SC=corpora/semcor3.0

# F1 and instances/s of one eval run (JSON).
eval_line() { # label args...
  local label=$1; shift
  "$WSD" eval --format json "$@" 2>/dev/null | python3 -c "
import json,sys; v=json.load(sys.stdin)
print(f'{sys.argv[1]:<44} F1 {v[\"f1\"]:5.1f}  P {v[\"precision\"]:5.1f}  R {v[\"recall\"]:5.1f}  answered {v[\"answered\"]}/{v[\"instances\"]}  {v[\"instances_per_second\"]:9.0f} inst/s')" "$label"
}

if [[ " $sections " == *" corpus "* ]]; then
  echo; echo "== Corpora and scorer (goals: read all SemCor <= 1 s; eval mfs on the dev set <= 0.5 s)"
  "$WSD" stats 2>&1 | grep -E "documents|sentences|with lexsn|WordNet lacks"
  $T "$N" "wsd stats (read all of SemCor, process)" -- "$WSD" stats
  $T "$N" "wsd eval --method mfs (SemEval-2007, process)" -- "$WSD" eval --method mfs --xml $XML --gold $GOLD
  eval_line "mfs  SemEval-2007" --method mfs --xml $XML --gold $GOLD
fi

if [[ " $sections " == *" methods "* ]]; then
  echo; echo "== Methods: SemEval-2007 dev set and SemCor test split (one thread per document batch; inst/s includes nothing but disambiguation)"
  for m in mfs mfs-semcor lesk lesk-ext sim-path sim-wup; do
    eval_line "$m  SemEval-2007" --method $m --xml $XML --gold $GOLD
  done
  eval_line "lesk-ext --one-sense-per-discourse  SemEval-2007" --method lesk-ext --one-sense-per-discourse --xml $XML --gold $GOLD
  for m in mfs mfs-semcor lesk lesk-ext sim-path sim-wup; do
    eval_line "$m  SemCor test" --method $m --semcor $SC --split test
  done
  echo "one core:"
  RAYON_NUM_THREADS=1 eval_line "lesk  SemCor test, 1 thread" --method lesk --semcor $SC --split test
  RAYON_NUM_THREADS=1 eval_line "sim-wup  SemCor test, 1 thread" --method sim-wup --semcor $SC --split test
fi

if [[ " $sections " == *" nb "* ]] && "$WSD" train --help | grep -q nb; then
  echo; echo "== Naive Bayes (goals: train on all SemCor <= 5 s; >= 20,000 predictions/s on one core)"
  tmp=$(mktemp -d)
  $T 3 "wsd train --method nb --split all (process, n=3)" -- "$WSD" train --method nb --split all --out "$tmp/nb-all.wsd"
  "$WSD" train --method nb --split train --out "$tmp/nb-train.wsd" 2>/dev/null
  echo "model size: $(du -h "$tmp/nb-all.wsd" | cut -f1) (all), $(du -h "$tmp/nb-train.wsd" | cut -f1) (train split)"
  /usr/bin/time -f "peak RSS training on all of SemCor: %M KB" "$WSD" train --method nb --split all --out "$tmp/nb-all.wsd" 2>&1 | grep peak
  eval_line "nb,mfs  SemEval-2007 (trained on all)" --method nb,mfs --model "$tmp/nb-all.wsd" --xml $XML --gold $GOLD
  eval_line "nb,mfs  SemEval-2007 (trained on train)" --method nb,mfs --model "$tmp/nb-train.wsd" --xml $XML --gold $GOLD
  eval_line "nb,mfs  SemCor test (trained on train)" --method nb,mfs --model "$tmp/nb-train.wsd" --semcor $SC --split test
  RAYON_NUM_THREADS=1 eval_line "nb  SemCor test, 1 thread" --method nb --model "$tmp/nb-train.wsd" --semcor $SC --split test
  rm -rf "$tmp"
fi

# SemCor rebuilt as plain text (one sentence a line, paragraphs blank-line
# separated), written once per run to $RUN/semcor.txt.
semcor_text() {
  local txt=$RUN/semcor.txt
  [ -s "$txt" ] && { echo "$txt"; return; }
  python3 - "$SC" "$txt" >&2 <<'PY'
import glob, re, sys
root, out = sys.argv[1], sys.argv[2]
word = re.compile(r'<(?:wf[^>]*|punc)>([^<]*)</')
with open(out, "w") as f:
    for path in sorted(glob.glob(root + "/brown*/tagfiles/br-*")):
        sent = []
        for line in open(path, encoding="utf-8", errors="replace"):
            if line.startswith("</s>"):
                f.write(" ".join(sent) + "\n"); sent = []
            elif line.startswith("</p>"):
                f.write("\n")
            else:
                m = word.search(line)
                if m: sent.append(m.group(1).replace("_", " "))
PY
  echo "$txt"
}

if [[ " $sections " == *" tag "* ]]; then
  echo; echo "== wsd tag end to end on SemCor rebuilt as plain text (goal: >= 50,000 tokens/s with mfs on one core)"
  txt=$(semcor_text)
  echo "input: $(du -h "$txt" | cut -f1), $(wc -w < "$txt") words"
  "$WSD" tag --method mfs "$txt" >/dev/null 2>&1 || true   # trains the POS model once if missing
  for th in 1 2; do
    for m in mfs lesk lesk-ext; do
      /usr/bin/time -f "%e s wall, peak RSS %M KB" "$WSD" tag --method $m --threads $th "$txt" 2>&1 >/dev/null |
        grep -E "tagged|peak" | tr '\n' ' ' | sed "s/^/tag --method $m --threads $th: /"; echo
    done
  done
  if [ -f models/nb.wsd ]; then
    "$WSD" tag --method nb,mfs --threads 2 "$txt" 2>&1 >/dev/null | grep tagged | sed "s/^/tag --method nb,mfs --threads 2: /"
  fi
  eval_line "mfs  SemEval-2007 from raw text (--raw)" --method mfs --raw --xml $XML --gold $GOLD
  eval_line "lesk-ext  SemEval-2007 from raw text (--raw)" --method lesk-ext --raw --xml $XML --gold $GOLD
fi

if [[ " $sections " == *" encoder "* ]] && [ -d models/all-MiniLM-L6-v2 ]; then
  echo; echo "== Encoder (tokens/s, GFLOP/s next to the f32 GEMM peak and the numpy reference)"
  cargo test --release --quiet --lib sgemm_peak -- --ignored --nocapture 2>&1 | grep -iE "gflop|peak" | head -8 || true
  TMPDIR=$RUN cargo test --release --quiet --lib bench_encode_words -- --ignored --nocapture 2>&1 | grep -iE "pieces|gflop|words/s|tokens" | head -8 || true
  if python3 -c 'import numpy, safetensors' 2>/dev/null && [ -f "$RUN/wsd-encoder-bench.txt" ]; then
    python3 scripts/reference_encoder.py --bench "$RUN/wsd-encoder-bench.txt" 2>&1 | tail -3
  else
    echo "numpy reference: skipped (pip install numpy safetensors)"
  fi
fi

if [[ " $sections " == *" knn "* ]] && "$WSD" train --help | grep -q knn; then
  echo; echo "== kNN (goals: train on all SemCor <= 30 min on 2 cores; model <= 300 MB; tag >= 1,000 tokens/s)"
  tmp=$(mktemp -d)
  /usr/bin/time -f "train knn on all of SemCor: %e s wall, peak RSS %M KB" "$WSD" train --method knn --split all --out "$tmp/knn.wsd" 2>&1 | tail -1
  echo "model size: $(du -h "$tmp/knn.wsd" | cut -f1)"
  eval_line "knn,mfs  SemEval-2007 (trained on all)" --method knn,mfs --model "$tmp/knn.wsd" --xml $XML --gold $GOLD
  head -c 100000 "$(semcor_text)" > "$tmp/100k.txt" 2>/dev/null || true
  [ -s "$tmp/100k.txt" ] && "$WSD" tag --method knn,mfs --model "$tmp/knn.wsd" "$tmp/100k.txt" 2>&1 >/dev/null | grep tagged
  rm -rf "$tmp"
fi

if [[ " $sections " == *" tagknn "* ]]; then
  # knn,mfs and ens,mfs tag throughput with existing models (no 20-minute
  # training): WSD_KNN_MODEL (format 3), and for ens,mfs WSD_NB_MODEL and
  # WSD_ENS_MODEL too. The input is the first BENCH_TAG_BYTES (default
  # 100,000) of SemCor as plain text. With WSD_OLD=BINARY the same runs
  # alternate with that binary, for old/new ratios from one run (the
  # machine is shared: compare within a run). WSD_TAGKNN_ARGS adds
  # options to the new binary's runs only (e.g. "--encoder-precision
  # int8", against WSD_OLD=the same binary). Goal: >= 4,000 tokens/s.
  echo; echo "== kNN tag throughput with given models (goal: knn,mfs >= 4,000 tokens/s on 2 cores; load $(cut -d' ' -f1-3 /proc/loadavg))"
  if [ -z "${WSD_KNN_MODEL:-}" ]; then
    echo "skipped: set WSD_KNN_MODEL (and WSD_NB_MODEL, WSD_ENS_MODEL for ens,mfs)"
  else
    txt=$(semcor_text)
    head -c "${BENCH_TAG_BYTES:-100000}" "$txt" > "$RUN/tag-input.txt"
    echo "input: $(wc -c < "$RUN/tag-input.txt") bytes, $(wc -w < "$RUN/tag-input.txt") words; n=$N"
    chains=("knn,mfs|--model $WSD_KNN_MODEL")
    if [ -n "${WSD_NB_MODEL:-}" ] && [ -n "${WSD_ENS_MODEL:-}" ]; then
      chains+=("ens,mfs|--model $WSD_KNN_MODEL --model $WSD_NB_MODEL --model $WSD_ENS_MODEL")
    fi
    # (no trailing space without WSD_TAGKNN_ARGS: the command is split
    # into words below, and a quoted "wsd " is no program)
    bins=("new|$WSD${WSD_TAGKNN_ARGS:+ $WSD_TAGKNN_ARGS}")
    [ -n "${WSD_OLD:-}" ] && bins+=("old|$WSD_OLD")
    for c in "${chains[@]}"; do
      m=${c%%|*}; models=${c#*|}
      for b in "${bins[@]}"; do : > "$RUN/tagknn-${m}-${b%%|*}.txt"; : > "$RUN/tagknn-${m}-${b%%|*}.time"; done
      for _ in $(seq "$N"); do
        for b in "${bins[@]}"; do
          # tokens/s as wsd reports it (after loading), and the whole
          # process: wall, user and system seconds
          # shellcheck disable=SC2086
          /usr/bin/time -f "TIME %e %U %S" ${b#*|} tag --method "$m" $models "$RUN/tag-input.txt" \
            2>"$RUN/tagknn.err" >"$RUN/tagknn-${m}-${b%%|*}.tsv" || true
          sed -n 's/.*(\([0-9]*\) tokens\/s.*/\1/p' "$RUN/tagknn.err" >> "$RUN/tagknn-${m}-${b%%|*}.txt"
          grep '^TIME' "$RUN/tagknn.err" | cut -d' ' -f2- >> "$RUN/tagknn-${m}-${b%%|*}.time"
        done
      done
      med() { sort -n "$1" | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
      for b in "${bins[@]}"; do
        t="$RUN/tagknn-${m}-${b%%|*}.time"
        echo "  ${b%%|*}: whole process median $(cut -d' ' -f1 "$t" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}') s wall, $(awk '{print $2+$3}' "$t" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}') s CPU (user+sys)"
      done
      line="tag --method $m: median $(med "$RUN/tagknn-${m}-new.txt") tokens/s (runs: $(sort -n "$RUN/tagknn-${m}-new.txt" | tr '\n' ' '))"
      if [ -n "${WSD_OLD:-}" ]; then
        new=$(med "$RUN/tagknn-${m}-new.txt"); old=$(med "$RUN/tagknn-${m}-old.txt")
        same=$(cmp -s "$RUN/tagknn-${m}-new.tsv" "$RUN/tagknn-${m}-old.tsv" && echo identical || echo DIFFERENT)
        line="$line; old median $old (runs: $(sort -n "$RUN/tagknn-${m}-old.txt" | tr '\n' ' ')); new/old $(awk -v a="$new" -v b="$old" 'BEGIN{printf "%.2f", a/b}'); output $same"
      fi
      echo "$line"
    done
  fi
fi

if [[ " $sections " == *" memory "* ]]; then
  # Memory ceilings (issue 16), not timed tests: peak RSS of tag and embed on
  # a 200 MB file and on a 1 MB single sentence (no punctuation, one line).
  # Goal: under 500 MB for both, independent of input size. The runs are cut
  # at MEM_SECONDS (default 120 s) of wall time: with streaming the peak is
  # reached within the first blocks, and embed needs hours for 200 MB.
  echo; echo "== memory (goal: peak RSS < 500 MB on any input size)"
  tmp=$(mktemp -d)
  secs=${MEM_SECONDS:-120}
  python3 - "$tmp" <<'PY'
import sys, itertools
d = sys.argv[1]
para = ("The bank raised its interest rates after the meeting. " * 8 + "\n\n").encode()
with open(d + "/200mb.txt", "wb") as f:
    n = 0
    while n < 200_000_000:
        f.write(para); n += len(para)
words = itertools.cycle("bank river money interest plant rate account water".split())
with open(d + "/1mb-sentence.txt", "w") as f:
    n = 0
    while n < 1_000_000:
        w = next(words); f.write(w + " "); n += len(w) + 1
PY
  for input in 200mb.txt 1mb-sentence.txt; do
    for cmd in "tag --method mfs" "embed"; do
      /usr/bin/time -f "$cmd on $input: peak RSS %M KB (%e s wall, exit %x; cut at ${secs} s)" \
        timeout "$secs" "$WSD" -q $cmd "$tmp/$input" 2>&1 >/dev/null | tail -1
    done
  done
  rm -rf "$tmp"
fi

echo; echo "saved in $RUN/summary.txt"
