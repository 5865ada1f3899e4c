//! The inventory on the real WordNet 3.0.

use std::collections::HashSet;

use crate::util::*;
use wsd::wordnet::{
    canonical_name, hypernym_paths, lookup_senses, offset_string, resolve_id, Dictionary, Lookup,
    Pos, SynsetType,
};

#[test]
fn synset_counts_match_wordnet_3_0() {
    let inv = inventory();
    assert_eq!(inv.len(), 117_659);
    let count = |p: Pos| inv.synsets().iter().filter(|s| s.id.pos == p).count();
    assert_eq!(count(Pos::Noun), 82_115);
    assert_eq!(count(Pos::Verb), 13_767);
    assert_eq!(count(Pos::Adj), 18_156);
    assert_eq!(count(Pos::Adv), 3_621);
    let sats = inv
        .synsets()
        .iter()
        .filter(|s| s.ss_type == SynsetType::AdjSatellite)
        .count();
    assert!(sats > 10_000, "{sats} satellites");
}

#[test]
fn bass_has_eight_noun_senses_and_one_adjective_sense() {
    let inv = inventory();
    assert_eq!(inv.senses("bass", Pos::Noun).len(), 8);
    assert_eq!(inv.senses("bass", Pos::Adj).len(), 1);
    let d = Lookup::open(Some(&dict())).unwrap();
    assert_eq!(lookup_senses(&d, "bass", Some(Pos::Noun)).unwrap().len(), 8);
    assert_eq!(lookup_senses(&d, "bass", None).unwrap().len(), 9);
}

#[test]
fn every_index_sense_key_is_computed_from_the_data_files() {
    // Our sense keys are derived from data.* (lemma, lex_filenum, lex_id,
    // satellite heads); they must be exactly index.sense's keys.
    let inv = inventory();
    let text = std::fs::read_to_string(dict().join("index.sense")).unwrap();
    let keys: Vec<&str> = text.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(keys.len(), 206_941);
    let missing: Vec<&&str> = keys.iter().filter(|k| !inv.has_key(k)).take(5).collect();
    assert!(missing.is_empty(), "keys not derived: {missing:?}");
    let mut derived = HashSet::new();
    for s in inv.synsets() {
        for w in 0..s.words.len() {
            derived.insert(inv.sense_key(s, w));
        }
    }
    // NLTK derives the same 206,949: eight capitalised words (Earth, Sun,
    // Moon, KB …) share a lower-cased key with another word that index.sense
    // lists only once.
    assert_eq!(derived.len(), 206_949);
}

#[test]
fn bank_ids_round_trip_through_both_readers() {
    let inv = inventory();
    let d = Lookup::open(Some(&dict())).unwrap();
    for (key, offset, rel_name, canon, gloss) in [
        (
            "bank%1:14:00::",
            "08420278-n",
            "bank.n.02",
            "depository_financial_institution.n.01",
            "financial institution",
        ),
        (
            "bank%1:17:01::",
            "09213565-n",
            "bank.n.01",
            "bank.n.01",
            "sloping land",
        ),
    ] {
        for spelled in [key, offset, rel_name, canon] {
            let a = resolve_id(&d, spelled).unwrap();
            let b = resolve_id(inv, spelled).unwrap();
            assert_eq!(a, b);
            let syn = d.synset(a).unwrap();
            assert_eq!(offset_string(a, Some(syn.ss_type)), offset);
            assert_eq!(canonical_name(&d, &syn).unwrap(), canon);
            assert!(syn.definition.contains(gloss), "{}", syn.definition);
            let w = syn.word_index("bank").unwrap();
            assert_eq!(wsd::wordnet::sense_key(&d, &syn, w), key);
        }
    }
    // Satellites print and parse as -s.
    let sat = resolve_id(&d, "bass%5:00:00:low:03").unwrap();
    let syn = d.synset(sat).unwrap();
    assert_eq!(offset_string(sat, Some(syn.ss_type)), "01215935-s");
    assert_eq!(resolve_id(&d, "01215935-s").unwrap(), sat);
    assert_eq!(canonical_name(&d, &syn).unwrap(), "bass.s.01");
    // NLTK counts satellites among satellites: smart.s.05 is 00980144-s,
    // while smart.a.05 is the fifth adjective sense of any kind.
    let s5 = resolve_id(&d, "smart.s.05").unwrap();
    assert_eq!(s5.offset, 980_144);
    assert_eq!(
        canonical_name(&d, &d.synset(s5).unwrap()).unwrap(),
        "smart.s.05"
    );
    assert_eq!(resolve_id(&d, "smart.a.05").unwrap().offset, 1_513_376);
}

