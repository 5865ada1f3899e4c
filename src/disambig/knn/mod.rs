//! kNN over contextual vectors: LMMS-style sense vectors from the
//! project's own attention encoder.
//!
//! **Training** ([`KnnModel::train`]) encodes every sentence of the given
//! SemCor documents with [`crate::encoder::Encoder::encode_words`] (last layer by default, a word's
//! vector is the mean of its WordPiece pieces; multiword tokens such as
//! `took_place` are encoded as `took place`). Every sense-tagged token adds
//! its vector to the sum of the synset of each of its gold keys; the
//! centroid of a synset is its *context vector* (Loureiro & Jorge's LMMS,
//! at synset level: the candidates of one lemma are distinct synsets, and
//! pooling the lemmas of a synset gives more examples).
//!
//! **Gloss vectors**: for each synset in scope ([`GlossScope`]) the text
//! `lemma1 , lemma2 - definition ; example ; …` (lemmas with `_` as spaces)
//! goes through the same encoder; the gloss vector is the mean of the
//! vectors of all words ([`GlossPooling::Mean`], the default) or of the
//! header's lemma words only ([`GlossPooling::Lemma`]: the word "bank" read
//! in the context of its own definition; measured worse, 31.6 against 46.8
//! F1 on SemEval-2007 with glosses alone).
//!
//! **Prediction** ([`Knn`]): the target's vector (its sentence encoded with
//! the rest of its document in one batch) against each candidate synset:
//! `score = (1 − w)·cos(v, ctx) + w·cos(v, gloss)` with `w` =
//! [`KnnOptions::gloss_weight`] when both exist, else the one that exists.
//! Plus a sense-frequency prior, `p · (tag_count + 1) / Σ(tag_count + 1)`
//! over the candidates ([`KnnOptions::prior`]; WordNet's tag counts, as
//! `mfs` uses them). Defaults `w` = 0.3, `p` = 0.1 were tuned on the
//! SemEval-2007 dev set with the all-SemCor model: F1 55.6 (context only),
//! 59.1 (+ glosses, w = 0.3), 62.0 (+ prior 0.1); plateau 0.25–0.35 for
//! `w`, 0.05–0.2 for `p`.
//! **Example sentences** ([`KnnParams::examples`], `--examples`): every
//! WordNet example sentence of a synset in gloss scope that contains one
//! of the synset's lemmas ([`example_contexts`]: "he cashed a check at the
//! *bank*") is encoded, and the lemma's vector counts as one more tagged
//! instance of that synset — sense-tagged contexts for free (issue 13).
//! Off by default: in 5-fold cross-fitting on SemCor's train split they
//! cost 0.3 F1 (69.0 against 69.3; verbs 57.2 against 58.0), and the
//! +0.6 on SemEval-2007 is 3 of 455 instances.
//! **Layer pooling** ([`KnnParams::pooled_layers`]): the sum of the last
//! `n` layers instead of the last one (LMMS sums BERT's last four); for
//! MiniLM-L6 it measured no better (`examples/knn_lab/`: cross-fitted
//! 71.1 for the last layer and for the sum of the last four), so the
//! default stays 1.
//! **Sense-key vectors** ([`KnnParams::sense_min`], `--sense-vectors`,
//! issue 13): a sense key (one lemma's sense) with at least 10 training
//! instances also gets its own centroid, and prediction scores a
//! candidate against it instead of its synset's: the lemmas of one synset
//! are not used alike (`examples/knn_lab/`: +0.9 F1 on SemEval-2007 and
//! on SemCor's test split, verbs most). The back-off is sense key →
//! synset → propagated (below) → gloss only; `--explain` names the
//! vector used ([`VectorSource`]).
//! **Exemplars** ([`KnnParams::exemplars`]): for each centroid the two
//! training instances nearest it are kept as their instance id and a
//! window of their sentence, and `--explain` quotes them for the chosen
//! sense and the runner-up (with `--keep-instances` and `k > 1`, the
//! nearest instances' own sentences), so that an answer can be read
//! against the training sentences behind it (issue 12).
//! **Calibration** ([`KnnCalibration`], issue 12): training answers every
//! training target with its document held out of every centroid — the
//! centroid of a sense without a document is `(sum − doc_sum)` normalised,
//! exact, so no extra training is needed — and fits the isotonic map of
//! [`crate::disambig::calibration`] on those answers; the model carries
//! it and output reports knn's probabilities as calibrated (for the
//! default options; other options stay normalised only). Leave one
//! *document* out rather than one instance, since the instances of one
//! document share their context and would make the map too sure.
//! A synset never seen in SemCor borrows a context vector (LMMS's
//! propagation): the mean of its hypernyms' context vectors (up to three
//! levels up), else the mean of its lexicographer file's. A candidate with
//! no vector at all abstains; when every candidate abstains the method
//! returns `None`, so a chain (`knn,nb,mfs`) backs off. With instance
//! vectors kept (`--keep-instances` at training) and `k > 1`, the `k`
//! nearest SemCor instances among the candidates vote (cosine-weighted).
//!
//! **Model file**: the body is a safetensors blob (see `codec.rs`): the
//! context, gloss, instance and sense-key vectors as `[n, d]` f32
//! matrices, and the entries (synset, example count, which vectors it
//! has), the sense keys, the exemplar sentences and the calibration as a
//! postcard metadata tensor. Format 2 models (before sense-key vectors)
//! still load and answer as they did, uncalibrated. [`Knn::load`] memory-maps the file and reads the
//! vectors in place: loading copies no vector, and prediction reads rows
//! straight from the mapped file.
//!
//! # Files
//!
//! * `params.rs`: training parameters (stored in the model header) and
//!   prediction options;
//! * `model.rs`: [`KnnModel`], the owned model training builds, and the
//!   vector matrices (owned or mapped) prediction reads;
//! * `train.rs`: encoding SemCor and the glosses into sense vectors, the
//!   exemplars and the held-out calibration;
//! * `core.rs`: the scoring without the encoder (context vectors with
//!   their back-off and propagation, the cosine + prior combination, the
//!   held-out scoring training's calibration uses);
//! * `predict.rs`: [`Knn`], the disambiguator over that core (encoding,
//!   voting, evidence);
//! * `codec.rs`: the model body and model file (save / load / map).

