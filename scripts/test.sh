#!/usr/bin/env bash
# The whole test suite: fetch data if missing (WSD_DATA_MIRROR is honoured),
# then unit and integration tests in release mode (the integration tests
# read all of SemCor and train models, which debug builds make slow).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/fetch-data.sh
if [ -x scripts/fetch-model.sh ]; then scripts/fetch-model.sh; fi
cargo test --release "$@"
# Not run for a focused run (arguments for cargo test): wsd tag on Spark
# (local mode) against one process, installing PySpark/Java if missing;
# and the shipped front-end tables regenerated from SemCor's train split,
# which must come back byte for byte (about 2 minutes).
if [ $# -eq 0 ]; then
  scripts/test-spark.sh
  scripts/regenerate-tables.sh --check
fi
