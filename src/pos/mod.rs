//! Part-of-speech tagging: a greedy averaged-perceptron tagger.
//!
//! [`PosTagger`] is the tagger of Collins (2002) as popularised by Matthew
//! Honnibal's "A good part-of-speech tagger in about 200 lines of Python":
//!
//! * **Features** (all hashed to `u64`, see `features.rs`): a bias; the
//!   word's 3-character suffix and first character; the lower-cased word;
//!   the previous tag, the tag before it, and both together; previous tag
//!   × word; the words at −2, −1, +1, +2 and the suffixes of the words at
//!   −1 and +1. Optional templates (all on in the default model, chosen on
//!   held-out training documents): word shape (`Xx`, `d.d` …), suffixes of
//!   length 1, 2, 4 and a 2-character prefix, capitalisation × sentence
//!   start, previous tag × next word and word × next word, previous word
//!   × word and previous tag × suffix, and Honnibal's word classes
//!   (`!HYPHEN`, `!YEAR`, `!DIGITS`) in place of hyphenated words and
//!   numbers.
//! * **WordNet lexicon** (when trained with [`PosTagger::train_with_inventory`]):
//!   the set of categories WordNet allows for the word — as a lemma or
//!   listed exception form, or only through morphy's suffix rules (see
//!   [`Lexicon`]) — alone, with the previous tag, with the suffix and with
//!   the previous word, and the sets of the neighbouring words. The
//!   lexicon is stored in the model, so [`PosTagger::tag`] needs nothing
//!   else.
//! * **Decoding** is greedy, left to right; the two previous *predicted*
//!   tags feed the next prediction (during training too). A beam decoder
//!   ([`Decoder::Beam`], over raw scores or log-probabilities) is there
//!   for experiments: on held-out training documents it was no better
//!   (see `semcor_eval.rs`), so greedy is the default. The decoder is not
//!   stored in the model, so any model decodes either way.
//! * **Probabilities**: [`PosTagger::tag_with_probabilities`] gives each
//!   word a soft-max distribution over the tags, for callers that weigh
//!   readings (`--pos-alternatives`, see [`crate::pipeline`]);
//!   [`PosTagger::tag_with_category_probabilities`] sums them per WordNet
//!   category for the instance-level category model ([`category`]).
//! * **Targets' categories**: what WSD needs is the category of the words
//!   annotators sense-tag, which follows the sense chosen; [`category`]
//!   revises the tagger's category of such words (learned on SemCor's
//!   gold instances, not on its tokens).
//! * A **tag dictionary** short-circuits frequent unambiguous words (seen
//!   ≥ 10 times in training with one tag ≥ 99 % of the time): they are
//!   tagged by lookup and not trained on.
//! * **Averaging** (training in `train.rs`): the model keeps the average
//!   of each weight over all training updates (lazily, with timestamps),
//!   which generalises much better than the final weights.
//! * Training visits the sentences in a fresh deterministic shuffle each
//!   iteration (SplitMix64 seeded with `seed`), so a given corpus, iteration
//!   count and seed always give the same model, byte for byte.
//!
//! # Tag set
//!
//! Whatever the training data uses. For SemCor that is the Penn tags of its
//! `pos=` attributes (SemCor quirk: sense-tagged verbs are mostly plain `VB`
//! whatever their inflection) and, for untagged `<punc>` tokens, the
//! punctuation itself (`,`, `.`, ` `` `, `''`, `(`, `:` …), as the Penn
//! Treebank does for most punctuation.
//!
//! # Multiword tokens
//!
//! SemCor joins multiword expressions with `_` (`took_place`,
//! `Fulton_County_Grand_Jury`), but plain text arrives as separate words.
//! [`PosTagger::train`] therefore **splits every `_`-joined token into its
//! words** and trains on the words text will contain, in context. Only the
//! multiword's *head* is supervised with the multiword's tag — the first
//! word when that tag is a verb or modal tag (`took_place`/VB → `took`),
//! otherwise the last word (`primary_election`/NN → `election`,
//! `Fulton_County_Grand_Jury`/NNP → `Jury`); the other words are tagged by
//! the model in passing but never trained on, since their own tags are
//! unknown (`place` is not a VB, `at` and `the` in `at_the_time`/RB are not
//! adverbs). On held-out SemCor training documents this beat giving every
//! word the multiword's tag (see `semcor_eval.rs`).
//!
//! [`PosTagger::tag`] accepts `_`-joined tokens too: it tags their words in
//! context and gives the multiword the tag of its first word when that is a
//! verb or modal, otherwise the tag of its last word — the same head rule.
//!
//! # Plain-text input
//!
//! Words from [`crate::text::tokenize()`] can be tagged as they are: curly
//! quotes and apostrophes, straight double quotes (read as alternately
//! opening ` `` ` and closing `''`) and the Penn pieces `ca n't` / `wo
//! n't` are mapped onto SemCor's forms before feature extraction. The tags
//! returned are always tags of the training tag set.
//!
//! # Accuracy
//!
//! Trained on the project's SemCor train split (10 passes, with WordNet's
//! lexicon) and scored on its test split: 92.7 % Penn tags, 96.6 %
//! WordNet categories (n/v/a/r/other; 92.0 / 95.95 without the lexicon
//! and the newer templates); ~11 MB model; about 200 000 words per second.
//! SemCor mixes two tagging regimes (coarse `NN`/`VB` on sense-tagged words
//! in brown1/brown2, fine Penn tags in brownv), which caps both figures;
//! details and the command to reproduce them are in `semcor_eval.rs`.
//!
//! # Serialisation
//!
//! [`PosTagger::to_bytes`] / [`PosTagger::from_bytes`] write and read a
//! body in the model codec of [`crate::model_io`] (postcard behind a type
//! tag, see `io.rs`) sealed with its own checksum, so truncated or garbled
//! input is an error, never a panic. The versioned model-file wrapper lives
//! in [`crate::model_io`] too.

