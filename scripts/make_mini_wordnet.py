#!/usr/bin/env python3
"""Write tests/fixtures/mini-wordnet/: a miniature WordNet 3.0 dict folder.

27 synsets written for wsd's unit tests (parsing, ids, morphy,
similarity), in the real Princeton format (wndb(5WN), senseidx(5WN)):

* data.noun/verb/adj/adv: a licence-style header (lines starting with two
  spaces), then one synset per line whose first field is its own byte
  offset in the file; reverse pointers (~ for @, ~i for @i, & and ! and +
  both ways) are added here, so the synsets below list each relation once;
* index.noun/verb/adj/adv: header, then one line per lemma in byte order,
  senses ordered by tag count (most frequent first), then by the order of
  the synsets below;
* index.sense: one line per sense key, in byte order, with the sense number
  of the lemma in its category and the tag count;
* noun.exc, verb.exc, adj.exc, adv.exc (empty): exception lists;
* lexnames: the 45 lexicographer files.

The loader (src/wordnet/inventory.rs, src/wordnet/lookup.rs) needs the
data.*, index.* and index.sense files; the *.exc files are optional and
lexnames is built into wsd, both written for completeness. frames.vrb,
sents.vrb, sentidx.vrb and cntlist* are not read by wsd and not written.

Glosses are adapted from WordNet 3.0 (Copyright 2006 Princeton University,
WordNet 3.0 licence). The taxonomy is simplified, and two quirks are
deliberate: water/H2O has two hypernyms at different depths (min depth 2,
max depth 3), so seawater below it has min depth 3 and max depth 4, and
goose hangs directly under object.

Run from anywhere: python3 scripts/make_mini_wordnet.py [OUT_DIR]
The output is deterministic; tests/mini_wordnet.rs checks it.
"""

import os
import sys

LEXNAMES = [
    ("adj.all", 3), ("adj.pert", 3), ("adv.all", 4), ("noun.Tops", 1),
    ("noun.act", 1), ("noun.animal", 1), ("noun.artifact", 1),
    ("noun.attribute", 1), ("noun.body", 1), ("noun.cognition", 1),
    ("noun.communication", 1), ("noun.event", 1), ("noun.feeling", 1),
    ("noun.food", 1), ("noun.group", 1), ("noun.location", 1),
    ("noun.motive", 1), ("noun.object", 1), ("noun.person", 1),
    ("noun.phenomenon", 1), ("noun.plant", 1), ("noun.possession", 1),
    ("noun.process", 1), ("noun.quantity", 1), ("noun.relation", 1),
    ("noun.shape", 1), ("noun.state", 1), ("noun.substance", 1),
    ("noun.time", 1), ("verb.body", 2), ("verb.change", 2),
    ("verb.cognition", 2), ("verb.communication", 2),
    ("verb.competition", 2), ("verb.consumption", 2), ("verb.contact", 2),
    ("verb.creation", 2), ("verb.emotion", 2), ("verb.motion", 2),
    ("verb.perception", 2), ("verb.possession", 2), ("verb.social", 2),
    ("verb.stative", 2), ("verb.weather", 2), ("adj.ppl", 3),
]

