//! `wsd tag` on plain text: the pipeline, output formats, streaming, bad input.

use std::process::Command;

use crate::util::*;

const BANK: &str = "The bank can guarantee deposit will eventually cover future tuition cost because it invests in adjustable rate mortgage securities.";
const RIVER: &str = "The river bank was muddy.";

/// (token, sense) of the rows of a TSV output.
fn senses(tsv: &str) -> Vec<(String, String)> {
    tsv.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[5].to_string(), f[8].to_string())
        })
        .collect()
}

fn sense_of(tsv: &str, word: &str) -> Vec<String> {
    senses(tsv)
        .into_iter()
        .filter(|(t, _)| t == word)
        .map(|(_, s)| s)
        .collect()
}

#[test]
fn tsv_rows_have_offsets_lemmas_and_senses() {
    let (code, out, err) = run_stdin(
        tag().args(["--method", "mfs"]),
        b"The meeting took place in New York.\n",
    );
    assert_eq!(code, 0, "{err}");
    let header = out.lines().next().unwrap();
    assert_eq!(
        header,
        "doc\tsentence\ttoken\tstart\tend\ttext\tlemma\tpos\tsense\tmethod\tdecided\tscore\twithin"
    );
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect();
    let took = rows
        .iter()
        .find(|r| r[5] == "took place")
        .expect("took place joined");
    assert_eq!(
        (took[3], took[4], took[6], took[7]),
        ("12", "22", "take_place", "v")
    );
    assert!(took[8].starts_with("take_place%2:"));
    let ny = rows
        .iter()
        .find(|r| r[5] == "New York")
        .expect("New York joined");
    assert_eq!(ny[6], "new_york");
    // Function words are not targets.
    assert!(rows.iter().any(|r| r[5] == "in" && r[8] == "-"));
    // --no-mwe keeps the words apart.
    let (_, out, _) = run_stdin(
        tag().args(["--method", "mfs", "--no-mwe"]),
        b"The meeting took place in New York.\n",
    );
    assert!(!out.contains("took place"));
    assert!(out.contains("\ttook\ttake\tv\t"));
}

#[test]
fn formats_and_sense_spellings() {
    let (code, out, _) = run_stdin(
        tag().args([
            "--method",
            "mfs",
            "--format",
            "jsonl",
            "--sense-format",
            "name",
            "--gloss",
        ]),
        format!("{RIVER} {RIVER}").as_bytes(),
    );
    assert_eq!(code, 0);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    let bank = &lines[0]["tokens"][2];
    assert_eq!(bank["text"], "bank");
    assert_eq!(bank["sense"], "bank.n.01");
    assert!(bank["gloss"].as_str().unwrap().contains("sloping land"));
    let (_, out, _) = run_stdin(
        tag().args([
            "--method",
            "mfs",
            "--format",
            "key",
            "--sense-format",
            "offset",
        ]),
        RIVER.as_bytes(),
    );
    assert!(out.lines().any(|l| l == "stdin.s0.t2 09213565-n"), "{out}");
}

#[test]
fn targets_option_selects_lemmas_or_all_words() {
    let (_, out, _) = run_stdin(
        tag().args(["--method", "mfs", "--targets", "bank"]),
        BANK.as_bytes(),
    );
    let tagged: Vec<_> = senses(&out).into_iter().filter(|(_, s)| s != "-").collect();
    assert_eq!(tagged.len(), 1, "{tagged:?}");
    let (_, out, _) = run_stdin(
        tag().args(["--method", "mfs", "--all-words"]),
        RIVER.as_bytes(),
    );
    assert_eq!(sense_of(&out, "was"), vec!["be%2:42:03::".to_string()]);
}

