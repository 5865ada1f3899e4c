//! Body of a [`PosTagger`] model, through the model codec of
//! [`crate::model_io`]: [`model_io::to_body`] (an 8-byte tag, then
//! postcard) of [`PosBody`], [`model_io::seal`]ed with a checksum so that
//! [`PosTagger::from_bytes`] detects a truncated or garbled body on its own.
//!
//! ```text
//! b"WSDPOS04"  postcard { flags, tags, dict, lexicon, key_deltas, lens, entries, closed }
//! 8 bytes      sha256 prefix of all the above
//! ```
//!
//! `tags` are the tag names in id order; `dict` the tag dictionary sorted
//! by word; `lexicon` the WordNet categories of each word (sorted; empty
//! for a tagger trained without WordNet); the weight rows sorted by feature hash, as the first hash and
//! the differences (`key_deltas`), the number of weights of each row
//! (`lens`) and all `(tag, weight)` pairs (`entries`); `closed` the
//! closed-class tags each word was seen with ([`super::ClosedClass`]:
//! lower-cased word, bits over its tag list). A `WSDPOS03` body (the same
//! without `closed`) still loads and decodes without that constraint.
//! Reading checks the
//! checksum, then tag ids against the tag count, finiteness of weights,
//! duplicates and the row lengths, so bad input is an
//! [`crate::Error::Model`] and never a panic or a huge allocation.

use std::path::Path;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::features::flags;
use super::{Lexicon, PosTagger};
use crate::model_io;
use crate::{Error, Result};

/// Body type and version (04: the closed-class table; 03, the WordNet
/// lexicon, still reads; older models are refused: retrain with
/// `wsd train --method pos`).
const BODY_TAG: &[u8; 8] = b"WSDPOS04";
/// The version before the closed-class table.
const BODY_TAG_03: &[u8; 8] = b"WSDPOS03";

