//! The front-end breakdown of a raw-text run (`wsd eval --raw`): what the
//! text pipeline made of each gold instance.
//!
//! The data set's plain text is rebuilt ([`rebuild_text`]) and analysed by
//! the pipeline, as [`align_raw`](crate::eval::align_raw) does; each gold
//! instance is aligned, by the same rule, to the pipeline target that
//! overlaps it by character span and starts nearest to it. Then the
//! aligned token's lemma and POS are compared with the gold token's:
//!
//! * [`FrontEndClass::MissedTarget`]: no pipeline target overlaps it (the
//!   tagger gave a closed-class tag, the word is a stop word, or its lemma
//!   has no senses);
//! * [`FrontEndClass::Multiword`]: a target overlaps but covers other
//!   characters, and one of the two is a multiword (the gold `take_place`
//!   found as `take`, or the gold `place` swallowed by `take place`);
//! * [`FrontEndClass::WrongPos`]: same span, another POS;
//! * [`FrontEndClass::WrongLemma`]: same span and POS, another lemma;
//! * [`FrontEndClass::Matched`]: the pipeline's target is the gold one.
//!
//! This is deliberately simple (no sub-reasons for a missed target); it
//! reads only the public pipeline and can be replaced by a finer
//! classifier later.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::corpus::Document;
use crate::pipeline::{rebuild_text, Pipeline};
use crate::wordnet::morphy::normalize;

/// What the pipeline made of one gold instance (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum FrontEndClass {
    /// Found with the gold lemma and POS.
    Matched,
    /// No pipeline target overlaps it.
    MissedTarget,
    /// Found with another POS.
    WrongPos,
    /// Found with the gold POS but another lemma.
    WrongLemma,
    /// Overlapped by a target of another extent, one of them a multiword.
    Multiword,
}

impl FrontEndClass {
    /// Every class, in report order (`class as usize` indexes it).
    pub const ALL: [FrontEndClass; 5] = [
        FrontEndClass::Matched,
        FrontEndClass::MissedTarget,
        FrontEndClass::WrongPos,
        FrontEndClass::WrongLemma,
        FrontEndClass::Multiword,
    ];

    /// `matched`, `missed target`, `wrong POS`, `wrong lemma`, `multiword mismatch`.
    pub fn label(self) -> &'static str {
        match self {
            FrontEndClass::Matched => "matched",
            FrontEndClass::MissedTarget => "missed target",
            FrontEndClass::WrongPos => "wrong POS",
            FrontEndClass::WrongLemma => "wrong lemma",
            FrontEndClass::Multiword => "multiword mismatch",
        }
    }
}

/// The class of one gold instance and the pipeline token it was aligned
/// to (`text lemma.p`), if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Aligned {
    /// The class.
    pub class: FrontEndClass,
    /// What the pipeline found there: `text lemma.p`, or `None`.
    pub found: Option<String>,
}

/// Classify every gold instance of `docs` (instance id → [`Aligned`]).
pub fn classify(pipeline: &Pipeline<'_>, docs: &[Document]) -> HashMap<String, Aligned> {
    use rayon::prelude::*;
    docs.par_iter()
        .map(|doc| classify_document(pipeline, doc))
        .reduce(HashMap::new, |mut a, b| {
            a.extend(b);
            a
        })
}

fn is_multiword(text: &str) -> bool {
    text.contains([' ', '_'])
}

/// Classify the gold instances of one document.
pub fn classify_document(pipeline: &Pipeline<'_>, doc: &Document) -> HashMap<String, Aligned> {
    let (text, spans) = rebuild_text(doc);
    let analysed = pipeline.analyse(&doc.id, &text, 0, 0);
    // The pipeline's targets: span, text, lemma, POS.
    let targets: Vec<_> = analysed
        .targets()
        .into_iter()
        .filter_map(|t| {
            let tok = analysed.token(&t);
            Some((tok.span?, tok.text.clone(), t.lemma, t.pos))
        })
        .collect();
    let mut out = HashMap::new();
    for (s, sent) in doc.sentences.iter().enumerate() {
        for (i, tok) in sent.tokens.iter().enumerate() {
            let Some(id) = &tok.instance else { continue };
            let (gs, ge) = spans[s][i];
            let hit = targets
                .iter()
                .filter(|((ps, pe), ..)| *ps < ge && gs < *pe)
                .min_by_key(|((ps, _), ..)| ps.abs_diff(gs));
            let aligned = match hit {
                None => Aligned {
                    class: FrontEndClass::MissedTarget,
                    found: None,
                },
                Some((span, ptext, lemma, pos)) => {
                    let gold_lemma = tok.lemma.as_deref().map(normalize).unwrap_or_default();
                    let class =
                        if *span != (gs, ge) && (is_multiword(&tok.text) || is_multiword(ptext)) {
                            FrontEndClass::Multiword
                        } else if Some(*pos) != tok.pos {
                            FrontEndClass::WrongPos
                        } else if normalize(lemma) != gold_lemma {
                            FrontEndClass::WrongLemma
                        } else {
                            FrontEndClass::Matched
                        };
                    Aligned {
                        class,
                        found: Some(format!("{ptext} {lemma}.{}", pos.letter())),
                    }
                }
            };
            out.insert(id.clone(), aligned);
        }
    }
    out
}
