//! The trained model and how it scores: the per-(lemma, POS) count tables
//! ([`LemmaModel`]), the log-space Naive Bayes score and the decision among
//! the candidates, and [`NaiveBayes`], the disambiguator that holds them
//! (its accessors and its [`Disambiguator`] implementation).

use rustc_hash::FxHashMap;

use super::features::{
    extract, family_of, Lookup, FAM_NGRAM, FAM_SENTENCE, FAM_TAG, FAM_WINDOW, FAM_WORD, LOW56,
    NGRAM_SPANS,
};
use super::params::{FamilyWeights, NbFacts, NbParams};
use super::METHOD;
use crate::corpus::{Document, Target};
use crate::disambig::{Candidates, Disambiguator, Evidence, Prediction, Scale, Weighted};
use crate::wordnet::{Inventory, Pos, Sense};

/// A trained (lemma, POS): its senses, example counts, and per feature the
/// senses it was seen with and how often.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct LemmaModel {
    pub(super) senses: Vec<String>,
    /// Training examples per sense (the prior's counts).
    pub(super) examples: Vec<u32>,
    /// Σ examples.
    pub(super) total: u64,
    /// Feature keys, strictly increasing (the lemma's V = `keys.len()`).
    pub(super) keys: Vec<u64>,
    /// CSR offsets into `ent_sense`/`ent_count`, `keys.len() + 1` long
    /// (or empty when there are no features).
    pub(super) starts: Vec<u32>,
    pub(super) ent_sense: Vec<u16>,
    pub(super) ent_count: Vec<u32>,
    /// N_s: feature occurrences seen with each sense.
    pub(super) tokens: Vec<u64>,
}

/// How to score: smoothing, family weights, prior pseudo-counts.
pub(super) struct Scoring<'a> {
    pub(super) alpha: f64,
    pub(super) weight: &'a [f64; 64],
    /// Empty, or pseudo-counts added to each sense's example count.
    pub(super) extra_prior: &'a [f64],
}

impl LemmaModel {
    pub(super) fn new(
        senses: Vec<String>,
        examples: Vec<u32>,
        keys: Vec<u64>,
        starts: Vec<u32>,
        ent_sense: Vec<u16>,
        ent_count: Vec<u32>,
    ) -> LemmaModel {
        let mut tokens = vec![0u64; senses.len()];
        for (&s, &c) in ent_sense.iter().zip(&ent_count) {
            tokens[s as usize] += c as u64;
        }
        let total = examples.iter().map(|&e| e as u64).sum();
        LemmaModel {
            senses,
            examples,
            total,
            keys,
            starts,
            ent_sense,
            ent_count,
            tokens,
        }
    }

    pub(super) fn vocabulary(&self) -> usize {
        self.keys.len()
    }

    /// `ln P(s) + Σ_f w(f) · ln P(f|s)` for every sense (into `out`),
    /// features outside the lemma's vocabulary skipped. Computed sparsely:
    /// every feature found adds `w·(ln α − ln(N_s + α·V))` to every sense,
    /// and `w·(ln(c + α) − ln α)` to the senses it was seen with.
    pub(super) fn log_joint(&self, features: &[u64], sc: &Scoring, out: &mut Vec<f64>) {
        let n = self.senses.len();
        out.clear();
        out.resize(n, 0.0);
        let alpha = sc.alpha;
        let ln_alpha = alpha.ln();
        let mut total_w = 0.0;
        for &f in features {
            let Ok(i) = self.keys.binary_search(&f) else {
                continue;
            };
            let w = sc.weight[(family_of(f) & 63) as usize];
            if w == 0.0 {
                continue;
            }
            total_w += w;
            let (a, b) = (self.starts[i] as usize, self.starts[i + 1] as usize);
            for (&s, &c) in self.ent_sense[a..b].iter().zip(&self.ent_count[a..b]) {
                out[s as usize] += w * ((c as f64 + alpha).ln() - ln_alpha);
            }
        }
        let count =
            |s: usize| self.examples[s] as f64 + sc.extra_prior.get(s).copied().unwrap_or(0.0);
        let ln_total = (0..n).map(count).sum::<f64>().ln();
        let v = self.vocabulary() as f64;
        for (s, o) in out.iter_mut().enumerate() {
            let prior = count(s).ln() - ln_total;
            *o += prior + total_w * (ln_alpha - (self.tokens[s] as f64 + alpha * v).ln());
        }
    }
}

