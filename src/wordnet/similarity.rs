//! WordNet similarity measures, computed exactly as NLTK 3.10 computes them.
//!
//! * Path-based: [`Similarity::path`] (`1 / (d + 1)`), [`Similarity::wup`]
//!   (Wu–Palmer) and [`Similarity::lch`] (Leacock–Chodorow), the values of
//!   NLTK's `path_similarity`, `wup_similarity` and `lch_similarity` with
//!   their default arguments (`simulate_root=True`).
//! * Information-content based: [`Similarity::res`] (Resnik),
//!   [`Similarity::jcn`] (Jiang–Conrath) and [`Similarity::lin`] (Lin), as
//!   NLTK's `res_similarity`, `jcn_similarity`, `lin_similarity` given the
//!   same [`Ic`] table.
//!
//! # Conventions (those of `nltk/corpus/reader/wordnet.py`)
//!
//! * The taxonomy is the graph of hypernym **and instance-hypernym**
//!   pointers; a synset can have several parents (multiple inheritance).
//! * Distances are shortest paths through a common ancestor: for every
//!   synset `c` that is an ancestor-or-self of both `a` and `b`,
//!   `d(a, c) + d(b, c)`, minimised (`shortest_path_distance`).
//! * Every category but nouns "needs a root": verbs have several
//!   taxonomies, adjectives and adverbs none. For such synsets NLTK
//!   simulates a root `*ROOT*` above everything, one edge beyond the
//!   farthest ancestor of each synset (`_shortest_hypernym_paths`), with
//!   min and max depth 0. Path and Wu–Palmer simulate it when either synset
//!   needs it; Leacock–Chodorow when the first one does.
//! * Wu–Palmer's subsumer is chosen among the common ancestors (plus the
//!   simulated root) with the greatest *min* depth (`use_min_depth=True`);
//!   the first synset itself if it is one of them, else the one whose NLTK
//!   name sorts first. Its depth is its *max* depth + 1. Wu–Palmer is
//!   therefore not always symmetric, as in NLTK.
//! * Leacock–Chodorow divides by twice the deepest *max* depth of the
//!   category (19 for nouns; verbs add 1 for the simulated root), and
//!   requires the same synset type: head adjectives (`a`) and satellites
//!   (`s`) are different types, as NLTK's `_pos` says.
//! * The IC measures use the most informative common ancestor (no simulated
//!   root; IC 0 when there is none), `IC(s) = -ln(count(s) / count(root))`,
//!   `1e300` for a zero count; `jcn` of a synset with itself is `1e300`.
//!
//! # Across parts of speech
//!
//! NLTK 3.10 answers `path_similarity` and `wup_similarity` for a noun and
//! a verb (through the simulated root, e.g. car.n.01–run.v.01 path 1/15);
//! the value measures nothing but the depth of the two synsets. By default
//! this module returns `None` for synsets of different parts of speech
//! ([`Pos`]: satellites count as adjectives). [`Similarity::nltk_cross_pos`]
//! switches to NLTK's numbers. `lch` and the IC measures, for which NLTK
//! raises an error across synset types, always give `None` there.
//!
//! # Caches
//!
//! Min/max depths are computed for all synsets at once on first use;
//! hypernym closures with distances are computed lazily per synset and kept
//! in a dense table indexed by [`Inventory::position`]; pair scores are
//! memoised. All of it lives in a [`SimilarityCache`] that can be shared
//! (`Arc`) between [`Similarity`] views, threads and documents.

use std::collections::VecDeque;
use std::io::BufRead;
use std::path::Path;
use std::str::FromStr;
use std::sync::{Arc, Mutex, OnceLock};

use rustc_hash::FxHashMap;

use super::{canonical_name, Inventory, PointerKind, Pos, SynsetId, SynsetType};
use crate::{Error, Result};

/// What NLTK returns for an infinite similarity (`_INF`).
pub const NLTK_INF: f64 = 1e300;

/// A similarity measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Measure {
    /// Path similarity, `1 / (shortest path + 1)`.
    Path,
    /// Wu–Palmer.
    Wup,
    /// Leacock–Chodorow.
    Lch,
    /// Resnik (needs an IC table).
    Res,
    /// Jiang–Conrath (needs an IC table).
    Jcn,
    /// Lin (needs an IC table).
    Lin,
}

