//! From a method's scores to probabilities you can read: normalisation per
//! target ([`Scale`]) and calibration per method ([`Calibration`]), fitted
//! on SemCor's train split, so that an answer given with probability 0.8
//! is right about 80% of the time.
//!
//! # Normalisation
//!
//! Every method scores its candidates on its own scale (overlaps, log
//! probabilities, summed similarities, cosines, counts; the README's
//! "Scores" section). [`Scale`] says how a method's scores become a
//! distribution over its candidates: a softmax for log-scores (Naive
//! Bayes' log joint gives its exact posterior; Lesk's overlaps and
//! extended Lesk's `overlap + 2 ln P(sense)` read as log-odds), a share of
//! the sum for non-negative evidence (summed similarities), add-one shares
//! for counts (mfs), a softmax at a temperature for cosines (knn).
//!
//! # Calibration
//!
//! A normalised probability is not yet a frequency: Lesk's softmax over
//! integer overlaps is far too sure, a similarity share far too modest.
//! [`Calibration`] maps the normalised probability of the chosen sense to
//! the rate at which such answers were right, per method and per decision
//! (`method`, `tie`, `fallback`: a Lesk fallback to the first sense is
//! right far more often than its uniform distribution says). The map is
//! isotonic regression (pool-adjacent-violators) rather than Platt's
//! sigmoid: it assumes only that a higher normalised probability is not
//! less often right, which holds for every method, while the shapes differ
//! too much between methods (Lesk's discrete overlaps, NB's near-0/1
//! posteriors) for one parametric curve; with ~180k training instances
//! per method there is data enough. Blocks of fewer than
//! [`MIN_BLOCK`] answers are merged with a neighbour (which keeps the map
//! monotone) so that no step rests on a handful of answers, and the map
//! interpolates linearly between block means.
//!
//! The chosen sense gets the calibrated probability `c`; the other
//! candidates share `1 − c` in proportion to their normalised
//! probabilities, each at most `c`, so the ranking stays that of the method.
//!
//! The table ([`Calibration::builtin`], `calibration.tsv` beside this
//! file) is produced by `wsd calibrate` (`fit_method` in `src/cli/calibrate.rs`): untrained methods
//! run on SemCor's train split; Naive Bayes and `mfs-semcor` are
//! cross-fitted (5 folds by document: a model trained on four fifths
//! answers the fifth), since a model answering its own training examples
//! would be far too sure. (`mfs`'s WordNet tag counts were counted on all
//! of SemCor, the train split included, so its map is somewhat optimistic
//! there and out of domain.) kNN is not in the table (a model per fold is
//! 5 × 20 minutes of encoding): a knn model fits its own map at training
//! time instead, answering every training instance with the instance's
//! document left out of the centroids (exact and cheap for centroids,
//! see [`super::knn::KnnCalibration`]), and carries it in the model file;
//! [`super::Disambiguator::calibration`] hands it to output, which merges
//! it into this table ([`Calibration::merged`]). Older knn models, and
//! knn run with other options than the map was fitted with, are reported
//! as uncalibrated, as are methods not in the table, rather than given
//! made-up numbers.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::OnceLock;

use rayon::prelude::*;
use serde::Serialize;

use super::naive_bayes::{NaiveBayes, NbParams};
use super::registry::{Method, MethodOptions};
use super::{candidates_of, decide_document, Decision, Disambiguator, FallbackReason, Prediction};
use crate::corpus::{Document, KeyFile};
use crate::resources::Resources;
use crate::wordnet::Inventory;
use crate::{Error, Result};

/// How a method's raw scores become probabilities over its candidates.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Scale {
    /// Log-scores (log-probabilities, log-odds): softmax.
    #[default]
    Log,
    /// Scores on a narrow linear scale (cosines): softmax of score / T.
    Tempered(f64),
    /// Non-negative evidence: each candidate's share of the sum; uniform
    /// when every score is 0.
    Share,
    /// Counts: add-one smoothed shares, `(n + 1) / Σ (n + 1)`.
    Counts,
}