use crate::corpus::Document;
use crate::wordnet::{Synset, SynsetId};

mod codec;
mod core;
mod model;
mod params;
mod predict;
mod train;

pub use self::core::{hypernym_mean, VectorSource};
pub use crate::disambig::Exemplar;
pub use model::{Entry, KnnCalibration, KnnModel, SenseEntry};
pub use params::{
    GlossPooling, GlossScope, KnnOptions, KnnParams, DEFAULT_EXEMPLARS, DEFAULT_POOLED_LAYERS,
    DEFAULT_SENSE_MIN,
};
pub use predict::{Knn, TargetVectors};

/// Method name in model headers and `--method`.
pub const METHOD: &str = "knn";

/// Sentences per [`crate::encoder::Encoder::encode_words`] call during training.
pub const TRAIN_BATCH: usize = 256;

/// Unit-length copy (zero vectors stay zero).
pub fn normalized(v: &[f32]) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if n > 0.0 {
        v.iter().map(|x| x / n).collect()
    } else {
        v.to_vec()
    }
}

/// Whether a token counts in its sentence's mean vector
/// ([`sentence_mean`]): a content word, one with a WordNet category.
/// Function words and punctuation say little about what a sentence is
/// about, and the text pipeline encodes the content words anyway (the
/// mean of every word cost ens 9% of its tagging speed).
pub fn in_sentence_mean(t: &crate::corpus::Token) -> bool {
    t.pos.is_some()
}

/// The unit-length mean of the vectors of a sentence's content words
/// ([`in_sentence_mean`]; `vecs[i]` is token `i`'s, an empty one left
/// out); `None` when none has one.
pub fn sentence_mean<V: AsRef<[f32]>>(
    tokens: &[crate::corpus::Token],
    vecs: &[V],
) -> Option<Vec<f32>> {
    let mut it = tokens
        .iter()
        .zip(vecs)
        .map(|(t, v)| (t, v.as_ref()))
        .filter(|(t, v)| in_sentence_mean(t) && !v.is_empty())
        .map(|(_, v)| v);
    let mut sum = it.next()?.to_vec();
    for v in it {
        add_to(&mut sum, v);
    }
    Some(normalized(&sum))
}

/// `sum += v`, element by element.
pub(crate) fn add_to(sum: &mut [f32], v: &[f32]) {
    for (a, x) in sum.iter_mut().zip(v) {
        *a += x;
    }
}

