//! Closed-class tags only for the words training saw with them.
//!
//! Penn's closed classes (prepositions, determiners, pronouns, modals, …)
//! are finite lists of words, but the perceptron scores them from the same
//! suffix and shape features as open classes: `dislike` ends like `like`
//! and `unlike`, so "Voters dislike taxes." came out `dislike/IN`, and a
//! preposition is no target for sense lookup. A word WordNet has (in the
//! tagger's lexicon) may take a closed tag only if training saw it (in any
//! case) with that tag; otherwise the tag's score is set to minus infinity
//! before the argmax. Words WordNet lacks are left to the perceptron: a
//! real function word training never saw (`whereas`, `whee`) keeps its
//! closed tag rather than become a name. The constraint is a decoding
//! rule: the perceptron's weights are trained as before. A model without
//! the table (an older body) or without a lexicon decodes unconstrained.

use rustc_hash::FxHashMap;

/// Penn Treebank's closed-class tags.
pub(crate) const CLOSED_TAGS: [&str; 15] = [
    "CC", "DT", "EX", "IN", "MD", "PDT", "POS", "PRP", "PRP$", "RP", "TO", "WDT", "WP", "WP$",
    "WRB",
];

/// Which words may take which closed-class tag (see the module docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClosedClass {
    /// Per tag id of the model, its bit over [`CLOSED_TAGS`] (0 for an
    /// open-class tag); empty for a model without the table (no
    /// constraint).
    tag_bits: Vec<u16>,
    /// Lower-cased word → bit `i` set when training saw it with
    /// `CLOSED_TAGS[i]`.
    pub(crate) words: FxHashMap<String, u16>,
}

impl ClosedClass {
    /// The table for a model whose tag names are `tags`, from
    /// (word as written, tag id) pairs seen in training.
    pub(crate) fn from_seen<'a>(
        tags: &[String],
        seen: impl IntoIterator<Item = (&'a str, u16)>,
    ) -> ClosedClass {
        let mut closed = ClosedClass::with_tags(tags, FxHashMap::default());
        for (word, tag) in seen {
            let bit = closed.tag_bit(tag);
            if bit != 0 {
                *closed.words.entry(word.to_lowercase()).or_default() |= bit;
            }
        }
        closed
    }

    /// The table for tag names `tags` with `words` (lower-cased word →
    /// bits over [`CLOSED_TAGS`]), as read from a model.
    pub(crate) fn with_tags(tags: &[String], words: FxHashMap<String, u16>) -> ClosedClass {
        let tag_bits = tags
            .iter()
            .map(|t| match CLOSED_TAGS.iter().position(|c| c == t) {
                Some(i) => 1 << i,
                None => 0,
            })
            .collect();
        ClosedClass { tag_bits, words }
    }

    /// Does the table constrain anything (a model that carries it)?
    pub fn is_empty(&self) -> bool {
        self.tag_bits.is_empty()
    }

    /// The bit of tag id `tag` over [`CLOSED_TAGS`], 0 for an open class.
    fn tag_bit(&self, tag: u16) -> u16 {
        self.tag_bits.get(usize::from(tag)).copied().unwrap_or(0)
    }

    /// Is tag id `tag` a closed-class tag `word` was never seen with?
    pub(crate) fn forbids(&self, word: &str, tag: u16) -> bool {
        let bit = self.tag_bit(tag);
        bit != 0 && self.bits(word) & bit == 0
    }

    /// Set the score of every closed-class tag `word` was never seen
    /// with to minus infinity.
    pub(crate) fn mask(&self, word: &str, scores: &mut [f32]) {
        let bits = self.bits(word);
        for (s, &bit) in scores.iter_mut().zip(&self.tag_bits) {
            if bit != 0 && bits & bit == 0 {
                *s = f32::NEG_INFINITY;
            }
        }
    }

    fn bits(&self, word: &str) -> u16 {
        if let Some(&b) = self.words.get(word) {
            return b;
        }
        if word.chars().any(char::is_uppercase) {
            return self.words.get(&word.to_lowercase()).copied().unwrap_or(0);
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags() -> Vec<String> {
        ["IN", "NN", "VB", "DT"].map(String::from).to_vec()
    }

    #[test]
    fn a_word_takes_only_the_closed_tags_it_was_seen_with() {
        let closed = ClosedClass::from_seen(&tags(), [("Like", 0), ("like", 2), ("the", 3)]);
        assert!(!closed.forbids("like", 0));
        assert!(!closed.forbids("LIKE", 0), "case is folded");
        assert!(closed.forbids("dislike", 0));
        assert!(closed.forbids("like", 3), "seen as IN, not DT");
        assert!(
            !closed.forbids("dislike", 1),
            "open tags are never forbidden"
        );
        let mut scores = [5.0, 1.0, 2.0, 4.0];
        closed.mask("dislike", &mut scores);
        assert_eq!(scores, [f32::NEG_INFINITY, 1.0, 2.0, f32::NEG_INFINITY]);
        let mut scores = [5.0, 1.0, 2.0, 4.0];
        closed.mask("the", &mut scores);
        assert_eq!(scores, [f32::NEG_INFINITY, 1.0, 2.0, 4.0]);
    }

    #[test]
    fn a_model_without_the_table_is_unconstrained() {
        let closed = ClosedClass::default();
        assert!(closed.is_empty());
        assert!(!closed.forbids("dislike", 0));
        let mut scores = [5.0, 1.0];
        closed.mask("dislike", &mut scores);
        assert_eq!(scores, [5.0, 1.0]);
    }
}
