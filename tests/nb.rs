//! Naive Bayes on the real data: trained on the SemCor train split, scored
//! on the SemCor test split and on SemEval-2007 with the library's scorer.
//!
//! Ignored tests (run them in release mode):
//!
//! * `nb_figures` — the measured figures (F1 next to mfs, training time,
//!   model size, prediction speed):
//!   `cargo test --release --test integration nb_figures -- --ignored --nocapture`
//! * `nb_tune` — the cross-validation grid the defaults were chosen with
//!   (5 folds of the SemCor train split by document, and SemEval-2007);
//!   `WSD_NB_TUNE=grid.json` overrides the grid (see [`Grid`]).

use std::collections::HashMap;
use std::sync::OnceLock;
use std::time::Instant;

use crate::util::*;
use wsd::corpus::{
    attach_gold, instance_pos, read_key_file, read_semcor, read_xml, Document, KeyFile, Sentence,
    Split, Token,
};
use wsd::disambig::naive_bayes::{NaiveBayes, NbParams};
use wsd::disambig::{candidates_of, Chain, Disambiguator, FirstSense};
use wsd::eval::{evaluate, score, Input, ScoreReport};
use wsd::wordnet::{Inventory, Pos};

fn semcor_split(split: Split) -> &'static [Document] {
    static TRAIN: OnceLock<Vec<Document>> = OnceLock::new();
    static TEST: OnceLock<Vec<Document>> = OnceLock::new();
    static ALL: OnceLock<Vec<Document>> = OnceLock::new();
    let cell = match split {
        Split::Train => &TRAIN,
        Split::Test => &TEST,
        Split::All => &ALL,
    };
    cell.get_or_init(|| read_semcor(semcor(), split).expect("read SemCor"))
}

/// SemEval-2007 with its gold keys attached.
fn semeval2007() -> &'static (Vec<Document>, KeyFile) {
    static SE07: OnceLock<(Vec<Document>, KeyFile)> = OnceLock::new();
    SE07.get_or_init(|| {
        let dir = semeval();
        let mut docs = read_xml(dir.join("semeval2007.data.xml")).expect("read XML");
        let gold = read_key_file(dir.join("semeval2007.gold.key.txt")).expect("read keys");
        attach_gold(&mut docs, &gold);
        (docs, gold)
    })
}

/// Answers for every target of `docs` from the library's evaluation:
/// `nb,mfs` (`nb = None` gives plain mfs). Also returns how many targets
/// nb itself answered.
fn answer(inv: &Inventory, nb: Option<&NaiveBayes>, docs: &[Document]) -> (KeyFile, usize) {
    let gold = KeyFile::from_documents(docs);
    let ev = match nb {
        Some(m) => {
            let chain = Chain::new(vec![Box::new(m), Box::new(FirstSense)]);
            evaluate(&chain, inv, docs, &gold, Input::Gold, &|_| {})
        }
        None => evaluate(&FirstSense, inv, docs, &gold, Input::Gold, &|_| {}),
    };
    let by_nb = ev.decided_by.get("nb").copied().unwrap_or(0);
    (ev.system, by_nb)
}

fn report(inv: &Inventory, docs: &[Document], gold: &KeyFile, system: &KeyFile) -> ScoreReport {
    let pos = instance_pos(docs);
    score(gold, system, Some(&pos), &|k| inv.has_key(k))
}

fn f1(inv: &Inventory, docs: &[Document], gold: &KeyFile, nb: Option<&NaiveBayes>) -> f64 {
    let (sys, _) = answer(inv, nb, docs);
    report(inv, docs, gold, &sys).overall.f1
}

fn train(docs: &[Document], params: &NbParams) -> NaiveBayes {
    NaiveBayes::train(inventory(), docs, params, &|_, _| {})
}

