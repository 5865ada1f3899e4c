//! The model's data: [`KnnModel`], the owned form training builds and
//! [`KnnModel::save`] writes, and [`Vectors`], the form prediction reads,
//! whose matrices are either owned or rows of the memory-mapped model file
//! ([`Matrix`]), so that loading a model copies no vector.

use std::ops::Range;

use super::params::{KnnOptions, KnnParams};
use crate::disambig::calibration::Block;
use crate::disambig::Exemplar;
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
    /// The training sentences nearest `ctx` ([`KnnModel::sentences`]
    /// indices, nearest first; empty in older models).
    pub exemplars: Vec<u32>,
    /// The resultant length `|Σ v|` of the unit vectors `ctx` is the
    /// direction of (`None` without `ctx`, and in models before format 4).
    /// With it a caller can take instances out of the centroid exactly:
    /// the sum is `resultant · ctx` (`ens`'s leave-one-document-out
    /// features, which otherwise estimate it).
    pub resultant: Option<f32>,
}

/// One sense key's own centroid (issue 13's sense-level vectors): the
/// instances of one lemma's sense, which prediction prefers to the
/// centroid of the whole synset.
#[derive(Clone, Debug, PartialEq)]
pub struct SenseEntry {
    /// The sense key (`bank%1:14:00::`).
    pub key: String,
    /// Training instances behind `ctx` (at least [`KnnParams::sense_min`]).
    pub count: u32,
    /// Their centroid (unit length).
    pub ctx: Vec<f32>,
    /// The training sentences nearest `ctx` ([`KnnModel::sentences`] indices).
    pub exemplars: Vec<u32>,
    /// `|Σ v|` of the instances' unit vectors (`None` before format 4),
    /// as [`Entry::resultant`].
    pub resultant: Option<f32>,
}

/// The calibration a kNN model carries (issue 12): an isotonic map from
/// the normalised probability of the chosen sense to the rate at which
/// such answers were right, fitted at training time on the training
/// instances answered with their own document left out of every centroid
/// (leave-one-document-out: the centroid of a sense without a document is
/// `(sum − doc_sum) / |sum − doc_sum|`, exact and cheap). It holds for the
/// prediction options it was fitted with only; [`super::Knn`] reports
/// answers under other options as uncalibrated.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct KnnCalibration {
    /// Gloss weight of the fit ([`KnnOptions::gloss_weight`]).
    pub gloss_weight: f32,
    /// Prior weight of the fit ([`KnnOptions::prior`]).
    pub prior: f32,
    /// Propagation during the fit ([`KnnOptions::propagate`]).
    pub propagate: bool,
    /// What was held out for each answer (`document`).
    pub held_out: String,
    /// Answers the map was fitted on.
    pub samples: usize,
    /// Share of them that were right.
    pub accuracy: f64,
    /// The map of the `method` decision (knn only ever decides).
    pub blocks: Vec<Block>,
}

impl KnnCalibration {
    /// Whether answers given with `options` (and `k` = 1) are the ones
    /// the map was fitted on.
    pub fn fits(&self, options: &KnnOptions) -> bool {
        options.k <= 1
            && options.gloss_weight == self.gloss_weight
            && options.prior == self.prior
            && options.propagate == self.propagate
    }
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
    /// Sense-key vectors (empty in older models and with `sense_min` 0).
    pub senses: Vec<SenseEntry>,
    /// Instance vectors (entry index, unit vector), empty unless kept.
    pub instances: Vec<(u32, Vec<f32>)>,
    /// The sentence of each instance ([`KnnModel::sentences`] index),
    /// empty or one per instance.
    pub instance_sentences: Vec<u32>,
    /// The training document of each instance (its index in the training
    /// documents), empty or one per instance: `ens` training leaves a
    /// held-out document's own instances out of its nearest-instance
    /// feature (empty in models before format 5).
    pub instance_docs: Vec<u32>,
    /// The training sentences the exemplars point at.
    pub sentences: Vec<Exemplar>,
    /// The model's own calibration, if fitted (not in older models).
    pub calibration: Option<KnnCalibration>,
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
    /// (An empty matrix counts as mapped: there is nothing to copy.)
    pub(super) fn is_mapped(&self) -> bool {
        self.rows == 0 || matches!(self.data, Data::Mapped { .. })
    }
}

