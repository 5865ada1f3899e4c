#!/usr/bin/env bash
# Regenerate the front end's shipped tables from SemCor's train split, in
# the order their learners read each other (see src/pipeline/learn.rs):
#
#   src/pos/categories.tsv      category model (jackknifed tagger features)
#   src/pos/probe.tsv           encoder category probe (about 2 minutes)
#   src/text/mwe_evidence.tsv   multiword evidence   } the pipeline reads the
#   src/text/targets.tsv        target table         } category model
#   src/text/name_units.tsv     multiword name units
#   src/text/names.tsv          name table and model (the model also reads
#   src/text/name_model.tsv     name_units.tsv, and its own output: names
#                               linked by `of` stop at a person's name)
#   src/pipeline/split_particles.tsv
#   src/text/lemmas.tsv
#
# With --check, fail (and print the changed tables) unless the tables come
# back byte for byte: a change to the front end that moves what a learner
# sees must ship its regenerated tables, measured as a step of its own.
# The probe is left out of --check: it is fitted on f32 encoder vectors,
# whose last bits follow the CPU's SIMD path. Needs wordnet/dict,
# corpora/semcor3.0 and models/all-MiniLM-L6-v2 (scripts/fetch-*.sh);
# trains models/pos.wsd when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
check=false
[ "${1:-}" = "--check" ] && check=true
tables=(src/pos/categories.tsv src/text/mwe_evidence.tsv src/text/targets.tsv
  src/text/name_units.tsv src/text/names.tsv src/text/name_model.tsv
  src/pipeline/split_particles.tsv src/text/lemmas.tsv)
# The generator tests (module paths under wsd::pipeline::learn), in order.
generators=(tests::regenerate_pos_categories tests::regenerate_pos_probe
  tests::regenerate_front_end_tables tests::regenerate_name_units
  names::tests::regenerate_name_model tests::regenerate_split_particles
  tests::regenerate_lemmas)
if $check; then
  before=$(mktemp -d)
  for t in "${tables[@]}"; do mkdir -p "$before/$(dirname "$t")" && cp "$t" "$before/$t"; done
fi
if [ ! -f models/pos.wsd ]; then
  cargo build --release --quiet
  mkdir -p models && target/release/wsd train --quiet --method pos --output models/pos.wsd
fi
# The three fold taggers are trained once and shared by the learners.
own_cache=""
if [ -z "${WSD_POS_FOLD_CACHE:-}" ]; then own_cache=$(mktemp -d) && export WSD_POS_FOLD_CACHE=$own_cache; fi
trap 'rm -rf ${before:+"$before"} ${own_cache:+"$own_cache"}' EXIT
for g in "${generators[@]}"; do
  if $check && [ "$g" = tests::regenerate_pos_probe ]; then continue; fi
  echo "regenerate-tables: ${g##*::}" >&2
  cargo test --release --quiet --lib -- --ignored --exact "pipeline::learn::$g" >/dev/null
done
if $check; then
  changed=()
  for t in "${tables[@]}"; do cmp -s "$t" "$before/$t" || changed+=("$t"); done
  if [ ${#changed[@]} -gt 0 ]; then
    for t in "${changed[@]}"; do diff -u "$before/$t" "$t" | head -20 >&2 || true; cp "$before/$t" "$t"; done
    echo "regenerate-tables: stale shipped tables: ${changed[*]}" >&2
    echo "regenerate-tables: run scripts/regenerate-tables.sh, measure, and commit them" >&2
    exit 1
  fi
  echo "regenerate-tables: all ${#tables[@]} checked tables reproduce byte for byte" >&2
fi
