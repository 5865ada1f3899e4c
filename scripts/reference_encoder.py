#!/usr/bin/env python3
"""Independent numpy reference of the encoder in src/encoder/.

Needs only numpy and safetensors (`pip install numpy safetensors`): no
torch, no transformers. It re-implements, from the published BERT
description rather than from the Rust code:

* BERT's uncased BasicTokenizer (clean text, space CJK, lower-case, strip
  accents via NFD, split punctuation) and greedy longest-match WordPiece,
  on Python's `unicodedata`;
* the BERT forward pass: word + position + token-type embeddings and
  LayerNorm, then per layer multi-head self-attention (softmax(QK^T/sqrt(d_k))V,
  padding masked out), residual + LayerNorm, exact-erf GELU feed-forward,
  residual + LayerNorm.

Modes:

  scripts/reference_encoder.py [--model DIR] [--out FILE]
      Encodes the fixed SENTENCES below in float64 with the exact erf and
      writes tests/fixtures/encoder_reference.json: for each sentence its
      text, pieces, piece ids (with [CLS]/[SEP]), the first DIMS features of
      every piece's last-layer vector and every vector's L2 norm. The Rust
      test `encoder::tests::minilm_matches_numpy_reference` compares
      against it.

  scripts/reference_encoder.py --bench FILE [--model DIR]
      Times the same computation (float32, batches sorted by length, a
      vectorised erf) on FILE: one sentence per line, words separated by
      spaces (the Rust bench test writes such a file).
"""
import argparse
import json
import math
import os
import sys
import time
import unicodedata

import numpy as np
from safetensors.numpy import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIMS = 8

SENTENCES = [
    "The bank raised interest rates on Friday.",
    "He sat on the river bank and watched the water flow by.",
    "Unaffable café owners don't serve crème brûlée!",
    "Disambiguation of word senses: WordNet 3.0 & SemCor (1993).",
    "北京 is in 中国; naïve résumé \u2603 \U0001F600 ΟΔΟΣ",
    "a",
    "",
    "In linguistics, word-sense disambiguation is the process of identifying "
    "which sense of a word is meant in a sentence or other segment of "
    "discourse; the human brain is quite proficient at it, and computers "
    "have long struggled to match that skill.",
]


# ----------------------------------------------------------------------
# Tokenizer
# ----------------------------------------------------------------------

def is_whitespace(c):
    return c in " \t\n\r" or unicodedata.category(c) == "Zs"


def is_control(c):
    if c in "\t\n\r":
        return False
    return unicodedata.category(c).startswith("C")


def is_punctuation(c):
    cp = ord(c)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(c).startswith("P")


def is_cjk(c):
    cp = ord(c)
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF
            or 0x20000 <= cp <= 0x2A6DF or 0x2A700 <= cp <= 0x2B73F
            or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF
            or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


def basic_tokenize(text):
    out = []
    for c in text:
        if ord(c) == 0 or ord(c) == 0xFFFD or is_control(c):
            continue
        if is_whitespace(c):
            out.append(" ")
        elif is_cjk(c):
            out.append(" " + c + " ")
        else:
            out.append(c)
    words = []
    for word in "".join(out).split():
        word = word.lower()
        word = "".join(ch for ch in unicodedata.normalize("NFD", word)
                       if unicodedata.category(ch) != "Mn")
        cur = ""
        for ch in word:
            if is_punctuation(ch):
                if cur:
                    words.append(cur)
                    cur = ""
                words.append(ch)
            else:
                cur += ch
        if cur:
            words.append(cur)
    return " ".join(words).split()


class WordPiece:
    def __init__(self, vocab_path):
        with open(vocab_path, encoding="utf-8") as f:
            self.pieces = [line.rstrip("\n") for line in f]
        self.ids = {p: i for i, p in enumerate(self.pieces)}
        self.unk = self.ids["[UNK]"]
        self.cls = self.ids["[CLS]"]
        self.sep = self.ids["[SEP]"]
        self.pad = self.ids["[PAD]"]

    def wordpiece(self, word):
        if len(word) > 100:
            return [self.unk]
        out, start = [], 0
        while start < len(word):
            end, found = len(word), None
            while start < end:
                sub = word[start:end]
                if start > 0:
                    sub = "##" + sub
                if sub in self.ids:
                    found = self.ids[sub]
                    break
                end -= 1
            if found is None:
                return [self.unk]
            out.append(found)
            start = end
        return out

    def encode(self, text):
        return [i for w in basic_tokenize(text) for i in self.wordpiece(w)]


