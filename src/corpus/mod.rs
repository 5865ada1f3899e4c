//! The one document model every input is read into.
//!
//! SemCor tagfiles, the evaluation framework's XML and plain text all become
//! [`Document`]s of [`Sentence`]s of [`Token`]s. A [`Target`] is a token a
//! method must disambiguate: a lemma, a WordNet POS and an instance id.
//! Methods see only this model, never the format it came from.
//!
//! Readers: [`semcor`] (SemCor 3.0 tagfiles and the fixed train/test split),
//! [`raganato`] (the evaluation framework's XML) and [`keyfile`] (the
//! framework's `id key [key…]` answer files, read and written).

use std::collections::HashMap;

use crate::wordnet::Pos;

pub mod keyfile;
pub mod raganato;
pub mod semcor;

pub use keyfile::{
    parse_keys, read_gold_key_file, read_key_file, write_key_file, write_keys, KeyFile,
};
pub use raganato::{attach_gold, parse_xml, read_xml};
pub use semcor::{
    read_semcor, read_semcor_file, read_semcor_with_stats, semcor_files, semcor_stats, split_files,
    PartStats, SemcorStats, Split,
};

/// A document: the unit of one-sense-per-discourse and of the SemCor split.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Document {
    /// Identifier (SemCor: `brown1/br-a01`; XML: the `<text id>`; text: file name).
    pub id: String,
    /// Sentences in order.
    pub sentences: Vec<Sentence>,
}

/// A sentence.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sentence {
    /// Identifier (XML: the `<sentence id>`; SemCor: `br-a01.s1`).
    pub id: String,
    /// Tokens in order.
    pub tokens: Vec<Token>,
}

/// A token (a multiword expression such as `took_place` is one token).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Token {
    /// Surface form as written (multiwords joined with `_` in SemCor, spaces in text).
    pub text: String,
    /// Lemma when the source gives one (or the lemmatiser found one).
    pub lemma: Option<String>,
    /// The source's POS tag (Penn in SemCor, universal in the XML).
    pub tag: Option<String>,
    /// WordNet category derived from `tag`, if the token is a content word.
    pub pos: Option<Pos>,
    /// Gold sense keys (empty when untagged).
    pub gold: Vec<String>,
    /// Instance id when this token is an evaluation target.
    pub instance: Option<String>,
    /// Byte offsets `[start, end)` in the source text, for plain-text input.
    pub span: Option<(usize, usize)>,
    /// For a multiword the text pipeline joined (`talking about` →
    /// `talk_about`), its head word as a token of its own (`talking`,
    /// `talk`; the verb of a verb unit, else the last word), a *secondary
    /// target* when it has an instance id: annotation conventions differ
    /// on such units (SemCor joins verb + particle, SemEval-2007 tags the
    /// verb alone), so both get an answer and a gold instance on either is
    /// answered (see `crate::pipeline`). `None` for everything else.
    pub head: Option<Box<Token>>,
    /// The unit's other words that are content words by themselves
    /// (`vocational` of `vocational education`, `school` of `school
    /// district`), in text order, each a secondary target like
    /// [`Token::head`] when it has an instance id (`….w1`: its index in
    /// the unit): SemCor's annotators keep many of the adjective–noun and
    /// noun–noun collocations WordNet lists apart, and a join then lost the
    /// modifier's instance. Empty for everything else.
    pub parts: Vec<Token>,
    /// The same word read as another part of speech the tagger found
    /// nearly as likely (`--pos-alternatives`): a hidden target whose
    /// answer competes with this token's, each weighed by its category's
    /// probability ([`Token::pos_prob`]); resolved, and removed, before
    /// output (see `crate::pipeline::resolve_alternatives`).
    pub alt: Option<Box<Token>>,
    /// The tagger's probability of this token's part of speech, when the
    /// pipeline asked for it (`--pos-alternatives`).
    pub pos_prob: Option<f32>,
    /// The encoder's vector of this (single-word) target, when the text
    /// pipeline already ran the encoder over its sentence (`--pos-probe`):
    /// `knn` and `ens` read it instead of encoding the sentence again.
    pub vector: Option<WordVector>,
}

/// A word's contextual vector (the last layer, the mean of its pieces) and
/// the encoder that computed it ([`crate::encoder::Encoder::vector_key`]),
/// so that a reader with another encoder or precision ignores it.
#[derive(Clone, PartialEq)]
pub struct WordVector {
    /// Which encoder, in which precision.
    pub encoder: std::sync::Arc<str>,
    /// The vector.
    pub values: std::sync::Arc<[f32]>,
}

impl std::fmt::Debug for WordVector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "WordVector({} values)", self.values.len())
    }
}

impl Token {
    /// The words of a joined unit that are read on their own after the
    /// unit, by targets and by writers' rows alike: its head word
    /// ([`Token::head`], [`Role::Head`]) and its other words
    /// ([`Token::parts`], [`Role::Part`]), in text order. Empty for a
    /// single word.
    pub fn unit_words(&self) -> Vec<(Role, &Token)> {
        let mut out: Vec<(Role, &Token)> = self
            .head
            .as_deref()
            .map(|h| (Role::Head, h))
            .into_iter()
            .chain(
                self.parts
                    .iter()
                    .enumerate()
                    .map(|(k, p)| (Role::Part(k), p)),
            )
            .collect();
        out.sort_by_key(|(_, t)| t.span.map(|s| s.0));
        out
    }
}

