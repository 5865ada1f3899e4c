//! Issue 13: a learned metric for the kNN centroids. Cosine over raw
//! MiniLM vectors treats every direction alike, but most of a token
//! vector's variance is shared by all senses of a word (its lemma, its
//! sentence's topic). A linear map `T (x − μ)` fitted on SemCor's tagged
//! instances can shrink those directions before the cosine:
//!
//! * `white`: `T = (C + λ̄I)^{-1/2}` for the covariance `C` of all
//!   training vectors (BERT-whitening);
//! * `lda`: `T = (S_w + λ̄I)^{-1/2}` for the *within-sense* scatter `S_w`
//!   (each instance minus its synset's mean): the nearest-centroid rule
//!   becomes LDA's shared-covariance one;
//! * `lemma`: the scatter of each instance around its *lemma's* mean,
//!   i.e. the directions along which a word's uses vary, senses included
//!   — the opposite, as a control.
//!
//! `λ̄ = λ · tr(S)/D` shrinks towards the identity. Any square root gives
//! the same cosines, so `T = L⁻¹` of the Cholesky factor `S = LLᵀ`.
//! Context centroids are built in the mapped space; gloss vectors stay in
//! the raw one (they are mean vectors of other text), each cosine taken
//! with the query in its own space.
//!
//! ```sh
//! cargo run --release --example knn_lab -- eval DIR metric none,white,lda 0.1 0:1 0.3 0.1 10 --cv
//! ```
//!
//! Measured (docs/experiments.md, "How each figure came about", ‡): LDA cross-fitted 72.0 against 71.4,
//! but only at prior 0.1 — mapped cosines are smaller, so the prior
//! weighs more; at prior 0.2 the plain cosine is as good (73.13 / 73.01)
//! and the dev set is lower for every map. Not taken.

use std::borrow::Cow;
use std::collections::HashMap;

use wsd::disambig::candidates;
use wsd::disambig::knn::{dot, hypernym_mean, normalized};
use wsd::wordnet::{Inventory, Pos, SynsetId};

use super::{parse_sid, pool, Config, Lab, Rows, D};

/// What the scatter matrix is taken around.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    None,
    White,
    Lda,
    Lemma,
}

impl Kind {
    pub fn parse(s: &str) -> Kind {
        match s {
            "none" => Kind::None,
            "white" => Kind::White,
            "lda" => Kind::Lda,
            "lemma" => Kind::Lemma,
            _ => panic!("metric kind: none|white|lda|lemma"),
        }
    }
}

/// `y = normalise(T (normalise(x) − μ))`.
pub struct Space {
    mu: Vec<f32>,
    /// Row-major D×D, lower triangular (`L⁻¹`); empty: identity.
    t: Vec<f32>,
}

impl Space {
    pub fn apply(&self, x: &[f32]) -> Vec<f32> {
        let x = normalized(x);
        if self.t.is_empty() {
            return x;
        }
        let c: Vec<f32> = x.iter().zip(&self.mu).map(|(a, m)| a - m).collect();
        let mut y = vec![0.0f32; D];
        for (i, yi) in y.iter_mut().enumerate() {
            let row = &self.t[i * D..i * D + i + 1];
            *yi = row.iter().zip(&c[..=i]).map(|(a, b)| a * b).sum();
        }
        normalized(&y)
    }
}

/// Lower Cholesky factor of the symmetric positive definite `a` (n×n).
pub fn cholesky(a: &[f64], n: usize) -> Vec<f64> {
    let mut l = vec![0.0f64; n * n];
    for i in 0..n {
        for j in 0..=i {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= l[i * n + k] * l[j * n + k];
            }
            if i == j {
                assert!(s > 0.0, "matrix not positive definite at {i}");
                l[i * n + i] = s.sqrt();
            } else {
                l[i * n + j] = s / l[j * n + j];
            }
        }
    }
    l
}

/// Inverse of a lower triangular matrix (lower triangular).
pub fn lower_inverse(l: &[f64], n: usize) -> Vec<f64> {
    let mut inv = vec![0.0f64; n * n];
    for j in 0..n {
        inv[j * n + j] = 1.0 / l[j * n + j];
        for i in j + 1..n {
            let mut s = 0.0;
            for k in j..i {
                s -= l[i * n + k] * inv[k * n + j];
            }
            inv[i * n + j] = s / l[i * n + i];
        }
    }
    inv
}

/// Add `x xᵀ` to the lower triangle of `s`.
fn add_outer(s: &mut [f64], x: &[f32]) {
    for i in 0..D {
        let xi = f64::from(x[i]);
        let row = &mut s[i * D..i * D + i + 1];
        for (a, &xj) in row.iter_mut().zip(&x[..=i]) {
            *a += xi * f64::from(xj);
        }
    }
}

/// The training rows a fold keeps (all for `None`).
fn kept(rows: &Rows, fold: Option<usize>) -> Vec<usize> {
    (0..rows.meta.len())
        .filter(|&i| fold.is_none_or(|f| rows.meta[i].group % 5 != f))
        .collect()
}