#[test]
fn nb_with_mfs_backoff_beats_mfs_on_semcor_test_and_semeval2007() {
    let inv = inventory();
    let nb = train(semcor_split(Split::Train), &NbParams::default());
    assert!(nb.lemma_count() > 15_000, "{:?}", nb.facts());
    assert_eq!(nb.facts().skipped_unknown_keys, 0, "{:?}", nb.facts());

    let test = semcor_split(Split::Test);
    let gold = KeyFile::from_documents(test);
    let (mfs, with_nb) = (f1(inv, test, &gold, None), f1(inv, test, &gold, Some(&nb)));
    eprintln!("SemCor test: mfs {mfs:.1}, nb+mfs {with_nb:.1}");
    assert!(
        with_nb > mfs + 0.5,
        "SemCor test: nb+mfs {with_nb:.2} vs mfs {mfs:.2}"
    );

    let (docs, gold) = semeval2007();
    let (mfs, with_nb) = (f1(inv, docs, gold, None), f1(inv, docs, gold, Some(&nb)));
    eprintln!("SemEval-2007: mfs {mfs:.1}, nb+mfs {with_nb:.1}");
    assert!(
        with_nb > mfs,
        "SemEval-2007: nb+mfs {with_nb:.2} vs mfs {mfs:.2}"
    );
}

#[test]
fn nb_answers_only_with_candidate_senses_and_says_so() {
    let inv = inventory();
    let docs = &semcor_split(Split::Train)[..40];
    let nb = train(
        docs,
        &NbParams {
            min_examples: 1,
            ..NbParams::default()
        },
    );
    let (se07, _) = semeval2007();
    let mut answered = 0;
    for d in se07 {
        let cands = candidates_of(inv, d.targets());
        for (c, p) in cands.iter().zip(nb.disambiguate_document(inv, d, &cands)) {
            let (t, cands) = (&c.target, &c.senses);
            if let Some(p) = p {
                answered += 1;
                assert_eq!(p.method, "nb");
                assert!(p.decision.is_decided());
                assert!(cands.len() > 1, "{}: single candidate answered", t.id);
                assert!(cands.iter().any(|c| c.key == p.key), "{}: {}", t.id, p.key);
                assert!(p.score <= 0.0 && p.score.is_finite(), "{}", p.score);
                // The trait's single-target entry point agrees.
                assert_eq!(nb.disambiguate(inv, d, t, cands), Some(p));
            }
        }
    }
    assert!(answered > 100, "{answered}");
}

/// The course notes' worked example with WordNet's real *bass* senses,
/// through `train` and the `Disambiguator` trait: sentence bag only.
#[test]
fn worked_example_with_real_bass_senses() {
    let inv = inventory();
    const FISH: &str = "bass%1:05:00::";
    const GUITAR: &str = "bass%1:06:02::";
    let doc = |id: &str, words: &[&str], gold: Option<&str>| {
        let mut tokens = vec![Token {
            text: "bass".into(),
            lemma: Some("bass".into()),
            tag: Some("NN".into()),
            pos: Some(Pos::Noun),
            instance: Some(format!("{id}.t0")),
            gold: gold.into_iter().map(String::from).collect(),
            ..Token::default()
        }];
        for w in words {
            tokens.push(Token {
                text: w.to_string(),
                lemma: Some(w.to_string()),
                tag: Some("NN".into()),
                pos: Some(Pos::Noun),
                ..Token::default()
            });
        }
        Document {
            id: id.into(),
            sentences: vec![Sentence {
                id: format!("{id}.s1"),
                tokens,
            }],
        }
    };
    let docs = [
        doc("d1", &["line", "fish", "ocean"], Some(FISH)),
        doc("d2", &["jazz", "guitar", "music"], Some(GUITAR)),
        doc("d3", &["fish", "ocean", "water"], Some(FISH)),
        doc("d4", &["line", "water", "fish"], Some(FISH)),
    ];
    let params = NbParams {
        alpha: 1.0,
        min_examples: 1,
        window: 0,
        collocations: false,
        target_form: false,
        ngrams: false,
        sentence_bag: true,
        ..NbParams::default()
    };
    let nb = NaiveBayes::train(inv, &docs, &params, &|_, _| {});
    let d5 = doc("d5", &["line", "guitar", "jazz", "jazz"], None);
    let t = &d5.targets()[0];
    let cands = inv.senses("bass", Pos::Noun);
    assert_eq!(cands.len(), 8);
    let p = nb.disambiguate(inv, &d5, t, cands).unwrap();
    assert_eq!(p.key, GUITAR);
    let (fish, guitar) = (3.43e-5, 2.0e-4);
    let posterior = p.score.exp();
    assert!(
        (posterior - guitar / (fish + guitar)).abs() < 1e-3,
        "{posterior}"
    );
}

