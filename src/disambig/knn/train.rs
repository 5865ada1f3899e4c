//! Training: encode every sentence of the training documents, add each
//! sense-tagged token's unit vector to its synsets' sums and to its sense
//! keys' sums (the centroids become the context vectors; a key with at
//! least `sense_min` instances keeps its own), then encode the glosses in
//! scope. Every instance vector is held until the end (about 230 MB for
//! SemCor's train split) for two last passes that need the finished
//! centroids: the exemplar sentences (the instances nearest each
//! centroid, for `--explain`) and the calibration, in which every
//! training instance is answered with its own document taken out of
//! every centroid (see [`super::KnnCalibration`]).

use std::collections::HashMap;

use rayon::prelude::*;

use super::core::{Core, HeldOut};
use super::model::{Entry, KnnCalibration, KnnModel, SenseEntry, Vectors};
use super::params::{GlossPooling, GlossScope, KnnOptions, KnnParams};
use super::{
    add_to, dot, example_contexts, gloss_words, monosemous_synset, normalized, word_text,
    ExampleContext, TRAIN_BATCH,
};
use crate::corpus::Document;
use crate::disambig::{candidates, Calibration, Exemplar};
use crate::encoder::Encoder;
use crate::wordnet::{Inventory, Pos, Synset, SynsetId};
use crate::Result;

/// Words kept on each side of the target in an exemplar sentence.
const EXEMPLAR_WINDOW: usize = 8;

/// One sense-tagged training token, held until the end of training.
struct Row {
    doc: u32,
    sentence: u32,
    token: u32,
    /// Entries (synsets) it was added to.
    entries: Vec<u32>,
    /// Its gold keys that WordNet knows.
    keys: Vec<String>,
}

/// The Euclidean length of a raw sum: the resultant length a model of
/// format 4 stores beside each centroid (see [`Entry::resultant`]).
fn norm(sum: &[f32]) -> f32 {
    sum.iter().map(|x| x * x).sum::<f32>().sqrt()
}

/// The sentence of a training token as an exemplar: its words, the token
/// between asterisks, at most [`EXEMPLAR_WINDOW`] words on each side.
fn exemplar(doc: &Document, sentence: usize, token: usize) -> Exemplar {
    let s = &doc.sentences[sentence];
    let lo = token.saturating_sub(EXEMPLAR_WINDOW);
    let hi = (token + EXEMPLAR_WINDOW + 1).min(s.tokens.len());
    let mut words: Vec<String> = Vec::with_capacity(hi - lo + 2);
    if lo > 0 {
        words.push("…".into());
    }
    for (i, t) in s.tokens[lo..hi].iter().enumerate() {
        let w = word_text(&t.text);
        words.push(if lo + i == token { format!("*{w}*") } else { w });
    }
    if hi < s.tokens.len() {
        words.push("…".into());
    }
    let id = s.tokens[token]
        .instance
        .clone()
        .unwrap_or_else(|| format!("{}/{}/{}", doc.id, s.id, token));
    Exemplar {
        id,
        text: words.join(" "),
    }
}

/// Keep the `k` best (score, row) pairs, best first.
fn keep_best(best: &mut Vec<(f32, u32)>, k: usize, score: f32, row: u32) {
    if k == 0 || (best.len() == k && best[k - 1].0 >= score) {
        return;
    }
    let at = best.partition_point(|b| b.0 >= score);
    best.insert(at, (score, row));
    best.truncate(k);
}