pub mod category;
mod closed;
mod features;
mod io;
mod jackknife;
mod lexicon;
pub mod probe;
mod rows;
#[cfg(test)]
mod semcor_eval;
mod train;

use std::collections::HashMap;
use std::ops::Range;

use rustc_hash::FxHashMap;

pub use closed::ClosedClass;
use features::{flags, mix64, Context, IdBuild, START, START2};
pub use jackknife::{DocTagger, Jackknife};
pub use lexicon::Lexicon;
pub use train::Pass;

/// The number of training passes the project uses (chosen on held-out
/// SemCor *training* documents, see `semcor_eval.rs`).
pub const DEFAULT_ITERATIONS: usize = 10;

/// Words seen at least this often …
const TAGDICT_MIN_FREQ: u32 = 10;
/// … with one tag at least this share of the time go in the tag dictionary.
const TAGDICT_MIN_SHARE: f64 = 0.99;
/// Averaged weights smaller than this (in absolute value) are dropped.
const PRUNE_BELOW: f64 = 1e-4;
/// The default set of optional feature templates.
const DEFAULT_FLAGS: u32 = flags::SHAPE
    | flags::AFFIXES
    | flags::CLASS_NORM
    | flags::CAP_INITIAL
    | flags::BIGRAMS
    | flags::CONTEXT2;

/// A trained averaged-perceptron POS tagger (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct PosTagger {
    /// Tag names; tag ids index this.
    tags: Vec<String>,
    /// Optional feature templates (`features::flags`).
    flags: u32,
    /// Frequent unambiguous words (surface form) → tag id.
    tagdict: FxHashMap<String, u16>,
    /// WordNet's categories per word (empty for a tagger trained without).
    lexicon: Lexicon,
    /// The closed-class tags each word was seen with (empty for an older
    /// model: no constraint).
    closed: ClosedClass,
    /// Feature hash → its row, `entries[start..end]` (one lookup per
    /// feature when tagging).
    index: rows::FeatureRows,
    /// (tag id, averaged weight), grouped by row.
    entries: Vec<(u16, f32)>,
    /// How `tag` decodes (not part of the model).
    decoder: Decoder,
}

impl PosTagger {
    /// Is `word` (as written, case kept) one of the frequent words the
    /// tagger tags from its dictionary? Lower-case text's recasing
    /// ([`crate::pipeline::truecase`]) leaves such a word as it is.
    pub fn is_frequent_word(&self, word: &str) -> bool {
        self.tagdict.contains_key(word)
    }
}

/// How [`PosTagger::tag`] chooses a sentence's tags from the perceptron's
/// scores. Not stored in the model: any model decodes either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decoder {
    /// Left to right, each word's best tag given the two chosen before.
    Greedy,
    /// Beam search over the sentence (see `PosTagger::tag_ids_beam`).
    Beam {
        /// Hypotheses kept at each word.
        width: usize,
        /// Sum log-probabilities (a soft-max of each word's scores)
        /// rather than raw scores.
        softmax: bool,
    },
}

