//! The trained combiner: feature names, their scales and weights
//! ([`EnsModel`]), and what it was trained with ([`EnsParams`], in the
//! model header), saved and loaded through [`crate::model_io`]
//! (checksummed, written atomically).

use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::boost::{BoostParams, Forest};
use super::features::FEATURES;
use super::objects::ObjectCounts;
use super::METHOD;
use crate::disambig::calibration::Block;
use crate::disambig::naive_bayes::NbParams;
use crate::model_io;
use crate::wordnet::Inventory;
use crate::{Error, Result};

/// Body tag: type and version of the body.
const TAG: &[u8; 8] = b"WSDENS01";

/// Body tag of a model with verb-object counts (`--ens-objects`): the
/// version 1 body and the counts. A model without them is still written
/// as version 1, so older builds read it.
const TAG_OBJECTS: &[u8; 8] = b"WSDENS02";

/// Body tag of a model with boosted trees (version 2's body and the
/// trees; see [`super::boost`]). A model without trees is written as
/// version 1 or 2, so older builds read it.
const TAG_TREES: &[u8; 8] = b"WSDENS03";

/// What an ens model was trained with (the model header's `params`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EnsParams {
    /// The training data (`semcor:train`).
    pub data: String,
    /// Every how many documents of the training data were encoded for
    /// the combiner's training instances.
    pub sample_every: usize,
    /// Documents encoded.
    pub sampled_documents: usize,
    /// Training targets (two or more candidates, a gold key among them).
    pub instances: usize,
    /// Their candidates (the rows of the regression).
    pub candidates: usize,
    /// Folds of Naive Bayes' cross-fitting and of the cross-validation
    /// that chose `l2`.
    pub folds: usize,
    /// L2 weight of the fit (on standardised features).
    pub l2: f64,
    /// Cross-validated accuracy (percent, training instances) for each L2
    /// weight tried; empty when `l2` was given.
    pub cv: Vec<(f64, f64)>,
    /// The kNN model's training documents and tagged tokens (the knn
    /// model ens must be used with has the same).
    pub knn_documents: usize,
    /// See `knn_documents`.
    pub knn_tagged_tokens: usize,
    /// The kNN model's sense-key vectors (its `sense_vectors`): the
    /// features were learned from the vectors `knn` scores with, the sense
    /// key's where it has one, so a kNN model with other sense-key
    /// vectors is refused. 0 in ens models from before sense-key vectors
    /// (which read synset centroids only).
    #[serde(default)]
    pub knn_sense_vectors: usize,
    /// The kNN model's kept training instances (`--keep-instances`),
    /// which the nearest-instance features read: an ens model trained
    /// with them is refused with a knn model that kept other instances
    /// (or none). 0 when trained without (those features were all 0).
    #[serde(default)]
    pub knn_kept_instances: usize,
    /// The encoder's fingerprint.
    pub encoder_fingerprint: String,
    /// The arithmetic of the encoder's linear maps the kNN features were
    /// computed with (`f32`, `int8`): the weights were fitted to those
    /// vectors' scores, so tagging picks the same precision unless told
    /// otherwise, and warns when it differs. Empty in models from before
    /// it, all fitted on f32 (the only default then): see
    /// [`EnsParams::precision`].
    #[serde(default)]
    pub encoder_precision: String,
    /// Naive Bayes' parameters of the cross-fitted models (the nb model
    /// used with ens must have the same feature parameters).
    pub nb: NbParams,
    /// The isotonic map of ens's answers, fitted on the cross-validated
    /// answers of its training targets (empty in models from before it:
    /// their probabilities are normalised only).
    #[serde(default)]
    pub calibration: Vec<Block>,
    /// The boosting's settings (`None`: no trees, as in models from
    /// before them).
    #[serde(default)]
    pub boost: Option<BoostParams>,
    /// Cross-validated accuracy (percent, training instances) of the
    /// linear model with its trees, at the chosen L2 (`None`: no trees).
    #[serde(default)]
    pub cv_boosted: Option<f64>,
    /// Whether the sentence features were learned (by default; not with
    /// `--ens-without knn.sent,knn.sent_gap`): tagging then computes each
    /// target's sentence vector. `false` in
    /// models from before them.
    #[serde(default)]
    pub sentence: bool,
}

impl EnsParams {
    /// The encoder precision of the features (`f32` for models from
    /// before it was recorded); `None` for a name this build does not know.
    pub fn precision(&self) -> Option<crate::encoder::Precision> {
        if self.encoder_precision.is_empty() {
            return Some(crate::encoder::Precision::F32);
        }
        self.encoder_precision.parse().ok()
    }
}