impl Scale {
    /// Probabilities (summing to 1) of `scores`; empty for no scores.
    pub fn normalise(self, scores: &[f64]) -> Vec<f64> {
        let n = scores.len();
        if n == 0 {
            return Vec::new();
        }
        let uniform = || vec![1.0 / n as f64; n];
        let shares = |v: Vec<f64>| {
            let z: f64 = v.iter().sum();
            if z > 0.0 && z.is_finite() {
                v.into_iter().map(|x| x / z).collect()
            } else {
                uniform()
            }
        };
        match self {
            Scale::Log | Scale::Tempered(_) => {
                let t = match self {
                    Scale::Tempered(t) if t > 0.0 => t,
                    _ => 1.0,
                };
                let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                if !max.is_finite() {
                    return uniform();
                }
                shares(scores.iter().map(|s| ((s - max) / t).exp()).collect())
            }
            Scale::Share => shares(scores.iter().map(|s| s.max(0.0)).collect()),
            Scale::Counts => shares(scores.iter().map(|s| s.max(0.0) + 1.0).collect()),
        }
    }
}

/// Fewest answers behind one step of a calibration map.
pub const MIN_BLOCK: usize = 50;

/// One step of a calibration map: answers whose normalised probability
/// averaged `p` were right at the rate `accuracy`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Block {
    /// Mean normalised probability of the chosen sense.
    pub p: f64,
    /// Share of those answers that were right.
    pub accuracy: f64,
    /// How many answers.
    pub count: usize,
}

/// One answer for fitting: who answered, how, the normalised probability
/// of the chosen sense, and whether it was right.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The answering method.
    pub method: String,
    /// [`map_decision`] of the answer.
    pub decided: &'static str,
    /// Normalised probability of the chosen sense.
    pub p: f64,
    /// Was it a gold key?
    pub correct: bool,
}

/// The decision under which an answer is calibrated: `method`, `tie` or
/// `fallback`; a back-off answer is calibrated as its method's own
/// decision (the chain only relabels it); `None` for single-sense answers
/// (probability 1, nothing to calibrate).
pub fn map_decision(d: Decision) -> Option<&'static str> {
    match d {
        Decision::Decided
        | Decision::Fallback {
            reason: FallbackReason::BackOff,
        } => Some("method"),
        Decision::Tie => Some("tie"),
        Decision::SingleSense => None,
        _ => Some("fallback"),
    }
}

/// A probability for each of an answer's senses, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Probabilities {
    /// (sense key, probability), the chosen sense first.
    pub senses: Vec<(String, f64)>,
    /// Calibrated (else only normalised: no map for this method).
    pub calibrated: bool,
}

/// Calibration maps per (method, decision).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Calibration {
    maps: BTreeMap<(String, String), Vec<Block>>,
}

/// The committed table (`wsd calibrate` writes it).
const BUILTIN: &str = include_str!("calibration.tsv");

