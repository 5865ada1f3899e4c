//! Prediction: [`Knn`] scores each candidate sense by the cosine of the
//! target's contextual vector with the sense's context vector — its sense
//! key's own centroid when the model has one, else its synset's, else one
//! propagated from hypernyms or the lexicographer file — and its synset's
//! gloss vector, plus a sense-frequency prior; or lets the `k` nearest
//! training instances vote. Vectors are read as rows of [`Vectors`]'
//! matrices, in place from the mapped model file after [`Knn::load`].
//! The scoring itself lives in [`Core`], which training also uses to
//! answer its own instances with their document held out (calibration).

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use super::model::{KnnModel, Vectors};
use super::params::{KnnOptions, KnnParams};
use super::{argmax, dot, normalized, word_text, METHOD};
use crate::corpus::{Document, Target};
use crate::disambig::{
    scored, Calibration, Candidates, Disambiguator, Evidence, Exemplar, Prediction, RunnerUp,
    Scale, Weighted,
};
use crate::encoder::Encoder;
use crate::wordnet::{Inventory, PointerKind, Sense, SynsetId};
use crate::{Error, Result};

/// Which context vector scored a candidate (`--explain` names it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VectorSource {
    /// The centroid of the candidate's sense key (lemma-specific).
    SenseKey,
    /// The centroid of the candidate's synset.
    Synset,
    /// Borrowed from hypernyms or the lexicographer file.
    Propagated,
    /// No context vector: the gloss alone.
    Gloss,
}

impl VectorSource {
    /// How `--explain` names it.
    pub fn label(self) -> &'static str {
        match self {
            VectorSource::SenseKey => "sense key",
            VectorSource::Synset => "synset",
            VectorSource::Propagated => "propagated",
            VectorSource::Gloss => "gloss",
        }
    }
}

/// The held-out view of training (calibration, see `train.rs`): the raw
/// sums of the whole training data and those of one document, so that a
/// centroid without the document is `normalise(sum − doc_sum)` exactly.
pub(super) struct HeldOut<'a> {
    /// (count, raw sum) per entry of the model, in entry order (entries
    /// past its end have no context sum).
    pub(super) synsets: &'a [(u32, Vec<f32>)],
    /// (count, raw sum) per sense key, every key seen (not only those with
    /// a vector).
    pub(super) keys: &'a HashMap<String, (u32, Vec<f32>)>,
    /// The held-out document's sums per synset.
    pub(super) doc_synsets: &'a HashMap<SynsetId, (u32, Vec<f32>)>,
    /// The held-out document's sums per sense key.
    pub(super) doc_keys: &'a HashMap<String, (u32, Vec<f32>)>,
}

/// `a − b` (`a` when `b` is absent).
fn minus(a: &[f32], b: Option<&(u32, Vec<f32>)>) -> Vec<f32> {
    match b {
        Some((_, b)) => a.iter().zip(b).map(|(x, y)| x - y).collect(),
        None => a.to_vec(),
    }
}

/// The scoring of a model, without the encoder: vectors, the lookups
/// prediction needs, and the options.
pub(super) struct Core {
    pub(super) vectors: Vectors,
    pub(super) options: KnnOptions,
    index: HashMap<SynsetId, usize>,
    /// Row of [`Vectors::sense`] per sense key.
    sense_index: HashMap<String, usize>,
    /// Unit mean context vector per lexicographer file.
    lexfile: HashMap<u8, Vec<f32>>,
    /// Instances per entry.
    by_entry: Vec<Vec<usize>>,
}

