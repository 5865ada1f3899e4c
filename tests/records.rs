//! `wsd tag --input-format jsonl`: one output record per input record,
//! error records for bad ones, output independent of the other records,
//! of the thread count and of how the input is split.

use crate::util::*;
use serde_json::Value;

fn rec(id: &str, text: &str) -> String {
    serde_json::json!({"id": id, "text": text}).to_string()
}

/// Five good records: a few sentences each, a passed-through field, a
/// numeric id.
fn good() -> Vec<String> {
    vec![
        rec("a", "The bank can guarantee deposits. It invests in mortgage securities."),
        r#"{"id": 7, "text": "The river bank was muddy.\n\nHe sat on the bank.", "source": {"url": "x"}}"#
            .to_string(),
        rec("c", "The meeting took place in New York."),
        rec("d tab\there", "Plants need light and water."),
        rec("e", ""),
    ]
}

fn tag_records(input: &[u8], format: &str, threads: &str) -> (i32, String, String) {
    run_stdin(
        tag().args([
            "--method",
            "mfs",
            "--input-format",
            "jsonl",
            "--format",
            format,
            "--threads",
            threads,
        ]),
        input,
    )
}

fn joined(lines: &[String]) -> Vec<u8> {
    lines
        .iter()
        .flat_map(|l| format!("{l}\n").into_bytes())
        .collect()
}

#[test]
fn one_object_per_record_with_its_id_and_fields() {
    let (code, out, err) = tag_records(&joined(&good()), "jsonl", "2");
    assert_eq!(code, 0, "{err}");
    let recs: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let ids: Vec<&Value> = recs.iter().map(|r| &r["id"]).collect();
    assert_eq!(
        ids,
        [
            &Value::from("a"),
            &Value::from(7),
            &Value::from("c"),
            &Value::from("d tab\there"),
            &Value::from("e"),
        ]
    );
    // Fields are passed through, the text is not; sentences count from 0
    // and offsets are in the record's own text.
    assert_eq!(recs[1]["source"]["url"], "x");
    assert!(recs[1].get("text").is_none());
    let s = recs[1]["sentences"].as_array().unwrap();
    assert_eq!(s.len(), 2);
    assert_eq!(s[0]["sentence"], 0);
    assert_eq!(s[1]["sentence"], 1);
    assert_eq!(s[0]["tokens"][0]["start"], 0);
    let bank = &s[1]["tokens"][4];
    assert_eq!(
        (bank["text"].as_str(), bank["start"].as_u64()),
        (Some("bank"), Some(41))
    );
    assert!(bank["sense"].as_str().unwrap().starts_with("bank%1:"));
    assert_eq!(recs[0]["sentences"][0]["tokens"][0]["start"], 0);
    assert_eq!(recs[4]["sentences"].as_array().unwrap().len(), 0);
    // One sentence object per sentence, no doc field inside.
    assert!(s[0].get("doc").is_none());
}

#[test]
fn tsv_and_key_carry_the_record_id() {
    let (code, out, err) = tag_records(&joined(&good()), "tsv", "1");
    assert_eq!(code, 0, "{err}");
    let docs: Vec<String> = out
        .lines()
        .skip(1)
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    assert!(docs.iter().any(|d| d == "a") && docs.iter().any(|d| d == "7"));
    assert!(out.contains("\"d tab\there\"\t0\t0\t"), "csv-quoted id");
    let (code, out, _) = tag_records(&joined(&good()), "key", "1");
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l.starts_with("7.s1.t")));
    assert!(out.lines().any(|l| l.starts_with("c.s0.t")));
}

