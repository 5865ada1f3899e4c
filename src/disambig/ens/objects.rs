//! Object evidence for `ens` (issue 13, item 3): which senses of a verb
//! its object noun went with in the training data.
//!
//! **Why.** Verbs are the weakest part of speech, and a verb's sense is
//! often told by its object: *draw* a *picture* against *draw* a *gun*
//! against *draw* a *conclusion*. NB sees the object only as one word of
//! a ±3 bag, kNN only through the encoder's pooled context; here the
//! object is read on its own, as its lemma and as its lexicographer class
//! (`noun.artifact`, `noun.person`…, of the noun's first sense, so that
//! objects never seen with the verb still count).
//!
//! **Reading the object.** No parser: the first noun after the verb
//! within [`WINDOW`] words, past adverbs, determiners, numbers and
//! adjectives; punctuation, a preposition, a conjunction or another verb
//! ends the search. A person pronoun (`him`, `them`) stands for the class
//! `noun.person`. A passive participle has no object after it.
//!
//! **Features.** For candidate sense `s` of a verb whose object is `o`,
//! with `n_s` the training verbs tagged `s` with object `o` (lemma or
//! class) and `N` the sum over the verb's candidates: the lift
//! `ln((n_s + β·p_s) / (N + β)) − ln p_s`, `p_s` the sense's tag-count
//! share, `β` = [`BETA`]; 0 when the object was never seen with the verb.
//! At training the counts are leave-one-document-out (the document's own
//! verbs taken off), as the prior is.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::corpus::{Document, Target, Token};
use crate::wordnet::{Inventory, Pos, Sense};

/// Words after the verb searched for its object.
pub const WINDOW: usize = 4;

/// The pseudo-count of the prior in the lift.
pub const BETA: f64 = 2.0;

/// `noun.person`'s lexicographer file number.
const NOUN_PERSON: u8 = 18;

const STOPS: &[&str] = &[
    "and", "or", "but", "nor", "that", "which", "who", "whom", "whose", "to", "in", "on", "at",
    "by", "for", "with", "from", "into", "of", "about", "over", "under", "through", "against",
    "after", "before", "as", "like", "than", "if", "when", "while", "because", "so",
];

const PERSON_PRONOUNS: &[&str] = &[
    "him",
    "her",
    "them",
    "me",
    "us",
    "you",
    "himself",
    "herself",
    "themselves",
    "myself",
    "yourself",
    "ourselves",
    "someone",
    "somebody",
    "everyone",
    "everybody",
    "anyone",
    "anybody",
    "nobody",
];

/// A verb's object: its noun lemma (none for a pronoun) and class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Object {
    /// The noun's lemma, lowercased (`None` for a person pronoun).
    pub lemma: Option<String>,
    /// The lexicographer file of the noun's first sense.
    pub class: u8,
}

fn lower(t: &Token) -> String {
    t.text.to_lowercase()
}

/// The object of the verb at `at` in `tokens` (see the module docs).
pub fn object(inv: &Inventory, tokens: &[Token], at: usize) -> Option<Object> {
    let verb = tokens.get(at)?;
    let form = lower(verb);
    let base = verb.lemma.clone().unwrap_or_else(|| form.clone());
    if form != base && form.ends_with("ed") {
        // a participle after be/get reads as passive: no object after it
        let before = tokens[..at]
            .iter()
            .rev()
            .find(|t| t.pos != Some(Pos::Adv))
            .and_then(|t| t.lemma.clone());
        if matches!(before.as_deref(), Some("be" | "get")) {
            return None;
        }
    }
    for t in tokens.iter().skip(at + 1).take(WINDOW) {
        let w = lower(t);
        if t.text.chars().all(|c| !c.is_alphanumeric()) || STOPS.contains(&w.as_str()) {
            return None;
        }
        if PERSON_PRONOUNS.contains(&w.as_str()) {
            return Some(Object {
                lemma: None,
                class: NOUN_PERSON,
            });
        }
        match t.pos {
            Some(Pos::Noun) => {
                let lemma = t.lemma.clone().unwrap_or(w).to_lowercase();
                let first = inv.senses(&lemma, Pos::Noun).first()?.synset;
                let class = inv.get(first)?.lex_filenum;
                return Some(Object {
                    lemma: Some(lemma),
                    class,
                });
            }
            Some(Pos::Verb) => return None,
            _ => {}
        }
    }
    None
}

