//! Versioned, checksummed, atomically written model files, and the one
//! codec their bodies use.
//!
//! Layout (all integers little-endian):
//!
//! ```text
//! b"WSDMODEL"            8 bytes magic
//! format version         u32 (FORMAT_VERSION)
//! header length          u32
//! header                 JSON: tool version, WordNet checksum, method,
//!                        hyper-parameters, body length and body sha256;
//!                        padded with spaces so that the body starts at a
//!                        multiple of 8 bytes in the file
//! body                   method-specific bytes
//! ```
//!
//! **Bodies.** Structured data is [postcard](https://docs.rs/postcard)
//! (serde; varint integers, length-prefixed sequences) behind an 8-byte tag
//! naming the body type and its version: [`to_body`] / [`from_body`]. The
//! vectors of a kNN model are a safetensors blob inside the body (see
//! `disambig/knn/codec.rs`); the 8-byte alignment of the body carries over
//! to its tensors, so they can be read in place from the mapped file. A body
//! that must check itself outside a model file (the POS tagger's
//! [`crate::pos::PosTagger::from_bytes`]) is [`seal`]ed with a checksum.
//! Every decoding error is an [`Error::Model`] naming the file (a file of
//! another method an [`Error::WrongMethod`], an older format an
//! [`Error::Version`]), never a panic; a garbled length cannot make the decoder allocate more than the
//! bytes it has.
//!
//! **Reading** maps the file ([`read_model`] returns a [`Body`] that
//! borrows the map): the checksum is computed over the mapped bytes and the
//! body is decoded from them, never copied into a buffer first. Model files
//! are only ever replaced by renaming a new file over them (see below), so
//! a mapped model is never rewritten underneath its reader.
//!
//! A model is written through [`crate::atomic`]: a temporary file in the
//! target's folder, renamed over it only when complete, so a crash or a kill during training never
//! leaves half a model and never harms the previous one. Reading refuses,
//! with a message that says how to fix it: another file type, another format
//! version (version 1 files, with hand-written bodies, are refused with
//! "retrain with `wsd train`"), another method, a model built on another
//! WordNet, a truncated or corrupted body.

use std::ops::{Deref, Range};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use memmap2::Mmap;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::{Error, Result};

/// The file magic.
pub const MAGIC: &[u8; 8] = b"WSDMODEL";
/// The container format this build reads and writes.
pub const FORMAT_VERSION: u32 = 2;

/// Where the body starts in the file: a multiple of this.
pub const BODY_ALIGN: usize = 8;

/// What the header of a model file records.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ModelHeader {
    /// The method the body belongs to (`nb`, `knn`, `pos`).
    pub method: String,
    /// Version of wsd that wrote the file.
    pub tool_version: String,
    /// sha256 of the WordNet `index.sense` the model was built on.
    pub wordnet_sha256: String,
    /// Hyper-parameters and training facts (free-form, method-specific).
    pub params: serde_json::Value,
    /// Length of the body in bytes.
    pub body_len: u64,
    /// sha256 of the body.
    pub body_sha256: String,
}

/// The sha256 of `bytes` as lower-case hex (model bodies, WordNet's
/// fingerprint).
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn model_err(path: &Path, msg: impl Into<String>) -> Error {
    Error::Model {
        path: path.to_path_buf(),
        msg: msg.into(),
    }
}

/// Write a model atomically: temporary file in the same folder, fsync, rename.
pub fn write_model(
    path: &Path,
    method: &str,
    wordnet_sha256: &str,
    params: serde_json::Value,
    body: &[u8],
) -> Result<ModelHeader> {
    let header = ModelHeader {
        method: method.to_string(),
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        wordnet_sha256: wordnet_sha256.to_string(),
        params,
        body_len: body.len() as u64,
        body_sha256: sha256_hex(body),
    };
    let mut json = serde_json::to_vec(&header).map_err(|e| Error::Encode(e.to_string()))?;
    // JSON allows trailing white space: pad so that the body is aligned.
    while (16 + json.len()) % BODY_ALIGN != 0 {
        json.push(b' ');
    }
    crate::atomic::write_atomically(path, |w| {
        w.write_all(MAGIC)?;
        w.write_all(&FORMAT_VERSION.to_le_bytes())?;
        w.write_all(&(json.len() as u32).to_le_bytes())?;
        w.write_all(&json)?;
        w.write_all(body)
    })?;
    Ok(header)
}