/// A trained combiner.
#[derive(Clone, Debug, PartialEq)]
pub struct EnsModel {
    /// Training facts.
    pub params: EnsParams,
    /// Feature names ([`FEATURES`]).
    pub features: Vec<String>,
    /// Each feature's standard deviation over the training candidates
    /// (the regression saw `x / scale`).
    pub scale: Vec<f64>,
    /// Weights of the standardised features.
    pub weights: Vec<f64>,
    /// The training verbs' object counts (`--ens-objects`; empty
    /// otherwise, and in models from before them).
    pub objects: ObjectCounts,
    /// Boosted trees over the raw feature rows, added to the linear
    /// utility (empty: none).
    pub forest: Forest,
}

#[derive(Serialize, Deserialize)]
struct Body {
    features: Vec<String>,
    scale: Vec<f64>,
    weights: Vec<f64>,
}

#[derive(Serialize, Deserialize)]
struct BodyObjects {
    body: Body,
    objects: ObjectCounts,
}

#[derive(Serialize, Deserialize)]
struct BodyTrees {
    body: Body,
    objects: ObjectCounts,
    forest: Forest,
}

fn model_err(path: &Path, msg: impl Into<String>) -> Error {
    Error::Model {
        path: path.to_path_buf(),
        msg: msg.into(),
    }
}

impl EnsModel {
    /// Weights per unit of each raw feature (`weight / scale`): the
    /// utility of a candidate is their dot product with its feature row.
    pub fn raw_weights(&self) -> Vec<f64> {
        self.weights
            .iter()
            .zip(&self.scale)
            .map(|(w, s)| w / s)
            .collect()
    }

    /// The weights as a table for people: one feature a line, the weight
    /// of the standardised feature (comparable between features) and per
    /// raw unit, largest first.
    pub fn weights_table(&self) -> String {
        let mut order: Vec<usize> = (0..self.weights.len()).collect();
        order.sort_by(|&a, &b| self.weights[b].abs().total_cmp(&self.weights[a].abs()));
        let mut s = String::from("feature                      weight (standardised)  per unit\n");
        for i in order {
            let _ = writeln!(
                s,
                "{:<28} {:>+10.3}            {:>+10.3}",
                self.features[i],
                self.weights[i],
                self.weights[i] / self.scale[i]
            );
        }
        s
    }

