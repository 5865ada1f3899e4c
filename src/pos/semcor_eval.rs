//! SemCor experiments for the tagger (ignored tests; they need the corpus).
//!
//! Run with
//! `cargo test --release --lib pos -- --ignored --nocapture`.
//! The corpus is read from `$WSD_SEMCOR` (default
//! `/work/shared/corpora/semcor3.0`) with a minimal reader of its own
//! (`<s>` sentences of `(word, pos)`; `<punc>` tokens tagged with
//! themselves) — the real reader lives in `crate::corpus`.
//!
//! The split is the project's: all tagfiles of brown1, brown2, brownv
//! sorted by path string (`brown1/tagfiles/br-a01`); document i (0-based)
//! with i % 5 == 4 is test, the rest train. `semcor_tune` never looks at
//! the test documents: it holds out every 5th *training* document.

use std::path::PathBuf;
use std::time::Instant;

use super::features::flags;
use super::{expand, is_verbal, PosTagger, TrainOptions, DEFAULT_FLAGS, DEFAULT_ITERATIONS};
use crate::wordnet::Pos;

type Sentence = Vec<(String, String)>;

fn semcor_root() -> PathBuf {
    std::env::var_os("WSD_SEMCOR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/work/shared/corpora/semcor3.0"))
}

/// `(relative path, sentences)` of every tagfile, sorted by relative path.
fn read_corpus() -> Vec<(String, Vec<Sentence>)> {
    let root = semcor_root();
    let mut files = Vec::new();
    for part in ["brown1", "brown2", "brownv"] {
        let dir = root.join(part).join("tagfiles");
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e} (set WSD_SEMCOR)", dir.display()));
        for e in entries {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            if name.starts_with("br-") {
                files.push(format!("{part}/tagfiles/{name}"));
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .map(|rel| {
            let text = std::fs::read(root.join(&rel)).unwrap();
            let sents = parse_tagfile(&String::from_utf8_lossy(&text));
            (rel, sents)
        })
        .collect()
}

/// Minimal tagfile reader: `(word, pos)` per `<s>` sentence.
fn parse_tagfile(text: &str) -> Vec<Sentence> {
    let mut out = Vec::new();
    let mut cur: Sentence = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("<s ") || line == "<s>" {
            cur.clear();
        } else if line == "</s>" {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        } else if let Some(rest) = line.strip_prefix("<punc>") {
            let p = rest.strip_suffix("</punc>").unwrap_or(rest);
            cur.push((p.to_string(), p.to_string()));
        } else if line.starts_with("<wf") {
            let Some(gt) = line.find('>') else { continue };
            let attrs = &line[..gt];
            let word = line[gt + 1..]
                .strip_suffix("</wf>")
                .unwrap_or(&line[gt + 1..]);
            let Some(p) = attrs.find(" pos=") else {
                continue;
            };
            let pos = attrs[p + 5..].split([' ', '>']).next().unwrap_or("");
            cur.push((word.to_string(), pos.to_string()));
        }
    }
    out
}

/// Documents split by `i % 5 == 4` into (train, test).
fn split(docs: Vec<(String, Vec<Sentence>)>) -> (Vec<Vec<Sentence>>, Vec<Vec<Sentence>>) {
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (i, (_, sents)) in docs.into_iter().enumerate() {
        if i % 5 == 4 {
            test.push(sents);
        } else {
            train.push(sents);
        }
    }
    (train, test)
}

#[derive(Default, Debug)]
struct Scores {
    words: usize,
    words_ok: usize,
    words_wn_ok: usize,
    tokens: usize,
    tokens_ok: usize,
    tokens_wn_ok: usize,
    /// Multiword tokens correct under rules: first, last, verb-first-else-last.
    multi: usize,
    multi_rules_ok: [usize; 3],
    seconds: f64,
}

fn pct(a: usize, b: usize) -> f64 {
    100.0 * a as f64 / b.max(1) as f64
}

fn wn(tag: &str) -> Option<Pos> {
    Pos::from_tag(tag)
}

/// Tag every sentence (as split words, the way plain text comes) and
/// score both per word and per SemCor token.
fn evaluate(tagger: &PosTagger, sentences: &[Sentence]) -> Scores {
    let mut s = Scores::default();
    let start = Instant::now();
    for sent in sentences {
        let (words, spans) = expand(sent.iter().map(|(w, _)| w.as_str()));
        let pred = tagger.tag(&words);
        for ((_, gold), span) in sent.iter().zip(&spans) {
            for p in &pred[span.clone()] {
                s.words += 1;
                s.words_ok += usize::from(p == gold);
                s.words_wn_ok += usize::from(wn(p) == wn(gold));
            }
            let first = &pred[span.start];
            let last = &pred[span.end - 1];
            let collapsed = if span.len() == 1 || is_verbal(first) {
                first
            } else {
                last
            };
            s.tokens += 1;
            s.tokens_ok += usize::from(collapsed == gold);
            s.tokens_wn_ok += usize::from(wn(collapsed) == wn(gold));
            if span.len() > 1 {
                s.multi += 1;
                s.multi_rules_ok[0] += usize::from(first == gold);
                s.multi_rules_ok[1] += usize::from(last == gold);
                s.multi_rules_ok[2] += usize::from(collapsed == gold);
            }
        }
    }
    s.seconds = start.elapsed().as_secs_f64();
    s
}

fn report(label: &str, s: &Scores) {
    println!(
        "{label}: words {:.2}% (n/v/a/r/other {:.2}%) | SemCor tokens {:.2}% (n/v/a/r/other {:.2}%) | \
         multiwords {} first/last/verb-first {:.1}/{:.1}/{:.1}% | {} words in {:.2}s = {:.0} words/s",
        pct(s.words_ok, s.words),
        pct(s.words_wn_ok, s.words),
        pct(s.tokens_ok, s.tokens),
        pct(s.tokens_wn_ok, s.tokens),
        s.multi,
        pct(s.multi_rules_ok[0], s.multi),
        pct(s.multi_rules_ok[1], s.multi),
        pct(s.multi_rules_ok[2], s.multi),
        s.words,
        s.seconds,
        s.words as f64 / s.seconds.max(1e-9),
    );
}

/// The reported experiment: train on the train split, score the test split.
#[test]
#[ignore]
fn semcor_accuracy() {
    let iterations: usize = std::env::var("WSD_POS_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_ITERATIONS);
    let (train_docs, test_docs) = split(read_corpus());
    let train: Vec<Sentence> = train_docs.into_iter().flatten().collect();
    let test: Vec<Sentence> = test_docs.into_iter().flatten().collect();
    println!(
        "SemCor: {} train sentences, {} test sentences",
        train.len(),
        test.len()
    );
    let t0 = Instant::now();
    let tagger = PosTagger::train(&train, iterations, 1);
    let train_secs = t0.elapsed().as_secs_f64();
    let bytes = tagger.to_bytes();
    let t1 = Instant::now();
    let back = PosTagger::from_bytes(&bytes).unwrap();
    let load_secs = t1.elapsed().as_secs_f64();
    assert_eq!(back, tagger);
    println!(
        "trained {iterations} iterations in {train_secs:.1}s; {} tags, {} tag-dictionary words, \
         {} features, {} weights; model body {:.2} MB (load {load_secs:.2}s)",
        tagger.tags.len(),
        tagger.tagdict.len(),
        tagger.index.len(),
        tagger.num_weights(),
        bytes.len() as f64 / 1e6
    );
    let train_scores = evaluate(&back, &train[..train.len().min(3000)]);
    report("train (first 3000 sentences)", &train_scores);
    let s = evaluate(&back, &test);
    report("TEST", &s);
    assert!(pct(s.words_ok, s.words) > 90.0);
}

/// Tuning on the training documents only: every 5th training document is
/// held out. Configurations come from `$WSD_POS_TUNE` as
/// `iterations:flags,…` (flags in decimal), or a default grid.
#[test]
#[ignore]
fn semcor_tune() {
    let (train_docs, _test_never_used) = split(read_corpus());
    let (mut fit, mut dev) = (Vec::new(), Vec::new());
    for (i, doc) in train_docs.into_iter().enumerate() {
        if i % 5 == 0 {
            dev.extend(doc);
        } else {
            fit.extend(doc);
        }
    }
    println!(
        "tuning: {} fit sentences, {} dev sentences",
        fit.len(),
        dev.len()
    );
    let grid = std::env::var("WSD_POS_TUNE").unwrap_or_else(|_| {
        format!(
            "5:0,5:{},5:{},5:{},5:{},8:{}",
            DEFAULT_FLAGS,
            DEFAULT_FLAGS | flags::CLASS_NORM,
            DEFAULT_FLAGS | flags::BIGRAMS,
            flags::KNOWN,
            DEFAULT_FLAGS
        )
    });
    for cfg in grid.split(',') {
        let (it, fl) = cfg.split_once(':').expect("iterations:flags");
        let opts = TrainOptions {
            iterations: it.parse().unwrap(),
            seed: 1,
            flags: fl.parse().unwrap(),
        };
        let t0 = Instant::now();
        let tagger = PosTagger::train_with(&fit, opts);
        let secs = t0.elapsed().as_secs_f64();
        let s = evaluate(&tagger, &dev);
        report(
            &format!(
                "iters {} flags {:#x} (train {secs:.0}s, {:.1} MB)",
                opts.iterations,
                opts.flags,
                tagger.to_bytes().len() as f64 / 1e6
            ),
            &s,
        );
    }
}

#[test]
fn parses_tagfile_lines() {
    let text = "<s snum=1>\n<wf cmd=ignore pos=DT>The</wf>\n\
        <wf cmd=done rdf=group pos=NNP lemma=group wnsn=1 lexsn=1:03:00:: pn=group>Fulton_County</wf>\n\
        <punc>``</punc>\n<wf cmd=tag pos=PRP$>their</wf>\n</s>\n<s snum=2>\n</s>\n";
    let s = parse_tagfile(text);
    assert_eq!(s.len(), 1);
    let pairs: Vec<(&str, &str)> = s[0].iter().map(|(w, t)| (w.as_str(), t.as_str())).collect();
    assert_eq!(
        pairs,
        [
            ("The", "DT"),
            ("Fulton_County", "NNP"),
            ("``", "``"),
            ("their", "PRP$")
        ]
    );
}