/// Open a model file for reading. A FIFO, socket or device is refused
/// before it is opened: opening a FIFO with no writer blocks for ever, and
/// none of them can be mapped.
fn open_model(path: &Path) -> Result<std::fs::File> {
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() && !m.is_dir() => Err(model_err(
            path,
            "not a regular file (a FIFO, socket or device); give a model file written by `wsd train`",
        )),
        _ => std::fs::File::open(path).map_err(|e| Error::io(path, e)),
    }
}

/// Read only the header (cheap; used to pick a default model).
pub fn read_header(path: &Path) -> Result<ModelHeader> {
    let mut f = open_model(path)?;
    let mut head = [0u8; 16];
    let n = read_full(&mut f, &mut head).map_err(|e| Error::io(path, e))?;
    let len = check_prefix(path, &head[..n])?;
    let mut json = vec![0u8; len];
    let got = read_full(&mut f, &mut json).map_err(|e| Error::io(path, e))?;
    if got < len {
        return Err(model_err(
            path,
            "truncated header; retrain with `wsd train`",
        ));
    }
    parse_header(path, &json)
}

fn read_full(f: &mut impl std::io::Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

/// Check magic and version; return the header length.
fn check_prefix(path: &Path, bytes: &[u8]) -> Result<usize> {
    if bytes.len() < 16 || &bytes[..8] != MAGIC {
        return Err(model_err(
            path,
            "not a wsd model file (bad magic); give a file written by `wsd train`",
        ));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != FORMAT_VERSION {
        return Err(Error::Version {
            path: path.to_path_buf(),
            expected: FORMAT_VERSION,
            got: version,
        });
    }
    let len = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
    if len > 1 << 24 {
        return Err(model_err(path, "corrupted header length"));
    }
    Ok(len)
}

fn parse_header(path: &Path, json: &[u8]) -> Result<ModelHeader> {
    serde_json::from_slice(json).map_err(|e| model_err(path, format!("corrupted header ({e})")))
}

/// The body of a model file, read in place from the memory-mapped file
/// (cheap to clone: the map is shared).
#[derive(Clone)]
pub struct Body {
    map: Arc<Mmap>,
    range: Range<usize>,
    path: PathBuf,
}

impl Body {
    /// The file the body was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Offset of the body's first byte in the file (a multiple of
    /// [`BODY_ALIGN`]).
    pub fn file_offset(&self) -> usize {
        self.range.start
    }
}

impl Deref for Body {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.map[self.range.clone()]
    }
}

impl std::fmt::Debug for Body {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Body")
            .field("path", &self.path)
            .field("range", &self.range)
            .finish()
    }
}

/// Read a whole model, checking everything: magic, version, header, method,
/// WordNet checksum (when `wordnet_sha256` is given), body length and sha256.
/// The file is memory-mapped; the body is not copied.
///
/// A file whose header names another method than `method` is an
/// [`Error::WrongMethod`]; an older format an [`Error::Version`]; other
/// damage an [`Error::Model`].
pub fn read_model(
    path: &Path,
    method: &str,
    wordnet_sha256: Option<&str>,
) -> Result<(ModelHeader, Body)> {
    let file = open_model(path)?;
    let size = file.metadata().map_err(|e| Error::io(path, e))?.len();
    if size < 16 {
        return Err(model_err(
            path,
            "not a wsd model file (too short); give a file written by `wsd train`",
        ));
    }
    // SAFETY: the map is read-only and private. Model files are replaced
    // only by renaming a complete new file over them (crate::atomic), which
    // leaves the mapped inode untouched; the hazard left is another program
    // truncating or rewriting the file in place while it is mapped.
    let map = unsafe { Mmap::map(&file) }.map_err(|e| Error::io(path, e))?;
    let bytes: &[u8] = &map;
    let len = check_prefix(path, bytes)?;
    let Some(json) = bytes.get(16..16 + len) else {
        return Err(model_err(
            path,
            format!("truncated header; retrain with `wsd train --method {method}`"),
        ));
    };
    let header = parse_header(path, json)?;
    if header.method != method {
        return Err(Error::WrongMethod {
            path: path.to_path_buf(),
            expected: method.to_string(),
            found: header.method,
        });
    }
    if let Some(expected) = wordnet_sha256 {
        if header.wordnet_sha256 != expected {
            return Err(model_err(
                path,
                format!(
                    "built on another WordNet (index.sense sha256 {}…, this one is {}…); retrain with `wsd train --method {method}` on this WordNet",
                    &header.wordnet_sha256.get(..12).unwrap_or(&header.wordnet_sha256),
                    &expected.get(..12).unwrap_or(expected)
                ),
            ));
        }
    }
    let body = &bytes[16 + len..];
    if body.len() as u64 != header.body_len {
        return Err(model_err(
            path,
            format!(
                "truncated or padded: body has {} bytes, header says {}; retrain with `wsd train --method {method}`",
                body.len(),
                header.body_len
            ),
        ));
    }
    if sha256_hex(body) != header.body_sha256 {
        return Err(model_err(
            path,
            "corrupted: body checksum mismatch; retrain with `wsd train`",
        ));
    }
    let range = 16 + len..bytes.len();
    Ok((
        header,
        Body {
            map: Arc::new(map),
            range,
            path: path.to_path_buf(),
        },
    ))
}

