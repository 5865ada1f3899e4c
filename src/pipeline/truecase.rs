//! Text in capitals (`THE JURY SAID IT WOULD APPEAL`: headlines, telegrams,
//! old records) read in the case ordinary text would have.
//!
//! Every model of the front end learned on SemCor's mixed-case text, where
//! a capital marks a name: on a sentence written all in capitals the tagger
//! called every word a proper noun, and the acronym rule then made `THE`,
//! `AND` and `TO` a `group` (60 kB of SemCor text in capitals: 2,977 of
//! 7,507 targets and candidate words changed against its own spelling).
//! A sentence is *shouted* when it has at least two words of two or more
//! letters and none of its letters is lower case; its words then reach
//! the models recased by [`recase`] (the output keeps the text as written).
//! So are headings and headlines in title case ([`is_title_cased`]). A
//! sentence all in lower case has lost its names instead: those WordNet
//! knows, and words nobody knows, are capitalised again
//! ([`recase_lowered`]).

use std::borrow::Cow;

use crate::pos::PosTagger;
use crate::text::accents::has_latin_letter;
use crate::text::{is_stop_word, model_form, RawToken};
use crate::wordnet::{Inventory, Pos};

/// Is this sentence (the models' forms of its tokens) written all in
/// capitals? At least two words of two or more letters, no lower-case
/// letter anywhere.
pub fn is_shouted<S: AsRef<str>>(words: &[S]) -> bool {
    let mut long = 0;
    for w in words {
        let w = w.as_ref();
        if w.chars().any(char::is_lowercase) {
            return false;
        }
        long += (w.chars().filter(|c| c.is_alphabetic()).count() >= 2) as usize;
    }
    long >= 2
}

/// The words of a sentence as the models read them: each token's
/// [`model_form`] (a word hyphenated at a line end as WordNet writes it,
/// [`super::hyphens::line_break_form`]; a word with diacritics in
/// WordNet's ASCII spelling, [`super::accents::fold_known`]), recased ([`recase`]) when the
/// sentence is shouted or title-cased, and names found again
/// ([`recase_lowered`]) when it is all in lower case.
pub fn model_words<'t>(
    inv: &Inventory,
    tagger: &PosTagger,
    raw: &'t [RawToken],
) -> Vec<Cow<'t, str>> {
    let mut forms: Vec<Cow<str>> = raw
        .iter()
        .map(|t| match model_form(&t.text) {
            form if t.text.contains('\n') => super::hyphens::line_break_form(inv, &t.text, form),
            form => form,
        })
        .collect();
    super::accents::fold_known(inv, &mut forms);
    if is_shouted(&forms) {
        return forms
            .into_iter()
            .enumerate()
            .map(|(i, w)| recase(inv, w, i == 0))
            .collect();
    }
    if is_title_cased(&forms) && mostly_common_words(inv, &forms) {
        return forms
            .into_iter()
            .enumerate()
            .map(|(i, w)| recase(inv, w, i == 0))
            .collect();
    }
    if is_lowered(&forms) {
        return forms
            .into_iter()
            .enumerate()
            .map(|(i, w)| recase_lowered(inv, tagger, w, i == 0))
            .collect();
    }
    forms
}

/// Is this sentence written in title case, as headings and headlines are
/// (`Jury Praises Atlanta For Its Election`)? Every word of two or more
/// letters but the stop words starts with a capital, at least
/// `TITLE_MIN_WORDS` of them, and some lower-case letter stands
/// somewhere (else it is shouted, [`is_shouted`]). A brand written with
/// a small first letter and a capital inside (`iPhone`, `eBay`, `iOS`;
/// [`is_inner_capital`]) counts neither way: it is written so in any
/// sentence. Ordinary sentences
/// have some lower-case content word; one made only of names is told
/// apart by `mostly_common_words`, though a single name of common words
/// (`Fulton County Grand Jury`) is read recased, a rare loss.
pub fn is_title_cased<S: AsRef<str>>(words: &[S]) -> bool {
    let mut capitalised = 0;
    let mut lower_letter = false;
    for w in words {
        let w = w.as_ref();
        lower_letter |= w.chars().any(char::is_lowercase);
        if w.chars().filter(|c| c.is_alphabetic()).count() < 2
            || is_stop_word(w)
            || is_inner_capital(w)
        {
            continue;
        }
        match w.chars().find(|c| c.is_alphabetic()) {
            Some(c) if c.is_uppercase() => capitalised += 1,
            _ => return false,
        }
    }
    lower_letter && capitalised >= TITLE_MIN_WORDS
}