/// The object of a verb `target` (`None` for other parts of speech).
pub fn target_object(inv: &Inventory, doc: &Document, target: &Target) -> Option<Object> {
    if target.pos != Pos::Verb {
        return None;
    }
    let tokens = &doc.sentences.get(target.sentence)?.tokens;
    object(inv, tokens, target.token)
}

/// Training counts: verb sense key × object lemma, and × object class.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ObjectCounts {
    /// `(sense key, object lemma)` → verbs.
    #[serde(with = "pairs")]
    pub lemma: HashMap<(String, String), u32>,
    /// `(sense key, object class)` → verbs.
    #[serde(with = "pairs")]
    pub class: HashMap<(String, u8), u32>,
}

/// Maps with tuple keys as lists of `[key…, count]` (JSON has no tuple
/// keys).
mod pairs {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::collections::HashMap;
    use std::hash::Hash;

    pub fn serialize<K: Serialize + Ord + Clone, S: Serializer>(
        m: &HashMap<K, u32>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let mut v: Vec<(K, u32)> = m.iter().map(|(k, c)| (k.clone(), *c)).collect();
        v.sort();
        v.serialize(s)
    }

    pub fn deserialize<'de, K: Deserialize<'de> + Eq + Hash, D: Deserializer<'de>>(
        d: D,
    ) -> Result<HashMap<K, u32>, D::Error> {
        Ok(Vec::<(K, u32)>::deserialize(d)?.into_iter().collect())
    }
}

impl ObjectCounts {
    /// Count the gold-tagged verbs of `docs` with their objects.
    pub fn count(inv: &Inventory, docs: &[Document]) -> ObjectCounts {
        let mut c = ObjectCounts::default();
        for doc in docs {
            c.add(&ObjectCounts::of_document(inv, doc));
        }
        c
    }

    /// The counts of one document's gold-tagged verbs.
    pub fn of_document(inv: &Inventory, doc: &Document) -> ObjectCounts {
        let mut c = ObjectCounts::default();
        for sent in &doc.sentences {
            for (i, tok) in sent.tokens.iter().enumerate() {
                if tok.gold.is_empty() || tok.pos != Some(Pos::Verb) {
                    continue;
                }
                let Some(o) = object(inv, &sent.tokens, i) else {
                    continue;
                };
                for key in &tok.gold {
                    if let Some(l) = &o.lemma {
                        *c.lemma.entry((key.clone(), l.clone())).or_default() += 1;
                    }
                    *c.class.entry((key.clone(), o.class)).or_default() += 1;
                }
            }
        }
        c
    }

    fn add(&mut self, o: &ObjectCounts) {
        for (k, n) in &o.lemma {
            *self.lemma.entry(k.clone()).or_default() += n;
        }
        for (k, n) in &o.class {
            *self.class.entry(k.clone()).or_default() += n;
        }
    }

