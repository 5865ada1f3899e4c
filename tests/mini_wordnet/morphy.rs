//! Morphy.

use super::*;

#[test]
fn morphy_uses_exceptions_then_detachment_rules() {
    let inv = inv();
    let d = lookup();
    let cases: &[(&str, Pos, &[&str])] = &[
        // exception lists
        ("geese", Pos::Noun, &["goose"]),
        ("wetter", Pos::Adj, &["wet"]),
        ("wettest", Pos::Adj, &["wet"]),
        // an exception whose base is not in the index gives nothing
        ("mice", Pos::Noun, &[]),
        // noun rules: -s, -ies → -y (in a collocation), the word itself
        ("banks", Pos::Noun, &["bank"]),
        ("rivers", Pos::Noun, &["river"]),
        ("waters", Pos::Noun, &["water"]),
        ("water", Pos::Noun, &["water"]),
        ("Thames", Pos::Noun, &["thames"]),
        // verb rules: -s, -ed, -ing
        ("banks", Pos::Verb, &["bank"]),
        ("banked", Pos::Verb, &["bank"]),
        ("banking", Pos::Verb, &["bank"]),
        ("happened", Pos::Verb, &["happen"]),
        ("occurs", Pos::Verb, &["occur"]),
        // adjective rules: -er; "drier" needs an exception the list lacks
        ("damper", Pos::Adj, &["damp"]),
        ("drier", Pos::Adj, &[]),
        // the part of speech matters
        ("banks", Pos::Adj, &[]),
        ("wet", Pos::Noun, &[]),
        ("goose", Pos::Verb, &[]),
        ("wetly", Pos::Adv, &["wetly"]),
        ("", Pos::Noun, &[]),
    ];
    for &(word, pos, want) in cases {
        assert_eq!(inv.morphy(word, pos), want, "{word} ({pos})");
        assert_eq!(morphy(&d, word, pos), want, "{word} ({pos}) via Lookup");
    }
}

#[test]
fn morphy_joins_collocations() {
    let inv = inv();
    let d = lookup();
    let cases: &[(&str, Pos, &[&str])] = &[
        ("take_place", Pos::Verb, &["take_place"]),
        // took → take from verb.exc, though "take" alone is no lemma here
        ("took place", Pos::Verb, &["take_place"]),
        ("took_place", Pos::Verb, &["take_place"]),
        ("Took  Place", Pos::Verb, &["take_place"]),
        ("takes place", Pos::Verb, &["take_place"]),
        ("taking place", Pos::Verb, &["take_place"]),
        ("bodies of water", Pos::Noun, &["body_of_water"]),
        ("Body_Of_Water", Pos::Noun, &["body_of_water"]),
        ("took place", Pos::Noun, &[]),
        ("took", Pos::Verb, &[]),
    ];
    for &(word, pos, want) in cases {
        assert_eq!(inv.morphy(word, pos), want, "{word} ({pos})");
        assert_eq!(morphy(&d, word, pos), want, "{word} ({pos}) via Lookup");
    }
    let keys: Vec<&str> = inv
        .lookup("took place", Pos::Verb)
        .iter()
        .map(|s| s.key.as_str())
        .collect();
    assert_eq!(keys, ["take_place%2:30:00::"]);
}
