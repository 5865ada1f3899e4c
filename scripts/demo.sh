#!/usr/bin/env bash
# The main job on a sample text: fetch data if missing, build, tag (as text
# to read; `--format tsv`, the default, is for programs).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/fetch-data.sh
cargo build --release --quiet
WSD=target/release/wsd
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sample=$tmp/sample.txt
cat > "$sample" <<'TXT'
The bank can guarantee deposit will eventually cover future tuition cost because it invests in adjustable rate mortgage securities.
The river bank was muddy, and the fishermen caught a bass near the bank.
The meeting took place in New York, where the band's bass player performed.
TXT
# lesk-ext needs no trained model and uses the context (the default method
# is the best trained model in models/, else lesk-ext itself).
echo "== wsd tag --method lesk-ext (sample text)" >&2
ROOT=$PWD
(cd "$tmp" && "$ROOT/$WSD" --wordnet "$ROOT/wordnet/dict" tag sample.txt --method lesk-ext --format text \
  --pos-model "$ROOT/models/pos.wsd" --semcor-counts "$ROOT/corpora/semcor3.0")
