//! `ens`, the learned combination, through the binary: trained on the
//! small SemCor slice of the knn tests (two documents, no glosses) with an
//! nb model of the same documents, then evaluated, chained, explained, and
//! refused without its base models or with a corrupted file.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::knn::{slice_model, train_knn};
use crate::util::*;

/// The nb model of the slice's two documents.
fn slice_nb() -> PathBuf {
    static MODEL: OnceLock<PathBuf> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let p = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("nb-slice-2.wsd");
            ok(wsd()
                .args([
                    "-q",
                    "train",
                    "--method",
                    "nb",
                    "--limit-docs",
                    "2",
                    "--output",
                ])
                .arg(&p));
            p
        })
        .clone()
}

/// The ens model of the slice (every document encoded), and the training
/// run's stderr.
fn slice_ens() -> &'static (PathBuf, String) {
    static MODEL: OnceLock<(PathBuf, String)> = OnceLock::new();
    MODEL.get_or_init(|| train_slice_ens("ens-slice.wsd", &[]))
}

/// Trains ens on the slice's first two documents (every one sampled) with
/// `extra` options into `name` under the test directory; the path and the
/// run's stderr.
fn train_slice_ens(name: &str, extra: &[&str]) -> (PathBuf, String) {
    let p = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let mut args = vec!["--ens-sample", "1"];
    args.extend_from_slice(extra);
    let err = train_ens(&slice_model(), &p, &args);
    (p, err)
}

/// Trains ens on the first two documents with the knn model `knn` and
/// `extra` options into `output`; the run's stderr (it must succeed).
fn train_ens(knn: &Path, output: &Path, extra: &[&str]) -> String {
    let (out, _, err) = run(wsd()
        .args(["train", "--method", "ens", "--limit-docs", "2"])
        .args(extra)
        .arg("--model")
        .arg(knn)
        .arg("--output")
        .arg(output));
    assert!(out.status.success(), "{err}");
    err
}

/// The weights a training report prints for the features starting with
/// `prefix`.
fn weights(report: &str, prefix: &str) -> Vec<f64> {
    report
        .lines()
        .filter(|l| l.starts_with(prefix))
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect()
}

/// `wsd -q eval --method ens,mfs` on SemEval-2007 with the slice's nb
/// model and the given knn and ens models.
fn eval_stack(knn: &Path, ens: &Path) -> Command {
    let mut c = wsd();
    c.args(["-q", "eval", "--method", "ens,mfs"])
        .arg("--model")
        .arg(knn)
        .arg("--model")
        .arg(slice_nb())
        .arg("--model")
        .arg(ens)
        .args(semeval_args());
    c
}

