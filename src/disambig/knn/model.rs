//! The model's data: [`KnnModel`], the owned form training builds and
//! [`KnnModel::save`] writes, and [`Vectors`], the form prediction reads,
//! whose matrices are either owned or rows of the memory-mapped model file
//! ([`Matrix`]), so that loading a model copies no vector.

use std::ops::Range;

use super::params::KnnParams;
use crate::model_io::Body;
use crate::wordnet::SynsetId;

/// One synset's vectors.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The synset.
    pub synset: SynsetId,
    /// SemCor instances (and WordNet example sentences) that went into `ctx`.
    pub count: u32,
    /// Centroid of the SemCor contexts (unit length), if seen.
    pub ctx: Option<Vec<f32>>,
    /// Gloss vector (unit length), if computed.
    pub gloss: Option<Vec<f32>>,
}

/// A trained kNN model: sense vectors per synset (+ optional instances).
#[derive(Clone, Debug, PartialEq)]
pub struct KnnModel {
    /// Training parameters.
    pub params: KnnParams,
    /// Vector width.
    pub dim: usize,
    /// Entries (any order).
    pub entries: Vec<Entry>,
    /// Instance vectors (entry index, unit vector), empty unless kept.
    pub instances: Vec<(u32, Vec<f32>)>,
}

/// A `[rows, dim]` row-major f32 matrix: owned, or little-endian floats
/// read in place from a mapped model file.
pub(super) struct Matrix {
    rows: usize,
    dim: usize,
    data: Data,
}

enum Data {
    Owned(Vec<f32>),
    /// `range` of `body` holds the floats; checked 4-byte aligned and
    /// `rows · dim · 4` long when made ([`Matrix::mapped`]).
    Mapped {
        body: Body,
        range: Range<usize>,
    },
}

impl Matrix {
    /// A matrix owning `rows` (each `dim` long).
    pub(super) fn from_rows<'a>(dim: usize, rows: impl Iterator<Item = &'a [f32]>) -> Matrix {
        let mut data = Vec::new();
        let mut n = 0;
        for r in rows {
            debug_assert_eq!(r.len(), dim);
            data.extend_from_slice(r);
            n += 1;
        }
        Matrix {
            rows: n,
            dim,
            data: Data::Owned(data),
        }
    }

    /// The matrix stored in `range` of `body`, read in place when the bytes
    /// are aligned for f32 and the machine is little-endian (always, for a
    /// file written by `wsd train` on such a machine), else decoded into an
    /// owned copy. `Err` when the range does not hold `rows · dim` floats.
    pub(super) fn mapped(
        body: &Body,
        range: Range<usize>,
        rows: usize,
        dim: usize,
    ) -> std::result::Result<Matrix, String> {
        let want = rows
            .checked_mul(dim)
            .and_then(|n| n.checked_mul(4))
            .ok_or("matrix too large")?;
        if range.len() != want || range.end > body.len() {
            return Err(format!(
                "a [{rows}, {dim}] f32 matrix takes {want} bytes, the tensor has {}",
                range.len()
            ));
        }
        let bytes = &body[range.clone()];
        // SAFETY: every bit pattern is a valid f32; `align_to` only hands
        // out the part of the slice that is correctly aligned.
        let (pre, mid, _) = unsafe { bytes.align_to::<f32>() };
        let data = if cfg!(target_endian = "little") && pre.is_empty() && mid.len() == rows * dim {
            Data::Mapped {
                body: body.clone(),
                range,
            }
        } else {
            Data::Owned(
                bytes
                    .chunks_exact(4)
                    .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect(),
            )
        };
        Ok(Matrix { rows, dim, data })
    }

    /// All the floats, row after row.
    pub(super) fn as_slice(&self) -> &[f32] {
        match &self.data {
            Data::Owned(v) => v,
            Data::Mapped { body, range } => {
                // SAFETY: as in `mapped`, which checked that the whole
                // range is aligned (no prefix) and holds rows · dim floats.
                let (_, mid, _) = unsafe { body[range.clone()].align_to::<f32>() };
                mid
            }
        }
    }

    /// Row `i` (panics when out of range: callers index rows they were
    /// given by the model's own entries, checked at load).
    pub(super) fn row(&self, i: usize) -> &[f32] {
        &self.as_slice()[i * self.dim..(i + 1) * self.dim]
    }

    /// Number of rows.
    pub(super) fn rows(&self) -> usize {
        self.rows
    }

    /// Whether the floats are read in place from a mapped file.
    pub(super) fn is_mapped(&self) -> bool {
        matches!(self.data, Data::Mapped { .. })
    }
}

