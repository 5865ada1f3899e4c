//! Gloss-overlap disambiguation: the simplified Lesk of the course notes
//! ([`Lesk`], `lesk`) and an extended Lesk after Banerjee & Pedersen
//! ([`ExtendedLesk`], `lesk-ext`).
//!
//! # Simplified Lesk
//!
//! 1. Context `C`: the content words of the window (by default the
//!    target's sentence; see [`Window`]), lemmas where the input gives
//!    them, stop words removed, Porter2-stemmed; the target's own lemma is
//!    left out (it would match every sense whose example repeats it).
//! 2. Signature `S_i` of each candidate sense: its definition, its example
//!    sentences and (by default) the other words of its synset, normalised
//!    the same way.
//! 3. Score = `|C ∩ S_i|`, the number of **distinct** stems in common.
//! 4. The highest score wins. Zero overlap for every sense, or a tie for the
//!    highest score, is decided by WordNet's sense order (the first sense,
//!    resp. the first of the tied senses): the prediction's [`Decision`]
//!    then says [`Decision::Tie`] or a fallback, so reports can count them.
//!
//! Signatures are computed once per synset, lazily, and kept as sorted
//! hashed stems; an overlap is a merge of two sorted arrays.
//!
//! # Extended Lesk
//!
//! The signature of a sense also takes in the glosses (definition and
//! synonyms) of the synsets related to it, each stem weighted by the
//! relation it came through ([`RelationWeights`]; a stem reached through
//! several relations keeps its highest weight), optionally multiplied by an
//! IDF over all WordNet glosses so that rare words count more than common
//! ones. Score = sum of the weights of the context stems found in the
//! signature, plus `prior × ln P(sense)`, with `P` the add-one-smoothed
//! distribution of the candidates' WordNet tag counts (a first-sense prior;
//! `prior = 0` is pure extended Lesk). Banerjee & Pedersen compare the
//! extended glosses of the target with those of each context word's senses
//! and score multi-word overlaps quadratically; here the context side is
//! the context words themselves, which keeps the cost of one instance at
//! one merge per candidate.

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use super::context::{overlap, weighted_overlap, Normaliser, StemId};
use super::{
    keyed, Decision, Disambiguator, Evidence, FallbackReason, Prediction, Scale, Weighted,
};
use crate::corpus::{Document, Target};
use crate::wordnet::{Inventory, PointerKind, Sense, Synset};

pub use super::context::Window;

/// A lazily filled per-synset table, sized on first use.
struct PerSynset<T> {
    cells: OnceLock<Vec<OnceLock<T>>>,
}

impl<T> Default for PerSynset<T> {
    fn default() -> Self {
        PerSynset {
            cells: OnceLock::new(),
        }
    }
}

impl<T> PerSynset<T> {
    fn get_or(&self, inv: &Inventory, syn: &Synset, make: impl FnOnce() -> T) -> Option<&T> {
        let cells = self
            .cells
            .get_or_init(|| (0..inv.len()).map(|_| OnceLock::new()).collect());
        if cells.len() != inv.len() {
            return None; // another inventory than the first one: no caching
        }
        let i = inv.position(syn.id)?;
        Some(cells[i].get_or_init(make))
    }

    /// Call `f` with the cached value of `syn`, built by `make` on first
    /// use (or built afresh when this cache cannot hold it).
    fn with<R>(
        &self,
        inv: &Inventory,
        syn: &Synset,
        make: impl Fn() -> T,
        f: impl FnOnce(&T) -> R,
    ) -> R {
        match self.get_or(inv, syn, &make) {
            Some(v) => f(v),
            None => f(&make()),
        }
    }
}

/// Options of [`Lesk`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeskOptions {
    /// The context window (default: the sentence).
    pub window: Window,
    /// Put the gloss's example sentences in the signature (default true).
    pub examples: bool,
    /// Put the synset's words in the signature (default true).
    pub synonyms: bool,
}

impl Default for LeskOptions {
    fn default() -> Self {
        LeskOptions {
            window: Window::Sentence,
            examples: true,
            synonyms: true,
        }
    }
}

