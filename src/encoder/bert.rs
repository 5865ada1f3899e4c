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

    /// Embeds `seqs` packed without padding, one after the other (`total`
    /// rows, the sum of their lengths). Row values are those of
    /// [`BertEmbeddings::forward`]'s real rows.
    fn forward_packed(&self, seqs: &[&[u32]], total: usize) -> Result<Matrix> {
        let d = self.word.cols();
        let mut x = Matrix::zeros(total, d);
        let ty = self.token_type.row(0);
        let mut r = 0;
        for ids in seqs {
            for (p, &id) in ids.iter().enumerate() {
                let (wv, pv) = (self.word.row(id as usize), self.position.row(p));
                let row = x.row_mut(r);
                for j in 0..d {
                    row[j] = wv[j] + pv[j] + ty[j];
                }
                r += 1;
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
}

impl BertModel {
    /// Loads every tensor the forward pass needs, checking each shape
    /// against `cfg`. `pad`, the tokenizer's `[PAD]` id, is checked to lie in the
    /// vocabulary; the forward pass packs sequences and pads nothing.
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

    /// Rounds every layer's linear maps to 8 bits ([`super::int8`]); the
    /// embeddings, LayerNorms and attention products stay f32.
    pub fn quantize_linears(&mut self) {
        for layer in &mut self.layers {
            for l in layer.linears_mut() {
                l.quantize();
            }
        }
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
    /// The sequences are packed one after the other without padding and
    /// run together, so every linear map is one large GEMM over real
    /// tokens only; attention runs per sequence. Errors if a sequence is longer than
    /// `max_position_embeddings` or holds an id outside the vocabulary.
    pub fn forward_layers(&self, seqs: &[&[u32]], keep: usize) -> Result<Vec<Matrix>> {
        self.forward_layers_read(seqs, keep, None)
    }

    /// [`BertModel::forward_layers`] when only some positions' last-layer
    /// vectors will be read: `read[s][p]` says whether position `p` of
    /// sequence `s` is (missing entries: not read). The last layer then
    /// runs its queries, attention output and feed-forward on those rows
    /// only ([`BertLayer::forward_rows`]); the read rows get the same
    /// values as without the selection, the others are zero in the last
    /// layer's block (earlier kept layers are whole). `None` reads all.
    pub fn forward_layers_read(
        &self,
        seqs: &[&[u32]],
        keep: usize,
        read: Option<&[&[bool]]>,
    ) -> Result<Vec<Matrix>> {
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
        // Packed without padding: sequence s is rows starts[s]..+len.
        let mut starts = Vec::with_capacity(seqs.len());
        let mut spans = Vec::with_capacity(seqs.len());
        let mut total = 0;
        for ids in seqs {
            starts.push(total);
            if !ids.is_empty() {
                spans.push((total, ids.len()));
            }
            total += ids.len();
        }
        let keep = keep.clamp(1, self.layers.len().max(1));
        let mut h = self.embeddings.forward_packed(seqs, total)?;
        let mut kept: Vec<Matrix> = Vec::with_capacity(keep);
        let n = self.layers.len();
        for (i, layer) in self.layers.iter().enumerate() {
            if i + 1 == n {
                if let Some(read) = read {
                    let rows: Vec<usize> = read
                        .iter()
                        .take(seqs.len())
                        .enumerate()
                        .flat_map(|(s, r)| {
                            let start = starts[s];
                            r.iter()
                                .take(seqs[s].len())
                                .enumerate()
                                .filter(|&(_, &w)| w)
                                .map(move |(p, _)| start + p)
                        })
                        .collect();
                    let part = layer.forward_rows(&h, &spans, &rows)?;
                    let mut last = Matrix::zeros(h.rows(), d);
                    for (j, &r) in rows.iter().enumerate() {
                        last.row_mut(r).copy_from_slice(part.row(j));
                    }
                    h = last;
                    break;
                }
            }
            h = layer.forward_packed(&h, &spans)?;
            if i + keep >= n && i + 1 < n {
                kept.push(h.clone());
            }
        }
        kept.push(h);
        let width = kept.len() * d;
        Ok(seqs
            .iter()
            .zip(&starts)
            .map(|(ids, &start)| {
                let mut data = Vec::with_capacity(ids.len() * width);
                for p in 0..ids.len() {
                    let row = (start + p) * d;
                    for m in &kept {
                        data.extend_from_slice(&m.data()[row..row + d]);
                    }
                }
                Matrix::from_vec(ids.len(), width, data).expect("rows × width values")
            })
            .collect())
    }
}
