//! Similarity (values worked out by hand from the tree in `mod.rs`).

use super::*;

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