impl Measure {
    /// All measures.
    pub const ALL: [Measure; 6] = [
        Measure::Path,
        Measure::Wup,
        Measure::Lch,
        Measure::Res,
        Measure::Jcn,
        Measure::Lin,
    ];

    /// The name as `--measure` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Measure::Path => "path",
            Measure::Wup => "wup",
            Measure::Lch => "lch",
            Measure::Res => "res",
            Measure::Jcn => "jcn",
            Measure::Lin => "lin",
        }
    }

    /// Does the measure need an information-content table?
    pub fn needs_ic(self) -> bool {
        matches!(self, Measure::Res | Measure::Jcn | Measure::Lin)
    }
}

impl FromStr for Measure {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        Measure::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("unknown measure {s:?} (path, wup, lch, res, jcn, lin)"))
    }
}

/// Hypernym closure of one synset: (position, shortest distance) sorted by
/// position, the synset itself at distance 0.
type Closure = Box<[(u32, u16)]>;

/// Depth tables for all synsets.
struct Depths {
    min: Vec<u16>,
    max: Vec<u16>,
    /// Deepest max depth per [`Pos`] (NLTK's `_compute_max_depth` without the root).
    taxonomy: [u16; 4],
}

/// Inventory-derived tables, filled lazily; shareable between
/// [`Similarity`] views of the same inventory.
pub struct SimilarityCache {
    len: usize,
    depths: OnceLock<Depths>,
    closures: Vec<OnceLock<Closure>>,
    pairs: Mutex<FxHashMap<(u32, u32, u8), Option<f64>>>,
}

/// Pair-cache entries kept before the cache is cleared.
const PAIR_CACHE_LIMIT: usize = 4_000_000;

impl SimilarityCache {
    /// Empty tables for `inv`.
    pub fn new(inv: &Inventory) -> SimilarityCache {
        SimilarityCache {
            len: inv.len(),
            depths: OnceLock::new(),
            closures: (0..inv.len()).map(|_| OnceLock::new()).collect(),
            pairs: Mutex::new(FxHashMap::default()),
        }
    }
}

/// Parents (hypernyms and instance hypernyms) of the synset at `i`, as positions.
fn parents(inv: &Inventory, i: usize) -> impl Iterator<Item = usize> + '_ {
    inv.synsets()[i]
        .pointers
        .iter()
        .filter(|p| {
            matches!(
                p.kind,
                PointerKind::Hypernym | PointerKind::InstanceHypernym
            )
        })
        .filter_map(|p| inv.position(p.target))
}

/// Breadth-first hypernym closure with shortest distances (NLTK's
/// `_shortest_hypernym_paths` without the simulated root).
fn closure_of(inv: &Inventory, i: usize) -> Closure {
    let mut seen: Vec<(u32, u16)> = Vec::with_capacity(16);
    let mut queue = VecDeque::from([(i, 0u16)]);
    while let Some((s, d)) = queue.pop_front() {
        if seen.iter().any(|&(p, _)| p as usize == s) {
            continue;
        }
        seen.push((s as u32, d));
        if d < 1000 {
            queue.extend(parents(inv, s).map(|p| (p, d + 1)));
        }
    }
    seen.sort_unstable();
    seen.into_boxed_slice()
}