impl Core {
    pub(super) fn new(model: Vectors, inv: &Inventory, options: KnnOptions) -> Core {
        let index: HashMap<SynsetId, usize> = model
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.synset, i))
            .collect();
        let sense_index = model
            .senses
            .iter()
            .enumerate()
            .map(|(i, s)| (s.key.clone(), i))
            .collect();
        let mut sums: HashMap<u8, Vec<f32>> = HashMap::new();
        for (i, e) in model.entries.iter().enumerate() {
            if let (Some(v), Some(syn)) = (model.ctx(i), inv.get(e.synset)) {
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
        for (i, e) in model.instance_entry.iter().enumerate() {
            by_entry[*e as usize].push(i);
        }
        Core {
            vectors: model,
            options,
            index,
            sense_index,
            lexfile,
            by_entry,
        }
    }

    /// The SemCor centroid of a synset (unit length) and its instance count.
    fn centroid(&self, id: SynsetId) -> Option<(&[f32], u32)> {
        let &i = self.index.get(&id)?;
        Some((self.vectors.ctx(i)?, self.vectors.entries[i].count))
    }

    /// The centroid of a sense key (unit length) and its instance count,
    /// when the key had enough instances for a vector of its own.
    fn sense_centroid(&self, key: &str) -> Option<(&[f32], u32)> {
        let &r = self.sense_index.get(key)?;
        Some((self.vectors.sense.row(r), self.vectors.senses[r].count))
    }

    /// A context vector borrowed for an unseen synset: its hypernyms'
    /// mean up to three levels, or its lexicographer file's.
    fn propagated(&self, inv: &Inventory, id: SynsetId) -> Option<Cow<'_, [f32]>> {
        self.propagated_by(inv, id, &|h| {
            self.centroid(h).map(|(v, _)| Cow::Borrowed(v))
        })
    }

    /// [`Core::propagated`] with the synsets' centroids read through
    /// `centroid`: the one propagation walk, shared by prediction (the
    /// model's centroids) and `ens` (centroids with a held-out document
    /// taken out, see [`Knn::context_vector_by`]). The lexicographer
    /// file's mean is not read through `centroid`.
    fn propagated_by<'s>(
        &'s self,
        inv: &Inventory,
        id: SynsetId,
        centroid: &dyn Fn(SynsetId) -> Option<Cow<'s, [f32]>>,
    ) -> Option<Cow<'s, [f32]>> {
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
            let mut sum = vec![0.0f32; self.vectors.dim];
            let mut n = 0;
            for h in &next {
                if let Some(v) = centroid(*h) {
                    for (a, x) in sum.iter_mut().zip(v.iter()) {
                        *a += x;
                    }
                    n += 1;
                }
            }
            if n > 0 {
                return Some(Cow::Owned(normalized(&sum)));
            }
            if next.is_empty() {
                break;
            }
            frontier = next;
        }
        self.lexfile
            .get(&syn.lex_filenum)
            .map(|v| Cow::Borrowed(v.as_slice()))
    }

    /// The context vector of a candidate and where it came from: its sense
    /// key's centroid, else its synset's, else a propagated one.
    fn context_of(&self, inv: &Inventory, s: &Sense) -> Option<(Cow<'_, [f32]>, VectorSource)> {
        if let Some(&r) = self.sense_index.get(&s.key) {
            return Some((
                Cow::Borrowed(self.vectors.sense.row(r)),
                VectorSource::SenseKey,
            ));
        }
        if let Some((v, _)) = self.centroid(s.synset) {
            return Some((Cow::Borrowed(v), VectorSource::Synset));
        }
        self.propagated(inv, s.synset)
            .map(|v| (v, VectorSource::Propagated))
    }

    /// [`Core::context_of`] with one document held out: the centroids the
    /// document contributed to are recomputed without it; a sense key left
    /// with fewer than `sense_min` instances, or a synset with none, falls
    /// back as prediction would. (Propagated vectors and the prior still
    /// include the document: a small, stated optimism.)
    fn context_held_out(
        &self,
        inv: &Inventory,
        s: &Sense,
        h: &HeldOut<'_>,
    ) -> Option<(Cow<'_, [f32]>, VectorSource)> {
        let min = self.vectors.params.sense_min;
        if min > 0 {
            if let Some((n, sum)) = h.keys.get(&s.key) {
                let d = h.doc_keys.get(&s.key);
                let left = n - d.map_or(0, |x| x.0);
                if left >= min {
                    let diff = minus(sum, d);
                    return Some((Cow::Owned(normalized(&diff)), VectorSource::SenseKey));
                }
            }
        }
        if let Some(&e) = self.index.get(&s.synset) {
            if let Some((n, sum)) = h.synsets.get(e).filter(|x| x.0 > 0) {
                let d = h.doc_synsets.get(&s.synset);
                let left = n - d.map_or(0, |x| x.0);
                if left > 0 {
                    let diff = minus(sum, d);
                    return Some((Cow::Owned(normalized(&diff)), VectorSource::Synset));
                }
                return self
                    .propagated(inv, s.synset)
                    .map(|v| (v, VectorSource::Propagated));
            }
        }
        self.context_of(inv, s)
    }

    /// Cosine scores (+ prior) of `cands` for the unit vector `v`, given
    /// each candidate's context vector.
    fn combine(
        &self,
        v: &[f32],
        cands: &[Sense],
        ctx: Vec<Option<(Cow<'_, [f32]>, VectorSource)>>,
    ) -> Vec<Option<f32>> {
        let w = self.options.gloss_weight;
        let total: f32 = cands.iter().map(|s| s.tag_count as f32 + 1.0).sum();
        let prior = |s: &Sense| self.options.prior * (s.tag_count as f32 + 1.0) / total;
        cands
            .iter()
            .zip(ctx)
            .map(|(s, ctx)| {
                let gloss = self
                    .index
                    .get(&s.synset)
                    .and_then(|&i| self.vectors.gloss(i));
                let cos = match (ctx, gloss) {
                    (Some((c, _)), Some(g)) => (1.0 - w) * dot(v, &c) + w * dot(v, g),
                    (Some((c, _)), None) => dot(v, &c),
                    (None, Some(g)) => dot(v, g),
                    (None, None) => return None,
                };
                Some(cos + prior(s))
            })
            .collect()
    }

    pub(super) fn scores(&self, inv: &Inventory, v: &[f32], cands: &[Sense]) -> Vec<Option<f32>> {
        let ctx = cands.iter().map(|s| self.context_of(inv, s)).collect();
        self.combine(v, cands, ctx)
    }

    /// The centroid answer for the unit vector `v` with the document of
    /// `h` held out (training's calibration samples).
    pub(super) fn decide_held_out(
        &self,
        inv: &Inventory,
        v: &[f32],
        cands: &[Sense],
        h: &HeldOut<'_>,
    ) -> Option<Prediction> {
        let ctx = cands
            .iter()
            .map(|s| self.context_held_out(inv, s, h))
            .collect();
        centroid_answer(cands, self.combine(v, cands, ctx))
    }

    /// The training instances of the candidates by cosine with `v`,
    /// nearest first: (cosine, candidate index, instance row).
    fn nearest(&self, v: &[f32], cands: &[Sense]) -> Vec<(f32, usize, usize)> {
        let mut near: Vec<(f32, usize, usize)> = Vec::new();
        for (c, s) in cands.iter().enumerate() {
            if let Some(&e) = self.index.get(&s.synset) {
                for &i in &self.by_entry[e] {
                    near.push((dot(v, self.vectors.instances.row(i)), c, i));
                }
            }
        }
        near.sort_by(|a, b| b.0.total_cmp(&a.0));
        near
    }

    /// The model's calibration as a table, when it fits the options.
    pub(super) fn calibration(&self) -> Option<Calibration> {
        let c = self.vectors.calibration.as_ref()?;
        let voting = self.options.k > 1 && self.vectors.instances.rows() > 0;
        (!voting && c.fits(&self.options))
            .then(|| Calibration::single(METHOD, "method", c.blocks.clone()))
    }
}

