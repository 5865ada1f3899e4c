//! Raw text to a [`Document`]: tokenise, split sentences, tag parts of
//! speech, join multiword expressions, lemmatise with morphy, and mark the
//! targets to disambiguate. This is what `wsd tag` runs on plain text, and
//! what `wsd eval --raw` runs on an evaluation set rebuilt as plain text to
//! measure what automatic preprocessing costs.
//!
//! Per sentence:
//!
//! 1. POS tags from the tagger; a word tagged `CD`/`DT`/`PDT` that WordNet
//!    has as an adjective (`one`, `all`, `no`) is an adjective, `EX` `there`
//!    an adverb ([`Pipeline`]'s function-tag rule), as SemCor tags them.
//! 2. One lemma per word: [`crate::text::choose_lemma`] (surface form for
//!    adjectives and adverbs when WordNet has it, else the most tagged base
//!    form; Penn clitics `'s` → `be`); a proper name WordNet lacks gets
//!    `person` ([`name_lemma`]), and a name SemCor's annotators tag as a
//!    person, group or location gets that lemma ([`known_name`]).
//! 3. Multiwords joined as [`crate::text::MweMatcher`]'s mode says (learned
//!    on SemCor's evidence by default), and multiword proper names as one
//!    `person`/`group`/`location` unit ([`with_name_units`]). With `--targets LEMMAS`, a
//!    collocation containing a requested lemma is not joined unless it is
//!    requested itself.
//! 4. Targets: [`TargetSelection`]; the default follows
//!    [`crate::text::TargetTable`], learned from what SemCor's annotators tag
//!    (auxiliaries told apart by [`auxiliary_flags`]).
//!
//! [`align_raw`] classifies each gold instance of an annotated document
//! against the pipeline's output (matched, missed target, wrong POS, wrong
//! lemma, multiword), and [`learn`] regenerates the shipped tables.

use rustc_hash::FxHashSet;

use crate::corpus::{Document, Sentence, Token};
use crate::pos::PosTagger;
use crate::text::targets::is_auxiliary;
use crate::text::{
    choose_lemma, name_runs, split_sentences, MweMatch, MweMatcher, NameTable, NameUnits,
    TargetTable,
};
use crate::wordnet::{Inventory, Pos};

pub mod align;
pub mod learn;

pub use align::{align_raw, RawAlignment, RawBreakdown, RawOutcome};

/// Which tokens become targets.
#[derive(Clone, Debug, PartialEq)]
pub enum TargetSelection {
    /// The words SemCor's annotators would tag, learned from its train
    /// split ([`crate::text::targets`]): content words with WordNet senses,
    /// `not`, `only`, `other` and main-verb `be`/`have`/`do` included,
    /// other stop words and auxiliaries left out — the default.
    Content,
    /// Every noun, verb, adjective or adverb with WordNet senses, stop
    /// words included (`be`, `have`): all-words runs.
    All,
    /// Only these lemmas (lexical-sample runs).
    Lemmas(FxHashSet<String>),
}

impl std::str::FromStr for TargetSelection {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "content" => Ok(TargetSelection::Content),
            "all" => Ok(TargetSelection::All),
            "" => Err("empty --targets".to_string()),
            list => Ok(TargetSelection::Lemmas(
                list.split(',')
                    .map(|l| l.trim().to_lowercase().replace(' ', "_"))
                    .filter(|l| !l.is_empty())
                    .collect(),
            )),
        }
    }
}

/// The text pipeline and its resources.
pub struct Pipeline<'a> {
    /// The inventory (morphy, senses).
    pub inv: &'a Inventory,
    /// The POS tagger.
    pub tagger: &'a PosTagger,
    /// The multiword matcher, or `None` for `--no-mwe`.
    pub mwe: Option<&'a MweMatcher>,
    /// Which tokens become targets.
    pub targets: TargetSelection,
    /// Give the head word of each joined unit a secondary target
    /// ([`Token::head`]; `--no-heads` turns it off).
    pub heads: bool,
}

