//! A BERT-architecture attention encoder in pure Rust.
//!
//! [`Encoder`] loads a pretrained BERT checkpoint in the Hugging Face layout
//! (`config.json`, `vocab.txt`, `model.safetensors`; the project uses
//! `all-MiniLM-L6-v2`: 6 layers, `d` = 384, 12 heads) and turns words into
//! *contextual* vectors: the vector of "bank" in "the river bank" differs
//! from the one in "the bank raised rates", which is what sense
//! disambiguation by nearest sense vector needs.
//!
//! The data flow, one file per stage:
//!
//! * [`wordpiece`] — text → WordPiece ids (BERT's uncased tokenizer).
//! * [`weights`] — named, shape-checked tensors from the safetensors file.
//! * [`bert`] — embeddings (word + [`position`] + token type, LayerNorm),
//!   then `num_hidden_layers` × [`layer::BertLayer`]:
//!   [`attention`] (multi-head scaled dot-product self-attention, residual,
//!   LayerNorm) and a GELU feed-forward block (residual, LayerNorm).
//! * [`matrix`] — the row-major matrix and the one GEMM (`matrixmultiply`).
//!
//! Speed comes from batching: the sentences of a batch are packed one
//! after the other without padding, so every linear map is one large GEMM
//! over all the batch's real tokens; the per-(sentence, head) attention
//! and the element-wise passes run on rayon's pool. When only some words'
//! vectors are wanted ([`Encoder::encode_selected_summed`]: kNN's
//! targets), the last layer runs on their rows only.
//!
//! ```no_run
//! # fn main() -> wsd::Result<()> {
//! use wsd::encoder::Encoder;
//! let enc = Encoder::load(std::path::Path::new("models/all-MiniLM-L6-v2"))?;
//! let sentence: Vec<String> = ["He", "sat", "on", "the", "bank"].map(String::from).into();
//! let vectors = enc.encode_words(&[sentence]);
//! assert_eq!(vectors[0].len(), 5); // one vector per word
//! assert_eq!(vectors[0][4].len(), enc.hidden_size());
//! # Ok(())
//! # }
//! ```
//!
//! `scripts/fetch-model.sh` puts the checkpoint into `models/`. Correctness
//! is pinned by `scripts/reference_encoder.py`, an independent numpy
//! implementation whose output (`tests/fixtures/encoder_reference.json`)
//! the tests match to 1e-4 (measured: 8e-6). The tokenizer matches
//! `transformers`' Python `BertTokenizer` (the "legacy" one); the Rust
//! "fast" tokenizer differs from both on two rarities: it keeps unassigned
//! code points (making the word `[UNK]`) and lower-cases a final `Σ` to
//! `σ`, not `ς`.

pub mod attention;
pub mod bert;
pub mod config;
pub mod int8;
pub mod layer;
pub mod matrix;
pub mod position;
mod unicode_tables;
pub mod weights;
pub mod wordpiece;

use std::path::{Path, PathBuf};

pub use attention::{attention_weights, scaled_dot_product_attention, softmax};
pub use bert::BertModel;
pub use config::BertConfig;
pub use layer::{erf, gelu, layer_norm};
pub use matrix::Matrix;
pub use position::{sinusoidal_encoding, PositionKind};
pub use weights::Weights;
pub use wordpiece::WordPiece;

use crate::{Error, Result};