impl Calibration {
    /// The table committed with this version (fitted on SemCor's train
    /// split by `wsd calibrate`).
    pub fn builtin() -> &'static Calibration {
        static TABLE: OnceLock<Calibration> = OnceLock::new();
        TABLE.get_or_init(|| {
            // A unit test checks that the committed table parses.
            Calibration::parse(BUILTIN, Path::new("calibration.tsv")).unwrap_or_default()
        })
    }

    /// Read a table written by [`Calibration::to_tsv`].
    pub fn read(path: &Path) -> Result<Calibration> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        Calibration::parse(&text, path)
    }

    /// Parse a table: `#` comment lines, then `method decided p accuracy
    /// count` rows (tab-separated), `p` strictly and `accuracy` weakly
    /// increasing within a (method, decided), probabilities in [0, 1].
    pub fn parse(text: &str, origin: &Path) -> Result<Calibration> {
        let mut maps: BTreeMap<(String, String), Vec<Block>> = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            if f.len() != 5 {
                return Err(Error::parse(
                    origin,
                    n,
                    format!(
                        "expected 5 tab-separated fields (method, decided, p, accuracy, count), found {}",
                        f.len()
                    ),
                ));
            }
            let prob = |s: &str, what: &str| -> Result<f64> {
                match s.parse::<f64>() {
                    Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
                    _ => Err(Error::parse(
                        origin,
                        n,
                        format!("{what} {s:?} is not a number in [0, 1]"),
                    )),
                }
            };
            let p = prob(f[2], "p")?;
            let accuracy = prob(f[3], "accuracy")?;
            let count: usize = f[4].parse().map_err(|_| {
                Error::parse(origin, n, format!("count {:?} is not a whole number", f[4]))
            })?;
            let map = maps
                .entry((f[0].to_string(), f[1].to_string()))
                .or_default();
            if let Some(last) = map.last() {
                if p <= last.p || accuracy < last.accuracy {
                    return Err(Error::parse(
                        origin,
                        n,
                        format!(
                            "{} {}: not monotone (p {} after {}, accuracy {} after {})",
                            f[0], f[1], p, last.p, accuracy, last.accuracy
                        ),
                    ));
                }
            }
            map.push(Block { p, accuracy, count });
        }
        Ok(Calibration { maps })
    }

    /// The table as text ([`Calibration::parse`] reads it back), after
    /// `header` (comment lines, `#` added).
    pub fn to_tsv(&self, header: &str) -> String {
        let mut s = String::new();
        for l in header.lines() {
            let _ = writeln!(s, "# {l}");
        }
        let _ = writeln!(s, "# method\tdecided\tp\taccuracy\tcount");
        for ((m, d), blocks) in &self.maps {
            for b in blocks {
                // Shortest round-trip form: rounding could make two
                // neighbouring blocks' p equal (0.9999996 and 0.9999999).
                let _ = writeln!(s, "{m}\t{d}\t{}\t{}\t{}", b.p, b.accuracy, b.count);
            }
        }
        s
    }

    /// The maps, by (method, decision).
    pub fn maps(&self) -> &BTreeMap<(String, String), Vec<Block>> {
        &self.maps
    }

    /// Does the table calibrate `method`'s answers?
    pub fn has(&self, method: &str) -> bool {
        self.maps.keys().any(|(m, _)| m == method)
    }

    /// Fit maps on `samples` (isotonic regression per method and decision;
    /// see the module docs).
    pub fn fit(samples: &[Sample]) -> Calibration {
        let mut groups: BTreeMap<(String, String), Vec<(f64, bool)>> = BTreeMap::new();
        for s in samples {
            groups
                .entry((s.method.clone(), s.decided.to_string()))
                .or_default()
                .push((s.p, s.correct));
        }
        let maps = groups
            .into_iter()
            .map(|(k, v)| (k, isotonic(v, MIN_BLOCK)))
            .collect();
        Calibration { maps }
    }

    /// The isotonic map of (normalised probability, right) pairs, as
    /// [`Calibration::fit`] fits each (method, decision): for a model that
    /// fits its own calibration (knn).
    pub fn fit_map(pairs: Vec<(f64, bool)>) -> Vec<Block> {
        isotonic(pairs, MIN_BLOCK)
    }

    /// This table plus (or, for a key it has, replaced by) the maps of
    /// `other`: the built-in table with a model's own maps.
    pub fn merged(&self, other: &Calibration) -> Calibration {
        let mut maps = self.maps.clone();
        for (k, v) in &other.maps {
            maps.insert(k.clone(), v.clone());
        }
        Calibration { maps }
    }

    /// A table of one map, `method`'s answers under `decided`.
    pub fn single(method: &str, decided: &str, blocks: Vec<Block>) -> Calibration {
        let mut maps = BTreeMap::new();
        if !blocks.is_empty() {
            maps.insert((method.to_string(), decided.to_string()), blocks);
        }
        Calibration { maps }
    }

    /// The calibrated probability of the chosen sense of an answer whose
    /// normalised probability is `p`; `None` when the table has no map.
    pub fn calibrate(&self, method: &str, decided: &str, p: f64) -> Option<f64> {
        let map = self.maps.get(&(method.to_string(), decided.to_string()))?;
        interpolate(map, p)
    }

    /// A probability for each sense of `pred`, best first (see the module
    /// docs): single-sense answers 1; uncalibrated methods their
    /// normalised distribution.
    pub fn probabilities(&self, pred: &Prediction) -> Probabilities {
        let mut senses = pred.distribution();
        let Some(decided) = map_decision(pred.decision) else {
            return Probabilities {
                senses,
                calibrated: true,
            };
        };
        let p1 = senses.first().map_or(1.0, |s| s.1);
        let Some(c) = self.calibrate(&pred.method, decided, p1) else {
            return Probabilities {
                senses,
                calibrated: false,
            };
        };
        let rest = 1.0 - p1;
        for (i, s) in senses.iter_mut().enumerate() {
            s.1 = if i == 0 {
                c
            } else if rest > 0.0 {
                ((1.0 - c) * s.1 / rest).min(c)
            } else {
                0.0
            };
        }
        Probabilities {
            senses,
            calibrated: true,
        }
    }
}