fn compute_depths(inv: &Inventory) -> Depths {
    let n = inv.len();
    const UNSET: u16 = u16::MAX;
    let mut min = vec![UNSET; n];
    let mut max = vec![UNSET; n];
    // Iterative post-order DFS (WordNet 3.0's taxonomy is acyclic; a cycle
    // would only make a depth come out short, never loop).
    let mut on_stack = vec![false; n];
    for start in 0..n {
        if min[start] != UNSET {
            continue;
        }
        let mut stack = vec![(start, false)];
        while let Some((s, expanded)) = stack.pop() {
            if min[s] != UNSET {
                continue;
            }
            if !expanded {
                on_stack[s] = true;
                stack.push((s, true));
                for p in parents(inv, s) {
                    if min[p] == UNSET && !on_stack[p] {
                        stack.push((p, false));
                    }
                }
            } else {
                let (mut lo, mut hi, mut any) = (u16::MAX, 0u16, false);
                for p in parents(inv, s) {
                    if min[p] == UNSET {
                        continue; // a back edge of a cycle
                    }
                    any = true;
                    lo = lo.min(min[p] + 1);
                    hi = hi.max(max[p] + 1);
                }
                if !any {
                    (lo, hi) = (0, 0);
                }
                min[s] = lo;
                max[s] = hi;
                on_stack[s] = false;
            }
        }
    }
    let mut taxonomy = [0u16; 4];
    for (i, s) in inv.synsets().iter().enumerate() {
        let t = &mut taxonomy[s.id.pos.index()];
        *t = (*t).max(max[i]);
    }
    Depths { min, max, taxonomy }
}

/// A candidate subsumer in Wu–Palmer: a real synset or NLTK's `*ROOT*`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Node {
    Real(usize),
    Root,
}

/// The similarity measures over one inventory (a cheap view: the tables
/// live in a shared [`SimilarityCache`]).
pub struct Similarity<'a> {
    inv: &'a Inventory,
    cache: Arc<SimilarityCache>,
    cross_pos: bool,
}

