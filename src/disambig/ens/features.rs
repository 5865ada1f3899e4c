//! What `ens` knows about each candidate: the evidence of the base methods
//! ([`CandidateEvidence`], [`TargetEvidence`]) and the one map from it to
//! the feature vector the regression weighs ([`FEATURES`],
//! [`feature_rows`]).
//!
//! kNN's evidence comes from one function, [`knn_evidence`]: given the
//! target's vector and, at training, the held-out document's contribution
//! to the centroids ([`Removal`]), the cosines of each candidate with its
//! context and gloss vectors and where the context vector came from. The
//! context vector is the one `knn` scores with: the sense key's when the
//! model has one, else the synset's, else a propagated one.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::corpus::{Document, Target};
use crate::disambig::knn::{dot, normalized, Knn};
use crate::disambig::lesk::ExtendedLesk;
use crate::disambig::naive_bayes::NaiveBayes;
use crate::disambig::Disambiguator;

use super::frames::{frame_fits, FrameFit};
use super::objects::{target_object, ObjectCounts};
use crate::wordnet::{Inventory, Pos, Sense, SynsetId};

/// Gloss weight of kNN's combined score (`knn`'s default, with which its
/// defaults were tuned): `(1 − w)·cos(ctx) + w·cos(gloss)`.
pub const GLOSS_WEIGHT: f32 = 0.3;

/// Where a candidate's kNN context vector came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum VectorSource {
    /// The sense key's own SemCor centroid (lemma-specific: a key with at
    /// least the kNN model's `sense_min` instances).
    SenseKey,
    /// The synset's own SemCor centroid.
    Own,
    /// Borrowed from its hypernyms or lexicographer file.
    Propagated,
    /// No context vector.
    #[default]
    Missing,
}

/// kNN's evidence for one candidate.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct KnnEvidence {
    /// Cosine of the target's vector with the context vector.
    pub ctx: Option<f32>,
    /// Cosine with the gloss vector.
    pub gloss: Option<f32>,
    /// Where the context vector came from.
    pub source: VectorSource,
    /// The cosines with the sense's nearest kept training instances, the
    /// nearest and the mean of the [`NEAREST_TOP`] nearest (`None` when
    /// the kNN model kept none of the synset's, or only the held-out
    /// document's).
    pub nearest: Option<(f32, f32)>,
    /// Cosine of the target's sentence's mean vector with the gloss
    /// vector (`None` unless the ens model reads it, or without a gloss
    /// vector): the sentence's topic against the sense's definition,
    /// where `gloss` weighs the target word's own vector.
    pub sentence: Option<f32>,
}

/// How many of a candidate's nearest training instances the
/// `knn.nearest3` feature averages.
pub const NEAREST_TOP: usize = 3;

impl KnnEvidence {
    /// kNN's score without its prior: `(1 − w)·ctx + w·gloss` when both
    /// exist, else the one that exists.
    pub fn score(&self) -> Option<f32> {
        match (self.ctx, self.gloss) {
            (Some(c), Some(g)) => Some((1.0 - GLOSS_WEIGHT) * c + GLOSS_WEIGHT * g),
            (Some(c), None) => Some(c),
            (None, g) => g,
        }
    }
}

/// A held-out document's share of the kNN centroids, taken out of them at
/// training so that no training instance is scored against a centroid it
/// helped make (leave-one-document-out).
///
/// The model stores each centroid as a unit vector `c` with its instance
/// count `n`; the sum it was normalised from is `R·c`, with `R = |Σ v|`.
/// A model of format 4 stores `R` too ([`Knn::resultant`]); for older
/// ones `R = c · Σ v` over all `n` instances is estimated from the
/// instances at hand (the encoded sample) as `n · mean(c · v)`
/// ([`Resultants::new`]), exact only when the sample holds every instance.
/// The centroid without the document is then the direction of
/// `R·c − Σ_doc v` (absent when the document holds all `n`). Sense-key
/// centroids are unit vectors too and are treated the same way, per key.
#[derive(Clone, Debug, Default)]
pub struct Removal {
    /// Per synset: the document's instances and the sum of their unit vectors.
    pub sums: HashMap<SynsetId, (u32, Vec<f32>)>,
    /// Per sense key: the same.
    pub keys: HashMap<String, (u32, Vec<f32>)>,
    /// The held-out document (its index in the kNN model's training
    /// documents), whose own kept instances the nearest-instance features
    /// leave out.
    pub doc: Option<u32>,
}

