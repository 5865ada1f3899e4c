//! The kNN model body and model file: save, load, and map.
//!
//! The body is a [safetensors](https://huggingface.co/docs/safetensors)
//! blob. Format 5 (`WSDKNN05`) has five tensors:
//!
//! ```text
//! ctx        F32 [n_ctx, d]      context vectors, in entry order
//! gloss      F32 [n_gloss, d]    gloss vectors, in entry order
//! instances  F32 [n_inst, d]     instance vectors (empty unless kept)
//! senses     F32 [n_sense, d]    sense-key vectors, in sense order
//! meta       U8  [len]           postcard of `Meta`: the tag b"WSDKNN05",
//!                                d, per entry the synset, its example
//!                                count and which vectors it has, the
//!                                entry of each instance, per sense key
//!                                its key and count, the exemplar
//!                                sentences (ids and text) and which
//!                                vector points at which, the sentence of
//!                                each kept instance, the calibration,
//!                                and the resultant length |Σ v| of
//!                                every context and sense-key centroid,
//!                                and the training document of each
//!                                kept instance
//! ```
//!
//! Format 5 adds each kept instance's training document to format 4
//! (`WSDKNN04`), so that `ens` training can leave a held-out document's
//! own instances out of its nearest-instance feature. Format 4 is still
//! read, its instances' documents unknown (empty).
//!
//! Format 4 adds the resultant lengths to format 3 (`WSDKNN03`, written
//! since sense-key vectors, exemplar sentences and the model's own
//! calibration), so that `ens` training can take a held-out document out
//! of a centroid exactly (the sum is `R · c`) instead of estimating `R`
//! from a sample. Format 3 is still read, its resultants unknown (`None`).
//!
//! Format 2 (`WSDKNN02`: the first three tensors and a `meta` without the
//! sense keys, sentences and calibration) is still read: such a model has
//! no sense-key vectors, no sentences and no calibration, and answers
//! exactly as it did.
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

use super::model::{EntryRows, KnnCalibration, KnnModel, Matrix, SenseRows, Vectors};
use super::params::KnnParams;
use super::METHOD;
use crate::disambig::Exemplar;
use crate::model_io::{self, Body};
use crate::wordnet::{Inventory, Pos, SynsetId};
use crate::{Error, Result};

/// Body type and version, at the start of the metadata tensor.
const META_TAG: &[u8; 8] = b"WSDKNN05";

/// The format 4 tag (read, no longer written).
const META_TAG_V4: &[u8; 8] = b"WSDKNN04";

/// The format 3 tag (read, no longer written).
const META_TAG_V3: &[u8; 8] = b"WSDKNN03";

/// The format 2 tag (read, no longer written).
const META_TAG_V2: &[u8; 8] = b"WSDKNN02";

/// The structured part of a format 2 body.
#[derive(Serialize, Deserialize)]
struct MetaV2 {
    dim: u32,
    entries: Vec<MetaEntry>,
    instance_entry: Vec<u32>,
}

/// The structured part of a format 3 body.
#[derive(Serialize, Deserialize)]
struct MetaV3 {
    dim: u32,
    entries: Vec<MetaEntry>,
    instance_entry: Vec<u32>,
    senses: Vec<MetaSense>,
    entry_exemplars: Vec<Vec<u32>>,
    instance_sentences: Vec<u32>,
    sentences: Vec<Exemplar>,
    calibration: Option<KnnCalibration>,
}

/// The structured part of a format 4 body.
#[derive(Serialize, Deserialize)]
struct MetaV4 {
    dim: u32,
    entries: Vec<MetaEntry>,
    instance_entry: Vec<u32>,
    senses: Vec<MetaSense>,
    entry_exemplars: Vec<Vec<u32>>,
    instance_sentences: Vec<u32>,
    sentences: Vec<Exemplar>,
    calibration: Option<KnnCalibration>,
    entry_resultants: Vec<Option<f32>>,
    sense_resultants: Vec<Option<f32>>,
}

