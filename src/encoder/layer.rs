//! The building blocks of an encoder layer: linear maps, LayerNorm, GELU,
//! the feed-forward sub-layer, and [`BertLayer`] itself.
//!
//! One layer (post-LayerNorm, as in BERT):
//!
//! ```text
//! h = LayerNorm(x + MultiHead(x))              attention + residual
//! y = LayerNorm(h + GELU(h W_1 + b_1) W_2 + b_2)   feed-forward + residual
//! ```
//!
//! The residual connections let each sub-layer learn a correction to its
//! input rather than a replacement; LayerNorm keeps every vector at zero
//! mean and unit variance (then scaled and shifted by learned γ, β) so the
//! sums do not drift in scale across layers.

use rayon::prelude::*;

use super::attention::BertAttention;
use super::int8::QuantLinear;
use super::matrix::{free_threads, gemm, Matrix};
use super::weights::Weights;
use crate::{Error, Result};

/// Rows per rayon task in element-wise passes: enough work to amortise
/// scheduling, small enough to split a batch across cores.
const ROWS_PER_TASK: usize = 16;

/// `y = x Wᵀ + b`, with `W` given `out × in` as in PyTorch checkpoints.
///
/// `W` is kept transposed (`in × out`, row-major): matrixmultiply packs
/// the right operand in panels of 8 columns, one `k` row at a time, and
/// with `Wᵀ` as a strided view of `W` every packed value was a gather of
/// its own (the general path of its `pack`), while rows of 8 contiguous
/// values are one copy. The packed panels, hence every product, are the
/// same values either way: outputs are bitwise those of the strided view.
#[derive(Debug, Clone)]
pub struct Linear {
    /// `Wᵀ`, `in × out`.
    weight_t: Matrix,
    bias: Vec<f32>,
    /// The 8-bit weights, when the encoder runs in int8
    /// ([`Linear::quantize`]); the product then uses them.
    quant: Option<QuantLinear>,
}

impl Linear {
    /// From a weight matrix (`out × in`) and a bias (`out`).
    pub fn new(weight: Matrix, bias: Vec<f32>) -> Result<Linear> {
        if bias.len() != weight.rows() {
            return Err(Error::Shape(format!(
                "bias of {} for a weight of {} rows",
                bias.len(),
                weight.rows()
            )));
        }
        Ok(Linear {
            weight_t: weight.transpose(),
            bias,
            quant: None,
        })
    }

    /// From now on compute the product with 8-bit weights and inputs
    /// (see [`super::int8`]).
    pub fn quantize(&mut self) {
        self.quant = Some(QuantLinear::new(&self.weight_t));
    }

    /// Reads `{prefix}.weight` (`[out, in]`) and `{prefix}.bias` (`[out]`).
    pub(crate) fn load(w: &Weights, prefix: &str, in_dim: usize, out_dim: usize) -> Result<Self> {
        let weight = w.get(&format!("{prefix}.weight"), &[out_dim, in_dim])?;
        let bias = w.get(&format!("{prefix}.bias"), &[out_dim])?;
        Linear::new(Matrix::from_vec(out_dim, in_dim, weight)?, bias)
    }

    /// Input width.
    pub fn in_features(&self) -> usize {
        self.weight_t.rows()
    }

    /// Output width.
    pub fn out_features(&self) -> usize {
        self.weight_t.cols()
    }

    /// `x Wᵀ + b` for every row of `x`: one GEMM over the whole batch.
    pub fn forward(&self, x: &Matrix) -> Result<Matrix> {
        if x.cols() != self.in_features() {
            return Err(Error::Shape(format!(
                "linear layer expects {} features, got {}",
                self.in_features(),
                x.cols()
            )));
        }
        let mut y = Matrix::zeros(x.rows(), self.out_features());
        for i in 0..x.rows() {
            y.row_mut(i).copy_from_slice(&self.bias);
        }
        if let Some(q) = &self.quant {
            let parts = if x.rows() >= 256 {
                1 + free_threads()
            } else {
                1
            };
            q.forward_add(x, &mut y, parts);
            return Ok(y);
        }
        // y ← x · Wᵀ + y (the bias)
        gemm(1.0, x.view(), self.weight_t.view(), 1.0, y.view_mut());
        Ok(y)
    }
}