/// One sense key of [`Vectors`]: its row of [`Vectors::sense`].
#[derive(Clone, Debug, PartialEq)]
pub(super) struct SenseRows {
    pub(super) key: String,
    pub(super) count: u32,
    pub(super) exemplars: Vec<u32>,
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
    /// Sense-key vectors: row `i` of `sense` is `senses[i]`'s.
    pub(super) senses: Vec<SenseRows>,
    pub(super) sense: Matrix,
    /// Exemplar sentences of each entry.
    pub(super) entry_exemplars: Vec<Vec<u32>>,
    /// Resultant length of each entry's context centroid, one per entry
    /// (`None` without one, and all `None` before format 4).
    pub(super) entry_resultants: Vec<Option<f32>>,
    /// Resultant length of each sense-key centroid, one per sense.
    pub(super) sense_resultants: Vec<Option<f32>>,
    /// Sentence of each instance row (empty or one per row).
    pub(super) instance_sentences: Vec<u32>,
    /// Training document of each instance row (empty or one per row).
    pub(super) instance_docs: Vec<u32>,
    pub(super) sentences: Vec<Exemplar>,
    pub(super) calibration: Option<KnnCalibration>,
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
            senses: model
                .senses
                .iter()
                .map(|s| SenseRows {
                    key: s.key.clone(),
                    count: s.count,
                    exemplars: s.exemplars.clone(),
                })
                .collect(),
            sense: Matrix::from_rows(d, model.senses.iter().map(|s| s.ctx.as_slice())),
            entry_exemplars: model.entries.iter().map(|e| e.exemplars.clone()).collect(),
            entry_resultants: model.entries.iter().map(|e| e.resultant).collect(),
            sense_resultants: model.senses.iter().map(|s| s.resultant).collect(),
            instance_sentences: model.instance_sentences.clone(),
            instance_docs: model.instance_docs.clone(),
            sentences: model.sentences.clone(),
            calibration: model.calibration.clone(),
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
                .zip(&self.entry_exemplars)
                .zip(&self.entry_resultants)
                .map(|((e, x), r)| Entry {
                    synset: e.synset,
                    count: e.count,
                    ctx: e.ctx.map(|r| self.ctx.row(r as usize).to_vec()),
                    gloss: e.gloss.map(|r| self.gloss.row(r as usize).to_vec()),
                    exemplars: x.clone(),
                    resultant: *r,
                })
                .collect(),
            senses: self
                .senses
                .iter()
                .enumerate()
                .map(|(i, s)| SenseEntry {
                    key: s.key.clone(),
                    count: s.count,
                    ctx: self.sense.row(i).to_vec(),
                    exemplars: s.exemplars.clone(),
                    resultant: self.sense_resultants[i],
                })
                .collect(),
            instances: self
                .instance_entry
                .iter()
                .enumerate()
                .map(|(i, &e)| (e, self.instances.row(i).to_vec()))
                .collect(),
            instance_sentences: self.instance_sentences.clone(),
            instance_docs: self.instance_docs.clone(),
            sentences: self.sentences.clone(),
            calibration: self.calibration.clone(),
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
        self.ctx.is_mapped()
            && self.gloss.is_mapped()
            && self.instances.is_mapped()
            && self.sense.is_mapped()
    }

    /// The exemplar sentences at `ids`.
    pub(super) fn exemplars(&self, ids: &[u32]) -> Vec<Exemplar> {
        ids.iter()
            .filter_map(|&i| self.sentences.get(i as usize).cloned())
            .collect()
    }
}
