//! The most-frequent-sense baseline: WordNet's first sense (senses are
//! ordered by SemCor tag counts), the baseline every method must beat.

use super::{Disambiguator, Prediction};
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
        candidates.first().map(|s| Prediction {
            key: s.key.clone(),
            method: "mfs".to_string(),
            score: s.tag_count as f64,
        })
    }
}