/// The decoder of a trained or loaded tagger.
pub const DEFAULT_DECODER: Decoder = Decoder::Greedy;

/// Training knobs beyond the public `train` arguments (used by the tuning
/// experiments; `train` uses the defaults).
#[derive(Clone, Copy, Debug)]
pub(crate) struct TrainOptions {
    pub iterations: usize,
    pub seed: u64,
    pub flags: u32,
    /// Supervise only the head word of a multiword (see the module docs);
    /// otherwise every word of it gets the multiword's tag.
    pub heads_only: bool,
    /// Train on coarse tags: the inflection tags of nouns, verbs,
    /// adjectives and adverbs folded onto `NN`, `VB`, `JJ`, `RB` (the
    /// brown1/brown2 style), `NNPS` onto `NNP`.
    pub coarse: bool,
    /// Tag-dictionary thresholds: minimum count, minimum share.
    pub tagdict: (u32, f64),
}

/// The coarse tag of a Penn tag (see [`TrainOptions::coarse`]).
pub(crate) fn coarse_tag(t: &str) -> &str {
    match t {
        "NNS" => "NN",
        "NNPS" => "NNP",
        "VBD" | "VBZ" | "VBP" | "VBN" | "VBG" => "VB",
        "JJR" | "JJS" => "JJ",
        "RBR" | "RBS" => "RB",
        _ => t,
    }
}

fn argmax<T: PartialOrd + Copy>(scores: &[T]) -> u16 {
    let mut best = 0;
    for (i, &s) in scores.iter().enumerate() {
        if s > scores[best] {
            best = i;
        }
    }
    best as u16
}

/// Split `_`-joined multiword tokens into their words (see the module
/// docs); a token made only of `_` stays whole. Returns the words and, for
/// each input token, the range of words it became.
fn expand<'a>(words: impl IntoIterator<Item = &'a str>) -> (Vec<&'a str>, Vec<Range<usize>>) {
    let mut out = Vec::new();
    let mut spans = Vec::new();
    for w in words {
        let start = out.len();
        if w.contains('_') {
            out.extend(w.split('_').filter(|p| !p.is_empty()));
        }
        if out.len() == start {
            out.push(w);
        }
        spans.push(start..out.len());
    }
    (out, spans)
}

/// Is this tag a verb or modal tag (Penn `VB*`, `MD`)?
fn is_verbal(tag: &str) -> bool {
    tag.starts_with("VB") || tag == "MD"
}

impl PosTagger {
    /// The tag set, in tag-id order.
    pub fn tagset(&self) -> &[String] {
        &self.tags
    }

    /// Number of stored (feature, tag) weights.
    pub fn num_weights(&self) -> usize {
        self.entries.len()
    }

    /// The decoder [`PosTagger::tag`] uses (see [`Decoder`]).
    pub fn decoder(&self) -> Decoder {
        self.decoder
    }

    /// Decode with `decoder` from now on (the model is unchanged: the
    /// decoder is not stored in it).
    pub fn set_decoder(&mut self, decoder: Decoder) {
        self.decoder = decoder;
    }

    /// The perceptron's score of every tag, into `scores`, from `feats`
    /// (added to what `scores` holds).
    fn add_scores(&self, feats: &[u64], scores: &mut [f32]) {
        self.index.add_scores(feats, &self.entries, scores);
    }

    /// The best tag of `word` by `scores`; for a word WordNet has, a
    /// closed-class tag only if training saw the word with it (see
    /// [`ClosedClass`]; the scores of the tags it forbids become minus
    /// infinity when the best is one).
    fn best_allowed(&self, word: &str, scores: &mut [f32]) -> u16 {
        let best = argmax(scores);
        if !self.closed.forbids(word, best) || self.lexicon.bits(word) == 0 {
            return best;
        }
        self.closed.mask(word, scores);
        argmax(scores)
    }

    /// Tag ids for the words of one sentence (no multiword handling).
    fn tag_ids(&self, ctx: &Context) -> Vec<u16> {
        match self.decoder {
            Decoder::Greedy => self.tag_ids_greedy(ctx),
            Decoder::Beam { width, softmax } => self.tag_ids_beam(ctx, width.max(1), softmax),
        }
    }

