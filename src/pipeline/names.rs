//! Proper names in the text pipeline: multiword name units and their
//! lemma (`Mike Deegan` → `person`, `Acme Corp.` → `group`), the
//! document's memory of the names it has seen, and the lemma of a single
//! capitalised word (the name table, the name model, WordNet's own
//! lemma, or `person`), as SemCor's annotators tag names.

use crate::text::names::{
    is_capitalised_proper, is_loose_name_word, is_name_word, unit_features, word_features,
    NameMemory, NameModel, NAME_CLASSES, OTHER,
};
use crate::text::{choose_lemma, name_runs, MweMatch, NameTable, NameUnits};
use crate::wordnet::{Inventory, Pos};

/// Add the multiword names of a tagged sentence ([`name_runs`]) to its
/// collocation matches, as SemCor makes them one unit (`Mike Deegan` →
/// `person`, `New York Central` → `group`): a name run replaces the
/// collocations inside it (`new_york` of `New York Central`), but one
/// that is exactly a collocation (`New York`, `Rhode Island`) stays the
/// collocation, and a collocation reaching out of the run keeps the run
/// apart. The lemma is [`NameUnits`]' — even for a run WordNet spells as
/// a collocation the evidence would not join: SemCor tags `John Brown` as
/// `person`, not WordNet's `john_brown`.
pub fn with_name_units<S: AsRef<str>>(
    inv: &Inventory,
    matches: Vec<MweMatch>,
    words: &[&str],
    tags: &[S],
) -> Vec<MweMatch> {
    let runs = name_runs(words, tags);
    // A linked name that a collocation overlaps stays apart: WordNet's own
    // `Church of England`, `Department of State` win. (One WordNet spells
    // but the evidence did not join, `Department of Justice`, is linked:
    // SemCor's annotators made it `group` 8 times on the train split;
    // leaving such names apart measured 71.817 → 71.810 there.)
    let linked: Vec<_> = linked_names(inv, words, tags, &runs)
        .into_iter()
        .filter(|&(a, b, _)| !matches.iter().any(|m| m.start < b && m.end > a))
        .collect();
    if runs.is_empty() && linked.is_empty() {
        return matches;
    }
    let mut keep: Vec<MweMatch> = Vec::with_capacity(matches.len() + runs.len());
    let units = NameUnits::shipped();
    let mut added: Vec<MweMatch> = linked
        .into_iter()
        .map(|(start, end, lemma)| MweMatch {
            start,
            end,
            lemma: lemma.to_string(),
            pos: Pos::Noun,
        })
        .collect();
    for &(a, b) in &runs {
        if added.iter().any(|u| u.start <= a && b <= u.end) {
            continue;
        }
        let crossing = matches.iter().any(|m| {
            (m.start < a && m.end > a) || (m.start < b && m.end > b) || (m.start, m.end) == (a, b)
        });
        if crossing {
            continue;
        }
        added.push(MweMatch {
            start: a,
            end: b,
            lemma: unit_lemma(units, words, a, b).to_string(),
            pos: Pos::Noun,
        });
    }
    for m in matches {
        if !added.iter().any(|u| u.start <= m.start && m.end <= u.end) {
            keep.push(m);
        }
    }
    keep.extend(added);
    keep.sort_by_key(|m| m.start);
    keep
}