impl Pipeline<'_> {
    /// Analyse `text` as (part of) document `doc_id`. Spans are shifted by
    /// `base` (the text's byte offset in its file); sentence ids count from
    /// `first_sentence`. Targets get instance ids `DOC.sN.tM`.
    pub fn analyse(
        &self,
        doc_id: &str,
        text: &str,
        base: usize,
        first_sentence: usize,
    ) -> Document {
        let mut doc = Document {
            id: doc_id.to_string(),
            sentences: Vec::new(),
        };
        for (si, raw) in split_sentences(text).into_iter().enumerate() {
            let sno = first_sentence + si;
            let words: Vec<&str> = raw.iter().map(|t| t.text.as_str()).collect();
            let tags = self.tagger.tag(&words);
            let poses: Vec<Option<Pos>> = tags
                .iter()
                .zip(&words)
                .map(|(t, w)| Pos::from_tag(t).or_else(|| self.function_tag_pos(t, w)))
                .collect();
            let lemmas: Vec<Option<String>> = words
                .iter()
                .zip(&poses)
                .zip(&tags)
                .map(|((w, p), t)| {
                    known_name(w, t)
                        .or_else(|| common_only_name(self.inv, w, t))
                        .or_else(|| p.and_then(|p| choose_lemma(self.inv, w, p)))
                        .or_else(|| name_lemma(w, t))
                })
                .collect();
            let mut matches = match self.mwe {
                Some(m) => m.find_tagged(self.inv, &words, &tags),
                None => Vec::new(),
            };
            if self.mwe.is_some() {
                matches = with_name_units(matches, &words, &tags);
            }
            if let TargetSelection::Lemmas(set) = &self.targets {
                // A requested lemma inside a collocation that is not itself
                // requested: keep the words apart so the lemma is found.
                matches.retain(|m| {
                    set.contains(&m.lemma)
                        || !lemmas[m.start..m.end]
                            .iter()
                            .any(|l| l.as_ref().is_some_and(|l| set.contains(l)))
                });
            }
            let mut tokens = Vec::with_capacity(raw.len());
            let mut mi = 0;
            let mut i = 0;
            while i < raw.len() {
                if mi < matches.len() && matches[mi].start == i {
                    let m = &matches[mi];
                    mi += 1;
                    let (start, end) = (raw[m.start].start, raw[m.end - 1].end);
                    // The head's tag: first word of a verb phrase, else the last word.
                    let head_tag = if m.pos == Pos::Verb {
                        &tags[m.start]
                    } else {
                        &tags[m.end - 1]
                    };
                    let tagged = Pos::from_tag(head_tag);
                    let pos = match tagged {
                        Some(p) if !self.inv.senses(&m.lemma, p).is_empty() => p,
                        _ => m.pos,
                    };
                    let h = if m.pos == Pos::Verb {
                        m.start
                    } else {
                        m.end - 1
                    };
                    let head = (self.heads && m.end - m.start > 1)
                        .then(|| self.head_word(&raw[h], &lemmas[h], poses[h], &tags[h], base))
                        .flatten()
                        .filter(|w| w.lemma.as_deref() != Some(m.lemma.as_str()));
                    tokens.push(Token {
                        text: text[start..end].to_string(),
                        lemma: Some(m.lemma.clone()),
                        tag: Some(head_tag.clone()),
                        pos: Some(pos),
                        span: Some((base + start, base + end)),
                        head,
                        ..Token::default()
                    });
                    i = m.end;
                    continue;
                }
                let t = &raw[i];
                tokens.push(Token {
                    text: t.text.clone(),
                    lemma: Some(lemmas[i].clone().unwrap_or_else(|| t.text.to_lowercase())),
                    tag: Some(tags[i].clone()),
                    pos: poses[i],
                    span: Some((base + t.start, base + t.end)),
                    ..Token::default()
                });
                i += 1;
            }
            let aux = auxiliary_flags(&tokens);
            for (ti, tok) in tokens.iter_mut().enumerate() {
                if self.is_target(tok, aux[ti]) {
                    tok.instance = Some(format!("{doc_id}.s{sno}.t{ti}"));
                }
                if let Some(h) = tok.head.as_deref_mut() {
                    if self.is_target(h, false) {
                        h.instance = Some(format!("{doc_id}.s{sno}.t{ti}.h"));
                    }
                }
            }
            doc.sentences.push(Sentence {
                id: format!("{doc_id}.s{sno}"),
                tokens,
            });
        }
        doc
    }

    /// The head word of a joined unit as a token of its own (not yet a
    /// target): `None` for a proper name (a name unit's words are names,
    /// not heads with senses of their own) or a word without a lemma.
    fn head_word(
        &self,
        word: &crate::text::RawToken,
        lemma: &Option<String>,
        pos: Option<Pos>,
        tag: &str,
        base: usize,
    ) -> Option<Box<Token>> {
        if matches!(tag, "NNP" | "NNPS") {
            return None;
        }
        Some(Box::new(Token {
            text: word.text.clone(),
            lemma: Some(lemma.clone()?),
            tag: Some(tag.to_string()),
            pos: Some(pos?),
            span: Some((base + word.start, base + word.end)),
            ..Token::default()
        }))
    }

    /// The WordNet category of a word the tagger gave a function-word tag
    /// that WordNet still has as an adjective or adverb, as SemCor's
    /// annotators tag it: numbers and determiners (`CD`, `DT`, `PDT`: `one`,
    /// `two`, `all`, `no`, `some`) as adjectives when WordNet has them so,
    /// existential `there` (`EX`) as an adverb. Whether they are then
    /// targets is the target table's call.
    fn function_tag_pos(&self, tag: &str, word: &str) -> Option<Pos> {
        let pos = match tag {
            "CD" | "DT" | "PDT" => Pos::Adj,
            "EX" => Pos::Adv,
            _ => return None,
        };
        (!self.inv.lookup(word, pos).is_empty()).then_some(pos)
    }

    /// Is `tok` (an auxiliary use of `be`/`have`/`do` when `aux`) a target?
    fn is_target(&self, tok: &Token, aux: bool) -> bool {
        let (Some(lemma), Some(pos)) = (&tok.lemma, tok.pos) else {
            return false;
        };
        let selected = match &self.targets {
            TargetSelection::Content => TargetTable::shipped().is_target(lemma, pos, aux),
            TargetSelection::All => true,
            TargetSelection::Lemmas(set) => set.contains(lemma),
        };
        selected && !self.inv.senses(lemma, pos).is_empty()
    }
}