#[test]
fn model_files_on_the_real_wordnet() {
    let inv = inventory();
    let docs = &semcor_split(Split::Train)[..20];
    let mut nb = train(docs, &NbParams::default());
    nb.set_split("semcor:first-20");
    let dir = tempdir();
    let path = dir.path().join("nb.model");
    let header = nb.save(&path, inv).unwrap();
    assert_eq!(header.wordnet_sha256, inv.checksum().unwrap());
    assert_eq!(header.params["training"]["documents"], 20);
    assert_eq!(header.params["training"]["split"], "semcor:first-20");
    assert!(header.params["training"]["lemmas"].as_u64().unwrap() > 1000);
    let back = NaiveBayes::load(&path, inv).unwrap();
    assert_eq!(back.to_bytes(), nb.to_bytes());
    let (se07, gold) = semeval2007();
    assert_eq!(
        answer(inv, Some(&back), se07).0,
        answer(inv, Some(&nb), se07).0
    );
    let _ = gold;

    // Built on another WordNet.
    nb.save_with_checksum(&path, &"0".repeat(64)).unwrap();
    let e = NaiveBayes::load(&path, inv).unwrap_err().to_string();
    assert!(e.contains("another WordNet"), "{e}");
    assert!(e.contains("retrain"), "{e}");
}

// ---------------------------------------------------------------------------
// Measurements and tuning (ignored; run in release mode)

fn peak_rss_kb() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn targets_count(docs: &[Document]) -> usize {
    docs.iter().map(|d| d.targets().len()).sum()
}