/// The structured part of a body.
#[derive(Serialize, Deserialize)]
struct Meta {
    dim: u32,
    entries: Vec<MetaEntry>,
    instance_entry: Vec<u32>,
    senses: Vec<MetaSense>,
    /// Exemplar sentences per entry (one list per entry).
    entry_exemplars: Vec<Vec<u32>>,
    /// Sentence of each instance (empty, or one per instance).
    instance_sentences: Vec<u32>,
    sentences: Vec<Exemplar>,
    calibration: Option<KnnCalibration>,
    /// Resultant length of each entry's context centroid (one per entry;
    /// `None` for an entry without one).
    entry_resultants: Vec<Option<f32>>,
    /// Resultant length of each sense-key centroid (one per sense).
    sense_resultants: Vec<Option<f32>>,
    /// Training document of each instance (empty, or one per instance).
    instance_docs: Vec<u32>,
}

impl From<MetaV4> for Meta {
    fn from(m: MetaV4) -> Meta {
        Meta {
            dim: m.dim,
            entries: m.entries,
            instance_entry: m.instance_entry,
            senses: m.senses,
            entry_exemplars: m.entry_exemplars,
            instance_sentences: m.instance_sentences,
            sentences: m.sentences,
            calibration: m.calibration,
            entry_resultants: m.entry_resultants,
            sense_resultants: m.sense_resultants,
            instance_docs: Vec::new(),
        }
    }
}

impl From<MetaV3> for Meta {
    fn from(m: MetaV3) -> Meta {
        Meta {
            entry_resultants: vec![None; m.entries.len()],
            sense_resultants: vec![None; m.senses.len()],
            dim: m.dim,
            entries: m.entries,
            instance_entry: m.instance_entry,
            senses: m.senses,
            entry_exemplars: m.entry_exemplars,
            instance_sentences: m.instance_sentences,
            sentences: m.sentences,
            calibration: m.calibration,
            instance_docs: Vec::new(),
        }
    }
}

#[derive(Serialize, Deserialize)]
struct MetaSense {
    key: String,
    count: u32,
    exemplars: Vec<u32>,
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
    /// Each entry's header row (synset, count, which vectors it has), as
    /// every format version since 2 writes it.
    fn meta_entries(&self) -> Vec<MetaEntry> {
        self.entries
            .iter()
            .map(|e| MetaEntry {
                pos: e.synset.pos,
                offset: e.synset.offset,
                count: e.count,
                has_ctx: e.ctx.is_some(),
                has_gloss: e.gloss.is_some(),
            })
            .collect()
    }

