//! Training: counting the features of every sense-tagged token into one
//! table per (lemma, POS) ([`LemmaCounts`]), then freezing the tables into
//! [`LemmaModel`]s. Also [`log_joint_scores`], the same computation on toy
//! data (the course notes' worked example).

use rustc_hash::FxHashMap;

use super::features::{extract, Vocab};
use super::model::{key_lemma_pos, pos_index, LemmaModel, NaiveBayes, Scoring};
use super::params::{NbFacts, NbParams};
use crate::corpus::Document;
use crate::wordnet::{Inventory, Pos};

// ---------------------------------------------------------------------------
// The per-lemma model: counting and scoring (pure)

/// Counts of one (lemma, POS) while training.
#[derive(Default)]
pub(super) struct LemmaCounts {
    senses: Vec<String>,
    examples: Vec<u32>,
    pairs: FxHashMap<(u64, u16), u32>,
}

impl LemmaCounts {
    pub(super) fn sense_index(&mut self, key: &str) -> u16 {
        match self.senses.iter().position(|s| s == key) {
            Some(i) => i as u16,
            None => {
                self.senses.push(key.to_owned());
                self.examples.push(0);
                (self.senses.len() - 1) as u16
            }
        }
    }

    /// One training example of `sense` with its features (a multiset).
    pub(super) fn add(&mut self, sense: u16, features: &[u64]) {
        self.examples[sense as usize] += 1;
        for &f in features {
            *self.pairs.entry((f, sense)).or_insert(0) += 1;
        }
    }

    pub(super) fn finish(self) -> LemmaModel {
        let mut pairs: Vec<((u64, u16), u32)> = self.pairs.into_iter().collect();
        pairs.sort_unstable_by_key(|&(k, _)| k);
        let mut keys = Vec::new();
        let mut starts = vec![0u32];
        let mut senses = Vec::with_capacity(pairs.len());
        let mut counts = Vec::with_capacity(pairs.len());
        for ((f, s), c) in pairs {
            if keys.last() != Some(&f) {
                if !keys.is_empty() {
                    starts.push(senses.len() as u32);
                }
                keys.push(f);
            }
            senses.push(s);
            counts.push(c);
        }
        if !keys.is_empty() {
            starts.push(senses.len() as u32);
        }
        LemmaModel::new(self.senses, self.examples, keys, starts, senses, counts)
    }
}

/// The log joint scores `ln P(c) + Σ_f ln P(f|c)` of a multinomial Naive
/// Bayes with add-α smoothing, trained on `examples` (class index, features
/// as a multiset) with `n_classes` classes, for a `test` multiset of
/// features. V is the number of distinct training features; test features
/// outside it are ignored. This is the exact computation [`NaiveBayes`]
/// makes per (lemma, POS), usable on toy data (the course notes' *bass*
/// example). Classes without examples get `-inf`.
pub fn log_joint_scores(
    examples: &[(usize, Vec<u64>)],
    n_classes: usize,
    alpha: f64,
    test: &[u64],
) -> Vec<f64> {
    let mut counts = LemmaCounts::default();
    let names: Vec<String> = (0..n_classes).map(|c| c.to_string()).collect();
    for (c, feats) in examples {
        let s = counts.sense_index(&names[*c]);
        counts.add(s, feats);
    }
    let model = counts.finish();
    let mut scores = Vec::new();
    let scoring = Scoring {
        alpha,
        weight: &[1.0; 64],
        extra_prior: &[],
    };
    model.log_joint(test, &scoring, &mut scores);
    let mut out = vec![f64::NEG_INFINITY; n_classes];
    for (name, s) in model.senses.iter().zip(scores) {
        out[name.parse::<usize>().expect("class index")] = s;
    }
    out
}

impl NaiveBayes {
    /// Train on the sense-tagged tokens of `docs` (tokens with an instance
    /// id and gold keys). `progress(done, total)` is called after each
    /// document.
    pub fn train(
        inv: &Inventory,
        docs: &[Document],
        params: &NbParams,
        progress: &dyn Fn(usize, usize),
    ) -> NaiveBayes {
        NaiveBayes::train_with(&|k| inv.has_key(k), docs, params, progress)
    }

