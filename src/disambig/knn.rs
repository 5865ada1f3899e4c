//! kNN over contextual vectors: LMMS-style sense vectors from the
//! project's own attention encoder.
//!
//! **Training** ([`KnnModel::train`]) encodes every sentence of the given
//! SemCor documents with [`Encoder::encode_words`] (last layer, a word's
//! vector is the mean of its WordPiece pieces; multiword tokens such as
//! `took_place` are encoded as `took place`). Every sense-tagged token adds
//! its vector to the sum of the synset of each of its gold keys; the
//! centroid of a synset is its *context vector* (Loureiro & Jorge's LMMS,
//! at synset level: the candidates of one lemma are distinct synsets, and
//! pooling the lemmas of a synset gives more examples).
//!
//! **Gloss vectors**: for each synset in scope ([`GlossScope`]) the text
//! `lemma1 , lemma2 - definition ; example ; …` (lemmas with `_` as spaces)
//! goes through the same encoder; the gloss vector is the mean of the
//! vectors of all words ([`GlossPooling::Mean`], the default) or of the
//! header's lemma words only ([`GlossPooling::Lemma`]: the word "bank" read
//! in the context of its own definition; measured worse, 31.6 against 46.8
//! F1 on SemEval-2007 with glosses alone).
//!
//! **Prediction** ([`Knn`]): the target's vector (its sentence encoded with
//! the rest of its document in one batch) against each candidate synset:
//! `score = (1 − w)·cos(v, ctx) + w·cos(v, gloss)` with `w` =
//! [`KnnOptions::gloss_weight`] when both exist, else the one that exists.
//! Plus a sense-frequency prior, `p · (tag_count + 1) / Σ(tag_count + 1)`
//! over the candidates ([`KnnOptions::prior`]; WordNet's tag counts, as
//! `mfs` uses them). Defaults `w` = 0.3, `p` = 0.1 were tuned on the
//! SemEval-2007 dev set with the all-SemCor model: F1 55.6 (context only),
//! 59.1 (+ glosses, w = 0.3), 62.0 (+ prior 0.1); plateau 0.25–0.35 for
//! `w`, 0.05–0.2 for `p`.
//! A synset never seen in SemCor borrows a context vector (LMMS's
//! propagation): the mean of its hypernyms' context vectors (up to three
//! levels up), else the mean of its lexicographer file's. A candidate with
//! no vector at all abstains; when every candidate abstains the method
//! returns `None`, so a chain (`knn,nb,mfs`) backs off. With instance
//! vectors kept (`--keep-instances` at training) and `k > 1`, the `k`
//! nearest SemCor instances among the candidates vote (cosine-weighted).
//!
//! **Model body** (little-endian): `b"KNNV"`, version `u32`, `d` `u32`,
//! entry count `u32`, then per entry: POS `u8` (0 n, 1 v, 2 a, 3 r), offset
//! `u32`, flags `u8` (1 = context vector, 2 = gloss vector), example count
//! `u32`, the context vector (`d` × f32) if flagged, the gloss vector if
//! flagged; then instance count `u32` and per instance the entry index
//! `u32` and `d` × f32. Decoding is bounds-checked: a short or garbled body
//! is an [`Error::Model`], never a panic.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use crate::corpus::{Document, Target};
use crate::encoder::Encoder;
use crate::wordnet::{Inventory, PointerKind, Pos, Sense, Synset, SynsetId};
use crate::{model_io, Error, Result};

use super::{candidates, Candidates, Disambiguator, Prediction};

/// Method name in model headers and `--method`.
pub const METHOD: &str = "knn";

const BODY_MAGIC: &[u8; 4] = b"KNNV";
const BODY_VERSION: u32 = 1;
const HAS_CTX: u8 = 1;
const HAS_GLOSS: u8 = 2;

/// Sentences per [`Encoder::encode_words`] call during training.
pub const TRAIN_BATCH: usize = 256;

/// Which synsets get a gloss vector.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GlossScope {
    /// None: only SemCor context vectors (and their propagation).
    None,
    /// Every synset of WordNet (117,659): about 3 times the encoder work
    /// of all of SemCor.
    #[default]
    All,
    /// Only the synsets of these lemmas (any POS). `wsd train` (the
    /// default there) passes the lemmas of the training documents and of
    /// any `--gloss-xml` files: 42,821 synsets for all of SemCor plus
    /// SemEval-2007, which keeps training near 20 minutes on two busy cores.
    Lemmas(Vec<String>),
}

