//! Which query vector should meet a sense's gloss vector? The gloss vector
//! is the mean of a gloss's word vectors (a sentence embedding, which is
//! what all-MiniLM-L6-v2 was trained to make); knn compares it with the
//! target word's own vector. This lab compares that with sentence and
//! window means of the context, gloss evidence alone (argmax of the
//! cosine over a target's candidates, ties to the first sense), on the
//! SemEval-2007 dev set and every 10th SemCor train document.
//!
//! ```sh
//! cargo run --release --example gloss_ctx_lab
//! ```

use std::collections::HashMap;
use std::path::Path;

use wsd::corpus::{attach_gold, read_key_file, read_semcor, read_xml, Document, Split};
use wsd::disambig::candidates;
use wsd::disambig::knn::gloss_words;
use wsd::encoder::Encoder;
use wsd::wordnet::{Inventory, SynsetId};

fn cos(a: &[f32], b: &[f32]) -> f32 {
    let (mut d, mut na, mut nb) = (0.0f32, 0.0f32, 0.0f32);
    for (x, y) in a.iter().zip(b) {
        d += x * y;
        na += x * x;
        nb += y * y;
    }
    d / (na.sqrt() * nb.sqrt()).max(1e-12)
}

fn unit(v: &[f32]) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12);
    v.iter().map(|x| x / n).collect()
}

fn mean(vs: &[&Vec<f32>]) -> Vec<f32> {
    let mut m = vec![0.0f32; vs[0].len()];
    for v in vs {
        for (a, x) in m.iter_mut().zip(v.iter()) {
            *a += x;
        }
    }
    m
}

const QUERIES: [&str; 8] = [
    "target", "sentence", "win2", "win5", "win10", "t+s", "t+w5", "t+0.5s",
];

fn run(name: &str, inv: &Inventory, enc: &Encoder, docs: &[Document]) {
    let mut gloss: HashMap<SynsetId, Vec<f32>> = HashMap::new();
    let mut right = [0usize; QUERIES.len()];
    let mut right_prior = [[0usize; 4]; QUERIES.len()];
    let lambdas = [0.02f32, 0.05, 0.1, 0.2];
    let mut mfs = 0usize;
    let mut n = 0usize;
    for doc in docs {
        let words: Vec<Vec<String>> = doc
            .sentences
            .iter()
            .map(|s| s.tokens.iter().map(|t| t.text.replace('_', " ")).collect())
            .collect();
        let vecs = enc.encode_words(&words);
        let targets = doc.targets();
        // glosses of this document's candidates not seen yet
        let mut todo: Vec<SynsetId> = Vec::new();
        for t in &targets {
            for s in candidates(inv, &t.lemma, t.pos).iter() {
                if !gloss.contains_key(&s.synset) && !todo.contains(&s.synset) {
                    todo.push(s.synset);
                }
            }
        }
        for chunk in todo.chunks(256) {
            let syns: Vec<_> = chunk.iter().filter_map(|&id| inv.get(id)).collect();
            let gw: Vec<Vec<String>> = syns.iter().map(|s| gloss_words(s).0).collect();
            let gv = enc.encode_words(&gw);
            for (s, vs) in syns.iter().zip(gv) {
                let refs: Vec<&Vec<f32>> = vs.iter().collect();
                gloss.insert(s.id, unit(&mean(&refs)));
            }
        }
        for t in &targets {
            let tok = &doc.sentences[t.sentence].tokens[t.token];
            if tok.gold.is_empty() {
                continue;
            }
            let cands = candidates(inv, &t.lemma, t.pos);
            if cands.len() < 2 {
                continue;
            }
            let sv = &vecs[t.sentence];
            let all: Vec<&Vec<f32>> = sv.iter().collect();
            let win = |k: usize| {
                let lo = t.token.saturating_sub(k);
                let hi = (t.token + k + 1).min(sv.len());
                unit(&mean(&sv[lo..hi].iter().collect::<Vec<_>>()))
            };
            let tv = unit(&sv[t.token]);
            let s = unit(&mean(&all));
            let w5 = win(5);
            let add = |a: &[f32], b: &[f32], wb: f32| -> Vec<f32> {
                unit(&a.iter().zip(b).map(|(x, y)| x + wb * y).collect::<Vec<_>>())
            };
            let qs = [
                tv.clone(),
                s.clone(),
                win(2),
                w5.clone(),
                win(10),
                add(&tv, &s, 1.0),
                add(&tv, &w5, 1.0),
                add(&tv, &s, 0.5),
            ];
            let total: f32 = cands.iter().map(|c| c.tag_count as f32 + 1.0).sum();
            let gold = |i: usize| tok.gold.iter().any(|g| *g == cands[i].key);
            n += 1;
            if gold(0) {
                mfs += 1;
            }
            for (qi, q) in qs.iter().enumerate() {
                let scores: Vec<f32> = cands
                    .iter()
                    .map(|c| gloss.get(&c.synset).map(|g| cos(q, g)).unwrap_or(-1.0))
                    .collect();
                let best = argmax(&scores);
                if gold(best) {
                    right[qi] += 1;
                }
                for (li, l) in lambdas.iter().enumerate() {
                    let with: Vec<f32> = cands
                        .iter()
                        .zip(&scores)
                        .map(|(c, s)| s + l * ((c.tag_count as f32 + 1.0) / total).ln())
                        .collect();
                    if gold(argmax(&with)) {
                        right_prior[qi][li] += 1;
                    }
                }
            }
        }
    }
    println!(
        "{name}: {n} targets with two senses or more; first sense {:.2}%",
        pct(mfs, n)
    );
    for (qi, q) in QUERIES.iter().enumerate() {
        let p: Vec<String> = right_prior[qi]
            .iter()
            .map(|&r| format!("{:.2}", pct(r, n)))
            .collect();
        println!(
            "  {q:<9} gloss alone {:.2}%  + log prior x {lambdas:?}: {}",
            pct(right[qi], n),
            p.join(" / ")
        );
    }
}

fn argmax(v: &[f32]) -> usize {
    let mut b = 0;
    for (i, x) in v.iter().enumerate() {
        if *x > v[b] {
            b = i;
        }
    }
    b
}

fn pct(a: usize, n: usize) -> f64 {
    100.0 * a as f64 / n.max(1) as f64
}

fn main() {
    let inv = Inventory::load(Path::new("wordnet/dict")).unwrap();
    let enc = Encoder::load(Path::new("models/all-MiniLM-L6-v2")).unwrap();
    let mut dev = read_xml("corpora/wsd-eval/semeval2007/semeval2007.data.xml").unwrap();
    let gold = read_key_file("corpora/wsd-eval/semeval2007/semeval2007.gold.key.txt").unwrap();
    attach_gold(&mut dev, &gold);
    run("semeval2007", &inv, &enc, &dev);
    let step: usize = std::env::var("GLOSS_LAB_STEP")
        .ok()
        .and_then(|x| x.parse().ok())
        .unwrap_or(10);
    let train: Vec<Document> = read_semcor("corpora/semcor3.0", Split::Train)
        .unwrap()
        .into_iter()
        .step_by(step)
        .collect();
    run("semcor-train/10", &inv, &enc, &train);
}
