//! Evaluation inputs: XML and key files that are empty, malformed or
//! inconsistent.

use super::*;

// ---- 6. Evaluation inputs ------------------------------------------------------

#[test]
fn an_empty_xml_is_an_error() {
    let d = tempdir();
    let x = d.path().join("empty.xml");
    std::fs::write(&x, "").unwrap();
    expect(
        wsd()
            .args(["eval", "--method", "mfs", "--xml"])
            .arg(&x)
            .arg("--gold")
            .arg(semeval().join("semeval2007.gold.key.txt")),
        2,
        &["empty.xml:1:"],
    );
}

#[test]
fn a_bom_is_stripped_from_key_files() {
    let d = tempdir();
    let gold = d.path().join("gold.key");
    let text = std::fs::read_to_string(semeval().join("semeval2007.gold.key.txt")).unwrap();
    std::fs::write(&gold, format!("\u{feff}{text}")).unwrap();
    // The system answers the first instance only, without a BOM.
    let sys = d.path().join("sys.key");
    std::fs::write(&sys, text.lines().next().unwrap().to_string() + "\n").unwrap();
    let r = expect(wsd().arg("score").arg(&gold).arg(&sys), 0, &[]);
    let all = r.out.lines().find(|l| l.starts_with("all")).unwrap_or("");
    assert!(all.contains("100.0"), "{}", r.out);
    assert!(!r.out.contains("not in the gold"), "{}", r.out);
}

#[test]
fn a_bom_is_stripped_from_the_xml() {
    let d = tempdir();
    let x = d.path().join("bom.xml");
    let text = std::fs::read_to_string(semeval().join("semeval2007.data.xml")).unwrap();
    std::fs::write(&x, format!("\u{feff}{text}")).unwrap();
    let r = expect(
        wsd()
            .args(["eval", "--method", "mfs", "--format", "json", "--xml"])
            .arg(&x)
            .arg("--gold")
            .arg(semeval().join("semeval2007.gold.key.txt")),
        0,
        &[],
    );
    let v: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    // every instance, the first one included, matched its gold id
    assert_eq!(v["instances"], 455, "{v}");
    assert!((v["f1"].as_f64().unwrap() - 55.2).abs() < 0.05, "{v}");
}

#[test]
fn nul_in_a_gold_key_is_reported_with_its_line() {
    let d = tempdir();
    let gold = d.path().join("gold.key");
    std::fs::write(
        &gold,
        "d000.s000.t000 bank%1:17:01::\nd000.s000.t001 ba\0nk\n",
    )
    .unwrap();
    expect(
        wsd().arg("score").arg(&gold).arg(&gold),
        2,
        &["gold.key:2:"],
    );
}

#[test]
fn a_second_corpus_element_is_refused() {
    let d = tempdir();
    let x = d.path().join("two.xml");
    std::fs::write(
        &x,
        "<corpus lang=\"en\">\n<text id=\"d0\">\n<sentence id=\"d0.s0\">\n<wf lemma=\"a\" pos=\"X\">a</wf>\n</sentence>\n</text>\n</corpus>\n<corpus lang=\"en\">\n</corpus>\n",
    )
    .unwrap();
    expect(
        wsd()
            .args(["eval", "--method", "mfs", "--xml"])
            .arg(&x)
            .arg("--gold")
            .arg(semeval().join("semeval2007.gold.key.txt")),
        2,
        &["two.xml:8:", "second <corpus>"],
    );
}

#[test]
fn an_empty_gold_key_file_is_an_error() {
    let d = tempdir();
    let gold = d.path().join("empty.key");
    std::fs::write(&gold, "\n").unwrap();
    let sys = d.path().join("sys.key");
    std::fs::write(&sys, "").unwrap();
    // an empty system file is a system that answered nothing: fine
    let g = semeval().join("semeval2007.gold.key.txt");
    expect(wsd().arg("score").arg(&g).arg(&sys), 0, &[]);
    expect(
        wsd().arg("score").arg(&gold).arg(&sys),
        2,
        &["empty.key:1:", "no instances"],
    );
    expect(
        wsd()
            .args(["eval", "--method", "mfs", "--xml"])
            .arg(semeval().join("semeval2007.data.xml"))
            .arg("--gold")
            .arg(&gold),
        2,
        &["empty.key:1:", "no instances"],
    );
}

