//! Back-off chains (`knn,nb,mfs`): each method answers what it can, the
//! next one is asked only about the targets the previous ones left open.
//! Every method still sees whole documents, so batching methods batch.

use super::{Disambiguator, Prediction};
use crate::corpus::{Document, Target};
use crate::wordnet::{Inventory, Sense};

/// Methods tried in order.
pub struct Chain {
    name: String,
    methods: Vec<Box<dyn Disambiguator>>,
}

impl Chain {
    /// A chain of `methods` (at least one).
    pub fn new(methods: Vec<Box<dyn Disambiguator>>) -> Chain {
        let name = methods
            .iter()
            .map(|m| m.name())
            .collect::<Vec<_>>()
            .join(",");
        Chain { name, methods }
    }
}

impl Disambiguator for Chain {
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
        self.methods
            .iter()
            .find_map(|m| m.disambiguate(inv, doc, target, candidates))
    }

    fn disambiguate_document(
        &self,
        inv: &Inventory,
        doc: &Document,
        targets: &[Target],
    ) -> Vec<Option<Prediction>> {
        let mut out: Vec<Option<Prediction>> = vec![None; targets.len()];
        for m in &self.methods {
            let open: Vec<usize> = (0..targets.len()).filter(|&i| out[i].is_none()).collect();
            if open.is_empty() {
                break;
            }
            let sub: Vec<Target> = open.iter().map(|&i| targets[i].clone()).collect();
            for (i, p) in open
                .into_iter()
                .zip(m.disambiguate_document(inv, doc, &sub))
            {
                out[i] = p;
            }
        }
        out
    }
}
