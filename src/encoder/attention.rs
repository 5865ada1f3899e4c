//! Scaled dot-product and multi-head self-attention.
//!
//! Notation of the course notes (lecture 12): every token `x_i` is
//! projected to a query `q_i = x_i W_Q`, a key `k_i = x_i W_K` and a value
//! `v_i = x_i W_V`; token `i` attends to token `j` with weight
//! `softmax_j(q_i · k_j / √d_k)` and its output is the weighted sum of the
//! values:
//!
//! ```text
//! Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V
//! ```
//!
//! Dividing by `√d_k` keeps the scores' variance near 1 whatever the head
//! width, so the softmax does not saturate.
//!
//! **Multi-head**: with `H` heads the `d` *features* (not the tokens) are
//! split into `H` slices of `d / H`; every head attends over all tokens
//! within its slice of `Q`, `K`, `V`, the `H` outputs are concatenated back
//! to `d` features and projected by `W_O`. In a BERT checkpoint `W_Q` of all
//! heads is one `d × d` matrix (`attention.self.query`), head `h` owning
//! output columns `h·d/H .. (h+1)·d/H`, so the split costs nothing: a head is
//! a strided view of the projected matrix.
//!
//! **Padding mask**: sentences of a batch are padded to the same length.
//! Padded keys get weight exactly 0 (they are left out of the softmax), so
//! the output for real tokens is the same with or without padding.

use rayon::prelude::*;

use super::layer::{LayerNorm, Linear};
use super::matrix::{gemm, MatMut, MatRef, Matrix};
use super::weights::Weights;
use crate::{Error, Result};

/// The softmax of `scores`: `exp(s_j - max) / Σ exp(s_m - max)`.
/// Subtracting the maximum avoids overflow and does not change the result.
pub fn softmax(scores: &[f32]) -> Vec<f32> {
    let mut v = scores.to_vec();
    softmax_in_place(&mut v);
    v
}

/// [`softmax`] in place. An empty slice stays empty.
pub fn softmax_in_place(v: &mut [f32]) {
    let max = v.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    if !max.is_finite() {
        // all -inf (or NaN): no information; leave a uniform distribution
        let n = v.len() as f32;
        v.iter_mut().for_each(|x| *x = 1.0 / n);
        return;
    }
    let mut sum = 0.0f32;
    for x in v.iter_mut() {
        *x = (*x - max).exp();
        sum += *x;
    }
    let inv = 1.0 / sum;
    v.iter_mut().for_each(|x| *x *= inv);
}

/// Softmax over the entries whose `keep` flag is true; the others get 0.
/// If no entry is kept the whole row is 0 (nothing to attend to).
fn masked_softmax_in_place(v: &mut [f32], keep: &[bool]) {
    let mut max = f32::NEG_INFINITY;
    for (x, &k) in v.iter().zip(keep) {
        if k {
            max = max.max(*x);
        }
    }
    if max == f32::NEG_INFINITY {
        v.iter_mut().for_each(|x| *x = 0.0);
        return;
    }
    let mut sum = 0.0f32;
    for (x, &k) in v.iter_mut().zip(keep) {
        *x = if k { (*x - max).exp() } else { 0.0 };
        sum += *x;
    }
    let inv = 1.0 / sum;
    v.iter_mut().for_each(|x| *x *= inv);
}

/// The attention weights `softmax(α · Q Kᵀ)` of one head, `n_q × n_k`,
/// written into `out` (row-major, contiguous).
fn weights_into(q: MatRef<'_>, k: MatRef<'_>, mask: Option<&[bool]>, scale: f32, out: &mut [f32]) {
    let (nq, nk) = (q.rows(), k.rows());
    // k is n_k × d_k; its transpose is the same data with swapped strides.
    gemm(
        scale,
        q,
        k.transposed(),
        0.0,
        MatMut::new(out, nq, nk, nk as isize, 1),
    );
    for row in out.chunks_exact_mut(nk.max(1)).take(nq) {
        match mask {
            Some(m) => masked_softmax_in_place(row, m),
            None => softmax_in_place(row),
        }
    }
}