/// Add `unit` to the (count, sum) of `at`.
fn add_unit<K: std::hash::Hash + Eq>(map: &mut HashMap<K, (u32, Vec<f32>)>, at: K, unit: &[f32]) {
    let e = map.entry(at).or_insert_with(|| (0, vec![0.0; unit.len()]));
    e.0 += 1;
    for (a, x) in e.1.iter_mut().zip(unit) {
        *a += x;
    }
}

impl Removal {
    /// Add one tagged instance (its unit vector) of `synsets` and of the
    /// sense `keys` (both distinct, as kNN training adds a token to each:
    /// [`gold_synsets`], [`gold_keys`]).
    pub fn add(&mut self, synsets: &[SynsetId], keys: &[String], unit: &[f32]) {
        for id in synsets {
            add_unit(&mut self.sums, *id, unit);
        }
        for k in keys {
            add_unit(&mut self.keys, k.clone(), unit);
        }
    }
}

/// The resultant lengths `R = |Σ v|` of the centroids, synsets' and
/// sense keys' (see [`Removal`]): the model's own where it stores them,
/// else estimated.
#[derive(Clone, Debug, Default)]
pub struct Resultants {
    /// Per synset centroid.
    pub synsets: HashMap<SynsetId, f32>,
    /// Per sense-key centroid.
    pub keys: HashMap<String, f32>,
    /// How many of them were estimated (not stored in the model).
    pub estimated: usize,
}

/// The resultant length of a centroid of `n` instances from `k` sampled
/// ones whose cosines with it sum to `sum_cos`: `n · mean(c · v)`, kept
/// between `max(1, Σ c·v)` and `n` (`None` without a sample).
fn resultant(n: u32, sum_cos: f64, k: u32) -> Option<f32> {
    (k > 0).then(|| {
        (n as f64 * sum_cos / k as f64)
            .min(n as f64)
            .max(sum_cos.max(1.0)) as f32
    })
}

impl Resultants {
    /// The resultant lengths of the centroids the sample touches: the
    /// model's where it stores them (format 4), else estimated from the
    /// sampled instances, given per synset (and per sense key) as the sum
    /// of `c · v` and the number of instances (see `resultant`).
    pub fn new(
        knn: &Knn,
        synsets: &HashMap<SynsetId, (f64, u32)>,
        keys: &HashMap<String, (f64, u32)>,
    ) -> Resultants {
        let mut estimated = 0;
        let synsets = synsets
            .iter()
            .filter_map(|(id, &(c, k))| {
                let r = knn.resultant(*id).or_else(|| {
                    estimated += 1;
                    resultant(knn.centroid(*id)?.1, c, k)
                })?;
                Some((*id, r))
            })
            .collect();
        let keys = keys
            .iter()
            .filter_map(|(key, &(c, k))| {
                let r = knn.sense_resultant(key).or_else(|| {
                    estimated += 1;
                    resultant(knn.sense_centroid(key)?.1, c, k)
                })?;
                Some((key.clone(), r))
            })
            .collect();
        Resultants {
            synsets,
            keys,
            estimated,
        }
    }
}

/// The synsets of a token's gold keys, distinct (as kNN training adds a
/// token to each).
pub fn gold_synsets(inv: &Inventory, gold: &[String]) -> Vec<SynsetId> {
    let mut ids = Vec::new();
    for k in gold {
        if let Some((syn, _, _)) = inv.sense_by_key(k) {
            if !ids.contains(&syn.id) {
                ids.push(syn.id);
            }
        }
    }
    ids
}

/// A token's gold keys that WordNet knows, distinct (as kNN training adds
/// a token to each key's sum).
pub fn gold_keys(inv: &Inventory, gold: &[String]) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for k in gold {
        if inv.sense_by_key(k).is_some() && !keys.contains(k) {
            keys.push(k.clone());
        }
    }
    keys
}

/// The centroid `c` (unit; `n` instances, resultant length `r`) without
/// `k` of its instances whose unit vectors sum to `sum`: the direction of
/// `r·c − sum`; `None` when nothing is left.
pub fn loo_centroid(c: &[f32], n: u32, r: f32, k: u32, sum: &[f32]) -> Option<Vec<f32>> {
    if k >= n {
        return None;
    }
    let rest: Vec<f32> = c.iter().zip(sum).map(|(c, s)| r * c - s).collect();
    Some(normalized(&rest))
}