/// Fit the map on the training rows outside `fold`.
pub fn fit(lab: &Lab, c: &Config, kind: Kind, lambda: f64, fold: Option<usize>) -> Space {
    if kind == Kind::None {
        return Space {
            mu: vec![0.0; D],
            t: Vec::new(),
        };
    }
    let rows = kept(&lab.train, fold);
    let xs: Vec<Vec<f32>> = rows
        .iter()
        .map(|&i| normalized(&pool(c.pool, lab.train.raw(i))))
        .collect();
    let mut mu = vec![0.0f64; D];
    for x in &xs {
        for (m, v) in mu.iter_mut().zip(x) {
            *m += f64::from(*v);
        }
    }
    let n = xs.len() as f64;
    mu.iter_mut().for_each(|m| *m /= n);
    // group means: synset (lda), lemma (lemma) or the global mean (white)
    let group_of = |i: usize| -> String {
        let m = &lab.train.meta[i];
        match kind {
            Kind::Lda => m.gold.first().cloned().unwrap_or_default(),
            Kind::Lemma => format!("{}.{}", m.lemma, m.pos),
            _ => String::new(),
        }
    };
    let mut means: HashMap<String, (u32, Vec<f64>)> = HashMap::new();
    for (k, &i) in rows.iter().enumerate() {
        let e = means
            .entry(group_of(i))
            .or_insert_with(|| (0, vec![0.0; D]));
        e.0 += 1;
        for (a, v) in e.1.iter_mut().zip(&xs[k]) {
            *a += f64::from(*v);
        }
    }
    for e in means.values_mut() {
        let c = f64::from(e.0);
        e.1.iter_mut().for_each(|a| *a /= c);
    }
    let mut s = vec![0.0f64; D * D];
    let mut d = vec![0.0f32; D];
    let mut used = 0usize;
    for (k, &i) in rows.iter().enumerate() {
        let (cnt, m) = &means[&group_of(i)];
        if *cnt < 2 && kind != Kind::White {
            continue;
        }
        for ((o, x), mm) in d.iter_mut().zip(&xs[k]).zip(m) {
            *o = (f64::from(*x) - mm) as f32;
        }
        add_outer(&mut s, &d);
        used += 1;
    }
    let used = used as f64;
    let mut trace = 0.0;
    for i in 0..D {
        for j in 0..=i {
            s[i * D + j] /= used;
            s[j * D + i] = s[i * D + j];
        }
        trace += s[i * D + i];
    }
    let shrink = lambda * trace / D as f64;
    for i in 0..D {
        s[i * D + i] += shrink;
    }
    let l = cholesky(&s, D);
    let inv = lower_inverse(&l, D);
    Space {
        mu: mu.iter().map(|&m| m as f32).collect(),
        t: inv.iter().map(|&x| x as f32).collect(),
    }
}

/// Centroids of the mapped training vectors outside `fold`: per synset,
/// and per sense key with at least `c.sense_min` instances.
pub struct Centroids {
    synsets: HashMap<SynsetId, Vec<f32>>,
    keys: HashMap<String, Vec<f32>>,
    lexfile: HashMap<u8, Vec<f32>>,
}

pub fn centroids(lab: &Lab, c: &Config, space: &Space, fold: Option<usize>) -> Centroids {
    let mut syn: HashMap<SynsetId, Vec<f32>> = HashMap::new();
    let mut keys: HashMap<String, (u32, Vec<f32>)> = HashMap::new();
    for i in kept(&lab.train, fold) {
        let m = &lab.train.meta[i];
        let v = space.apply(&pool(c.pool, lab.train.raw(i)));
        let mut ids: Vec<SynsetId> = Vec::new();
        for k in &m.gold {
            if let Some((s, _, _)) = lab.inv.sense_by_key(k) {
                if !ids.contains(&s.id) {
                    ids.push(s.id);
                }
            }
            let e = keys.entry(k.clone()).or_insert_with(|| (0, vec![0.0; D]));
            e.0 += 1;
            super::add(&mut e.1, &v);
        }
        for id in ids {
            super::add(syn.entry(id).or_insert_with(|| vec![0.0; D]), &v);
        }
    }
    let mut lex: HashMap<u8, Vec<f32>> = HashMap::new();
    for (id, v) in syn.iter_mut() {
        *v = normalized(v);
        if let Some(s) = lab.inv.get(*id) {
            super::add(lex.entry(s.lex_filenum).or_insert_with(|| vec![0.0; D]), v);
        }
    }
    Centroids {
        synsets: syn,
        keys: keys
            .into_iter()
            .filter(|(_, e)| c.sense_min > 0 && e.0 >= c.sense_min)
            .map(|(k, e)| (k, normalized(&e.1)))
            .collect(),
        lexfile: lex.into_iter().map(|(k, v)| (k, normalized(&v))).collect(),
    }
}