#[test]
fn threads_do_not_change_the_output_and_big_inputs_stream() {
    // ~1.6 MB: several blocks, several batches.
    let para = format!("{BANK} {RIVER}\n\n");
    let text = para.repeat(1600 * 1024 / para.len());
    let tmp = tempdir();
    let f = tmp.path().join("big.txt");
    std::fs::write(&f, &text).unwrap();
    let one = ok(tag().args(["--method", "mfs", "--threads", "1"]).arg(&f));
    let two = ok(tag().args(["--method", "mfs", "--threads", "2"]).arg(&f));
    assert!(one == two, "outputs differ between 1 and 2 threads");
    let rows = one.lines().count() - 1;
    assert!(rows > 250_000, "{rows} rows");
    // Offsets index the file: every row's span is its text.
    for l in one.lines().skip(1).step_by(997) {
        let r: Vec<&str> = l.split('\t').collect();
        let (s, e): (usize, usize) = (r[3].parse().unwrap(), r[4].parse().unwrap());
        assert_eq!(&text[s..e], r[5]);
    }
}

#[test]
fn bad_inputs_get_clear_messages_and_exit_codes() {
    let tmp = tempdir();
    let good = tmp.path().join("good.txt");
    std::fs::write(&good, RIVER).unwrap();
    let bad = tmp.path().join("latin1.txt");
    std::fs::write(&bad, b"caf\xe9 au lait\n").unwrap();
    let bin = tmp.path().join("blob.bin");
    std::fs::write(&bin, b"\x7fELF\x02\x01\x01\x00\x00\x00binary").unwrap();
    let empty = tmp.path().join("empty.txt");
    std::fs::write(&empty, b"").unwrap();
    // as Windows Notepad saves "Unicode" text
    let utf16 = tmp.path().join("notepad.txt");
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(RIVER.encode_utf16().flat_map(u16::to_le_bytes));
    std::fs::write(&utf16, bytes).unwrap();
    let (out, so, se) = run(tag()
        .args(["--method", "mfs"])
        .arg(&good)
        .arg(&bad)
        .arg(&bin)
        .arg(&utf16)
        .arg(&empty)
        .arg(tmp.path())
        .arg(tmp.path().join("missing.txt")));
    assert_eq!(out.status.code(), Some(1), "{se}");
    assert!(!se.contains("panicked"));
    assert!(
        se.contains("latin1.txt: invalid UTF-8 at byte offset 3"),
        "{se}"
    );
    assert!(
        se.contains("blob.bin: binary file (NUL byte at byte offset 7)"),
        "{se}"
    );
    assert!(
        se.contains("notepad.txt: UTF-16 text, not UTF-8; skipped (convert it: iconv"),
        "{se}"
    );
    assert!(se.contains("empty.txt: empty input"), "{se}");
    assert!(se.contains("is a directory"), "{se}");
    assert!(se.contains("missing.txt: cannot open"), "{se}");
    // The good file was still tagged.
    assert_eq!(sense_of(&so, "bank"), vec!["bank%1:17:01::".to_string()]);
    // With --output, a failed input means no half-written file.
    let dest = tmp.path().join("out.tsv");
    let (out, _, _) = run(tag()
        .args(["--method", "mfs", "--output"])
        .arg(&dest)
        .arg(&good)
        .arg(&bad));
    assert_eq!(out.status.code(), Some(1));
    assert!(!dest.exists());
    ok(tag()
        .args(["--method", "mfs", "--output"])
        .arg(&dest)
        .arg(&good));
    assert!(std::fs::read_to_string(&dest)
        .unwrap()
        .contains("bank%1:17:01::"));
}