/// Layer normalisation of one vector:
/// `γ ⊙ (x − μ) / √(σ² + ε) + β`, with `μ`, `σ²` the mean and (biased)
/// variance of `x`'s features. Statistics are accumulated in `f64`.
///
/// Returns `x` unchanged if `γ` or `β` do not have `x`'s length.
pub fn layer_norm(x: &[f32], gamma: &[f32], beta: &[f32], eps: f32) -> Vec<f32> {
    let mut v = x.to_vec();
    if gamma.len() == x.len() && beta.len() == x.len() {
        layer_norm_in_place(&mut v, gamma, beta, eps as f64);
    }
    v
}

fn layer_norm_in_place(x: &mut [f32], gamma: &[f32], beta: &[f32], eps: f64) {
    let n = x.len() as f64;
    if x.is_empty() {
        return;
    }
    let mean = x.iter().map(|&v| v as f64).sum::<f64>() / n;
    let var = x
        .iter()
        .map(|&v| {
            let c = v as f64 - mean;
            c * c
        })
        .sum::<f64>()
        / n;
    let inv = 1.0 / (var + eps).sqrt();
    for ((v, g), b) in x.iter_mut().zip(gamma).zip(beta) {
        *v = ((*v as f64 - mean) * inv) as f32 * g + b;
    }
}

/// A learned LayerNorm (`{prefix}.weight` = γ, `{prefix}.bias` = β).
#[derive(Debug, Clone)]
pub struct LayerNorm {
    gamma: Vec<f32>,
    beta: Vec<f32>,
    eps: f64,
}

impl LayerNorm {
    /// From γ, β (same length) and ε.
    pub fn new(gamma: Vec<f32>, beta: Vec<f32>, eps: f64) -> Result<LayerNorm> {
        if gamma.len() != beta.len() {
            return Err(Error::Shape("LayerNorm γ and β differ in length".into()));
        }
        Ok(LayerNorm { gamma, beta, eps })
    }

    /// Reads `{prefix}.weight` and `{prefix}.bias` (or the TF-era names
    /// `{prefix}.gamma` and `{prefix}.beta`).
    pub(crate) fn load(w: &Weights, prefix: &str, d: usize, eps: f64) -> Result<Self> {
        let (g, b) =
            if !w.contains(&format!("{prefix}.weight")) && w.contains(&format!("{prefix}.gamma")) {
                ("gamma", "beta")
            } else {
                ("weight", "bias")
            };
        LayerNorm::new(
            w.get(&format!("{prefix}.{g}"), &[d])?,
            w.get(&format!("{prefix}.{b}"), &[d])?,
            eps,
        )
    }

    /// Normalises every row of `x` in place.
    pub fn forward_in_place(&self, x: &mut Matrix) -> Result<()> {
        self.check(x.cols())?;
        let d = x.cols();
        x.data_mut()
            .par_chunks_mut(d * ROWS_PER_TASK)
            .for_each(|rows| {
                for r in rows.chunks_exact_mut(d) {
                    layer_norm_in_place(r, &self.gamma, &self.beta, self.eps);
                }
            });
        Ok(())
    }

    /// `x ← LayerNorm(x + residual)`: the residual connection and the norm.
    pub fn add_and_normalize(&self, x: &mut Matrix, residual: &Matrix) -> Result<()> {
        self.check(x.cols())?;
        if (x.rows(), x.cols()) != (residual.rows(), residual.cols()) {
            return Err(Error::Shape("residual shape differs".into()));
        }
        let d = x.cols();
        x.data_mut()
            .par_chunks_mut(d * ROWS_PER_TASK)
            .zip(residual.data().par_chunks(d * ROWS_PER_TASK))
            .for_each(|(rows, res)| {
                for (r, s) in rows.chunks_exact_mut(d).zip(res.chunks_exact(d)) {
                    r.iter_mut().zip(s).for_each(|(a, b)| *a += b);
                    layer_norm_in_place(r, &self.gamma, &self.beta, self.eps);
                }
            });
        Ok(())
    }

