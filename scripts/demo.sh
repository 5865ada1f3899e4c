#!/usr/bin/env bash
# The main job on a sample text: fetch data if missing, build, and tag.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/fetch-data.sh
cargo build --release --quiet
WSD=target/release/wsd
echo "== wsd senses bank" >&2
$WSD senses bank --pos n | head -8
echo "== wsd synset bank%1:14:00:: --relations" >&2
$WSD synset 'bank%1:14:00::' --relations | head -12
