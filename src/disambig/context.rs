//! What the knowledge-based methods see of a target's surroundings: the
//! context window, content-word selection, and the normalisation of words
//! (lower case, stop words out, Porter2 stems) into hashed stems for fast
//! set overlaps.

use std::hash::{Hash, Hasher};

use rust_stemmers::{Algorithm, Stemmer};
use rustc_hash::FxHasher;

use super::lesk_stopwords::is_gloss_stop_word;
use crate::corpus::{Document, Target, Token};
use crate::wordnet::Pos;

/// Which tokens around a target count as its context.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Window {
    /// The content words of the target's sentence (the default).
    #[default]
    Sentence,
    /// The target's sentence and this many sentences before and after it.
    Sentences(usize),
    /// This many content words before and after the target, across
    /// sentence boundaries.
    Words(usize),
}

/// Is the token an open-class (content) word? Tokens whose tag maps to a
/// WordNet category are; untagged tokens (plain text without a tagger)
/// count too, stop words being removed later.
pub fn is_content(t: &Token) -> bool {
    t.pos.is_some() || t.tag.is_none()
}

/// Most content words either side of the target that a sentence window
/// (`sentence`, `Ns`) gives: 100, more than any sentence of SemCor or the
/// evaluation framework holds on one side, so their scores are unchanged,
/// while a 200 KB "sentence" without punctuation costs linear time.
/// `--window N` is capped the same way.
pub const MAX_CONTEXT: usize = 100;

/// Positions `(sentence, token)` of the content tokens in the window of
/// `target`, the target itself excluded, in reading order (at most
/// [`MAX_CONTEXT`] on each side).
pub fn window_tokens(doc: &Document, target: &Target, window: Window) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let ok = |si: usize, ti: usize| {
        (si, ti) != (target.sentence, target.token) && is_content(&doc.sentences[si].tokens[ti])
    };
    match window {
        Window::Sentence | Window::Sentences(_) => {
            let n = match window {
                Window::Sentences(n) => n,
                _ => 0,
            };
            if doc.sentences.is_empty() {
                return out;
            }
            let lo = target.sentence.saturating_sub(n);
            let hi = target
                .sentence
                .saturating_add(n)
                .min(doc.sentences.len() - 1);
            // At most MAX_CONTEXT content words each side, so that a huge
            // sentence costs linear time rather than quadratic.
            walk(doc, target, MAX_CONTEXT, lo, hi, &ok, &mut out);
        }
        Window::Words(n) => {
            let last = doc.sentences.len().saturating_sub(1);
            walk(doc, target, n.min(MAX_CONTEXT), 0, last, &ok, &mut out);
        }
    }
    out
}

/// The up to `limit` tokens before the target and `limit` after it for
/// which `ok` holds, within sentences `lo..=hi`, in reading order.
fn walk(
    doc: &Document,
    target: &Target,
    limit: usize,
    lo: usize,
    hi: usize,
    ok: &dyn Fn(usize, usize) -> bool,
    out: &mut Vec<(usize, usize)>,
) {
    let (mut si, mut ti) = (target.sentence, target.token);
    let mut before = Vec::new();
    while before.len() < limit {
        if ti == 0 {
            if si <= lo {
                break;
            }
            si -= 1;
            ti = doc.sentences[si].tokens.len();
            continue;
        }
        ti -= 1;
        if ok(si, ti) {
            before.push((si, ti));
        }
    }
    before.reverse();
    out.extend(before);
    let (mut si, mut ti) = (target.sentence, target.token + 1);
    let mut after = 0;
    while after < limit && si <= hi && si < doc.sentences.len() {
        if ti >= doc.sentences[si].tokens.len() {
            si += 1;
            ti = 0;
            continue;
        }
        if ok(si, ti) {
            out.push((si, ti));
            after += 1;
        }
        ti += 1;
    }
}

/// A hashed stem (FxHash of the Porter2 stem).
pub type StemId = u64;

/// Turns text into hashed stems: lower case, split on anything that is not
/// a letter or digit, drop stop words, one-letter words and numbers, stem
/// with Porter2 (rust-stemmers' English).
pub struct Normaliser {
    stemmer: Stemmer,
}

