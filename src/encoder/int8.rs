//! 8-bit linear maps (`--encoder-precision int8`, knn's default at run time).
//!
//! The encoder's f32 products already run near the machine's sgemm peak,
//! so halving their cost needs cheaper arithmetic. Here a linear map's
//! weights are rounded once, at load, to integers in `[-127, 127]` with
//! one scale per output channel, and each input row is rounded the same
//! way with a scale of its own (dynamic: taken from the row's largest
//! magnitude). The product is then exact integer arithmetic — i16 pairs
//! multiplied and summed into i32 by AVX2's `vpmaddwd`, 16 multiply-adds
//! per instruction against 8 for an f32 FMA — and is scaled back to f32
//! at the end. The only error is the rounding of the two operands, which
//! [`QuantLinear`]'s tests bound.
//!
//! `vpmaddwd` on sign-extended values is used rather than `vpmaddubsw`
//! (u8 × i8, twice the products per instruction) because the latter
//! saturates its i16 pair sums (2·255·127 > 32767) unless one operand is
//! cut to 7 bits; with 16-bit lanes nothing saturates and the AVX2 and
//! scalar kernels agree exactly.

use rayon::prelude::*;

use super::matrix::Matrix;

/// Columns per packed weight panel: two AVX2 registers of eight i32 sums.
const NR: usize = 16;
/// Rows of the input computed together by the kernel.
const MR: usize = 4;
/// Largest magnitude of a rounded value.
const QMAX: f32 = 127.0;

/// A `k × n` weight matrix (`Wᵀ`) rounded to 8-bit integers per column.
#[derive(Debug, Clone)]
pub struct QuantLinear {
    k: usize,
    n: usize,
    /// `k` rounded up to even (values are read in pairs).
    kp: usize,
    /// Panels of [`NR`] columns; in each, for every pair of rows `2t,
    /// 2t+1`, the NR columns' pairs `(w[2t][c], w[2t+1][c])`; zero-padded.
    packed: Vec<i16>,
    /// Per column: the weight a unit integer stands for.
    scales: Vec<f32>,
}

/// Rounds `v / scale` to the nearest integer in `[-127, 127]` (halves
/// away from zero). Written as add-and-truncate rather than `f32::round`,
/// which without SSE4.1 is a call to libm's `roundf` per value (5% of the
/// int8 run's samples) and keeps the loop from vectorising.
#[inline]
fn round_q(v: f32, inv_scale: f32) -> i16 {
    let y = (v * inv_scale).clamp(-QMAX, QMAX);
    (y + 0.5f32.copysign(y)) as i16
}

/// The largest `|v|` of `xs` (0 for an empty slice), in eight lanes so that
/// it vectorises (a fold over `f32::max` does not: NaN rules).
#[inline]
fn max_abs(xs: &[f32]) -> f32 {
    let mut m = [0.0f32; 8];
    let mut chunks = xs.chunks_exact(8);
    for c in &mut chunks {
        for (a, v) in m.iter_mut().zip(c) {
            let v = v.abs();
            *a = if v > *a { v } else { *a };
        }
    }
    let rest = chunks
        .remainder()
        .iter()
        .fold(0.0f32, |a, v| a.max(v.abs()));
    m.iter().fold(rest, |a, &v| a.max(v))
}

/// The scale for values whose largest magnitude is `max` (1 for an all-zero
/// vector, whose integers are all 0 whatever the scale).
#[inline]
fn scale_for(max: f32) -> f32 {
    if max > 0.0 && max.is_finite() {
        max / QMAX
    } else {
        1.0
    }
}

