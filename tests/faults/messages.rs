//! Errors that say where, and messages: junk lines quoted short, OS errors
//! printed once, exit codes when nothing was tagged, number formatting,
//! refused method lists.

use super::*;

// ---- 4. Errors that say where -------------------------------------------------

#[test]
fn a_huge_junk_line_is_quoted_short() {
    let d = tempdir();
    let key = d.path().join("junk.key");
    std::fs::write(&key, "x".repeat(1 << 20) + "\n").unwrap();
    let r = expect(wsd().arg("score").arg(&key).arg(&key), 2, &["junk.key:1:"]);
    assert!(r.err.len() < 1000, "{} bytes of stderr", r.err.len());
}

#[test]
fn a_non_utf8_key_file_names_its_line() {
    let d = tempdir();
    let key = d.path().join("bad.key");
    std::fs::write(&key, b"a k%1:00:00::\nb \xff\n").unwrap();
    expect(wsd().arg("score").arg(&key).arg(&key), 2, &["bad.key:2:"]);
}

#[test]
fn os_errors_are_printed_once() {
    let r = expect(
        wsd().args(["score", "/nonexistent/gold.key", "/nonexistent/sys.key"]),
        2,
        &["/nonexistent/gold.key"],
    );
    assert_eq!(r.err.matches("No such file").count(), 1, "{}", r.err);
}

// ---- 8. Messages ---------------------------------------------------------------

#[test]
fn embed_with_a_missing_encoder_advises_the_flag() {
    let r = expect(
        wsd().args(["embed", "--encoder", "/nonexistent/enc", "-"]),
        2,
        &["--encoder"],
    );
    assert!(!r.err.contains("WSD_MODEL_DIR"), "{}", r.err);
}

fn encoder_copy(dir: &Path) -> PathBuf {
    let enc = dir.join("enc");
    std::fs::create_dir(&enc).unwrap();
    for e in std::fs::read_dir(root().join("models/all-MiniLM-L6-v2")).unwrap() {
        let e = e.unwrap();
        if e.file_name() != "model.safetensors" {
            std::os::unix::fs::symlink(e.path(), enc.join(e.file_name())).unwrap();
        }
    }
    enc
}

#[test]
fn safetensors_as_a_directory_is_a_clear_message() {
    let d = tempdir();
    let enc = encoder_copy(d.path());
    std::fs::create_dir(enc.join("model.safetensors")).unwrap();
    expect(
        wsd().arg("embed").arg("--encoder").arg(&enc).arg("-"),
        2,
        &["model.safetensors", "directory"],
    );
}

