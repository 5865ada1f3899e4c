//! Corpora, the scorer and the MFS baseline on the real data, through the binary.

use crate::util::*;
use wsd::corpus::{read_semcor, semcor_stats, Split};

fn f1_of(json: &str) -> f64 {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["f1"].as_f64().unwrap()
}

#[test]
fn semcor_has_352_documents_37176_sentences_and_234136_tagged_words() {
    let stats = semcor_stats(semcor(), Split::All).unwrap();
    let t = stats.total();
    assert_eq!(t.documents, 352);
    assert_eq!(t.sentences, 37_176);
    assert_eq!(t.with_lexsn, 234_136);
    let train = read_semcor(semcor(), Split::Train).unwrap();
    let test = read_semcor(semcor(), Split::Test).unwrap();
    assert_eq!((train.len(), test.len()), (282, 70));
    // Every gold key of SemCor 3.0 is a WordNet 3.0 key once markers are stripped.
    let inv = inventory();
    let check = wsd::corpus::check_gold_keys(&test, |k| inv.has_key(k));
    assert_eq!(check.unknown, 0, "{:?}", check.examples);
}

#[test]
fn gold_scored_against_itself_is_100() {
    let gold = semeval().join("semeval2007.gold.key.txt");
    let out = ok(wsd()
        .arg("score")
        .arg(&gold)
        .arg(&gold)
        .args(["--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for f in ["precision", "recall", "f1"] {
        assert_eq!(v[f].as_f64().unwrap(), 100.0, "{f}");
    }
    assert_eq!(v["instances"], 455);
}

#[test]
fn fractional_credit_and_missing_answers() {
    let fx = root().join("tests/fixtures");
    let out = ok(wsd()
        .arg("score")
        .arg(fx.join("tiny.gold.key.txt"))
        .arg(fx.join("tiny.system.key.txt"))
        .args(["--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // See tests/fixtures: one right, one half right (two keys), one wrong,
    // one unanswered, one id the gold lacks.
    assert!(v["answered"].as_u64().unwrap() < v["instances"].as_u64().unwrap());
    assert!(v["recall"].as_f64().unwrap() < v["precision"].as_f64().unwrap());
    assert_eq!(v["unknown_ids"]["count"], 1);
}

#[test]
fn mfs_on_semeval2007_is_the_published_55_2() {
    let out = ok(wsd()
        .args(["eval", "--method", "mfs", "--format", "json"])
        .args(semeval_args()));
    let f1 = f1_of(&out);
    assert!((f1 - 55.2).abs() < 0.05, "mfs F1 {f1}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["instances"], 455);
    assert_eq!(v["answered"], 455);
    assert!(v["by_pos"]["n"]["f1"].as_f64().unwrap() > v["by_pos"]["v"]["f1"].as_f64().unwrap());
}

/// WordNet's sense order comes from tag counts over all of SemCor, test
/// documents included, so on SemCor's test split the WordNet first sense has
/// seen the answers; the first sense counted on the train split alone cannot
/// match it there. This pins that leak down so reports can explain it.
#[test]
fn wordnet_first_sense_leaks_semcor_test_counts() {
    let sc = semcor().display().to_string();
    let mfs = f1_of(&ok(wsd().args([
        "eval", "--method", "mfs", "--semcor", &sc, "--split", "test", "--format", "json",
    ])));
    let counted = f1_of(&ok(wsd().args([
        "eval",
        "--method",
        "mfs-semcor",
        "--semcor",
        &sc,
        "--split",
        "test",
        "--format",
        "json",
    ])));
    assert!(mfs > 60.0 && mfs < 90.0, "mfs {mfs}");
    assert!(
        counted > 60.0 && counted < mfs,
        "mfs-semcor {counted} vs mfs {mfs}"
    );
}

#[test]
fn eval_writes_a_key_file_that_scores_the_same() {
    let tmp = tempdir();
    let key = tmp.path().join("sys.key");
    let out = ok(wsd()
        .args(["eval", "--method", "mfs", "--format", "json", "--output"])
        .arg(&key)
        .args(semeval_args()));
    let gold = semeval().join("semeval2007.gold.key.txt");
    let scored = ok(wsd()
        .arg("score")
        .arg(&gold)
        .arg(&key)
        .args(["--format", "json"]));
    assert_eq!(f1_of(&out), f1_of(&scored));
}

#[test]
fn broken_inputs_name_file_and_line() {
    let tmp = tempdir();
    let gold = semeval().join("semeval2007.gold.key.txt");
    // A key line with no key.
    let bad_key = tmp.path().join("bad.key");
    std::fs::write(&bad_key, "d000.s000.t000 refer%2:32:01::\nd000.s000.t001\n").unwrap();
    let se = fails(wsd().arg("score").arg(&gold).arg(&bad_key));
    assert!(se.contains("bad.key:2"), "{se}");
    // XML with an unclosed tag and with a bad entity.
    let xml = std::fs::read_to_string(semeval().join("semeval2007.data.xml")).unwrap();
    let unclosed = tmp.path().join("unclosed.xml");
    std::fs::write(&unclosed, xml.replacen("</sentence>", "", 1)).unwrap();
    let se = fails(
        wsd()
            .args(["eval", "--method", "mfs", "--xml"])
            .arg(&unclosed)
            .arg("--gold")
            .arg(&gold),
    );
    assert!(se.contains("unclosed.xml:"), "{se}");
    let entity = tmp.path().join("entity.xml");
    let lines: Vec<&str> = xml.lines().collect();
    let mut broken = lines.clone();
    let l = broken[10].replacen(">", ">&bogus;", 1);
    broken[10] = &l;
    std::fs::write(&entity, broken.join("\n")).unwrap();
    let se = fails(
        wsd()
            .args(["eval", "--method", "mfs", "--xml"])
            .arg(&entity)
            .arg("--gold")
            .arg(&gold),
    );
    assert!(se.contains("entity.xml:11"), "{se}");
    // A SemCor tagfile with a broken wf line.
    let sc = tmp.path().join("semcor/brown1/tagfiles");
    std::fs::create_dir_all(&sc).unwrap();
    let text = std::fs::read_to_string(semcor().join("brown1/tagfiles/br-a01")).unwrap();
    let broken = text.replacen(
        "<wf cmd=done pos=NN lemma=jury wnsn=1 lexsn=1:14:00::>jury</wf>",
        "<wf cmd=done pos=NN lemma=jury wnsn=1 lexsn=1:14:00::jury</wf>",
        1,
    );
    assert_ne!(broken, text);
    std::fs::write(sc.join("br-a01"), broken).unwrap();
    let se = fails(
        wsd()
            .args(["eval", "--method", "mfs", "--split", "all", "--semcor"])
            .arg(tmp.path().join("semcor")),
    );
    assert!(se.contains("br-a01:"), "{se}");
}

#[test]
fn unknown_method_is_a_clear_error() {
    let se = fails(
        wsd()
            .args(["eval", "--method", "magic"])
            .args(semeval_args()),
    );
    assert!(se.contains("unknown method"), "{se}");
}

#[test]
fn every_method_name_is_registered() {
    // Trained methods get a model path that does not exist: they must fail
    // on loading it, not on their name.
    for m in wsd::disambig::registry::names() {
        let (_, _, se) = run(wsd()
            .args(["eval", "--method", m, "--model", "/nonexistent/model.wsd"])
            .args(semeval_args()));
        assert!(!se.contains("unknown method"), "{m}: {se}");
        if m == "nb" || m == "knn" {
            assert!(se.contains("/nonexistent/model.wsd"), "{m}: {se}");
        }
    }
}

/// The README's method table and `--help` are the registry's: every method
/// with its summary, nothing else.
#[test]
fn readme_and_help_list_the_registry() {
    use wsd::disambig::registry::METHODS;
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find("<!-- methods: from the registry -->")
        .expect("marker");
    let end = readme[start..]
        .find("<!-- end methods -->")
        .expect("end marker")
        + start;
    let rows: Vec<&str> = readme[start..end]
        .lines()
        .filter(|l| l.starts_with("| `"))
        .collect();
    assert_eq!(rows.len(), METHODS.len(), "{rows:#?}");
    for (row, m) in rows.iter().zip(METHODS) {
        assert!(row.starts_with(&format!("| `{}` |", m.name)), "{row}");
        assert!(row.contains(m.summary), "{row} lacks {:?}", m.summary);
    }
    // Help text is wrapped: compare with whitespace collapsed.
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let help = words(&ok(wsd().args(["eval", "--help"])));
    for m in METHODS {
        assert!(
            help.contains(&words(m.summary)),
            "eval --help lacks {}",
            m.name
        );
    }
}

/// `wsd stats`, `wsd ic` and `wsd embed` find SemCor, WordNet and the
/// encoder in the data home (`$WSD_HOME`) when run from anywhere else, as
/// `wsd eval` and `wsd tag` do, and `wsd ic` writes into the data home's
/// `models/` (they used to look in the working directory only).
#[test]
fn stats_ic_and_embed_find_their_data_in_the_data_home() {
    use std::os::unix::fs::symlink;
    let home = tempdir();
    let elsewhere = tempdir();
    symlink(root().join("corpora"), home.path().join("corpora")).unwrap();
    symlink(root().join("wordnet"), home.path().join("wordnet")).unwrap();
    std::fs::create_dir(home.path().join("models")).unwrap();
    symlink(
        root().join("models/all-MiniLM-L6-v2"),
        home.path().join("models/all-MiniLM-L6-v2"),
    )
    .unwrap();
    let from_elsewhere = || {
        let mut c = wsd();
        c.env("WSD_HOME", home.path())
            .env_remove("WNSEARCHDIR")
            .current_dir(elsewhere.path());
        c
    };
    let stats = ok(from_elsewhere().args(["stats", "--split", "test"]));
    assert!(stats.contains("documents"), "{stats}");
    ok(from_elsewhere().args(["-q", "ic"]));
    assert!(home.path().join("models/ic-semcor.txt").exists());
    assert!(!elsewhere.path().join("models").exists());
    let (code, out, err) = run_stdin(from_elsewhere().args(["-q", "embed"]), b"The bank.");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"vector\""), "{out}");
}

/// A framework folder made of SemEval-2007's three documents as three
/// data sets (`senseval2`, `semeval2007`, `semeval2015`, in another order
/// on disk) plus an `ALL` folder holding the whole file, as
/// `WSD_Evaluation_Framework/Evaluation_Datasets` is laid out.
fn three_set_framework(root: &std::path::Path) -> std::path::PathBuf {
    let xml = std::fs::read_to_string(semeval().join("semeval2007.data.xml")).unwrap();
    let gold = std::fs::read_to_string(semeval().join("semeval2007.gold.key.txt")).unwrap();
    let head = &xml[..xml.find("<text ").unwrap()];
    let texts: Vec<&str> = xml
        .match_indices("<text ")
        .map(|(at, _)| {
            let end = at + xml[at..].find("</text>").unwrap() + "</text>".len();
            &xml[at..end]
        })
        .collect();
    assert_eq!(texts.len(), 3);
    let base = root.join("WSD_Evaluation_Framework/Evaluation_Datasets");
    let write = |name: &str, texts: &[&str]| {
        let dir = base.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let body = format!("{head}{}\n</corpus>\n", texts.concat());
        std::fs::write(dir.join(format!("{name}.data.xml")), &body).unwrap();
        let keys: String = gold
            .lines()
            .filter(|l| {
                let id = l.split_whitespace().next().unwrap();
                body.contains(&format!("id=\"{id}\""))
            })
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(dir.join(format!("{name}.gold.key.txt")), keys).unwrap();
    };
    write("semeval2015", &texts[2..]);
    write("semeval2007", &texts[1..2]);
    write("senseval2", &texts[..1]);
    write("ALL", &texts);
    root.join("WSD_Evaluation_Framework")
}

#[test]
fn eval_framework_scores_each_set_and_their_concatenation() {
    let tmp = tempdir();
    let framework = three_set_framework(tmp.path());
    let key = tmp.path().join("all.key");
    let json = ok(wsd()
        .args([
            "eval",
            "-q",
            "--method",
            "mfs",
            "--format",
            "json",
            "--framework",
        ])
        .arg(&framework)
        .arg("--output")
        .arg(&key));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let rows = v["datasets"].as_array().unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "senseval2",
            "semeval2007",
            "semeval2015",
            "ALL",
            "ALL-no-dev"
        ]
    );
    let count = |i: usize, field: &str| rows[i][field].as_f64().unwrap();
    // the framework's ALL folder is not run again: 455 instances, not 910
    assert_eq!(count(3, "instances"), 455.0);
    assert_eq!(
        count(0, "instances") + count(2, "instances"),
        count(4, "instances")
    );
    assert_eq!(
        count(0, "correct") + count(2, "correct"),
        count(4, "correct")
    );
    // ALL is the whole file scored at once, not a mean of the sets' rates
    let whole = ok(wsd()
        .args(["eval", "-q", "--method", "mfs", "--format", "json"])
        .args(semeval_args()));
    assert!((f1_of(&whole) - count(3, "f1")).abs() < 1e-9);
    assert!((f1_of(&json) - count(3, "f1")).abs() < 1e-9);
    assert!(rows[..3]
        .iter()
        .all(|r| (r["f1"].as_f64().unwrap() - count(3, "f1")).abs() > 0.1));
    // the key file spells ids as ALL does, so it scores against ALL's keys
    let written = std::fs::read_to_string(&key).unwrap();
    assert_eq!(written.lines().count(), 455);
    assert!(written.starts_with("senseval2.d000."), "{written:.80}");
    let all_gold = tmp.path().join("ALL.gold.key.txt");
    let prefixed: String = ["senseval2", "semeval2007", "semeval2015"]
        .iter()
        .flat_map(|n| {
            let keys = framework.join(format!("Evaluation_Datasets/{n}/{n}.gold.key.txt"));
            std::fs::read_to_string(keys)
                .unwrap()
                .lines()
                .map(|l| format!("{n}.{l}\n"))
                .collect::<Vec<_>>()
        })
        .collect();
    std::fs::write(&all_gold, prefixed).unwrap();
    let scored = ok(wsd()
        .arg("score")
        .arg(&all_gold)
        .arg(&key)
        .args(["--format", "json"]));
    assert!((f1_of(&scored) - count(3, "f1")).abs() < 1e-9);
    // text: a row per set, the note on the development set
    let text = ok(wsd()
        .args(["eval", "-q", "--method", "mfs", "--framework"])
        .arg(framework.join("Evaluation_Datasets")));
    assert!(text.contains("\nALL-no-dev "), "{text}");
    assert!(
        text.contains("all but semeval2007, the development set"),
        "{text}"
    );
    // compare takes the same folder: one column per set
    let report = ok(wsd()
        .args([
            "compare",
            "-q",
            "--method",
            "mfs",
            "--format",
            "json",
            "--framework",
        ])
        .arg(&framework));
    let report: serde_json::Value = serde_json::from_str(&report).unwrap();
    let by_set: Vec<(&str, f64)> = report["methods"][0]["by_dataset"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let f1 = r["f1"].as_f64().unwrap();
            (r["label"].as_str().unwrap(), f1)
        })
        .collect();
    let labels: Vec<&str> = by_set.iter().map(|(l, _)| *l).collect();
    assert_eq!(
        labels,
        ["senseval2", "semeval2007", "semeval2015", "ALL-no-dev"]
    );
    assert!((by_set[3].1 - count(4, "f1")).abs() < 1e-9, "{by_set:?}");
    // a folder without data sets is an error naming it
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let err = fails(
        wsd()
            .args(["eval", "--method", "mfs", "--framework"])
            .arg(&empty),
    );
    assert!(
        err.contains("no evaluation data set at") && err.contains("empty"),
        "{err}"
    );
}

/// `wsd data` says where each resource is, lists the framework's data sets
/// it found, and for what is missing how to get it.
#[test]
fn data_lists_resources_framework_sets_and_how_to_fetch_the_missing() {
    let tmp = tempdir();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(home.join("corpora/wsd-eval")).unwrap();
    std::os::unix::fs::symlink(
        semeval().canonicalize().unwrap(),
        home.join("corpora/wsd-eval/semeval2007"),
    )
    .unwrap();
    let data = |format: &str| {
        ok(wsd()
            .current_dir(tmp.path())
            .env("WSD_HOME", &home)
            .args(["data", "--format", format]))
    };
    let v: serde_json::Value = serde_json::from_str(&data("json")).unwrap();
    let rows = v["resources"].as_array().unwrap();
    let row = |name: &str| {
        rows.iter()
            .find(|r| r["resource"] == name)
            .unwrap_or_else(|| panic!("no {name} row: {v}"))
    };
    let sets = row("framework sets");
    assert_eq!(sets["found"], true);
    assert_eq!(sets["sets"], serde_json::json!(["semeval2007"]));
    assert_eq!(row("SemEval-2007 (dev set)")["found"], true);
    let ens = row("ens model");
    assert_eq!(ens["found"], false);
    assert!(ens["fetch"]
        .as_str()
        .unwrap()
        .contains("wsd train --method ens"));
    let text = data("text");
    assert!(
        text.contains("(semeval2007; wsd eval --framework)"),
        "{text}"
    );
    assert!(
        text.contains("SemCor 3.0               missing ("),
        "{text}"
    );
}

/// A copy of the fixture SemCor where br-z03 gets three more tags: a sense
/// number (99) with a lexsn WordNet lacks, and a sense number without any
/// lexsn (dropped by the reader); the fixture's br-z01 has two wnsn=0
/// senses (dropped).
fn semcor_with_bad_tags(dir: &std::path::Path) -> std::path::PathBuf {
    let fixture = root().join("tests/fixtures/semcor");
    let out = dir.join("semcor");
    for f in wsd::corpus::semcor_files(&fixture).unwrap() {
        let to = out.join(f.strip_prefix(&fixture).unwrap());
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        let text = std::fs::read_to_string(&f).unwrap();
        if !f.ends_with("br-z03") {
            std::fs::write(to, text).unwrap();
            continue;
        }
        let text = text.replace(
            "<wf cmd=tag pos=RB ot=notag>fast</wf>",
            "<wf cmd=done pos=RB lemma=fast wnsn=99 lexsn=4:02:99::>fast</wf>\n\
             <wf cmd=done pos=NN lemma=jury wnsn=2>jury</wf>",
        );
        std::fs::write(to, text).unwrap();
    }
    out
}

/// The tags the SemCor reader drops (wnsn=0, a wnsn without lexsn) and the
/// keys WordNet lacks were skipped with no word (the wnsn-without-lexsn
/// ones even by `wsd stats`): `wsd stats` counts them with why, and the
/// summary lines of `wsd train` and `wsd eval --semcor` say how many.
#[test]
fn skipped_semcor_tags_are_counted_by_stats_train_and_eval() {
    let d = tempdir();
    let sc = semcor_with_bad_tags(d.path());
    let stats = ok(wsd().args(["stats", "--split", "all", "--semcor"]).arg(&sc));
    assert!(
        stats.contains(
            "4 SemCor tags skipped (2 with wnsn=0, senses lost in the 1.6→3.0 mapping; \
             1 with a wnsn but no lexsn (no sense key); 1 whose sense key this WordNet lacks)"
        ),
        "{stats}"
    );
    assert!(
        stats
            .lines()
            .any(|l| l.starts_with("wnsn without lexsn") && l.ends_with(" 1")),
        "{stats}"
    );
    let (out, _, err) = run(wsd()
        .args(["train", "--method", "nb", "--split", "all", "--semcor"])
        .arg(&sc)
        .arg("--output")
        .arg(d.path().join("nb.wsd")));
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("Naive Bayes trained on ")
            && err.contains("; 4 SemCor tags skipped (2 with wnsn=0"),
        "{err}"
    );
    let (out, _, err) = run(wsd()
        .args(["eval", "--method", "mfs", "--split", "all", "--semcor"])
        .arg(&sc));
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains(" instances/s); 3 SemCor tags skipped (2 with wnsn=0"),
        "{err}"
    );
    // -q drops the summary lines, and the clause with them
    let (_, _, err) = run(wsd()
        .args([
            "-q", "eval", "--method", "mfs", "--split", "all", "--semcor",
        ])
        .arg(&sc));
    assert!(!err.contains("skipped"), "{err}");
}