/// How many SemEval-2007 instances the stack of [`eval_stack`] answers.
fn answered(knn: &Path, ens: &Path) -> serde_json::Value {
    let out = ok(eval_stack(knn, ens).args(["--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v["answered"].clone()
}

fn models() -> Vec<PathBuf> {
    vec![slice_model(), slice_nb(), slice_ens().0.clone()]
}

fn with_models(cmd: &mut std::process::Command) -> &mut std::process::Command {
    for m in models() {
        cmd.arg("--model").arg(m);
    }
    cmd
}

#[test]
fn training_prints_the_weights_and_the_cross_validation() {
    let (path, err) = slice_ens();
    assert!(path.exists());
    assert!(err.contains("cross-validated accuracy at L2"), "{err}");
    for f in ["knn.score", "nb.logpost", "lesk.overlap", "prior.logshare"] {
        assert!(
            err.lines().any(|l| l.starts_with(f)),
            "no weight line for {f}:\n{err}"
        );
    }
    assert!(err.contains("Naive Bayes cross-fitted"), "{err}");
    // the boosted trees: cross-validated with the regression, and what
    // they split on
    assert!(err.contains("with 300 trees of depth 4"), "{err}");
    assert!(err.contains("300 trees; splits per feature: "), "{err}");
    // the per-POS table: a line per part of speech seen, and the total
    assert!(err.contains("cross-validated accuracy per POS"), "{err}");
    for p in ["noun", "verb", "all"] {
        assert!(
            err.lines()
                .any(|l| l.trim_start().starts_with(p) && l.contains('%')),
            "no per-POS line for {p}:\n{err}"
        );
    }
}

#[test]
fn object_features_are_learned_stored_and_read_back() {
    let (p, err) = train_slice_ens("ens-slice-objects.wsd", &["--ens-objects"]);
    // learned: the weight lines are there, not all zero
    let w = weights(&err, "obj.");
    assert_eq!(w.len(), 2, "{err}");
    assert!(w.iter().any(|x| *x != 0.0), "{err}");
    // the model (with its object counts) loads and answers
    assert_eq!(answered(&slice_model(), &p), 455);
}

#[test]
fn ens_chains_and_answers_every_semeval_instance() {
    let out = ok(with_models(
        wsd().args(["-q", "eval", "--method", "ens,mfs", "--format", "json"]),
    )
    .args(semeval_args()));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["answered"], 455, "{v}");
    // two training documents: far from the real thing, but no noise
    // (random choice among the candidates scores about 30 here)
    let f1 = v["f1"].as_f64().unwrap();
    assert!(f1 > 40.0, "F1 {f1}");
    let by: &serde_json::Value = &v["decided_by"];
    assert!(by.to_string().contains("ens"), "{v}");
}

#[test]
fn tag_explains_each_features_share_against_the_runner_up() {
    let mut cmd = tag();
    cmd.args(["-q", "--method", "ens", "--explain", "--format", "jsonl"]);
    let (code, out, err) = run_stdin(
        with_models(&mut cmd),
        b"He sat on the bank of the river and watched the water.",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"method\":\"ens\""), "{out}");
    assert!(out.contains("\"kind\":\"features\""), "{out}");
    assert!(out.contains("\"against\""), "{out}");
}

#[test]
fn ens_without_its_base_models_says_what_is_missing() {
    let home = tempdir();
    let err = fails(
        wsd()
            .env("WSD_HOME", home.path())
            .current_dir(home.path())
            .args(["eval", "--method", "ens", "--wordnet"])
            .arg(dict())
            .arg("--model")
            .arg(&slice_ens().0)
            .args(semeval_args()),
    );
    assert!(err.contains("knn model (needed by ens)"), "{err}");
}

#[test]
fn a_corrupted_ens_model_is_refused() {
    let dir = tempdir();
    let bad = dir.path().join("ens.wsd");
    let mut bytes = std::fs::read(&slice_ens().0).unwrap();
    let n = bytes.len();
    bytes[n - 3] ^= 0xff;
    std::fs::write(&bad, bytes).unwrap();
    let err = fails(
        wsd()
            .args(["eval", "--method", "ens", "--model"])
            .arg(slice_model())
            .arg("--model")
            .arg(slice_nb())
            .arg("--model")
            .arg(&bad)
            .arg("--semcor")
            .arg(semcor())
            .args(["--split", "test"]),
    );
    assert!(err.contains("checksum") && err.contains("ens.wsd"), "{err}");
}

#[test]
fn ens_refuses_a_knn_model_of_other_documents() {
    let dir = tempdir();
    let err = fails(
        wsd()
            .args(["train", "--method", "ens", "--limit-docs", "3", "--model"])
            .arg(slice_model())
            .arg("--output")
            .arg(dir.path().join("e.wsd")),
    );
    assert!(err.contains("knn model's own training documents"), "{err}");
    assert!(!dir.path().join("e.wsd").exists());
}

#[test]
fn tag_defaults_to_ens_when_it_and_its_base_models_are_at_hand() {
    // In an empty data home, so that no other model is found by default.
    let home = tempdir();
    let tag_here = || {
        let mut c = tag();
        c.env("WSD_HOME", home.path())
            .current_dir(home.path())
            .arg("--wordnet")
            .arg(dict())
            .arg("--encoder")
            .arg(root().join("models/all-MiniLM-L6-v2"));
        c
    };
    let mut cmd = tag_here();
    let (code, _, err) = run_stdin(with_models(&mut cmd), b"He sat on the bank.");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("wsd: method ens,knn,nb,lesk-ext"), "{err}");
    // Without the knn model ens cannot run: the default leaves it out.
    let mut cmd = tag_here();
    cmd.arg("--model")
        .arg(slice_nb())
        .arg("--model")
        .arg(&slice_ens().0);
    let (code, _, err) = run_stdin(&mut cmd, b"He sat on the bank.");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("wsd: method nb,lesk-ext"), "{err}");
}

/// ens's answers are calibrated by the map its training fitted on the
/// cross-validated answers (stored in the model header).
#[test]
fn ens_probabilities_are_calibrated_by_the_model() {
    let h = wsd::model_io::read_header(&slice_ens().0).unwrap();
    let blocks = h.params["calibration"].as_array().expect("a map");
    assert!(!blocks.is_empty(), "{h:?}");
    let out = ok(with_models(wsd().args([
        "-q",
        "eval",
        "--method",
        "ens",
        "--calibration",
        "--format",
        "json",
    ]))
    .args(semeval_args()));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let cal = &v["calibration"];
    assert_eq!(cal["uncalibrated"], 0, "{cal}");
    assert!(cal["calibrated"].as_u64().unwrap() > 400, "{cal}");
}

