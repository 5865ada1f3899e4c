//! Similarity of words, as NLTK users compute it: the maximum of a measure
//! over the senses of the two words (`max(s1.wup_similarity(s2) for s1 in
//! wn.synsets(a) for s2 in wn.synsets(b))`), with the pair of synsets
//! that gave it. Unlike that one-liner, only senses of the same part of
//! speech are paired (a noun–verb value measures nothing but depth; see
//! the module docs of [`super`]).

use super::{Ic, Measure, Similarity};
use crate::wordnet::{resolve_id, Inventory, Pos, SynsetId};
use crate::{Error, Result};

/// What a command-line argument of `wsd similarity` named.
#[derive(Clone, Debug, PartialEq)]
pub enum Term {
    /// One synset (a sense key, an offset or an NLTK name).
    Synset(SynsetId),
    /// A word: all its synsets (through morphy), in WordNet's order by
    /// part of speech (n, v, a, r) and sense number.
    Word(String, Vec<SynsetId>),
}

impl Term {
    /// Read `arg`: a synset id when it parses as one, else a word looked up
    /// in `pos` (or every part of speech). A word WordNet lacks, or an id
    /// that parses but names no synset, is an error.
    pub fn parse(inv: &Inventory, arg: &str, pos: Option<Pos>) -> Result<Term> {
        match resolve_id(inv, arg) {
            Ok(id) => return Ok(Term::Synset(id)),
            Err(Error::BadId(_)) => {}
            Err(e) => return Err(e),
        }
        let mut ids = Vec::new();
        for p in Pos::selected(pos) {
            for s in inv.lookup(arg, p) {
                if !ids.contains(&s.synset) {
                    ids.push(s.synset);
                }
            }
        }
        if ids.is_empty() {
            let in_pos = pos.map_or(String::new(), |p| format!(" as a {}", p.file_suffix()));
            let hint = crate::wordnet::did_you_mean(&inv.similar_lemmas(arg, pos, 5));
            return Err(Error::bad_parameter(
                "synset or word",
                arg,
                format!("neither a synset id nor a word WordNet has{in_pos}{hint}"),
            ));
        }
        Ok(Term::Word(arg.to_string(), ids))
    }

    /// The synsets the term stands for.
    pub fn synsets(&self) -> &[SynsetId] {
        match self {
            Term::Synset(id) => std::slice::from_ref(id),
            Term::Word(_, ids) => ids,
        }
    }
}

/// The best pair of [`best_pair`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WordSimilarity {
    /// The synset of the first term.
    pub a: SynsetId,
    /// The synset of the second term.
    pub b: SynsetId,
    /// The measure's value for them (`None`: no pair has one).
    pub value: Option<f64>,
}

/// The highest value of `m` over the pairs of `a` × `b` with the same part
/// of speech (satellites count as adjectives), the first such pair in
/// sense order on ties. With no pair of the same POS, or none with a value,
/// `value` is `None` and the pair is the first senses of each.
pub fn best_pair(
    sim: &Similarity<'_>,
    m: Measure,
    a: &[SynsetId],
    b: &[SynsetId],
    ic: Option<&Ic>,
) -> Result<WordSimilarity> {
    let (Some(&a0), Some(&b0)) = (a.first(), b.first()) else {
        return Err(Error::bad_parameter(
            "synsets",
            "none",
            "both terms need a synset",
        ));
    };
    let mut best = WordSimilarity {
        a: a0,
        b: b0,
        value: None,
    };
    for &x in a {
        for &y in b {
            if x.pos != y.pos {
                continue;
            }
            if let Some(v) = sim.measure(m, x, y, ic)? {
                if best.value.is_none_or(|b| v > b) {
                    best = WordSimilarity {
                        a: x,
                        b: y,
                        value: Some(v),
                    };
                }
            }
        }
    }
    Ok(best)
}
