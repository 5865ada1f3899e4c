//! A minimal row-major `f32` matrix and the one GEMM of the encoder.
//!
//! The encoder needs little linear algebra: products of a batch of hidden
//! states with weight matrices, and, inside attention, products of strided
//! per-head blocks (`Q_h K_hᵀ`, `P V_h`). All of them go through [`gemm`],
//! which wraps `matrixmultiply::sgemm` — the single `unsafe` call site of
//! the encoder's arithmetic. Strided views ([`MatRef`], [`MatMut`]) let a
//! head's block, or a transposed weight matrix, be used without copying:
//! `sgemm` takes arbitrary row and column strides and packs the operands
//! itself.

use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::{Error, Result};

/// A dense row-major `rows × cols` matrix of `f32`.
#[derive(Clone, PartialEq)]
pub struct Matrix {
    rows: usize,
    cols: usize,
    data: Vec<f32>,
}

impl Matrix {
    /// A matrix of zeros.
    pub fn zeros(rows: usize, cols: usize) -> Matrix {
        Matrix {
            rows,
            cols,
            data: vec![0.0; rows * cols],
        }
    }

    /// Wraps row-major `data`; fails if its length is not `rows * cols`.
    pub fn from_vec(rows: usize, cols: usize, data: Vec<f32>) -> Result<Matrix> {
        if rows.checked_mul(cols) != Some(data.len()) {
            return Err(Error::Shape(format!(
                "matrix of {rows}×{cols} needs {} values, got {}",
                rows.saturating_mul(cols),
                data.len()
            )));
        }
        Ok(Matrix { rows, cols, data })
    }

    /// Builds a matrix from equally long rows; fails on ragged rows.
    pub fn from_rows<R: AsRef<[f32]>>(rows: &[R]) -> Result<Matrix> {
        let cols = rows.first().map_or(0, |r| r.as_ref().len());
        let mut data = Vec::with_capacity(rows.len() * cols);
        for (i, r) in rows.iter().enumerate() {
            let r = r.as_ref();
            if r.len() != cols {
                return Err(Error::Shape(format!(
                    "row {i} has {} values, row 0 has {cols}",
                    r.len()
                )));
            }
            data.extend_from_slice(r);
        }
        Ok(Matrix {
            rows: rows.len(),
            cols,
            data,
        })
    }

    /// The `n × n` identity matrix.
    pub fn identity(n: usize) -> Matrix {
        let mut m = Matrix::zeros(n, n);
        for i in 0..n {
            m.data[i * n + i] = 1.0;
        }
        m
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The row-major values.
    pub fn data(&self) -> &[f32] {
        &self.data
    }

    /// The row-major values, mutable.
    pub fn data_mut(&mut self) -> &mut [f32] {
        &mut self.data
    }

    /// Consumes the matrix, returning its row-major values.
    pub fn into_vec(self) -> Vec<f32> {
        self.data
    }

    /// Row `i`. Panics if `i >= rows` (an indexing bug, not bad input).
    pub fn row(&self, i: usize) -> &[f32] {
        &self.data[i * self.cols..(i + 1) * self.cols]
    }

    /// Row `i`, mutable. Panics if `i >= rows`.
    pub fn row_mut(&mut self, i: usize) -> &mut [f32] {
        &mut self.data[i * self.cols..(i + 1) * self.cols]
    }

    /// The rows as owned vectors.
    pub fn to_rows(&self) -> Vec<Vec<f32>> {
        (0..self.rows).map(|i| self.row(i).to_vec()).collect()
    }

    /// The transpose, as a new matrix.
    pub fn transpose(&self) -> Matrix {
        let mut t = Matrix::zeros(self.cols, self.rows);
        for i in 0..self.rows {
            for j in 0..self.cols {
                t.data[j * self.rows + i] = self.data[i * self.cols + j];
            }
        }
        t
    }

    /// Columns `start..start + len` as a new matrix.
    pub fn columns(&self, start: usize, len: usize) -> Result<Matrix> {
        if start.checked_add(len).is_none_or(|end| end > self.cols) {
            return Err(Error::Shape(format!(
                "columns {start}..{} out of range for {} columns",
                start.saturating_add(len),
                self.cols
            )));
        }
        let mut m = Matrix::zeros(self.rows, len);
        for i in 0..self.rows {
            m.row_mut(i)
                .copy_from_slice(&self.row(i)[start..start + len]);
        }
        Ok(m)
    }

    /// The product `self · other`; fails if the inner dimensions differ.
    pub fn matmul(&self, other: &Matrix) -> Result<Matrix> {
        if self.cols != other.rows {
            return Err(Error::Shape(format!(
                "cannot multiply {}×{} by {}×{}",
                self.rows, self.cols, other.rows, other.cols
            )));
        }
        let mut out = Matrix::zeros(self.rows, other.cols);
        gemm(1.0, self.view(), other.view(), 0.0, out.view_mut());
        Ok(out)
    }

    /// A read-only view of the whole matrix.
    pub fn view(&self) -> MatRef<'_> {
        MatRef::new(&self.data, self.rows, self.cols, self.cols as isize, 1)
    }