# (name, file, ss_type, lex_filenum, words [(lemma, lex_id[, marker])],
#  pointers [(symbol, target name, source word, target word)],
#  frames [(frame number, word number)], gloss)
# Word numbers are 1-based; 0/0 makes a semantic pointer.
SYNSETS = [
    # ---- nouns -------------------------------------------------------
    ("entity", "noun", "n", 3, [("entity", 0)], [], [],
     "that which is perceived or known or inferred to have its own distinct existence (living or nonliving)"),
    ("physical_entity", "noun", "n", 3, [("physical_entity", 0)],
     [("@", "entity", 0, 0)], [],
     "an entity that has physical existence"),
    ("abstraction", "noun", "n", 3, [("abstraction", 0), ("abstract_entity", 0)],
     [("@", "entity", 0, 0)], [],
     "a general concept formed by extracting common features from specific examples"),
    ("object", "noun", "n", 3, [("object", 0), ("physical_object", 0)],
     [("@", "physical_entity", 0, 0)], [],
     'a tangible and visible entity; an entity that can cast a shadow; "it was full of rackets, balls and other objects"'),
    ("group", "noun", "n", 3, [("group", 0), ("grouping", 0)],
     [("@", "abstraction", 0, 0)], [],
     "any number of entities (members) considered as a unit"),
    ("institution", "noun", "n", 14, [("institution", 0), ("establishment", 0)],
     [("@", "group", 0, 0)], [],
     "an organization founded and united for a specific purpose"),
    ("financial_institution", "noun", "n", 14,
     [("financial_institution", 0), ("financial_organization", 0), ("financial_organisation", 0)],
     [("@", "institution", 0, 0)], [],
     "an institution (public or private) that collects funds (from the public or other institutions) and invests them in financial assets"),
    ("depository", "noun", "n", 14,
     [("depository_financial_institution", 0), ("bank", 0), ("banking_concern", 0), ("banking_company", 0)],
     [("@", "financial_institution", 0, 0), ("+", "bank_v", 2, 1)], [],
     'a financial institution that accepts deposits and channels the money into lending activities; "he cashed a check at the bank"; "that bank holds the mortgage on my home"'),
    ("slope", "noun", "n", 17, [("slope", 0), ("incline", 0), ("side", 0)],
     [("@", "object", 0, 0)], [],
     'an elevated geological formation; "he climbed the steep slope"; "the house was built on the side of the mountain"'),
    ("bank_slope", "noun", "n", 17, [("bank", 1)],
     [("@", "slope", 0, 0)], [],
     'sloping land (especially the slope beside a body of water); "they pulled the canoe up on the bank"; "he sat on the bank of the river and watched the currents"'),
    ("bank_ridge", "noun", "n", 17, [("bank", 0)],
     [("@", "object", 0, 0)], [],
     'a long ridge or pile; "a huge bank of earth"'),
    ("body_of_water", "noun", "n", 17, [("body_of_water", 0), ("water", 0)],
     [("@", "object", 0, 0)], [],
     "the part of the earth's surface covered with water (such as a river or lake or ocean); \"they invaded our territorial waters\"; \"they were sitting by the water's edge\""),
    ("river", "noun", "n", 17, [("river", 0)],
     [("@", "body_of_water", 0, 0)], [],
     'a large natural stream of water (larger than a creek); "the river was navigable for 50 miles"'),
    ("thames", "noun", "n", 15, [("Thames", 0), ("River_Thames", 0), ("Thames_River", 0)],
     [("@i", "river", 0, 0)], [],
     "a river in southern England; flows eastward to the North Sea"),
    ("liquid", "noun", "n", 27, [("liquid", 0)],
     [("@", "physical_entity", 0, 0)], [],
     "a substance in the fluid state of matter having no fixed shape but a fixed volume"),
    ("water_h2o", "noun", "n", 27, [("water", 0), ("H2O", 0)],
     [("@", "liquid", 0, 0), ("@", "physical_entity", 0, 0)], [],
     "binary compound that occurs at room temperature as a clear colorless odorless tasteless liquid; freezes into ice below 0 degrees centigrade and boils above 100 degrees centigrade; widely used as a solvent"),
    ("goose", "noun", "n", 5, [("goose", 0)],
     [("@", "object", 0, 0)], [],
     "web-footed long-necked typically gregarious migratory aquatic birds usually larger and less aquatic than ducks"),
    ("seawater", "noun", "n", 27, [("seawater", 0), ("saltwater", 0), ("brine", 0)],
     [("@", "water_h2o", 0, 0)], [],
     "water containing salts; \"the water in the ocean is all saltwater\""),
    # ---- verbs -------------------------------------------------------
    ("transact", "verb", "v", 41, [("transact", 0)], [], [(2, 0)],
     "conduct business"),
    ("bank_v", "verb", "v", 40, [("bank", 0)],
     [("@", "transact", 0, 0)], [(2, 0), (22, 0)],
     'do business with a bank or keep an account at a bank; "Where do you bank in this town?"'),
    ("happen", "verb", "v", 30, [("happen", 0), ("occur", 0), ("take_place", 0)],
     [], [(1, 0), (4, 0)],
     'come to pass; "What is happening?"; "The meeting took place off without an incidence"; "Nothing occurred that seemed important"'),
    # ---- adjectives: two clusters ------------------------------------
    ("alcoholic", "adj", "a", 0, [("alcoholic", 0)], [], [],
     'characteristic of or containing alcohol; "alcoholic drinks"'),
    ("wet_alcohol", "adj", "s", 0, [("wet", 0)],
     [("&", "alcoholic", 0, 0)], [],
     'supporting or permitting the legal production and sale of alcoholic beverages; "a wet candidate"; "a wet county"'),
    ("wet", "adj", "a", 0, [("wet", 1)],
     [("!", "dry", 1, 1)], [],
     'covered or soaked with a liquid such as water; "a wet bathing suit"; "wet sidewalks"; "wet weather"'),
    ("damp", "adj", "s", 0, [("damp", 0), ("dampish", 0), ("moist", 0)],
     [("&", "wet", 0, 0)], [],
     'slightly wet; "clothes damp with perspiration"; "a moist breeze"; "eyes moist with tears"'),
    ("dry", "adj", "a", 0, [("dry", 1)], [], [],
     'free from liquid or moisture; lacking natural or normal moisture or depleted of water; or no longer wet; "dry land"; "dry clothes"; "a dry climate"'),
    # ---- adverbs -----------------------------------------------------
    ("wetly", "adv", "r", 2, [("wetly", 0)],
     [("\\", "wet", 1, 1)], [],
     'in a wet manner; "the wetly shining sand"'),
]

