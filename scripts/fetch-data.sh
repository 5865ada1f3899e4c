#!/usr/bin/env bash
# Make sure the data wsd needs is in place, relative to the repository root
# (or to $WSD_DATA_DEST when set: scripts/install.sh sets it to the data
# home, ~/.local/share/wsd or $WSD_HOME):
#   wordnet/dict/                      Princeton WordNet 3.0
#   corpora/semcor3.0/                 SemCor 3.0 (brown1, brown2, brownv)
#   corpora/wsd-eval/semeval2007/      SemEval-2007 dev set of the evaluation framework
#                                      (from the download: its other data sets too,
#                                      for `wsd eval --framework corpora/wsd-eval`)
# Order for each: already there -> done; $WSD_DATA_MIRROR set -> link from it
# (same layout as ../shared); otherwise the public sources (Debian packages
# for WordNet, the SemCor and framework downloads). Key files are checked
# against known sha256 sums. Idempotent. Exit status non-zero with a message
# saying what is missing when something cannot be had.
set -euo pipefail
cd "$(dirname "$0")/.."
# A relative mirror is relative to the repository root (as .ci/run gives it).
MIRROR=${WSD_DATA_MIRROR:-}
if [ -n "$MIRROR" ]; then MIRROR=$(cd "$MIRROR" && pwd); fi
if [ -n "${WSD_DATA_DEST:-}" ]; then mkdir -p "$WSD_DATA_DEST" && cd "$WSD_DATA_DEST"; fi
ROOT=$PWD

SHA_DATA_NOUN=fea17d2f9656611334eac790e5d69e47645fa180c4aa481fb4cd9b3520754ca2
SHA_INDEX_SENSE=ce997000ec806318ff1dfadf77d314ac527358e127d7bbe3d1f4e83a1c5c1c2b
SHA_BR_A01=e11553e2002536426d0965b91e4bb87a2b3a48e1d9bdee2ba1041ba9061e6b0d
SEMCOR_URL=${SEMCOR_URL:-http://web.eecs.umich.edu/~mihalcea/downloads/semcor/semcor3.0.tar.gz}
WSDEVAL_URL=${WSDEVAL_URL:-http://lcl.uniroma1.it/wsdeval/data/WSD_Evaluation_Framework.zip}

say() { echo "fetch-data: $*" >&2; }
die() { say "error: $*"; exit 1; }

check_sha() { # file expected
  local got
  got=$(sha256sum "$1" | cut -d' ' -f1)
  [ "$got" = "$2" ] || die "$1: sha256 $got, expected $2 (corrupt or not the expected release)"
}

download() { # url dest
  if command -v curl >/dev/null; then curl -fL --retry 2 -o "$2" "$1"
  elif command -v wget >/dev/null; then wget -O "$2" "$1"
  else return 1; fi
}

# link_from_mirror SUBPATH: symlink $ROOT/SUBPATH -> $MIRROR/SUBPATH if present.
link_from_mirror() {
  [ -n "$MIRROR" ] && [ -e "$MIRROR/$1" ] || return 1
  mkdir -p "$(dirname "$ROOT/$1")"
  rm -rf "${ROOT:?}/$1"
  ln -s "$MIRROR/$1" "$ROOT/$1"
  say "linked $1 -> $MIRROR/$1"
}

fetch_wordnet() {
  if [ -f wordnet/dict/data.noun ] && [ -f wordnet/dict/index.sense ]; then return 0; fi
  if link_from_mirror wordnet/dict; then
    [ -f "$MIRROR/wordnet/LICENSE" ] && cp -f "$MIRROR/wordnet/LICENSE" wordnet/LICENSE
    return 0
  fi
  if [ -f /usr/share/wordnet/data.noun ] && [ -f /usr/share/wordnet/index.sense ]; then
    mkdir -p wordnet && rm -rf wordnet/dict && ln -s /usr/share/wordnet wordnet/dict
    say "linked wordnet/dict -> /usr/share/wordnet"
    return 0
  fi
  command -v apt-get >/dev/null || die "WordNet 3.0 missing: install Debian/Ubuntu packages wordnet-base and wordnet-sense-index, or unpack Princeton's WordNet-3.0 dict/ into wordnet/dict, or set WSD_DATA_MIRROR"
  say "downloading Debian packages wordnet-base and wordnet-sense-index"
  local tmp; tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download wordnet-base wordnet-sense-index >&2) ||
    die "apt-get download failed (run 'apt-get update' first?)"
  for deb in "$tmp"/*.deb; do dpkg-deb -x "$deb" "$tmp/x"; done
  mkdir -p wordnet/dict
  cp -r "$tmp"/x/usr/share/wordnet/. wordnet/dict/
  cp -f "$tmp"/x/usr/share/doc/wordnet-base/copyright wordnet/LICENSE 2>/dev/null || true
  rm -rf "$tmp"
}

fetch_semcor() {
  if [ -d corpora/semcor3.0/brown1/tagfiles ]; then return 0; fi
  link_from_mirror corpora/semcor3.0 && return 0
  say "downloading SemCor 3.0 from $SEMCOR_URL"
  local tmp; tmp=$(mktemp -d)
  download "$SEMCOR_URL" "$tmp/semcor3.0.tar.gz" ||
    die "cannot download SemCor 3.0 ($SEMCOR_URL); set WSD_DATA_MIRROR to a folder holding corpora/semcor3.0"
  mkdir -p corpora && tar -xzf "$tmp/semcor3.0.tar.gz" -C corpora
  rm -rf "$tmp"
}

fetch_semeval() {
  if [ -f corpora/wsd-eval/semeval2007/semeval2007.gold.key.txt ]; then return 0; fi
  link_from_mirror corpora/wsd-eval/semeval2007 && return 0
  say "downloading the WSD evaluation framework from $WSDEVAL_URL"
  local tmp; tmp=$(mktemp -d)
  download "$WSDEVAL_URL" "$tmp/f.zip" ||
    die "cannot download the evaluation framework ($WSDEVAL_URL); set WSD_DATA_MIRROR to a folder holding corpora/wsd-eval/semeval2007"
  (cd "$tmp" && unzip -q f.zip)
  mkdir -p corpora/wsd-eval
  # every data set (senseval2 … semeval2015, ALL): the test sets are for
  # users' `wsd eval --framework corpora/wsd-eval`; the project tunes on
  # semeval2007 only
  cp -r "$tmp"/WSD_Evaluation_Framework/Evaluation_Datasets/* corpora/wsd-eval/
  rm -rf "$tmp"
}

fetch_wordnet
check_sha wordnet/dict/data.noun "$SHA_DATA_NOUN"
check_sha wordnet/dict/index.sense "$SHA_INDEX_SENSE"
fetch_semcor
check_sha corpora/semcor3.0/brown1/tagfiles/br-a01 "$SHA_BR_A01"
fetch_semeval
[ "$(grep -c . corpora/wsd-eval/semeval2007/semeval2007.gold.key.txt)" = 455 ] ||
  die "corpora/wsd-eval/semeval2007/semeval2007.gold.key.txt should have 455 instances"
say "data ready: wordnet/dict, corpora/semcor3.0, corpora/wsd-eval/semeval2007"