/// The prediction of centroid scores: the best candidate, the scores
/// normalised at [`TEMPERATURE`].
fn centroid_answer(cands: &[Sense], scores: Vec<Option<f32>>) -> Option<Prediction> {
    let (i, s) = argmax(&scores)?;
    let scores: Vec<Option<f64>> = scores.iter().map(|s| s.map(f64::from)).collect();
    Some(
        Prediction::decided(cands[i].key.clone(), METHOD, s as f64)
            .with_scores(scored(cands, &scores), Scale::Tempered(TEMPERATURE)),
    )
}

/// The kNN disambiguator: a model, the encoder it was built with, options.
pub struct Knn {
    core: Core,
    encoder: Arc<Encoder>,
}

impl std::fmt::Debug for Knn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Knn")
            .field("entries", &self.core.vectors.entries.len())
            .field("senses", &self.core.vectors.senses.len())
            .field("instances", &self.core.vectors.instance_entry.len())
            .field("mapped", &self.core.vectors.is_mapped())
            .field("options", &self.core.options)
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
        Knn::with_vectors(Vectors::from_model(&model), encoder, inv, options)
    }

    fn with_vectors(
        model: Vectors,
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
        if options.k > 1 && model.instance_entry.is_empty() {
            return Err(Error::bad_parameter(
                "--k",
                options.k,
                "this knn model keeps no instance vectors; retrain with --keep-instances or use --k 1",
            ));
        }
        Ok(Knn {
            core: Core::new(model, inv, options),
            encoder,
        })
    }

    /// Load the model at `path` for the encoder (checked as
    /// [`KnnModel::load`] checks it, see [`Knn::new`]). The file is
    /// memory-mapped and its vectors are read in place, not copied.
    pub fn load(
        path: &Path,
        inv: &Inventory,
        encoder: Arc<Encoder>,
        options: KnnOptions,
    ) -> Result<Knn> {
        let vectors = super::codec::map(path, inv)?;
        Knn::with_vectors(vectors, encoder, inv, options)
    }

    /// The training parameters of the model.
    pub fn params(&self) -> &KnnParams {
        &self.core.vectors.params
    }

    /// An owned copy of the model.
    pub fn model(&self) -> KnnModel {
        self.core.vectors.to_model()
    }

    /// Whether the vectors are read in place from a memory-mapped model
    /// file (true after [`Knn::load`] on a little-endian machine).
    pub fn is_mapped(&self) -> bool {
        self.core.vectors.is_mapped()
    }

    /// The options.
    pub fn options(&self) -> KnnOptions {
        self.core.options
    }

    /// Change the options.
    pub fn set_options(&mut self, options: KnnOptions) {
        self.core.options = options;
    }

    /// The model's own calibration (fitted at training time), if it has
    /// one; [`Disambiguator::calibration`] gives it as a table only for
    /// the options it was fitted with.
    pub fn own_calibration(&self) -> Option<&super::KnnCalibration> {
        self.core.vectors.calibration.as_ref()
    }

    /// Which vector scores candidate `sense` (`None`: no context vector).
    pub fn vector_source(&self, inv: &Inventory, sense: &Sense) -> Option<VectorSource> {
        self.core.context_of(inv, sense).map(|(_, s)| s)
    }

    /// The SemCor centroid of a synset (unit length) and how many tagged
    /// instances went into it; `None` when SemCor did not tag it.
    pub fn centroid(&self, id: SynsetId) -> Option<(&[f32], u32)> {
        self.core.centroid(id)
    }

    /// The centroid of a sense key (unit length) and how many tagged
    /// instances went into it; `None` when the model has no vector for the
    /// key (fewer than `params().sense_min` instances, or a format 2
    /// model). Prediction prefers it to the synset's ([`Knn::scores`]).
    pub fn sense_centroid(&self, key: &str) -> Option<(&[f32], u32)> {
        self.core.sense_centroid(key)
    }

    /// The gloss vector of a synset (unit length), if the model has one.
    pub fn gloss_vector(&self, id: SynsetId) -> Option<&[f32]> {
        self.core
            .index
            .get(&id)
            .and_then(|&i| self.core.vectors.gloss(i))
    }

    /// The synset part of the context vector [`Knn::scores`] uses (the
    /// sense key's vector, tried first there, is [`Knn::sense_centroid`]),
    /// with the synsets' own centroids read through `centroid`, so that a
    /// caller can take a document's contribution out of every centroid
    /// the propagation reads (`ens`'s leave-one-document-out features).
    /// The flag is true when the vector is the synset's own centroid,
    /// false when propagated (hypernyms' mean up to three levels, else
    /// the lexicographer file's mean, which `centroid` does not adjust).
    pub fn context_vector_by<'s>(
        &'s self,
        inv: &Inventory,
        id: SynsetId,
        centroid: &dyn Fn(SynsetId) -> Option<Cow<'s, [f32]>>,
    ) -> Option<(Cow<'s, [f32]>, bool)> {
        if let Some(v) = centroid(id) {
            return Some((v, true));
        }
        self.core
            .propagated_by(inv, id, centroid)
            .map(|v| (v, false))
    }

    /// The encoder the model was trained with.
    pub fn encoder(&self) -> &Arc<Encoder> {
        &self.encoder
    }

    /// The contextual vector of each target of `doc` (not normalised), as
    /// prediction computes it: the sentences holding a target encoded in
    /// one batch with the model's layer pooling. `None` for a target whose
    /// sentence or token is out of range.
    pub fn target_vectors(
        &self,
        doc: &Document,
        targets: &[Candidates<'_>],
    ) -> Vec<Option<Vec<f32>>> {
        if targets.is_empty() {
            return Vec::new();
        }
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
        let mut vecs = self
            .encoder
            .encode_words_summed(&words, self.core.vectors.params.pooled_layers);
        targets
            .iter()
            .map(|c| {
                let s = wanted.binary_search(&c.target.sentence).ok()?;
                let row = vecs.get_mut(s)?;
                row.get_mut(c.target.token).map(std::mem::take)
            })
            .collect()
    }

    /// Score of each candidate for the unit vector `v` (`None`: no vector):
    /// `(1 − w)·cos(v, ctx) + w·cos(v, gloss) + prior`, `ctx` the sense
    /// key's vector if the model has one, else the synset's, else a
    /// propagated one.
    pub fn scores(&self, inv: &Inventory, v: &[f32], cands: &[Sense]) -> Vec<Option<f32>> {
        self.core.scores(inv, v, cands)
    }

    /// k-nearest-instance voting among the candidates; `None` when none of
    /// them has instances. Returns the winner, its nearest cosine and the
    /// votes.
    fn vote(&self, v: &[f32], cands: &[Sense]) -> Option<(usize, f32, Vec<Option<f32>>)> {
        let near = self.core.nearest(v, cands);
        if near.is_empty() {
            return None;
        }
        let mut votes: Vec<Option<f32>> = vec![None; cands.len()];
        for &(s, c, _) in near.iter().take(self.core.options.k) {
            *votes[c].get_or_insert(0.0) += s;
        }
        let (best, _) = argmax(&votes)?;
        let top = near.iter().find(|(_, c, _)| *c == best).map(|x| x.0)?;
        Some((best, top, votes))
    }

    fn voting(&self) -> bool {
        self.core.options.k > 1 && self.core.vectors.instances.rows() > 0
    }

    /// Decide one target given its contextual vector. The prediction's
    /// scores are the candidates' (cosine + prior), normalised at
    /// [`TEMPERATURE`], or with `k > 1` the cosine-weighted votes.
    pub fn decide(&self, inv: &Inventory, vector: &[f32], cands: &[Sense]) -> Option<Prediction> {
        let v = normalized(vector);
        if self.voting() {
            if let Some((i, top, votes)) = self.vote(&v, cands) {
                let votes: Vec<Option<f64>> = votes.iter().map(|s| s.map(f64::from)).collect();
                return Some(
                    Prediction::decided(cands[i].key.clone(), METHOD, top as f64)
                        .with_scores(scored(cands, &votes), Scale::Share),
                );
            }
        }
        centroid_answer(cands, self.core.scores(inv, &v, cands))
    }

    /// The evidence for choosing `key` for the vector `vector`: the
    /// nearest training instances and their sentences (with `k > 1`),
    /// else which vector scored the chosen sense, the cosines, the
    /// training sentences nearest that vector, and the same for the
    /// runner-up.
    pub fn evidence(
        &self,
        inv: &Inventory,
        vector: &[f32],
        cands: &[Sense],
        key: &str,
    ) -> Option<Evidence> {
        let v = normalized(vector);
        let vs = &self.core.vectors;
        if self.voting() {
            let near = self.core.nearest(&v, cands);
            if !near.is_empty() {
                let top = &near[..near.len().min(self.core.options.k)];
                let sentences: Vec<Exemplar> = if vs.instance_sentences.is_empty() {
                    Vec::new()
                } else {
                    top.iter()
                        .filter_map(|&(_, _, r)| vs.instance_sentences.get(r))
                        .filter_map(|&i| vs.sentences.get(i as usize).cloned())
                        .collect()
                };
                return Some(Evidence::Neighbours {
                    neighbours: top
                        .iter()
                        .map(|&(c, i, _)| Weighted::new(cands[i].key.clone(), c as f64))
                        .collect(),
                    sentences,
                });
            }
        }
        let chosen = cands.iter().position(|c| c.key == key)?;
        let scores = self.core.scores(inv, &v, cands);
        let runner = scores
            .iter()
            .enumerate()
            .filter(|&(i, s)| i != chosen && s.is_some())
            .max_by(|a, b| a.1.unwrap_or(f32::MIN).total_cmp(&b.1.unwrap_or(f32::MIN)))
            .map(|(i, _)| i);
        let (source, examples, cosine, sentences) = self.described(inv, &v, &cands[chosen]);
        let gloss = self
            .core
            .index
            .get(&cands[chosen].synset)
            .and_then(|&i| vs.gloss(i));
        Some(Evidence::SenseVector {
            source: source.label().to_string(),
            examples,
            cosine,
            gloss_cosine: gloss.map(|g| dot(&v, g) as f64),
            sentences,
            runner_up: runner.map(|r| {
                let (source, _, cosine, sentences) = self.described(inv, &v, &cands[r]);
                RunnerUp {
                    key: cands[r].key.clone(),
                    source: source.label().to_string(),
                    cosine,
                    sentences,
                }
            }),
        })
    }

    /// Which vector scores `sense`, its example count, its cosine with
    /// `v` and its exemplar sentences.
    fn described(
        &self,
        inv: &Inventory,
        v: &[f32],
        sense: &Sense,
    ) -> (VectorSource, u32, Option<f64>, Vec<Exemplar>) {
        let vs = &self.core.vectors;
        match self.core.context_of(inv, sense) {
            None => (VectorSource::Gloss, 0, None, Vec::new()),
            Some((c, src)) => {
                let cos = Some(dot(v, &c) as f64);
                let (n, ex) = match src {
                    VectorSource::SenseKey => {
                        let s = &vs.senses[self.core.sense_index[&sense.key]];
                        (s.count, vs.exemplars(&s.exemplars))
                    }
                    VectorSource::Synset => {
                        let e = self.core.index[&sense.synset];
                        (vs.entries[e].count, vs.exemplars(&vs.entry_exemplars[e]))
                    }
                    _ => (0, Vec::new()),
                };
                (src, n, cos, ex)
            }
        }
    }
}

