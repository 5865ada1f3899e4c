//! The Naive Bayes model body and model file: save and load.
//!
//! The body is [`crate::model_io::to_body`] (an 8-byte tag, then postcard)
//! of [`NbBody`]: parameters, training facts, the vocabulary, and per
//! (lemma, POS) the senses with their example counts and the features in
//! CSR form. Feature keys are stored as deltas (they are sorted and carry
//! their family in the top byte, so absolute keys would take 8–9 varint
//! bytes each). Decoding is postcard's, bounds-checked; on top of it every
//! invariant the scorer relies on (increasing keys, sense indices in range
//! and increasing within a feature, no zero counts, no duplicate words or
//! lemmas) is checked, so a bad body is an [`Error::Model`] and never a
//! panic at prediction time.

use std::path::Path;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::model::{pos_index, LemmaModel, NaiveBayes};
use super::params::{NbFacts, NbParams};
use super::METHOD;
use crate::model_io::{self, ModelHeader};
use crate::wordnet::{Inventory, Pos};
use crate::{Error, Result};

/// Body type and version: the first bytes of an NB body.
pub(super) const BODY_TAG: &[u8; 8] = b"WSDNB002";

/// The body as stored (borrowing strings from the bytes when decoding).
#[derive(Serialize, Deserialize)]
struct NbBody<'a> {
    params: NbParams,
    facts: NbFacts,
    #[serde(borrow)]
    words: Vec<&'a str>,
    #[serde(borrow)]
    lemmas: Vec<LemmaBody<'a>>,
}

/// One (lemma, POS) as stored.
#[derive(Serialize, Deserialize)]
struct LemmaBody<'a> {
    /// Index into [`Pos::ALL`].
    pos: u8,
    lemma: &'a str,
    #[serde(borrow)]
    senses: Vec<&'a str>,
    examples: Vec<u32>,
    /// First key, then the differences between consecutive keys.
    key_deltas: Vec<u64>,
    /// Entries per key.
    lens: Vec<u32>,
    ent_sense: Vec<u16>,
    ent_count: Vec<u32>,
}

impl NaiveBayes {
    /// The model body (deterministic for a given training run).
    pub fn to_bytes(&self) -> Vec<u8> {
        let lemmas = self
            .models
            .iter()
            .map(|(pos, lemma, m)| LemmaBody {
                pos: pos_index(*pos) as u8,
                lemma: lemma.as_str(),
                senses: m.senses.iter().map(String::as_str).collect(),
                examples: m.examples.clone(),
                key_deltas: m
                    .keys
                    .iter()
                    .scan(0u64, |prev, &k| {
                        let d = k - *prev;
                        *prev = k;
                        Some(d)
                    })
                    .collect(),
                lens: m.starts.windows(2).map(|w| w[1] - w[0]).collect(),
                ent_sense: m.ent_sense.clone(),
                ent_count: m.ent_count.clone(),
            })
            .collect();
        let body = NbBody {
            params: self.params.clone(),
            facts: self.facts.clone(),
            words: self.words.iter().map(String::as_str).collect(),
            lemmas,
        };
        model_io::to_body(BODY_TAG, &body).expect("an NB body always encodes")
    }