/// The text of a synset's signature.
fn gloss_text(syn: &Synset, examples: bool, synonyms: bool) -> String {
    let mut s = syn.definition.clone();
    if examples {
        for e in &syn.examples {
            s.push(' ');
            s.push_str(e);
        }
    }
    if synonyms {
        for w in &syn.words {
            s.push(' ');
            s.push_str(&w.lemma);
        }
    }
    s
}

/// Pick the best of `scores` (one per candidate, WordNet order). Returns the
/// index and how it was decided: no positive evidence (the first sense), a
/// tie at the top (the first of the tied senses) or on the evidence.
fn choose(scores: &[f64], evidence: &[bool]) -> (usize, Decision) {
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let first = scores.iter().position(|&s| s == best).unwrap_or(0);
    let ties = scores.iter().filter(|&&s| s == best).count();
    if !evidence.iter().any(|&e| e) {
        return (
            0,
            Decision::Fallback {
                reason: FallbackReason::NoEvidence,
            },
        );
    }
    let decision = if ties > 1 {
        Decision::Tie
    } else {
        Decision::Decided
    };
    (first, decision)
}

/// Simplified Lesk (`lesk`).
#[derive(Default)]
pub struct Lesk {
    opts: LeskOptions,
    norm: Normaliser,
    sigs: PerSynset<Box<[StemId]>>,
}

impl Lesk {
    /// Lesk with options.
    pub fn new(opts: LeskOptions) -> Lesk {
        Lesk {
            opts,
            ..Default::default()
        }
    }

    /// The options.
    pub fn options(&self) -> &LeskOptions {
        &self.opts
    }

    fn with_signature<R>(
        &self,
        inv: &Inventory,
        syn: &Synset,
        f: impl FnOnce(&[StemId]) -> R,
    ) -> R {
        let make = || {
            self.norm
                .stem_set(&gloss_text(syn, self.opts.examples, self.opts.synonyms))
                .into_boxed_slice()
        };
        self.sigs.with(inv, syn, make, |s| f(s))
    }

    /// Overlap scores of the candidates with a context (for inspection).
    pub fn scores(&self, inv: &Inventory, ctx: &[StemId], candidates: &[Sense]) -> Vec<usize> {
        candidates
            .iter()
            .map(|s| match inv.get(s.synset) {
                Some(syn) => self.with_signature(inv, syn, |sig| overlap(ctx, sig)),
                None => 0,
            })
            .collect()
    }
}

impl Disambiguator for Lesk {
    fn name(&self) -> &str {
        "lesk"
    }

    fn disambiguate(
        &self,
        inv: &Inventory,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
    ) -> Option<Prediction> {
        let ctx = self.norm.context(doc, target, self.opts.window, None);
        let scores: Vec<f64> = self
            .scores(inv, &ctx, candidates)
            .into_iter()
            .map(|s| s as f64)
            .collect();
        let evidence: Vec<bool> = scores.iter().map(|&s| s > 0.0).collect();
        let (i, decision) = choose(&scores, &evidence);
        let s = candidates.get(i)?;
        Some(
            Prediction::new(s.key.clone(), "lesk", decision, scores[i])
                .with_scores(keyed(candidates, &scores), Scale::Log),
        )
    }

    fn explain(
        &self,
        inv: &Inventory,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
        prediction: &Prediction,
    ) -> Option<Evidence> {
        let syn = inv.get(candidates.iter().find(|c| c.key == prediction.key)?.synset)?;
        let words = self.with_signature(inv, syn, |sig| {
            overlapping_words(&self.norm, doc, target, self.opts.window, |s| {
                sig.binary_search(&s).is_ok().then_some(1.0)
            })
        });
        Some(Evidence::Overlap { words, prior: None })
    }
}