#[test]
fn bad_records_give_error_records_and_the_rest_is_intact() {
    let good = good();
    let mut input = Vec::new();
    let bad: [&[u8]; 8] = [
        b"{\"id\": \"j\", \"text\": \"unterminated\n",
        b"[1, 2]\n",
        b"{\"id\": \"nt\", \"body\": \"no text\"}\n",
        b"{\"id\": \"num\", \"text\": 42}\n",
        b"{\"text\": \"no id\"}\n",
        b"{\"id\": [1], \"text\": \"bad id\"}\n",
        b"{\"id\": \"u8\", \"text\": \"caf\xe9\"}\n",
        b"   \n",
    ];
    for (i, g) in good.iter().enumerate() {
        input.extend_from_slice(bad[i]);
        input.extend_from_slice(format!("{g}\n").as_bytes());
    }
    for b in &bad[good.len()..] {
        input.extend_from_slice(b);
    }
    // Over the 10 MB limit (and no newline at the end).
    input.extend_from_slice(b"{\"id\": \"big\", \"text\": \"");
    input.extend(std::iter::repeat_n(b'a', wsd::tagging::records::MAX_RECORD));
    input.extend_from_slice(b"\"}");
    let (code, out, err) = tag_records(&input, "jsonl", "2");
    assert_eq!(code, 1, "some records failed: {err}");
    assert!(err.contains("8 record(s) could not be tagged"), "{err}");
    let recs: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        recs.len(),
        good.len() + 8,
        "one record out per record in, blank lines skipped"
    );
    let errors: Vec<(Value, u64, String)> = recs
        .iter()
        .filter(|r| r.get("error").is_some())
        .map(|r| {
            (
                r["id"].clone(),
                r["line"].as_u64().unwrap(),
                r["error"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let lines: Vec<u64> = errors.iter().map(|e| e.1).collect();
    assert_eq!(lines, [1, 3, 5, 7, 9, 11, 12, 14], "{errors:?}");
    let by_line = |l: u64| &errors.iter().find(|e| e.1 == l).unwrap().2;
    assert!(by_line(1).starts_with("invalid JSON"), "{errors:?}");
    assert_eq!(by_line(3), "not a JSON object");
    assert_eq!(by_line(5), "no text");
    assert_eq!(by_line(7), "text must be a string");
    assert_eq!(by_line(9), "no id");
    assert_eq!(by_line(11), "id must be a string or a number");
    assert!(by_line(12).starts_with("invalid UTF-8"));
    assert!(by_line(14).contains("over the limit"), "{errors:?}");
    // Ids are kept where they can be read.
    let id_of = |l: u64| errors.iter().find(|e| e.1 == l).unwrap().0.clone();
    assert_eq!(id_of(1), Value::Null);
    assert_eq!(id_of(5), Value::from("nt"));
    assert_eq!(id_of(7), Value::from("num"));
    assert_eq!(id_of(12), Value::from("u8"));
    assert_eq!(id_of(14), Value::Null);
    // The good records come out exactly as when tagged on their own.
    let alone = tag_records(&joined(&good), "jsonl", "1").1;
    let kept: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with("{\"error\":"))
        .collect();
    assert_eq!(kept, alone.lines().collect::<Vec<_>>());
}

#[test]
fn output_does_not_depend_on_threads_neighbours_or_splits() {
    // The records six times over, so batches of several sizes form.
    let mut lines = Vec::new();
    for round in 0..6 {
        for (i, g) in good().iter().enumerate() {
            let mut v: Value = serde_json::from_str(g).unwrap();
            v["id"] = Value::from(format!("{round}-{i}"));
            lines.push(v.to_string());
        }
    }
    for format in ["jsonl", "tsv", "key"] {
        let (code, whole, err) = tag_records(&joined(&lines), format, "2");
        assert_eq!(code, 0, "{err}");
        let (_, one_thread, _) = tag_records(&joined(&lines), format, "1");
        assert_eq!(whole, one_thread, "{format}: --threads changes nothing");
        for cut in [1, 13, lines.len() - 1] {
            let (_, a, _) = tag_records(&joined(&lines[..cut]), format, "2");
            let (_, b, _) = tag_records(&joined(&lines[cut..]), format, "1");
            let b = if format == "tsv" {
                b.split_once('\n').unwrap().1.to_string() // one header
            } else {
                b
            };
            assert_eq!(whole, a + &b, "{format}: split at {cut}");
        }
    }
    // Each record alone gives its own part of the whole.
    let (_, whole, _) = tag_records(&joined(&lines), "jsonl", "2");
    for (i, l) in lines.iter().enumerate().step_by(7) {
        let (_, alone, _) = tag_records(format!("{l}\n").as_bytes(), "jsonl", "1");
        assert_eq!(alone.trim_end(), whole.lines().nth(i).unwrap());
    }
}
