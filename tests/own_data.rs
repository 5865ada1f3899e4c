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
