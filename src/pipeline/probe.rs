//! Step 1c of [`Pipeline::analyse`]: the encoder's vote on doubtful
//! categories ([`crate::pos::probe`]), and the vectors it leaves on the
//! targets for `knn` and `ens` ([`crate::corpus::Token::vector`]).

use super::{Pipeline, SentenceCategories};
use crate::pos::probe::CategoryProbe;

/// Sentences the probe encodes per batch ([`Pipeline::analyse`] step 1c).
const PROBE_CHUNK: usize = 256;

/// The vector of a token made of `range`'s words, as the encoder gives a
/// word: the mean of its pieces, so a unit's is the mean of its words'
/// vectors weighed by their pieces. `None` when a word has no vector.
pub(super) fn token_vector(
    encoder: &crate::encoder::Encoder,
    words: &[&str],
    vectors: &[Option<std::sync::Arc<[f32]>>],
    range: std::ops::Range<usize>,
) -> Option<std::sync::Arc<[f32]>> {
    if range.len() == 1 {
        return vectors.get(range.start)?.clone();
    }
    let mut sum: Vec<f32> = Vec::new();
    let mut pieces = 0usize;
    for w in range {
        let v = vectors.get(w)?.as_ref()?;
        let n = encoder.piece_count(words[w]);
        sum.resize(v.len(), 0.0);
        for (a, x) in sum.iter_mut().zip(v.iter()) {
            *a += n as f32 * x;
        }
        pieces += n;
    }
    let inv = 1.0 / pieces.max(1) as f32;
    Some(sum.into_iter().map(|x| x * inv).collect())
}

/// With [`PosProbe::keep_sentences`]: every token of a sentence gets the
/// sentence's unit mean vector ([`crate::corpus::Token::sentence_vector`]),
/// the mean of its content words' vectors ([`token_vector`]: a joined unit
/// counts once), as [`crate::disambig::knn::Knn::target_and_sentence_vectors`]
/// computes it from the tokens' text. Nothing when a content word has no
/// vector (the reader then encodes the sentence itself).
pub(super) fn set_sentence_vector(
    encoder: &crate::encoder::Encoder,
    key: &std::sync::Arc<str>,
    words: &[&str],
    vectors: &[Option<std::sync::Arc<[f32]>>],
    words_of: &[std::ops::Range<usize>],
    tokens: &mut [crate::corpus::Token],
) {
    use crate::disambig::knn::{in_sentence_mean, sentence_mean};
    // a function word's entry: empty, left out of the mean
    let none: std::sync::Arc<[f32]> = std::sync::Arc::from(Vec::new());
    let per_token: Option<Vec<std::sync::Arc<[f32]>>> = tokens
        .iter()
        .zip(words_of)
        .map(|(t, r)| {
            if !in_sentence_mean(t) {
                return Some(none.clone());
            }
            token_vector(encoder, words, vectors, r.clone())
        })
        .collect();
    let Some(mean) = per_token.and_then(|v| sentence_mean(tokens, &v)) else {
        return;
    };
    let v = crate::corpus::WordVector {
        encoder: key.clone(),
        values: mean.into(),
    };
    for t in tokens {
        t.sentence_vector = Some(v.clone());
    }
}

/// The encoder and the probe that reads its vectors (`--pos-probe`).
#[derive(Clone, Copy)]
pub struct PosProbe<'a> {
    /// The encoder the probe was fitted on ([`CategoryProbe::check_encoder`]).
    pub encoder: &'a crate::encoder::Encoder,
    /// The probe.
    pub model: &'a CategoryProbe,
    /// Keep the encoder's vector of every target on its token
    /// ([`crate::corpus::Token::vector`]; a joined unit's from its words',
    /// weighed by their pieces) for a method that reads the encoder too (`knn`,
    /// `ens`), so the sentence is encoded once.
    pub keep_vectors: bool,
    /// Also leave each sentence's mean vector on its tokens (with
    /// `keep_vectors`), for a method that reads it
    /// ([`crate::disambig::Disambiguator::reads_sentence_vectors`]).
    pub keep_sentences: bool,
}

/// Whether the text pipeline runs the encoder's category probe: as the
/// method calls for (`Auto`, the default: when it reads the encoder
/// anyway), always (`On`, `--pos-probe`) or never (`Off`, `--no-pos-probe`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProbeChoice {
    /// When the method reads the encoder anyway (knn, ens) and that
    /// encoder is the probe's.
    #[default]
    Auto,
    /// Whatever the method; an encoder the probe was not fitted on is an
    /// error.
    On,
    /// Never.
    Off,
}

impl ProbeChoice {
    /// From the command line's `--pos-probe` and `--no-pos-probe`.
    pub fn from_flags(on: bool, off: bool) -> ProbeChoice {
        match (on, off) {
            (_, true) => ProbeChoice::Off,
            (true, false) => ProbeChoice::On,
            (false, false) => ProbeChoice::Auto,
        }
    }
}

