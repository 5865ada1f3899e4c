//! The kNN model body and model file: save, load, and map.
//!
//! The body is a [safetensors](https://huggingface.co/docs/safetensors)
//! blob with four tensors:
//!
//! ```text
//! ctx        F32 [n_ctx, d]      context vectors, in entry order
//! gloss      F32 [n_gloss, d]    gloss vectors, in entry order
//! instances  F32 [n_inst, d]     instance vectors (empty unless kept)
//! meta       U8  [len]           postcard of `Meta`: the tag b"WSDKNN02",
//!                                d, per entry the synset, its example
//!                                count and which vectors it has, and the
//!                                entry of each instance
//! ```
//!
//! safetensors stores the f32 tensors first and pads its own header to a
//! multiple of 8 bytes, and [`crate::model_io`] starts the body at a
//! multiple of 8 in the file, so every matrix is 4-byte aligned in the
//! mapped file and [`map`] reads it in place ([`Matrix::mapped`]): loading
//! checks the sha256 over the mapped bytes, decodes the small metadata and
//! copies no vector. The vectors' finiteness is checked as they are mapped.
//! Everything else a reader could trip on — tensor names, dtypes and
//! shapes, the width against the header, row counts against the entries,
//! instance entries in range — is checked too: a bad body is an
//! [`Error::Model`] naming the file, never a panic.

use std::collections::HashMap;
use std::path::Path;

use safetensors::tensor::{Dtype, SafeTensors, TensorView};
use serde::{Deserialize, Serialize};

use super::model::{EntryRows, KnnModel, Matrix, Vectors};
use super::params::KnnParams;
use super::METHOD;
use crate::model_io::{self, Body};
use crate::wordnet::{Inventory, Pos, SynsetId};
use crate::{Error, Result};

/// Body type and version, at the start of the metadata tensor.
const META_TAG: &[u8; 8] = b"WSDKNN02";

/// The structured part of a body.
#[derive(Serialize, Deserialize)]
struct Meta {
    dim: u32,
    entries: Vec<MetaEntry>,
    instance_entry: Vec<u32>,
}

#[derive(Serialize, Deserialize)]
struct MetaEntry {
    pos: Pos,
    offset: u32,
    count: u32,
    has_ctx: bool,
    has_gloss: bool,
}

fn le_bytes(rows: impl Iterator<Item = f32>) -> Vec<u8> {
    rows.flat_map(f32::to_le_bytes).collect()
}