/// A line longer than a block is cut into blocks, and no sentence runs
/// across a block: that was silent; now stderr says so once per input
/// (with -q too), naming the file, the line, the first cut's byte offset
/// and how many cuts there were.
#[test]
fn a_line_longer_than_a_block_is_cut_with_one_warning() {
    let tmp = tempdir();
    let f = tmp.path().join("long.txt");
    let text = format!("{RIVER}\n{}\n", "the bank ".repeat(600 * 1024 / 9));
    std::fs::write(&f, &text).unwrap();
    let (out, _, err) = run(tag()
        .args(["-q", "--method", "mfs", "--format", "key"])
        .arg(&f));
    assert!(out.status.success(), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let expected = format!(
        "wsd: warning: {}: line 2: longer than a block (256 KiB) without a line break, cut at byte offset ",
        f.display()
    );
    assert!(err.starts_with(&expected), "{err}");
    let at: usize = err[expected.len()..]
        .split(';')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(at > RIVER.len() && at <= 256 * 1024, "{err}");
    assert_eq!(&text[at - 1..at], " ", "{err}");
    assert!(
        err.contains("; 2 cut(s) in this input, and no sentence runs across a cut"),
        "{err}"
    );
    // lines shorter than a block: no warning, however big the input
    let f = tmp.path().join("lines.txt");
    std::fs::write(&f, format!("{BANK}\n").repeat(4000)).unwrap();
    let (out, _, err) = run(tag()
        .args(["-q", "--method", "mfs", "--format", "key"])
        .arg(&f));
    assert!(out.status.success() && err.is_empty(), "{err}");
}

#[test]
fn a_ten_megabyte_line_without_spaces_is_handled() {
    let tmp = tempdir();
    let f = tmp.path().join("long.txt");
    let mut data = "x".repeat(10 * 1024 * 1024);
    data.push_str(" bank\n");
    std::fs::write(&f, data).unwrap();
    let t = std::time::Instant::now();
    let out = ok(tag().args(["--method", "mfs", "--format", "key"]).arg(&f));
    assert!(
        out.contains("bank%1:17:01::") || out.contains("bank%"),
        "{}",
        &out[..out.len().min(300)]
    );
    assert!(t.elapsed().as_secs() < 120);
}

/// Faults part-way through a many-block input: the blocks before the fault
/// are written in order and the run ends with the fault named, whatever
/// the thread count; a full disk ends it with an error, not a hang.
#[test]
fn a_fault_after_several_blocks_keeps_what_came_before_and_ends() {
    let tmp = tempdir();
    let f = tmp.path().join("broken.txt");
    let line = format!("{RIVER}\n");
    let n = 700_000 / line.len(); // three blocks and more
    let mut data = line.repeat(n).into_bytes();
    let bad_at = data.len();
    data.extend(b"caf\xe9\n");
    data.extend(line.repeat(1000).bytes());
    std::fs::write(&f, &data).unwrap();
    let mut outputs = Vec::new();
    for threads in ["1", "3"] {
        let (out, so, se) = run(tag()
            .args(["--method", "mfs", "--format", "key", "--threads", threads])
            .arg(&f));
        // exit 1: some of the input was tagged (2 is for nothing at all)
        assert_eq!(out.status.code(), Some(1), "{se}");
        assert!(
            se.contains(&format!("invalid UTF-8 at byte offset {}", bad_at + 3)),
            "{se}"
        );
        // every sentence before the fault, in order: river and bank each
        let banks = so.lines().filter(|l| l.contains("bank%")).count();
        assert_eq!(banks, n, "threads {threads}");
        let sentences: Vec<usize> = so
            .lines()
            .filter(|l| l.contains("bank%"))
            .map(|l| {
                l.split(' ').next().unwrap().rsplit('.').nth(1).unwrap()[1..]
                    .parse()
                    .unwrap()
            })
            .collect();
        assert!(sentences.windows(2).all(|w| w[1] == w[0] + 1));
        outputs.push(so);
    }
    assert_eq!(outputs[0], outputs[1]);
    // a full disk
    if let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") {
        let out = tag()
            .args(["--method", "mfs", "--threads", "2"])
            .arg(&f)
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("No space left"));
    }
}

#[test]
fn the_notes_sentences_get_the_financial_and_the_sloping_land_bank() {
    let text = format!("{BANK} {RIVER}");
    for method in ["lesk", "lesk-ext"] {
        let (code, out, err) = run_stdin(tag().args(["--method", method]), text.as_bytes());
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            sense_of(&out, "bank"),
            vec!["bank%1:14:00::".to_string(), "bank%1:17:01::".to_string()],
            "{method}"
        );
        // The context decided, not the first-sense fallback.
        let rows: Vec<&str> = out.lines().filter(|l| l.contains("\tbank\t")).collect();
        assert!(
            rows.iter().all(|r| r.split('\t').nth(9) == Some(method)),
            "{rows:?}"
        );
    }
}