/// Pool-adjacent-violators over (p, right) pairs, then merging of blocks
/// under `min` answers; blocks as (mean p, accuracy, count), p increasing.
fn isotonic(mut v: Vec<(f64, bool)>, min: usize) -> Vec<Block> {
    v.retain(|(p, _)| p.is_finite());
    v.sort_by(|a, b| a.0.total_cmp(&b.0));
    // (sum p, sum right, count)
    let mut blocks: Vec<(f64, f64, usize)> = Vec::new();
    let mut i = 0;
    while i < v.len() {
        // equal p values form one initial block
        let mut j = i;
        let (mut sp, mut sr) = (0.0, 0.0);
        while j < v.len() && v[j].0 == v[i].0 {
            sp += v[j].0;
            sr += v[j].1 as u8 as f64;
            j += 1;
        }
        blocks.push((sp, sr, j - i));
        i = j;
        while blocks.len() > 1 {
            let (a, b) = (blocks[blocks.len() - 2], blocks[blocks.len() - 1]);
            if a.1 / a.2 as f64 >= b.1 / b.2 as f64 {
                blocks.pop();
                let last = blocks.last_mut().expect("two blocks");
                *last = (a.0 + b.0, a.1 + b.1, a.2 + b.2);
            } else {
                break;
            }
        }
    }
    // Merge small blocks into a neighbour: the merged accuracy lies
    // between the two, so the sequence stays increasing.
    let mut merged: Vec<(f64, f64, usize)> = Vec::new();
    for b in blocks {
        match merged.last_mut() {
            Some(last) if last.2 < min => *last = (last.0 + b.0, last.1 + b.1, last.2 + b.2),
            _ => merged.push(b),
        }
    }
    if merged.len() > 1 && merged.last().is_some_and(|b| b.2 < min) {
        let b = merged.pop().expect("a block");
        let last = merged.last_mut().expect("a block");
        *last = (last.0 + b.0, last.1 + b.1, last.2 + b.2);
    }
    merged
        .into_iter()
        .map(|(sp, sr, n)| Block {
            p: sp / n as f64,
            accuracy: sr / n as f64,
            count: n,
        })
        .collect()
}

/// The map at `p`: linear between block means, flat outside them.
fn interpolate(map: &[Block], p: f64) -> Option<f64> {
    let first = map.first()?;
    let last = map.last()?;
    if p <= first.p {
        return Some(first.accuracy);
    }
    if p >= last.p {
        return Some(last.accuracy);
    }
    let i = map.iter().position(|b| b.p >= p)?;
    let (a, b) = (map[i - 1], map[i]);
    let t = (p - a.p) / (b.p - a.p);
    Some(a.accuracy + t * (b.accuracy - a.accuracy))
}

