//! Ids: sense keys, offsets, NLTK names.

use super::*;

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