impl<'a> Similarity<'a> {
    /// Measures over `inv` with fresh caches.
    pub fn new(inv: &'a Inventory) -> Similarity<'a> {
        Similarity::with_cache(inv, Arc::new(SimilarityCache::new(inv)))
    }

    /// Measures over `inv` sharing existing caches (which must have been
    /// made for the same inventory).
    pub fn with_cache(inv: &'a Inventory, cache: Arc<SimilarityCache>) -> Similarity<'a> {
        assert_eq!(
            cache.len,
            inv.len(),
            "similarity cache made for another inventory"
        );
        Similarity {
            inv,
            cache,
            cross_pos: false,
        }
    }

    /// With `true`, path and Wu–Palmer across parts of speech give NLTK's
    /// simulated-root values instead of `None`.
    pub fn nltk_cross_pos(mut self, yes: bool) -> Self {
        self.cross_pos = yes;
        self
    }

    /// The shared caches.
    pub fn cache(&self) -> &Arc<SimilarityCache> {
        &self.cache
    }

    /// The inventory.
    pub fn inventory(&self) -> &'a Inventory {
        self.inv
    }

    fn depths(&self) -> &Depths {
        self.cache.depths.get_or_init(|| compute_depths(self.inv))
    }

    fn closure(&self, i: usize) -> &[(u32, u16)] {
        self.cache.closures[i].get_or_init(|| closure_of(self.inv, i))
    }

    fn index(&self, id: SynsetId) -> Option<usize> {
        self.inv.position(id)
    }

    fn ss_type(&self, i: usize) -> SynsetType {
        self.inv.synsets()[i].ss_type
    }

    fn pos(&self, i: usize) -> Pos {
        self.inv.synsets()[i].id.pos
    }

    fn needs_root(&self, i: usize) -> bool {
        self.ss_type(i) != SynsetType::Noun
    }

    /// Min depth: edges of the shortest hypernym path to a root.
    pub fn min_depth(&self, id: SynsetId) -> Option<u32> {
        self.index(id).map(|i| self.depths().min[i] as u32)
    }

    /// Max depth: edges of the longest hypernym path to a root.
    pub fn max_depth(&self, id: SynsetId) -> Option<u32> {
        self.index(id).map(|i| self.depths().max[i] as u32)
    }

    /// The lowest common hypernym (or self) of two synsets of one part of
    /// speech: of their common ancestors, the deepest by max depth (as
    /// NLTK's `lowest_common_hypernyms`; the first in inventory order on a
    /// tie); `None` when they share none (verbs of different trees).
    pub fn lowest_common_hypernym(&self, a: SynsetId, b: SynsetId) -> Option<SynsetId> {
        let (i, j) = self.pair(a, b)?;
        let depths = self.depths();
        let k = self
            .common(i, j)
            .into_iter()
            .max_by_key(|&k| (depths.max[k], std::cmp::Reverse(k)))?;
        Some(self.inv.synsets()[k].id)
    }

    /// The deepest max depth of a category (19 for nouns in WordNet 3.0).
    pub fn taxonomy_depth(&self, pos: Pos) -> u32 {
        self.depths().taxonomy[pos.index()] as u32
    }

    /// The hypernym closure of `id` (itself included) with shortest
    /// distances, in no particular order.
    pub fn hypernym_distances(&self, id: SynsetId) -> Vec<(SynsetId, u32)> {
        let Some(i) = self.index(id) else {
            return Vec::new();
        };
        self.closure(i)
            .iter()
            .map(|&(p, d)| (self.inv.synsets()[p as usize].id, d as u32))
            .collect()
    }

    fn far(&self, i: usize) -> u32 {
        self.closure(i)
            .iter()
            .map(|&(_, d)| d as u32)
            .max()
            .unwrap_or(0)
    }

    /// NLTK's `shortest_path_distance` between positions, with or without the
    /// simulated root.
    fn distance(&self, a: usize, b: usize, root: bool) -> Option<u32> {
        if a == b {
            return Some(0);
        }
        let (ca, cb) = (self.closure(a), self.closure(b));
        let mut best: Option<u32> = None;
        let (mut i, mut j) = (0, 0);
        while i < ca.len() && j < cb.len() {
            match ca[i].0.cmp(&cb[j].0) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    let d = ca[i].1 as u32 + cb[j].1 as u32;
                    best = Some(best.map_or(d, |b| b.min(d)));
                    i += 1;
                    j += 1;
                }
            }
        }
        if root {
            let d = self.far(a) + 1 + self.far(b) + 1;
            best = Some(best.map_or(d, |b| b.min(d)));
        }
        best
    }

    /// Positions that are ancestors-or-self of both.
    fn common(&self, a: usize, b: usize) -> Vec<usize> {
        let (ca, cb) = (self.closure(a), self.closure(b));
        let mut out = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < ca.len() && j < cb.len() {
            match ca[i].0.cmp(&cb[j].0) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    out.push(ca[i].0 as usize);
                    i += 1;
                    j += 1;
                }
            }
        }
        out
    }

    /// Resolve both ids; `None` when either is unknown or (unless
    /// cross-POS is on) their parts of speech differ.
    fn pair(&self, a: SynsetId, b: SynsetId) -> Option<(usize, usize)> {
        let (i, j) = (self.index(a)?, self.index(b)?);
        if !self.cross_pos && self.pos(i) != self.pos(j) {
            return None;
        }
        Some((i, j))
    }

    fn cached(&self, i: usize, j: usize, m: u8, f: impl FnOnce() -> Option<f64>) -> Option<f64> {
        let key = (i as u32, j as u32, m | ((self.cross_pos as u8) << 4));
        if let Some(v) = self
            .cache
            .pairs
            .lock()
            .ok()
            .and_then(|c| c.get(&key).copied())
        {
            return v;
        }
        let v = f();
        if let Ok(mut c) = self.cache.pairs.lock() {
            if c.len() >= PAIR_CACHE_LIMIT {
                c.clear();
            }
            c.insert(key, v);
        }
        v
    }

    /// The shortest path length in edges (NLTK's `shortest_path_distance`
    /// with the root simulated when path similarity would simulate it).
    pub fn shortest_path_distance(&self, a: SynsetId, b: SynsetId) -> Option<u32> {
        let (i, j) = self.pair(a, b)?;
        self.distance(i, j, self.needs_root(i) || self.needs_root(j))
    }

    /// Path similarity: `1 / (d + 1)`, `d` the shortest path (NLTK's
    /// `path_similarity`, `simulate_root=True`).
    pub fn path(&self, a: SynsetId, b: SynsetId) -> Option<f64> {
        let (i, j) = self.pair(a, b)?;
        self.cached(i, j, 0, || {
            let d = self.distance(i, j, self.needs_root(i) || self.needs_root(j))?;
            Some(1.0 / (d as f64 + 1.0))
        })
    }

    /// Wu–Palmer similarity (NLTK's `wup_similarity`, `simulate_root=True`).
    pub fn wup(&self, a: SynsetId, b: SynsetId) -> Option<f64> {
        let (i, j) = self.pair(a, b)?;
        self.cached(i, j, 1, || self.wup_at(i, j))
    }

    fn wup_at(&self, i: usize, j: usize) -> Option<f64> {
        let need_root = self.needs_root(i) || self.needs_root(j);
        let depths = self.depths();
        let mut cands: Vec<Node> = self.common(i, j).into_iter().map(Node::Real).collect();
        if need_root {
            cands.push(Node::Root);
        }
        let min_depth = |n: Node| match n {
            Node::Real(k) => depths.min[k],
            Node::Root => 0,
        };
        let deepest = cands.iter().map(|&n| min_depth(n)).max()?;
        cands.retain(|&n| min_depth(n) == deepest);
        let subsumer = if cands.contains(&Node::Real(i)) {
            Node::Real(i)
        } else if cands.len() == 1 {
            cands[0]
        } else {
            // NLTK sorts the candidates by name and takes the first.
            let name = |n: Node| match n {
                Node::Real(k) => canonical_name(self.inv, &self.inv.synsets()[k])
                    .unwrap_or_else(|_| String::new()),
                Node::Root => "*ROOT*".to_string(),
            };
            cands
                .into_iter()
                .map(|n| (name(n), n))
                .min_by(|x, y| x.0.cmp(&y.0))?
                .1
        };
        let (depth, len1, len2) = match subsumer {
            Node::Real(s) => (
                depths.max[s] as u32 + 1,
                self.distance(i, s, need_root)?,
                self.distance(j, s, need_root)?,
            ),
            // `*ROOT*`: depth 0 + 1; each synset reaches it one edge beyond
            // its farthest ancestor.
            Node::Root => (1, self.far(i) + 1, self.far(j) + 1),
        };
        let (len1, len2) = (len1 + depth, len2 + depth);
        Some(2.0 * depth as f64 / (len1 + len2) as f64)
    }

    /// Leacock–Chodorow similarity, `-ln((d + 1) / 2D)` (NLTK's
    /// `lch_similarity`); `None` across synset types.
    pub fn lch(&self, a: SynsetId, b: SynsetId) -> Option<f64> {
        let (i, j) = (self.index(a)?, self.index(b)?);
        if self.ss_type(i) != self.ss_type(j) {
            return None;
        }
        self.cached(i, j, 2, || {
            let need_root = self.needs_root(i);
            let depth = self.taxonomy_depth(self.pos(i)) + need_root as u32;
            let d = self.distance(i, j, need_root)?;
            if depth == 0 {
                return None;
            }
            Some(-((d as f64 + 1.0) / (2.0 * depth as f64)).ln())
        })
    }

    /// NLTK's `_lcs_ic`: IC of both synsets and of their most informative
    /// common ancestor (0 when none); `None` across synset types.
    fn lcs_ic(&self, i: usize, j: usize, ic: &Ic) -> Option<(f64, f64, f64)> {
        if self.ss_type(i) != self.ss_type(j) {
            return None;
        }
        let ic1 = ic.ic_at(self.inv, i);
        let ic2 = ic.ic_at(self.inv, j);
        let lcs = self
            .common(i, j)
            .into_iter()
            .map(|k| ic.ic_at(self.inv, k))
            .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))))
            .unwrap_or(0.0);
        Some((ic1, ic2, lcs))
    }

    /// Resnik similarity: IC of the most informative common subsumer.
    pub fn res(&self, a: SynsetId, b: SynsetId, ic: &Ic) -> Option<f64> {
        let (i, j) = (self.index(a)?, self.index(b)?);
        self.lcs_ic(i, j, ic).map(|(_, _, l)| l)
    }

    /// Jiang–Conrath similarity: `1 / (IC(a) + IC(b) - 2 IC(lcs))`, with
    /// NLTK's special cases (`1e300` for identity or a zero difference, 0
    /// when either IC is 0).
    pub fn jcn(&self, a: SynsetId, b: SynsetId, ic: &Ic) -> Option<f64> {
        let (i, j) = (self.index(a)?, self.index(b)?);
        if i == j {
            return Some(NLTK_INF);
        }
        let (ic1, ic2, lcs) = self.lcs_ic(i, j, ic)?;
        if ic1 == 0.0 || ic2 == 0.0 {
            return Some(0.0);
        }
        let diff = ic1 + ic2 - 2.0 * lcs;
        if diff == 0.0 {
            return Some(NLTK_INF);
        }
        Some(1.0 / diff)
    }

    /// Lin similarity: `2 IC(lcs) / (IC(a) + IC(b))`; `None` where NLTK
    /// divides by zero (both synsets with IC 0, e.g. the root with itself).
    pub fn lin(&self, a: SynsetId, b: SynsetId, ic: &Ic) -> Option<f64> {
        let (i, j) = (self.index(a)?, self.index(b)?);
        let (ic1, ic2, lcs) = self.lcs_ic(i, j, ic)?;
        if ic1 + ic2 == 0.0 {
            return None;
        }
        Some(2.0 * lcs / (ic1 + ic2))
    }

    /// Any measure. IC measures need `ic` ([`Error::BadParameter`] without one).
    pub fn measure(
        &self,
        m: Measure,
        a: SynsetId,
        b: SynsetId,
        ic: Option<&Ic>,
    ) -> Result<Option<f64>> {
        let need = || {
            ic.ok_or_else(|| {
                Error::bad_parameter(
                    "measure",
                    m.name(),
                    "needs an information-content table (--ic FILE, or the default from WordNet's tag counts)",
                )
            })
        };
        Ok(match m {
            Measure::Path => self.path(a, b),
            Measure::Wup => self.wup(a, b),
            Measure::Lch => self.lch(a, b),
            Measure::Res => self.res(a, b, need()?),
            Measure::Jcn => self.jcn(a, b, need()?),
            Measure::Lin => self.lin(a, b, need()?),
        })
    }
}

