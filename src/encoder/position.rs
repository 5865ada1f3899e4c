//! Position information added to the word embeddings.
//!
//! Attention is permutation-invariant: without a position signal "dog
//! bites man" and "man bites dog" get the same vectors. BERT checkpoints
//! learn one vector per position (`embeddings.position_embeddings.weight`);
//! the original Transformer used a fixed sinusoidal encoding instead,
//!
//! ```text
//! PE(pos, 2i)   = sin(pos / 10000^(2i/d))
//! PE(pos, 2i+1) = cos(pos / 10000^(2i/d))
//! ```
//!
//! which needs no training. Both are available through [`PositionKind`].
//! With a pretrained BERT checkpoint only [`PositionKind::Learned`] gives
//! meaningful vectors — the network was trained with those positions —
//! so `Sinusoidal` is for experiments and for teaching (the checkpoint's
//! `position_embeddings` tensor is then not even read).

use super::matrix::Matrix;

/// Which position vectors the embeddings add.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PositionKind {
    /// The learned table of the checkpoint (BERT's choice; the default).
    #[default]
    Learned,
    /// The fixed sine/cosine encoding of "Attention Is All You Need".
    Sinusoidal,
}

/// The sinusoidal position vector of position `pos` (0-based) in `d`
/// dimensions: even features `sin(pos / 10000^(2i/d))`, odd features the
/// matching cosine. Computed in `f64` and rounded once.
pub fn sinusoidal_encoding(pos: usize, d: usize) -> Vec<f32> {
    (0..d)
        .map(|j| {
            let two_i = (j - j % 2) as f64;
            let angle = pos as f64 / 10000f64.powf(two_i / d as f64);
            if j % 2 == 0 {
                angle.sin() as f32
            } else {
                angle.cos() as f32
            }
        })
        .collect()
}

/// The `n × d` table of [`sinusoidal_encoding`] for positions `0..n`.
pub fn sinusoidal_table(n: usize, d: usize) -> Matrix {
    let mut m = Matrix::zeros(n, d);
    for pos in 0..n {
        m.row_mut(pos).copy_from_slice(&sinusoidal_encoding(pos, d));
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn course_notes_example() {
        // Lecture 12, §12.3.1: d = 4, pos = 1 → [0.841, 0.540, 0.010, 1.000]
        let pe = sinusoidal_encoding(1, 4);
        let want = [0.841, 0.540, 0.010, 1.000];
        for (g, w) in pe.iter().zip(want) {
            assert!((g - w).abs() < 1e-3, "{pe:?}");
        }
    }

    #[test]
    fn position_zero_and_table() {
        assert_eq!(
            sinusoidal_encoding(0, 6),
            vec![0.0, 1.0, 0.0, 1.0, 0.0, 1.0]
        );
        let t = sinusoidal_table(5, 8);
        assert_eq!(t.rows(), 5);
        assert_eq!(t.row(3), sinusoidal_encoding(3, 8).as_slice());
        // distinct positions get distinct vectors
        assert_ne!(t.row(1), t.row(2));
        // odd dimension counts work too (last feature is a sine)
        assert_eq!(sinusoidal_encoding(2, 3).len(), 3);
    }
}