    fn check(&self, d: usize) -> Result<()> {
        if d != self.gamma.len() || d == 0 {
            return Err(Error::Shape(format!(
                "LayerNorm of width {} applied to {d} features",
                self.gamma.len()
            )));
        }
        Ok(())
    }
}

/// The error function, `erf(x) = 2/√π ∫₀ˣ e^(−t²) dt`, to about 1e-7.
///
/// Rust's standard library has no `erf`. This is the rational minimax
/// approximation Eigen and XLA use for `f32` (odd degree-13 numerator over
/// even degree-8 denominator on `[-4, 4]`, where `|erf| > 1 − 2·10⁻⁸`
/// beyond), evaluated in `f64`: its absolute error is below 10⁻⁷, the
/// `f32` rounding level, and it has no `exp` and no branch, so the GELU
/// over a whole batch vectorises (it was a third of the run time with an
/// `exp`-based `erfc`).
#[inline]
pub fn erf(x: f64) -> f64 {
    let x = x.clamp(-4.0, 4.0);
    let x2 = x * x;
    let p = -2.726_142_258_013_06e-10;
    let p = x2 * p + 2.770_681_424_959_02e-8;
    let p = x2 * p - 2.101_024_020_825_08e-6;
    let p = x2 * p - 5.692_506_394_623_46e-5;
    let p = x2 * p - 7.349_906_303_268_55e-4;
    let p = x2 * p - 2.954_599_808_540_25e-3;
    let p = x2 * p - 1.609_603_332_624_15e-2;
    let q = -1.456_607_184_649_96e-5;
    let q = x2 * q - 2.133_740_552_789_05e-4;
    let q = x2 * q - 1.682_826_974_382_03e-3;
    let q = x2 * q - 7.373_329_167_204_68e-3;
    let q = x2 * q - 1.426_473_905_141_89e-2;
    x * p / q
}

/// GELU with the error function (BERT's `"gelu"`, not the tanh
/// approximation): `x · Φ(x) = x/2 · (1 + erf(x/√2))`.
#[inline]
pub fn gelu(x: f32) -> f32 {
    let x = x as f64;
    (0.5 * x * (1.0 + erf(x * std::f64::consts::FRAC_1_SQRT_2))) as f32
}

/// `intermediate`: the first feed-forward map and its GELU.
#[derive(Debug, Clone)]
pub struct BertIntermediate {
    dense: Linear,
}

impl BertIntermediate {
    pub(crate) fn load(w: &Weights, prefix: &str, d: usize, inter: usize) -> Result<Self> {
        Ok(BertIntermediate {
            dense: Linear::load(w, &format!("{prefix}.dense"), d, inter)?,
        })
    }

    /// `GELU(x W_1ᵀ + b_1)`.
    pub fn forward(&self, x: &Matrix) -> Result<Matrix> {
        let mut h = self.dense.forward(x)?;
        h.data_mut()
            .par_chunks_mut(self.dense.out_features() * ROWS_PER_TASK)
            .for_each(|c| {
                for v in c {
                    *v = gelu(*v);
                }
            });
        Ok(h)
    }
}

/// `output`: the second feed-forward map, residual and LayerNorm.
#[derive(Debug, Clone)]
pub struct BertOutput {
    dense: Linear,
    layer_norm: LayerNorm,
}

impl BertOutput {
    pub(crate) fn load(
        w: &Weights,
        prefix: &str,
        d: usize,
        inter: usize,
        eps: f64,
    ) -> Result<Self> {
        Ok(BertOutput {
            dense: Linear::load(w, &format!("{prefix}.dense"), inter, d)?,
            layer_norm: LayerNorm::load(w, &format!("{prefix}.LayerNorm"), d, eps)?,
        })
    }