/// Softmax temperature of kNN's scores: the cosines of one target with
/// its candidates' vectors differ by hundredths, so at temperature 1 every
/// distribution would be nearly uniform; at 0.05 a lead of 0.1 in cosine
/// is a factor e² ≈ 7.4. Only the spread of the normalised probabilities
/// depends on it, not the ranking.
pub const TEMPERATURE: f64 = 0.05;

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
        let vecs = self
            .encoder
            .encode_words_summed(&[words], self.core.vectors.params.pooled_layers);
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
        // the sentences that hold a target, encoded in one batch
        let vecs = self.target_vectors(doc, targets);
        targets
            .iter()
            .zip(vecs)
            .map(|(c, v)| {
                if c.senses.is_empty() {
                    return None;
                }
                self.decide(inv, &v?, &c.senses)
            })
            .collect()
    }

    fn explain(
        &self,
        inv: &Inventory,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
        prediction: &Prediction,
    ) -> Option<Evidence> {
        let words: Vec<String> = doc
            .sentences
            .get(target.sentence)?
            .tokens
            .iter()
            .map(|t| word_text(&t.text))
            .collect();
        // the same pooling as the answer was given with
        let vecs = self
            .encoder
            .encode_words_summed(&[words], self.core.vectors.params.pooled_layers);
        let v = vecs.first()?.get(target.token)?;
        self.evidence(inv, v, candidates, &prediction.key)
    }

    /// The model's own calibration, when it has one and the options are
    /// those it was fitted with.
    fn calibration(&self) -> Option<Calibration> {
        self.core.calibration()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::disambig::calibration::Block;
    use crate::disambig::knn::{Entry, KnnCalibration, SenseEntry};
    use crate::wordnet::Pos;

    fn inventory() -> Inventory {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        Inventory::open(Some(&root.join("wordnet/dict"))).expect("wordnet/dict")
    }

    fn params() -> KnnParams {
        serde_json::from_value(serde_json::json!({
            "encoder": "enc", "hidden_size": 3, "layers": "last",
            "gloss": "none", "gloss_pooling": "mean", "keep_instances": false,
            "documents": 1, "sentences": 1, "tagged_tokens": 1, "sense_min": 2
        }))
        .unwrap()
    }

    /// A model of bank's first two noun senses: both with a synset
    /// centroid, the first with a gloss vector; optionally a sense-key
    /// vector for the first.
    fn model(inv: &Inventory, sense_key: bool) -> (KnnModel, Vec<Sense>) {
        let cands = inv.senses("bank", Pos::Noun)[..2].to_vec();
        let entry = |s: &Sense, ctx: Vec<f32>, gloss: Option<Vec<f32>>| Entry {
            synset: s.synset,
            count: 3,
            ctx: Some(ctx),
            gloss,
            exemplars: vec![],
        };
        let m = KnnModel {
            params: params(),
            dim: 3,
            entries: vec![
                entry(&cands[0], vec![1.0, 0.0, 0.0], Some(vec![0.0, 1.0, 0.0])),
                entry(&cands[1], vec![0.0, 0.0, 1.0], None),
            ],
            senses: if sense_key {
                vec![SenseEntry {
                    key: cands[0].key.clone(),
                    count: 2,
                    ctx: vec![0.0, 0.0, 1.0],
                    exemplars: vec![],
                }]
            } else {
                vec![]
            },
            instances: vec![],
            instance_sentences: vec![],
            sentences: vec![],
            calibration: None,
        };
        (m, cands)
    }

    fn core(m: &KnnModel, inv: &Inventory) -> Core {
        Core::new(Vectors::from_model(m), inv, KnnOptions::default())
    }

    #[test]
    fn without_sense_keys_scores_are_the_synset_formula() {
        let inv = inventory();
        let (m, cands) = model(&inv, false);
        let c = core(&m, &inv);
        let v = normalized(&[1.0, 1.0, 0.5]);
        let o = KnnOptions::default();
        let total: f32 = cands.iter().map(|s| s.tag_count as f32 + 1.0).sum();
        let prior = |s: &Sense| o.prior * (s.tag_count as f32 + 1.0) / total;
        let want0 = (1.0 - o.gloss_weight) * v[0] + o.gloss_weight * v[1] + prior(&cands[0]);
        let want1 = v[2] + prior(&cands[1]);
        let got = c.scores(&inv, &v, &cands);
        assert!((got[0].unwrap() - want0).abs() < 1e-6, "{got:?}");
        assert!((got[1].unwrap() - want1).abs() < 1e-6, "{got:?}");
        assert_eq!(
            c.context_of(&inv, &cands[0]).map(|x| x.1),
            Some(VectorSource::Synset)
        );
    }

    #[test]
    fn a_sense_key_vector_replaces_its_synsets() {
        let inv = inventory();
        let (m, cands) = model(&inv, true);
        let c = core(&m, &inv);
        let v = normalized(&[1.0, 1.0, 0.5]);
        let o = KnnOptions::default();
        let total: f32 = cands.iter().map(|s| s.tag_count as f32 + 1.0).sum();
        let prior = o.prior * (cands[0].tag_count as f32 + 1.0) / total;
        // the key's vector is [0, 0, 1]: cos v[2], the gloss stays the synset's
        let want0 = (1.0 - o.gloss_weight) * v[2] + o.gloss_weight * v[1] + prior;
        let got = c.scores(&inv, &v, &cands);
        assert!((got[0].unwrap() - want0).abs() < 1e-6, "{got:?}");
        assert_eq!(
            c.context_of(&inv, &cands[0]).map(|x| x.1),
            Some(VectorSource::SenseKey)
        );
        // another lemma of the same synset has no key vector: the synset's
        let other = Sense {
            key: "depository_financial_institution%1:14:00::".into(),
            ..cands[0].clone()
        };
        assert_eq!(
            c.context_of(&inv, &other).map(|x| x.1),
            Some(VectorSource::Synset)
        );
    }

    #[test]
    fn propagation_reads_centroids_through_the_callers_lookup() {
        let inv = inventory();
        let (m, cands) = model(&inv, false);
        let c = core(&m, &inv);
        // an unseen synset whose hypernym is the first candidate's
        let parent = cands[0].synset;
        let child = inv
            .get(parent)
            .unwrap()
            .related(PointerKind::Hyponym)
            .find(|h| {
                inv.get(*h).is_some_and(|s| {
                    let up: Vec<SynsetId> = s.related(PointerKind::Hypernym).collect();
                    up == [parent]
                })
            })
            .expect("a hyponym of bank with that one hypernym");
        assert!(c.centroid(child).is_none());
        let own = c.propagated(&inv, child).unwrap();
        assert!((own[0] - 1.0).abs() < 1e-6, "{own:?}");
        // the same walk over another lookup reads the lookup's vectors
        let other = [0.0f32, 1.0, 0.0];
        let swapped = c
            .propagated_by(&inv, child, &|h| {
                (h == parent).then_some(Cow::Borrowed(&other[..]))
            })
            .unwrap();
        assert!((swapped[1] - 1.0).abs() < 1e-6, "{swapped:?}");
    }

    #[test]
    fn holding_a_document_out_removes_it_from_the_centroids() {
        let inv = inventory();
        let (m, cands) = model(&inv, true);
        let c = core(&m, &inv);
        let d = 3;
        // raw sums: synset 0 from three instances, its key from two
        let synsets = vec![(3, vec![2.0, 0.5, 0.0]), (1, vec![0.0, 0.0, 1.0])];
        let mut keys = HashMap::new();
        keys.insert(cands[0].key.clone(), (2u32, vec![0.0, 0.5, 1.0]));
        // the held-out document holds one instance of the key ([0, 0, 1])
        // and the only instance of synset 1
        let mut doc_synsets = HashMap::new();
        doc_synsets.insert(cands[0].synset, (1u32, vec![0.0, 0.0, 1.0]));
        doc_synsets.insert(cands[1].synset, (1u32, vec![0.0, 0.0, 1.0]));
        let mut doc_keys = HashMap::new();
        doc_keys.insert(cands[0].key.clone(), (1u32, vec![0.0, 0.0, 1.0]));
        let h = HeldOut {
            synsets: &synsets,
            keys: &keys,
            doc_synsets: &doc_synsets,
            doc_keys: &doc_keys,
        };
        // one key instance is left (< sense_min 2): the synset's centroid
        // without the document, [2, 0.5, -1] normalised
        let (v0, src0) = c.context_held_out(&inv, &cands[0], &h).unwrap();
        assert_eq!(src0, VectorSource::Synset);
        let want = normalized(&[2.0, 0.5, -1.0]);
        assert!(v0.iter().zip(&want).all(|(a, b)| (a - b).abs() < 1e-6));
        // synset 1 had only this document: propagated as if unseen
        let (_, src1) = c.context_held_out(&inv, &cands[1], &h).unwrap();
        assert_eq!(src1, VectorSource::Propagated);
        assert_eq!(v0.len(), d);
        // with nothing held out, the model's own vectors
        let (no_synsets, no_keys) = (HashMap::new(), HashMap::new());
        let none = HeldOut {
            synsets: &synsets,
            keys: &keys,
            doc_synsets: &no_synsets,
            doc_keys: &no_keys,
        };
        let (v, src) = c.context_held_out(&inv, &cands[0], &none).unwrap();
        assert_eq!(src, VectorSource::SenseKey);
        let want = normalized(&[0.0, 0.5, 1.0]);
        assert!(v.iter().zip(&want).all(|(a, b)| (a - b).abs() < 1e-6));
    }

    #[test]
    fn the_models_calibration_holds_for_its_options_only() {
        let inv = inventory();
        let (mut m, _) = model(&inv, false);
        assert!(core(&m, &inv).calibration().is_none());
        let o = KnnOptions::default();
        m.calibration = Some(KnnCalibration {
            gloss_weight: o.gloss_weight,
            prior: o.prior,
            propagate: o.propagate,
            held_out: "document".into(),
            samples: 100,
            accuracy: 0.5,
            blocks: vec![Block {
                p: 0.5,
                accuracy: 0.5,
                count: 100,
            }],
        });
        let mut c = core(&m, &inv);
        let table = c.calibration().expect("default options: calibrated");
        assert_eq!(table.calibrate(METHOD, "method", 0.9), Some(0.5));
        c.options.prior = 0.2;
        assert!(c.calibration().is_none(), "another prior: not calibrated");
        c.options = KnnOptions {
            gloss_weight: 0.5,
            ..o
        };
        assert!(c.calibration().is_none());
    }
}
