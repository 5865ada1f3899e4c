//! `ens` without the encoder: trains the combiner from the vector cache
//! of `examples/knn_lab/` (the layers of every other document
//! of SemCor's train split, of SemEval-2007 and of every third SemCor
//! test document) with the train-split kNN and NB models, and scores it on
//! the dev set (and with `--test` on the cached test documents).
//!
//! ```sh
//! cargo run --release --example ens_lab -- /tmp/knn-cache KNN.wsd NB.wsd [L2] [--test]
//! ```
//! Tuning reads the train split (cross-validation) and the dev set only.
//! `ENS_WITHOUT=f1,f2` leaves features out, `ENS_WEIGHTS=1` prints the
//! weights, `ENS_SAVE=FILE` writes the model (for `wsd eval`), `ENS_FRAMES=1`
//! learns the verb-frame features.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::sync::Arc;

use wsd::corpus::{attach_gold, read_key_file, read_semcor, read_xml, Document, Split};
use wsd::disambig::candidates;
use wsd::disambig::ens::{train_on_sample, Ens, EnsTraining, SampleVectors};
use wsd::disambig::knn::{Knn, KnnOptions};
use wsd::disambig::naive_bayes::{NaiveBayes, NbParams};
use wsd::encoder::Encoder;
use wsd::wordnet::Inventory;

const D: usize = 384;

/// Layers per cached row: knn_lab's caches keep all six (`KNN_LAB_LAYERS=4`
/// for a cache of the earlier rounds, which kept the last four).
fn layers() -> usize {
    std::env::var("KNN_LAB_LAYERS")
        .ok()
        .and_then(|x| x.parse().ok())
        .unwrap_or(6)
}

/// The last layer of each cached row, and its lemma.
fn rows(dir: &Path, name: &str) -> Vec<(String, Vec<f32>)> {
    let lemmas: Vec<String> =
        BufReader::new(File::open(dir.join(format!("{name}.jsonl"))).unwrap())
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(&l.unwrap()).unwrap();
                v["lemma"].as_str().unwrap_or_default().to_string()
            })
            .collect();
    let mut f = BufReader::new(File::open(dir.join(format!("{name}.f32"))).unwrap());
    let layers = layers();
    let mut buf = vec![0u8; layers * D * 4];
    lemmas
        .into_iter()
        .map(|l| {
            f.read_exact(&mut buf).unwrap();
            let last = &buf[(layers - 1) * D * 4..];
            let v = last
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
                .collect();
            (l, v)
        })
        .collect()
}

/// The cached vectors of `docs` by (document, sentence, token), in the
/// cache's order: `keep` says which tokens were cached.
fn positions(
    docs: &[(usize, &Document)],
    rows: Vec<(String, Vec<f32>)>,
    keep: impl Fn(&wsd::corpus::Token) -> bool,
) -> SampleVectors {
    let mut out = HashMap::new();
    let mut it = rows.into_iter();
    for &(d, doc) in docs {
        for (s, sent) in doc.sentences.iter().enumerate() {
            for (t, tok) in sent.tokens.iter().enumerate() {
                if keep(tok) {
                    let (lemma, v) = it.next().expect("cache rows run out");
                    assert_eq!(
                        lemma,
                        tok.lemma.clone().unwrap_or_default(),
                        "cache out of step"
                    );
                    out.insert((d, s, t), v);
                }
            }
        }
    }
    out
}