/// One head of attention on views: `out ← softmax(Q Kᵀ / √d_k) V`.
/// `scratch` must hold `n_q · n_k` values.
fn attend(
    q: MatRef<'_>,
    k: MatRef<'_>,
    v: MatRef<'_>,
    mask: Option<&[bool]>,
    scratch: &mut [f32],
    out: MatMut<'_>,
) {
    let (nq, nk) = (q.rows(), k.rows());
    let scale = 1.0 / (q.cols() as f32).sqrt();
    let p = &mut scratch[..nq * nk];
    weights_into(q, k, mask, scale, p);
    gemm(1.0, MatRef::new(p, nq, nk, nk as isize, 1), v, 0.0, out);
}

fn check_qkv(q: &Matrix, k: &Matrix, v: Option<&Matrix>, mask: Option<&[bool]>) -> Result<()> {
    if q.cols() != k.cols() {
        return Err(Error::Shape(format!(
            "queries have {} features but keys have {}",
            q.cols(),
            k.cols()
        )));
    }
    if let Some(v) = v {
        if v.rows() != k.rows() {
            return Err(Error::Shape(format!(
                "{} keys but {} values",
                k.rows(),
                v.rows()
            )));
        }
    }
    if let Some(m) = mask {
        if m.len() != k.rows() {
            return Err(Error::Shape(format!(
                "mask has {} entries for {} keys",
                m.len(),
                k.rows()
            )));
        }
    }
    Ok(())
}

/// The attention weights `softmax(Q Kᵀ / √d_k)` (`n_q × n_k`, rows sum to
/// 1). `mask[j] == false` marks key `j` as padding: it gets weight 0.
pub fn attention_weights(q: &Matrix, k: &Matrix, mask: Option<&[bool]>) -> Result<Matrix> {
    check_qkv(q, k, None, mask)?;
    let mut out = Matrix::zeros(q.rows(), k.rows());
    let scale = 1.0 / (q.cols() as f32).sqrt();
    weights_into(q.view(), k.view(), mask, scale, out.data_mut());
    Ok(out)
}

/// Scaled dot-product attention `softmax(Q Kᵀ / √d_k) V` for one head.
///
/// `q` is `n_q × d_k`, `k` is `n_k × d_k`, `v` is `n_k × d_v`; the result
/// is `n_q × d_v`. `mask[j] == false` marks key `j` as padding, which then
/// gets weight 0; a query with no unmasked key gets a zero vector.
pub fn scaled_dot_product_attention(
    q: &Matrix,
    k: &Matrix,
    v: &Matrix,
    mask: Option<&[bool]>,
) -> Result<Matrix> {
    check_qkv(q, k, Some(v), mask)?;
    let mut out = Matrix::zeros(q.rows(), v.cols());
    let mut scratch = vec![0.0; q.rows() * k.rows()];
    attend(
        q.view(),
        k.view(),
        v.view(),
        mask,
        &mut scratch,
        out.view_mut(),
    );
    Ok(out)
}

/// Checks a batch layout: `rows` hidden vectors are `rows / seq_len`
/// sequences of `seq_len` positions each, `mask` flags the real ones.
pub(crate) fn check_batch(rows: usize, seq_len: usize, mask: &[bool]) -> Result<()> {
    if seq_len == 0 || !rows.is_multiple_of(seq_len) || mask.len() != rows {
        return Err(Error::Shape(format!(
            "batch of {rows} rows does not split into sequences of {seq_len} \
             with a mask of {}",
            mask.len()
        )));
    }
    Ok(())
}

/// `attention.self`: the Q, K, V projections and the per-head attention.
/// Its output is the concatenation of the heads (before `W_O`).
#[derive(Debug, Clone)]
pub struct BertSelfAttention {
    query: Linear,
    key: Linear,
    value: Linear,
    num_heads: usize,
}

impl BertSelfAttention {
    /// From explicit projections `W_Q`, `W_K`, `W_V` (each `d → d`) and
    /// the number of heads, which must divide `d`.
    pub fn new(query: Linear, key: Linear, value: Linear, num_heads: usize) -> Result<Self> {
        let d = query.out_features();
        let same = [&key, &value]
            .iter()
            .all(|l| l.out_features() == d && l.in_features() == query.in_features());
        if !same || num_heads == 0 || !d.is_multiple_of(num_heads) {
            return Err(Error::Shape(format!(
                "Q/K/V projections must share their shapes and {num_heads} heads must divide {d}"
            )));
        }
        Ok(BertSelfAttention {
            query,
            key,
            value,
            num_heads,
        })
    }

