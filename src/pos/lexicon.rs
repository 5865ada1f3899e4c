//! The WordNet lexicon the tagger consults: which parts of speech WordNet
//! allows for a word, as a 4+4-bit set (see [`Lexicon::bits`]).
//!
//! Built once from the [`Inventory`] at training time and stored in the
//! model, so that [`super::PosTagger::tag`] needs nothing but the model.
//! It holds every single-word lemma of the four categories and every
//! inflected form of the `*.exc` exception lists; inflections the lists do
//! not cover are found with morphy's suffix rules, as WordNet's morphy does.

use std::path::Path;

use rustc_hash::FxHashMap;

use crate::wordnet::{Inventory, Pos};
use crate::{Error, Result};

/// The four categories in bit order: noun 1, verb 2, adjective 4, adverb 8.
pub(crate) const CATEGORIES: [Pos; 4] = [Pos::Noun, Pos::Verb, Pos::Adj, Pos::Adv];

/// The bit of one category.
pub(crate) fn bit(p: Pos) -> u8 {
    match p {
        Pos::Noun => 1,
        Pos::Verb => 2,
        Pos::Adj => 4,
        Pos::Adv => 8,
    }
}

/// Word (lower case) → low nibble: the categories it is a lemma of; high
/// nibble: the categories whose exception list has it as an inflected form.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lexicon {
    pub(crate) map: FxHashMap<String, u8>,
}

impl Lexicon {
    /// The lexicon of a loaded WordNet (its lemmas, and the `*.exc` files
    /// of its dictionary folder).
    pub fn from_inventory(inv: &Inventory) -> Result<Lexicon> {
        let mut lex = Lexicon::default();
        for p in CATEGORIES {
            for l in inv.lemmas(p) {
                if !l.contains('_') {
                    *lex.map.entry(l.to_string()).or_default() |= bit(p);
                }
            }
        }
        for p in CATEGORIES {
            lex.add_exceptions(&inv.dir().join(format!("{}.exc", p.file_suffix())), p)?;
        }
        Ok(lex)
    }

    fn add_exceptions(&mut self, path: &Path, p: Pos) -> Result<()> {
        if !path.exists() {
            return Ok(());
        }
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        for line in text.lines() {
            let mut parts = line.split_whitespace();
            let Some(form) = parts.next() else { continue };
            if form.contains('_') {
                continue;
            }
            let known = parts.any(|b| self.map.get(b).is_some_and(|&m| m & bit(p) != 0));
            if known {
                *self.map.entry(form.to_string()).or_default() |= bit(p) << 4;
            }
        }
        Ok(())
    }

    /// Is the lexicon empty (a tagger trained without WordNet)?
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Number of words stored.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// The categories WordNet allows for `word` (any case): low nibble,
    /// as a lemma or a listed exception form; high nibble, only through
    /// morphy's suffix rules (`walked` → verb `walk`).
    pub fn bits(&self, word: &str) -> u8 {
        self.bits_with(word, &mut String::new())
    }

    /// [`Lexicon::bits`] with a scratch buffer (no allocation per word).
    pub(crate) fn bits_with(&self, word: &str, buf: &mut String) -> u8 {
        if self.map.is_empty() || word.is_empty() {
            return 0;
        }
        let w = if word.bytes().any(|b| b.is_ascii_uppercase()) || !word.is_ascii() {
            buf.clear();
            buf.extend(word.chars().flat_map(char::to_lowercase));
            std::mem::take(buf)
        } else {
            String::new()
        };
        let w_ref: &str = if w.is_empty() { word } else { &w };
        let out = self.bits_lower(w_ref, buf);
        if !w.is_empty() {
            *buf = w;
        }
        out
    }

    fn bits_lower(&self, w: &str, buf: &mut String) -> u8 {
        let stored = self.map.get(w).copied().unwrap_or(0);
        let exact = (stored & 0xF) | (stored >> 4);
        // Suffix rules only apply to words of letters (and not to a lone
        // `s` and the like).
        if w.len() < 3 || !w.bytes().all(|b| b.is_ascii_lowercase()) {
            return exact;
        }
        let mut ruled = 0u8;
        for (k, &p) in CATEGORIES.iter().enumerate() {
            let b = 1u8 << k;
            for (old, new) in crate::wordnet::morphy::substitutions(p) {
                if let Some(stem) = w.strip_suffix(old) {
                    if stem.is_empty() {
                        continue;
                    }
                    buf.clear();
                    buf.push_str(stem);
                    buf.push_str(new);
                    if self.map.get(buf.as_str()).is_some_and(|&m| m & b != 0) {
                        ruled |= b;
                        break;
                    }
                }
            }
        }
        exact | ((ruled & !exact) << 4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_from_lemmas_rules_and_exceptions() {
        let mut lex = Lexicon::default();
        lex.map.insert("walk".into(), 1 | 2);
        lex.map.insert("used".into(), 4);
        lex.map.insert("use".into(), 1 | 2);
        lex.map.insert("ran".into(), 2 << 4);
        lex.map.insert("big".into(), 4);
        assert_eq!(lex.bits("walk"), 3);
        assert_eq!(lex.bits("Walks"), 3 << 4);
        assert_eq!(lex.bits("walked"), 2 << 4);
        assert_eq!(lex.bits("used"), 4 | (2 << 4));
        assert_eq!(lex.bits("ran"), 2);
        assert_eq!(lex.bits("the"), 0);
        assert_eq!(lex.bits(""), 0);
        assert_eq!(Lexicon::default().bits("walk"), 0);
    }
}