/// Is `word` written with a small first letter and a capital inside it,
/// as brands are (`iPhone`, `eBay`, `iOS`, `mRNA`)? Such a word tells
/// nothing of a sentence's case, and is kept as written when the
/// sentence is recased.
pub fn is_inner_capital(word: &str) -> bool {
    let mut letters = word.chars().filter(|c| c.is_alphabetic());
    letters.next().is_some_and(char::is_lowercase) && letters.any(char::is_uppercase)
}

/// Are at least half of the sentence's capitalised words ones WordNet
/// writes in lower case only (`Jury`, `Praises`; not `Atlanta`, `John`,
/// `Bishop`, nor a word it lacks)? A title has them; a list of names set
/// as a sentence (`Robert Hillyer, John Peal Bishop and Maxwell
/// Bodenheim`) has not, and stays as written.
fn mostly_common_words<S: AsRef<str>>(inv: &Inventory, words: &[S]) -> bool {
    let (mut capitalised, mut common) = (0usize, 0usize);
    for w in words {
        let w = w.as_ref();
        if !w.chars().next().is_some_and(char::is_uppercase) || is_stop_word(w) {
            continue;
        }
        capitalised += 1;
        common += matches!(wordnet_spelling(inv, w, &w.to_lowercase()), Spelling::Lower) as usize;
    }
    2 * common >= capitalised
}

/// Capitalised content words a title-case sentence needs at least. With
/// three, short lines of fiction's dialogue (`Talk to Whitey Jackson.`,
/// `Morning, Lieutenant Rinker.`) were read as titles and lost their names
/// (SemCor's test split, `wsd eval --raw`: 6 instances lost, 2 gained);
/// with four only the headline gains.
const TITLE_MIN_WORDS: usize = 4;

/// Function words neither WordNet nor NLTK's stop list has (pronouns,
/// modals, prepositions and conjunctions; the 40 most frequent such
/// lower-case words of SemCor's text, and their kin), sorted: in a
/// lower-case sentence they are not names.
const FUNCTION_WORDS: &[&str] = &[
    "albeit",
    "amid",
    "amidst",
    "among",
    "amongst",
    "anybody",
    "anyone",
    "anything",
    "anywhere",
    "beside",
    "besides",
    "cannot",
    "could",
    "else",
    "everybody",
    "everyone",
    "everything",
    "everywhere",
    "hence",
    "hers",
    "lest",
    "might",
    "must",
    "nobody",
    "nothing",
    "nowhere",
    "onto",
    "others",
    "ought",
    "ours",
    "per",
    "shall",
    "should",
    "since",
    "somebody",
    "someone",
    "something",
    "somewhere",
    "thee",
    "theirs",
    "thou",
    "thru",
    "thus",
    "thy",
    "till",
    "toward",
    "towards",
    "unless",
    "unto",
    "upon",
    "via",
    "whatever",
    "whenever",
    "whereas",
    "whereby",
    "wherever",
    "whether",
    "whichever",
    "whoever",
    "whom",
    "whose",
    "without",
    "wo",
    "would",
    "ye",
    "yours",
];