/// An information-content table: a (smoothed) frequency per synset that
/// includes the frequencies of all its hyponyms, and a total per category.
///
/// # Counting
///
/// Each tagged occurrence of a synset adds its weight (1 per sense key) to
/// the synset and to every ancestor through hypernym and instance-hypernym
/// pointers — each ancestor **once** per occurrence, however many paths
/// lead to it — and to the category total (NLTK's root count `ic[pos][0]`).
/// NLTK's `WordNetCorpusReader.ic()` does the same for untagged words,
/// spreading each word over its synsets; its level-by-level walk can count
/// an ancestor twice when two parents of one level share it, which we do not.
///
/// # Smoothing
///
/// NLTK's default `smoothing=1.0`: every synset, and every category total,
/// starts at 1 before counting (add-one on the synset's own count, not
/// propagated). So no synset has a zero count, and the root's IC is 0.
/// With smoothing 0, unseen synsets have IC `1e300` as in NLTK.
#[derive(Clone, Debug, PartialEq)]
pub struct Ic {
    counts: Vec<f64>,
    totals: [f64; 4],
    smoothing: f64,
    /// Occurrences counted.
    pub occurrences: u64,
    /// Keys that WordNet does not have (skipped).
    pub unknown: u64,
}

/// The header line's magic word and version.
const IC_MAGIC: &str = "wsd-ic";
const IC_VERSION: u32 = 1;