fn score(ens: &Ens, inv: &Inventory, docs: &[Document], vecs: &SampleVectors) -> String {
    let mut per: HashMap<char, (usize, usize)> = HashMap::new();
    for (d, doc) in docs.iter().enumerate() {
        for t in doc.targets() {
            let cands = candidates(inv, &t.lemma, t.pos);
            let gold = &doc.token(&t).gold;
            if gold.is_empty() || cands.is_empty() {
                continue;
            }
            let key = if cands.len() == 1 {
                Some(cands[0].key.clone())
            } else {
                let v = vecs.get(&(d, t.sentence, t.token)).map(Vec::as_slice);
                let s = vecs
                    .get(&(d, t.sentence, wsd::disambig::ens::SENTENCE_ROW))
                    .map(Vec::as_slice);
                ens.decide(inv, doc, &t, &cands, v, s).map(|p| p.key)
            };
            let e = per.entry(t.pos.letter()).or_default();
            e.1 += 1;
            if key.is_some_and(|k| gold.contains(&k)) {
                e.0 += 1;
            }
        }
    }
    let (r, n) = per.values().fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    let mut s = format!("{:.1} ({n})", 100.0 * r as f64 / n as f64);
    for p in ['n', 'v', 'a', 'r'] {
        if let Some((r, n)) = per.get(&p) {
            s.push_str(&format!(" {p}{:.1}", 100.0 * *r as f64 / *n as f64));
        }
    }
    s
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = Path::new(&args[1]);
    let inv = Inventory::load(Path::new("wordnet/dict")).unwrap();
    let enc = Arc::new(Encoder::load(Path::new("models/all-MiniLM-L6-v2")).unwrap());
    let knn = Knn::load(Path::new(&args[2]), &inv, enc, KnnOptions::default()).unwrap();
    let nb = NaiveBayes::load(Path::new(&args[3]), &inv).unwrap();
    let l2 = args.get(4).and_then(|a| a.parse().ok());
    let train = read_semcor("corpora/semcor3.0", Split::Train).unwrap();
    let sampled: Vec<(usize, &Document)> = train.iter().enumerate().step_by(2).collect();
    let vecs = positions(&sampled, rows(dir, "train"), |t| !t.gold.is_empty());
    let sample: Vec<usize> = sampled.iter().map(|x| x.0).collect();
    let opts = EnsTraining {
        sample_every: 2,
        l2,
        frames: std::env::var("ENS_FRAMES").is_ok(),
        // the cache holds the tagged tokens' vectors, not whole sentences
        sentence: false,
        without: std::env::var("ENS_WITHOUT")
            .map(|v| {
                v.split(',')
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default(),
        ..EnsTraining::default()
    };
    let t = std::time::Instant::now();
    let (model, report) = train_on_sample(
        &inv,
        &knn,
        &train,
        "semcor:train",
        &NbParams::default(),
        &opts,
        &sample,
        &vecs,
        &|m| eprintln!("{m} ({:.0} s)", t.elapsed().as_secs_f64()),
    )
    .unwrap();
    if std::env::var("ENS_WEIGHTS").is_ok() {
        println!("{report}");
    } else {
        println!(
            "{}",
            report
                .lines()
                .filter(|l| !l.contains("  ") || l.starts_with("  "))
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    // ENS_SAVE=FILE keeps the model, to be scored by `wsd eval`
    if let Ok(out) = std::env::var("ENS_SAVE") {
        model.save(Path::new(&out), &inv).unwrap();
    }
    let ens = Ens::new(knn, nb, model, Path::new("lab")).unwrap();
    let mut dev = read_xml("corpora/wsd-eval/semeval2007/semeval2007.data.xml").unwrap();
    attach_gold(
        &mut dev,
        &read_key_file("corpora/wsd-eval/semeval2007/semeval2007.gold.key.txt").unwrap(),
    );
    let keep =
        |t: &wsd::corpus::Token| t.instance.is_some() && t.lemma.is_some() && t.pos.is_some();
    let dd: Vec<(usize, &Document)> = dev.iter().enumerate().collect();
    let dv = positions(&dd, rows(dir, "dev"), keep);
    println!("dev {}", score(&ens, &inv, &dev, &dv));
    if args.iter().any(|a| a == "--test") {
        let test: Vec<Document> = read_semcor("corpora/semcor3.0", Split::Test)
            .unwrap()
            .into_iter()
            .step_by(3)
            .collect();
        let td: Vec<(usize, &Document)> = test.iter().enumerate().collect();
        let tv = positions(&td, rows(dir, "test"), keep);
        println!(
            "test (every third document) {}",
            score(&ens, &inv, &test, &tv)
        );
    }
}
