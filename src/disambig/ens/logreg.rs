//! Conditional logistic regression (McFadden's conditional logit): one
//! weight vector scores every candidate of a target, `u_c = w · x_c`, and
//! the candidates of one target compete in a softmax,
//! `P(c) = exp(u_c) / Σ_c' exp(u_c')`. The classes are the target's own
//! candidates, so one model serves lemmas with any number of senses, and a
//! feature that is the same for every candidate of a target (its POS, the
//! number of senses) has no effect unless it multiplies a per-candidate one.
//!
//! Fitted by minimising the mean negative log-likelihood of the gold
//! candidates (a target with several gold keys: of their summed
//! probability) plus `l2/2 · |w|²`, with Newton's method: the Hessian of a
//! target is the covariance of its candidates' features under `P` (exact
//! for one gold key, positive semi-definite always, so with `l2 > 0` every
//! step is a descent direction), halved until the objective decreases.
//! A few dozen features and tens of thousands of targets converge in
//! about ten steps, each one pass over the data.

use rayon::prelude::*;

/// One target: a row of features per candidate, and which are gold.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// Features of each candidate (all rows of one length).
    pub rows: Vec<Vec<f64>>,
    /// Gold flag of each candidate (at least one true to count in fitting).
    pub gold: Vec<bool>,
}

/// The softmax of `w · x` over `rows`.
pub fn probabilities(w: &[f64], rows: &[Vec<f64>]) -> Vec<f64> {
    let u: Vec<f64> = rows.iter().map(|x| dot(w, x)).collect();
    softmax(&u)
}

/// The softmax of utilities `u`.
pub fn softmax(u: &[f64]) -> Vec<f64> {
    let max = u.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = u.iter().map(|x| (x - max).exp()).collect();
    let z: f64 = e.iter().sum();
    e.into_iter().map(|x| x / z).collect()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// (loss, gradient, Hessian (row-major d×d, when asked)) summed over groups.
type Sums = (f64, Vec<f64>, Vec<f64>);

fn group_terms(w: &[f64], g: &Group, hessian: bool) -> Option<Sums> {
    let d = w.len();
    if !g.gold.iter().any(|&x| x) || g.rows.is_empty() {
        return None;
    }
    let p = probabilities(w, &g.rows);
    let pg: f64 = p
        .iter()
        .zip(&g.gold)
        .filter(|(_, &y)| y)
        .map(|(p, _)| p)
        .sum();
    let loss = -pg.max(1e-300).ln();
    let mut grad = vec![0.0; d];
    let mut mean = vec![0.0; d];
    for ((x, &pc), &y) in g.rows.iter().zip(&p).zip(&g.gold) {
        let q = if y { pc / pg.max(1e-300) } else { 0.0 };
        for j in 0..d {
            grad[j] += (pc - q) * x[j];
            mean[j] += pc * x[j];
        }
    }
    let mut h = Vec::new();
    if hessian {
        h = vec![0.0; d * d];
        for (x, &pc) in g.rows.iter().zip(&p) {
            for a in 0..d {
                let xa = pc * (x[a] - mean[a]);
                if xa == 0.0 {
                    continue;
                }
                for b in 0..d {
                    h[a * d + b] += xa * (x[b] - mean[b]);
                }
            }
        }
    }
    Some((loss, grad, h))
}

/// Groups per chunk of the objective's sums: each chunk is summed in
/// order on one thread and the chunks' sums are added in order, so the
/// result does not depend on the number of threads.
const SUM_CHUNK: usize = 512;

/// A partial sum of the objective: loss, gradient, Hessian, groups.
type PartialSums = (f64, Vec<f64>, Vec<f64>, usize);

/// Add `terms`, the sums over `n` groups, to `acc`.
fn add_terms(acc: &mut PartialSums, terms: &Sums, n: usize) {
    acc.0 += terms.0;
    acc.1.iter_mut().zip(&terms.1).for_each(|(a, b)| *a += b);
    acc.2.iter_mut().zip(&terms.2).for_each(|(a, b)| *a += b);
    acc.3 += n;
}

/// Objective, gradient and (optionally) Hessian at `w`, means over the
/// groups that have a gold candidate, L2 term included.
pub fn objective(w: &[f64], groups: &[Group], l2: f64, hessian: bool) -> Sums {
    let d = w.len();
    let zero = || {
        (
            0.0,
            vec![0.0; d],
            if hessian {
                vec![0.0; d * d]
            } else {
                Vec::new()
            },
            0usize,
        )
    };
    // Fixed chunks summed in order, not rayon's `fold`/`reduce`, whose
    // split points follow work stealing: floating-point sums in another
    // order differ in their last bits, and a model trained twice on the
    // same data must come out byte for byte the same.
    let partial: Vec<PartialSums> = groups
        .par_chunks(SUM_CHUNK)
        .map(|chunk| {
            let mut acc = zero();
            for t in chunk.iter().filter_map(|g| group_terms(w, g, hessian)) {
                add_terms(&mut acc, &t, 1);
            }
            acc
        })
        .collect();
    let mut total = zero();
    for (l, gr, hh, n) in partial {
        add_terms(&mut total, &(l, gr, hh), n);
    }
    let (loss, mut grad, mut h, n) = total;
    let n = n.max(1) as f64;
    let mut f = loss / n + 0.5 * l2 * dot(w, w);
    if !f.is_finite() {
        f = f64::INFINITY;
    }
    for (g, wj) in grad.iter_mut().zip(w) {
        *g = *g / n + l2 * wj;
    }
    for x in h.iter_mut() {
        *x /= n;
    }
    for j in 0..if hessian { d } else { 0 } {
        h[j * d + j] += l2;
    }
    (f, grad, h)
}

/// Solve `a x = b` for a symmetric positive definite `a` (Cholesky);
/// `None` when `a` is not positive definite.
fn solve_spd(a: &[f64], b: &[f64]) -> Option<Vec<f64>> {
    let d = b.len();
    let mut l = vec![0.0; d * d];
    for i in 0..d {
        for j in 0..=i {
            let mut s = a[i * d + j];
            for k in 0..j {
                s -= l[i * d + k] * l[j * d + k];
            }
            if i == j {
                if s <= 0.0 || !s.is_finite() {
                    return None;
                }
                l[i * d + i] = s.sqrt();
            } else {
                l[i * d + j] = s / l[j * d + j];
            }
        }
    }
    let mut y = vec![0.0; d];
    for i in 0..d {
        let s: f64 = (0..i).map(|k| l[i * d + k] * y[k]).sum();
        y[i] = (b[i] - s) / l[i * d + i];
    }
    let mut x = vec![0.0; d];
    for i in (0..d).rev() {
        let s: f64 = (i + 1..d).map(|k| l[k * d + i] * x[k]).sum();
        x[i] = (y[i] - s) / l[i * d + i];
    }
    Some(x)
}

/// How a fit ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The weights.
    pub weights: Vec<f64>,
    /// The final objective.
    pub objective: f64,
    /// Newton steps taken.
    pub steps: usize,
}

