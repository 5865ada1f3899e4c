//! Data for the encoder category probe (issue 11): every gold instance of
//! SemCor whose word WordNet has in at least two categories, with its gold
//! category, the text pipeline's category for it (`wsd eval --raw`'s
//! reading), the categories WordNet allows, and the encoder's vectors of
//! the word read in its raw sentence (the last layer and the sum of the
//! last four).
//!
//! ```sh
//! cargo run --release --example pos_probe_lab -- OUT_DIR train|test [EVERY]
//! ```
//! writes `OUT_DIR/SPLIT.tsv` (one row per instance) and `OUT_DIR/SPLIT.f32`
//! (2 × 384 little-endian floats per row). `EVERY`: every n-th document.
//!
//! `WSD_PROBE_JK=DIR`: train documents read by their jackknifed fold
//! tagger (cached in DIR), `train-jk.*`. With `WSD_PROBE_HELDOUT=DIR2` as
//! well: the category model learned on the train documents but every 5th
//! (its own fold taggers cached in DIR2) and only every 5th read,
//! `train-ho.*`: the pipeline's categories as on new text, which
//! `examples/pos_probe_lab.py` uses to choose the probe's threshold.
//! Row columns: id, word, gold category, pipeline category (`-` when the
//! pipeline joined the word into a multiword), tagger category, tag,
//! target?, allowed categories (bits n v a r), WordNet's tag counts.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