    /// The lifts (lemma, class) of each candidate of a verb whose object
    /// is `o`, with `own` (the held-out document's counts) taken off and
    /// `shares` the candidates' prior shares.
    pub fn lifts(
        &self,
        o: Option<&Object>,
        cands: &[Sense],
        shares: &[f64],
        own: Option<&ObjectCounts>,
    ) -> Vec<(f64, f64)> {
        let Some(o) = o else {
            return vec![(0.0, 0.0); cands.len()];
        };
        let less = |n: u32, m: Option<u32>| n.saturating_sub(m.unwrap_or(0)) as f64;
        let lemma: Vec<f64> = cands
            .iter()
            .map(|c| match &o.lemma {
                Some(l) => {
                    let k = (c.key.clone(), l.clone());
                    less(
                        self.lemma.get(&k).copied().unwrap_or(0),
                        own.and_then(|w| w.lemma.get(&k).copied()),
                    )
                }
                None => 0.0,
            })
            .collect();
        let class: Vec<f64> = cands
            .iter()
            .map(|c| {
                let k = (c.key.clone(), o.class);
                less(
                    self.class.get(&k).copied().unwrap_or(0),
                    own.and_then(|w| w.class.get(&k).copied()),
                )
            })
            .collect();
        let lift = |n: &[f64]| -> Vec<f64> {
            let total: f64 = n.iter().sum();
            if total == 0.0 {
                return vec![0.0; n.len()];
            }
            n.iter()
                .zip(shares)
                .map(|(&x, &p)| ((x + BETA * p) / (total + BETA)).ln() - p.ln())
                .collect()
        };
        lift(&lemma).into_iter().zip(lift(&class)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sense(key: &str) -> Sense {
        Sense {
            key: key.into(),
            synset: crate::wordnet::SynsetId {
                offset: 0,
                pos: Pos::Verb,
            },
            number: 1,
            tag_count: 0,
        }
    }

    #[test]
    fn lift_favours_the_sense_seen_with_the_object_and_leave_one_out_removes_it() {
        let mut c = ObjectCounts::default();
        c.lemma
            .insert(("draw%2:36:00::".into(), "picture".into()), 3);
        c.class.insert(("draw%2:36:00::".into(), 6), 3);
        c.class.insert(("draw%2:35:00::".into(), 6), 1);
        let cands = [sense("draw%2:36:00::"), sense("draw%2:35:00::")];
        let shares = [0.5, 0.5];
        let o = Object {
            lemma: Some("picture".into()),
            class: 6,
        };
        let l = c.lifts(Some(&o), &cands, &shares, None);
        assert!(l[0].0 > 0.0 && l[1].0 < 0.0, "{l:?}");
        assert!(l[0].1 > 0.0 && l[1].1 < 0.0, "{l:?}");
        // the held-out document was the only evidence: no lift left
        let l = c.lifts(Some(&o), &cands, &shares, Some(&c));
        assert_eq!(l, vec![(0.0, 0.0); 2]);
        // no object: no evidence
        assert_eq!(c.lifts(None, &cands, &shares, None), vec![(0.0, 0.0); 2]);
    }

    use super::super::frames::tests::sentence;

    const N: Option<Pos> = Some(Pos::Noun);
    const V: Option<Pos> = Some(Pos::Verb);
    const A: Option<Pos> = Some(Pos::Adj);

    #[test]
    fn the_object_is_the_first_noun_after_the_verb_within_the_clause() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let inv = Inventory::open(Some(&root.join("wordnet/dict"))).expect("wordnet/dict");
        let s = sentence(&[("drew", V), ("a", None), ("big", A), ("picture", N)]);
        let o = object(&inv, &s, 0).unwrap();
        assert_eq!(o.lemma.as_deref(), Some("picture"));
        let first = inv.senses("picture", Pos::Noun)[0].synset;
        assert_eq!(o.class, inv.get(first).unwrap().lex_filenum);
        // a person pronoun: the class only
        let s = sentence(&[("saw", V), ("him", None)]);
        assert_eq!(
            object(&inv, &s, 0),
            Some(Object {
                lemma: None,
                class: NOUN_PERSON
            })
        );
        // a preposition, punctuation or another verb ends the search
        for s in [
            sentence(&[("ran", V), ("into", None), ("debt", N)]),
            sentence(&[("ran", V), (",", None), ("debt", N)]),
            sentence(&[("wants", V), ("go", V), ("home", N)]),
        ] {
            assert_eq!(object(&inv, &s, 0), None);
        }
        // too far
        let s = sentence(&[
            ("drew", V),
            ("a", None),
            ("very", None),
            ("very", None),
            ("big", A),
            ("picture", N),
        ]);
        assert_eq!(object(&inv, &s, 0), None);
    }

    #[test]
    fn counts_round_trip_through_json() {
        let mut c = ObjectCounts::default();
        c.lemma.insert(("a%2:36:00::".into(), "b".into()), 2);
        c.class.insert(("a%2:36:00::".into(), 6), 1);
        let s = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<ObjectCounts>(&s).unwrap(), c);
    }
}
