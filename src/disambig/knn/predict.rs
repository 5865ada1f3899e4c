//! Prediction: [`Knn`] scores each candidate sense by the cosine of the
//! target's contextual vector with the sense's context vector — its sense
//! key's own centroid when the model has one, else its synset's, else one
//! propagated from hypernyms or the lexicographer file — and its synset's
//! gloss vector, plus a sense-frequency prior; or lets the `k` nearest
//! training instances vote. Vectors are read as rows of [`Vectors`]'
//! matrices, in place from the mapped model file after [`Knn::load`].
//! The scoring itself lives in `core.rs` ([`Core`]), which training also
//! uses to answer its own instances with their document held out
//! (calibration).

use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

use super::core::{centroid_answer, Core, VectorSource};
use super::model::{KnnModel, Vectors};
use super::params::{KnnOptions, KnnParams};
use super::{argmax, dot, in_sentence_mean, normalized, sentence_mean, word_text, METHOD};
use crate::corpus::{Document, Target};
use crate::disambig::{
    scored, Calibration, Candidates, Disambiguator, Evidence, Exemplar, Prediction, RunnerUp,
    Scale, Weighted,
};
use crate::encoder::Encoder;
use crate::wordnet::{Inventory, Sense, SynsetId};
use crate::{Error, Result};

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
        let t = crate::timing::phase("map knn model");
        let vectors = super::codec::map(path, inv)?;
        drop(t);
        let _t = crate::timing::phase("knn index");
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

    /// How many training instance vectors the model kept
    /// (`--keep-instances`; 0 without).
    pub fn kept_instances(&self) -> usize {
        self.core.vectors.instance_entry.len()
    }

    /// Whether the model knows each kept instance's training document
    /// (format 5), so that [`Knn::nearest_cosines`] can leave one out.
    pub fn knows_instance_documents(&self) -> bool {
        !self.core.vectors.instance_docs.is_empty()
    }

    /// The cosines of the unit vector `v` with the `top` kept training
    /// instances of synset `id` nearest it, best first, leaving out
    /// training document `skip`'s (its index in the training documents);
    /// empty without such instances.
    pub fn nearest_cosines(
        &self,
        v: &[f32],
        id: SynsetId,
        skip: Option<u32>,
        top: usize,
    ) -> Vec<f32> {
        self.core.nearest_cosines(v, id, skip, top)
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

    /// The resultant length `|Σ v|` of the unit vectors behind a synset's
    /// centroid ([`Knn::centroid`] is their direction), when the model
    /// stores it (format 4; `None` for older models): the raw sum is
    /// `resultant · centroid`, which lets `ens` take a document's
    /// instances out of it exactly.
    pub fn resultant(&self, id: SynsetId) -> Option<f32> {
        self.core.resultant(id)
    }

    /// The same for a sense key's centroid ([`Knn::sense_centroid`]).
    pub fn sense_resultant(&self, key: &str) -> Option<f32> {
        self.core.sense_resultant(key)
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
    /// one batch with the model's layer pooling. A target whose token
    /// carries its vector from the text pipeline ([`crate::corpus::Token::vector`],
    /// computed by this very encoder and precision, the last layer) takes
    /// it when the model pools the last layer alone, and its sentence is
    /// not encoded again for it. `None` for a target whose sentence or
    /// token is out of range.
    pub fn target_vectors(
        &self,
        doc: &Document,
        targets: &[Candidates<'_>],
    ) -> Vec<Option<Vec<f32>>> {
        self.target_and_sentence_vectors(doc, targets, false).0
    }

    /// [`Knn::target_vectors`] and, with `sentences`, the unit mean vector
    /// of each target's sentence (else all `None`): the mean of its content
    /// words' vectors ([`super::in_sentence_mean`], with the model's layer
    /// pooling), what `ens`'s sentence features compare with the
    /// candidates' gloss vectors. Carried vectors are taken (a sentence's
    /// mean from [`crate::corpus::Token::sentence_vector`], by this very
    /// encoder and precision); the rest come from one encoding of the
    /// sentences that need it, selecting the targets' tokens and, where the
    /// mean is not carried, the content words.
    pub fn target_and_sentence_vectors(
        &self,
        doc: &Document,
        targets: &[Candidates<'_>],
        sentences: bool,
    ) -> TargetVectors {
        if targets.is_empty() {
            return (Vec::new(), Vec::new());
        }
        let key = (self.core.vectors.params.pooled_layers == 1).then(|| self.encoder.vector_key());
        let carried: Vec<Option<Vec<f32>>> = targets
            .iter()
            .map(|c| {
                let key = key.as_deref()?;
                let token = doc
                    .sentences
                    .get(c.target.sentence)?
                    .tokens
                    .get(c.target.token)?;
                token.vector.as_ref()?.values_by(key)
            })
            .collect();
        let carried_means: Vec<Option<Vec<f32>>> = targets
            .iter()
            .map(|c| {
                let key = key.as_deref().filter(|_| sentences)?;
                carried_mean(doc.sentences.get(c.target.sentence)?, key)
            })
            .collect();
        let mut wanted: Vec<usize> = targets
            .iter()
            .zip(carried.iter().zip(&carried_means))
            .filter(|(_, (v, m))| v.is_none() || (sentences && m.is_none()))
            .map(|(c, _)| c.target.sentence)
            .collect();
        wanted.sort_unstable();
        wanted.dedup();
        let tokens = |i: usize| doc.sentences.get(i).map_or(&[][..], |s| &s.tokens[..]);
        let words: Vec<Vec<String>> = wanted
            .iter()
            .map(|&i| tokens(i).iter().map(|t| word_text(&t.text)).collect())
            .collect();
        // the targets' vectors are read, and the content words' of a
        // sentence whose mean is wanted
        let mut select: Vec<Vec<bool>> = words.iter().map(|w| vec![false; w.len()]).collect();
        let mut mean_wanted = vec![false; wanted.len()];
        for (c, (v, m)) in targets.iter().zip(carried.iter().zip(&carried_means)) {
            let Ok(s) = wanted.binary_search(&c.target.sentence) else {
                continue;
            };
            if v.is_none() {
                if let Some(f) = select[s].get_mut(c.target.token) {
                    *f = true;
                }
            }
            if sentences && m.is_none() && !mean_wanted[s] {
                mean_wanted[s] = true;
                for (f, t) in select[s].iter_mut().zip(tokens(wanted[s])) {
                    *f |= in_sentence_mean(t);
                }
            }
        }
        let vecs = if select.iter().flatten().any(|&x| x) {
            self.encoder.encode_selected_summed(
                &words,
                self.core.vectors.params.pooled_layers,
                &select,
            )
        } else {
            Vec::new()
        };
        let means: Vec<Option<Vec<f32>>> = (0..wanted.len())
            .map(|s| {
                let vecs = vecs.get(s).filter(|_| mean_wanted[s])?;
                sentence_mean(tokens(wanted[s]), vecs)
            })
            .collect();
        let found = |c: &Candidates<'_>| wanted.binary_search(&c.target.sentence).ok();
        let target_vectors = targets
            .iter()
            .zip(carried)
            .map(|(c, v)| {
                if v.is_some() {
                    return v;
                }
                // cloned, not taken: a unit's head-word target (and an
                // `--pos-alternatives` reading) shares the unit's token
                vecs.get(found(c)?)?.get(c.target.token).cloned()
            })
            .collect();
        let sentence_vectors = targets
            .iter()
            .zip(carried_means)
            .map(|(c, m)| {
                if !sentences || m.is_some() {
                    return m;
                }
                means.get(found(c)?)?.clone()
            })
            .collect();
        (target_vectors, sentence_vectors)
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
    /// `core::TEMPERATURE`, or with `k > 1` the cosine-weighted votes.
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

/// Each target's contextual vector, and each target's sentence's mean
/// vector ([`Knn::target_and_sentence_vectors`]).
pub type TargetVectors = (Vec<Option<Vec<f32>>>, Vec<Option<Vec<f32>>>);

/// The sentence's mean vector its tokens carry from the text pipeline
/// ([`crate::corpus::Token::sentence_vector`]) when the encoder `key`
/// computed it.
fn carried_mean(sentence: &crate::corpus::Sentence, key: &str) -> Option<Vec<f32>> {
    sentence
        .tokens
        .iter()
        .find_map(|t| t.sentence_vector.as_ref()?.values_by(key))
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
        let t = crate::timing::phase("knn encode");
        let vecs = self.target_vectors(doc, targets);
        drop(t);
        let _t = crate::timing::phase("knn score");
        // each target on its own: scored on rayon's pool, in order
        targets
            .par_iter()
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
