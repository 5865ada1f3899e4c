//! One sense per discourse (Gale, Church & Yarowsky 1992): a word tends to
//! keep one sense throughout a document. [`OneSensePerDiscourse`] wraps any
//! method and makes every occurrence of a lemma + part of speech in a
//! document take the sense decided for it.
//!
//! * [`Propagation::First`]: the first decision for the lemma + POS, in
//!   reading order, is reused for every later occurrence.
//! * [`Propagation::Vote`]: the sense chosen most often by the method's own
//!   (non-fallback) decisions in the document wins, the earliest on a tie;
//!   a lemma whose decisions were all ties or fallbacks keeps them.
//!
//! The wrapped method disambiguates the whole document first (so batching
//! methods still batch); reused predictions keep the deciding prediction's
//! key, score and method.

use rustc_hash::FxHashMap;

use super::{Candidates, Disambiguator, Evidence, Prediction};
use crate::corpus::{Document, Target};
use crate::wordnet::{Inventory, Pos, Sense};

/// How a document-level decision is made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Propagation {
    /// The first decision in reading order.
    #[default]
    First,
    /// The most frequent non-fallback decision.
    Vote,
}

/// A method with one sense per discourse.
pub struct OneSensePerDiscourse<D> {
    inner: D,
    mode: Propagation,
    name: String,
}

impl<D: Disambiguator> OneSensePerDiscourse<D> {
    /// Wrap `inner`; the name is the inner name with `+ospd`
    /// ([`Propagation::First`]) or `+ospd-vote`.
    pub fn new(inner: D, mode: Propagation) -> Self {
        let suffix = match mode {
            Propagation::First => "ospd",
            Propagation::Vote => "ospd-vote",
        };
        let name = format!("{}+{suffix}", inner.name());
        OneSensePerDiscourse { inner, mode, name }
    }

    /// The wrapped method.
    pub fn inner(&self) -> &D {
        &self.inner
    }
}

/// Apply one sense per discourse to a document's predictions (`preds[i]`
/// for `targets[i]`).
pub fn one_sense_per_discourse<'t>(
    targets: impl IntoIterator<Item = &'t Target>,
    preds: &mut [Option<Prediction>],
    mode: Propagation,
) {
    let mut groups: FxHashMap<(&str, Pos), Vec<usize>> = FxHashMap::default();
    for (i, t) in targets.into_iter().enumerate() {
        groups.entry((t.lemma.as_str(), t.pos)).or_default().push(i);
    }
    for idx in groups.into_values() {
        let decided = match mode {
            Propagation::First => idx.iter().find_map(|&i| preds[i].clone()),
            Propagation::Vote => {
                let mut votes: Vec<(String, usize, usize)> = Vec::new(); // key, count, first index
                for &i in &idx {
                    if let Some(p) = &preds[i] {
                        if !p.decision.is_decided() {
                            continue;
                        }
                        match votes.iter_mut().find(|v| v.0 == p.key) {
                            Some(v) => v.1 += 1,
                            None => votes.push((p.key.clone(), 1, i)),
                        }
                    }
                }
                votes
                    .iter()
                    .max_by(|a, b| a.1.cmp(&b.1).then(b.2.cmp(&a.2)))
                    .and_then(|v| preds[v.2].clone())
            }
        };
        if let Some(d) = decided {
            for &i in &idx {
                if preds[i].is_some() {
                    preds[i] = Some(d.clone());
                }
            }
        }
    }
}

impl<D: Disambiguator> Disambiguator for OneSensePerDiscourse<D> {
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
        self.inner.disambiguate(inv, doc, target, candidates)
    }

    fn disambiguate_document(
        &self,
        inv: &Inventory,
        doc: &Document,
        targets: &[Candidates<'_>],
    ) -> Vec<Option<Prediction>> {
        let mut preds = self.inner.disambiguate_document(inv, doc, targets);
        one_sense_per_discourse(targets.iter().map(|c| &c.target), &mut preds, self.mode);
        preds
    }

    /// The wrapped method's evidence for the sense in this occurrence's
    /// context (a reused decision was made on another occurrence's).
    fn explain(
        &self,
        inv: &Inventory,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
        prediction: &Prediction,
    ) -> Option<Evidence> {
        self.inner.explain(inv, doc, target, candidates, prediction)
    }

    fn calibration(&self) -> Option<super::Calibration> {
        self.inner.calibration()
    }

    fn reads_sentence_vectors(&self) -> bool {
        self.inner.reads_sentence_vectors()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(lemma: &str) -> Target {
        Target {
            sentence: 0,
            token: 0,
            id: String::new(),
            lemma: lemma.into(),
            pos: Pos::Noun,
            role: Default::default(),
        }
    }

    fn p(key: &str, method: &str) -> Option<Prediction> {
        // "mfs" here stands for a fallback of the method.
        let decision = if method == "mfs" {
            super::super::Decision::Fallback {
                reason: super::super::FallbackReason::NoEvidence,
            }
        } else {
            super::super::Decision::Decided
        };
        Some(Prediction::new(key, method, decision, 0.0))
    }

    #[test]
    fn first_decision_is_reused() {
        let targets = [t("bank"), t("river"), t("bank"), t("bank")];
        let mut preds = vec![p("b1", "mfs"), p("r1", "lesk"), p("b2", "lesk"), None];
        one_sense_per_discourse(&targets, &mut preds, Propagation::First);
        assert_eq!(preds[2], p("b1", "mfs"));
        assert_eq!(preds[1], p("r1", "lesk"));
        assert_eq!(preds[3], None);
    }

    #[test]
    fn vote_ignores_fallbacks() {
        let targets = [t("bank"), t("bank"), t("bank"), t("bank")];
        let mut preds = vec![
            p("b1", "mfs"),
            p("b2", "lesk"),
            p("b3", "lesk"),
            p("b3", "lesk"),
        ];
        one_sense_per_discourse(&targets, &mut preds, Propagation::Vote);
        assert!(preds.iter().all(|x| x.as_ref().unwrap().key == "b3"));
        let mut preds = vec![p("b1", "mfs"), p("b2", "mfs")];
        one_sense_per_discourse(&targets[..2], &mut preds, Propagation::Vote);
        assert_eq!(preds[1], p("b2", "mfs"));
    }
}
