//! Taggers for learning on top of the tagger: each training document
//! read by a tagger that never saw it ([`Jackknife`], [`DocTagger`]).

use super::{tagged_sentences, PosTagger, DEFAULT_ITERATIONS};

/// Jackknifed taggers over SemCor documents: `folds` taggers, tagger `k`
/// trained (with the shipped settings and `inv`'s lexicon) on the
/// documents `i` of `docs` with `i % folds != k`, so that document `i`
/// is tagged by [`Jackknife::tagger_for`] with a tagger that never saw
/// it.
///
/// **Why.** Tables and models learned *on top of* the tagger (the
/// category model, the name model) must see the tagger's errors as
/// they are on unseen text. Tagged by the tagger trained on the same
/// documents, SemCor's training text comes back almost as its gold tags
/// (`Boston`/NN, a word WordNet has, against `Smith`/NNP, a name), and
/// what is learned on it trusts the tags more than text allows.
///
/// Each fold's tagger is cached in `cache` (`fold{k}of{folds}.pos`) when
/// given, as training one takes about 20 s.
pub struct Jackknife {
    taggers: Vec<PosTagger>,
    /// Document id → its fold.
    fold_of: rustc_hash::FxHashMap<String, usize>,
}

impl Jackknife {
    /// Train (or read from `cache`) the fold taggers of `docs` (`folds`,
    /// at least 2).
    pub fn train(
        inv: &crate::wordnet::Inventory,
        docs: &[crate::corpus::Document],
        folds: usize,
        cache: Option<&std::path::Path>,
    ) -> crate::Result<Jackknife> {
        use rayon::prelude::*;
        let folds = folds.max(2);
        let taggers = (0..folds)
            .into_par_iter()
            .map(|k| -> crate::Result<PosTagger> {
                let cached = cache.map(|d| d.join(format!("fold{k}of{folds}.pos")));
                if let Some(p) = cached.as_ref().filter(|p| p.exists()) {
                    return PosTagger::from_bytes(
                        &std::fs::read(p).map_err(|e| crate::Error::io(p, e))?,
                    );
                }
                let sentences: Vec<Vec<(String, String)>> = docs
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| i % folds != k)
                    .flat_map(|(_, d)| tagged_sentences(d))
                    .collect();
                let t = PosTagger::train_with_inventory(&sentences, DEFAULT_ITERATIONS, 1, inv)?;
                if let Some(p) = &cached {
                    std::fs::write(p, t.to_bytes()).map_err(|e| crate::Error::write(p, e))?;
                }
                Ok(t)
            })
            .collect::<crate::Result<_>>()?;
        let fold_of = docs
            .iter()
            .enumerate()
            .map(|(i, d)| (d.id.clone(), i % folds))
            .collect();
        Ok(Jackknife { taggers, fold_of })
    }

    /// The number of folds.
    pub fn folds(&self) -> usize {
        self.taggers.len()
    }

    /// The tagger of fold `k`.
    pub fn fold(&self, k: usize) -> &PosTagger {
        &self.taggers[k % self.taggers.len()]
    }

    /// The tagger that did not see `doc` (by its id); a document the
    /// jackknife was not built on gets fold 0's.
    pub fn tagger_for(&self, doc: &crate::corpus::Document) -> &PosTagger {
        self.fold(self.fold_of.get(&doc.id).copied().unwrap_or(0))
    }
}

/// Which tagger reads a training document: one tagger for all, or the
/// fold of a [`Jackknife`] that did not see it.
#[derive(Clone, Copy)]
pub enum DocTagger<'a> {
    /// The same tagger for every document.
    One(&'a PosTagger),
    /// Each document's held-out fold.
    Jackknife(&'a Jackknife),
}

impl<'a> DocTagger<'a> {
    /// The tagger of `doc`.
    pub fn for_doc(&self, doc: &crate::corpus::Document) -> &'a PosTagger {
        match *self {
            DocTagger::One(t) => t,
            DocTagger::Jackknife(j) => j.tagger_for(doc),
        }
    }
}

impl<'a> From<&'a PosTagger> for DocTagger<'a> {
    fn from(t: &'a PosTagger) -> Self {
        DocTagger::One(t)
    }
}

impl<'a> From<&'a Jackknife> for DocTagger<'a> {
    fn from(j: &'a Jackknife) -> Self {
        DocTagger::Jackknife(j)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each document is read by the fold's tagger that did not train on
    /// it; a document the jackknife never saw by fold 0's.
    #[test]
    fn jackknife_reads_each_document_with_a_tagger_that_did_not_see_it() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let inv =
            crate::wordnet::Inventory::load(&root.join("tests/fixtures/mini-wordnet")).unwrap();
        let docs = crate::corpus::read_semcor(
            root.join("tests/fixtures/semcor"),
            crate::corpus::Split::All,
        )
        .unwrap();
        assert!(docs.len() >= 2);
        let j = Jackknife::train(&inv, &docs, 2, None).unwrap();
        assert_eq!(j.folds(), 2);
        for (i, d) in docs.iter().enumerate() {
            assert!(std::ptr::eq(j.tagger_for(d), j.fold(i % 2)), "{}", d.id);
        }
        let stranger = crate::corpus::Document::default();
        assert!(std::ptr::eq(j.tagger_for(&stranger), j.fold(0)));
        let one = DocTagger::from(j.fold(1));
        assert!(std::ptr::eq(one.for_doc(&docs[0]), j.fold(1)));
    }
}