    /// The body bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let body = Body {
            features: self.features.clone(),
            scale: self.scale.clone(),
            weights: self.weights.clone(),
        };
        if !self.forest.is_empty() {
            model_io::to_body(
                TAG_TREES,
                &BodyTrees {
                    body,
                    objects: self.objects.clone(),
                    forest: self.forest.clone(),
                },
            )
        } else if self.objects.class.is_empty() {
            model_io::to_body(TAG, &body)
        } else {
            model_io::to_body(
                TAG_OBJECTS,
                &BodyObjects {
                    body,
                    objects: self.objects.clone(),
                },
            )
        }
    }

    /// Write the model to `path` (atomically), with `inv`'s checksum.
    pub fn save(&self, path: &Path, inv: &Inventory) -> Result<()> {
        self.save_with_checksum(path, inv.checksum()?)
    }

    /// [`EnsModel::save`] with an explicit WordNet checksum.
    pub fn save_with_checksum(&self, path: &Path, wordnet_sha256: &str) -> Result<()> {
        let params =
            serde_json::to_value(&self.params).map_err(|e| Error::Encode(e.to_string()))?;
        model_io::write_model(path, METHOD, wordnet_sha256, params, &self.to_bytes()?)?;
        Ok(())
    }

    /// Read a model written by [`EnsModel::save`]: refuses another method,
    /// another WordNet, a corrupted file, and a model whose features are
    /// not this build's.
    pub fn load(path: &Path, inv: &Inventory) -> Result<EnsModel> {
        EnsModel::load_with_checksum(path, inv.checksum()?)
    }

    /// [`EnsModel::load`] with an explicit WordNet checksum.
    pub fn load_with_checksum(path: &Path, wordnet_sha256: &str) -> Result<EnsModel> {
        let (header, body) = model_io::read_model(path, METHOD, Some(wordnet_sha256))?;
        let params: EnsParams = serde_json::from_value(header.params).map_err(|e| {
            model_err(
                path,
                format!("corrupted header parameters ({e}); retrain with `wsd train --method ens`"),
            )
        })?;
        let (b, objects, forest) = if body.starts_with(TAG_TREES) {
            let b: BodyTrees = model_io::from_body(path, TAG_TREES, &body)?;
            (b.body, b.objects, b.forest)
        } else if body.starts_with(TAG_OBJECTS) {
            let b: BodyObjects = model_io::from_body(path, TAG_OBJECTS, &body)?;
            (b.body, b.objects, Forest::default())
        } else {
            let b: Body = model_io::from_body(path, TAG, &body)?;
            (b, ObjectCounts::default(), Forest::default())
        };
        let mut m = EnsModel::from_parts(params, b.features, b.scale, b.weights, path)?;
        if !forest.is_well_formed(m.features.len()) {
            return Err(model_err(
                path,
                "corrupted: a tree has a node out of place or a value that is not a finite number; retrain with `wsd train --method ens`",
            ));
        }
        m.objects = objects;
        m.forest = forest;
        Ok(m)
    }

    /// The model from its parts, checked. A model trained before the
    /// last features were added (its list a prefix of [`FEATURES`]: new
    /// features are appended) gets weight 0 for those, so it answers as
    /// it did; any other list is refused.
    fn from_parts(
        params: EnsParams,
        mut features: Vec<String>,
        mut scale: Vec<f64>,
        mut weights: Vec<f64>,
        path: &Path,
    ) -> Result<EnsModel> {
        let prefix = features.len() <= FEATURES.len()
            && features
                .iter()
                .map(String::as_str)
                .eq(FEATURES[..features.len()].iter().copied());
        if prefix && scale.len() == features.len() && weights.len() == features.len() {
            for f in &FEATURES[features.len()..] {
                features.push(f.to_string());
                scale.push(1.0);
                weights.push(0.0);
            }
        }
        if features
            .iter()
            .map(String::as_str)
            .ne(FEATURES.iter().copied())
        {
            return Err(model_err(
                path,
                format!(
                    "trained with other features ({} of them; this wsd computes {}); retrain with `wsd train --method ens`",
                    features.len(),
                    FEATURES.len()
                ),
            ));
        }
        if scale.len() != features.len() || weights.len() != features.len() {
            return Err(model_err(
                path,
                format!(
                    "corrupted: {} features, {} scales, {} weights; retrain with `wsd train --method ens`",
                    features.len(),
                    scale.len(),
                    weights.len()
                ),
            ));
        }
        if scale.iter().any(|s| !(s.is_finite() && *s > 0.0))
            || weights.iter().any(|w| !w.is_finite())
        {
            return Err(model_err(
                path,
                "corrupted: a scale or weight is not a finite number (scales must be > 0); retrain with `wsd train --method ens`",
            ));
        }
        Ok(EnsModel {
            params,
            features,
            scale,
            weights,
            objects: ObjectCounts::default(),
            forest: Forest::default(),
        })
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(crate) fn toy(weights: Vec<f64>) -> EnsModel {
        let n = FEATURES.len();
        EnsModel {
            params: EnsParams {
                data: "toy".into(),
                sample_every: 1,
                sampled_documents: 1,
                instances: 1,
                candidates: 2,
                folds: 2,
                l2: 0.01,
                cv: vec![(0.01, 50.0)],
                knn_documents: 1,
                knn_tagged_tokens: 1,
                knn_sense_vectors: 0,
                knn_kept_instances: 0,
                encoder_fingerprint: String::new(),
                encoder_precision: "int8".into(),
                nb: NbParams::default(),
                calibration: vec![Block {
                    p: 0.6,
                    accuracy: 0.55,
                    count: 10,
                }],
                boost: None,
                cv_boosted: None,
                sentence: false,
            },
            features: FEATURES.iter().map(|s| s.to_string()).collect(),
            scale: (0..n).map(|i| 1.0 + i as f64).collect(),
            weights,
            objects: ObjectCounts::default(),
            forest: Forest::default(),
        }
    }

    #[test]
    fn file_round_trip_and_damaged_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("ens.wsd");
        let m = toy((0..FEATURES.len()).map(|i| i as f64 - 3.0).collect());
        m.save_with_checksum(&p, "abc").unwrap();
        assert_eq!(EnsModel::load_with_checksum(&p, "abc").unwrap(), m);
        // with verb-object counts: the version 2 body, read back whole
        let mut o = m.clone();
        o.objects
            .lemma
            .insert(("draw%2:36:00::".into(), "picture".into()), 3);
        o.objects.class.insert(("draw%2:36:00::".into(), 6), 3);
        let po = dir.path().join("ens-objects.wsd");
        o.save_with_checksum(&po, "abc").unwrap();
        assert_eq!(EnsModel::load_with_checksum(&po, "abc").unwrap(), o);
        // with trees: the version 3 body, read back whole; a damaged tree
        // (a child pointing backwards) is refused
        use super::super::boost::{Node, Tree};
        let mut t = o.clone();
        t.params.boost = Some(BoostParams::default());
        t.params.cv_boosted = Some(71.0);
        t.forest.trees.push(Tree {
            nodes: vec![
                Node::Split {
                    feature: 3,
                    threshold: 0.25,
                    left: 1,
                    right: 2,
                },
                Node::Leaf(-0.5),
                Node::Leaf(0.75),
            ],
        });
        let pt = dir.path().join("ens-trees.wsd");
        t.save_with_checksum(&pt, "abc").unwrap();
        assert_eq!(EnsModel::load_with_checksum(&pt, "abc").unwrap(), t);
        if let Node::Split { left, .. } = &mut t.forest.trees[0].nodes[0] {
            *left = 0;
        }
        t.save_with_checksum(&pt, "abc").unwrap();
        let e = EnsModel::load_with_checksum(&pt, "abc")
            .unwrap_err()
            .to_string();
        assert!(e.contains("corrupted: a tree"), "{e}");
        let e = EnsModel::load_with_checksum(&p, "def")
            .unwrap_err()
            .to_string();
        assert!(e.contains("another WordNet"), "{e}");
        let mut bytes = std::fs::read(&p).unwrap();
        let n = bytes.len();
        bytes[n - 5] ^= 1;
        std::fs::write(&p, &bytes).unwrap();
        let e = EnsModel::load_with_checksum(&p, "abc")
            .unwrap_err()
            .to_string();
        assert!(e.contains("checksum") && e.contains("ens.wsd"), "{e}");
        bytes.truncate(n - 9);
        std::fs::write(&p, &bytes).unwrap();
        let e = EnsModel::load_with_checksum(&p, "abc")
            .unwrap_err()
            .to_string();
        assert!(e.contains("truncated"), "{e}");
        // another method's file
        crate::model_io::write_model(&p, "nb", "abc", serde_json::json!({}), b"x").unwrap();
        let e = EnsModel::load_with_checksum(&p, "abc")
            .unwrap_err()
            .to_string();
        assert!(e.contains(", not ens;"), "{e}");
    }

    #[test]
    fn the_encoder_precision_is_read_back_and_older_models_are_f32() {
        use crate::encoder::Precision;
        let m = toy(vec![0.5; FEATURES.len()]);
        assert_eq!(m.params.precision(), Some(Precision::Int8));
        // a header from before the field: f32, the only default then
        let mut v = serde_json::to_value(&m.params).unwrap();
        v.as_object_mut().unwrap().remove("encoder_precision");
        let old: EnsParams = serde_json::from_value(v).unwrap();
        assert_eq!(old.precision(), Some(Precision::F32));
        let mut future = m.params.clone();
        future.encoder_precision = "int4".into();
        assert_eq!(future.precision(), None);
    }

    #[test]
    fn parts_are_checked() {
        let n = FEATURES.len();
        let m = toy(vec![0.5; n]);
        let p = Path::new("e.wsd");
        let ok = EnsModel::from_parts(
            m.params.clone(),
            m.features.clone(),
            m.scale.clone(),
            m.weights.clone(),
            p,
        );
        assert_eq!(ok.unwrap(), m);
        let mut f = m.features.clone();
        f.pop();
        let e = EnsModel::from_parts(m.params.clone(), f, m.scale.clone(), m.weights.clone(), p)
            .unwrap_err()
            .to_string();
        assert!(e.contains("e.wsd") && e.contains("other features"), "{e}");
        let mut w = m.weights.clone();
        w[3] = f64::NAN;
        let e = EnsModel::from_parts(m.params.clone(), m.features.clone(), m.scale.clone(), w, p)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a finite number"), "{e}");
        assert!((m.raw_weights()[1] - 0.25).abs() < 1e-12);
        assert!(m.weights_table().lines().count() == n + 1);
    }

    #[test]
    fn a_model_from_before_the_last_features_loads_with_them_at_zero() {
        let n = FEATURES.len();
        let m = toy(vec![0.5; n]);
        let p = Path::new("e.wsd");
        let old = n - 4;
        let got = EnsModel::from_parts(
            m.params.clone(),
            m.features[..old].to_vec(),
            m.scale[..old].to_vec(),
            m.weights[..old].to_vec(),
            p,
        )
        .unwrap();
        assert_eq!(got.features, m.features);
        assert_eq!(got.weights[..old], m.weights[..old]);
        assert!(got.weights[old..].iter().all(|&w| w == 0.0));
        assert!(got.scale[old..].iter().all(|&s| s == 1.0));
        // not a prefix (two swapped): refused
        let mut f = m.features[..old].to_vec();
        f.swap(0, 1);
        let e = EnsModel::from_parts(
            m.params.clone(),
            f,
            m.scale[..old].to_vec(),
            m.weights[..old].to_vec(),
            p,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("other features"), "{e}");
    }
}