/// Dot product (the cosine for unit vectors).
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Cosine similarity (0 when either vector is zero).
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let (na, nb) = (dot(a, a).sqrt(), dot(b, b).sqrt());
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot(a, b) / (na * nb)
    }
}

/// Index and score of the best of `scores` (`None` entries abstain); ties
/// go to the earlier (WordNet order: the more frequent sense).
pub fn argmax(scores: &[Option<f32>]) -> Option<(usize, f32)> {
    let mut best: Option<(usize, f32)> = None;
    for (i, s) in scores.iter().enumerate() {
        if let Some(s) = *s {
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((i, s));
            }
        }
    }
    best
}

/// The words a token is encoded as (`took_place` → `took place`).
fn word_text(t: &str) -> String {
    t.replace('_', " ")
}

/// The words of a document's sentences, as the encoder takes them.
pub fn sentence_words(doc: &Document) -> Vec<Vec<String>> {
    doc.sentences
        .iter()
        .map(|s| s.tokens.iter().map(|t| word_text(&t.text)).collect())
        .collect()
}

/// The gloss text of a synset as words, and the indices of the lemma words.
pub fn gloss_words(syn: &Synset) -> (Vec<String>, Vec<usize>) {
    let mut words = Vec::new();
    let mut lemma_at = Vec::new();
    for (i, w) in syn.words.iter().enumerate() {
        if i > 0 {
            words.push(",".to_string());
        }
        for part in w.lemma.split('_').filter(|p| !p.is_empty()) {
            lemma_at.push(words.len());
            words.push(part.to_string());
        }
    }
    words.push("-".to_string());
    let mut add = |text: &str| {
        for t in crate::text::tokenize(text) {
            words.push(t.text);
        }
    };
    add(&syn.definition);
    for e in &syn.examples {
        add(";");
        add(e);
    }
    (words, lemma_at)
}

/// The one synset of `word` when it has a single sense in all of WordNet
/// (every part of speech, through morphy): `depository` gives its synset,
/// `bank` or `saw` (a noun and `see`) nothing. Stop words, and tokens
/// without a letter, give nothing.
///
/// Such a word in a gloss is a sense-tagged context for free (issue 13,
/// "glosses … where the sense is unambiguous"): the synset it names may
/// share lemmas with polysemous words (`depository financial institution`
/// and `bank`), and a synset that SemCor never tags gets a context vector
/// of its own instead of its hypernyms'.
pub fn monosemous_synset(inv: &crate::wordnet::Inventory, word: &str) -> Option<SynsetId> {
    if !word.chars().any(char::is_alphabetic) {
        return None;
    }
    let lower = word.to_lowercase();
    if crate::text::is_stop_word(&lower) {
        return None;
    }
    let mut found: Option<SynsetId> = None;
    for pos in crate::wordnet::Pos::ALL {
        for s in inv.lookup(&lower, pos) {
            match found {
                None => found = Some(s.synset),
                Some(id) if id == s.synset => {}
                Some(_) => return None,
            }
        }
    }
    found
}

/// A WordNet example sentence as a tagged context: its words (a
/// multiword lemma joined into one word, as SemCor's `took_place` tokens
/// are encoded), the index of the word that is the synset's lemma, and
/// that lemma's sense key.
#[derive(Clone, Debug, PartialEq)]
pub struct ExampleContext {
    /// The example's words.
    pub words: Vec<String>,
    /// Which word is the lemma.
    pub at: usize,
    /// The sense key of the lemma in the synset.
    pub key: String,
}

