//! The fixture itself and parsing.

use super::*;

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
