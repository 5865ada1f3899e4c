//! The case class of a candidate occurrence, which the evidence is kept
//! under ([`super::MweEvidence`]): the case of its last word (`L`, `U`),
//! in lower case for a closed compound (`l`, `u`), and [`ENTITY_CASE`]
//! for one of WordNet's named entities.

use super::{case_class_of, MweMatch};
use crate::wordnet::{Inventory, Pos};

/// The case class of one of the matcher's own matches over `words`: as
/// [`case_class_of`], but in lower case (`l`, `u`) for a closed compound
/// (its lemma has no `_`), so that the evidence keeps closed compounds,
/// which SemCor joins at rates of their own, apart from collocations at
/// every back-off level; and [`ENTITY_CASE`] for a capitalised noun
/// collocation spelling one of WordNet's named entities (looked up in
/// `inv` for those matches only, which are few).
pub fn match_case(inv: &Inventory, m: &MweMatch, words: &[&str]) -> char {
    let c = case_class_of(&words[m.start..m.end]);
    if !m.lemma.contains('_') {
        c.to_ascii_lowercase()
    } else if c == 'U' && m.pos == Pos::Noun && is_named_entity(inv, &m.lemma) {
        ENTITY_CASE
    } else {
        c
    }
}

/// Is the noun collocation `lemma` a named entity in WordNet: a sense
/// outside `noun.person` whose synset writes it with capitals
/// (`World_Health_Organization`, not `john_brown`'s `noun.person`)?
fn is_named_entity(inv: &Inventory, lemma: &str) -> bool {
    inv.senses(lemma, Pos::Noun).iter().any(|s| {
        inv.get(s.synset).is_some_and(|syn| {
            crate::wordnet::lexname(syn.lex_filenum) != "noun.person"
                && syn.words.iter().any(|w| {
                    w.lemma.eq_ignore_ascii_case(lemma) && w.lemma.chars().any(char::is_uppercase)
                })
        })
    })
}

/// The case class of a capitalised noun collocation that WordNet writes
/// as the proper name of an organisation, place, event or work — any
/// sense outside `noun.person` ([`match_case`]). SemCor's
/// annotators make most capitalised runs a name class (`John Brown` →
/// `person`, `Department of Justice` → `group`: of the 173 proper-noun
/// pairs WordNet lists that occur on the train split, 1 is joined), so an
/// unseen entity backed off to that rate and `World Health Organization`
/// came out `group`. Under this case an entity SemCor shows follows its
/// own counts (`United States`, `Puerto Rico` joined; `Federal Bureau of
/// Investigation`, 0 of 5, not), and one SemCor never
/// shows is joined ([`super::MweEvidence::estimate`]): WordNet's synset, as the
/// framework's test sets annotate such names and users want. Person names
/// keep `U`: WordNet's `John Brown` is one man, the text's is usually
/// another.
pub const ENTITY_CASE: char = 'E';

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{MweMatcher, MweMode};

    /// Named entities are WordNet's capitalised collocations outside
    /// `noun.person`; their matches get [`ENTITY_CASE`].
    #[test]
    fn wordnet_entities_get_their_own_case() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let inv = Inventory::open(Some(&root.join("wordnet/dict"))).expect("wordnet/dict");
        assert!(is_named_entity(&inv, "world_health_organization"));
        assert!(is_named_entity(&inv, "middle_east"));
        assert!(!is_named_entity(&inv, "abraham_lincoln"), "a person");
        assert!(!is_named_entity(&inv, "credit_card"), "not capitalised");
        let matcher = MweMatcher::with_mode(&inv, MweMode::Greedy);
        let words = ["the", "World", "Health", "Organization", "credit", "cards"];
        let found = matcher.find(&inv, &words);
        let cases: Vec<(&str, char)> = found
            .iter()
            .map(|m| (m.lemma.as_str(), match_case(&inv, m, &words)))
            .collect();
        assert_eq!(
            cases,
            [
                ("world_health_organization", ENTITY_CASE),
                ("credit_card", 'L')
            ]
        );
    }
}
