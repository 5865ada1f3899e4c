//! Answers you can read (issue 12): `wsd tag --top K` (calibrated
//! probabilities), `--explain` (each method's evidence), `wsd eval --top K
//! --calibration`, `wsd calibrate`, and the paragraph test — our own text
//! with ten ambiguous words in two senses each, judged by hand in
//! `tests/fixtures/paragraph.gold.tsv`.

use std::collections::HashSet;

use crate::util::*;

const WORDS: [&str; 10] = [
    "bank", "bass", "plant", "interest", "crane", "spring", "bat", "pitch", "match", "star",
];

/// TSV rows of `wsd tag` output (csv quoting undone), header first.
fn rows(tsv: &str) -> Vec<Vec<String>> {
    let mut r = csv::ReaderBuilder::new()
        .delimiter(b'\t')
        .has_headers(false)
        .flexible(false)
        .from_reader(tsv.as_bytes());
    r.records()
        .map(|x| x.unwrap().iter().map(String::from).collect())
        .collect()
}

/// (sentence, word, gold keys) of the hand-judged paragraph.
fn paragraph_gold() -> Vec<(String, String, Vec<String>)> {
    let text = std::fs::read_to_string(root().join("tests/fixtures/paragraph.gold.tsv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 3, "{l}");
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].split(' ').map(String::from).collect(),
            )
        })
        .collect()
}

/// The (key, probability) pairs of a `top` field, `key:prob;key:prob`
/// (a sense key holds colons: the probability follows the last one).
fn top_of(field: &str) -> Vec<(String, f64)> {
    field
        .split(';')
        .map(|e| {
            let (k, p) = e.rsplit_once(':').unwrap_or_else(|| panic!("{e}"));
            (k.to_string(), p.parse().unwrap_or_else(|_| panic!("{e}")))
        })
        .collect()
}

#[test]
fn paragraph_is_tagged_with_the_default_method_and_top_three() {
    let gold = paragraph_gold();
    assert_eq!(gold.len(), 20);
    // Each of the ten words in exactly two sentences, with different senses.
    for w in WORDS {
        let g: Vec<_> = gold.iter().filter(|(_, x, _)| x == w).collect();
        assert_eq!(g.len(), 2, "{w}");
        assert!(g[0].2.iter().all(|k| !g[1].2.contains(k)), "{w}");
        for (_, _, keys) in &g {
            assert!(keys.iter().all(|k| inventory().has_key(k)), "{keys:?}");
        }
    }
    let input = root().join("tests/fixtures/paragraph.txt");
    let out = ok(tag().arg(&input).args(["--top", "3"]));
    let rows = rows(&out);
    let h = &rows[0];
    assert_eq!(
        h[8..],
        ["sense", "method", "decided", "score", "within", "top"]
    );
    let sentences: HashSet<&str> = rows[1..].iter().map(|r| r[1].as_str()).collect();
    assert_eq!(sentences.len(), 20, "{out}");
    let (mut top1, mut top3) = (0, 0);
    for (s, w, keys) in &gold {
        let r = rows[1..]
            .iter()
            .find(|r| r[1] == *s && r[5] == *w)
            .unwrap_or_else(|| panic!("no row for {w} in sentence {s}:\n{out}"));
        assert_ne!(r[8], "-", "{w} in sentence {s} is a target: {r:?}");
        let top = top_of(&r[13]);
        assert!(!top.is_empty() && top.len() <= 3, "{r:?}");
        assert_eq!(top[0].0, r[8], "the chosen sense comes first: {r:?}");
        assert!(top.iter().all(|(_, p)| (0.0..=1.0).contains(p)), "{r:?}");
        assert!(top.windows(2).all(|x| x[0].1 >= x[1].1), "{r:?}");
        assert!(
            top.iter().map(|(_, p)| p).sum::<f64>() <= 1.0 + 2e-3,
            "{r:?}"
        );
        top1 += keys.contains(&r[8]) as usize;
        top3 += top.iter().any(|(k, _)| keys.contains(k)) as usize;
    }
    assert!(top3 >= top1);
    eprintln!("paragraph: right sense first {top1}/20, in the top 3 {top3}/20");
}

