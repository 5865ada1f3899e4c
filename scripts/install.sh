#!/usr/bin/env bash
# Install wsd for use from any folder: the binary on PATH (cargo install,
# into ~/.cargo/bin), WordNet, SemCor, the SemEval-2007 dev set and the
# encoder in the data home ($WSD_HOME, else $XDG_DATA_HOME/wsd, else
# ~/.local/share/wsd), and the POS model trained there once.
# WSD_DATA_MIRROR is honoured as by the fetch scripts; CARGO_INSTALL_ROOT
# (cargo's own variable) installs the binary elsewhere. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
HOME_DIR=${WSD_HOME:-${XDG_DATA_HOME:-$HOME/.local/share}/wsd}
echo "install: data home $HOME_DIR" >&2
cargo install --quiet --path . --locked
WSD_DATA_DEST=$HOME_DIR scripts/fetch-data.sh
WSD_DATA_DEST=$HOME_DIR scripts/fetch-model.sh
BIN=${CARGO_INSTALL_ROOT:-${CARGO_HOME:-$HOME/.cargo}}/bin/wsd
mkdir -p "$HOME_DIR/models"
[ -f "$HOME_DIR/models/pos.wsd" ] ||
  (cd "$HOME_DIR" && WSD_HOME=$HOME_DIR "$BIN" train --method pos)
echo "install: done; try: (cd /tmp && echo 'The bank raised its rates.' | wsd tag)" >&2
case ":$PATH:" in *":$(dirname "$BIN"):"*) ;; *) echo "install: add $(dirname "$BIN") to PATH" >&2 ;; esac
