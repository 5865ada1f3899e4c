//! Collocations with a word that is no word alone (`vice versa`, `ad
//! hoc`): joined whatever their class's rate when SemCor never shows them
//! apart (see the parent module's docs).

use super::{MweEvidence, MweMatch};
use crate::wordnet::{Inventory, Pos};

/// Is `lower` a word WordNet has in no part of speech, in no inflection —
/// nor a stop word — so that on its own it can be no target (`versa` of
/// `vice versa`, `hoc` of `ad hoc`, `fide` of `bona fide`)?
///
/// A lower-case collocation with such a word is joined, whatever its
/// class's rate, when SemCor's train split never shows it apart
/// ([`MweEvidence::never_apart`]): kept apart, its known word is read
/// alone (`vice` → wickedness, `ad` → an advertisement) and the other
/// word is lost, while the annotators joined `vice versa`, `per se`,
/// `status quo` every time they met them. Without the rule `vice versa`
/// (joined 1 of 1 on the train split) fell below the threshold, pulled
/// down by its class (adverbs written noun–noun).
pub fn is_no_word_alone(inv: &Inventory, lower: &str) -> bool {
    lower.len() >= 2
        && lower.bytes().all(|b| b.is_ascii_lowercase())
        && !crate::text::is_stop_word(lower)
        && Pos::ALL.iter().all(|&p| inv.morphy(lower, p).is_empty())
}

/// Is match `m` (case class `case`) over tagged `words` an expression
/// whose word is no word alone, which SemCor never shows apart (see the
/// module docs and [`is_no_word_alone`])?
pub(super) fn is_expression_alone<S: AsRef<str>>(
    inv: &Inventory,
    ev: &MweEvidence,
    m: &MweMatch,
    case: char,
    words: &[&str],
    tags: &[S],
) -> bool {
    case == 'L'
        && ev.never_apart(&m.lemma, case)
        && (m.start..m.end).any(|k| {
            !is_function_tag(tags[k].as_ref()) && is_no_word_alone(inv, &words[k].to_lowercase())
        })
}

/// Penn tags of closed-class words (`upon`/IN of `come upon` is in no
/// dictionary of content words either, but it is a preposition, and
/// SemCor keeps `built upon` apart).
fn is_function_tag(tag: &str) -> bool {
    matches!(
        tag,
        "IN" | "TO"
            | "RP"
            | "DT"
            | "PDT"
            | "WDT"
            | "CC"
            | "PRP"
            | "PRP$"
            | "WP"
            | "WP$"
            | "WRB"
            | "EX"
            | "MD"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{MweMatcher, MweMode};

    /// A lower-case collocation with a word that is no word alone is
    /// joined when SemCor never shows it apart (`vice versa`, `ad hoc`),
    /// not when that word is a preposition (`built upon`), and the rule
    /// leaves other runs to the evidence (`the hills`).
    #[test]
    fn words_that_are_no_words_alone_join_their_collocation() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let inv = Inventory::open(Some(&root.join("wordnet/dict"))).expect("wordnet/dict");
        for w in ["versa", "hoc", "fide", "upon"] {
            assert!(is_no_word_alone(&inv, w), "{w}");
        }
        for w in ["vice", "ad", "hills", "the", "x", "Versa", "1999"] {
            assert!(!is_no_word_alone(&inv, w), "{w}");
        }
        let ev = MweEvidence::shipped();
        assert!(ev.never_apart("vice_versa", 'L'));
        assert!(!ev.never_apart("the_hill", 'L'));
        let matcher = MweMatcher::with_mode(&inv, MweMode::Learned).with_evidence(ev);
        let joined = |words: &[&str], tags: &[&str]| -> Vec<String> {
            matcher
                .find_tagged(&inv, words, tags)
                .into_iter()
                .map(|m| m.lemma)
                .collect()
        };
        assert_eq!(
            joined(&["and", "vice", "versa", "."], &["CC", "NN", "NN", "."]),
            ["vice_versa"]
        );
        assert_eq!(
            joined(&["an", "ad", "hoc", "panel"], &["DT", "JJ", "NN", "NN"]),
            ["ad_hoc"]
        );
        let built_upon = ["was", "built", "upon", "sand"];
        let m = MweMatch {
            start: 1,
            end: 3,
            lemma: "build_upon".into(),
            pos: Pos::Verb,
        };
        // (evidence that never saw it; SemCor's shows it apart once)
        assert!(!ev.never_apart("build_upon", 'L'));
        let unseen = MweEvidence::default();
        let rule = |tags: &[&str]| is_expression_alone(&inv, &unseen, &m, 'L', &built_upon, tags);
        assert!(!rule(&["VBD", "VBN", "IN", "NN"]), "a preposition");
        assert!(rule(&["VBD", "VBN", "NN", "NN"]));
        assert!(!is_expression_alone(
            &inv,
            ev,
            &m,
            'L',
            &built_upon,
            &["VBD", "VBN", "NN", "NN"]
        ));
        assert!(joined(&["over", "the", "hills"], &["IN", "DT", "NNS"]).is_empty());
    }
}
