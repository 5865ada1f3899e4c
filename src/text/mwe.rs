//! Multiword expressions: greedy longest match of token runs against
//! WordNet's collocations (`took place` → `take_place`, `New York` →
//! `new_york`, `credit cards` → `credit_card`).
//!
//! The matcher knows every lemma of the inventory that contains `_`. At each
//! token it tries the longest run first (up to the longest collocation that
//! starts with that word) and accepts a run when its lower-cased words
//! joined by `_` — or the same with the first word reduced to a verb base
//! form (`took` → `take`) or the last word to a noun base form (`cards` →
//! `card`) — is a collocation. Runs never cross punctuation. All checks
//! are hash lookups, so matching costs a few lookups per token.

use rustc_hash::FxHashMap;

use crate::wordnet::{Inventory, Pos};

/// A match: tokens `[start, end)` form the collocation `lemma` of `pos`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MweMatch {
    /// First token.
    pub start: usize,
    /// One past the last token.
    pub end: usize,
    /// The collocation as WordNet spells it (`take_place`).
    pub lemma: String,
    /// Its part of speech (the first of n, v, a, r that has it).
    pub pos: Pos,
}

/// The collocation matcher.
pub struct MweMatcher {
    /// collocation → parts of speech that have it.
    lemmas: FxHashMap<Box<str>, Vec<Pos>>,
    /// first word → longest collocation (in words) starting with it.
    max_len: FxHashMap<Box<str>, usize>,
}

fn is_wordlike(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_alphanumeric())
}

impl MweMatcher {
    /// Collect the collocations of `inv`.
    pub fn new(inv: &Inventory) -> MweMatcher {
        let mut lemmas: FxHashMap<Box<str>, Vec<Pos>> = FxHashMap::default();
        let mut max_len: FxHashMap<Box<str>, usize> = FxHashMap::default();
        for pos in Pos::ALL {
            for l in inv.lemmas(pos) {
                if !l.contains('_') {
                    continue;
                }
                lemmas.entry(l.into()).or_default().push(pos);
                let n = l.split('_').count();
                let first = l.split('_').next().unwrap_or_default();
                let e = max_len.entry(first.into()).or_default();
                *e = (*e).max(n);
            }
        }
        for v in lemmas.values_mut() {
            v.sort();
        }
        MweMatcher { lemmas, max_len }
    }

    /// Number of collocations known.
    pub fn len(&self) -> usize {
        self.lemmas.len()
    }

    /// True when no collocations are known.
    pub fn is_empty(&self) -> bool {
        self.lemmas.is_empty()
    }

    fn lookup(&self, s: &str) -> Option<(&str, Pos)> {
        self.lemmas.get_key_value(s).map(|(k, v)| (&**k, v[0]))
    }

    /// Greedy left-to-right longest matches over `words` (surface forms).
    pub fn find(&self, inv: &Inventory, words: &[&str]) -> Vec<MweMatch> {
        let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < words.len() {
            if !is_wordlike(&lower[i]) {
                i += 1;
                continue;
            }
            // First-word forms: as written, and its verb base forms.
            let mut firsts: Vec<String> = vec![lower[i].clone()];
            for b in inv.morphy(&lower[i], Pos::Verb) {
                if !firsts.contains(&b) {
                    firsts.push(b);
                }
            }
            let longest = firsts
                .iter()
                .filter_map(|f| self.max_len.get(f.as_str()).copied())
                .max()
                .unwrap_or(0);
            let mut matched = None;
            let mut n = longest.min(words.len() - i);
            while n >= 2 && matched.is_none() {
                let run = &lower[i..i + n];
                if run.iter().all(|w| is_wordlike(w)) {
                    let tail = run[1..].join("_");
                    for f in &firsts {
                        let joined = format!("{f}_{tail}");
                        if let Some((l, p)) = self.lookup(&joined) {
                            matched = Some((l.to_string(), p));
                            break;
                        }
                        // Plural last word: credit cards → credit_card.
                        let last = &run[n - 1];
                        for base in inv.morphy(last, Pos::Noun) {
                            if &base == last {
                                continue;
                            }
                            let mut parts: Vec<&str> = vec![f.as_str()];
                            parts.extend(run[1..n - 1].iter().map(String::as_str));
                            parts.push(&base);
                            if let Some((l, p)) = self.lookup(&parts.join("_")) {
                                matched = Some((l.to_string(), p));
                                break;
                            }
                        }
                        if matched.is_some() {
                            break;
                        }
                    }
                }
                if matched.is_none() {
                    n -= 1;
                }
            }
            match matched {
                Some((lemma, pos)) => {
                    out.push(MweMatch {
                        start: i,
                        end: i + n,
                        lemma,
                        pos,
                    });
                    i += n;
                }
                None => i += 1,
            }
        }
        out
    }
}