# ----------------------------------------------------------------------
# Model
# ----------------------------------------------------------------------

def erf_exact(x):
    return np.frompyfunc(math.erf, 1, 1)(x).astype(x.dtype)


def erf_fast(x):
    # Abramowitz & Stegun 7.1.26, |error| < 1.5e-7
    s = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t
                - 0.284496736) * t + 0.254829592) * t * np.exp(-a * a)
    return s * y


class Bert:
    def __init__(self, model_dir, dtype=np.float64, erf=erf_exact):
        with open(os.path.join(model_dir, "config.json")) as f:
            self.cfg = json.load(f)
        raw = load_file(os.path.join(model_dir, "model.safetensors"))
        prefix = "bert." if "bert.embeddings.word_embeddings.weight" in raw else ""
        self.w = {k[len(prefix):]: v.astype(dtype) for k, v in raw.items()
                  if k.startswith(prefix) and v.dtype != np.int64}
        self.dtype = dtype
        self.erf = erf
        self.eps = self.cfg.get("layer_norm_eps", 1e-12)
        self.heads = self.cfg["num_attention_heads"]

    def layer_norm(self, x, name):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + self.eps) * self.w[name + ".weight"] + self.w[name + ".bias"]

    def linear(self, x, name):
        # one 2-D GEMM over all tokens (numpy's stacked 3-D matmul is ~15x slower)
        w = self.w[name + ".weight"]
        y = x.reshape(-1, x.shape[-1]) @ w.T + self.w[name + ".bias"]
        return y.reshape(x.shape[:-1] + (w.shape[0],))

    def forward(self, ids, mask):
        """ids, mask: (batch, length) arrays; returns (batch, length, d)."""
        b, n = ids.shape
        w = self.w
        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][:n][None]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = self.layer_norm(x, "embeddings.LayerNorm")
        d = x.shape[-1]
        h, dh = self.heads, d // self.heads
        # padded keys get -inf before the softmax, i.e. weight 0
        bias = np.where(mask, 0.0, -np.inf).astype(self.dtype)[:, None, None, :]
        for i in range(self.cfg["num_hidden_layers"]):
            p = f"encoder.layer.{i}"

            def split(t):  # (b, n, d) -> (b, h, n, dh): features split per head
                return t.reshape(b, n, h, dh).transpose(0, 2, 1, 3)

            q = split(self.linear(x, p + ".attention.self.query"))
            k = split(self.linear(x, p + ".attention.self.key"))
            v = split(self.linear(x, p + ".attention.self.value"))
            scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(dh) + bias
            scores = scores - scores.max(-1, keepdims=True)
            e = np.exp(scores)
            att = e / e.sum(-1, keepdims=True)
            ctx = (att @ v).transpose(0, 2, 1, 3).reshape(b, n, d)
            x = self.layer_norm(self.linear(ctx, p + ".attention.output.dense") + x,
                                p + ".attention.output.LayerNorm")
            inter = self.linear(x, p + ".intermediate.dense")
            inter = 0.5 * inter * (1.0 + self.erf(inter / math.sqrt(2.0)))
            x = self.layer_norm(self.linear(inter, p + ".output.dense") + x,
                                p + ".output.LayerNorm")
        return x


# ----------------------------------------------------------------------
# Modes
# ----------------------------------------------------------------------

def default_model_dir():
    env = os.environ.get("WSD_MODEL_DIR")
    for d in ([os.path.join(ROOT, env)] if env else []) + [
            os.path.join(ROOT, "models/all-MiniLM-L6-v2"),
            os.path.join(ROOT, "../shared/models/all-MiniLM-L6-v2")]:
        if os.path.isfile(os.path.join(d, "model.safetensors")):
            return d
    sys.exit("no checkpoint found: pass --model DIR or run scripts/fetch-model.sh")


