//! The BERT model: embeddings, then the stack of [`BertLayer`]s.
//!
//! Module and tensor names follow the checkpoint (and candle's BERT):
//! `embeddings.{word,position,token_type}_embeddings.weight`,
//! `embeddings.LayerNorm.*`, then `encoder.layer.{i}.…` for each layer. The
//! pooler (`pooler.dense`) is not loaded: word-sense disambiguation needs
//! the per-token vectors of the last layer, not a sentence vector.

use super::config::BertConfig;
use super::layer::{BertLayer, LayerNorm};
use super::matrix::Matrix;
use super::position::{sinusoidal_table, PositionKind};
use super::weights::Weights;
use crate::{Error, Result};

/// `embeddings`: `LayerNorm(word[id] + position[pos] + token_type[0])`.
///
/// Every sequence is a single segment, so the token type is always 0.
#[derive(Debug, Clone)]
pub struct BertEmbeddings {
    word: Matrix,
    position: Matrix,
    token_type: Matrix,
    layer_norm: LayerNorm,
    kind: PositionKind,
}

impl BertEmbeddings {
    /// Reads the embedding tables (the learned position table only for
    /// [`PositionKind::Learned`]; the sinusoidal one is computed).
    pub fn load(w: &Weights, cfg: &BertConfig, kind: PositionKind) -> Result<Self> {
        let d = cfg.hidden_size;
        let table = |name: &str, rows: usize| -> Result<Matrix> {
            let name = format!("embeddings.{name}.weight");
            Matrix::from_vec(rows, d, w.get(&name, &[rows, d])?)
        };
        let word = table("word_embeddings", cfg.vocab_size)?;
        let position = match kind {
            PositionKind::Learned => table("position_embeddings", cfg.max_position_embeddings)?,
            PositionKind::Sinusoidal => {
                // computed, not read, so no tensor shape bounds it: refuse
                // a config that would allocate absurdly (> 1 GiB)
                if cfg.max_position_embeddings.saturating_mul(d) > 1 << 28 {
                    return Err(Error::Model {
                        path: w.path().to_path_buf(),
                        msg: format!(
                            "max_position_embeddings {} is too large for a sinusoidal table",
                            cfg.max_position_embeddings
                        ),
                    });
                }
                sinusoidal_table(cfg.max_position_embeddings, d)
            }
        };
        let token_type = table("token_type_embeddings", cfg.type_vocab_size)?;
        let layer_norm = LayerNorm::load(w, "embeddings.LayerNorm", d, cfg.layer_norm_eps)?;
        Ok(BertEmbeddings {
            word,
            position,
            token_type,
            layer_norm,
            kind,
        })
    }

    /// Which position vectors are added.
    pub fn position_kind(&self) -> PositionKind {
        self.kind
    }

    /// Embeds `seqs` padded to `seq_len` with `pad`: row `s · seq_len + p`
    /// is position `p` of sequence `s`. Ids must be valid and sequences no
    /// longer than `seq_len` (checked by [`BertModel::forward`]).
    fn forward(&self, seqs: &[&[u32]], seq_len: usize, pad: u32) -> Result<Matrix> {
        let d = self.word.cols();
        let mut x = Matrix::zeros(seqs.len() * seq_len, d);
        let ty = self.token_type.row(0);
        for (s, ids) in seqs.iter().enumerate() {
            for p in 0..seq_len {
                let id = ids.get(p).copied().unwrap_or(pad) as usize;
                let (wv, pv) = (self.word.row(id), self.position.row(p));
                let row = x.row_mut(s * seq_len + p);
                for j in 0..d {
                    row[j] = wv[j] + pv[j] + ty[j];
                }
            }
        }
        self.layer_norm.forward_in_place(&mut x)?;
        Ok(x)
    }
}

/// A BERT encoder: embeddings and `num_hidden_layers` layers.
#[derive(Debug, Clone)]
pub struct BertModel {
    config: BertConfig,
    embeddings: BertEmbeddings,
    layers: Vec<BertLayer>,
    pad: u32,
}