/// A sense key's centroid `c` (unit; `n` instances, resultant length `r`)
/// without the held-out document's instances of the key (`removed`: their
/// count and sum), or `None` when fewer than `sense_min` (at least 1)
/// would be left: the kNN model would have made no vector for the key,
/// and the candidate falls back to its synset's.
pub fn loo_sense_centroid<'c>(
    c: &'c [f32],
    n: u32,
    r: f32,
    removed: Option<&(u32, Vec<f32>)>,
    sense_min: u32,
) -> Option<Cow<'c, [f32]>> {
    let Some((k, sum)) = removed else {
        return Some(Cow::Borrowed(c));
    };
    if n.saturating_sub(*k) < sense_min.max(1) {
        return None;
    }
    loo_centroid(c, n, r, *k, sum).map(Cow::Owned)
}

/// kNN's evidence for each candidate, for the target's contextual vector
/// `vector` (not necessarily unit length); with `loo`, the centroids
/// (the sense key's, the synset's and those propagation reads) without the
/// held-out document's instances (see [`Removal`]).
///
/// The context vector is chosen as `knn` chooses it, so that the features
/// ens learns from are the scores `knn` gives: the sense key's centroid
/// when the model has one, else the synset's, else a propagated one. At
/// training, a key left with fewer than the model's `sense_min` instances
/// once the document is out falls back to the synset, as the kNN model's
/// own held-out calibration does (a vector it would not have made).
///
/// `nearest`: also the cosines with the nearest kept training instances
/// (only when the ens model reads them: they cost a pass over every kept
/// instance of each candidate's synset). `sentence`: the unit mean vector
/// of the target's sentence ([`crate::disambig::knn::Knn::target_and_sentence_vectors`]),
/// when the ens model reads it.
pub fn knn_evidence(
    knn: &Knn,
    inv: &Inventory,
    vector: &[f32],
    cands: &[Sense],
    loo: Option<(&Removal, &Resultants)>,
    nearest: bool,
    sentence: Option<&[f32]>,
) -> Vec<KnnEvidence> {
    let v = normalized(vector);
    let sentence_of = |id: SynsetId| -> Option<f32> { Some(dot(sentence?, knn.gloss_vector(id)?)) };
    let centroid = |id: SynsetId| -> Option<Cow<'_, [f32]>> {
        let (c, n) = knn.centroid(id)?;
        let Some((removal, r)) = loo else {
            return Some(Cow::Borrowed(c));
        };
        let Some((k, sum)) = removal.sums.get(&id) else {
            return Some(Cow::Borrowed(c));
        };
        let r = r.synsets.get(&id).copied().unwrap_or(n as f32);
        loo_centroid(c, n, r, *k, sum).map(Cow::Owned)
    };
    // the sense key's centroid (without the document), if it is used
    let sense_key = |key: &str| -> Option<Cow<'_, [f32]>> {
        let (c, n) = knn.sense_centroid(key)?;
        let Some((removal, r)) = loo else {
            return Some(Cow::Borrowed(c));
        };
        let r = r.keys.get(key).copied().unwrap_or(n as f32);
        loo_sense_centroid(c, n, r, removal.keys.get(key), knn.params().sense_min)
    };
    let skip = loo.and_then(|(removal, _)| removal.doc);
    let nearest_of = |id: SynsetId| -> Option<(f32, f32)> {
        if !nearest {
            return None;
        }
        let top = knn.nearest_cosines(&v, id, skip, NEAREST_TOP);
        let first = *top.first()?;
        Some((first, top.iter().sum::<f32>() / top.len() as f32))
    };
    cands
        .iter()
        .map(|s| {
            let nearest = nearest_of(s.synset);
            if let Some(c) = sense_key(&s.key) {
                return KnnEvidence {
                    ctx: Some(dot(&v, &c)),
                    gloss: knn.gloss_vector(s.synset).map(|g| dot(&v, g)),
                    source: VectorSource::SenseKey,
                    nearest,
                    sentence: sentence_of(s.synset),
                };
            }
            let ctx = knn.context_vector_by(inv, s.synset, &centroid);
            KnnEvidence {
                ctx: ctx.as_ref().map(|(c, _)| dot(&v, c)),
                gloss: knn.gloss_vector(s.synset).map(|g| dot(&v, g)),
                source: match ctx {
                    Some((_, true)) => VectorSource::Own,
                    Some((_, false)) => VectorSource::Propagated,
                    None => VectorSource::Missing,
                },
                nearest,
                sentence: sentence_of(s.synset),
            }
        })
        .collect()
}

