//! Binary body of a [`PosTagger`] model.
//!
//! Little-endian layout:
//!
//! ```text
//! b"WPOS"  u8 version (=2)  u32 feature flags
//! u16 n_tags   { u16 len, UTF-8 bytes }*            tag names, id order
//! u32 n_dict   { u16 len, UTF-8 bytes, u16 tag }*   tag dictionary, sorted
//! u32 n_lex    { u16 len, UTF-8 bytes, u8 bits }*   WordNet lexicon, sorted
//! u32 n_rows   { u64 feature, u16 n, { u16 tag, f32 weight }*n }*
//!                                                   rows, sorted by feature
//! u64 checksum                                      FNV-1a of all the above
//! ```
//!
//! Reading checks the checksum, every length against the bytes left, tag
//! ids against the tag count, UTF-8, finiteness of weights, duplicates and
//! trailing bytes, so bad input is an error and never a panic or a huge
//! allocation.

use std::collections::HashMap;

use rustc_hash::FxHashMap;

use super::features::{flags, IdBuild};
use super::{Lexicon, PosTagger};
use crate::{Error, Result};

const MAGIC: &[u8; 4] = b"WPOS";
/// Version 2 added the WordNet lexicon (version-1 models are refused:
/// retrain with `wsd train --method pos`).
const VERSION: u8 = 2;

fn checksum(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    // Tags and dictionary words are at most u16::MAX bytes (enforced at
    // training time); cut defensively at a char boundary otherwise.
    let mut n = s.len().min(usize::from(u16::MAX));
    while !s.is_char_boundary(n) {
        n -= 1;
    }
    out.extend_from_slice(&(n as u16).to_le_bytes());
    out.extend_from_slice(&s.as_bytes()[..n]);
}

pub(crate) fn write(t: &PosTagger) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + t.entries.len() * 6 + t.index.len() * 10);
    out.extend_from_slice(MAGIC);
    out.push(VERSION);
    out.extend_from_slice(&t.flags.to_le_bytes());
    out.extend_from_slice(&(t.tags.len() as u16).to_le_bytes());
    for tag in &t.tags {
        put_str(&mut out, tag);
    }
    let mut dict: Vec<(&String, &u16)> = t.tagdict.iter().collect();
    dict.sort_unstable();
    out.extend_from_slice(&(dict.len() as u32).to_le_bytes());
    for (w, tag) in dict {
        put_str(&mut out, w);
        out.extend_from_slice(&tag.to_le_bytes());
    }
    let mut lex: Vec<(&String, &u8)> = t.lexicon.map.iter().collect();
    lex.sort_unstable();
    out.extend_from_slice(&(lex.len() as u32).to_le_bytes());
    for (w, bits) in lex {
        put_str(&mut out, w);
        out.push(*bits);
    }
    let mut rows: Vec<(u64, (u32, u32))> = t.index.iter().map(|(&k, &r)| (k, r)).collect();
    rows.sort_unstable();
    out.extend_from_slice(&(rows.len() as u32).to_le_bytes());
    for (key, (a, b)) in rows {
        let span = a as usize..b as usize;
        out.extend_from_slice(&key.to_le_bytes());
        out.extend_from_slice(&(span.len() as u16).to_le_bytes());
        for &(tag, w) in &t.entries[span] {
            out.extend_from_slice(&tag.to_le_bytes());
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// A bounds-checked cursor.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn err(&self, msg: impl Into<String>) -> Error {
        Error::parse("<pos tagger model>", self.pos, msg)
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if self.bytes.len() - self.pos < n {
            return Err(self.err(format!(
                "truncated: need {n} more bytes, {} left",
                self.bytes.len() - self.pos
            )));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        Ok(self.take(N)?.try_into().expect("took N bytes"))
    }

    fn u8(&mut self) -> Result<u8> {
        Ok(self.array::<1>()?[0])
    }
    fn u16(&mut self) -> Result<u16> {
        Ok(u16::from_le_bytes(self.array()?))
    }
    fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array()?))
    }
    fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.array()?))
    }
    fn f32(&mut self) -> Result<f32> {
        Ok(f32::from_le_bytes(self.array()?))
    }

    fn string(&mut self) -> Result<String> {
        let n = usize::from(self.u16()?);
        let b = self.take(n)?;
        std::str::from_utf8(b)
            .map(str::to_string)
            .map_err(|_| self.err("invalid UTF-8 in string"))
    }

    /// A count of records of at least `min_size` bytes each, checked
    /// against the bytes left so that it can be used as a capacity.
    fn count(&mut self, n: usize, min_size: usize) -> Result<usize> {
        if n.saturating_mul(min_size) > self.bytes.len() - self.pos {
            return Err(self.err(format!("count {n} exceeds the remaining bytes")));
        }
        Ok(n)
    }

    fn tag(&mut self, n_tags: usize) -> Result<u16> {
        let t = self.u16()?;
        if usize::from(t) >= n_tags {
            return Err(self.err(format!("tag id {t} out of range ({n_tags} tags)")));
        }
        Ok(t)
    }
}

