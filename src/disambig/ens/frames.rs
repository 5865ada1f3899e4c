//! Verb-frame evidence for `ens` (issue 13's verb features): whether the
//! words around a verb target fit the sentence frames WordNet lists for
//! each candidate sense (`data.verb`'s frames, e.g. `Somebody ----s
//! something`, `Something ----s`, `Somebody ----s that CLAUSE`).
//!
//! Verbs are the weakest part of speech, and a verb's senses differ in
//! their syntax: *run* "move fast" takes no object, *run* "manage" does.
//! The encoder sees the words but not WordNet's frames, NB sees bags of
//! words, so the frames are the one piece of the inventory no base method
//! reads. There is no parser here: the complement is read off the first
//! word after the verb (skipping adverbs) and the subject off the nearest
//! noun or pronoun before it, from the token's text, lemma and WordNet
//! category only, so that the same rules hold for SemCor (Penn tags), the
//! framework's XML (universal tags) and the text front end.

use crate::corpus::{Document, Target, Token};
use crate::wordnet::{Inventory, Pos, Sense};

/// What follows a verb, as far as one or two words tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Complement {
    /// Nothing: punctuation, a conjunction or the end of the sentence.
    None,
    /// A noun phrase (a determiner, pronoun, noun, number), or the verb
    /// is a passive participle (its object is the subject).
    Object,
    /// A preposition.
    Prep,
    /// `to` + verb.
    Infinitive,
    /// `that` or `whether`.
    Clause,
    /// A verb in `-ing`.
    Gerund,
    /// An adjective not followed by a noun.
    Adjective,
}

/// Who does it: the nearest noun or pronoun before the verb.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// A person pronoun, or a noun whose first sense is a person.
    Somebody,
    /// `it`, `this`, `which`…, or a noun whose first sense is not a person.
    Something,
}

/// One candidate's fit with the verb's context: `Some(true)` when a frame
/// of the sense licenses what was read, `Some(false)` when none does,
/// `None` when nothing could be read (or the target is not a verb).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameFit {
    /// The complement against the frames' complements.
    pub complement: Option<bool>,
    /// The subject against the frames' subjects.
    pub subject: Option<bool>,
}

const PREPOSITIONS: &[&str] = &[
    "in", "on", "at", "by", "for", "with", "from", "into", "of", "about", "over", "under",
    "through", "against", "after", "before", "up", "down", "out", "off", "around", "across",
    "between", "among", "upon", "onto", "toward", "towards", "like", "as", "along", "behind",
    "beyond", "within", "without", "during", "since", "until", "past", "away", "back",
];

const DETERMINERS: &[&str] = &[
    "the",
    "a",
    "an",
    "this",
    "these",
    "those",
    "his",
    "her",
    "their",
    "its",
    "my",
    "your",
    "our",
    "some",
    "any",
    "no",
    "every",
    "each",
    "all",
    "him",
    "them",
    "me",
    "us",
    "it",
    "himself",
    "herself",
    "themselves",
    "itself",
    "myself",
    "yourself",
    "ourselves",
    "what",
    "much",
    "many",
    "more",
    "most",
    "several",
    "both",
    "another",
    "such",
    "one",
    "you",
    "something",
    "anything",
    "nothing",
    "everything",
    "someone",
    "anyone",
    "everyone",
    "somebody",
    "anybody",
    "everybody",
    "nobody",
];

const ADVERBS: &[&str] = &[
    "not", "n't", "never", "also", "just", "only", "even", "still",
];

const PERSONS: &[&str] = &[
    "i",
    "you",
    "he",
    "she",
    "we",
    "they",
    "who",
    "whom",
    "me",
    "him",
    "us",
    "them",
    "someone",
    "somebody",
    "everyone",
    "everybody",
    "anyone",
    "nobody",
    "people",
    "man",
    "men",
    "woman",
    "women",
];

const THINGS: &[&str] = &[
    "it",
    "this",
    "that",
    "which",
    "what",
    "these",
    "those",
    "something",
];

fn lower(t: &Token) -> String {
    t.text.to_lowercase()
}

fn is_punct(t: &Token) -> bool {
    t.text.chars().all(|c| !c.is_alphanumeric())
}

fn is_adverb(t: &Token) -> bool {
    t.pos == Some(Pos::Adv) || ADVERBS.contains(&lower(t).as_str())
}

/// The lemma of a token (its text, lowercased, when the source gives none).
fn lemma(t: &Token) -> String {
    t.lemma.clone().unwrap_or_else(|| lower(t)).to_lowercase()
}

/// Whether the verb at `at` is a passive participle: after a form of
/// *be* or *get* (adverbs between), not in its base form, ending as
/// participles do.
fn passive(tokens: &[Token], at: usize) -> bool {
    let verb = lower(&tokens[at]);
    if verb == lemma(&tokens[at]) || !(verb.ends_with("ed") || verb.ends_with('n')) {
        return false;
    }
    tokens[..at]
        .iter()
        .rev()
        .find(|t| !is_adverb(t))
        .is_some_and(|t| matches!(lemma(t).as_str(), "be" | "get"))
}