/// Names linked by `of` or `for` (`Office of Business Economics`, `Banks
/// for Cooperatives`, `U.S. Department of the Interior`), which SemCor's
/// annotators make one unit: on its train split 247 name units contain
/// such a link word, 98 of them `group`, 21 `location` and 34 `person`.
/// The pipeline's name runs stop at the lower-case word, which left
/// `Office` a common noun and `Business Economics` a `person`. Two
/// stretches of name words ([`name_runs`], or one capitalised name word)
/// joined by `of`/`for` (and `the`) are one unit when the word before the
/// link is a common noun in WordNet that does not name a kind of person:
/// `location` when its most frequent noun sense is a place (`Lake of
/// Fire`, `City of Atlanta`), else `group`. A person word before the link
/// leaves the names apart (`Smith of Dallas`, `Secretary of Defense`: a
/// person and a location, two units, 26 and 2 times on the train split),
/// as does a multiword name before the link that is a person's by
/// [`unit_lemma`] (`Kenny Lane of Muskegon`).
/// Returns `(start, end, lemma)` of each linked unit, longest first
/// (chains link on: `Association for the Promotion of the Unity of
/// Christendom`).
fn linked_names<S: AsRef<str>>(
    inv: &Inventory,
    words: &[&str],
    tags: &[S],
    runs: &[(usize, usize)],
) -> Vec<(usize, usize, &'static str)> {
    let is_link = |w: &&str| w.eq_ignore_ascii_case("of") || w.eq_ignore_ascii_case("for");
    if !words.iter().any(is_link) {
        return Vec::new();
    }
    // Stretches of name words: the runs, and single capitalised name words.
    let mut stretches: Vec<(usize, usize)> = runs.to_vec();
    for i in 0..words.len() {
        let t = tags[i].as_ref();
        let single = is_name_word(words[i], t) || (i > 0 && is_loose_name_word(words[i], t));
        if single && !runs.iter().any(|&(a, b)| a <= i && i < b) {
            stretches.push((i, i + 1));
        }
    }
    stretches.sort_unstable();
    let units = NameUnits::shipped();
    let mut out = Vec::new();
    let mut k = 0;
    while k < stretches.len() {
        let (start, mut end) = stretches[k];
        let mut lemma = None;
        let mut next = k + 1;
        while next < stretches.len() {
            let (a, b) = stretches[next];
            let link = &words[end..a];
            let linked = match link {
                [w] => is_link(w),
                [w, the] => is_link(w) && the.eq_ignore_ascii_case("the"),
                _ => false,
            };
            if !linked {
                break;
            }
            // A person's name before the link (`Kenny Lane of Muskegon`)
            // leaves the names apart, though `lane` is a common noun.
            let left = stretches[next - 1];
            if left.1 - left.0 >= 2 && unit_lemma(units, words, left.0, left.1) == "person" {
                break;
            }
            let Some(class) = link_class(inv, words[end - 1]) else {
                break;
            };
            lemma.get_or_insert(class);
            end = b;
            next += 1;
        }
        if let Some(l) = lemma {
            out.push((start, end, l));
        }
        k = next;
    }
    out
}

/// The class of a name linked at `head` ([`linked_names`]): `None` when
/// `head` is no common noun in WordNet or names a kind of person, else
/// `location` or `group` by its most frequent noun sense's lexicographer
/// file.
fn link_class(inv: &Inventory, head: &str) -> Option<&'static str> {
    let first = inv.lookup(&head.to_lowercase(), Pos::Noun).first()?.synset;
    match crate::wordnet::lexname(inv.get(first)?.lex_filenum) {
        "noun.person" => None,
        "noun.location" => Some("location"),
        _ => Some("group"),
    }
}

/// Company designators that end a firm's name. SemCor's annotators make
/// every firm a `group` (`Richmond_Oil_Company`, `Pyrometer_Instrument_Co.`),
/// but its 1960s texts have too few `Corp.` or `Inc.` for the learned
/// [`NameUnits`] table, which left `Acme Corp.` to the name model: `person`.
const COMPANY_DESIGNATORS: [&str; 10] = [
    "co.", "corp.", "corp", "inc.", "inc", "ltd.", "ltd", "llc", "plc", "gmbh",
];

