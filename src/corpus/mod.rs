//! The one document model every input is read into.
//!
//! SemCor tagfiles, the evaluation framework's XML and plain text all become
//! [`Document`]s of [`Sentence`]s of [`Token`]s. A [`Target`] is a token a
//! method must disambiguate: a lemma, a WordNet POS and an instance id.
//! Methods see only this model, never the format it came from.

use crate::wordnet::Pos;

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
}

impl Document {
    /// The targets of the document: every token carrying an instance id, a
    /// lemma and a WordNet POS, in reading order.
    pub fn targets(&self) -> Vec<Target> {
        let mut out = Vec::new();
        for (si, s) in self.sentences.iter().enumerate() {
            for (ti, t) in s.tokens.iter().enumerate() {
                if let (Some(id), Some(lemma), Some(pos)) = (&t.instance, &t.lemma, t.pos) {
                    out.push(Target {
                        sentence: si,
                        token: ti,
                        id: id.clone(),
                        lemma: lemma.clone(),
                        pos,
                    });
                }
            }
        }
        out
    }

    /// The token a target points at.
    pub fn token(&self, t: &Target) -> &Token {
        &self.sentences[t.sentence].tokens[t.token]
    }
}