/// Give an [`Error::Model`] from a path-less decoder (such as
/// [`crate::pos::PosTagger::from_bytes`]) the file it came from; other
/// errors pass unchanged.
pub fn at_path(e: Error, path: &Path) -> Error {
    match e {
        Error::Model { msg, .. } => model_err(path, msg),
        e => e,
    }
}

/// The `path` that path-less decoders (`from_bytes`) put in their errors.
pub fn unnamed(what: &str) -> PathBuf {
    PathBuf::from(format!("<{what}>"))
}

/// Encode a body: the 8-byte `tag` (body type and version), then `value`
/// in postcard.
pub fn to_body<T: Serialize + ?Sized>(tag: &[u8; 8], value: &T) -> Result<Vec<u8>> {
    postcard::to_extend(value, tag.to_vec()).map_err(|e| Error::Encode(e.to_string()))
}

/// Decode a body written by [`to_body`] with the same `tag`: the whole of
/// `bytes` must be one value. Errors name `path` and say what to do.
pub fn from_body<'a, T: Deserialize<'a>>(path: &Path, tag: &[u8; 8], bytes: &'a [u8]) -> Result<T> {
    let Some(rest) = bytes.strip_prefix(&tag[..]) else {
        let found = String::from_utf8_lossy(&bytes[..bytes.len().min(8)]).into_owned();
        return Err(model_err(
            path,
            format!(
                "corrupted or foreign body: starts with {found:?}, expected {:?}; retrain with `wsd train`",
                String::from_utf8_lossy(tag)
            ),
        ));
    };
    decode(path, rest)
}

/// Decode one postcard value that fills all of `bytes`.
pub fn decode<'a, T: Deserialize<'a>>(path: &Path, bytes: &'a [u8]) -> Result<T> {
    let at = |rest: &[u8]| bytes.len() - rest.len();
    match postcard::take_from_bytes::<T>(bytes) {
        Ok((value, [])) => Ok(value),
        Ok((_, rest)) => Err(model_err(
            path,
            format!(
                "corrupted body: {} trailing bytes after byte {}; retrain with `wsd train`",
                rest.len(),
                at(rest)
            ),
        )),
        Err(e) => Err(model_err(
            path,
            format!("corrupted or truncated body ({e}); retrain with `wsd train`"),
        )),
    }
}

/// Encode `value` in postcard (no tag: for values nested in another
/// container, such as the metadata tensor of a kNN body).
pub fn encode<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    postcard::to_allocvec(value).map_err(|e| Error::Encode(e.to_string()))
}

/// Append a checksum (the first 8 bytes of the sha256) so that a body can
/// check itself outside a model file.
pub fn seal(mut body: Vec<u8>) -> Vec<u8> {
    let sum = Sha256::digest(&body);
    body.extend_from_slice(&sum[..8]);
    body
}

