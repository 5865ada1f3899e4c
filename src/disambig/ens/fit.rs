//! Fitting the combiner on its training rows: the regression and the
//! boosted trees, the folds by document, the cross-validated calibration
//! and the per-POS lines of the training report (the rows themselves are
//! made in [`super::train`]).

use std::collections::HashMap;
use std::fmt::Write as _;

use super::boost::{self, BoostParams, Forest};
use super::logreg::{self, Group};
use crate::disambig::calibration::{Block, Calibration};
use crate::wordnet::Pos;

/// The groups of fold `f` of `folds` (by document) held out, and the rest.
pub(super) fn fold(groups: &[(usize, Group)], folds: usize, f: usize) -> (Vec<Group>, Vec<&Group>) {
    let train = groups
        .iter()
        .filter(|(doc, _)| doc % folds != f)
        .map(|(_, g)| g.clone())
        .collect();
    let held = groups
        .iter()
        .filter(|(doc, _)| doc % folds == f)
        .map(|(_, g)| g)
        .collect();
    (train, held)
}

/// The calibration map of ens's answers (`decided` = `method`): every
/// training target answered by a fit at `l2` without its document's fold,
/// its chosen sense's softmax probability (what output normalises ens's
/// log-scores to) against whether it was a gold key; isotonic, as
/// `calibration.rs` fits every method. Only targets with a gold key among
/// the candidates are training targets, so the map is slightly optimistic
/// for the rare target whose gold sense is not a candidate.
///
/// Also returns, per part of speech (`pos[k]` is group `k`'s), the
/// cross-validated (right, targets) at `l2`: the per-POS table of the
/// training report.
pub(super) fn cross_validated_calibration(
    groups: &[(usize, Group)],
    pos: &[Pos],
    folds: usize,
    d: usize,
    l2: f64,
    boosting: &Boosting,
    notice: &(dyn Fn(&str) + Sync),
) -> (Vec<Block>, HashMap<Pos, (usize, usize)>) {
    let mut pairs = Vec::new();
    let mut per_pos: HashMap<Pos, (usize, usize)> = HashMap::new();
    for f in 0..folds {
        let (train, _) = fold(groups, folds, f);
        if train.is_empty() {
            continue;
        }
        let (fit, forest) = fit_with_trees(&train, d, l2, boosting, &|done| {
            if done % 100 == 0 {
                notice(&format!(
                    "ens: fold {} of {folds}: {done} of {} trees",
                    f + 1,
                    boosting.params.rounds
                ));
            }
        });
        for ((_, g), p) in groups
            .iter()
            .zip(pos)
            .filter(|((doc, _), _)| doc % folds == f)
        {
            let u = utilities(&fit.weights, &forest, &g.rows);
            let best = logreg::argmax(&u);
            let e = per_pos.entry(*p).or_default();
            e.1 += 1;
            if best.is_some_and(|i| g.gold[i]) {
                e.0 += 1;
            }
            if g.rows.len() > 1 {
                if let Some(i) = best {
                    pairs.push((logreg::softmax(&u)[i], g.gold[i]));
                }
            }
        }
    }
    (Calibration::fit_map(pairs), per_pos)
}

/// The trees' settings and the features they may split on (one flag per
/// feature; see [`super::EnsTraining::linear`]).
pub(super) struct Boosting {
    pub(super) params: BoostParams,
    pub(super) split_on: Vec<bool>,
}

/// The regression on `groups` and, when `boosting.params.rounds > 0`,
/// trees boosted from its utilities (both on the rows as given).
pub(super) fn fit_with_trees(
    groups: &[Group],
    d: usize,
    l2: f64,
    boosting: &Boosting,
    progress: &(dyn Fn(usize) + Sync),
) -> (logreg::Fit, Forest) {
    let fit = logreg::fit(groups, d, l2);
    if boosting.params.rounds == 0 {
        return (fit, Forest::default());
    }
    let refs: Vec<&Group> = groups.iter().collect();
    let init: Vec<f64> = groups
        .iter()
        .flat_map(|g| utilities(&fit.weights, &Forest::default(), &g.rows))
        .collect();
    let forest = boost::fit(
        &refs,
        d,
        &init,
        &boosting.params,
        &boosting.split_on,
        progress,
    );
    (fit, forest)
}

/// Each row's utility: `w · x` plus the forest's score.
pub(super) fn utilities(w: &[f64], forest: &Forest, rows: &[Vec<f64>]) -> Vec<f64> {
    rows.iter()
        .map(|x| x.iter().zip(w).map(|(a, b)| a * b).sum::<f64>() + forest.score(x))
        .collect()
}

/// The per-POS lines of the training report: cross-validated accuracy
/// at the chosen L2 and what the prior alone (the most frequent sense by
/// the held-out tag counts) scores on the same targets.
pub(super) fn per_pos_table(
    cv: &HashMap<Pos, (usize, usize)>,
    prior: &HashMap<Pos, (usize, usize)>,
) -> String {
    let mut s = String::from("  cross-validated accuracy per POS (targets, ens, prior alone):\n");
    let pct = |(r, n): (usize, usize)| 100.0 * r as f64 / n.max(1) as f64;
    let mut all = ((0, 0), (0, 0));
    for p in [Pos::Noun, Pos::Verb, Pos::Adj, Pos::Adv] {
        let Some(&e) = cv.get(&p) else { continue };
        let q = prior.get(&p).copied().unwrap_or_default();
        all = (
            (all.0 .0 + e.0, all.0 .1 + e.1),
            (all.1 .0 + q.0, all.1 .1 + q.1),
        );
        let _ = writeln!(
            s,
            "    {:<5} {:>7}  {:>6.2}%  {:>6.2}%",
            match p {
                Pos::Noun => "noun",
                Pos::Verb => "verb",
                Pos::Adj => "adj",
                Pos::Adv => "adv",
            },
            e.1,
            pct(e),
            pct(q)
        );
    }
    let _ = writeln!(
        s,
        "    {:<5} {:>7}  {:>6.2}%  {:>6.2}%",
        "all",
        all.0 .1,
        pct(all.0),
        pct(all.1)
    );
    s
}

/// Percent of `groups` whose best candidate under `w` is gold.
pub(super) fn accuracy(w: &[f64], groups: &[&Group]) -> f64 {
    let right = groups
        .iter()
        .filter(|g| logreg::best(w, &g.rows).is_some_and(|i| g.gold[i]))
        .count();
    100.0 * right as f64 / groups.len().max(1) as f64
}