/// The decision among the senses that have an `order` (their position
/// among the candidates, in WordNet order): the best log joint score, ties
/// to the earlier candidate. Returns the sense index and its log posterior
/// over the ordered senses; `None` when no sense has a finite score.
pub(super) fn decide(scores: &[f64], order: &[Option<usize>]) -> Option<(usize, f64)> {
    let mut best: Option<(usize, f64, usize)> = None;
    for (s, o) in order.iter().enumerate() {
        let (Some(o), sc) = (*o, scores[s]) else {
            continue;
        };
        if !sc.is_finite() {
            continue;
        }
        let better = match best {
            None => true,
            Some((_, bs, bo)) => sc > bs || (sc == bs && o < bo),
        };
        if better {
            best = Some((s, sc, o));
        }
    }
    let (s, max, _) = best?;
    let z: f64 = order
        .iter()
        .zip(scores)
        .filter(|(o, sc)| o.is_some() && sc.is_finite())
        .map(|(_, &sc)| (sc - max).exp())
        .sum();
    Some((s, -z.ln()))
}

pub(super) fn sane_alpha(a: f64) -> f64 {
    if a.is_finite() && a > 0.0 {
        a
    } else {
        1e-9
    }
}

// ---------------------------------------------------------------------------
// The model

/// Naive Bayes word-sense disambiguator: one multinomial classifier per
/// (lemma, POS) trained on sense-tagged documents (see the module docs).
#[derive(Clone, Debug)]
pub struct NaiveBayes {
    pub(super) params: NbParams,
    pub(super) facts: NbFacts,
    pub(super) vocab: FxHashMap<String, u32>,
    pub(super) words: Vec<String>,
    /// Per POS (WordNet file order): lemma → index into `models`.
    pub(super) index: [FxHashMap<String, u32>; 4],
    pub(super) models: Vec<(Pos, String, LemmaModel)>,
    /// Family → weight, derived from `params.weights`.
    pub(super) weight: [f64; 64],
}

/// The index of per-POS tables.
pub(super) fn pos_index(p: Pos) -> usize {
    p.index()
}

/// (lemma, POS) of a sense key.
pub(super) fn key_lemma_pos(key: &str) -> Option<(&str, Pos)> {
    crate::wordnet::SenseKey::lemma_and_pos(key)
}

pub(super) fn weight_table(w: &FamilyWeights) -> [f64; 64] {
    let mut t = [0.0; 64];
    t[FAM_WINDOW as usize] = w.window;
    t[FAM_SENTENCE as usize] = w.sentence;
    for o in 0..7 {
        t[FAM_WORD as usize + o] = w.colloc;
        t[FAM_TAG as usize + o] = w.pos;
    }
    for k in 0..NGRAM_SPANS.len() {
        t[FAM_NGRAM as usize + k] = w.ngram;
    }
    t
}

impl NaiveBayes {
    pub(super) fn assemble(
        params: NbParams,
        facts: NbFacts,
        vocab: FxHashMap<String, u32>,
        words: Vec<String>,
        models: Vec<(Pos, String, LemmaModel)>,
    ) -> NaiveBayes {
        let mut index: [FxHashMap<String, u32>; 4] = Default::default();
        for (i, (pos, lemma, _)) in models.iter().enumerate() {
            index[pos_index(*pos)].insert(lemma.clone(), i as u32);
        }
        NaiveBayes {
            weight: weight_table(&params.weights),
            params,
            facts,
            vocab,
            words,
            index,
            models,
        }
    }

