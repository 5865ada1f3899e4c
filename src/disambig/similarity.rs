//! Similarity-based disambiguation (`sim-path`, `sim-wup`, `sim-lch`,
//! `sim-res`, `sim-jcn`, `sim-lin`), the method of the course notes'
//! "river bank" example, after Pedersen, Banerjee & Patwardhan's
//! maximise-relatedness scheme.
//!
//! For a target of category `P` (noun or verb), the context is the words
//! of category `P` in the window (by default the target's sentence;
//! `Window::Words(n)` takes `n` content words each side), the target
//! itself excluded. Each candidate sense `s` scores
//!
//! ```text
//! score(s) = Σ over context words w of  max over senses s' of w  sim(s, s')
//! ```
//!
//! and the highest score wins. WordNet's taxonomies only link synsets of
//! one part of speech, so adjectives and adverbs — which have none — and
//! targets without same-category context get no evidence. When every
//! candidate scores 0, or several tie at the top, the first WordNet sense
//! (of the tied ones) is taken and the prediction's decision says so
//! ([`Decision::Tie`], [`Decision::Fallback`]).
//!
//! Measure conventions are those of [`crate::wordnet::similarity`]; the IC
//! measures use the table given in the options, by default one built from
//! WordNet's tag counts. `jcn`'s "infinite" similarity (`1e300`) for a
//! context word sharing the candidate's synset is capped at 1 before
//! summing, so one identical synset does not swamp the rest.

use std::sync::{Arc, OnceLock};

use super::context::{window_tokens, Window};
use super::{keyed, Decision, Disambiguator, Evidence, FallbackReason, Prediction, Scale};
use crate::corpus::{Document, Target};
use crate::wordnet::similarity::{ic_from_tag_counts, Ic, Measure, Similarity, SimilarityCache};
use crate::wordnet::{canonical_name, offset_string, Inventory, Pos, Sense, SynsetId};

/// Options of [`SimilarityWsd`].
#[derive(Clone, Debug)]
pub struct SimilarityOptions {
    /// The measure (default Wu–Palmer).
    pub measure: Measure,
    /// The context window (default: the sentence).
    pub window: Window,
    /// Consider at most this many senses of each context word (WordNet
    /// order; 0 = all). Default: all.
    pub max_context_senses: usize,
    /// IC table for res/jcn/lin (default: from WordNet's tag counts).
    pub ic: Option<Arc<Ic>>,
}

impl Default for SimilarityOptions {
    fn default() -> Self {
        SimilarityOptions {
            measure: Measure::Wup,
            window: Window::Sentence,
            max_context_senses: 0,
            ic: None,
        }
    }
}

/// Similarity-based disambiguation.
pub struct SimilarityWsd {
    opts: SimilarityOptions,
    name: String,
    cache: OnceLock<Arc<SimilarityCache>>,
    ic: OnceLock<Arc<Ic>>,
}

impl Default for SimilarityWsd {
    fn default() -> Self {
        SimilarityWsd::new(SimilarityOptions::default())
    }
}

impl SimilarityWsd {
    /// A disambiguator with options; its name is `sim-<measure>`.
    pub fn new(opts: SimilarityOptions) -> SimilarityWsd {
        let name = format!("sim-{}", opts.measure.name());
        let ic = OnceLock::new();
        if let Some(t) = &opts.ic {
            let _ = ic.set(t.clone());
        }
        SimilarityWsd {
            opts,
            name,
            cache: OnceLock::new(),
            ic,
        }
    }

    /// With the given measure and default options otherwise.
    pub fn with_measure(measure: Measure) -> SimilarityWsd {
        SimilarityWsd::new(SimilarityOptions {
            measure,
            ..Default::default()
        })
    }

    /// The options.
    pub fn options(&self) -> &SimilarityOptions {
        &self.opts
    }

