//! Training: encode every sentence of the training documents, add each
//! sense-tagged token's unit vector to its synsets' sums (the centroids
//! become the context vectors), then encode the glosses in scope.

use std::collections::HashMap;

use super::model::{Entry, KnnModel};
use super::params::{GlossPooling, GlossScope, KnnParams};
use super::{example_contexts, gloss_words, normalized, word_text, ExampleContext, TRAIN_BATCH};
use crate::corpus::Document;
use crate::disambig::candidates;
use crate::encoder::Encoder;
use crate::wordnet::{Inventory, Pos, Synset, SynsetId};
use crate::Result;

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
        let sentences: Vec<(&Document, usize)> = docs
            .iter()
            .flat_map(|doc| (0..doc.sentences.len()).map(move |i| (doc, i)))
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
        let mut instances: Vec<(u32, Vec<f32>)> = Vec::new();
        let mut tagged = 0usize;
        for chunk in sentences.chunks(TRAIN_BATCH) {
            let words: Vec<Vec<String>> = chunk
                .iter()
                .map(|(doc, i)| {
                    doc.sentences[*i]
                        .tokens
                        .iter()
                        .map(|t| word_text(&t.text))
                        .collect()
                })
                .collect();
            let vectors = encoder.encode_words_summed(&words, layers);
            for ((doc, i), vecs) in chunk.iter().zip(vectors) {
                for (tok, v) in doc.sentences[*i].tokens.iter().zip(vecs) {
                    if tok.gold.is_empty() {
                        continue;
                    }
                    let mut any = false;
                    let unit = normalized(&v);
                    let mut ids: Vec<SynsetId> = Vec::new();
                    for key in &tok.gold {
                        if let Some((syn, _, _)) = inv.sense_by_key(key) {
                            if !ids.contains(&syn.id) {
                                ids.push(syn.id);
                            }
                        }
                    }
                    for id in ids {
                        let e = *index.entry(id).or_insert_with(|| {
                            sums.push((id, 0, vec![0.0; d]));
                            sums.len() - 1
                        });
                        let s = &mut sums[e];
                        s.1 += 1;
                        for (a, x) in s.2.iter_mut().zip(&unit) {
                            *a += x;
                        }
                        if params.keep_instances {
                            instances.push((e as u32, unit.clone()));
                        }
                        any = true;
                    }
                    if any {
                        tagged += 1;
                    }
                }
            }
            done += chunk.len();
            progress(done, total);
        }
        let seen_in_corpus = sums.len();
        for chunk in examples.chunks(TRAIN_BATCH) {
            let words: Vec<Vec<String>> = chunk.iter().map(|(_, c)| c.words.clone()).collect();
            let vectors = encoder.encode_words_summed(&words, layers);
            for ((id, c), vecs) in chunk.iter().zip(vectors) {
                let Some(v) = vecs.get(c.at) else { continue };
                let unit = normalized(v);
                let e = *index.entry(*id).or_insert_with(|| {
                    sums.push((*id, 0, vec![0.0; d]));
                    sums.len() - 1
                });
                let s = &mut sums[e];
                s.1 += 1;
                for (a, x) in s.2.iter_mut().zip(&unit) {
                    *a += x;
                }
            }
            done += chunk.len();
            progress(done, total);
        }
        params.example_contexts = examples.len();
        params.example_synsets = sums.len() - seen_in_corpus;
        let mut entries: Vec<Entry> = sums
            .into_iter()
            .map(|(synset, count, sum)| Entry {
                synset,
                count,
                ctx: Some(normalized(&sum)),
                gloss: None,
            })
            .collect();
        for chunk in gloss_synsets.chunks(TRAIN_BATCH) {
            let texts: Vec<(Vec<String>, Vec<usize>)> =
                chunk.iter().map(|s| gloss_words(s)).collect();
            let words: Vec<Vec<String>> = texts.iter().map(|(w, _)| w.clone()).collect();
            let vectors = encoder.encode_words_summed(&words, layers);
            for ((syn, (_, lemma_at)), vecs) in chunk.iter().zip(&texts).zip(vectors) {
                let picked: Vec<&Vec<f32>> = match params.gloss_pooling {
                    GlossPooling::Lemma if !lemma_at.is_empty() => {
                        lemma_at.iter().filter_map(|&i| vecs.get(i)).collect()
                    }
                    _ => vecs.iter().collect(),
                };
                let mut sum = vec![0.0f32; d];
                for v in picked {
                    for (a, x) in sum.iter_mut().zip(v) {
                        *a += x;
                    }
                }
                let g = normalized(&sum);
                let e = *index.entry(syn.id).or_insert_with(|| {
                    entries.push(Entry {
                        synset: syn.id,
                        count: 0,
                        ctx: None,
                        gloss: None,
                    });
                    entries.len() - 1
                });
                entries[e].gloss = Some(g);
            }
            done += chunk.len();
            progress(done, total);
        }
        params.documents = docs.len();
        params.sentences = sentences.len();
        params.tagged_tokens = tagged;
        Ok(KnnModel {
            params,
            dim: d,
            entries,
            instances,
        })
    }
}