/// Naive Bayes' evidence for a target: the log posterior of each
/// candidate among those its lemma was trained with, and the lemma's
/// training examples.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NbEvidence {
    /// Per candidate: its log posterior (`None`: never seen in training,
    /// or NB has nothing for the lemma).
    pub log_posterior: Vec<Option<f64>>,
    /// Training examples of the lemma (0: unseen lemma).
    pub examples: u64,
}

/// Ask `nb` (with `min_examples` 1: `ens` decides how far to trust it,
/// from the example count) about `target`.
pub fn nb_evidence(
    nb: &NaiveBayes,
    inv: &Inventory,
    doc: &Document,
    target: &Target,
    cands: &[Sense],
) -> NbEvidence {
    let examples = crate::wordnet::SenseKey::lemma_and_pos(&cands[0].key)
        .map(|(l, p)| nb.trained_senses(l, p).iter().map(|s| s.1 as u64).sum())
        .unwrap_or(0);
    let mut log_posterior = vec![None; cands.len()];
    if let Some(p) = nb.disambiguate(inv, doc, target, cands) {
        let max = p
            .scores
            .iter()
            .map(|s| s.1)
            .fold(f64::NEG_INFINITY, f64::max);
        if max.is_finite() {
            let z = max + p.scores.iter().map(|s| (s.1 - max).exp()).sum::<f64>().ln();
            for (k, s) in &p.scores {
                if let Some(i) = cands.iter().position(|c| &c.key == k) {
                    log_posterior[i] = Some(s - z);
                }
            }
        }
    }
    NbEvidence {
        log_posterior,
        examples,
    }
}

/// Everything `ens` knows about one candidate.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CandidateEvidence {
    /// kNN's cosines.
    pub knn: KnnEvidence,
    /// NB's log posterior (see [`NbEvidence`]).
    pub nb: Option<f64>,
    /// Extended Lesk's weighted overlap (without its prior).
    pub lesk: f64,
    /// The sense's tag count (at training: WordNet's minus the held-out
    /// document's own occurrences).
    pub count: u32,
    /// How the verb's context fits the sense's WordNet frames.
    pub frame: FrameFit,
    /// The lifts of the verb's object lemma and class for the sense
    /// ([`super::objects`]; 0 without an object or object counts).
    pub object: (f64, f64),
}

/// What the candidates of one target share.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TargetEvidence {
    /// Part of speech.
    pub pos: Pos,
    /// NB's training examples of the lemma.
    pub nb_examples: u64,
}

/// The evidence of every candidate of `target` from the base methods
/// (`vector`: the target's contextual vector, `None` when it has none;
/// `loo`, `nearest` and `sentence`: see [`knn_evidence`]; `counts`: each
/// candidate's tag count).
#[allow(clippy::too_many_arguments)]
pub fn evidence(
    inv: &Inventory,
    knn: &Knn,
    nb: &NaiveBayes,
    lesk: &ExtendedLesk,
    doc: &Document,
    target: &Target,
    cands: &[Sense],
    vector: Option<&[f32]>,
    loo: Option<(&Removal, &Resultants)>,
    nearest: bool,
    sentence: Option<&[f32]>,
    counts: &[u32],
    objects: Option<&ObjectCounts>,
) -> (TargetEvidence, Vec<CandidateEvidence>) {
    let k = match vector {
        Some(v) => knn_evidence(knn, inv, v, cands, loo, nearest, sentence),
        None => vec![KnnEvidence::default(); cands.len()],
    };
    let n = nb_evidence(nb, inv, doc, target, cands);
    let l = lesk.context_overlaps(inv, doc, target, cands);
    let f = frame_fits(inv, doc, target, cands);
    let o = match objects {
        Some(o) => o.lifts(
            target_object(inv, doc, target).as_ref(),
            cands,
            &prior_shares(counts),
            None,
        ),
        None => Vec::new(),
    };
    combine(target, k, n, l, f, o, counts)
}

/// Each candidate's share of the tag counts, add-one smoothed (the
/// `prior.logshare` feature's share).
pub fn prior_shares(counts: &[u32]) -> Vec<f64> {
    let total: f64 = counts.iter().map(|&c| c as f64 + 1.0).sum();
    counts.iter().map(|&c| (c as f64 + 1.0) / total).collect()
}