#[test]
fn malformed_gold_keys_are_reported() {
    let d = tempdir();
    let gold = d.path().join("gold.key");
    std::fs::write(
        &gold,
        "d000.s000.t000 notakey\nd000.s000.t001 bank%1:17:01::\n",
    )
    .unwrap();
    let sys = d.path().join("sys.key");
    std::fs::write(
        &sys,
        "d000.s000.t000 bank%1:17:01::\nd000.s000.t001 bank%1:17:01::\n",
    )
    .unwrap();
    let r = expect(wsd().arg("score").arg(&gold).arg(&sys), 0, &[]);
    assert!(
        r.out
            .contains("gold keys unknown to WordNet: 1 (e.g. d000.s000.t000 notakey)"),
        "{}",
        r.out
    );
    let r = expect(
        wsd()
            .args(["score", "--format", "json"])
            .arg(&gold)
            .arg(&sys),
        0,
        &[],
    );
    let v: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(v["unknown_gold_keys"]["count"], 1, "{v}");
}

/// Instances without `pos` (and a gold key that gives none) were in no
/// per-POS row: the rows did not add up to `all`. Then they were, in a row
/// labelled `?`, silently: now the row is `no POS` and stderr says how
/// many instances lack a lemma or a pos, and which comes first.
#[test]
fn per_pos_rows_add_up_to_the_total() {
    let d = tempdir();
    let xml = d.path().join("nopos.xml");
    let tiny = std::fs::read_to_string(root().join("tests/fixtures/tiny.data.xml")).unwrap();
    std::fs::write(
        &xml,
        tiny.replace(" lemma=\"bank\" pos=\"NOUN\"", "")
            .replace("lemma=\"happy\" pos=\"ADJ\"", "lemma=\"happy\""),
    )
    .unwrap();
    let gold = d.path().join("gold.key");
    std::fs::write(
        &gold,
        "d000.s000.t000 refer%2:32:01::\nd000.s000.t001 U\nd000.s001.t000 happy%3:00:00::\nd001.s000.t000 quickly%4:02:00::\n",
    )
    .unwrap();
    let warning = format!(
        "wsd: warning: {}: 2 instance(s) without a lemma or a WordNet pos attribute (the first: d000.s000.t001)",
        xml.display()
    );
    let eval = |extra: &[&str]| {
        let r = expect(
            wsd()
                .args(["eval", "--method", "mfs", "--xml"])
                .arg(&xml)
                .arg("--gold")
                .arg(&gold)
                .args(extra),
            0,
            &[&warning],
        );
        assert_eq!(r.err.matches("warning").count(), 1, "{}", r.err);
        r.out
    };
    let v: serde_json::Value = serde_json::from_str(&eval(&["--format", "json"])).unwrap();
    let by_pos = v["by_pos"].as_object().unwrap();
    let sum: u64 = by_pos
        .values()
        .map(|s| s["instances"].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 4, "{v}");
    assert_eq!(v["instances"], 4, "{v}");
    assert_eq!(by_pos["no POS"]["instances"], 1, "{v}");
    let text = eval(&["--per-pos"]);
    assert!(text.lines().any(|l| l.starts_with("no POS ")), "{text}");
    // method, header, all; then the POS rows
    let rows: u64 = text
        .lines()
        .skip(3)
        .filter(|l| !l.starts_with("decided") && !l.contains("unknown to WordNet"))
        .map(|l| {
            l.split_whitespace()
                .rev()
                .nth(2)
                .unwrap()
                .parse::<u64>()
                .unwrap()
        })
        .sum();
    assert_eq!(rows, 4, "{text}");
}

#[test]
fn duplicate_ids_in_a_key_file_are_reported() {
    let d = tempdir();
    let k = d.path().join("dup.key");
    std::fs::write(&k, "a bank%1:17:01::\na bank%1:17:01::\n").unwrap();
    expect(
        wsd().arg("score").arg(&k).arg(&k),
        2,
        &["dup.key:2:", "duplicate"],
    );
}

#[test]
fn tag_refuses_the_same_file_twice() {
    let d = tempdir();
    let input = text_file(d.path());
    let again = d.path().join(".").join("in.txt");
    expect(
        tag().args(["--format", "key"]).arg(&input).arg(&again),
        2,
        &["given twice"],
    );
}

#[test]
fn score_and_stats_refuse_a_missing_wordnet() {
    let g = semeval().join("semeval2007.gold.key.txt");
    expect(
        wsd()
            .args(["--wordnet", "/nonexistent/dict", "score"])
            .arg(&g)
            .arg(&g),
        2,
        &["/nonexistent/dict"],
    );
    expect(
        wsd().args(["--wordnet", "/nonexistent/dict", "stats"]),
        2,
        &["/nonexistent/dict"],
    );
}