/// An ens model records the encoder precision its kNN features were
/// computed with: without `--encoder-precision` tagging runs the encoder
/// in it (the same scores as asking for it, other scores than f32's), and
/// another precision given is warned about by name.
#[test]
fn ens_runs_the_encoder_in_the_precision_it_was_fitted_with() {
    let (p, _) = train_slice_ens("ens-slice-int8.wsd", &["--encoder-precision", "int8"]);
    let text = b"He sat on the bank of the river. The bank raised its rates.\n";
    let tag_with = |extra: &[&str]| -> (Vec<String>, String) {
        let mut cmd = tag();
        cmd.args(["--method", "ens,mfs", "--format", "jsonl"])
            .args(extra);
        for m in [slice_model(), slice_nb(), p.clone()] {
            cmd.arg("--model").arg(m);
        }
        let (code, out, err) = run_stdin(&mut cmd, text);
        assert_eq!(code, 0, "{err}");
        let mut scores = Vec::new();
        for l in out.lines() {
            let s: serde_json::Value = serde_json::from_str(l).unwrap();
            for t in s["tokens"].as_array().unwrap() {
                if t["method"] == "ens" {
                    scores.push(format!("{} {} {}", t["text"], t["sense"], t["score"]));
                }
            }
        }
        (scores, err)
    };
    let (picked, e_picked) = tag_with(&[]);
    let (int8, e_int8) = tag_with(&["--encoder-precision", "int8"]);
    let (f32, e_f32) = tag_with(&["--encoder-precision", "f32"]);
    assert!(!picked.is_empty(), "{e_picked}");
    assert_eq!(picked, int8);
    assert_ne!(picked, f32, "f32 vectors changed no ens score");
    for e in [&e_picked, &e_int8] {
        assert!(!e.contains("fitted on"), "{e}");
    }
    assert!(
        e_f32.contains("ens-slice-int8.wsd")
            && e_f32.contains("fitted on int8")
            && e_f32.contains("runs in f32"),
        "{e_f32}"
    );
}

/// With a knn model that kept its training instances (`--keep-instances`),
/// ens learns the nearest-instance features (leaving each training
/// document's own instances out), and the model is refused with a knn
/// model that kept none.
#[test]
fn nearest_instance_features_are_learned_and_need_their_instances() {
    let dir = tempdir();
    let knn = dir.path().join("knn-inst.wsd");
    train_knn(&knn, "2", &["--gloss", "none", "--keep-instances"]);
    let ens = dir.path().join("ens-inst.wsd");
    let err = train_ens(&knn, &ens, &[]);
    let w = weights(&err, "knn.nearest");
    assert_eq!(w.len(), 4, "{err}");
    assert!(w.iter().any(|x| *x != 0.0), "{err}");
    // with its own knn model it answers every instance
    assert_eq!(answered(&knn, &ens), 455);
    // with the same documents' knn model without instances: refused
    let err = fails(&mut eval_stack(&slice_model(), &ens));
    assert!(
        err.contains("kept") && err.contains("--keep-instances"),
        "{err}"
    );
    // trained without those features, it needs no instances
    let plain = dir.path().join("ens-without.wsd");
    let without = wsd::disambig::ens::NEAREST_FEATURES.join(",");
    let err = train_ens(&knn, &plain, &["--ens-without", &without]);
    assert!(
        err.lines()
            .filter(|l| l.starts_with("knn.nearest"))
            .all(|l| l.split_whitespace().nth(1) == Some("+0.000")),
        "{err}"
    );
    assert_eq!(answered(&slice_model(), &plain), 455);
}

/// The sentence features (each candidate's gloss vector against the mean
/// vector of the target's whole sentence) are learned by default from a
/// knn model with gloss vectors, and left out on request; either model
/// answers every instance.
#[test]
fn sentence_features_are_learned_by_default_and_can_be_left_out() {
    let dir = tempdir();
    let knn = dir.path().join("knn-lemmas.wsd");
    train_knn(&knn, "2", &["--gloss", "lemmas"]);
    let ens = dir.path().join("ens-sentence.wsd");
    let err = train_ens(&knn, &ens, &[]);
    let w = weights(&err, "knn.sent");
    assert_eq!(w.len(), 2, "{err}");
    assert!(w.iter().all(|x| *x != 0.0), "{err}");
    assert_eq!(answered(&knn, &ens), 455);
    let plain = dir.path().join("ens-no-sentence.wsd");
    let without = wsd::disambig::ens::SENTENCE_FEATURES.join(",");
    let err = train_ens(&knn, &plain, &["--ens-without", &without]);
    assert_eq!(weights(&err, "knn.sent"), vec![0.0, 0.0], "{err}");
    assert_eq!(answered(&knn, &plain), 455);
}