/// The example sentences of `syn` in which one of its lemmas occurs
/// (inflected forms through morphy: "he *banks* the fire"), each with the
/// position of the lemma: free sense-tagged contexts (issue 13), since an
/// example of a synset uses that synset's sense of the word. Multiword
/// lemmas match consecutive tokens (`took place` → `take_place`). An
/// example in which no lemma is found (`"a gonadotropic hormone…"` for
/// `LH`) gives nothing; the first match is used.
pub fn example_contexts(inv: &crate::wordnet::Inventory, syn: &Synset) -> Vec<ExampleContext> {
    let pos = syn.id.pos;
    let longest = syn
        .words
        .iter()
        .map(|w| w.lemma.split('_').count())
        .max()
        .unwrap_or(1)
        .min(4);
    let mut out = Vec::new();
    for e in &syn.examples {
        let toks: Vec<String> = crate::text::tokenize(e)
            .into_iter()
            .map(|t| t.text)
            .collect();
        let mut found = None;
        'search: for i in 0..toks.len() {
            for n in (1..=longest.min(toks.len() - i)).rev() {
                let joined = toks[i..i + n].join("_").to_lowercase();
                if let Some(s) = inv
                    .lookup(&joined, pos)
                    .into_iter()
                    .find(|s| s.synset == syn.id)
                {
                    found = Some((i, n, s.key.clone()));
                    break 'search;
                }
            }
        }
        if let Some((i, n, key)) = found {
            let mut words: Vec<String> = toks[..i].to_vec();
            words.push(toks[i..i + n].join(" "));
            words.extend_from_slice(&toks[i + n..]);
            out.push(ExampleContext { words, at: i, key });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wordnet::Pos;

    #[test]
    fn cosine_and_argmax() {
        assert!((cosine(&[1.0, 0.0], &[1.0, 1.0]) - 0.70710677).abs() < 1e-6);
        assert_eq!(cosine(&[0.0, 0.0], &[1.0, 1.0]), 0.0);
        assert_eq!(normalized(&[3.0, 4.0]), vec![0.6, 0.8]);
        // the mean's direction over the content words with a vector
        let tok = |pos: Option<Pos>| crate::corpus::Token {
            pos,
            ..Default::default()
        };
        let toks = [
            tok(Some(Pos::Noun)),
            tok(Some(Pos::Verb)),
            tok(Some(Pos::Adj)),
            tok(None),
            tok(Some(Pos::Adv)),
        ];
        let vecs = [
            vec![1.0, 0.0],
            vec![],
            vec![0.0, 3.0],
            vec![0.0, 9.0],
            vec![2.0, 0.0],
        ];
        let m = sentence_mean(&toks, &vecs).unwrap();
        let h = std::f32::consts::FRAC_1_SQRT_2;
        assert!((m[0] - h).abs() < 1e-6 && (m[1] - h).abs() < 1e-6);
        assert_eq!(sentence_mean(&toks[3..4], &vecs[3..4]), None);
        assert_eq!(
            argmax(&[None, Some(0.2), Some(0.9), Some(0.9)]),
            Some((2, 0.9))
        );
        assert_eq!(argmax(&[None, None]), None);
        assert_eq!(argmax(&[]), None);
        assert_eq!(argmax(&[Some(-0.5), None]), Some((0, -0.5)));
    }

    #[test]
    fn only_words_of_one_sense_in_all_of_wordnet_are_monosemous() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let inv =
            crate::wordnet::Inventory::load(&root.join("tests/fixtures/mini-wordnet")).unwrap();
        let river = SynsetId {
            pos: Pos::Noun,
            offset: 2665,
        };
        assert_eq!(monosemous_synset(&inv, "river"), Some(river));
        // inflected and capitalised forms through morphy
        assert_eq!(monosemous_synset(&inv, "Rivers"), Some(river));
        // three noun senses and a verb; two noun senses
        assert_eq!(monosemous_synset(&inv, "bank"), None);
        assert_eq!(monosemous_synset(&inv, "water"), None);
        // unknown words, punctuation
        assert_eq!(monosemous_synset(&inv, "zyzzyva"), None);
        assert_eq!(monosemous_synset(&inv, ","), None);
    }

    #[test]
    fn gloss_words_mark_the_lemmas() {
        let syn = Synset {
            id: SynsetId {
                pos: Pos::Noun,
                offset: 1,
            },
            ss_type: crate::wordnet::SynsetType::Noun,
            lex_filenum: 0,
            words: vec![
                crate::wordnet::Word {
                    lemma: "river_bank".into(),
                    lex_id: 0,
                    marker: None,
                },
                crate::wordnet::Word {
                    lemma: "bank".into(),
                    lex_id: 0,
                    marker: None,
                },
            ],
            pointers: vec![],
            frames: vec![],
            definition: "sloping land".into(),
            examples: vec!["he sat on the bank".into()],
        };
        let (w, at) = gloss_words(&syn);
        assert_eq!(
            w.join(" "),
            "river bank , bank - sloping land ; he sat on the bank"
        );
        assert_eq!(at, vec![0, 1, 3]);
    }
}
