//! `ens`: a learned combination of kNN, Naive Bayes, extended Lesk and the
//! sense-frequency prior (issue 13, item 4).
//!
//! **Why.** The methods err differently: kNN's contextual vectors know
//! senses it never saw in a window NB cannot read, NB knows the lemmas
//! SemCor has many examples of, Lesk reads glosses, and the first sense is
//! right three times out of four in domain. A back-off chain uses one of
//! them per target; `ens` weighs all of them for every candidate.
//!
//! **Model.** Per candidate sense, a feature row from the base methods
//! ([`features`]: kNN cosines with the context and gloss vectors, its
//! combined score, gap to the best and whether the context vector is the
//! candidate's own (its sense key's, as `knn` prefers, or its synset's),
//! propagated or missing; NB's log posterior, whether it is NB's
//! choice, whether NB never saw the sense, and the log posterior scaled by
//! how many examples NB had; Lesk's weighted overlap; the log tag-count
//! share, first sense, unseen sense; per-POS copies of the main ones;
//! with a knn model that kept its instance vectors, the cosines of the
//! candidate's nearest training instances),
//! and a conditional logistic regression over the target's candidates
//! ([`logreg`]), L2-regularised. Its utility `w · x` is the score, its
//! softmax the distribution ([`Scale::Log`]). Gradient-boosted trees
//! ([`boost`]) fitted to the same loss from the linear utilities add what
//! a weighted sum cannot say (thresholds, interactions); `--ens-trees 0`
//! leaves them out.
//!
//! **Training** ([`train`]) is cross-fitted on the training data (SemCor's
//! train split), so that no base method scores its own training data:
//! Naive Bayes by document folds ([`crate::disambig::calibration::cross_fitted`]),
//! kNN exactly leave-one-document-out from the full kNN model (a
//! sense-key or synset centroid without the document's own instances, a
//! key left with too few falling back to its synset, see
//! [`features::Removal`]; the nearest instances without the document's
//! own, which a knn model of format 5 marks), which needs only the vectors
//! of the encoded sample of documents (every one by default); the
//! tag-count prior with
//! WordNet's counts minus the document's own occurrences (WordNet's counts
//! were made on all of SemCor). The L2 weight is chosen by
//! cross-validation over documents.
//!
//! **Prediction** needs the kNN and NB models ens was trained with (the
//! model header records the kNN model's size, sense-key vectors and
//! encoder and NB's parameters; another model is refused) and the ens model. kNN runs
//! with its default options whatever `--gloss-weight`/`--prior` say,
//! since the weights were learnt on those features.

pub mod boost;
pub mod features;
mod fit;
pub mod frames;
pub mod logreg;
mod model;
pub mod objects;
mod train;

pub use model::{EnsModel, EnsParams};
pub use train::{
    train, train_on_sample, EnsTraining, SampleVectors, FRAME_FEATURES, L2_GRID, NEAREST_FEATURES,
    OBJECT_FEATURES, SENTENCE_FEATURES, SENTENCE_ROW,
};

use std::path::Path;

use rayon::prelude::*;

use crate::corpus::{Document, Target};
use crate::disambig::knn::{Knn, TargetVectors};
use crate::disambig::lesk::ExtendedLesk;
use crate::disambig::naive_bayes::{NaiveBayes, NbParams};
use crate::disambig::{
    keyed, Candidates, Decision, Disambiguator, Evidence, Prediction, Scale, Weighted,
};
use crate::wordnet::{Inventory, Sense};
use crate::{Error, Result};

/// Method name in model headers and `--method`.
pub const METHOD: &str = "ens";

/// NB parameters with the scoring ones (which ens does not use: it sets
/// `min_examples` to 1) made equal, for comparing feature parameters.
fn nb_features(p: &NbParams) -> NbParams {
    NbParams {
        min_examples: 1,
        ..p.clone()
    }
}

/// The combiner with its base methods.
pub struct Ens {
    knn: Knn,
    nb: NaiveBayes,
    lesk: ExtendedLesk,
    model: EnsModel,
    weights: Vec<f64>,
}

impl std::fmt::Debug for Ens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ens")
            .field("params", &self.model.params)
            .finish()
    }
}