impl BertModel {
    /// Loads every tensor the forward pass needs, checking each shape
    /// against `cfg`. `pad` is the id used to fill short sequences.
    pub fn load(w: &Weights, cfg: &BertConfig, kind: PositionKind, pad: u32) -> Result<Self> {
        let embeddings = BertEmbeddings::load(w, cfg, kind)?;
        let layers = (0..cfg.num_hidden_layers)
            .map(|i| BertLayer::load(w, &format!("encoder.layer.{i}"), cfg))
            .collect::<Result<Vec<_>>>()?;
        if pad as usize >= cfg.vocab_size {
            return Err(Error::Model {
                path: w.path().to_path_buf(),
                msg: format!("[PAD] id {pad} outside the vocabulary"),
            });
        }
        Ok(BertModel {
            config: cfg.clone(),
            embeddings,
            layers,
            pad,
        })
    }

    /// The architecture.
    pub fn config(&self) -> &BertConfig {
        &self.config
    }

    /// The embedding block.
    pub fn embeddings(&self) -> &BertEmbeddings {
        &self.embeddings
    }

    /// The encoder layers, first to last.
    pub fn layers(&self) -> &[BertLayer] {
        &self.layers
    }

    /// The last-layer vectors of a batch of id sequences (each already
    /// framed with `[CLS]`…`[SEP]` if wanted): one `len × d` matrix per
    /// sequence. The same as [`BertModel::forward_layers`] with `keep` = 1.
    pub fn forward(&self, seqs: &[&[u32]]) -> Result<Vec<Matrix>> {
        self.forward_layers(seqs, 1)
    }

    /// The outputs of the last `keep` layers (clamped to 1…the number of
    /// layers) of a batch of id sequences: one `len × (keep·d)` matrix per
    /// sequence, each row the layers' vectors side by side, earliest layer
    /// first. LMMS-style pooling (the sum of the last four layers) reads
    /// these; `keep` = 1 is [`BertModel::forward`].
    ///
    /// The sequences are padded to the longest and run together, so every
    /// linear map is one large GEMM; the attention mask keeps padding out
    /// of the real tokens' vectors. Errors if a sequence is longer than
    /// `max_position_embeddings` or holds an id outside the vocabulary.
    pub fn forward_layers(&self, seqs: &[&[u32]], keep: usize) -> Result<Vec<Matrix>> {
        let d = self.config.hidden_size;
        let max = self.config.max_position_embeddings;
        let seq_len = seqs.iter().map(|s| s.len()).max().unwrap_or(0);
        if seq_len > max {
            return Err(Error::Shape(format!(
                "sequence of {seq_len} pieces exceeds the {max} positions of the model"
            )));
        }
        if let Some(&bad) = seqs
            .iter()
            .flat_map(|s| s.iter())
            .find(|&&id| id as usize >= self.config.vocab_size)
        {
            return Err(Error::Shape(format!(
                "piece id {bad} outside the vocabulary of {}",
                self.config.vocab_size
            )));
        }
        if seq_len == 0 {
            return Ok(seqs.iter().map(|_| Matrix::zeros(0, d)).collect());
        }
        let mask: Vec<bool> = seqs
            .iter()
            .flat_map(|s| (0..seq_len).map(move |p| p < s.len()))
            .collect();
        let keep = keep.clamp(1, self.layers.len().max(1));
        let mut h = self.embeddings.forward(seqs, seq_len, self.pad)?;
        let mut kept: Vec<Matrix> = Vec::with_capacity(keep);
        let n = self.layers.len();
        for (i, layer) in self.layers.iter().enumerate() {
            h = layer.forward(&h, seq_len, &mask)?;
            if i + keep >= n && i + 1 < n {
                kept.push(h.clone());
            }
        }
        kept.push(h);
        let width = kept.len() * d;
        Ok(seqs
            .iter()
            .enumerate()
            .map(|(s, ids)| {
                let mut data = Vec::with_capacity(ids.len() * width);
                for p in 0..ids.len() {
                    let row = (s * seq_len + p) * d;
                    for m in &kept {
                        data.extend_from_slice(&m.data()[row..row + d]);
                    }
                }
                Matrix::from_vec(ids.len(), width, data).expect("rows × width values")
            })
            .collect())
    }
}
