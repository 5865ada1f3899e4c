//! The tagger's feature index: feature hash → its row of weights.
//!
//! Why not a `HashMap`: the tagger looks up some 40 features per word in a
//! table of hundreds of thousands of rows, and nearly every lookup misses
//! the cache, so a word cost some 40 memory round trips one after the
//! other (the lookups were a quarter of `wsd tag --method mfs`). This
//! table is open addressing with linear probing over the hashes' low bits
//! (the keys are already SplitMix64 outputs), which lets
//! [`FeatureRows::add_scores`] ask for all of a word's slots, then all of
//! its rows, before reading any: the misses overlap. The scores are added
//! in the same order as before, so they are bitwise the same.

/// One slot: a feature hash and its row `entries[start..end]`; `end == 0`
/// marks an empty slot (a row is never empty).
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    start: u32,
    end: u32,
}

/// Feature hash → row of `(tag id, weight)` entries.
#[derive(Clone, Default)]
pub(crate) struct FeatureRows {
    slots: Vec<Slot>,
    len: usize,
}

impl std::fmt::Debug for FeatureRows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FeatureRows({} rows)", self.len)
    }
}

/// Equal when the same keys have the same rows (slot layout aside).
impl PartialEq for FeatureRows {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().all(|(k, r)| other.get(k) == Some(r))
    }
}

/// Most of a sentence's words have fewer features than this; longer
/// feature lists are done in chunks.
const CHUNK: usize = 64;

impl FeatureRows {
    /// An empty table with room for `n` rows at a load of at most one half.
    pub(crate) fn with_capacity(n: usize) -> Self {
        let size = (n.max(4) * 2).next_power_of_two();
        FeatureRows {
            slots: vec![Slot::default(); size],
            len: 0,
        }
    }

    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    /// Adds a row (`start < end`). Returns false, changing nothing, when
    /// the key is already there.
    pub(crate) fn insert(&mut self, key: u64, (start, end): (u32, u32)) -> bool {
        assert!(start < end, "empty feature row");
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.mask();
        let mut i = key as usize & mask;
        loop {
            let s = &mut self.slots[i];
            if s.end == 0 {
                *s = Slot { key, start, end };
                self.len += 1;
                return true;
            }
            if s.key == key {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let old = std::mem::replace(self, FeatureRows::with_capacity(self.slots.len()));
        for s in old.slots.into_iter().filter(|s| s.end != 0) {
            self.insert(s.key, (s.start, s.end));
        }
    }

    /// The row of `key`.
    pub(crate) fn get(&self, key: u64) -> Option<(u32, u32)> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.mask();
        let mut i = key as usize & mask;
        loop {
            let s = self.slots[i];
            if s.end == 0 {
                return None;
            }
            if s.key == key {
                return Some((s.start, s.end));
            }
            i = (i + 1) & mask;
        }
    }

    /// Number of rows (the tagger's evaluation report prints it).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Every (key, row), in no particular order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u64, (u32, u32))> + '_ {
        self.slots
            .iter()
            .filter(|s| s.end != 0)
            .map(|s| (s.key, (s.start, s.end)))
    }

    /// Adds the weights of every feature in `feats` that has a row to
    /// `scores[tag]`, feature by feature in order (the same sums, bit for
    /// bit, as looking each up in turn), prefetching slots and rows first.
    pub(crate) fn add_scores(&self, feats: &[u64], entries: &[(u16, f32)], scores: &mut [f32]) {
        if self.slots.is_empty() {
            return;
        }
        let mask = self.mask();
        let mut rows = [(0u32, 0u32); CHUNK];
        for chunk in feats.chunks(CHUNK) {
            for &f in chunk {
                prefetch(&self.slots[f as usize & mask]);
            }
            let mut n = 0;
            for &f in chunk {
                if let Some((a, b)) = self.get(f) {
                    prefetch(&entries[a as usize]);
                    rows[n] = (a, b);
                    n += 1;
                }
            }
            for &(a, b) in &rows[..n] {
                for &(t, w) in &entries[a as usize..b as usize] {
                    scores[usize::from(t)] += w;
                }
            }
        }
    }
}

/// Asks for the cache line holding `x` (a hint; no effect on results).
#[inline(always)]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint and never faults, whatever the address;
    // SSE is part of x86_64.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn lcg(state: &mut u64) -> u64 {
        *state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        *state
    }

    #[test]
    fn agrees_with_a_hash_map_through_growth_and_collisions() {
        let mut rows = FeatureRows::with_capacity(1);
        let mut reference = HashMap::new();
        let mut state = 7;
        for i in 0..5_000u32 {
            // Every third key shares its low bits with the one before, so
            // probing past occupied slots is exercised.
            let key = if i % 3 == 2 {
                lcg(&mut state) << 20
            } else {
                lcg(&mut state)
            };
            let row = (i, i + 1 + i % 5);
            assert_eq!(rows.insert(key, row), reference.insert(key, row).is_none());
            assert!(!rows.insert(key, (0, 1)), "a second insert changes nothing");
        }
        assert_eq!(rows.len(), reference.len());
        for (&k, &r) in &reference {
            assert_eq!(rows.get(k), Some(r));
        }
        let mut state = 99;
        for _ in 0..1_000 {
            let k = lcg(&mut state);
            assert_eq!(rows.get(k), reference.get(&k).copied());
        }
        let mut listed: Vec<_> = rows.iter().collect();
        let mut expected: Vec<_> = reference.into_iter().collect();
        listed.sort_unstable();
        expected.sort_unstable();
        assert_eq!(listed, expected);
    }

    #[test]
    fn scores_are_the_in_order_sums_of_the_found_rows() {
        let entries = vec![(0u16, 0.5f32), (2, -1.25), (1, 3.0), (0, 0.1), (2, 0.2)];
        let mut rows = FeatureRows::with_capacity(2);
        rows.insert(11, (0, 2));
        rows.insert(12, (2, 5));
        // 13 has no row; 11 twice counts twice; more features than a chunk.
        let mut feats = vec![11, 13, 12, 11];
        feats.extend(std::iter::repeat_n(12, CHUNK));
        let mut scores = vec![1.0f32; 3];
        rows.add_scores(&feats, &entries, &mut scores);
        let mut expected = vec![1.0f32; 3];
        for f in &feats {
            let span = match f {
                11 => 0..2,
                12 => 2..5,
                _ => continue,
            };
            for &(t, w) in &entries[span] {
                expected[usize::from(t)] += w;
            }
        }
        assert_eq!(scores, expected);
        assert!(FeatureRows::default().get(11).is_none());
    }
}
