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
//! (WordNet order). [`Prediction::score`] is the log posterior of the chosen
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
//! ([`NaiveBayes::to_bytes`]) is a compact little-endian, LEB128-varint
//! encoding, read back with bounds checks everywhere.

use std::path::Path;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::{Candidates, Disambiguator, Prediction};
use crate::corpus::{Document, Target, Token};
use crate::model_io::{self, ModelHeader};
use crate::wordnet::{Inventory, Pos, Sense};
use crate::{Error, Result};

/// The `method` of NB model files and predictions.
pub const METHOD: &str = "nb";

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

// ---------------------------------------------------------------------------
// Feature keys

const FAM_WINDOW: u8 = 1;
const FAM_SENTENCE: u8 = 2;
/// Words at offset `o` (−3…+3): `FAM_WORD + 3 + o`.
const FAM_WORD: u8 = 16;
/// Tags at offset `o`: `FAM_TAG + 3 + o`.
const FAM_TAG: u8 = 32;
/// N-gram span `k`: `FAM_NGRAM + k`.
const FAM_NGRAM: u8 = 48;

/// IMS collocation spans of more than one word (offsets, target skipped).
const NGRAM_SPANS: [(i32, i32); 7] = [
    (-2, -1),
    (-1, 1),
    (1, 2),
    (-3, -1),
    (-2, 1),
    (-1, 2),
    (1, 3),
];

const LOW56: u64 = (1 << 56) - 1;

fn fkey(family: u8, value: u64) -> u64 {
    ((family as u64) << 56) | (value & LOW56)
}

fn family_of(key: u64) -> u8 {
    (key >> 56) as u8
}

/// A stable 64-bit mix (splitmix64 finaliser), so n-gram keys do not depend
/// on the hasher of a library version.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Vocabulary ids reserved for the sentence boundaries.
const BOS: &str = "<s>";
const EOS: &str = "</s>";

/// Stop words of the bags: the project's English list
/// ([`crate::text::is_stop_word`]: NLTK's list and the Penn clitics) and
/// the modals it lacks (bags hold lemmas, so base forms matter).
fn is_stop_word(w: &str) -> bool {
    crate::text::is_stop_word(w) || matches!(w, "could" | "would" | "shall" | "ought")
}

/// Lower-case and join multiword spaces with `_`, borrowing when the word is
/// already normal (the common case: no allocation).
fn normalize<'a>(raw: &'a str, buf: &'a mut String) -> &'a str {
    let normal = raw
        .bytes()
        .all(|b| b.is_ascii() && !b.is_ascii_uppercase() && b != b' ');
    if normal {
        return raw;
    }
    buf.clear();
    for c in raw.chars() {
        if c == ' ' {
            buf.push('_');
        } else {
            buf.extend(c.to_lowercase());
        }
    }
    buf
}

/// The universal (Petrov et al.) tag of a token: Penn tags are mapped,
/// universal tags kept, punctuation without a tag is `.`.
fn coarse_tag(tok: &Token) -> &'static str {
    let Some(tag) = tok.tag.as_deref() else {
        return if tok.text.chars().any(char::is_alphanumeric) {
            "X"
        } else {
            "."
        };
    };
    let tag = tag.split('|').next().unwrap_or(tag);
    match tag {
        "NOUN" | "VERB" | "ADJ" | "ADV" | "PRON" | "DET" | "ADP" | "NUM" | "CONJ" | "PRT" | "."
        | "X" => {
            // Already universal; return the static spelling.
            UNIVERSAL.iter().copied().find(|u| *u == tag).unwrap_or("X")
        }
        "MD" => "VERB",
        "PRP" | "PRP$" | "WP" | "WP$" | "PR" => "PRON",
        "DT" | "PDT" | "WDT" | "EX" => "DET",
        "IN" => "ADP",
        "CD" => "NUM",
        "CC" => "CONJ",
        "TO" | "RP" | "POS" => "PRT",
        "WRB" => "ADV",
        _ if tag.starts_with("NN") || tag == "NP" || tag == "NPS" => "NOUN",
        _ if tag.starts_with("VB") => "VERB",
        _ if tag.starts_with("JJ") => "ADJ",
        _ if tag.starts_with("RB") => "ADV",
        _ if !tag.chars().any(char::is_alphanumeric) => ".",
        _ => "X",
    }
}

const UNIVERSAL: [&str; 12] = [
    "NOUN", "VERB", "ADJ", "ADV", "PRON", "DET", "ADP", "NUM", "CONJ", "PRT", ".", "X",
];

// ---------------------------------------------------------------------------
// Vocabulary

/// Word/tag string → id.
trait Ids {
    fn id(&mut self, word: &str) -> Option<u32>;
}

/// Training: every new word gets an id.
#[derive(Default)]
struct Vocab {
    map: FxHashMap<String, u32>,
    words: Vec<String>,
}

impl Vocab {
    fn with_markers() -> Vocab {
        let mut v = Vocab::default();
        v.intern(BOS);
        v.intern(EOS);
        v
    }

    fn intern(&mut self, w: &str) -> u32 {
        if let Some(&id) = self.map.get(w) {
            return id;
        }
        let id = self.words.len() as u32;
        self.map.insert(w.to_owned(), id);
        self.words.push(w.to_owned());
        id
    }
}

impl Ids for Vocab {
    fn id(&mut self, word: &str) -> Option<u32> {
        Some(self.intern(word))
    }
}

/// Prediction: look up only.
struct Lookup<'a>(&'a FxHashMap<String, u32>);

impl Ids for Lookup<'_> {
    fn id(&mut self, word: &str) -> Option<u32> {
        self.0.get(word).copied()
    }
}

// ---------------------------------------------------------------------------
// Feature extraction

/// The raw bag form of a token, if it is a content word (has a letter or
/// digit), normalised into `buf`, `None` for punctuation and stop words.
fn bag_word<'a>(p: &NbParams, tok: &'a Token, buf: &'a mut String) -> Option<&'a str> {
    let raw = match p.bag {
        BagForm::Lemma => tok.lemma.as_deref().unwrap_or(&tok.text),
        BagForm::Word => &tok.text,
    };
    if !raw.chars().any(char::is_alphanumeric) {
        return None;
    }
    let w = normalize(raw, buf);
    if p.stop_words && is_stop_word(w) {
        return None;
    }
    Some(w)
}

