//! Gradient-boosted trees on top of the conditional logit ([`super::logreg`]):
//! the linear utility `w · x` of each candidate is the starting score, and
//! small regression trees over the same features, fitted one after the
//! other to the gradient of the same loss (the softmax over a target's
//! candidates, Newton steps in the leaves), add what a weighted sum cannot
//! say — thresholds and interactions such as "Naive Bayes' log-posterior
//! matters only when the lemma had many training examples and kNN's gap is
//! small".
//!
//! Trees are level-wise to [`BoostParams::depth`], on features cut into at
//! most [`BoostParams::bins`] quantile bins (one pass over the rows per
//! level and feature), each leaf's value `−lr · G / (H + λ)` from the sums
//! of the rows' gradients `p − y` and Hessians `p (1 − p)`. No sampling of
//! rows or features: the same data give the same trees.
//!
//! Measured (issue 13, train-split stack; ens's own 5-fold
//! cross-validation by document, then SemEval-2007 and SemCor's test split
//! with gold input): see the module docs of [`super`] and the README.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::logreg::Group;

/// Settings of the boosting (chosen on the train split's cross-validation
/// and the SemEval-2007 dev set; see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoostParams {
    /// Trees (0: the linear model alone).
    pub rounds: usize,
    /// Depth of each tree (at most `2^depth` leaves).
    pub depth: usize,
    /// Shrinkage of each tree's leaf values.
    pub learning_rate: f64,
    /// Fewest training candidates in a leaf.
    pub min_leaf: usize,
    /// Quantile bins per feature (at most 256).
    pub bins: usize,
    /// L2 weight on leaf values (`λ` of `G / (H + λ)`).
    pub lambda: f64,
}

impl Default for BoostParams {
    fn default() -> Self {
        BoostParams {
            rounds: 300,
            depth: 4,
            learning_rate: 0.05,
            min_leaf: 100,
            bins: 64,
            lambda: 1.0,
        }
    }
}

/// A node of a tree: a split (`x[feature] <= threshold` goes left) or a leaf.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Node {
    /// An inner node.
    Split {
        /// Feature index.
        feature: u16,
        /// Threshold (in the units of the rows the forest is applied to).
        threshold: f64,
        /// Index of the left child.
        left: u32,
        /// Index of the right child.
        right: u32,
    },
    /// A leaf and its value.
    Leaf(f64),
}

/// One tree; node 0 is the root.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tree {
    /// The nodes.
    pub nodes: Vec<Node>,
}

impl Tree {
    fn score(&self, row: &[f64]) -> f64 {
        let mut at = 0usize;
        loop {
            match self.nodes.get(at) {
                Some(Node::Leaf(v)) => return *v,
                Some(Node::Split {
                    feature,
                    threshold,
                    left,
                    right,
                }) => {
                    let x = row.get(*feature as usize).copied().unwrap_or(0.0);
                    at = if x <= *threshold { *left } else { *right } as usize;
                }
                None => return 0.0,
            }
        }
    }
}

/// The trees of a model: their summed leaf values are added to the linear
/// utility.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Forest {
    /// The trees, in fitting order.
    pub trees: Vec<Tree>,
}

impl Forest {
    /// The forest's score of one candidate row.
    pub fn score(&self, row: &[f64]) -> f64 {
        self.trees.iter().map(|t| t.score(row)).sum()
    }

    /// Whether there is nothing to add.
    pub fn is_empty(&self) -> bool {
        self.trees.is_empty()
    }

    /// The same forest for rows `x` when it was fitted on `x / scale`.
    pub fn unscaled(mut self, scale: &[f64]) -> Forest {
        for t in &mut self.trees {
            for n in &mut t.nodes {
                if let Node::Split {
                    feature, threshold, ..
                } = n
                {
                    *threshold *= scale.get(*feature as usize).copied().unwrap_or(1.0);
                }
            }
        }
        self
    }

    /// How many splits each feature makes (of `d` features): what the
    /// trees read, for the training report.
    pub fn splits_per_feature(&self, d: usize) -> Vec<usize> {
        let mut n = vec![0; d];
        for t in &self.trees {
            for node in &t.nodes {
                if let Node::Split { feature, .. } = node {
                    if let Some(c) = n.get_mut(*feature as usize) {
                        *c += 1;
                    }
                }
            }
        }
        n
    }

