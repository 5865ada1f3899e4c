//! US state abbreviations as news and Brown-corpus prose write them after
//! a place (`Springfield, Mass.`, `Kansas City, Mo.`, `Washington, D.C.`).
//!
//! Read by their letters, most of them are other words: `Mo.` → `mo` (a
//! moment), `Pa.` → `pa` (a father), `Mass.` → `mass`, `Wash.` → `wash`,
//! `Ill.` → `ill`; WordNet lists a few as lemmas of the state's synset
//! (`Calif.`, `D.C.`), which SemCor's annotators lemmatise as the state's
//! name (`california`, `district_of_columbia`). The state's name is the
//! lemma either way (`Ill.` → `illinois` on SemCor's train split, twice;
//! most such abbreviations there are not sense-tagged at all).
//!
//! The table is the traditional (AP and Brown-era) abbreviations, not the
//! two-letter postal codes, which are ordinary capitals (`IN`, `OR`, `ME`).
//! An abbreviation that is also an English word or a common abbreviation
//! of one (`Mass.`, `Ill.`, `Wash.`, `Pa.`, `Mo.`, `Ind.`, `Cal.` …) is read
//! as the state only in the position that makes it one: after a comma
//! that follows a capitalised word (`Peoria, Ill.`). The others
//! (`Calif.`, `Conn.`, `N.Y.` …) are the state wherever they stand,
//! capitalised and with their full stop.

/// (abbreviation, WordNet lemma of the state, needs the place context).
const STATES: &[(&str, &str, bool)] = &[
    ("Ala.", "alabama", true),
    ("Ariz.", "arizona", false),
    ("Ark.", "arkansas", true),
    ("Cal.", "california", true),
    ("Calif.", "california", false),
    ("Colo.", "colorado", false),
    ("Conn.", "connecticut", false),
    ("D.C.", "district_of_columbia", false),
    ("Del.", "delaware", true),
    ("Fla.", "florida", false),
    ("Ga.", "georgia", false),
    ("Ill.", "illinois", true),
    ("Ind.", "indiana", true),
    ("Kan.", "kansas", false),
    ("Kans.", "kansas", false),
    ("Ky.", "kentucky", false),
    ("La.", "louisiana", true),
    ("Md.", "maryland", true),
    ("Mass.", "massachusetts", true),
    ("Mich.", "michigan", false),
    ("Minn.", "minnesota", false),
    ("Miss.", "mississippi", true),
    ("Mo.", "missouri", true),
    ("Mont.", "montana", true),
    ("N.C.", "north_carolina", false),
    ("N.D.", "north_dakota", false),
    ("N.Dak.", "north_dakota", false),
    ("N.H.", "new_hampshire", false),
    ("N.J.", "new_jersey", false),
    ("N.M.", "new_mexico", false),
    ("N.Mex.", "new_mexico", false),
    ("N.Y.", "new_york", false),
    ("Neb.", "nebraska", false),
    ("Nebr.", "nebraska", false),
    ("Nev.", "nevada", false),
    ("Okla.", "oklahoma", false),
    ("Ore.", "oregon", true),
    ("Oreg.", "oregon", false),
    ("Pa.", "pennsylvania", true),
    ("Penn.", "pennsylvania", true),
    ("Penna.", "pennsylvania", false),
    ("R.I.", "rhode_island", false),
    ("S.C.", "south_carolina", false),
    ("S.D.", "south_dakota", false),
    ("S.Dak.", "south_dakota", false),
    ("Tenn.", "tennessee", false),
    ("Tex.", "texas", true),
    ("Va.", "virginia", true),
    ("Vt.", "vermont", false),
    ("W.Va.", "west_virginia", false),
    ("Wash.", "washington", true),
    ("Wis.", "wisconsin", false),
    ("Wisc.", "wisconsin", false),
    ("Wyo.", "wyoming", false),
];

/// The WordNet lemma of the state that word `i` of `words` abbreviates,
/// if it is one in that position (see the module docs): exact case and
/// full stop (`Calif.`, not `calif.` or `Calif`).
pub fn state_abbreviation(words: &[&str], i: usize) -> Option<&'static str> {
    // Every word of a sentence asks: most end without a full stop, and
    // need not scan the table.
    if !words[i].ends_with('.') {
        return None;
    }
    let (_, state, needs_place) = STATES.iter().find(|(a, _, _)| *a == words[i])?;
    if *needs_place && !after_place(words, i) {
        return None;
    }
    Some(state)
}

/// Is word `i` preceded by a comma that follows a capitalised word
/// (`Peoria , Ill.`)?
fn after_place(words: &[&str], i: usize) -> bool {
    i >= 2 && words[i - 1] == "," && words[i - 2].chars().next().is_some_and(char::is_uppercase)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wordnet::{Inventory, Pos};

    #[test]
    fn ambiguous_abbreviations_need_a_place_before_them() {
        let s = [
            "Peoria", ",", "Ill.", ",", "and", "Los", "Angeles", ",", "Calif.",
        ];
        assert_eq!(state_abbreviation(&s, 2), Some("illinois"));
        assert_eq!(state_abbreviation(&s, 8), Some("california"));
        let s = ["They", "went", "to", "Mass.", "in", "Calif."];
        assert_eq!(state_abbreviation(&s, 3), None);
        assert_eq!(state_abbreviation(&s, 5), Some("california"));
        // Case and the full stop are part of the abbreviation.
        let s = ["Troy", ",", "mo.", "Troy", ",", "Mo", "Troy", ",", "Mo."];
        assert_eq!(state_abbreviation(&s, 2), None);
        assert_eq!(state_abbreviation(&s, 5), None);
        assert_eq!(state_abbreviation(&s, 8), Some("missouri"));
        // A lower-case word before the comma is no place.
        let s = ["he", "said", ",", "Pa.", "was", "home"];
        assert_eq!(state_abbreviation(&s, 3), None);
        assert_eq!(state_abbreviation(&["Pa."], 0), None);
    }

    #[test]
    fn every_state_is_a_wordnet_noun() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let inv = Inventory::open(Some(&root.join("wordnet/dict"))).expect("wordnet/dict");
        for (abbr, state, _) in STATES {
            assert!(
                !inv.senses(state, Pos::Noun).is_empty(),
                "{abbr}: WordNet has no noun {state}"
            );
        }
    }
}