pub(crate) fn read(bytes: &[u8]) -> Result<PosTagger> {
    let bad = |pos: usize, msg: &str| Error::parse("<pos tagger model>", pos, msg);
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(bad(0, "not a POS tagger model (bad magic)"));
    }
    if bytes.len() < MAGIC.len() + 1 + 8 {
        return Err(bad(bytes.len(), "truncated"));
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if checksum(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
        return Err(bad(
            body.len(),
            "checksum mismatch: the model is truncated or corrupted",
        ));
    }
    let mut r = Reader {
        bytes: body,
        pos: MAGIC.len(),
    };
    let version = r.u8()?;
    if version != VERSION {
        return Err(r.err(format!(
            "POS model body version {version}, this build reads {VERSION}: \
             retrain it with `wsd train --method pos`"
        )));
    }
    let feature_flags = r.u32()?;
    if feature_flags & !flags::KNOWN != 0 {
        return Err(r.err(format!(
            "unknown feature flags {feature_flags:#x}: model from a newer build"
        )));
    }
    let n_tags = usize::from(r.u16()?);
    let n_tags = r.count(n_tags, 2)?;
    let mut tags = Vec::with_capacity(n_tags);
    for _ in 0..n_tags {
        tags.push(r.string()?);
    }
    let n_dict = r.u32()? as usize;
    let n_dict = r.count(n_dict, 4)?;
    let mut tagdict = FxHashMap::default();
    tagdict.reserve(n_dict);
    for _ in 0..n_dict {
        let w = r.string()?;
        let t = r.tag(n_tags)?;
        if tagdict.insert(w, t).is_some() {
            return Err(r.err("duplicate tag-dictionary word"));
        }
    }
    let n_lex = r.u32()? as usize;
    let n_lex = r.count(n_lex, 3)?;
    let mut lexicon = Lexicon::default();
    lexicon.map.reserve(n_lex);
    for _ in 0..n_lex {
        let w = r.string()?;
        let bits = r.u8()?;
        if lexicon.map.insert(w, bits).is_some() {
            return Err(r.err("duplicate lexicon word"));
        }
    }
    let n_rows = r.u32()? as usize;
    let n_rows = r.count(n_rows, 10)?;
    let mut index = HashMap::with_capacity_and_hasher(n_rows, IdBuild::default());
    let mut entries = Vec::new();
    for _ in 0..n_rows {
        let key = r.u64()?;
        let start = u32::try_from(entries.len()).map_err(|_| r.err("too many weights"))?;
        let n = usize::from(r.u16()?);
        let n = r.count(n, 6)?;
        for _ in 0..n {
            let t = r.tag(n_tags)?;
            let w = r.f32()?;
            if !w.is_finite() {
                return Err(r.err("non-finite weight"));
            }
            entries.push((t, w));
        }
        let end = u32::try_from(entries.len()).map_err(|_| r.err("too many weights"))?;
        if index.insert(key, (start, end)).is_some() {
            return Err(r.err("duplicate feature"));
        }
    }
    if r.pos != body.len() {
        return Err(r.err("trailing bytes after the model"));
    }
    Ok(PosTagger {
        tags,
        flags: feature_flags,
        tagdict,
        lexicon,
        index,
        entries,
    })
}