impl KnnModel {
    /// The body bytes (see the module doc of `codec.rs` for the layout).
    pub fn to_bytes(&self) -> Vec<u8> {
        let d = self.dim;
        let meta = Meta {
            dim: d as u32,
            entries: self
                .entries
                .iter()
                .map(|e| MetaEntry {
                    pos: e.synset.pos,
                    offset: e.synset.offset,
                    count: e.count,
                    has_ctx: e.ctx.is_some(),
                    has_gloss: e.gloss.is_some(),
                })
                .collect(),
            instance_entry: self.instances.iter().map(|(e, _)| *e).collect(),
        };
        let meta = model_io::to_body(META_TAG, &meta).expect("knn metadata always encodes");
        let ctx = le_bytes(
            self.entries
                .iter()
                .filter_map(|e| e.ctx.as_ref())
                .flatten()
                .copied(),
        );
        let gloss = le_bytes(
            self.entries
                .iter()
                .filter_map(|e| e.gloss.as_ref())
                .flatten()
                .copied(),
        );
        let inst = le_bytes(self.instances.iter().flat_map(|(_, v)| v.iter().copied()));
        let n_ctx = self.entries.iter().filter(|e| e.ctx.is_some()).count();
        let n_gloss = self.entries.iter().filter(|e| e.gloss.is_some()).count();
        fn view(shape: Vec<usize>, data: &[u8], dtype: Dtype) -> TensorView<'_> {
            TensorView::new(dtype, shape, data).expect("shape matches the data")
        }
        let tensors = [
            ("ctx", view(vec![n_ctx, d], &ctx, Dtype::F32)),
            ("gloss", view(vec![n_gloss, d], &gloss, Dtype::F32)),
            (
                "instances",
                view(vec![self.instances.len(), d], &inst, Dtype::F32),
            ),
            ("meta", view(vec![meta.len()], &meta, Dtype::U8)),
        ];
        safetensors::serialize(tensors, &None).expect("safetensors serialises in memory")
    }

    /// Decode a body (an owned copy); `params` come from the header.
    /// Every inconsistency is an [`Error::Model`].
    pub fn from_bytes(params: KnnParams, body: &[u8]) -> Result<KnnModel> {
        let path = model_io::unnamed("knn body");
        let layout = parse(&path, &params, body)?;
        let owned = |r: std::ops::Range<usize>| -> Vec<f32> {
            body[r]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        };
        let (ctx, gloss, inst) = (
            owned(layout.ctx.clone()),
            owned(layout.gloss.clone()),
            owned(layout.instances.clone()),
        );
        let d = layout.dim;
        let to_matrix = |v: Vec<f32>| Matrix::from_rows(d, v.chunks_exact(d.max(1)));
        let vectors =
            layout.into_vectors(params, to_matrix(ctx), to_matrix(gloss), to_matrix(inst));
        Ok(vectors.to_model())
    }

    /// Write the model (method `knn`, this WordNet's checksum) atomically.
    pub fn save(&self, path: &Path, inv: &Inventory) -> Result<()> {
        let params =
            serde_json::to_value(&self.params).map_err(|e| Error::Encode(e.to_string()))?;
        model_io::write_model(path, METHOD, inv.checksum()?, params, &self.to_bytes())?;
        Ok(())
    }

    /// Read a model written by [`KnnModel::save`] for this WordNet (an
    /// owned copy: [`super::Knn::load`] maps the vectors instead).
    pub fn load(path: &Path, inv: &Inventory) -> Result<KnnModel> {
        Ok(map(path, inv)?.to_model())
    }
}

/// Where the parts of a body are.
struct Layout {
    dim: usize,
    entries: Vec<EntryRows>,
    instance_entry: Vec<u32>,
    ctx: std::ops::Range<usize>,
    gloss: std::ops::Range<usize>,
    instances: std::ops::Range<usize>,
    rows: [usize; 3],
}

impl Layout {
    fn into_vectors(
        self,
        params: KnnParams,
        ctx: Matrix,
        gloss: Matrix,
        instances: Matrix,
    ) -> Vectors {
        Vectors {
            params,
            dim: self.dim,
            entries: self.entries,
            ctx,
            gloss,
            instances,
            instance_entry: self.instance_entry,
        }
    }
}

fn bad(path: &Path, msg: impl std::fmt::Display) -> Error {
    Error::Model {
        path: path.to_path_buf(),
        msg: format!("corrupted knn body: {msg}; retrain with `wsd train --method knn`"),
    }
}