impl QuantLinear {
    /// Rounds `w_t` (`k × n`, the transposed weight: column `j` holds
    /// output `j`'s weights) column by column.
    pub fn new(w_t: &Matrix) -> QuantLinear {
        let (k, n) = (w_t.rows(), w_t.cols());
        let kp = k.next_multiple_of(2);
        let mut scales = vec![0.0f32; n];
        for (j, s) in scales.iter_mut().enumerate() {
            let max = (0..k).fold(0.0f32, |m, i| m.max(w_t.row(i)[j].abs()));
            *s = scale_for(max);
        }
        let panels = n.div_ceil(NR);
        let mut packed = vec![0i16; panels * kp * NR];
        for p in 0..panels {
            for t in 0..kp / 2 {
                for c in 0..NR {
                    let j = p * NR + c;
                    if j >= n {
                        continue;
                    }
                    let inv = 1.0 / scales[j];
                    let base = ((p * (kp / 2) + t) * NR + c) * 2;
                    for h in 0..2 {
                        let i = 2 * t + h;
                        if i < k {
                            packed[base + h] = round_q(w_t.row(i)[j], inv);
                        }
                    }
                }
            }
        }
        QuantLinear {
            k,
            n,
            kp,
            packed,
            scales,
        }
    }

    /// Input width.
    pub fn in_features(&self) -> usize {
        self.k
    }

    /// Output width.
    pub fn out_features(&self) -> usize {
        self.n
    }

    /// The weight `(i, j)` as the integers stand for it (for tests).
    pub fn dequantized(&self, i: usize, j: usize) -> f32 {
        let (p, c) = (j / NR, j % NR);
        let base = ((p * (self.kp / 2) + i / 2) * NR + c) * 2;
        self.packed[base + i % 2] as f32 * self.scales[j]
    }

    /// `y ← x · Wᵀ + y` with both operands rounded (`x` is `m × k`, `y`
    /// is `m × n` and holds the bias on entry). Rows are split over
    /// `parts` threads of rayon's pool in blocks of whole kernel tiles;
    /// every row's value is the same however they are split.
    pub fn forward_add(&self, x: &Matrix, y: &mut Matrix, parts: usize) {
        assert_eq!(x.cols(), self.k, "int8 linear: input width");
        assert_eq!((y.rows(), y.cols()), (x.rows(), self.n), "int8 output");
        let m = x.rows();
        if m == 0 || self.n == 0 {
            return;
        }
        let (xq, xs) =
            QBUF.with(|b| quantize_rows(x, self.kp, std::mem::take(&mut *b.borrow_mut())));
        let rows_per = m.div_ceil(parts.max(1)).next_multiple_of(MR);
        let n = self.n;
        let work = |first: usize, out: &mut [f32]| {
            let r = out.len() / n;
            self.product_rows(&xq[first * self.kp..], &xs[first..first + r], out);
        };
        if parts > 1 && m > rows_per {
            let blocks: Vec<(usize, &mut [f32])> = y
                .data_mut()
                .chunks_mut(rows_per * n)
                .enumerate()
                .map(|(i, c)| (i * rows_per, c))
                .collect();
            blocks.into_par_iter().for_each(|(f, c)| work(f, c));
        } else {
            work(0, y.data_mut());
        }
        QBUF.with(|b| *b.borrow_mut() = xq);
    }

    /// Adds the dequantised products of the rounded rows `xq` (stride
    /// `kp`, at least `out.len() / n` rows, padded to a multiple of MR with
    /// zero rows) to `out`.
    fn product_rows(&self, xq: &[i16], xs: &[f32], out: &mut [f32]) {
        let n = self.n;
        let rows = out.len() / n;
        let mut acc = [0i32; MR * NR];
        for r0 in (0..rows).step_by(MR) {
            for p in 0..n.div_ceil(NR) {
                let panel = &self.packed[p * self.kp * NR..(p + 1) * self.kp * NR];
                let a = &xq[r0 * self.kp..(r0 + MR) * self.kp];
                tile(a, panel, self.kp, &mut acc);
                let j0 = p * NR;
                let cols = NR.min(n - j0);
                for dr in 0..MR.min(rows - r0) {
                    let row = &mut out[(r0 + dr) * n + j0..(r0 + dr) * n + j0 + cols];
                    let sx = xs[r0 + dr];
                    let sums = &acc[dr * NR..dr * NR + cols];
                    for ((o, &a), &sw) in row.iter_mut().zip(sums).zip(&self.scales[j0..]) {
                        *o += a as f32 * (sx * sw);
                    }
                }
            }
        }
    }
}

