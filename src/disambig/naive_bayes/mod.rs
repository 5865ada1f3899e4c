//! Supervised Naive Bayes, one multinomial classifier per (lemma, POS),
//! trained on sense-tagged documents (SemCor).
//!
//! # The model
//!
//! For a target word with training senses `s` and context features
//! `f1 … fn` (a multiset: a feature that occurs twice counts twice, as the
//! course notes stress with "jazz jazz"),
//!
//! ```text
//! P(s | context) ∝ P(s) · Π_i P(f_i | s)
//! P(s)     = count(s) / N                      N = training examples of the lemma
//! P(f | s) = (count(f, s) + α) / (N_s + α·V)   N_s = feature occurrences seen with s
//! ```
//!
//! computed in log space. Choices, and why:
//!
//! * **V is per lemma**: the number of distinct features seen in the
//!   training examples of that (lemma, POS), as in the notes' worked example
//!   (V = 7 words for *bass*). Each lemma is its own classification
//!   problem; a global V (all features of all lemmas, hundreds of
//!   thousands) would make the smoothing mass `α·V` dwarf the counts of a
//!   lemma with a few dozen examples, so every likelihood would be almost
//!   uniform and the classifier would reduce to its prior.
//! * **Features outside the lemma's V are ignored** at prediction time.
//!   Such a feature has the same count (0) under every sense, so it carries
//!   no evidence; scoring it would only favour the senses with fewer
//!   training tokens (smaller `N_s`).
//! * **Training examples with several gold keys count once per key** (a
//!   SemCor token tagged `a;b` is an example of `a` and an example of `b`),
//!   see [`NbParams::all_gold_keys`]. Gold keys WordNet lacks are skipped
//!   and counted ([`NbFacts::skipped_unknown_keys`]).
//! * The (lemma, POS) of an example is taken from its gold key (the key's
//!   lemma and `ss_type`), so the sense classes of a model are exactly
//!   WordNet senses of that lemma.
//!
//! At prediction time the classes are restricted to the candidates the
//! caller passes; the method abstains (`None`, so a chain backs off, e.g. to
//! `mfs`) when the lemma was not seen in training, has a single candidate,
//! had fewer than [`NbParams::min_examples`] training examples, or when none
//! of its trained senses is a candidate. Ties go to the earlier candidate
//! (WordNet order). [`crate::disambig::Prediction::score`] is the log posterior of the chosen
//! sense, normalised over the candidate senses the model knows.
//!
//! # Defaults, and how they were chosen
//!
//! 5-fold cross-validation on the SemCor train split (folds by document,
//! nb with back-off to the first sense, F1 over all 181k held-out
//! instances; mfs scores 73.8) and SemEval-2007 (455 instances, so ±2
//! points is noise; mfs 55.2), models trained on the train split:
//!
//! * **Abstaining on rare lemmas matters most.** With every lemma answered
//!   nb+mfs scores only 72.0 in CV (62.2 on SemEval-2007), below mfs: the
//!   first WordNet sense comes from tag counts over all of SemCor, the
//!   held-out documents included, so for a lemma with a handful of
//!   training examples it knows more than the examples do (the training
//!   counts alone, a prior-only classifier, score 70.8). Answering only
//!   lemmas with ≥ 20 / 30 / 40 / 50 examples gives 75.0 / 75.2 / 75.4 /
//!   75.4 in CV (SemEval-2007 61.8 / 60.9 / 61.1 / 61.1):
//!   `min_examples = 40`. Out of domain, where the first sense is weaker,
//!   a lower threshold may pay: SemEval-2007 leans that way, within its
//!   noise.
//! * α: with the threshold, 0.5 is ahead of 1 at 20–50 examples (+0.02 to
//!   +0.1 CV, +0.4 to +0.9 SemEval-2007); 0.3 and below, or 2 and above,
//!   are worse.
//! * Features: the differences are small. The sentence bag costs 0.2 in
//!   CV (75.2 vs 75.4 at 40), training time and model size; a wider
//!   window (5, 10), the window across sentences, neighbouring sentences,
//!   n-grams, collocation width 3, keeping stop words, word forms instead
//!   of lemmas, dropping the target's form are all within ±0.2. Family
//!   weights other than 1 gain ≤ 0.1, so plain NB it is.
//! * Also tried and rejected: Jelinek-Mercer smoothing with the lemma's
//!   feature distribution (−1 to −2 CV), a leave-one-document-out per-lemma
//!   choice between nb and mfs (no gain in CV, −2 on SemEval-2007), a
//!   margin the first sense must be beaten by (≤ +0.06), and counting only
//!   the first of several gold keys (same). A WordNet-count prior
//!   ([`NbParams::prior_wordnet`]) gains 0.1–0.2 in CV but loses on
//!   SemEval-2007; it is available, off by default.
//!
//! # Features
//!
//! Feature families (each switchable in [`NbParams`], each with a weight
//! multiplying its log-likelihood terms, 1 = plain Naive Bayes):
//!
//! * **window**: bag of lemmas (or lower-cased words, [`NbParams::bag`]) of
//!   the `window` nearest content words on each side of the target (stop
//!   words and punctuation skipped, optionally across sentence boundaries);
//! * **sentence**: bag of lemmas of the target's sentence (and
//!   `context_sentences` sentences on each side);
//! * **collocations**: the lower-cased words and coarse (universal) POS tags
//!   at offsets `−w … −1, +1 … +w` in the sentence (`w-1=the`, `p+1=NOUN`;
//!   `<s>` and `</s>` outside the sentence), optionally the target's own
//!   surface form (`w0=banks`) and IMS-style word n-grams around the target
//!   (`w-2 w-1`, `w-1 w+1`, `w+1 w+2`, `w-3…w-1`, `w-2…w+1`, `w-1…w+2`,
//!   `w+1…w+3`).
//!
//! SemCor's Penn tags and the evaluation framework's universal tags are both
//! mapped to the universal tag set so that a model trained on one reads the
//! other.
//!
//! # Storage
//!
//! Feature strings are interned: words and tags get `u32` ids in one
//! vocabulary, a feature is a `u64` (family in the top byte, the word id or
//! a stable hash of the n-gram's ids below). Each lemma keeps its feature
//! keys sorted with, per feature, the `(sense, count)` pairs; scoring looks
//! features up by binary search and allocates no strings (a word that needs
//! lower-casing is normalised into one reused buffer). The model file body
//! ([`NaiveBayes::to_bytes`]) is postcard (serde, varint integers) through
//! [`crate::model_io`]'s codec, feature keys delta-coded; decoding checks
//! every invariant the scorer relies on.
//!
//! # Files
//!
//! * `params.rs`: the hyper-parameters and training facts (serde types
//!   stored in the model);
//! * `features.rs`: feature keys, the vocabulary and feature extraction;
//! * `model.rs`: the per-lemma model, scoring, and the [`NaiveBayes`]
//!   disambiguator;
//! * `train.rs`: counting training examples into a model;
//! * `codec.rs`: the model body and the model file (save / load).