impl Ic {
    /// A table with no occurrences, every count at `smoothing`.
    pub fn empty(inv: &Inventory, smoothing: f64) -> Ic {
        Ic {
            counts: vec![smoothing; inv.len()],
            totals: [smoothing; 4],
            smoothing,
            occurrences: 0,
            unknown: 0,
        }
    }

    /// Add `weight` occurrences of synset `id` (to it, each ancestor once,
    /// and the category total). False when `id` is not in the inventory.
    pub fn add(&mut self, inv: &Inventory, id: SynsetId, weight: f64) -> bool {
        let Some(i) = inv.position(id) else {
            return false;
        };
        for &(p, _) in closure_of(inv, i).iter() {
            self.counts[p as usize] += weight;
        }
        self.totals[id.pos.index()] += weight;
        true
    }

    /// The smoothing the table was built with.
    pub fn smoothing(&self) -> f64 {
        self.smoothing
    }

    /// The (propagated, smoothed) count of a synset.
    pub fn count(&self, inv: &Inventory, id: SynsetId) -> Option<f64> {
        inv.position(id).map(|i| self.counts[i])
    }

    /// The category total (NLTK's root count).
    pub fn total(&self, pos: Pos) -> f64 {
        self.totals[pos.index()]
    }

    fn ic_at(&self, inv: &Inventory, i: usize) -> f64 {
        let c = self.counts[i];
        if c == 0.0 {
            return NLTK_INF;
        }
        -(c / self.totals[inv.synsets()[i].id.pos.index()]).ln()
    }