impl Default for Normaliser {
    fn default() -> Self {
        Normaliser {
            stemmer: Stemmer::create(Algorithm::English),
        }
    }
}

impl std::fmt::Debug for Normaliser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Normaliser(porter2)")
    }
}

/// Words remembered by [`Normaliser::stem_id`] per thread before the memo
/// is emptied, so that a thread per core stays cheap (WordNet's glosses
/// and SemCor's text have 66,238 distinct words together): one-thread
/// `lesk-ext` runs over SemCor's text peaked at 463 MB against 459–467 MB
/// without the memo (2¹⁷ words: 474–476 MB).
const STEM_MEMO_LIMIT: usize = 1 << 16;

thread_local! {
    static STEM_MEMO: std::cell::RefCell<rustc_hash::FxHashMap<Box<str>, StemId>> =
        std::cell::RefCell::new(rustc_hash::FxHashMap::default());
}

fn hash_str(s: &str) -> StemId {
    let mut h = FxHasher::default();
    s.hash(&mut h);
    h.finish()
}

impl Normaliser {
    /// The stems of `text`, appended to `out` (unsorted, possibly repeated).
    pub fn stems_into(&self, text: &str, out: &mut Vec<StemId>) {
        let mut lower = String::new();
        for w in text.split(|c: char| !c.is_alphanumeric()) {
            if w.chars().count() < 2 || w.chars().all(|c| c.is_ascii_digit()) {
                continue;
            }
            lower.clear();
            lower.extend(w.chars().flat_map(char::to_lowercase));
            if is_gloss_stop_word(&lower) {
                continue;
            }
            out.push(self.stem_id(&lower));
        }
    }

    /// The hashed stem of a lower-cased word, remembered per thread:
    /// Lesk's signatures stem the glosses of each candidate's synset and
    /// its neighbours, where the same few thousand words come back again
    /// and again, and Porter2 was the larger part of building them
    /// (`perf`: a third of `ens`' deciding on 100 kB of text). The stemmer
    /// is always English Porter2, so the memo is shared by every
    /// `Normaliser` of the thread; it is emptied when it grows past
    /// [`STEM_MEMO_LIMIT`] words.
    fn stem_id(&self, lower: &str) -> StemId {
        STEM_MEMO.with(|memo| {
            let mut memo = memo.borrow_mut();
            if let Some(&id) = memo.get(lower) {
                return id;
            }
            let id = hash_str(&self.stemmer.stem(lower));
            if memo.len() >= STEM_MEMO_LIMIT {
                memo.clear();
            }
            memo.insert(lower.into(), id);
            id
        })
    }