/// Push the features of the token at (`si`, `ti`) of `doc` to `out`.
fn extract(
    p: &NbParams,
    doc: &Document,
    si: usize,
    ti: usize,
    ids: &mut impl Ids,
    buf: &mut String,
    out: &mut Vec<u64>,
) {
    out.clear();
    let sents = &doc.sentences;
    let tokens = &sents[si].tokens;

    // Window bag: the nearest `window` content words on each side.
    if p.window > 0 {
        // Left: `t` is one past the next token to look at.
        let (mut s, mut t, mut found) = (si, ti, 0);
        while found < p.window {
            if t == 0 {
                if !p.window_crosses_sentences || s == 0 {
                    break;
                }
                s -= 1;
                t = sents[s].tokens.len();
                continue;
            }
            t -= 1;
            if let Some(w) = bag_word(p, &sents[s].tokens[t], buf) {
                if let Some(id) = ids.id(w) {
                    out.push(fkey(FAM_WINDOW, id as u64));
                }
                found += 1;
            }
        }
        // Right.
        let (mut s, mut t, mut found) = (si, ti + 1, 0);
        while found < p.window {
            if t >= sents[s].tokens.len() {
                if !p.window_crosses_sentences || s + 1 >= sents.len() {
                    break;
                }
                s += 1;
                t = 0;
                continue;
            }
            if let Some(w) = bag_word(p, &sents[s].tokens[t], buf) {
                if let Some(id) = ids.id(w) {
                    out.push(fkey(FAM_WINDOW, id as u64));
                }
                found += 1;
            }
            t += 1;
        }
    }

    // Sentence bag.
    if p.sentence_bag {
        let lo = si.saturating_sub(p.context_sentences);
        let hi = si.saturating_add(p.context_sentences).min(sents.len() - 1);
        for (s, sent) in sents.iter().enumerate().take(hi + 1).skip(lo) {
            for (t, tok) in sent.tokens.iter().enumerate() {
                if s == si && t == ti {
                    continue;
                }
                if let Some(w) = bag_word(p, tok, buf) {
                    if let Some(id) = ids.id(w) {
                        out.push(fkey(FAM_SENTENCE, id as u64));
                    }
                }
            }
        }
    }

    // Collocations.
    let word_at = |o: i32, ids: &mut dyn FnMut(&str) -> Option<u32>, buf: &mut String| {
        let i = ti as i64 + o as i64;
        if i < 0 {
            ids(BOS)
        } else if i as usize >= tokens.len() {
            ids(EOS)
        } else {
            ids(normalize(&tokens[i as usize].text, buf))
        }
    };
    let mut idf = |w: &str| ids.id(w);
    if p.collocations {
        let width = p.colloc_width.clamp(1, 3) as i32;
        for o in (-width..=width).filter(|&o| o != 0) {
            if let Some(id) = word_at(o, &mut idf, buf) {
                out.push(fkey(FAM_WORD + (3 + o) as u8, id as u64));
            }
            let i = ti as i64 + o as i64;
            let tag = if i < 0 {
                BOS
            } else if i as usize >= tokens.len() {
                EOS
            } else {
                coarse_tag(&tokens[i as usize])
            };
            if let Some(id) = idf(tag) {
                out.push(fkey(FAM_TAG + (3 + o) as u8, id as u64));
            }
        }
    }
    if p.target_form {
        if let Some(id) = word_at(0, &mut idf, buf) {
            out.push(fkey(FAM_WORD + 3, id as u64));
        }
    }
    if p.ngrams {
        'span: for (k, &(a, b)) in NGRAM_SPANS.iter().enumerate() {
            let mut h: u64 = 0x9e37_79b9_7f4a_7c15;
            for o in (a..=b).filter(|&o| o != 0) {
                match word_at(o, &mut idf, buf) {
                    Some(id) => h = mix(h ^ id as u64),
                    None => continue 'span,
                }
            }
            out.push(fkey(FAM_NGRAM + k as u8, h));
        }
    }
}

// ---------------------------------------------------------------------------
// The per-lemma model: counting and scoring (pure)

/// Counts of one (lemma, POS) while training.
#[derive(Default)]
struct LemmaCounts {
    senses: Vec<String>,
    examples: Vec<u32>,
    pairs: FxHashMap<(u64, u16), u32>,
}

impl LemmaCounts {
    fn sense_index(&mut self, key: &str) -> u16 {
        match self.senses.iter().position(|s| s == key) {
            Some(i) => i as u16,
            None => {
                self.senses.push(key.to_owned());
                self.examples.push(0);
                (self.senses.len() - 1) as u16
            }
        }
    }

    /// One training example of `sense` with its features (a multiset).
    fn add(&mut self, sense: u16, features: &[u64]) {
        self.examples[sense as usize] += 1;
        for &f in features {
            *self.pairs.entry((f, sense)).or_insert(0) += 1;
        }
    }

    fn finish(self) -> LemmaModel {
        let mut pairs: Vec<((u64, u16), u32)> = self.pairs.into_iter().collect();
        pairs.sort_unstable_by_key(|&(k, _)| k);
        let mut keys = Vec::new();
        let mut starts = vec![0u32];
        let mut senses = Vec::with_capacity(pairs.len());
        let mut counts = Vec::with_capacity(pairs.len());
        for ((f, s), c) in pairs {
            if keys.last() != Some(&f) {
                if !keys.is_empty() {
                    starts.push(senses.len() as u32);
                }
                keys.push(f);
            }
            senses.push(s);
            counts.push(c);
        }
        if !keys.is_empty() {
            starts.push(senses.len() as u32);
        }
        LemmaModel::new(self.senses, self.examples, keys, starts, senses, counts)
    }
}

/// A trained (lemma, POS): its senses, example counts, and per feature the
/// senses it was seen with and how often.
#[derive(Clone, Debug, PartialEq)]
struct LemmaModel {
    senses: Vec<String>,
    /// Training examples per sense (the prior's counts).
    examples: Vec<u32>,
    /// Σ examples.
    total: u64,
    /// Feature keys, strictly increasing (the lemma's V = `keys.len()`).
    keys: Vec<u64>,
    /// CSR offsets into `ent_sense`/`ent_count`, `keys.len() + 1` long
    /// (or empty when there are no features).
    starts: Vec<u32>,
    ent_sense: Vec<u16>,
    ent_count: Vec<u32>,
    /// N_s: feature occurrences seen with each sense.
    tokens: Vec<u64>,
}

/// How to score: smoothing, family weights, prior pseudo-counts.
struct Scoring<'a> {
    alpha: f64,
    weight: &'a [f64; 64],
    /// Empty, or pseudo-counts added to each sense's example count.
    extra_prior: &'a [f64],
}

impl LemmaModel {
    fn new(
        senses: Vec<String>,
        examples: Vec<u32>,
        keys: Vec<u64>,
        starts: Vec<u32>,
        ent_sense: Vec<u16>,
        ent_count: Vec<u32>,
    ) -> LemmaModel {
        let mut tokens = vec![0u64; senses.len()];
        for (&s, &c) in ent_sense.iter().zip(&ent_count) {
            tokens[s as usize] += c as u64;
        }
        let total = examples.iter().map(|&e| e as u64).sum();
        LemmaModel {
            senses,
            examples,
            total,
            keys,
            starts,
            ent_sense,
            ent_count,
            tokens,
        }
    }

    fn vocabulary(&self) -> usize {
        self.keys.len()
    }

