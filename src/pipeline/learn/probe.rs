//! The examples of the encoder category probe ([`crate::pos::probe`]):
//! SemCor's gold instances read as the pipeline reads plain text.

use crate::corpus::Document;
use crate::encoder::Encoder;
use crate::pipeline::rebuild_text;
use crate::pos::probe::{ProbeExample, PROBE_LAYERS};
use crate::pos::PosTagger;
use crate::text::split_sentences;
use crate::wordnet::Inventory;

/// Every single-word gold instance of `docs` whose word WordNet has in at
/// least two categories ([`crate::pos::category::candidate`]), with its
/// vector: the document is rebuilt as plain text ([`rebuild_text`]), split
/// into sentences and words as the pipeline splits them, and the word's
/// vector taken in its sentence (the sum of the last [`PROBE_LAYERS`]
/// layers). `progress` gets each document's index when it is done.
pub fn probe_examples(
    inv: &Inventory,
    tagger: &PosTagger,
    encoder: &Encoder,
    docs: &[Document],
    progress: &dyn Fn(usize),
) -> Vec<ProbeExample> {
    let mut out = Vec::new();
    for (di, doc) in docs.iter().enumerate() {
        let (text, spans) = rebuild_text(doc);
        let raw = split_sentences(&text);
        let word_at: rustc_hash::FxHashMap<(usize, usize), (usize, usize)> = raw
            .iter()
            .enumerate()
            .flat_map(|(si, s)| {
                s.iter()
                    .enumerate()
                    .map(move |(wi, t)| ((t.start, t.end), (si, wi)))
            })
            .collect();
        let words: Vec<Vec<String>> = raw
            .iter()
            .map(|s| s.iter().map(|t| t.text.clone()).collect())
            .collect();
        let mut select: Vec<Vec<bool>> = words.iter().map(|s| vec![false; s.len()]).collect();
        let mut wanted = Vec::new();
        for (s, sp) in doc.sentences.iter().zip(&spans) {
            for (t, &span) in s.tokens.iter().zip(sp) {
                let Some(gold) = t.pos.filter(|_| t.instance.is_some() && !t.gold.is_empty())
                else {
                    continue;
                };
                if t.text.contains(['_', ' ']) {
                    continue;
                }
                let Some(&(si, wi)) = word_at.get(&span) else {
                    continue;
                };
                let Some((allowed, _)) =
                    crate::pos::category::candidate(tagger, inv, &words[si][wi])
                else {
                    continue;
                };
                if allowed.count_ones() >= 2 && allowed & (1 << gold.index()) != 0 {
                    select[si][wi] = true;
                    wanted.push((si, wi, allowed, gold));
                }
            }
        }
        if !wanted.is_empty() {
            let vectors = encoder.encode_selected_summed(&words, PROBE_LAYERS, &select);
            out.extend(
                wanted
                    .into_iter()
                    .map(|(si, wi, allowed, gold)| ProbeExample {
                        vector: vectors[si][wi].clone(),
                        allowed,
                        gold,
                    }),
            );
        }
        progress(di);
    }
    out
}