    /// The hyper-parameters.
    pub fn params(&self) -> &NbParams {
        &self.params
    }

    /// Facts about the training run.
    pub fn facts(&self) -> &NbFacts {
        &self.facts
    }

    /// Record which data the model was trained on (`semcor:train`, …); it
    /// goes to the model header.
    pub fn set_split(&mut self, split: impl Into<String>) {
        self.facts.split = Some(split.into());
    }

    /// Change the scoring parameters of a trained model (`alpha`,
    /// `weights`, `min_examples`); the feature parameters must stay as
    /// trained, so they are taken from the model and those of `params` are
    /// ignored.
    pub fn set_scoring(&mut self, params: &NbParams) {
        self.params.alpha = params.alpha;
        self.params.weights = params.weights;
        self.params.min_examples = params.min_examples;
        self.params.prior_wordnet = params.prior_wordnet;
        self.weight = weight_table(&self.params.weights);
    }

    /// Number of (lemma, POS) models.
    pub fn lemma_count(&self) -> usize {
        self.models.len()
    }

    /// How many (lemma, POS) models have at least `min_examples` training
    /// examples, i.e. will answer rather than abstain. A model trained on a
    /// small data set of one's own can have none at the default threshold.
    pub fn answering_lemmas(&self) -> usize {
        let min = self.params.min_examples as u64;
        self.models
            .iter()
            .filter(|(_, _, m)| m.examples.iter().map(|&e| e as u64).sum::<u64>() >= min)
            .count()
    }

    /// The trained senses of a lemma with their training example counts.
    pub fn trained_senses(&self, lemma: &str, pos: Pos) -> Vec<(&str, u32)> {
        match self.index[pos_index(pos)].get(lemma) {
            Some(&i) => {
                let m = &self.models[i as usize].2;
                m.senses
                    .iter()
                    .map(String::as_str)
                    .zip(m.examples.iter().copied())
                    .collect()
            }
            None => Vec::new(),
        }
    }

    /// The features of a target in the model's vocabulary (a multiset of
    /// interned keys).
    pub(super) fn features_of(&self, doc: &Document, target: &Target, out: &mut Vec<u64>) {
        let mut buf = String::new();
        extract(
            &self.params,
            doc,
            target.sentence,
            target.token,
            &mut Lookup(&self.vocab),
            &mut buf,
            out,
        );
    }

    /// Predict among `candidates` (see [`Disambiguator::disambiguate`]).
    pub(super) fn predict(
        &self,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
        feats: &mut Vec<u64>,
        scores: &mut Vec<f64>,
    ) -> Option<Prediction> {
        if candidates.len() < 2 {
            return None;
        }
        let (lemma, pos) = key_lemma_pos(&candidates[0].key)?;
        let &mi = self.index[pos_index(pos)].get(lemma)?;
        let model = &self.models[mi as usize].2;
        if model.total < self.params.min_examples as u64 {
            return None;
        }
        // Trained senses that are candidates, with their candidate position.
        let order: Vec<Option<usize>> = model
            .senses
            .iter()
            .map(|k| candidates.iter().position(|c| &c.key == k))
            .collect();
        if order.iter().all(Option::is_none) {
            return None;
        }
        if target.sentence >= doc.sentences.len()
            || target.token >= doc.sentences[target.sentence].tokens.len()
        {
            return None;
        }
        self.features_of(doc, target, feats);
        let wn = self.params.prior_wordnet;
        let extra: Vec<f64> = if wn.is_finite() && wn > 0.0 {
            order
                .iter()
                .map(|o| o.map_or(0.0, |c| wn * candidates[c].tag_count as f64))
                .collect()
        } else {
            Vec::new()
        };
        let scoring = Scoring {
            alpha: sane_alpha(self.params.alpha),
            weight: &self.weight,
            extra_prior: &extra,
        };
        model.log_joint(feats, &scoring, scores);
        let (s, log_post) = decide(scores, &order)?;
        // The log joint of each trained candidate, in WordNet order: its
        // softmax is the posterior over them.
        let mut keyed: Vec<(usize, String, f64)> = order
            .iter()
            .zip(scores.iter())
            .enumerate()
            .filter_map(|(i, (o, &sc))| match o {
                Some(o) if sc.is_finite() => Some((*o, model.senses[i].clone(), sc)),
                _ => None,
            })
            .collect();
        keyed.sort_by_key(|k| k.0);
        Some(
            Prediction::decided(model.senses[s].clone(), METHOD, log_post).with_scores(
                keyed.into_iter().map(|(_, k, sc)| (k, sc)).collect(),
                Scale::Log,
            ),
        )
    }

