#!/usr/bin/env python3
"""Sense-tag a corpus on Apache Spark with `wsd tag`, output identical to one process.

    spark-submit scripts/spark_tag.py INPUT OUTPUT [options]
    python3 scripts/spark_tag.py --make-bundle wsd-bundle.tar.gz [--models nb]

INPUT is any path Spark reads (local, hdfs://, s3a://, a glob, a directory):
JSON lines `{"id": ..., "text": ..., other fields}` (`--input-format jsonl`,
the default) or plain text files, one document per file with the file's path
as id (`--input-format text`). Each partition is piped through
`wsd tag --input-format jsonl --format jsonl` on the executors; OUTPUT gets
one JSON object per input record (JSON lines, or Parquet with `--parquet`).
Bad records come back as error records `{"error": ..., "id": ..., "line": ...}`;
they are counted and the first few shown at the end (exit code 1 if any).

What is shipped: one tar.gz, a wsd data home — `bin/wsd` (and `bin/wsd-mapper`,
the Hadoop streaming mapper), `wordnet/dict/`,
`models/pos.wsd` and any `models/<method>.wsd` named by `--models` — added
with `SparkContext.addArchive` (so no shared filesystem is needed) and
unpacked by Spark on every executor, where `WSD_HOME` points at it. Build it
once with `--make-bundle`, put it where the cluster reads it (HDFS, S3) and
pass `--bundle hdfs:///…/wsd-bundle.tar.gz`; without `--bundle` it is built
on the driver from `--wsd` and `--data-home`.

A record's output depends only on that record, so the partitioning, the
executor count and `--threads` never change the output (see
`wsd::tagging::records`).

Reading JSON lines with Spark's text reader (the default) replaces invalid
UTF-8 with U+FFFD before wsd sees it; `--exact-bytes` reads whole files as
bytes instead (not splittable within a file: for inputs of many files), so
such records come back as error records exactly as with one `wsd tag`.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading

ERROR_PREFIX = '{"error":'

# bin/wsd-mapper in the bundle: a Hadoop streaming mapper (JSONL records in,
# JSONL records out) that finds its data home and counts error records.
MAPPER = r"""#!/bin/sh
# wsd tag as a Hadoop streaming mapper: JSONL records on stdin, one JSONL
# record out per record. Exit 1 (some records were bad: they are error
# records in the output) is not a task failure; anything else is.
home=$(cd "$(dirname "$0")/.." && pwd)
WSD_HOME=$home "$home/bin/wsd" --quiet tag --input-format jsonl --format jsonl "$@"
code=$?
[ "$code" -le 1 ] && exit 0
exit "$code"
"""


def repo_root():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def default_data_home():
    """Where wsd itself finds its data: $WSD_HOME, else $XDG_DATA_HOME/wsd,
    else ~/.local/share/wsd (scripts/install.sh fills it), else this
    repository (scripts/fetch-data.sh); the first that has WordNet."""
    env = os.environ
    places = []
    if env.get("WSD_HOME"):
        places.append(env["WSD_HOME"])
    elif env.get("XDG_DATA_HOME"):
        places.append(os.path.join(env["XDG_DATA_HOME"], "wsd"))
    elif env.get("HOME"):
        places.append(os.path.join(env["HOME"], ".local", "share", "wsd"))
    places.append(repo_root())
    for p in places:
        if os.path.isdir(os.path.join(p, "wordnet", "dict")):
            return p
    return places[0]


def default_wsd():
    """This repository's release build, else the `wsd` on PATH (installed)."""
    built = os.path.join(repo_root(), "target", "release", "wsd")
    if os.path.exists(built):
        return built
    return shutil.which("wsd") or built


def make_bundle(out, wsd, data_home, models):
    """Pack a wsd data home: bin/wsd, wordnet/dict, models/pos.wsd [+ models]."""
    dict_dir = os.path.join(data_home, "wordnet", "dict")
    pos = os.path.join(data_home, "models", "pos.wsd")
    for p in (wsd, dict_dir, pos):
        if not os.path.exists(p):
            sys.exit(f"spark_tag: {p} is missing (scripts/install.sh, or in a checkout "
                     f"cargo build --release and scripts/fetch-data.sh; or pass --wsd / --data-home)")
    with tempfile.TemporaryDirectory() as tmp, tarfile.open(out, "w:gz", dereference=True) as tar:
        # Debug info is most of the binary: ship a stripped copy when `strip` exists.
        exe = os.path.join(tmp, "wsd")
        shutil.copy2(wsd, exe)
        if shutil.which("strip"):
            subprocess.run(["strip", exe], check=False)
        tar.add(exe, arcname="bin/wsd")
        mapper = os.path.join(tmp, "wsd-mapper")
        with open(mapper, "w") as f:
            f.write(MAPPER)
        os.chmod(mapper, 0o755)
        tar.add(mapper, arcname="bin/wsd-mapper")
        tar.add(dict_dir, arcname="wordnet/dict")
        tar.add(pos, arcname="models/pos.wsd")
        for m in models:
            p = os.path.join(data_home, "models", f"{m}.wsd")
            if not os.path.exists(p):
                sys.exit(f"spark_tag: {p} is missing (train it with `wsd train --method {m}`)")
            tar.add(p, arcname=f"models/{m}.wsd")
    return out


def bundle_home(name):
    """The unpacked bundle on this executor: SparkFiles, else ./NAME (--archives)."""
    from pyspark import SparkFiles

    for d in (SparkFiles.get(name), os.path.abspath(name)):
        if os.path.isfile(os.path.join(d, "bin", "wsd")):
            return d
    raise RuntimeError(f"wsd bundle {name} not found on this executor")