/// What follows the verb at `at` (`None`: nothing the frames speak of).
pub fn complement(tokens: &[Token], at: usize) -> Option<Complement> {
    if passive(tokens, at) {
        return Some(Complement::Object);
    }
    let mut rest = tokens[at + 1..].iter().filter(|t| !is_adverb(t));
    let Some(next) = rest.next() else {
        return Some(Complement::None);
    };
    let w = lower(next);
    if is_punct(next) || matches!(w.as_str(), "and" | "or" | "but" | "nor") {
        return Some(Complement::None);
    }
    if w == "to" {
        let after = rest.next();
        return Some(match after {
            Some(a) if a.pos == Some(Pos::Verb) && lower(a) == lemma(a) => Complement::Infinitive,
            _ => Complement::Prep,
        });
    }
    if w == "that" || w == "whether" || w == "if" {
        return Some(Complement::Clause);
    }
    if PREPOSITIONS.contains(&w.as_str()) {
        return Some(Complement::Prep);
    }
    if DETERMINERS.contains(&w.as_str()) || w.chars().all(|c| c.is_ascii_digit()) {
        return Some(Complement::Object);
    }
    match next.pos {
        Some(Pos::Noun) => Some(Complement::Object),
        Some(Pos::Verb) if w.ends_with("ing") => Some(Complement::Gerund),
        Some(Pos::Adj) => Some(match rest.next() {
            Some(a) if a.pos == Some(Pos::Noun) || a.pos == Some(Pos::Adj) => Complement::Object,
            _ => Complement::Adjective,
        }),
        _ => None,
    }
}

/// The subject of the verb at `at`: the nearest noun or pronoun before it
/// in the same clause (a comma, semicolon or colon ends the search; so do
/// six words). `None` for a passive verb (its subject is its object).
pub fn subject(inv: &Inventory, tokens: &[Token], at: usize) -> Option<Subject> {
    if passive(tokens, at) {
        return None;
    }
    for t in tokens[..at].iter().rev().take(6) {
        if is_punct(t) {
            return None;
        }
        let w = lower(t);
        if PERSONS.contains(&w.as_str()) {
            return Some(Subject::Somebody);
        }
        if THINGS.contains(&w.as_str()) {
            return Some(Subject::Something);
        }
        if t.pos == Some(Pos::Noun) {
            let first = inv.senses(&lemma(t), Pos::Noun).first()?;
            let person = inv.get(first.synset)?.lex_filenum == NOUN_PERSON;
            return Some(if person {
                Subject::Somebody
            } else {
                Subject::Something
            });
        }
    }
    None
}

/// `noun.person`'s lexicographer file number.
const NOUN_PERSON: u8 = 18;

/// Whether frame `n` (1–35) licenses the complement `c`.
fn licenses(n: u8, c: Complement) -> bool {
    match c {
        Complement::None => matches!(n, 1 | 2 | 3 | 23),
        Complement::Object => matches!(n, 5 | 8..=11 | 14..=21 | 24 | 25 | 30 | 31),
        Complement::Prep => matches!(n, 4 | 12 | 13 | 22 | 27),
        Complement::Infinitive => matches!(n, 28 | 32 | 35),
        Complement::Clause => matches!(n, 26 | 29 | 34),
        Complement::Gerund => n == 33,
        Complement::Adjective => matches!(n, 6 | 7),
    }
}

/// The subject frame `n` asks for (`It ----s` counts as something).
fn frame_subject(n: u8) -> Subject {
    match crate::wordnet::frames::FRAMES.get(n as usize - 1) {
        Some(f) if f.starts_with("Somebody") => Subject::Somebody,
        _ => Subject::Something,
    }
}

/// The frames of `sense` that apply to its lemma (`lemma`): those of the
/// whole synset and those of the lemma's own word.
fn sense_frames(inv: &Inventory, sense: &Sense, lemma: &str) -> Vec<u8> {
    let Some(syn) = inv.get(sense.synset) else {
        return Vec::new();
    };
    let word = syn.word_index(lemma).map(|i| i + 1);
    syn.frames
        .iter()
        .filter(|f| f.word == 0 || Some(f.word as usize) == word)
        .filter(|f| (1..=35).contains(&f.number))
        .map(|f| f.number)
        .collect()
}

