//! Issue 13's experiments without re-encoding: `encode` runs the encoder
//! once over SemCor's train split, the SemEval-2007 dev set, SemCor's test
//! split, the glosses and the WordNet example sentences of the evaluation
//! targets' candidates, keeping the last four layers of every needed word
//! vector in `DIR` (about 1.5 GB); `eval` then builds kNN models from the
//! cache for each configuration (layer pooling, example sentences, prior,
//! gloss weight) and scores them with the library's own [`Knn::decide`].
//!
//! ```sh
//! cargo run --release --example knn_lab -- encode /tmp/knn-cache
//! cargo run --release --example knn_lab -- eval /tmp/knn-cache
//! ```
//! Tuning reads the train split and the dev set only; the test split's
//! figures are reported, never used to choose.
//!
//! `eval DIR nearest BETAS TOPS` adds to each candidate's score β × the
//! mean cosine of its `TOPS` most similar training instances (a 1-NN
//! view beside the centroids; see docs/experiments.md, "kNN lab notes").
//!
//! `KNN_LAB_CONTEXT=W` encodes each sentence with up to `W` words of the
//! sentences before and after it (the same document) and keeps the
//! sentence's own vectors: document context as cross-sentence WSD
//! systems use it. Measured (last layer, `KNN_LAB_LAYERS=1`, gloss weight
//! 0.3, prior 0.1, sense vectors from 10 instances; half the train split):
//! `W` = 0 → 32 dev 61.8 → 62.0 (n 64.8 → 66.0, v 60.1 → 59.8),
//! cross-fitted train 69.2 → 69.1, at about 3.5× the encoder work
//! (85 → 300 s for the train half). Within noise, so the model encodes
//! sentences alone.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use wsd::corpus::{attach_gold, read_key_file, read_semcor, read_xml, Document, Split};
use wsd::disambig::candidates;
use wsd::disambig::knn::{
    example_contexts, gloss_words, Entry, Knn, KnnModel, KnnOptions, KnnParams,
};
use wsd::encoder::Encoder;
use wsd::wordnet::{Inventory, Pos, SynsetId};

mod metric;

/// Layers kept per word vector in the cache: all six of MiniLM-L6 (the
/// caches of earlier rounds kept the last four: `KNN_LAB_LAYERS=4`).
fn layers() -> usize {
    std::env::var("KNN_LAB_LAYERS")
        .ok()
        .and_then(|x| x.parse().ok())
        .unwrap_or(6)
}
const D: usize = 384;

#[derive(serde::Serialize, serde::Deserialize, Clone)]
struct Meta {
    /// train: doc index; eval: 0 dev, 1 test; gloss/example: 0
    group: usize,
    lemma: String,
    pos: char,
    gold: Vec<String>,
    /// synset as offset-pos for gloss/example rows
    synset: String,
    /// the word before the target (verbs: a cheap cue) — unused for now
    id: String,
}

struct Writer {
    meta: BufWriter<File>,
    vecs: BufWriter<File>,
    n: usize,
}

impl Writer {
    fn new(dir: &Path, name: &str) -> Writer {
        Writer {
            meta: BufWriter::new(File::create(dir.join(format!("{name}.jsonl"))).unwrap()),
            vecs: BufWriter::new(File::create(dir.join(format!("{name}.f32"))).unwrap()),
            n: 0,
        }
    }
    fn push(&mut self, m: &Meta, v: &[f32]) {
        assert_eq!(v.len(), layers() * D);
        serde_json::to_writer(&mut self.meta, m).unwrap();
        self.meta.write_all(b"\n").unwrap();
        for x in v {
            self.vecs.write_all(&x.to_le_bytes()).unwrap();
        }
        self.n += 1;
    }
}

fn sid(id: SynsetId) -> String {
    format!("{:08}-{}", id.offset, id.pos.letter())
}

fn parse_sid(s: &str) -> SynsetId {
    let (o, p) = s.split_once('-').unwrap();
    SynsetId {
        offset: o.parse().unwrap(),
        pos: Pos::from_letter(p.chars().next().unwrap()).unwrap(),
    }
}

fn words_of(doc: &Document, s: usize) -> Vec<String> {
    doc.sentences[s]
        .tokens
        .iter()
        .map(|t| t.text.replace('_', " "))
        .collect()
}

