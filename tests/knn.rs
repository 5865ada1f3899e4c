//! kNN over encoder vectors and `wsd embed`, through the binary: a model
//! trained on a small SemCor slice (two documents, no glosses: quick on two
//! cores), evaluation with back-off, refused models, the embed output.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::util::*;

pub(crate) fn encoder_dir() -> PathBuf {
    let p = root().join("models/all-MiniLM-L6-v2");
    assert!(
        p.join("model.safetensors").exists(),
        "{} is missing: run scripts/fetch-model.sh (or scripts/test.sh) first",
        p.display()
    );
    p
}

/// Trains a knn model on the first `docs` documents of SemCor's train
/// split with `options` into `output` (the run must succeed).
pub(crate) fn train_knn(output: &Path, docs: &str, options: &[&str]) {
    ok(wsd()
        .args(["-q", "train", "--method", "knn", "--split", "train"])
        .args(["--limit-docs", docs])
        .args(options)
        .arg("--output")
        .arg(output));
}

/// The slice model, trained once per test run.
pub(crate) fn slice_model() -> PathBuf {
    static MODEL: OnceLock<PathBuf> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            encoder_dir();
            semcor();
            let p = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("knn-slice.wsd");
            train_knn(&p, "2", &["--gloss", "none"]);
            assert!(p.exists());
            p
        })
        .clone()
}

fn eval_json(method: &str, extra: &[&str]) -> serde_json::Value {
    let out = ok(wsd()
        .args([
            "-q", "eval", "--method", method, "--format", "json", "--model",
        ])
        .arg(slice_model())
        .args(extra)
        .args(semeval_args()));
    serde_json::from_str(&out).unwrap()
}

#[test]
fn knn_with_backoff_answers_every_semeval_instance() {
    let v = eval_json("knn,mfs", &[]);
    assert_eq!(v["instances"], 455, "{v}");
    assert_eq!(v["answered"], 455, "{v}");
    let f1 = v["f1"].as_f64().unwrap();
    // two documents of SemCor: far from the full model, but it is a real
    // disambiguator, not noise
    assert!(f1 > 35.0, "F1 {f1}");
    // knn alone answers wherever a candidate has a (propagated) vector
    let alone = eval_json("knn", &[]);
    assert!(alone["answered"].as_u64().unwrap() > 400, "{alone}");
    // without propagation only seen synsets compete: it abstains more
    let strict = eval_json("knn", &["--no-propagation"]);
    assert!(
        strict["answered"].as_u64().unwrap() < alone["answered"].as_u64().unwrap(),
        "{strict}"
    );
}

#[test]
fn wrong_method_truncated_missing_encoder_and_wrong_width_are_refused() {
    let dir = tempdir();
    let inv = inventory();
    // a model of another method
    let nb = dir.path().join("nb.wsd");
    wsd::model_io::write_model(
        &nb,
        "nb",
        inv.checksum().unwrap(),
        serde_json::json!({}),
        b"body",
    )
    .unwrap();
    let err = fails(
        wsd()
            .args(["eval", "--method", "knn", "--model"])
            .arg(&nb)
            .args(semeval_args()),
    );
    assert!(err.contains("a model of method nb, not knn"), "{err}");
    // truncated
    let bytes = std::fs::read(slice_model()).unwrap();
    let cut = dir.path().join("cut.wsd");
    std::fs::write(&cut, &bytes[..bytes.len() - 1000]).unwrap();
    let err = fails(
        wsd()
            .args(["eval", "--method", "knn", "--model"])
            .arg(&cut)
            .args(semeval_args()),
    );
    assert!(err.contains("truncated"), "{err}");
    // missing encoder folder
    let err = fails(
        wsd()
            .args([
                "eval",
                "--method",
                "knn,mfs",
                "--encoder",
                "/nonexistent/enc",
            ])
            .arg("--model")
            .arg(slice_model())
            .args(semeval_args()),
    );
    assert!(err.contains("model folder not found"), "{err}");
    // a model of 8-dimensional vectors against the 384-wide encoder
    use wsd::disambig::knn::{Entry, GlossPooling, GlossScope, KnnModel, KnnParams};
    let sense = &inv.senses("bank", wsd::wordnet::Pos::Noun)[0];
    let narrow = KnnModel {
        params: KnnParams {
            encoder: "elsewhere".into(),
            hidden_size: 8,
            layers: "last".into(),
            pooled_layers: 1,
            examples: false,
            example_contexts: 0,
            example_synsets: 0,
            monosemous: 0,
            monosemous_contexts: 0,
            monosemous_synsets: 0,
            gloss: GlossScope::None,
            gloss_pooling: GlossPooling::Mean,
            keep_instances: false,
            documents: 0,
            sentences: 0,
            tagged_tokens: 0,
            encoder_fingerprint: String::new(),
            sense_min: 0,
            sense_vectors: 0,
            exemplars: 0,
            training_data: String::new(),
            gloss_xml: vec![],
        },
        dim: 8,
        entries: vec![Entry {
            synset: sense.synset,
            count: 1,
            ctx: Some(vec![0.5; 8]),
            gloss: None,
            exemplars: vec![],
            resultant: Some(1.0),
        }],
        senses: vec![],
        instances: vec![],
        instance_sentences: vec![],
        instance_docs: Vec::new(),
        sentences: vec![],
        calibration: None,
    };
    let p8 = dir.path().join("narrow.wsd");
    narrow.save(&p8, inv).unwrap();
    let err = fails(
        wsd()
            .args(["eval", "--method", "knn", "--model"])
            .arg(&p8)
            .args(semeval_args()),
    );
    assert!(
        err.contains("384-dimensional") && err.contains("8-dimensional"),
        "{err}"
    );
}