/// Every target row says who decided and how, or that the method abstained;
/// a quote token is quoted so csv readers keep the columns.
/// Hard-wrapped text joins a multiword across the line break, and its TSV
/// row stays one line (the text with a space; `start`/`end` give the
/// bytes, line break included), so line tools read every row.
#[test]
fn a_multiword_across_a_line_break_stays_one_tsv_line() {
    let text = "He said that of\ncourse it was in Los\nAngeles.\n";
    let (code, out, err) = run_stdin(tag().args(["--method", "mfs"]), text.as_bytes());
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let width = lines[0].split('\t').count();
    for l in &lines {
        assert_eq!(l.split('\t').count(), width, "a broken row: {l:?} in {out}");
    }
    for (shown, lemma, bytes) in [
        ("of course", "of_course", "of\ncourse"),
        ("Los Angeles", "los_angeles", "Los\nAngeles"),
    ] {
        let r: Vec<&str> = lines
            .iter()
            .map(|l| l.split('\t').collect::<Vec<_>>())
            .find(|r| r[5] == shown)
            .unwrap_or_else(|| panic!("no row for {shown}: {out}"));
        assert_eq!(r[6], lemma, "{out}");
        let (start, end): (usize, usize) = (r[3].parse().unwrap(), r[4].parse().unwrap());
        assert_eq!(&text[start..end], bytes);
    }
}

#[test]
fn target_rows_say_who_decided_and_quotes_are_quoted() {
    let (code, out, err) = run_stdin(
        tag().args(["--method", "lesk"]),
        b"He said \"the river bank\" was wide.\n",
    );
    assert_eq!(code, 0, "{err}");
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(b'\t')
        .from_reader(out.as_bytes());
    let header = reader.headers().unwrap().clone();
    let decided = header.iter().position(|h| h == "decided").unwrap();
    let mut quotes = 0;
    for row in reader.records() {
        let row = row.unwrap();
        assert_eq!(row.len(), header.len(), "{row:?}");
        quotes += (&row[5] == "\"") as usize;
        if &row[8] != "-" {
            assert!(
                ["method", "tie", "fallback", "single-sense"].contains(&&row[decided]),
                "{row:?}"
            );
        }
    }
    assert_eq!(quotes, 2, "{out}");
    // nb alone abstains on lemmas it has too few examples of: those rows
    // say so instead of looking like non-targets.
    let dir = tempdir();
    let model = dir.path().join("nb.wsd");
    ok(wsd()
        .args(["train", "--method", "nb", "--limit-docs", "3", "--output"])
        .arg(&model));
    let (code, out, err) = run_stdin(
        tag().args(["--method", "nb", "--model"]).arg(&model),
        b"The committee approved the budget.\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines().any(|l| l.contains("\tnb\tabstained\t")),
        "{out}"
    );
}

/// The instance-level category model (`crate::pos::category`) gives
/// `American` before a noun the adjective SemCor's annotators give it,
/// where the tagger says `NNP` (a noun); `--no-pos-categories` keeps the
/// tagger's category.
#[test]
fn pos_categories_revise_the_taggers_category() {
    let text = b"The American people bought detergent.\n";
    let pos_of = |out: &str, word: &str| -> String {
        out.lines()
            .skip(1)
            .map(|l| l.split('\t').collect::<Vec<_>>())
            .find(|r| r[5] == word)
            .map(|r| format!("{} {}", r[6], r[7]))
            .unwrap_or_default()
    };
    let (code, out, err) = run_stdin(tag().args(["--method", "mfs"]), text);
    assert_eq!(code, 0, "{err}");
    assert_eq!(pos_of(&out, "American"), "american a");
    assert_eq!(pos_of(&out, "detergent"), "detergent n");
    let (code, out, err) = run_stdin(tag().args(["--method", "mfs", "--no-pos-categories"]), text);
    assert_eq!(code, 0, "{err}");
    assert_eq!(pos_of(&out, "American"), "american n");
    assert_eq!(pos_of(&out, "detergent"), "detergent a");
}

