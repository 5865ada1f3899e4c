//! Morphy: WordNet's own morphological processor (morph(7WN)).
//!
//! For a word form and a part of speech: the exception list first (`*.exc`),
//! else the detachment rules of that part of speech applied once, every
//! candidate checked against the index. Collocations (`took place`,
//! `took_place`) are handled as Princeton's `morphstr` does: each word is
//! reduced on its own and the combinations are checked against the index.
//! The rules and their order follow NLTK's `_morphy`, which mirrors morph.c,
//! so the base forms found are NLTK 3.10's (scripts/nltk_parity.py compares
//! them) but for these:
//! * the word itself comes after its base forms (NLTK and `wn` put it
//!   first; see [`morphy`]);
//! * a form listed on several lines of an exception file has the bases of
//!   every line (NLTK keeps the last line: `involucra` → `involucrum` only,
//!   not `involucre`);
//! * nouns in `ss` and of two letters keep their ending, as in morph.c
//!   (NLTK: `boss` → `boss`, `bos`; `us` → `us`, `u`);
//! * collocations are reduced word by word (NLTK finds none).

use super::Pos;

/// What morphy needs from a dictionary: index membership and exception lists.
pub trait Lexicon {
    /// Is `lemma` (lower case, `_` for spaces) in `index.<pos>`?
    fn has_lemma(&self, lemma: &str, pos: Pos) -> bool;
    /// Base forms listed for `form` in `<pos>.exc` (empty when none).
    fn exception_bases(&self, form: &str, pos: Pos) -> Vec<String>;
}

/// Morphy's detachment rules of `pos` (WordNet's `morph.c`): suffix → replacement.
pub(crate) fn substitutions(pos: Pos) -> &'static [(&'static str, &'static str)] {
    match pos {
        Pos::Noun => &[
            ("s", ""),
            ("ses", "s"),
            ("ves", "f"),
            ("xes", "x"),
            ("zes", "z"),
            ("ches", "ch"),
            ("shes", "sh"),
            ("men", "man"),
            ("ies", "y"),
        ],
        Pos::Verb => &[
            ("s", ""),
            ("ies", "y"),
            ("es", "e"),
            ("es", ""),
            ("ed", "e"),
            ("ed", ""),
            ("ing", "e"),
            ("ing", ""),
        ],
        Pos::Adj => &[("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
        Pos::Adv => &[],
    }
}

/// One round of `pos`'s detachment rules on `form` (the candidates, not
/// yet checked against the index).
fn apply_rules(form: &str, pos: Pos) -> Vec<String> {
    substitutions(pos)
        .iter()
        .filter_map(|(old, new)| Some(format!("{}{new}", form.strip_suffix(old)?)))
        .collect()
}

/// morph.c's guard on nouns: one ending in `ss` or of at most two letters
/// keeps its ending (`boss` is no plural of `bos`, `pass` of `pas`, `us` of
/// `u`). NLTK's `_morphy` lacks it and finds those bases too.
fn detachable(form: &str, pos: Pos) -> bool {
    pos != Pos::Noun || !(form.ends_with("ss") || form.chars().count() <= 2)
}

fn filter_forms(lex: &impl Lexicon, forms: &[String], pos: Pos) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in forms {
        if !f.is_empty() && lex.has_lemma(f, pos) && !out.contains(f) {
            out.push(f.clone());
        }
    }
    out
}

/// The ASCII character WordNet's index writes for a typographic one:
/// the curly apostrophes and the modifier letter apostrophe (`o’clock`,
/// `bull’s-eye`) are `'`, the Unicode hyphens `-`.
pub fn index_char(c: char) -> Option<char> {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{02BC}' => Some('\''),
        '\u{2010}' | '\u{2011}' => Some('-'),
        _ => None,
    }
}

/// Normalise a word as WordNet's index spells lemmas: lower case, runs of
/// spaces become one `_`, typographic apostrophes and hyphens their ASCII
/// forms ([`index_char`]).
pub fn normalize(word: &str) -> String {
    let lower = word.trim().to_lowercase();
    let mut out = String::with_capacity(lower.len());
    let mut last_sep = false;
    for c in lower.chars() {
        let c = index_char(c).unwrap_or(c);
        if c == ' ' || c == '_' {
            if !last_sep {
                out.push('_');
            }
            last_sep = true;
        } else {
            out.push(c);
            last_sep = false;
        }
    }
    out
}