/// Check a body and find its parts (offsets into `body`).
fn parse(path: &Path, params: &KnnParams, body: &[u8]) -> Result<Layout> {
    let st = SafeTensors::deserialize(body).map_err(|e| bad(path, format!("{e:?}")))?;
    if st.len() != 4 {
        return Err(bad(path, format!("{} tensors, expected 4", st.len())));
    }
    let tensor = |name: &str, dtype: Dtype| -> Result<TensorView<'_>> {
        let t = st
            .tensor(name)
            .map_err(|_| bad(path, format!("no tensor {name:?}")))?;
        if t.dtype() != dtype {
            return Err(bad(
                path,
                format!("tensor {name:?} is {:?}, expected {dtype:?}", t.dtype()),
            ));
        }
        Ok(t)
    };
    let meta_t = tensor("meta", Dtype::U8)?;
    let meta: Meta = model_io::from_body(path, META_TAG, meta_t.data())?;
    let d = meta.dim as usize;
    if d == 0 || d != params.hidden_size {
        return Err(bad(
            path,
            format!(
                "body vectors have {d} dimensions, header says {}",
                params.hidden_size
            ),
        ));
    }
    let (mut nc, mut ng) = (0u32, 0u32);
    let mut entries = Vec::with_capacity(meta.entries.len());
    let mut seen = HashMap::with_capacity(meta.entries.len());
    for e in &meta.entries {
        let synset = SynsetId {
            pos: e.pos,
            offset: e.offset,
        };
        if seen.insert(synset, ()).is_some() {
            return Err(bad(path, format!("synset {synset:?} twice")));
        }
        let next = |n: &mut u32, has: bool| {
            has.then(|| {
                *n += 1;
                *n - 1
            })
        };
        entries.push(EntryRows {
            synset,
            count: e.count,
            ctx: next(&mut nc, e.has_ctx),
            gloss: next(&mut ng, e.has_gloss),
        });
    }
    if let Some(&e) = meta
        .instance_entry
        .iter()
        .find(|&&e| e as usize >= entries.len())
    {
        return Err(bad(
            path,
            format!("instance points at entry {e} of {}", entries.len()),
        ));
    }
    let base = body.as_ptr() as usize;
    let mut rows = [0; 3];
    let mut ranges = Vec::with_capacity(3);
    for (k, (name, want)) in [
        ("ctx", nc as usize),
        ("gloss", ng as usize),
        ("instances", meta.instance_entry.len()),
    ]
    .into_iter()
    .enumerate()
    {
        let t = tensor(name, Dtype::F32)?;
        if t.shape() != [want, d] {
            return Err(bad(
                path,
                format!(
                    "tensor {name:?} has shape {:?}, expected [{want}, {d}]",
                    t.shape()
                ),
            ));
        }
        let start = t.data().as_ptr() as usize - base;
        let range = start..start + t.data().len();
        if t.data()
            .chunks_exact(4)
            .any(|c| !f32::from_le_bytes([c[0], c[1], c[2], c[3]]).is_finite())
        {
            return Err(bad(path, format!("non-finite value in tensor {name:?}")));
        }
        rows[k] = want;
        ranges.push(range);
    }
    let instances = ranges.pop().expect("three ranges");
    let gloss = ranges.pop().expect("three ranges");
    let ctx = ranges.pop().expect("three ranges");
    Ok(Layout {
        dim: d,
        entries,
        instance_entry: meta.instance_entry,
        ctx,
        gloss,
        instances,
        rows,
    })
}

/// Map the model at `path` (checked as [`KnnModel::load`] checks it) and
/// read its vectors in place.
pub(super) fn map(path: &Path, inv: &Inventory) -> Result<Vectors> {
    map_with_checksum(path, inv.checksum()?)
}

/// [`map`] with an explicit WordNet checksum.
fn map_with_checksum(path: &Path, wordnet_sha256: &str) -> Result<Vectors> {
    let (header, body) = model_io::read_model(path, METHOD, Some(wordnet_sha256))?;
    let params: KnnParams = serde_json::from_value(header.params).map_err(|e| Error::Model {
        path: path.to_path_buf(),
        msg: format!(
            "bad knn parameters in the header ({e}); retrain with `wsd train --method knn`"
        ),
    })?;
    map_body(path, params, &body)
}