impl KnnModel {
    /// Train on `docs` (see the module doc). `progress(done, total)` counts
    /// sentences, then glosses (total = sentences + glosses).
    pub fn train(
        inv: &Inventory,
        encoder: &Encoder,
        docs: &[Document],
        mut params: KnnParams,
        progress: &dyn Fn(usize, usize),
    ) -> Result<KnnModel> {
        let d = encoder.hidden_size();
        params.hidden_size = d;
        params.encoder = encoder.dir().display().to_string();
        let sentences: Vec<(usize, &Document, usize)> = docs
            .iter()
            .enumerate()
            .flat_map(|(di, doc)| (0..doc.sentences.len()).map(move |i| (di, doc, i)))
            .collect();
        // glosses in scope
        let gloss_synsets: Vec<&Synset> = match &params.gloss {
            GlossScope::None => Vec::new(),
            GlossScope::All => inv.synsets().iter().collect(),
            GlossScope::Lemmas(lemmas) => {
                let mut seen = std::collections::HashSet::new();
                let mut out = Vec::new();
                for l in lemmas {
                    for pos in [Pos::Noun, Pos::Verb, Pos::Adj, Pos::Adv] {
                        for s in candidates(inv, l, pos).iter() {
                            if seen.insert(s.synset) {
                                if let Some(syn) = inv.get(s.synset) {
                                    out.push(syn);
                                }
                            }
                        }
                    }
                }
                out
            }
        };
        // WordNet's example sentences of the synsets in gloss scope, as
        // more tagged contexts (issue 13)
        let examples: Vec<(SynsetId, ExampleContext)> = if params.examples {
            gloss_synsets
                .iter()
                .flat_map(|s| example_contexts(inv, s).into_iter().map(move |c| (s.id, c)))
                .collect()
        } else {
            Vec::new()
        };
        let layers = params.pooled_layers.max(1);
        let total = sentences.len() + examples.len() + gloss_synsets.len();
        let mut done = 0;
        progress(0, total);

        let mut index: HashMap<SynsetId, usize> = HashMap::new();
        let mut sums: Vec<(SynsetId, u32, Vec<f32>)> = Vec::new();
        // (count, sum) per sense key
        let mut key_sums: HashMap<String, (u32, Vec<f32>)> = HashMap::new();
        // every tagged token's unit vector (row-major) and where it is
        let mut row_vectors: Vec<f32> = Vec::new();
        let mut rows: Vec<Row> = Vec::new();
        let mut tagged = 0usize;
        for chunk in sentences.chunks(TRAIN_BATCH) {
            let words: Vec<Vec<String>> = chunk
                .iter()
                .map(|(_, doc, i)| {
                    doc.sentences[*i]
                        .tokens
                        .iter()
                        .map(|t| word_text(&t.text))
                        .collect()
                })
                .collect();
            // only the tagged tokens' vectors are read
            let tagged_flags: Vec<Vec<bool>> = chunk
                .iter()
                .map(|(_, doc, i)| {
                    doc.sentences[*i]
                        .tokens
                        .iter()
                        .map(|t| !t.gold.is_empty())
                        .collect()
                })
                .collect();
            let vectors = encoder.encode_selected_summed(&words, layers, &tagged_flags);
            for ((di, doc, i), vecs) in chunk.iter().zip(vectors) {
                for (ti, (tok, v)) in doc.sentences[*i].tokens.iter().zip(vecs).enumerate() {
                    if tok.gold.is_empty() {
                        continue;
                    }
                    let unit = normalized(&v);
                    let mut ids: Vec<SynsetId> = Vec::new();
                    let mut keys: Vec<String> = Vec::new();
                    for key in &tok.gold {
                        if let Some((syn, _, _)) = inv.sense_by_key(key) {
                            if !ids.contains(&syn.id) {
                                ids.push(syn.id);
                            }
                            if !keys.contains(key) {
                                keys.push(key.clone());
                            }
                        }
                    }
                    if ids.is_empty() {
                        continue;
                    }
                    let mut entries = Vec::with_capacity(ids.len());
                    for id in ids {
                        let e = *index.entry(id).or_insert_with(|| {
                            sums.push((id, 0, vec![0.0; d]));
                            sums.len() - 1
                        });
                        let s = &mut sums[e];
                        s.1 += 1;
                        add_to(&mut s.2, &unit);
                        entries.push(e as u32);
                    }
                    for k in &keys {
                        let s = key_sums
                            .entry(k.clone())
                            .or_insert_with(|| (0, vec![0.0; d]));
                        s.0 += 1;
                        add_to(&mut s.1, &unit);
                    }
                    row_vectors.extend_from_slice(&unit);
                    rows.push(Row {
                        doc: *di as u32,
                        sentence: *i as u32,
                        token: ti as u32,
                        entries,
                        keys,
                    });
                    tagged += 1;
                }
            }
            done += chunk.len();
            progress(done, total);
        }
        let row = |r: usize| &row_vectors[r * d..(r + 1) * d];
        let seen_in_corpus = sums.len();
        for chunk in examples.chunks(TRAIN_BATCH) {
            let words: Vec<Vec<String>> = chunk.iter().map(|(_, c)| c.words.clone()).collect();
            let at: Vec<Vec<bool>> = chunk
                .iter()
                .map(|(_, c)| (0..c.words.len()).map(|w| w == c.at).collect())
                .collect();
            let vectors = encoder.encode_selected_summed(&words, layers, &at);
            for ((id, c), vecs) in chunk.iter().zip(vectors) {
                let Some(v) = vecs.get(c.at) else { continue };
                let unit = normalized(v);
                let e = *index.entry(*id).or_insert_with(|| {
                    sums.push((*id, 0, vec![0.0; d]));
                    sums.len() - 1
                });
                let s = &mut sums[e];
                s.1 += 1;
                add_to(&mut s.2, &unit);
            }
            done += chunk.len();
            progress(done, total);
        }
        params.example_contexts = examples.len();
        params.example_synsets = sums.len() - seen_in_corpus;
        // the glosses: one vector each, and with `monosemous` their
        // single-sense words as tagged instances of their synsets
        let cap = params.monosemous;
        let before_gloss_words = sums.len();
        let mut gloss_vectors: Vec<(SynsetId, Vec<f32>)> = Vec::with_capacity(gloss_synsets.len());
        let mut gloss_contexts: HashMap<SynsetId, usize> = HashMap::new();
        for chunk in gloss_synsets.chunks(TRAIN_BATCH) {
            let texts: Vec<(Vec<String>, Vec<usize>)> =
                chunk.iter().map(|s| gloss_words(s)).collect();
            let words: Vec<Vec<String>> = texts.iter().map(|(w, _)| w.clone()).collect();
            let vectors = encoder.encode_words_summed(&words, layers);
            for ((syn, (words, lemma_at)), vecs) in chunk.iter().zip(&texts).zip(vectors) {
                let picked: Vec<&Vec<f32>> = match params.gloss_pooling {
                    GlossPooling::Lemma if !lemma_at.is_empty() => {
                        lemma_at.iter().filter_map(|&i| vecs.get(i)).collect()
                    }
                    _ => vecs.iter().collect(),
                };
                let mut sum = vec![0.0f32; d];
                for v in picked {
                    add_to(&mut sum, v);
                }
                gloss_vectors.push((syn.id, normalized(&sum)));
                if cap == 0 {
                    continue;
                }
                // after the lemmas' header (`lemma , lemma -`)
                let body = words.iter().position(|w| w == "-").map_or(0, |i| i + 1);
                for (w, v) in words.iter().zip(&vecs).skip(body) {
                    let Some(id) = monosemous_synset(inv, w) else {
                        continue;
                    };
                    let n = gloss_contexts.entry(id).or_insert(0);
                    if *n >= cap {
                        continue;
                    }
                    *n += 1;
                    let e = *index.entry(id).or_insert_with(|| {
                        sums.push((id, 0, vec![0.0; d]));
                        sums.len() - 1
                    });
                    let s = &mut sums[e];
                    s.1 += 1;
                    add_to(&mut s.2, &normalized(v));
                }
            }
            done += chunk.len();
            progress(done, total);
        }
        params.monosemous_contexts = gloss_contexts.values().sum();
        params.monosemous_synsets = sums.len() - before_gloss_words;
        let mut entries: Vec<Entry> = sums
            .iter()
            .map(|(synset, count, sum)| Entry {
                synset: *synset,
                count: *count,
                ctx: Some(normalized(sum)),
                gloss: None,
                exemplars: Vec::new(),
                resultant: Some(norm(sum)),
            })
            .collect();
        for (id, g) in gloss_vectors {
            let e = *index.entry(id).or_insert_with(|| {
                entries.push(Entry {
                    synset: id,
                    count: 0,
                    ctx: None,
                    gloss: None,
                    exemplars: Vec::new(),
                    resultant: None,
                });
                entries.len() - 1
            });
            entries[e].gloss = Some(g);
        }
        params.documents = docs.len();
        params.sentences = sentences.len();
        params.tagged_tokens = tagged;

        // sense-key vectors: keys with enough instances of their own
        let min = params.sense_min;
        let mut senses: Vec<SenseEntry> = if min == 0 {
            Vec::new()
        } else {
            key_sums
                .iter()
                .filter(|(_, (n, _))| *n >= min)
                .map(|(k, (n, sum))| SenseEntry {
                    key: k.clone(),
                    count: *n,
                    ctx: normalized(sum),
                    exemplars: Vec::new(),
                    resultant: Some(norm(sum)),
                })
                .collect()
        };
        senses.sort_by(|a, b| a.key.cmp(&b.key));
        params.sense_vectors = senses.len();
        let sense_at: HashMap<&str, usize> = senses
            .iter()
            .enumerate()
            .map(|(i, s)| (s.key.as_str(), i))
            .collect();

        // exemplars: the instances nearest each centroid
        let k = params.exemplars;
        let mut best_entry: Vec<Vec<(f32, u32)>> = vec![Vec::new(); entries.len()];
        let mut best_sense: Vec<Vec<(f32, u32)>> = vec![Vec::new(); senses.len()];
        if k > 0 {
            for (r, x) in rows.iter().enumerate() {
                let v = row(r);
                for &e in &x.entries {
                    if let Some(c) = &entries[e as usize].ctx {
                        keep_best(&mut best_entry[e as usize], k, dot(v, c), r as u32);
                    }
                }
                for key in &x.keys {
                    if let Some(&i) = sense_at.get(key.as_str()) {
                        keep_best(&mut best_sense[i], k, dot(v, &senses[i].ctx), r as u32);
                    }
                }
            }
        }
        let mut sentence_of: HashMap<u32, u32> = HashMap::new();
        let mut exemplars: Vec<Exemplar> = Vec::new();
        let mut sentence = |r: u32| -> u32 {
            *sentence_of.entry(r).or_insert_with(|| {
                let x = &rows[r as usize];
                exemplars.push(exemplar(
                    &docs[x.doc as usize],
                    x.sentence as usize,
                    x.token as usize,
                ));
                exemplars.len() as u32 - 1
            })
        };
        for (e, best) in entries.iter_mut().zip(&best_entry) {
            e.exemplars = best.iter().map(|&(_, r)| sentence(r)).collect();
        }
        for (s, best) in senses.iter_mut().zip(&best_sense) {
            s.exemplars = best.iter().map(|&(_, r)| sentence(r)).collect();
        }
        let mut instances: Vec<(u32, Vec<f32>)> = Vec::new();
        let mut instance_sentences: Vec<u32> = Vec::new();
        let mut instance_docs: Vec<u32> = Vec::new();
        if params.keep_instances {
            for (r, x) in rows.iter().enumerate() {
                for &e in &x.entries {
                    instances.push((e, row(r).to_vec()));
                    instance_docs.push(x.doc);
                    if k > 0 {
                        instance_sentences.push(sentence(r as u32));
                    }
                }
            }
        }
        let mut model = KnnModel {
            params,
            dim: d,
            entries,
            senses,
            instances,
            instance_sentences,
            instance_docs,
            sentences: exemplars,
            calibration: None,
        };
        let synset_sums: Vec<(u32, Vec<f32>)> = sums.into_iter().map(|(_, n, s)| (n, s)).collect();
        model.calibration = calibrate(
            inv,
            docs,
            &model,
            &rows,
            &row_vectors,
            &synset_sums,
            &key_sums,
        );
        Ok(model)
    }
}