impl Ens {
    /// Combine a trained model with its base models; `path` names the ens
    /// model in errors. Refuses kNN and NB models other than those it was
    /// trained with (another size, encoder or NB feature parameters).
    pub fn new(knn: Knn, mut nb: NaiveBayes, model: EnsModel, path: &Path) -> Result<Ens> {
        let p = &model.params;
        let kp = knn.params();
        if kp.documents != p.knn_documents
            || kp.tagged_tokens != p.knn_tagged_tokens
            || (!kp.encoder_fingerprint.is_empty()
                && !p.encoder_fingerprint.is_empty()
                && kp.encoder_fingerprint != p.encoder_fingerprint)
        {
            return Err(Error::Model {
                path: path.to_path_buf(),
                msg: format!(
                    "trained with a knn model of {} documents and {} tagged tokens, but the knn model given has {} and {}; pass the knn model ens was trained with, or retrain ens with `wsd train --method ens --model KNN.wsd`",
                    p.knn_documents, p.knn_tagged_tokens, kp.documents, kp.tagged_tokens
                ),
            });
        }
        if nb_features(nb.params()) != nb_features(&p.nb) {
            return Err(Error::Model {
                path: path.to_path_buf(),
                msg: format!(
                    "its Naive Bayes features were cross-fitted with other NB parameters than those of the nb model given ({} against {}); pass an nb model trained with the same --nb-params, or retrain ens",
                    serde_json::to_string(&p.nb).unwrap_or_default(),
                    serde_json::to_string(nb.params()).unwrap_or_default()
                ),
            });
        }
        if kp.sense_vectors != p.knn_sense_vectors {
            return Err(Error::Model {
                path: path.to_path_buf(),
                msg: format!(
                    "trained with a knn model of {} sense-key vectors, but the knn model given has {}{}; pass the knn model ens was trained with, or retrain ens with `wsd train --method ens --model KNN.wsd`",
                    p.knn_sense_vectors,
                    kp.sense_vectors,
                    if p.knn_sense_vectors == 0 {
                        " (ens models from before knn's sense-key vectors read synset centroids only)"
                    } else {
                        ""
                    }
                ),
            });
        }
        if p.knn_kept_instances > 0 && knn.kept_instances() != p.knn_kept_instances {
            return Err(Error::Model {
                path: path.to_path_buf(),
                msg: format!(
                    "its nearest-instance features were learned from a knn model that kept {} training instances, but the knn model given keeps {}; pass the knn model ens was trained with (trained with --keep-instances), or retrain ens",
                    p.knn_kept_instances,
                    knn.kept_instances()
                ),
            });
        }
        let scoring = nb_features(nb.params());
        nb.set_scoring(&scoring);
        let weights = model.raw_weights();
        Ok(Ens {
            knn,
            nb,
            lesk: ExtendedLesk::default(),
            model,
            weights,
        })
    }

    /// A warning when the encoder runs in another precision than the one
    /// the model's kNN features were fitted with (`path`: the model): the
    /// answers then differ from those measured (int8 vectors under an
    /// f32-fitted ens: 66.59 against 66.81 F1 on SemEval-2007).
    pub fn precision_mismatch(&self, path: &Path) -> Option<String> {
        let fitted = &self.model.params;
        let running = self.knn.encoder().precision();
        match fitted.precision() {
            Some(p) if p == running => None,
            Some(p) => Some(format!(
                "{}: ens was fitted on {p} encoder vectors but the encoder runs in {running}; its answers will differ a little from those measured (--encoder-precision {p}, or retrain ens with --encoder-precision {running})",
                path.display()
            )),
            None => Some(format!(
                "{}: ens was fitted with encoder precision {:?}, which this wsd does not know; the encoder runs in {running}",
                path.display(),
                fitted.encoder_precision
            )),
        }
    }

    /// The trained combiner.
    pub fn model(&self) -> &EnsModel {
        &self.model
    }

    /// The feature rows of a target's candidates (vector: the target's
    /// contextual vector; sentence: its sentence's unit mean vector, when
    /// the model reads it).
    fn rows(
        &self,
        inv: &Inventory,
        doc: &Document,
        target: &Target,
        cands: &[Sense],
        vector: Option<&[f32]>,
        sentence: Option<&[f32]>,
    ) -> Vec<Vec<f64>> {
        let counts: Vec<u32> = cands.iter().map(|s| s.tag_count).collect();
        let objects = &self.model.objects;
        let objects = (!objects.class.is_empty()).then_some(objects);
        let (t, ev) = features::evidence(
            inv,
            &self.knn,
            &self.nb,
            &self.lesk,
            doc,
            target,
            cands,
            vector,
            None,
            self.model.params.knn_kept_instances > 0,
            sentence,
            &counts,
            objects,
        );
        features::feature_rows(&t, &ev)
    }

    /// Each candidate's utility: the linear score plus the trees' (models
    /// trained with `--ens-trees 0`, and those from before trees: none).
    fn utilities(&self, rows: &[Vec<f64>]) -> Vec<f64> {
        rows.iter()
            .map(|x| {
                x.iter().zip(&self.weights).map(|(a, b)| a * b).sum::<f64>()
                    + self.model.forest.score(x)
            })
            .collect()
    }

