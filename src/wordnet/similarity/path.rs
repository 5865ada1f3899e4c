//! The path-based measures (path, Wu–Palmer, Leacock–Chodorow) and what
//! they are made of: the hypernym closure of a synset with shortest
//! distances, min/max depths, shortest paths through a common ancestor,
//! the lowest common hypernyms.

use std::collections::VecDeque;

use super::{Closure, Depths, Similarity};
use crate::wordnet::{canonical_name, Inventory, SynsetId};

/// Parents (hypernyms and instance hypernyms) of the synset at `i`, as positions.
pub(super) fn parents(inv: &Inventory, i: usize) -> impl Iterator<Item = usize> + '_ {
    inv.parent_positions(i)
}

/// Breadth-first hypernym closure with shortest distances (NLTK's
/// `_shortest_hypernym_paths` without the simulated root).
pub(super) fn closure_of(inv: &Inventory, i: usize) -> Closure {
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

pub(super) fn compute_depths(inv: &Inventory) -> Depths {
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
pub(super) enum Node {
    Real(usize),
    Root,
}

impl<'a> Similarity<'a> {
    pub(super) fn far(&self, i: usize) -> u32 {
        self.closure(i)
            .iter()
            .map(|&(_, d)| d as u32)
            .max()
            .unwrap_or(0)
    }

    /// NLTK's `shortest_path_distance` between positions, with or without the
    /// simulated root.
    pub(super) fn distance(&self, a: usize, b: usize, root: bool) -> Option<u32> {
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
    pub(super) fn common(&self, a: usize, b: usize) -> Vec<usize> {
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

    /// NLTK's `lowest_common_hypernyms` with its defaults
    /// (`simulate_root=False`, `use_min_depth=False`): the common
    /// ancestors-or-self of both synsets with the greatest *max* depth,
    /// sorted by NLTK name (dog.n.01, cat.n.01 → carnivore.n.01). Empty
    /// when they share no ancestor (verbs of different trees, adjectives).
    pub fn lowest_common_hypernyms(&self, a: SynsetId, b: SynsetId) -> Vec<SynsetId> {
        let (Some(i), Some(j)) = (self.index(a), self.index(b)) else {
            return Vec::new();
        };
        let common = self.common(i, j);
        let depths = self.depths();
        let Some(deepest) = common.iter().map(|&k| depths.max[k]).max() else {
            return Vec::new();
        };
        let mut out: Vec<(String, SynsetId)> = common
            .into_iter()
            .filter(|&k| depths.max[k] == deepest)
            .map(|k| {
                let s = &self.inv.synsets()[k];
                (canonical_name(self.inv, s).unwrap_or_default(), s.id)
            })
            .collect();
        out.sort();
        out.into_iter().map(|(_, id)| id).collect()
    }

    /// One shortest path between two synsets through a common ancestor:
    /// `a`, its hypernyms up to the ancestor, then down to `b` (both ends
    /// included; `[a]` when `a == b`). Its length in edges is the distance
    /// without a simulated root. `None` when they share no ancestor. Among
    /// equally short paths, the ancestor and the hypernyms first in the
    /// inventory's order are taken.
    pub fn shortest_path(&self, a: SynsetId, b: SynsetId) -> Option<Vec<SynsetId>> {
        let (i, j) = (self.index(a)?, self.index(b)?);
        let (ca, cb) = (self.closure(i), self.closure(j));
        let dist = |c: &[(u32, u16)], k: usize| {
            c.binary_search_by_key(&(k as u32), |&(p, _)| p)
                .ok()
                .map(|x| c[x].1 as u32)
        };
        let top = self
            .common(i, j)
            .into_iter()
            .filter_map(|k| Some((dist(ca, k)? + dist(cb, k)?, k)))
            .min()?
            .1;
        let mut up = self.chain_up(i, top)?;
        let mut down = self.chain_up(j, top)?;
        down.pop();
        down.reverse();
        up.extend(down);
        Some(up.into_iter().map(|k| self.inv.synsets()[k].id).collect())
    }

    /// A shortest hypernym chain from position `from` up to `to`, both included.
    fn chain_up(&self, from: usize, to: usize) -> Option<Vec<usize>> {
        let mut prev: rustc_hash::FxHashMap<usize, usize> = Default::default();
        let mut queue = VecDeque::from([from]);
        prev.insert(from, from);
        while let Some(s) = queue.pop_front() {
            if s == to {
                let mut out = vec![to];
                let mut k = to;
                while k != from {
                    k = prev[&k];
                    out.push(k);
                }
                out.reverse();
                return Some(out);
            }
            for p in parents(self.inv, s) {
                if let std::collections::hash_map::Entry::Vacant(e) = prev.entry(p) {
                    e.insert(s);
                    queue.push_back(p);
                }
            }
        }
        None
    }
}