/// Turns transparent huge pages off for the rest of the process (Linux;
/// memory already mapped keeps its pages), once an encoder is loaded.
///
/// With THP set to `always` (as on the project's machines), every time the
/// allocator hands out fresh or purged memory the first touch faults in a
/// whole 2 MB page that the kernel zeroes: the encoder's per-layer buffers
/// come and go, and `perf` put 10% of `wsd tag --method knn`'s CPU time in
/// `clear_page_erms` (kernel time 16.7% of samples against 9.5% with THP
/// off). It is done here, not at process start, because the hash tables
/// of the inventory and the POS tagger, loaded before, run faster on huge
/// pages: with THP off from the start `wsd tag --method mfs` (which loads
/// no encoder) took 13.3–13.8 user-seconds on SemCor's text against
/// 10.4–10.9 with it on. The answers are the same either way; if the call
/// fails nothing changes.
fn small_pages_from_now() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes plain integers and only sets a
    // flag of the calling process.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// The arithmetic of the encoder's linear maps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Precision {
    /// f32 throughout (the default: the vectors kNN models were trained on).
    #[default]
    F32,
    /// 8-bit weights and inputs with i32 sums in the layers' linear maps
    /// ([`int8`]); attention, LayerNorm and GELU stay f32. The vectors
    /// move a little away from the f32 ones the models hold: kNN queries
    /// use it by default (as accurate, faster), training and ens models
    /// fitted on f32 features do not (see `Resources::encoder_preferring`).
    Int8,
}

impl std::str::FromStr for Precision {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Precision, String> {
        match s {
            "f32" => Ok(Precision::F32),
            "int8" => Ok(Precision::Int8),
            _ => Err(format!("unknown encoder precision {s:?} (f32 or int8)")),
        }
    }
}

impl Precision {
    /// The name `--encoder-precision` takes (and ens model headers record).
    pub fn name(self) -> &'static str {
        match self {
            Precision::F32 => "f32",
            Precision::Int8 => "int8",
        }
    }
}

impl std::fmt::Display for Precision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Default cap on the pieces of one batch; see
/// [`Encoder::set_max_batch_tokens`].
pub const DEFAULT_BATCH_TOKENS: usize = 4096;

/// Most sequences in one batch, whatever their length.
const MAX_BATCH_SEQUENCES: usize = 256;

/// A pretrained BERT encoder with its tokenizer.
///
/// `Encoder` is `Send + Sync`: load it once and share it (e.g. in an `Arc`).
pub struct Encoder {
    dir: PathBuf,
    tokenizer: WordPiece,
    model: BertModel,
    max_batch_tokens: usize,
    fingerprint: String,
    precision: Precision,
}

impl std::fmt::Debug for Encoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Encoder")
            .field("dir", &self.dir)
            .field("config", self.model.config())
            .field("vocab", &self.tokenizer.len())
            .finish()
    }
}

/// One sequence fed to the model: a window of a sentence's pieces, framed
/// by `[CLS]` and `[SEP]`.
struct PieceWindow {
    /// Which input the window belongs to.
    source: usize,
    /// Index, in the source's piece list, of the window's first piece.
    first_piece: usize,
    /// `[CLS]` + pieces + `[SEP]`.
    ids: Vec<u32>,
}

/// Sentences (encoder inputs) of more pieces than one window holds, and
/// the most pieces one had, over the whole process: see [`windowed`].
static WINDOWED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static LONGEST: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// How many sentences every encoder of this process has had to cut into
/// windows so far (more than [`Encoder::max_positions`] − 2 = 510 word
/// pieces; see [`Encoder::encode_words`]), and the most pieces one of them
/// had: `(0, 0)` when none. Counted per encoder input, so a sentence that
/// `wsd embed` hands over in 512-word slices counts once per slice. The
/// CLI reads it once at the end of a run and warns (words near a window's
/// edge see less context than the sentence holds).
pub fn windowed() -> (usize, usize) {
    use std::sync::atomic::Ordering::Relaxed;
    (WINDOWED.load(Relaxed), LONGEST.load(Relaxed))
}

