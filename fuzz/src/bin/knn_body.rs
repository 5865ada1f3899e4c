//! kNN model bodies (a safetensors blob: ctx, gloss, instances, senses,
//! meta; format 2 without senses).
//! The first byte picks the header's vector width, so widths that
//! disagree with the tensors are tried too.
use wsd::disambig::knn::{GlossPooling, GlossScope, KnnModel, KnnParams};

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let Some((&w, body)) = data.split_first() else {
            return;
        };
        let params = KnnParams {
            encoder: "encoder".into(),
            hidden_size: match w % 4 {
                0 => 4,
                1 => 0,
                2 => 384,
                _ => 1,
            },
            layers: String::new(),
            gloss: GlossScope::None,
            gloss_pooling: GlossPooling::Mean,
            keep_instances: w & 4 != 0,
            documents: 0,
            sentences: 0,
            tagged_tokens: 0,
            encoder_fingerprint: String::new(),
            pooled_layers: 1,
            examples: false,
            example_contexts: 0,
            example_synsets: 0,
            sense_min: 10,
            sense_vectors: 0,
            exemplars: 2,
            training_data: String::new(),
            gloss_xml: Vec::new(),
        };
        let _ = KnnModel::from_bytes(params, body);
    });
}
