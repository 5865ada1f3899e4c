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
//! * Word level ([`words`]): a term is a synset or a word; two words'
//!   similarity is the maximum over their senses of the same POS.
//! * [`Similarity::lowest_common_hypernyms`] and
//!   [`Similarity::shortest_path`] say where two synsets meet.
//!
//! The code is split by concern: `path.rs` (closures, depths, the path
//! measures, common hypernyms), `ic.rs` (the information-content table
//! and measures), `words.rs` (word-level lookups); this file holds the
//! measure names, the shared caches and the dispatch.
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

use std::str::FromStr;
use std::sync::{Arc, Mutex, OnceLock};

use rustc_hash::FxHashMap;

use super::{Inventory, Pos, SynsetId, SynsetType};
use crate::{Error, Result};

mod ic;
mod path;
pub mod words;

pub use ic::{ic_from_keys, ic_from_keys_with, ic_from_tag_counts, Ic};
use path::{closure_of, compute_depths};
pub use words::{best_pair, Term, WordSimilarity};

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