    /// `ln P(s) + Σ_f w(f) · ln P(f|s)` for every sense (into `out`),
    /// features outside the lemma's vocabulary skipped. Computed sparsely:
    /// every feature found adds `w·(ln α − ln(N_s + α·V))` to every sense,
    /// and `w·(ln(c + α) − ln α)` to the senses it was seen with.
    fn log_joint(&self, features: &[u64], sc: &Scoring, out: &mut Vec<f64>) {
        let n = self.senses.len();
        out.clear();
        out.resize(n, 0.0);
        let alpha = sc.alpha;
        let ln_alpha = alpha.ln();
        let mut total_w = 0.0;
        for &f in features {
            let Ok(i) = self.keys.binary_search(&f) else {
                continue;
            };
            let w = sc.weight[(family_of(f) & 63) as usize];
            if w == 0.0 {
                continue;
            }
            total_w += w;
            let (a, b) = (self.starts[i] as usize, self.starts[i + 1] as usize);
            for (&s, &c) in self.ent_sense[a..b].iter().zip(&self.ent_count[a..b]) {
                out[s as usize] += w * ((c as f64 + alpha).ln() - ln_alpha);
            }
        }
        let count =
            |s: usize| self.examples[s] as f64 + sc.extra_prior.get(s).copied().unwrap_or(0.0);
        let ln_total = (0..n).map(count).sum::<f64>().ln();
        let v = self.vocabulary() as f64;
        for (s, o) in out.iter_mut().enumerate() {
            let prior = count(s).ln() - ln_total;
            *o += prior + total_w * (ln_alpha - (self.tokens[s] as f64 + alpha * v).ln());
        }
    }
}

/// The decision among the senses that have an `order` (their position
/// among the candidates, in WordNet order): the best log joint score, ties
/// to the earlier candidate. Returns the sense index and its log posterior
/// over the ordered senses; `None` when no sense has a finite score.
fn decide(scores: &[f64], order: &[Option<usize>]) -> Option<(usize, f64)> {
    let mut best: Option<(usize, f64, usize)> = None;
    for (s, o) in order.iter().enumerate() {
        let (Some(o), sc) = (*o, scores[s]) else {
            continue;
        };
        if !sc.is_finite() {
            continue;
        }
        let better = match best {
            None => true,
            Some((_, bs, bo)) => sc > bs || (sc == bs && o < bo),
        };
        if better {
            best = Some((s, sc, o));
        }
    }
    let (s, max, _) = best?;
    let z: f64 = order
        .iter()
        .zip(scores)
        .filter(|(o, sc)| o.is_some() && sc.is_finite())
        .map(|(_, &sc)| (sc - max).exp())
        .sum();
    Some((s, -z.ln()))
}

/// The log joint scores `ln P(c) + Σ_f ln P(f|c)` of a multinomial Naive
/// Bayes with add-α smoothing, trained on `examples` (class index, features
/// as a multiset) with `n_classes` classes, for a `test` multiset of
/// features. V is the number of distinct training features; test features
/// outside it are ignored. This is the exact computation [`NaiveBayes`]
/// makes per (lemma, POS), usable on toy data (the course notes' *bass*
/// example). Classes without examples get `-inf`.
pub fn log_joint_scores(
    examples: &[(usize, Vec<u64>)],
    n_classes: usize,
    alpha: f64,
    test: &[u64],
) -> Vec<f64> {
    let mut counts = LemmaCounts::default();
    let names: Vec<String> = (0..n_classes).map(|c| c.to_string()).collect();
    for (c, feats) in examples {
        let s = counts.sense_index(&names[*c]);
        counts.add(s, feats);
    }
    let model = counts.finish();
    let mut scores = Vec::new();
    let scoring = Scoring {
        alpha,
        weight: &[1.0; 64],
        extra_prior: &[],
    };
    model.log_joint(test, &scoring, &mut scores);
    let mut out = vec![f64::NEG_INFINITY; n_classes];
    for (name, s) in model.senses.iter().zip(scores) {
        out[name.parse::<usize>().expect("class index")] = s;
    }
    out
}

fn sane_alpha(a: f64) -> f64 {
    if a.is_finite() && a > 0.0 {
        a
    } else {
        1e-9
    }
}

// ---------------------------------------------------------------------------
// The model

/// Naive Bayes word-sense disambiguator: one multinomial classifier per
/// (lemma, POS) trained on sense-tagged documents (see the module docs).
#[derive(Clone, Debug)]
pub struct NaiveBayes {
    params: NbParams,
    facts: NbFacts,
    vocab: FxHashMap<String, u32>,
    words: Vec<String>,
    /// Per POS (WordNet file order): lemma → index into `models`.
    index: [FxHashMap<String, u32>; 4],
    models: Vec<(Pos, String, LemmaModel)>,
    /// Family → weight, derived from `params.weights`.
    weight: [f64; 64],
}

fn pos_index(p: Pos) -> usize {
    match p {
        Pos::Noun => 0,
        Pos::Verb => 1,
        Pos::Adj => 2,
        Pos::Adv => 3,
    }
}

/// (lemma, POS) of a sense key: the part before `%` and the `ss_type` digit.
fn key_lemma_pos(key: &str) -> Option<(&str, Pos)> {
    let (lemma, rest) = key.split_once('%')?;
    let pos = match rest.as_bytes().first()? {
        b'1' => Pos::Noun,
        b'2' => Pos::Verb,
        b'3' | b'5' => Pos::Adj,
        b'4' => Pos::Adv,
        _ => return None,
    };
    Some((lemma, pos))
}

fn weight_table(w: &FamilyWeights) -> [f64; 64] {
    let mut t = [0.0; 64];
    t[FAM_WINDOW as usize] = w.window;
    t[FAM_SENTENCE as usize] = w.sentence;
    for o in 0..7 {
        t[FAM_WORD as usize + o] = w.colloc;
        t[FAM_TAG as usize + o] = w.pos;
    }
    for k in 0..NGRAM_SPANS.len() {
        t[FAM_NGRAM as usize + k] = w.ngram;
    }
    t
}

impl NaiveBayes {
    /// Train on the sense-tagged tokens of `docs` (tokens with an instance
    /// id and gold keys). `progress(done, total)` is called after each
    /// document.
    pub fn train(
        inv: &Inventory,
        docs: &[Document],
        params: &NbParams,
        progress: &dyn Fn(usize, usize),
    ) -> NaiveBayes {
        NaiveBayes::train_with(&|k| inv.has_key(k), docs, params, progress)
    }

    /// [`NaiveBayes::train`] with `known` telling which gold keys WordNet
    /// has.
    fn train_with(
        known: &dyn Fn(&str) -> bool,
        docs: &[Document],
        params: &NbParams,
        progress: &dyn Fn(usize, usize),
    ) -> NaiveBayes {
        let mut vocab = Vocab::with_markers();
        let mut facts = NbFacts {
            documents: docs.len(),
            ..NbFacts::default()
        };
        let mut lemmas: [FxHashMap<String, LemmaCounts>; 4] = Default::default();
        let mut buf = String::new();
        let mut feats = Vec::new();
        for (di, doc) in docs.iter().enumerate() {
            for (si, sent) in doc.sentences.iter().enumerate() {
                for (ti, tok) in sent.tokens.iter().enumerate() {
                    if tok.instance.is_none() || tok.gold.is_empty() {
                        continue;
                    }
                    let keys = if params.all_gold_keys {
                        &tok.gold[..]
                    } else {
                        &tok.gold[..1]
                    };
                    let mut extracted = false;
                    for key in keys {
                        let lp = key_lemma_pos(key).filter(|_| known(key));
                        let Some((lemma, pos)) = lp else {
                            facts.skipped_unknown_keys += 1;
                            continue;
                        };
                        if !extracted {
                            extract(params, doc, si, ti, &mut vocab, &mut buf, &mut feats);
                            extracted = true;
                            facts.instances += 1;
                        }
                        let table = &mut lemmas[pos_index(pos)];
                        let counts = match table.get_mut(lemma) {
                            Some(c) => c,
                            None => table.entry(lemma.to_owned()).or_default(),
                        };
                        let s = counts.sense_index(key);
                        counts.add(s, &feats);
                        facts.examples += 1;
                    }
                }
            }
            progress(di + 1, docs.len());
        }
        let mut models = Vec::new();
        for (pi, table) in lemmas.into_iter().enumerate() {
            let mut entries: Vec<(String, LemmaCounts)> = table.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            for (lemma, counts) in entries {
                models.push((Pos::ALL[pi], lemma, counts.finish()));
            }
        }
        facts.lemmas = models.len();
        facts.features = models.iter().map(|m| m.2.vocabulary()).sum();
        facts.vocabulary = vocab.words.len();
        NaiveBayes::assemble(params.clone(), facts, vocab.map, vocab.words, models)
    }