/// The model's own calibration: every training target with two or more
/// candidates and a vector is answered (with the default options) by the
/// model with the target's document held out of every centroid it
/// contributed to, and the isotonic map is fitted on those answers as
/// `wsd calibrate` fits the other methods'. `None` without any answer.
fn calibrate(
    inv: &Inventory,
    docs: &[Document],
    model: &KnnModel,
    rows: &[Row],
    row_vectors: &[f32],
    synset_sums: &[(u32, Vec<f32>)],
    key_sums: &HashMap<String, (u32, Vec<f32>)>,
) -> Option<KnnCalibration> {
    let d = model.dim;
    let options = KnnOptions::default();
    let core = Core::new(Vectors::from_model(model), inv, options);
    // rows of each document
    let mut by_doc: Vec<Vec<usize>> = vec![Vec::new(); docs.len()];
    for (r, x) in rows.iter().enumerate() {
        by_doc[x.doc as usize].push(r);
    }
    let pairs: Vec<(f64, bool)> = by_doc
        .par_iter()
        .enumerate()
        .flat_map_iter(|(di, doc_rows)| {
            let doc = &docs[di];
            let mut doc_synsets: HashMap<SynsetId, (u32, Vec<f32>)> = HashMap::new();
            let mut doc_keys: HashMap<String, (u32, Vec<f32>)> = HashMap::new();
            let mut at: HashMap<(u32, u32), usize> = HashMap::new();
            for &r in doc_rows {
                let x = &rows[r];
                let v = &row_vectors[r * d..(r + 1) * d];
                at.insert((x.sentence, x.token), r);
                for &e in &x.entries {
                    let s = doc_synsets
                        .entry(model.entries[e as usize].synset)
                        .or_insert_with(|| (0, vec![0.0; d]));
                    s.0 += 1;
                    add_to(&mut s.1, v);
                }
                for k in &x.keys {
                    let s = doc_keys
                        .entry(k.clone())
                        .or_insert_with(|| (0, vec![0.0; d]));
                    s.0 += 1;
                    add_to(&mut s.1, v);
                }
            }
            let held = HeldOut {
                synsets: synset_sums,
                keys: key_sums,
                doc_synsets: &doc_synsets,
                doc_keys: &doc_keys,
            };
            let core = &core;
            doc.targets()
                .into_iter()
                .filter_map(|t| {
                    let &r = at.get(&(t.sentence as u32, t.token as u32))?;
                    let cands = candidates(inv, &t.lemma, t.pos);
                    if cands.len() < 2 {
                        return None;
                    }
                    let v = &row_vectors[r * d..(r + 1) * d];
                    let p = core.decide_held_out(inv, v, &cands, &held)?;
                    let p1 = p.distribution().first().map_or(1.0, |s| s.1);
                    let right = doc.token(&t).gold.contains(&p.key);
                    Some((p1, right))
                })
                .collect::<Vec<_>>()
        })
        .collect();
    if pairs.is_empty() {
        return None;
    }
    let right = pairs.iter().filter(|p| p.1).count();
    Some(KnnCalibration {
        gloss_weight: options.gloss_weight,
        prior: options.prior,
        propagate: options.propagate,
        held_out: "document".into(),
        samples: pairs.len(),
        accuracy: right as f64 / pairs.len() as f64,
        blocks: Calibration::fit_map(pairs),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{Sentence, Token};

    #[test]
    fn keep_best_keeps_the_k_highest_in_order() {
        let mut b = Vec::new();
        for (s, r) in [(0.1, 1), (0.9, 2), (0.5, 3), (0.7, 4), (0.2, 5)] {
            keep_best(&mut b, 2, s, r);
        }
        assert_eq!(b, vec![(0.9, 2), (0.7, 4)]);
        let mut none = Vec::new();
        keep_best(&mut none, 0, 1.0, 1);
        assert!(none.is_empty());
    }

    #[test]
    fn an_exemplar_marks_its_word_and_cuts_long_sentences() {
        let tok = |t: &str, inst: Option<&str>| Token {
            text: t.into(),
            instance: inst.map(String::from),
            ..Default::default()
        };
        let mut tokens: Vec<Token> = (0..30).map(|i| tok(&format!("w{i}"), None)).collect();
        tokens[20] = tok("took_place", Some("d1.s1.t20"));
        let doc = Document {
            id: "d1".into(),
            sentences: vec![Sentence {
                id: "s1".into(),
                tokens,
            }],
        };
        let e = exemplar(&doc, 0, 20);
        assert_eq!(e.id, "d1.s1.t20");
        let words: Vec<&str> = e.text.split(' ').collect();
        assert_eq!(words.first(), Some(&"…"));
        assert_eq!(words.last(), Some(&"…"));
        assert!(e.text.contains(" *took place* "), "{}", e.text);
        assert!(e.text.contains(&format!("w{} ", 20 - EXEMPLAR_WINDOW)));
        assert!(!e.text.contains(&format!("w{} ", 19 - EXEMPLAR_WINDOW)));
        // a short sentence whole, an id made up when the token has none
        let e = exemplar(&doc, 0, 0);
        assert_eq!(e.id, "d1/s1/0");
        assert!(e.text.starts_with("*w0* w1"), "{}", e.text);
    }
}