    /// Read a body written by [`NaiveBayes::to_bytes`]. Truncated or
    /// garbled input gives [`Error::Model`], never a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<NaiveBayes> {
        NaiveBayes::parse_body(bytes, &model_io::unnamed("Naive Bayes body"))
    }

    fn parse_body(bytes: &[u8], path: &Path) -> Result<NaiveBayes> {
        let body: NbBody = model_io::from_body(path, BODY_TAG, bytes)?;
        let bad = |what: String| Error::Model {
            path: path.to_path_buf(),
            msg: format!(
                "corrupted Naive Bayes body: {what}; retrain with `wsd train --method nb`"
            ),
        };
        let mut vocab = FxHashMap::default();
        vocab.reserve(body.words.len());
        for (i, w) in body.words.iter().enumerate() {
            if vocab.insert((*w).to_owned(), i as u32).is_some() {
                return Err(bad(format!("word {w:?} twice in the vocabulary")));
            }
        }
        let words = body.words.iter().map(|w| (*w).to_owned()).collect();
        let mut models = Vec::with_capacity(body.lemmas.len());
        let mut seen: [FxHashMap<&str, ()>; 4] = Default::default();
        for l in body.lemmas {
            let pi = l.pos as usize;
            let pos = *Pos::ALL
                .get(pi)
                .ok_or_else(|| bad(format!("bad POS index {pi}")))?;
            if seen[pi].insert(l.lemma, ()).is_some() {
                return Err(bad(format!("lemma {:?} ({pos}) twice", l.lemma)));
            }
            let n_senses = l.senses.len();
            if n_senses == 0 || n_senses > u16::MAX as usize || l.examples.len() != n_senses {
                return Err(bad(format!(
                    "{n_senses} senses, {} example counts for {:?}",
                    l.examples.len(),
                    l.lemma
                )));
            }
            if l.examples.contains(&0) {
                return Err(bad("a sense with no training example".into()));
            }
            if l.lens.len() != l.key_deltas.len()
                || l.ent_sense.len() != l.ent_count.len()
                || l.lens.iter().map(|&n| n as u64).sum::<u64>() != l.ent_sense.len() as u64
            {
                return Err(bad(format!("inconsistent feature table for {:?}", l.lemma)));
            }
            let mut keys = Vec::with_capacity(l.key_deltas.len());
            let mut starts = Vec::with_capacity(l.key_deltas.len() + 1);
            if !l.key_deltas.is_empty() {
                starts.push(0u32);
            }
            let mut prev = 0u64;
            let mut at = 0usize;
            for (i, (&d, &n)) in l.key_deltas.iter().zip(&l.lens).enumerate() {
                if i > 0 && d == 0 {
                    return Err(bad("feature keys not increasing".into()));
                }
                let k = prev
                    .checked_add(d)
                    .ok_or_else(|| bad("feature key overflow".into()))?;
                keys.push(k);
                prev = k;
                let n = n as usize;
                if n == 0 || n > n_senses {
                    return Err(bad(format!("feature with {n} entries")));
                }
                let span = at..at + n;
                let mut last: Option<u16> = None;
                for (&s, &c) in l.ent_sense[span.clone()].iter().zip(&l.ent_count[span]) {
                    if s as usize >= n_senses || last.is_some_and(|x| s <= x) {
                        return Err(bad(format!("bad sense index {s}")));
                    }
                    if c == 0 {
                        return Err(bad("zero count".into()));
                    }
                    last = Some(s);
                }
                at += n;
                starts.push(u32::try_from(at).map_err(|_| bad("too many entries".into()))?);
            }
            let m = LemmaModel::new(
                l.senses.iter().map(|s| (*s).to_owned()).collect(),
                l.examples,
                keys,
                starts,
                l.ent_sense,
                l.ent_count,
            );
            models.push((pos, l.lemma.to_owned(), m));
        }
        Ok(NaiveBayes::assemble(
            body.params,
            body.facts,
            vocab,
            words,
            models,
        ))
    }

    /// The header params of the model file: `{"params": …, "training": …}`.
    fn header_params(&self) -> serde_json::Value {
        serde_json::json!({ "params": self.params, "training": self.facts })
    }

    /// Write the model atomically (temporary file + rename, see
    /// [`model_io`]) with method `nb`, the WordNet checksum of `inv`, and
    /// the parameters and training facts in the header.
    pub fn save(&self, path: &Path, inv: &Inventory) -> Result<ModelHeader> {
        self.save_with_checksum(path, inv.checksum()?)
    }

    /// [`NaiveBayes::save`] with an explicit WordNet checksum.
    pub fn save_with_checksum(&self, path: &Path, wordnet_sha256: &str) -> Result<ModelHeader> {
        model_io::write_model(
            path,
            METHOD,
            wordnet_sha256,
            self.header_params(),
            &self.to_bytes(),
        )
    }

    /// Read a model written by [`NaiveBayes::save`], refusing another
    /// method, a model built on another WordNet than `inv`, and truncated
    /// or corrupted files.
    pub fn load(path: &Path, inv: &Inventory) -> Result<NaiveBayes> {
        NaiveBayes::load_with_checksum(path, inv.checksum()?)
    }

    /// [`NaiveBayes::load`] with an explicit WordNet checksum.
    pub fn load_with_checksum(path: &Path, wordnet_sha256: &str) -> Result<NaiveBayes> {
        let (_, body) = model_io::read_model(path, METHOD, Some(wordnet_sha256))?;
        NaiveBayes::parse_body(&body, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::disambig::naive_bayes::testutil::*;

    #[test]
    fn body_round_trip() {
        let m = toy_model();
        let bytes = m.to_bytes();
        let back = NaiveBayes::from_bytes(&bytes).unwrap();
        assert_eq!(back.params, m.params);
        assert_eq!(back.facts, m.facts);
        assert_eq!(back.words, m.words);
        assert_eq!(back.vocab, m.vocab);
        assert_eq!(back.models, m.models);
        assert_eq!(back.to_bytes(), bytes);
        let d5 = bass_doc("d5", &["line", "guitar", "jazz", "jazz"], &[]);
        let cands = [sense(BASS_FISH, 1), sense(BASS_GUITAR, 2)];
        let p = predict(&m, &d5, &cands);
        assert!(p.is_some());
        assert_eq!(predict(&back, &d5, &cands), p);
    }

    #[test]
    fn truncated_or_garbled_bodies_are_errors_not_panics() {
        let bytes = toy_model().to_bytes();
        for n in 0..bytes.len() {
            match NaiveBayes::from_bytes(&bytes[..n]) {
                Err(Error::Model { msg, .. }) => assert!(msg.contains("corrupted"), "{msg}"),
                other => panic!("prefix {n}: {:?}", other.map(|_| ())),
            }
        }
        let mut padded = bytes.clone();
        padded.push(0);
        assert!(NaiveBayes::from_bytes(&padded).is_err());
        // Every single-byte change: an error or a model, never a panic.
        for i in 0..bytes.len() {
            for x in [0x01u8, 0x80, 0xff] {
                let mut bad = bytes.clone();
                bad[i] ^= x;
                let _ = NaiveBayes::from_bytes(&bad);
            }
        }
        // A huge count does not allocate: it runs out of bytes.
        let mut huge = BODY_TAG.to_vec();
        huge.extend(model_io::encode(&NbParams::default()).unwrap());
        huge.extend(model_io::encode(&NbFacts::default()).unwrap());
        huge.extend(model_io::encode(&(u64::MAX >> 1)).unwrap());
        let e = NaiveBayes::from_bytes(&huge).unwrap_err().to_string();
        assert!(e.contains("corrupted"), "{e}");
    }

    #[test]
    fn model_files_refuse_truncation_other_methods_and_other_wordnets() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("nb.model");
        let m = toy_model();
        let h = m.save_with_checksum(&p, "sha-a").unwrap();
        assert_eq!(h.method, "nb");
        assert_eq!(h.params["training"]["split"], "toy");
        assert_eq!(h.params["training"]["documents"], 4);
        assert_eq!(h.params["params"]["alpha"], 0.5);
        assert_eq!(h.params["params"]["min_examples"], 1);
        let back = NaiveBayes::load_with_checksum(&p, "sha-a").unwrap();
        assert_eq!(back.models, m.models);

        let e = NaiveBayes::load_with_checksum(&p, "sha-b")
            .unwrap_err()
            .to_string();
        assert!(e.contains("another WordNet"), "{e}");

        let bytes = std::fs::read(&p).unwrap();
        std::fs::write(&p, &bytes[..bytes.len() / 2]).unwrap();
        let e = NaiveBayes::load_with_checksum(&p, "sha-a")
            .unwrap_err()
            .to_string();
        assert!(e.contains("truncated"), "{e}");

        let mut bad = bytes.clone();
        let n = bad.len();
        bad[n - 5] ^= 0x55;
        std::fs::write(&p, &bad).unwrap();
        let e = NaiveBayes::load_with_checksum(&p, "sha-a")
            .unwrap_err()
            .to_string();
        assert!(e.contains("corrupted"), "{e}");

        let knn = d.path().join("knn.model");
        model_io::write_model(&knn, "knn", "sha-a", serde_json::json!({}), b"vectors").unwrap();
        let e = NaiveBayes::load_with_checksum(&knn, "sha-a")
            .unwrap_err()
            .to_string();
        assert!(e.contains("a model of method knn, not nb"), "{e}");

        // A file with a valid container but a body that is not NB's.
        let odd = d.path().join("odd.model");
        model_io::write_model(&odd, "nb", "sha-a", serde_json::json!({}), b"garbage").unwrap();
        let e = NaiveBayes::load_with_checksum(&odd, "sha-a").unwrap_err();
        assert!(
            matches!(&e, Error::Model { path, .. } if path == &odd),
            "{e}"
        );
    }
}