/// Words of context taken from the sentences around each encoded one
/// (`KNN_LAB_CONTEXT`, default 0: the sentence alone).
fn context_words() -> usize {
    std::env::var("KNN_LAB_CONTEXT")
        .ok()
        .and_then(|x| x.parse().ok())
        .unwrap_or(0)
}

/// Sentence `s` of `doc` with up to `w` words of the sentences before and
/// after it: the words, where the sentence starts, its length.
fn in_context(doc: &Document, s: usize, w: usize) -> (Vec<String>, usize, usize) {
    let own = words_of(doc, s);
    let mut before: Vec<String> = Vec::new();
    let mut k = s;
    while before.len() < w && k > 0 {
        k -= 1;
        let mut p = words_of(doc, k);
        p.extend(before);
        before = p;
    }
    if before.len() > w {
        before.drain(..before.len() - w);
    }
    let mut after: Vec<String> = Vec::new();
    let mut k = s + 1;
    while after.len() < w && k < doc.sentences.len() {
        after.extend(words_of(doc, k));
        k += 1;
    }
    after.truncate(w);
    let lo = before.len();
    let n = own.len();
    let mut all = before;
    all.extend(own);
    all.extend(after);
    (all, lo, n)
}

fn encode_docs(enc: &Encoder, docs: &[Document], w: &mut Writer, train: bool, group: usize) {
    let mut batch: Vec<(usize, usize)> = Vec::new();
    let all: Vec<(usize, usize)> = docs
        .iter()
        .enumerate()
        .flat_map(|(d, doc)| (0..doc.sentences.len()).map(move |s| (d, s)))
        .collect();
    let t = std::time::Instant::now();
    for (ci, chunk) in all.chunks(256).enumerate() {
        batch.clear();
        batch.extend_from_slice(chunk);
        let with_context: Vec<(Vec<String>, usize, usize)> = batch
            .iter()
            .map(|&(d, s)| in_context(&docs[d], s, context_words()))
            .collect();
        let words: Vec<Vec<String>> = with_context.iter().map(|c| c.0.clone()).collect();
        let vecs = enc.encode_words_layers(&words, layers());
        let vecs: Vec<Vec<Vec<f32>>> = vecs
            .into_iter()
            .zip(&with_context)
            .map(|(v, &(_, lo, n))| v.into_iter().skip(lo).take(n).collect())
            .collect();
        for (&(d, s), vs) in batch.iter().zip(vecs) {
            for (tok, v) in docs[d].sentences[s].tokens.iter().zip(vs) {
                let keep = if train {
                    !tok.gold.is_empty()
                } else {
                    tok.instance.is_some() && tok.lemma.is_some() && tok.pos.is_some()
                };
                if !keep {
                    continue;
                }
                let m = Meta {
                    group: if train { d } else { group },
                    lemma: tok.lemma.clone().unwrap_or_default(),
                    pos: tok.pos.map(|p| p.letter()).unwrap_or('x'),
                    gold: tok.gold.clone(),
                    synset: String::new(),
                    id: tok.instance.clone().unwrap_or_default(),
                };
                w.push(&m, &v);
            }
        }
        eprintln!(
            "{} / {} sentences, {:.0} s",
            (ci + 1) * 256,
            all.len(),
            t.elapsed().as_secs_f64()
        );
    }
}

fn lemma_set(docs: &[Document]) -> HashSet<String> {
    docs.iter()
        .flat_map(|d| d.sentences.iter())
        .flat_map(|s| s.tokens.iter())
        .filter(|t| t.pos.is_some())
        .filter_map(|t| t.lemma.clone())
        .collect()
}

fn load_sets(inv: &Inventory) -> (Vec<Document>, Vec<Document>, Vec<Document>) {
    // every other train document (the comparisons need not the whole split;
    // the machine is shared)
    let train: Vec<Document> = read_semcor("corpora/semcor3.0", Split::Train)
        .unwrap()
        .into_iter()
        .step_by(2)
        .collect();
    // every third test document: enough for the experiments at a third of
    // the encoder work (the real `wsd eval` reports on all of them)
    let test: Vec<Document> = read_semcor("corpora/semcor3.0", Split::Test)
        .unwrap()
        .into_iter()
        .step_by(3)
        .collect();
    let mut dev = read_xml("corpora/wsd-eval/semeval2007/semeval2007.data.xml").unwrap();
    let gold = read_key_file("corpora/wsd-eval/semeval2007/semeval2007.gold.key.txt").unwrap();
    attach_gold(&mut dev, &gold);
    let _ = inv;
    (train, dev, test)
}