/// Fit the weights of `d` features on `groups` with L2 weight `l2` (> 0;
/// see the module docs). Stops when a step improves the objective by less
/// than 1e-10 or after 50 steps.
pub fn fit(groups: &[Group], d: usize, l2: f64) -> Fit {
    let l2 = if l2.is_finite() && l2 > 0.0 { l2 } else { 1e-6 };
    let mut w = vec![0.0; d];
    let (mut f, _, _) = objective(&w, groups, l2, false);
    let mut steps = 0;
    while steps < 50 {
        steps += 1;
        let (_, g, h) = objective(&w, groups, l2, true);
        let Some(dir) = solve_spd(&h, &g) else { break };
        let mut t = 1.0;
        let mut improved = false;
        while t > 1e-8 {
            let cand: Vec<f64> = w.iter().zip(&dir).map(|(w, s)| w - t * s).collect();
            let (fc, _, _) = objective(&cand, groups, l2, false);
            if fc < f {
                let gain = f - fc;
                w = cand;
                f = fc;
                improved = gain > 1e-10;
                break;
            }
            t *= 0.5;
        }
        if !improved {
            break;
        }
    }
    Fit {
        weights: w,
        objective: f,
        steps,
    }
}

/// Index of the best candidate of `rows` under `w` (ties: the first).
pub fn best(w: &[f64], rows: &[Vec<f64>]) -> Option<usize> {
    let u: Vec<f64> = rows.iter().map(|x| dot(w, x)).collect();
    argmax(&u)
}

