//! Plain-text front end: tokens, sentences, stop words, stems.
//!
//! Raw text goes through
//!
//! 1. [`tokenize()`] — a regex tokeniser in the Penn Treebank style
//!    (contractions split, punctuation separated, abbreviations, numbers,
//!    hyphenated words, URLs and e-mails kept whole). Every [`RawToken`]
//!    carries its byte span, and `&text[start..end]` is always exactly the
//!    token text (contractions are split, never rewritten).
//! 2. [`split_sentences`] — a rule-based splitter over that token stream
//!    (abbreviations, initials, closing quotes and brackets, blank lines).
//! 3. [`crate::pos::PosTagger`] — Penn POS tags for each sentence.
//!
//! 4. [`MweMatcher`] — WordNet collocations, joined on SemCor's evidence
//!    ([`mwe`]); [`choose_lemma`] — one base form per word ([`lemma`]);
//!    [`TargetTable`] — which words are targets, as SemCor's annotators
//!    choose them ([`targets`]). [`crate::pipeline`] puts them together.
//!
//! [`accents`] spells a word with diacritics as WordNet's ASCII lemmas do
//! (`Zürich` → `Zurich`, `naïve` → `naive`) and tells words in other
//! scripts, which are no English names (`Москве`), from Latin ones.
//!
//! [`is_stop_word`] (NLTK's English list plus the Penn clitics) and
//! [`Stemmer`] (Snowball English via `rust-stemmers`) serve the
//! bag-of-words methods (Lesk overlap, Naive Bayes features).
//!
//! ```
//! use wsd::text::{split_sentences, is_stop_word, Stemmer};
//!
//! let text = "Mr. Smith didn't go to the bank. He went fishing.";
//! let sentences = split_sentences(text);
//! assert_eq!(sentences.len(), 2);
//! let first: Vec<&str> = sentences[0].iter().map(|t| t.text.as_str()).collect();
//! assert_eq!(first, ["Mr.", "Smith", "did", "n't", "go", "to", "the", "bank", "."]);
//! assert!(is_stop_word("The"));
//! assert_eq!(Stemmer::new().stem("Fishing"), "fish");
//! ```

pub mod abbreviations;
pub mod accents;
pub mod blocks;
pub mod lemma;
pub mod mwe;
pub mod names;
pub mod sentences;
pub mod stopwords;
pub mod targets;
pub mod tokenize;

pub use lemma::choose_lemma;
pub use mwe::{case_class_of, match_case, MweEvidence, MweMatch, MweMatcher, MweMode};
pub use names::{name_runs, NameTable, NameUnits};
pub use sentences::{split_sentences, split_tokens};
pub use stopwords::{is_stop_word, STOP_WORDS};
pub use targets::TargetTable;
pub use tokenize::{is_emoji, model_form, tokenize, RawToken, MAX_TOKEN_BYTES};

use std::fmt;

/// Snowball (Porter 2) English stemmer. Input is lower-cased first, so
/// `Running` and `running` stem alike.
pub struct Stemmer {
    inner: rust_stemmers::Stemmer,
}

impl Stemmer {
    /// The English stemmer.
    pub fn new() -> Stemmer {
        Stemmer {
            inner: rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English),
        }
    }

    /// The stem of `w` (lower-cased): `running` → `run`, `Banks` → `bank`.
    pub fn stem(&self, w: &str) -> String {
        let lower = w.to_lowercase();
        self.inner.stem(&lower).into_owned()
    }
}

impl Default for Stemmer {
    fn default() -> Self {
        Stemmer::new()
    }
}

impl fmt::Debug for Stemmer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Stemmer(English)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems() {
        let s = Stemmer::default();
        assert_eq!(s.stem("running"), "run");
        assert_eq!(s.stem("Banks"), "bank");
        assert_eq!(s.stem("generously"), "generous");
        assert_eq!(s.stem(""), "");
        assert_eq!(format!("{s:?}"), "Stemmer(English)");
    }

    #[test]
    fn stemmer_is_shareable() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Stemmer>();
    }
}