fn encode(dir: &Path) {
    let inv = Inventory::load(Path::new("wordnet/dict")).unwrap();
    let enc = Encoder::load(Path::new("models/all-MiniLM-L6-v2")).unwrap();
    let (train, dev, test) = load_sets(&inv);
    // the candidate synsets of every evaluation target
    let mut syns: Vec<SynsetId> = Vec::new();
    let mut seen = HashSet::new();
    // (the dev set's only: the machine is shared, and the test split is
    // measured with real models by `wsd eval`)
    for doc in dev.iter() {
        for t in doc.targets() {
            for s in candidates(&inv, &t.lemma, t.pos).iter() {
                if seen.insert(s.synset) {
                    syns.push(s.synset);
                }
            }
        }
    }
    eprintln!("{} candidate synsets", syns.len());
    if dir.join("examples.f32").exists() && std::env::var("KNN_LAB_REDO").is_err() {
        let mut w = Writer::new(dir, "train");
        encode_docs(&enc, &train, &mut w, true, 0);
        eprintln!("done");
        return;
    }
    let mut w = Writer::new(dir, "dev");
    encode_docs(&enc, &dev, &mut w, false, 0);
    drop(w);
    let mut w = Writer::new(dir, "gloss");
    let mut ex = Writer::new(dir, "examples");
    encode_glosses(&inv, &enc, &syns, &mut w, &mut ex);
    drop(w);
    drop(ex);
    let _ = test;
    let mut w = Writer::new(dir, "train");
    encode_docs(&enc, &train, &mut w, true, 0);
    eprintln!("done");
}

/// A synset being built: id, contexts, context sum, gloss vector.
type Slot = (SynsetId, u32, Vec<f32>, Option<Vec<f32>>);

/// Every third SemCor test document, with the glosses and examples of
/// its candidates not yet in the cache.
fn encode_test(dir: &Path) {
    let inv = Inventory::load(Path::new("wordnet/dict")).unwrap();
    let enc = Encoder::load(Path::new("models/all-MiniLM-L6-v2")).unwrap();
    let (_, dev, test) = load_sets(&inv);
    let mut have = HashSet::new();
    for doc in &dev {
        for t in doc.targets() {
            for s in candidates(&inv, &t.lemma, t.pos).iter() {
                have.insert(s.synset);
            }
        }
    }
    let mut syns = Vec::new();
    for doc in &test {
        for t in doc.targets() {
            for s in candidates(&inv, &t.lemma, t.pos).iter() {
                if have.insert(s.synset) {
                    syns.push(s.synset);
                }
            }
        }
    }
    eprintln!("{} more candidate synsets", syns.len());
    let mut w = Writer::new(dir, "test");
    encode_docs(&enc, &test, &mut w, false, 1);
    drop(w);
    let mut w = Writer::new(dir, "gloss2");
    let mut ex = Writer::new(dir, "examples2");
    encode_glosses(&inv, &enc, &syns, &mut w, &mut ex);
}

fn encode_glosses(
    inv: &Inventory,
    enc: &Encoder,
    syns: &[SynsetId],
    w: &mut Writer,
    ex: &mut Writer,
) {
    for chunk in syns.chunks(256) {
        let synsets: Vec<_> = chunk.iter().filter_map(|&id| inv.get(id)).collect();
        let words: Vec<Vec<String>> = synsets.iter().map(|s| gloss_words(s).0).collect();
        let vecs = enc.encode_words_layers(&words, layers());
        for (s, vs) in synsets.iter().zip(vecs) {
            let mut sum = vec![0.0f32; layers() * D];
            for v in &vs {
                add(&mut sum, v);
            }
            let m = Meta {
                group: 0,
                lemma: String::new(),
                pos: 'x',
                gold: vec![],
                synset: sid(s.id),
                id: String::new(),
            };
            w.push(&m, &sum);
        }
        let ctxs: Vec<(SynsetId, wsd::disambig::knn::ExampleContext)> = synsets
            .iter()
            .flat_map(|s| example_contexts(inv, s).into_iter().map(move |c| (s.id, c)))
            .collect();
        let words: Vec<Vec<String>> = ctxs.iter().map(|(_, c)| c.words.clone()).collect();
        let vecs = enc.encode_words_layers(&words, layers());
        for ((id, c), vs) in ctxs.iter().zip(vecs) {
            let m = Meta {
                group: 0,
                lemma: String::new(),
                pos: 'x',
                gold: vec![c.key.clone()],
                synset: sid(*id),
                id: String::new(),
            };
            ex.push(&m, &vs[c.at]);
        }
        eprintln!("glosses {} ({} examples)", w.n, ex.n);
    }
}