    pub(crate) fn load(w: &Weights, prefix: &str, d: usize, heads: usize) -> Result<Self> {
        Self::new(
            Linear::load(w, &format!("{prefix}.query"), d, d)?,
            Linear::load(w, &format!("{prefix}.key"), d, d)?,
            Linear::load(w, &format!("{prefix}.value"), d, d)?,
            heads,
        )
    }

    /// Multi-head attention over a batch: `x` holds `x.rows() / seq_len`
    /// sequences of `seq_len` positions; `mask` (one flag per row) marks the
    /// real positions. Every (sequence, head) pair is independent and runs
    /// on the rayon pool.
    pub fn forward(&self, x: &Matrix, seq_len: usize, mask: &[bool]) -> Result<Matrix> {
        check_batch(x.rows(), seq_len, mask)?;
        let q = self.query.forward(x)?;
        let k = self.key.forward(x)?;
        let v = self.value.forward(x)?;
        let blocks: Vec<Block> = (0..x.rows() / seq_len)
            .map(|s| Block {
                q_start: s * seq_len,
                q_len: seq_len,
                kv_start: s * seq_len,
                kv_len: seq_len,
            })
            .collect();
        Ok(self.attend_blocks(&q, &k, &v, &blocks, Some(mask)))
    }

    /// Multi-head attention over sequences packed without padding: `x`'s
    /// rows are the sequences one after the other, `spans` their `(first
    /// row, length)`, covering the rows in order. The values are those of
    /// [`BertSelfAttention::forward`] on the padded batch (padded keys get
    /// weight exactly 0 there, so they add exact zeros), without the GEMM
    /// work on padding rows: sorting by length still left 17% of a 100 kB
    /// text's batch rows padding.
    pub fn forward_packed(&self, x: &Matrix, spans: &[(usize, usize)]) -> Result<Matrix> {
        check_spans(x.rows(), spans)?;
        let q = self.query.forward(x)?;
        let k = self.key.forward(x)?;
        let v = self.value.forward(x)?;
        let blocks: Vec<Block> = spans
            .iter()
            .map(|&(start, len)| Block {
                q_start: start,
                q_len: len,
                kv_start: start,
                kv_len: len,
            })
            .collect();
        Ok(self.attend_blocks(&q, &k, &v, &blocks, None))
    }

    /// [`BertSelfAttention::forward_packed`] for the rows `rows` of `x`
    /// only (ascending indices), as a `rows.len() × d` matrix: keys and
    /// values from every row, queries and the attention only for the
    /// selected ones. See [`super::layer::BertLayer::forward_rows`].
    pub fn forward_rows(
        &self,
        x: &Matrix,
        spans: &[(usize, usize)],
        rows: &[usize],
    ) -> Result<Matrix> {
        check_spans(x.rows(), spans)?;
        check_rows(x.rows(), rows)?;
        let q = self.query.forward(&gather(x, rows))?;
        let k = self.key.forward(x)?;
        let v = self.value.forward(x)?;
        // runs of selected rows within one span
        let mut blocks: Vec<Block> = Vec::new();
        let mut span = 0;
        for (i, &r) in rows.iter().enumerate() {
            while r >= spans[span].0 + spans[span].1 {
                span += 1;
            }
            let (start, len) = spans[span];
            match blocks.last_mut() {
                Some(b) if b.kv_start == start => b.q_len += 1,
                _ => blocks.push(Block {
                    q_start: i,
                    q_len: 1,
                    kv_start: start,
                    kv_len: len,
                }),
            }
        }
        Ok(self.attend_blocks(&q, &k, &v, &blocks, None))
    }