    /// [`NaiveBayes::train`] with `known` telling which gold keys WordNet
    /// has.
    pub(super) fn train_with(
        known: &dyn Fn(&str) -> bool,
        docs: &[Document],
        params: &NbParams,
        progress: &dyn Fn(usize, usize),
    ) -> NaiveBayes {
        let mut vocab = Vocab::with_markers();
        let mut facts = NbFacts {
            documents: docs.len(),
            ..NbFacts::default()
        };
        let mut lemmas: [FxHashMap<String, LemmaCounts>; 4] = Default::default();
        let mut buf = String::new();
        let mut feats = Vec::new();
        for (di, doc) in docs.iter().enumerate() {
            for (si, sent) in doc.sentences.iter().enumerate() {
                for (ti, tok) in sent.tokens.iter().enumerate() {
                    if tok.instance.is_none() || tok.gold.is_empty() {
                        continue;
                    }
                    let keys = if params.all_gold_keys {
                        &tok.gold[..]
                    } else {
                        &tok.gold[..1]
                    };
                    let mut extracted = false;
                    for key in keys {
                        let lp = key_lemma_pos(key).filter(|_| known(key));
                        let Some((lemma, pos)) = lp else {
                            facts.skipped_unknown_keys += 1;
                            continue;
                        };
                        if !extracted {
                            extract(params, doc, si, ti, &mut vocab, &mut buf, &mut feats);
                            extracted = true;
                            facts.instances += 1;
                        }
                        let table = &mut lemmas[pos_index(pos)];
                        let counts = match table.get_mut(lemma) {
                            Some(c) => c,
                            None => table.entry(lemma.to_owned()).or_default(),
                        };
                        let s = counts.sense_index(key);
                        counts.add(s, &feats);
                        facts.examples += 1;
                    }
                }
            }
            progress(di + 1, docs.len());
        }
        let mut models = Vec::new();
        for (pi, table) in lemmas.into_iter().enumerate() {
            let mut entries: Vec<(String, LemmaCounts)> = table.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            for (lemma, counts) in entries {
                models.push((Pos::ALL[pi], lemma, counts.finish()));
            }
        }
        facts.lemmas = models.len();
        facts.features = models.iter().map(|m| m.2.vocabulary()).sum();
        facts.vocabulary = vocab.words.len();
        NaiveBayes::assemble(params.clone(), facts, vocab.map, vocab.words, models)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::disambig::naive_bayes::testutil::*;
    use crate::wordnet::Pos;

    // The course notes' worked example (lecture 12, section 12.6.2).
    const LINE: u64 = 0;
    const FISH: u64 = 1;
    const OCEAN: u64 = 2;
    const JAZZ: u64 = 3;
    const GUITAR: u64 = 4;
    const MUSIC: u64 = 5;
    const WATER: u64 = 6;

    #[test]
    fn worked_example_bass_fish_vs_guitar() {
        // Class 0 = fish, 1 = guitar.
        let train = vec![
            (0, vec![LINE, FISH, OCEAN]),
            (1, vec![JAZZ, GUITAR, MUSIC]),
            (0, vec![FISH, OCEAN, WATER]),
            (0, vec![LINE, WATER, FISH]),
        ];
        let d5 = [LINE, GUITAR, JAZZ, JAZZ];
        let scores = log_joint_scores(&train, 2, 1.0, &d5);
        let (fish, guitar) = (scores[0].exp(), scores[1].exp());
        // 3/4 · 3/16 · 1/16 · (1/16)² and 1/4 · 1/10 · 2/10 · (2/10)².
        assert_eq!(format!("{fish:.2e}"), "3.43e-5");
        assert_eq!(format!("{guitar:.2e}"), "2.00e-4");
        assert!((fish - 0.75 * 3.0 / 16.0 / 16.0 / 256.0).abs() < 1e-15);
        assert!((guitar - 0.25 * 0.1 * 0.2 * 0.04).abs() < 1e-15);
        assert!(guitar > fish, "guitar wins");
        // Repeated features count each time: with "jazz" once, the
        // guitar/fish ratio drops by the factor (2/10)/(1/16) = 3.2.
        let once = log_joint_scores(&train, 2, 1.0, &[LINE, GUITAR, JAZZ]);
        let ratio2 = scores[1] - scores[0];
        let ratio1 = once[1] - once[0];
        assert!((ratio2 - ratio1 - 3.2f64.ln()).abs() < 1e-12);
        // V = 7: the per-lemma vocabulary of the four training documents.
        let mut c = LemmaCounts::default();
        for (class, f) in &train {
            let s = c.sense_index(&class.to_string());
            c.add(s, f);
        }
        let m = c.finish();
        assert_eq!(m.vocabulary(), 7);
        assert_eq!(m.tokens, vec![9, 3]);
        // A feature never seen with the lemma is ignored.
        let with_unknown = log_joint_scores(&train, 2, 1.0, &[LINE, GUITAR, JAZZ, JAZZ, 99]);
        assert_eq!(with_unknown, scores);
    }

    #[test]
    fn unknown_gold_keys_are_skipped_and_counted_and_multi_keys_count_each() {
        let mut docs = bass_docs();
        docs[0].sentences[0].tokens[0].gold = vec!["bass%9:99:99::".into()];
        docs[1].sentences[0].tokens[0].gold = vec![BASS_GUITAR.into(), BASS_FISH.into()];
        let known = |k: &str| k != "bass%9:99:99::";
        let m = NaiveBayes::train_with(&known, &docs, &sentence_only(), &|_, _| {});
        assert_eq!(m.facts().skipped_unknown_keys, 1);
        assert_eq!(m.facts().instances, 3);
        assert_eq!(m.facts().examples, 4);
        assert_eq!(
            m.trained_senses("bass", Pos::Noun),
            vec![(BASS_GUITAR, 1), (BASS_FISH, 3)]
        );
        let first_only = NbParams {
            all_gold_keys: false,
            ..sentence_only()
        };
        let m = NaiveBayes::train_with(&known, &docs, &first_only, &|_, _| {});
        assert_eq!(m.facts().examples, 3);
        assert_eq!(
            m.trained_senses("bass", Pos::Noun),
            vec![(BASS_GUITAR, 1), (BASS_FISH, 2)]
        );
    }
}
