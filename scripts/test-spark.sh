#!/usr/bin/env bash
# The Spark test: tag >= 2,000 documents rebuilt from SemCor's test split
# (a few malformed records among them) with scripts/spark_tag.py on
# Spark local[2] in 8 partitions, and check the output equals one
# `wsd tag --input-format jsonl` process on the same records, sorted by id:
# byte for byte for every record, error records equal but for `line` (the
# line in the stream each process read). Then a directory of plain text
# files through --input-format text.
#
# Installs what it needs: PySpark into a venv ($WSD_SPARK_VENV, default
# target/spark-venv; else the user site) when `python3 -c 'import pyspark'` fails, and Java 17
# (openjdk-17-jre-headless, apt) when `java` is missing. Skips (exit 0)
# with a message only when PySpark or Java cannot be installed.
# WSD_SPARK_METHOD picks the method (default lesk-ext).
set -euo pipefail
cd "$(dirname "$0")/.."
skip() { echo "test-spark: SKIPPED: $*" >&2; exit 0; }

if ! command -v java >/dev/null; then
    if command -v apt-get >/dev/null; then
        sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
        $sudo apt-get update -qq && $sudo apt-get install -y -qq openjdk-17-jre-headless >/dev/null \
            || skip "java is missing and openjdk-17-jre-headless cannot be installed"
    else
        skip "java is missing and there is no apt-get to install openjdk-17-jre-headless"
    fi
fi

PY=python3
if ! $PY -c 'import pyspark' 2>/dev/null; then
    VENV=${WSD_SPARK_VENV:-target/spark-venv}
    if "$VENV/bin/python" -c 'import pyspark' 2>/dev/null; then
        PY=$VENV/bin/python
    elif echo "test-spark: installing pyspark into $VENV" >&2 &&
        python3 -m venv "$VENV" && "$VENV/bin/pip" install -q pyspark; then
        PY=$VENV/bin/python
    else
        # No venv module (Debian without python3-venv): the user site.
        echo "test-spark: installing pyspark into the user site" >&2
        python3 -m pip install -q --user pyspark && python3 -c 'import pyspark' \
            || skip "pyspark cannot be installed (no network?)"
    fi
fi
export PYSPARK_PYTHON=$PY PYSPARK_DRIVER_PYTHON=$PY

cargo build --release -q
WSD=$PWD/target/release/wsd
METHOD=${WSD_SPARK_METHOD:-lesk-ext}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
start=$(date +%s)

$PY scripts/semcor_records.py --bad > "$T/records.jsonl"
"$PY" scripts/spark_tag.py --make-bundle "$T/wsd-bundle.tar.gz"
set +e
"$WSD" --quiet tag --input-format jsonl --format jsonl --method "$METHOD" "$T/records.jsonl" > "$T/one.jsonl"
code=$?
set -e
[ "$code" = 1 ] || { echo "test-spark: wsd tag exited with $code, expected 1 (bad records)" >&2; exit 1; }

spark() {
    "$PY" -c 'import pyspark, os, sys; sys.exit(os.execv(os.path.join(os.path.dirname(pyspark.__file__), "bin", "spark-submit"), ["spark-submit"] + sys.argv[1:]))' \
        --master "$1" --driver-memory 1g --conf spark.ui.enabled=false \
        --conf spark.sql.shuffle.partitions=8 scripts/spark_tag.py "${@:2}" \
        --bundle "$T/wsd-bundle.tar.gz" 2> >(grep -v ' INFO \| WARN \|log4j' >&2)
}
set +e
spark 'local[2]' "$T/records.jsonl" "$T/spark" --exact-bytes --partitions 8 --method "$METHOD"
code=$?
set -e
[ "$code" = 1 ] || { echo "test-spark: spark_tag.py exited with $code, expected 1 (bad records)" >&2; exit 1; }

"$PY" - "$T" <<'PYEOF'
import glob, json, sys
t = sys.argv[1]
def lines(paths):
    return [l.rstrip("\n") for p in paths for l in open(p, encoding="utf-8")]
spark = lines(sorted(glob.glob(f"{t}/spark/part-*")))
one = lines([f"{t}/one.jsonl"])
n_in = sum(1 for l in open(f"{t}/records.jsonl", "rb") if l.strip())
def norm(l):
    if l.startswith('{"error":'):
        o = json.loads(l); o.pop("line")
        return json.dumps(o, sort_keys=True)
    return l
def key(l):
    o = json.loads(l)
    return (str(o.get("id")), o.get("error", ""))
a, b = sorted(map(norm, spark), key=key), sorted(map(norm, one), key=key)
assert len(one) == n_in, (len(one), n_in)
assert len(a) == len(b), (len(a), len(b))
good = [l for l in b if not l.startswith('{"error":')]
assert len(good) >= 2000, len(good)
for x, y in zip(a, b):
    assert x == y, f"differs:\n spark: {x[:300]}\n one:   {y[:300]}"
errors = sorted((json.loads(l)["id"] or "", json.loads(l)["error"]) for l in b if l.startswith('{"error":'))
want = ["", "", "bad-notext-", "bad-number-", "bad-utf8-"]
assert [e[0].rsplit("-", 1)[0] + "-" if e[0] else "" for e in errors] == want, errors
print(f"test-spark: {len(good)} records identical to one process, {len(errors)} error records", file=sys.stderr)
PYEOF

# Plain text files: one document per file, the file's URI as id.
mkdir "$T/text"
printf 'The bank can guarantee deposits.\n' > "$T/text/a.txt"
printf 'The river bank was muddy.\n\nHe sat on the bank.\n' > "$T/text/b.txt"
spark 'local[2]' "$T/text" "$T/spark-text" --input-format text --method "$METHOD"
"$PY" - "$T" <<'PYEOF'
import glob, json, sys
t = sys.argv[1]
recs = [json.loads(l) for p in glob.glob(f"{t}/spark-text/part-*") for l in open(p)]
ids = sorted(r["id"].rsplit("/", 1)[-1] for r in recs)
assert ids == ["a.txt", "b.txt"], ids
assert all("error" not in r and r["sentences"] for r in recs), recs
print("test-spark: text files tagged", file=sys.stderr)
PYEOF
echo "test-spark: passed in $(( $(date +%s) - start )) s" >&2