/// The fitting samples of `method` answering `docs` (their gold keys on
/// the tokens): one per answered target with two or more candidates.
pub fn samples(method: &dyn Disambiguator, inv: &Inventory, docs: &[Document]) -> Vec<Sample> {
    docs.par_iter()
        .flat_map_iter(|doc| {
            let cands = candidates_of(inv, doc.targets());
            let preds = decide_document(method, inv, doc, &cands);
            cands
                .into_iter()
                .zip(preds)
                .filter_map(|(c, p)| {
                    let p = p?;
                    let decided = map_decision(p.decision)?;
                    let gold = &doc.token(&c.target).gold;
                    let p1 = p.distribution().first().map_or(1.0, |s| s.1);
                    Some(Sample {
                        method: p.method.clone(),
                        decided,
                        p: p1,
                        correct: gold.contains(&p.key),
                    })
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The methods `wsd calibrate` fits by default: every registered method
/// but knn and ens (see the module docs: a model per fold would be needed).
pub fn default_methods() -> Vec<&'static str> {
    super::registry::names()
        .into_iter()
        .filter(|&n| n != super::knn::METHOD && n != super::ens::METHOD)
        .collect()
}

/// Cross-fitting by document folds, so that no model answers its own
/// training data: document `i` of `docs` is in fold `i % folds` (at least
/// 2 folds); for each fold, `learn` gets the documents of the other folds
/// and `answer` the fold's documents (with their index in `docs`) and what
/// was learnt. The answers of all folds, fold after fold. Calibration
/// fits nb and mfs-semcor this way, and `ens` takes its Naive Bayes
/// features from it.
pub fn cross_fitted<M, T>(
    docs: &[Document],
    folds: usize,
    learn: impl Fn(&[Document]) -> M,
    answer: impl Fn(&M, &[(usize, &Document)]) -> Vec<T>,
) -> Vec<T> {
    let folds = folds.max(2);
    let mut out = Vec::new();
    for f in 0..folds {
        let (train, held): (Vec<_>, Vec<_>) =
            docs.iter().enumerate().partition(|(i, _)| i % folds != f);
        let train: Vec<Document> = train.into_iter().map(|(_, d)| d.clone()).collect();
        let model = learn(&train);
        out.extend(answer(&model, &held));
    }
    out
}

/// The fitting samples of the registered method `name` on `docs` (SemCor's
/// train split): untrained methods are built from `res` with the default
/// options and answer every document; `nb` and `mfs-semcor`, which learn
/// from the train split, are cross-fitted, `folds` folds by document, each
/// model learnt (nb with the default parameters) on the other folds; other
/// trained methods (knn) are refused.
pub fn fit_samples(
    res: &Resources,
    name: &str,
    docs: &[Document],
    folds: usize,
) -> Result<Vec<Sample>> {
    let inv = res.inventory()?;
    let method = Method::by_name(name)?;
    // Methods that learn from SemCor's train split answer each fold with
    // what they learnt from the other folds.
    let cross_fit = |learn: &dyn Fn(&[Document]) -> Box<dyn Disambiguator>| {
        cross_fitted(docs, folds, learn, |m, held| {
            let held: Vec<Document> = held.iter().map(|(_, d)| (*d).clone()).collect();
            samples(m.as_ref(), inv, &held)
        })
    };
    if name == crate::disambig::naive_bayes::METHOD {
        return Ok(cross_fit(&|train| {
            Box::new(NaiveBayes::train(
                inv,
                train,
                &NbParams::default(),
                &|_, _| {},
            ))
        }));
    }
    if name == "mfs-semcor" {
        // As registered: the counts, backing off to WordNet's first sense.
        return Ok(cross_fit(&|train| {
            Box::new(super::Chain::new(vec![
                Box::new(super::CorpusMfs::from_documents(train)),
                Box::new(super::FirstSense),
            ]))
        }));
    }
    if method.trains() {
        return Err(Error::BadMethodSpec {
            spec: name.to_string(),
            msg: format!(
                "{name} would need a model per fold to be calibrated without seeing its own training data; it is left uncalibrated here (a knn model fits its own calibration when trained)"
            ),
        });
    }
    let built = method.build(res, &MethodOptions::default())?;
    Ok(samples(built.as_ref(), inv, docs))
}

/// One bin of a reliability table: answers whose calibrated probability
/// fell in `[lo, hi)` (the last bin includes 1).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Bin {
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
    /// Answers in the bin.
    pub count: usize,
    /// Their mean predicted probability.
    pub predicted: f64,
    /// The share of them that were right.
    pub accuracy: f64,
}

/// How well probabilities match outcomes on a data set, and how often the
/// right sense is among the first K.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Reliability {
    /// Bins of the chosen sense's probability (answers with two or more
    /// candidates that the table calibrates).
    pub bins: Vec<Bin>,
    /// Answers in the bins.
    pub calibrated: usize,
    /// Answers of methods the table does not calibrate (not in the bins).
    pub uncalibrated: usize,
    /// Single-sense answers (probability 1; not in the bins).
    pub single_sense: usize,
    /// Expected calibration error: Σ count/N · |accuracy − predicted|, in
    /// probability units.
    pub ece: f64,
    /// (K, percent of gold instances with a gold key among the first K
    /// senses); K = 1 is the recall.
    pub top_k: Vec<(usize, f64)>,
}

/// The reliability of `answers` (instance id, prediction) against `gold`,
/// with `bins` equal-width bins and top-K accuracy for K = 1..=`k`.
pub fn reliability(
    answers: &[(String, Prediction)],
    gold: &KeyFile,
    cal: &Calibration,
    bins: usize,
    k: usize,
) -> Reliability {
    let bins = bins.max(1);
    let mut acc = vec![(0usize, 0.0f64, 0usize); bins];
    let mut r = Reliability::default();
    let mut hits = vec![0usize; k.max(1)];
    for (id, p) in answers {
        let Some(g) = gold.get(id) else { continue };
        let probs = cal.probabilities(p);
        if let Some(rank) = probs.senses.iter().position(|(key, _)| g.contains(key)) {
            for h in hits.iter_mut().skip(rank) {
                *h += 1;
            }
        }
        if p.decision == Decision::SingleSense {
            r.single_sense += 1;
            continue;
        }
        if !probs.calibrated {
            r.uncalibrated += 1;
            continue;
        }
        let c = probs.senses.first().map_or(0.0, |s| s.1);
        let b = ((c * bins as f64) as usize).min(bins - 1);
        acc[b].0 += 1;
        acc[b].1 += c;
        acc[b].2 += g.contains(&p.key) as usize;
        r.calibrated += 1;
    }
    let n = r.calibrated.max(1) as f64;
    for (i, (count, sum, right)) in acc.into_iter().enumerate() {
        let bin = Bin {
            lo: i as f64 / bins as f64,
            hi: (i + 1) as f64 / bins as f64,
            count,
            predicted: if count > 0 { sum / count as f64 } else { 0.0 },
            accuracy: if count > 0 {
                right as f64 / count as f64
            } else {
                0.0
            },
        };
        r.ece += count as f64 / n * (bin.accuracy - bin.predicted).abs();
        r.bins.push(bin);
    }
    let total = gold.len().max(1) as f64;
    r.top_k = hits
        .into_iter()
        .enumerate()
        .map(|(i, h)| (i + 1, 100.0 * h as f64 / total))
        .collect();
    r
}

/// The reliability table as text (`wsd eval --calibration`).
pub fn render_reliability(r: &Reliability) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "calibration (probability of the chosen sense → accuracy)"
    );
    let _ = writeln!(s, "       bin   answers  predicted  accuracy");
    for b in r.bins.iter().filter(|b| b.count > 0) {
        let _ = writeln!(
            s,
            "{:>4.2}–{:<4.2} {:>9} {:>10.3} {:>9.3}",
            b.lo, b.hi, b.count, b.predicted, b.accuracy
        );
    }
    let _ = writeln!(
        s,
        "expected calibration error {:.3} over {} answers ({} single-sense and {} uncalibrated not binned)",
        r.ece, r.calibrated, r.single_sense, r.uncalibrated
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cross_fitting_answers_each_document_once_with_a_model_that_never_saw_it() {
        let docs: Vec<Document> = (0..7)
            .map(|i| Document {
                id: format!("d{i}"),
                sentences: Vec::new(),
            })
            .collect();
        let answers = cross_fitted(
            &docs,
            3,
            |train| train.iter().map(|d| d.id.clone()).collect::<Vec<_>>(),
            |seen, held| {
                held.iter()
                    .map(|(i, d)| (*i, seen.contains(&d.id), seen.len()))
                    .collect::<Vec<_>>()
            },
        );
        let mut ids: Vec<usize> = answers.iter().map(|a| a.0).collect();
        ids.sort();
        assert_eq!(ids, (0..7).collect::<Vec<_>>());
        assert!(answers.iter().all(|a| !a.1));
        // folds of 3, 2, 2 documents: each model learnt from the other 4 or 5
        assert!(answers.iter().all(|a| a.2 == 7 - [3, 2, 2][a.0 % 3]));
    }

    #[test]
    fn scales_normalise_to_one() {
        let close = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12);
        let l = Scale::Log.normalise(&[0.0, 2f64.ln()]);
        assert!(close(&l, &[1.0 / 3.0, 2.0 / 3.0]), "{l:?}");
        assert!(close(&Scale::Share.normalise(&[0.0, 0.0]), &[0.5, 0.5]));
        assert!(close(&Scale::Share.normalise(&[1.0, 3.0]), &[0.25, 0.75]));
        assert!(close(&Scale::Counts.normalise(&[3.0, 0.0]), &[0.8, 0.2]));
        let t = Scale::Tempered(0.5).normalise(&[0.0, 0.5]);
        assert!(close(&t, &Scale::Log.normalise(&[0.0, 1.0])));
        assert!(Scale::Log.normalise(&[]).is_empty());
    }

    #[test]
    fn isotonic_is_monotone_and_merges_small_blocks() {
        // Accuracy rises with p but dips in the middle: PAV pools the dip.
        let mut v = Vec::new();
        for (p, right, n) in [
            (0.2, 10, 100),
            (0.5, 70, 100),
            (0.6, 50, 100),
            (0.9, 90, 100),
        ] {
            for i in 0..n {
                v.push((p, i < right));
            }
        }
        let m = isotonic(v, 50);
        assert_eq!(m.len(), 3, "{m:?}");
        assert!((m[1].accuracy - 0.6).abs() < 1e-12 && m[1].count == 200);
        assert!(m
            .windows(2)
            .all(|w| w[0].p < w[1].p && w[0].accuracy <= w[1].accuracy));
        // Small blocks are merged.
        let m = isotonic(vec![(0.1, false), (0.9, true)], 50);
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].count, 2);
        assert_eq!(interpolate(&m, 0.3), Some(0.5));
    }

    #[test]
    fn table_round_trips_and_bad_tables_name_the_line() {
        let mut samples = Vec::new();
        for i in 0..400 {
            samples.push(Sample {
                method: "lesk".into(),
                decided: "method",
                p: (i % 4) as f64 / 4.0 + 0.1,
                correct: i % 4 >= 2 || i % 7 == 0,
            });
        }
        let c = Calibration::fit(&samples);
        let text = c.to_tsv("test");
        let back = Calibration::parse(&text, Path::new("t.tsv")).unwrap();
        assert_eq!(back.maps().len(), 1);
        assert!(back.calibrate("lesk", "method", 0.9).unwrap() > 0.9);
        assert!(back.calibrate("nb", "method", 0.9).is_none());
        let bad = "lesk\tmethod\t0.5\t0.7\t10\nlesk\tmethod\t0.6\t0.6\t10\n";
        let e = Calibration::parse(bad, Path::new("t.tsv"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("t.tsv:2:") && e.contains("not monotone"),
            "{e}"
        );
        let e = Calibration::parse("a\tb\t2\t0\t1\n", Path::new("t.tsv"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("t.tsv:1:") && e.contains("[0, 1]"), "{e}");
    }

    #[test]
    fn the_committed_table_parses_is_monotone_and_covers_the_methods() {
        let c = Calibration::parse(BUILTIN, Path::new("calibration.tsv")).unwrap();
        for m in ["mfs", "lesk", "lesk-ext", "nb", "sim-wup"] {
            assert!(c.has(m), "no map for {m}");
        }
        for blocks in c.maps().values() {
            assert!(!blocks.is_empty());
            assert!(blocks
                .windows(2)
                .all(|w| w[0].p < w[1].p && w[0].accuracy <= w[1].accuracy));
        }
        assert_eq!(Calibration::builtin(), &c);
    }

    #[test]
    fn probabilities_keep_the_ranking_and_sum_to_at_most_one() {
        let p = Prediction::decided("a", "lesk", 2.0).with_scores(
            vec![("a".into(), 2.0), ("b".into(), 1.0), ("c".into(), 0.0)],
            Scale::Log,
        );
        let mut c = Calibration::default();
        c.maps.insert(
            ("lesk".into(), "method".into()),
            vec![Block {
                p: 0.5,
                accuracy: 0.4,
                count: 100,
            }],
        );
        let pr = c.probabilities(&p);
        assert!(pr.calibrated);
        assert_eq!(pr.senses[0], ("a".to_string(), 0.4));
        assert!(pr.senses.windows(2).all(|w| w[0].1 >= w[1].1));
        assert!(pr.senses.iter().map(|s| s.1).sum::<f64>() <= 1.0 + 1e-12);
        let u = Calibration::default().probabilities(&p);
        assert!(!u.calibrated);
        assert!((u.senses.iter().map(|s| s.1).sum::<f64>() - 1.0).abs() < 1e-12);
    }
}