/// How a gloss's word vectors become one vector.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GlossPooling {
    /// Mean of the vectors of the header's lemma words.
    Lemma,
    /// Mean of the vectors of every word of the gloss text (the default:
    /// 46.8 against 31.6 F1 for `Lemma`, glosses alone on SemEval-2007).
    #[default]
    Mean,
}

/// Training parameters (recorded in the model header).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct KnnParams {
    /// Encoder folder the vectors come from.
    pub encoder: String,
    /// Vector width (the encoder's hidden size).
    pub hidden_size: usize,
    /// Which layer and word pooling (documentation: `last layer, mean of pieces`).
    pub layers: String,
    /// Gloss vectors for which synsets.
    pub gloss: GlossScope,
    /// Gloss pooling.
    pub gloss_pooling: GlossPooling,
    /// Keep every SemCor instance vector (for k > 1; large).
    pub keep_instances: bool,
    /// Training facts: documents, sentences, tagged tokens.
    pub documents: usize,
    /// Sentences encoded.
    pub sentences: usize,
    /// Sense-tagged tokens added to centroids.
    pub tagged_tokens: usize,
    /// The encoder's [`Encoder::fingerprint`] (empty in older models: not checked).
    #[serde(default)]
    pub encoder_fingerprint: String,
}

impl KnnParams {
    /// Default parameters for `encoder`.
    pub fn new(encoder: &Encoder) -> KnnParams {
        KnnParams {
            encoder: encoder.dir().display().to_string(),
            hidden_size: encoder.hidden_size(),
            layers: "last layer; word = mean of its WordPiece pieces".into(),
            gloss: GlossScope::All,
            gloss_pooling: GlossPooling::Mean,
            keep_instances: false,
            documents: 0,
            sentences: 0,
            tagged_tokens: 0,
            encoder_fingerprint: encoder.fingerprint().to_string(),
        }
    }
}

/// One synset's vectors.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The synset.
    pub synset: SynsetId,
    /// SemCor examples that went into `ctx`.
    pub count: u32,
    /// Centroid of the SemCor contexts (unit length), if seen.
    pub ctx: Option<Vec<f32>>,
    /// Gloss vector (unit length), if computed.
    pub gloss: Option<Vec<f32>>,
}

/// A trained kNN model: sense vectors per synset (+ optional instances).
#[derive(Clone, Debug, PartialEq)]
pub struct KnnModel {
    /// Training parameters.
    pub params: KnnParams,
    /// Vector width.
    pub dim: usize,
    /// Entries (any order).
    pub entries: Vec<Entry>,
    /// Instance vectors (entry index, unit vector), empty unless kept.
    pub instances: Vec<(u32, Vec<f32>)>,
}

/// Unit-length copy (zero vectors stay zero).
pub fn normalized(v: &[f32]) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if n > 0.0 {
        v.iter().map(|x| x / n).collect()
    } else {
        v.to_vec()
    }
}

/// Dot product (the cosine for unit vectors).
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Cosine similarity (0 when either vector is zero).
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let (na, nb) = (dot(a, a).sqrt(), dot(b, b).sqrt());
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot(a, b) / (na * nb)
    }
}

/// Index and score of the best of `scores` (`None` entries abstain); ties
/// go to the earlier (WordNet order: the more frequent sense).
pub fn argmax(scores: &[Option<f32>]) -> Option<(usize, f32)> {
    let mut best: Option<(usize, f32)> = None;
    for (i, s) in scores.iter().enumerate() {
        if let Some(s) = *s {
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((i, s));
            }
        }
    }
    best
}

fn pos_code(p: Pos) -> u8 {
    match p {
        Pos::Noun => 0,
        Pos::Verb => 1,
        Pos::Adj => 2,
        Pos::Adv => 3,
    }
}

fn pos_of(c: u8) -> Option<Pos> {
    Some(match c {
        0 => Pos::Noun,
        1 => Pos::Verb,
        2 => Pos::Adj,
        3 => Pos::Adv,
        _ => return None,
    })
}

/// The words a token is encoded as (`took_place` → `took place`).
fn word_text(t: &str) -> String {
    t.replace('_', " ")
}