/// For an ens model with sentence features the front end leaves every
/// token its sentence's mean vector, so the sentence is encoded once; it
/// must be the vector knn computes from the tokens itself.
#[test]
fn the_sentence_vector_the_front_end_carries_is_the_one_knn_computes() {
    use crate::knn::encoder_dir;
    use wsd::disambig::knn::{Knn, KnnOptions};
    use wsd::encoder::{Encoder, Precision};
    let encoder =
        std::sync::Arc::new(Encoder::load_with_precision(&encoder_dir(), Precision::F32).unwrap());
    let knn = Knn::load(
        &slice_model(),
        inventory(),
        encoder.clone(),
        KnnOptions::default(),
    )
    .unwrap();
    let (tagger, mwe) = tagger_and_matcher();
    let pipeline = probe_pipeline(&tagger, &mwe, &encoder, true);
    let doc = pipeline.analyse(
        "d",
        "The meeting took place in New York last week. The workshop will begin at ten.",
        0,
        0,
    );
    // each sentence's mean, as ens asks for it with its targets
    let means = |doc: &wsd::corpus::Document| -> Vec<Option<Vec<f32>>> {
        let targets = wsd::disambig::candidates_of(inventory(), doc.targets());
        let (_, sentences) = knn.target_and_sentence_vectors(doc, &targets, true);
        (0..doc.sentences.len())
            .map(|s| {
                let t = targets.iter().position(|c| c.target.sentence == s)?;
                sentences[t].clone()
            })
            .collect()
    };
    assert_eq!(doc.sentences.len(), 2);
    let carried = means(&doc);
    let mut bare = doc.clone();
    for t in bare.sentences.iter_mut().flat_map(|s| s.tokens.iter_mut()) {
        assert!(t.sentence_vector.is_some(), "{} carries none", t.text);
        t.sentence_vector = None;
    }
    let computed = means(&bare);
    for (s, (c, o)) in carried.iter().zip(&computed).enumerate() {
        let (c, o) = (c.as_ref().unwrap(), o.as_ref().unwrap());
        let on_token = &doc.sentences[s].tokens[0]
            .sentence_vector
            .as_ref()
            .unwrap()
            .values;
        assert_eq!(
            &c[..],
            &on_token[..],
            "sentence {s}: not the carried vector"
        );
        let cos: f32 = c.iter().zip(o).map(|(a, b)| a * b).sum();
        assert!(cos > 0.9999, "sentence {s}: cosine {cos}");
    }
    // without keep_sentences nothing is carried
    let pipeline = pipeline_by_hand(&tagger, &mwe, None);
    let doc = pipeline.analyse("d", "The meeting took place.", 0, 0);
    assert!(doc.sentences[0]
        .tokens
        .iter()
        .all(|t| t.sentence_vector.is_none()));
}

/// A feature name `--ens-without` or `--ens-linear` does not know is
/// refused before anything is encoded, naming the option and the
/// features there are; nothing is written.
#[test]
fn unknown_feature_names_are_refused_before_training() {
    let dir = tempdir();
    let output = dir.path().join("ens.wsd");
    for option in ["--ens-without", "--ens-linear"] {
        let err = fails(
            wsd()
                .args(["train", "--method", "ens", "--limit-docs", "2"])
                .args([option, "knn.sent,knn.sentence"])
                .arg("--model")
                .arg(slice_model())
                .arg("--output")
                .arg(&output),
        );
        assert!(
            err.contains(option) && err.contains("knn.sentence") && err.contains("knn.sent_gap"),
            "{err}"
        );
        assert!(!err.contains("sentences of the sampled documents"), "{err}");
        assert!(!output.exists());
    }
}

/// `wsd compare` scores each method as `wsd eval` scores it alone, with
/// gold input and `--raw`: each method reads the plain text with the
/// category probe `eval --raw` gives it (on for knn and ens) and runs the
/// encoder in its own precision (ens's model's beside knn's int8),
/// whatever else is compared. Before, `compare --raw` ran no probe, and a
/// knn compared after ens ran in ens's precision.
#[test]
fn compare_scores_each_method_as_eval_does() {
    let methods = ["ens,mfs", "knn,mfs", "mfs"];
    for raw in [false, true] {
        let mut cmd = wsd();
        cmd.args(["-q", "compare", "--format", "json"]);
        for m in methods {
            cmd.args(["--method", m]);
        }
        if raw {
            cmd.arg("--raw");
        }
        let out = ok(with_models(&mut cmd).args(semeval_args()));
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        for (i, m) in methods.iter().enumerate() {
            let mut e = wsd();
            e.args(["-q", "eval", "--method", m, "--format", "json"]);
            if raw {
                e.arg("--raw");
            }
            let out = ok(with_models(&mut e).args(semeval_args()));
            let alone: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert!(alone["f1"].is_number(), "{alone}");
            let compared = &v["methods"][i]["overall"];
            assert_eq!(compared["f1"], alone["f1"], "{m} raw {raw}: {compared}");
            assert_eq!(compared["correct"], alone["correct"], "{m} raw {raw}");
        }
    }
}