/// A word the category model revises but that is still no target keeps
/// no category it was not disambiguated as: `in` after `lives` (a
/// particle the tagger tags `VB`, which WordNet lacks for `in`) was shown
/// as the adverb `r` although it has no sense. `in` the tagger itself
/// tags `RB` keeps the tagger's `r`; `house` stays a noun target.
#[test]
fn revised_non_targets_show_no_model_category() {
    let (code, out, err) = run_stdin(
        tag().args(["--method", "mfs", "--format", "jsonl"]),
        b"He lives in the house and walked in.\n",
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let toks = v["tokens"].as_array().unwrap();
    let row = |text: &str, tag: &str| {
        toks.iter()
            .find(|t| t["text"] == text && t["tag"] == tag)
            .unwrap_or_else(|| panic!("no {text}/{tag} in {out}"))
    };
    let particle = row("in", "VB");
    assert!(particle["pos"].is_null(), "{out}");
    assert!(particle.get("sense").is_none_or(|s| s.is_null()), "{out}");
    assert_eq!(row("in", "RB")["pos"], "r", "{out}");
    let house = row("house", "NN");
    assert_eq!(house["pos"], "n", "{out}");
    assert!(house["sense"].is_string(), "{out}");
}

/// `--format text` is for reading: the sentence as written, then a line per
/// target with its sense and definition, a joined unit's words indented
/// under it, abstentions said, `--top`/`--explain` on lines below, a
/// file's name above its first sentence.
#[test]
fn text_format_shows_each_sentence_and_its_senses_definitions() {
    let (code, out, err) = run_stdin(
        tag().args(["--method", "mfs", "--format", "text"]),
        b"The bank raised interest rates.\nWe sat   on the river bank.\n",
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "The bank raised interest rates.", "{out}");
    let row = |word: &str| -> Vec<&str> {
        lines
            .iter()
            .find(|l| l.trim_start().starts_with(&format!("{word} ")))
            .unwrap_or_else(|| panic!("no row for {word}:\n{out}"))
            .split("  ")
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .collect()
    };
    let bank = row("bank");
    assert_eq!(bank[1], "bank%1:17:01::", "{out}");
    let definition = wsd::wordnet::Inventory::sense_by_key(inventory(), "bank%1:17:01::")
        .unwrap()
        .0
        .definition
        .clone();
    assert_eq!(bank[2], definition);
    // the unit at the target indent, its words further in, all aligned
    let unit = lines
        .iter()
        .find(|l| l.contains("interest rates "))
        .unwrap();
    let word = lines
        .iter()
        .find(|l| l.trim_start().starts_with("rates "))
        .unwrap();
    assert!(
        unit.starts_with("  interest rates") && word.starts_with("    rates"),
        "{out}"
    );
    assert_eq!(unit.find("interest_rate%"), word.find("rate%"), "{out}");
    // the input's spacing between tokens is one space; a blank line ends a sentence
    assert!(lines.contains(&"We sat on the river bank."), "{out}");
    assert_eq!(lines.iter().filter(|l| l.is_empty()).count(), 2, "{out}");
    // --top and --explain: a line each below the target
    let (code, out, err) = run_stdin(
        tag().args([
            "--method",
            "lesk-ext",
            "--format",
            "text",
            "--top",
            "2",
            "--explain",
        ]),
        b"The bank raised interest rates.\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\n      top: bank%1:14:00:: 0."), "{out}");
    assert!(out.contains("\n      evidence: overlap"), "{out}");
    // a file is named above its first sentence; abstentions are said
    let dir = tempdir();
    let model = dir.path().join("nb.wsd");
    ok(wsd()
        .args(["train", "--method", "nb", "--limit-docs", "3", "--output"])
        .arg(&model));
    let file = dir.path().join("notes.txt");
    std::fs::write(&file, "The committee approved the budget.\n").unwrap();
    let out = ok(tag()
        .args(["--method", "nb", "--format", "text", "--model"])
        .arg(&model)
        .arg(&file));
    assert!(
        out.starts_with("== ") && out.lines().next().unwrap().ends_with("notes.txt =="),
        "{out}"
    );
    let committee: Vec<&str> = out
        .lines()
        .find(|l| l.trim_start().starts_with("committee "))
        .unwrap_or_else(|| panic!("{out}"))
        .split_whitespace()
        .collect();
    assert_eq!(committee, ["committee", "-", "(abstained)"], "{out}");
}