/// The vectors of `body`, read in place.
fn map_body(path: &Path, params: KnnParams, body: &Body) -> Result<Vectors> {
    let layout = parse(path, &params, body)?;
    let d = layout.dim;
    let [n_ctx, n_gloss, n_inst] = layout.rows;
    let m = |r: &std::ops::Range<usize>, n| {
        Matrix::mapped(body, r.clone(), n, d).map_err(|e| bad(path, e))
    };
    let ctx = m(&layout.ctx, n_ctx)?;
    let gloss = m(&layout.gloss, n_gloss)?;
    let instances = m(&layout.instances, n_inst)?;
    Ok(layout.into_vectors(params, ctx, gloss, instances))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::disambig::knn::{Entry, GlossPooling, GlossScope};
    use crate::wordnet::Pos;

    fn params(d: usize) -> KnnParams {
        KnnParams {
            encoder: "enc".into(),
            hidden_size: d,
            layers: "last".into(),
            pooled_layers: 1,
            examples: false,
            example_contexts: 0,
            example_synsets: 0,
            gloss: GlossScope::None,
            gloss_pooling: GlossPooling::Lemma,
            keep_instances: true,
            documents: 1,
            sentences: 2,
            tagged_tokens: 3,
            encoder_fingerprint: String::new(),
        }
    }

    fn toy() -> KnnModel {
        KnnModel {
            params: params(3),
            dim: 3,
            entries: vec![
                Entry {
                    synset: SynsetId {
                        pos: Pos::Noun,
                        offset: 8420278,
                    },
                    count: 2,
                    ctx: Some(vec![1.0, 0.0, 0.0]),
                    gloss: Some(vec![0.0, 1.0, 0.0]),
                },
                Entry {
                    synset: SynsetId {
                        pos: Pos::Verb,
                        offset: 42,
                    },
                    count: 0,
                    ctx: None,
                    gloss: Some(vec![0.0, 0.0, 1.0]),
                },
                Entry {
                    synset: SynsetId {
                        pos: Pos::Adv,
                        offset: 7,
                    },
                    count: 1,
                    ctx: Some(vec![0.6, 0.8, 0.0]),
                    gloss: None,
                },
            ],
            instances: vec![(0, vec![1.0, 0.0, 0.0]), (2, vec![0.0, 1.0, 0.0])],
        }
    }

    #[test]
    fn body_round_trip() {
        let m = toy();
        let bytes = m.to_bytes();
        let back = KnnModel::from_bytes(m.params.clone(), &bytes).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn truncated_and_garbled_bodies_are_errors_not_panics() {
        let m = toy();
        let bytes = m.to_bytes();
        for n in 0..bytes.len() {
            assert!(
                KnnModel::from_bytes(m.params.clone(), &bytes[..n]).is_err(),
                "prefix of {n} bytes accepted"
            );
        }
        let mut extra = bytes.clone();
        extra.push(0);
        assert!(KnnModel::from_bytes(m.params.clone(), &extra).is_err());
        // every single-byte corruption either decodes or errors; none panics
        for i in 0..bytes.len() {
            for x in [0xffu8, 0x80, 0x01] {
                let mut b = bytes.clone();
                b[i] ^= x;
                let _ = KnnModel::from_bytes(m.params.clone(), &b);
            }
        }
        // header/body width mismatch
        let e = KnnModel::from_bytes(params(4), &bytes)
            .unwrap_err()
            .to_string();
        assert!(e.contains("dimensions"), "{e}");
        // a safetensors blob that is not a knn body
        let other = safetensors::serialize(
            [(
                "x",
                TensorView::new(Dtype::F32, vec![1], &[0u8; 4][..]).unwrap(),
            )],
            &None,
        )
        .unwrap();
        let e = KnnModel::from_bytes(m.params.clone(), &other).unwrap_err();
        assert!(matches!(e, Error::Model { .. }), "{e}");
        // huge safetensors header length: refused, not allocated
        let mut huge = (u64::MAX >> 1).to_le_bytes().to_vec();
        huge.extend_from_slice(&bytes[8..]);
        assert!(KnnModel::from_bytes(m.params.clone(), &huge).is_err());
    }

    #[test]
    fn a_model_file_is_mapped_with_aligned_vectors_and_checked() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("knn.wsd");
        let m = toy();
        let params = serde_json::to_value(&m.params).unwrap();
        model_io::write_model(&p, METHOD, "sha", params.clone(), &m.to_bytes()).unwrap();
        let v = map_with_checksum(&p, "sha").unwrap();
        assert!(v.is_mapped(), "vectors copied, not mapped");
        assert_eq!(v.to_model(), m);
        assert_eq!(v.ctx(2), Some(&[0.6f32, 0.8, 0.0][..]));
        let e = map_with_checksum(&p, "other").err().unwrap().to_string();
        assert!(e.contains("another WordNet"), "{e}");
        // a non-finite vector is refused, naming the file
        let mut nan = toy();
        nan.entries[0].ctx = Some(vec![f32::NAN, 0.0, 0.0]);
        model_io::write_model(&p, METHOD, "sha", params, &nan.to_bytes()).unwrap();
        match map_with_checksum(&p, "sha") {
            Err(Error::Model { path, msg }) => {
                assert_eq!(path, p);
                assert!(msg.contains("non-finite"), "{msg}");
            }
            other => panic!("{:?}", other.map(|_| ())),
        }
    }
}