/// Is this sentence written all in lower case? At least two words of two
/// or more letters, no capital anywhere.
pub fn is_lowered<S: AsRef<str>>(words: &[S]) -> bool {
    let mut long = 0;
    for w in words {
        let w = w.as_ref();
        if w.chars().any(char::is_uppercase) {
            return false;
        }
        long += (w.chars().filter(|c| c.is_alphabetic()).count() >= 2) as usize;
    }
    long >= 2
}

/// The case a word of a lower-case sentence would have in ordinary text:
/// as WordNet writes it when every synset of its senses writes it with a
/// capital (`atlanta` → `Atlanta`, `gnp` → `GNP`, `americans` →
/// `Americans`); a word neither WordNet nor the tagger's dictionary of
/// frequent words knows, and no function word, capitalised as a name
/// (`henri skorich`; not a word in another script, `москве`, nor one
/// without a vowel, `tbsp`); else as it
/// is. The sentence's first word gets a
/// capital.
pub fn recase_lowered<'a>(
    inv: &Inventory,
    tagger: &PosTagger,
    word: Cow<'a, str>,
    first: bool,
) -> Cow<'a, str> {
    if !word.chars().any(char::is_alphabetic) || word.starts_with('\'') {
        return word;
    }
    if !is_stop_word(&word) {
        let mut capital: Option<&str> = None;
        let mut senses = false;
        for pos in Pos::ALL {
            for sense in inv.lookup(&word, pos) {
                senses = true;
                for w in inv.written_forms(sense) {
                    if !w.chars().any(char::is_uppercase) {
                        return if first {
                            Cow::Owned(capitalise(&word))
                        } else {
                            word
                        };
                    }
                    if w.to_lowercase() == *word {
                        capital.get_or_insert(w);
                    }
                }
            }
        }
        if let Some(c) = capital {
            return Cow::Owned(c.to_string());
        }
        // A name has a vowel (`y` counts); a word without one is an
        // abbreviation (`tbsp`, `tsp`, `tmrw`), as one-line posts and
        // lists (one sentence a line) write them in lower case.
        let unknown_name = || {
            word.chars().count() >= 2
                && word.chars().all(char::is_alphabetic)
                && word
                    .chars()
                    .any(|c| "aeiouyàáâäèéêëìíîïòóôöùúûü".contains(c))
                && has_latin_letter(&word)
                && !tagger.is_frequent_word(&word)
                && FUNCTION_WORDS.binary_search(&&*word).is_err()
        };
        if senses || unknown_name() {
            // An inflected form of a capitalised lemma (`americans`), or a
            // word neither WordNet nor the tagger's dictionary of frequent
            // words knows (`henri`, `skorich`): a name.
            return Cow::Owned(capitalise(&word));
        }
    }
    if first {
        Cow::Owned(capitalise(&word))
    } else {
        word
    }
}

/// The case a capitalised word would have in ordinary text: a stop word or
/// a clitic (`THE`, `'S`) in lower case; a word WordNet spells in capitals
/// (`GNP`, `U.S.`) as it is; a word WordNet has in lower case (`JURY`) in
/// lower case, one it has only capitalised (`ATLANTA`) capitalised; a word
/// WordNet lacks capitalised, as a name; a brand such as `iPhone`
/// ([`is_inner_capital`]) as it is. The sentence's first word gets a
/// capital as ordinary text would.
pub fn recase<'a>(inv: &Inventory, word: Cow<'a, str>, first: bool) -> Cow<'a, str> {
    if !word.chars().any(char::is_alphabetic) || is_inner_capital(&word) {
        return word;
    }
    let lower = word.to_lowercase();
    if lower == "i" {
        // The pronoun (`model_form` reads a lone `i` so too).
        return Cow::Owned("I".to_string());
    }
    let spelled = if is_stop_word(&lower) || lower.starts_with('\'') {
        Spelling::Lower
    } else {
        wordnet_spelling(inv, &word, &lower)
    };
    let out = match spelled {
        Spelling::AsIs => return word,
        Spelling::Lower if first => capitalise(&lower),
        Spelling::Lower => lower,
        Spelling::Capitalised => capitalise(&lower),
    };
    Cow::Owned(out)
}