#[test]
fn morphy_like_wordnet() {
    let inv = inventory();
    let d = Lookup::open(Some(&dict())).unwrap();
    for (word, pos, base) in [
        ("banks", Pos::Noun, "bank"),
        ("ate", Pos::Verb, "eat"),
        ("better", Pos::Adj, "good"),
        ("geese", Pos::Noun, "goose"),
        ("took place", Pos::Verb, "take_place"),
        ("took_place", Pos::Verb, "take_place"),
        ("New York", Pos::Noun, "new_york"),
    ] {
        assert_eq!(
            inv.morphy(word, pos).first().map(String::as_str),
            Some(base),
            "{word}"
        );
        assert_eq!(
            wsd::wordnet::morphy::morphy(&d, word, pos)
                .first()
                .map(String::as_str),
            Some(base),
            "{word}"
        );
    }
}

#[test]
fn singer_sense_of_bass_reaches_entity_through_person() {
    let d = Lookup::open(Some(&dict())).unwrap();
    let id = resolve_id(&d, "bass%1:18:00::").unwrap();
    let paths = hypernym_paths(&d, id).unwrap();
    let names: Vec<Vec<String>> = paths
        .iter()
        .map(|p| {
            p.iter()
                .map(|&i| canonical_name(&d, &d.synset(i).unwrap()).unwrap())
                .collect()
        })
        .collect();
    let path = names
        .iter()
        .find(|p| p.iter().any(|n| n == "singer.n.01"))
        .expect("a path through singer");
    for must in [
        "singer.n.01",
        "musician.n.01",
        "performer.n.01",
        "entertainer.n.01",
        "person.n.01",
    ] {
        assert!(path.iter().any(|n| n == must), "{must} not in {path:?}");
    }
    assert_eq!(path.first().map(String::as_str), Some("entity.n.01"));
    assert_eq!(path.last().map(String::as_str), Some("bass.n.03"));
}

