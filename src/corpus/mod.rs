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
    read_semcor, read_semcor_file, read_semcor_files_with_stats, read_semcor_with_stats,
    semcor_files, semcor_stats, split_files, PartStats, SemcorStats, Split,
};

/// A whole text input's bytes (a key file, a data XML) as UTF-8 text,
/// checked the same way by every reader that takes UTF-8 only: UTF-16
/// named (with the `iconv` command), a NUL byte named as a binary file,
/// bytes that are not UTF-8 named by line and byte offset, a byte-order
/// mark dropped. `path` names the source in errors.
pub(crate) fn utf8_text(bytes: Vec<u8>, path: &std::path::Path) -> crate::Result<String> {
    use crate::text::blocks::{line_of, looks_like_utf16, nul_error};
    if looks_like_utf16(&bytes) {
        return Err(crate::Error::parse(path, 1, crate::error::UTF16_TEXT));
    }
    if let Some((line, msg)) = nul_error(&bytes) {
        return Err(crate::Error::parse(path, line, msg));
    }
    let mut text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = line_of(e.as_bytes(), at);
        crate::Error::parse(path, line, format!("not UTF-8 text (byte offset {at})"))
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

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
    /// answered (see `crate::pipeline`); methods decide it with the unit's
    /// other words beside it ([`Document::split_units`]). `None` for
    /// everything else.
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
    /// The unit mean vector of this token's whole sentence, on every token
    /// of it, when the text pipeline encoded the sentence for a method that
    /// reads it ([`crate::disambig::Disambiguator::reads_sentence_vectors`]):
    /// the mean of its content words' vectors, as
    /// [`crate::disambig::knn::Knn::target_and_sentence_vectors`] computes it.
    pub sentence_vector: Option<WordVector>,
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

impl WordVector {
    /// A copy of the values when the encoder `key` computed them (else
    /// `None`: a reader with another encoder or precision ignores them).
    pub fn values_by(&self, key: &str) -> Option<Vec<f32>> {
        (*self.encoder == *key).then(|| self.values.to_vec())
    }
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
    /// Drop the encoder's vectors the text pipeline left on the tokens
    /// ([`Token::vector`], [`Token::sentence_vector`]; heads, parts and
    /// alternatives too) once the method has read them: 1.5 KB a target,
    /// which writers never read, so a batch of blocks waiting for output
    /// does not hold them.
    pub fn drop_vectors(&mut self) {
        fn clear(t: &mut Token) {
            t.vector = None;
            t.sentence_vector = None;
            if let Some(h) = t.head.as_deref_mut() {
                clear(h);
            }
            if let Some(a) = t.alt.as_deref_mut() {
                clear(a);
            }
            t.parts.iter_mut().for_each(clear);
        }
        for s in &mut self.sentences {
            s.tokens.iter_mut().for_each(clear);
        }
    }

    /// The document as its joined units' words see it: every unit with
    /// words of its own ([`Token::unit_words`]) is replaced by all of its
    /// words, its head and parts as they are and the words between them
    /// (`through` of `fallen through`, `of` of `a lot of`) as untagged
    /// tokens cut from the unit's text; and `targets`, read on `self`,
    /// moved onto it. A head or part target becomes the word's own
    /// ([`Role::Token`]), so methods read the context an annotator saw
    /// around the word (the unit's other words beside it), as they do on
    /// input that keeps the words apart; any other target keeps pointing
    /// at its token. A unit word carries the unit's contextual vector
    /// ([`Token::vector`]) when it has none of its own. A unit whose text
    /// or spans do not line up (no spans, text not the source's slice) is
    /// kept whole.
    pub fn split_units(&self, targets: &[Target]) -> (Document, Vec<Target>) {
        // moved[si][ti]: where token ti went in the split sentence.
        let mut moved: Vec<Vec<Moved>> = Vec::new();
        let sentences = self
            .sentences
            .iter()
            .map(|s| {
                let mut tokens = Vec::with_capacity(s.tokens.len());
                let mut here = Vec::with_capacity(s.tokens.len());
                for tok in &s.tokens {
                    match unit_pieces(tok) {
                        Some(pieces) => {
                            let start = tokens.len();
                            let mut roles = Vec::new();
                            for (role, piece) in pieces {
                                if let Some(role) = role {
                                    roles.push((role, tokens.len()));
                                }
                                tokens.push(piece);
                            }
                            here.push((start, roles));
                        }
                        None => {
                            here.push((tokens.len(), Vec::new()));
                            tokens.push(tok.clone());
                        }
                    }
                }
                moved.push(here);
                Sentence {
                    id: s.id.clone(),
                    tokens,
                }
            })
            .collect();
        let targets = targets
            .iter()
            .map(|t| {
                let Some((start, roles)) = moved.get(t.sentence).and_then(|s| s.get(t.token))
                else {
                    return t.clone();
                };
                let word = roles.iter().find(|(r, _)| *r == t.role).map(|&(_, i)| i);
                match (t.role, word) {
                    (Role::Head | Role::Part(_), Some(i)) => Target {
                        token: i,
                        role: Role::Token,
                        ..t.clone()
                    },
                    _ => Target {
                        token: *start,
                        ..t.clone()
                    },
                }
            })
            .collect();
        (
            Document {
                id: self.id.clone(),
                sentences,
            },
            targets,
        )
    }

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
    ///
    /// # Panics
    ///
    /// When `t` is not a target of this document (its sentence or token
    /// index is out of range).
    pub fn token(&self, t: &Target) -> &Token {
        &self.sentences[t.sentence].tokens[t.token]
    }

    /// The token a target stands for: [`Document::token`], or for a head
    /// or part target the unit's word (its own text and span).
    ///
    /// # Panics
    ///
    /// As [`Document::token`].
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

impl KeyCheck {
    /// ` (e.g. k1, k2)` naming the first unknown keys, or nothing: the
    /// end of the messages of `wsd stats` and `wsd train`.
    pub fn examples_note(&self) -> String {
        if self.examples.is_empty() {
            String::new()
        } else {
            format!(" (e.g. {})", self.examples.join(", "))
        }
    }
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

/// Where a token went in [`Document::split_units`]' sentence: the index of
/// its first piece, and that of each of its unit's words by role.
type Moved = (usize, Vec<(Role, usize)>);

/// The words of a joined unit in text order for [`Document::split_units`]:
/// its head and parts (with their [`Role`]) and the words between them,
/// cut from the unit's text at white space. `None` for a single word or a
/// unit whose spans do not line up with its text.
fn unit_pieces(tok: &Token) -> Option<Vec<(Option<Role>, Token)>> {
    let words = tok.unit_words();
    if words.is_empty() {
        return None;
    }
    let (start, end) = tok.span?;
    if end.checked_sub(start)? != tok.text.len() {
        return None;
    }
    let mut out = Vec::new();
    let gap = |from: usize, to: usize, out: &mut Vec<(Option<Role>, Token)>| -> Option<()> {
        let text = tok
            .text
            .get(from.checked_sub(start)?..to.checked_sub(start)?)?;
        for w in text.split_whitespace() {
            let at = from + (w.as_ptr() as usize - text.as_ptr() as usize);
            out.push((
                None,
                Token {
                    text: w.to_string(),
                    lemma: Some(w.to_lowercase()),
                    span: Some((at, at + w.len())),
                    ..Token::default()
                },
            ));
        }
        Some(())
    };
    let mut at = start;
    for (role, w) in words {
        let (ws, we) = w.span?;
        if ws < at || we > end {
            return None;
        }
        gap(at, ws, &mut out)?;
        let mut w = w.clone();
        // The unit's vector (`--pos-probe`), which knn and ens read for
        // its words as before: their own vectors scored lower on
        // SemEval-2007 (ens,mfs `--raw` one instance fewer).
        if w.vector.is_none() {
            w.vector = tok.vector.clone();
        }
        out.push((Some(role), w));
        at = we;
    }
    gap(at, end, &mut out)?;
    Some(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A token of plain text: its text, lemma, category and span.
    pub(crate) fn word(text: &str, lemma: &str, pos: Option<Pos>, span: (usize, usize)) -> Token {
        Token {
            text: text.into(),
            lemma: Some(lemma.into()),
            pos,
            span: Some(span),
            ..Token::default()
        }
    }

    /// "They have fallen through the cracks": `fallen through` joined,
    /// its head `fallen` a secondary target.
    fn fallen_through() -> Document {
        let head = Token {
            instance: Some("s.t2.h".into()),
            ..word("fallen", "fall", Some(Pos::Verb), (10, 16))
        };
        let unit = Token {
            instance: Some("s.t2".into()),
            head: Some(Box::new(head)),
            ..word("fallen through", "fall_through", Some(Pos::Verb), (10, 24))
        };
        Document {
            id: "d".into(),
            sentences: vec![Sentence {
                id: "s".into(),
                tokens: vec![
                    word("They", "they", None, (0, 4)),
                    word("have", "have", Some(Pos::Verb), (5, 9)),
                    unit,
                    word("the", "the", None, (25, 28)),
                    Token {
                        instance: Some("s.t4".into()),
                        ..word("cracks", "crack", Some(Pos::Noun), (29, 35))
                    },
                ],
            }],
        }
    }

    #[test]
    fn a_units_words_are_read_apart() {
        let doc = fallen_through();
        let targets = doc.targets();
        let roles: Vec<Role> = targets.iter().map(|t| t.role).collect();
        assert_eq!(roles, [Role::Token, Role::Head, Role::Token]);
        let (apart, moved) = doc.split_units(&targets);
        let texts: Vec<&str> = apart.sentences[0]
            .tokens
            .iter()
            .map(|t| t.text.as_str())
            .collect();
        assert_eq!(
            texts,
            ["They", "have", "fallen", "through", "the", "cracks"]
        );
        // The word between the unit's words: untagged, its own lemma and span.
        let through = &apart.sentences[0].tokens[3];
        assert_eq!(through.lemma.as_deref(), Some("through"));
        assert_eq!((through.tag.as_deref(), through.pos), (None, None));
        assert_eq!(through.span, Some((17, 24)));
        // The head target is the word's own; the others follow their token.
        let at: Vec<(usize, Role)> = moved.iter().map(|t| (t.token, t.role)).collect();
        assert_eq!(at, [(2, Role::Token), (2, Role::Token), (5, Role::Token)]);
        assert_eq!(moved[1].lemma, "fall");
        assert_eq!(apart.target_token(&moved[1]).text, "fallen");
        assert_eq!(apart.target_token(&moved[2]).text, "cracks");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Whatever a unit's text and its words' spans (overlapping, out
        /// of the unit, inside a multi-byte character), splitting never
        /// panics, keeps the other tokens, and a moved target points at a
        /// token of its sentence with the word it stood for.
        #[test]
        fn splitting_any_unit_is_safe(
            text in "[a-zé ]{0,12}",
            start in 0usize..4,
            spans in prop::collection::vec((0usize..16, 0usize..16), 0..4),
        ) {
            let end = start + text.len();
            let mut words: Vec<Token> = spans
                .iter()
                .enumerate()
                .map(|(k, &(a, b))| Token {
                    instance: Some(format!("w{k}")),
                    ..word("w", "w", Some(Pos::Noun), (a, b))
                })
                .collect();
            let head = words.pop().map(Box::new);
            let unit = Token {
                head,
                parts: words,
                ..word(&text, "u", Some(Pos::Noun), (start, end))
            };
            let doc = Document {
                id: "d".into(),
                sentences: vec![Sentence {
                    id: "s".into(),
                    tokens: vec![word("x", "x", None, (0, 0)), unit, word("y", "y", None, (0, 0))],
                }],
            };
            let targets = doc.targets();
            let (apart, moved) = doc.split_units(&targets);
            let tokens = &apart.sentences[0].tokens;
            prop_assert_eq!(&tokens[0].text, "x");
            prop_assert_eq!(&tokens[tokens.len() - 1].text, "y");
            prop_assert_eq!(moved.len(), targets.len());
            for (before, after) in targets.iter().zip(&moved) {
                prop_assert!(after.token < tokens.len());
                prop_assert_eq!(&after.id, &before.id);
                prop_assert_eq!(
                    apart.target_token(after).span,
                    doc.target_token(before).span
                );
            }
        }
    }

    #[test]
    fn a_unit_whose_spans_do_not_fit_its_text_stays_whole() {
        let mut doc = fallen_through();
        doc.sentences[0].tokens[2].text = "fallen  through".into();
        let targets = doc.targets();
        let (apart, moved) = doc.split_units(&targets);
        assert_eq!(apart.sentences[0].tokens.len(), 5);
        assert_eq!(moved[1].role, Role::Head);
        assert_eq!(moved[1].token, 2);
    }

    /// Key files and data XML decode alike: the byte offset of bytes that
    /// are not UTF-8 (the XML reader named only the line), a NUL byte as a
    /// binary file (the key reader let it through to the key parser), a
    /// byte-order mark dropped.
    #[test]
    fn key_files_and_data_xml_decode_alike() {
        let p = std::path::Path::new("in.txt");
        let err = |b: &[u8]| super::utf8_text(b.to_vec(), p).unwrap_err().to_string();
        assert_eq!(
            super::utf8_text(b"\xEF\xBB\xBFd1 k%1".to_vec(), p).unwrap(),
            "d1 k%1"
        );
        let bad = err(b"d1 a\nd2 \xff b\n");
        assert!(
            bad.contains("in.txt:2:") && bad.contains("byte offset 8"),
            "{bad}"
        );
        let nul = err(b"d1 a\n\0");
        assert!(
            nul.contains("in.txt:2:") && nul.contains("binary file"),
            "{nul}"
        );
        assert!(err(b"\xFF\xFEd\x001\x00").contains("UTF-16"));
        for read in [
            |p: &std::path::Path| super::read_key_file(p).map(|_| ()),
            |p: &std::path::Path| super::read_xml(p).map(|_| ()),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let f = dir.path().join("x");
            std::fs::write(&f, b"<corpus>\n\xff</corpus>\n").unwrap();
            let e = read(&f).unwrap_err().to_string();
            assert!(
                e.contains(":2:") && e.contains("not UTF-8 text (byte offset 9)"),
                "{e}"
            );
        }
    }
}
