//! The `--raw` alignment against gold instances, joined units' secondary
//! rows, and the `--mwe` option.

use super::*;

#[test]
fn raw_alignment_on_semeval_2007() {
    let learned = semeval_breakdown(MweMode::Learned, true);
    // The joins themselves, without the heads' secondary targets (which
    // rescue most wrong joins, greedy's too).
    let learned_joins = semeval_breakdown(MweMode::Learned, false);
    let greedy = semeval_breakdown(MweMode::Greedy, false);
    assert_eq!(learned.instances, 455);
    assert_eq!(
        learned.matched
            + learned.missed_target
            + learned.wrong_pos
            + learned.wrong_lemma
            + learned.multiword,
        455
    );
    assert!(learned.matched > 400, "{learned:?}");
    assert!(
        learned_joins.multiword < greedy.multiword,
        "{learned_joins:?} {greedy:?}"
    );
    assert!(learned.missed_target <= 12, "{learned:?}");
    // SemEval-2007 tags the verb of most units SemCor joins (`talking` of
    // `talking about`): the heads' secondary targets match them.
    let no_heads = learned_joins;
    assert!(
        learned.multiword < no_heads.multiword && learned.matched > no_heads.matched,
        "{learned:?} {no_heads:?}"
    );
    assert!(learned.extra_targets > no_heads.extra_targets);
}

/// A joined unit is followed by a row for each of its content words: the
/// head word (the verb of a verb unit, else the last word; `….h`) and the
/// others (`….wK`, K the word's place in the unit), in text order, marked
/// by `within`; `--no-heads` drops them.
#[test]
fn joined_units_give_their_words_secondary_rows() {
    let text = b"He was talking about the health problems.\n";
    let (code, out, err) = run_stdin(tag().args(["--method", "mfs"]), text);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
    let within = rows[0].iter().position(|h| *h == "within").unwrap();
    let unit = rows.iter().position(|r| r[6] == "talk_about").unwrap();
    let head = &rows[unit + 1];
    assert_eq!(
        (head[5], head[6], head[7]),
        ("talking", "talk", "v"),
        "{out}"
    );
    assert_eq!(head[2], rows[unit][2], "the unit's token number");
    assert_eq!(head[within], "talk_about");
    assert_eq!(rows[unit][within], "-");
    assert!(head[8].starts_with("talk%2:"), "{out}");
    assert_ne!(
        rows[unit + 2][within],
        "talk_about",
        "`about` is no content word"
    );
    let noun = rows.iter().position(|r| r[6] == "health_problem").unwrap();
    assert_eq!(
        (rows[noun + 1][6], rows[noun + 2][6]),
        ("health", "problem"),
        "a noun unit's words in text order: {out}"
    );
    assert!(rows[noun + 1][8].starts_with("health%1:"), "{out}");
    let (_, plain, _) = run_stdin(tag().args(["--method", "mfs", "--no-heads"]), text);
    assert_eq!(plain.lines().count(), out.lines().count() - 3, "{plain}");
    assert!(plain.lines().skip(1).all(|l| l.ends_with("\t-")), "{plain}");
    let (_, keys, _) = run_stdin(tag().args(["--method", "mfs", "--format", "key"]), text);
    assert!(keys.contains("stdin.s0.t2 talk_about%2:"), "{keys}");
    assert!(keys.contains("stdin.s0.t2.h talk%2:"), "{keys}");
    assert!(keys.contains("stdin.s0.t4.w0 health%1:"), "{keys}");
    assert!(keys.contains("stdin.s0.t4.h problem%1:"), "{keys}");
    let (_, json, _) = run_stdin(tag().args(["--method", "mfs", "--format", "jsonl"]), text);
    let v: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    let words: Vec<&serde_json::Value> = v["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t.get("within").is_some())
        .collect();
    assert_eq!(words.len(), 3, "{json}");
    assert_eq!(words[0]["lemma"], "talk");
    assert_eq!(words[0]["within"], "talk_about");
    assert_eq!(words[1]["lemma"], "health");
}

#[test]
fn mwe_option_and_its_alias() {
    let text = b"We walked over the hills.\n";
    let (code, learned, err) = run_stdin(tag().args(["--method", "mfs"]), text);
    assert_eq!(code, 0, "{err}");
    assert!(learned.contains("\thills\thill\tn\t"), "{learned}");
    let (_, greedy, _) = run_stdin(tag().args(["--method", "mfs", "--mwe", "greedy"]), text);
    assert!(greedy.contains("\tthe hills\tthe_hill\tn\t"), "{greedy}");
    let (_, none, _) = run_stdin(
        tag().args(["--method", "mfs", "--mwe", "none"]),
        b"It took place.\n",
    );
    let (_, alias, _) = run_stdin(
        tag().args(["--method", "mfs", "--no-mwe"]),
        b"It took place.\n",
    );
    assert_eq!(none, alias);
    assert!(none.contains("\ttook\ttake\tv\t"));
    let (code, _, err) = run_stdin(tag().args(["--method", "mfs", "--mwe", "sometimes"]), text);
    assert_eq!(code, 2);
    assert!(err.contains("learned, greedy or none"), "{err}");
}