/// The words of a document's sentences, as the encoder takes them.
pub fn sentence_words(doc: &Document) -> Vec<Vec<String>> {
    doc.sentences
        .iter()
        .map(|s| s.tokens.iter().map(|t| word_text(&t.text)).collect())
        .collect()
}

/// The gloss text of a synset as words, and the indices of the lemma words.
pub fn gloss_words(syn: &Synset) -> (Vec<String>, Vec<usize>) {
    let mut words = Vec::new();
    let mut lemma_at = Vec::new();
    for (i, w) in syn.words.iter().enumerate() {
        if i > 0 {
            words.push(",".to_string());
        }
        for part in w.lemma.split('_').filter(|p| !p.is_empty()) {
            lemma_at.push(words.len());
            words.push(part.to_string());
        }
    }
    words.push("-".to_string());
    let mut add = |text: &str| {
        for t in crate::text::tokenize(text) {
            words.push(t.text);
        }
    };
    add(&syn.definition);
    for e in &syn.examples {
        add(";");
        add(e);
    }
    (words, lemma_at)
}

/// Little-endian reader that never panics.
struct Reader<'a> {
    buf: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> std::result::Result<&'a [u8], String> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.buf.len())
            .ok_or_else(|| format!("body truncated at byte {} (wanted {n} more)", self.at))?;
        let s = &self.buf[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u8(&mut self) -> std::result::Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> std::result::Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn vec(&mut self, d: usize) -> std::result::Result<Vec<f32>, String> {
        let b = self.take(d.checked_mul(4).ok_or("vector too long")?)?;
        let v: Vec<f32> = b
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if v.iter().any(|x| !x.is_finite()) {
            return Err(format!(
                "non-finite value in a vector before byte {}",
                self.at
            ));
        }
        Ok(v)
    }
}

