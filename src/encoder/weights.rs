//! Named, shape-checked tensors from a memory-mapped safetensors file.
//!
//! The file is mapped rather than read so that loading does not first copy
//! all 90 MB into a buffer: only the header is parsed, and each tensor is
//! decoded straight from the page cache into the `Vec<f32>` the model
//! keeps. (The model copies rather than borrowing from the map because
//! safetensors does not promise 4-byte alignment of the data section, and
//! owned weights keep [`super::Encoder`] free of lifetimes and `unsafe`.)
//!
//! Every lookup states the shape it expects, derived from `config.json`, so
//! a checkpoint that does not fit its config is refused with the name of
//! the offending tensor instead of producing garbage or panicking later.

use std::fs::File;
use std::path::{Path, PathBuf};

use memmap2::Mmap;
use safetensors::tensor::{Dtype, Metadata, SafeTensors};

use crate::{Error, Result};

/// Prefixes under which checkpoints store the BERT modules: none (a bare
/// `BertModel`, as sentence-transformers saves it) or `bert.` (the encoder
/// inside `BertForMaskedLM` and friends).
const PREFIXES: [&str; 2] = ["", "bert."];

/// An open safetensors checkpoint.
pub struct Weights {
    path: PathBuf,
    mmap: Mmap,
    header_len: usize,
    metadata: Metadata,
    fingerprint: String,
}

/// sha256 of the header and of one 4 KiB page in every MiB of the data
/// (cheap, and any retrained or different checkpoint differs).
fn fingerprint(bytes: &[u8], header_len: usize) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    let head = (8 + header_len).min(bytes.len());
    h.update(&bytes[..head]);
    let mut at = head;
    while at < bytes.len() {
        h.update(&bytes[at..(at + 4096).min(bytes.len())]);
        at += 1 << 20;
    }
    h.update((bytes.len() as u64).to_le_bytes());
    let d = h.finalize();
    d.iter().map(|b| format!("{b:02x}")).collect()
}

impl std::fmt::Debug for Weights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Weights")
            .field("path", &self.path)
            .field("tensors", &self.metadata.tensors().len())
            .finish()
    }
}

impl Weights {
    /// Maps `path` and parses its header.
    pub fn open(path: &Path) -> Result<Weights> {
        let model_err = |msg: String| Error::Model {
            path: path.to_path_buf(),
            msg,
        };
        if path.is_dir() {
            return Err(model_err(
                "is a directory; expected the safetensors weights file".into(),
            ));
        }
        let file = File::open(path).map_err(|e| model_err(format!("cannot open weights: {e}")))?;
        // SAFETY: the map is read-only and private to this process. The one
        // hazard of mapping a file is that another process truncates or
        // rewrites it while mapped; checkpoints are written once and then
        // only read, and we copy every tensor out during `Encoder::load`,
        // after which the map is dropped.
        let mmap = unsafe { Mmap::map(&file) }
            .map_err(|e| model_err(format!("cannot map weights: {e}")))?;
        let (header_len, metadata) = SafeTensors::read_metadata(&mmap)
            .map_err(|e| model_err(format!("not a safetensors file: {e:?}")))?;
        let fingerprint = fingerprint(&mmap, header_len);
        Ok(Weights {
            path: path.to_path_buf(),
            mmap,
            header_len,
            metadata,
            fingerprint,
        })
    }

    /// A fingerprint of the checkpoint (see `fingerprint`).
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// The file the tensors come from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether a tensor `name` exists (with or without a `bert.` prefix).
    pub fn contains(&self, name: &str) -> bool {
        PREFIXES
            .iter()
            .any(|p| self.metadata.info(&format!("{p}{name}")).is_some())
    }

    /// The shape of tensor `name`, if present.
    pub fn shape(&self, name: &str) -> Option<Vec<usize>> {
        PREFIXES
            .iter()
            .find_map(|p| self.metadata.info(&format!("{p}{name}")))
            .map(|i| i.shape.clone())
    }

