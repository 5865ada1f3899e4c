//! Training the combiner (see the module docs of [`super`]): cross-fitted
//! base-method evidence on a sample of the training documents, then the
//! regression, its L2 weight chosen by cross-validation over documents,
//! and the trees ([`super::fit`] fits them).

use std::collections::HashMap;
use std::fmt::Write as _;

use rayon::prelude::*;

use super::boost::BoostParams;
use super::features::prior_shares;
use super::features::{
    combine, feature_rows, gold_keys, gold_synsets, knn_evidence, nb_evidence, NbEvidence, Removal,
    Resultants, FEATURES,
};
use super::fit::{
    accuracy, cross_validated_calibration, fit_with_trees, fold, per_pos_table, Boosting,
};
use super::frames::frame_fits;
use super::logreg::{self, Group};
use super::model::{EnsModel, EnsParams};
use super::nb_features;
use super::objects::{target_object, ObjectCounts};
use crate::corpus::Document;
use crate::disambig::calibration::cross_fitted;
use crate::disambig::candidates;
use crate::disambig::knn::{dot, in_sentence_mean, normalized, sentence_mean, Knn, TRAIN_BATCH};
use crate::disambig::lesk::ExtendedLesk;
use crate::disambig::naive_bayes::{NaiveBayes, NbParams};
use crate::wordnet::{Inventory, Pos, SynsetId};
use crate::{Error, Result};

/// L2 weights tried by cross-validation (on standardised features, mean
/// log-likelihood per target).
pub const L2_GRID: &[f64] = &[1e-4, 1e-3, 1e-2, 1e-1];

/// Options of an ens training run.
#[derive(Clone, Debug, PartialEq)]
pub struct EnsTraining {
    /// Encode every `sample_every`-th training document (document `i`
    /// with `i % sample_every == 0`) for the combiner's training instances.
    pub sample_every: usize,
    /// Folds of NB's cross-fitting and of the L2 cross-validation.
    pub folds: usize,
    /// The L2 weight; `None`: the best of [`L2_GRID`] by cross-validation.
    pub l2: Option<f64>,
    /// Features left out (weight 0), for ablations.
    pub without: Vec<String>,
    /// Learn the verb-frame features ([`FRAME_FEATURES`]); off by
    /// default: measured on SemEval-2007, F1 66.8 with and without them
    /// (verbs 62.2 either way), cross-validated on the train split 69.28%
    /// against 69.13%, so they stay out until they help out of domain.
    pub frames: bool,
    /// Learn the verb-object features ([`OBJECT_FEATURES`], see
    /// [`super::objects`]); off by default (see README: measured on the
    /// train split's cross-validation and SemEval-2007).
    pub objects: bool,
    /// Learn the sentence features ([`SENTENCE_FEATURES`]: each
    /// candidate's gloss vector against the mean vector of the content
    /// words of the target's sentence); training then encodes every
    /// content word of the sampled sentences, and tagging those of a
    /// target's sentence. On by
    /// default: cross-validated 71.32% -> 71.68%, SemCor test split
    /// 77.19 -> 77.58 F1, SemEval-2007 67.91 -> 67.47 (README).
    pub sentence: bool,
    /// Features the trees do not split on: they stay in the regression
    /// only (`--ens-linear`, for ablations).
    pub linear: Vec<String>,
    /// The boosted trees on top of the regression (`rounds` 0: none).
    pub boost: BoostParams,
}

/// The verb-object features, left at weight 0 (and no counts stored)
/// unless [`EnsTraining::objects`].
pub const OBJECT_FEATURES: &[&str] = &["obj.lemma", "obj.class"];

/// The nearest-training-instance features, all 0 unless the knn model
/// kept its instance vectors.
pub const NEAREST_FEATURES: &[&str] = &[
    "knn.nearest",
    "knn.nearest3",
    "knn.nearest_gap",
    "knn.nearest×verb",
];

/// The sentence features, left at weight 0 (and never computed) unless
/// [`EnsTraining::sentence`].
pub const SENTENCE_FEATURES: &[&str] = &["knn.sent", "knn.sent_gap"];

/// The token index under which [`SampleVectors`] holds a sentence's unit
/// mean vector (with [`EnsTraining::sentence`]).
pub const SENTENCE_ROW: usize = usize::MAX;

impl EnsTraining {
    /// Whether `--ens-without` leaves `feature` out.
    fn leaves_out(&self, feature: &str) -> bool {
        self.without.iter().any(|w| w == feature)
    }