/// Spawn `cmd` with piped stdin/stdout and a thread that hands each line
/// of its output over a channel, so a test can wait for a line with a
/// time limit instead of hanging on a process that waits for more input.
fn converse(cmd: &mut Command) -> (std::process::Child, std::sync::mpsc::Receiver<String>) {
    use std::io::BufRead;
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let (send, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(out).lines() {
            if send.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    (child, lines)
}

#[test]
fn line_buffered_answers_each_line_before_the_next_is_written() {
    use std::io::Write;
    use std::time::Duration;
    let wait = Duration::from_secs(120);
    // JSONL records: a program keeps one process (and its loaded models)
    // and sends one record at a time
    let (mut child, lines) = converse(tag().args([
        "--method",
        "mfs",
        "--line-buffered",
        "--input-format",
        "jsonl",
        "--format",
        "jsonl",
    ]));
    let mut stdin = child.stdin.take().unwrap();
    for (id, text) in [("first", RIVER), ("second", BANK)] {
        writeln!(stdin, r#"{{"id": "{id}", "text": "{text}"}}"#).unwrap();
        stdin.flush().unwrap();
        let answer = lines
            .recv_timeout(wait)
            .unwrap_or_else(|_| panic!("no answer to record {id} while its input stays open"));
        let v: serde_json::Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(v["id"], id, "{answer}");
        assert!(answer.contains("bank%1:"), "{answer}");
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());

    // plain text: the rows of a line come out while the input stays open
    let (mut child, lines) = converse(tag().args(["--method", "mfs", "--line-buffered"]));
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{RIVER}").unwrap();
    stdin.flush().unwrap();
    let header = lines.recv_timeout(wait).expect("the header");
    assert!(header.starts_with("doc\t"), "{header}");
    let rows: Vec<String> = (0..6)
        .map(|_| lines.recv_timeout(wait).expect("a row"))
        .collect();
    assert!(rows.iter().any(|r| r.contains("\tbank\t")), "{rows:?}");
    writeln!(stdin, "A second line.").unwrap();
    drop(stdin);
    let rest: Vec<String> = lines.iter().collect();
    assert!(child.wait().unwrap().success());
    // the second line is a sentence of its own, numbered after the first
    assert!(rest.iter().any(|r| r.starts_with("stdin\t1\t")), "{rest:?}");
}

/// A method that panics on the target `boom` and answers the first sense
/// elsewhere: a bug in one block of many.
struct PanicsOnBoom;

impl wsd::disambig::Disambiguator for PanicsOnBoom {
    fn name(&self) -> &str {
        "boom"
    }
    fn disambiguate(
        &self,
        _: &wsd::wordnet::Inventory,
        doc: &wsd::corpus::Document,
        target: &wsd::corpus::Target,
        candidates: &[wsd::wordnet::Sense],
    ) -> Option<wsd::disambig::Prediction> {
        let token = &doc.sentences[target.sentence].tokens[target.token];
        assert_ne!(token.text, "boom", "a bug in the method");
        Some(wsd::disambig::Prediction::new(
            candidates[0].key.clone(),
            "boom",
            wsd::disambig::Decision::Decided,
            0.0,
        ))
    }
}

/// A panic in one block's task reaches the caller (as it did when blocks
/// were worked on with rayon's parallel iterators) instead of leaving
/// `Tagger::tag` waiting for a block that never comes.
#[test]
fn a_panicking_method_in_one_block_is_raised_not_waited_for() {
    // 'static, for a thread the test can give up on
    let (tagger, mwe) = tagger_and_matcher();
    let (tagger, mwe) = (Box::leak(Box::new(tagger)), Box::leak(Box::new(mwe)));
    let pipeline = Box::leak(Box::new(pipeline_by_hand(tagger, mwe, None)));
    let writer = Box::leak(Box::new(wsd::output::TagWriter::new(
        inventory(),
        wsd::output::TagFormat::Key,
        "boom",
    )));
    let tagging = wsd::tagging::Tagger {
        inv: inventory(),
        pipeline,
        method: &PanicsOnBoom,
        writer,
        line_buffered: false,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    // the bad word in the fourth block of about six
    let line = format!("{RIVER}\n");
    let n = 1_500_000 / line.len();
    let mut text = line.repeat(n);
    text.insert_str(text.len() * 3 / 5, "The boom was loud.\n");
    let (send, done) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            tagging.tag(text.as_bytes(), "t", &mut out, &pool, &|_| {})
        }));
        let _ = send.send((result.is_err(), out.len()));
    });
    let (panicked, written) = done
        .recv_timeout(std::time::Duration::from_secs(300))
        .expect("Tagger::tag returned or panicked");
    assert!(panicked);
    assert!(written > 0, "the blocks before the bad one were written");
}

