//! Disambiguators: one trait, several methods, chosen at run time.
//!
//! Every method implements [`Disambiguator`]. A method gets a whole
//! document and its targets at once, so methods that batch (the encoder)
//! or look across sentences (one sense per discourse) can, while simple
//! methods implement only [`Disambiguator::disambiguate`].

pub mod mfs;
pub mod naive_bayes;

use crate::corpus::{Document, Target};
use crate::wordnet::{Inventory, Sense};

/// What a method decided for one target.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    /// The chosen sense key (`bank%1:14:00::`).
    pub key: String,
    /// The method that decided (`lesk`, or `mfs` when a fallback decided).
    pub method: String,
    /// The method's score for the chosen sense (overlap, log-probability, cosine…).
    pub score: f64,
}

/// A word-sense disambiguation method.
pub trait Disambiguator: Send + Sync {
    /// The method's name as `--method` spells it.
    fn name(&self) -> &str;

    /// Choose a sense for one target among `candidates` (WordNet order,
    /// never empty). `None` means the method abstains (a back-off chain then
    /// asks the next method).
    fn disambiguate(
        &self,
        inv: &Inventory,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
    ) -> Option<Prediction>;

    /// Disambiguate all targets of a document; the default asks
    /// [`Disambiguator::disambiguate`] for each target that has candidates.
    fn disambiguate_document(
        &self,
        inv: &Inventory,
        doc: &Document,
        targets: &[Target],
    ) -> Vec<Option<Prediction>> {
        targets
            .iter()
            .map(|t| {
                let cands = inv.senses(&t.lemma, t.pos);
                if cands.is_empty() {
                    None
                } else {
                    self.disambiguate(inv, doc, t, cands)
                }
            })
            .collect()
    }
}