/// A token's (instance id, lemma, POS) when it is a target.
fn own_target(t: &Token) -> Option<(&String, &String, Pos)> {
    match (&t.instance, &t.lemma, t.pos) {
        (Some(id), Some(lemma), Some(pos)) => Some((id, lemma, pos)),
        _ => None,
    }
}

/// A token to disambiguate: where it is and what to look up.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// Index of the sentence in its document.
    pub sentence: usize,
    /// Index of the token in its sentence.
    pub token: usize,
    /// Instance id (written to key files).
    pub id: String,
    /// Lemma to look up in WordNet.
    pub lemma: String,
    /// WordNet part of speech.
    pub pos: Pos,
    /// Which reading of the token this is: its own, its head word's
    /// ([`Token::head`]) or another part of speech ([`Token::alt`]). For
    /// the last two `token` is still the token's index (methods read its
    /// context); `id`, `lemma` and `pos` are the secondary reading's.
    pub role: Role,
}

/// What a [`Target`] stands for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Role {
    /// The token itself.
    #[default]
    Token,
    /// The head word of a joined unit ([`Token::head`]).
    Head,
    /// Another word of a joined unit ([`Token::parts`]; the index).
    Part(usize),
    /// The token read as another part of speech ([`Token::alt`]).
    AltPos,
}

impl Document {
    /// The targets of the document: every token carrying an instance id, a
    /// lemma and a WordNet POS, in reading order.
    pub fn targets(&self) -> Vec<Target> {
        self.target_tokens()
            .map(|(si, ti, (id, lemma, pos), role)| Target {
                sentence: si,
                token: ti,
                id: id.clone(),
                lemma: lemma.clone(),
                pos,
                role,
            })
            .collect()
    }

    /// How many targets [`Document::targets`] would give, without building them.
    pub fn target_count(&self) -> usize {
        self.target_tokens().count()
    }

    /// (sentence, token, (instance id, lemma, POS), role) of each target;
    /// a token's secondary readings right after it (the unit's words in
    /// text order, [`Token::unit_words`], then other part of speech).
    #[allow(clippy::type_complexity)]
    fn target_tokens(&self) -> impl Iterator<Item = (usize, usize, (&String, &String, Pos), Role)> {
        self.sentences.iter().enumerate().flat_map(|(si, s)| {
            s.tokens.iter().enumerate().flat_map(move |(ti, t)| {
                let unit = own_target(t).map(|x| (si, ti, x, Role::Token));
                let words = t
                    .unit_words()
                    .into_iter()
                    .filter_map(move |(role, w)| own_target(w).map(|x| (si, ti, x, role)));
                let alt = t.alt.as_deref().and_then(own_target);
                unit.into_iter()
                    .chain(words)
                    .chain(alt.map(|x| (si, ti, x, Role::AltPos)))
            })
        })
    }

    /// The token a target points at.
    pub fn token(&self, t: &Target) -> &Token {
        &self.sentences[t.sentence].tokens[t.token]
    }

    /// The token a target stands for: [`Document::token`], or for a head
    /// or part target the unit's word (its own text and span).
    pub fn target_token(&self, t: &Target) -> &Token {
        let tok = self.token(t);
        match (t.role, &tok.head, &tok.alt) {
            (Role::Head, Some(h), _) => h,
            (Role::Part(k), _, _) if k < tok.parts.len() => &tok.parts[k],
            (Role::AltPos, _, Some(a)) => a,
            _ => tok,
        }
    }
}

/// The WordNet POS of every instance of the documents (instance id → POS),
/// for the scorer's per-POS breakdown.
pub fn instance_pos(docs: &[Document]) -> HashMap<String, Pos> {
    let mut out = HashMap::new();
    for d in docs {
        for s in &d.sentences {
            for t in &s.tokens {
                if let (Some(id), Some(pos)) = (&t.instance, t.pos) {
                    out.insert(id.clone(), pos);
                }
            }
        }
    }
    out
}

/// The result of [`check_gold_keys`].
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct KeyCheck {
    /// Gold keys checked (one per key per token).
    pub checked: usize,
    /// Gold keys the closure rejected.
    pub unknown: usize,
    /// The first few rejected keys (distinct, in reading order).
    pub examples: Vec<String>,
}

/// How many gold keys of the documents a sense inventory lacks. `known`
/// answers "does WordNet know this sense key" (the inventory is not needed
/// here, so any lookup works: a loaded inventory, a set read from
/// `index.sense`, …). Up to ten distinct unknown keys are kept as examples.
pub fn check_gold_keys(docs: &[Document], known: impl Fn(&str) -> bool) -> KeyCheck {
    let mut out = KeyCheck::default();
    for d in docs {
        for s in &d.sentences {
            for t in &s.tokens {
                for k in &t.gold {
                    out.checked += 1;
                    if !known(k) {
                        out.unknown += 1;
                        if out.examples.len() < 10 && !out.examples.contains(k) {
                            out.examples.push(k.clone());
                        }
                    }
                }
            }
        }
    }
    out
}
