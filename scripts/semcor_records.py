#!/usr/bin/env python3
"""Write SemCor documents as JSON-lines records for `wsd tag --input-format jsonl`.

    scripts/semcor_records.py [--semcor DIR] [--split test|train|all]
                              [--sentences N] [--bad] > records.jsonl

One record per N consecutive sentences of a tagfile (default 3), with
id `PART/FILE#K` and the text rebuilt from the tokens as
`wsd::pipeline::rebuild_text` does (tokens joined by single spaces, `_` in
multiwords turned into spaces, one line per sentence). The split is the
one every `wsd` command uses: tagfiles sorted by `PART/tagfiles/br-*`
path, the file at 0-based index i is test when i % 5 == 4.

With --bad, a few malformed records are mixed in (invalid JSON, no text, a
number for a text, no id, invalid UTF-8) — the Spark test checks they come
back as error records and that everything else is intact.
"""

import argparse
import json
import os
import re
import sys

TOKEN = re.compile(r"<(wf|punc)\b[^>]*>(.*?)</\1>")


def tagfiles(root):
    files = []
    for part in sorted(os.listdir(root)) + [""]:
        d = os.path.join(root, part, "tagfiles")
        if not os.path.isdir(d):
            continue
        for f in os.listdir(d):
            p = os.path.join(d, f)
            if f.startswith("br-") and os.path.isfile(p):
                files.append((os.path.relpath(p, root).replace(os.sep, "/"), p))
    files.sort()
    return files


def sentences(path):
    """The token texts of each sentence of a tagfile."""
    out, cur = [], None
    with open(path, encoding="latin-1") as f:
        for line in f:
            if line.startswith("<s "):
                cur = []
            elif line.startswith("</s>"):
                if cur:
                    out.append(cur)
                cur = None
            elif cur is not None:
                m = TOKEN.search(line)
                if m:
                    cur.append(m.group(2))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--semcor", default="corpora/semcor3.0")
    ap.add_argument("--split", default="test", choices=["test", "train", "all"])
    ap.add_argument("--sentences", type=int, default=3)
    ap.add_argument("--bad", action="store_true")
    args = ap.parse_args()
    out = sys.stdout.buffer
    n = 0
    for i, (rel, path) in enumerate(tagfiles(args.semcor)):
        test = i % 5 == 4
        if (args.split == "test" and not test) or (args.split == "train" and test):
            continue
        name = rel.replace("/tagfiles/", "/")
        sents = sentences(path)
        for k in range(0, len(sents), args.sentences):
            text = "".join(
                " ".join(t.replace("_", " ") for t in s) + "\n"
                for s in sents[k : k + args.sentences]
            )
            rec = {"id": f"{name}#{k // args.sentences}", "text": text, "file": name}
            out.write(json.dumps(rec, ensure_ascii=False).encode() + b"\n")
            n += 1
            if args.bad and n % 500 == 250:
                bad = [
                    b'{"id": "bad-json-%d", "text": "unterminated\n' % n,
                    b'{"id": "bad-notext-%d", "body": "no text field"}\n' % n,
                    b'{"id": "bad-number-%d", "text": 42}\n' % n,
                    b'{"text": "a record without an id"}\n',
                    b'{"id": "bad-utf8-%d", "text": "caf\xe9"}\n' % n,
                ]
                out.write(bad[(n // 500) % len(bad)])


if __name__ == "__main__":
    main()