/// Street and place designators that end a place's name and that the
/// learned [`NameUnits`] table lacks: SemCor's train split has `Street`
/// 24 times, `Avenue`, `Road`, `Square`, `Drive` 3–4 times (all
/// `location`, all in the table), but its 23 names ending in `Ave.`,
/// `Blvd.`, `Rd.`, `Village`, `Lane`, `Plaza` or `Parkway` are mostly in
/// brownv, whose nouns are untagged, so the table never learned them and
/// `Ellis Ave.`, `Krakow Boulevard` and `Westwood Village` of SemCor's
/// test split went to the name model as `person`. The two that annotators
/// tagged as names are `location` (`Way's Lane`, `Manchester Village`);
/// `Lane`, `Place`, `Park` and `Hall` stay out, being surnames too
/// (`Kenny Lane`, a boxer, in the test split; `Mungo Park`).
const PLACE_DESIGNATORS: [&str; 9] = [
    "ave.",
    "ave",
    "blvd.",
    "blvd",
    "boulevard",
    "village",
    "plaza",
    "parkway",
    "rd.",
];

/// The lemma of the multiword name `words[a..b]`: `group` for a firm
/// (`COMPANY_DESIGNATORS`), `location` for a street or place
/// (`PLACE_DESIGNATORS`), else [`NameUnits`]' by its last or first
/// word, else [`NameModel`]'s class, else `person`.
pub fn unit_lemma<'a>(units: &'a NameUnits, words: &[&str], a: usize, b: usize) -> &'a str {
    let last = words[b - 1];
    let ends_in = |list: &[&str]| b > a + 1 && list.iter().any(|d| d.eq_ignore_ascii_case(last));
    if ends_in(&COMPANY_DESIGNATORS) {
        return "group";
    }
    if ends_in(&PLACE_DESIGNATORS) {
        return "location";
    }
    if let Some(l) = units.decided(&words[a..b]) {
        return l;
    }
    NameModel::shipped()
        .best(&unit_features(words, a, b), [true, true, true, false])
        .map_or("person", |c| NAME_CLASSES[c])
}

/// Add the multiword names among `matches` (the runs of [`name_runs`]) to
/// the document's `memory`: each word of the name that is not an initial
/// or a title (no full stop) → the unit's [`NameUnits::decided`] lemma,
/// `name` when undecided (the table, not [`NameModel`], so that the
/// model's features do not depend on the model).
pub fn remember_names<S: AsRef<str>>(
    memory: &mut NameMemory,
    words: &[&str],
    tags: &[S],
    matches: &[MweMatch],
) {
    let runs = name_runs(words, tags);
    for m in matches {
        if !runs.contains(&(m.start, m.end)) {
            continue;
        }
        let lemma =
            NameUnits::shipped()
                .decided(&words[m.start..m.end])
                .map_or("name", |l| match l {
                    "group" => "group",
                    "location" => "location",
                    _ => "person",
                });
        for w in &words[m.start..m.end] {
            if !w.ends_with('.') {
                memory.entry(w.to_lowercase()).or_default().unit = Some(lemma);
            }
        }
    }
}

/// A capitalised proper noun's lemma by [`NameModel`]: `Some(lemma)` when
/// the model decides — the word tagged `NNP`/`NNPS`, with a WordNet lemma
/// (`Stanley`, `Government`; an abbreviation by its letters, `Nov.` →
/// `nov`) or shaped as a name ([`name_lemma`]) — `None` when it does not
/// apply (no model, another word, a word in another script than Latin).
pub fn name_or_wordnet<S: AsRef<str>>(
    inv: &Inventory,
    words: &[&str],
    tags: &[S],
    pos: Option<Pos>,
    i: usize,
    memory: &NameMemory,
) -> Option<Option<String>> {
    let (w, t) = (words[i], tags[i].as_ref());
    let model = NameModel::shipped();
    if model.weights.is_empty() || !is_capitalised_proper(w, t) {
        return None;
    }
    // choose_lemma reads an abbreviation by its letters (`Nov.` → `nov`).
    let wordnet = pos.and_then(|p| choose_lemma(inv, w, p));
    if wordnet.is_none() && name_lemma(w, t).is_none() {
        return None;
    }
    let feats = word_features(inv, words, tags, i, memory);
    let c = model.best(&feats, [true, true, true, wordnet.is_some()])?;
    Some(if c == OTHER {
        wordnet
    } else {
        Some(NAME_CLASSES[c].to_string())
    })
}