#[test]
#[ignore = "measurement: run in release mode with --nocapture"]
fn nb_figures() {
    let t0 = Instant::now();
    let inv = inventory();
    eprintln!("WordNet loaded in {:.2}s", t0.elapsed().as_secs_f64());
    let t0 = Instant::now();
    let train_docs = semcor_split(Split::Train);
    let test_docs = semcor_split(Split::Test);
    let all_docs = semcor_split(Split::All);
    eprintln!("SemCor read in {:.2}s", t0.elapsed().as_secs_f64());
    let params = NbParams::default();
    eprintln!("params: {}", serde_json::to_string(&params).unwrap());
    let (se07, se07_gold) = semeval2007();

    let t0 = Instant::now();
    let nb_train = train(train_docs, &params);
    eprintln!(
        "trained on the train split in {:.2}s: {:?}",
        t0.elapsed().as_secs_f64(),
        nb_train.facts()
    );
    let line = |name: &str, docs: &[Document], gold: &KeyFile, nb: &NaiveBayes| {
        let (mfs, _) = answer(inv, None, docs);
        let (sys, by_nb) = answer(inv, Some(nb), docs);
        let rm = report(inv, docs, gold, &mfs);
        let rn = report(inv, docs, gold, &sys);
        let nb_only = evaluate(nb, inv, docs, gold, Input::Gold, &|_| {}).system;
        let ro = report(inv, docs, gold, &nb_only);
        eprintln!(
            "{name:<40} mfs F1 {:5.1} | nb+mfs F1 {:5.1} (nb answered {} of {}) | nb alone P {:5.1} R {:5.1}",
            rm.overall.f1,
            rn.overall.f1,
            by_nb,
            rn.overall.instances,
            ro.overall.precision,
            ro.overall.recall
        );
        let by_pos: HashMap<_, _> = rn.by_pos.iter().map(|(k, v)| (k.clone(), v.f1)).collect();
        let by_pos_mfs: HashMap<_, _> = rm.by_pos.iter().map(|(k, v)| (k.clone(), v.f1)).collect();
        for p in ["n", "v", "a", "r"] {
            if let (Some(a), Some(b)) = (by_pos_mfs.get(p), by_pos.get(p)) {
                eprintln!("    {p}: mfs {a:5.1}  nb+mfs {b:5.1}");
            }
        }
    };
    let test_gold = KeyFile::from_documents(test_docs);
    line(
        "SemCor test (trained on train split)",
        test_docs,
        &test_gold,
        &nb_train,
    );
    line(
        "SemEval-2007 (trained on train split)",
        se07,
        se07_gold,
        &nb_train,
    );

    let t0 = Instant::now();
    let nb_all = train(all_docs, &params);
    let train_s = t0.elapsed().as_secs_f64();
    eprintln!(
        "trained on all of SemCor in {train_s:.2}s: {:?}",
        nb_all.facts()
    );
    line(
        "SemEval-2007 (trained on all of SemCor)",
        se07,
        se07_gold,
        &nb_all,
    );

    let dir = tempdir();
    let path = dir.path().join("nb-all.model");
    let t0 = Instant::now();
    nb_all.save(&path, inv).unwrap();
    let save_s = t0.elapsed().as_secs_f64();
    let size = std::fs::metadata(&path).unwrap().len();
    let t0 = Instant::now();
    let loaded = NaiveBayes::load(&path, inv).unwrap();
    eprintln!(
        "model (all of SemCor): {:.1} MB, saved in {save_s:.2}s, loaded in {:.2}s",
        size as f64 / 1e6,
        t0.elapsed().as_secs_f64()
    );

    // Prediction speed, one thread: every target of the SemCor test split
    // (candidates looked up as the CLI does), repeated; then with every
    // trained lemma answered (min_examples 1), the cost of scoring itself.
    let n = targets_count(test_docs);
    let mut every = loaded.clone();
    every.set_scoring(&NbParams {
        min_examples: 1,
        ..loaded.params().clone()
    });
    for (name, m) in [("defaults", &loaded), ("min_examples 1", &every)] {
        let t0 = Instant::now();
        let mut answered = 0;
        let reps = 3;
        for _ in 0..reps {
            for d in test_docs {
                let ts = candidates_of(inv, d.targets());
                answered += m
                    .disambiguate_document(inv, d, &ts)
                    .iter()
                    .filter(|p| p.is_some())
                    .count();
            }
        }
        let secs = t0.elapsed().as_secs_f64();
        eprintln!(
            "prediction ({name}): {} instances in {secs:.2}s = {:.0} instances/s on one thread ({} answered by nb)",
            n * reps,
            (n * reps) as f64 / secs,
            answered / reps
        );
    }
    if let Some(kb) = peak_rss_kb() {
        eprintln!(
            "peak RSS of this test process: {:.0} MB (WordNet + all SemCor splits + three models)",
            kb as f64 / 1024.0
        );
    }
}

/// What `wsd train --method nb --split all` does, alone in a process, for
/// its peak memory:
/// `/usr/bin/time -f %M cargo test --release --test integration nb_train_all -- --ignored`
#[test]
#[ignore = "measurement: run alone under /usr/bin/time"]
fn nb_train_all() {
    let inv = inventory();
    let docs = read_semcor(semcor(), Split::All).unwrap();
    let t0 = Instant::now();
    let mut nb = train(&docs, &NbParams::default());
    nb.set_split("semcor:all");
    eprintln!("trained in {:.2}s", t0.elapsed().as_secs_f64());
    let dir = tempdir();
    nb.save(&dir.path().join("nb.model"), inv).unwrap();
    if let Some(kb) = peak_rss_kb() {
        eprintln!("peak RSS {:.0} MB", kb as f64 / 1024.0);
    }
}

/// A tuning grid: feature configurations (each trained once per fold) and
/// scoring configurations (applied to every trained model). Partial
/// `NbParams` JSON objects; missing fields take the defaults.
#[derive(serde::Deserialize)]
struct Grid {
    features: Vec<serde_json::Value>,
    scoring: Vec<serde_json::Value>,
}