# Tag counts of index.sense, by (synset name, lemma); absent means 0.
TAG_COUNTS = {
    ("entity", "entity"): 11,
    ("object", "object"): 39,
    ("group", "group"): 88,
    ("institution", "institution"): 14,
    ("financial_institution", "financial_institution"): 3,
    ("depository", "bank"): 20,
    ("depository", "depository_financial_institution"): 1,
    ("slope", "slope"): 7,
    ("bank_slope", "bank"): 25,
    ("bank_ridge", "bank"): 2,
    ("body_of_water", "body_of_water"): 5,
    ("body_of_water", "water"): 8,
    ("river", "river"): 20,
    ("thames", "thames"): 1,
    ("liquid", "liquid"): 9,
    ("water_h2o", "water"): 30,
    ("goose", "goose"): 3,
    ("seawater", "seawater"): 2,
    ("transact", "transact"): 1,
    ("bank_v", "bank"): 2,
    ("happen", "happen"): 54,
    ("happen", "occur"): 40,
    ("happen", "take_place"): 54,
    ("alcoholic", "alcoholic"): 2,
    ("wet", "wet"): 23,
    ("damp", "damp"): 6,
    ("dry", "dry"): 18,
    ("wetly", "wetly"): 1,
}

EXCEPTIONS = {
    # mice -> mouse: an exception whose base is not in the index
    "noun": [("geese", "goose"), ("mice", "mouse")],
    "verb": [("took", "take")],
    "adj": [("wetter", "wet"), ("wettest", "wet")],
    "adv": [],
}

FILE_LETTER = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}
SS_NUMBER = {"n": 1, "v": 2, "a": 3, "r": 4, "s": 5}
REVERSE = {"@": "~", "@i": "~i", "&": "&", "!": "!", "+": "+"}
# Order of pointer symbols in index.* lines (that of WordNet's ptrtyp table).
SYMBOL_ORDER = ["!", "@", "@i", "~", "~i", "*", "&", "#m", "#s", "#p", "%m",
                "%s", "%p", ">", "$", "=", "<", "^", "\\", "+", ";c", ";r",
                ";u", "-c", "-r", "-u"]

HEADER = [
    "Miniature WordNet for the unit tests of wsd, written by",
    "scripts/make_mini_wordnet.py in the format of Princeton WordNet 3.0.",
    "Glosses adapted from WordNet 3.0, Copyright 2006 by Princeton University,",
    "used under the WordNet 3.0 licence (https://wordnet.princeton.edu/license).",
]


def header_lines():
    return "".join(f"  {i} {t}  \n" for i, t in enumerate(HEADER, 1))