    /// Whether every value is finite and every child index points forward
    /// inside its tree (a loaded model is checked with this).
    pub fn is_well_formed(&self, d: usize) -> bool {
        self.trees.iter().all(|t| {
            !t.nodes.is_empty()
                && t.nodes.iter().enumerate().all(|(i, n)| match n {
                    Node::Leaf(v) => v.is_finite(),
                    Node::Split {
                        feature,
                        threshold,
                        left,
                        right,
                    } => {
                        (*feature as usize) < d
                            && !threshold.is_nan()
                            && (*left as usize) > i
                            && (*right as usize) > i
                            && (*left as usize) < t.nodes.len()
                            && (*right as usize) < t.nodes.len()
                    }
                })
        })
    }
}

/// Cut points of one feature: at most `bins − 1` values, a value goes to
/// the first bin whose cut is `>=` it.
fn cuts(values: &mut [f64], bins: usize) -> Vec<f64> {
    values.sort_by(f64::total_cmp);
    let mut distinct: Vec<f64> = values.to_vec();
    distinct.dedup();
    if distinct.len() <= 1 {
        return Vec::new();
    }
    if distinct.len() <= bins {
        return distinct.windows(2).map(|w| (w[0] + w[1]) / 2.0).collect();
    }
    let n = values.len();
    let mut out: Vec<f64> = (1..bins).map(|k| values[k * n / bins]).collect();
    out.dedup();
    // the largest value is no cut (nothing would go right of it)
    if out.last() == distinct.last() {
        out.pop();
    }
    out
}

/// Per-row gradient and Hessian of the conditional-logit loss at scores `f`.
fn gradients(groups: &[&Group], offsets: &[usize], f: &[f64], g: &mut [f64], h: &mut [f64]) {
    let chunks: Vec<(usize, &&Group)> = offsets.iter().copied().zip(groups).collect();
    let out: Vec<(usize, Vec<(f64, f64)>)> = chunks
        .par_iter()
        .map(|&(at, grp)| {
            let n = grp.rows.len();
            let u = &f[at..at + n];
            let max = u.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let e: Vec<f64> = u.iter().map(|x| (x - max).exp()).collect();
            let z: f64 = e.iter().sum();
            let golds = grp.gold.iter().filter(|&&b| b).count().max(1) as f64;
            let gh = e
                .iter()
                .zip(&grp.gold)
                .map(|(e, &y)| {
                    let p = e / z;
                    let y = if y { 1.0 / golds } else { 0.0 };
                    (p - y, (p * (1.0 - p)).max(1e-6))
                })
                .collect();
            (at, gh)
        })
        .collect();
    for (at, gh) in out {
        for (k, (gi, hi)) in gh.into_iter().enumerate() {
            g[at + k] = gi;
            h[at + k] = hi;
        }
    }
}

/// The binned training rows, column by column.
struct Binned {
    /// `bins[j][r]`: the bin of row `r` in feature `j`.
    bins: Vec<Vec<u8>>,
    /// `cuts[j][b]`: the upper edge of bin `b` of feature `j`.
    cuts: Vec<Vec<f64>>,
}

impl Binned {
    /// `split_on[j]` false: feature `j` gets no cut points, so no tree
    /// splits on it (it stays in the regression only).
    fn new(groups: &[&Group], d: usize, bins: usize, split_on: &[bool]) -> Binned {
        let bins = bins.clamp(2, 256);
        let rows: Vec<&Vec<f64>> = groups.iter().flat_map(|g| g.rows.iter()).collect();
        // cut points from at most 200,000 evenly spaced rows
        let step = (rows.len() / 200_000).max(1);
        let (cuts, bins): (Vec<Vec<f64>>, Vec<Vec<u8>>) = (0..d)
            .into_par_iter()
            .map(|j| {
                let c = if split_on.get(j).copied().unwrap_or(true) {
                    let mut sample: Vec<f64> = rows.iter().step_by(step).map(|r| r[j]).collect();
                    cuts(&mut sample, bins)
                } else {
                    Vec::new()
                };
                let b = rows
                    .iter()
                    .map(|r| c.partition_point(|&x| x < r[j]) as u8)
                    .collect();
                (c, b)
            })
            .unzip();
        Binned { bins, cuts }
    }
}

/// Gradient, Hessian and row count per bin.
type Histogram = Vec<(f64, f64, u32)>;

/// The best split of one node from its histogram in one feature:
/// (gain, feature, bin, rows going left).
type Best = Option<(f64, usize, usize, u32)>;