    /// Beam search over whole-sentence tag sequences: a hypothesis is
    /// scored by the sum, over its words, of each tag's perceptron score
    /// (or of its log-probability under a soft-max of the scores, with
    /// `softmax`) given the hypothesis' own previous two tags;
    /// hypotheses with the same last two tags are merged (they score the
    /// rest of the sentence alike), the best `width` kept at each word.
    /// Tag-dictionary words take their tag in every hypothesis.
    fn tag_ids_beam(&self, ctx: &Context, width: usize, softmax: bool) -> Vec<u16> {
        let n_tags = self.tags.len();
        if n_tags == 0 || ctx.len() == 0 {
            return Vec::new();
        }
        // (score, prev, prev2, index of the last step in `steps`)
        let mut beam: Vec<(f64, u16, u16, u32)> = vec![(0.0, START, START2, u32::MAX)];
        // (tag, parent step)
        let mut steps: Vec<(u16, u32)> = Vec::with_capacity(ctx.len() * width);
        let mut base = vec![0f32; n_tags];
        let mut scores = vec![0f32; n_tags];
        let mut feats = Vec::new();
        let mut next: Vec<(f64, u16, u16, u32, u16)> = Vec::with_capacity(width * width);
        for i in 0..ctx.len() {
            next.clear();
            if let Some(&t) = self.tagdict.get(&ctx.raw[i]) {
                for &(sc, prev, _, last) in &beam {
                    next.push((sc, t, prev, last, t));
                }
            } else {
                feats.clear();
                ctx.static_features(i, self.flags, &mut feats);
                base.iter_mut().for_each(|s| *s = 0.0);
                self.add_scores(&feats, &mut base);
                if self.lexicon.bits(&ctx.raw[i]) != 0 {
                    self.closed.mask(&ctx.raw[i], &mut base);
                }
                for &(sc, prev, prev2, last) in &beam {
                    feats.clear();
                    ctx.tag_features(i, prev, prev2, self.flags, &mut feats);
                    scores.copy_from_slice(&base);
                    self.add_scores(&feats, &mut scores);
                    let norm = if softmax {
                        let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                        let z: f64 = scores.iter().map(|&s| f64::from(s - max).exp()).sum();
                        f64::from(max) + z.ln()
                    } else {
                        0.0
                    };
                    // The best `width` tags of this hypothesis.
                    let mut best: Vec<u16> = Vec::with_capacity(width + 1);
                    for t in 0..n_tags as u16 {
                        let s = scores[usize::from(t)];
                        let k = best.partition_point(|&b| scores[usize::from(b)] >= s);
                        if k < width {
                            best.insert(k, t);
                            best.truncate(width);
                        }
                    }
                    for t in best {
                        let s = f64::from(scores[usize::from(t)]) - norm;
                        next.push((sc + s, t, prev, last, t));
                    }
                }
            }
            // Best first; merge hypotheses with the same last two tags.
            next.sort_by(|a, b| b.0.total_cmp(&a.0));
            beam.clear();
            for &(sc, prev, prev2, last, t) in &next {
                if beam.len() == width {
                    break;
                }
                if beam.iter().any(|&(_, p, p2, _)| (p, p2) == (prev, prev2)) {
                    continue;
                }
                steps.push((t, last));
                beam.push((sc, prev, prev2, (steps.len() - 1) as u32));
            }
        }
        let mut out = vec![0u16; ctx.len()];
        let mut at = beam[0].3;
        for slot in out.iter_mut().rev() {
            let (t, parent) = steps[at as usize];
            *slot = t;
            at = parent;
        }
        out
    }

    /// Greedy decoding, left to right, each word's best tag given the
    /// previous two chosen.
    fn tag_ids_greedy(&self, ctx: &Context) -> Vec<u16> {
        let mut out = Vec::with_capacity(ctx.len());
        if self.tags.is_empty() {
            return out;
        }
        let mut scores = vec![0f32; self.tags.len()];
        let mut feats = Vec::new();
        let (mut prev, mut prev2) = (START, START2);
        for i in 0..ctx.len() {
            let guess = match self.tagdict.get(&ctx.raw[i]) {
                Some(&t) => t,
                None => {
                    ctx.features(i, prev, prev2, self.flags, &mut feats);
                    scores.iter_mut().for_each(|s| *s = 0.0);
                    self.add_scores(&feats, &mut scores);
                    self.best_allowed(&ctx.raw[i], &mut scores)
                }
            };
            out.push(guess);
            prev2 = prev;
            prev = guess;
        }
        out
    }