    /// Every (block, head) pair's attention on the rayon pool, the heads
    /// concatenated: row `b.q_start + i` of the result is query row
    /// `b.q_start + i` of `q` attending over key/value rows `b.kv_start ..
    /// b.kv_start + b.kv_len` (with `mask` over the rows of `k`).
    fn attend_blocks(
        &self,
        q: &Matrix,
        k: &Matrix,
        v: &Matrix,
        blocks: &[Block],
        mask: Option<&[bool]>,
    ) -> Matrix {
        let d = q.cols();
        let dh = d / self.num_heads;
        let longest = blocks.iter().map(|b| b.q_len * b.kv_len).max().unwrap_or(0);
        let heads: Vec<Vec<f32>> = (0..blocks.len() * self.num_heads)
            .into_par_iter()
            .map_init(
                || vec![0.0f32; longest],
                |scratch, t| {
                    let (b, h) = (&blocks[t / self.num_heads], t % self.num_heads);
                    // rows of the block, columns of head h
                    fn block(
                        m: &Matrix,
                        row: usize,
                        rows: usize,
                        col: usize,
                        cols: usize,
                    ) -> MatRef<'_> {
                        MatRef::new(
                            &m.data()[row * m.cols() + col..],
                            rows,
                            cols,
                            m.cols() as isize,
                            1,
                        )
                    }
                    let mut out = vec![0.0f32; b.q_len * dh];
                    attend(
                        block(q, b.q_start, b.q_len, h * dh, dh),
                        block(k, b.kv_start, b.kv_len, h * dh, dh),
                        block(v, b.kv_start, b.kv_len, h * dh, dh),
                        mask.map(|m| &m[b.kv_start..b.kv_start + b.kv_len]),
                        scratch,
                        MatMut::new(&mut out, b.q_len, dh, dh as isize, 1),
                    );
                    out
                },
            )
            .collect();
        // Concatenate the heads: head h of a block fills columns
        // h·dh..(h+1)·dh of the block's rows.
        let mut ctx = Matrix::zeros(q.rows(), d);
        for (t, out) in heads.iter().enumerate() {
            let (b, h) = (&blocks[t / self.num_heads], t % self.num_heads);
            for i in 0..b.q_len {
                ctx.row_mut(b.q_start + i)[h * dh..(h + 1) * dh]
                    .copy_from_slice(&out[i * dh..(i + 1) * dh]);
            }
        }
        ctx
    }
}

/// Queries `q_start .. q_start + q_len` attending over keys and values
/// `kv_start .. kv_start + kv_len`.
#[derive(Clone, Copy, Debug)]
struct Block {
    q_start: usize,
    q_len: usize,
    kv_start: usize,
    kv_len: usize,
}

/// Checks that `spans` cover `0..rows` in order, none empty.
pub(crate) fn check_spans(rows: usize, spans: &[(usize, usize)]) -> Result<()> {
    let mut next = 0;
    for &(start, len) in spans {
        if start != next || len == 0 {
            return Err(Error::Shape(format!(
                "sequence spans must follow each other from row 0 without gaps or empty spans (got {start}+{len} at row {next})"
            )));
        }
        next += len;
    }
    if next != rows {
        return Err(Error::Shape(format!(
            "sequence spans cover {next} rows of a batch of {rows}"
        )));
    }
    Ok(())
}

/// Checks that selected rows ascend strictly and lie within `rows`.
pub(crate) fn check_rows(n: usize, rows: &[usize]) -> Result<()> {
    if rows.windows(2).any(|w| w[0] >= w[1]) || rows.last().is_some_and(|&r| r >= n) {
        return Err(Error::Shape(format!(
            "selected rows must ascend and lie within the batch of {n} rows"
        )));
    }
    Ok(())
}

/// The rows `rows` of `x`, as a matrix.
pub(crate) fn gather(x: &Matrix, rows: &[usize]) -> Matrix {
    let mut m = Matrix::zeros(rows.len(), x.cols());
    for (i, &r) in rows.iter().enumerate() {
        m.row_mut(i).copy_from_slice(x.row(r));
    }
    m
}

/// `attention.output`: the projection `W_O`, the residual connection and
/// LayerNorm: `LayerNorm(concat(heads) W_O + b + x)`.
#[derive(Debug, Clone)]
pub struct BertSelfOutput {
    dense: Linear,
    layer_norm: LayerNorm,
}

impl BertSelfOutput {
    pub(crate) fn load(w: &Weights, prefix: &str, d: usize, eps: f64) -> Result<Self> {
        Ok(BertSelfOutput {
            dense: Linear::load(w, &format!("{prefix}.dense"), d, d)?,
            layer_norm: LayerNorm::load(w, &format!("{prefix}.LayerNorm"), d, eps)?,
        })
    }

    /// `LayerNorm(ctx W_Oᵀ + b + residual)`.
    pub fn forward(&self, ctx: &Matrix, residual: &Matrix) -> Result<Matrix> {
        let mut h = self.dense.forward(ctx)?;
        self.layer_norm.add_and_normalize(&mut h, residual)?;
        Ok(h)
    }
}

/// `attention`: self-attention followed by its output block.
#[derive(Debug, Clone)]
pub struct BertAttention {
    self_attention: BertSelfAttention,
    output: BertSelfOutput,
}