/// The evidence of each method put together per candidate (training
/// gathers NB's from the folds, the rest per document).
pub fn combine(
    target: &Target,
    knn: Vec<KnnEvidence>,
    nb: NbEvidence,
    lesk: Vec<f64>,
    frames: Vec<FrameFit>,
    objects: Vec<(f64, f64)>,
    counts: &[u32],
) -> (TargetEvidence, Vec<CandidateEvidence>) {
    let out = (0..counts.len())
        .map(|i| CandidateEvidence {
            knn: knn.get(i).copied().unwrap_or_default(),
            nb: nb.log_posterior.get(i).copied().flatten(),
            lesk: lesk.get(i).copied().unwrap_or(0.0),
            count: counts[i],
            frame: frames.get(i).copied().unwrap_or_default(),
            object: objects.get(i).copied().unwrap_or_default(),
        })
        .collect();
    (
        TargetEvidence {
            pos: target.pos,
            nb_examples: nb.examples,
        },
        out,
    )
}

/// NB's abstention threshold (`NbParams::min_examples`' default): the
/// `nb.logpost×rich` feature is NB's log posterior where NB would answer.
pub const NB_RICH: u64 = 40;

/// A log posterior of a sense NB never saw with the lemma (when it saw
/// others), and the floor of every log posterior.
pub const NB_FLOOR: f64 = -10.0;

/// The features, in the order of [`feature_rows`]' columns. A model
/// file stores these names; a model trained with another list is refused.
pub const FEATURES: &[&str] = &[
    "knn.score",
    "knn.ctx",
    "knn.gloss",
    "knn.gap",
    "knn.best",
    "knn.own",
    "knn.propagated",
    "knn.missing",
    "nb.logpost",
    "nb.best",
    "nb.untrained",
    "nb.logpost×rich",
    "nb.logpost×ln_examples",
    "lesk.overlap",
    "lesk.best",
    "prior.logshare",
    "prior.first",
    "prior.unseen",
    "prior.logshare×ln_senses",
    "nb.gap",
    "knn.inv_rank",
    "knn.score×ln_senses",
    "knn.gap×verb",
    "knn.score×noun",
    "knn.score×verb",
    "knn.score×adj",
    "knn.score×adv",
    "nb.logpost×noun",
    "nb.logpost×verb",
    "nb.logpost×adj",
    "nb.logpost×adv",
    "prior.logshare×noun",
    "prior.logshare×verb",
    "prior.logshare×adj",
    "prior.logshare×adv",
    "lesk.overlap×noun",
    "lesk.overlap×verb",
    "lesk.overlap×adj",
    "lesk.overlap×adv",
    "knn.gloss×noun",
    "knn.gloss×verb",
    "knn.gloss×adj",
    "knn.gloss×adv",
    "frame.fits",
    "frame.misfit",
    "frame.subject_fits",
    "frame.subject_misfit",
    "obj.lemma",
    "obj.class",
    "knn.nearest",
    "knn.nearest3",
    "knn.nearest_gap",
    "knn.nearest×verb",
    "knn.sent",
    "knn.sent_gap",
];

/// Rank 0 for the best of `scores` (ties: the earlier), by decreasing score.
fn is_best(scores: &[Option<f64>]) -> Vec<bool> {
    let mut best: Option<(usize, f64)> = None;
    for (i, s) in scores.iter().enumerate() {
        if let Some(s) = *s {
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((i, s));
            }
        }
    }
    (0..scores.len())
        .map(|i| best.is_some_and(|b| b.0 == i))
        .collect()
}