    /// Whether `--ens-without` leaves every feature of `group` out (then
    /// nothing of theirs is computed).
    fn leaves_out_all(&self, group: &[&str]) -> bool {
        group.iter().all(|f| self.leaves_out(f))
    }

    /// Whether the run learns the sentence features: asked for, and not
    /// all left out.
    fn reads_sentences(&self) -> bool {
        self.sentence && !self.leaves_out_all(SENTENCE_FEATURES)
    }
}

/// Whether a training token's vector is kept in [`SampleVectors`]: a
/// sense-tagged token or an instance.
fn keeps_vector(t: &crate::corpus::Token) -> bool {
    !t.gold.is_empty() || t.instance.is_some()
}

/// The verb-frame features (see [`super::frames`]), left at weight 0
/// unless [`EnsTraining::frames`].
pub const FRAME_FEATURES: &[&str] = &[
    "frame.fits",
    "frame.misfit",
    "frame.subject_fits",
    "frame.subject_misfit",
];

impl Default for EnsTraining {
    fn default() -> Self {
        EnsTraining {
            sample_every: 1,
            folds: 5,
            l2: None,
            without: Vec::new(),
            frames: false,
            objects: false,
            sentence: true,
            linear: Vec::new(),
            boost: BoostParams::default(),
        }
    }
}

/// One training target: its document (position in the sample) and group.
struct Instance {
    doc: usize,
    pos: Pos,
    group: Group,
}

/// A knn model that kept its instances must say which document each came
/// from (format 5): the nearest-instance features leave the held-out
/// document's own out, and without that each training target would find
/// itself.
fn instance_documents_known(knn: &Knn) -> Result<()> {
    if knn.kept_instances() > 0 && !knn.knows_instance_documents() {
        return Err(Error::bad_parameter(
            "--model",
            format!("(knn model of {} kept instances)", knn.kept_instances()),
            "its kept instances do not say which document each came from (a knn model from before format 5), so the nearest-instance features would find each training target itself; retrain it with `wsd train --method knn --keep-instances`",
        ));
    }
    Ok(())
}

/// Every feature name of `--ens-without` and `--ens-linear` is one of
/// [`FEATURES`]: checked before the encoding, so a typo fails at once.
fn known_features(opts: &EnsTraining) -> Result<()> {
    for (option, names) in [
        ("--ens-without", &opts.without),
        ("--ens-linear", &opts.linear),
    ] {
        if let Some(name) = names.iter().find(|n| !FEATURES.contains(&n.as_str())) {
            return Err(Error::bad_parameter(
                option,
                name,
                format!("not a feature of ens ({})", FEATURES.join(", ")),
            ));
        }
    }
    Ok(())
}