impl Centroids {
    /// A synset's context vector: its own, else its hypernyms' mean up to
    /// three levels, else its lexicographer file's (as `knn` propagates).
    fn synset(&self, inv: &Inventory, id: SynsetId) -> Option<Vec<f32>> {
        if let Some(v) = self.synsets.get(&id) {
            return Some(v.clone());
        }
        let syn = inv.get(id)?;
        let own = |h: SynsetId| self.synsets.get(&h).map(|v| Cow::Borrowed(v.as_slice()));
        if let Some(v) = hypernym_mean(inv, id, D, &own) {
            return Some(v);
        }
        self.lexfile.get(&syn.lex_filenum).cloned()
    }
}

/// Accuracy (knn,mfs: every instance answered) on `rows` (only the
/// instances of `fold` when given), overall and per POS.
pub fn score(
    lab: &Lab,
    c: &Config,
    space: &Space,
    cents: &Centroids,
    glosses: &HashMap<SynsetId, Vec<f32>>,
    rows: &Rows,
    fold: Option<usize>,
) -> (f64, HashMap<char, (f64, usize)>) {
    let mut tally = super::Tally::default();
    for (i, m) in rows.meta.iter().enumerate() {
        if fold.is_some_and(|f| m.group % 5 != f) {
            continue;
        }
        let Some(pos) = Pos::from_letter(m.pos) else {
            continue;
        };
        let cands = candidates(&lab.inv, &m.lemma, pos);
        let key = match &*cands {
            [] => None,
            [only] => Some(only.key.clone()),
            _ => {
                let raw = pool(c.pool, rows.raw(i));
                let q = space.apply(&raw);
                let qr = normalized(&raw);
                let total: f32 = cands.iter().map(|s| s.tag_count as f32 + 1.0).sum();
                let w = c.gloss_weight;
                let sc: Vec<Option<f32>> = cands
                    .iter()
                    .map(|s| {
                        let ctx = cents
                            .keys
                            .get(&s.key)
                            .cloned()
                            .or_else(|| cents.synset(&lab.inv, s.synset));
                        let g = glosses.get(&s.synset);
                        let cos = match (ctx, g) {
                            (Some(cv), Some(g)) => (1.0 - w) * dot(&q, &cv) + w * dot(&qr, g),
                            (Some(cv), None) => dot(&q, &cv),
                            (None, Some(g)) => dot(&qr, g),
                            (None, None) => return None,
                        };
                        Some(cos + c.prior * (s.tag_count as f32 + 1.0) / total)
                    })
                    .collect();
                wsd::disambig::knn::argmax(&sc)
                    .map(|(i, _)| cands[i].key.clone())
                    .or_else(|| Some(cands[0].key.clone()))
            }
        };
        tally.add(m.pos, key.is_some_and(|k| m.gold.contains(&k)));
    }
    tally.finish()
}

/// The raw gloss vectors in the model's gloss scope.
pub fn glosses(lab: &Lab, c: &Config) -> HashMap<SynsetId, Vec<f32>> {
    lab.gloss
        .meta
        .iter()
        .enumerate()
        .filter_map(|(i, m)| {
            let id = parse_sid(&m.synset);
            lab.gloss_scope
                .contains(&id)
                .then(|| (id, normalized(&pool(c.pool, lab.gloss.raw(i)))))
        })
        .collect()
}

/// One configuration: dev, test (when cached) and 5-fold cross-fitting on
/// the cached train documents (map and centroids fitted without the fold).
pub fn run(lab: &Lab, c: &Config, kind: Kind, lambda: f64, cv: bool) -> String {
    let gl = glosses(lab, c);
    let t = std::time::Instant::now();
    let space = fit(lab, c, kind, lambda, None);
    let cents = centroids(lab, c, &space, None);
    let (dev, dp) = score(lab, c, &space, &cents, &gl, &lab.dev, None);
    let test = lab.test.as_ref().map_or(String::new(), |t| {
        let (a, p) = score(lab, c, &space, &cents, &gl, t, None);
        format!(" test {a:.2} [{}]", super::pp(&p))
    });
    let mut cvs = String::new();
    if cv {
        let mut tot = 0.0;
        let mut per: HashMap<char, (f64, usize)> = HashMap::new();
        for f in 0..5 {
            let sp = fit(lab, c, kind, lambda, Some(f));
            let ce = centroids(lab, c, &sp, Some(f));
            let (a, p) = score(lab, c, &sp, &ce, &gl, &lab.train, Some(f));
            tot += a;
            for (k, v) in p {
                per.entry(k).or_default().0 += v.0 / 5.0;
            }
        }
        cvs = format!(" cv {:.2} [{}]", tot / 5.0, super::pp(&per));
    }
    format!(
        "{kind:?} λ={lambda} {:?} gw={} prior={} min={}: dev {dev:.2} [{}]{test}{cvs} ({:.0} s)",
        c.pool,
        c.gloss_weight,
        c.prior,
        c.sense_min,
        super::pp(&dp),
        t.elapsed().as_secs_f64()
    )
}