def wsd_binary(home):
    exe = os.path.join(home, "bin", "wsd")
    if os.access(exe, os.X_OK):
        return exe
    # Some unpackers drop the mode bits: run a private executable copy.
    d = tempfile.mkdtemp(prefix="wsd-bin-")
    copy = os.path.join(d, "wsd")
    shutil.copyfile(exe, copy)
    os.chmod(copy, 0o755)
    return copy


def tag_partition(bundle, wsd_args, counters):
    """A mapPartitions function: the partition's records through one `wsd tag`."""

    def run(records):
        home = bundle_home(bundle)
        cmd = [wsd_binary(home), "--quiet", "tag", "--input-format", "jsonl",
               "--format", "jsonl"] + wsd_args
        env = dict(os.environ, WSD_HOME=home)
        with tempfile.TemporaryFile() as err:
            p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=err, env=env, cwd=home)
            failure = []

            def feed():
                try:
                    for r in records:
                        p.stdin.write(r if isinstance(r, bytes) else r.encode("utf-8"))
                        p.stdin.write(b"\n")
                except BaseException as e:  # noqa: BLE001 - reported below
                    failure.append(e)
                finally:
                    try:
                        p.stdin.close()
                    except BrokenPipeError:
                        pass

            t = threading.Thread(target=feed, daemon=True)
            t.start()
            n = bad = 0
            for line in p.stdout:
                out = line.decode("utf-8").rstrip("\n")
                n += 1
                if out.startswith(ERROR_PREFIX):
                    bad += 1
                yield out
            t.join()
            code = p.wait()
            counters[0].add(n)
            counters[1].add(bad)
            if failure:
                raise failure[0]
            if code not in (0, 1):
                err.seek(0)
                raise RuntimeError(f"wsd tag exited with {code}: "
                                   + err.read().decode("utf-8", "replace")[-4000:])

    return run


def text_records(pair):
    import json

    path, text = pair
    return json.dumps({"id": path, "text": text}, ensure_ascii=False)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input", nargs="?")
    ap.add_argument("output", nargs="?")
    ap.add_argument("--input-format", choices=["jsonl", "text"], default="jsonl")
    ap.add_argument("--exact-bytes", action="store_true",
                    help="read JSONL files as bytes (invalid UTF-8 gives error records)")
    ap.add_argument("--method", help="wsd method or chain (default: wsd's default)")
    ap.add_argument("--partitions", type=int, help="repartition the input into N partitions")
    ap.add_argument("--threads", type=int, default=1, help="wsd threads per task (default 1)")
    ap.add_argument("--parquet", action="store_true", help="write Parquet instead of JSON lines")
    ap.add_argument("--bundle", help="wsd bundle tar.gz (any path Spark reads)")
    ap.add_argument("--wsd", default=default_wsd(),
                    help="wsd binary to bundle (default target/release/wsd, else wsd on PATH)")
    ap.add_argument("--data-home", default=default_data_home(),
                    help="data home to bundle from (default: wsd's own, $WSD_HOME, "
                         "$XDG_DATA_HOME/wsd or ~/.local/share/wsd, else the repository)")
    ap.add_argument("--models", default="", help="comma-separated models/<m>.wsd to bundle")
    ap.add_argument("--make-bundle", metavar="OUT", help="only write the bundle and exit")
    ap.add_argument("--wsd-arg", action="append", default=[],
                    help="extra argument for `wsd tag` (repeatable), e.g. --wsd-arg=--all-words")
    args = ap.parse_args(argv)
    models = [m for m in args.models.split(",") if m]

    if args.make_bundle:
        make_bundle(args.make_bundle, args.wsd, args.data_home, models)
        print(f"spark_tag: wrote {args.make_bundle} "
              f"({os.path.getsize(args.make_bundle) / 1e6:.1f} MB)", file=sys.stderr)
        return 0
    if not args.input or not args.output:
        ap.error("INPUT and OUTPUT are required")

    from pyspark.sql import SparkSession

    spark = SparkSession.builder.appName("wsd-tag").getOrCreate()
    sc = spark.sparkContext
    tmp = None
    bundle = args.bundle
    if not bundle:
        tmp = tempfile.mkdtemp(prefix="wsd-bundle-")
        bundle = make_bundle(os.path.join(tmp, "wsd-bundle.tar.gz"), args.wsd,
                             args.data_home, models)
    sc.addArchive(bundle)
    name = os.path.basename(bundle.rstrip("/"))

    wsd_args = ["--threads", str(args.threads)]
    if args.method:
        wsd_args += ["--method", args.method]
    wsd_args += args.wsd_arg

    if args.input_format == "text":
        records = sc.wholeTextFiles(args.input).map(text_records)
    elif args.exact_bytes:
        records = sc.binaryFiles(args.input).flatMap(
            lambda kv: [r for r in kv[1].split(b"\n") if r.strip()])
    else:
        records = sc.textFile(args.input)
    if args.partitions:
        records = records.repartition(args.partitions)

    counters = (sc.accumulator(0), sc.accumulator(0))
    tagged = records.mapPartitions(tag_partition(name, wsd_args, counters))
    if args.parquet:
        tagged = tagged.cache()
        spark.read.json(tagged).write.parquet(args.output)
    else:
        tagged.saveAsTextFile(args.output)
    n, bad = counters[0].value, counters[1].value
    print(f"spark_tag: {n} records tagged, {bad} error records", file=sys.stderr)
    if bad and not args.parquet:
        for e in sc.textFile(args.output).filter(lambda l: l.startswith(ERROR_PREFIX)).take(10):
            print(f"spark_tag:   {e}", file=sys.stderr)
    spark.stop()
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