/// The body inside a [`seal`]ed one, if its checksum holds.
pub fn unseal<'a>(path: &Path, bytes: &'a [u8]) -> Result<&'a [u8]> {
    if bytes.len() < 8 {
        return Err(model_err(path, "truncated body; retrain with `wsd train`"));
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if Sha256::digest(body)[..8] != *sum {
        return Err(model_err(
            path,
            "corrupted: body checksum mismatch (truncated or garbled); retrain with `wsd train`",
        ));
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn write(dir: &Path) -> PathBuf {
        let p = dir.join("m.wsd");
        write_model(
            &p,
            "nb",
            "abc123",
            serde_json::json!({"alpha": 1.0}),
            b"hello body",
        )
        .unwrap();
        p
    }

    #[test]
    fn header_write_read_roundtrip() {
        let d = tempfile::tempdir().unwrap();
        let p = write(d.path());
        let (h, body) = read_model(&p, "nb", Some("abc123")).unwrap();
        assert_eq!(&*body, b"hello body");
        assert_eq!(body.file_offset() % BODY_ALIGN, 0);
        assert_eq!(h.params["alpha"], 1.0);
        assert_eq!(read_header(&p).unwrap(), h);
    }

    #[test]
    fn wrong_method_wordnet_truncation_and_corruption_are_refused() {
        let d = tempfile::tempdir().unwrap();
        let p = write(d.path());
        let e = read_model(&p, "knn", None).unwrap_err();
        assert!(
            matches!(&e, Error::WrongMethod { path, expected, found }
                if *path == p && expected == "knn" && found == "nb"),
            "{e:?}"
        );
        let e = e.to_string();
        assert!(e.contains("a model of method nb, not knn"), "{e}");
        let e = read_model(&p, "nb", Some("zzz")).unwrap_err().to_string();
        assert!(e.contains("another WordNet"), "{e}");
        let bytes = std::fs::read(&p).unwrap();
        std::fs::write(&p, &bytes[..bytes.len() - 3]).unwrap();
        let e = read_model(&p, "nb", None).unwrap_err().to_string();
        assert!(e.contains("truncated"), "{e}");
        let mut bad = bytes.clone();
        let n = bad.len();
        bad[n - 1] ^= 0xff;
        std::fs::write(&p, &bad).unwrap();
        let e = read_model(&p, "nb", None).unwrap_err().to_string();
        assert!(e.contains("checksum"), "{e}");
        std::fs::write(&p, b"hello").unwrap();
        assert!(read_model(&p, "nb", None)
            .unwrap_err()
            .to_string()
            .contains("not a wsd model"));
        let mut v2 = bytes.clone();
        v2[8] = 9;
        std::fs::write(&p, &v2).unwrap();
        assert!(matches!(
            read_model(&p, "nb", None),
            Err(Error::Version { got: 9, .. })
        ));
        std::fs::write(&p, &bytes[..20]).unwrap();
        assert!(read_header(&p)
            .unwrap_err()
            .to_string()
            .contains("truncated"));
    }

    #[test]
    fn no_temporary_files_are_left_behind() {
        let d = tempfile::tempdir().unwrap();
        write(d.path());
        write(d.path());
        let names: Vec<_> = std::fs::read_dir(d.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Toy<'a> {
        name: &'a str,
        counts: Vec<u32>,
        weights: Vec<f32>,
    }

    fn toy() -> Toy<'static> {
        Toy {
            name: "bank",
            counts: vec![1, 300, 70_000],
            weights: vec![0.5, -1.25],
        }
    }

    #[test]
    fn bodies_round_trip_and_refuse_other_tags_truncation_and_trailing_bytes() {
        let p = Path::new("m.wsd");
        let bytes = to_body(b"TESTBODY", &toy()).unwrap();
        assert_eq!(from_body::<Toy>(p, b"TESTBODY", &bytes).unwrap(), toy());
        let e = from_body::<Toy>(p, b"OTHERTAG", &bytes).unwrap_err();
        assert!(
            matches!(&e, Error::Model { path, msg } if path == p && msg.contains("OTHERTAG")),
            "{e}"
        );
        for n in 0..bytes.len() {
            match from_body::<Toy>(p, b"TESTBODY", &bytes[..n]) {
                Err(Error::Model { msg, .. }) => assert!(msg.contains("retrain"), "{msg}"),
                other => panic!("prefix {n}: {other:?}"),
            }
        }
        let mut longer = bytes.clone();
        longer.push(7);
        let e = from_body::<Toy>(p, b"TESTBODY", &longer).unwrap_err();
        assert!(e.to_string().contains("trailing"), "{e}");
        // A garbled length asks for more than there is: an error, and no
        // allocation of that size.
        let mut huge = b"TESTBODY".to_vec();
        huge.extend(encode(&u64::MAX).unwrap());
        assert!(from_body::<Toy>(p, b"TESTBODY", &huge).is_err());
        for i in 0..bytes.len() {
            for x in [0x01u8, 0x80, 0xff] {
                let mut b = bytes.clone();
                b[i] ^= x;
                let _ = from_body::<Toy>(p, b"TESTBODY", &b);
            }
        }
    }

    #[test]
    fn sealed_bodies_detect_every_flip_and_cut() {
        let p = Path::new("m.wsd");
        let body = to_body(b"TESTBODY", &toy()).unwrap();
        let sealed = seal(body.clone());
        assert_eq!(unseal(p, &sealed).unwrap(), &body[..]);
        for n in 0..sealed.len() {
            assert!(unseal(p, &sealed[..n]).is_err(), "cut at {n}");
        }
        for i in 0..sealed.len() {
            for bit in 0..8 {
                let mut b = sealed.clone();
                b[i] ^= 1 << bit;
                assert!(unseal(p, &b).is_err(), "flip {i}.{bit}");
            }
        }
    }

    #[test]
    fn version_1_files_are_refused_with_retrain() {
        let d = tempfile::tempdir().unwrap();
        let p = write(d.path());
        let mut bytes = std::fs::read(&p).unwrap();
        bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
        std::fs::write(&p, &bytes).unwrap();
        let e = read_model(&p, "nb", None).unwrap_err();
        assert!(
            matches!(
                e,
                Error::Version {
                    got: 1,
                    expected: 2,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("retrain with `wsd train`"), "{e}");
        assert!(matches!(read_header(&p), Err(Error::Version { .. })));
        // at_path names the file in a path-less decoder's error
        let e = at_path(
            from_body::<Toy>(&unnamed("toy body"), b"TESTBODY", b"").unwrap_err(),
            &p,
        );
        assert!(matches!(&e, Error::Model { path, .. } if path == &p), "{e}");
    }
}

#[cfg(test)]
mod prop_tests {
    //! Property tests of the container: whatever the method name, the
    //! parameters and the body, a model reads back as written, and a
    //! damaged one is refused, never misread.

    use super::*;
    use proptest::prelude::*;

    /// JSON parameters: nested objects and arrays of strings, integers,
    /// booleans, null and floats of at most ten significant digits.
    ///
    /// Floats are kept short on purpose: serde_json without its
    /// `float_roundtrip` feature may parse a 17-digit float one ulp off
    /// (this test found `-3947.3732986450195` coming back as
    /// `-3947.373298645019`), so only short decimals — which is what
    /// hyper-parameters are — round-trip exactly through a header.
    fn params() -> impl Strategy<Value = serde_json::Value> {
        use serde_json::Value;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            (any::<i32>(), 0i32..8).prop_map(|(m, e)| Value::from(m as f64 / 10f64.powi(e))),
            "\\PC{0,12}".prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 24, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map("\\PC{0,8}", inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    fn model() -> impl Strategy<Value = (String, String, serde_json::Value, Vec<u8>)> {
        (
            "\\PC{0,16}",
            prop_oneof!["[0-9a-f]{64}", "\\PC{0,12}"],
            params(),
            prop::collection::vec(any::<u8>(), 0..2048),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn write_then_read_round_trips((method, wn, params, body) in model()) {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("m.wsd");
            let written = write_model(&path, &method, &wn, params.clone(), &body).unwrap();
            prop_assert_eq!(&written.method, &method);
            prop_assert_eq!(&written.params, &params);
            let (header, back) = read_model(&path, &method, Some(&wn)).unwrap();
            prop_assert_eq!(&header, &written);
            prop_assert_eq!(&back[..], &body[..]);
            prop_assert_eq!(read_header(&path).unwrap(), written);
            // Asked for another method or another WordNet: refused.
            let other = format!("{method}x");
            prop_assert!(read_model(&path, &other, None).is_err());
            prop_assert!(read_model(&path, &method, Some(&other)).is_err());
        }

        #[test]
        fn a_damaged_body_or_a_cut_file_is_refused(
            (method, wn, params, body) in model(),
            flip in any::<prop::sample::Index>(),
            bit in 0u8..8,
            cut in any::<prop::sample::Index>(),
        ) {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("m.wsd");
            write_model(&path, &method, &wn, params, &body).unwrap();
            let bytes = std::fs::read(&path).unwrap();
            let body_start = bytes.len() - body.len();
            if !body.is_empty() {
                let mut bad = bytes.clone();
                bad[body_start + flip.index(body.len())] ^= 1 << bit;
                std::fs::write(&path, &bad).unwrap();
                let e = read_model(&path, &method, None).unwrap_err().to_string();
                prop_assert!(e.contains("checksum"), "{}", e);
            }
            let n = cut.index(bytes.len());
            std::fs::write(&path, &bytes[..n]).unwrap();
            prop_assert!(read_model(&path, &method, None).is_err(), "cut at {} of {}", n, bytes.len());
            if n < body_start {
                prop_assert!(read_header(&path).is_err(), "header cut at {}", n);
            }
        }
    }
}