/// Index of the largest of `u` (ties: the first).
pub fn argmax(u: &[f64]) -> Option<usize> {
    let mut out: Option<(usize, f64)> = None;
    for (i, &x) in u.iter().enumerate() {
        if out.is_none_or(|(_, b)| x > b) {
            out = Some((i, x));
        }
    }
    out.map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy() -> Vec<Group> {
        // Two features; the gold candidate has the larger first feature
        // 90% of the time, the second feature is noise.
        let mut groups = Vec::new();
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as f64) / (1u64 << 31) as f64
        };
        for i in 0..400 {
            let n = 2 + i % 3;
            let rows: Vec<Vec<f64>> = (0..n).map(|_| vec![rnd(), rnd()]).collect();
            let top = (0..n)
                .max_by(|&a, &b| rows[a][0].total_cmp(&rows[b][0]))
                .unwrap();
            let gold_at = if i % 10 == 0 { (top + 1) % n } else { top };
            let gold = (0..n).map(|c| c == gold_at).collect();
            groups.push(Group { rows, gold });
        }
        groups
    }

    #[test]
    fn objective_is_the_same_on_any_number_of_threads() {
        // Enough groups for many chunks; sums in another order would
        // differ in their last bits.
        let groups: Vec<Group> = (0..12).flat_map(|_| toy()).collect();
        let w = vec![0.7, -0.3];
        let on = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| objective(&w, &groups, 0.1, true))
        };
        let one = on(1);
        for threads in [2, 3, 5] {
            assert_eq!(on(threads), one, "{threads} threads");
        }
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let mut groups = toy();
        // a target with two gold keys too
        groups[1].gold = vec![true; groups[1].rows.len()];
        groups[1].gold[0] = false;
        let w = vec![0.7, -0.3];
        let (_, g, h) = objective(&w, &groups, 0.1, true);
        let eps = 1e-6;
        for j in 0..2 {
            let mut a = w.clone();
            let mut b = w.clone();
            a[j] += eps;
            b[j] -= eps;
            let num = (objective(&a, &groups, 0.1, false).0 - objective(&b, &groups, 0.1, false).0)
                / (2.0 * eps);
            assert!((num - g[j]).abs() < 1e-6, "d{j}: {num} vs {}", g[j]);
        }
        // single-gold groups only: the Hessian is exact
        let single: Vec<Group> = toy()
            .into_iter()
            .filter(|g| g.gold.iter().filter(|&&x| x).count() == 1)
            .collect();
        let (_, _, h1) = objective(&w, &single, 0.1, true);
        for j in 0..2 {
            let mut a = w.clone();
            let mut b = w.clone();
            a[j] += eps;
            b[j] -= eps;
            let (_, gpa, _) = objective(&a, &single, 0.1, true);
            let (_, gpb, _) = objective(&b, &single, 0.1, true);
            for k in 0..2 {
                let num = (gpa[k] - gpb[k]) / (2.0 * eps);
                assert!(
                    (num - h1[j * 2 + k]).abs() < 1e-5,
                    "h{j}{k}: {num} vs {}",
                    h1[j * 2 + k]
                );
            }
        }
        assert_eq!(h.len(), 4);
    }

    #[test]
    fn fit_solves_a_toy_problem() {
        let groups = toy();
        let f = fit(&groups, 2, 1e-4);
        assert!(f.weights[0] > 5.0, "{f:?}");
        assert!(f.weights[1].abs() < f.weights[0] / 5.0, "{f:?}");
        let right = groups
            .iter()
            .filter(|g| g.gold[best(&f.weights, &g.rows).unwrap()])
            .count();
        // the gold has the largest first feature in 90% of the groups: the
        // fit finds (nearly) that rule, and nothing beats it by much
        assert!((340..=365).contains(&right), "{right} of 400");
        let by_first = groups
            .iter()
            .filter(|g| {
                let top = (0..g.rows.len())
                    .max_by(|&a, &b| g.rows[a][0].total_cmp(&g.rows[b][0]))
                    .unwrap();
                best(&f.weights, &g.rows) == Some(top)
            })
            .count();
        assert!(
            by_first >= 380,
            "{by_first} of 400 follow the first feature"
        );
        // at the optimum the gradient vanishes
        let (_, g, _) = objective(&f.weights, &groups, 1e-4, false);
        assert!(g.iter().all(|x| x.abs() < 1e-6), "{g:?}");
        // a strong penalty shrinks the weights
        let s = fit(&groups, 2, 10.0);
        assert!(s.weights[0].abs() < f.weights[0].abs() / 10.0, "{s:?}");
    }

    #[test]
    fn solve_spd_solves_and_refuses_indefinite() {
        let x = solve_spd(&[4.0, 2.0, 2.0, 3.0], &[2.0, 1.0]).unwrap();
        assert!((x[0] - 0.5).abs() < 1e-12 && x[1].abs() < 1e-12, "{x:?}");
        assert!(solve_spd(&[1.0, 2.0, 2.0, 1.0], &[1.0, 1.0]).is_none());
    }
}