/// The frame fit of each candidate of `target` (all `None` unless it is a
/// verb).
pub fn frame_fits(
    inv: &Inventory,
    doc: &Document,
    target: &Target,
    cands: &[Sense],
) -> Vec<FrameFit> {
    if target.pos != Pos::Verb {
        return vec![FrameFit::default(); cands.len()];
    }
    let Some(tokens) = doc.sentences.get(target.sentence).map(|s| &s.tokens[..]) else {
        return vec![FrameFit::default(); cands.len()];
    };
    if target.token >= tokens.len() {
        return vec![FrameFit::default(); cands.len()];
    }
    let c = complement(tokens, target.token);
    let s = subject(inv, tokens, target.token);
    cands
        .iter()
        .map(|sense| {
            let frames = sense_frames(inv, sense, &target.lemma);
            if frames.is_empty() {
                return FrameFit::default();
            }
            FrameFit {
                complement: c.map(|c| frames.iter().any(|&n| licenses(n, c))),
                subject: s.map(|s| frames.iter().any(|&n| frame_subject(n) == s)),
            }
        })
        .collect()
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// Tokens with the given texts and parts of speech (shared with the
    /// object features' tests).
    pub(in crate::disambig::ens) fn sentence(words: &[(&str, Option<Pos>)]) -> Vec<Token> {
        words
            .iter()
            .map(|(w, p)| Token {
                text: w.to_string(),
                pos: *p,
                ..Default::default()
            })
            .collect()
    }

    const N: Option<Pos> = Some(Pos::Noun);
    const V: Option<Pos> = Some(Pos::Verb);

    #[test]
    fn the_complement_is_read_off_the_next_words() {
        let s = sentence(&[("He", None), ("ran", V), ("the", None), ("company", N)]);
        assert_eq!(complement(&s, 1), Some(Complement::Object));
        let s = sentence(&[("He", None), ("ran", V), (".", None)]);
        assert_eq!(complement(&s, 1), Some(Complement::None));
        let s = sentence(&[("He", None), ("ran", V), ("quickly", Some(Pos::Adv))]);
        assert_eq!(complement(&s, 1), Some(Complement::None));
        let s = sentence(&[("ran", V), ("into", None), ("debt", N)]);
        assert_eq!(complement(&s, 0), Some(Complement::Prep));
        let s = sentence(&[("wants", V), ("to", None), ("go", V)]);
        assert_eq!(complement(&s, 0), Some(Complement::Infinitive));
        let s = sentence(&[("said", V), ("that", None), ("it", None)]);
        assert_eq!(complement(&s, 0), Some(Complement::Clause));
        let s = sentence(&[("stopped", V), ("talking", V)]);
        assert_eq!(complement(&s, 0), Some(Complement::Gerund));
        let s = sentence(&[("seems", V), ("happy", Some(Pos::Adj)), (".", None)]);
        assert_eq!(complement(&s, 0), Some(Complement::Adjective));
        // a passive participle has its object before it
        let mut s = sentence(&[("it", None), ("was", V), ("raised", V), ("by", None)]);
        s[1].lemma = Some("be".into());
        s[2].lemma = Some("raise".into());
        assert_eq!(complement(&s, 2), Some(Complement::Object));
        // without its lemma the participle is not told from a base form
        s[2].lemma = None;
        assert_eq!(complement(&s, 2), Some(Complement::Prep));
        let s = sentence(&[("ran", V), ("quoth", None)]);
        assert_eq!(complement(&s, 0), None);
    }

    #[test]
    fn frames_license_what_they_name() {
        assert!(licenses(8, Complement::Object)); // Somebody ----s something
        assert!(!licenses(8, Complement::None));
        assert!(licenses(2, Complement::None)); // Somebody ----s
        assert!(licenses(26, Complement::Clause)); // Somebody ----s that CLAUSE
        assert!(licenses(28, Complement::Infinitive));
        assert!(licenses(22, Complement::Prep)); // Somebody ----s PP
        assert_eq!(frame_subject(2), Subject::Somebody);
        assert_eq!(frame_subject(1), Subject::Something);
        assert_eq!(frame_subject(34), Subject::Something); // It ----s that CLAUSE
    }

    #[test]
    fn run_fits_its_senses_by_their_frames() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let inv = Inventory::open(Some(&root.join("wordnet/dict"))).expect("wordnet/dict");
        let tokens = sentence(&[("She", None), ("runs", V), ("the", None), ("firm", N)]);
        let doc = Document {
            id: "d".into(),
            sentences: vec![crate::corpus::Sentence {
                id: "s".into(),
                tokens,
            }],
        };
        let t = Target {
            sentence: 0,
            token: 1,
            id: "d.s.t1".into(),
            lemma: "run".into(),
            pos: Pos::Verb,
            role: crate::corpus::Role::Token,
        };
        let cands = inv.senses("run", Pos::Verb).to_vec();
        let fits = frame_fits(&inv, &doc, &t, &cands);
        assert_eq!(fits.len(), cands.len());
        // run%2:38:00:: "move fast by using one's feet" has no object
        // frame (1, 2, 22); run%2:41:00:: "carry out a process or
        // program" has Somebody ----s something (8)
        let run01 = cands.iter().position(|s| s.key == "run%2:38:00::").unwrap();
        let run03 = cands.iter().position(|s| s.key == "run%2:41:00::").unwrap();
        assert_eq!(fits[run01].complement, Some(false));
        assert_eq!(fits[run03].complement, Some(true));
        assert_eq!(fits[run03].subject, Some(true));
        // not a verb: nothing
        let n = Target {
            pos: Pos::Noun,
            ..t.clone()
        };
        assert!(frame_fits(&inv, &doc, &n, &cands[..2])
            .iter()
            .all(|f| *f == FrameFit::default()));
    }
}