/// Splits `n` pieces into consecutive windows of at most `max` pieces,
/// cutting at word starts (`starts`, ascending, `starts[0] == 0`) where
/// possible and inside a word only when a single word is longer than
/// `max`. Returns `(start, end)` piece ranges covering `0..n` exactly.
fn window_ranges(starts: &[usize], n: usize, max: usize) -> Vec<(usize, usize)> {
    let max = max.max(1);
    let mut out = Vec::new();
    let mut start = 0;
    while start < n {
        let limit = start + max;
        let end = if limit >= n {
            n
        } else {
            // the last word start in (start, limit]
            let i = starts.partition_point(|&s| s <= limit);
            match starts[..i].last() {
                Some(&s) if s > start => s,
                _ => limit,
            }
        };
        out.push((start, end));
        start = end;
    }
    out
}

impl Encoder {
    /// Loads the checkpoint in `dir` with its learned position table.
    ///
    /// Reads `config.json`, `vocab.txt` and `model.safetensors`. Every
    /// failure — a missing folder or file, a config the forward pass does
    /// not support, a tensor that is missing or whose shape does not match
    /// the config, a vocabulary whose size differs from the embedding
    /// matrix — is an [`Error::Model`] naming the file and the problem.
    pub fn load(dir: &Path) -> Result<Encoder> {
        Self::load_with_positions(dir, PositionKind::Learned)
    }

    /// [`Encoder::load`] with the linear maps in `precision`.
    pub fn load_with_precision(dir: &Path, precision: Precision) -> Result<Encoder> {
        let mut enc = Self::load(dir)?;
        if precision == Precision::Int8 {
            enc.model.quantize_linears();
        }
        enc.precision = precision;
        Ok(enc)
    }

    /// [`Encoder::load`] with a choice of position vectors; see
    /// [`position`] for why only `Learned` suits a pretrained checkpoint.
    pub fn load_with_positions(dir: &Path, kind: PositionKind) -> Result<Encoder> {
        if !dir.is_dir() {
            return Err(Error::Model {
                path: dir.to_path_buf(),
                msg: "model folder not found; run scripts/fetch-model.sh or pass --encoder DIR"
                    .into(),
            });
        }
        let config = BertConfig::from_file(&dir.join("config.json"))?;
        let vocab_path = dir.join("vocab.txt");
        let tokenizer = WordPiece::from_file(&vocab_path)?;
        let weights = Weights::open(&dir.join("model.safetensors"))?;
        // Checked before the tensors so that the message names the real
        // culprit rather than a shape mismatch.
        let emb = "embeddings.word_embeddings.weight";
        if let Some(shape) = weights.shape(emb) {
            if shape.first() != Some(&tokenizer.len()) {
                return Err(Error::Model {
                    path: vocab_path,
                    msg: format!(
                        "vocab.txt has {} pieces but {emb} has shape {shape:?}; \
                         the vocabulary and the weights do not belong together",
                        tokenizer.len()
                    ),
                });
            }
        }
        if tokenizer.len() != config.vocab_size {
            return Err(Error::Model {
                path: vocab_path,
                msg: format!(
                    "vocab.txt has {} pieces but config.json says vocab_size {}",
                    tokenizer.len(),
                    config.vocab_size
                ),
            });
        }
        let model = BertModel::load(&weights, &config, kind, tokenizer.pad_id())?;
        small_pages_from_now();
        Ok(Encoder {
            dir: dir.to_path_buf(),
            tokenizer,
            model,
            max_batch_tokens: DEFAULT_BATCH_TOKENS,
            fingerprint: weights.fingerprint().to_string(),
            precision: Precision::F32,
        })
    }

    /// The arithmetic of the linear maps: features computed from the
    /// vectors (ens's) depend on it, so ens models record it.
    pub fn precision(&self) -> Precision {
        self.precision
    }

    /// The folder the checkpoint was loaded from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A fingerprint of the weights (recorded in kNN models, checked at
    /// load so a model is not used with another encoder).
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// Width `d` of the output vectors (384 for MiniLM).
    pub fn hidden_size(&self) -> usize {
        self.model.config().hidden_size
    }

    /// Longest sequence the model takes at once, in pieces including
    /// `[CLS]` and `[SEP]` (512 for MiniLM).
    pub fn max_positions(&self) -> usize {
        self.model.config().max_position_embeddings
    }