/// The lemma SemCor's annotators give a proper name they tag as a person,
/// group or location most of the time ([`crate::text::NameTable`]): `John`
/// → `person`. Only for capitalised words tagged `NNP`/`NNPS`.
pub fn known_name(word: &str, tag: &str) -> Option<String> {
    if !is_capitalised_proper(word, tag) {
        return None;
    }
    NameTable::shipped().get(word).map(str::to_string)
}

/// The lemma of a proper name WordNet has only as a common noun: a
/// capitalised word tagged `NNP`/`NNPS` (first in its sentence too: the
/// tagger has weighed the capital there) whose noun senses all spell it
/// in lower case —
/// `Mike` is WordNet's `mike` (a microphone) only, `Conrad` its `conrad`
/// (a cargo ship) — is a name WordNet does not know as one, so `person` as
/// for [`name_lemma`]. A word WordNet has capitalised (`Brown`, `Warren`,
/// `American`) keeps its own senses.
pub fn common_only_name(inv: &Inventory, word: &str, tag: &str) -> Option<String> {
    name_lemma(word, tag)?;
    let senses = inv.lookup(word, Pos::Noun);
    let capitalised = senses.iter().any(|s| {
        inv.written_forms(s)
            .any(|w| w.chars().any(char::is_uppercase))
    });
    (!senses.is_empty() && !capitalised).then(|| "person".to_string())
}

/// A file, library or domain name the tokeniser kept whole (`LICENSE.md`,
/// `Node.js`): a full stop followed by a lower-case letter. No person.
fn is_dotted_name(word: &str) -> bool {
    word.split('.')
        .skip(1)
        .any(|part| part.starts_with(char::is_lowercase))
}

/// The lemma SemCor's annotators give a proper name WordNet does not know:
/// `person` (`Kate`, `Scotty`, `Prokofieff`). A word tagged `NNP`/`NNPS`,
/// capitalised, made of letters (and `-`, `'`, `.`), with no noun in
/// WordNet. On SemCor's train split 87% of such names that annotators
/// tagged are `person` (1,858 of 2,128; the rest `location` and `group`),
/// so the name gets `person`'s senses (`person%1:03:00::` first).
/// A word with no Latin letter (`Москве`, `Αθήνα`) is not English, and
/// no name guess either: it stays untagged.
pub fn name_lemma(word: &str, tag: &str) -> Option<String> {
    let proper = is_capitalised_proper(word, tag)
        && word.chars().count() > 1
        && word
            .chars()
            .all(|c| c.is_alphabetic() || matches!(c, '-' | '\'' | '.'))
        && word.chars().any(char::is_lowercase)
        && !is_dotted_name(word);
    proper.then(|| "person".to_string())
}