impl BertAttention {
    /// `W_Q`, `W_K`, `W_V` and `W_O`.
    pub(crate) fn linears_mut(&mut self) -> Vec<&mut Linear> {
        let s = &mut self.self_attention;
        vec![
            &mut s.query,
            &mut s.key,
            &mut s.value,
            &mut self.output.dense,
        ]
    }

    pub(crate) fn load(
        w: &Weights,
        prefix: &str,
        d: usize,
        heads: usize,
        eps: f64,
    ) -> Result<Self> {
        Ok(BertAttention {
            self_attention: BertSelfAttention::load(w, &format!("{prefix}.self"), d, heads)?,
            output: BertSelfOutput::load(w, &format!("{prefix}.output"), d, eps)?,
        })
    }

    /// Attention sub-layer with residual and LayerNorm; see
    /// [`BertSelfAttention::forward`] for the batch layout.
    pub fn forward(&self, x: &Matrix, seq_len: usize, mask: &[bool]) -> Result<Matrix> {
        let ctx = self.self_attention.forward(x, seq_len, mask)?;
        self.output.forward(&ctx, x)
    }

    /// [`BertAttention::forward`] on sequences packed without padding
    /// (see [`BertSelfAttention::forward_packed`]).
    pub fn forward_packed(&self, x: &Matrix, spans: &[(usize, usize)]) -> Result<Matrix> {
        let ctx = self.self_attention.forward_packed(x, spans)?;
        self.output.forward(&ctx, x)
    }

    /// [`BertAttention::forward_packed`] for the rows `rows` of `x` only
    /// (ascending), as a `rows.len() × d` matrix.
    pub fn forward_rows(
        &self,
        x: &Matrix,
        spans: &[(usize, usize)],
        rows: &[usize],
    ) -> Result<Matrix> {
        let ctx = self.self_attention.forward_rows(x, spans, rows)?;
        self.output.forward(&ctx, &gather(x, rows))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn m(rows: &[&[f32]]) -> Matrix {
        Matrix::from_rows(rows).unwrap()
    }

    fn close(a: &[f32], b: &[f32], tol: f32) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
    }

    /// Lecture 12, §12.1.4: "bank", "saving", "account".
    #[test]
    fn course_notes_worked_example() {
        let x = m(&[&[1., 0., 0., 1.], &[0., 1., 0., 2.], &[0., 0., 1., 0.]]);
        let w_k = m(&[&[1., 0., 1.], &[0., 1., 1.], &[1., 1., 0.], &[1., 0., 0.]]);
        let k = x.matmul(&w_k).unwrap();
        assert_eq!(k.row(0), &[2., 0., 1.]);
        assert_eq!(k.row(1), &[2., 1., 1.]);
        assert_eq!(k.row(2), &[1., 1., 0.]);

        let q1 = m(&[&[1., 0., 2.]]);
        // raw scores q1 · k_j
        let raw = q1.matmul(&k.transpose()).unwrap();
        assert_eq!(raw.row(0), &[4., 4., 1.]);
        // softmax of the raw scores, as in the notes
        let p = softmax(raw.row(0));
        assert!(close(&p, &[0.488, 0.488, 0.024], 1e-3), "{p:?}");
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-6);

        // the scaled version divides the scores by √d_k = √3 first
        let scaled = attention_weights(&q1, &k, None).unwrap();
        let s3 = 3f32.sqrt();
        let want = softmax(&[4. / s3, 4. / s3, 1. / s3]);
        assert!(close(scaled.row(0), &want, 1e-6), "{:?}", scaled.row(0));
        assert!(
            scaled.row(0)[2] > 0.024,
            "scaling flattens the distribution"
        );

