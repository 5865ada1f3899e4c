//! The most-frequent-sense baseline: WordNet's first sense (senses are
//! ordered by SemCor tag counts), the baseline every method must beat.

use super::{Disambiguator, Evidence, Prediction, Scale};
use crate::corpus::{Document, Target};
use crate::wordnet::{Inventory, Sense};

/// Picks the first WordNet sense of the lemma.
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstSense;

impl Disambiguator for FirstSense {
    fn name(&self) -> &str {
        "mfs"
    }

    fn disambiguate(
        &self,
        _inv: &Inventory,
        _doc: &Document,
        _target: &Target,
        candidates: &[Sense],
    ) -> Option<Prediction> {
        let first = candidates.first()?;
        let scores = candidates
            .iter()
            .map(|s| (s.key.clone(), s.tag_count as f64))
            .collect();
        Some(
            Prediction::decided(first.key.clone(), "mfs", first.tag_count as f64)
                .with_scores(scores, Scale::Counts),
        )
    }

    fn explain(
        &self,
        _inv: &Inventory,
        _doc: &Document,
        _target: &Target,
        candidates: &[Sense],
        prediction: &Prediction,
    ) -> Option<Evidence> {
        frequency(
            candidates.iter().map(|s| (&s.key, s.tag_count as u64)),
            &prediction.key,
            "WordNet tag count",
        )
    }
}

/// [`Evidence::Frequency`] of `key` among the counted candidates.
fn frequency<'a>(
    counts: impl Iterator<Item = (&'a String, u64)>,
    key: &str,
    source: &str,
) -> Option<Evidence> {
    let (mut count, mut total) = (None, 0);
    for (k, n) in counts {
        total += n;
        if k == key {
            count = Some(n);
        }
    }
    Some(Evidence::Frequency {
        count: count?,
        total,
        source: source.to_string(),
    })
}

/// The most frequent sense counted on a sense-tagged corpus (SemCor's train
/// split), for lemmas seen there; abstains on the others so that a chain
/// (`mfs-semcor` is registered as `mfs-semcor,mfs`) backs off to WordNet's
/// first sense.
#[derive(Clone, Debug, Default)]
pub struct CorpusMfs {
    /// (lemma, pos) → (key, count) of the most frequent candidate.
    best: rustc_hash::FxHashMap<(String, crate::wordnet::Pos), Vec<(String, u32)>>,
}

impl CorpusMfs {
    /// Count gold keys of the tagged tokens of `docs` (a token with several
    /// gold keys counts once for each).
    pub fn from_documents(docs: &[Document]) -> CorpusMfs {
        let mut counts: rustc_hash::FxHashMap<
            (String, crate::wordnet::Pos),
            rustc_hash::FxHashMap<String, u32>,
        > = Default::default();
        for d in docs {
            for s in &d.sentences {
                for t in &s.tokens {
                    if let (Some(l), Some(p)) = (&t.lemma, t.pos) {
                        for k in &t.gold {
                            *counts
                                .entry((l.clone(), p))
                                .or_default()
                                .entry(k.clone())
                                .or_default() += 1;
                        }
                    }
                }
            }
        }
        let best = counts
            .into_iter()
            .map(|(lp, m)| {
                let mut v: Vec<(String, u32)> = m.into_iter().collect();
                v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
                (lp, v)
            })
            .collect();
        CorpusMfs { best }
    }
}

impl CorpusMfs {
    fn count(&self, counted: &[(String, u32)], key: &str) -> u32 {
        counted
            .iter()
            .find(|(k, _)| k == key)
            .map_or(0, |(_, n)| *n)
    }
}

impl Disambiguator for CorpusMfs {
    fn name(&self) -> &str {
        "mfs-semcor"
    }

    fn disambiguate(
        &self,
        _inv: &Inventory,
        _doc: &Document,
        target: &Target,
        candidates: &[Sense],
    ) -> Option<Prediction> {
        let counted = self.best.get(&(target.lemma.clone(), target.pos))?;
        // The most frequent counted key that is a candidate; ties go to the
        // earlier WordNet sense.
        let mut best: Option<(&Sense, u32)> = None;
        for c in candidates {
            if let Some((_, n)) = counted.iter().find(|(k, _)| *k == c.key) {
                if best.is_none_or(|(_, b)| *n > b) {
                    best = Some((c, *n));
                }
            }
        }
        let (s, n) = best?;
        let scores = candidates
            .iter()
            .map(|c| (c.key.clone(), self.count(counted, &c.key) as f64))
            .collect();
        Some(
            Prediction::decided(s.key.clone(), "mfs-semcor", n as f64)
                .with_scores(scores, Scale::Counts),
        )
    }

    fn explain(
        &self,
        _inv: &Inventory,
        _doc: &Document,
        target: &Target,
        candidates: &[Sense],
        prediction: &Prediction,
    ) -> Option<Evidence> {
        let counted = self.best.get(&(target.lemma.clone(), target.pos))?;
        frequency(
            candidates
                .iter()
                .map(|c| (&c.key, self.count(counted, &c.key) as u64)),
            &prediction.key,
            "SemCor train count",
        )
    }
}
