//! One's own data (issue 12): `wsd train` from evaluation-framework XML
//! and key files, with or without SemCor; `wsd score` on keys, offsets and
//! NLTK names, and its warnings about swapped or gold-like files; key-file
//! ids that do not depend on how the input path was typed.

use crate::util::*;

fn se07(name: &str) -> String {
    semeval().join(name).display().to_string()
}

/// nb trained on the SemEval-2007 XML and key alone, from a folder with no
/// SemCor and an empty data home: the model tags, and its own lemmas are
/// answered by nb itself.
#[test]
fn train_nb_from_xml_without_semcor_and_tag_with_it() {
    let dir = tempdir();
    let model = dir.path().join("own.wsd");
    let (out, _, se) = run(wsd()
        .current_dir(dir.path())
        .env("WSD_HOME", dir.path().join("home"))
        .arg("--wordnet")
        .arg(dict())
        .args(["train", "--method", "nb", "--xml"])
        .arg(se07("semeval2007.data.xml"))
        .arg("--gold")
        .arg(se07("semeval2007.gold.key.txt"))
        .args(["--nb-params", r#"{"min_examples": 1}"#, "--output"])
        .arg(&model));
    assert!(out.status.success(), "{se}");
    assert!(se.contains("from 3 documents"), "{se}");
    let header = wsd::model_io::read_header(&model).unwrap();
    assert!(
        header
            .params
            .to_string()
            .contains("xml:semeval2007.data.xml"),
        "{header:?}"
    );
    // "say" is one of SemEval-2007's most frequent verbs: nb answers it.
    let (code, so, se) = run_stdin(
        tag()
            .args(["--method", "nb,mfs", "--model"])
            .arg(&model)
            .args(["--format", "jsonl"]),
        b"He said that the court would decide.",
    );
    assert_eq!(code, 0, "{se}");
    let line: serde_json::Value = serde_json::from_str(so.lines().next().unwrap()).unwrap();
    let said = line["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["text"] == "said")
        .unwrap()
        .clone();
    assert_eq!(said["method"], "nb", "{said}");
    assert_eq!(said["decided"], "method", "{said}");
    assert!(
        said["sense"].as_str().unwrap().starts_with("say%2:"),
        "{said}"
    );
    // At the default threshold (40 examples) nothing of so small a set
    // answers, and training says so.
    let (out, _, se) = run(wsd()
        .args(["train", "--method", "nb", "--xml"])
        .arg(se07("semeval2007.data.xml"))
        .arg("--gold")
        .arg(se07("semeval2007.gold.key.txt"))
        .arg("--output")
        .arg(dir.path().join("default.wsd")));
    assert!(out.status.success(), "{se}");
    assert!(se.contains("min_examples"), "{se}");
}

/// `--semcor` and `--xml` mix: SemCor's documents first, then the XML's.
#[test]
fn train_nb_from_semcor_and_xml() {
    let dir = tempdir();
    let model = dir.path().join("mix.wsd");
    let se = ok_stderr(
        wsd()
            .args(["train", "--method", "nb", "--limit-docs", "2", "--semcor"])
            .arg(semcor())
            .arg("--xml")
            .arg(se07("semeval2007.data.xml"))
            .arg("--gold")
            .arg(se07("semeval2007.gold.key.txt"))
            .arg("--output")
            .arg(&model),
    );
    assert!(se.contains("from 5 documents"), "{se}");
    let header = wsd::model_io::read_header(&model)
        .unwrap()
        .params
        .to_string();
    assert!(
        header.contains("semcor:train:first-2+xml:semeval2007.data.xml"),
        "{header}"
    );
}

/// Pairs must match, the key must belong to the XML, and pos cannot train
/// on XML: each a clear error, no model written.
#[test]
fn train_from_xml_bad_arguments() {
    let dir = tempdir();
    let model = dir.path().join("bad.wsd");
    let se = fails(
        wsd()
            .args(["train", "--method", "nb", "--xml"])
            .arg(se07("semeval2007.data.xml"))
            .arg("--output")
            .arg(&model),
    );
    assert!(se.contains("--xml and --gold go in pairs"), "{se}");
    let key = dir.path().join("other.key");
    std::fs::write(&key, "elsewhere.s0.t0 bank%1:14:00::\n").unwrap();
    let se = fails(
        wsd()
            .args(["train", "--method", "nb", "--xml"])
            .arg(se07("semeval2007.data.xml"))
            .arg("--gold")
            .arg(&key)
            .arg("--output")
            .arg(&model),
    );
    assert!(se.contains("gives no key to any instance"), "{se}");
    assert!(se.contains("other.key"), "{se}");
    let se = fails(
        wsd()
            .args(["train", "--method", "pos", "--xml"])
            .arg(se07("semeval2007.data.xml"))
            .arg("--gold")
            .arg(se07("semeval2007.gold.key.txt"))
            .arg("--output")
            .arg(&model),
    );
    assert!(se.contains("Penn tags"), "{se}");
    assert!(!model.exists());
}

/// Run, assert success, return stderr.
fn ok_stderr(cmd: &mut std::process::Command) -> String {
    let (out, so, se) = run(cmd);
    assert!(out.status.success(), "{so}\n{se}");
    se
}

/// A text tagged three ways: sense keys, NLTK names, offsets. Before
/// issue 12, `wsd score` gave 0.0 to the names against the keys.
fn tagged_three_ways(dir: &std::path::Path) -> [std::path::PathBuf; 3] {
    std::fs::write(
        dir.join("x.txt"),
        "The bank raised interest rates. The river bank was muddy.\n",
    )
    .unwrap();
    let mut out = Vec::new();
    for (form, typed) in [
        ("key", "./x.txt"),
        ("name", "x.txt"),
        ("offset", "sub/../x.txt"),
    ] {
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let so = ok(tag().current_dir(dir).arg("--wordnet").arg(dict()).args([
            "-q",
            "--method",
            "mfs",
            "--format",
            "key",
            "--sense-format",
            form,
            typed,
        ]));
        let p = dir.join(format!("{form}.key"));
        std::fs::write(&p, &so).unwrap();
        out.push(p);
    }
    out.try_into().unwrap()
}

#[test]
fn score_resolves_keys_offsets_and_names_on_either_side() {
    let dir = tempdir();
    let [keys, names, offsets] = tagged_three_ways(dir.path());
    // The ids are the same however the path was typed.
    let ids = |p: &std::path::Path| -> Vec<String> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .map(|l| l.split(' ').next().unwrap().to_string())
            .collect()
    };
    assert!(
        ids(&keys).iter().all(|i| i.starts_with("x.txt.s")),
        "{:?}",
        ids(&keys)
    );
    assert_eq!(ids(&keys), ids(&names));
    assert_eq!(ids(&keys), ids(&offsets));
    for (gold, system) in [
        (&keys, &names),
        (&names, &keys),
        (&keys, &offsets),
        (&offsets, &names),
    ] {
        let (out, so, se) = run(wsd()
            .arg("score")
            .arg(gold)
            .arg(system)
            .args(["--format", "json"]));
        assert!(out.status.success(), "{se}");
        let v: serde_json::Value = serde_json::from_str(&so).unwrap();
        assert_eq!(
            v["f1"],
            100.0,
            "{} vs {}: {so}",
            gold.display(),
            system.display()
        );
        assert!(se.contains("compared as synsets"), "{se}");
        assert_eq!(v["compared_as"], "synsets", "{so}");
        assert!(se.contains("is it the gold file"), "{se}");
    }
    // Keys against keys: as before, no note about synsets.
    let (_, so, se) = run(wsd().arg("score").arg(&keys).arg(&keys));
    assert!(so.contains("100.0"), "{so}");
    assert!(!se.contains("compared as synsets"), "{se}");
    let (_, so, _) = run(wsd()
        .arg("score")
        .arg(&keys)
        .arg(&keys)
        .args(["--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&so).unwrap();
    assert_eq!(v["compared_as"], "sense_keys", "{so}");
}

#[test]
fn score_warns_when_the_arguments_look_swapped() {
    let dir = tempdir();
    let system = dir.path().join("mfs.key");
    let mut args = vec![
        "-q".to_string(),
        "eval".into(),
        "--method".into(),
        "mfs".into(),
    ];
    args.extend(semeval_args());
    ok(wsd().args(&args).arg("--output").arg(&system));
    let gold = se07("semeval2007.gold.key.txt");
    let (out, so, se) = run(wsd().arg("score").arg(&gold).arg(&system));
    assert!(out.status.success());
    assert!(so.contains("55.2"), "{so}");
    assert!(!se.contains("warning"), "{se}");
    let (out, so, se) = run(wsd().arg("score").arg(&system).arg(&gold));
    assert!(out.status.success(), "a warning, not a failure");
    assert!(so.contains("54.9"), "{so}");
    assert!(se.contains("are the arguments swapped?"), "{se}");
    // A system run on another text: no id in common.
    let other = dir.path().join("other.key");
    std::fs::write(&other, "./x.txt.s0.t1 bank%1:14:00::\n").unwrap();
    let (_, _, se) = run(wsd().arg("score").arg(&gold).arg(&other));
    assert!(se.contains("no system id is in the gold"), "{se}");
}

/// Words as well as synsets: the best pair of same-POS senses, reported;
/// the bare number in text; JSON with hypernyms, distance and path.
#[test]
fn similarity_of_words_common_hypernyms_and_paths() {
    let (o, so, se) = run(wsd().args(["similarity", "dog", "cat", "--measure", "wup"]));
    assert!(o.status.success(), "{se}");
    let v: f64 = so.trim().parse().expect("a bare number");
    assert!(se.contains("best pair of senses"), "{se}");
    // The same as the best pair named in JSON, computed on its own.
    let j: serde_json::Value = serde_json::from_str(&ok(wsd().args([
        "similarity",
        "dog",
        "cat",
        "--measure",
        "wup",
        "--format",
        "json",
    ])))
    .unwrap();
    assert_eq!(j["value"].as_f64(), Some(v));
    assert_eq!(j["words"], serde_json::json!(["dog", "cat"]));
    let pair = ok(wsd().args([
        "similarity",
        j["synset1"]["name"].as_str().unwrap(),
        j["synset2"]["name"].as_str().unwrap(),
        "--measure",
        "wup",
    ]));
    assert_eq!(pair.trim().parse::<f64>().unwrap(), v);
    // dog.n.01 and cat.n.01 meet at carnivore.n.01, four edges apart (NLTK).
    let j: serde_json::Value = serde_json::from_str(&ok(wsd().args([
        "similarity",
        "dog.n.01",
        "cat.n.01",
        "--format",
        "json",
    ])))
    .unwrap();
    assert_eq!(j["value"], 0.2);
    assert_eq!(j["lowest_common_hypernyms"][0]["name"], "carnivore.n.01");
    assert_eq!(j["distance"], 4);
    let path = j["path"].as_array().unwrap();
    assert_eq!(path.len(), 5, "{j}");
    assert_eq!(path[0], "dog.n.01");
    assert_eq!(path[2], "carnivore.n.01");
    assert_eq!(path[4], "cat.n.01");
    assert_eq!(
        ok(wsd().args(["similarity", "dog.n.01", "cat.n.01", "--common-hypernym"])),
        "carnivore.n.01\n"
    );
    assert_eq!(
        ok(wsd().args(["similarity", "dog.n.01", "cat.n.01", "--distance"])),
        "4\n"
    );
    // Words with no senses of a common POS, and --pos.
    let (o, so, se) = run(wsd().args(["similarity", "quickly", "dog"]));
    assert!(o.status.success());
    assert_eq!(so, "no value\n");
    assert!(se.contains("same part of speech"), "{se}");
    let (o, _, se) = run(wsd().args(["similarity", "dog", "cat", "--pos", "r"]));
    assert!(!o.status.success());
    assert!(se.contains("dog"), "{se}");
}

/// Verb frames in `wsd synset`, and the frame table equals frames.vrb.
#[test]
fn synset_shows_verb_frames() {
    let out = ok(wsd().args(["synset", "run.v.01"]));
    assert!(
        out.contains("frames:\n  Something runs\n  Somebody runs\n"),
        "{out}"
    );
    let j: serde_json::Value =
        serde_json::from_str(&ok(wsd().args(["synset", "run.v.01", "--format", "json"]))).unwrap();
    assert_eq!(j["frames"][0]["number"], 1);
    assert_eq!(j["frames"][0]["text"], "Something runs");
    let noun = ok(wsd().args(["synset", "dog.n.01"]));
    assert!(!noun.contains("frames:"), "{noun}");
    let vrb = std::fs::read_to_string(dict().join("frames.vrb")).unwrap();
    for (i, line) in vrb.lines().enumerate() {
        let (n, text) = line.split_once(' ').unwrap();
        assert_eq!(n.parse::<usize>().unwrap(), i + 1);
        assert_eq!(wsd::wordnet::frames::FRAMES[i], text.trim());
    }
}

/// knn from XML alone, on the five-instance fixture (a full knn training
/// takes about ten minutes): it answers bank with the sense the fixture
/// tagged.
#[test]
fn train_knn_from_a_tiny_xml() {
    let dir = tempdir();
    let model = dir.path().join("knn.wsd");
    let fx = root().join("tests/fixtures");
    let se = ok_stderr(
        wsd()
            .args(["train", "--method", "knn", "--gloss", "none", "--xml"])
            .arg(fx.join("tiny.data.xml"))
            .arg("--gold")
            .arg(fx.join("tiny.gold.key.txt"))
            .arg("--output")
            .arg(&model),
    );
    assert!(
        se.contains("knn trained on xml:tiny.data.xml (2 documents, 3 sentences, 4 tagged tokens"),
        "{se}"
    );
    let header = wsd::model_io::read_header(&model).unwrap();
    assert_eq!(header.method, "knn");
    // the header records the training data
    assert_eq!(
        header.params["training_data"], "xml:tiny.data.xml",
        "{:?}",
        header.params
    );
    assert_eq!(header.params["documents"], 2);
    let (code, so, se) = run_stdin(
        tag()
            .args(["--method", "knn,mfs", "--model"])
            .arg(&model)
            .args(["--format", "key"]),
        b"The bank raised interest rates.",
    );
    assert_eq!(code, 0, "{se}");
    assert!(so.contains("stdin.s0.t1 bank%1:17:01::"), "{so}");
}