/// Accented spellings are looked up as WordNet's ASCII lemmas, the text
/// kept as written; words in another script are no name guesses; a
/// headline with a brand such as `iPhone` is still read as a headline.
#[test]
fn accents_fold_other_scripts_stay_untagged_and_brands_keep_headlines() {
    let dir = tempdir();
    let path = dir.path().join("accents.txt");
    let text = "Я был в Москве и России.\n\
                We met at the Café in Zürich; a naïve façade and my résumé.\n\n\
                Apple Shares Fall After iPhone Sales Disappoint\n";
    std::fs::write(&path, text).unwrap();
    let out = ok(tag().args(["--method", "mfs"]).arg(&path));
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect();
    let row = |word: &str| {
        rows.iter()
            .find(|r| r[5] == word)
            .unwrap_or_else(|| panic!("no row {word} in\n{out}"))
    };
    for r in &rows {
        // The offsets still give the text as written.
        let (start, end): (usize, usize) = (r[3].parse().unwrap(), r[4].parse().unwrap());
        assert_eq!(&text[start..end], r[5], "{out}");
        assert!(
            !matches!(r[6], "person" | "location" | "group"),
            "no name guesses here: {r:?}\n{out}"
        );
    }
    for (word, lemma, pos) in [
        ("Café", "cafe", "n"),
        ("Zürich", "zurich", "n"),
        ("naïve", "naive", "a"),
        ("façade", "facade", "n"),
        ("résumé", "resume", "n"),
    ] {
        let r = row(word);
        assert_eq!((r[6], r[7]), (lemma, pos), "{word}: {r:?}");
        assert!(r[8].starts_with(&format!("{lemma}%")), "{word}: {r:?}");
    }
    for word in ["Москве", "России", "был"] {
        let r = row(word);
        assert_eq!((r[7], r[8]), ("-", "-"), "{word}: {r:?}");
    }
    // The headline is read recased: words, not two multiword names.
    assert_eq!(row("iPhone")[8], "-");
    for (word, lemma) in [
        ("Shares", "share"),
        ("Sales", "sale"),
        ("Disappoint", "disappoint"),
    ] {
        let r = row(word);
        assert_eq!(r[6], lemma, "{word}: {r:?}\n{out}");
        assert_ne!(r[8], "-", "{word}: {r:?}");
    }
}