enum Spelling {
    AsIs,
    Lower,
    Capitalised,
}

/// How WordNet writes `word` (`lower` is its lower case) in the synsets
/// of its senses, over all categories: in capitals when any of them does,
/// else in lower case when any does, else capitalised (also for a word
/// WordNet lacks).
fn wordnet_spelling(inv: &Inventory, word: &str, lower: &str) -> Spelling {
    let mut lower_seen = false;
    for pos in Pos::ALL {
        for sense in inv.lookup(lower, pos) {
            for w in inv.written_forms(sense) {
                if w == word && w.chars().filter(|c| c.is_alphabetic()).count() >= 2 {
                    return Spelling::AsIs;
                }
                lower_seen |= !w.chars().any(char::is_uppercase);
            }
        }
    }
    if lower_seen {
        Spelling::Lower
    } else {
        Spelling::Capitalised
    }
}

fn capitalise(lower: &str) -> String {
    let mut c = lower.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_words_are_sorted() {
        assert!(FUNCTION_WORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn title_cased_sentences() {
        assert!(is_title_cased(&[
            "Jury", "Praises", "Atlanta", "for", "the", "Election"
        ]));
        assert!(is_title_cased(&[
            "Results",
            "And",
            "Discussion",
            "Of",
            "New",
            "Methods"
        ]));
        assert!(
            !is_title_cased(&["Talk", "to", "Whitey", "Jackson", "."]),
            "three words"
        );
        assert!(!is_title_cased(&[
            "The", "jury", "praised", "Atlanta", "Today"
        ]));
        assert!(
            !is_title_cased(&["THE", "JURY", "PRAISED", "ATLANTA"]),
            "shouted"
        );
    }

    #[test]
    fn brands_with_inner_capitals_do_not_break_a_title() {
        let headline = [
            "Apple",
            "Shares",
            "Fall",
            "After",
            "iPhone",
            "Sales",
            "Disappoint",
        ];
        assert!(is_title_cased(&headline));
        assert!(is_title_cased(&[
            "eBay", "Buys", "Skype", "For", "Two", "Billion", "Dollars"
        ]));
        assert!(is_title_cased(&["New", "iOS", "Update", "Fixes", "Bugs"]));
        // Still not a title: a lower-case content word is no brand.
        assert!(!is_title_cased(&[
            "Apple", "shares", "Fall", "After", "iPhone", "Sales"
        ]));
        assert!(is_inner_capital("iPhone") && is_inner_capital("eBay") && is_inner_capital("iOS"));
        for w in ["Apple", "phone", "McDonald", "I", "iphone", "3M", "x"] {
            assert!(!is_inner_capital(w), "{w}");
        }
    }

    #[test]
    fn brands_keep_their_spelling_when_recased() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let inv = &Inventory::open(Some(&root.join("wordnet/dict"))).expect("wordnet/dict");
        assert_eq!(recase(inv, Cow::Borrowed("iPhone"), false), "iPhone");
        assert_eq!(recase(inv, Cow::Borrowed("eBay"), true), "eBay");
        assert_eq!(recase(inv, Cow::Borrowed("Sales"), false), "sales");
    }

    #[test]
    fn lowered_sentences() {
        assert!(is_lowered(&["the", "jury", "said", "."]));
        assert!(!is_lowered(&["The", "jury", "said"]));
        assert!(!is_lowered(&["jury", "."]), "one word is no sentence");
    }

    #[test]
    fn shouted_sentences() {
        assert!(is_shouted(&["THE", "JURY", "SAID", "."]));
        assert!(!is_shouted(&["The", "JURY", "said"]));
        assert!(
            !is_shouted(&["MODEST", "."]),
            "one word is a heading, not a sentence"
        );
        assert!(!is_shouted(&["I", "A", "."]));
    }
}