/// The body as stored (strings borrowed from the bytes when decoding).
#[derive(Serialize, Deserialize)]
struct PosBody<'a> {
    flags: u32,
    #[serde(borrow)]
    tags: Vec<&'a str>,
    #[serde(borrow)]
    dict: Vec<(&'a str, u16)>,
    #[serde(borrow)]
    lexicon: Vec<(&'a str, u8)>,
    key_deltas: Vec<u64>,
    lens: Vec<u16>,
    entries: Vec<(u16, f32)>,
}

/// A version 04 body: version 03's fields, then the closed-class table
/// (postcard lays a nested struct's fields out inline).
#[derive(Serialize, Deserialize)]
struct PosBody04<'a> {
    #[serde(borrow)]
    body: PosBody<'a>,
    #[serde(borrow)]
    closed: Vec<(&'a str, u16)>,
}

pub(crate) fn write(t: &PosTagger) -> Vec<u8> {
    let dict = sorted_pairs(&t.tagdict);
    let lexicon = sorted_pairs(&t.lexicon.map);
    let mut rows: Vec<(u64, (u32, u32))> = t.index.iter().collect();
    rows.sort_unstable();
    let mut key_deltas = Vec::with_capacity(rows.len());
    let mut lens = Vec::with_capacity(rows.len());
    let mut entries = Vec::with_capacity(t.entries.len());
    let mut prev = 0u64;
    for (key, (a, b)) in rows {
        key_deltas.push(key - prev);
        prev = key;
        let span = a as usize..b as usize;
        lens.push(span.len() as u16);
        entries.extend_from_slice(&t.entries[span]);
    }
    let closed = sorted_pairs(&t.closed.words);
    let body = PosBody {
        flags: t.flags,
        tags: t.tags.iter().map(String::as_str).collect(),
        dict,
        lexicon,
        key_deltas,
        lens,
        entries,
    };
    let body = PosBody04 { body, closed };
    model_io::seal(model_io::to_body(BODY_TAG, &body).expect("a POS body always encodes"))
}

pub(crate) fn read(bytes: &[u8]) -> Result<PosTagger> {
    let path = model_io::unnamed("pos tagger body");
    let path: &Path = &path;
    let bad = |msg: String| Error::Model {
        path: path.to_path_buf(),
        msg: format!("corrupted POS tagger body: {msg}; retrain with `wsd train --method pos`"),
    };
    let bytes = model_io::unseal(path, bytes)?;
    let (body, closed) = if bytes.starts_with(BODY_TAG_03) {
        (
            model_io::from_body::<PosBody>(path, BODY_TAG_03, bytes)?,
            None,
        )
    } else {
        let v4: PosBody04 = model_io::from_body(path, BODY_TAG, bytes)?;
        (v4.body, Some(v4.closed))
    };
    if body.flags & !flags::KNOWN != 0 {
        return Err(bad(format!(
            "unknown feature flags {:#x}: model from a newer build",
            body.flags
        )));
    }
    let n_tags = body.tags.len();
    if n_tags > usize::from(u16::MAX) {
        return Err(bad(format!("{n_tags} tags")));
    }
    let tag = |t: u16| {
        if usize::from(t) < n_tags {
            Ok(t)
        } else {
            Err(bad(format!("tag id {t} out of range ({n_tags} tags)")))
        }
    };
    let tagdict = word_map(
        body.dict,
        || bad("duplicate tag-dictionary word".into()),
        |_, t| tag(t),
    )?;
    let lexicon = Lexicon {
        map: word_map(
            body.lexicon,
            || bad("duplicate lexicon word".into()),
            |_, b| Ok(b),
        )?,
    };
    let n_rows = body.key_deltas.len();
    if body.lens.len() != n_rows
        || body.lens.iter().map(|&n| n as usize).sum::<usize>() != body.entries.len()
    {
        return Err(bad("row lengths do not match the weights".into()));
    }
    if u32::try_from(body.entries.len()).is_err() {
        return Err(bad("too many weights".into()));
    }
    for &(t, w) in &body.entries {
        tag(t)?;
        if !w.is_finite() {
            return Err(bad("non-finite weight".into()));
        }
    }
    let mut index = super::rows::FeatureRows::with_capacity(n_rows);
    let (mut key, mut end) = (0u64, 0u32);
    for (i, (&d, &n)) in body.key_deltas.iter().zip(&body.lens).enumerate() {
        if i > 0 && d == 0 {
            return Err(bad("duplicate feature".into()));
        }
        key = key
            .checked_add(d)
            .ok_or_else(|| bad("feature hash overflow".into()))?;
        let start = end;
        end += u32::from(n);
        if n == 0 {
            return Err(bad("empty feature row".into()));
        }
        index.insert(key, (start, end));
    }
    let tags: Vec<String> = body.tags.iter().map(|t| (*t).to_owned()).collect();
    let closed = match closed {
        None => super::ClosedClass::default(),
        Some(words) => {
            let map = word_map(
                words,
                || bad("duplicate closed-class word".into()),
                |w, bits| {
                    if bits >> super::closed::CLOSED_TAGS.len() == 0 {
                        Ok(bits)
                    } else {
                        Err(bad(format!("closed-class bits {bits:#x} for {w:?}")))
                    }
                },
            )?;
            super::ClosedClass::with_tags(&tags, map)
        }
    };
    Ok(PosTagger {
        tags,
        flags: body.flags,
        tagdict,
        lexicon,
        closed,
        index,
        entries: body.entries,
        decoder: super::DEFAULT_DECODER,
    })
}

/// A word-keyed table as stored: its pairs sorted by word.
fn sorted_pairs<V: Copy + Ord>(map: &FxHashMap<String, V>) -> Vec<(&str, V)> {
    let mut pairs: Vec<(&str, V)> = map.iter().map(|(w, &v)| (w.as_str(), v)).collect();
    pairs.sort_unstable();
    pairs
}

/// A word-keyed table read back: each value through `check`; a word
/// stored twice is the error `duplicate` makes.
fn word_map<V>(
    pairs: Vec<(&str, V)>,
    duplicate: impl Fn() -> Error,
    check: impl Fn(&str, V) -> Result<V>,
) -> Result<FxHashMap<String, V>> {
    let mut map = FxHashMap::default();
    map.reserve(pairs.len());
    for (w, v) in pairs {
        let v = check(w, v)?;
        if map.insert(w.to_owned(), v).is_some() {
            return Err(duplicate());
        }
    }
    Ok(map)
}