def write_fixture(model_dir, out):
    tok = WordPiece(os.path.join(model_dir, "vocab.txt"))
    bert = Bert(model_dir)
    sentences = []
    for text in SENTENCES:
        ids = [tok.cls] + tok.encode(text) + [tok.sep]
        arr = np.array([ids])
        hidden = bert.forward(arr, np.ones_like(arr, dtype=bool))[0]
        sentences.append({
            "text": text,
            "pieces": [tok.pieces[i] for i in ids],
            "ids": ids,
            "head": [[round(float(v), 7) for v in row[:DIMS]] for row in hidden],
            "norm": [round(float(np.linalg.norm(row)), 6) for row in hidden],
        })
    fixture = {
        "generator": "scripts/reference_encoder.py (numpy float64, exact erf)",
        "model": os.path.basename(os.path.normpath(model_dir)),
        "unicode": unicodedata.unidata_version,
        "dims": DIMS,
        "sentences": sentences,
    }
    os.makedirs(os.path.dirname(out), exist_ok=True)
    # one line per field of a sentence: small, and diffs stay readable
    with open(out, "w", encoding="utf-8") as f:
        f.write("{\n")
        for key in ("generator", "model", "unicode", "dims"):
            f.write(f" {json.dumps(key)}: {json.dumps(fixture[key], ensure_ascii=False)},\n")
        f.write(' "sentences": [\n')
        for i, s in enumerate(sentences):
            fields = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False, separators=(',', ':'))}"
                      for k, v in s.items()]
            f.write("  {\n" + ",\n".join(fields) + "\n  }" + ("," if i + 1 < len(sentences) else "") + "\n")
        f.write(" ]\n}\n")
    print(f"wrote {out}: {len(sentences)} sentences, "
          f"{sum(len(s['ids']) for s in sentences)} pieces")


def bench(model_dir, path, batch_tokens=4096):
    tok = WordPiece(os.path.join(model_dir, "vocab.txt"))
    bert = Bert(model_dir, dtype=np.float32, erf=erf_fast)
    with open(path, encoding="utf-8") as f:
        sentences = [line.split() for line in f if line.strip()]
    t0 = time.perf_counter()
    seqs = []
    for words in sentences:
        ids = [tok.cls]
        for w in words:
            ids += tok.encode(w) or [tok.unk]
        seqs.append(ids + [tok.sep])
    t1 = time.perf_counter()
    order = sorted(range(len(seqs)), key=lambda i: len(seqs[i]))
    batches, cur = [], []
    for i in order:
        if cur and (len(cur) + 1) * len(seqs[i]) > batch_tokens:
            batches.append(cur)
            cur = []
        cur.append(i)
    if cur:
        batches.append(cur)
    for batch in batches:
        n = max(len(seqs[i]) for i in batch)
        ids = np.full((len(batch), n), tok.pad, dtype=np.int64)
        mask = np.zeros((len(batch), n), dtype=bool)
        for r, i in enumerate(batch):
            ids[r, :len(seqs[i])] = seqs[i]
            mask[r, :len(seqs[i])] = True
        bert.forward(ids, mask)
    t2 = time.perf_counter()
    pieces = sum(len(s) for s in seqs)
    words = sum(len(s) for s in sentences)
    print(f"numpy reference: {len(sentences)} sentences, {words} words, {pieces} pieces: "
          f"tokenize {t1 - t0:.3f} s, forward {t2 - t1:.3f} s; "
          f"{words / (t2 - t0):.0f} words/s, {pieces / (t2 - t0):.0f} pieces/s")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", help="checkpoint folder (default: as the Rust tests find it)")
    ap.add_argument("--out", default=os.path.join(ROOT, "tests/fixtures/encoder_reference.json"))
    ap.add_argument("--bench", metavar="FILE", help="time the encoder on FILE instead")
    args = ap.parse_args()
    model_dir = args.model or default_model_dir()
    if args.bench:
        bench(model_dir, args.bench)
    else:
        write_fixture(model_dir, args.out)


if __name__ == "__main__":
    main()
