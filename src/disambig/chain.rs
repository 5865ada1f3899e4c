//! Back-off chains (`knn,nb,mfs`): each method answers what it can, the
//! next one is asked only about the targets the previous ones left open.
//! Every method still sees whole documents, so batching methods batch.
//! An answer of a later method that decided on its own terms is marked
//! [`FallbackReason::BackOff`]: the chain's first choice abstained there.

use super::{
    Calibration, Candidates, Decision, Disambiguator, Evidence, FallbackReason, Prediction,
};
use crate::corpus::{Document, Target};
use crate::wordnet::{Inventory, Sense};

/// Methods tried in order (they may borrow: `Box::new(&model)` works).
pub struct Chain<'a> {
    name: String,
    methods: Vec<Box<dyn Disambiguator + 'a>>,
}

impl<'a> Chain<'a> {
    /// A chain of `methods` (at least one).
    pub fn new(methods: Vec<Box<dyn Disambiguator + 'a>>) -> Chain<'a> {
        let name = methods
            .iter()
            .map(|m| m.name())
            .collect::<Vec<_>>()
            .join(",");
        Chain { name, methods }
    }
}

/// Mark an answer of the chain's `position`-th method (0-based).
fn backed_off(position: usize, mut p: Prediction) -> Prediction {
    if position > 0 && p.decision == Decision::Decided {
        p.decision = Decision::Fallback {
            reason: FallbackReason::BackOff,
        };
    }
    p
}

impl Disambiguator for Chain<'_> {
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
        self.methods.iter().enumerate().find_map(|(i, m)| {
            m.disambiguate(inv, doc, target, candidates)
                .map(|p| backed_off(i, p))
        })
    }

    fn disambiguate_document(
        &self,
        inv: &Inventory,
        doc: &Document,
        targets: &[Candidates<'_>],
    ) -> Vec<Option<Prediction>> {
        let mut out: Vec<Option<Prediction>> = vec![None; targets.len()];
        for (position, m) in self.methods.iter().enumerate() {
            let open: Vec<usize> = (0..targets.len()).filter(|&i| out[i].is_none()).collect();
            if open.is_empty() {
                break;
            }
            let sub: Vec<Candidates<'_>> = open.iter().map(|&i| targets[i].clone()).collect();
            for (i, p) in open
                .into_iter()
                .zip(m.disambiguate_document(inv, doc, &sub))
            {
                out[i] = p.map(|p| backed_off(position, p));
            }
        }
        out
    }

    /// The method that answered explains (found by name; a nested chain
    /// such as `mfs-semcor`'s by one of its names).
    fn explain(
        &self,
        inv: &Inventory,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
        prediction: &Prediction,
    ) -> Option<Evidence> {
        let m = self
            .methods
            .iter()
            .find(|m| m.name() == prediction.method)
            .or_else(|| {
                self.methods
                    .iter()
                    .find(|m| m.name().split(',').any(|n| n == prediction.method))
            })?;
        m.explain(inv, doc, target, candidates, prediction)
    }

    /// The members' own maps, merged (a method's map is keyed by its name).
    fn calibration(&self) -> Option<Calibration> {
        self.methods
            .iter()
            .filter_map(|m| m.calibration())
            .reduce(|a, b| a.merged(&b))
    }

    fn reads_sentence_vectors(&self) -> bool {
        self.methods.iter().any(|m| m.reads_sentence_vectors())
    }
}