/// Add the multiword names of a tagged sentence ([`name_runs`]) to its
/// collocation matches, as SemCor makes them one unit (`Mike Deegan` →
/// `person`, `New York Central` → `group`): a name run replaces the
/// collocations inside it (`new_york` of `New York Central`), but one
/// that is exactly a collocation (`New York`, `Rhode Island`) stays the
/// collocation, and a collocation reaching out of the run keeps the run
/// apart. The lemma is [`NameUnits`]' — even for a run WordNet spells as
/// a collocation the evidence would not join: SemCor tags `John Brown` as
/// `person`, not WordNet's `john_brown`.
pub fn with_name_units<S: AsRef<str>>(
    matches: Vec<MweMatch>,
    words: &[&str],
    tags: &[S],
) -> Vec<MweMatch> {
    let runs = name_runs(words, tags);
    if runs.is_empty() {
        return matches;
    }
    let mut keep: Vec<MweMatch> = Vec::with_capacity(matches.len() + runs.len());
    let units = NameUnits::shipped();
    let mut added = Vec::new();
    for &(a, b) in &runs {
        let crossing = matches.iter().any(|m| {
            (m.start < a && m.end > a) || (m.start < b && m.end > b) || (m.start, m.end) == (a, b)
        });
        if crossing {
            continue;
        }
        added.push(MweMatch {
            start: a,
            end: b,
            lemma: units.lemma(&words[a..b]).to_string(),
            pos: Pos::Noun,
        });
    }
    for m in matches {
        if !added.iter().any(|u| u.start <= m.start && m.end <= u.end) {
            keep.push(m);
        }
    }
    keep.extend(added);
    keep.sort_by_key(|m| m.start);
    keep
}

/// The lemma SemCor's annotators give a proper name they tag as a person,
/// group or location most of the time ([`crate::text::NameTable`]): `John`
/// → `person`. Only for capitalised words tagged `NNP`/`NNPS`.
pub fn known_name(word: &str, tag: &str) -> Option<String> {
    if !matches!(tag, "NNP" | "NNPS") || !word.chars().next().is_some_and(char::is_uppercase) {
        return None;
    }
    NameTable::shipped().get(word).map(str::to_string)
}

