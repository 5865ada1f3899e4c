//! Disambiguators: one trait, several methods, chosen at run time.
//!
//! Every method implements [`Disambiguator`]. A method gets a whole
//! document and its targets at once, so methods that batch (the encoder)
//! or look across sentences (one sense per discourse) can, while simple
//! methods implement only [`Disambiguator::disambiguate`].

pub mod chain;
pub mod context;
pub mod discourse;
pub mod knn;
pub mod lesk;
mod lesk_stopwords;
pub mod mfs;
pub mod naive_bayes;
pub mod similarity;

pub use chain::Chain;
pub use mfs::{CorpusMfs, FirstSense};

use std::borrow::Cow;

use crate::corpus::{Document, Target};
use crate::wordnet::{Inventory, Pos, Sense};

/// The candidate senses of a target: the senses of its lemma, or — when
/// the lemma as given is not in WordNet (plain text, odd corpus lemmas) —
/// of the base forms morphy finds for it.
pub fn candidates<'a>(inv: &'a Inventory, lemma: &str, pos: Pos) -> Cow<'a, [Sense]> {
    let direct = inv.senses(lemma, pos);
    if !direct.is_empty() {
        return Cow::Borrowed(direct);
    }
    Cow::Owned(inv.lookup(lemma, pos).into_iter().cloned().collect())
}

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
                let cands = candidates(inv, &t.lemma, t.pos);
                if cands.is_empty() {
                    None
                } else {
                    self.disambiguate(inv, doc, t, &cands)
                }
            })
            .collect()
    }
}

/// The targets of one document with what the method decided for each.
pub type DocumentResult = Vec<(Target, Option<Prediction>)>;

/// Run `method` over `docs`, documents in parallel (rayon), results in input
/// order. `progress` is called with the number of targets of each finished
/// document (from worker threads).
pub fn run_documents(
    method: &dyn Disambiguator,
    inv: &Inventory,
    docs: &[Document],
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<DocumentResult> {
    use rayon::prelude::*;
    docs.par_iter()
        .map(|d| {
            let targets = d.targets();
            let preds = method.disambiguate_document(inv, d, &targets);
            progress(targets.len());
            targets.into_iter().zip(preds).collect()
        })
        .collect()
}

/// A boxed method is a method (so wrappers such as
/// [`discourse::OneSensePerDiscourse`] take methods chosen at run time).
impl<T: Disambiguator + ?Sized> Disambiguator for Box<T> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn disambiguate(
        &self,
        inv: &Inventory,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
    ) -> Option<Prediction> {
        (**self).disambiguate(inv, doc, target, candidates)
    }
    fn disambiguate_document(
        &self,
        inv: &Inventory,
        doc: &Document,
        targets: &[Target],
    ) -> Vec<Option<Prediction>> {
        (**self).disambiguate_document(inv, doc, targets)
    }
}