/// Single-word morphy: exception-list bases, else the detachment rules
/// applied once (as morph.c's `morphword` and NLTK 3.10's `_morphy` do:
/// `cushioneded` is no form of `cushion`). The base forms come first and
/// the word itself follows when it is a lemma too, so `banks` gives `bank`
/// then `banks` (Sir Joseph Banks). That order is wsd's own: NLTK's
/// `_morphy` and `wn banks` put the word itself first; wsd tries the base
/// form first because a tagger's first candidate should be the common word.
fn morphy_word(lex: &impl Lexicon, form: &str, pos: Pos) -> Vec<String> {
    let itself = lex.has_lemma(form, pos);
    let exc = lex.exception_bases(form, pos);
    let mut out = if !exc.is_empty() {
        filter_forms(lex, &exc, pos)
    } else if detachable(form, pos) {
        filter_forms(lex, &apply_rules(form, pos), pos)
    } else {
        Vec::new()
    };
    out.retain(|f| f != form);
    if itself {
        out.push(form.to_string());
    }
    out
}

/// Candidate base forms of one word of a collocation, whether or not the word
/// alone is in the index (`place` in `took place`).
fn word_variants(lex: &impl Lexicon, word: &str, pos: Pos) -> Vec<String> {
    let mut out = vec![word.to_string()];
    for b in lex.exception_bases(word, pos) {
        if !out.contains(&b) {
            out.push(b);
        }
    }
    if !detachable(word, pos) {
        return out;
    }
    for f in apply_rules(word, pos) {
        if !f.is_empty() && !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

/// Base forms of `word` in `pos` that are in WordNet, best first: the
/// bases the exception list or one round of the detachment rules give, then
/// the word itself when it is a lemma (NLTK's `_morphy` and Princeton's
/// `wn` list the word itself first: `data` before `datum`). Accepts
/// inflected forms (`geese` → `goose`) and collocations written with spaces
/// or underscores (`took place` → `take_place`).
pub fn morphy(lex: &impl Lexicon, word: &str, pos: Pos) -> Vec<String> {
    let form = normalize(word);
    if form.is_empty() {
        return Vec::new();
    }
    if !form.contains('_') {
        return morphy_word(lex, &form, pos);
    }
    // A collocation: the whole form (or its exception entry) first.
    let whole = morphy_word(lex, &form, pos);
    if !whole.is_empty() {
        return whole;
    }
    // Then each word reduced on its own, combinations checked against the
    // index. Four words with a handful of variants each stay small; longer
    // collocations vary their first and last words only.
    let parts: Vec<&str> = form.split('_').collect();
    let variants: Vec<Vec<String>> = parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if parts.len() <= 4 || i == 0 || i + 1 == parts.len() {
                word_variants(lex, p, pos)
            } else {
                vec![p.to_string()]
            }
        })
        .collect();
    let mut combos: Vec<String> = vec![String::new()];
    for (i, vs) in variants.iter().enumerate() {
        let mut next = Vec::with_capacity(combos.len() * vs.len());
        for c in &combos {
            for v in vs {
                next.push(if i == 0 {
                    v.clone()
                } else {
                    format!("{c}_{v}")
                });
            }
        }
        combos = next;
        if combos.len() > 4096 {
            break;
        }
    }
    filter_forms(lex, &combos, pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{HashMap, HashSet};

    struct Toy {
        lemmas: HashSet<(String, Pos)>,
        exc: HashMap<(String, Pos), Vec<String>>,
    }

    impl Lexicon for Toy {
        fn has_lemma(&self, lemma: &str, pos: Pos) -> bool {
            self.lemmas.contains(&(lemma.to_string(), pos))
        }
        fn exception_bases(&self, form: &str, pos: Pos) -> Vec<String> {
            self.exc
                .get(&(form.to_string(), pos))
                .cloned()
                .unwrap_or_default()
        }
    }

    fn toy() -> Toy {
        let lemmas = [
            ("bank", Pos::Noun),
            ("goose", Pos::Noun),
            ("eat", Pos::Verb),
            ("take", Pos::Verb),
            ("take_place", Pos::Verb),
            ("place", Pos::Verb),
            ("good", Pos::Adj),
            ("box", Pos::Noun),
        ]
        .iter()
        .map(|(l, p)| (l.to_string(), *p))
        .collect();
        let mut exc = HashMap::new();
        exc.insert(("geese".to_string(), Pos::Noun), vec!["goose".to_string()]);
        exc.insert(("ate".to_string(), Pos::Verb), vec!["eat".to_string()]);
        exc.insert(("took".to_string(), Pos::Verb), vec!["take".to_string()]);
        exc.insert(
            ("better".to_string(), Pos::Adj),
            vec!["good".to_string(), "well".to_string()],
        );
        Toy { lemmas, exc }
    }

    #[test]
    fn rules_and_exceptions() {
        let t = toy();
        assert_eq!(morphy(&t, "banks", Pos::Noun), vec!["bank"]);
        assert_eq!(morphy(&t, "boxes", Pos::Noun), vec!["box"]);
        assert_eq!(morphy(&t, "geese", Pos::Noun), vec!["goose"]);
        assert_eq!(morphy(&t, "ate", Pos::Verb), vec!["eat"]);
        assert_eq!(morphy(&t, "better", Pos::Adj), vec!["good"]);
        assert!(morphy(&t, "xyzzy", Pos::Noun).is_empty());
    }

    /// The detachment rules apply once, as in morph.c and NLTK 3.10: a
    /// doubled suffix is no inflection (NLTK's `_morphy("cushioneded", "v")`
    /// is empty); the word itself follows its base forms.
    #[test]
    fn rules_apply_once() {
        let mut t = toy();
        t.lemmas.insert(("cushion".to_string(), Pos::Verb));
        t.lemmas.insert(("banks".to_string(), Pos::Noun));
        assert_eq!(morphy(&t, "cushioned", Pos::Verb), vec!["cushion"]);
        assert!(morphy(&t, "cushioneded", Pos::Verb).is_empty());
        assert!(morphy(&t, "eatings", Pos::Verb).is_empty());
        assert!(morphy(&t, "gooderer", Pos::Adj).is_empty());
        assert_eq!(morphy(&t, "banks", Pos::Noun), vec!["bank", "banks"]);
    }

    /// Nouns in `ss` and of two letters keep their ending, as in morph.c
    /// (NLTK would give `bos` for `boss` and `u` for `us`); verbs do not.
    #[test]
    fn nouns_in_ss_and_two_letter_nouns_keep_their_ending() {
        let mut t = toy();
        for l in ["bos", "boss", "u", "us", "pas", "pass"] {
            t.lemmas.insert((l.to_string(), Pos::Noun));
        }
        t.lemmas.insert(("bos".to_string(), Pos::Verb));
        assert_eq!(morphy(&t, "boss", Pos::Noun), vec!["boss"]);
        assert_eq!(morphy(&t, "us", Pos::Noun), vec!["us"]);
        assert_eq!(morphy(&t, "pass", Pos::Noun), vec!["pass"]);
        assert_eq!(morphy(&t, "bosses", Pos::Noun), vec!["boss"]);
        assert_eq!(morphy(&t, "boss", Pos::Verb), vec!["bos"]);
    }

    #[test]
    fn collocations_with_spaces_or_underscores() {
        let t = toy();
        assert_eq!(morphy(&t, "took place", Pos::Verb), vec!["take_place"]);
        assert_eq!(morphy(&t, "took_place", Pos::Verb), vec!["take_place"]);
        assert_eq!(morphy(&t, "Took  Place", Pos::Verb), vec!["take_place"]);
    }

    /// Text typeset with curly apostrophes and Unicode hyphens finds the
    /// lemmas WordNet spells in ASCII.
    #[test]
    fn typographic_apostrophes_and_hyphens() {
        assert_eq!(normalize("o\u{2019}clock"), "o'clock");
        assert_eq!(normalize("Bull\u{2018}s\u{2010}eye"), "bull's-eye");
        assert_eq!(normalize("rock \u{02BC}n\u{02BC} roll"), "rock_'n'_roll");
        let mut t = toy();
        t.lemmas.insert(("o'clock".to_string(), Pos::Adv));
        assert_eq!(morphy(&t, "o\u{2019}clock", Pos::Adv), vec!["o'clock"]);
    }
}