    /// The body bytes (see the module doc of `codec.rs` for the layout).
    pub fn to_bytes(&self) -> Vec<u8> {
        let d = self.dim;
        let meta = Meta {
            dim: d as u32,
            entries: self.meta_entries(),
            instance_entry: self.instances.iter().map(|(e, _)| *e).collect(),
            senses: self
                .senses
                .iter()
                .map(|s| MetaSense {
                    key: s.key.clone(),
                    count: s.count,
                    exemplars: s.exemplars.clone(),
                })
                .collect(),
            entry_exemplars: self.entries.iter().map(|e| e.exemplars.clone()).collect(),
            instance_sentences: self.instance_sentences.clone(),
            sentences: self.sentences.clone(),
            calibration: self.calibration.clone(),
            entry_resultants: self.entries.iter().map(|e| e.resultant).collect(),
            sense_resultants: self.senses.iter().map(|s| s.resultant).collect(),
            instance_docs: self.instance_docs.clone(),
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
        let senses = le_bytes(self.senses.iter().flat_map(|s| s.ctx.iter().copied()));
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
            (
                "senses",
                view(vec![self.senses.len(), d], &senses, Dtype::F32),
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
        let d = layout.dim;
        let to_matrix = |r: &std::ops::Range<usize>| {
            let v = owned(r.clone());
            Matrix::from_rows(d, v.chunks_exact(d.max(1)))
        };
        let [ctx, gloss, inst, sense] = layout.ranges.each_ref().map(to_matrix);
        let vectors = layout.into_vectors(params, [ctx, gloss, inst, sense]);
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
    senses: Vec<SenseRows>,
    entry_exemplars: Vec<Vec<u32>>,
    instance_sentences: Vec<u32>,
    sentences: Vec<Exemplar>,
    calibration: Option<KnnCalibration>,
    entry_resultants: Vec<Option<f32>>,
    sense_resultants: Vec<Option<f32>>,
    instance_docs: Vec<u32>,
    /// Byte ranges of the ctx, gloss, instance and sense matrices (the
    /// sense range is empty in format 2).
    ranges: [std::ops::Range<usize>; 4],
    rows: [usize; 4],
}

impl Layout {
    fn into_vectors(
        self,
        params: KnnParams,
        [ctx, gloss, instances, sense]: [Matrix; 4],
    ) -> Vectors {
        Vectors {
            params,
            dim: self.dim,
            entries: self.entries,
            ctx,
            gloss,
            instances,
            instance_entry: self.instance_entry,
            senses: self.senses,
            sense,
            entry_exemplars: self.entry_exemplars,
            entry_resultants: self.entry_resultants,
            sense_resultants: self.sense_resultants,
            instance_sentences: self.instance_sentences,
            instance_docs: self.instance_docs,
            sentences: self.sentences,
            calibration: self.calibration,
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
    let v2 = meta_t.data().starts_with(META_TAG_V2);
    let meta: Meta = if v2 {
        let m: MetaV2 = model_io::from_body(path, META_TAG_V2, meta_t.data())?;
        Meta {
            dim: m.dim,
            entry_exemplars: vec![Vec::new(); m.entries.len()],
            entry_resultants: vec![None; m.entries.len()],
            entries: m.entries,
            instance_entry: m.instance_entry,
            senses: Vec::new(),
            instance_sentences: Vec::new(),
            sentences: Vec::new(),
            calibration: None,
            sense_resultants: Vec::new(),
            instance_docs: Vec::new(),
        }
    } else if meta_t.data().starts_with(META_TAG_V3) {
        model_io::from_body::<MetaV3>(path, META_TAG_V3, meta_t.data())?.into()
    } else if meta_t.data().starts_with(META_TAG_V4) {
        model_io::from_body::<MetaV4>(path, META_TAG_V4, meta_t.data())?.into()
    } else {
        model_io::from_body(path, META_TAG, meta_t.data())?
    };
    let want_tensors = if v2 { 4 } else { 5 };
    if st.len() != want_tensors {
        return Err(bad(
            path,
            format!("{} tensors, expected {want_tensors}", st.len()),
        ));
    }
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
    check_extras(path, &meta)?;
    let mut keys = std::collections::HashSet::with_capacity(meta.senses.len());
    for s in &meta.senses {
        if !keys.insert(s.key.as_str()) {
            return Err(bad(path, format!("sense key {:?} twice", s.key)));
        }
    }
    let base = body.as_ptr() as usize;
    let mut rows = [0; 4];
    let mut ranges: [std::ops::Range<usize>; 4] = Default::default();
    for (k, (name, want)) in [
        ("ctx", nc as usize),
        ("gloss", ng as usize),
        ("instances", meta.instance_entry.len()),
        ("senses", meta.senses.len()),
    ]
    .into_iter()
    .enumerate()
    {
        if v2 && name == "senses" {
            continue;
        }
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
        ranges[k] = range;
    }
    Ok(Layout {
        dim: d,
        entries,
        instance_entry: meta.instance_entry,
        senses: meta
            .senses
            .into_iter()
            .map(|s| SenseRows {
                key: s.key,
                count: s.count,
                exemplars: s.exemplars,
            })
            .collect(),
        entry_exemplars: meta.entry_exemplars,
        instance_sentences: meta.instance_sentences,
        sentences: meta.sentences,
        calibration: meta.calibration,
        entry_resultants: meta.entry_resultants,
        sense_resultants: meta.sense_resultants,
        instance_docs: meta.instance_docs,
        ranges,
        rows,
    })
}

/// The checks of format 3's and 4's additions: one exemplar list per
/// entry, sentence indices in range, one sentence per kept instance, a
/// calibration map that is a monotone map of probabilities, and one
/// resultant length per entry and per sense, each finite, within
/// `[0, count]` (a sum of `count` unit vectors is no longer) and present
/// exactly where there is a context vector.
fn check_extras(path: &Path, meta: &Meta) -> Result<()> {
    if meta.entry_resultants.len() != meta.entries.len()
        || meta.sense_resultants.len() != meta.senses.len()
    {
        return Err(bad(
            path,
            format!(
                "{} + {} resultant lengths for {} entries and {} sense keys",
                meta.entry_resultants.len(),
                meta.sense_resultants.len(),
                meta.entries.len(),
                meta.senses.len()
            ),
        ));
    }
    // rounding: a sum of n unit f32 vectors may come out a hair above n
    let fits = |r: f32, n: u32| r.is_finite() && r >= 0.0 && r <= n as f32 * 1.001 + 1e-3;
    for (e, r) in meta.entries.iter().zip(&meta.entry_resultants) {
        match r {
            Some(r) if !e.has_ctx || !fits(*r, e.count) => {
                return Err(bad(
                    path,
                    format!(
                        "resultant length {r} of synset {}-{} ({} instances{})",
                        e.offset,
                        e.pos.letter(),
                        e.count,
                        if e.has_ctx { "" } else { ", no context vector" }
                    ),
                ));
            }
            _ => {}
        }
    }
    for (s, r) in meta.senses.iter().zip(&meta.sense_resultants) {
        if let Some(r) = r {
            if !fits(*r, s.count) {
                return Err(bad(
                    path,
                    format!(
                        "resultant length {r} of sense key {} ({} instances)",
                        s.key, s.count
                    ),
                ));
            }
        }
    }
    if meta.entry_exemplars.len() != meta.entries.len() {
        return Err(bad(
            path,
            format!(
                "{} exemplar lists for {} entries",
                meta.entry_exemplars.len(),
                meta.entries.len()
            ),
        ));
    }
    let n = meta.sentences.len();
    let lists = meta
        .entry_exemplars
        .iter()
        .chain(meta.senses.iter().map(|s| &s.exemplars))
        .chain(std::iter::once(&meta.instance_sentences));
    for l in lists {
        if let Some(&i) = l.iter().find(|&&i| i as usize >= n) {
            return Err(bad(path, format!("sentence {i} of {n}")));
        }
    }
    if !meta.instance_sentences.is_empty()
        && meta.instance_sentences.len() != meta.instance_entry.len()
    {
        return Err(bad(
            path,
            format!(
                "{} instance sentences for {} instances",
                meta.instance_sentences.len(),
                meta.instance_entry.len()
            ),
        ));
    }
    if !meta.instance_docs.is_empty() && meta.instance_docs.len() != meta.instance_entry.len() {
        return Err(bad(
            path,
            format!(
                "{} instance documents for {} instances",
                meta.instance_docs.len(),
                meta.instance_entry.len()
            ),
        ));
    }
    if let Some(c) = &meta.calibration {
        let unit = |x: f64| (0.0..=1.0).contains(&x);
        let ok = c.gloss_weight.is_finite()
            && c.prior.is_finite()
            && unit(c.accuracy)
            && c.blocks.iter().all(|b| unit(b.p) && unit(b.accuracy))
            && c.blocks
                .windows(2)
                .all(|w| w[0].p < w[1].p && w[0].accuracy <= w[1].accuracy);
        if !ok {
            return Err(bad(
                path,
                "calibration map is not a monotone map of probabilities",
            ));
        }
    }
    Ok(())
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
    let m = |k: usize| {
        let r = &layout.ranges[k];
        if r.is_empty() && layout.rows[k] == 0 {
            // format 2 has no sense tensor; an empty matrix either way
            return Ok(Matrix::from_rows(d, std::iter::empty()));
        }
        Matrix::mapped(body, r.clone(), layout.rows[k], d).map_err(|e| bad(path, e))
    };
    let matrices = [m(0)?, m(1)?, m(2)?, m(3)?];
    Ok(layout.into_vectors(params, matrices))
}

#[cfg(test)]
mod tests;