fn best_split(
    hist: &Histogram,
    cuts: usize,
    j: usize,
    (gt, ht, nt): (f64, f64, u32),
    p: &BoostParams,
) -> Best {
    let score = |gs: f64, hs: f64| gs * gs / (hs + p.lambda);
    let parent = score(gt, ht);
    let (mut gl, mut hl, mut nl) = (0.0, 0.0, 0u32);
    let mut best: Best = None;
    for (b, &(gb, hb, cb)) in hist.iter().enumerate().take(cuts) {
        gl += gb;
        hl += hb;
        nl += cb;
        let nr = nt - nl;
        if (nl as usize) < p.min_leaf || (nr as usize) < p.min_leaf {
            continue;
        }
        let gain = score(gl, hl) + score(gt - gl, ht - hl) - parent;
        if gain > 1e-9 && best.is_none_or(|(x, ..)| gain > x) {
            best = Some((gain, j, b, nl));
        }
    }
    best
}

/// Fit one tree to the gradients `g`, `h`; `leaf_of` is scratch (one per
/// row). Level by level: one pass over the rows per feature builds the
/// histograms of the smaller child of each split (the larger one's is its
/// parent's less the smaller's), and each open node takes its best split.
fn fit_tree(
    data: &Binned,
    g: &[f64],
    h: &[f64],
    p: &BoostParams,
    leaf_of: &mut [u32],
) -> (Tree, Vec<f64>) {
    const DONE: u32 = u32::MAX;
    let nb = data.cuts.iter().map(Vec::len).max().unwrap_or(0) + 1;
    let mut nodes: Vec<Node> = vec![Node::Leaf(0.0)];
    leaf_of.fill(0);
    // the open nodes of this level, by node index; rows point at their node
    let mut open: Vec<usize> = vec![0];
    // per open node: (its parent's slot in the previous level, whether its
    // histogram is computed from the rows) — the root is computed
    let mut origin: Vec<(usize, bool)> = vec![(0, true)];
    // the previous level's histograms, [feature][slot]
    let mut prev: Vec<Vec<Histogram>> = Vec::new();
    for level in 0..=p.depth {
        if open.is_empty() {
            break;
        }
        let mut slot = vec![DONE; nodes.len()];
        for (k, &n) in open.iter().enumerate() {
            slot[n] = k as u32;
        }
        let row_slot: Vec<u32> = leaf_of.iter().map(|&n| slot[n as usize]).collect();
        let mut totals = vec![(0.0f64, 0.0f64, 0u32); open.len()];
        for (r, &s) in row_slot.iter().enumerate() {
            if s != DONE {
                let t = &mut totals[s as usize];
                t.0 += g[r];
                t.1 += h[r];
                t.2 += 1;
            }
        }
        let leaf_value = |(gs, hs, _): (f64, f64, u32)| -p.learning_rate * gs / (hs + p.lambda);
        if level == p.depth {
            for (k, &n) in open.iter().enumerate() {
                nodes[n] = Node::Leaf(leaf_value(totals[k]));
            }
            break;
        }
        // the rows whose histograms are computed, with their slot and
        // gradients side by side (the features' passes read only these)
        let mut rows: Vec<(u32, u32, f64, f64)> = Vec::new();
        for (r, &s) in row_slot.iter().enumerate() {
            if s != DONE && origin[s as usize].1 {
                rows.push((r as u32, s, g[r], h[r]));
            }
        }
        let per_feature: Vec<(Vec<Histogram>, Vec<Best>)> = (0..data.bins.len())
            .into_par_iter()
            .map(|j| {
                let mut hist: Vec<Histogram> = vec![vec![(0.0, 0.0, 0); nb]; open.len()];
                if data.cuts[j].is_empty() {
                    return (hist, vec![None; open.len()]);
                }
                let bins = &data.bins[j];
                for &(r, s, gr, hr) in &rows {
                    let e = &mut hist[s as usize][bins[r as usize] as usize];
                    e.0 += gr;
                    e.1 += hr;
                    e.2 += 1;
                }
                // siblings: the parent's histogram less the computed child's
                for k in 0..open.len() {
                    let (parent, computed) = origin[k];
                    if computed {
                        continue;
                    }
                    let sibling = if k % 2 == 0 { k + 1 } else { k - 1 };
                    let (done, rest) = (hist[sibling].clone(), &mut hist[k]);
                    for ((e, pa), c) in rest.iter_mut().zip(&prev[j][parent]).zip(&done) {
                        *e = (pa.0 - c.0, pa.1 - c.1, pa.2 - c.2);
                    }
                }
                let best = hist
                    .iter()
                    .zip(&totals)
                    .map(|(hist, &t)| best_split(hist, data.cuts[j].len(), j, t, p))
                    .collect();
                (hist, best)
            })
            .collect();
        let best: Vec<Best> = (0..open.len())
            .map(|k| {
                per_feature
                    .iter()
                    .filter_map(|(_, b)| b[k])
                    .fold(None, |acc: Best, y| match acc {
                        Some(x) if x.0 >= y.0 => Some(x),
                        _ => Some(y),
                    })
            })
            .collect();
        prev = per_feature.into_iter().map(|(hist, _)| hist).collect();
        let mut next = Vec::new();
        let mut next_origin = Vec::new();
        // node index → (feature, bin, left, right) for the rows to follow
        let mut splits: Vec<Option<(usize, u8, u32, u32)>> = vec![None; nodes.len()];
        for (k, &n) in open.iter().enumerate() {
            match best[k] {
                Some((_, j, b, nl)) => {
                    let left = nodes.len();
                    nodes.push(Node::Leaf(0.0));
                    nodes.push(Node::Leaf(0.0));
                    nodes[n] = Node::Split {
                        feature: j as u16,
                        threshold: data.cuts[j][b],
                        left: left as u32,
                        right: left as u32 + 1,
                    };
                    splits[n] = Some((j, b as u8, left as u32, left as u32 + 1));
                    next.push(left);
                    next.push(left + 1);
                    let left_smaller = 2 * nl <= totals[k].2;
                    next_origin.push((k, left_smaller));
                    next_origin.push((k, !left_smaller));
                }
                None => nodes[n] = Node::Leaf(leaf_value(totals[k])),
            }
        }
        for (r, n) in leaf_of.iter_mut().enumerate() {
            if let Some(&Some((j, b, l, rt))) = splits.get(*n as usize) {
                *n = if data.bins[j][r] <= b { l } else { rt };
            }
        }
        open = next;
        origin = next_origin;
    }
    let values: Vec<f64> = leaf_of
        .iter()
        .map(|&n| match nodes[n as usize] {
            Node::Leaf(v) => v,
            Node::Split { .. } => 0.0,
        })
        .collect();
    (Tree { nodes }, values)
}