    /// Information content `-ln(count / total)` (NLTK's
    /// `information_content`; `1e300` for a zero count).
    pub fn information_content(&self, inv: &Inventory, id: SynsetId) -> Option<f64> {
        inv.position(id).map(|i| self.ic_at(inv, i))
    }

    /// Write the table as text: a header line
    /// `wsd-ic 1 smoothing=S occurrences=N unknown=U`, one line per category
    /// total `ROOT-n COUNT`, then `OFFSET-P COUNT` for every synset whose
    /// count differs from the smoothing value. Written to a temporary file
    /// in the same folder and renamed into place.
    pub fn write(&self, inv: &Inventory, path: &Path) -> Result<()> {
        crate::atomic::write_atomically(path, |w| {
            writeln!(
                w,
                "{IC_MAGIC} {IC_VERSION} smoothing={} occurrences={} unknown={}",
                self.smoothing, self.occurrences, self.unknown
            )?;
            for p in Pos::ALL {
                writeln!(w, "ROOT-{} {}", p.letter(), self.total(p))?;
            }
            for (i, s) in inv.synsets().iter().enumerate() {
                if self.counts[i] != self.smoothing {
                    writeln!(
                        w,
                        "{:08}-{} {}",
                        s.id.offset,
                        s.id.pos.letter(),
                        self.counts[i]
                    )?;
                }
            }
            Ok(())
        })
    }

    /// Read a table written by [`Ic::write`] for the same inventory.
    pub fn read(inv: &Inventory, path: &Path) -> Result<Ic> {
        let f = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
        let mut lines = std::io::BufReader::new(f).lines();
        let header = match lines.next() {
            Some(l) => l.map_err(|e| Error::io(path, e))?,
            None => return Err(Error::parse(path, 1, "empty file, expected an IC table")),
        };
        let mut fields = header.split_ascii_whitespace();
        if fields.next() != Some(IC_MAGIC) {
            return Err(Error::parse(
                path,
                1,
                format!("not a wsd IC table (header {header:?}); write one with Ic::write"),
            ));
        }
        let version: u32 = fields
            .next()
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| Error::parse(path, 1, "missing format version"))?;
        if version != IC_VERSION {
            return Err(Error::parse(
                path,
                1,
                format!("IC format version {version}, this wsd reads version {IC_VERSION}"),
            ));
        }
        let mut smoothing = None;
        let (mut occurrences, mut unknown) = (0, 0);
        for f in fields {
            let bad = || Error::parse(path, 1, format!("bad header field {f:?}"));
            match f.split_once('=') {
                Some(("smoothing", v)) => smoothing = Some(v.parse().map_err(|_| bad())?),
                Some(("occurrences", v)) => occurrences = v.parse().map_err(|_| bad())?,
                Some(("unknown", v)) => unknown = v.parse().map_err(|_| bad())?,
                _ => {}
            }
        }
        let smoothing: f64 =
            smoothing.ok_or_else(|| Error::parse(path, 1, "header lacks smoothing=S"))?;
        if !(smoothing.is_finite() && smoothing >= 0.0) {
            return Err(Error::parse(
                path,
                1,
                format!("smoothing={smoothing}: must be a finite number ≥ 0"),
            ));
        }
        let mut ic = Ic::empty(inv, smoothing);
        ic.occurrences = occurrences;
        ic.unknown = unknown;
        let mut roots = [0usize; 4];
        let mut seen = vec![0usize; inv.len()];
        let mut last_line = 1;
        for (n, line) in lines.enumerate() {
            let lineno = n + 2;
            last_line = lineno;
            let line = line.map_err(|e| Error::io(path, e))?;
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let bad = |msg: String| Error::parse(path, lineno, msg);
            let (id, count) = line.split_once(' ').ok_or_else(|| {
                bad(format!(
                    "expected `OFFSET-POS COUNT`, got {:?}",
                    crate::error::excerpt(line)
                ))
            })?;
            let count: f64 = count
                .trim()
                .parse()
                .ok()
                .filter(|c: &f64| c.is_finite() && *c >= 0.0)
                .ok_or_else(|| bad(format!("bad count {:?}", crate::error::excerpt(count))))?;
            let (num, letter) = id
                .rsplit_once('-')
                .ok_or_else(|| bad(format!("bad synset id {:?}", crate::error::excerpt(id))))?;
            let pos = letter
                .chars()
                .next()
                .filter(|_| letter.len() == 1)
                .and_then(Pos::from_letter)
                .ok_or_else(|| bad(format!("bad part of speech in {id:?}")))?;
            if num == "ROOT" {
                if count <= 0.0 {
                    return Err(bad(format!(
                        "ROOT-{letter} {count}: a category total must be > 0"
                    )));
                }
                if roots[pos.index()] != 0 {
                    return Err(bad(format!(
                        "second ROOT-{letter} line (the first is line {})",
                        roots[pos.index()]
                    )));
                }
                ic.totals[pos.index()] = count;
                roots[pos.index()] = lineno;
                continue;
            }
            let offset: u32 = num
                .parse()
                .map_err(|_| bad(format!("bad synset offset in {id:?}")))?;
            let i = inv
                .position(SynsetId { pos, offset })
                .ok_or_else(|| bad(format!("WordNet has no synset {id}")))?;
            if seen[i] != 0 {
                return Err(bad(format!(
                    "second line for {id} (the first is line {})",
                    seen[i]
                )));
            }
            seen[i] = lineno;
            ic.counts[i] = count;
        }
        if let Some(p) = roots.iter().position(|r| *r == 0) {
            return Err(Error::parse(
                path,
                last_line,
                format!("no ROOT-{} line (category total)", Pos::ALL[p].letter()),
            ));
        }
        Ok(ic)
    }
}

