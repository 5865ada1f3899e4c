#!/usr/bin/env bash
# The main job on a sample text: fetch data if missing, build, tag.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/fetch-data.sh
cargo build --release --quiet
WSD=target/release/wsd
sample=$(mktemp)
trap 'rm -f "$sample"' EXIT
cat > "$sample" <<'TXT'
The bank can guarantee deposit will eventually cover future tuition cost because it invests in adjustable rate mortgage securities.
The river bank was muddy, and the fishermen caught a bass near the bank.
The meeting took place in New York, where the band's bass player performed.
TXT
echo "== wsd tag (sample text)" >&2
$WSD tag "$sample" --gloss