/// Boost `p.rounds` trees on `groups` (rows of `d` features) starting from
/// the scores `init` (one per row, the groups' rows in order: the linear
/// utilities). The trees split only on the features `split_on` marks
/// true (an empty slice: all). `progress` gets the number of trees done.
pub fn fit(
    groups: &[&Group],
    d: usize,
    init: &[f64],
    p: &BoostParams,
    split_on: &[bool],
    progress: &(dyn Fn(usize) + Sync),
) -> Forest {
    let n: usize = groups.iter().map(|g| g.rows.len()).sum();
    assert_eq!(init.len(), n, "one initial score per row");
    if p.rounds == 0 || n == 0 {
        return Forest::default();
    }
    let data = Binned::new(groups, d, p.bins, split_on);
    let offsets: Vec<usize> = groups
        .iter()
        .scan(0, |at, g| {
            let o = *at;
            *at += g.rows.len();
            Some(o)
        })
        .collect();
    let mut f = init.to_vec();
    let (mut g, mut h) = (vec![0.0; n], vec![0.0; n]);
    let mut leaf_of = vec![0u32; n];
    let mut trees = Vec::with_capacity(p.rounds);
    for round in 0..p.rounds {
        gradients(groups, &offsets, &f, &mut g, &mut h);
        let (tree, values) = fit_tree(&data, &g, &h, p, &mut leaf_of);
        for (fi, v) in f.iter_mut().zip(values) {
            *fi += v;
        }
        trees.push(tree);
        progress(round + 1);
    }
    Forest { trees }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Targets of two candidates where the gold one is the candidate whose
    /// two features are both above 0.5 or both below (XOR): no weighted
    /// sum of the features can tell, a depth-2 tree can. Another `seed`
    /// draws other targets (the held-out ones).
    fn xor_groups(n: usize, seed: u64) -> Vec<Group> {
        let mut s: u64 = seed;
        let mut rnd = move || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        (0..n)
            .map(|_| {
                let rows: Vec<Vec<f64>> = (0..2).map(|_| vec![rnd(), rnd()]).collect();
                let same = |r: &Vec<f64>| (r[0] > 0.5) == (r[1] > 0.5);
                let gold: Vec<bool> = rows.iter().map(same).collect();
                Group { rows, gold }
            })
            .filter(|g| g.gold.iter().filter(|&&b| b).count() == 1)
            .collect()
    }

    fn accuracy(forest: &Forest, groups: &[Group]) -> f64 {
        let right = groups
            .iter()
            .filter(|g| {
                let s: Vec<f64> = g.rows.iter().map(|r| forest.score(r)).collect();
                let best = if s[0] >= s[1] { 0 } else { 1 };
                g.gold[best]
            })
            .count();
        right as f64 / groups.len() as f64
    }

    /// The boosting settings of the XOR tests.
    const XOR_BOOST: BoostParams = BoostParams {
        rounds: 50,
        depth: 2,
        learning_rate: 0.3,
        min_leaf: 20,
        bins: 64,
        lambda: 1.0,
    };

    /// Trees boosted with `p` on 4,000 XOR targets, splitting on the
    /// features `split_on` marks, and their accuracy on 1,000 others
    /// (drawn with another seed).
    fn xor_forest(p: &BoostParams, split_on: &[bool]) -> (Forest, f64) {
        let train = xor_groups(4000, 12345);
        let refs: Vec<&Group> = train.iter().collect();
        let n: usize = train.iter().map(|g| g.rows.len()).sum();
        let forest = fit(&refs, 2, &vec![0.0; n], p, split_on, &|_| {});
        let acc = accuracy(&forest, &xor_groups(1000, 54321));
        (forest, acc)
    }

    #[test]
    fn trees_learn_what_a_weighted_sum_cannot() {
        let (forest, acc) = xor_forest(&XOR_BOOST, &[]);
        assert_eq!(forest.trees.len(), 50);
        assert!(forest.is_well_formed(2));
        assert!(acc > 0.9, "{acc}");
        // nothing learned without trees
        let (none, _) = xor_forest(
            &BoostParams {
                rounds: 0,
                ..XOR_BOOST
            },
            &[],
        );
        assert!(none.is_empty());
        assert_eq!(none.score(&[0.1, 0.9]), 0.0);
    }

    #[test]
    fn trees_never_split_on_a_linear_only_feature() {
        let (forest, acc) = xor_forest(&XOR_BOOST, &[true, false]);
        let features: Vec<u16> = forest
            .trees
            .iter()
            .flat_map(|t| &t.nodes)
            .filter_map(|node| match node {
                Node::Split { feature, .. } => Some(*feature),
                Node::Leaf(_) => None,
            })
            .collect();
        assert!(!features.is_empty());
        assert!(features.iter().all(|&f| f == 0), "{features:?}");
        // XOR needs both features: one alone is a coin toss
        assert!(acc < 0.6, "{acc}");
    }

    #[test]
    fn unscaled_forest_scores_raw_rows_as_the_scaled_one_scored_scaled_rows() {
        let train = xor_groups(2000, 12345);
        let refs: Vec<&Group> = train.iter().collect();
        let n: usize = train.iter().map(|g| g.rows.len()).sum();
        let p = BoostParams {
            rounds: 10,
            depth: 2,
            min_leaf: 20,
            ..BoostParams::default()
        };
        let forest = fit(&refs, 2, &vec![0.0; n], &p, &[], &|_| {});
        let scale = [0.25, 4.0];
        let raw = forest.clone().unscaled(&scale);
        for g in &train[..50] {
            for r in &g.rows {
                let x: Vec<f64> = r.iter().zip(&scale).map(|(v, s)| v * s).collect();
                assert!((raw.score(&x) - forest.score(r)).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn cuts_are_quantiles_or_midpoints() {
        assert_eq!(cuts(&mut [1.0, 1.0, 3.0], 8), vec![2.0]);
        assert!(cuts(&mut [5.0; 10], 8).is_empty());
        let mut v: Vec<f64> = (0..1000).map(f64::from).collect();
        let c = cuts(&mut v, 4);
        assert_eq!(c, vec![250.0, 500.0, 750.0]);
    }

    #[test]
    fn malformed_forests_are_recognised() {
        let bad = Forest {
            trees: vec![Tree {
                nodes: vec![Node::Split {
                    feature: 0,
                    threshold: 0.5,
                    left: 0,
                    right: 5,
                }],
            }],
        };
        assert!(!bad.is_well_formed(2));
        let nan = Forest {
            trees: vec![Tree {
                nodes: vec![Node::Leaf(f64::NAN)],
            }],
        };
        assert!(!nan.is_well_formed(2));
    }
}