    /// The sorted, distinct stems of `text`.
    pub fn stem_set(&self, text: &str) -> Vec<StemId> {
        let mut v = Vec::new();
        self.stems_into(text, &mut v);
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The stem of one word (no stop-word filter), for tests and debugging.
    pub fn stem(&self, word: &str) -> String {
        self.stemmer.stem(&word.to_lowercase()).into_owned()
    }

    /// The sorted, distinct stems of the context of `target`: the lemma
    /// (else the text) of each content token of the window, minus the stems
    /// of the target lemma itself. `only` keeps tokens of one category.
    pub fn context(
        &self,
        doc: &Document,
        target: &Target,
        window: Window,
        only: Option<Pos>,
    ) -> Vec<StemId> {
        let mut v = Vec::new();
        for (si, ti) in window_tokens(doc, target, window) {
            let t = &doc.sentences[si].tokens[ti];
            if only.is_some() && t.pos != only {
                continue;
            }
            self.stems_into(t.lemma.as_deref().unwrap_or(&t.text), &mut v);
        }
        v.sort_unstable();
        v.dedup();
        let own = self.stem_set(&target.lemma);
        v.retain(|s| own.binary_search(s).is_err());
        v
    }
}

/// Number of common elements of two sorted, distinct slices.
pub fn overlap(a: &[StemId], b: &[StemId]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

/// Sum of the weights of the elements of sorted `ctx` found in the sorted
/// weighted signature `sig`.
pub fn weighted_overlap(ctx: &[StemId], sig: &[(StemId, f32)]) -> f64 {
    let (mut i, mut j, mut s) = (0, 0, 0.0f64);
    while i < ctx.len() && j < sig.len() {
        match ctx[i].cmp(&sig[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                s += sig[j].1 as f64;
                i += 1;
                j += 1;
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Sentence;

    fn tok(text: &str, pos: Option<Pos>) -> Token {
        Token {
            text: text.into(),
            lemma: Some(text.to_lowercase()),
            tag: Some(if pos.is_some() { "NOUN" } else { "DET" }.into()),
            pos,
            ..Default::default()
        }
    }

    /// The remembered stems are the stemmer's, on a thread that has seen
    /// the words before and on one that has not.
    #[test]
    fn remembered_stems_are_the_stemmers() {
        let norm = Normaliser::default();
        let text = "Running runners ran; the banks banked on banking (1999).";
        let direct: Vec<StemId> = {
            let mut v: Vec<StemId> = ["running", "runners", "ran", "banks", "banked", "banking"]
                .iter()
                .map(|w| hash_str(&norm.stem(w)))
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        assert_eq!(norm.stem_set(text), direct);
        assert_eq!(norm.stem_set(text), direct, "from the memo");
        let fresh = std::thread::spawn(move || Normaliser::default().stem_set(text))
            .join()
            .unwrap();
        assert_eq!(fresh, direct);
    }

    fn doc() -> Document {
        let s = |words: &[&str]| Sentence {
            id: String::new(),
            tokens: words
                .iter()
                .map(|w| tok(w, (w.len() > 3).then_some(Pos::Noun)))
                .collect(),
        };
        Document {
            id: "d".into(),
            sentences: vec![
                s(&["the", "river", "flows"]),
                s(&["bank", "near", "the", "water", "today"]),
                s(&["some", "money", "moves"]),
            ],
        }
    }

    fn target() -> Target {
        Target {
            sentence: 1,
            token: 0,
            id: "t".into(),
            lemma: "bank".into(),
            pos: Pos::Noun,
            role: Default::default(),
        }
    }

    #[test]
    fn windows_pick_content_words_around_the_target() {
        let d = doc();
        let t = target();
        assert_eq!(
            window_tokens(&d, &t, Window::Sentence),
            vec![(1, 1), (1, 3), (1, 4)]
        );
        assert_eq!(window_tokens(&d, &t, Window::Sentences(1)).len(), 8);
        assert_eq!(
            window_tokens(&d, &t, Window::Words(2)),
            vec![(0, 1), (0, 2), (1, 1), (1, 3)]
        );
        assert_eq!(window_tokens(&d, &t, Window::Words(0)), vec![]);
        // A sentence window is capped at MAX_CONTEXT content words a side.
        let long = Document {
            sentences: vec![Sentence {
                tokens: (0..1000)
                    .map(|i| tok(&format!("w{i}"), Some(Pos::Noun)))
                    .collect(),
                ..Default::default()
            }],
            ..Default::default()
        };
        let t = Target {
            sentence: 0,
            token: 500,
            ..target()
        };
        let w = window_tokens(&long, &t, Window::Sentence);
        assert_eq!(w.len(), 2 * MAX_CONTEXT);
        assert_eq!(w[0], (0, 400));
        assert_eq!(w[w.len() - 1], (0, 600));
    }

    #[test]
    fn normalisation_stems_and_drops_stop_words() {
        let n = Normaliser::default();
        assert_eq!(n.stem_set("deposits"), n.stem_set("deposit"));
        assert_eq!(n.stem_set("The bank can"), n.stem_set("banks"));
        assert!(n.stem_set("of the 1990 a").is_empty());
        let ctx = n.context(&doc(), &target(), Window::Sentence, None);
        assert_eq!(ctx.len(), 3); // near, water, today; "bank" itself excluded
        assert_eq!(overlap(&ctx, &n.stem_set("waters of today")), 2);
        assert_eq!(
            weighted_overlap(&ctx, &[(n.stem_set("water")[0], 0.5)]),
            0.5
        );
    }
}