mod codec;
mod features;
mod model;
mod params;
mod train;

pub use model::NaiveBayes;
pub use params::{BagForm, FamilyWeights, NbFacts, NbParams};
pub use train::log_joint_scores;

/// The `method` of NB model files and predictions.
pub const METHOD: &str = "nb";

/// Documents and senses the tests of the submodules share: the course
/// notes' *bass* example as SemCor-like documents.
#[cfg(test)]
mod testutil {
    use super::{NaiveBayes, NbParams};
    use crate::corpus::{Document, Sentence, Token};
    use crate::disambig::Prediction;
    use crate::wordnet::{Pos, Sense, SynsetId};
    pub(crate) fn tok(text: &str, lemma: Option<&str>, tag: &str) -> Token {
        Token {
            text: text.into(),
            lemma: lemma.map(Into::into),
            tag: Some(tag.into()),
            pos: Pos::from_tag(tag),
            ..Token::default()
        }
    }

    pub(crate) fn target_tok(text: &str, lemma: &str, id: &str, gold: &[&str]) -> Token {
        Token {
            instance: Some(id.into()),
            gold: gold.iter().map(|g| g.to_string()).collect(),
            ..tok(text, Some(lemma), "NN")
        }
    }

    pub(crate) const BASS_FISH: &str = "bass%1:13:02::";
    pub(crate) const BASS_GUITAR: &str = "bass%1:06:02::";

    /// The worked example as SemCor-like documents: one sentence each,
    /// "bass" the target, the context words as nouns.
    pub(crate) fn bass_doc(id: &str, words: &[&str], gold: &[&str]) -> Document {
        let mut tokens: Vec<Token> = words.iter().map(|w| tok(w, Some(w), "NN")).collect();
        tokens.insert(0, target_tok("bass", "bass", &format!("{id}.t0"), gold));
        Document {
            id: id.into(),
            sentences: vec![Sentence {
                id: format!("{id}.s1"),
                tokens,
            }],
        }
    }

    pub(crate) fn bass_docs() -> Vec<Document> {
        vec![
            bass_doc("d1", &["line", "fish", "ocean"], &[BASS_FISH]),
            bass_doc("d2", &["jazz", "guitar", "music"], &[BASS_GUITAR]),
            bass_doc("d3", &["fish", "ocean", "water"], &[BASS_FISH]),
            bass_doc("d4", &["line", "water", "fish"], &[BASS_FISH]),
        ]
    }

    /// The notes' setting: Laplace smoothing, sentence bag only, every
    /// lemma answered.
    pub(crate) fn sentence_only() -> NbParams {
        NbParams {
            alpha: 1.0,
            min_examples: 1,
            window: 0,
            collocations: false,
            target_form: false,
            ngrams: false,
            sentence_bag: true,
            ..NbParams::default()
        }
    }

    pub(crate) fn sense(key: &str, number: u16) -> Sense {
        Sense {
            key: key.into(),
            synset: SynsetId {
                pos: Pos::Noun,
                offset: number as u32,
            },
            number,
            tag_count: 0,
        }
    }

    pub(crate) fn predict(m: &NaiveBayes, doc: &Document, cands: &[Sense]) -> Option<Prediction> {
        let t = &doc.targets()[0];
        m.predict(doc, t, cands, &mut Vec::new(), &mut Vec::new())
    }

    pub(crate) fn toy_model() -> NaiveBayes {
        let p = NbParams {
            min_examples: 1,
            ..NbParams::default()
        };
        let mut m = NaiveBayes::train_with(&|_| true, &bass_docs(), &p, &|_, _| {});
        m.set_split("toy");
        m
    }
}