fn default_grid() -> Grid {
    serde_json::from_str(
        r#"{
        "features": [{}, {"sentence_bag": true}],
        "scoring": [
            {"alpha": 0.5, "min_examples": 1}, {"alpha": 1.0, "min_examples": 1},
            {"alpha": 0.5, "min_examples": 20}, {"alpha": 1.0, "min_examples": 20},
            {"alpha": 0.5, "min_examples": 30}, {"alpha": 1.0, "min_examples": 30},
            {"alpha": 0.5, "min_examples": 40}, {"alpha": 1.0, "min_examples": 40},
            {"alpha": 0.5, "min_examples": 50}, {"alpha": 1.0, "min_examples": 50}
        ]
    }"#,
    )
    .unwrap()
}

fn params_from(base: &NbParams, v: &serde_json::Value) -> NbParams {
    let mut obj = serde_json::to_value(base).unwrap();
    merge(&mut obj, v);
    serde_json::from_value(obj).expect("grid entry is NbParams")
}

fn merge(a: &mut serde_json::Value, b: &serde_json::Value) {
    match (a, b) {
        (serde_json::Value::Object(a), serde_json::Value::Object(b)) => {
            for (k, v) in b {
                merge(a.entry(k.clone()).or_insert(serde_json::Value::Null), v);
            }
        }
        (a, b) => *a = b.clone(),
    }
}

#[test]
#[ignore = "tuning: run in release mode with --nocapture"]
fn nb_tune() {
    let inv = inventory();
    let grid = match std::env::var("WSD_NB_TUNE") {
        Ok(p) => serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap(),
        Err(_) => default_grid(),
    };
    let train_docs = semcor_split(Split::Train);
    let (se07, se07_gold) = semeval2007();
    const K: usize = 5;
    let folds: Vec<(Vec<Document>, Vec<Document>)> = (0..K)
        .map(|k| {
            let (held, rest): (Vec<_>, Vec<_>) =
                train_docs.iter().enumerate().partition(|(i, _)| i % K == k);
            (
                rest.into_iter().map(|(_, d)| d.clone()).collect(),
                held.into_iter().map(|(_, d)| d.clone()).collect(),
            )
        })
        .collect();
    let held_all: Vec<Document> = folds.iter().flat_map(|f| f.1.iter().cloned()).collect();
    let cv_gold = KeyFile::from_documents(&held_all);
    // mfs baselines.
    {
        let mut sys = KeyFile::new();
        for (_, held) in &folds {
            for (id, k) in answer(inv, None, held).0.iter() {
                sys.insert(id, k.to_vec());
            }
        }
        let cv = report(inv, &held_all, &cv_gold, &sys).overall.f1;
        let se = f1(inv, se07, se07_gold, None);
        eprintln!("mfs: CV {cv:.2}  SE07 {se:.2}");
    }
    for fv in &grid.features {
        let fp = params_from(&NbParams::default(), fv);
        let t0 = Instant::now();
        let mut fold_models: Vec<NaiveBayes> = folds.iter().map(|(tr, _)| train(tr, &fp)).collect();
        // SemEval-2007 is scored with a model trained on the train split,
        // or on all of SemCor with WSD_NB_TUNE_ALL=1.
        let full_docs = match std::env::var("WSD_NB_TUNE_ALL").as_deref() {
            Ok("1") => semcor_split(Split::All),
            _ => train_docs,
        };
        let mut full = train(full_docs, &fp);
        eprintln!(
            "features {fv}: trained 6 models in {:.1}s",
            t0.elapsed().as_secs_f64()
        );
        for sv in &grid.scoring {
            let sp = params_from(&fp, sv);
            let mut sys = KeyFile::new();
            for ((_, held), m) in folds.iter().zip(fold_models.iter_mut()) {
                m.set_scoring(&sp);
                for (id, k) in answer(inv, Some(m), held).0.iter() {
                    sys.insert(id, k.to_vec());
                }
            }
            let cv = report(inv, &held_all, &cv_gold, &sys).overall.f1;
            full.set_scoring(&sp);
            let se = f1(inv, se07, se07_gold, Some(&full));
            eprintln!("  {fv} {sv}: CV {cv:.2}  SE07 {se:.2}");
        }
    }
}