/// The context words of `target` (as [`Normaliser::context`] reads them)
/// whose stem `weight` finds in a signature, once per stem, in reading
/// order, with that weight.
fn overlapping_words(
    norm: &Normaliser,
    doc: &Document,
    target: &Target,
    window: Window,
    weight: impl Fn(StemId) -> Option<f64>,
) -> Vec<Weighted> {
    let own = norm.stem_set(&target.lemma);
    let mut seen = Vec::new();
    let mut out = Vec::new();
    let mut stems = Vec::new();
    for (si, ti) in super::context::window_tokens(doc, target, window) {
        let t = &doc.sentences[si].tokens[ti];
        let word = t.lemma.as_deref().unwrap_or(&t.text);
        stems.clear();
        norm.stems_into(word, &mut stems);
        for &s in &stems {
            if own.binary_search(&s).is_ok() || seen.contains(&s) {
                continue;
            }
            if let Some(w) = weight(s) {
                seen.push(s);
                out.push(Weighted::new(word, w));
            }
        }
    }
    out
}

/// Weights of the relations whose glosses extend a signature in
/// [`ExtendedLesk`]. A weight of 0 leaves the relation out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RelationWeights {
    /// The sense's own definition, examples and synonyms.
    pub own: f32,
    /// Hypernyms and instance hypernyms.
    pub hypernym: f32,
    /// Hyponyms and instance hyponyms.
    pub hyponym: f32,
    /// Part, member and substance meronyms and holonyms.
    pub meronym: f32,
    /// Similar-to, also-see and verb-group neighbours.
    pub similar: f32,
    /// Attribute, pertainym and participle links.
    pub attribute: f32,
    /// Derivationally related forms.
    pub derivation: f32,
    /// Entailment and cause (verbs).
    pub entailment: f32,
    /// Topic, region and usage domains, both directions.
    pub domain: f32,
}

impl Default for RelationWeights {
    /// The sense's own gloss counts fully, its neighbours' glosses half
    /// (better than 1 or 0 for the neighbours on the SemEval-2007 dev set,
    /// see [`ExtendedLeskOptions`]).
    fn default() -> Self {
        RelationWeights {
            own: 1.0,
            hypernym: 0.5,
            hyponym: 0.5,
            meronym: 0.5,
            similar: 0.5,
            attribute: 0.5,
            derivation: 0.5,
            entailment: 0.5,
            domain: 0.5,
        }
    }
}

impl RelationWeights {
    /// The weight of a pointer kind (0 for antonyms and unlisted kinds).
    pub fn of(&self, kind: PointerKind) -> f32 {
        use PointerKind::*;
        match kind {
            Hypernym | InstanceHypernym => self.hypernym,
            Hyponym | InstanceHyponym => self.hyponym,
            MemberHolonym | SubstanceHolonym | PartHolonym | MemberMeronym | SubstanceMeronym
            | PartMeronym => self.meronym,
            SimilarTo | AlsoSee | VerbGroup => self.similar,
            Attribute | Pertainym | Participle => self.attribute,
            DerivationallyRelated => self.derivation,
            Entailment | Cause => self.entailment,
            DomainTopic | MemberOfDomainTopic | DomainRegion | MemberOfDomainRegion
            | DomainUsage | MemberOfDomainUsage => self.domain,
            Antonym => 0.0,
        }
    }
}

/// Options of [`ExtendedLesk`].
///
/// The defaults — sentence window, [`RelationWeights::default`], no IDF,
/// prior weight 2 — are the best of a small grid on the SemEval-2007 dev
/// set (455 instances; window sentence / ±1 sentence / ±10 words, relation
/// weights 0 / 0.5 / 1, IDF on/off, prior 0–16): 57.1 F1 against 55.2 for
/// the first sense, 47.7 without the prior. The grid is the ignored test
/// `tune_lesk_ext_semeval2007` in `tests/knowledge.rs`. With 455 instances
/// one instance is 0.2 points: differences under ~2 points are noise.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExtendedLeskOptions {
    /// The context window.
    pub window: Window,
    /// Relation weights.
    pub weights: RelationWeights,
    /// Put the examples of related synsets in the signature too.
    pub related_examples: bool,
    /// Multiply each stem's weight by its IDF over all WordNet glosses.
    pub idf: bool,
    /// Weight of the first-sense prior, `ln P(sense)` from WordNet's tag
    /// counts; 0 for pure extended Lesk.
    pub prior: f64,
}