    /// The strongest features behind `prediction` (see
    /// [`Evidence::Features`]): per feature of the context, summed over its
    /// occurrences, `w · (ln P(f|chosen) − ln P(f|runner-up))`; the five
    /// largest positive ones.
    fn features_for(
        &self,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
        prediction: &Prediction,
    ) -> Option<Evidence> {
        let (lemma, pos) = key_lemma_pos(&candidates.first()?.key)?;
        let &mi = self.index[pos_index(pos)].get(lemma)?;
        let model = &self.models[mi as usize].2;
        let chosen = model.senses.iter().position(|k| *k == prediction.key)?;
        // The runner-up: the next sense of the prediction's distribution.
        let against = prediction
            .distribution()
            .get(1)
            .and_then(|(k, _)| model.senses.iter().position(|s| s == k));
        let Some(other) = against else {
            return Some(Evidence::Features {
                against: None,
                features: Vec::new(),
            });
        };
        let mut feats = Vec::new();
        self.features_of(doc, target, &mut feats);
        let alpha = sane_alpha(self.params.alpha);
        let v = model.vocabulary() as f64;
        let ln_p = |i: usize, s: usize| {
            let (a, b) = (model.starts[i] as usize, model.starts[i + 1] as usize);
            let c = model.ent_sense[a..b]
                .iter()
                .position(|&x| x as usize == s)
                .map_or(0, |j| model.ent_count[a + j]);
            (c as f64 + alpha).ln() - (model.tokens[s] as f64 + alpha * v).ln()
        };
        let mut by_key: Vec<(u64, f64)> = Vec::new();
        for &f in &feats {
            let Ok(i) = model.keys.binary_search(&f) else {
                continue;
            };
            let w = self.weight[(family_of(f) & 63) as usize];
            if w == 0.0 {
                continue;
            }
            let d = w * (ln_p(i, chosen) - ln_p(i, other));
            match by_key.iter_mut().find(|(k, _)| *k == f) {
                Some(e) => e.1 += d,
                None => by_key.push((f, d)),
            }
        }
        by_key.retain(|(_, d)| *d > 0.0);
        by_key.sort_by(|a, b| b.1.total_cmp(&a.1));
        by_key.truncate(5);
        Some(Evidence::Features {
            against: Some(model.senses[other].clone()),
            features: by_key
                .into_iter()
                .map(|(f, d)| Weighted::new(self.feature_name(f), d))
                .collect(),
        })
    }

    /// A feature key spelt for people: `window:river`, `sentence:water`,
    /// `w-1=the`, `p+1=NOUN`, `ngram(-2,-1)#…` (n-grams are hashed).
    fn feature_name(&self, key: u64) -> String {
        let fam = family_of(key);
        let value = key & LOW56;
        let word = || {
            self.words
                .get(value as usize)
                .cloned()
                .unwrap_or_else(|| format!("#{value}"))
        };
        match fam {
            FAM_WINDOW => format!("window:{}", word()),
            FAM_SENTENCE => format!("sentence:{}", word()),
            f if (FAM_WORD..FAM_WORD + 7).contains(&f) => {
                format!("w{:+}={}", f as i32 - FAM_WORD as i32 - 3, word()).replace("w+0", "w0")
            }
            f if (FAM_TAG..FAM_TAG + 7).contains(&f) => {
                format!("p{:+}={}", f as i32 - FAM_TAG as i32 - 3, word()).replace("p+0", "p0")
            }
            f if (FAM_NGRAM..FAM_NGRAM + NGRAM_SPANS.len() as u8).contains(&f) => {
                let (a, b) = NGRAM_SPANS[(f - FAM_NGRAM) as usize];
                format!("ngram({a},{b})#{:x}", value & 0xffff)
            }
            f => format!("family{f}#{value}"),
        }
    }
}

