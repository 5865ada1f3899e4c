//! Morphy: WordNet's own morphological processor (morph(7WN)).
//!
//! For a word form and a part of speech: the exception list first (`*.exc`),
//! then the detachment rules of that part of speech applied repeatedly, every
//! candidate checked against the index. Collocations (`took place`,
//! `took_place`) are handled as Princeton's `morphstr` does: each word is
//! reduced on its own and the combinations are checked against the index.
//! The rules and their order follow NLTK's `_morphy`, which mirrors morph.c,
//! so results agree with `nltk.corpus.wordnet.morphy`.

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

fn apply_rules(forms: &[String], pos: Pos) -> Vec<String> {
    let mut out = Vec::new();
    for form in forms {
        for (old, new) in substitutions(pos) {
            if let Some(stem) = form.strip_suffix(old) {
                out.push(format!("{stem}{new}"));
            }
        }
    }
    out
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

/// Single-word morphy. Like Princeton's `morphword`, base forms come first:
/// exception-list bases, else the detachment rules (applied again to their
/// own output, as NLTK does, until something is in the index). The word
/// itself follows when it is a lemma too, so `banks` gives `bank` then
/// `banks` (Sir Joseph Banks), as `wn banks` shows both.
fn morphy_word(lex: &impl Lexicon, form: &str, pos: Pos) -> Vec<String> {
    let itself = lex.has_lemma(form, pos);
    let exc = lex.exception_bases(form, pos);
    let mut out = if !exc.is_empty() {
        filter_forms(lex, &exc, pos)
    } else {
        let mut forms = apply_rules(&[form.to_string()], pos);
        let mut found = filter_forms(lex, &forms, pos);
        // Deeper rounds only when neither the word nor one round found a lemma.
        while found.is_empty() && !itself && !forms.is_empty() {
            forms = apply_rules(&forms, pos);
            found = filter_forms(lex, &forms, pos);
        }
        found
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
    for f in apply_rules(&[word.to_string()], pos) {
        if !f.is_empty() && !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

/// Base forms of `word` in `pos` that are in WordNet, best first. Accepts
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