thread_local! {
    /// The rounded inputs' buffer, kept between products: a fresh one per
    /// product was memory the kernel zeroed again on first touch (12% of
    /// the int8 run's samples in `clear_page`).
    static QBUF: std::cell::RefCell<Vec<i16>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Rounds every row of `x` with its own scale into i16 rows of stride
/// `kp` (zero-padded), the row count padded to a multiple of [`MR`] with
/// zero rows, in `q` (reused); returns the integers and the per-row scales.
fn quantize_rows(x: &Matrix, kp: usize, mut q: Vec<i16>) -> (Vec<i16>, Vec<f32>) {
    let (m, k) = (x.rows(), x.cols());
    let mp = m.next_multiple_of(MR);
    q.clear();
    q.resize(mp * kp, 0);
    let mut s = vec![1.0f32; mp];
    for i in 0..m {
        let row = x.row(i);
        let sc = scale_for(max_abs(row));
        s[i] = sc;
        let inv = 1.0 / sc;
        for (d, &v) in q[i * kp..i * kp + k].iter_mut().zip(row) {
            *d = round_q(v, inv);
        }
    }
    (q, s)
}

/// The i32 sums of one tile: `acc[r·NR + c] = Σ_t a[r][t] · w[t][c]` for
/// the [`MR`] rows of `a` (stride `kp`) and one packed panel.
fn tile(a: &[i16], panel: &[i16], kp: usize, acc: &mut [i32; MR * NR]) {
    #[cfg(target_arch = "x86_64")]
    {
        if is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 is present (checked above); `tile_avx2` reads
            // only `a[..MR * kp]` and `panel[..kp * NR]`, whose lengths
            // its caller guarantees and it asserts.
            unsafe { tile_avx2(a, panel, kp, acc) };
            return;
        }
    }
    tile_scalar(a, panel, kp, acc);
}