impl<'r> PosProbe<'r> {
    /// The probe the text pipeline runs for `method` (built from `spec`),
    /// as `choice` says (`None` when off). When the method reads the
    /// encoder, the pipeline keeps each single-word target's vector for
    /// it, so sentences are encoded once (and each sentence's mean
    /// vector, when `method` reads it). `wsd tag`, `wsd eval --raw`,
    /// `wsd compare --raw` and `wsd errors --raw` all choose it here, so
    /// they read plain text alike.
    pub fn for_method(
        res: &'r crate::resources::Resources,
        spec: &crate::disambig::MethodSpec,
        method: &dyn crate::disambig::Disambiguator,
        choice: ProbeChoice,
    ) -> crate::Result<Option<PosProbe<'r>>> {
        let reads_encoder = spec
            .methods()
            .iter()
            .any(|m| m.needs.contains(&crate::disambig::registry::Need::Encoder));
        if choice == ProbeChoice::Off || (choice == ProbeChoice::Auto && !reads_encoder) {
            return Ok(None);
        }
        // the method's own encoder, so the vectors the pipeline keeps are
        // the ones it would compute
        let encoder = match spec.encoder_precision(res) {
            Some(p) => res.encoder_preferring(p)?,
            None => res.encoder()?,
        };
        let model = CategoryProbe::shipped();
        if let Err(msg) = model.check_encoder(encoder.fingerprint(), encoder.hidden_size()) {
            if choice == ProbeChoice::On {
                return Err(crate::Error::BadParameter {
                    name: "--pos-probe".into(),
                    value: encoder.dir().display().to_string(),
                    msg,
                });
            }
            return Ok(None);
        }
        Ok(Some(PosProbe {
            encoder,
            model,
            keep_vectors: reads_encoder,
            keep_sentences: reads_encoder && method.reads_sentence_vectors(),
        }))
    }
}

impl Pipeline<'_> {
    /// Step 1c: the encoder's vote ([`crate::pos::probe`]) on every word
    /// with a category that WordNet has in at least two categories, the
    /// sentences encoded [`PROBE_CHUNK`] at a time.
    pub(super) fn probe_categories(
        &self,
        probe: PosProbe<'_>,
        steps: &mut [SentenceCategories<'_>],
        memo: &mut crate::pos::category::CandidateMemo,
    ) {
        let allowed: Vec<Vec<u8>> = steps
            .iter()
            .map(|s| {
                s.words
                    .iter()
                    .zip(&s.tagged)
                    .map(|(w, p)| {
                        p.and_then(|_| memo.candidate(self.tagger, self.inv, w))
                            .map_or(0, |(bits, _)| bits)
                    })
                    .collect()
            })
            .collect();
        // The probe reads the candidates; with `keep_vectors` every word
        // with a category is encoded, for the targets (and with
        // `keep_sentences` the sentence's content words) to carry.
        let select: Vec<Vec<bool>> = allowed
            .iter()
            .zip(steps.iter())
            .map(|(a, s)| {
                a.iter()
                    .zip(&s.tagged)
                    .enumerate()
                    .map(|(i, (b, t))| {
                        let in_unit = || s.matches.iter().any(|m| (m.start..m.end).contains(&i));
                        b.count_ones() >= 2 || (probe.keep_vectors && (t.is_some() || in_unit()))
                    })
                    .collect()
            })
            .collect();
        if !select.iter().flatten().any(|&x| x) {
            return;
        }
        let layers = crate::pos::probe::PROBE_LAYERS;
        let d = probe.encoder.hidden_size();
        // In chunks, so that the four layers of every selected word are
        // held for one chunk at a time, not for a whole block.
        for (c, chunk) in steps.chunks_mut(PROBE_CHUNK).enumerate() {
            let first = c * PROBE_CHUNK;
            let sentences: Vec<Vec<String>> = chunk
                .iter()
                .map(|s| s.words.iter().map(|w| w.to_string()).collect())
                .collect();
            let select = &select[first..first + chunk.len()];
            let allowed = &allowed[first..first + chunk.len()];
            let vectors = probe
                .encoder
                .encode_selected_layers(&sentences, layers, select);
            for (si, s) in chunk.iter_mut().enumerate() {
                if probe.keep_vectors {
                    s.vectors = vec![None; s.words.len()];
                }
                for (i, v) in vectors[si].iter().enumerate() {
                    if !select[si][i] || v.len() != layers * d {
                        continue;
                    }
                    if probe.keep_vectors {
                        s.vectors[i] = Some(v[(layers - 1) * d..].into());
                    }
                    if let (true, Some(p)) = (allowed[si][i].count_ones() >= 2, s.poses[i]) {
                        let summed = crate::encoder::sum_blocks(v, d);
                        s.poses[i] = Some(probe.model.decide(&summed, allowed[si][i], p));
                    }
                }
            }
        }
    }
}
