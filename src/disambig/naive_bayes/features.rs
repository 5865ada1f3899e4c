//! Context features of a target: the feature-key scheme (family in the top
//! byte, an interned word id or an n-gram hash below), normalisation, the
//! coarse tag mapping, the vocabulary (training interns, prediction only
//! looks up) and [`extract`], which training and prediction share so that
//! both see exactly the same features.

use rustc_hash::FxHashMap;

use super::params::{BagForm, NbParams};
use crate::corpus::{Document, Token};

// ---------------------------------------------------------------------------
// Feature keys

pub(super) const FAM_WINDOW: u8 = 1;
pub(super) const FAM_SENTENCE: u8 = 2;
/// Words at offset `o` (−3…+3): `FAM_WORD + 3 + o`.
pub(super) const FAM_WORD: u8 = 16;
/// Tags at offset `o`: `FAM_TAG + 3 + o`.
pub(super) const FAM_TAG: u8 = 32;
/// N-gram span `k`: `FAM_NGRAM + k`.
pub(super) const FAM_NGRAM: u8 = 48;

/// IMS collocation spans of more than one word (offsets, target skipped).
pub(super) const NGRAM_SPANS: [(i32, i32); 7] = [
    (-2, -1),
    (-1, 1),
    (1, 2),
    (-3, -1),
    (-2, 1),
    (-1, 2),
    (1, 3),
];

pub(super) const LOW56: u64 = (1 << 56) - 1;

pub(super) fn fkey(family: u8, value: u64) -> u64 {
    ((family as u64) << 56) | (value & LOW56)
}

pub(super) fn family_of(key: u64) -> u8 {
    (key >> 56) as u8
}

/// A stable 64-bit mix (splitmix64 finaliser), so n-gram keys do not depend
/// on the hasher of a library version.
pub(super) fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Vocabulary ids reserved for the sentence boundaries.
pub(super) const BOS: &str = "<s>";
pub(super) const EOS: &str = "</s>";

/// Stop words of the bags: the project's English list
/// ([`crate::text::is_stop_word`]: NLTK's list and the Penn clitics) and
/// the modals it lacks (bags hold lemmas, so base forms matter).
pub(super) fn is_bag_stop_word(w: &str) -> bool {
    crate::text::is_stop_word(w) || matches!(w, "could" | "would" | "shall" | "ought")
}

/// Lower-case and join multiword spaces with `_`, borrowing when the word is
/// already normal (the common case: no allocation).
pub(super) fn normalize<'a>(raw: &'a str, buf: &'a mut String) -> &'a str {
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
        } else if let Some(ascii) = crate::wordnet::morphy::index_char(c) {
            // Typeset apostrophes and hyphens as SemCor writes them.
            buf.push(ascii);
        } else {
            buf.extend(c.to_lowercase());
        }
    }
    buf
}

/// The universal (Petrov et al.) tag of a token: Penn tags are mapped,
/// universal tags kept, punctuation without a tag is `.`.
pub(super) fn coarse_tag(tok: &Token) -> &'static str {
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

pub(super) const UNIVERSAL: [&str; 12] = [
    "NOUN", "VERB", "ADJ", "ADV", "PRON", "DET", "ADP", "NUM", "CONJ", "PRT", ".", "X",
];

// ---------------------------------------------------------------------------
// Vocabulary

/// Word/tag string → id.
pub(super) trait Ids {
    fn id(&mut self, word: &str) -> Option<u32>;
}

/// Training: every new word gets an id.
#[derive(Default)]
pub(super) struct Vocab {
    pub(super) map: FxHashMap<String, u32>,
    pub(super) words: Vec<String>,
}

impl Vocab {
    pub(super) fn with_markers() -> Vocab {
        let mut v = Vocab::default();
        v.intern(BOS);
        v.intern(EOS);
        v
    }

    pub(super) fn intern(&mut self, w: &str) -> u32 {
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
pub(super) struct Lookup<'a>(pub(super) &'a FxHashMap<String, u32>);

impl Ids for Lookup<'_> {
    fn id(&mut self, word: &str) -> Option<u32> {
        self.0.get(word).copied()
    }
}

// ---------------------------------------------------------------------------
// Feature extraction

/// The raw bag form of a token, if it is a content word (has a letter or
/// digit), normalised into `buf`, `None` for punctuation and stop words.
pub(super) fn bag_word<'a>(p: &NbParams, tok: &'a Token, buf: &'a mut String) -> Option<&'a str> {
    let raw = match p.bag {
        BagForm::Lemma => tok.lemma.as_deref().unwrap_or(&tok.text),
        BagForm::Word => &tok.text,
    };
    if !raw.chars().any(char::is_alphanumeric) {
        return None;
    }
    let w = normalize(raw, buf);
    if p.stop_words && is_bag_stop_word(w) {
        return None;
    }
    Some(w)
}

/// Push the features of the token at (`si`, `ti`) of `doc` to `out`.
pub(super) fn extract(
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
#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{Document, Sentence, Token};
    use crate::disambig::naive_bayes::testutil::*;
    use crate::disambig::naive_bayes::NbParams;

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
        assert_eq!(normalize("N\u{2019}t", &mut b), "n't");
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
}