        // with V = I the attention output is exactly the weight row
        let z = scaled_dot_product_attention(&q1, &k, &Matrix::identity(3), None).unwrap();
        assert!(close(z.row(0), &want, 1e-6));
        // and z is the weighted sum of the value rows
        let v = m(&[&[1., 2.], &[3., 4.], &[5., 6.]]);
        let z = scaled_dot_product_attention(&q1, &k, &v, None).unwrap();
        let expect0 = want[0] * 1. + want[1] * 3. + want[2] * 5.;
        assert!((z.row(0)[0] - expect0).abs() < 1e-5);
    }

    #[test]
    fn softmax_properties() {
        let p = softmax(&[1000.0, 1000.0]);
        assert!(close(&p, &[0.5, 0.5], 1e-7), "stable for large scores");
        assert!(softmax(&[]).is_empty());
        let p = softmax(&[f32::NEG_INFINITY, 0.0]);
        assert!(close(&p, &[0.0, 1.0], 0.0));
    }

    #[test]
    fn masked_keys_get_zero_weight() {
        let q = m(&[&[1., 0.], &[0., 1.]]);
        let k = m(&[&[1., 0.], &[0., 1.], &[5., 5.]]);
        let w = attention_weights(&q, &k, Some(&[true, true, false])).unwrap();
        for r in 0..2 {
            assert_eq!(w.row(r)[2], 0.0);
            assert!((w.row(r).iter().sum::<f32>() - 1.0).abs() < 1e-6);
        }
        // no key at all → zero output, not NaN
        let v = m(&[&[1.], &[2.], &[3.]]);
        let z = scaled_dot_product_attention(&q, &k, &v, Some(&[false; 3])).unwrap();
        assert_eq!(z.data(), &[0.0, 0.0]);
        // bad shapes are errors
        assert!(attention_weights(&q, &v, None).is_err());
        assert!(attention_weights(&q, &k, Some(&[true])).is_err());
    }

    fn identity_linear(d: usize) -> Linear {
        Linear::new(Matrix::identity(d), vec![0.0; d]).unwrap()
    }

    /// Deterministic pseudo-random values in [-1, 1) (shared with the int8
    /// kernel's tests).
    pub(crate) fn pseudo(rows: usize, cols: usize, seed: u64) -> Matrix {
        let mut s = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let data = (0..rows * cols)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
            })
            .collect();
        Matrix::from_vec(rows, cols, data).unwrap()
    }

    /// With identity projections, multi-head attention = each head's
    /// attention on its slice of the features, concatenated.
    #[test]
    fn heads_split_features() {
        let (n, d, heads) = (5, 12, 3);
        let x = pseudo(n, d, 7);
        let sa = BertSelfAttention::new(
            identity_linear(d),
            identity_linear(d),
            identity_linear(d),
            heads,
        )
        .unwrap();
        let out = sa.forward(&x, n, &[true; 5]).unwrap();
        let dh = d / heads;
        for h in 0..heads {
            let xs = x.columns(h * dh, dh).unwrap();
            let want = scaled_dot_product_attention(&xs, &xs, &xs, None).unwrap();
            let got = out.columns(h * dh, dh).unwrap();
            assert!(close(got.data(), want.data(), 1e-6), "head {h}");
        }
        // one head over all features is something else
        let single = scaled_dot_product_attention(&x, &x, &x, None).unwrap();
        assert!(!close(single.data(), out.data(), 1e-3));
        // heads must divide d
        assert!(BertSelfAttention::new(
            identity_linear(d),
            identity_linear(d),
            identity_linear(d),
            5
        )
        .is_err());
    }

    /// Padding a sequence (and batching it with a longer one) leaves the
    /// outputs of its real tokens unchanged.
    #[test]
    fn padding_is_invisible() {
        let (d, heads) = (8, 2);
        let proj = |seed| Linear::new(pseudo(d, d, seed), pseudo(1, d, seed + 1).into_vec());
        let sa =
            BertSelfAttention::new(proj(1).unwrap(), proj(3).unwrap(), proj(5).unwrap(), heads)
                .unwrap();
        let x = pseudo(3, d, 11);
        let alone = sa.forward(&x, 3, &[true; 3]).unwrap();

        // pad to 6 with arbitrary garbage rows, in a batch with another sequence
        let other = pseudo(6, d, 13);
        let garbage = pseudo(3, d, 17);
        let mut rows = x.to_rows();
        rows.extend(garbage.to_rows());
        rows.extend(other.to_rows());
        let batch = Matrix::from_rows(&rows).unwrap();
        let mut mask = vec![true, true, true, false, false, false];
        mask.extend([true; 6]);
        let out = sa.forward(&batch, 6, &mask).unwrap();
        for i in 0..3 {
            assert!(close(out.row(i), alone.row(i), 1e-5), "row {i}");
        }
        let other_alone = sa.forward(&other, 6, &[true; 6]).unwrap();
        for i in 0..6 {
            assert!(close(out.row(6 + i), other_alone.row(i), 1e-5));
        }
        // a malformed batch is an error, not a panic
        assert!(sa.forward(&batch, 5, &mask).is_err());
        assert!(sa.forward(&batch, 6, &mask[1..]).is_err());
    }
}