#[test]
fn senses_command_goes_through_morphy() {
    let out = ok(wsd().args(["senses", "banks", "--pos", "n"]));
    assert!(out.contains("bank%1:14:00::"), "{out}");
    assert!(out.contains("08420278-n"));
    let json = ok(wsd().args(["senses", "bank", "--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 18); // 10 noun + 8 verb senses
    assert_eq!(v[1]["key"], "bank%1:14:00::");
    assert_eq!(v[1]["definition"], "a financial institution that accepts deposits and channels the money into lending activities");
}

#[test]
fn synset_command_shows_relations_and_paths() {
    let out = ok(wsd().args(["synset", "bank.n.02", "--relations"]));
    assert!(
        out.starts_with("08420278-n  depository_financial_institution.n.01"),
        "{out}"
    );
    assert!(out.contains("hypernym:"));
    assert!(out.contains("financial_institution.n.01"));
    assert!(out.contains("entity.n.01 > "));
    let json = ok(wsd().args(["synset", "car%1:06:00::", "--relations", "--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["name"], "car.n.01");
    assert!(v["relations"]["part_meronym"].as_array().unwrap().len() > 10);
}

#[test]
fn lemma_wordnet_lacks_is_empty_with_a_note_and_exit_1() {
    let (out, so, se) = run(wsd().args(["senses", "qwertyuiop"]));
    assert_eq!(out.status.code(), Some(1));
    assert!(so.is_empty());
    assert!(se.contains("no entry"), "{se}");
    // Several words: each one's senses, the unknown one noted.
    let (out, so, se) = run(wsd().args(["senses", "bass", "qwertyuiop", "geese"]));
    assert_eq!(out.status.code(), Some(1));
    assert!(so.contains("bass.n 1") && so.contains("goose.n 1"), "{so}");
    assert!(se.contains("\"qwertyuiop\""), "{se}");
    // A misspelling gets the words WordNet has that are spelled like it,
    // closest and most polysemous first; none for a word like no other.
    let (out, _, se) = run(wsd().args(["senses", "recieve", "banc"]));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        se.contains("no entry for \"recieve\"; did you mean: receive, "),
        "{se}"
    );
    assert!(se.contains("\"banc\"; did you mean: bank, band, "), "{se}");
    let (_, _, se) = run(wsd().args(["senses", "qwertyuiop"]));
    assert!(!se.contains("did you mean"), "{se}");
    let so = ok(wsd().args(["senses", "bass", "geese", "--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&so).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 9 + 3, "{so}"); // goose: 2 nouns, 1 verb
}

#[test]
fn unknown_id_syntax_and_unknown_ids_are_clear_errors() {
    let se = fails(wsd().args(["synset", "bank/2"]));
    assert!(se.contains("cannot parse synset id"), "{se}");
    let se = fails(wsd().args(["synset", "99999999-n"]));
    assert!(se.contains("no synset"), "{se}");
    let se = fails(wsd().args(["synset", "bank.n.99"]));
    assert!(se.contains("no synset"), "{se}");
}

#[test]
fn missing_dict_folder_says_where_it_looked() {
    let se = fails(wsd().args(["--wordnet", "/nonexistent/wn", "senses", "bank"]));
    assert!(
        se.contains("/nonexistent/wn") && se.contains("fetch-data.sh"),
        "{se}"
    );
    let tmp = tempdir();
    let se = fails(
        wsd()
            .current_dir(tmp.path())
            .env("WNSEARCHDIR", tmp.path())
            .args(["senses", "bank"]),
    );
    assert!(
        se.contains("wordnet/dict") && se.contains("/usr/share/wordnet")
            || se.contains("looked in"),
        "{se}"
    );
}

#[test]
fn truncated_or_garbled_data_line_names_file_and_line() {
    let tmp = tempdir();
    let dict = dict_copy(tmp.path());
    let text = std::fs::read_to_string(dict.join("data.adv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // Line 100 truncated mid-record; keep the byte offsets of the other lines
    // irrelevant by cutting the file right after it.
    let mut broken = lines[..99].join("\n");
    broken.push('\n');
    broken.push_str(&lines[99][..30]);
    broken.push('\n');
    std::fs::remove_file(dict.join("data.adv")).unwrap();
    std::fs::write(dict.join("data.adv"), &broken).unwrap();
    let err = wsd::wordnet::Inventory::load(&dict)
        .err()
        .expect("must fail")
        .to_string();
    assert!(err.contains("data.adv:100:"), "{err}");
    // Garbled: a pointer symbol replaced.
    let mut garbled = lines[..99].join("\n");
    garbled.push('\n');
    garbled.push_str(
        &lines[99]
            .replacen(" \\ ", " ?? ", 1)
            .replacen(" ! ", " ?? ", 1),
    );
    garbled.push('\n');
    std::fs::write(dict.join("data.adv"), &garbled).unwrap();
    let err = wsd::wordnet::Inventory::load(&dict)
        .err()
        .expect("must fail")
        .to_string();
    assert!(err.contains("data.adv:100:"), "{err}");
    // The lookup path reports the same for a record it reads.
    let idx = std::fs::read_to_string(dict.join("index.noun")).unwrap();
    let bank_line = idx
        .lines()
        .find(|l| l.starts_with("bank n "))
        .unwrap()
        .to_string();
    let broken_idx = idx.replace(&bank_line, &bank_line[..20]);
    std::fs::remove_file(dict.join("index.noun")).unwrap();
    std::fs::write(dict.join("index.noun"), broken_idx).unwrap();
    let se = fails(
        wsd()
            .arg("--wordnet")
            .arg(&dict)
            .args(["senses", "bank", "--pos", "n"]),
    );
    assert!(
        se.contains("index.noun:") && se.contains("record ends"),
        "{se}"
    );
}

/// tests/fixtures/nltk_wordnet.tsv (scripts/nltk_parity.py --fixture): NLTK
/// 3.10's `_morphy` on exception-list entries and suffixed forms, with the
/// answer wsd gives where a documented rule departs from NLTK's (the word
/// itself after its bases, morph.c's guard on nouns in `ss`, every line of
/// an exception file); and synset names NLTK resolves, among them names
/// that start with digits and a dash (`401-k_plan.n.01`, `6-membered.s.01`).
#[test]
fn morphy_and_names_as_nltk_resolves_them() {
    let inv = inventory();
    let d = Lookup::open(Some(&dict())).unwrap();
    let path = root().join("tests/fixtures/nltk_wordnet.tsv");
    let text = std::fs::read_to_string(&path).unwrap();
    let (mut morphed, mut named) = (0, 0);
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        match f[0] {
            "morphy" => {
                let pos = Pos::from_letter(f[2].chars().next().unwrap()).unwrap();
                let want: Vec<&str> = f[4].split_whitespace().collect();
                if f[5] == "same" {
                    assert_eq!(f[3], f[4], "{line}");
                }
                assert_eq!(wsd::wordnet::morphy::morphy(&d, f[1], pos), want, "{line}");
                assert_eq!(inv.morphy(f[1], pos), want, "{line}");
                morphed += 1;
            }
            "name" => {
                let id = resolve_id(&d, f[1]).unwrap_or_else(|e| panic!("{line}: {e}"));
                assert_eq!(resolve_id(inv, f[1]).unwrap(), id, "{line}");
                let syn = d.synset(id).unwrap();
                assert_eq!(offset_string(id, Some(syn.ss_type)), f[2], "{line}");
                if f[5] == "canonical" {
                    assert_eq!(canonical_name(&d, &syn).unwrap(), f[1], "{line}");
                }
                named += 1;
            }
            _ => panic!("bad fixture line {line}"),
        }
    }
    assert!(
        morphed > 1500 && named > 1000,
        "{morphed} forms, {named} names"
    );
    // An offset still needs its one letter.
    assert!(matches!(
        resolve_id(&d, "08420278-x"),
        Err(wsd::Error::BadId(_))
    ));
}

/// `--wordnet` given the folder that holds `dict/` (the unpacked
/// WordNet-3.0 archive, wsd's own `wordnet/`) reads its `dict/`.
#[test]
fn wordnet_option_accepts_the_folder_above_dict() {
    let tmp = tempdir();
    crate::util::dict_copy(tmp.path());
    let out = wsd()
        .arg("--wordnet")
        .arg(tmp.path())
        .args(["senses", "bank"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("bank%1:14:00::"));
}