/// The lemma of a proper name WordNet has only as a common noun: a
/// capitalised word tagged `NNP`/`NNPS` (first in its sentence too: the
/// tagger has weighed the capital there) whose noun senses all spell it
/// in lower case —
/// `Mike` is WordNet's `mike` (a microphone) only, `Conrad` its `conrad`
/// (a cargo ship) — is a name WordNet does not know as one, so `person` as
/// for [`name_lemma`]. A word WordNet has capitalised (`Brown`, `Warren`,
/// `American`) keeps its own senses.
pub fn common_only_name(inv: &Inventory, word: &str, tag: &str) -> Option<String> {
    name_lemma(word, tag)?;
    let senses = inv.lookup(word, Pos::Noun);
    let capitalised = senses.iter().any(|s| {
        let lemma = s.key.split('%').next().unwrap_or("");
        inv.get(s.synset).is_some_and(|syn| {
            syn.words.iter().any(|w| {
                w.lemma.eq_ignore_ascii_case(lemma) && w.lemma.chars().any(char::is_uppercase)
            })
        })
    });
    (!senses.is_empty() && !capitalised).then(|| "person".to_string())
}

/// The lemma SemCor's annotators give a proper name WordNet does not know:
/// `person` (`Kate`, `Scotty`, `Prokofieff`). A word tagged `NNP`/`NNPS`,
/// capitalised, made of letters (and `-`, `'`, `.`), with no noun in
/// WordNet. On SemCor's train split 87% of such names that annotators
/// tagged are `person` (1,858 of 2,128; the rest `location` and `group`),
/// so the name gets `person`'s senses (`person%1:03:00::` first).
pub fn name_lemma(word: &str, tag: &str) -> Option<String> {
    let proper = matches!(tag, "NNP" | "NNPS")
        && word.chars().next().is_some_and(char::is_uppercase)
        && word.chars().count() > 1
        && word
            .chars()
            .all(|c| c.is_alphabetic() || matches!(c, '-' | '\'' | '.'))
        && word.chars().any(char::is_lowercase);
    proper.then(|| "person".to_string())
}

/// For each token of a sentence, whether it is an auxiliary use of `be`,
/// `have` or `do` ([`is_auxiliary`]: before a participle, or `do` before a
/// verb).
pub fn auxiliary_flags(tokens: &[Token]) -> Vec<bool> {
    let words: Vec<&str> = tokens.iter().map(|t| t.text.as_str()).collect();
    let tags: Vec<&str> = tokens
        .iter()
        .map(|t| t.tag.as_deref().unwrap_or(""))
        .collect();
    let lemmas: Vec<Option<&str>> = tokens.iter().map(|t| t.lemma.as_deref()).collect();
    tokens
        .iter()
        .enumerate()
        .map(|(i, t)| {
            t.pos == Some(Pos::Verb)
                && t.lemma
                    .as_deref()
                    .is_some_and(|l| is_auxiliary(l, &words, &tags, &lemmas, i))
        })
        .collect()
}

/// Rebuild the plain text of an annotated document (one line per sentence,
/// tokens joined by single spaces, `_` in multiwords turned into spaces) and
/// the byte span of every token, so a pipeline run on the text can be aligned
/// back to the gold instances.
pub fn rebuild_text(doc: &Document) -> (String, Vec<Vec<(usize, usize)>>) {
    let mut text = String::new();
    let mut spans = Vec::with_capacity(doc.sentences.len());
    for s in &doc.sentences {
        let mut sp = Vec::with_capacity(s.tokens.len());
        for (i, t) in s.tokens.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            let start = text.len();
            text.push_str(&t.text.replace('_', " "));
            sp.push((start, text.len()));
        }
        text.push('\n');
        spans.push(sp);
    }
    (text, spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_proper_names_are_persons() {
        assert_eq!(name_lemma("Kate", "NNP").as_deref(), Some("person"));
        assert_eq!(name_lemma("O'Banion", "NNP").as_deref(), Some("person"));
        assert_eq!(name_lemma("kate", "NNP"), None);
        assert_eq!(name_lemma("Kate", "NN"), None);
        assert_eq!(name_lemma("IBM", "NNP"), None);
        assert_eq!(name_lemma("R2D2", "NNP"), None);
    }

    #[test]
    fn targets_parse() {
        assert_eq!("content".parse(), Ok(TargetSelection::Content));
        assert_eq!("all".parse(), Ok(TargetSelection::All));
        let TargetSelection::Lemmas(set) = "Bank, take place".parse().unwrap() else {
            panic!("a lemma list");
        };
        assert!(set.contains("bank") && set.contains("take_place"));
        assert!("".parse::<TargetSelection>().is_err());
    }
}
