"""Choose the category probe's threshold from `examples/pos_probe_lab.rs`'s data
(needs numpy). Reads OUT_DIR/train.tsv|f32 (every train document, shipped
pipeline) and OUT_DIR/train-ho.tsv|f32 (every 5th train document, read by the
jackknifed tagger and a category model learned without them), fits the probe
on the train documents not held out the way `CategoryProbe::fit` does
(softmax over the allowed categories, full-batch gradient descent with
Nesterov momentum, lr 0.5, L2 1e-4, 100 epochs, standardised inputs) and
prints how many held-out candidates have the wrong category when the probe
overrules the pipeline below each threshold.

    python3 examples/pos_probe_lab.py OUT_DIR
"""
import sys
import numpy as np

D = 384
CATS = "nvar"


def load(base):
    rows = [l.rstrip("\n").split("\t") for l in open(base + ".tsv")]
    v = np.fromfile(base + ".f32", dtype="<f4").reshape(len(rows), 2 * D)
    return rows, v[:, D:]  # the sum of the last four layers


def labels(rows, col):
    return np.array([CATS.index(r[col]) if r[col] in CATS else -1 for r in rows])


def allowed(rows):
    b = np.array([int(r[7]) for r in rows])
    return np.stack([(b >> k) & 1 for k in range(4)], 1).astype(bool)


def fit(x, y, m, l2=1e-4, epochs=100, lr=0.5):
    mu, sd = x.mean(0), x.std(0) + 1e-6
    z, n = (x - mu) / sd, len(y)
    w, b = np.zeros((D, 4)), np.zeros(4)
    vw, vb = np.zeros_like(w), np.zeros(4)
    onehot = np.eye(4)[y]
    for _ in range(epochs):
        lw, lb = w + 0.9 * vw, b + 0.9 * vb
        s = np.where(m, z @ lw + lb, -1e9)
        s -= s.max(1, keepdims=True)
        p = np.exp(s)
        p /= p.sum(1, keepdims=True)
        g = (p - onehot) / n
        vw = 0.9 * vw - lr * (z.T @ g + l2 * lw)
        vb = 0.9 * vb - lr * g.sum(0)
        w, b = w + vw, b + vb
    wf = w / sd[:, None]
    return wf, b - mu @ wf


def probs(w, b, x, m):
    s = np.where(m, x @ w + b, -1e9)
    s -= s.max(1, keepdims=True)
    p = np.exp(s)
    return p / p.sum(1, keepdims=True)


out = sys.argv[1]
tr, xtr = load(out + "/train")
ho, xho = load(out + "/train-ho")
held = set(r[0].split(".")[0] for r in ho)
keep = np.array([r[0].split(".")[0] not in held for r in tr])
w, b = fit(xtr[keep], labels(tr, 2)[keep], allowed(tr)[keep])
gold, pipe = labels(ho, 2), labels(ho, 3)
found = pipe >= 0
p = probs(w, b, xho, allowed(ho))
best = p.argmax(1)
print("held-out candidates found", int(found.sum()), "pipeline wrong", int((pipe != gold)[found].sum()),
      "probe alone wrong", int((best != gold)[found].sum()))
for t in [0.4, 0.3, 0.2, 0.15, 0.1, 0.07, 0.05, 0.03]:
    chosen = np.where(p[np.arange(len(pipe)), np.maximum(pipe, 0)] < t, best, pipe)
    print("threshold", t, "wrong", int((chosen != gold)[found].sum()))
