//! `config.json` of a BERT checkpoint.
//!
//! Only the fields the forward pass needs are read; the rest of the file
//! (dropout rates, `architectures`, …) is ignored, so configs written by
//! any `transformers` version load. Defaults are those of
//! `transformers.BertConfig`, so a minimal file works too.

use std::path::Path;

use serde::Deserialize;

use crate::{Error, Result};

/// The architecture hyper-parameters of a BERT encoder.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct BertConfig {
    /// Number of WordPiece ids (rows of the word-embedding matrix).
    pub vocab_size: usize,
    /// Width `d` of every hidden vector.
    pub hidden_size: usize,
    /// Number of stacked encoder layers.
    pub num_hidden_layers: usize,
    /// Number of attention heads `H`; each head works on `d / H` features.
    pub num_attention_heads: usize,
    /// Width of the feed-forward layer inside each encoder layer.
    pub intermediate_size: usize,
    /// Activation of the feed-forward layer; only `gelu` (exact erf) is supported.
    #[serde(default = "default_act")]
    pub hidden_act: String,
    /// Rows of the learned position table: the longest sequence, in pieces
    /// including `[CLS]` and `[SEP]`, the model can encode at once.
    #[serde(default = "default_max_pos")]
    pub max_position_embeddings: usize,
    /// Rows of the token-type (segment) table.
    #[serde(default = "default_type_vocab")]
    pub type_vocab_size: usize,
    /// The ε added to the variance in every LayerNorm.
    #[serde(default = "default_eps")]
    pub layer_norm_eps: f64,
    /// Id of the `[PAD]` piece.
    #[serde(default)]
    pub pad_token_id: usize,
    /// Kind of position embedding; only `absolute` is supported.
    #[serde(default = "default_pos_type")]
    pub position_embedding_type: String,
}

fn default_act() -> String {
    "gelu".into()
}
fn default_max_pos() -> usize {
    512
}
fn default_type_vocab() -> usize {
    2
}
fn default_eps() -> f64 {
    1e-12
}
fn default_pos_type() -> String {
    "absolute".into()
}

impl BertConfig {
    /// Parses and validates `config.json` at `path`.
    pub fn from_file(path: &Path) -> Result<BertConfig> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::Model {
            path: path.to_path_buf(),
            msg: format!("cannot read config: {e}"),
        })?;
        Self::from_json(&text).map_err(|msg| Error::Model {
            path: path.to_path_buf(),
            msg,
        })
    }

    /// Parses and validates a config from JSON text; the error is a message.
    pub(crate) fn from_json(text: &str) -> std::result::Result<BertConfig, String> {
        let cfg: BertConfig =
            serde_json::from_str(text).map_err(|e| format!("not a BERT config.json: {e}"))?;
        cfg.validate()?;
        Ok(cfg)
    }

    /// Checks the invariants the forward pass relies on.
    pub(crate) fn validate(&self) -> std::result::Result<(), String> {
        if self.hidden_size == 0 || self.num_attention_heads == 0 {
            return Err("hidden_size and num_attention_heads must be positive".into());
        }
        if !self.hidden_size.is_multiple_of(self.num_attention_heads) {
            return Err(format!(
                "hidden_size {} is not a multiple of num_attention_heads {}",
                self.hidden_size, self.num_attention_heads
            ));
        }
        if self.vocab_size == 0 || self.intermediate_size == 0 {
            return Err("vocab_size and intermediate_size must be positive".into());
        }
        if self.max_position_embeddings < 3 {
            return Err(format!(
                "max_position_embeddings {} leaves no room for [CLS] x [SEP]",
                self.max_position_embeddings
            ));
        }
        if self.type_vocab_size == 0 {
            return Err("type_vocab_size must be at least 1".into());
        }
        if !matches!(self.hidden_act.as_str(), "gelu" | "gelu_python") {
            return Err(format!(
                "hidden_act {:?} is not supported (only the exact erf \"gelu\")",
                self.hidden_act
            ));
        }
        if self.position_embedding_type != "absolute" {
            return Err(format!(
                "position_embedding_type {:?} is not supported (only \"absolute\")",
                self.position_embedding_type
            ));
        }
        if !(self.layer_norm_eps.is_finite() && self.layer_norm_eps >= 0.0) {
            return Err(format!("layer_norm_eps {} is invalid", self.layer_norm_eps));
        }
        Ok(())
    }

    /// Width of one attention head, `d / H`.
    pub fn head_size(&self) -> usize {
        self.hidden_size / self.num_attention_heads
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINILM: &str = r#"{"architectures":["BertModel"],"hidden_act":"gelu",
        "hidden_size":384,"intermediate_size":1536,"layer_norm_eps":1e-12,
        "max_position_embeddings":512,"model_type":"bert","num_attention_heads":12,
        "num_hidden_layers":6,"pad_token_id":0,"position_embedding_type":"absolute",
        "type_vocab_size":2,"vocab_size":30522}"#;

    #[test]
    fn parses_minilm() {
        let c = BertConfig::from_json(MINILM).unwrap();
        assert_eq!(c.hidden_size, 384);
        assert_eq!(c.head_size(), 32);
        assert_eq!(c.layer_norm_eps, 1e-12);
    }

    #[test]
    fn rejects_bad_configs() {
        let bad_heads = MINILM.replace("\"num_attention_heads\":12", "\"num_attention_heads\":7");
        assert!(BertConfig::from_json(&bad_heads)
            .unwrap_err()
            .contains("multiple"));
        let relu = MINILM.replace("\"gelu\"", "\"relu\"");
        assert!(BertConfig::from_json(&relu).unwrap_err().contains("relu"));
        assert!(BertConfig::from_json("{}").is_err());
        assert!(BertConfig::from_json("not json").is_err());
    }
}
