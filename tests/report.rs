//! The evaluation report (`wsd compare`, `wsd eval --report/--errors`,
//! `wsd errors`) on SemEval-2007: the HTML page is parsed back (every
//! chart present, every number equal to the JSON's), the TSV is read back
//! with the csv crate, and the raw-text front-end breakdown adds up.

use std::collections::HashSet;

use regex::Regex;

use crate::util::*;
use wsd::report::{html, Report};

fn se07() -> Vec<String> {
    let dir = semeval();
    vec![
        "--xml".into(),
        dir.join("semeval2007.data.xml").display().to_string(),
        "--gold".into(),
        dir.join("semeval2007.gold.key.txt").display().to_string(),
    ]
}

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("not JSON ({e}):\n{s}"))
}

/// Every `data-key`/`data-value` pair of the page: (JSON pointer, value).
fn numbers(page: &str) -> Vec<(String, f64)> {
    let re = Regex::new(r#"data-key="([^"]+)" data-value="([^"]+)""#).unwrap();
    re.captures_iter(page)
        .map(|c| (c[1].to_string(), c[2].parse::<f64>().expect("a number")))
        .collect()
}

/// The page's numbers are the JSON's, exactly.
fn assert_numbers_match(page: &str, v: &serde_json::Value) -> usize {
    let nums = numbers(page);
    for (key, value) in &nums {
        let j = v
            .pointer(key)
            .unwrap_or_else(|| panic!("{key} is not in the JSON"))
            .as_f64()
            .unwrap_or_else(|| panic!("{key} is not a number in the JSON"));
        assert_eq!(j, *value, "{key}");
    }
    nums.len()
}

/// Bars of the chart `id`.
fn bars(page: &str, id: &str) -> usize {
    let start = page
        .find(&format!("<svg class=\"chart\" id=\"{id}\""))
        .unwrap_or_else(|| panic!("no chart {id}"));
    let end = start + page[start..].find("</svg>").expect("closed svg");
    page[start..end].matches("<rect class=\"bar\"").count()
}

fn assert_self_contained(page: &str) {
    let lower = page.to_lowercase();
    for bad in [
        "<script", "http:", "https:", "@import", "url(", "<link", "<img", "<iframe",
    ] {
        assert!(!lower.contains(bad), "the page contains {bad}");
    }
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.trim_end().ends_with("</html>"));
}