    /// Tag the words of one sentence: one tag per word, greedy left to
    /// right. Words may be `_`-joined multiwords (see the module docs).
    /// An untrained tagger (no tags) returns an empty vector.
    pub fn tag<S: AsRef<str>>(&self, words: &[S]) -> Vec<String> {
        if self.tags.is_empty() {
            return Vec::new();
        }
        let (pieces, spans) = expand(words.iter().map(AsRef::as_ref));
        let ids = self.tag_ids(&Context::new(&pieces, self.flags, &self.lexicon));
        spans
            .into_iter()
            .map(|span| {
                let first = &self.tags[usize::from(ids[span.start])];
                if span.len() == 1 || is_verbal(first) {
                    first.clone()
                } else {
                    self.tags[usize::from(ids[span.end - 1])].clone()
                }
            })
            .collect()
    }

    /// [`PosTagger::tag`] (greedy decoding, whatever the decoder) with,
    /// for each word, the probability of every tag: a soft-max of the
    /// perceptron's scores at `temperature`, given the tags chosen before
    /// (a tag-dictionary word has its tag with probability 1). A
    /// multiword's probabilities are its head word's. The distributions
    /// are in tag-id order ([`PosTagger::tagset`]).
    pub fn tag_with_probabilities<S: AsRef<str>>(
        &self,
        words: &[S],
        temperature: f32,
    ) -> (Vec<String>, Vec<Vec<f32>>) {
        self.tag_with_distributions(words, temperature, None, <[f32]>::to_vec)
    }

    /// [`PosTagger::tag_with_probabilities`] summed per WordNet category
    /// (n, v, a, r by [`crate::wordnet::Pos::index`]; tags of no category
    /// count for none), without a distribution per word.
    pub fn tag_with_category_probabilities<S: AsRef<str>>(
        &self,
        words: &[S],
        temperature: f32,
        want: &[bool],
    ) -> (Vec<String>, Vec<[f32; 4]>) {
        let cats: Vec<Option<usize>> = self
            .tags
            .iter()
            .map(|t| crate::wordnet::Pos::from_tag(t).map(crate::wordnet::Pos::index))
            .collect();
        self.tag_with_distributions(words, temperature, Some(want), |dist| {
            let mut out = [0f32; 4];
            for (c, &p) in cats.iter().zip(dist) {
                if let Some(c) = c {
                    out[*c] += p;
                }
            }
            out
        })
    }

    /// Greedy tagging with each word's tag distribution (see
    /// [`PosTagger::tag_with_probabilities`]) passed through `keep`.
    /// With `want` (one flag per word), only the flagged words get theirs
    /// (the soft-max is most of the cost past the scores); the others get
    /// `T::default()`. The tags are the same either way.
    fn tag_with_distributions<S: AsRef<str>, T: Default>(
        &self,
        words: &[S],
        temperature: f32,
        want: Option<&[bool]>,
        keep: impl Fn(&[f32]) -> T,
    ) -> (Vec<String>, Vec<T>) {
        if self.tags.is_empty() {
            return (Vec::new(), Vec::new());
        }
        let (pieces, spans) = expand(words.iter().map(AsRef::as_ref));
        let mut piece_wanted = vec![want.is_none(); pieces.len()];
        if let Some(want) = want {
            for (span, &w) in spans.iter().zip(want) {
                piece_wanted[span.clone()].iter_mut().for_each(|x| *x = w);
            }
        }
        let ctx = Context::new(&pieces, self.flags, &self.lexicon);
        let n = self.tags.len();
        let mut ids = Vec::with_capacity(ctx.len());
        let mut dists = Vec::with_capacity(ctx.len());
        let mut scores = vec![0f32; n];
        let mut feats = Vec::new();
        let (mut prev, mut prev2) = (START, START2);
        let t = temperature.max(1e-3);
        let mut dist = vec![0f32; n];
        for (i, &wanted) in piece_wanted.iter().enumerate() {
            let guess = match self.tagdict.get(&ctx.raw[i]) {
                Some(&g) => {
                    if wanted {
                        dist.iter_mut().for_each(|d| *d = 0.0);
                        dist[usize::from(g)] = 1.0;
                    }
                    g
                }
                None => {
                    ctx.features(i, prev, prev2, self.flags, &mut feats);
                    scores.iter_mut().for_each(|s| *s = 0.0);
                    self.add_scores(&feats, &mut scores);
                    let g = self.best_allowed(&ctx.raw[i], &mut scores);
                    if wanted {
                        let max = scores[usize::from(g)];
                        let mut z = 0f32;
                        for (d, &s) in dist.iter_mut().zip(&scores) {
                            *d = ((s - max) / t).exp();
                            z += *d;
                        }
                        dist.iter_mut().for_each(|d| *d /= z);
                    }
                    g
                }
            };
            ids.push(guess);
            dists.push(wanted.then(|| keep(&dist)));
            prev2 = prev;
            prev = guess;
        }
        let mut tags = Vec::with_capacity(spans.len());
        let mut out = Vec::with_capacity(spans.len());
        for span in spans {
            let first = &self.tags[usize::from(ids[span.start])];
            let k = if span.len() == 1 || is_verbal(first) {
                span.start
            } else {
                span.end - 1
            };
            tags.push(self.tags[usize::from(ids[k])].clone());
            // Spans are disjoint: each piece's distribution is taken once.
            out.push(dists[k].take().unwrap_or_default());
        }
        (tags, out)
    }

