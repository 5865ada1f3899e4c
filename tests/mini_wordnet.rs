//! Fast tests of the WordNet code on the miniature dict folder
//! `tests/fixtures/mini-wordnet` (written by `scripts/make_mini_wordnet.py`;
//! 27 synsets, no real data needed): parsing, ids, morphy, similarity, and
//! `wsd senses` / `wsd synset` on it.
//!
//! The taxonomy (noun depths in brackets, `@i` an instance hypernym):
//!
//! ```text
//! entity [0]                                   00000299-n
//! ├── physical_entity [1]                      00000471-n
//! │   ├── object, physical_object [2]          00000795-n
//! │   │   ├── slope, incline, side [3]         00001910-n
//! │   │   │   └── bank.n.01 "sloping land" [4] 00002110-n  bank%1:17:01::
//! │   │   ├── bank.n.03 "a long ridge" [3]     00002319-n  bank%1:17:00::
//! │   │   ├── body_of_water, water [3]         00002414-n  (water.n.02)
//! │   │   │   └── river [4]                    00002665-n
//! │   │   │       └── @i Thames [5]            00002829-n
//! │   │   └── goose [3]                        00003423-n
//! │   ├── liquid [2]                           00002973-n
//! │   │   └── water, H2O                       00003125-n  (water.n.01)
//! │   │       └── seawater, saltwater, brine   00003585-n  (min depth 3, max 4)
//! │   └── water, H2O (second hypernym: min depth 2, max depth 3)
//! └── abstraction, abstract_entity [1]         00000624-n
//!     └── group, grouping [2]                  00001052-n
//!         └── institution [3]                  00001186-n
//!             └── financial_institution [4]    00001335-n
//!                 └── depository_financial_institution, bank [5]
//!                                              00001602-n  bank%1:14:00:: (bank.n.02)
//!
//! verbs: transact.v.01 00000299-v  <- @ bank.v.01 00000381-v (frames 2, 22);
//!        happen, occur, take_place 00000556-v (no hypernym)
//! adjectives: alcoholic.a.01 00000299-a <- & wet.s.01 00000414-s (wet%5:00:00:alcoholic:00);
//!        wet.a.01 00000576-a (wet%3:00:01::) <- & damp.s.01 00000743-s
//!        (damp%5:00:00:wet:01); wet.a.01 ! dry.a.01 00000901-a
//! adverb: wetly.r.01 00000299-r (\ wet.a.01)
//! ```

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::util::{ok, root, run, wsd};
use wsd::wordnet::morphy::morphy;
use wsd::wordnet::similarity::{ic_from_keys, Similarity};
use wsd::wordnet::{
    canonical_name, hypernym_paths, lexname, lookup_senses, offset_string, resolve_id, sense_key,
    Dictionary, Frame, Inventory, Lookup, PointerKind, Pos, SynsetId, SynsetType,
};
use wsd::Error;

fn mini() -> PathBuf {
    root().join("tests/fixtures/mini-wordnet")
}

fn inv() -> &'static Inventory {
    static INV: OnceLock<Inventory> = OnceLock::new();
    INV.get_or_init(|| Inventory::load(&mini()).expect("the mini WordNet loads"))
}

fn lookup() -> Lookup {
    Lookup::open(Some(&mini())).expect("the mini WordNet opens")
}

fn n(offset: u32) -> SynsetId {
    SynsetId {
        pos: Pos::Noun,
        offset,
    }
}
fn v(offset: u32) -> SynsetId {
    SynsetId {
        pos: Pos::Verb,
        offset,
    }
}
fn a(offset: u32) -> SynsetId {
    SynsetId {
        pos: Pos::Adj,
        offset,
    }
}

const ENTITY: u32 = 299;
const PHYSICAL: u32 = 471;
const ABSTRACTION: u32 = 624;
const OBJECT: u32 = 795;
const GROUP: u32 = 1052;
const INSTITUTION: u32 = 1186;
const FINANCIAL: u32 = 1335;
const DEPOSITORY: u32 = 1602;
const SLOPE: u32 = 1910;
const BANK_SLOPE: u32 = 2110;
const BANK_RIDGE: u32 = 2319;
const BODY_OF_WATER: u32 = 2414;
const RIVER: u32 = 2665;
const THAMES: u32 = 2829;
const LIQUID: u32 = 2973;
const WATER: u32 = 3125;
const GOOSE: u32 = 3423;
const SEAWATER: u32 = 3585;
const TRANSACT: u32 = 299;
const BANK_V: u32 = 381;
const HAPPEN: u32 = 556;
const ALCOHOLIC: u32 = 299;
const WET_ALCOHOL: u32 = 414;
const WET: u32 = 576;
const DAMP: u32 = 743;
const DRY: u32 = 901;