    /// A view of the transpose, without copying.
    pub fn t(&self) -> MatRef<'_> {
        MatRef::new(&self.data, self.cols, self.rows, 1, self.cols as isize)
    }

    /// A mutable view of the whole matrix.
    pub fn view_mut(&mut self) -> MatMut<'_> {
        let (rows, cols) = (self.rows, self.cols);
        MatMut::new(&mut self.data, rows, cols, cols as isize, 1)
    }
}

/// Shape and the first values only: the encoder's matrices hold millions.
impl std::fmt::Debug for Matrix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const SHOWN: usize = 8;
        write!(
            f,
            "Matrix {}×{} {:?}",
            self.rows,
            self.cols,
            &self.data[..self.data.len().min(SHOWN)]
        )?;
        if self.data.len() > SHOWN {
            write!(f, "…")?;
        }
        Ok(())
    }
}

/// A read-only strided view: element `(i, j)` is `data[i * rs + j * cs]`.
#[derive(Debug, Clone, Copy)]
pub struct MatRef<'a> {
    data: &'a [f32],
    rows: usize,
    cols: usize,
    rs: isize,
    cs: isize,
}

/// Checks that every element of a `rows × cols` view with non-negative
/// strides lies inside a buffer of `len` values.
fn check_view(len: usize, rows: usize, cols: usize, rs: isize, cs: isize) {
    assert!(rs >= 0 && cs >= 0, "negative strides are not supported");
    if rows == 0 || cols == 0 {
        return;
    }
    let last = (rows - 1) * rs as usize + (cols - 1) * cs as usize;
    assert!(
        last < len,
        "view {rows}×{cols} (strides {rs}, {cs}) exceeds buffer of {len}"
    );
}

impl<'a> MatRef<'a> {
    /// A view of `data` as `rows × cols` with row stride `rs` and column
    /// stride `cs`. Panics if an element would fall outside `data` (a bug in
    /// the caller's index arithmetic, never a consequence of user input).
    pub fn new(data: &'a [f32], rows: usize, cols: usize, rs: isize, cs: isize) -> Self {
        check_view(data.len(), rows, cols, rs, cs);
        MatRef {
            data,
            rows,
            cols,
            rs,
            cs,
        }
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The transpose: the same elements with rows and columns swapped.
    pub fn transposed(self) -> MatRef<'a> {
        MatRef {
            data: self.data,
            rows: self.cols,
            cols: self.rows,
            rs: self.cs,
            cs: self.rs,
        }
    }

    /// Element `(i, j)`.
    pub fn at(&self, i: usize, j: usize) -> f32 {
        assert!(i < self.rows && j < self.cols);
        self.data[i * self.rs as usize + j * self.cs as usize]
    }
}

/// A mutable strided view; see [`MatRef`].
#[derive(Debug)]
pub struct MatMut<'a> {
    data: &'a mut [f32],
    rows: usize,
    cols: usize,
    rs: isize,
    cs: isize,
}

impl<'a> MatMut<'a> {
    /// A mutable view of `data` as `rows × cols` with strides `rs`, `cs`.
    /// Panics if an element would fall outside `data`, or if two elements
    /// would alias (which `sgemm` forbids for its output).
    pub fn new(data: &'a mut [f32], rows: usize, cols: usize, rs: isize, cs: isize) -> Self {
        check_view(data.len(), rows, cols, rs, cs);
        if rows > 1 && cols > 1 {
            let (rs, cs) = (rs as usize, cs as usize);
            assert!(
                (cs >= 1 && rs >= cols * cs) || (rs >= 1 && cs >= rows * rs),
                "aliasing output view"
            );
        } else {
            assert!(
                (rows <= 1 || rs >= 1) && (cols <= 1 || cs >= 1),
                "aliasing output view"
            );
        }
        MatMut {
            data,
            rows,
            cols,
            rs,
            cs,
        }
    }
}