    fn sim<'a>(&self, inv: &'a Inventory) -> Similarity<'a> {
        let cache = self
            .cache
            .get_or_init(|| Arc::new(SimilarityCache::new(inv)))
            .clone();
        Similarity::with_cache(inv, cache)
    }

    fn ic(&self, inv: &Inventory) -> Option<&Ic> {
        self.opts
            .measure
            .needs_ic()
            .then(|| &**self.ic.get_or_init(|| Arc::new(ic_from_tag_counts(inv))))
    }

    /// The context words' candidate synsets: one list per context word of
    /// the target's category, with the word.
    fn context_synsets(
        &self,
        inv: &Inventory,
        doc: &Document,
        target: &Target,
    ) -> Vec<(String, Vec<SynsetId>)> {
        let mut out = Vec::new();
        for (si, ti) in window_tokens(doc, target, self.opts.window) {
            let t = &doc.sentences[si].tokens[ti];
            if t.pos != Some(target.pos) {
                continue;
            }
            let lemma = t.lemma.as_deref().unwrap_or(&t.text);
            let mut senses: Vec<SynsetId> = inv
                .senses(lemma, target.pos)
                .iter()
                .map(|s| s.synset)
                .collect();
            if senses.is_empty() {
                senses = inv
                    .lookup(lemma, target.pos)
                    .iter()
                    .map(|s| s.synset)
                    .collect();
            }
            if self.opts.max_context_senses > 0 {
                senses.truncate(self.opts.max_context_senses);
            }
            if !senses.is_empty() {
                out.push((t.text.clone(), senses));
            }
        }
        out
    }

    /// The score of every candidate (for inspection).
    pub fn scores(
        &self,
        inv: &Inventory,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
    ) -> Vec<f64> {
        if !matches!(target.pos, Pos::Noun | Pos::Verb) {
            return vec![0.0; candidates.len()];
        }
        let ctx = self.context_synsets(inv, doc, target);
        let sim = self.sim(inv);
        let ic = self.ic(inv);
        let cap = self.cap();
        candidates
            .iter()
            .map(|c| {
                ctx.iter()
                    .map(|(_, word)| {
                        word.iter()
                            .filter_map(|&s| {
                                sim.measure(self.opts.measure, c.synset, s, ic)
                                    .ok()
                                    .flatten()
                            })
                            .map(|v| v.min(cap))
                            .fold(0.0f64, f64::max)
                    })
                    .sum()
            })
            .collect()
    }
}

impl SimilarityWsd {
    /// jcn's "infinite" similarity is capped at 1 (see the module docs).
    fn cap(&self) -> f64 {
        if self.opts.measure == Measure::Jcn {
            1.0
        } else {
            f64::INFINITY
        }
    }
}

impl Disambiguator for SimilarityWsd {
    fn name(&self) -> &str {
        &self.name
    }

    fn disambiguate(
        &self,
        inv: &Inventory,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
    ) -> Option<Prediction> {
        let scores = self.scores(inv, doc, target, candidates);
        let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let i = scores.iter().position(|&s| s == best).unwrap_or(0);
        let ties = scores.iter().filter(|&&s| s == best).count();
        let decision = if best <= 0.0 {
            Decision::Fallback {
                reason: FallbackReason::NoEvidence,
            }
        } else if ties > 1 {
            Decision::Tie
        } else {
            Decision::Decided
        };
        let i = if best <= 0.0 { 0 } else { i };
        let s = candidates.get(i)?;
        Some(
            Prediction::new(
                s.key.clone(),
                self.name.clone(),
                decision,
                scores.get(i).copied().unwrap_or(0.0),
            )
            .with_scores(keyed(candidates, &scores), Scale::Share),
        )
    }

    fn explain(
        &self,
        inv: &Inventory,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
        prediction: &Prediction,
    ) -> Option<Evidence> {
        let chosen = candidates.iter().find(|c| c.key == prediction.key)?.synset;
        if !matches!(target.pos, Pos::Noun | Pos::Verb) {
            return None;
        }
        let sim = self.sim(inv);
        let ic = self.ic(inv);
        let cap = self.cap();
        let mut best: Option<(f64, &str, SynsetId)> = None;
        let ctx = self.context_synsets(inv, doc, target);
        for (word, senses) in &ctx {
            for &s in senses {
                let Some(v) = sim
                    .measure(self.opts.measure, chosen, s, ic)
                    .ok()
                    .flatten()
                    .map(|v| v.min(cap))
                else {
                    continue;
                };
                if v > 0.0 && best.is_none_or(|(b, _, _)| v > b) {
                    best = Some((v, word, s));
                }
            }
        }
        let (similarity, word, other) = best?;
        let name = |id: SynsetId| {
            inv.get(id)
                .and_then(|syn| canonical_name(inv, syn).ok())
                .unwrap_or_else(|| offset_string(id, None))
        };
        let ancestor = sim.lowest_common_hypernyms(chosen, other).first().copied();
        Some(Evidence::Ancestor {
            word: word.to_string(),
            word_sense: name(other),
            similarity,
            ancestor: ancestor.map(name),
            ancestor_depth: ancestor.and_then(|a| sim.max_depth(a)),
            sense_depth: sim.max_depth(chosen).unwrap_or(0),
            word_depth: sim.max_depth(other).unwrap_or(0),
        })
    }
}
