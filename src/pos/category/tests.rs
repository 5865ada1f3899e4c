use super::*;

#[test]
fn hashes_agree_piecewise_and_whole() {
    assert_eq!(fnv(&["w", "american", "n"]), fnv(&["w|american|n"]));
    assert_ne!(fnv(&["w", "american"]), fnv(&["wa", "merican"]));
}

#[test]
fn table_round_trips_and_decides() {
    let mut names = FxHashMap::default();
    let mut w = FxHashMap::default();
    for (n, x) in [
        ("w|american", [0.0, 0.0, 2.0, 0.0]),
        ("b", [0.5, 0.0, 0.0, 0.0]),
    ] {
        names.insert(fnv(&[n]), n.to_string());
        w.insert(fnv(&[n]), x);
    }
    let m = CategoryModel::from_weights(w, 1.0, 3);
    let tsv = m.to_tsv(&names, "test");
    let back = CategoryModel::parse(&tsv).unwrap();
    assert_eq!(back.len(), 2);
    assert_eq!((back.margin, back.templates), (1.0, 3));
    let both = 1 << Pos::Noun.index() | 1 << Pos::Adj.index();
    let h = [fnv(&["w", "american"]), fnv(&["b"])];
    // Adjective 2.0 against noun 0.5: beats the margin.
    assert_eq!(back.decide(&h, Pos::Noun, both), Pos::Adj);
    // Only the bias: the tagger's noun stays.
    assert_eq!(back.decide(&h[1..], Pos::Noun, both), Pos::Noun);
    // A category WordNet does not allow is replaced.
    assert_eq!(back.decide(&h[1..], Pos::Verb, both), Pos::Noun);
}

#[test]
fn bad_lines_name_their_number() {
    let e = CategoryModel::parse("# x\nb\t1\t2\n").unwrap_err();
    assert!(e.contains("line 2"), "{e}");
    let e = CategoryModel::parse("b\t1\tx\t0\t0\n").unwrap_err();
    assert!(e.contains("line 1") && e.contains("\"x\""), "{e}");
    let e = CategoryModel::parse("# margin big\n").unwrap_err();
    assert!(e.contains("line 1"), "{e}");
}

/// The perceptron learns a word-specific category against the tagger.
#[test]
fn perceptron_learns_word_category() {
    let both = 1 << Pos::Noun.index() | 1 << Pos::Adj.index();
    let ex = |word: &str, gold: Pos| Example {
        hashes: vec![fnv(&["b"]), fnv(&["tc", "n"]), fnv(&["w", word])],
        bits: both,
        tagged: Pos::Noun,
        gold,
        doc: 0,
        word: word.to_string(),
    };
    let data: Vec<Example> = (0..20)
        .map(|k| {
            if k % 2 == 0 {
                ex("american", Pos::Adj)
            } else {
                ex("dog", Pos::Noun)
            }
        })
        .collect();
    let refs: Vec<&Example> = data.iter().collect();
    let m = CategoryModel::from_weights(train(&refs, 3), 0.0, 0);
    assert_eq!(score(&m, &refs).0, 20);
    assert_eq!(score(&m, &refs).1, 10);
}

/// The left context looks past adverbs and `not` to the auxiliary or
/// determiner, and says so.
#[test]
fn left_context_skips_adverbs() {
    let words = [
        "It", "was", "not", "widely", "used", "by", "a", "very", "kind", "man",
    ];
    let tags: Vec<String> = ["PRP", "VB", "RB", "RB", "VB", "IN", "DT", "RB", "JJ", "NN"]
        .iter()
        .map(|t| t.to_string())
        .collect();
    let probs = vec![[0f32; 4]; words.len()];
    let s = Tagged {
        words: &words,
        tags: &tags,
        probs: &probs,
    };
    assert_eq!(left_context(s, 4), "be+");
    assert_eq!(left_context(s, 1), "pro");
    assert_eq!(left_context(s, 8), "det+");
    assert_eq!(left_context(s, 9), "adj");
    assert_eq!(left_context(s, 0), "<s>");
    // Three adverbs back: too far to tell.
    let words = ["He", "ran", "so", "very", "quickly", "home"];
    let tags: Vec<String> = ["PRP", "VB", "RB", "RB", "RB", "NN"]
        .iter()
        .map(|t| t.to_string())
        .collect();
    let s = Tagged {
        words: &words,
        tags: &tags,
        probs: &probs[..6],
    };
    assert_eq!(left_context(s, 5), "far");
    assert_eq!(left_context(s, 2), "verb");
}

#[test]
fn buckets() {
    assert_eq!(prob_bucket(0.0), "0");
    assert_eq!(prob_bucket(0.995), "5");
    assert_eq!(share_bucket(0, 10), "0");
    assert_eq!(share_bucket(10, 10), "5");
    assert_eq!(bits_name(0b0101), "na");
}

#[test]
fn own_counts_count_each_lemma_once_per_token() {
    use crate::corpus::{Document, Sentence, Token};
    let tok = |keys: &[&str]| Token {
        gold: keys.iter().map(|k| k.to_string()).collect(),
        ..Token::default()
    };
    let doc = Document {
        id: "d".into(),
        sentences: vec![Sentence {
            id: "d.s1".into(),
            tokens: vec![
                tok(&["telescope%2:35:00::"]),
                // two senses of one lemma on one token count once
                tok(&["risk%1:26:00::", "risk%1:04:00::"]),
                tok(&["risk%2:41:00::"]),
                tok(&["Able%5:00:00:capable:00"]),
                tok(&[]),
            ],
        }],
    };
    let own = own_counts(&doc);
    assert_eq!(own.get(&("telescope".to_string(), Pos::Verb)), Some(&1));
    assert_eq!(own.get(&("risk".to_string(), Pos::Noun)), Some(&1));
    assert_eq!(own.get(&("risk".to_string(), Pos::Verb)), Some(&1));
    assert_eq!(own.get(&("able".to_string(), Pos::Adj)), Some(&1));
    assert_eq!(own.len(), 4);
}