impl Disambiguator for NaiveBayes {
    fn name(&self) -> &str {
        METHOD
    }

    fn disambiguate(
        &self,
        _inv: &Inventory,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
    ) -> Option<Prediction> {
        let mut feats = Vec::new();
        let mut scores = Vec::new();
        self.predict(doc, target, candidates, &mut feats, &mut scores)
    }

    fn disambiguate_document(
        &self,
        _inv: &Inventory,
        doc: &Document,
        targets: &[Candidates<'_>],
    ) -> Vec<Option<Prediction>> {
        let mut feats = Vec::new();
        let mut scores = Vec::new();
        targets
            .iter()
            .map(|c| self.predict(doc, &c.target, &c.senses, &mut feats, &mut scores))
            .collect()
    }

    fn explain(
        &self,
        _inv: &Inventory,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
        prediction: &Prediction,
    ) -> Option<Evidence> {
        self.features_for(doc, target, candidates, prediction)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::disambig::naive_bayes::testutil::*;

    #[test]
    fn worked_example_through_training_and_prediction() {
        let docs = bass_docs();
        let done = std::cell::Cell::new(0);
        let m = NaiveBayes::train_with(&|_| true, &docs, &sentence_only(), &|d, n| {
            assert_eq!(n, 4);
            done.set(d);
        });
        assert_eq!(done.get(), 4);
        assert_eq!(m.lemma_count(), 1);
        assert_eq!(m.facts().instances, 4);
        assert_eq!(
            m.trained_senses("bass", Pos::Noun),
            vec![(BASS_FISH, 3), (BASS_GUITAR, 1)]
        );
        let d5 = bass_doc("d5", &["line", "guitar", "jazz", "jazz"], &[]);
        let cands = [
            sense(BASS_FISH, 1),
            sense(BASS_GUITAR, 2),
            sense("bass%1:10:00::", 3),
        ];
        let p = predict(&m, &d5, &cands).unwrap();
        assert_eq!(p.key, BASS_GUITAR);
        assert_eq!(p.method, "nb");
        // Log posterior over the candidates: 2.0e-4 / (2.0e-4 + 3.43e-5).
        let (f, g): (f64, f64) = (0.75 * 3.0 / 16.0 / 16.0 / 256.0, 0.25 * 0.1 * 0.2 * 0.04);
        assert!((p.score - (g / (f + g)).ln()).abs() < 1e-12, "{}", p.score);

        // Only the fish sense among the candidates: the classes are
        // restricted to them.
        let p = predict(&m, &d5, &[sense(BASS_FISH, 1), sense("bass%1:10:00::", 3)]).unwrap();
        assert_eq!(p.key, BASS_FISH);
        // No trained sense among the candidates, a single candidate, an
        // unseen lemma: abstain.
        assert!(predict(
            &m,
            &d5,
            &[sense("bass%1:10:00::", 3), sense("bass%1:05:00::", 4)]
        )
        .is_none());
        assert!(predict(&m, &d5, &[sense(BASS_GUITAR, 2)]).is_none());
        assert!(predict(
            &m,
            &d5,
            &[sense("pike%1:13:00::", 1), sense("pike%1:06:00::", 2)]
        )
        .is_none());
        // min_examples: four examples are not enough for 5.
        let mut strict = m.clone();
        strict.set_scoring(&NbParams {
            min_examples: 5,
            ..sentence_only()
        });
        assert!(predict(&strict, &d5, &cands).is_none());
    }
}