use wsd::corpus::{read_semcor, Split};
use wsd::encoder::Encoder;
use wsd::pipeline::{rebuild_text, tag_category, Pipeline, TargetSelection};
use wsd::pos::category::{candidate, CategoryModel};
use wsd::pos::PosTagger;
use wsd::text::{split_sentences, MweMatcher, MweMode};
use wsd::wordnet::{Inventory, Pos};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let out = Path::new(&args[1]);
    let split = match args[2].as_str() {
        "train" => Split::Train,
        _ => Split::Test,
    };
    let every: usize = args.get(3).and_then(|x| x.parse().ok()).unwrap_or(1);
    let inv = Inventory::load(Path::new("wordnet/dict")).unwrap();
    let (_, body) = wsd::model_io::read_model(Path::new("models/pos.wsd"), "pos", None).unwrap();
    let tagger = PosTagger::from_bytes(&body).unwrap();
    let enc = Encoder::load(Path::new("models/all-MiniLM-L6-v2")).unwrap();
    let mwe = MweMatcher::with_mode(&inv, MweMode::Learned);
    let docs = read_semcor(Path::new("corpora/semcor3.0"), split).unwrap();
    // WSD_PROBE_HELDOUT=DIR: the category model learned on the train
    // documents but every 5th (fold taggers cached in DIR), and only those
    // 5th documents read: the pipeline's categories as on unseen text.
    let heldout = std::env::var("WSD_PROBE_HELDOUT").ok();
    let own_model = heldout.as_ref().map(|dir| {
        std::fs::create_dir_all(dir).unwrap();
        let fit: Vec<_> = docs
            .iter()
            .enumerate()
            .filter(|(i, _)| i % 5 != 4)
            .map(|(_, d)| d.clone())
            .collect();
        let opts = wsd::pos::category::LearnOptions::default();
        let (tsv, report) =
            wsd::pos::category::learn(&inv, &fit, &opts, Some(Path::new(dir))).unwrap();
        eprintln!("{report}");
        CategoryModel::parse(&tsv).unwrap()
    });
    let pipeline = Pipeline {
        inv: &inv,
        tagger: &tagger,
        mwe: Some(&mwe),
        targets: TargetSelection::Content,
        heads: true,
        pos_alternatives: None,
        pos_categories: Some(own_model.as_ref().unwrap_or(CategoryModel::shipped())),
        pos_probe: None,
    };
    std::fs::create_dir_all(out).unwrap();
    // WSD_PROBE_JK=DIR: train documents read by their jackknifed fold
    // tagger (cached in DIR), as the learners read them.
    let jk = std::env::var("WSD_PROBE_JK").ok().map(|dir| {
        std::fs::create_dir_all(&dir).unwrap();
        wsd::pos::Jackknife::train(&inv, &docs, 3, Some(Path::new(&dir))).unwrap()
    });
    let suffix = if heldout.is_some() {
        "-ho"
    } else if jk.is_some() {
        "-jk"
    } else {
        ""
    };
    let file =
        |ext: &str| std::fs::File::create(out.join(format!("{}{suffix}.{ext}", args[2]))).unwrap();
    let mut tsv = file("tsv");
    let mut f32s = std::io::BufWriter::new(file("f32"));
    let letter = |p: Option<Pos>| p.map_or('-', |p| p.letter());
    let d = enc.hidden_size();
    for (di, doc) in docs
        .iter()
        .enumerate()
        .filter(|(i, _)| i % every == 0 && (heldout.is_none() || i % 5 == 4))
    {
        let (text, spans) = rebuild_text(doc);
        let tagger = jk.as_ref().map_or(&tagger, |j| j.tagger_for(doc));
        let pdoc = pipeline.with_tagger(tagger).analyse(&doc.id, &text, 0, 0);
        // span → the pipeline's single-word token (pos, tag, target?)
        let mut by_span: HashMap<(usize, usize), (Option<Pos>, String, bool)> = HashMap::new();
        for t in pdoc.sentences.iter().flat_map(|s| &s.tokens) {
            if let Some(sp) = t.span {
                by_span.insert(
                    sp,
                    (
                        t.pos,
                        t.tag.clone().unwrap_or_default(),
                        t.instance.is_some(),
                    ),
                );
            }
        }
        let raw = split_sentences(&text);
        let words: Vec<Vec<String>> = raw
            .iter()
            .map(|s| s.iter().map(|t| t.text.clone()).collect())
            .collect();
        let mut word_at: HashMap<(usize, usize), (usize, usize)> = HashMap::new();
        for (si, s) in raw.iter().enumerate() {
            for (wi, t) in s.iter().enumerate() {
                word_at.insert((t.start, t.end), (si, wi));
            }
        }
        // which words to encode
        let mut rows = Vec::new();
        for (s, sp) in doc.sentences.iter().zip(&spans) {
            for (t, &span) in s.tokens.iter().zip(sp) {
                let (Some(id), Some(gold)) = (&t.instance, t.pos) else {
                    continue;
                };
                if t.gold.is_empty() || t.text.contains('_') || t.text.contains(' ') {
                    continue;
                }
                let Some(&(si, wi)) = word_at.get(&span) else {
                    continue;
                };
                let word = &words[si][wi];
                let Some((bits, counts)) = candidate(tagger, &inv, word) else {
                    continue;
                };
                if bits.count_ones() < 2 {
                    continue;
                }
                let (ppos, tag, target) =
                    by_span
                        .get(&span)
                        .cloned()
                        .unwrap_or((None, String::from("~"), false));
                let tcat = tag_category(&inv, &tag, word);
                rows.push((
                    id.clone(),
                    gold,
                    ppos,
                    tcat,
                    tag,
                    target,
                    bits,
                    counts,
                    si,
                    wi,
                ));
            }
        }
        if rows.is_empty() {
            continue;
        }
        let layers = enc.encode_words_layers(&words, 4);
        for (id, gold, ppos, tcat, tag, target, bits, counts, si, wi) in rows {
            let v = &layers[si][wi];
            let last = &v[3 * d..4 * d];
            let sum: Vec<f32> = (0..d)
                .map(|k| v[k] + v[d + k] + v[2 * d + k] + v[3 * d + k])
                .collect();
            for x in last.iter().chain(&sum) {
                f32s.write_all(&x.to_le_bytes()).unwrap();
            }
            writeln!(
                tsv,
                "{id}\t{}\t{}\t{}\t{}\t{tag}\t{}\t{bits}\t{}\t{}\t{}\t{}",
                words[si][wi],
                gold.letter(),
                letter(ppos),
                letter(tcat),
                target as u8,
                counts[0],
                counts[1],
                counts[2],
                counts[3]
            )
            .unwrap();
        }
        eprintln!("{di}/{} {}", docs.len(), doc.id);
    }
}