impl Default for ExtendedLeskOptions {
    fn default() -> Self {
        ExtendedLeskOptions {
            window: Window::Sentence,
            weights: RelationWeights::default(),
            related_examples: false,
            idf: false,
            prior: 2.0,
        }
    }
}

/// Extended Lesk (`lesk-ext`): Banerjee & Pedersen's extended glosses,
/// weighted overlap, optional IDF and first-sense prior.
#[derive(Default)]
pub struct ExtendedLesk {
    opts: ExtendedLeskOptions,
    norm: Normaliser,
    own: PerSynset<Box<[StemId]>>,
    sigs: PerSynset<Box<[(StemId, f32)]>>,
    idf: OnceLock<(FxHashMap<StemId, f32>, f32)>,
}

impl ExtendedLesk {
    /// Extended Lesk with options.
    pub fn new(opts: ExtendedLeskOptions) -> ExtendedLesk {
        ExtendedLesk {
            opts,
            ..Default::default()
        }
    }

    /// The options.
    pub fn options(&self) -> &ExtendedLeskOptions {
        &self.opts
    }

    /// Stems of a synset's own gloss: definition, examples, words.
    fn own_stems(&self, inv: &Inventory, syn: &Synset, examples: bool) -> Vec<StemId> {
        if !examples {
            return self.norm.stem_set(&gloss_text(syn, false, true));
        }
        let make = || {
            self.norm
                .stem_set(&gloss_text(syn, true, true))
                .into_boxed_slice()
        };
        match self.own.get_or(inv, syn, make) {
            Some(s) => s.to_vec(),
            None => make().into_vec(),
        }
    }

    /// IDF of every stem over the own glosses of all synsets, and the IDF
    /// of an unseen stem.
    fn idf_table(&self, inv: &Inventory) -> &(FxHashMap<StemId, f32>, f32) {
        self.idf.get_or_init(|| {
            let mut df: FxHashMap<StemId, u32> = FxHashMap::default();
            for syn in inv.synsets() {
                for s in self.own_stems(inv, syn, true) {
                    *df.entry(s).or_default() += 1;
                }
            }
            let n = inv.len() as f32;
            let idf = df
                .into_iter()
                .map(|(s, d)| (s, (n / d as f32).ln()))
                .collect();
            (idf, n.ln())
        })
    }

    fn build_signature(&self, inv: &Inventory, syn: &Synset) -> Box<[(StemId, f32)]> {
        let w = &self.opts.weights;
        let mut m: FxHashMap<StemId, f32> = FxHashMap::default();
        let mut put = |stems: &[StemId], weight: f32| {
            for &s in stems {
                let e = m.entry(s).or_insert(0.0);
                *e = e.max(weight);
            }
        };
        if w.own > 0.0 {
            put(&self.own_stems(inv, syn, true), w.own);
        }
        for p in &syn.pointers {
            let weight = w.of(p.kind);
            if weight <= 0.0 {
                continue;
            }
            if let Some(t) = inv.get(p.target) {
                put(&self.own_stems(inv, t, self.opts.related_examples), weight);
            }
        }
        let idf = self.opts.idf.then(|| self.idf_table(inv));
        let mut v: Vec<(StemId, f32)> = m
            .into_iter()
            .map(|(s, wt)| match idf {
                Some((t, unseen)) => (s, wt * t.get(&s).copied().unwrap_or(*unseen)),
                None => (s, wt),
            })
            .collect();
        v.sort_unstable_by_key(|&(s, _)| s);
        v.into_boxed_slice()
    }

    fn with_signature<R>(
        &self,
        inv: &Inventory,
        syn: &Synset,
        f: impl FnOnce(&[(StemId, f32)]) -> R,
    ) -> R {
        self.sigs
            .with(inv, syn, || self.build_signature(inv, syn), |s| f(s))
    }

    /// The overlap part of each candidate's score for `target` of `doc`
    /// (its context in the options' window), without the prior: what
    /// `ens` takes from extended Lesk, the prior being a feature of its own.
    pub fn context_overlaps(
        &self,
        inv: &Inventory,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
    ) -> Vec<f64> {
        let ctx = self.norm.context(doc, target, self.opts.window, None);
        self.overlaps(inv, &ctx, candidates)
    }

