#!/usr/bin/env python3
"""Write tests/fixtures/nltk_similarity.tsv: NLTK's similarity values for a
fixed random sample of WordNet 3.0 synset pairs, the reference that
`tests/knowledge.rs` checks `wsd::wordnet::similarity` against.

    scripts/nltk_similarity_fixture.py [--dict wordnet/dict] [--pairs 400]
        [--seed 12] [--out tests/fixtures/nltk_similarity.tsv]

Needs NLTK (tested with 3.10). The dict folder is given to NLTK as its
`wordnet` corpus through a temporary nltk_data folder, so no download
happens.

Columns: id1 id2 (offset-pos, satellites `-s`), NLTK names, then
path wup lch res jcn lin, `None` where NLTK returns None or raises
(lch and the IC measures raise across synset types).

The IC columns use an IC table built, like `ic_from_tag_counts` in Rust,
from index.sense's tag counts: each sense counted tag_count times, added
to its synset and to each hypernym / instance-hypernym ancestor once per
occurrence, and to the category total; every synset and total starts at 1
(NLTK's default smoothing). NLTK's own res/jcn/lin functions are then
called with that table.
"""

import argparse
import os
import random
import sys
import tempfile
from collections import defaultdict


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--dict", default=os.path.join(root, "wordnet", "dict"))
    ap.add_argument("--pairs", type=int, default=400)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument(
        "--out", default=os.path.join(root, "tests", "fixtures", "nltk_similarity.tsv")
    )
    args = ap.parse_args()

    import nltk

    data = tempfile.mkdtemp(prefix="nltk_data_")
    os.makedirs(os.path.join(data, "corpora"))
    os.symlink(os.path.realpath(args.dict), os.path.join(data, "corpora", "wordnet"))
    # NLTK 3.10 refuses corpus paths outside nltk.data.path: list the
    # resolved dict folder too.
    nltk.data.path[:0] = [data, os.path.realpath(args.dict)]
    from nltk.corpus import wordnet as wn

    assert wn.get_version() == "3.0", wn.get_version()

    ic = tag_count_ic(wn, args.dict)

    rng = random.Random(args.seed)
    nouns = sorted(wn.all_synsets("n"), key=lambda s: s.offset())
    verbs = sorted(wn.all_synsets("v"), key=lambda s: s.offset())
    adjs = sorted(wn.all_synsets("a"), key=lambda s: s.offset())  # heads and satellites
    advs = sorted(wn.all_synsets("r"), key=lambda s: s.offset())
    instances = [s for s in nouns if s.instance_hypernyms()]
    multi = [s for s in nouns + verbs if len(s.hypernyms() + s.instance_hypernyms()) > 1]

    def near(s):
        """A synset close to s in the taxonomy (a sibling or a cousin)."""
        up = s.hypernyms() + s.instance_hypernyms()
        for _ in range(rng.randint(1, 3)):
            if not up:
                break
            s = rng.choice(up)
            up = s.hypernyms() + s.instance_hypernyms()
        down = s.hyponyms() + s.instance_hyponyms()
        for _ in range(rng.randint(0, 3)):
            if not down:
                break
            s = rng.choice(down)
            down = s.hyponyms() + s.instance_hyponyms()
        return s

    named = [
        ("car.n.01", "automobile.n.01"),
        ("car.n.01", "boat.n.01"),
        ("boat.n.01", "car.n.01"),
        ("dog.n.01", "cat.n.01"),
        ("chef.n.01", "fireman.n.01"),
        ("bank.n.01", "river.n.01"),
        ("bank.n.02", "river.n.01"),
        ("run.v.01", "walk.v.01"),
        ("good.a.01", "beneficial.s.01"),
        ("car.n.01", "run.v.01"),
        ("entity.n.01", "entity.n.01"),
        ("einstein.n.01", "newton.n.02"),
    ]
    pairs = [(wn.synset(a), wn.synset(b)) for a, b in named]
    kinds = [
        ("noun", lambda: (rng.choice(nouns), rng.choice(nouns)), 0.22),
        ("noun-near", lambda: (lambda s: (s, near(s)))(rng.choice(nouns)), 0.18),
        ("verb", lambda: (rng.choice(verbs), rng.choice(verbs)), 0.12),
        ("verb-near", lambda: (lambda s: (s, near(s)))(rng.choice(verbs)), 0.10),
        ("instance", lambda: (rng.choice(instances), rng.choice(instances + nouns)), 0.10),
        ("multi", lambda: (lambda s: (s, near(s)))(rng.choice(multi)), 0.10),
        ("adj", lambda: (rng.choice(adjs), rng.choice(adjs)), 0.06),
        ("adv", lambda: (rng.choice(advs), rng.choice(advs + adjs)), 0.04),
        (
            "cross",
            lambda: tuple(
                rng.choice(rng.choice([nouns, verbs, adjs, advs])) for _ in range(2)
            ),
            0.08,
        ),
    ]
    while len(pairs) < args.pairs:
        r, acc = rng.random(), 0.0
        for _, make, w in kinds:
            acc += w
            if r < acc:
                break
        a, b = make()
        pairs.append((a, b))
        if rng.random() < 0.1:
            pairs.append((b, a))  # wup is not always symmetric
    pairs = pairs[: args.pairs]

    def val(f):
        try:
            v = f()
        except Exception:  # lch and the IC measures raise across types
            return "None"
        return "None" if v is None else repr(float(v))

    def sid(s):
        return "%08d-%s" % (s.offset(), s.pos())

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as out:
        out.write(
            "# NLTK %s similarity values on WordNet 3.0; made by "
            "scripts/nltk_similarity_fixture.py --pairs %d --seed %d\n"
            % (nltk.__version__, args.pairs, args.seed)
        )
        out.write("id1\tid2\tname1\tname2\tpath\twup\tlch\tres\tjcn\tlin\n")
        for a, b in pairs:
            row = [
                sid(a),
                sid(b),
                a.name(),
                b.name(),
                val(lambda: a.path_similarity(b)),
                val(lambda: a.wup_similarity(b)),
                val(lambda: a.lch_similarity(b)),
                val(lambda: a.res_similarity(b, ic)),
                val(lambda: a.jcn_similarity(b, ic)),
                val(lambda: a.lin_similarity(b, ic)),
            ]
            out.write("\t".join(row) + "\n")
    print("wrote %d pairs to %s" % (len(pairs), args.out), file=sys.stderr)


def tag_count_ic(wn, dict_dir):
    """IC dict in NLTK's shape ({pos: {offset: count, 0: total}}) from
    index.sense tag counts, each ancestor counted once per occurrence."""
    ic = {p: defaultdict(float) for p in "nvar"}
    for p in "nvar":
        ic[p][0] = 1.0
    for s in wn.all_synsets():
        ic["a" if s.pos() == "s" else s.pos()][s.offset()] = 1.0
    closure = {}
    with open(os.path.join(dict_dir, "index.sense")) as f:
        for line in f:
            key, offset, _, count = line.split()
            count = int(count)
            if count == 0:
                continue
            pos = "nvars"[int(key.split("%")[1][0]) - 1]
            pos = "a" if pos == "s" else pos
            offset = int(offset)
            if (pos, offset) not in closure:
                s = wn.synset_from_pos_and_offset(pos, offset)
                closure[(pos, offset)] = {
                    h.offset() for level in s._iter_hypernym_lists() for h in level
                }
            for o in closure[(pos, offset)]:
                ic[pos][o] += count
            ic[pos][0] += count
    return ic


if __name__ == "__main__":
    main()