    /// The architecture read from `config.json`.
    pub fn config(&self) -> &BertConfig {
        self.model.config()
    }

    /// The tokenizer.
    pub fn tokenizer(&self) -> &WordPiece {
        &self.tokenizer
    }

    /// The model, for callers that batch id sequences themselves.
    pub fn model(&self) -> &BertModel {
        &self.model
    }

    /// Caps the pieces per batch (default
    /// [`DEFAULT_BATCH_TOKENS`]). Larger batches make larger GEMMs (faster
    /// per token) but more memory: the feed-forward activations take
    /// `tokens × intermediate_size × 4` bytes.
    pub fn set_max_batch_tokens(&mut self, tokens: usize) {
        self.max_batch_tokens = tokens.max(1);
    }

    /// The last-layer vectors of one id sequence, used exactly as given
    /// (add `[CLS]`/`[SEP]` yourself). Errors if it is longer than
    /// [`Encoder::max_positions`] or holds an id outside the vocabulary.
    pub fn encode_ids(&self, ids: &[u32]) -> Result<Matrix> {
        let mut out = self.model.forward(&[ids])?;
        Ok(out
            .pop()
            .unwrap_or_else(|| Matrix::zeros(0, self.hidden_size())))
    }

    /// Tokenizes `text` and returns its WordPiece pieces (without `[CLS]`
    /// and `[SEP]`) with one last-layer vector each: the low-level view,
    /// for inspection and tests. Texts of more than `max_positions − 2`
    /// pieces are windowed as in [`Encoder::encode_words`], with cuts
    /// between the tokenizer's words.
    pub fn encode_text(&self, text: &str) -> (Vec<String>, Vec<Vec<f32>>) {
        let mut ids = Vec::new();
        let mut starts = Vec::new();
        for word in wordpiece::basic_tokenize(text) {
            starts.push(ids.len());
            self.tokenizer.wordpiece_into(&word, &mut ids);
        }
        let pieces = ids
            .iter()
            .map(|&id| self.tokenizer.piece(id).unwrap_or("[UNK]").to_string())
            .collect();
        let mut vectors = vec![Vec::new(); ids.len()];
        let windows = self.windows(0, &ids, &starts);
        self.run_windows(&windows, 1, None, |w, m| {
            for (i, v) in m
                .to_rows()
                .into_iter()
                .skip(1)
                .take(w.ids.len() - 2)
                .enumerate()
            {
                vectors[w.first_piece + i] = v;
            }
        });
        (pieces, vectors)
    }

    /// One contextual vector per input word, for pre-tokenised sentences.
    ///
    /// Each word is tokenized on its own into WordPiece pieces, and its
    /// vector is the **mean of its pieces' last-layer vectors**: WordPiece
    /// splits rare words ("disambiguation" → `di ##sam ##bi ##gua ##tion`),
    /// the sense inventory works on words, and the mean keeps every piece's
    /// contribution (the first piece alone would lose the suffixes). A word
    /// that yields no piece (empty, or only control characters) is encoded
    /// as `[UNK]`, so every word gets a vector. Output order is input order:
    /// `out[s][w]` belongs to `sentences[s][w]`.
    ///
    /// **Long sentences**: the model has [`Encoder::max_positions`] position
    /// vectors (512), two of which `[CLS]` and `[SEP]` take. A sentence of
    /// more pieces is cut into consecutive, non-overlapping windows of at
    /// most `max_positions − 2` pieces, each encoded as its own sequence;
    /// cuts fall between words (inside a word only if one word alone exceeds
    /// a window). Windows rather than truncation, so that every word gets a
    /// vector; non-overlapping so each piece is encoded once. Words near a
    /// cut see less context; natural sentences rarely come near 510
    /// pieces, so this is a safety net rather than the common path. A word
    /// cut across two windows averages its pieces from both. Each windowed
    /// sentence is counted ([`windowed`]), and `wsd` warns once per run.
    ///
    /// **Batching**: all windows of all sentences are sorted by length and
    /// grouped into batches of similar length, so padding stays small.
    pub fn encode_words(&self, sentences: &[Vec<String>]) -> Vec<Vec<Vec<f32>>> {
        self.encode_words_layers(sentences, 1)
    }