    /// `LayerNorm(h W_2ᵀ + b_2 + residual)`.
    pub fn forward(&self, h: &Matrix, residual: &Matrix) -> Result<Matrix> {
        let mut y = self.dense.forward(h)?;
        self.layer_norm.add_and_normalize(&mut y, residual)?;
        Ok(y)
    }
}

/// Rows of the feed-forward sub-layer computed at a time.
///
/// The intermediate activations of a whole batch (`rows × 1536` floats,
/// 25 MB for 4,096 tokens) were a fresh allocation in every layer, which
/// the allocator returned to the system and the kernel zeroed again on
/// the next touch: a tenth of `wsd tag`'s CPU time went to
/// `clear_page`. In slices of this many rows the activations (3 MB)
/// stay in cache between the two GEMMs and the buffer is reused; the
/// GEMMs stay large enough to split across threads, and the values
/// are the same (every row is computed by the same arithmetic).
const FFN_CHUNK_ROWS: usize = 512;

/// `encoder.layer.{i}`: attention then feed-forward, each with residual
/// and LayerNorm.
#[derive(Debug, Clone)]
pub struct BertLayer {
    attention: BertAttention,
    intermediate: BertIntermediate,
    output: BertOutput,
}

impl BertLayer {
    pub(crate) fn load(w: &Weights, prefix: &str, cfg: &super::config::BertConfig) -> Result<Self> {
        let (d, inter, eps) = (cfg.hidden_size, cfg.intermediate_size, cfg.layer_norm_eps);
        Ok(BertLayer {
            attention: BertAttention::load(
                w,
                &format!("{prefix}.attention"),
                d,
                cfg.num_attention_heads,
                eps,
            )?,
            intermediate: BertIntermediate::load(w, &format!("{prefix}.intermediate"), d, inter)?,
            output: BertOutput::load(w, &format!("{prefix}.output"), d, inter, eps)?,
        })
    }

    /// One layer over a padded batch (see
    /// [`super::attention::BertSelfAttention::forward`] for the layout).
    pub fn forward(&self, x: &Matrix, seq_len: usize, mask: &[bool]) -> Result<Matrix> {
        let h = self.attention.forward(x, seq_len, mask)?;
        self.feed_forward(&h)
    }

    /// [`BertLayer::forward`] on sequences packed without padding: `x`'s
    /// rows are the sequences one after the other, `spans` their `(first
    /// row, length)` (see
    /// [`super::attention::BertSelfAttention::forward_packed`]). The same
    /// values as the padded layout for the real rows, with no work spent
    /// on padding.
    pub fn forward_packed(&self, x: &Matrix, spans: &[(usize, usize)]) -> Result<Matrix> {
        let h = self.attention.forward_packed(x, spans)?;
        self.feed_forward(&h)
    }

    /// [`BertLayer::forward_packed`] for the rows `rows` only (ascending
    /// row indices of `x`), returned as a `rows.len() × d` matrix in that
    /// order. Keys and values still come from every row of `x` (each
    /// selected row attends over its whole sequence), but the queries,
    /// the attention output, its projection and the feed-forward — five
    /// sixths of a layer's work — run only on the selected rows. For the
    /// last layer, whose other rows nobody reads (kNN reads its target
    /// words only), the values are those of [`BertLayer::forward_packed`].
    pub fn forward_rows(
        &self,
        x: &Matrix,
        spans: &[(usize, usize)],
        rows: &[usize],
    ) -> Result<Matrix> {
        let h = self.attention.forward_rows(x, spans, rows)?;
        self.feed_forward(&h)
    }

    /// Every linear map of the layer, for [`Linear::quantize`].
    pub(crate) fn linears_mut(&mut self) -> Vec<&mut Linear> {
        let mut v = self.attention.linears_mut();
        v.push(&mut self.intermediate.dense);
        v.push(&mut self.output.dense);
        v
    }