fn put_vec(out: &mut Vec<u8>, v: &[f32]) {
    for x in v {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

impl KnnModel {
    /// Train on `docs` (see the module doc). `progress(done, total)` counts
    /// sentences, then glosses (total = sentences + glosses).
    pub fn train(
        inv: &Inventory,
        encoder: &Encoder,
        docs: &[Document],
        mut params: KnnParams,
        progress: &dyn Fn(usize, usize),
    ) -> Result<KnnModel> {
        let d = encoder.hidden_size();
        params.hidden_size = d;
        params.encoder = encoder.dir().display().to_string();
        let sentences: Vec<(&Document, usize)> = docs
            .iter()
            .flat_map(|doc| (0..doc.sentences.len()).map(move |i| (doc, i)))
            .collect();
        // glosses in scope
        let gloss_synsets: Vec<&Synset> = match &params.gloss {
            GlossScope::None => Vec::new(),
            GlossScope::All => inv.synsets().iter().collect(),
            GlossScope::Lemmas(lemmas) => {
                let mut seen = std::collections::HashSet::new();
                let mut out = Vec::new();
                for l in lemmas {
                    for pos in [Pos::Noun, Pos::Verb, Pos::Adj, Pos::Adv] {
                        for s in candidates(inv, l, pos).iter() {
                            if seen.insert(s.synset) {
                                if let Some(syn) = inv.get(s.synset) {
                                    out.push(syn);
                                }
                            }
                        }
                    }
                }
                out
            }
        };
        let total = sentences.len() + gloss_synsets.len();
        let mut done = 0;
        progress(0, total);

        let mut index: HashMap<SynsetId, usize> = HashMap::new();
        let mut sums: Vec<(SynsetId, u32, Vec<f32>)> = Vec::new();
        let mut instances: Vec<(u32, Vec<f32>)> = Vec::new();
        let mut tagged = 0usize;
        for chunk in sentences.chunks(TRAIN_BATCH) {
            let words: Vec<Vec<String>> = chunk
                .iter()
                .map(|(doc, i)| {
                    doc.sentences[*i]
                        .tokens
                        .iter()
                        .map(|t| word_text(&t.text))
                        .collect()
                })
                .collect();
            let vectors = encoder.encode_words(&words);
            for ((doc, i), vecs) in chunk.iter().zip(vectors) {
                for (tok, v) in doc.sentences[*i].tokens.iter().zip(vecs) {
                    if tok.gold.is_empty() {
                        continue;
                    }
                    let mut any = false;
                    let unit = normalized(&v);
                    let mut ids: Vec<SynsetId> = Vec::new();
                    for key in &tok.gold {
                        if let Some((syn, _, _)) = inv.sense_by_key(key) {
                            if !ids.contains(&syn.id) {
                                ids.push(syn.id);
                            }
                        }
                    }
                    for id in ids {
                        let e = *index.entry(id).or_insert_with(|| {
                            sums.push((id, 0, vec![0.0; d]));
                            sums.len() - 1
                        });
                        let s = &mut sums[e];
                        s.1 += 1;
                        for (a, x) in s.2.iter_mut().zip(&unit) {
                            *a += x;
                        }
                        if params.keep_instances {
                            instances.push((e as u32, unit.clone()));
                        }
                        any = true;
                    }
                    if any {
                        tagged += 1;
                    }
                }
            }
            done += chunk.len();
            progress(done, total);
        }
        let mut entries: Vec<Entry> = sums
            .into_iter()
            .map(|(synset, count, sum)| Entry {
                synset,
                count,
                ctx: Some(normalized(&sum)),
                gloss: None,
            })
            .collect();
        for chunk in gloss_synsets.chunks(TRAIN_BATCH) {
            let texts: Vec<(Vec<String>, Vec<usize>)> =
                chunk.iter().map(|s| gloss_words(s)).collect();
            let words: Vec<Vec<String>> = texts.iter().map(|(w, _)| w.clone()).collect();
            let vectors = encoder.encode_words(&words);
            for ((syn, (_, lemma_at)), vecs) in chunk.iter().zip(&texts).zip(vectors) {
                let picked: Vec<&Vec<f32>> = match params.gloss_pooling {
                    GlossPooling::Lemma if !lemma_at.is_empty() => {
                        lemma_at.iter().filter_map(|&i| vecs.get(i)).collect()
                    }
                    _ => vecs.iter().collect(),
                };
                let mut sum = vec![0.0f32; d];
                for v in picked {
                    for (a, x) in sum.iter_mut().zip(v) {
                        *a += x;
                    }
                }
                let g = normalized(&sum);
                let e = *index.entry(syn.id).or_insert_with(|| {
                    entries.push(Entry {
                        synset: syn.id,
                        count: 0,
                        ctx: None,
                        gloss: None,
                    });
                    entries.len() - 1
                });
                entries[e].gloss = Some(g);
            }
            done += chunk.len();
            progress(done, total);
        }
        params.documents = docs.len();
        params.sentences = sentences.len();
        params.tagged_tokens = tagged;
        Ok(KnnModel {
            params,
            dim: d,
            entries,
            instances,
        })
    }

    /// The body bytes (see the module doc for the layout).
    pub fn to_bytes(&self) -> Vec<u8> {
        let d = self.dim;
        let mut out = Vec::with_capacity(16 + self.entries.len() * (10 + 8 * d));
        out.extend_from_slice(BODY_MAGIC);
        out.extend_from_slice(&BODY_VERSION.to_le_bytes());
        out.extend_from_slice(&(d as u32).to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        for e in &self.entries {
            out.push(pos_code(e.synset.pos));
            out.extend_from_slice(&e.synset.offset.to_le_bytes());
            let flags = if e.ctx.is_some() { HAS_CTX } else { 0 }
                | if e.gloss.is_some() { HAS_GLOSS } else { 0 };
            out.push(flags);
            out.extend_from_slice(&e.count.to_le_bytes());
            if let Some(v) = &e.ctx {
                put_vec(&mut out, v);
            }
            if let Some(v) = &e.gloss {
                put_vec(&mut out, v);
            }
        }
        out.extend_from_slice(&(self.instances.len() as u32).to_le_bytes());
        for (e, v) in &self.instances {
            out.extend_from_slice(&e.to_le_bytes());
            put_vec(&mut out, v);
        }
        out
    }

    /// Decode a body; `params` come from the header. Every inconsistency
    /// is an error message (the caller adds the path).
    pub fn from_bytes(params: KnnParams, body: &[u8]) -> std::result::Result<KnnModel, String> {
        let mut r = Reader { buf: body, at: 0 };
        if r.take(4)? != BODY_MAGIC {
            return Err("not a knn body (bad magic)".into());
        }
        let version = r.u32()?;
        if version != BODY_VERSION {
            return Err(format!(
                "knn body version {version}, this wsd reads {BODY_VERSION}"
            ));
        }
        let d = r.u32()? as usize;
        if d == 0 || d != params.hidden_size {
            return Err(format!(
                "body vectors have {d} dimensions, header says {}",
                params.hidden_size
            ));
        }
        let n = r.u32()? as usize;
        // each entry takes at least 10 bytes: refuse absurd counts before allocating
        if n > body.len() / 10 {
            return Err(format!(
                "entry count {n} does not fit a {}-byte body",
                body.len()
            ));
        }
        let mut entries = Vec::with_capacity(n);
        for _ in 0..n {
            let pos = pos_of(r.u8()?).ok_or("bad part of speech in an entry")?;
            let offset = r.u32()?;
            let flags = r.u8()?;
            if flags & !(HAS_CTX | HAS_GLOSS) != 0 {
                return Err(format!("bad entry flags {flags}"));
            }
            let count = r.u32()?;
            let ctx = if flags & HAS_CTX != 0 {
                Some(r.vec(d)?)
            } else {
                None
            };
            let gloss = if flags & HAS_GLOSS != 0 {
                Some(r.vec(d)?)
            } else {
                None
            };
            entries.push(Entry {
                synset: SynsetId { pos, offset },
                count,
                ctx,
                gloss,
            });
        }
        let m = r.u32()? as usize;
        if m > body.len() / (4 + 4 * d) {
            return Err(format!("instance count {m} does not fit the body"));
        }
        let mut instances = Vec::with_capacity(m);
        for _ in 0..m {
            let e = r.u32()?;
            if e as usize >= entries.len() {
                return Err(format!("instance points at entry {e} of {}", entries.len()));
            }
            instances.push((e, r.vec(d)?));
        }
        if r.at != body.len() {
            return Err(format!(
                "{} unexpected bytes after the instances",
                body.len() - r.at
            ));
        }
        Ok(KnnModel {
            params,
            dim: d,
            entries,
            instances,
        })
    }

    /// Write the model (method `knn`, this WordNet's checksum) atomically.
    pub fn save(&self, path: &Path, inv: &Inventory) -> Result<()> {
        let params = serde_json::to_value(&self.params).map_err(|e| Error::Other(e.to_string()))?;
        model_io::write_model(path, METHOD, inv.checksum()?, params, &self.to_bytes())?;
        Ok(())
    }

    /// Read a model written by [`KnnModel::save`] for this WordNet.
    pub fn load(path: &Path, inv: &Inventory) -> Result<KnnModel> {
        let (header, body) = model_io::read_model(path, METHOD, Some(inv.checksum()?))?;
        let err = |msg: String| Error::Model {
            path: path.to_path_buf(),
            msg,
        };
        let params: KnnParams = serde_json::from_value(header.params)
            .map_err(|e| err(format!("bad knn parameters in the header ({e})")))?;
        KnnModel::from_bytes(params, &body)
            .map_err(|m| err(format!("{m}; retrain with `wsd train --method knn`")))
    }
}

/// Prediction options (not part of the model: chosen at run time).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KnnOptions {
    /// Nearest instances that vote (1: nearest sense vector).
    pub k: usize,
    /// Weight of the gloss cosine when a synset has both vectors.
    pub gloss_weight: f32,
    /// Give unseen synsets their hypernyms' (or lexicographer file's)
    /// context vector.
    pub propagate: bool,
    /// Weight of a sense-frequency prior added to the cosine score:
    /// `prior · (tag_count + 1) / Σ(tag_count + 1)` over the candidates.
    pub prior: f32,
}

impl Default for KnnOptions {
    fn default() -> Self {
        KnnOptions {
            k: 1,
            gloss_weight: 0.3,
            propagate: true,
            prior: 0.1,
        }
    }
}

/// The kNN disambiguator: a model, the encoder it was built with, options.
pub struct Knn {
    model: KnnModel,
    encoder: Arc<Encoder>,
    options: KnnOptions,
    index: HashMap<SynsetId, usize>,
    /// Unit mean context vector per lexicographer file.
    lexfile: HashMap<u8, Vec<f32>>,
    /// Instances per entry.
    by_entry: Vec<Vec<usize>>,
}

impl std::fmt::Debug for Knn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Knn")
            .field("entries", &self.model.entries.len())
            .field("instances", &self.model.instances.len())
            .field("options", &self.options)
            .finish()
    }
}