/// `C ← α·A·B + β·C` through `matrixmultiply::sgemm`.
///
/// Panics if the shapes do not agree (`A` is `m × k`, `B` is `k × n`, `C`
/// is `m × n`): the encoder derives all shapes from validated weights, so a
/// mismatch here is a bug, not bad input. With `β = 0` the previous content
/// of `C` is ignored.
pub fn gemm(alpha: f32, a: MatRef<'_>, b: MatRef<'_>, beta: f32, c: MatMut<'_>) {
    let (m, k, n) = (a.rows, a.cols, b.cols);
    assert_eq!(b.rows, k, "gemm: inner dimensions differ");
    assert_eq!((c.rows, c.cols), (m, n), "gemm: output shape differs");
    if m == 0 || n == 0 {
        return;
    }
    if k == 0 {
        // sgemm would read no element of A or B; scale C ourselves so the
        // result is defined even for an empty inner dimension.
        for i in 0..m {
            for j in 0..n {
                let idx = i * c.rs as usize + j * c.cs as usize;
                c.data[idx] = if beta == 0.0 { 0.0 } else { beta * c.data[idx] };
            }
        }
        return;
    }
    let parts = split_parts(m, k, n, 1 + free_threads());
    if parts > 1 && c.cs == 1 && c.rs as usize >= n && a.rs >= 0 {
        // Row-major C: blocks of whole rows are disjoint slices.
        let rows = m.div_ceil(parts).next_multiple_of(SPLIT_ALIGN);
        let (ars, crs) = (a.rs as usize, c.rs as usize);
        let used = (m - 1) * crs + n;
        let blocks: Vec<(usize, &mut [f32])> = c.data[..used]
            .chunks_mut(rows * crs)
            .enumerate()
            .map(|(i, chunk)| (i * rows, chunk))
            .collect();
        blocks.into_par_iter().for_each(|(first, chunk)| {
            let r = rows.min(m - first);
            let a_part = MatRef::new(&a.data[first * ars..], r, k, a.rs, a.cs);
            sgemm_serial(alpha, a_part, b, beta, MatMut::new(chunk, r, n, c.rs, c.cs));
        });
        return;
    }
    sgemm_serial(alpha, a, b, beta, c);
}

/// Row blocks of a split product start at multiples of this: matrixmultiply
/// cuts `A` into blocks of 64 rows (`S_MC`) and those into 8-row panels,
/// from row 0, so blocks aligned on 64 rows meet the same panels, the same
/// packing and the same kernel calls as the whole product: **a split product
/// is bitwise the product computed at once** (which is what keeps `wsd tag`'s
/// output identical for any `--threads`).
const SPLIT_ALIGN: usize = 64;

/// Least rows per row block. Every block packs the whole of `B` again
/// (matrixmultiply packs `B` once per call), which costs about as much as
/// ten rows of the product: blocks of 128 rows spent ~8% more instructions
/// than the whole product, blocks of 256 about 4%.
const SPLIT_MIN_ROWS: usize = 256;

/// Least multiply-adds per row block: below it, handing a block to another
/// thread costs more than it saves.
const SPLIT_MIN_WORK: usize = 1 << 22;