/// [`tile`] in plain Rust: the reference the AVX2 kernel must equal.
fn tile_scalar(a: &[i16], panel: &[i16], kp: usize, acc: &mut [i32; MR * NR]) {
    acc.fill(0);
    for r in 0..MR {
        let row = &a[r * kp..(r + 1) * kp];
        for t in 0..kp / 2 {
            let w = &panel[t * NR * 2..(t + 1) * NR * 2];
            for c in 0..NR {
                acc[r * NR + c] += row[2 * t] as i32 * w[2 * c] as i32
                    + row[2 * t + 1] as i32 * w[2 * c + 1] as i32;
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn tile_avx2(a: &[i16], panel: &[i16], kp: usize, acc: &mut [i32; MR * NR]) {
    use std::arch::x86_64::*;
    assert!(a.len() >= MR * kp && panel.len() >= kp * NR && kp.is_multiple_of(2));
    let mut s = [_mm256_setzero_si256(); MR * 2];
    let ap = a.as_ptr();
    let wp = panel.as_ptr();
    for t in 0..kp / 2 {
        // SAFETY: t < kp/2, so the 32 values at wp + 2·NR·t and the pair at
        // ap + r·kp + 2t lie inside the slices (asserted above).
        let w0 = _mm256_loadu_si256(wp.add(t * NR * 2) as *const __m256i);
        let w1 = _mm256_loadu_si256(wp.add(t * NR * 2 + 16) as *const __m256i);
        for r in 0..MR {
            let pair = (ap.add(r * kp + 2 * t) as *const i32).read_unaligned();
            let x = _mm256_set1_epi32(pair);
            s[2 * r] = _mm256_add_epi32(s[2 * r], _mm256_madd_epi16(x, w0));
            s[2 * r + 1] = _mm256_add_epi32(s[2 * r + 1], _mm256_madd_epi16(x, w1));
        }
    }
    for (i, v) in s.iter().enumerate() {
        // lanes of s[2r] are columns 0..8 of row r, of s[2r+1] columns 8..16
        _mm256_storeu_si256(acc.as_mut_ptr().add(i * 8) as *mut __m256i, *v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::encoder::attention::tests::pseudo;

    #[test]
    fn avx2_tile_equals_scalar_tile_exactly() {
        for kp in [2, 6, 384, 1536] {
            let a: Vec<i16> = (0..MR * kp)
                .map(|i| ((i * 37 % 255) as i16) - 127)
                .collect();
            let w: Vec<i16> = (0..kp * NR)
                .map(|i| ((i * 91 % 255) as i16) - 127)
                .collect();
            let mut want = [0; MR * NR];
            tile_scalar(&a, &w, kp, &mut want);
            let mut got = [7; MR * NR];
            tile(&a, &w, kp, &mut got);
            assert_eq!(got, want, "kp {kp}");
            // the extremes: no saturation anywhere
            let a = vec![-127i16; MR * kp];
            let w = vec![-127i16; kp * NR];
            tile(&a, &w, kp, &mut got);
            assert!(got.iter().all(|&v| v == 127 * 127 * kp as i32), "kp {kp}");
        }
    }

    #[test]
    fn product_matches_f32_within_rounding_bound() {
        // odd sizes: padding of k, of the rows and of the last panel
        for (m, k, n) in [(1, 3, 5), (7, 33, 17), (130, 384, 40)] {
            let x = pseudo(m, k, 1 + m as u64);
            let w_t = pseudo(k, n, 2 + k as u64);
            let q = QuantLinear::new(&w_t);
            let want = x.matmul(&w_t).unwrap();
            for parts in [1, 3] {
                let mut y = Matrix::zeros(m, n);
                q.forward_add(&x, &mut y, parts);
                for i in 0..m {
                    let xmax = x.row(i).iter().fold(0.0f32, |a, v| a.max(v.abs()));
                    for j in 0..n {
                        let wmax = (0..k).fold(0.0f32, |a, t| a.max(w_t.row(t)[j].abs()));
                        // each operand is off by at most half a step
                        let (ex, ew) = (xmax / 254.0, wmax / 254.0);
                        let bound = k as f32 * (ex * wmax + ew * xmax + ex * ew) + 1e-5;
                        let err = (y.row(i)[j] - want.row(i)[j]).abs();
                        assert!(err <= bound, "({i},{j}) err {err} > {bound}");
                    }
                }
            }
            // the split over threads changes no value
            let mut y1 = Matrix::zeros(m, n);
            let mut y3 = Matrix::zeros(m, n);
            q.forward_add(&x, &mut y1, 1);
            q.forward_add(&x, &mut y3, 3);
            assert_eq!(y1, y3);
        }
    }

    #[test]
    fn weights_round_per_column() {
        let w_t = Matrix::from_rows(&[[1.0, 0.0, -0.5], [0.5, 0.0, 0.25]]).unwrap();
        let q = QuantLinear::new(&w_t);
        assert_eq!(q.dequantized(0, 0), 1.0);
        assert!((q.dequantized(1, 0) - 0.5).abs() <= 1.0 / 254.0);
        assert_eq!(q.dequantized(0, 1), 0.0); // an all-zero column stays zero
        assert_eq!(q.dequantized(0, 2), -0.5);
        // the bias in y is kept: y ← x Wᵀ + y
        let x = Matrix::from_rows(&[[2.0, 0.0]]).unwrap();
        let mut y = Matrix::from_rows(&[[1.0, 1.0, 1.0]]).unwrap();
        q.forward_add(&x, &mut y, 1);
        assert_eq!(y.row(0), &[3.0, 1.0, 0.0]);
    }
}