impl Knn {
    /// Combine a model with its encoder. Errors when the encoder's hidden
    /// size differs from the model's vectors.
    pub fn new(
        model: KnnModel,
        encoder: Arc<Encoder>,
        inv: &Inventory,
        options: KnnOptions,
    ) -> Result<Knn> {
        if encoder.hidden_size() != model.dim {
            return Err(Error::Model {
                path: encoder.dir().to_path_buf(),
                msg: format!(
                    "this encoder makes {}-dimensional vectors but the knn model holds {}-dimensional ones (trained with the encoder at {}); pass that encoder with --encoder or retrain",
                    encoder.hidden_size(),
                    model.dim,
                    model.params.encoder
                ),
            });
        }
        let fp = &model.params.encoder_fingerprint;
        if !fp.is_empty() && fp != encoder.fingerprint() {
            return Err(Error::Model {
                path: encoder.dir().to_path_buf(),
                msg: format!(
                    "the knn model was trained with another encoder (at {}, fingerprint {}…; this one is {}…); pass that encoder with --encoder or retrain",
                    model.params.encoder,
                    &fp[..fp.len().min(12)],
                    &encoder.fingerprint()[..encoder.fingerprint().len().min(12)]
                ),
            });
        }
        if options.k > 1 && model.instances.is_empty() {
            return Err(Error::bad_parameter(
                "--k",
                options.k,
                "this knn model keeps no instance vectors; retrain with --keep-instances or use --k 1",
            ));
        }
        let index: HashMap<SynsetId, usize> = model
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.synset, i))
            .collect();
        let mut sums: HashMap<u8, Vec<f32>> = HashMap::new();
        for e in &model.entries {
            if let (Some(v), Some(syn)) = (&e.ctx, inv.get(e.synset)) {
                let s = sums
                    .entry(syn.lex_filenum)
                    .or_insert_with(|| vec![0.0; model.dim]);
                for (a, x) in s.iter_mut().zip(v) {
                    *a += x;
                }
            }
        }
        let lexfile = sums.into_iter().map(|(k, v)| (k, normalized(&v))).collect();
        let mut by_entry = vec![Vec::new(); model.entries.len()];
        for (i, (e, _)) in model.instances.iter().enumerate() {
            by_entry[*e as usize].push(i);
        }
        Ok(Knn {
            model,
            encoder,
            options,
            index,
            lexfile,
            by_entry,
        })
    }

    /// Load the model at `path` for the encoder (see [`KnnModel::load`], [`Knn::new`]).
    pub fn load(
        path: &Path,
        inv: &Inventory,
        encoder: Arc<Encoder>,
        options: KnnOptions,
    ) -> Result<Knn> {
        let model = KnnModel::load(path, inv)?;
        Knn::new(model, encoder, inv, options)
    }

    /// The model.
    pub fn model(&self) -> &KnnModel {
        &self.model
    }

    /// The options.
    pub fn options(&self) -> KnnOptions {
        self.options
    }

    /// Change the options.
    pub fn set_options(&mut self, options: KnnOptions) {
        self.options = options;
    }

    /// The context vector of a synset: its own, or (propagation) its
    /// hypernyms' mean up to three levels, or its lexicographer file's.
    fn context_vector(&self, inv: &Inventory, id: SynsetId) -> Option<Vec<f32>> {
        if let Some(v) = self
            .index
            .get(&id)
            .and_then(|&i| self.model.entries[i].ctx.as_ref())
        {
            return Some(v.clone());
        }
        if !self.options.propagate {
            return None;
        }
        let syn = inv.get(id)?;
        let mut frontier = vec![id];
        for _ in 0..3 {
            let mut next = Vec::new();
            for f in &frontier {
                if let Some(s) = inv.get(*f) {
                    next.extend(s.related(PointerKind::Hypernym));
                    next.extend(s.related(PointerKind::InstanceHypernym));
                }
            }
            let mut sum = vec![0.0f32; self.model.dim];
            let mut n = 0;
            for h in &next {
                if let Some(v) = self
                    .index
                    .get(h)
                    .and_then(|&i| self.model.entries[i].ctx.as_ref())
                {
                    for (a, x) in sum.iter_mut().zip(v) {
                        *a += x;
                    }
                    n += 1;
                }
            }
            if n > 0 {
                return Some(normalized(&sum));
            }
            if next.is_empty() {
                break;
            }
            frontier = next;
        }
        self.lexfile.get(&syn.lex_filenum).cloned()
    }

    /// Score of each candidate for the unit vector `v` (`None`: no vector).
    pub fn scores(&self, inv: &Inventory, v: &[f32], cands: &[Sense]) -> Vec<Option<f32>> {
        let w = self.options.gloss_weight;
        let total: f32 = cands.iter().map(|s| s.tag_count as f32 + 1.0).sum();
        let prior = |s: &Sense| self.options.prior * (s.tag_count as f32 + 1.0) / total;
        cands
            .iter()
            .map(|s| {
                let ctx = self.context_vector(inv, s.synset);
                let gloss = self
                    .index
                    .get(&s.synset)
                    .and_then(|&i| self.model.entries[i].gloss.as_ref());
                let cos = match (ctx, gloss) {
                    (Some(c), Some(g)) => (1.0 - w) * dot(v, &c) + w * dot(v, g),
                    (Some(c), None) => dot(v, &c),
                    (None, Some(g)) => dot(v, g),
                    (None, None) => return None,
                };
                Some(cos + prior(s))
            })
            .collect()
    }

    /// k-nearest-instance voting among the candidates; `None` when none of
    /// them has instances.
    fn vote(&self, v: &[f32], cands: &[Sense]) -> Option<(usize, f32)> {
        let mut near: Vec<(f32, usize)> = Vec::new();
        for (c, s) in cands.iter().enumerate() {
            if let Some(&e) = self.index.get(&s.synset) {
                for &i in &self.by_entry[e] {
                    near.push((dot(v, &self.model.instances[i].1), c));
                }
            }
        }
        if near.is_empty() {
            return None;
        }
        near.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut votes: Vec<Option<f32>> = vec![None; cands.len()];
        for &(s, c) in near.iter().take(self.options.k) {
            *votes[c].get_or_insert(0.0) += s;
        }
        let (best, _) = argmax(&votes)?;
        let top = near.iter().find(|(_, c)| *c == best).map(|x| x.0)?;
        Some((best, top))
    }

    /// Decide one target given its contextual vector.
    pub fn decide(&self, inv: &Inventory, vector: &[f32], cands: &[Sense]) -> Option<Prediction> {
        let v = normalized(vector);
        let best = if self.options.k > 1 && !self.model.instances.is_empty() {
            self.vote(&v, cands)
                .or_else(|| argmax(&self.scores(inv, &v, cands)))
        } else {
            argmax(&self.scores(inv, &v, cands))
        };
        let (i, score) = best?;
        Some(Prediction::decided(
            cands[i].key.clone(),
            METHOD,
            score as f64,
        ))
    }
}