/// The feature rows of a target's candidates (columns: [`FEATURES`]).
pub fn feature_rows(t: &TargetEvidence, cands: &[CandidateEvidence]) -> Vec<Vec<f64>> {
    let knn: Vec<Option<f64>> = cands.iter().map(|c| c.knn.score().map(f64::from)).collect();
    let knn_max = knn
        .iter()
        .flatten()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    let knn_best = is_best(&knn);
    let nb_answered = cands.iter().any(|c| c.nb.is_some());
    let nb: Vec<Option<f64>> = cands
        .iter()
        .map(|c| c.nb.map(|x| x.max(NB_FLOOR)))
        .collect();
    let nb_best = is_best(&nb);
    let nb_max = nb
        .iter()
        .flatten()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    let knn_rank: Vec<f64> = knn
        .iter()
        .map(|s| match s {
            Some(s) => 1.0 / (1 + knn.iter().flatten().filter(|o| *o > s).count()) as f64,
            None => 0.0,
        })
        .collect();
    let nearest_max = cands
        .iter()
        .filter_map(|c| c.knn.nearest.map(|n| f64::from(n.0)))
        .fold(f64::NEG_INFINITY, f64::max);
    let sentence_max = cands
        .iter()
        .filter_map(|c| c.knn.sentence.map(f64::from))
        .fold(f64::NEG_INFINITY, f64::max);
    let lesk: Vec<Option<f64>> = cands.iter().map(|c| Some(c.lesk)).collect();
    let lesk_best = is_best(&lesk);
    let lesk_any = cands.iter().any(|c| c.lesk > 0.0);
    let total: f64 = cands.iter().map(|c| c.count as f64 + 1.0).sum();
    let counts: Vec<Option<f64>> = cands.iter().map(|c| Some(c.count as f64)).collect();
    let first = is_best(&counts);
    let ln_senses = (cands.len() as f64).ln();
    let rich = (t.nb_examples >= NB_RICH) as u8 as f64;
    let ln_examples = (1.0 + t.nb_examples as f64).ln();
    let pos = [Pos::Noun, Pos::Verb, Pos::Adj, Pos::Adv].map(|p| (t.pos == p) as u8 as f64);
    let flag = |b: bool| b as u8 as f64;
    cands
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let score = knn[i].unwrap_or(0.0);
            let gap = knn[i].map_or(0.0, |s| s - knn_max);
            let logpost = match nb[i] {
                Some(x) => x,
                None if nb_answered => NB_FLOOR,
                None => 0.0,
            };
            let logshare = ((c.count as f64 + 1.0) / total).ln();
            let mut row = vec![
                score,
                c.knn.ctx.map_or(0.0, f64::from),
                c.knn.gloss.map_or(0.0, f64::from),
                gap,
                flag(knn_best[i]),
                // own: the candidate's own centroid, its key's or synset's
                flag(matches!(
                    c.knn.source,
                    VectorSource::Own | VectorSource::SenseKey
                )),
                flag(c.knn.source == VectorSource::Propagated),
                flag(knn[i].is_none()),
                logpost,
                flag(nb_best[i]),
                flag(nb_answered && nb[i].is_none()),
                logpost * rich,
                logpost * ln_examples,
                c.lesk,
                flag(lesk_any && lesk_best[i]),
                logshare,
                flag(first[i]),
                flag(c.count == 0),
                logshare * ln_senses,
                nb[i].map_or(0.0, |x| x - nb_max),
                knn_rank[i],
                score * ln_senses,
                gap * pos[1],
            ];
            let gloss = c.knn.gloss.map_or(0.0, f64::from);
            for base in [score, logpost, logshare, c.lesk, gloss] {
                row.extend(pos.iter().map(|p| p * base));
            }
            let fit = |x: Option<bool>, want: bool| flag(x == Some(want));
            row.extend([
                fit(c.frame.complement, true),
                fit(c.frame.complement, false),
                fit(c.frame.subject, true),
                fit(c.frame.subject, false),
                c.object.0,
                c.object.1,
            ]);
            let (near, near3) = c
                .knn
                .nearest
                .map_or((0.0, 0.0), |(a, b)| (f64::from(a), f64::from(b)));
            row.extend([
                near,
                near3,
                c.knn.nearest.map_or(0.0, |_| near - nearest_max),
                near * pos[1],
            ]);
            let sent = c.knn.sentence.map(f64::from);
            row.extend([sent.unwrap_or(0.0), sent.map_or(0.0, |x| x - sentence_max)]);
            debug_assert_eq!(row.len(), FEATURES.len());
            row
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(ctx: Option<f32>, nb: Option<f64>, lesk: f64, count: u32) -> CandidateEvidence {
        CandidateEvidence {
            knn: KnnEvidence {
                ctx,
                gloss: ctx.map(|c| c - 0.1),
                source: if ctx.is_some() {
                    VectorSource::Own
                } else {
                    VectorSource::Missing
                },
                nearest: ctx.map(|c| (c + 0.2, c + 0.1)),
                sentence: ctx.map(|c| c - 0.3),
            },
            nb,
            lesk,
            count,
            frame: FrameFit::default(),
            object: (0.0, 0.0),
        }
    }

    fn col(name: &str) -> usize {
        FEATURES.iter().position(|f| *f == name).unwrap()
    }

    #[test]
    fn nearest_instance_and_sentence_features_follow_their_cosines() {
        let t = TargetEvidence {
            pos: Pos::Verb,
            nb_examples: 0,
        };
        let c = [
            cand(Some(0.5), None, 0.0, 1),
            cand(Some(0.7), None, 0.0, 1),
            cand(None, None, 0.0, 1),
        ];
        let r = feature_rows(&t, &c);
        let at = |i: usize, f: &str| r[i][col(f)];
        assert!((at(1, "knn.nearest") - 0.9).abs() < 1e-6);
        assert!((at(1, "knn.nearest3") - 0.8).abs() < 1e-6);
        assert!((at(0, "knn.nearest_gap") + 0.2).abs() < 1e-6);
        assert_eq!(at(1, "knn.nearest_gap"), 0.0);
        assert!((at(0, "knn.nearest×verb") - 0.7).abs() < 1e-6);
        // no kept instance: all four are 0
        for f in super::super::NEAREST_FEATURES {
            assert_eq!(at(2, f), 0.0, "{f}");
        }
        // sentence cosines 0.2, 0.4 and none
        assert!((at(0, "knn.sent") - 0.2).abs() < 1e-6);
        assert!((at(0, "knn.sent_gap") + 0.2).abs() < 1e-6);
        assert!((at(1, "knn.sent") - 0.4).abs() < 1e-6);
        assert_eq!(at(1, "knn.sent_gap"), 0.0);
        for f in super::super::SENTENCE_FEATURES {
            assert_eq!(at(2, f), 0.0, "{f}");
        }
    }

    #[test]
    fn rows_follow_the_evidence() {
        let t = TargetEvidence {
            pos: Pos::Verb,
            nb_examples: 50,
        };
        let c = [
            cand(Some(0.5), Some(-0.1), 0.0, 9),
            cand(Some(0.7), None, 1.5, 0),
            cand(None, Some(-2.0), 0.0, 2),
        ];
        let r = feature_rows(&t, &c);
        assert_eq!(r.len(), 3);
        assert!(r.iter().all(|x| x.len() == FEATURES.len()));
        // kNN: score = 0.7·ctx + 0.3·gloss; the best has gap 0
        assert!((r[1][col("knn.score")] - (0.7 - 0.03)).abs() < 1e-6);
        assert_eq!(r[1][col("knn.best")], 1.0);
        assert_eq!(r[1][col("knn.gap")], 0.0);
        assert!(r[0][col("knn.gap")] < 0.0);
        assert_eq!(r[2][col("knn.missing")], 1.0);
        assert_eq!(r[2][col("knn.score")], 0.0);
        // NB: an untrained candidate gets the floor and the flag
        assert_eq!(r[1][col("nb.logpost")], NB_FLOOR);
        assert_eq!(r[1][col("nb.untrained")], 1.0);
        assert_eq!(r[0][col("nb.best")], 1.0);
        assert_eq!(r[0][col("nb.logpost×rich")], -0.1);
        // prior: add-one shares of the counts, first = largest count
        assert!((r[0][col("prior.logshare")] - (10.0f64 / 14.0).ln()).abs() < 1e-12);
        assert_eq!(r[0][col("prior.first")], 1.0);
        assert_eq!(r[1][col("prior.unseen")], 1.0);
        assert_eq!(r[1][col("lesk.best")], 1.0);
        // per-POS copies: only the verb column
        assert_eq!(r[0][col("nb.logpost×verb")], -0.1);
        assert_eq!(r[0][col("nb.logpost×noun")], 0.0);
        assert_eq!(r[1][col("lesk.overlap×verb")], 1.5);
    }

    #[test]
    fn leaving_a_document_out_of_a_centroid_is_exact_with_its_resultant() {
        let v = [
            normalized(&[1.0, 0.2, 0.0]),
            normalized(&[0.8, 0.5, 0.1]),
            normalized(&[0.0, 1.0, 0.3]),
        ];
        let sum: Vec<f32> = (0..3).map(|j| v.iter().map(|x| x[j]).sum()).collect();
        let c = normalized(&sum);
        // R = c · Σ v = |Σ v| (format 4 stores it; Resultants estimates it
        // as n · mean(c · v) for older models)
        let r: f32 = v.iter().map(|x| dot(&c, x)).sum();
        let without_last = loo_centroid(&c, 3, r, 1, &v[2]).unwrap();
        let want = normalized(&[v[0][0] + v[1][0], v[0][1] + v[1][1], v[0][2] + v[1][2]]);
        for (a, b) in without_last.iter().zip(&want) {
            assert!((a - b).abs() < 1e-5, "{without_last:?} vs {want:?}");
        }
        // with n · c instead of R · c the direction would be wrong
        let naive = loo_centroid(&c, 3, 3.0, 1, &v[2]).unwrap();
        assert!(naive.iter().zip(&want).any(|(a, b)| (a - b).abs() > 1e-3));
        // a document holding every instance leaves nothing
        assert!(loo_centroid(&c, 3, r, 3, &sum).is_none());
    }

    #[test]
    fn a_sense_key_below_sense_min_after_removal_falls_back() {
        // twelve instances of a key, sense_min 10
        let v: Vec<Vec<f32>> = (0..12)
            .map(|i| normalized(&[1.0, i as f32 / 6.0, (i % 3) as f32]))
            .collect();
        let sum_of = |xs: &[Vec<f32>]| -> Vec<f32> {
            (0..3).map(|j| xs.iter().map(|x| x[j]).sum()).collect()
        };
        let c = normalized(&sum_of(&v));
        let r: f32 = v.iter().map(|x| dot(&c, x)).sum();
        // nothing of the key in the document: the model's vector, borrowed
        let same = loo_sense_centroid(&c, 12, r, None, 10).unwrap();
        assert!(matches!(same, Cow::Borrowed(_)));
        // two in the document: ten left, the centroid of the other ten
        let two = (2, sum_of(&v[10..]));
        let got = loo_sense_centroid(&c, 12, r, Some(&two), 10).unwrap();
        let want = normalized(&sum_of(&v[..10]));
        for (a, b) in got.iter().zip(&want) {
            assert!((a - b).abs() < 1e-5, "{got:?} vs {want:?}");
        }
        // three: nine left, below sense_min: no key vector
        let three = (3, sum_of(&v[9..]));
        assert!(loo_sense_centroid(&c, 12, r, Some(&three), 10).is_none());
        // sense_min 0 (no key vectors made) still needs one instance left
        let all = (12, sum_of(&v));
        assert!(loo_sense_centroid(&c, 12, r, Some(&all), 0).is_none());
    }

    #[test]
    fn a_removal_counts_an_instance_once_per_synset_and_key() {
        let mut r = Removal::default();
        let (a, b) = (normalized(&[1.0, 0.0]), normalized(&[1.0, 1.0]));
        let key = "bank%1:14:00::".to_string();
        r.add(&[], std::slice::from_ref(&key), &a);
        r.add(&[], std::slice::from_ref(&key), &b);
        let (k, sum) = &r.keys[&key];
        assert_eq!(*k, 2);
        assert!((sum[0] - (a[0] + b[0])).abs() < 1e-6, "{sum:?}");
        assert!((sum[1] - b[1]).abs() < 1e-6, "{sum:?}");
        assert!(r.sums.is_empty());
    }

    #[test]
    fn gold_keys_are_known_and_distinct() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let inv = Inventory::open(Some(&root.join("wordnet/dict"))).expect("wordnet/dict");
        let gold: Vec<String> = [
            "bank%1:14:00::",
            "bank%1:14:00::",
            "bank%9:99:99::",
            "bank%1:17:01::",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(gold_keys(&inv, &gold), ["bank%1:14:00::", "bank%1:17:01::"]);
    }

    #[test]
    fn resultants_are_scaled_to_the_count_and_bounded() {
        // four of ten instances sampled, cosines summing to 3.2: R ≈ 10 · 0.8
        assert!((resultant(10, 3.2, 4).unwrap() - 8.0).abs() < 1e-6);
        // never above n, never below the sampled sum (or 1)
        assert_eq!(resultant(10, 4.0, 4), Some(10.0));
        assert_eq!(resultant(10, 0.1, 4), Some(1.0));
        assert_eq!(resultant(10, 0.0, 0), None);
    }

    #[test]
    fn without_nb_or_lesk_evidence_their_features_are_zero() {
        let t = TargetEvidence {
            pos: Pos::Noun,
            nb_examples: 0,
        };
        let r = feature_rows(
            &t,
            &[cand(Some(0.2), None, 0.0, 0), cand(Some(0.1), None, 0.0, 0)],
        );
        for name in ["nb.logpost", "nb.best", "nb.untrained", "lesk.best"] {
            assert!(r.iter().all(|x| x[col(name)] == 0.0), "{name}");
        }
        // equal counts: the first in WordNet order is the first sense
        assert_eq!(r[0][col("prior.first")], 1.0);
        assert_eq!(r[1][col("prior.first")], 0.0);
    }
}