    /// [`Encoder::encode_words`] with the sum of the last `layers` layers'
    /// vectors (clamped to the model's layers) instead of the last layer's:
    /// LMMS (Loureiro & Jorge 2019) sums BERT's last four. `layers` = 1 is
    /// [`Encoder::encode_words`].
    pub fn encode_words_summed(
        &self,
        sentences: &[Vec<String>],
        layers: usize,
    ) -> Vec<Vec<Vec<f32>>> {
        let d = self.hidden_size();
        let mut out = self.encode_words_layers(sentences, layers);
        if layers > 1 {
            for v in out.iter_mut().flatten() {
                *v = sum_blocks(v, d);
            }
        }
        out
    }

    /// [`Encoder::encode_words`] keeping the last `layers` layers (clamped
    /// to 1…the model's layers): each word's vector is `layers · d` long,
    /// the layers side by side, earliest first, each the mean of the
    /// word's pieces in that layer. For experiments with layer pooling.
    pub fn encode_words_layers(
        &self,
        sentences: &[Vec<String>],
        layers: usize,
    ) -> Vec<Vec<Vec<f32>>> {
        self.encode_words_impl(sentences, layers, None)
    }

    /// [`Encoder::encode_words_summed`] when only some words' vectors are
    /// wanted: `select[s][w]` flags word `w` of sentence `s` (missing
    /// entries: not wanted). A wanted word's vector is exactly the one
    /// [`Encoder::encode_words_summed`] gives (every word still sees its
    /// whole sentence); an unwanted word gets an empty vector. Cheaper:
    /// the last layer computes only the rows of the wanted words' pieces
    /// ([`BertModel::forward_layers_read`]), and a sentence with no
    /// wanted word is not encoded at all. kNN wants its target words.
    pub fn encode_selected_summed(
        &self,
        sentences: &[Vec<String>],
        layers: usize,
        select: &[Vec<bool>],
    ) -> Vec<Vec<Vec<f32>>> {
        let d = self.hidden_size();
        let mut out = self.encode_words_impl(sentences, layers, Some(select));
        if layers > 1 {
            for v in out.iter_mut().flatten().filter(|v| !v.is_empty()) {
                *v = sum_blocks(v, d);
            }
        }
        out
    }

    /// [`Encoder::encode_words_layers`] for the selected words only (as
    /// [`Encoder::encode_selected_summed`] selects them): each wanted word's
    /// last `layers` layers side by side, an unwanted word an empty vector.
    pub fn encode_selected_layers(
        &self,
        sentences: &[Vec<String>],
        layers: usize,
        select: &[Vec<bool>],
    ) -> Vec<Vec<Vec<f32>>> {
        self.encode_words_impl(sentences, layers, Some(select))
    }

    /// How many pieces `word` is read as (at least one: a word the
    /// vocabulary cannot spell is one unknown piece), as
    /// [`Encoder::encode_words`] counts them.
    pub fn piece_count(&self, word: &str) -> usize {
        self.tokenizer.encode(word).len().max(1)
    }

    /// Who computed a vector: the weights' fingerprint and the precision
    /// (see [`crate::corpus::WordVector`]).
    pub fn vector_key(&self) -> String {
        format!("{}:{}", self.fingerprint, self.precision().name())
    }

