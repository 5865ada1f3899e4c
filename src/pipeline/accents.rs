//! Words written with diacritics, read as WordNet spells them.
//!
//! WordNet 3.0's lemmas are all ASCII (`cafe`, `Zurich`, `naive`,
//! `facade`, `resume`, `deja_vu`, `Sao_Paulo`), so a word typed with its
//! accents was unknown to every model of the front end: the tagger called
//! a capitalised one a proper noun and the name rules made it a `person`
//! or a `location` (`Café`, `Zürich`), a lower-case one went untagged
//! (`naïve`, `façade`, `résumé`). [`fold_known`] gives the models the
//! word's ASCII spelling ([`crate::text::accents::fold_diacritics`]) when
//! WordNet lacks the word as written and has that spelling — as a word,
//! or with the word before or after it as a collocation (`déjà vu`,
//! `São Paulo`, `coup d'état`). A word WordNet lacks both ways (`Schröder`,
//! `Pokémon`) reaches the models as written. The output keeps the text as
//! written, as for every model form.

use std::borrow::Cow;

use crate::text::accents::fold_diacritics;
use crate::wordnet::{Inventory, Pos};

/// Does WordNet have `word` (inflected or not, any case, a collocation
/// written with `_`) in some category?
fn known(inv: &Inventory, word: &str) -> bool {
    Pos::ALL
        .into_iter()
        .any(|p| !inv.morphy(word, p).is_empty())
}

/// The models' forms of a sentence's words (`forms`) with each word that
/// has diacritics replaced by its ASCII spelling when WordNet lacks it as
/// written and has that spelling, alone or joined with a neighbour (see
/// the module docs). A sentence in ASCII is left as it is, at the cost of
/// one scan.
pub fn fold_known(inv: &Inventory, forms: &mut [Cow<'_, str>]) {
    if forms.iter().all(|f| f.is_ascii()) {
        return;
    }
    let folded: Vec<Option<String>> = forms.iter().map(|f| fold_diacritics(f)).collect();
    // A neighbour as it will be read if it folds too.
    let spelled = |j: usize| folded[j].as_deref().unwrap_or(&forms[j]);
    let fold: Vec<bool> = (0..forms.len())
        .map(|i| {
            let Some(f) = folded[i].as_deref() else {
                return false;
            };
            if known(inv, &forms[i]) {
                return false;
            }
            known(inv, f)
                || (i > 0 && known(inv, &format!("{}_{f}", spelled(i - 1))))
                || (i + 1 < forms.len() && known(inv, &format!("{f}_{}", spelled(i + 1))))
        })
        .collect();
    for (i, f) in folded.into_iter().enumerate() {
        if let (true, Some(f)) = (fold[i], f) {
            forms[i] = Cow::Owned(f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(inv: &Inventory, words: &[&str]) -> Vec<String> {
        let mut forms: Vec<Cow<str>> = words.iter().map(|w| Cow::Borrowed(*w)).collect();
        fold_known(inv, &mut forms);
        forms.into_iter().map(Cow::into_owned).collect()
    }

    #[test]
    fn accented_words_read_as_wordnet_spells_them() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let inv = &Inventory::open(Some(&root.join("wordnet/dict"))).expect("wordnet/dict");
        assert_eq!(
            read(
                inv,
                &["the", "Café", "in", "Zürich", ";", "a", "naïve", "façade"]
            ),
            ["the", "Cafe", "in", "Zurich", ";", "a", "naive", "facade"]
        );
        assert_eq!(read(inv, &["my", "résumés"]), ["my", "resumes"]);
        // Known only as a collocation with the word next to it.
        assert_eq!(read(inv, &["déjà", "vu"]), ["deja", "vu"]);
        assert_eq!(read(inv, &["in", "São", "Paulo"]), ["in", "Sao", "Paulo"]);
        // Unknown folded too, or another script: as written.
        assert_eq!(read(inv, &["Herr", "Schröder"]), ["Herr", "Schröder"]);
        assert_eq!(read(inv, &["в", "Москве"]), ["в", "Москве"]);
        // ASCII is left alone (and borrowed).
        let mut forms = vec![Cow::Borrowed("cafe")];
        fold_known(inv, &mut forms);
        assert!(matches!(forms[0], Cow::Borrowed("cafe")));
    }
}