    /// `LayerNorm(h + GELU(h W_1ᵀ + b_1) W_2ᵀ + b_2)`, in slices of
    /// [`FFN_CHUNK_ROWS`] rows.
    fn feed_forward(&self, h: &Matrix) -> Result<Matrix> {
        let d = h.cols();
        let mut y = Matrix::zeros(h.rows(), d);
        let mut rows = 0;
        while rows < h.rows() {
            let n = FFN_CHUNK_ROWS.min(h.rows() - rows);
            let part = Matrix::from_vec(n, d, h.data()[rows * d..(rows + n) * d].to_vec())?;
            let inter = self.intermediate.forward(&part)?;
            let out = self.output.dense.forward(&inter)?;
            y.data_mut()[rows * d..(rows + n) * d].copy_from_slice(out.data());
            rows += n;
        }
        self.output.layer_norm.add_and_normalize(&mut y, h)?;
        Ok(y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_known_values() {
        // values from Python's math.erf
        let cases = [
            (0.0, 0.0),
            (0.1, 0.1124629160182849),
            (0.5, 0.5204998778130465),
            (1.0, 0.8427007929497149),
            (-1.5, -0.9661051464753108),
            (2.0, 0.9953222650189527),
            (3.5, 0.9999992569016276),
            (-6.0, -1.0),
        ];
        for (x, want) in cases {
            assert!((erf(x) - want).abs() < 3e-7, "erf({x}) = {}", erf(x));
        }
    }

    #[test]
    #[ignore = "benchmark: cargo test --release --lib gelu_speed -- --ignored --nocapture"]
    fn gelu_speed() {
        let mut xs: Vec<f32> = (0..10_000_000)
            .map(|i| (i % 2000) as f32 / 200.0 - 5.0)
            .collect();
        let t = std::time::Instant::now();
        for v in xs.iter_mut() {
            *v = gelu(*v);
        }
        let ns = t.elapsed().as_secs_f64() * 100.0;
        eprintln!("gelu: {ns:.2} ns/value ({})", xs[12345]);
    }

    #[test]
    fn gelu_values() {
        assert_eq!(gelu(0.0), 0.0);
        assert!((gelu(1.0) - 0.841_344_7).abs() < 1e-6);
        assert!((gelu(-1.0) + 0.158_655_3).abs() < 1e-6);
        assert!((gelu(3.0) - 2.995_950_5).abs() < 1e-6);
        assert!(gelu(-10.0).abs() < 1e-6);
    }

    #[test]
    fn layer_norm_normalises() {
        let y = layer_norm(&[1.0, 2.0, 3.0, 4.0], &[1.0; 4], &[0.0; 4], 1e-12);
        let mean: f32 = y.iter().sum::<f32>() / 4.0;
        let var: f32 = y.iter().map(|v| (v - mean).powi(2)).sum::<f32>() / 4.0;
        assert!(mean.abs() < 1e-6 && (var - 1.0).abs() < 1e-5, "{y:?}");
        // γ scales, β shifts
        let z = layer_norm(&[1.0, 2.0, 3.0, 4.0], &[2.0; 4], &[1.0; 4], 1e-12);
        for (a, b) in y.iter().zip(&z) {
            assert!((2.0 * a + 1.0 - b).abs() < 1e-6);
        }
        // a constant vector maps to β (ε keeps it finite)
        assert_eq!(
            layer_norm(&[3.0; 3], &[1.0; 3], &[0.5; 3], 1e-12),
            vec![0.5; 3]
        );
    }

    #[test]
    fn linear_applies_transposed_weight() {
        // W is out × in = 2 × 3
        let w = Matrix::from_rows(&[[1.0, 0.0, 1.0], [0.0, 2.0, 0.0]]).unwrap();
        let l = Linear::new(w, vec![0.5, -1.0]).unwrap();
        let x = Matrix::from_rows(&[[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]).unwrap();
        let y = l.forward(&x).unwrap();
        assert_eq!(y.row(0), &[4.5, 3.0]);
        assert_eq!(y.row(1), &[0.5, -1.0]);
        assert!(l.forward(&Matrix::zeros(1, 2)).is_err());
        assert!(Linear::new(Matrix::zeros(2, 2), vec![0.0]).is_err());
    }
}