/// An IC table from sense-tagged occurrences, one sense key each (a
/// SemCor reader's keys, for instance), with NLTK's default add-one
/// smoothing. Keys WordNet does not have are counted in [`Ic::unknown`].
pub fn ic_from_keys<'k>(inv: &Inventory, keys: impl IntoIterator<Item = &'k str>) -> Ic {
    ic_from_keys_with(inv, keys, 1.0)
}

/// [`ic_from_keys`] with an explicit smoothing value.
pub fn ic_from_keys_with<'k>(
    inv: &Inventory,
    keys: impl IntoIterator<Item = &'k str>,
    smoothing: f64,
) -> Ic {
    let mut ic = Ic::empty(inv, smoothing);
    for key in keys {
        match inv.sense_by_key(key.trim()) {
            Some((syn, _, _)) => {
                let id = syn.id;
                ic.add(inv, id, 1.0);
                ic.occurrences += 1;
            }
            None => ic.unknown += 1,
        }
    }
    ic
}

/// An IC table from WordNet's own tag counts (`index.sense`, the counts of
/// the semantic concordances SemCor belongs to): each sense counted
/// `tag_count` times, with add-one smoothing. A table available without
/// any corpus.
pub fn ic_from_tag_counts(inv: &Inventory) -> Ic {
    let mut ic = Ic::empty(inv, 1.0);
    for p in Pos::ALL {
        for lemma in inv.lemmas(p) {
            for s in inv.senses(lemma, p) {
                if s.tag_count > 0 {
                    ic.add(inv, s.synset, s.tag_count as f64);
                    ic.occurrences += s.tag_count as u64;
                }
            }
        }
    }
    ic
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_parse_and_print() {
        for m in Measure::ALL {
            assert_eq!(m.name().parse::<Measure>(), Ok(m));
        }
        assert!("cosine"
            .parse::<Measure>()
            .unwrap_err()
            .contains("path, wup"));
        assert!(Measure::Lin.needs_ic() && !Measure::Wup.needs_ic());
    }
}
