//! The front-end breakdown of a raw-text run (`wsd eval --raw`): what the
//! text pipeline made of each gold instance.
//!
//! The classes are [`RawOutcome`]s, taken from the evaluation itself
//! ([`Evaluation::raw_alignment`](crate::eval::Evaluation::raw_alignment),
//! made by [`align_raw`](crate::pipeline::align_raw) while scoring), so the
//! report, `--frontend-errors` and the breakdown `wsd eval --raw` prints
//! count the same thing the same way.

use std::collections::HashMap;

use crate::pipeline::{RawAlignment, RawOutcome};

/// The front-end class of a gold instance (an alias kept for the report's
/// vocabulary).
pub type FrontEndClass = RawOutcome;

/// The class of one gold instance and the pipeline token it was aligned
/// to (`text lemma.p`), if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Aligned {
    /// The class.
    pub class: FrontEndClass,
    /// What the pipeline found there ([`RawAlignment::found`]).
    pub found: Option<String>,
}

/// Index the alignment rows of one data set by instance id.
pub fn by_instance(rows: &[RawAlignment]) -> HashMap<String, Aligned> {
    rows.iter()
        .map(|r| {
            let aligned = Aligned {
                class: r.outcome,
                found: r.found(),
            };
            (r.instance.clone(), aligned)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_indexed_with_what_the_pipeline_found() {
        let row = RawAlignment {
            instance: "d0.s0.t0".into(),
            outcome: RawOutcome::WrongPos,
            gold_text: "home".into(),
            gold_lemma: "home".into(),
            gold_pos: Some(crate::wordnet::Pos::Noun),
            pipeline_text: Some("home".into()),
            pipeline_lemma: Some("home".into()),
            pipeline_pos: Some(crate::wordnet::Pos::Adv),
            pipeline_target: true,
        };
        let index = by_instance(std::slice::from_ref(&row));
        let a = &index["d0.s0.t0"];
        assert_eq!(a.class, RawOutcome::WrongPos);
        assert_eq!(a.found.as_deref(), Some("home home.r"));
    }
}