#[test]
fn compare_report_has_every_chart_and_the_json_numbers() {
    let d = tempdir();
    let page_path = d.path().join("r.html");
    let out = ok(wsd()
        .args(["compare", "--method", "mfs", "--method", "lesk", "-q"])
        .args(se07())
        .arg("--report")
        .arg(&page_path)
        .args(["--format", "json"]));
    let v = json(&out);
    let page = std::fs::read_to_string(&page_path).unwrap();
    assert_self_contained(&page);

    // The page is drawn from the JSON alone (serde_json reads floats back
    // exactly: the float_roundtrip feature).
    let report: Report = serde_json::from_value(v.clone()).unwrap();
    assert!(
        html::render(&report) == page,
        "the page drawn from the JSON differs"
    );

    // Every chart, with a bar per method and group.
    assert_eq!(bars(&page, "chart-overall"), 4 * 2);
    assert_eq!(bars(&page, "chart-pos"), 2 * 2, "noun and verb");
    assert_eq!(bars(&page, "chart-sense"), 2 * 2);
    assert!(bars(&page, "chart-candidates") >= 2 * 5);
    assert!(bars(&page, "chart-decision") >= 2 * 2);
    for mi in 0..2 {
        assert_eq!(
            bars(&page, &format!("chart-lemmas-{mi}")),
            report.methods[mi].lemmas.len()
        );
        assert!(page.contains(&format!("id=\"table-lemmas-{mi}\"")));
    }
    assert!(page.contains("id=\"table-compare-0\""));
    assert!(!page.contains("id=\"chart-dataset\""), "one data set");
    assert!(!page.contains("id=\"chart-front-end\""), "gold input");
    let n = assert_numbers_match(&page, &v);
    assert!(n > 100, "only {n} numbers checked");

    // The figures: mfs as `wsd eval` scores it, and what MFS means.
    let eval = json(&ok(wsd()
        .args(["eval", "--method", "mfs", "--format", "json", "-q"])
        .args(se07())));
    let mfs = &v["methods"][0];
    assert_eq!(mfs["method"], "mfs");
    assert_eq!(mfs["overall"]["f1"], eval["f1"]);
    assert!((mfs["overall"]["f1"].as_f64().unwrap() - 55.2).abs() < 0.05);
    assert_eq!(v["instances"], 455);
    let sense = mfs["by_sense"].as_array().unwrap();
    assert_eq!(sense[0]["label"], "first sense (MFS)");
    assert_eq!(sense[0]["f1"], 100.0);
    assert_eq!(sense[1]["f1"], 0.0);
    let sum = |rows: &serde_json::Value| -> u64 {
        rows.as_array()
            .unwrap()
            .iter()
            .map(|r| r["instances"].as_u64().unwrap())
            .sum()
    };
    for field in [
        "by_pos",
        "by_sense",
        "by_candidates",
        "by_decision",
        "by_decider",
    ] {
        assert_eq!(sum(&mfs[field]), 455, "{field}");
    }
    // The 2×2 table covers every instance and agrees with each method's score.
    let c = &v["comparisons"][0];
    let cell = |k: &str| c[k].as_u64().unwrap();
    assert_eq!(
        cell("both_right") + cell("a_only") + cell("b_only") + cell("both_wrong"),
        455
    );
    for (side, only, m) in [("a", "a_only", 0), ("b", "b_only", 1)] {
        let correct = v["methods"][m]["overall"]["correct"].as_f64().unwrap();
        assert_eq!((cell("both_right") + cell(only)) as f64, correct, "{side}");
    }
    assert!(cell("disagree") >= cell("a_only") + cell("b_only"));
    for e in c["examples"].as_array().unwrap() {
        let (a, b) = (e["a"].as_str(), e["b"].as_str());
        assert_ne!(a, b);
        let right = if e["right"] == "a" { a } else { b };
        assert!(e["gold"]
            .as_str()
            .unwrap()
            .split(' ')
            .any(|g| Some(g) == right));
    }
    // The worst lemmas lose points in order, with their confusions.
    let lemmas = mfs["lemmas"].as_array().unwrap();
    assert!(!lemmas.is_empty());
    for w in lemmas.windows(2) {
        assert!(w[0]["points"].as_f64() >= w[1]["points"].as_f64());
    }
    let top = &lemmas[0]["confusions"][0];
    assert!(top["count"].as_u64().unwrap() >= 1);
    assert!(!top["gold_gloss"].as_str().unwrap().is_empty());
    assert!(!top["chosen_gloss"].as_str().unwrap().is_empty());

    // The text summary has the same table.
    let text = ok(wsd()
        .args(["compare", "--method", "mfs", "--method", "lesk", "-q"])
        .args(se07()));
    assert!(text.contains("mfs against lesk"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("mfs ") && l.contains("55.2")),
        "{text}"
    );
}

#[test]
fn several_data_sets_are_reported_each() {
    let mut args = se07();
    args.extend(se07());
    let out = ok(wsd()
        .args(["compare", "--method", "mfs", "--format", "json", "-q"])
        .args(&args));
    let v = json(&out);
    assert_eq!(v["instances"], 910);
    let rows = v["methods"][0]["by_dataset"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["label"], "semeval2007");
    assert_eq!(rows[1]["label"], "semeval2007-2");
    assert_eq!(rows[0]["f1"], rows[1]["f1"]);
    assert_eq!(rows[0]["f1"], v["methods"][0]["overall"]["f1"]);
    let report: Report = serde_json::from_value(v.clone()).unwrap();
    let page = html::render(&report);
    assert_eq!(bars(&page, "chart-dataset"), 2);
    assert!(page.contains("<a href=\"#dataset\">"));
    assert_numbers_match(&page, &v);
    // A --gold for every --xml.
    let err = fails(wsd().args(["compare", "--method", "mfs"]).args(&args[..6]));
    assert!(err.contains("one --gold per --xml"), "{err}");
}