    /// Decide `target` given its contextual vector (`None`: kNN has no
    /// evidence) and its sentence's vector (read by models trained with
    /// the sentence features), as [`Disambiguator::disambiguate`] does after
    /// encoding.
    pub fn decide(
        &self,
        inv: &Inventory,
        doc: &Document,
        target: &Target,
        cands: &[Sense],
        vector: Option<&[f32]>,
        sentence: Option<&[f32]>,
    ) -> Option<Prediction> {
        if cands.len() < 2 {
            return None;
        }
        let u = self.utilities(&self.rows(inv, doc, target, cands, vector, sentence));
        let max = u.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if !max.is_finite() {
            return None;
        }
        let i = u.iter().position(|&x| x == max)?;
        let decision = if u.iter().filter(|&&x| x == max).count() > 1 {
            Decision::Tie
        } else {
            Decision::Decided
        };
        Some(
            Prediction::new(cands[i].key.clone(), METHOD, decision, max)
                .with_scores(keyed(cands, &u), Scale::Log),
        )
    }

    /// The target's vector and its sentence's (when the model reads it),
    /// as [`Ens::vectors`] for one target.
    fn vectors_of(
        &self,
        doc: &Document,
        target: &Target,
        cands: &[Sense],
    ) -> (Option<Vec<f32>>, Option<Vec<f32>>) {
        let c = Candidates {
            target: target.clone(),
            senses: std::borrow::Cow::Borrowed(cands),
        };
        let (mut v, mut s) = self.vectors(doc, &[c]);
        (v.pop().flatten(), s.pop().flatten())
    }

    /// Each target's contextual vector and, when the model reads it, its
    /// sentence's mean vector (else `None`s), one encoding for both.
    fn vectors(&self, doc: &Document, targets: &[Candidates<'_>]) -> TargetVectors {
        self.knn
            .target_and_sentence_vectors(doc, targets, self.model.params.sentence)
    }
}

/// Features shown by `--explain`.
pub const EXPLAINED: usize = 6;

impl Disambiguator for Ens {
    fn name(&self) -> &str {
        METHOD
    }

    /// The model's own map, fitted on its cross-validated training
    /// answers (`None` for models from before it).
    fn calibration(&self) -> Option<crate::disambig::calibration::Calibration> {
        let blocks = &self.model.params.calibration;
        (!blocks.is_empty()).then(|| {
            crate::disambig::calibration::Calibration::single(METHOD, "method", blocks.clone())
        })
    }

    fn reads_sentence_vectors(&self) -> bool {
        self.model.params.sentence
    }

    fn disambiguate(
        &self,
        inv: &Inventory,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
    ) -> Option<Prediction> {
        let (v, s) = self.vectors_of(doc, target, candidates);
        self.decide(inv, doc, target, candidates, v.as_deref(), s.as_deref())
    }

    fn disambiguate_document(
        &self,
        inv: &Inventory,
        doc: &Document,
        targets: &[Candidates<'_>],
    ) -> Vec<Option<Prediction>> {
        let t = crate::timing::phase("ens encode");
        let (vecs, sents) = self.vectors(doc, targets);
        drop(t);
        let _t = crate::timing::phase("ens decide");
        // each target on its own, on rayon's pool (as knn scores them):
        // a block of plain text is one document, and deciding its targets
        // one after the other left the second core idle
        targets
            .par_iter()
            .zip(vecs)
            .zip(sents)
            .map(|((c, v), s)| {
                self.decide(inv, doc, &c.target, &c.senses, v.as_deref(), s.as_deref())
            })
            .collect()
    }

    /// Each feature's contribution to the chosen sense's lead over the
    /// runner-up, `w_j · (x_chosen − x_runner-up)`, and the trees' (as
    /// `trees`), the largest in size first.
    fn explain(
        &self,
        inv: &Inventory,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
        prediction: &Prediction,
    ) -> Option<Evidence> {
        let (v, s) = self.vectors_of(doc, target, candidates);
        let rows = self.rows(inv, doc, target, candidates, v.as_deref(), s.as_deref());
        let chosen = candidates.iter().position(|c| c.key == prediction.key)?;
        let u = self.utilities(&rows);
        let other = (0..candidates.len())
            .filter(|&i| i != chosen)
            .max_by(|&a, &b| u[a].total_cmp(&u[b]).then(b.cmp(&a)))?;
        let mut parts: Vec<(usize, f64)> = (0..self.weights.len())
            .map(|j| (j, self.weights[j] * (rows[chosen][j] - rows[other][j])))
            .filter(|(_, d)| *d != 0.0)
            .collect();
        // the trees' share of the lead, as one pseudo-feature
        let forest = &self.model.forest;
        let trees = forest.score(&rows[chosen]) - forest.score(&rows[other]);
        if trees != 0.0 {
            parts.push((features::FEATURES.len(), trees));
        }
        parts.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()));
        parts.truncate(EXPLAINED);
        Some(Evidence::Features {
            against: Some(candidates[other].key.clone()),
            features: parts
                .into_iter()
                .map(|(j, d)| {
                    Weighted::new(features::FEATURES.get(j).copied().unwrap_or("trees"), d)
                })
                .collect(),
        })
    }
}