    fn assemble(
        params: NbParams,
        facts: NbFacts,
        vocab: FxHashMap<String, u32>,
        words: Vec<String>,
        models: Vec<(Pos, String, LemmaModel)>,
    ) -> NaiveBayes {
        let mut index: [FxHashMap<String, u32>; 4] = Default::default();
        for (i, (pos, lemma, _)) in models.iter().enumerate() {
            index[pos_index(*pos)].insert(lemma.clone(), i as u32);
        }
        NaiveBayes {
            weight: weight_table(&params.weights),
            params,
            facts,
            vocab,
            words,
            index,
            models,
        }
    }

    /// The hyper-parameters.
    pub fn params(&self) -> &NbParams {
        &self.params
    }

    /// Facts about the training run.
    pub fn facts(&self) -> &NbFacts {
        &self.facts
    }

    /// Record which data the model was trained on (`semcor:train`, …); it
    /// goes to the model header.
    pub fn set_split(&mut self, split: impl Into<String>) {
        self.facts.split = Some(split.into());
    }

    /// Change the scoring parameters of a trained model (`alpha`,
    /// `weights`, `min_examples`); the feature parameters must stay as
    /// trained, so they are taken from the model and those of `params` are
    /// ignored.
    pub fn set_scoring(&mut self, params: &NbParams) {
        self.params.alpha = params.alpha;
        self.params.weights = params.weights;
        self.params.min_examples = params.min_examples;
        self.params.prior_wordnet = params.prior_wordnet;
        self.weight = weight_table(&self.params.weights);
    }

    /// Number of (lemma, POS) models.
    pub fn lemma_count(&self) -> usize {
        self.models.len()
    }

    /// The trained senses of a lemma with their training example counts.
    pub fn trained_senses(&self, lemma: &str, pos: Pos) -> Vec<(&str, u32)> {
        match self.index[pos_index(pos)].get(lemma) {
            Some(&i) => {
                let m = &self.models[i as usize].2;
                m.senses
                    .iter()
                    .map(String::as_str)
                    .zip(m.examples.iter().copied())
                    .collect()
            }
            None => Vec::new(),
        }
    }

    /// The features of a target in the model's vocabulary (a multiset of
    /// interned keys).
    fn features_of(&self, doc: &Document, target: &Target, out: &mut Vec<u64>) {
        let mut buf = String::new();
        extract(
            &self.params,
            doc,
            target.sentence,
            target.token,
            &mut Lookup(&self.vocab),
            &mut buf,
            out,
        );
    }

    /// Predict among `candidates` (see [`Disambiguator::disambiguate`]).
    fn predict(
        &self,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
        feats: &mut Vec<u64>,
        scores: &mut Vec<f64>,
    ) -> Option<Prediction> {
        if candidates.len() < 2 {
            return None;
        }
        let (lemma, pos) = key_lemma_pos(&candidates[0].key)?;
        let &mi = self.index[pos_index(pos)].get(lemma)?;
        let model = &self.models[mi as usize].2;
        if model.total < self.params.min_examples as u64 {
            return None;
        }
        // Trained senses that are candidates, with their candidate position.
        let order: Vec<Option<usize>> = model
            .senses
            .iter()
            .map(|k| candidates.iter().position(|c| &c.key == k))
            .collect();
        if order.iter().all(Option::is_none) {
            return None;
        }
        if target.sentence >= doc.sentences.len()
            || target.token >= doc.sentences[target.sentence].tokens.len()
        {
            return None;
        }
        self.features_of(doc, target, feats);
        let wn = self.params.prior_wordnet;
        let extra: Vec<f64> = if wn.is_finite() && wn > 0.0 {
            order
                .iter()
                .map(|o| o.map_or(0.0, |c| wn * candidates[c].tag_count as f64))
                .collect()
        } else {
            Vec::new()
        };
        let scoring = Scoring {
            alpha: sane_alpha(self.params.alpha),
            weight: &self.weight,
            extra_prior: &extra,
        };
        model.log_joint(feats, &scoring, scores);
        let (s, log_post) = decide(scores, &order)?;
        Some(Prediction::decided(
            model.senses[s].clone(),
            METHOD,
            log_post,
        ))
    }
}

impl Disambiguator for NaiveBayes {
    fn name(&self) -> &str {
        METHOD
    }

    fn disambiguate(
        &self,
        _inv: &Inventory,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
    ) -> Option<Prediction> {
        let mut feats = Vec::new();
        let mut scores = Vec::new();
        self.predict(doc, target, candidates, &mut feats, &mut scores)
    }

    fn disambiguate_document(
        &self,
        _inv: &Inventory,
        doc: &Document,
        targets: &[Candidates<'_>],
    ) -> Vec<Option<Prediction>> {
        let mut feats = Vec::new();
        let mut scores = Vec::new();
        targets
            .iter()
            .map(|c| self.predict(doc, &c.target, &c.senses, &mut feats, &mut scores))
            .collect()
    }
}

// ---------------------------------------------------------------------------
// Serialisation

/// First bytes of an NB body.
const BODY_MAGIC: &[u8; 8] = b"WSDNB001";

fn put_var(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    put_var(out, b.len() as u64);
    out.extend_from_slice(b);
}

/// A bounds-checked reader over a body; every failure is an
/// [`Error::Model`] naming `path`.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    path: &'a Path,
}

impl<'a> Reader<'a> {
    fn err(&self, what: impl std::fmt::Display) -> Error {
        Error::Model {
            path: self.path.to_path_buf(),
            msg: format!(
                "corrupted Naive Bayes body at byte {}: {what}; retrain with `wsd train --method nb`",
                self.at
            ),
        }
    }

    fn remaining(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.err(format!(
                "truncated ({n} bytes needed, {} left)",
                self.remaining()
            )));
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    fn var(&mut self) -> Result<u64> {
        let mut v: u64 = 0;
        for i in 0..10 {
            let b = *self
                .bytes
                .get(self.at)
                .ok_or_else(|| self.err("truncated number"))?;
            self.at += 1;
            let part = (b & 0x7f) as u64;
            if i == 9 && part > 1 {
                return Err(self.err("number overflows 64 bits"));
            }
            v |= part << (7 * i);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(self.err("number longer than 10 bytes"))
    }

    /// A count of items that take at least `min_bytes` each: never more
    /// than the bytes left can hold (so a garbled count cannot make us
    /// allocate gigabytes).
    fn count(&mut self, what: &str, min_bytes: usize) -> Result<usize> {
        let n = self.var()?;
        if n > (self.remaining() / min_bytes.max(1)) as u64 {
            return Err(self.err(format!("{what} count {n} exceeds the body")));
        }
        Ok(n as usize)
    }

    fn u32(&mut self, what: &str) -> Result<u32> {
        let v = self.var()?;
        u32::try_from(v).map_err(|_| self.err(format!("{what} {v} out of range")))
    }

    fn str(&mut self) -> Result<&'a str> {
        let n = self.count("string length", 1)?;
        let b = self.take(n)?;
        std::str::from_utf8(b).map_err(|_| self.err("string is not UTF-8"))
    }
}