fn close(got: Option<f64>, want: f64) {
    let g = got.unwrap_or_else(|| panic!("no value, want {want}"));
    assert!((g - want).abs() < 1e-12, "got {g}, want {want}");
}

// ---------------------------------------------------------------------
// The fixture itself and parsing
// ---------------------------------------------------------------------

#[test]
fn loads_every_synset_at_its_byte_offset() {
    let inv = inv();
    let count = |p: Pos| inv.synsets().iter().filter(|s| s.id.pos == p).count();
    assert_eq!(
        [
            count(Pos::Noun),
            count(Pos::Verb),
            count(Pos::Adj),
            count(Pos::Adv)
        ],
        [18, 3, 5, 1]
    );
    let sats = inv
        .synsets()
        .iter()
        .filter(|s| s.ss_type == SynsetType::AdjSatellite)
        .count();
    assert_eq!(sats, 2);
    // Independently of the loader: every record starts at the byte its
    // offset field names, right after a newline.
    for p in Pos::ALL {
        let bytes = std::fs::read(mini().join(format!("data.{}", p.file_suffix()))).unwrap();
        for s in inv.synsets().iter().filter(|s| s.id.pos == p) {
            let o = s.id.offset as usize;
            assert_eq!(bytes[o - 1], b'\n', "{:?}", s.id);
            assert_eq!(&bytes[o..o + 9], format!("{:08} ", o).as_bytes());
        }
    }
}

#[test]
fn index_files_are_sorted_for_binary_search() {
    for name in [
        "index.noun",
        "index.verb",
        "index.adj",
        "index.adv",
        "index.sense",
        "noun.exc",
        "verb.exc",
        "adj.exc",
    ] {
        let text = std::fs::read_to_string(mini().join(name)).unwrap();
        let keys: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with("  "))
            .map(|l| l.split(' ').next().unwrap())
            .collect();
        assert!(!keys.is_empty(), "{name}");
        assert!(
            keys.windows(2).all(|w| w[0].as_bytes() < w[1].as_bytes()),
            "{name} is not in strictly increasing byte order"
        );
    }
}

#[test]
fn records_parse_words_pointers_frames_and_glosses() {
    let inv = inv();
    let dep = inv.get(n(DEPOSITORY)).unwrap();
    let lemmas: Vec<&str> = dep.words.iter().map(|w| w.lemma.as_str()).collect();
    assert_eq!(
        lemmas,
        [
            "depository_financial_institution",
            "bank",
            "banking_concern",
            "banking_company"
        ]
    );
    assert_eq!(dep.lex_filenum, 14);
    assert_eq!(lexname(dep.lex_filenum), "noun.group");
    assert_eq!(
        dep.definition,
        "a financial institution that accepts deposits and channels the money into lending activities"
    );
    assert_eq!(
        dep.examples,
        [
            "he cashed a check at the bank",
            "that bank holds the mortgage on my home"
        ]
    );
    assert_eq!(dep.pointers.len(), 2);
    assert_eq!(dep.pointers[0].kind, PointerKind::Hypernym);
    assert_eq!(dep.pointers[0].target, n(FINANCIAL));
    assert!(dep.pointers[0].is_semantic());
    // A lexical pointer: word 2 ("bank") to word 1 of the verb synset.
    let p = dep.pointers[1];
    assert_eq!(p.kind, PointerKind::DerivationallyRelated);
    assert_eq!(p.target, v(BANK_V));
    assert_eq!((p.source_word, p.target_word), (2, 1));
    assert!(!p.is_semantic());
    // The reverse pointers the generator adds.
    let river = inv.get(n(RIVER)).unwrap();
    assert_eq!(
        river
            .related(PointerKind::InstanceHyponym)
            .collect::<Vec<_>>(),
        [n(THAMES)]
    );
    let thames = inv.get(n(THAMES)).unwrap();
    assert_eq!(thames.words[0].lemma, "Thames"); // case kept
    assert_eq!(
        thames
            .related(PointerKind::InstanceHypernym)
            .collect::<Vec<_>>(),
        [n(RIVER)]
    );
    // Verb frames.
    let bank_v = inv.get(v(BANK_V)).unwrap();
    assert_eq!(
        bank_v.frames,
        [
            Frame { number: 2, word: 0 },
            Frame {
                number: 22,
                word: 0
            }
        ]
    );
    assert!(inv.get(n(DEPOSITORY)).unwrap().frames.is_empty());
    // Adjective clusters and antonyms.
    let damp = inv.get(a(DAMP)).unwrap();
    assert_eq!(damp.ss_type, SynsetType::AdjSatellite);
    assert_eq!(
        damp.related(PointerKind::SimilarTo).collect::<Vec<_>>(),
        [a(WET)]
    );
    let wet = inv.get(a(WET)).unwrap();
    assert_eq!(wet.ss_type, SynsetType::Adj);
    assert_eq!(wet.words[0].lex_id, 1);
    assert_eq!(
        wet.related(PointerKind::Antonym).collect::<Vec<_>>(),
        [a(DRY)]
    );
    let wetly = inv
        .get(SynsetId {
            pos: Pos::Adv,
            offset: 299,
        })
        .unwrap();
    assert_eq!(wetly.pointers[0].kind, PointerKind::Pertainym);
    assert_eq!(wetly.pointers[0].target, a(WET));
}