    fn encode_words_impl(
        &self,
        sentences: &[Vec<String>],
        layers: usize,
        select: Option<&[Vec<bool>]>,
    ) -> Vec<Vec<Vec<f32>>> {
        let wanted = |s: usize, w: usize| {
            select.is_none_or(|sel| sel.get(s).and_then(|f| f.get(w)).copied() == Some(true))
        };
        let layers = layers.clamp(1, self.config().num_hidden_layers.max(1));
        let d = self.hidden_size() * layers;
        let mut windows = Vec::new();
        // per sentence: the word index of every piece
        let mut word_of: Vec<Vec<usize>> = Vec::with_capacity(sentences.len());
        for (s, words) in sentences.iter().enumerate() {
            if select.is_some() && !(0..words.len()).any(|w| wanted(s, w)) {
                word_of.push(Vec::new());
                continue;
            }
            let mut ids = Vec::new();
            let mut owner = Vec::new();
            let mut starts = Vec::with_capacity(words.len());
            for (w, word) in words.iter().enumerate() {
                starts.push(ids.len());
                let before = ids.len();
                ids.extend(self.tokenizer.encode(word));
                if ids.len() == before {
                    ids.push(self.tokenizer.unk_id());
                }
                owner.resize(ids.len(), w);
            }
            windows.extend(self.windows(s, &ids, &starts));
            word_of.push(owner);
        }
        let mut sums: Vec<Vec<Vec<f32>>> = sentences
            .iter()
            .enumerate()
            .map(|(s, ws)| {
                (0..ws.len())
                    .map(|w| {
                        if wanted(s, w) {
                            vec![0.0f32; d]
                        } else {
                            Vec::new()
                        }
                    })
                    .collect()
            })
            .collect();
        let mut counts: Vec<Vec<u32>> = sentences.iter().map(|ws| vec![0; ws.len()]).collect();
        // which positions of each window are read: the pieces of wanted words
        let read: Option<Vec<Vec<bool>>> = select.map(|_| {
            windows
                .iter()
                .map(|w| {
                    let owner = &word_of[w.source];
                    let mut r = vec![false; w.ids.len()];
                    for (p, flag) in r.iter_mut().skip(1).take(w.ids.len() - 2).enumerate() {
                        *flag = wanted(w.source, owner[w.first_piece + p]);
                    }
                    r
                })
                .collect()
        });
        self.run_windows(&windows, layers, read.as_deref(), |w, m| {
            let owner = &word_of[w.source];
            for p in 0..w.ids.len() - 2 {
                let word = owner[w.first_piece + p];
                if !wanted(w.source, word) {
                    continue;
                }
                let acc = &mut sums[w.source][word];
                for (a, v) in acc.iter_mut().zip(m.row(p + 1)) {
                    *a += v;
                }
                counts[w.source][word] += 1;
            }
        });
        for (s, c) in sums.iter_mut().zip(&counts) {
            for (v, &n) in s.iter_mut().zip(c) {
                if n > 1 {
                    let inv = 1.0 / n as f32;
                    v.iter_mut().for_each(|x| *x *= inv);
                }
            }
        }
        sums
    }

    /// The windows of one source's pieces; see [`Encoder::encode_words`].
    fn windows(&self, source: usize, ids: &[u32], starts: &[usize]) -> Vec<PieceWindow> {
        let max = self.max_positions().saturating_sub(2);
        if ids.len() > max {
            use std::sync::atomic::Ordering::Relaxed;
            WINDOWED.fetch_add(1, Relaxed);
            LONGEST.fetch_max(ids.len(), Relaxed);
        }
        window_ranges(starts, ids.len(), max)
            .into_iter()
            .map(|(a, b)| {
                let mut seq = Vec::with_capacity(b - a + 2);
                seq.push(self.tokenizer.cls_id());
                seq.extend_from_slice(&ids[a..b]);
                seq.push(self.tokenizer.sep_id());
                PieceWindow {
                    source,
                    first_piece: a,
                    ids: seq,
                }
            })
            .collect()
    }

