//! Stop words for the Lesk overlaps: the project's English list
//! ([`crate::text::is_stop_word`]: NLTK's list plus the Penn clitics) and
//! a few more closed-class words (`may`, `must`, `upon`, `whether` …) and
//! words nearly ubiquitous in WordNet glosses, which therefore carry no
//! signal in an overlap: `especially`, `usually`, `etc`, `e.g.`,
//! `something`, `someone`, `one`, `used`. The notes' own example also
//! drops "eventually"; that is an ordinary adverb and is not listed here.

/// The words added to the common list (sorted, lower case).
const GLOSS_STOP_WORDS: &[&str] = &[
    "also",
    "became",
    "cannot",
    "could",
    "e",
    "eg",
    "either",
    "else",
    "especially",
    "etc",
    "ever",
    "every",
    "g",
    "however",
    "ie",
    "may",
    "might",
    "much",
    "must",
    "neither",
    "often",
    "one",
    "others",
    "ought",
    "per",
    "rather",
    "shall",
    "someone",
    "something",
    "though",
    "thus",
    "toward",
    "towards",
    "upon",
    "us",
    "used",
    "usually",
    "via",
    "whether",
    "whose",
    "within",
    "without",
    "would",
    "yet",
];

/// Is `w` a stop word for Lesk (case-insensitive)?
pub fn is_gloss_stop_word(w: &str) -> bool {
    if crate::text::is_stop_word(w) {
        return true;
    }
    let lower = w.to_lowercase();
    GLOSS_STOP_WORDS.binary_search(&lower.as_str()).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_is_sorted_and_unique() {
        assert!(GLOSS_STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn function_words_are_stop_words_content_words_are_not() {
        for w in ["the", "The", "can", "will", "it", "in", "because"] {
            assert!(is_gloss_stop_word(w), "{w}");
        }
        for w in ["bank", "deposit", "mortgage", "river", "eventually"] {
            assert!(!is_gloss_stop_word(w), "{w}");
        }
    }
}