#[test]
fn both_readers_return_the_same_records() {
    let inv = inv();
    let d = lookup();
    for s in inv.synsets() {
        assert_eq!(&*d.synset(s.id).unwrap(), s, "{:?}", s.id);
    }
    for p in Pos::ALL {
        for lemma in inv.lemmas(p) {
            assert_eq!(
                d.synset_offsets(lemma, p).unwrap(),
                inv.synset_offsets(lemma, p).unwrap(),
                "{lemma}"
            );
        }
    }
    assert!(d.synset_offsets("bank", Pos::Adj).unwrap().is_empty());
    assert_eq!(
        d.synset_offsets("bank", Pos::Noun).unwrap(),
        [BANK_SLOPE, DEPOSITORY, BANK_RIDGE]
    );
}

/// A copy of the mini WordNet in a temporary folder, `edit` applied to one file.
fn damaged(file: &str, edit: impl Fn(String) -> String) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(mini()).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dir.path().join(e.file_name())).unwrap();
    }
    let p = dir.path().join(file);
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, edit(text)).unwrap();
    dir
}

fn load_err(dir: &Path) -> String {
    match Inventory::load(dir) {
        Ok(_) => panic!("a damaged dict loaded"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn damaged_dicts_are_refused_with_file_and_line() {
    // One byte more in the header moves every record off its offset.
    let d = damaged("data.noun", |t| t.replacen("  1 ", "  1  ", 1));
    let e = load_err(d.path());
    assert!(e.contains("data.noun:5:"), "{e}");
    assert!(e.contains("starts at byte 300"), "{e}");
    // An index entry pointing at no synset.
    let d = damaged("index.noun", |t| t.replace("00003423", "00003424"));
    let e = load_err(d.path());
    assert!(
        e.contains("index.noun:") && e.contains("\"goose\"") && e.contains("data.noun lacks"),
        "{e}"
    );
    // A garbled pointer symbol.
    let d = damaged("data.verb", |t| t.replace("@ 00000299 v", "?? 00000299 v"));
    let e = load_err(d.path());
    assert!(
        e.contains("data.verb:6:") && e.contains("unknown pointer symbol"),
        "{e}"
    );
    // The single-lookup reader checks that an offset starts a record: an
    // offset inside a record is an error naming the file and offset, one
    // past the end or in another file names no synset.
    let l = lookup();
    let e = l.synset(n(300)).unwrap_err().to_string();
    assert!(e.contains("data.noun"), "{e}");
    for bad in [n(1_000_000), v(DEPOSITORY)] {
        assert!(l.synset(bad).is_err(), "{bad:?}");
    }
}

// ---------------------------------------------------------------------
// Ids: sense keys, offsets, NLTK names
// ---------------------------------------------------------------------

#[test]
fn every_sense_key_round_trips_through_both_readers() {
    let inv = inv();
    let d = lookup();
    let text = std::fs::read_to_string(mini().join("index.sense")).unwrap();
    let mut n_keys = 0;
    for line in text.lines() {
        let f: Vec<&str> = line.split(' ').collect();
        let (key, offset, number, tags) = (f[0], f[1], f[2], f[3]);
        let lemma = key.split('%').next().unwrap();
        for id in [resolve_id(inv, key).unwrap(), resolve_id(&d, key).unwrap()] {
            assert_eq!(format!("{:08}", id.offset), offset, "{key}");
            let syn = d.synset(id).unwrap();
            let w = syn.word_index(lemma).unwrap();
            assert_eq!(sense_key(&d, &syn, w), key);
            assert_eq!(inv.sense_key(&syn, w), key);
        }
        let (syn, num, tag_count) = inv.sense_by_key(key).unwrap();
        assert_eq!(format!("{:08}", syn.id.offset), offset);
        assert_eq!(num.to_string(), number, "{key}");
        assert_eq!(tag_count.to_string(), tags, "{key}");
        n_keys += 1;
    }
    // One key per (word, synset) pair of the data files.
    let pairs: usize = inv.synsets().iter().map(|s| s.words.len()).sum();
    assert_eq!(n_keys, pairs);
    assert_eq!(n_keys, 48);
}

#[test]
fn bank_ids_in_every_spelling() {
    let inv = inv();
    let d = lookup();
    for (key, offset, rel_name, canon) in [
        ("bank%1:17:01::", "00002110-n", "bank.n.01", "bank.n.01"),
        (
            "bank%1:14:00::",
            "00001602-n",
            "bank.n.02",
            "depository_financial_institution.n.01",
        ),
        ("bank%1:17:00::", "00002319-n", "bank.n.03", "bank.n.03"),
        ("bank%2:40:00::", "00000381-v", "bank.v.01", "bank.v.01"),
    ] {
        for spelled in [key, offset, rel_name, canon] {
            let id = resolve_id(&d, spelled).unwrap();
            assert_eq!(resolve_id(inv, spelled).unwrap(), id, "{spelled}");
            let syn = d.synset(id).unwrap();
            assert_eq!(offset_string(id, Some(syn.ss_type)), offset, "{spelled}");
            assert_eq!(canonical_name(&d, &syn).unwrap(), canon, "{spelled}");
            let w = syn.word_index("bank").unwrap();
            assert_eq!(sense_key(&d, &syn, w), key, "{spelled}");
        }
    }
    // Spelling variants: case, surrounding space, capitalised lemmas.
    assert_eq!(resolve_id(&d, " BANK%1:14:00:: ").unwrap(), n(DEPOSITORY));
    assert_eq!(resolve_id(&d, "Bank.n.02").unwrap(), n(DEPOSITORY));
    assert_eq!(resolve_id(&d, "Thames.n.01").unwrap(), n(THAMES));
    assert_eq!(
        canonical_name(&d, &d.synset(n(THAMES)).unwrap()).unwrap(),
        "thames.n.01"
    );
    // water.n.01 is H2O (30 tags), water.n.02 the body of water (8).
    assert_eq!(resolve_id(&d, "water.n.01").unwrap(), n(WATER));
    assert_eq!(resolve_id(&d, "water.n.02").unwrap(), n(BODY_OF_WATER));
    assert_eq!(
        canonical_name(&d, &d.synset(n(BODY_OF_WATER)).unwrap()).unwrap(),
        "body_of_water.n.01"
    );
    // A collocation names the synset whose first lemma is another word.
    assert_eq!(resolve_id(&d, "take_place.v.01").unwrap(), v(HAPPEN));
    assert_eq!(
        canonical_name(&d, &d.synset(v(HAPPEN)).unwrap()).unwrap(),
        "happen.v.01"
    );
    assert_eq!(
        resolve_id(&d, "wetly.r.01").unwrap(),
        SynsetId {
            pos: Pos::Adv,
            offset: 299
        }
    );
}

#[test]
fn satellites_count_among_satellites_and_print_as_s() {
    let d = lookup();
    // wet has two adjective senses: the head wet.a.01 (23 tags) and the
    // satellite of the alcoholic cluster. wet.a.02 counts all adjective
    // senses; wet.s.01 only the satellites, so both name the satellite.
    assert_eq!(resolve_id(&d, "wet.a.01").unwrap(), a(WET));
    assert_eq!(resolve_id(&d, "wet.a.02").unwrap(), a(WET_ALCOHOL));
    assert_eq!(resolve_id(&d, "wet.s.01").unwrap(), a(WET_ALCOHOL));
    assert!(matches!(
        resolve_id(&d, "wet.s.02"),
        Err(Error::UnknownId(_))
    ));
    let sat = d.synset(a(WET_ALCOHOL)).unwrap();
    assert_eq!(
        sat.related(PointerKind::SimilarTo).collect::<Vec<_>>(),
        [a(ALCOHOLIC)]
    );
    assert_eq!(canonical_name(&d, &sat).unwrap(), "wet.s.01");
    assert_eq!(offset_string(sat.id, Some(sat.ss_type)), "00000414-s");
    assert_eq!(offset_string(sat.id, None), "00000414-a");
    // The head of a satellite's key is the first word of its cluster head.
    assert_eq!(sense_key(&d, &sat, 0), "wet%5:00:00:alcoholic:00");
    let damp = d.synset(a(DAMP)).unwrap();
    assert_eq!(canonical_name(&d, &damp).unwrap(), "damp.s.01");
    assert_eq!(sense_key(&d, &damp, 0), "damp%5:00:00:wet:01");
    assert_eq!(sense_key(&d, &damp, 2), "moist%5:00:00:wet:01");
    // Offsets with -s or -a resolve to the same adjective record.
    assert_eq!(resolve_id(&d, "00000743-s").unwrap(), a(DAMP));
    assert_eq!(resolve_id(&d, "00000743-a").unwrap(), a(DAMP));
    assert_eq!(resolve_id(&d, "damp%5:00:00:wet:01").unwrap(), a(DAMP));
}

#[test]
fn canonical_names_resolve_back_for_every_synset() {
    let inv = inv();
    let d = lookup();
    for s in inv.synsets() {
        let name = canonical_name(inv, s).unwrap();
        assert_eq!(canonical_name(&d, s).unwrap(), name);
        assert!(
            !name.ends_with(".00"),
            "{name} not found among its lemma's senses"
        );
        assert_eq!(resolve_id(&d, &name).unwrap(), s.id, "{name}");
        let off = offset_string(s.id, Some(s.ss_type));
        assert_eq!(resolve_id(inv, &off).unwrap(), s.id, "{off}");
    }
}

#[test]
fn bad_and_unknown_ids_are_told_apart() {
    let d = lookup();
    for bad in [
        "bank",
        "bank.n",
        "bank.x.01",
        "bank.n.00",
        "bank%1:14:00",
        "bank%9:14:00::",
        "00001602-x",
        "",
    ] {
        assert!(
            matches!(resolve_id(&d, bad), Err(Error::BadId(_))),
            "{bad:?}"
        );
    }
    for unknown in [
        "bank.n.04",
        "bank.a.01",
        "nosuchword.n.01",
        "bank%1:14:09::",
        "00001603-n",
        "00001602-v",
    ] {
        assert!(
            matches!(resolve_id(&d, unknown), Err(Error::UnknownId(_))),
            "{unknown:?}: {:?}",
            resolve_id(&d, unknown)
        );
    }
}

#[test]
fn senses_of_inflected_words_in_sense_order() {
    let d = lookup();
    let views = lookup_senses(&d, "banks", Some(Pos::Noun)).unwrap();
    let got: Vec<(usize, &str, &str, &str, u32)> = views
        .iter()
        .map(|s| {
            (
                s.sense_number,
                s.key.as_str(),
                s.offset.as_str(),
                s.lexname,
                s.tag_count,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (1, "bank%1:17:01::", "00002110-n", "noun.object", 25),
            (2, "bank%1:14:00::", "00001602-n", "noun.group", 20),
            (3, "bank%1:17:00::", "00002319-n", "noun.object", 2),
        ]
    );
    assert!(views.iter().all(|s| s.lemma == "bank" && s.pos == 'n'));
    assert_eq!(views[1].name, "depository_financial_institution.n.01");
    // All parts of speech: three nouns and the verb.
    let all = lookup_senses(&d, "bank", None).unwrap();
    assert_eq!(all.len(), 4);
    assert_eq!(all[3].key, "bank%2:40:00::");
    assert_eq!(all[3].pos, 'v');
    // The same through the inventory.
    let inv = inv();
    let keys: Vec<&str> = inv
        .lookup("banks", Pos::Noun)
        .iter()
        .map(|s| s.key.as_str())
        .collect();
    assert_eq!(keys, ["bank%1:17:01::", "bank%1:14:00::", "bank%1:17:00::"]);
    let numbers: Vec<u16> = inv
        .senses("bank", Pos::Noun)
        .iter()
        .map(|s| s.number)
        .collect();
    assert_eq!(numbers, [1, 2, 3]);
    let damp = lookup_senses(&d, "damp", Some(Pos::Adj)).unwrap();
    assert_eq!(damp.len(), 1);
    assert_eq!((damp[0].pos, damp[0].offset.as_str()), ('s', "00000743-s"));
}

#[test]
fn hypernym_paths_follow_instances_and_multiple_parents() {
    let d = lookup();
    assert_eq!(
        hypernym_paths(&d, n(THAMES)).unwrap(),
        [vec![
            n(ENTITY),
            n(PHYSICAL),
            n(OBJECT),
            n(BODY_OF_WATER),
            n(RIVER),
            n(THAMES)
        ]]
    );
    // water/H2O has two hypernyms, liquid listed first.
    assert_eq!(
        hypernym_paths(&d, n(WATER)).unwrap(),
        [
            vec![n(ENTITY), n(PHYSICAL), n(LIQUID), n(WATER)],
            vec![n(ENTITY), n(PHYSICAL), n(WATER)]
        ]
    );
    assert_eq!(
        hypernym_paths(&d, n(SEAWATER)).unwrap(),
        [
            vec![n(ENTITY), n(PHYSICAL), n(LIQUID), n(WATER), n(SEAWATER)],
            vec![n(ENTITY), n(PHYSICAL), n(WATER), n(SEAWATER)]
        ]
    );
    assert_eq!(
        hypernym_paths(&d, n(DEPOSITORY)).unwrap(),
        [vec![
            n(ENTITY),
            n(ABSTRACTION),
            n(GROUP),
            n(INSTITUTION),
            n(FINANCIAL),
            n(DEPOSITORY)
        ]]
    );
    assert_eq!(hypernym_paths(&d, a(DAMP)).unwrap(), [vec![a(DAMP)]]);
}

// ---------------------------------------------------------------------
// Morphy
// ---------------------------------------------------------------------

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

// ---------------------------------------------------------------------
// Similarity (values worked out by hand from the tree at the top)
// ---------------------------------------------------------------------

#[test]
fn depths_min_and_max() {
    let sim = Similarity::new(inv());
    for (off, depth) in [
        (ENTITY, 0),
        (PHYSICAL, 1),
        (OBJECT, 2),
        (SLOPE, 3),
        (BANK_SLOPE, 4),
        (BANK_RIDGE, 3),
        (DEPOSITORY, 5),
        (THAMES, 5), // through its instance hypernym
    ] {
        assert_eq!(sim.min_depth(n(off)), Some(depth), "{off}");
        assert_eq!(sim.max_depth(n(off)), Some(depth), "{off}");
    }
    // water/H2O: entity > physical_entity > water (2) and
    // entity > physical_entity > liquid > water (3).
    assert_eq!(sim.min_depth(n(WATER)), Some(2));
    assert_eq!(sim.max_depth(n(WATER)), Some(3));
    assert_eq!(sim.min_depth(n(SEAWATER)), Some(3));
    assert_eq!(sim.max_depth(n(SEAWATER)), Some(4));
    assert_eq!(sim.taxonomy_depth(Pos::Noun), 5);
    assert_eq!(sim.taxonomy_depth(Pos::Verb), 1);
    assert_eq!(sim.taxonomy_depth(Pos::Adj), 0);
    assert_eq!(sim.min_depth(v(BANK_V)), Some(1));
    assert_eq!(sim.min_depth(n(1)), None);
    let mut dist = sim.hypernym_distances(n(WATER));
    dist.sort();
    assert_eq!(
        dist,
        [
            (n(ENTITY), 2),
            (n(PHYSICAL), 1),
            (n(LIQUID), 1),
            (n(WATER), 0)
        ]
    );
}

#[test]
fn path_similarity_by_hand() {
    let sim = Similarity::new(inv());
    // path = 1 / (shortest path through a common ancestor + 1)
    let cases = [
        // bank.n.01 → slope → object → physical_entity → entity (4) and
        // bank.n.02 → … → abstraction → entity (5): 1 / (9 + 1)
        (n(BANK_SLOPE), n(DEPOSITORY), 9, 0.1),
        // both two edges below object: 1 / 5
        (n(BANK_SLOPE), n(RIVER), 4, 0.2),
        // one edge each below object: 1 / 3
        (n(GOOSE), n(BANK_RIDGE), 2, 1.0 / 3.0),
        // an instance hypernym is one edge: 1 / 2
        (n(THAMES), n(RIVER), 1, 0.5),
        // water's direct pointer to physical_entity (1) + river's 3: 1 / 5
        (n(WATER), n(RIVER), 4, 0.2),
        (n(WATER), n(LIQUID), 1, 0.5),
        // seawater → water → liquid (2)
        (n(SEAWATER), n(LIQUID), 2, 1.0 / 3.0),
        (n(DEPOSITORY), n(DEPOSITORY), 0, 1.0),
        // verbs simulate a root: bank.v.01 → transact.v.01 is 1 edge
        (v(BANK_V), v(TRANSACT), 1, 0.5),
        // happen (no hypernym) 1 edge to *ROOT*, bank.v.01 2 edges: 1 / 4
        (v(HAPPEN), v(BANK_V), 3, 0.25),
        // adjectives have no hypernyms: one edge each to *ROOT*: 1 / 3
        (a(WET), a(DAMP), 2, 1.0 / 3.0),
        (a(WET), a(DRY), 2, 1.0 / 3.0),
    ];
    for (x, y, d, p) in cases {
        assert_eq!(sim.shortest_path_distance(x, y), Some(d), "{x:?} {y:?}");
        assert_eq!(sim.shortest_path_distance(y, x), Some(d), "{y:?} {x:?}");
        close(sim.path(x, y), p);
        close(sim.path(y, x), p);
    }
    // Across parts of speech: None, unless NLTK's numbers are asked for:
    // bank.n.01 is 4 edges below entity, +1 to *ROOT*; bank.v.01 1 + 1: 1 / 8.
    assert_eq!(sim.path(n(BANK_SLOPE), v(BANK_V)), None);
    let nltk = Similarity::new(inv()).nltk_cross_pos(true);
    close(nltk.path(n(BANK_SLOPE), v(BANK_V)), 1.0 / 8.0);
    // An unknown synset has no similarity.
    assert_eq!(sim.path(n(1), n(ENTITY)), None);
}

#[test]
fn wu_palmer_by_hand() {
    let sim = Similarity::new(inv());
    // wup = 2·depth / (len1 + depth + len2 + depth), depth = max depth of
    // the subsumer + 1 (the deepest common ancestor by min depth).
    let cases = [
        // subsumer entity (depth 1); lengths 4 and 5: 2 / (5 + 6)
        (n(BANK_SLOPE), n(DEPOSITORY), 2.0 / 11.0),
        // subsumer object (depth 3); lengths 2 and 2: 6 / 10
        (n(BANK_SLOPE), n(RIVER), 0.6),
        // subsumer object; lengths 1 and 1: 6 / 8
        (n(GOOSE), n(BANK_RIDGE), 0.75),
        // subsumer river (depth 5); lengths 1 and 0: 10 / 11
        (n(THAMES), n(RIVER), 10.0 / 11.0),
        (n(RIVER), n(THAMES), 10.0 / 11.0),
        // subsumer physical_entity (depth 2); lengths 1 and 3: 4 / 8
        (n(WATER), n(RIVER), 0.5),
        // subsumer liquid (depth 3); lengths 1 and 0: 6 / 7
        (n(WATER), n(LIQUID), 6.0 / 7.0),
        // subsumer physical_entity (depth 2); lengths 2 and 3: 4 / 9
        (n(SEAWATER), n(RIVER), 4.0 / 9.0),
        // subsumer liquid (depth 3); lengths 2 and 0: 6 / 8
        (n(SEAWATER), n(LIQUID), 0.75),
        // subsumer financial_institution (depth 5); lengths 1 and 0
        (n(DEPOSITORY), n(FINANCIAL), 10.0 / 11.0),
        (n(WATER), n(WATER), 1.0),
        // happen and bank.v.01 share only *ROOT* (depth 1), reached in 1
        // and 2 edges: 2 / (2 + 3)
        (v(HAPPEN), v(BANK_V), 0.4),
        // wet and damp share only *ROOT*, one edge each: 2 / (2 + 2)
        (a(WET), a(DAMP), 0.5),
    ];
    for (x, y, w) in cases {
        close(sim.wup(x, y), w);
    }
    // Not symmetric, as in NLTK: transact.v.01 and *ROOT* both have min
    // depth 0. From transact, transact itself is the subsumer (depth 1,
    // lengths 0 and 1): 2 / (1 + 2). From bank.v.01 the tie goes to the
    // name that sorts first, "*ROOT*" (depth 1, lengths 2 and 1): 2 / (3 + 2).
    close(sim.wup(v(TRANSACT), v(BANK_V)), 2.0 / 3.0);
    close(sim.wup(v(BANK_V), v(TRANSACT)), 0.4);
    // The same among nouns: water and liquid both have min depth 2. From
    // water, water is the subsumer, and its depth is its *max* depth + 1 = 4
    // (lengths 0 and 1): 8 / (4 + 5). From seawater, the tie goes to
    // liquid.n.01, which sorts before water.n.01 (depth 3, lengths 2 and
    // 1): 6 / (5 + 4).
    close(sim.wup(n(WATER), n(SEAWATER)), 8.0 / 9.0);
    close(sim.wup(n(SEAWATER), n(WATER)), 2.0 / 3.0);
    assert_eq!(sim.wup(n(WATER), v(HAPPEN)), None);
}

#[test]
fn leacock_chodorow_by_hand() {
    let sim = Similarity::new(inv());
    // lch = -ln((d + 1) / 2D), D = 5 for nouns (bank.n.02 and Thames).
    close(sim.lch(n(BANK_SLOPE), n(RIVER)), 2f64.ln()); // -ln(5 / 10)
    close(sim.lch(n(BANK_SLOPE), n(DEPOSITORY)), 0.0); // -ln(10 / 10)
    close(sim.lch(n(RIVER), n(RIVER)), 10f64.ln()); // -ln(1 / 10)
                                                    // seawater → water → physical_entity (2) + river's 3: -ln(6 / 10)
    close(sim.lch(n(SEAWATER), n(RIVER)), -(0.6f64.ln()));
    // Verbs: D = 1 + 1 for the simulated root; d = 1: -ln(2 / 4).
    close(sim.lch(v(BANK_V), v(TRANSACT)), 2f64.ln());
    // Head adjectives: D = 0 + 1, d = 2 through *ROOT*: -ln(3 / 2).
    close(sim.lch(a(WET), a(DRY)), -(1.5f64.ln()));
    // A head adjective and a satellite are different synset types.
    assert_eq!(sim.lch(a(WET), a(DAMP)), None);
}

#[test]
fn information_content_measures_by_hand() {
    let inv = inv();
    // One occurrence each of bank.n.01, river and water/H2O, add-one
    // smoothing: every count starts at 1, the noun total at 1 + 3 = 4.
    let ic = ic_from_keys(
        inv,
        [
            "bank%1:17:01::",
            "river%1:17:00::",
            "water%1:27:00::",
            "nosuch%1:00:00::",
        ],
    );
    assert_eq!((ic.occurrences, ic.unknown), (3, 1));
    assert_eq!(ic.total(Pos::Noun), 4.0);
    // physical_entity is reached twice from water (directly and through
    // liquid) but counted once per occurrence: 1 + 3.
    assert_eq!(ic.count(inv, n(PHYSICAL)), Some(4.0));
    assert_eq!(ic.count(inv, n(OBJECT)), Some(3.0));
    assert_eq!(ic.count(inv, n(BANK_SLOPE)), Some(2.0));
    assert_eq!(ic.count(inv, n(GOOSE)), Some(1.0));
    close(ic.information_content(inv, n(ENTITY)), 0.0);
    close(ic.information_content(inv, n(OBJECT)), (4.0f64 / 3.0).ln());
    close(ic.information_content(inv, n(RIVER)), 2f64.ln());
    let sim = Similarity::new(inv);
    // Most informative common subsumer of bank.n.01 and river: object.
    let (ic_obj, ic_leaf) = ((4.0f64 / 3.0).ln(), 2f64.ln());
    close(sim.res(n(BANK_SLOPE), n(RIVER), &ic), ic_obj);
    close(
        sim.lin(n(BANK_SLOPE), n(RIVER), &ic),
        2.0 * ic_obj / (2.0 * ic_leaf),
    );
    close(
        sim.jcn(n(BANK_SLOPE), n(RIVER), &ic),
        1.0 / (2.0 * ic_leaf - 2.0 * ic_obj),
    );
    // bank.n.01 and bank.n.02 only share entity, whose IC is 0.
    close(sim.res(n(BANK_SLOPE), n(DEPOSITORY), &ic), 0.0);
}

// ---------------------------------------------------------------------
// The binary on the mini WordNet
// ---------------------------------------------------------------------

fn mini_arg() -> String {
    mini().display().to_string()
}

#[test]
fn senses_command_on_the_mini_wordnet() {
    let out = ok(wsd().args(["--wordnet", &mini_arg(), "senses", "banks", "--pos", "n"]));
    let first = out.lines().next().unwrap();
    for part in [
        "bank%1:17:01::",
        "00002110-n",
        "bank.n.01",
        "[noun.object]",
        "tag count 25",
    ] {
        assert!(first.contains(part), "{part} not in {first:?}\n{out}");
    }
    assert!(
        out.contains("depository_financial_institution.n.01"),
        "{out}"
    );
    let json = ok(wsd().args([
        "--wordnet",
        &mini_arg(),
        "senses",
        "took place",
        "--format",
        "json",
    ]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 1, "{json}");
    assert_eq!(v[0]["key"], "take_place%2:30:00::");
    assert_eq!(v[0]["name"], "happen.v.01");
    assert_eq!(v[0]["tag_count"], 54);
}

#[test]
fn synset_command_on_the_mini_wordnet() {
    let out = ok(wsd().args([
        "--wordnet",
        &mini_arg(),
        "synset",
        "bank.n.02",
        "--relations",
    ]));
    assert!(
        out.starts_with("00001602-n  depository_financial_institution.n.01"),
        "{out}"
    );
    assert_eq!(
        out.trim_end().lines().last().unwrap().trim(),
        "entity.n.01 > abstraction.n.01 > group.n.01 > institution.n.01 > financial_institution.n.01 > depository_financial_institution.n.01",
        "{out}"
    );
    let (status, _, err) = run(wsd().args(["--wordnet", &mini_arg(), "synset", "bank.n.09"]));
    assert!(!status.status.success());
    assert!(err.contains("bank.n.09"), "{err}");
}

#[test]
fn mini_wordnet_folder_is_found_by_lookup_and_inventory() {
    // Guards against the tests above silently reading another dict.
    let d = lookup();
    assert_eq!(d.dict_dir(), mini().as_path());
    assert_eq!(inv().dir(), mini().as_path());
    assert!(Path::new(&mini()).join("lexnames").is_file());
}