struct Rows {
    meta: Vec<Meta>,
    vecs: Vec<f32>,
}

impl Rows {
    fn load(dir: &Path, name: &str) -> Rows {
        let meta: Vec<Meta> =
            BufReader::new(File::open(dir.join(format!("{name}.jsonl"))).unwrap())
                .lines()
                .map_while(|l| serde_json::from_str(&l.ok()?).ok())
                .collect();
        let mut bytes = Vec::new();
        File::open(dir.join(format!("{name}.f32")))
            .unwrap()
            .read_to_end(&mut bytes)
            .unwrap();
        let vecs: Vec<f32> = bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        // a cache still being written: the rows both files hold
        let mut meta = meta;
        let mut vecs = vecs;
        let n = meta.len().min(vecs.len() / (layers() * D));
        if n < meta.len() || vecs.len() != n * layers() * D {
            eprintln!(
                "{name}: {n} of {} rows (cache still being written?)",
                meta.len()
            );
        }
        meta.truncate(n);
        vecs.truncate(n * layers() * D);
        Rows { meta, vecs }
    }
    /// `name` and, when it exists, `name2` (rows added later).
    fn load_both(dir: &Path, name: &str) -> Rows {
        let mut r = Rows::load(dir, name);
        let more = format!("{name}2");
        if dir.join(format!("{more}.jsonl")).exists() {
            let m = Rows::load(dir, &more);
            r.meta.extend(m.meta);
            r.vecs.extend(m.vecs);
        }
        r
    }

    fn raw(&self, i: usize) -> &[f32] {
        &self.vecs[i * layers() * D..(i + 1) * layers() * D]
    }
}

/// Layer pooling of a cached row: the sum of `k` layers ending `skip`
/// below the last, each optionally scaled to unit length first.
#[derive(Clone, Copy, Debug)]
struct Pool {
    k: usize,
    unit_layers: bool,
    skip: usize,
}

fn pool(p: Pool, raw: &[f32]) -> Vec<f32> {
    let mut out = vec![0.0f32; D];
    let top = layers() - p.skip;
    for l in top - p.k..top {
        let b = &raw[l * D..(l + 1) * D];
        let n = if p.unit_layers {
            b.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12)
        } else {
            1.0
        };
        for (a, x) in out.iter_mut().zip(b) {
            *a += x / n;
        }
    }
    out
}