thread_local! {
    /// Set by [`with_free_threads`]: the count of the pool's threads that
    /// have nothing else to do (shared by the threads of one job).
    static FREE_THREADS: std::cell::RefCell<Option<std::sync::Arc<AtomicUsize>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` with `free` as the count of idle pool threads that products
/// computed on this thread may hand row blocks to (see [`gemm`]).
///
/// Splitting a product costs instructions (each block packs `B` again) and
/// only pays when another thread would otherwise wait: the encoder runs
/// whole batches side by side, one per thread, and only once a thread
/// runs out of batches should the others' products be shared with it.
/// Without this, every product is split for all of rayon's threads.
pub fn with_free_threads<R>(free: &std::sync::Arc<AtomicUsize>, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<std::sync::Arc<AtomicUsize>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let prev = self.0.take();
            FREE_THREADS.with(|c| *c.borrow_mut() = prev);
        }
    }
    let prev = FREE_THREADS.with(|c| c.borrow_mut().replace(free.clone()));
    let _restore = Restore(prev);
    f()
}

/// Threads other than this one that a product may be split for.
pub(crate) fn free_threads() -> usize {
    let others = rayon::current_num_threads().saturating_sub(1);
    FREE_THREADS.with(|c| match &*c.borrow() {
        Some(free) => free.load(Ordering::Relaxed).min(others),
        None => others,
    })
}

/// Into how many row blocks a product `m × k · k × n` is cut for `threads`
/// threads (1: computed whole on the calling thread).
///
/// matrixmultiply's own `threading` feature split the one product over its
/// own pool, whose threads competed for the two cores with rayon's (which
/// runs the attention and the element-wise passes) and left the cores idle
/// between products; the encoder now runs every product on rayon's pool,
/// and whole batches side by side ([`super::Encoder`]), so a thread that
/// finishes its batch early takes blocks of the other's products. One
/// block per thread, of at least [`SPLIT_MIN_ROWS`] rows: two per thread
/// (blocks of 128 rows for the feed-forward's slices) cost ~8% more
/// instructions in re-packing `B` than they gained in balance.
fn split_parts(m: usize, k: usize, n: usize, threads: usize) -> usize {
    if threads <= 1 {
        return 1;
    }
    let by_work = m.saturating_mul(k).saturating_mul(n) / SPLIT_MIN_WORK;
    let by_rows = m / SPLIT_MIN_ROWS;
    threads.min(by_work).min(by_rows).max(1)
}

/// [`gemm`] on the calling thread (shapes already checked, `m, n, k > 0`).
fn sgemm_serial(alpha: f32, a: MatRef<'_>, b: MatRef<'_>, beta: f32, c: MatMut<'_>) {
    let (m, k, n) = (a.rows, a.cols, b.cols);
    // SAFETY: `MatRef::new`/`MatMut::new` checked that every element
    // `(i, j)` of each view, at `i * rs + j * cs`, lies inside its slice, and
    // that the output view does not alias itself. The shapes were checked
    // by `gemm`, so sgemm reads only A[0..m, 0..k] and B[0..k, 0..n] and
    // writes only C[0..m, 0..n]. `c.data` is a unique borrow, so C overlaps
    // neither A nor B.
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            alpha,
            a.data.as_ptr(),
            a.rs,
            a.cs,
            b.data.as_ptr(),
            b.rs,
            b.cs,
            beta,
            c.data.as_mut_ptr(),
            c.rs,
            c.cs,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matmul_small() {
        let a = Matrix::from_rows(&[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]).unwrap();
        let b = Matrix::from_rows(&[[1.0, 0.0, 2.0], [0.0, 1.0, 3.0]]).unwrap();
        let c = a.matmul(&b).unwrap();
        assert_eq!(c.rows(), 3);
        assert_eq!(c.row(0), &[1.0, 2.0, 8.0]);
        assert_eq!(c.row(2), &[5.0, 6.0, 28.0]);
        assert!(b.matmul(&b).is_err());
    }

    #[test]
    fn transposed_view_and_strided_output() {
        let a = Matrix::from_rows(&[[1.0, 2.0], [3.0, 4.0]]).unwrap();
        // a · aᵀ via a stride view
        let mut c = Matrix::zeros(2, 2);
        gemm(1.0, a.view(), a.t(), 0.0, c.view_mut());
        assert_eq!(c.data(), &[5.0, 11.0, 11.0, 25.0]);
        // write into the second column block of a 2×4 buffer
        let mut buf = vec![0.0f32; 8];
        gemm(
            1.0,
            a.view(),
            Matrix::identity(2).view(),
            0.0,
            MatMut::new(&mut buf[2..], 2, 2, 4, 1),
        );
        assert_eq!(buf, vec![0.0, 0.0, 1.0, 2.0, 0.0, 0.0, 3.0, 4.0]);
    }

    #[test]
    fn bad_shapes_are_errors() {
        assert!(Matrix::from_vec(2, 2, vec![1.0; 3]).is_err());
        assert!(Matrix::from_rows(&[vec![1.0], vec![1.0, 2.0]]).is_err());
        let a = Matrix::zeros(2, 3);
        assert!(a.columns(2, 2).is_err());
        assert_eq!(a.columns(1, 2).unwrap().cols(), 2);
    }

    /// The machine's sgemm throughput on encoder-sized products. Run with
    /// `cargo test --release --lib sgemm_peak -- --ignored --nocapture`
    /// (`MATMUL_NUM_THREADS=1` for one core).
    #[test]
    #[ignore = "benchmark: cargo test --release --lib sgemm_peak -- --ignored --nocapture"]
    fn sgemm_peak() {
        for (m, k, n) in [
            (512, 384, 1536),
            (2048, 384, 1536),
            (2048, 1536, 384),
            (512, 384, 384),
        ] {
            let a = Matrix::from_vec(m, k, (0..m * k).map(|i| (i % 7) as f32).collect()).unwrap();
            // stored n × k and used transposed, as the Linear layers do
            let b = Matrix::from_vec(n, k, (0..n * k).map(|i| (i % 5) as f32).collect()).unwrap();
            let mut c = Matrix::zeros(m, n);
            gemm(1.0, a.view(), b.t(), 0.0, c.view_mut());
            let reps = 20;
            let t = std::time::Instant::now();
            for _ in 0..reps {
                gemm(1.0, a.view(), b.t(), 0.0, c.view_mut());
            }
            let s = t.elapsed().as_secs_f64();
            let gflops = 2.0 * (m * n * k * reps) as f64 / s / 1e9;
            eprintln!("sgemm {m}×{k} · {k}×{n}: {gflops:.1} GFLOP/s");
        }
    }

    /// A product split into row blocks across threads is bitwise the
    /// product computed whole, for row counts off the block size, with
    /// β = 1 (the bias) and a strided output.
    #[test]
    fn split_products_are_bitwise_the_whole_product() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        for (m, k, n) in [(700, 384, 96), (1000, 300, 130), (600, 1536, 384)] {
            assert!(split_parts(m, k, n, 3) > 1, "{m}×{k}×{n} is split");
            let a: Vec<f32> = (0..m * k)
                .map(|i| ((i * 37 % 101) as f32 - 50.0) / 7.0)
                .collect();
            let b: Vec<f32> = (0..k * n)
                .map(|i| ((i * 11 % 89) as f32 - 44.0) / 13.0)
                .collect();
            let a = MatRef::new(&a, m, k, k as isize, 1);
            let b = MatRef::new(&b, k, n, 1, k as isize); // transposed, as Linear
            let stride = n + 5;
            let start: Vec<f32> = (0..m * stride).map(|i| (i % 13) as f32 * 0.25).collect();
            let mut whole = start.clone();
            sgemm_serial(
                0.5,
                a,
                b,
                1.0,
                MatMut::new(&mut whole, m, n, stride as isize, 1),
            );
            let mut split = start.clone();
            pool.install(|| {
                gemm(
                    0.5,
                    a,
                    b,
                    1.0,
                    MatMut::new(&mut split, m, n, stride as isize, 1),
                )
            });
            assert!(whole == split, "{m}×{k}×{n}: split product differs");
            assert!(whole != start);
        }
        assert_eq!(split_parts(4096, 384, 1536, 1), 1);
        assert_eq!(split_parts(8, 384, 1536, 2), 1);
        // one block per thread, none under SPLIT_MIN_ROWS rows
        assert_eq!(split_parts(4096, 384, 1536, 2), 2);
        assert_eq!(split_parts(511, 1536, 384, 2), 1);
        assert_eq!(split_parts(512, 384, 1536, 4), 2);
    }

    /// Products split only for the threads [`with_free_threads`] says are
    /// free; without it, for all of rayon's threads.
    #[test]
    fn free_threads_bound_the_split() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        pool.install(|| {
            assert_eq!(free_threads(), 2);
            let free = std::sync::Arc::new(AtomicUsize::new(0));
            with_free_threads(&free, || {
                assert_eq!(free_threads(), 0);
                free.store(1, Ordering::Relaxed);
                assert_eq!(free_threads(), 1);
                free.store(5, Ordering::Relaxed);
                assert_eq!(free_threads(), 2, "capped by the pool");
            });
            assert_eq!(free_threads(), 2, "restored");
        });
    }

    #[test]
    fn empty_inner_dimension() {
        let a = Matrix::zeros(2, 0);
        let b = Matrix::zeros(0, 3);
        let c = a.matmul(&b).unwrap();
        assert_eq!(c.data(), &[0.0; 6]);
    }
}