    /// Serialise the model body (see `io.rs` for the layout).
    pub fn to_bytes(&self) -> Vec<u8> {
        io::write(self)
    }

    /// Read a model body written by [`PosTagger::to_bytes`]. Truncated,
    /// garbled or foreign bytes give [`crate::Error::Model`], never a panic.
    pub fn from_bytes(bytes: &[u8]) -> crate::Result<PosTagger> {
        io::read(bytes)
    }
}

/// The `(word, tag)` training sentences of a SemCor document: each token's
/// Penn tag, punctuation tagged with itself (as the Penn Treebank does);
/// multiword tokens stay `_`-joined (training splits them, see the module docs).
pub fn tagged_sentences(doc: &crate::corpus::Document) -> Vec<Vec<(String, String)>> {
    doc.sentences
        .iter()
        .map(|s| {
            s.tokens
                .iter()
                .map(|t| {
                    (
                        t.text.clone(),
                        t.tag.clone().unwrap_or_else(|| t.text.clone()),
                    )
                })
                .collect()
        })
        .filter(|s: &Vec<(String, String)>| !s.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::train::SplitMix64;

    use super::*;

    fn sent(s: &str) -> Vec<(String, String)> {
        s.split_whitespace()
            .map(|wt| {
                let (w, t) = wt.rsplit_once('/').expect("word/TAG");
                (w.to_string(), t.to_string())
            })
            .collect()
    }

    /// A toy language: determiners, nouns, verbs, adjectives, with nouns
    /// and verbs sharing words so context matters.
    fn toy_corpus() -> Vec<Vec<(String, String)>> {
        let mut out = Vec::new();
        let dets = ["the", "a", "every"];
        let nouns = ["dog", "cat", "walk", "run", "bird"];
        let verbs = ["sees", "likes", "walk", "run", "chases"];
        let adjs = ["big", "small", "red"];
        let mut rng = SplitMix64(7);
        for _ in 0..400 {
            let mut pick = |xs: &[&'static str]| xs[(rng.next_u64() % xs.len() as u64) as usize];
            let (d1, a, n1, v, d2, n2) = (
                pick(&dets),
                pick(&adjs),
                pick(&nouns),
                pick(&verbs),
                pick(&dets),
                pick(&nouns),
            );
            out.push(sent(&format!(
                "{d1}/DT {a}/JJ {n1}/NN {v}/VB {d2}/DT {n2}/NN ./."
            )));
        }
        out
    }

    #[test]
    fn learns_toy_tagset() {
        let tagger = PosTagger::train(&toy_corpus(), 5, 1);
        assert_eq!(tagger.tagset(), [".", "DT", "JJ", "NN", "VB"]);
        assert_eq!(
            tagger.tag(&["the", "big", "walk", "run", "a", "run", "."]),
            ["DT", "JJ", "NN", "VB", "DT", "NN", "."]
        );
        assert_eq!(
            tagger.tag(&["every", "red", "run", "walk", "the", "walk", "."]),
            ["DT", "JJ", "NN", "VB", "DT", "NN", "."]
        );
        // Unknown words get a tag from the set; owned strings work too.
        let owned = vec!["the".to_string(), "zebra".to_string()];
        assert_eq!(tagger.tag(&owned).len(), 2);
        assert!(tagger.tag::<&str>(&[]).is_empty());
    }

    #[test]
    fn beam_decoding_and_probabilities() {
        let mut tagger = PosTagger::train(&toy_corpus(), 5, 1);
        let words = ["every", "red", "run", "walk", "the", "walk", "."];
        let greedy = tagger.tag(&words);
        // Log-probability beams of any width agree with greedy decoding
        // on this unambiguous toy language; so does a raw-score beam.
        for decoder in [
            Decoder::Beam {
                width: 1,
                softmax: false,
            },
            Decoder::Beam {
                width: 3,
                softmax: true,
            },
            Decoder::Beam {
                width: 5,
                softmax: false,
            },
        ] {
            tagger.set_decoder(decoder);
            assert_eq!(tagger.tag(&words), greedy, "{decoder:?}");
            assert!(tagger.tag::<&str>(&[]).is_empty());
        }
        tagger.set_decoder(Decoder::Greedy);
        let (tags, dists) = tagger.tag_with_probabilities(&words, 1.0);
        assert_eq!(tags, greedy);
        assert_eq!(dists.len(), words.len());
        for (d, t) in dists.iter().zip(&tags) {
            assert!((d.iter().sum::<f32>() - 1.0).abs() < 1e-4, "{d:?}");
            let best = argmax(d);
            assert_eq!(&tagger.tagset()[usize::from(best)], t);
        }
        // Category probabilities for some words only: the same tags, the
        // same probabilities for the words asked, nothing for the others.
        let all = vec![true; words.len()];
        let some: Vec<bool> = (0..words.len()).map(|i| i % 2 == 0).collect();
        let (tags_all, cats_all) = tagger.tag_with_category_probabilities(&words, 1.0, &all);
        let (tags_some, cats_some) = tagger.tag_with_category_probabilities(&words, 1.0, &some);
        assert_eq!(tags_all, greedy);
        assert_eq!(tags_some, greedy);
        for i in 0..words.len() {
            if some[i] {
                assert_eq!(cats_some[i], cats_all[i]);
            } else {
                assert_eq!(cats_some[i], [0f32; 4]);
            }
        }
        assert!(cats_all.iter().any(|c| c.iter().sum::<f32>() > 0.5));
        // A higher temperature flattens the distribution.
        let (_, hot) = tagger.tag_with_probabilities(&words, 50.0);
        let top = |d: &[f32]| d.iter().copied().fold(0f32, f32::max);
        assert!(top(&hot[2]) < top(&dists[2]));
        // The decoder is not part of the model.
        tagger.set_decoder(Decoder::Beam {
            width: 3,
            softmax: true,
        });
        let back = PosTagger::from_bytes(&tagger.to_bytes()).unwrap();
        assert_eq!(back.decoder(), DEFAULT_DECODER);
    }

    #[test]
    fn training_is_deterministic() {
        let a = PosTagger::train(&toy_corpus(), 3, 9);
        let b = PosTagger::train(&toy_corpus(), 3, 9);
        assert_eq!(a.to_bytes(), b.to_bytes());
    }

    #[test]
    fn multiwords_are_split_for_training_and_tagging() {
        let mut corpus = Vec::new();
        for _ in 0..30 {
            corpus.push(sent("it/PRP took_place/VB in/IN New_York_City/NNP ./."));
            corpus.push(sent("the/DT primary_election/NN took/VB place/NN ./."));
        }
        let tagger = PosTagger::train(&corpus, 5, 3);
        assert_eq!(
            tagger.tag(&["it", "took_place", "in", "New_York_City", "."]),
            ["PRP", "VB", "IN", "NNP", "."]
        );
        assert_eq!(
            tagger
                .tag(&["it", "took", "place", "in", "New", "York"])
                .len(),
            6
        );
        assert_eq!(tagger.tag(&["_", "__", "a__b"]).len(), 3);
    }

    #[test]
    fn expand_words() {
        let (w, s) = expand(["a_b", "c", "_", "d__e_"]);
        assert_eq!(w, ["a", "b", "c", "_", "d", "e"]);
        assert_eq!(s, [0..2, 2..3, 3..4, 4..6]);
    }

    #[test]
    fn empty_training_data() {
        let t = PosTagger::train(&[], 3, 0);
        assert!(t.tag(&["x"]).is_empty());
        let back = PosTagger::from_bytes(&t.to_bytes()).unwrap();
        assert_eq!(back, t);
    }

    #[test]
    fn bytes_round_trip() {
        let tagger = PosTagger::train(&toy_corpus(), 4, 2);
        let bytes = tagger.to_bytes();
        let back = PosTagger::from_bytes(&bytes).unwrap();
        assert_eq!(back, tagger);
        let words = ["a", "small", "bird", "chases", "every", "cat", "."];
        assert_eq!(back.tag(&words), tagger.tag(&words));
    }

    fn toy_lexicon() -> Lexicon {
        let mut lex = Lexicon::default();
        for (w, bits) in [
            ("dog", 1),
            ("cat", 1),
            ("bird", 1),
            ("zebra", 1),
            ("walk", 3),
            ("run", 3),
            ("see", 2),
            ("like", 2),
            ("chase", 2),
            ("big", 4),
            ("small", 4),
            ("red", 5),
        ] {
            lex.map.insert(w.to_string(), bits);
        }
        lex
    }

    #[test]
    fn lexicon_tagger_round_trips_and_tags() {
        let tagger = PosTagger::train_with_lexicon(&toy_corpus(), 5, 1, toy_lexicon());
        assert_ne!(tagger.flags & flags::LEXICON, 0);
        assert_eq!(
            tagger.tag(&["the", "big", "walk", "run", "a", "run", "."]),
            ["DT", "JJ", "NN", "VB", "DT", "NN", "."]
        );
        let back = PosTagger::from_bytes(&tagger.to_bytes()).unwrap();
        assert_eq!(back, tagger);
        let words = ["a", "small", "zebra", "chases", "every", "cat", "."];
        assert_eq!(back.tag(&words), tagger.tag(&words));
        let again = PosTagger::train_with_lexicon(&toy_corpus(), 5, 1, toy_lexicon());
        assert_eq!(again.to_bytes(), tagger.to_bytes());
        // An empty lexicon turns the lexicon features off.
        let plain = PosTagger::train_with_lexicon(&toy_corpus(), 2, 1, Lexicon::default());
        assert_eq!(plain.flags & flags::LEXICON, 0);
    }

    #[test]
    fn old_model_versions_are_refused() {
        // A body of the previous version (before the lexicon), correctly
        // sealed: refused by its tag, with the fix.
        let bytes = PosTagger::train(&toy_corpus(), 1, 1).to_bytes();
        let mut old = bytes[..bytes.len() - 8].to_vec();
        old[..8].copy_from_slice(b"WSDPOS02");
        let err = PosTagger::from_bytes(&crate::model_io::seal(old))
            .unwrap_err()
            .to_string();
        assert!(err.contains("WSDPOS02") && err.contains("retrain"), "{err}");
    }

    #[test]
    fn a_version_03_body_reads_without_the_closed_class_table() {
        let mut tagger = PosTagger::train_with_lexicon(&toy_corpus(), 2, 1, toy_lexicon());
        assert!(!tagger.closed.is_empty() && tagger.closed.words.contains_key("the"));
        // Version 04 with an empty table ends in its length, one zero
        // byte; version 03 is the same without it.
        tagger.closed = ClosedClass::with_tags(&tagger.tags, FxHashMap::default());
        let bytes = tagger.to_bytes();
        let mut old = bytes[..bytes.len() - 9].to_vec();
        old[..8].copy_from_slice(b"WSDPOS03");
        let back = PosTagger::from_bytes(&crate::model_io::seal(old)).unwrap();
        assert!(back.closed.is_empty());
        let words = ["a", "small", "zebra", "chases", "every", "cat", "."];
        assert_eq!(back.tag(&words), tagger.tag(&words));
    }

    #[test]
    fn truncated_or_garbled_bytes_are_errors() {
        let tagger = PosTagger::train(&toy_corpus(), 2, 2);
        let bytes = tagger.to_bytes();
        for len in 0..bytes.len() {
            assert!(
                PosTagger::from_bytes(&bytes[..len]).is_err(),
                "truncated at {len}"
            );
        }
        let mut rng = SplitMix64(5);
        for _ in 0..500 {
            let mut b = bytes.clone();
            let k = (rng.next_u64() % b.len() as u64) as usize;
            b[k] ^= 1 << (rng.next_u64() % 8);
            assert!(PosTagger::from_bytes(&b).is_err(), "flipped byte {k}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(PosTagger::from_bytes(&longer).is_err());
        assert!(PosTagger::from_bytes(b"not a model at all").is_err());
        for _ in 0..200 {
            let n = (rng.next_u64() % 300) as usize;
            let junk: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
            assert!(PosTagger::from_bytes(&junk).is_err());
        }
    }
}