impl NaiveBayes {
    /// The model body: parameters, facts, vocabulary and per-lemma counts in
    /// a compact little-endian varint encoding (deterministic for a given
    /// training run).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(1 << 20);
        out.extend_from_slice(BODY_MAGIC);
        let params = serde_json::to_vec(&self.params).expect("params serialise");
        put_bytes(&mut out, &params);
        let facts = serde_json::to_vec(&self.facts).expect("facts serialise");
        put_bytes(&mut out, &facts);
        put_var(&mut out, self.words.len() as u64);
        for w in &self.words {
            put_bytes(&mut out, w.as_bytes());
        }
        put_var(&mut out, self.models.len() as u64);
        for (pos, lemma, m) in &self.models {
            out.push(pos_index(*pos) as u8);
            put_bytes(&mut out, lemma.as_bytes());
            put_var(&mut out, m.senses.len() as u64);
            for (k, &e) in m.senses.iter().zip(&m.examples) {
                put_bytes(&mut out, k.as_bytes());
                put_var(&mut out, e as u64);
            }
            put_var(&mut out, m.keys.len() as u64);
            let mut prev = 0u64;
            for (i, &k) in m.keys.iter().enumerate() {
                put_var(&mut out, if i == 0 { k } else { k - prev });
                prev = k;
                let (a, b) = (m.starts[i] as usize, m.starts[i + 1] as usize);
                put_var(&mut out, (b - a) as u64);
                for j in a..b {
                    put_var(&mut out, m.ent_sense[j] as u64);
                    put_var(&mut out, m.ent_count[j] as u64);
                }
            }
        }
        out
    }

    /// Read a body written by [`NaiveBayes::to_bytes`]. Truncated or
    /// garbled input gives [`Error::Model`], never a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<NaiveBayes> {
        NaiveBayes::parse_body(bytes, Path::new("(Naive Bayes body)"))
    }

    fn parse_body(bytes: &[u8], path: &Path) -> Result<NaiveBayes> {
        let mut r = Reader { bytes, at: 0, path };
        if r.take(8).ok() != Some(&BODY_MAGIC[..]) {
            r.at = 0;
            return Err(r.err("not a Naive Bayes body (bad magic)"));
        }
        let n = r.count("params length", 1)?;
        let params: NbParams =
            serde_json::from_slice(r.take(n)?).map_err(|e| r.err(format!("parameters: {e}")))?;
        let n = r.count("facts length", 1)?;
        let facts: NbFacts =
            serde_json::from_slice(r.take(n)?).map_err(|e| r.err(format!("facts: {e}")))?;
        let n_words = r.count("vocabulary", 1)?;
        let mut words = Vec::with_capacity(n_words);
        let mut vocab = FxHashMap::default();
        vocab.reserve(n_words);
        for i in 0..n_words {
            let w = r.str()?;
            if vocab.insert(w.to_owned(), i as u32).is_some() {
                return Err(r.err(format!("word {w:?} twice in the vocabulary")));
            }
            words.push(w.to_owned());
        }
        let n_models = r.count("lemma", 4)?;
        let mut models = Vec::with_capacity(n_models);
        let mut seen: [FxHashMap<String, ()>; 4] = Default::default();
        for _ in 0..n_models {
            let pi = r.take(1)?[0] as usize;
            let pos = *Pos::ALL
                .get(pi)
                .ok_or_else(|| r.err(format!("bad POS index {pi}")))?;
            let lemma = r.str()?.to_owned();
            if seen[pi].insert(lemma.clone(), ()).is_some() {
                return Err(r.err(format!("lemma {lemma:?} ({pos}) twice")));
            }
            let n_senses = r.count("sense", 2)?;
            if n_senses == 0 || n_senses > u16::MAX as usize {
                return Err(r.err(format!("{n_senses} senses for {lemma:?}")));
            }
            let mut senses = Vec::with_capacity(n_senses);
            let mut examples = Vec::with_capacity(n_senses);
            for _ in 0..n_senses {
                senses.push(r.str()?.to_owned());
                let e = r.u32("example count")?;
                if e == 0 {
                    return Err(r.err("a sense with no training example"));
                }
                examples.push(e);
            }
            let n_keys = r.count("feature", 3)?;
            let mut keys = Vec::with_capacity(n_keys);
            let mut starts = Vec::with_capacity(n_keys + 1);
            let mut ent_sense = Vec::new();
            let mut ent_count = Vec::new();
            if n_keys > 0 {
                starts.push(0u32);
            }
            let mut prev = 0u64;
            for i in 0..n_keys {
                let d = r.var()?;
                let k = if i == 0 {
                    d
                } else {
                    if d == 0 {
                        return Err(r.err("feature keys not increasing"));
                    }
                    prev.checked_add(d)
                        .ok_or_else(|| r.err("feature key overflow"))?
                };
                keys.push(k);
                prev = k;
                let n_ent = r.count("entry", 2)?;
                if n_ent == 0 || n_ent > n_senses {
                    return Err(r.err(format!("feature with {n_ent} entries")));
                }
                let mut last: Option<u16> = None;
                for _ in 0..n_ent {
                    let s = r.var()?;
                    if s >= n_senses as u64 || last.is_some_and(|l| s <= l as u64) {
                        return Err(r.err(format!("bad sense index {s}")));
                    }
                    let c = r.u32("count")?;
                    if c == 0 {
                        return Err(r.err("zero count"));
                    }
                    last = Some(s as u16);
                    ent_sense.push(s as u16);
                    ent_count.push(c);
                }
                let end = u32::try_from(ent_sense.len()).map_err(|_| r.err("too many entries"))?;
                starts.push(end);
            }
            let m = LemmaModel::new(senses, examples, keys, starts, ent_sense, ent_count);
            models.push((pos, lemma, m));
        }
        if r.remaining() != 0 {
            return Err(r.err(format!("{} trailing bytes", r.remaining())));
        }
        Ok(NaiveBayes::assemble(params, facts, vocab, words, models))
    }

    /// The header params of the model file: `{"params": …, "training": …}`.
    fn header_params(&self) -> serde_json::Value {
        serde_json::json!({ "params": self.params, "training": self.facts })
    }

    /// Write the model atomically (temporary file + rename, see
    /// [`model_io`]) with method `nb`, the WordNet checksum of `inv`, and
    /// the parameters and training facts in the header.
    pub fn save(&self, path: &Path, inv: &Inventory) -> Result<ModelHeader> {
        self.save_with_checksum(path, inv.checksum()?)
    }

    /// [`NaiveBayes::save`] with an explicit WordNet checksum.
    pub fn save_with_checksum(&self, path: &Path, wordnet_sha256: &str) -> Result<ModelHeader> {
        model_io::write_model(
            path,
            METHOD,
            wordnet_sha256,
            self.header_params(),
            &self.to_bytes(),
        )
    }

    /// Read a model written by [`NaiveBayes::save`], refusing another
    /// method, a model built on another WordNet than `inv`, and truncated
    /// or corrupted files.
    pub fn load(path: &Path, inv: &Inventory) -> Result<NaiveBayes> {
        NaiveBayes::load_with_checksum(path, inv.checksum()?)
    }

    /// [`NaiveBayes::load`] with an explicit WordNet checksum.
    pub fn load_with_checksum(path: &Path, wordnet_sha256: &str) -> Result<NaiveBayes> {
        let (_, body) = model_io::read_model(path, METHOD, Some(wordnet_sha256))?;
        NaiveBayes::parse_body(&body, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Sentence;
    use crate::wordnet::SynsetId;

    // The course notes' worked example (lecture 12, section 12.6.2).
    const LINE: u64 = 0;
    const FISH: u64 = 1;
    const OCEAN: u64 = 2;
    const JAZZ: u64 = 3;
    const GUITAR: u64 = 4;
    const MUSIC: u64 = 5;
    const WATER: u64 = 6;

    #[test]
    fn worked_example_bass_fish_vs_guitar() {
        // Class 0 = fish, 1 = guitar.
        let train = vec![
            (0, vec![LINE, FISH, OCEAN]),
            (1, vec![JAZZ, GUITAR, MUSIC]),
            (0, vec![FISH, OCEAN, WATER]),
            (0, vec![LINE, WATER, FISH]),
        ];
        let d5 = [LINE, GUITAR, JAZZ, JAZZ];
        let scores = log_joint_scores(&train, 2, 1.0, &d5);
        let (fish, guitar) = (scores[0].exp(), scores[1].exp());
        // 3/4 · 3/16 · 1/16 · (1/16)² and 1/4 · 1/10 · 2/10 · (2/10)².
        assert_eq!(format!("{fish:.2e}"), "3.43e-5");
        assert_eq!(format!("{guitar:.2e}"), "2.00e-4");
        assert!((fish - 0.75 * 3.0 / 16.0 / 16.0 / 256.0).abs() < 1e-15);
        assert!((guitar - 0.25 * 0.1 * 0.2 * 0.04).abs() < 1e-15);
        assert!(guitar > fish, "guitar wins");
        // Repeated features count each time: with "jazz" once, the
        // guitar/fish ratio drops by the factor (2/10)/(1/16) = 3.2.
        let once = log_joint_scores(&train, 2, 1.0, &[LINE, GUITAR, JAZZ]);
        let ratio2 = scores[1] - scores[0];
        let ratio1 = once[1] - once[0];
        assert!((ratio2 - ratio1 - 3.2f64.ln()).abs() < 1e-12);
        // V = 7: the per-lemma vocabulary of the four training documents.
        let mut c = LemmaCounts::default();
        for (class, f) in &train {
            let s = c.sense_index(&class.to_string());
            c.add(s, f);
        }
        let m = c.finish();
        assert_eq!(m.vocabulary(), 7);
        assert_eq!(m.tokens, vec![9, 3]);
        // A feature never seen with the lemma is ignored.
        let with_unknown = log_joint_scores(&train, 2, 1.0, &[LINE, GUITAR, JAZZ, JAZZ, 99]);
        assert_eq!(with_unknown, scores);
    }

    fn tok(text: &str, lemma: Option<&str>, tag: &str) -> Token {
        Token {
            text: text.into(),
            lemma: lemma.map(Into::into),
            tag: Some(tag.into()),
            pos: Pos::from_tag(tag),
            ..Token::default()
        }
    }

    fn target_tok(text: &str, lemma: &str, id: &str, gold: &[&str]) -> Token {
        Token {
            instance: Some(id.into()),
            gold: gold.iter().map(|g| g.to_string()).collect(),
            ..tok(text, Some(lemma), "NN")
        }
    }

    const BASS_FISH: &str = "bass%1:13:02::";
    const BASS_GUITAR: &str = "bass%1:06:02::";

    /// The worked example as SemCor-like documents: one sentence each,
    /// "bass" the target, the context words as nouns.
    fn bass_doc(id: &str, words: &[&str], gold: &[&str]) -> Document {
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

    fn bass_docs() -> Vec<Document> {
        vec![
            bass_doc("d1", &["line", "fish", "ocean"], &[BASS_FISH]),
            bass_doc("d2", &["jazz", "guitar", "music"], &[BASS_GUITAR]),
            bass_doc("d3", &["fish", "ocean", "water"], &[BASS_FISH]),
            bass_doc("d4", &["line", "water", "fish"], &[BASS_FISH]),
        ]
    }

    /// The notes' setting: Laplace smoothing, sentence bag only, every
    /// lemma answered.
    fn sentence_only() -> NbParams {
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

    fn sense(key: &str, number: u16) -> Sense {
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

    fn predict(m: &NaiveBayes, doc: &Document, cands: &[Sense]) -> Option<Prediction> {
        let t = &doc.targets()[0];
        m.predict(doc, t, cands, &mut Vec::new(), &mut Vec::new())
    }

    #[test]
    fn worked_example_through_training_and_prediction() {
        let docs = bass_docs();
        let done = std::cell::Cell::new(0);
        let m = NaiveBayes::train_with(&|_| true, &docs, &sentence_only(), &|d, n| {
            assert_eq!(n, 4);
            done.set(d);
        });
        assert_eq!(done.get(), 4);
        assert_eq!(m.lemma_count(), 1);
        assert_eq!(m.facts().instances, 4);
        assert_eq!(
            m.trained_senses("bass", Pos::Noun),
            vec![(BASS_FISH, 3), (BASS_GUITAR, 1)]
        );
        let d5 = bass_doc("d5", &["line", "guitar", "jazz", "jazz"], &[]);
        let cands = [
            sense(BASS_FISH, 1),
            sense(BASS_GUITAR, 2),
            sense("bass%1:10:00::", 3),
        ];
        let p = predict(&m, &d5, &cands).unwrap();
        assert_eq!(p.key, BASS_GUITAR);
        assert_eq!(p.method, "nb");
        // Log posterior over the candidates: 2.0e-4 / (2.0e-4 + 3.43e-5).
        let (f, g): (f64, f64) = (0.75 * 3.0 / 16.0 / 16.0 / 256.0, 0.25 * 0.1 * 0.2 * 0.04);
        assert!((p.score - (g / (f + g)).ln()).abs() < 1e-12, "{}", p.score);

        // Only the fish sense among the candidates: the classes are
        // restricted to them.
        let p = predict(&m, &d5, &[sense(BASS_FISH, 1), sense("bass%1:10:00::", 3)]).unwrap();
        assert_eq!(p.key, BASS_FISH);
        // No trained sense among the candidates, a single candidate, an
        // unseen lemma: abstain.
        assert!(predict(
            &m,
            &d5,
            &[sense("bass%1:10:00::", 3), sense("bass%1:05:00::", 4)]
        )
        .is_none());
        assert!(predict(&m, &d5, &[sense(BASS_GUITAR, 2)]).is_none());
        assert!(predict(
            &m,
            &d5,
            &[sense("pike%1:13:00::", 1), sense("pike%1:06:00::", 2)]
        )
        .is_none());
        // min_examples: four examples are not enough for 5.
        let mut strict = m.clone();
        strict.set_scoring(&NbParams {
            min_examples: 5,
            ..sentence_only()
        });
        assert!(predict(&strict, &d5, &cands).is_none());
    }

    #[test]
    fn unknown_gold_keys_are_skipped_and_counted_and_multi_keys_count_each() {
        let mut docs = bass_docs();
        docs[0].sentences[0].tokens[0].gold = vec!["bass%9:99:99::".into()];
        docs[1].sentences[0].tokens[0].gold = vec![BASS_GUITAR.into(), BASS_FISH.into()];
        let known = |k: &str| k != "bass%9:99:99::";
        let m = NaiveBayes::train_with(&known, &docs, &sentence_only(), &|_, _| {});
        assert_eq!(m.facts().skipped_unknown_keys, 1);
        assert_eq!(m.facts().instances, 3);
        assert_eq!(m.facts().examples, 4);
        assert_eq!(
            m.trained_senses("bass", Pos::Noun),
            vec![(BASS_GUITAR, 1), (BASS_FISH, 3)]
        );
        let first_only = NbParams {
            all_gold_keys: false,
            ..sentence_only()
        };
        let m = NaiveBayes::train_with(&known, &docs, &first_only, &|_, _| {});
        assert_eq!(m.facts().examples, 3);
        assert_eq!(
            m.trained_senses("bass", Pos::Noun),
            vec![(BASS_GUITAR, 1), (BASS_FISH, 2)]
        );
    }

    #[test]
    fn features_window_collocations_and_tags() {
        let doc = Document {
            id: "d".into(),
            sentences: vec![
                Sentence {
                    id: "s0".into(),
                    tokens: vec![
                        tok("Deep", Some("deep"), "JJ"),
                        tok("water", Some("water"), "NN"),
                    ],
                },
                Sentence {
                    id: "s1".into(),
                    tokens: vec![
                        tok("The", None, "DT"),
                        tok("fishermen", Some("fisherman"), "NNS"),
                        tok("caught", Some("catch"), "VB"),
                        target_tok("basses", "bass", "t", &[BASS_FISH]),
                        tok(",", None, "."),
                        tok("Rock_Lake", Some("location"), "NNP"),
                    ],
                },
            ],
        };
        let mut v = Vocab::with_markers();
        let mut buf = String::new();
        let mut out = Vec::new();
        let p = NbParams {
            window: 3,
            window_crosses_sentences: true,
            sentence_bag: false,
            ngrams: true,
            ..NbParams::default()
        };
        extract(&p, &doc, 1, 3, &mut v, &mut buf, &mut out);
        let show: Vec<String> = out
            .iter()
            .map(|&k| {
                let fam = family_of(k);
                let id = (k & LOW56) as usize;
                match fam {
                    FAM_WINDOW => format!("win={}", v.words[id]),
                    f if (FAM_WORD..FAM_WORD + 7).contains(&f) => {
                        format!("w{:+}={}", f as i32 - FAM_WORD as i32 - 3, v.words[id])
                    }
                    f if (FAM_TAG..FAM_TAG + 7).contains(&f) => {
                        format!("p{:+}={}", f as i32 - FAM_TAG as i32 - 3, v.words[id])
                    }
                    f => format!("ngram{}", f - FAM_NGRAM),
                }
            })
            .collect();
        assert_eq!(
            show,
            [
                // Left window crosses into the previous sentence; "The" is
                // a stop word.
                "win=catch",
                "win=fisherman",
                "win=water",
                "win=location",
                "w-2=fishermen",
                "p-2=NOUN",
                "w-1=caught",
                "p-1=VERB",
                "w+1=,",
                "p+1=.",
                "w+2=rock_lake",
                "p+2=NOUN",
                "w+0=basses",
                "ngram0",
                "ngram1",
                "ngram2",
                "ngram3",
                "ngram4",
                "ngram5",
                "ngram6",
            ]
        );
        // Beyond the sentence: boundary markers.
        let p = NbParams {
            window: 0,
            sentence_bag: true,
            ..NbParams::default()
        };
        extract(&p, &doc, 0, 0, &mut v, &mut buf, &mut out);
        let w = |k: u64| v.words[(k & LOW56) as usize].clone();
        assert_eq!(w(out[0]), "water"); // sentence bag
        assert!(out.contains(&fkey(FAM_WORD + 1, 0)), "w-2=<s>");
        assert!(out.contains(&fkey(FAM_TAG + 5, 1)), "p+2=</s>");
    }

    #[test]
    fn normalisation_and_tags() {
        let mut b = String::new();
        assert_eq!(normalize("Rock & Roll", &mut b), "rock_&_roll");
        assert_eq!(normalize("ÉTÉ", &mut b), "été");
        assert_eq!(normalize("plain", &mut b), "plain");
        let t = |tag: &str| coarse_tag(&tok("x", None, tag));
        assert_eq!(t("PRP$"), "PRON");
        assert_eq!(t("NNS"), "NOUN");
        assert_eq!(t("NOUN"), "NOUN");
        assert_eq!(t("TO"), "PRT");
        assert_eq!(t("VBD"), "VERB");
        let punc = Token {
            text: "``".into(),
            ..Token::default()
        };
        assert_eq!(coarse_tag(&punc), ".");
    }

    fn toy_model() -> NaiveBayes {
        let p = NbParams {
            min_examples: 1,
            ..NbParams::default()
        };
        let mut m = NaiveBayes::train_with(&|_| true, &bass_docs(), &p, &|_, _| {});
        m.set_split("toy");
        m
    }

    #[test]
    fn body_round_trip() {
        let m = toy_model();
        let bytes = m.to_bytes();
        let back = NaiveBayes::from_bytes(&bytes).unwrap();
        assert_eq!(back.params, m.params);
        assert_eq!(back.facts, m.facts);
        assert_eq!(back.words, m.words);
        assert_eq!(back.vocab, m.vocab);
        assert_eq!(back.models, m.models);
        assert_eq!(back.to_bytes(), bytes);
        let d5 = bass_doc("d5", &["line", "guitar", "jazz", "jazz"], &[]);
        let cands = [sense(BASS_FISH, 1), sense(BASS_GUITAR, 2)];
        let p = predict(&m, &d5, &cands);
        assert!(p.is_some());
        assert_eq!(predict(&back, &d5, &cands), p);
    }

    #[test]
    fn truncated_or_garbled_bodies_are_errors_not_panics() {
        let bytes = toy_model().to_bytes();
        for n in 0..bytes.len() {
            match NaiveBayes::from_bytes(&bytes[..n]) {
                Err(Error::Model { msg, .. }) => assert!(msg.contains("corrupted"), "{msg}"),
                other => panic!("prefix {n}: {:?}", other.map(|_| ())),
            }
        }
        let mut padded = bytes.clone();
        padded.push(0);
        assert!(NaiveBayes::from_bytes(&padded).is_err());
        // Every single-byte change: an error or a model, never a panic.
        for i in 0..bytes.len() {
            for x in [0x01u8, 0x80, 0xff] {
                let mut bad = bytes.clone();
                bad[i] ^= x;
                let _ = NaiveBayes::from_bytes(&bad);
            }
        }
        // A huge count does not allocate: it is refused.
        let mut huge = BODY_MAGIC.to_vec();
        put_var(&mut huge, u64::MAX >> 1);
        let e = NaiveBayes::from_bytes(&huge).unwrap_err().to_string();
        assert!(e.contains("exceeds the body"), "{e}");
    }

    #[test]
    fn model_files_refuse_truncation_other_methods_and_other_wordnets() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("nb.model");
        let m = toy_model();
        let h = m.save_with_checksum(&p, "sha-a").unwrap();
        assert_eq!(h.method, "nb");
        assert_eq!(h.params["training"]["split"], "toy");
        assert_eq!(h.params["training"]["documents"], 4);
        assert_eq!(h.params["params"]["alpha"], 0.5);
        assert_eq!(h.params["params"]["min_examples"], 1);
        let back = NaiveBayes::load_with_checksum(&p, "sha-a").unwrap();
        assert_eq!(back.models, m.models);

        let e = NaiveBayes::load_with_checksum(&p, "sha-b")
            .unwrap_err()
            .to_string();
        assert!(e.contains("another WordNet"), "{e}");

        let bytes = std::fs::read(&p).unwrap();
        std::fs::write(&p, &bytes[..bytes.len() / 2]).unwrap();
        let e = NaiveBayes::load_with_checksum(&p, "sha-a")
            .unwrap_err()
            .to_string();
        assert!(e.contains("truncated"), "{e}");

        let mut bad = bytes.clone();
        let n = bad.len();
        bad[n - 5] ^= 0x55;
        std::fs::write(&p, &bad).unwrap();
        let e = NaiveBayes::load_with_checksum(&p, "sha-a")
            .unwrap_err()
            .to_string();
        assert!(e.contains("corrupted"), "{e}");

        let knn = d.path().join("knn.model");
        model_io::write_model(&knn, "knn", "sha-a", serde_json::json!({}), b"vectors").unwrap();
        let e = NaiveBayes::load_with_checksum(&knn, "sha-a")
            .unwrap_err()
            .to_string();
        assert!(e.contains("`knn` model, not a `nb` model"), "{e}");

        // A file with a valid container but a body that is not NB's.
        let odd = d.path().join("odd.model");
        model_io::write_model(&odd, "nb", "sha-a", serde_json::json!({}), b"garbage").unwrap();
        let e = NaiveBayes::load_with_checksum(&odd, "sha-a").unwrap_err();
        assert!(
            matches!(&e, Error::Model { path, .. } if path == &odd),
            "{e}"
        );
    }

    /// The child process of the kill test: save a large model over and
    /// over (for at most 20 s) to the path in `WSD_NB_SAVE_LOOP`.
    #[test]
    #[ignore = "child process of killing_a_save_half_way_leaves_the_old_model_intact"]
    fn save_loop_child() {
        let Ok(path) = std::env::var("WSD_NB_SAVE_LOOP") else {
            return;
        };
        let mut m = big_model();
        m.set_split("new");
        println!("ready");
        use std::io::Write;
        std::io::stdout().flush().unwrap();
        let start = std::time::Instant::now();
        while start.elapsed().as_secs() < 20 {
            m.save_with_checksum(Path::new(&path), "sha").unwrap();
        }
    }

    /// A model of a few MB: many lemmas with many features.
    fn big_model() -> NaiveBayes {
        let mut docs = Vec::new();
        for d in 0..200 {
            let mut tokens = Vec::new();
            for i in 0..300 {
                let w = format!("w{}", (i * 7919 + d * 104729) % 20011);
                tokens.push(tok(&w, Some(&w), "NN"));
            }
            for t in (0..300).step_by(3) {
                let lemma = format!("l{}", (t + d) % 97);
                tokens[t] = target_tok(
                    &lemma,
                    &lemma,
                    &format!("{d}.{t}"),
                    &[&format!("{lemma}%1:0{}:00::", (t / 3 + d) % 3)],
                );
            }
            docs.push(Document {
                id: d.to_string(),
                sentences: vec![Sentence {
                    id: "s".into(),
                    tokens,
                }],
            });
        }
        let p = NbParams {
            window: 20,
            ..NbParams::default()
        };
        NaiveBayes::train_with(&|_| true, &docs, &p, &|_, _| {})
    }

    #[test]
    fn killing_a_save_half_way_leaves_the_old_model_intact() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("nb.model");
        let old = toy_model();
        old.save_with_checksum(&p, "sha").unwrap();

        // An interrupted write as a crash leaves it: a temporary file with
        // half a model next to the target, never renamed.
        let new_bytes = {
            let q = d.path().join("full.model");
            big_model().save_with_checksum(&q, "sha").unwrap();
            let b = std::fs::read(&q).unwrap();
            std::fs::remove_file(&q).unwrap();
            b
        };
        let tmp = tempfile::Builder::new()
            .prefix(".wsd-")
            .suffix(".tmp")
            .tempfile_in(d.path())
            .unwrap();
        std::fs::write(tmp.path(), &new_bytes[..new_bytes.len() / 2]).unwrap();
        let (_f, _kept) = tmp.keep().unwrap();
        let back = NaiveBayes::load_with_checksum(&p, "sha").unwrap();
        assert_eq!(back.facts().split.as_deref(), Some("toy"));

        // A real kill: a child process saving a large model in a loop is
        // killed (SIGKILL) at several moments after it starts writing; the
        // model file must always load, as the old model or a complete new
        // one.
        let exe = std::env::current_exe().unwrap();
        let mut saw_new = false;
        for delay_ms in [0u64, 1, 2, 4, 8, 16, 32] {
            old.save_with_checksum(&p, "sha").unwrap();
            let mut child = std::process::Command::new(&exe)
                .args([
                    "--exact",
                    "disambig::naive_bayes::tests::save_loop_child",
                    "--ignored",
                    "--nocapture",
                    "--test-threads=1",
                ])
                .env("WSD_NB_SAVE_LOOP", &p)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
            let mut line = String::new();
            while {
                line.clear();
                std::io::BufRead::read_line(&mut out, &mut line).unwrap() > 0
            } {
                // libtest prints "test … ... " before the child's output.
                if line.trim_end().ends_with("ready") {
                    break;
                }
            }
            assert!(
                line.trim_end().ends_with("ready"),
                "the child did not start"
            );
            std::thread::sleep(std::time::Duration::from_millis(delay_ms));
            child.kill().unwrap();
            child.wait().unwrap();
            let m = NaiveBayes::load_with_checksum(&p, "sha")
                .unwrap_or_else(|e| panic!("after a kill at {delay_ms} ms: {e}"));
            match m.facts().split.as_deref() {
                Some("toy") => {}
                Some("new") => saw_new = true,
                other => panic!("unexpected model {other:?}"),
            }
        }
        // Which model survived, and whether kills hit a write half-way
        // (a temporary file left behind), depends on timing; say so.
        let leftovers = std::fs::read_dir(d.path())
            .unwrap()
            .filter(|e| {
                let n = e.as_ref().unwrap().file_name();
                n.to_string_lossy().ends_with(".tmp")
            })
            .count();
        eprintln!("kill test: new model seen: {saw_new}; temporary files left by kills: {leftovers} (1 made by the test)");
    }
}
