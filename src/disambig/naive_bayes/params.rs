//! The hyper-parameters of Naive Bayes ([`NbParams`], [`FamilyWeights`],
//! [`BagForm`]) and the facts of a training run ([`NbFacts`]): plain serde
//! types, kept apart from the model because the CLI, the tuning tests and
//! the model file (header and body) all use them.

use serde::{Deserialize, Serialize};

#[cfg(doc)]
use super::NaiveBayes;

/// What a bag-of-words feature is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BagForm {
    /// The token's lemma (its lower-cased text when it has none).
    Lemma,
    /// The token's lower-cased text.
    Word,
}

/// Weights of the feature families: each log-likelihood term
/// `ln P(f|s)` is multiplied by the weight of `f`'s family (1 everywhere is
/// plain multinomial Naive Bayes; 0 switches a family off at prediction
/// time).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FamilyWeights {
    /// Bag of words in the ±window.
    pub window: f64,
    /// Bag of words of the sentence(s).
    pub sentence: f64,
    /// Words at fixed offsets (and the target's own form).
    pub colloc: f64,
    /// POS tags at fixed offsets.
    pub pos: f64,
    /// Word n-grams around the target.
    pub ngram: f64,
}

impl Default for FamilyWeights {
    fn default() -> Self {
        FamilyWeights {
            window: 1.0,
            sentence: 1.0,
            colloc: 1.0,
            pos: 1.0,
            ngram: 1.0,
        }
    }
}

/// Hyper-parameters of [`NaiveBayes`]: the feature families (fixed at
/// training time) and the scoring parameters (`alpha`, `weights`,
/// `min_examples`, `prior_wordnet`, which can be changed on a trained
/// model). Stored in the model file.
///
/// The defaults (α = 0.5; ±3 content lemmas; words and universal POS tags
/// at −2…+2 and the target's form; no sentence bag, no n-grams; stop words
/// dropped; abstain below 40 training examples; plain NB weights) were
/// chosen by 5-fold cross-validation (folds by document) on the SemCor
/// train split, with the SemEval-2007 dev set as a second opinion; never
/// on the SemCor test split. See the module docs and `tests/nb.rs`
/// (`nb_tune`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct NbParams {
    /// Add-α smoothing (α > 0; 1 is Laplace).
    pub alpha: f64,
    /// Content words on each side of the target in the window bag (0: off).
    pub window: usize,
    /// Whether the window may extend into neighbouring sentences.
    pub window_crosses_sentences: bool,
    /// Bag of words of the target's sentence.
    pub sentence_bag: bool,
    /// Extra sentences on each side in the sentence bag.
    pub context_sentences: usize,
    /// Words and POS tags at offsets `−colloc_width … +colloc_width`.
    pub collocations: bool,
    /// Width of the collocation window (1–3).
    pub colloc_width: usize,
    /// The target's own lower-cased surface form (`w0=banks`).
    pub target_form: bool,
    /// IMS-style word n-grams around the target.
    pub ngrams: bool,
    /// Drop stop words from the bags.
    pub stop_words: bool,
    /// Lemmas or lower-cased words in the bags.
    pub bag: BagForm,
    /// Count a training token with several gold keys once per key (else
    /// only its first key).
    pub all_gold_keys: bool,
    /// Abstain on lemmas with fewer training examples than this.
    pub min_examples: u32,
    /// Pseudo-counts from WordNet's sense frequencies in the prior:
    /// `P(s) ∝ count(s) + prior_wordnet · tag_count(s)` (0: the training
    /// counts only, as in the course notes).
    pub prior_wordnet: f64,
    /// Weights of the feature families.
    pub weights: FamilyWeights,
}

impl Default for NbParams {
    fn default() -> Self {
        NbParams {
            alpha: 0.5,
            window: 3,
            window_crosses_sentences: false,
            sentence_bag: false,
            context_sentences: 0,
            collocations: true,
            colloc_width: 2,
            target_form: true,
            ngrams: false,
            stop_words: true,
            bag: BagForm::Lemma,
            all_gold_keys: true,
            min_examples: 40,
            prior_wordnet: 0.0,
            weights: FamilyWeights::default(),
        }
    }
}

/// Facts about a training run, stored in the model header.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct NbFacts {
    /// Which data it was trained on (`semcor:train`, …), set by the caller.
    pub split: Option<String>,
    /// Documents read.
    pub documents: usize,
    /// Sense-tagged tokens used (with at least one gold key WordNet knows).
    pub instances: usize,
    /// Training examples counted (one per gold key, or per token).
    pub examples: usize,
    /// Gold keys skipped because WordNet lacks them.
    pub skipped_unknown_keys: usize,
    /// (lemma, POS) models.
    pub lemmas: usize,
    /// Distinct (lemma, feature) pairs: the sum of the per-lemma V.
    pub features: usize,
    /// Interned words and tags.
    pub vocabulary: usize,
}
