//! Prediction: [`Knn`] scores each candidate synset by the cosine of the
//! target's contextual vector with the synset's context and gloss vectors
//! (propagated from hypernyms or the lexicographer file when unseen), plus a
//! sense-frequency prior; or lets the `k` nearest training instances vote.
//! Vectors are read as rows of [`Vectors`]' matrices, in place from the
//! mapped model file after [`Knn::load`].

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use super::model::{KnnModel, Vectors};
use super::params::{KnnOptions, KnnParams};
use super::{argmax, dot, normalized, word_text, METHOD};
use crate::corpus::{Document, Target};
use crate::disambig::{scored, Candidates, Disambiguator, Evidence, Prediction, Scale, Weighted};
use crate::encoder::Encoder;
use crate::wordnet::{Inventory, PointerKind, Sense, SynsetId};
use crate::{Error, Result};

/// The kNN disambiguator: a model, the encoder it was built with, options.
pub struct Knn {
    vectors: Vectors,
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
            .field("entries", &self.vectors.entries.len())
            .field("instances", &self.vectors.instance_entry.len())
            .field("mapped", &self.vectors.is_mapped())
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
        let index: HashMap<SynsetId, usize> = model
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.synset, i))
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
        Ok(Knn {
            vectors: model,
            encoder,
            options,
            index,
            lexfile,
            by_entry,
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
        &self.vectors.params
    }

    /// An owned copy of the model.
    pub fn model(&self) -> KnnModel {
        self.vectors.to_model()
    }

    /// Whether the vectors are read in place from a memory-mapped model
    /// file (true after [`Knn::load`] on a little-endian machine).
    pub fn is_mapped(&self) -> bool {
        self.vectors.is_mapped()
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
    fn context_vector(&self, inv: &Inventory, id: SynsetId) -> Option<Cow<'_, [f32]>> {
        self.context_vector_by(inv, id, &|s| {
            self.centroid(s).map(|(v, _)| Cow::Borrowed(v))
        })
        .map(|(v, _)| v)
    }

    /// The SemCor centroid of a synset (unit length) and how many tagged
    /// instances went into it; `None` when SemCor did not tag it.
    pub fn centroid(&self, id: SynsetId) -> Option<(&[f32], u32)> {
        let &i = self.index.get(&id)?;
        Some((self.vectors.ctx(i)?, self.vectors.entries[i].count))
    }

    /// The gloss vector of a synset (unit length), if the model has one.
    pub fn gloss_vector(&self, id: SynsetId) -> Option<&[f32]> {
        self.index.get(&id).and_then(|&i| self.vectors.gloss(i))
    }

    /// The context vector of a synset as [`Knn::scores`] uses it, with
    /// the synsets' own centroids read through `centroid` (so that a
    /// caller can take a document's contribution out of every centroid
    /// the propagation reads: `ens`'s leave-one-document-out features).
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
                return Some((Cow::Owned(normalized(&sum)), false));
            }
            if next.is_empty() {
                break;
            }
            frontier = next;
        }
        self.lexfile
            .get(&syn.lex_filenum)
            .map(|v| (Cow::Borrowed(v.as_slice()), false))
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
            .encode_words_summed(&words, self.vectors.params.pooled_layers);
        targets
            .iter()
            .map(|c| {
                let s = wanted.binary_search(&c.target.sentence).ok()?;
                let row = vecs.get_mut(s)?;
                row.get_mut(c.target.token).map(std::mem::take)
            })
            .collect()
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
                    .and_then(|&i| self.vectors.gloss(i));
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

    /// The training instances of the candidates by cosine with `v`,
    /// nearest first: (cosine, candidate index).
    fn nearest(&self, v: &[f32], cands: &[Sense]) -> Vec<(f32, usize)> {
        let mut near: Vec<(f32, usize)> = Vec::new();
        for (c, s) in cands.iter().enumerate() {
            if let Some(&e) = self.index.get(&s.synset) {
                for &i in &self.by_entry[e] {
                    near.push((dot(v, self.vectors.instances.row(i)), c));
                }
            }
        }
        near.sort_by(|a, b| b.0.total_cmp(&a.0));
        near
    }

    /// k-nearest-instance voting among the candidates; `None` when none of
    /// them has instances. Returns the winner, its nearest cosine and the
    /// votes.
    fn vote(&self, v: &[f32], cands: &[Sense]) -> Option<(usize, f32, Vec<Option<f32>>)> {
        let near = self.nearest(v, cands);
        if near.is_empty() {
            return None;
        }
        let mut votes: Vec<Option<f32>> = vec![None; cands.len()];
        for &(s, c) in near.iter().take(self.options.k) {
            *votes[c].get_or_insert(0.0) += s;
        }
        let (best, _) = argmax(&votes)?;
        let top = near.iter().find(|(_, c)| *c == best).map(|x| x.0)?;
        Some((best, top, votes))
    }

    /// Decide one target given its contextual vector. The prediction's
    /// scores are the candidates' (cosine + prior), normalised at
    /// [`TEMPERATURE`], or with `k > 1` the cosine-weighted votes.
    pub fn decide(&self, inv: &Inventory, vector: &[f32], cands: &[Sense]) -> Option<Prediction> {
        let v = normalized(vector);
        let voted = if self.options.k > 1 && self.vectors.instances.rows() > 0 {
            self.vote(&v, cands)
        } else {
            None
        };
        let (i, score, scores, scale) = match voted {
            Some((i, top, votes)) => (i, top, votes, Scale::Share),
            None => {
                let scores = self.scores(inv, &v, cands);
                let (i, s) = argmax(&scores)?;
                (i, s, scores, Scale::Tempered(TEMPERATURE))
            }
        };
        let scores: Vec<Option<f64>> = scores.iter().map(|s| s.map(f64::from)).collect();
        Some(
            Prediction::decided(cands[i].key.clone(), METHOD, score as f64)
                .with_scores(scored(cands, &scores), scale),
        )
    }

    /// The evidence for choosing `key` for the vector `vector`: the
    /// nearest training instances (with `k > 1`), else where the chosen
    /// synset's vector came from and the cosines. (The model keeps no
    /// training sentences, only their vectors, so instances are named by
    /// their sense.)
    pub fn evidence(
        &self,
        inv: &Inventory,
        vector: &[f32],
        cands: &[Sense],
        key: &str,
    ) -> Option<Evidence> {
        let v = normalized(vector);
        if self.options.k > 1 && self.vectors.instances.rows() > 0 {
            let near = self.nearest(&v, cands);
            if !near.is_empty() {
                return Some(Evidence::Neighbours {
                    neighbours: near
                        .iter()
                        .take(self.options.k)
                        .map(|&(c, i)| Weighted::new(cands[i].key.clone(), c as f64))
                        .collect(),
                });
            }
        }
        let id = cands.iter().find(|c| c.key == key)?.synset;
        let entry = self.index.get(&id).copied();
        let own = entry.and_then(|i| self.vectors.ctx(i)).is_some();
        let ctx = self.context_vector(inv, id);
        let gloss = entry.and_then(|i| self.vectors.gloss(i));
        let source = match (own, &ctx, gloss) {
            (true, _, _) => "SemCor centroid",
            (false, Some(_), _) => "propagated from hypernyms or the lexicographer file",
            (false, None, Some(_)) => "gloss only",
            (false, None, None) => "none",
        };
        Some(Evidence::SenseVector {
            source: source.to_string(),
            examples: if own {
                entry.map_or(0, |i| self.vectors.entries[i].count)
            } else {
                0
            },
            cosine: ctx.map(|c| dot(&v, &c) as f64),
            gloss_cosine: gloss.map(|g| dot(&v, g) as f64),
        })
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
            .encode_words_summed(&[words], self.vectors.params.pooled_layers);
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
        let vecs = self.encoder.encode_words(&[words]);
        let v = vecs.first()?.get(target.token)?;
        self.evidence(inv, v, candidates, &prediction.key)
    }
}