#[test]
fn cli_train_eval_and_damaged_models() {
    let tmp = tempdir();
    let model = tmp.path().join("nb.wsd");
    let sc = semcor();
    ok(wsd()
        .args(["train", "--method", "nb", "--split", "train", "--out"])
        .arg(&model)
        .arg("--semcor")
        .arg(&sc));
    let d = semeval();
    let eval = |m: &std::path::Path| {
        let mut c = wsd();
        c.args(["eval", "--method", "nb,mfs", "--format", "json", "--model"])
            .arg(m)
            .arg("--xml")
            .arg(d.join("semeval2007.data.xml"))
            .arg("--gold")
            .arg(d.join("semeval2007.gold.key.txt"));
        c
    };
    let v: serde_json::Value = serde_json::from_str(&ok(&mut eval(&model))).unwrap();
    assert_eq!(v["answered"], 455);
    assert!(v["decided_by"]["nb"].as_u64().unwrap() > 100, "{v}");
    // A truncated copy, and a model of another method, are refused.
    let bytes = std::fs::read(&model).unwrap();
    let cut = tmp.path().join("cut.wsd");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let se = fails(&mut eval(&cut));
    assert!(se.contains("truncated"), "{se}");
    let pos = pos_model();
    let se = fails(&mut eval(&pos));
    assert!(se.contains("a model of method pos, not nb"), "{se}");
    // Killing a training run leaves the previous model intact.
    let before = std::fs::read(&model).unwrap();
    for delay_ms in [50u64, 300, 700] {
        let mut child = wsd()
            .args([
                "train", "--method", "nb", "--split", "all", "--quiet", "--out",
            ])
            .arg(&model)
            .arg("--semcor")
            .arg(&sc)
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        let now = std::fs::read(&model).unwrap();
        // Either the old model or a complete new one — never half of one.
        if now != before {
            let v: serde_json::Value = serde_json::from_str(&ok(&mut eval(&model))).unwrap();
            assert_eq!(v["answered"], 455);
        }
        let v: serde_json::Value = serde_json::from_str(&ok(&mut eval(&model))).unwrap();
        assert_eq!(v["answered"], 455);
    }
}

/// Scoring a data set with a model trained on it warns, on stderr and
/// even with `-q`, naming the model and its training data: the first 5
/// documents of all of SemCor hold its first test document, the first 4
/// none; SemEval-2007 is in neither. `wsd compare` and `wsd errors` warn
/// alike.
#[test]
fn scoring_a_models_own_training_data_warns() {
    let dir = tempdir();
    let train = |n: &str| {
        let p = dir.path().join(format!("nb-all-{n}.wsd"));
        ok(wsd()
            .args(["-q", "train", "--method", "nb", "--split", "all"])
            .args(["--limit-docs", n, "--output"])
            .arg(&p));
        p
    };
    let (five, four) = (train("5"), train("4"));
    let stderr = |cmd: &str, model: &std::path::Path, data: &[String]| -> String {
        let (out, _, err) = run(wsd()
            .args(["-q", cmd, "--method", "nb,mfs", "--model"])
            .arg(model)
            .args(data));
        assert!(out.status.success(), "{err}");
        err
    };
    let test = vec![
        "--semcor".to_string(),
        semcor().display().to_string(),
        "--split".into(),
        "test".into(),
    ];
    for cmd in ["eval", "compare", "errors"] {
        let err = stderr(cmd, &five, &test);
        assert_eq!(err.matches("warning").count(), 1, "{cmd}: {err}");
        assert!(
            err.contains("nb-all-5.wsd was trained on semcor:all:first-5")
                && err.contains("SemCor's test split")
                && err.contains("in-sample"),
            "{cmd}: {err}"
        );
        assert!(!stderr(cmd, &four, &test).contains("warning"), "{cmd}");
        assert!(
            !stderr(cmd, &five, &semeval_args()).contains("warning"),
            "{cmd}"
        );
    }
}