impl Disambiguator for Knn {
    fn name(&self) -> &str {
        METHOD
    }

    fn disambiguate(
        &self,
        inv: &Inventory,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
    ) -> Option<Prediction> {
        let words: Vec<String> = doc.sentences[target.sentence]
            .tokens
            .iter()
            .map(|t| word_text(&t.text))
            .collect();
        let vecs = self.encoder.encode_words(&[words]);
        let v = vecs.first()?.get(target.token)?;
        self.decide(inv, v, candidates)
    }

    fn disambiguate_document(
        &self,
        inv: &Inventory,
        doc: &Document,
        targets: &[Candidates<'_>],
    ) -> Vec<Option<Prediction>> {
        if targets.is_empty() {
            return Vec::new();
        }
        // encode only the sentences that hold a target, all in one batch
        let mut wanted: Vec<usize> = targets.iter().map(|c| c.target.sentence).collect();
        wanted.sort_unstable();
        wanted.dedup();
        let words: Vec<Vec<String>> = wanted
            .iter()
            .map(|&i| {
                doc.sentences
                    .get(i)
                    .map(|s| s.tokens.iter().map(|t| word_text(&t.text)).collect())
                    .unwrap_or_default()
            })
            .collect();
        let vecs = self.encoder.encode_words(&words);
        targets
            .iter()
            .map(|c| {
                if c.senses.is_empty() {
                    return None;
                }
                let s = wanted.binary_search(&c.target.sentence).ok()?;
                let v = vecs.get(s)?.get(c.target.token)?;
                self.decide(inv, v, &c.senses)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(d: usize) -> KnnParams {
        KnnParams {
            encoder: "enc".into(),
            hidden_size: d,
            layers: "last".into(),
            gloss: GlossScope::None,
            gloss_pooling: GlossPooling::Lemma,
            keep_instances: true,
            documents: 1,
            sentences: 2,
            tagged_tokens: 3,
            encoder_fingerprint: String::new(),
        }
    }

    fn toy() -> KnnModel {
        KnnModel {
            params: params(3),
            dim: 3,
            entries: vec![
                Entry {
                    synset: SynsetId {
                        pos: Pos::Noun,
                        offset: 8420278,
                    },
                    count: 2,
                    ctx: Some(vec![1.0, 0.0, 0.0]),
                    gloss: Some(vec![0.0, 1.0, 0.0]),
                },
                Entry {
                    synset: SynsetId {
                        pos: Pos::Verb,
                        offset: 42,
                    },
                    count: 0,
                    ctx: None,
                    gloss: Some(vec![0.0, 0.0, 1.0]),
                },
                Entry {
                    synset: SynsetId {
                        pos: Pos::Adv,
                        offset: 7,
                    },
                    count: 1,
                    ctx: Some(vec![0.6, 0.8, 0.0]),
                    gloss: None,
                },
            ],
            instances: vec![(0, vec![1.0, 0.0, 0.0]), (2, vec![0.0, 1.0, 0.0])],
        }
    }

    #[test]
    fn body_round_trip() {
        let m = toy();
        let bytes = m.to_bytes();
        let back = KnnModel::from_bytes(m.params.clone(), &bytes).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn truncated_and_garbled_bodies_are_errors_not_panics() {
        let m = toy();
        let bytes = m.to_bytes();
        for n in 0..bytes.len() {
            assert!(
                KnnModel::from_bytes(m.params.clone(), &bytes[..n]).is_err(),
                "prefix of {n} bytes accepted"
            );
        }
        let mut extra = bytes.clone();
        extra.push(0);
        assert!(KnnModel::from_bytes(m.params.clone(), &extra).is_err());
        // every single-byte corruption either decodes or errors; none panics
        for i in 0..bytes.len() {
            for x in [0xffu8, 0x80, 0x01] {
                let mut b = bytes.clone();
                b[i] ^= x;
                let _ = KnnModel::from_bytes(m.params.clone(), &b);
            }
        }
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert!(KnnModel::from_bytes(m.params.clone(), &bad)
            .unwrap_err()
            .contains("magic"));
        // header/body width mismatch
        let e = KnnModel::from_bytes(params(4), &bytes).unwrap_err();
        assert!(e.contains("dimensions"), "{e}");
        // huge counts do not allocate
        let mut huge = bytes[..12].to_vec();
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        assert!(KnnModel::from_bytes(m.params.clone(), &huge).is_err());
    }

    #[test]
    fn cosine_and_argmax() {
        assert!((cosine(&[1.0, 0.0], &[1.0, 1.0]) - 0.70710677).abs() < 1e-6);
        assert_eq!(cosine(&[0.0, 0.0], &[1.0, 1.0]), 0.0);
        assert_eq!(normalized(&[3.0, 4.0]), vec![0.6, 0.8]);
        assert_eq!(
            argmax(&[None, Some(0.2), Some(0.9), Some(0.9)]),
            Some((2, 0.9))
        );
        assert_eq!(argmax(&[None, None]), None);
        assert_eq!(argmax(&[]), None);
        assert_eq!(argmax(&[Some(-0.5), None]), Some((0, -0.5)));
    }

    #[test]
    fn gloss_words_mark_the_lemmas() {
        let syn = Synset {
            id: SynsetId {
                pos: Pos::Noun,
                offset: 1,
            },
            ss_type: crate::wordnet::SynsetType::Noun,
            lex_filenum: 0,
            words: vec![
                crate::wordnet::Word {
                    lemma: "river_bank".into(),
                    lex_id: 0,
                    marker: None,
                },
                crate::wordnet::Word {
                    lemma: "bank".into(),
                    lex_id: 0,
                    marker: None,
                },
            ],
            pointers: vec![],
            frames: vec![],
            definition: "sloping land".into(),
            examples: vec!["he sat on the bank".into()],
        };
        let (w, at) = gloss_words(&syn);
        assert_eq!(
            w.join(" "),
            "river bank , bank - sloping land ; he sat on the bank"
        );
        assert_eq!(at, vec![0, 1, 3]);
    }
}