#[test]
fn eval_errors_tsv_lists_every_wrong_answer() {
    let d = tempdir();
    let tsv = d.path().join("e.tsv");
    let rep = d.path().join("r.json");
    let out = ok(wsd()
        .args(["eval", "--method", "mfs", "--format", "json", "-q"])
        .args(se07())
        .arg("--errors")
        .arg(&tsv)
        .arg("--report")
        .arg(&rep));
    let v = json(&out);
    // --report FILE.json writes the report's JSON; --format json carries it.
    let file = json(&std::fs::read_to_string(&rep).unwrap());
    assert_eq!(file, v["report"]);
    assert_eq!(v["report"]["methods"][0]["overall"]["f1"], v["f1"]);

    let mut r = csv::ReaderBuilder::new()
        .delimiter(b'\t')
        .from_path(&tsv)
        .unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header, wsd::report::errors::HEADER);
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    let correct = v["correct"].as_f64().unwrap() as usize;
    assert_eq!(rows.len(), 455 - correct);
    let gold = wsd::corpus::read_key_file(semeval().join("semeval2007.gold.key.txt")).unwrap();
    let mut ids = HashSet::new();
    for row in &rows {
        let (id, gold_keys, chosen) = (&row[0], &row[5], &row[7]);
        assert!(ids.insert(id.to_string()), "{id} twice");
        assert_eq!(gold.get(id).unwrap().join(" "), gold_keys);
        assert!(!gold_keys.split(' ').any(|g| g == chosen), "{id} is right");
        assert!(row[4].contains(' '), "sentence of {id}");
        assert!(!row[6].is_empty() && !row[8].is_empty(), "glosses of {id}");
        assert_eq!(&row[9], "mfs");
    }
    // `wsd errors` writes the same lines.
    let stdout = ok(wsd().args(["errors", "--method", "mfs", "-q"]).args(se07()));
    assert_eq!(stdout, std::fs::read_to_string(&tsv).unwrap());
}

#[test]
fn errors_tsv_quotes_what_needs_quoting() {
    let d = tempdir();
    let xml = d.path().join("q.data.xml");
    let key = d.path().join("q.gold.key.txt");
    std::fs::write(
        &xml,
        r#"<?xml version="1.0" encoding="UTF-8" ?>
<corpus lang="en" source="q">
<text id="d0">
<sentence id="d0.s0">
<wf lemma="&quot;" pos=".">&quot;</wf>
<wf lemma="the" pos="DET">The</wf>
<instance id="d0.s0.t0" lemma="bank" pos="NOUN">bank</instance>
<wf lemma="&quot;" pos=".">&quot;</wf>
<instance id="d0.s0.t1" lemma="say" pos="VERB">said</instance>
</sentence>
</text>
</corpus>
"#,
    )
    .unwrap();
    // The financial bank (not the first sense: wrong) and say's first sense (right).
    std::fs::write(&key, "d0.s0.t0 bank%1:14:00::\nd0.s0.t1 say%2:32:00::\n").unwrap();
    let out = ok(wsd()
        .args(["errors", "--method", "mfs", "-q", "--xml"])
        .arg(&xml)
        .arg("--gold")
        .arg(&key));
    assert!(out.contains("\"\"\" The bank \"\" said\""), "{out}");
    let mut r = csv::ReaderBuilder::new()
        .delimiter(b'\t')
        .from_reader(out.as_bytes());
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 1, "{out}");
    assert_eq!(&rows[0][0], "d0.s0.t0");
    assert_eq!(&rows[0][1], "q");
    assert_eq!(&rows[0][4], "\" The bank \" said");
}

#[test]
fn raw_report_breaks_down_the_front_end() {
    let d = tempdir();
    let page_path = d.path().join("raw.html");
    let out = ok(wsd()
        .args(["eval", "--raw", "--method", "mfs", "--format", "json", "-q"])
        .arg("--pos-model")
        .arg(pos_model())
        .args(se07())
        .arg("--report")
        .arg(&page_path));
    let v = json(&out);
    let r = &v["report"];
    assert_eq!(r["input"], "raw");
    let classes = r["front_end"]["classes"].as_array().unwrap();
    let labels: Vec<&str> = classes
        .iter()
        .map(|c| c["label"].as_str().unwrap())
        .collect();
    assert_eq!(
        labels,
        [
            "matched",
            "missed target",
            "wrong POS",
            "wrong lemma",
            "multiword mismatch"
        ]
    );
    let count = |i: usize| classes[i]["count"].as_u64().unwrap();
    assert_eq!((0..5).map(count).sum::<u64>(), 455);
    // Every instance the pipeline found was answered (mfs always answers).
    assert_eq!(
        455 - count(1),
        v["raw_text_instances_found"].as_u64().unwrap()
    );
    assert!(count(0) > 350, "matched {}", count(0));
    // Missed targets are unanswered: F1 0 there. (The pipeline finds all
    // 455 today; a class without instances has no row.)
    let by = r["methods"][0]["by_front_end"].as_array().unwrap();
    match by.iter().find(|x| x["label"] == "missed target") {
        Some(missed) => assert_eq!(missed["answered"], 0),
        None => assert_eq!(count(1), 0, "a class with instances has a row"),
    }
    let page = std::fs::read_to_string(&page_path).unwrap();
    assert_self_contained(&page);
    assert_eq!(bars(&page, "chart-front-end"), 5);
    assert!(bars(&page, "chart-front-end-f1") >= 2);
    assert_numbers_match(&page, r);
}