    /// Overlap part of the score of each candidate (without the prior).
    pub fn overlaps(&self, inv: &Inventory, ctx: &[StemId], candidates: &[Sense]) -> Vec<f64> {
        candidates
            .iter()
            .map(|s| match inv.get(s.synset) {
                Some(syn) => self.with_signature(inv, syn, |sig| weighted_overlap(ctx, sig)),
                None => 0.0,
            })
            .collect()
    }
}

/// `ln P(sense)` for each candidate, from add-one-smoothed tag counts.
pub(crate) fn log_prior(candidates: &[Sense]) -> Vec<f64> {
    let total: f64 = candidates.iter().map(|s| s.tag_count as f64 + 1.0).sum();
    candidates
        .iter()
        .map(|s| ((s.tag_count as f64 + 1.0) / total).ln())
        .collect()
}

impl Disambiguator for ExtendedLesk {
    fn name(&self) -> &str {
        "lesk-ext"
    }

    fn disambiguate(
        &self,
        inv: &Inventory,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
    ) -> Option<Prediction> {
        let ctx = self.norm.context(doc, target, self.opts.window, None);
        let overlaps = self.overlaps(inv, &ctx, candidates);
        let evidence: Vec<bool> = overlaps.iter().map(|&o| o > 0.0).collect();
        let scores: Vec<f64> = if self.opts.prior != 0.0 {
            overlaps
                .iter()
                .zip(log_prior(candidates))
                .map(|(o, p)| o + self.opts.prior * p)
                .collect()
        } else {
            overlaps.clone()
        };
        let (i, decision) = choose(&scores, &evidence);
        let s = candidates.get(i)?;
        Some(
            Prediction::new(s.key.clone(), "lesk-ext", decision, scores[i])
                .with_scores(keyed(candidates, &scores), Scale::Log),
        )
    }

    fn explain(
        &self,
        inv: &Inventory,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
        prediction: &Prediction,
    ) -> Option<Evidence> {
        let i = candidates.iter().position(|c| c.key == prediction.key)?;
        let syn = inv.get(candidates[i].synset)?;
        let words = self.with_signature(inv, syn, |sig| {
            overlapping_words(&self.norm, doc, target, self.opts.window, |s| {
                sig.binary_search_by_key(&s, |&(k, _)| k)
                    .ok()
                    .map(|j| sig[j].1 as f64)
            })
        });
        let prior = (self.opts.prior != 0.0).then(|| self.opts.prior * log_prior(candidates)[i]);
        Some(Evidence::Overlap { words, prior })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choose_falls_back_on_no_evidence_and_ties() {
        let none = Decision::Fallback {
            reason: FallbackReason::NoEvidence,
        };
        assert_eq!(choose(&[0.0, 0.0, 0.0], &[false; 3]), (0, none));
        assert_eq!(choose(&[1.0, 3.0, 2.0], &[true; 3]), (1, Decision::Decided));
        assert_eq!(choose(&[1.0, 3.0, 3.0], &[true; 3]), (1, Decision::Tie));
        // A prior can make the scores differ without any overlap.
        assert_eq!(choose(&[-1.0, -2.0], &[false, false]), (0, none));
    }

    #[test]
    fn prior_prefers_frequent_senses() {
        let s = |n: u32| Sense {
            key: String::new(),
            synset: crate::wordnet::SynsetId {
                pos: crate::wordnet::Pos::Noun,
                offset: 0,
            },
            number: 1,
            tag_count: n,
        };
        let p = log_prior(&[s(9), s(0)]);
        assert!((p[0] - (10.0f64 / 11.0).ln()).abs() < 1e-12);
        assert!(p[0] > p[1]);
    }

    #[test]
    fn relation_weights_cover_every_kind() {
        let w = RelationWeights::default();
        assert_eq!(w.of(PointerKind::Antonym), 0.0);
        assert_eq!(w.of(PointerKind::PartHolonym), w.meronym);
        assert_eq!(w.of(PointerKind::InstanceHyponym), w.hyponym);
    }
}