    fn error(&self, msg: String) -> Error {
        Error::Model {
            path: self.path.clone(),
            msg,
        }
    }

    /// The `f32` values of tensor `name` (looked up bare, then under
    /// `bert.`), which must have exactly `shape`.
    ///
    /// Errors name the tensor: `"encoder.layer.0.attention.self.query.weight:
    /// expected shape [384, 384], found [256, 384]"`, a missing tensor, or a
    /// dtype other than F32.
    pub fn get(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>> {
        let info = PREFIXES
            .iter()
            .find_map(|p| self.metadata.info(&format!("{p}{name}")))
            .ok_or_else(|| {
                self.error(format!(
                    "missing tensor {name} (also looked for bert.{name}); \
                     is this a BERT checkpoint matching config.json?"
                ))
            })?;
        if info.shape != shape {
            return Err(self.error(format!(
                "{name}: expected shape {shape:?}, found {:?}",
                info.shape
            )));
        }
        if info.dtype != Dtype::F32 {
            return Err(self.error(format!(
                "{name}: dtype {:?} is not supported, expected F32",
                info.dtype
            )));
        }
        let (start, end) = info.data_offsets;
        let base = 8 + self.header_len;
        // `read_metadata` validated the offsets against the buffer length,
        // but stay defensive: a bad file must give an error, not a panic.
        let bytes = self
            .mmap
            .get(base + start..base + end)
            .filter(|b| b.len() == 4 * shape.iter().product::<usize>())
            .ok_or_else(|| self.error(format!("{name}: data offsets out of range")))?;
        let v: Vec<f32> = bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if let Some(i) = v.iter().position(|x| !x.is_finite()) {
            return Err(self.error(format!(
                "{name}: value {} at index {i} (byte offset {}) is not a finite number; the checkpoint is damaged",
                v[i],
                base + start + 4 * i
            )));
        }
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use safetensors::tensor::TensorView;

    fn write(path: &Path, tensors: &[(&str, Vec<usize>, Vec<f32>)]) {
        let bytes: Vec<Vec<u8>> = tensors
            .iter()
            .map(|(_, _, v)| v.iter().flat_map(|x| x.to_le_bytes()).collect())
            .collect();
        let views: Vec<(String, TensorView<'_>)> = tensors
            .iter()
            .zip(&bytes)
            .map(|((n, s, _), b)| {
                (
                    n.to_string(),
                    TensorView::new(Dtype::F32, s.clone(), b).unwrap(),
                )
            })
            .collect();
        safetensors::serialize_to_file(views, &None, path).unwrap();
    }

    #[test]
    fn lookup_shape_and_prefix() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.safetensors");
        write(
            &p,
            &[
                (
                    "bert.a.weight",
                    vec![2, 3],
                    vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
                ),
                ("b", vec![1], vec![7.0]),
            ],
        );
        let w = Weights::open(&p).unwrap();
        assert_eq!(w.get("a.weight", &[2, 3]).unwrap()[5], 6.0);
        assert_eq!(w.get("b", &[1]).unwrap(), vec![7.0]);
        assert!(w.contains("a.weight"));
        assert_eq!(w.shape("a.weight"), Some(vec![2, 3]));

        let err = w.get("a.weight", &[3, 2]).unwrap_err().to_string();
        assert!(
            err.contains("a.weight: expected shape [3, 2], found [2, 3]"),
            "{err}"
        );
        let err = w.get("c", &[1]).unwrap_err().to_string();
        assert!(err.contains("missing tensor c"), "{err}");
    }

    #[test]
    fn garbage_file_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("bad.safetensors");
        std::fs::write(&p, b"definitely not safetensors").unwrap();
        assert!(matches!(Weights::open(&p), Err(Error::Model { .. })));
        assert!(Weights::open(&dir.path().join("none")).is_err());
    }
}