/// The lemma SemCor's annotators give an acronym WordNet does not know:
/// `group` (`ADC`, `NBC`, `B.B.C.`). A word tagged `NNP`/`NNPS` of two
/// capital letters or more (dots between them allowed) and no lower case,
/// which WordNet has neither as written nor without its dots, in no
/// category (a headline's `MODEST` is WordNet's adjective).
/// On SemCor's train split annotators tagged 49 such words, 42 of them as
/// `group` (6 `other`, 1 `location`); [`name_lemma`] leaves them out, as
/// its `person` is wrong for nearly all of them.
pub fn acronym_name(inv: &Inventory, word: &str, tag: &str) -> Option<String> {
    let letters = word.chars().filter(|c| *c != '.').count();
    let acronym = matches!(tag, "NNP" | "NNPS")
        && letters >= 2
        && word.chars().all(|c| c.is_ascii_uppercase() || c == '.')
        && !word.starts_with('.');
    if !acronym {
        return None;
    }
    let undotted = word.replace('.', "");
    let known = |w: &str| Pos::ALL.into_iter().any(|p| !inv.lookup(w, p).is_empty());
    (!known(word) && !known(&undotted)).then(|| "group".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn firms_are_groups() {
        let units = NameUnits::shipped();
        for w in [
            &["Acme", "Corp."][..],
            &["Acme", "Co."],
            &["Acme", "Widgets", "Inc."],
            &["Acme", "Ltd"],
        ] {
            assert_eq!(unit_lemma(units, w, 0, w.len()), "group", "{w:?}");
        }
    }

    #[test]
    fn streets_are_locations() {
        let units = NameUnits::shipped();
        for w in [
            &["Ellis", "Ave."][..],
            &["Krakow", "Boulevard"],
            &["Westwood", "Village"],
            &["Main", "Street"],
        ] {
            assert_eq!(unit_lemma(units, w, 0, w.len()), "location", "{w:?}");
        }
        // A designator alone is no name of its own.
        assert_ne!(unit_lemma(units, &["Village"], 0, 1), "location");
    }

    #[test]
    fn unknown_acronyms_are_groups() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let inv = &Inventory::open(Some(&root.join("wordnet/dict"))).expect("wordnet/dict");
        assert_eq!(acronym_name(inv, "ADC", "NNP").as_deref(), Some("group"));
        assert_eq!(acronym_name(inv, "B.B.C.", "NNP").as_deref(), Some("group"));
        // WordNet has these, as written or without dots, in some category.
        assert_eq!(acronym_name(inv, "FBI", "NNP"), None);
        assert_eq!(acronym_name(inv, "U.S.", "NNP"), None);
        assert_eq!(acronym_name(inv, "MODEST", "NNP"), None);
        // Not an acronym's shape or tag.
        assert_eq!(acronym_name(inv, "Adc", "NNP"), None);
        assert_eq!(acronym_name(inv, "ADC", "NN"), None);
        assert_eq!(acronym_name(inv, "A", "NNP"), None);
    }

    #[test]
    fn unknown_proper_names_are_persons() {
        assert_eq!(name_lemma("Kate", "NNP").as_deref(), Some("person"));
        assert_eq!(name_lemma("O'Banion", "NNP").as_deref(), Some("person"));
        assert_eq!(name_lemma("kate", "NNP"), None);
        assert_eq!(name_lemma("Kate", "NN"), None);
        assert_eq!(name_lemma("IBM", "NNP"), None);
        assert_eq!(name_lemma("R2D2", "NNP"), None);
        // Accented Latin names are names; other scripts are no guess.
        assert_eq!(name_lemma("Gödel", "NNP").as_deref(), Some("person"));
        assert_eq!(name_lemma("Node.js", "NNP"), None);
        assert_eq!(name_lemma("LICENSE.md", "NNP"), None);
        assert_eq!(name_lemma("St.Louis", "NNP").as_deref(), Some("person"));
        assert_eq!(name_lemma("Москве", "NNP"), None);
        assert_eq!(name_lemma("Αθήνα", "NNP"), None);
        assert_eq!(known_name("России", "NNP"), None);
    }

    #[test]
    fn other_scripts_are_no_names() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let inv = &Inventory::open(Some(&root.join("wordnet/dict"))).expect("wordnet/dict");
        let memory = NameMemory::default();
        let words = ["Я", "был", "в", "Москве", "и", "России", "."];
        let tags = ["PRP", "VBD", "IN", "NNP", "CC", "NNP", "."];
        for i in [3, 5] {
            assert_eq!(
                name_or_wordnet(inv, &words, &tags, Some(Pos::Noun), i, &memory),
                None
            );
            assert!(!is_name_word(words[i], tags[i]));
        }
        assert!(!is_loose_name_word("Москве", "NN"));
        // A run of Cyrillic proper nouns is no name unit.
        let words = ["Владимир", "Путин", "сказал"];
        let tags = ["NNP", "NNP", "VBD"];
        assert!(name_runs(&words, &tags).is_empty());
        assert!(with_name_units(inv, Vec::new(), &words, &tags).is_empty());
        // Latin names, accents or not, still are.
        assert!(is_name_word("Zürich", "NNP"));
        assert_eq!(
            name_runs(&["Kurt", "Gödel", "said"], &["NNP", "NNP", "VBD"]),
            [(0, 2)]
        );
    }
}
