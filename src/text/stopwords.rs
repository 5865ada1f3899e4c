//! English stop words.
//!
//! [`STOP_WORDS`] is the English list of NLTK's `stopwords` corpus
//! (`nltk.corpus.stopwords.words("english")`, 179 words, as shipped since
//! NLTK 3.x): pronouns, determiners, auxiliaries, prepositions,
//! conjunctions, a few adverbs, and the contraction fragments its own
//! tokeniser leaves (`don`, `t`, `ll`, `couldn`, `won't` …). It is stored
//! sorted so that lookup is a binary search.
//!
//! Because [`crate::text::tokenize()`] splits contractions the Penn way
//! (`can't` → `ca` `n't`, `we'll` → `we` `'ll`), [`is_stop_word`] also
//! accepts the Penn clitics in [`PENN_CLITICS`], which NLTK's list lacks.
//!
//! Lookup is case-insensitive and treats the curly apostrophe `’` as `'`.

/// NLTK's English stop-word list, lower case, sorted (byte order).
pub const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "against",
    "ain",
    "all",
    "am",
    "an",
    "and",
    "any",
    "are",
    "aren",
    "aren't",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "couldn",
    "couldn't",
    "d",
    "did",
    "didn",
    "didn't",
    "do",
    "does",
    "doesn",
    "doesn't",
    "doing",
    "don",
    "don't",
    "down",
    "during",
    "each",
    "few",
    "for",
    "from",
    "further",
    "had",
    "hadn",
    "hadn't",
    "has",
    "hasn",
    "hasn't",
    "have",
    "haven",
    "haven't",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "isn",
    "isn't",
    "it",
    "it's",
    "its",
    "itself",
    "just",
    "ll",
    "m",
    "ma",
    "me",
    "mightn",
    "mightn't",
    "more",
    "most",
    "mustn",
    "mustn't",
    "my",
    "myself",
    "needn",
    "needn't",
    "no",
    "nor",
    "not",
    "now",
    "o",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "re",
    "s",
    "same",
    "shan",
    "shan't",
    "she",
    "she's",
    "should",
    "should've",
    "shouldn",
    "shouldn't",
    "so",
    "some",
    "such",
    "t",
    "than",
    "that",
    "that'll",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "ve",
    "very",
    "was",
    "wasn",
    "wasn't",
    "we",
    "were",
    "weren",
    "weren't",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "won",
    "won't",
    "wouldn",
    "wouldn't",
    "y",
    "you",
    "you'd",
    "you'll",
    "you're",
    "you've",
    "your",
    "yours",
    "yourself",
    "yourselves",
];

/// Penn-Treebank contraction pieces that are stop words too, sorted.
pub const PENN_CLITICS: &[&str] = &["'d", "'ll", "'m", "'re", "'s", "'ve", "ca", "n't", "wo"];

/// Longest entry of either list, in bytes.
const MAX_LEN: usize = 10;

/// Is `w` a stop word? Case-insensitive; `’` counts as `'`. Allocation-free
/// for ASCII words.
pub fn is_stop_word(w: &str) -> bool {
    if w.is_empty() || w.len() > MAX_LEN + 4 {
        return false;
    }
    let mut buf = [0u8; MAX_LEN];
    let mut n = 0;
    for c in w.chars() {
        let c = if c == '\u{2019}' { '\'' } else { c };
        if !c.is_ascii() || n == MAX_LEN {
            return false;
        }
        buf[n] = c.to_ascii_lowercase() as u8;
        n += 1;
    }
    let Ok(key) = std::str::from_utf8(&buf[..n]) else {
        return false;
    };
    STOP_WORDS.binary_search(&key).is_ok() || PENN_CLITICS.binary_search(&key).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_sorted_unique_lowercase() {
        for list in [STOP_WORDS, PENN_CLITICS] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "not sorted/unique");
            assert!(list
                .iter()
                .all(|w| *w == w.to_lowercase() && w.len() <= MAX_LEN));
        }
        assert_eq!(STOP_WORDS.len(), 179);
    }

    #[test]
    fn lookups() {
        for w in [
            "the",
            "The",
            "THE",
            "and",
            "of",
            "themselves",
            "don't",
            "don’t",
            "n't",
            "'s",
            "’s",
        ] {
            assert!(is_stop_word(w), "{w}");
        }
        for w in [
            "",
            "bank",
            "Washington",
            "thé",
            "themselvesx",
            "jury",
            "the ",
        ] {
            assert!(!is_stop_word(w), "{w}");
        }
    }
}