def lower(lemma):
    return lemma.lower()


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "mini-wordnet")
    os.makedirs(out, exist_ok=True)

    syn = {s[0]: {"name": s[0], "file": s[1], "ss": s[2], "lex": s[3],
                  "words": [(w[0], w[1], w[2] if len(w) > 2 else "") for w in s[4]],
                  "ptrs": list(s[5]), "frames": s[6], "gloss": s[7], "order": i}
           for i, s in enumerate(SYNSETS)}
    assert len(syn) == len(SYNSETS), "duplicate synset names"

    # Reverse pointers.
    for s in SYNSETS:
        for sym, target, src, tgt in s[5]:
            rev = REVERSE.get(sym)
            if rev is not None:
                syn[target]["ptrs"].append((rev, s[0], tgt, src))

    # Offsets: every offset field is 8 digits, so line lengths do not
    # depend on offset values; lay each file out once with zeros.
    def data_line(s, off):
        words = " ".join(f"{w}{m} {lid:x}" for w, lid, m in s["words"])
        ptrs = []
        for sym, target, src, tgt in s["ptrs"]:
            t = syn[target]
            ptrs.append(f"{sym} {off(t):08d} {FILE_LETTER[t['file']]} {src:02x}{tgt:02x}")
        fields = [f"{off(s):08d}", f"{s['lex']:02d}", s["ss"], f"{len(s['words']):02x}", words,
                  f"{len(ptrs):03d}"] + ptrs
        if s["file"] == "verb":
            fields.append(f"{len(s['frames']):02d}")
            fields += [f"+ {n:02d} {w:02x}" for n, w in s["frames"]]
        return " ".join(fields) + " | " + s["gloss"] + "  \n"

    offsets = {}
    for f in FILE_LETTER:
        at = len(header_lines().encode())
        for s in SYNSETS:
            if s[1] != f:
                continue
            offsets[s[0]] = at
            at += len(data_line(syn[s[0]], lambda t: 0).encode())

    def off(s):
        return offsets[s["name"]]

    for f in FILE_LETTER:
        text = header_lines() + "".join(
            data_line(syn[s[0]], off) for s in SYNSETS if s[1] == f)
        with open(os.path.join(out, f"data.{f}"), "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        # Self-check: the offset field is the byte position of its line.
        raw = text.encode()
        for s in SYNSETS:
            if s[1] == f:
                o = offsets[s[0]]
                assert raw[o - 1:o] == b"\n" and raw[o:o + 9] == f"{o:08d} ".encode(), s[0]

    # index.* and index.sense.
    sense_lines = []
    for f in FILE_LETTER:
        lemmas = {}
        for s in SYNSETS:
            if s[1] != f:
                continue
            for wi, (w, _lid, _m) in enumerate(syn[s[0]]["words"], 1):
                lemmas.setdefault(lower(w), []).append((s[0], wi))
        lines = []
        for lemma in sorted(lemmas, key=lambda l: l.encode()):
            senses = sorted(lemmas[lemma],
                            key=lambda sw: (-TAG_COUNTS.get((sw[0], lemma), 0), syn[sw[0]]["order"]))
            symbols = []
            for name, wi in senses:
                for sym, _t, src, _tgt in syn[name]["ptrs"]:
                    if (src == 0 or src == wi) and sym not in symbols:
                        symbols.append(sym)
            symbols.sort(key=SYMBOL_ORDER.index)
            tagged = sum(1 for n, _ in senses if TAG_COUNTS.get((n, lemma), 0) > 0)
            fields = [lemma, FILE_LETTER[f], str(len(senses)), str(len(symbols))] + symbols + [
                str(len(senses)), str(tagged)] + [f"{offsets[n]:08d}" for n, _ in senses]
            lines.append(" ".join(fields) + "  \n")
            for number, (name, wi) in enumerate(senses, 1):
                s = syn[name]
                _w, lid, _m = s["words"][wi - 1]
                head = ":"
                if s["ss"] == "s":
                    h = syn[next(t for sym, t, _a, _b in s["ptrs"] if sym == "&")]
                    head = f"{lower(h['words'][0][0])}:{h['words'][0][1]:02d}"
                key = f"{lemma}%{SS_NUMBER[s['ss']]}:{s['lex']:02d}:{lid:02d}:{head}"
                sense_lines.append((key, f"{key} {offsets[name]:08d} {number} "
                                         f"{TAG_COUNTS.get((name, lemma), 0)}\n"))
        with open(os.path.join(out, f"index.{f}"), "w", encoding="utf-8", newline="\n") as fh:
            fh.write(header_lines() + "".join(lines))
    keys = [k for k, _ in sense_lines]
    assert len(set(keys)) == len(keys), "duplicate sense keys"
    with open(os.path.join(out, "index.sense"), "w", encoding="utf-8", newline="\n") as fh:
        fh.write("".join(l for _, l in sorted(sense_lines, key=lambda kl: kl[0].encode())))

    for f, pairs in EXCEPTIONS.items():
        with open(os.path.join(out, f"{f}.exc"), "w", encoding="utf-8", newline="\n") as fh:
            fh.write("".join(f"{a} {b}\n" for a, b in sorted(pairs, key=lambda p: p[0].encode())))

    with open(os.path.join(out, "lexnames"), "w", encoding="utf-8", newline="\n") as fh:
        fh.write("".join(f"{i:02d}\t{n}\t{c}\n" for i, (n, c) in enumerate(LEXNAMES)))


if __name__ == "__main__":
    main()