/// One synset of [`Vectors`]: which rows hold its vectors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct EntryRows {
    pub(super) synset: SynsetId,
    pub(super) count: u32,
    /// Row of [`Vectors::ctx`].
    pub(super) ctx: Option<u32>,
    /// Row of [`Vectors::gloss`].
    pub(super) gloss: Option<u32>,
}

/// A model as prediction reads it: entries pointing at rows of three
/// matrices, which are mapped from the model file when loaded from one.
pub(super) struct Vectors {
    pub(super) params: KnnParams,
    pub(super) dim: usize,
    pub(super) entries: Vec<EntryRows>,
    pub(super) ctx: Matrix,
    pub(super) gloss: Matrix,
    pub(super) instances: Matrix,
    /// Entry of each instance row.
    pub(super) instance_entry: Vec<u32>,
}

impl Vectors {
    /// The vectors of an owned model (moved into matrices).
    pub(super) fn from_model(model: &KnnModel) -> Vectors {
        let d = model.dim;
        let (mut nc, mut ng) = (0u32, 0u32);
        let entries = model
            .entries
            .iter()
            .map(|e| EntryRows {
                synset: e.synset,
                count: e.count,
                ctx: e.ctx.as_ref().map(|_| {
                    nc += 1;
                    nc - 1
                }),
                gloss: e.gloss.as_ref().map(|_| {
                    ng += 1;
                    ng - 1
                }),
            })
            .collect();
        Vectors {
            params: model.params.clone(),
            dim: d,
            entries,
            ctx: Matrix::from_rows(d, model.entries.iter().filter_map(|e| e.ctx.as_deref())),
            gloss: Matrix::from_rows(d, model.entries.iter().filter_map(|e| e.gloss.as_deref())),
            instances: Matrix::from_rows(d, model.instances.iter().map(|(_, v)| v.as_slice())),
            instance_entry: model.instances.iter().map(|(e, _)| *e).collect(),
        }
    }

    /// An owned copy.
    pub(super) fn to_model(&self) -> KnnModel {
        KnnModel {
            params: self.params.clone(),
            dim: self.dim,
            entries: self
                .entries
                .iter()
                .map(|e| Entry {
                    synset: e.synset,
                    count: e.count,
                    ctx: e.ctx.map(|r| self.ctx.row(r as usize).to_vec()),
                    gloss: e.gloss.map(|r| self.gloss.row(r as usize).to_vec()),
                })
                .collect(),
            instances: self
                .instance_entry
                .iter()
                .enumerate()
                .map(|(i, &e)| (e, self.instances.row(i).to_vec()))
                .collect(),
        }
    }

    /// The context vector of entry `i`, if it has one.
    pub(super) fn ctx(&self, i: usize) -> Option<&[f32]> {
        self.entries[i].ctx.map(|r| self.ctx.row(r as usize))
    }

    /// The gloss vector of entry `i`, if it has one.
    pub(super) fn gloss(&self, i: usize) -> Option<&[f32]> {
        self.entries[i].gloss.map(|r| self.gloss.row(r as usize))
    }

    /// Whether every matrix is read in place from a mapped file.
    pub(super) fn is_mapped(&self) -> bool {
        self.ctx.is_mapped() && self.gloss.is_mapped() && self.instances.is_mapped()
    }
}