#[test]
fn explain_gives_each_methods_evidence() {
    let text = b"The river bank was muddy. He sat on the bank and watched the water.\n";
    let evidence = |method: &str| -> Vec<(String, String)> {
        let (code, out, err) = run_stdin(tag().args(["--method", method, "--explain"]), text);
        assert_eq!(code, 0, "{err}");
        let rows = rows(&out);
        assert_eq!(rows[0].last().unwrap(), "evidence");
        rows[1..]
            .iter()
            .filter(|r| r[5] == "bank")
            .map(|r| (r[10].clone(), r.last().unwrap().clone()))
            .collect()
    };
    let lesk = evidence("lesk-ext");
    assert!(
        lesk.iter().any(|(_, e)| e.contains("overlap: river")),
        "{lesk:?}"
    );
    assert!(lesk.iter().all(|(_, e)| e.contains("prior")), "{lesk:?}");
    let sim = evidence("sim-wup");
    assert!(
        sim.iter()
            .any(|(_, e)| e.contains("common ancestor") && e.contains("depth")),
        "{sim:?}"
    );
    let mfs = evidence("mfs");
    assert!(
        mfs.iter()
            .all(|(_, e)| e.starts_with("WordNet tag count: ")),
        "{mfs:?}"
    );
    // JSON lines: `top` objects, `calibrated`, and the evidence by kind.
    let (code, out, err) = run_stdin(
        tag().args([
            "--method",
            "lesk",
            "--format",
            "jsonl",
            "--top",
            "2",
            "--explain",
        ]),
        text,
    );
    assert_eq!(code, 0, "{err}");
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let bank = first["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["text"] == "bank")
        .unwrap();
    let top = bank["top"].as_array().unwrap();
    assert_eq!(top.len(), 2, "{bank}");
    assert_eq!(top[0]["sense"], bank["sense"]);
    assert!(top[0]["prob"].as_f64().unwrap() >= top[1]["prob"].as_f64().unwrap());
    assert_eq!(bank["calibrated"], true, "{bank}");
    assert_eq!(bank["evidence"]["kind"], "overlap", "{bank}");
}

#[test]
fn nb_explains_with_its_strongest_features() {
    let dir = tempdir();
    let model = dir.path().join("nb.wsd");
    ok(wsd()
        .args(["train", "--method", "nb", "--limit-docs", "20"])
        .args(["--nb-params", r#"{"min_examples": 1}"#, "--output"])
        .arg(&model));
    let (code, out, err) = run_stdin(
        tag()
            .args(["--method", "nb,mfs", "--explain", "--top", "2", "--model"])
            .arg(&model),
        b"The man said that the people of the county would see the first results next year.\n",
    );
    assert_eq!(code, 0, "{err}");
    let rows = rows(&out);
    let nb: Vec<&Vec<String>> = rows[1..].iter().filter(|r| r[9] == "nb").collect();
    assert!(!nb.is_empty(), "{out}");
    for r in &nb {
        assert!(r.last().unwrap().starts_with("features"), "{r:?}");
    }
    assert!(
        nb.iter()
            .any(|r| r.last().unwrap().contains(" vs ") && r.last().unwrap().contains('+')),
        "{out}"
    );
}

#[test]
fn knn_explains_with_its_sense_vector() {
    let (code, out, err) = run_stdin(
        tag()
            .args(["--method", "knn,mfs", "--explain", "--model"])
            .arg(crate::knn::slice_model()),
        b"The river bank was muddy. The bank raised its rates.\n",
    );
    assert_eq!(code, 0, "{err}");
    let rows = rows(&out);
    let knn: Vec<&Vec<String>> = rows[1..].iter().filter(|r| r[9] == "knn").collect();
    assert!(!knn.is_empty(), "{out}");
    assert!(
        knn.iter()
            .all(|r| r.last().unwrap().starts_with("vector: ")
                && r.last().unwrap().contains("cosine")),
        "{out}"
    );
}

#[test]
fn key_format_refuses_top_and_explain() {
    for flag in [&["--top", "3"][..], &["--explain"][..]] {
        let (code, _, err) = run_stdin(
            tag()
                .args(["--method", "mfs", "--format", "key"])
                .args(flag),
            b"The bank raised its rates.\n",
        );
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("--format key"), "{err}");
    }
    let err = fails(tag().args(["--top", "0"]));
    assert!(err.contains("--top"), "{err}");
}

#[test]
fn eval_reports_top_k_and_the_calibration_table() {
    let out = ok(wsd()
        .args(["-q", "eval", "--method", "lesk-ext", "--format", "json"])
        .args(["--top", "3", "--calibration"])
        .args(semeval_args()));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let top: Vec<f64> = v["top_k"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["accuracy"].as_f64().unwrap())
        .collect();
    assert_eq!(top.len(), 3);
    assert!((top[0] - v["recall"].as_f64().unwrap()).abs() < 1e-9, "{v}");
    assert!(top.windows(2).all(|w| w[0] <= w[1]), "{top:?}");
    let cal = &v["calibration"];
    let bins = cal["bins"].as_array().unwrap();
    assert_eq!(bins.len(), 10);
    let binned: u64 = bins.iter().map(|b| b["count"].as_u64().unwrap()).sum();
    assert_eq!(binned, cal["calibrated"].as_u64().unwrap());
    let single = cal["single_sense"].as_u64().unwrap();
    assert_eq!(binned + single, v["answered"].as_u64().unwrap(), "{cal}");
    for b in bins.iter().filter(|b| b["count"].as_u64().unwrap() > 0) {
        let p = b["predicted"].as_f64().unwrap();
        assert!(
            b["lo"].as_f64().unwrap() <= p && p <= b["hi"].as_f64().unwrap(),
            "{b}"
        );
    }
    let text = ok(wsd()
        .args([
            "-q",
            "eval",
            "--method",
            "mfs",
            "--top",
            "2",
            "--calibration",
        ])
        .args(semeval_args()));
    assert!(text.contains("top-1 55.2, top-2"), "{text}");
    assert!(text.contains("expected calibration error"), "{text}");
}

#[test]
fn calibrate_writes_a_table_that_reads_back_monotone() {
    semcor();
    let dir = tempdir();
    let out = dir.path().join("cal.tsv");
    ok(wsd()
        .args(["-q", "calibrate", "--method", "mfs,lesk", "--output"])
        .arg(&out));
    let table = wsd::disambig::Calibration::read(&out).unwrap();
    assert!(table.has("mfs") && table.has("lesk") && !table.has("nb"));
    // the header names the methods calibrated, not nb's cross-fitting
    let text = std::fs::read_to_string(&out).unwrap();
    let header: String = text.lines().take_while(|l| l.starts_with('#')).collect();
    assert!(header.contains("(--method mfs,lesk; "), "{header}");
    assert!(
        header.contains("wsd calibrate --method mfs,lesk --semcor DIR"),
        "{header}"
    );
    assert!(!header.contains("nb"), "{header}");
    for blocks in table.maps().values() {
        assert!(blocks
            .windows(2)
            .all(|w| w[0].p < w[1].p && w[0].accuracy <= w[1].accuracy));
        assert!(blocks.iter().all(|b| b.count >= 50));
    }
    let err = fails(wsd().args(["calibrate", "--method", "mfs", "--split", "test"]));
    assert!(err.contains("held-out"), "{err}");
    let err = fails(wsd().args(["calibrate", "--method", "knn"]));
    assert!(err.contains("uncalibrated"), "{err}");
}
