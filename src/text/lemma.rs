//! Choosing one lemma among morphy's base forms.
//!
//! Morphy can offer several base forms for one word (`best` as an
//! adjective: `good` from the exception list, and `best` itself; `saw` as a
//! verb: `see` and `saw`). The rule:
//!
//! 1. For adjectives and adverbs, the surface form (lower-cased) wins when
//!    WordNet has it with that part of speech: SemCor's annotators tag
//!    `best` as `best` (89 of 89 adjective uses), `better` as `better`.
//! 2. Otherwise the form whose senses have the larger SemCor tag count
//!    (`index.sense`) wins: `saw` → `see`, `found` → `find`, `felt` →
//!    `feel`, `lay` → `lie`. For verbs and nouns the surface rule would be
//!    wrong more often than right (`saw`, `found`, `felt` are verbs too).
//! 3. Ties keep morphy's order.
//!
//! Penn clitics, which morphy does not know, have fixed lemmas: `'s`,
//! `'re`, `'m` → `be`, `'ve`, `'d` → `have` (as verbs), `n't` → `not` (as
//! an adverb).
//!
//! Measured on SemCor's train split over tokens with two or more base
//! forms (see `crate::pipeline::learn`).

use crate::wordnet::{Inventory, Pos};

/// The lemma of `word` as `pos` by the rule above, or `None` when WordNet
/// has no base form for it.
pub fn choose_lemma(inv: &Inventory, word: &str, pos: Pos) -> Option<String> {
    if let Some(l) = clitic_lemma(word, pos) {
        return Some(l.to_string());
    }
    let mut cands = inv.morphy(word, pos);
    if cands.len() <= 1 {
        return cands.pop();
    }
    if matches!(pos, Pos::Adj | Pos::Adv) {
        let surface = crate::wordnet::morphy::normalize(word);
        if let Some(k) = cands.iter().position(|c| *c == surface) {
            return Some(cands.swap_remove(k));
        }
    }
    let count = |l: &str| -> u64 {
        inv.senses(l, pos)
            .iter()
            .map(|s| u64::from(s.tag_count))
            .sum()
    };
    let mut best = 0;
    let mut best_count = count(&cands[0]);
    for (k, c) in cands.iter().enumerate().skip(1) {
        let n = count(c);
        if n > best_count {
            best = k;
            best_count = n;
        }
    }
    Some(cands.swap_remove(best))
}

/// The lemma of a Penn clitic (`'s` → `be` as a verb, `n't` → `not`).
pub fn clitic_lemma(word: &str, pos: Pos) -> Option<&'static str> {
    let w = word.replace('\u{2019}', "'").to_lowercase();
    match (w.as_str(), pos) {
        ("'s" | "'re" | "'m", Pos::Verb) => Some("be"),
        ("'ve" | "'d", Pos::Verb) => Some("have"),
        ("n't", Pos::Adv) => Some("not"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clitics() {
        assert_eq!(clitic_lemma("'s", Pos::Verb), Some("be"));
        assert_eq!(clitic_lemma("\u{2019}re", Pos::Verb), Some("be"));
        assert_eq!(clitic_lemma("'ve", Pos::Verb), Some("have"));
        assert_eq!(clitic_lemma("n't", Pos::Adv), Some("not"));
        assert_eq!(clitic_lemma("'s", Pos::Noun), None);
        assert_eq!(clitic_lemma("bank", Pos::Verb), None);
    }
}