#[test]
fn embed_prints_one_vector_per_token() {
    encoder_dir();
    let text = "The bank raised its rates. He sat on the river bank.\n";
    let (code, out, err) = run_stdin(wsd().args(["embed", "-"]), text.as_bytes());
    assert_eq!(code, 0, "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{out}");
    let expected = wsd::text::split_sentences(text);
    for (n, (line, sent)) in lines.iter().zip(&expected).enumerate() {
        assert_eq!(line["sentence"], n);
        let toks = line["tokens"].as_array().unwrap();
        assert_eq!(toks.len(), sent.len());
        for (t, raw) in toks.iter().zip(sent) {
            assert_eq!(t["text"], raw.text.as_str());
            assert_eq!(t["start"], raw.start);
            assert_eq!(t["end"], raw.end);
            assert_eq!(t["vector"].as_array().unwrap().len(), 384);
        }
    }
    // the two "bank"s differ: the vectors are contextual
    let bank = |l: &serde_json::Value| -> Vec<f64> {
        let toks = l["tokens"].as_array().unwrap();
        let t = toks.iter().find(|t| t["text"] == "bank").unwrap();
        t["vector"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    assert_ne!(bank(&lines[0]), bank(&lines[1]));
    assert!(!err.contains("warning"), "{err}");
    let err = fails(wsd().args(["embed", "--model", "/nonexistent/enc", "-"]));
    assert!(err.contains("model folder not found"), "{err}");
}

/// A sentence of more word pieces than the encoder's 510 is encoded in
/// windows: said once per run (with -q too), with a count, not silently.
#[test]
fn embed_warns_once_about_windowed_sentences() {
    encoder_dir();
    // 600 words and a period: wsd embed hands the encoder 512 words (512
    // pieces: windowed), then 89; and a short sentence (not windowed)
    let text = "bank ".repeat(600) + ".\nThe bank raised its rates.\n";
    let (code, out, err) = run_stdin(wsd().args(["-q", "embed", "-"]), text.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 2, "{err}");
    assert_eq!(
        err.trim_end(),
        "wsd: warning: 1 sentence(s) longer than the encoder's 510 word pieces (the longest: 512) were encoded in consecutive windows of at most 510 pieces; words near a window's edge saw less of their sentence"
    );
}

#[test]
fn tag_with_knn_and_backoff() {
    let (code, out, err) = run_stdin(
        tag()
            .args(["--method", "knn,mfs", "--model"])
            .arg(slice_model()),
        b"The river bank was muddy. The bank raised its rates.\n",
    );
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect();
    assert!(rows.iter().filter(|r| r[5] == "bank").count() == 2, "{out}");
    assert!(rows.iter().any(|r| r[9] == "knn"), "{out}");
    assert!(!err.contains("windows"), "{err}");
    // a sentence of 600 pieces: encoded in windows, and stderr says so once
    let long = "the bank ".repeat(300) + ".\n";
    let (code, _, err) = run_stdin(
        tag()
            .args(["-q", "--method", "knn,mfs", "--model"])
            .arg(slice_model()),
        long.as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.matches("warning").count(), 1, "{err}");
    assert!(
        err.contains("wsd: warning: 1 sentence(s) longer than the encoder's 510 word pieces (the longest: 601)"),
        "{err}"
    );
}

#[test]
fn instance_vectors_vote_with_k() {
    let dir = tempdir();
    let p = dir.path().join("inst.wsd");
    ok(wsd()
        .args([
            "-q",
            "train",
            "--method",
            "knn",
            "--limit-docs",
            "1",
            "--gloss",
            "none",
            "--keep-instances",
            "--out",
        ])
        .arg(&p));
    let eval = |k: &str| -> serde_json::Value {
        let out = ok(wsd()
            .args(["-q", "eval", "--method", "knn,mfs", "--format", "json"])
            .args(["--k", k, "--model"])
            .arg(&p)
            .args(semeval_args()));
        serde_json::from_str(&out).unwrap()
    };
    let (one, five) = (eval("1"), eval("5"));
    assert_eq!(five["answered"], 455, "{five}");
    assert_eq!(one["answered"], 455, "{one}");
    // one document's instance vectors (~1,000 × 384 f32) are in the body
    let with = std::fs::metadata(&p).unwrap().len();
    assert!(with > 1_000_000, "{with} bytes");
}

#[test]
fn example_sentences_become_tagged_contexts() {
    use wsd::disambig::knn::example_contexts;
    let inv = inventory();
    let key = |k: &str| inv.sense_by_key(k).unwrap().0;
    // bank.n.02: both examples hold "bank"
    let bank = example_contexts(inv, key("bank%1:14:00::"));
    assert_eq!(bank.len(), 2, "{bank:?}");
    for c in &bank {
        assert_eq!(c.words[c.at], "bank");
        assert_eq!(c.key, "bank%1:14:00::");
    }
    // happen.v.01: inflected forms through morphy, and a multiword lemma
    // over two tokens, joined into one word as SemCor's multiwords are
    let happen = example_contexts(inv, key("happen%2:30:00::"));
    let got: Vec<(&str, &str)> = happen
        .iter()
        .map(|c| (c.words[c.at].as_str(), c.key.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("happening", "happen%2:30:00::"),
            ("took place", "take_place%2:30:00::"),
            ("occurred", "occur%2:30:00::")
        ]
    );
    assert_eq!(
        happen[1].words,
        [
            "The",
            "meeting",
            "took place",
            "off",
            "without",
            "an",
            "incidence"
        ]
    );
}

#[test]
fn pooled_layers_out_of_range_are_refused() {
    for bad in ["0", "7"] {
        let err = fails(
            wsd()
                .args([
                    "train",
                    "--method",
                    "knn",
                    "--limit-docs",
                    "1",
                    "--gloss",
                    "none",
                ])
                .args(["--pooled-layers", bad, "--output", "/tmp/knn-never.wsd"]),
        );
        assert!(
            err.contains("--pooled-layers") && err.contains("1 to 6"),
            "{err}"
        );
    }
}

/// Issue 16: `--k 3` on a model without instance vectors must not quietly
/// vote with one neighbour (the slice model has no `--keep-instances`).
#[test]
fn k_above_one_on_a_model_without_instances_is_refused() {
    let err = fails(
        wsd()
            .args(["eval", "--method", "knn,mfs", "--k", "3", "--model"])
            .arg(slice_model())
            .args(semeval_args()),
    );
    assert!(
        err.contains("--k") && err.contains("--keep-instances"),
        "{err}"
    );
    // --k 1 on the same model is fine
    let v = eval_json("knn,mfs", &["--k", "1"]);
    assert_eq!(v["answered"], 455, "{v}");
}

/// Issue 16: a kNN model used with another encoder (here a copy of the
/// real one with its first weight nudged by one bit, so the shapes and
/// the width still agree) is refused, not run with vectors from another
/// space.
#[test]
fn a_model_used_with_another_encoder_is_refused() {
    let dir = tempdir();
    let enc = dir.path().join("other-encoder");
    std::fs::create_dir(&enc).unwrap();
    for e in std::fs::read_dir(encoder_dir()).unwrap() {
        let e = e.unwrap();
        if e.file_name() != "model.safetensors" {
            std::os::unix::fs::symlink(e.path(), enc.join(e.file_name())).unwrap();
        }
    }
    let mut bytes = std::fs::read(encoder_dir().join("model.safetensors")).unwrap();
    let header = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    // the lowest mantissa bit of the first f32 of the data
    bytes[8 + header] ^= 1;
    std::fs::write(enc.join("model.safetensors"), &bytes).unwrap();
    let err = fails(
        wsd()
            .args(["eval", "--method", "knn,mfs", "--encoder"])
            .arg(&enc)
            .arg("--model")
            .arg(slice_model())
            .args(semeval_args()),
    );
    assert!(err.contains("trained with another encoder"), "{err}");
    assert!(err.contains("other-encoder"), "{err}");
}

/// The slice model records its training data and makes sense-key
/// vectors, exemplar sentences and its own calibration by default;
/// `--sense-vectors none` makes none, and a bad value is refused before
/// any work.
#[test]
fn a_knn_header_records_its_data_and_sense_vectors() {
    let header = wsd::model_io::read_header(&slice_model()).unwrap();
    let p = &header.params;
    assert_eq!(p["training_data"], "semcor:train:first-2", "{p}");
    assert_eq!(p["documents"], 2, "{p}");
    assert_eq!(p["sense_min"], 10, "{p}");
    assert_eq!(p["exemplars"], 2, "{p}");
    let model = wsd::disambig::knn::KnnModel::load(&slice_model(), inventory()).unwrap();
    assert_eq!(
        model.senses.len(),
        p["sense_vectors"].as_u64().unwrap() as usize
    );
    assert!(model.senses.iter().all(|s| s.count >= 10));
    let cal = model.calibration.as_ref().expect("a calibration map");
    assert_eq!(cal.held_out, "document");
    assert!(cal.samples > 100 && !cal.blocks.is_empty(), "{cal:?}");
    assert!(model.entries.iter().any(|e| !e.exemplars.is_empty()));

    let dir = tempdir();
    let none = dir.path().join("none.wsd");
    train_knn(&none, "1", &["--gloss", "none", "--sense-vectors", "none"]);
    let h = wsd::model_io::read_header(&none).unwrap();
    assert_eq!(h.params["sense_min"], 0);
    assert_eq!(h.params["sense_vectors"], 0);
    let err = fails(
        wsd()
            .args([
                "train",
                "--method",
                "knn",
                "--sense-vectors",
                "min:0",
                "--output",
            ])
            .arg(dir.path().join("never.wsd")),
    );
    assert!(err.contains("none or min:N"), "{err}");
    assert!(!dir.path().join("never.wsd").exists());
}

/// knn's answers are calibrated by the model's own map (all of them on
/// SemEval-2007: knn answers or it is single-sense), under the options it
/// was fitted with only.
#[test]
fn knn_probabilities_are_calibrated_by_the_model() {
    let v = eval_json("knn", &["--top", "2", "--calibration"]);
    let cal = &v["calibration"];
    assert_eq!(cal["uncalibrated"], 0, "{cal}");
    assert!(cal["calibrated"].as_u64().unwrap() > 400, "{cal}");
    let other = eval_json("knn", &["--calibration", "--prior", "0.2"]);
    assert_eq!(
        other["calibration"]["calibrated"], 0,
        "{}",
        other["calibration"]
    );
    assert!(other["calibration"]["uncalibrated"].as_u64().unwrap() > 400);
    let (code, out, err) = run_stdin(
        tag()
            .args([
                "--method", "knn", "--top", "2", "--format", "jsonl", "--model",
            ])
            .arg(slice_model()),
        b"The bank raised its rates.\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("no calibration for knn"), "{err}");
    assert!(out.contains("\"calibrated\":true"), "{out}");
    assert!(!out.contains("\"calibrated\":false"), "{out}");
}

/// `--explain` quotes the training sentences nearest the vector that
/// scored the chosen sense, and names the vector and the runner-up.
#[test]
fn knn_explain_quotes_training_sentences() {
    let (code, out, err) = run_stdin(
        tag()
            .args([
                "--method",
                "knn",
                "--explain",
                "--format",
                "jsonl",
                "--model",
            ])
            .arg(slice_model()),
        b"The jury said the election was conducted well. He said it would take time.\n",
    );
    assert_eq!(code, 0, "{err}");
    let ev: Vec<serde_json::Value> = out
        .lines()
        .flat_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["tokens"].as_array().cloned().unwrap_or_default()
        })
        .filter_map(|t| t.get("evidence").cloned())
        .filter(|e| e["kind"] == "sense-vector")
        .collect();
    assert!(!ev.is_empty(), "{out}");
    let sources = ["sense key", "synset", "propagated", "gloss"];
    assert!(
        ev.iter()
            .all(|e| sources.contains(&e["source"].as_str().unwrap())),
        "{out}"
    );
    let quoted: Vec<&serde_json::Value> = ev
        .iter()
        .filter(|e| !e["sentences"].as_array().unwrap().is_empty())
        .collect();
    assert!(!quoted.is_empty(), "no training sentence quoted: {out}");
    for e in quoted {
        // a SemCor instance (`br-a02.s10.t19`), the word marked
        let s = &e["sentences"][0];
        assert!(s["id"].as_str().unwrap().contains(".t"), "{s}");
        assert!(s["text"].as_str().unwrap().contains('*'), "{s}");
        assert!(
            ["sense key", "synset"].contains(&e["source"].as_str().unwrap()),
            "{e}"
        );
    }
    assert!(
        ev.iter().any(|e| e["runner_up"]["key"].is_string()),
        "{out}"
    );
}

/// With instances kept and `--k` > 1, `--explain` gives the nearest
/// training instances and each one's sentence.
#[test]
fn knn_neighbours_come_with_their_sentences() {
    let dir = tempdir();
    let model = dir.path().join("inst.wsd");
    train_knn(&model, "1", &["--gloss", "none", "--keep-instances"]);
    let (code, out, err) = run_stdin(
        tag()
            .args([
                "--method",
                "knn",
                "--k",
                "3",
                "--explain",
                "--format",
                "jsonl",
            ])
            .arg("--model")
            .arg(&model),
        b"The jury said the election was conducted well.\n",
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let near: Vec<&serde_json::Value> = v["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t.get("evidence"))
        .filter(|e| e["kind"] == "neighbours")
        .collect();
    assert!(!near.is_empty(), "{out}");
    for e in near {
        let n = e["neighbours"].as_array().unwrap().len();
        let s = e["sentences"].as_array().unwrap();
        assert!((1..=3).contains(&n), "{e}");
        assert_eq!(s.len(), n, "{e}");
        assert!(
            s.iter().all(|x| x["text"].as_str().unwrap().contains('*')),
            "{e}"
        );
    }
}

/// `--encoder-precision int8` runs (its vectors differ from f32's, so the
/// scores move) and mostly gives f32's answers; an unknown precision is
/// refused by name.
#[test]
fn int8_encoder_scores_differ_but_answers_mostly_agree() {
    let text = b"The river bank was muddy. The bank raised its rates. \
        The jury said the election was conducted well. He left the room \
        and walked to the station in the rain.\n";
    let run = |p: &str| -> Vec<(String, String, f64)> {
        let (code, out, err) = run_stdin(
            tag()
                .args(["--method", "knn,mfs", "--format", "jsonl"])
                .args(["--encoder-precision", p, "--model"])
                .arg(slice_model()),
            text,
        );
        assert_eq!(code, 0, "{err}");
        let mut v = Vec::new();
        for l in out.lines() {
            let s: serde_json::Value = serde_json::from_str(l).unwrap();
            for t in s["tokens"].as_array().unwrap() {
                if t["method"] == "knn" {
                    let score = t["score"].as_f64().unwrap_or(f64::NAN);
                    v.push((t["text"].to_string(), t["sense"].to_string(), score));
                }
            }
        }
        v
    };
    let (f, q) = (run("f32"), run("int8"));
    assert!(f.len() >= 5, "{f:?}");
    assert_eq!(f.len(), q.len(), "{f:?} {q:?}");
    assert!(f.iter().zip(&q).all(|(a, b)| a.0 == b.0));
    assert!(
        f.iter().zip(&q).any(|(a, b)| a.2 != b.2),
        "int8 changed no score"
    );
    let same = f.iter().zip(&q).filter(|(a, b)| a.1 == b.1).count();
    assert!(same * 5 >= f.len() * 4, "{same} of {} agree", f.len());
    let err = fails(tag().args(["--encoder-precision", "int4", "-"]));
    assert!(err.contains("f32 or int8"), "{err}");
}

/// `--pos-probe`: the encoder overrules the tagger's category where its
/// vector of the word disagrees (`end` after `begin at ten and` is the
/// verb, which the tagger and the category model read as a noun), and
/// leaves the rest alone.
#[test]
fn pos_probe_lets_the_encoder_overrule_a_category() {
    encoder_dir();
    let text = b"The workshop will begin at ten and end at three.\n";
    let categories = |extra: &[&str]| -> Vec<(String, String)> {
        let (code, out, err) = run_stdin(
            tag()
                .args(["-q", "--method", "mfs", "--format", "tsv"])
                .args(extra),
            text,
        );
        assert_eq!(code, 0, "{err}");
        out.lines()
            .skip(1)
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (f[5].to_string(), f[7].to_string())
            })
            .collect()
    };
    let plain = categories(&[]);
    let probed = categories(&["--pos-probe"]);
    let pos_of = |rows: &[(String, String)], w: &str| {
        rows.iter()
            .find(|(t, _)| t == w)
            .map(|(_, p)| p.clone())
            .unwrap()
    };
    assert_eq!(
        pos_of(&plain, "end"),
        "n",
        "the front end without the probe reads `end` as a noun"
    );
    assert_eq!(pos_of(&probed, "end"), "v");
    // Everything else as without the probe.
    let others = |rows: &[(String, String)]| -> Vec<(String, String)> {
        rows.iter().filter(|(t, _)| t != "end").cloned().collect()
    };
    assert_eq!(others(&plain), others(&probed));
}

/// `--pos-probe` with an encoder the shipped probe was not fitted on is
/// refused up front, naming both.
#[test]
fn pos_probe_refuses_another_encoder() {
    let dir = tempdir();
    let enc = dir.path().join("enc");
    std::fs::create_dir(&enc).unwrap();
    for f in std::fs::read_dir(encoder_dir()).unwrap() {
        let f = f.unwrap().path();
        if f.is_file() {
            std::fs::copy(&f, enc.join(f.file_name().unwrap())).unwrap();
        }
    }
    // Another encoder: the same architecture with one weight changed is
    // enough to change the fingerprint.
    let st = enc.join("model.safetensors");
    let mut bytes = std::fs::read(&st).unwrap();
    // The first byte after the header: inside the fingerprint's first page.
    let header = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    bytes[8 + header] ^= 1;
    std::fs::write(&st, bytes).unwrap();
    let (code, _, err) = run_stdin(
        tag()
            .args(["-q", "--method", "mfs", "--pos-probe", "--encoder"])
            .arg(&enc),
        b"The workshop ends at three.\n",
    );
    assert_ne!(code, 0);
    assert!(
        err.contains("category probe was fitted on encoder"),
        "{err}"
    );
}

/// With knn or ens the front end hands each single-word or joined target
/// the encoder's vector of it, computed while the probe read the sentence;
/// it must be the vector knn would compute itself (the last layer, a
/// unit's the mean of all its pieces), or carrying it would change answers.
#[test]
fn vectors_the_front_end_carries_are_the_ones_knn_computes() {
    use wsd::encoder::{Encoder, Precision};
    let encoder = Encoder::load_with_precision(&encoder_dir(), Precision::F32).unwrap();
    let (tagger, mwe) = tagger_and_matcher();
    let pipeline = probe_pipeline(&tagger, &mwe, &encoder, false);
    let doc = pipeline.analyse(
        "d",
        "The meeting took place in New York last week. The workshop will begin at ten and end at three.",
        0,
        0,
    );
    let own = encoder.encode_words(&wsd::disambig::knn::sentence_words(&doc));
    let (mut carried, mut units) = (0, 0);
    for (s, sentence) in doc.sentences.iter().enumerate() {
        for (t, tok) in sentence.tokens.iter().enumerate() {
            let Some(v) = &tok.vector else {
                assert!(
                    tok.instance.is_none(),
                    "target {} carries no vector",
                    tok.text
                );
                continue;
            };
            assert_eq!(&*v.encoder, encoder.vector_key());
            let w = &own[s][t];
            let dot: f32 = v.values.iter().zip(w).map(|(a, b)| a * b).sum();
            let norm = |x: &[f32]| x.iter().map(|a| a * a).sum::<f32>().sqrt();
            let cos = dot / (norm(&v.values) * norm(w));
            assert!(cos > 0.9999, "{}: cosine {cos}", tok.text);
            carried += 1;
            units += usize::from(tok.text.contains(' '));
        }
    }
    assert!(
        carried >= 8 && units >= 2,
        "{carried} vectors, {units} of units"
    );
}

/// A joined unit and its head word are two targets on one token: both
/// read the unit's vector. (knn handed the vector to the first and an
/// empty one to the second, so head-word targets were answered blind:
/// SemEval-2007 `--raw` knn,mfs 63.96 → 64.18 when fixed.)
#[test]
fn a_units_head_word_target_reads_the_units_vector() {
    use wsd::disambig::knn::{Knn, KnnOptions};
    use wsd::encoder::{Encoder, Precision};
    let inv = inventory();
    let encoder =
        std::sync::Arc::new(Encoder::load_with_precision(&encoder_dir(), Precision::F32).unwrap());
    let knn = Knn::load(&slice_model(), inv, encoder, KnnOptions::default()).unwrap();
    let (tagger, mwe) = tagger_and_matcher();
    let pipeline = pipeline_by_hand(&tagger, &mwe, None);
    let doc = pipeline.analyse("d", "They were talking about the weather all night.", 0, 0);
    let targets = wsd::disambig::candidates_of(inv, doc.targets());
    let heads: Vec<usize> = targets
        .iter()
        .enumerate()
        .filter(|(_, c)| c.target.role == wsd::corpus::Role::Head)
        .map(|(i, _)| i)
        .collect();
    assert!(
        !heads.is_empty(),
        "no head-word target in {:?}",
        doc.targets()
    );
    let vectors = knn.target_vectors(&doc, &targets);
    for h in heads {
        let unit = targets
            .iter()
            .position(|c| {
                c.target.role == wsd::corpus::Role::Token
                    && (c.target.sentence, c.target.token)
                        == (targets[h].target.sentence, targets[h].target.token)
            })
            .unwrap();
        let (hv, uv) = (
            vectors[h].as_ref().unwrap(),
            vectors[unit].as_ref().unwrap(),
        );
        assert_eq!(hv.len(), 384);
        assert_eq!(hv, uv);
    }
}

/// `--gloss-xml` chooses glosses for `--gloss lemmas`; with `--gloss none`
/// it contradicts itself and is refused before any encoding.
#[test]
fn gloss_xml_with_gloss_none_is_refused() {
    let dir = tempdir();
    let out = dir.path().join("k.wsd");
    let err = fails(
        wsd()
            .args(["train", "--method", "knn", "--limit-docs", "1"])
            .args(["--gloss", "none", "--gloss-xml"])
            .arg(semeval().join("semeval2007.data.xml"))
            .arg("--output")
            .arg(&out),
    );
    assert!(
        err.contains("--gloss-xml") && err.contains("--gloss none"),
        "{err}"
    );
    assert!(!out.exists());
}

/// `--monosemous N`: words of the glosses with one sense in all of
/// WordNet become tagged contexts of that sense, at most N per synset,
/// and the header counts them.
#[test]
fn gloss_words_of_a_single_sense_become_tagged_contexts() {
    use wsd::disambig::knn::monosemous_synset;
    let inv = inventory();
    let aardvark = inv.lookup("aardvark", wsd::wordnet::Pos::Noun);
    assert_eq!(aardvark.len(), 1);
    assert_eq!(
        monosemous_synset(inv, "aardvarks"),
        Some(aardvark[0].synset)
    );
    assert_eq!(monosemous_synset(inv, "bank"), None);
    assert_eq!(monosemous_synset(inv, "the"), None);

    let dir = tempdir();
    let out = dir.path().join("mono.wsd");
    train_knn(&out, "1", &["--gloss", "lemmas", "--monosemous", "1"]);
    let p = wsd::model_io::read_header(&out).unwrap().params;
    assert_eq!(p["monosemous"], 1, "{p}");
    let contexts = p["monosemous_contexts"].as_u64().unwrap();
    let synsets = p["monosemous_synsets"].as_u64().unwrap();
    // one word at most per synset: as many contexts as synsets given one,
    // of which some had no context before
    assert!(synsets > 0 && contexts >= synsets, "{p}");
    let model = wsd::disambig::knn::KnnModel::load(&out, inv).unwrap();
    let tagged = model
        .entries
        .iter()
        .filter(|e| e.ctx.is_some())
        .map(|e| e.count as u64)
        .sum::<u64>();
    assert_eq!(
        tagged,
        p["tagged_tokens"].as_u64().unwrap() + contexts,
        "every instance counted once: SemCor's tagged tokens (one synset each here) and the gloss words"
    );
}
