"""Does the nearest training instance add to kNN's centroid score? (issue 13)

Reads the cache of `cargo run --release --example knn_lab -- encode DIR`
and `encode-test DIR` (run with KNN_LAB_LAYERS=1: last layer only) and
scores kNN as `Knn::decide` does with sense-key vectors (min 10), gloss
weight 0.3 and prior 0.1, plus beta times the best cosine with a training
instance of the candidate (`nn`) or the mean of its three best (`nn3`).
Dev = SemEval-2007, test = every third SemCor test document, cv = 5-fold
by document over the cached half of the train split (every 7th instance;
a fold's instances leave the centroids and the neighbours). Candidates
and sense keys come from NLTK's WordNet reader over the same dict files
(NLTK only reads from its data folders: link or copy wordnet/dict to
~/nltk_data/corpora/wordnet).

    python3 examples/knn_lab/nearest.py DIR
"""
import json, os, sys, numpy as np
from collections import defaultdict
from nltk.corpus.reader.wordnet import WordNetCorpusReader
wn = WordNetCorpusReader(os.path.expanduser('~/nltk_data/corpora/wordnet'), None)
D = 384
C = sys.argv[1] if len(sys.argv) > 1 else '/tmp/kc'
def load(name):
    meta = [json.loads(l) for l in open(f'{C}/{name}.jsonl')]
    v = np.fromfile(f'{C}/{name}.f32', dtype='<f4')
    n = min(len(meta), len(v)//D)
    v = v[:n*D].reshape(n, D); meta = meta[:n]
    v = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-9)
    return meta, v
tm, tv = load('train')
dm, dv = load('dev')
em, ev = load('test')
gm, gv = load('gloss')
try:
    g2m, g2v = load('gloss2'); gm += g2m; gv = np.vstack([gv, g2v])
except Exception as e:
    print('no gloss2', e)
gloss = {m['synset']: gv[i] for i, m in enumerate(gm)}
print(len(tm), len(dm), len(em), len(gloss), file=sys.stderr)
key2syn = {}
def syn_of_key(k):
    if k not in key2syn:
        try:
            l = wn.lemma_from_key(k); s = l.synset()
            key2syn[k] = '%08d-%s' % (s.offset(), 'a' if s.pos() == 's' else s.pos())
        except Exception:
            key2syn[k] = None
    return key2syn[k]
docs = np.array([m['group'] for m in tm])
fold = docs % 5
# instance lists by synset and by key
by_syn = defaultdict(list); by_key = defaultdict(list)
for i, m in enumerate(tm):
    for k in m['gold']:
        s = syn_of_key(k)
        if s: by_syn[s].append(i)
        by_key[k].append(i)
by_syn = {s: np.array(ix) for s, ix in by_syn.items()}
by_key = {k: np.array(ix) for k, ix in by_key.items()}
cand_cache = {}
def cands(lemma, pos):
    ck = (lemma, pos)
    if ck not in cand_cache:
        out = []
        ps = ['a', 's'] if pos == 'a' else [pos]
        seen = set()
        for p in ps:
            for s in wn.synsets(lemma, p):
                for l in s.lemmas():
                    if l.name().lower() == lemma.lower():
                        key = l.key()
                        if key in seen: continue
                        seen.add(key)
                        sid = '%08d-%s' % (s.offset(), 'a' if s.pos() == 's' else s.pos())
                        out.append((key, sid, l.count()))
        cand_cache[ck] = out
    return cand_cache[ck]
def features(v, lemma, pos, excl_fold=None):
    cs = cands(lemma, pos)
    tot = sum(c + 1 for _, _, c in cs)
    rows = []
    for key, sid, cnt in cs:
        ix = by_key.get(key)
        if ix is not None and excl_fold is not None: ix = ix[fold[ix] != excl_fold]
        src = 'key'
        if ix is None or len(ix) < 10:
            ix = by_syn.get(sid); src = 'syn'
            if ix is not None and excl_fold is not None: ix = ix[fold[ix] != excl_fold]
        ctx = None; nn = None; nn3 = None
        if ix is not None and len(ix) > 0:
            c = tv[ix].sum(0); c /= max(np.linalg.norm(c), 1e-9)
            ctx = float(c @ v)
            sims = tv[ix] @ v
            nn = float(sims.max())
            nn3 = float(np.sort(sims)[-3:].mean())
        g = gloss.get(sid)
        gc = float(g @ v) if g is not None else None
        rows.append((key, ctx, gc, nn, nn3, (cnt + 1) / tot))
    return rows
def score(rows, beta, mode, w=0.3, p=0.1):
    best = None; bs = -1e9
    for key, ctx, gc, nn, nn3, pr in rows:
        x = nn if mode == 'nn' else nn3
        if ctx is not None and gc is not None: s = (1-w)*ctx + w*gc
        elif ctx is not None: s = ctx
        elif gc is not None: s = gc
        else: continue
        if x is not None: s += beta * x
        s += p * pr
        if s > bs: bs, best = s, key
    return best
def evaluate(metas, vecs, cv=False, limit=None):
    feats = []
    for i, m in enumerate(metas):
        if limit and i % limit: continue
        if m['pos'] not in 'nvar' or not m['gold']: continue
        f = features(vecs[i], m['lemma'], m['pos'], fold[i] if cv else None)
        if not f: continue
        feats.append((set(m['gold']), f, m['pos']))
    return feats
sets = {'dev': evaluate(dm, dv), 'test': evaluate(em, ev), 'cv': evaluate(tm, tv, cv=True, limit=7)}
print({k: len(v) for k, v in sets.items()}, file=sys.stderr)
for mode in ['nn', 'nn3']:
    for beta in [0, 0.1, 0.2, 0.3, 0.5, 1.0]:
        res = []
        for name, fs in sets.items():
            ok = sum(score(f, beta, mode) in g for g, f, _ in fs)
            res.append('%s %.2f' % (name, 100 * ok / len(fs)))
        print(mode, beta, ' '.join(res), flush=True)