#[test]
fn nan_encoder_weights_are_refused_at_load() {
    let d = tempdir();
    let enc = encoder_copy(d.path());
    let mut bytes =
        std::fs::read(root().join("models/all-MiniLM-L6-v2/model.safetensors")).unwrap();
    let n = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let header: serde_json::Value = serde_json::from_slice(&bytes[8..8 + n]).unwrap();
    let name = "embeddings.word_embeddings.weight";
    let t = header
        .get(name)
        .or_else(|| header.get(format!("bert.{name}")))
        .expect("word embeddings");
    let start = t["data_offsets"][0].as_u64().unwrap() as usize + 8 + n + 400;
    bytes[start..start + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    std::fs::write(enc.join("model.safetensors"), bytes).unwrap();
    expect(
        wsd().arg("embed").arg("--encoder").arg(&enc).arg("-"),
        2,
        &["model.safetensors", "not a finite number"],
    );
}

#[test]
fn embed_invalid_utf8_gives_a_byte_offset() {
    let d = tempdir();
    let f = d.path().join("bad.txt");
    std::fs::write(&f, b"good words \xff bad").unwrap();
    expect(wsd().arg("embed").arg(&f), 2, &["byte offset 11"]);
}

#[test]
fn tag_exits_2_when_nothing_was_tagged() {
    expect(tag().arg("/nonexistent/missing.txt"), 2, &["missing.txt"]);
}

#[test]
fn similarity_prints_no_negative_zero_and_1e300_short() {
    let r = expect(
        wsd().args([
            "similarity",
            "--measure",
            "res",
            "entity.n.01",
            "entity.n.01",
        ]),
        0,
        &[],
    );
    assert!(!r.out.contains("-0"), "{}", r.out);
    let r = expect(
        wsd().args(["similarity", "--measure", "jcn", "dog.n.01", "dog.n.01"]),
        0,
        &[],
    );
    assert_eq!(r.out.trim_end(), "1e300", "{}", r.out);
}

#[test]
fn a_trailing_comma_in_method_is_refused() {
    expect(eval_semeval().args(["--method", "mfs,"]), 2, &["mfs,"]);
}

#[test]
fn tag_of_files_none_of_which_opens_writes_nothing_and_loads_nothing() {
    let d = tempdir();
    let r = expect(
        tag()
            .args(["--method", "knn"])
            .arg(d.path().join("missing.txt"))
            .arg(d.path()),
        2,
        &["missing.txt: cannot open", "is a directory"],
    );
    assert_eq!(r.out, "", "a header for no input");
}

#[test]
fn a_relative_path_the_data_home_has_is_pointed_to() {
    // as the README's commands are typed outside the checkout
    let d = tempdir();
    let rel = "corpora/wsd-eval/semeval2007/semeval2007.data.xml";
    let mut c = wsd();
    c.current_dir(d.path())
        .env("WSD_HOME", root())
        .args(["eval", "--method", "mfs", "--xml", rel, "--gold"])
        .arg(semeval().join("semeval2007.gold.key.txt"));
    expect(
        &mut c,
        2,
        &[
            "the data home has it",
            &root().join(rel).display().to_string(),
        ],
    );
}

#[test]
fn data_and_key_files_given_the_wrong_way_round_are_named() {
    let xml = semeval().join("semeval2007.data.xml");
    let gold = semeval().join("semeval2007.gold.key.txt");
    let r = expect(
        wsd()
            .args(["eval", "--method", "mfs", "--xml"])
            .arg(&gold)
            .arg("--gold")
            .arg(&gold),
        2,
        &["gold.key.txt:1: not XML", "key file"],
    );
    assert!(r.err.len() < 400, "the file quoted whole: {}", r.err);
    expect(
        wsd().arg("score").arg(&gold).arg(&xml),
        2,
        &["data.xml:1: looks like XML"],
    );
}

#[test]
fn unknown_words_say_what_wordnet_has_instead() {
    expect(
        wsd().args(["senses", "bank", "--pos", "r"]),
        1,
        &[
            "no adverb entry for \"bank\"",
            "as a noun and a verb",
            "--pos n",
        ],
    );
    expect(wsd().args(["senses", ""]), 1, &["an empty word"]);
    expect(
        wsd().args(["synset", "bank"]),
        2,
        &["`wsd senses bank` lists its senses"],
    );
    expect(
        wsd().args(["synset", "bank.n.99"]),
        2,
        &["bank.n.NN runs from 01 to 10"],
    );
}

#[test]
fn targets_that_are_no_lemmas_are_warned_about() {
    let d = tempdir();
    let input = text_file(d.path());
    let r = expect(
        tag()
            .args([
                "--method",
                "mfs",
                "--format",
                "key",
                "--targets",
                "raised,went,bnak,bank",
            ])
            .arg(&input),
        0,
        &[
            "\"raised\" matches the lemma \"raised\" only; it is also a form of raise",
            "\"went\": WordNet has no such lemma",
            "did you mean go?",
            "\"bnak\": WordNet has no such lemma",
            "did you mean: bank",
        ],
    );
    assert!(!r.err.contains("\"bank\""), "{}", r.err);
    assert!(r.out.contains("bank%1:17:01::"), "{}", r.out);
}

#[test]
fn options_that_would_be_ignored_are_refused_or_warned_about() {
    let d = tempdir();
    let input = text_file(d.path());
    for args in [
        &["--targets", "bank", "--all-words"][..],
        &["--no-mwe", "--mwe", "greedy"],
        &["--gloss", "--format", "key"],
    ] {
        let r = run(tag().args(args).arg(&input));
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.err);
        assert!(r.out.is_empty(), "{args:?}: {}", r.out);
    }
    for args in [
        &["--no-heads"][..],
        &["--mwe", "none"],
        &["--split", "train"],
    ] {
        let r = run(eval_semeval().args(args));
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.err);
    }
    expect(
        tag().args(["--method", "mfs,lesk"]).arg(&input),
        0,
        &["lesk after it in mfs,lesk is never asked"],
    );
    expect(
        tag()
            .args(["--method", "lesk", "--model"])
            .arg(&input)
            .arg(&input),
        0,
        &["--model is read by nb, knn and ens only"],
    );
    expect(
        wsd().args(["similarity", "dog", "cat", "--ic"]).arg(&input),
        2,
        &["--ic is read by the measures res, jcn and lin only"],
    );
    expect(
        wsd()
            .args([
                "train",
                "--method",
                "nb",
                "--limit-docs",
                "1",
                "--examples",
                "--output",
            ])
            .arg(d.path().join("nb.wsd")),
        0,
        &["--examples is read when training knn only, not nb"],
    );
}

#[test]
fn quiet_still_names_the_records_that_could_not_be_tagged() {
    let d = tempdir();
    let input = d.path().join("in.jsonl");
    std::fs::write(
        &input,
        "{\"id\":\"a\",\"text\":\"The bank is open.\"}\nnot json\n{\"id\":\"b\"}\n",
    )
    .unwrap();
    let r = expect(
        tag()
            .args(["--input-format", "jsonl", "--format", "key"])
            .arg(&input),
        1,
        &[
            "in.jsonl: line 2: invalid JSON",
            "in.jsonl: line 3: no text",
            "2 record(s) could not be tagged",
        ],
    );
    assert_eq!(r.err.matches("line 2").count(), 1, "{}", r.err);
}

#[test]
fn utf16_data_files_say_so_and_score_reads_system_keys_from_stdin() {
    let d = tempdir();
    let gold = semeval().join("semeval2007.gold.key.txt");
    // UTF-16LE with a byte-order mark, and without one
    let text = std::fs::read_to_string(&gold).unwrap();
    let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let with_bom = d.path().join("bom.key");
    std::fs::write(&with_bom, [&[0xFF, 0xFE][..], &le].concat()).unwrap();
    let bare = d.path().join("bare.key");
    std::fs::write(&bare, &le).unwrap();
    for f in [&with_bom, &bare] {
        expect(
            wsd().arg("score").arg(&gold).arg(f),
            2,
            &[".key:1: UTF-16 text, not UTF-8", "iconv"],
        );
    }
    // `-`: the system keys on standard input
    let o = wsd()
        .arg("score")
        .arg(&gold)
        .arg("-")
        .stdin(std::fs::File::open(&gold).unwrap())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("100.0"), "{out}");
}
