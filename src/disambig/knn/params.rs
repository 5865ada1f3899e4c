//! What a kNN model is trained with ([`KnnParams`], [`GlossScope`],
//! [`GlossPooling`]; recorded in the model header) and what prediction is
//! run with ([`KnnOptions`]; chosen at run time, not stored).

use crate::encoder::Encoder;

/// Which synsets get a gloss vector.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GlossScope {
    /// None: only SemCor context vectors (and their propagation).
    None,
    /// Every synset of WordNet (117,659): about 3 times the encoder work
    /// of all of SemCor.
    #[default]
    All,
    /// Only the synsets of these lemmas (any POS). `wsd train --gloss
    /// lemmas` (the default before `all`) passes the lemmas of the training
    /// documents and of any `--gloss-xml` files: 40,330 synsets for
    /// SemCor's train split plus SemEval-2007, half the training time of
    /// `all`, but a word missing from the training data gets no gloss
    /// vector.
    Lemmas(Vec<String>),
}

/// How a gloss's word vectors become one vector.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GlossPooling {
    /// Mean of the vectors of the header's lemma words.
    Lemma,
    /// Mean of the vectors of every word of the gloss text (the default:
    /// 46.8 against 31.6 F1 for `Lemma`, glosses alone on SemEval-2007).
    #[default]
    Mean,
}

/// Layers summed by default (see [`KnnParams::pooled_layers`]).
pub const DEFAULT_POOLED_LAYERS: usize = 1;

/// Training parameters (recorded in the model header).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct KnnParams {
    /// Encoder folder the vectors come from.
    pub encoder: String,
    /// Vector width (the encoder's hidden size).
    pub hidden_size: usize,
    /// Which layer and word pooling (documentation: `last layer, mean of pieces`).
    pub layers: String,
    /// Gloss vectors for which synsets.
    pub gloss: GlossScope,
    /// Gloss pooling.
    pub gloss_pooling: GlossPooling,
    /// Keep every SemCor instance vector (for k > 1; large).
    pub keep_instances: bool,
    /// How many of the encoder's last layers are summed into a word's
    /// vector (1: the last layer only; older models, which lack the field,
    /// are read as 1). Prediction encodes with the same pooling.
    #[serde(default = "one")]
    pub pooled_layers: usize,
    /// Whether WordNet's example sentences of the synsets in gloss scope
    /// were added to the context vectors (the lemma's vector in each
    /// example counts as one more tagged instance of its synset).
    #[serde(default)]
    pub examples: bool,
    /// Words of the glosses in scope whose lemma has one sense in all of
    /// WordNet ([`super::monosemous_synset`]) count as tagged instances of
    /// that sense, at most this many per synset (0: none; older models,
    /// which lack the field, have none).
    #[serde(default)]
    pub monosemous: usize,
    /// Gloss words added as tagged instances (with [`KnnParams::monosemous`]).
    #[serde(default)]
    pub monosemous_contexts: usize,
    /// Synsets whose only contexts are such gloss words.
    #[serde(default)]
    pub monosemous_synsets: usize,
    /// Training facts: documents, sentences, tagged tokens.
    pub documents: usize,
    /// Sentences encoded.
    pub sentences: usize,
    /// Sense-tagged tokens added to centroids.
    pub tagged_tokens: usize,
    /// The encoder's [`Encoder::fingerprint`] (empty in older models: not checked).
    #[serde(default)]
    pub encoder_fingerprint: String,
    /// Example sentences added (with [`KnnParams::examples`]).
    #[serde(default)]
    pub example_contexts: usize,
    /// Synsets whose only contexts are example sentences: the ones the
    /// examples gave a context vector they would not have had.
    #[serde(default)]
    pub example_synsets: usize,
    /// Sense-key vectors (issue 13): a sense key (lemma-specific) with at
    /// least this many training instances gets its own centroid, which
    /// prediction prefers to the synset's (0: none; older models, which
    /// lack the field, have none). 10 is the threshold measured in
    /// `examples/knn_lab/`: +0.9 F1 on the SemEval-2007 dev set, verbs
    /// most, since the lemmas of a verb synset are used differently.
    #[serde(default)]
    pub sense_min: u32,
    /// Sense-key vectors made (with [`KnnParams::sense_min`]).
    #[serde(default)]
    pub sense_vectors: usize,
    /// Training sentences kept per vector for `--explain` (0 in older
    /// models: they kept none).
    #[serde(default)]
    pub exemplars: usize,
    /// What the model was trained on, as `wsd train` labels it
    /// (`semcor:train`, `semcor:all+xml:mine.data.xml`); empty in older
    /// models.
    #[serde(default)]
    pub training_data: String,
    /// The `--gloss-xml` files whose lemmas got gloss vectors (file names).
    #[serde(default)]
    pub gloss_xml: Vec<String>,
}

/// Sense-key vector threshold of `wsd train --method knn` (see
/// [`KnnParams::sense_min`]).
pub const DEFAULT_SENSE_MIN: u32 = 10;

/// Training sentences kept per vector by default ([`KnnParams::exemplars`]):
/// the two nearest its centroid, enough to show what the vector stands
/// for at about 8 MB for the train split.
pub const DEFAULT_EXEMPLARS: usize = 2;

fn one() -> usize {
    1
}

impl KnnParams {
    /// Default parameters for `encoder`.
    pub fn new(encoder: &Encoder) -> KnnParams {
        KnnParams {
            encoder: encoder.dir().display().to_string(),
            hidden_size: encoder.hidden_size(),
            layers: "sum of the last `pooled_layers` layers; word = mean of its WordPiece pieces"
                .into(),
            gloss: GlossScope::All,
            gloss_pooling: GlossPooling::Mean,
            pooled_layers: DEFAULT_POOLED_LAYERS,
            examples: false,
            monosemous: 0,
            monosemous_contexts: 0,
            monosemous_synsets: 0,
            example_contexts: 0,
            example_synsets: 0,
            sense_min: DEFAULT_SENSE_MIN,
            sense_vectors: 0,
            exemplars: DEFAULT_EXEMPLARS,
            training_data: String::new(),
            gloss_xml: Vec::new(),
            keep_instances: false,
            documents: 0,
            sentences: 0,
            tagged_tokens: 0,
            encoder_fingerprint: encoder.fingerprint().to_string(),
        }
    }
}

/// Prediction options (not part of the model: chosen at run time).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KnnOptions {
    /// Nearest instances that vote (1: nearest sense vector).
    pub k: usize,
    /// Weight of the gloss cosine when a synset has both vectors.
    pub gloss_weight: f32,
    /// Give unseen synsets their hypernyms' (or lexicographer file's)
    /// context vector.
    pub propagate: bool,
    /// Weight of a sense-frequency prior added to the cosine score:
    /// `prior · (tag_count + 1) / Σ(tag_count + 1)` over the candidates.
    pub prior: f32,
}

impl Default for KnnOptions {
    fn default() -> Self {
        KnnOptions {
            k: 1,
            gloss_weight: 0.3,
            propagate: true,
            prior: 0.1,
        }
    }
}