fn add(a: &mut [f32], b: &[f32]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

#[derive(Clone, Copy, Debug)]
struct Config {
    pool: Pool,
    /// weight of an example sentence vector relative to a SemCor instance
    examples: f32,
    gloss_weight: f32,
    prior: f32,
    /// sense-level context vectors: a candidate whose sense key has at
    /// least this many instances uses the key's centroid instead of the
    /// synset's (0: off)
    sense_min: u32,
    /// weight of the nearest-instance term: each candidate's score gains
    /// `nearest ×` the mean cosine of its `nearest_top` most similar
    /// training instances (those of the centroid it is scored against:
    /// its sense key's or its synset's); 0: off
    nearest: f32,
    nearest_top: usize,
}

struct Lab {
    inv: Inventory,
    enc: Arc<Encoder>,
    train: Rows,
    dev: Rows,
    gloss: Rows,
    examples: Rows,
    test: Option<Rows>,
    /// synsets whose gloss is in the cache
    encoded: HashSet<SynsetId>,
    gloss_scope: HashSet<SynsetId>,
}

impl Lab {
    /// A model from the train rows whose document is not in `held_out`
    /// (fold) — all when `None`.
    fn senses(&self, c: &Config, fold: Option<usize>) -> HashMap<String, (u32, Vec<f32>)> {
        let mut out: HashMap<String, (u32, Vec<f32>)> = HashMap::new();
        if c.sense_min == 0 {
            return out;
        }
        for (i, m) in self.train.meta.iter().enumerate() {
            if fold.is_some_and(|f| m.group % 5 == f) {
                continue;
            }
            let v = wsd::disambig::knn::normalized(&pool(c.pool, self.train.raw(i)));
            for k in &m.gold {
                let e = out.entry(k.clone()).or_insert_with(|| (0, vec![0.0; D]));
                e.0 += 1;
                add(&mut e.1, &v);
            }
        }
        out.retain(|_, e| e.0 >= c.sense_min);
        for e in out.values_mut() {
            e.1 = wsd::disambig::knn::normalized(&e.1);
        }
        out
    }

    fn model(&self, c: &Config, fold: Option<usize>) -> KnnModel {
        let mut index: HashMap<SynsetId, usize> = HashMap::new();
        let mut entries: Vec<Slot> = Vec::new();
        let mut slot = |id: SynsetId, entries: &mut Vec<Slot>| {
            *index.entry(id).or_insert_with(|| {
                entries.push((id, 0, vec![0.0; D], None));
                entries.len() - 1
            })
        };
        for (i, m) in self.train.meta.iter().enumerate() {
            if fold.is_some_and(|f| m.group % 5 == f) {
                continue;
            }
            let v = wsd::disambig::knn::normalized(&pool(c.pool, self.train.raw(i)));
            let mut ids: Vec<SynsetId> = Vec::new();
            for k in &m.gold {
                if let Some((s, _, _)) = self.inv.sense_by_key(k) {
                    if !ids.contains(&s.id) {
                        ids.push(s.id);
                    }
                }
            }
            for id in ids {
                let e = slot(id, &mut entries);
                entries[e].1 += 1;
                add(&mut entries[e].2, &v);
            }
        }
        if c.examples != 0.0 {
            // negative: only synsets SemCor did not tag
            let seen: HashSet<SynsetId> = entries.iter().map(|e| e.0).collect();
            for (i, m) in self.examples.meta.iter().enumerate() {
                let id = parse_sid(&m.synset);
                if !self.gloss_scope.contains(&id) || (c.examples < 0.0 && seen.contains(&id)) {
                    continue;
                }
                let v: Vec<f32> =
                    wsd::disambig::knn::normalized(&pool(c.pool, self.examples.raw(i)))
                        .into_iter()
                        .map(|x| x * c.examples.abs())
                        .collect();
                let e = slot(id, &mut entries);
                entries[e].1 += 1;
                add(&mut entries[e].2, &v);
            }
        }
        for (i, m) in self.gloss.meta.iter().enumerate() {
            let id = parse_sid(&m.synset);
            if !self.gloss_scope.contains(&id) {
                continue;
            }
            let g = wsd::disambig::knn::normalized(&pool(c.pool, self.gloss.raw(i)));
            let e = slot(id, &mut entries);
            entries[e].3 = Some(g);
        }
        let mut params = KnnParams::new(&self.enc);
        params.gloss = wsd::disambig::knn::GlossScope::None;
        KnnModel {
            params,
            dim: D,
            entries: entries
                .into_iter()
                .map(|(synset, count, sum, gloss)| Entry {
                    synset,
                    count,
                    ctx: (count > 0).then(|| wsd::disambig::knn::normalized(&sum)),
                    gloss,
                    exemplars: Vec::new(),
                    resultant: (count > 0).then(|| wsd::disambig::knn::dot(&sum, &sum).sqrt()),
                })
                .collect(),
            senses: Vec::new(),
            instances: Vec::new(),
            instance_sentences: Vec::new(),
            instance_docs: Vec::new(),
            sentences: Vec::new(),
            calibration: None,
        }
    }

    /// F1 (= accuracy: knn,mfs answers everything) overall and per POS.
    #[allow(clippy::too_many_arguments)]
    fn score(
        &self,
        knn: &Knn,
        model: &KnnModel,
        senses: &HashMap<String, (u32, Vec<f32>)>,
        c: &Config,
        rows: &Rows,
        fold: Option<usize>,
    ) -> (f64, HashMap<char, (f64, usize)>) {
        let ctx_of: HashMap<SynsetId, &Vec<f32>> = model
            .entries
            .iter()
            .filter_map(|e| Some((e.synset, e.ctx.as_ref()?)))
            .collect();
        let has_gloss: HashSet<SynsetId> = model
            .entries
            .iter()
            .filter(|e| e.gloss.is_some())
            .map(|e| e.synset)
            .collect();
        let near = (c.nearest != 0.0).then(|| Nearest::new(self, c, fold));
        let mut tally = Tally::default();
        for (i, m) in rows.meta.iter().enumerate() {
            if let Some(f) = fold {
                if m.group % 5 != f {
                    continue;
                }
            }
            let Some(pos) = Pos::from_letter(m.pos) else {
                continue;
            };
            let cands = candidates(&self.inv, &m.lemma, pos);
            // a cache still being written: only instances whose candidates
            // in gloss scope all have their gloss (and examples) encoded
            if cands
                .iter()
                .any(|s| self.gloss_scope.contains(&s.synset) && !self.encoded.contains(&s.synset))
            {
                continue;
            }
            let key = match &*cands {
                [] => None,
                [only] => Some(only.key.clone()),
                _ => {
                    let v = pool(c.pool, rows.raw(i));
                    if senses.is_empty() && c.nearest == 0.0 {
                        knn.decide(&self.inv, &v, &cands)
                            .map(|p| p.key)
                            .or_else(|| Some(cands[0].key.clone()))
                    } else {
                        let u = wsd::disambig::knn::normalized(&v);
                        let mut sc = knn.scores(&self.inv, &u, &cands);
                        for (s, x) in cands.iter().zip(sc.iter_mut()) {
                            if let (Some(x), Some((_, sv)), Some(cv)) =
                                (x.as_mut(), senses.get(&s.key), ctx_of.get(&s.synset))
                            {
                                let w = if has_gloss.contains(&s.synset) {
                                    1.0 - c.gloss_weight
                                } else {
                                    1.0
                                };
                                *x += w
                                    * (wsd::disambig::knn::dot(&u, sv)
                                        - wsd::disambig::knn::dot(&u, cv));
                            }
                        }
                        if let Some(near) = &near {
                            for (s, x) in cands.iter().zip(sc.iter_mut()) {
                                let own = if senses.contains_key(&s.key) {
                                    near.by_key.get(&s.key)
                                } else {
                                    near.by_synset.get(&s.synset)
                                };
                                if let (Some(x), Some(rows)) = (x.as_mut(), own) {
                                    *x += c.nearest * near.top_mean(&u, rows, c.nearest_top);
                                }
                            }
                        }
                        wsd::disambig::knn::argmax(&sc)
                            .map(|(i, _)| cands[i].key.clone())
                            .or_else(|| Some(cands[0].key.clone()))
                    }
                }
            };
            tally.add(m.pos, key.is_some_and(|k| m.gold.contains(&k)));
        }
        tally.finish()
    }

    fn run(&self, c: &Config, cv: bool) -> String {
        let model = self.model(c, None);
        let senses = self.senses(c, None);
        let seen = model.entries.iter().filter(|e| e.ctx.is_some()).count();
        let opts = KnnOptions {
            gloss_weight: c.gloss_weight,
            prior: c.prior,
            ..KnnOptions::default()
        };
        let knn = Knn::new(model.clone(), self.enc.clone(), &self.inv, opts).unwrap();
        let (dev, dp) = self.score(&knn, &model, &senses, c, &self.dev, None);
        let tests = match &self.test {
            Some(t) => {
                let (a, p) = self.score(&knn, &model, &senses, c, t, None);
                let n: usize = p.values().map(|x| x.1).sum();
                format!(" test {a:.1} ({n} inst.) [{}]", pp(&p))
            }
            None => String::new(),
        };
        let mut cvs = String::new();
        if cv {
            // 5-fold cross-fitting on the train split (the tuning set)
            let mut tot = 0.0;
            let mut per: HashMap<char, (f64, usize)> = HashMap::new();
            for f in 0..5 {
                let m = self.model(c, Some(f));
                let sn = self.senses(c, Some(f));
                let knn = Knn::new(m.clone(), self.enc.clone(), &self.inv, opts).unwrap();
                let (a, p) = self.score(&knn, &m, &sn, c, &self.train, Some(f));
                tot += a;
                for (k, v) in p {
                    let e = per.entry(k).or_default();
                    e.0 += v.0 / 5.0;
                }
            }
            cvs = format!(" cv {:.1} [{}]", tot / 5.0, pp(&per));
        }
        format!(
            "{c:?}: dev {dev:.1} [{}]{tests}{cvs} (synsets with ctx {seen})",
            pp(&dp)
        )
    }
}

/// The training instances behind each centroid (those of the documents
/// outside the held-out fold), unit vectors, for the nearest-instance term.
struct Nearest {
    vecs: Vec<Vec<f32>>,
    by_key: HashMap<String, Vec<usize>>,
    by_synset: HashMap<SynsetId, Vec<usize>>,
}

impl Nearest {
    fn new(lab: &Lab, c: &Config, fold: Option<usize>) -> Nearest {
        let mut near = Nearest {
            vecs: Vec::new(),
            by_key: HashMap::new(),
            by_synset: HashMap::new(),
        };
        for (i, m) in lab.train.meta.iter().enumerate() {
            if fold.is_some_and(|f| m.group % 5 == f) {
                continue;
            }
            let row = near.vecs.len();
            near.vecs.push(wsd::disambig::knn::normalized(&pool(
                c.pool,
                lab.train.raw(i),
            )));
            let mut ids: Vec<SynsetId> = Vec::new();
            for k in &m.gold {
                near.by_key.entry(k.clone()).or_default().push(row);
                if let Some((s, _, _)) = lab.inv.sense_by_key(k) {
                    if !ids.contains(&s.id) {
                        ids.push(s.id);
                    }
                }
            }
            for id in ids {
                near.by_synset.entry(id).or_default().push(row);
            }
        }
        near
    }

    /// Mean cosine of `u` with its `top` most similar vectors of `rows`.
    fn top_mean(&self, u: &[f32], rows: &[usize], top: usize) -> f32 {
        let mut sims: Vec<f32> = rows
            .iter()
            .map(|&r| wsd::disambig::knn::dot(u, &self.vecs[r]))
            .collect();
        sims.sort_by(|a, b| b.total_cmp(a));
        sims.truncate(top.max(1));
        sims.iter().sum::<f32>() / sims.len() as f32
    }
}

/// Right answers overall and per POS letter, as percentages at the end.
#[derive(Default)]
struct Tally {
    right: usize,
    n: usize,
    per: HashMap<char, (f64, usize)>,
}

impl Tally {
    fn add(&mut self, pos: char, ok: bool) {
        let e = self.per.entry(pos).or_default();
        e.1 += 1;
        self.n += 1;
        if ok {
            self.right += 1;
            e.0 += 1.0;
        }
    }

    /// (accuracy, per POS (accuracy, instances)), in percent.
    fn finish(mut self) -> (f64, HashMap<char, (f64, usize)>) {
        for v in self.per.values_mut() {
            v.0 = 100.0 * v.0 / v.1 as f64;
        }
        (100.0 * self.right as f64 / self.n.max(1) as f64, self.per)
    }
}

fn pp(p: &HashMap<char, (f64, usize)>) -> String {
    ['n', 'v', 'a', 'r']
        .iter()
        .map(|k| {
            p.get(k)
                .map(|x| format!("{k}{:.1}", x.0))
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = PathBuf::from(args.get(2).map(String::as_str).unwrap_or("/tmp/knn-cache"));
    match args.get(1).map(String::as_str) {
        Some("encode") => encode(&dir),
        Some("encode-test") => encode_test(&dir),
        Some("encode-dev") => {
            let inv = Inventory::load(Path::new("wordnet/dict")).unwrap();
            let enc = Encoder::load(Path::new("models/all-MiniLM-L6-v2")).unwrap();
            let (_, dev, _) = load_sets(&inv);
            let mut w = Writer::new(&dir, "dev");
            encode_docs(&enc, &dev, &mut w, false, 0);
        }
        Some("eval") => {
            let inv = Inventory::load(Path::new("wordnet/dict")).unwrap();
            let enc = Arc::new(Encoder::load(Path::new("models/all-MiniLM-L6-v2")).unwrap());
            let (train_docs, dev_docs, _) = load_sets(&inv);
            // the real model's gloss scope: the candidates of the lemmas of
            // the training documents and of the dev set
            let mut gloss_scope = HashSet::new();
            for l in lemma_set(&train_docs).union(&lemma_set(&dev_docs)) {
                for pos in [Pos::Noun, Pos::Verb, Pos::Adj, Pos::Adv] {
                    for s in candidates(&inv, l, pos).iter() {
                        gloss_scope.insert(s.synset);
                    }
                }
            }
            let gloss = Rows::load_both(&dir, "gloss");
            let encoded: HashSet<SynsetId> =
                gloss.meta.iter().map(|m| parse_sid(&m.synset)).collect();
            let lab = Lab {
                encoded,
                train: Rows::load(&dir, "train"),
                dev: Rows::load(&dir, "dev"),
                gloss,
                examples: Rows::load_both(&dir, "examples"),
                test: if dir.join("test.jsonl").exists() {
                    Some(Rows::load(&dir, "test"))
                } else {
                    None
                },
                inv,
                enc,
                gloss_scope,
            };
            let base = Config {
                pool: Pool {
                    k: 1,
                    unit_layers: false,
                    skip: 0,
                },
                examples: 0.0,
                gloss_weight: 0.3,
                prior: 0.1,
                sense_min: 0,
                nearest: 0.0,
                nearest_top: 1,
            };
            let grid = args.get(3).map(String::as_str).unwrap_or("pool");
            let mut configs = vec![base];
            match grid {
                "pool" => {
                    for k in 2..=4 {
                        for u in [false, true] {
                            configs.push(Config {
                                pool: Pool {
                                    k,
                                    unit_layers: u,
                                    skip: 0,
                                },
                                ..base
                            });
                        }
                    }
                }
                "custom" => {
                    let k: usize = args[4].parse().unwrap();
                    let u: bool = args[5].parse().unwrap();
                    for ex in args[6].split(',') {
                        for gw in args[7].split(',') {
                            for pr in args[8].split(',') {
                                configs.push(Config {
                                    pool: Pool {
                                        k,
                                        unit_layers: u,
                                        skip: 0,
                                    },
                                    examples: ex.parse().unwrap(),
                                    gloss_weight: gw.parse().unwrap(),
                                    prior: pr.parse().unwrap(),
                                    sense_min: args.get(9).map(|x| x.parse().unwrap()).unwrap_or(0),
                                    ..base
                                });
                            }
                        }
                    }
                }
                "nearest" => {
                    // nearest BETAS TOPS: sense-key vectors (min 10), gloss
                    // 0.3, prior 0.1, plus the nearest-instance term
                    configs[0].sense_min = 10;
                    for top in args[5].split(',') {
                        for beta in args[4].split(',') {
                            configs.push(Config {
                                nearest: beta.parse().unwrap(),
                                nearest_top: top.parse().unwrap(),
                                ..configs[0]
                            });
                        }
                    }
                }
                "metric" => {
                    // metric KINDS LAMBDAS [SKIP,K …] [GW PRIOR MIN]: see metric.rs
                    let kinds: Vec<metric::Kind> =
                        args[4].split(',').map(metric::Kind::parse).collect();
                    let lambdas: Vec<f64> =
                        args[5].split(',').map(|x| x.parse().unwrap()).collect();
                    let pools: Vec<Pool> = args
                        .get(6)
                        .map_or("0:1", String::as_str)
                        .split(',')
                        .map(|p| {
                            let (skip, k) = p.split_once(':').unwrap();
                            Pool {
                                k: k.parse().unwrap(),
                                unit_layers: false,
                                skip: skip.parse().unwrap(),
                            }
                        })
                        .collect();
                    let num = |i: usize, d: f32| args.get(i).map_or(d, |x| x.parse().unwrap());
                    let cv = args.iter().any(|a| a == "--cv");
                    for &p in &pools {
                        for &kind in &kinds {
                            for &l in &lambdas {
                                let c = Config {
                                    pool: p,
                                    gloss_weight: num(7, 0.3),
                                    prior: num(8, 0.1),
                                    sense_min: num(9, 10.0) as u32,
                                    ..base
                                };
                                println!("{}", metric::run(&lab, &c, kind, l, cv));
                            }
                        }
                    }
                    return;
                }
                _ => panic!(
                    "grid: pool | custom K UNIT EX GW PRIOR | metric KINDS LAMBDAS | nearest BETAS TOPS"
                ),
            }
            let cv = args.iter().any(|a| a == "--cv");
            for c in configs {
                println!("{}", lab.run(&c, cv));
            }
        }
        _ => eprintln!("usage: knn_lab encode|eval DIR"),
    }
}