    /// Runs the model over `windows` in length-sorted batches and hands
    /// each window with its `len × (layers·d)` output (the last `layers`
    /// layers side by side) to `sink`, in no fixed order.
    ///
    /// `read`, one flag per position of each window, says which rows will
    /// be read (see [`BertModel::forward_layers_read`]); `None`: all.
    fn run_windows(
        &self,
        windows: &[PieceWindow],
        layers: usize,
        read: Option<&[Vec<bool>]>,
        sink: impl FnMut(&PieceWindow, &Matrix) + Send,
    ) {
        let mut order: Vec<usize> = (0..windows.len()).collect();
        order.sort_by_key(|&i| windows[i].ids.len());
        let mut batches: Vec<&[usize]> = Vec::new();
        let mut start = 0;
        let mut pieces = 0;
        for i in 0..order.len() {
            // packed without padding: a batch costs its pieces
            let len = windows[order[i]].ids.len();
            let count = i + 1 - start;
            if count > 1 && (pieces + len > self.max_batch_tokens || count > MAX_BATCH_SEQUENCES) {
                batches.push(&order[start..i]);
                start = i;
                pieces = 0;
            }
            pieces += len;
        }
        if start < order.len() {
            batches.push(&order[start..]);
        }
        // Batches run side by side, one per thread, taken in order from a
        // shared counter; each batch's products split further when a
        // thread is free (`matrix::gemm`), so the last batch still uses
        // every core. Outputs reach `sink` in batch order, whatever the
        // thread count, so a word whose pieces span windows sums them in
        // the same order every time. At most about one finished batch per
        // thread waits for its turn.
        let threads = rayon::current_num_threads().min(batches.len()).max(1);
        let next = std::sync::atomic::AtomicUsize::new(0);
        let done = std::sync::Mutex::new((0usize, Vec::<Option<Vec<Matrix>>>::new(), sink));
        let run = |b: usize| {
            let batch = batches[b];
            let seqs: Vec<&[u32]> = batch.iter().map(|&i| windows[i].ids.as_slice()).collect();
            let flags: Option<Vec<&[bool]>> =
                read.map(|r| batch.iter().map(|&i| r[i].as_slice()).collect());
            self.model
                .forward_layers_read(&seqs, layers, flags.as_deref())
                .expect("windows are within max_positions with vocabulary ids")
        };
        let take = |b: usize| {
            let out = run(b);
            let mut guard = done.lock().unwrap_or_else(|e| e.into_inner());
            let (first, waiting, sink) = &mut *guard;
            let slot = b - *first;
            if waiting.len() <= slot {
                waiting.resize_with(slot + 1, || None);
            }
            waiting[slot] = Some(out);
            // hand over every batch whose predecessors are all done
            while let Some(Some(_)) = waiting.first() {
                let out = waiting.remove(0).expect("checked");
                for (&i, m) in batches[*first].iter().zip(&out) {
                    sink(&windows[i], m);
                }
                *first += 1;
            }
        };
        // Threads with no batch of their own: the products of the running
        // batches are split for them only (`matrix::with_free_threads`);
        // splitting while every thread has a batch only re-packs weights.
        let free = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(
            rayon::current_num_threads().saturating_sub(threads),
        ));
        let worker = || {
            matrix::with_free_threads(&free, || loop {
                let b = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if b >= batches.len() {
                    break;
                }
                take(b);
            });
            free.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        };
        if threads == 1 {
            worker();
        } else {
            rayon::scope(|s| {
                for _ in 1..threads {
                    s.spawn(|_| worker());
                }
                worker();
            });
        }
    }
}

/// The sum of the `d`-wide blocks of `v` (layers side by side → their sum).
pub fn sum_blocks(v: &[f32], d: usize) -> Vec<f32> {
    let mut out = vec![0.0f32; d];
    for block in v.chunks(d) {
        for (a, x) in out.iter_mut().zip(block) {
            *a += x;
        }
    }
    out
}

#[cfg(test)]
mod tests;