/// Train ens on `docs` (the kNN model's own training documents) with the
/// full kNN model `knn`; `notice` gets one line per stage, `progress`
/// (done, total) the sentences encoded. Returns the model and a report
/// for people (the cross-validation and the weights).
#[allow(clippy::too_many_arguments)]
pub fn train(
    inv: &Inventory,
    knn: &Knn,
    docs: &[Document],
    data: &str,
    nb_params: &NbParams,
    opts: &EnsTraining,
    notice: &(dyn Fn(&str) + Sync),
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<(EnsModel, String)> {
    let kp = knn.params();
    if kp.documents != docs.len() {
        return Err(Error::bad_parameter(
            "--model",
            format!("(knn model of {} documents)", kp.documents),
            format!(
                "ens trains on the knn model's own training documents ({} here: use the --split/--limit-docs/--xml the knn model was trained with); its leave-one-document-out features are exact only then",
                docs.len()
            ),
        ));
    }
    instance_documents_known(knn)?;
    known_features(opts)?;
    if opts.sample_every == 0 || opts.folds < 2 {
        return Err(Error::bad_parameter(
            "--ens-sample",
            opts.sample_every,
            "must be at least 1 (and the folds at least 2)",
        ));
    }
    let sample: Vec<usize> = (0..docs.len())
        .filter(|i| i % opts.sample_every == 0)
        .collect();

    // The sample's contextual vectors, encoded as the kNN model was.
    let sentences: Vec<(usize, usize)> = sample
        .iter()
        .flat_map(|&d| (0..docs[d].sentences.len()).map(move |s| (d, s)))
        .collect();
    notice(&format!(
        "ens: encoding {} sentences of {} sampled documents ({})",
        sentences.len(),
        sample.len(),
        every(opts.sample_every)
    ));
    let layers = kp.pooled_layers.max(1);
    let whole_sentences = opts.reads_sentences();
    let mut vectors: HashMap<(usize, usize, usize), Vec<f32>> = HashMap::new();
    let mut done = 0;
    progress(0, sentences.len());
    for chunk in sentences.chunks(TRAIN_BATCH) {
        let words: Vec<Vec<String>> = chunk
            .iter()
            .map(|&(d, s)| {
                docs[d].sentences[s]
                    .tokens
                    .iter()
                    .map(|t| t.text.replace('_', " "))
                    .collect()
            })
            .collect();
        let wanted: Vec<Vec<bool>> = chunk
            .iter()
            .map(|&(d, s)| {
                docs[d].sentences[s]
                    .tokens
                    .iter()
                    .map(|t| keeps_vector(t) || (whole_sentences && in_sentence_mean(t)))
                    .collect()
            })
            .collect();
        let encoded = knn
            .encoder()
            .encode_selected_summed(&words, layers, &wanted);
        for (&(d, s), vecs) in chunk.iter().zip(encoded) {
            if whole_sentences {
                if let Some(m) = sentence_mean(&docs[d].sentences[s].tokens, &vecs) {
                    vectors.insert((d, s, SENTENCE_ROW), m);
                }
            }
            for (t, (tok, v)) in docs[d].sentences[s].tokens.iter().zip(vecs).enumerate() {
                if keeps_vector(tok) {
                    vectors.insert((d, s, t), v);
                }
            }
        }
        done += chunk.len();
        progress(done, sentences.len());
    }
    train_on_sample(
        inv, knn, docs, data, nb_params, opts, &sample, &vectors, notice,
    )
}

/// The contextual vectors of a sample of the training documents: by
/// (document, sentence, token), at least for every tagged token and target,
/// and with [`EnsTraining::sentence`] each sentence's unit mean vector at
/// token [`SENTENCE_ROW`].
pub type SampleVectors = HashMap<(usize, usize, usize), Vec<f32>>;

/// [`train`] after the encoding: `sample` are the indices in `docs` of the
/// documents whose `vectors` are given (they must come from the encoder
/// and pooling of the kNN model; `examples/ens_lab.rs` reads them from a
/// cache). `opts.sample_every` is only recorded.
#[allow(clippy::too_many_arguments)]
pub fn train_on_sample(
    inv: &Inventory,
    knn: &Knn,
    docs: &[Document],
    data: &str,
    nb_params: &NbParams,
    opts: &EnsTraining,
    sample: &[usize],
    vectors: &SampleVectors,
    notice: &(dyn Fn(&str) + Sync),
) -> Result<(EnsModel, String)> {
    instance_documents_known(knn)?;
    known_features(opts)?;
    let kp = knn.params();
    let in_sample: HashMap<usize, usize> =
        sample.iter().enumerate().map(|(k, &i)| (i, k)).collect();

    // Naive Bayes, cross-fitted by document folds: the model answering a
    // document never saw it.
    notice(&format!(
        "ens: Naive Bayes cross-fitted over {} folds of {} documents",
        opts.folds,
        docs.len()
    ));
    let nbp = nb_features(nb_params);
    let nb_by_doc: HashMap<usize, Vec<Option<NbEvidence>>> = cross_fitted(
        docs,
        opts.folds,
        |train| NaiveBayes::train(inv, train, &nbp, &|_, _| {}),
        |nb, held| {
            held.par_iter()
                .filter(|(i, _)| in_sample.contains_key(i))
                .map(|(i, doc)| {
                    let ev = doc
                        .targets()
                        .iter()
                        .map(|t| {
                            let cands = candidates(inv, &t.lemma, t.pos);
                            (cands.len() >= 2).then(|| nb_evidence(nb, inv, doc, t, &cands))
                        })
                        .collect();
                    (*i, ev)
                })
                .collect::<Vec<_>>()
        },
    )
    .into_iter()
    .collect();

    // Each sampled document's share of the centroids, and the resultant
    // lengths estimated from all sampled instances.
    let removals: Vec<Removal> = sample
        .par_iter()
        .map(|&d| {
            let mut r = Removal {
                doc: Some(d as u32),
                ..Removal::default()
            };
            for (s, sent) in docs[d].sentences.iter().enumerate() {
                for (t, tok) in sent.tokens.iter().enumerate() {
                    if tok.gold.is_empty() {
                        continue;
                    }
                    if let Some(v) = vectors.get(&(d, s, t)) {
                        r.add(
                            &gold_synsets(inv, &tok.gold),
                            &gold_keys(inv, &tok.gold),
                            &normalized(v),
                        );
                    }
                }
            }
            r
        })
        .collect();
    let mut cos: HashMap<SynsetId, (f64, u32)> = HashMap::new();
    for r in &removals {
        for (id, (k, sum)) in &r.sums {
            if let Some((c, _)) = knn.centroid(*id) {
                let e = cos.entry(*id).or_default();
                e.0 += dot(c, sum) as f64;
                e.1 += k;
            }
        }
    }
    let mut key_cos: HashMap<String, (f64, u32)> = HashMap::new();
    for r in &removals {
        for (key, (k, sum)) in &r.keys {
            if let Some((c, _)) = knn.sense_centroid(key) {
                let e = key_cos.entry(key.clone()).or_default();
                e.0 += dot(c, sum) as f64;
                e.1 += k;
            }
        }
    }
    let resultants = Resultants::new(knn, &cos, &key_cos);
    if resultants.estimated > 0 {
        notice(&format!(
            "ens: the knn model stores no resultant lengths (format 3 or older): {} estimated from the sample; a format 4 model (retrained with `wsd train --method knn`) makes the leave-one-document-out centroids exact",
            resultants.estimated
        ));
    }

    // The verbs' object counts: all training documents, and each sampled
    // document's own (taken off its targets' evidence).
    let objects = opts.objects.then(|| ObjectCounts::count(inv, docs));
    let own_objects: Vec<ObjectCounts> = match &objects {
        Some(_) => sample
            .par_iter()
            .map(|&d| ObjectCounts::of_document(inv, &docs[d]))
            .collect(),
        None => Vec::new(),
    };

    // The nearest-instance features: read only from a knn model that
    // kept its instances, and not when they are all left out.
    let reads_instances = knn.kept_instances() > 0 && !opts.leaves_out_all(NEAREST_FEATURES);

    // The sentence features: only when asked for and not all left out.
    let reads_sentences = opts.reads_sentences();

    // The training instances.
    notice("ens: features of the sampled training instances (kNN leave-one-document-out, extended Lesk, prior without the document)");
    let lesk = ExtendedLesk::default();
    let instances: Vec<Instance> = sample
        .par_iter()
        .enumerate()
        .flat_map_iter(|(k, &d)| {
            let doc = &docs[d];
            let mut own: HashMap<&str, u32> = HashMap::new();
            for tok in doc.sentences.iter().flat_map(|s| s.tokens.iter()) {
                for g in &tok.gold {
                    *own.entry(g.as_str()).or_default() += 1;
                }
            }
            let nb = nb_by_doc.get(&d);
            let mut out = Vec::new();
            for (ti, t) in doc.targets().iter().enumerate() {
                let cands = candidates(inv, &t.lemma, t.pos);
                let gold = &doc.token(t).gold;
                let flags: Vec<bool> = cands.iter().map(|c| gold.contains(&c.key)).collect();
                if cands.len() < 2 || !flags.iter().any(|&g| g) {
                    continue;
                }
                let kv = match vectors.get(&(d, t.sentence, t.token)) {
                    Some(v) => knn_evidence(
                        knn,
                        inv,
                        v,
                        &cands,
                        Some((&removals[k], &resultants)),
                        reads_instances,
                        if reads_sentences {
                            vectors
                                .get(&(d, t.sentence, SENTENCE_ROW))
                                .map(Vec::as_slice)
                        } else {
                            None
                        },
                    ),
                    None => vec![Default::default(); cands.len()],
                };
                let nv = nb
                    .and_then(|n| n.get(ti).cloned().flatten())
                    .unwrap_or_default();
                let lv = lesk.context_overlaps(inv, doc, t, &cands);
                let fv = frame_fits(inv, doc, t, &cands);
                let counts: Vec<u32> = cands
                    .iter()
                    .map(|c| {
                        c.tag_count
                            .saturating_sub(own.get(c.key.as_str()).copied().unwrap_or(0))
                    })
                    .collect();
                let ov = match &objects {
                    Some(o) => o.lifts(
                        target_object(inv, doc, t).as_ref(),
                        &cands,
                        &prior_shares(&counts),
                        own_objects.get(k),
                    ),
                    None => Vec::new(),
                };
                let (te, ce) = combine(t, kv, nv, lv, fv, ov, &counts);
                out.push(Instance {
                    doc: k,
                    pos: t.pos,
                    group: Group {
                        rows: feature_rows(&te, &ce),
                        gold: flags,
                    },
                });
            }
            out
        })
        .collect();
    if instances.is_empty() {
        return Err(Error::bad_parameter(
            "--ens-sample",
            opts.sample_every,
            "the sampled documents hold no target with two or more senses and a gold key among them: nothing to learn from",
        ));
    }

    // Standardise: each feature's standard deviation over all candidates.
    let d = FEATURES.len();
    let rows = instances.iter().flat_map(|i| i.group.rows.iter());
    let n_rows = instances.iter().map(|i| i.group.rows.len()).sum::<usize>() as f64;
    let mut mean = vec![0.0; d];
    let mut sq = vec![0.0; d];
    for r in rows {
        for j in 0..d {
            mean[j] += r[j];
            sq[j] += r[j] * r[j];
        }
    }
    let scale: Vec<f64> = (0..d)
        .map(|j| {
            let m = mean[j] / n_rows;
            let var = sq[j] / n_rows - m * m;
            if var > 1e-12 {
                var.sqrt()
            } else {
                1.0
            }
        })
        .collect();
    let boosting = Boosting {
        params: opts.boost,
        split_on: FEATURES
            .iter()
            .map(|f| !opts.linear.iter().any(|l| l == f))
            .collect(),
    };
    let keep: Vec<f64> = FEATURES
        .iter()
        .map(|f| {
            if opts.leaves_out(f)
                || (!opts.frames && FRAME_FEATURES.contains(f))
                || (!opts.objects && OBJECT_FEATURES.contains(f))
                || (!reads_sentences && SENTENCE_FEATURES.contains(f))
            {
                0.0
            } else {
                1.0
            }
        })
        .collect();
    let pos: Vec<Pos> = instances.iter().map(|i| i.pos).collect();
    let groups: Vec<(usize, Group)> = instances
        .into_iter()
        .map(|i| {
            let rows = i
                .group
                .rows
                .into_iter()
                .map(|r| {
                    r.iter()
                        .zip(&scale)
                        .zip(&keep)
                        .map(|((x, s), k)| k * x / s)
                        .collect()
                })
                .collect();
            (
                i.doc,
                Group {
                    rows,
                    gold: i.group.gold,
                },
            )
        })
        .collect();

    // The L2 weight: given, or the best of the grid by cross-validation
    // over the sampled documents.
    let mut report = String::new();
    let mut cv = Vec::new();
    let l2 = match opts.l2 {
        Some(l2) => l2,
        None => {
            notice(&format!(
                "ens: choosing the L2 weight by {}-fold cross-validation over the sampled documents",
                opts.folds
            ));
            let mut best = (f64::NEG_INFINITY, L2_GRID[0]);
            for &l2 in L2_GRID {
                let mut right = 0.0;
                let mut n = 0usize;
                for f in 0..opts.folds {
                    let (train, held) = fold(&groups, opts.folds, f);
                    if train.is_empty() || held.is_empty() {
                        continue;
                    }
                    let fit = logreg::fit(&train, d, l2);
                    right += accuracy(&fit.weights, &held) * held.len() as f64 / 100.0;
                    n += held.len();
                }
                let acc = 100.0 * right / n.max(1) as f64;
                cv.push((l2, acc));
                if acc >= best.0 {
                    best = (acc, l2);
                }
            }
            best.1
        }
    };
    notice(&if opts.boost.rounds > 0 {
        format!(
            "ens: {} boosted trees on the regression, cross-validated, then calibrating on the cross-validated answers",
            opts.boost.rounds
        )
    } else {
        "ens: calibrating on the cross-validated answers".to_string()
    });
    let (calibration, cv_pos) =
        cross_validated_calibration(&groups, &pos, opts.folds, d, l2, &boosting, notice);
    let all: Vec<Group> = groups.iter().map(|(_, g)| g.clone()).collect();
    if opts.boost.rounds > 0 {
        notice(&format!(
            "ens: {} boosted trees on all training targets",
            opts.boost.rounds
        ));
    }
    let (fit, forest) = fit_with_trees(&all, d, l2, &boosting, &|_| {});
    let forest = forest.unscaled(&scale);
    let refs: Vec<&Group> = all.iter().collect();
    let train_acc = accuracy(&fit.weights, &refs);
    let cv_boosted = (opts.boost.rounds > 0).then(|| {
        let (r, n) = cv_pos
            .values()
            .fold((0, 0), |(r, n), (a, b)| (r + a, n + b));
        100.0 * r as f64 / n.max(1) as f64
    });
    let candidates_n = all.iter().map(|g| g.rows.len()).sum();
    let _ = writeln!(
        report,
        "ens trained on {} targets ({} candidates) of {} sampled documents ({} of {}): L2 {l2}, {} Newton steps, training accuracy {train_acc:.1}%",
        all.len(),
        candidates_n,
        sample.len(),
        every(opts.sample_every),
        docs.len(),
        fit.steps
    );
    for (l, a) in &cv {
        let _ = writeln!(report, "  cross-validated accuracy at L2 {l}: {a:.2}%");
    }
    if let Some(a) = cv_boosted {
        let _ = writeln!(
            report,
            "  cross-validated accuracy at L2 {l2} with {} trees of depth {} (learning rate {}): {a:.2}%",
            opts.boost.rounds, opts.boost.depth, opts.boost.learning_rate
        );
    }
    // What each base method alone scores on the same targets (its main
    // feature's best candidate), for comparison.
    let alone: Vec<String> = ["prior.logshare", "knn.score", "nb.logpost", "lesk.overlap"]
        .iter()
        .filter_map(|name| {
            let j = FEATURES.iter().position(|f| f == name)?;
            let mut w = vec![0.0; d];
            w[j] = 1.0;
            Some(format!("{name} {:.1}%", accuracy(&w, &refs)))
        })
        .collect();
    let _ = writeln!(
        report,
        "  one feature alone on the same targets: {}",
        alone.join(", ")
    );
    let mut prior_pos: HashMap<Pos, (usize, usize)> = HashMap::new();
    if let Some(j) = FEATURES.iter().position(|f| *f == "prior.logshare") {
        let mut w = vec![0.0; d];
        w[j] = 1.0;
        for (g, p) in all.iter().zip(&pos) {
            let e = prior_pos.entry(*p).or_default();
            e.1 += 1;
            if logreg::best(&w, &g.rows).is_some_and(|i| g.gold[i]) {
                e.0 += 1;
            }
        }
    }
    report.push_str(&per_pos_table(&cv_pos, &prior_pos));
    let model = EnsModel {
        params: EnsParams {
            data: data.to_string(),
            sample_every: opts.sample_every,
            sampled_documents: sample.len(),
            instances: all.len(),
            candidates: candidates_n,
            folds: opts.folds,
            l2,
            cv,
            knn_documents: kp.documents,
            knn_tagged_tokens: kp.tagged_tokens,
            knn_sense_vectors: kp.sense_vectors,
            // only a model that reads the instances needs them
            knn_kept_instances: if reads_instances {
                knn.kept_instances()
            } else {
                0
            },
            encoder_fingerprint: kp.encoder_fingerprint.clone(),
            encoder_precision: knn.encoder().precision().name().to_string(),
            nb: nb_params.clone(),
            calibration,
            boost: (opts.boost.rounds > 0).then_some(opts.boost),
            cv_boosted,
            sentence: reads_sentences,
        },
        features: FEATURES.iter().map(|s| s.to_string()).collect(),
        scale,
        weights: fit.weights,
        objects: objects.unwrap_or_default(),
        forest,
    };
    report.push_str(&model.weights_table());
    if !model.forest.is_empty() {
        let splits = model.forest.splits_per_feature(d);
        let mut order: Vec<usize> = (0..d).filter(|&j| splits[j] > 0).collect();
        order.sort_by_key(|&j| std::cmp::Reverse(splits[j]));
        let _ = writeln!(
            report,
            "{} trees; splits per feature: {}",
            model.forest.trees.len(),
            order
                .iter()
                .map(|&j| format!("{} {}", FEATURES[j], splits[j]))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok((model, report))
}

/// "every document", "every 2nd", "every 3rd", "every 4th", … for the
/// progress lines.
fn every(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    match n {
        0 | 1 => "every document".to_string(),
        n => format!("every {n}{suffix}"),
    }
}

#[cfg(test)]
mod every_tests {
    #[test]
    fn ordinals_read_as_english() {
        assert_eq!(super::every(1), "every document");
        assert_eq!(super::every(2), "every 2nd");
        assert_eq!(super::every(3), "every 3rd");
        assert_eq!(super::every(4), "every 4th");
        assert_eq!(super::every(12), "every 12th");
        assert_eq!(super::every(22), "every 22nd");
    }
}
