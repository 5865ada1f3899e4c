//! The encoder's vote on a target's WordNet category (`--pos-probe`).
//!
//! The category model ([`super::category`]) reads the tagger and the
//! words around a target; what it cannot read is what the sentence is
//! about, and that is often what decides between `concerned` the
//! adjective and the verb, `point` the noun and the verb, `active` the
//! noun and the adjective in SemCor: the category of the sense the
//! annotator chose. The encoder's contextual vector of the word (the sum
//! of its last four layers, as LMMS reads BERT) carries that, so a small
//! multinomial logistic regression over it — one weight vector per
//! category, softmax over the categories WordNet allows for the word — is
//! a second opinion. It only *overrules*: when the probe gives the
//! category the pipeline chose less than [`CategoryProbe::threshold`],
//! the probe's best category is taken instead.
//!
//! Fitted on the gold instances of SemCor's train split whose word WordNet
//! has in at least two categories (`regenerate_pos_probe` in
//! `src/pipeline/learn/probe.rs`), each word read in its sentence rebuilt
//! as plain text, exactly as the pipeline reads it. The shipped table
//! (`src/pos/probe.tsv`) belongs to the encoder whose fingerprint its
//! header names; another encoder's vectors would be meaningless to it,
//! so [`CategoryProbe::check_encoder`] refuses them.
//!
//! # Measurements (`examples/pos_probe_lab.rs`)
//!
//! *Choosing (SemCor's train split only).* The category model learned on
//! four fifths of the train documents, the other fifth read by the
//! jackknifed tagger (as new text is read): 17,548 candidates found as
//! single words, 837 with the wrong category. A probe fitted on the four
//! fifths alone: 848 wrong. Overruling the model below threshold 0.4 /
//! 0.3 / 0.2 / 0.15 / **0.1** / 0.07 / 0.05 / 0.03: 782 / 736 / 713 / 718
//! / **711** / 719 / 719 / 734 wrong, so [`DEFAULT_THRESHOLD`] is 0.1
//! (−15 %). (Against the shipped category model, which saw every train
//! document, the probe never helped: that model is right on its own
//! training documents far more often than on new text.) Fitting with the
//! softmax over the allowed categories beat the softmax over all four;
//! the sum of the last four layers beat the last layer alone (alone 1,088
//! against 1,743 wrong on the test split's candidates, with the model
//! 822 against 944–991); a hidden layer of 256 (scikit-learn's MLP) was
//! no better than the linear probe.
//!
//! *Result (SemCor's test split, fitted on the whole train split).* Of
//! the 22,403 candidates the pipeline finds 21,942 as single words, 963
//! with the wrong category (95.6 %); overruled by a probe fitted the same
//! way in numpy (the lab's data), 822 (96.3 %). `wsd eval --raw` wrong-POS
//! instances 1,005 → 869, F1 +0.2 for mfs, lesk-ext, nb,mfs, knn,mfs and
//! ens,mfs; SemEval-2007 8 → 5 wrong POS, F1 +0.2 to +0.4 for lesk-ext,
//! knn and ens, mfs and nb unchanged (docs/experiments.md, "How each
//! figure came about").
//!
//! *When it runs.* The encoder reads every sentence with a candidate word.
//! For `knn` and `ens`, which run the encoder anyway, it is on by default
//! and the pipeline keeps each target's last-layer vector on its token
//! ([`crate::corpus::Token::vector`]; a joined unit's is its words'
//! vectors weighed by their pieces, the mean knn computes), so knn does
//! not encode the sentence again: the same keys as knn encoding itself
//! on SemCor's test split, and `wsd tag --method knn,mfs` on 100 KB of
//! SemCor text, five runs alternating, median 4.16k tokens/s against
//! 4.12k with `--no-pos-probe` (ens,mfs 3.03k against 3.05k, three runs;
//! peak RSS 575–608 against 544–594 MB). For the other methods it would
//! be the encoder's speed (mfs 56k → 3.8k tokens/s), so there it is off
//! unless `--pos-probe` asks for it.

use std::sync::OnceLock;

use crate::wordnet::Pos;

/// The overruling threshold: chosen by five-fold cross-fitting on SemCor's
/// train split (the probe fitted on four fifths of the documents, the
/// pipeline's categories from the jackknifed tagger on the fifth).
pub const DEFAULT_THRESHOLD: f32 = 0.1;

/// How many of the encoder's last layers are summed into the vector the
/// probe reads (as `knn` does).
pub const PROBE_LAYERS: usize = 4;

/// A fitted probe: a weight vector and a bias per category.
#[derive(Clone, Debug, PartialEq)]
pub struct CategoryProbe {
    /// Fingerprint of the encoder it was fitted on ([`crate::encoder::Encoder::fingerprint`]).
    pub encoder: String,
    /// Overrule the pipeline's category when the probe gives it less than this.
    pub threshold: f32,
    /// `4 × d` weights, the rows in [`Pos::ALL`] order.
    weights: Vec<f32>,
    bias: [f32; 4],
}

/// One fitting example: a word's vector, the categories WordNet allows for
/// it (bit [`Pos::index`]) and the gold category.
#[derive(Clone, Debug)]
pub struct ProbeExample {
    /// The word's vector (sum of the last [`PROBE_LAYERS`] layers).
    pub vector: Vec<f32>,
    /// Allowed categories.
    pub allowed: u8,
    /// The category of the gold sense.
    pub gold: Pos,
}

const SHIPPED: &str = include_str!("probe.tsv");

impl CategoryProbe {
    /// The shipped probe (for MiniLM-L6), parsed once.
    pub fn shipped() -> &'static CategoryProbe {
        static P: OnceLock<CategoryProbe> = OnceLock::new();
        P.get_or_init(|| CategoryProbe::parse(SHIPPED).expect("src/pos/probe.tsv is well formed"))
    }

    /// The vector width it reads.
    pub fn dim(&self) -> usize {
        self.weights.len() / 4
    }

    /// An error unless the probe was fitted on this encoder's vectors.
    pub fn check_encoder(&self, fingerprint: &str, dim: usize) -> Result<(), String> {
        if fingerprint != self.encoder || dim != self.dim() {
            return Err(format!(
                "the category probe was fitted on encoder {} ({} dimensions), not on {fingerprint} ({dim}); \
                 --pos-probe needs models/all-MiniLM-L6-v2",
                self.encoder,
                self.dim()
            ));
        }
        Ok(())
    }

    /// The probability of each category (zero where not `allowed`).
    pub fn probabilities(&self, v: &[f32], allowed: u8) -> [f32; 4] {
        softmax_allowed(&self.weights, &self.bias, v, allowed)
    }

    /// The category to read: `current` unless the probe gives it less than
    /// the threshold, then the probe's most probable allowed category.
    pub fn decide(&self, v: &[f32], allowed: u8, current: Pos) -> Pos {
        if v.len() != self.dim() || allowed.count_ones() < 2 {
            return current;
        }
        let p = self.probabilities(v, allowed);
        if p[current.index()] >= self.threshold {
            return current;
        }
        Pos::ALL
            .into_iter()
            .filter(|c| allowed & (1 << c.index()) != 0)
            .max_by(|a, b| p[a.index()].total_cmp(&p[b.index()]))
            .unwrap_or(current)
    }

    /// Fit on `examples` (full-batch gradient descent with Nesterov
    /// momentum on standardised inputs, L2 penalty `l2`; deterministic).
    pub fn fit(
        examples: &[ProbeExample],
        encoder: &str,
        threshold: f32,
        epochs: usize,
        l2: f32,
    ) -> CategoryProbe {
        let d = examples.first().map_or(0, |e| e.vector.len());
        let n = examples.len().max(1) as f64;
        // Standardise: mean and standard deviation of each input.
        let mut mean = vec![0f64; d];
        let mut sq = vec![0f64; d];
        for e in examples {
            for (k, &x) in e.vector.iter().enumerate() {
                mean[k] += x as f64;
                sq[k] += (x as f64) * (x as f64);
            }
        }
        let mean: Vec<f32> = mean.iter().map(|m| (m / n) as f32).collect();
        let sd: Vec<f32> = sq
            .iter()
            .zip(&mean)
            .map(|(s, &m)| ((s / n - (m as f64) * (m as f64)).max(0.0).sqrt() as f32) + 1e-6)
            .collect();
        let z: Vec<Vec<f32>> = examples
            .iter()
            .map(|e| {
                e.vector
                    .iter()
                    .enumerate()
                    .map(|(k, &x)| (x - mean[k]) / sd[k])
                    .collect()
            })
            .collect();
        let (lr, momentum) = (0.5f32, 0.9f32);
        let mut w = vec![0f32; 4 * d];
        let mut b = [0f32; 4];
        let mut vw = vec![0f32; 4 * d];
        let mut vb = [0f32; 4];
        let inv_n = 1.0 / n as f32;
        for _ in 0..epochs {
            let look_w: Vec<f32> = w.iter().zip(&vw).map(|(w, v)| w + momentum * v).collect();
            let look_b: [f32; 4] = std::array::from_fn(|c| b[c] + momentum * vb[c]);
            let mut gw = vec![0f32; 4 * d];
            let mut gb = [0f32; 4];
            for (e, x) in examples.iter().zip(&z) {
                let p = softmax_allowed(&look_w, &look_b, x, e.allowed);
                for c in 0..4 {
                    let g = (p[c] - f32::from(c == e.gold.index())) * inv_n;
                    if g != 0.0 {
                        gb[c] += g;
                        for (gk, &xk) in gw[c * d..(c + 1) * d].iter_mut().zip(x) {
                            *gk += g * xk;
                        }
                    }
                }
            }
            for k in 0..4 * d {
                vw[k] = momentum * vw[k] - lr * (gw[k] + l2 * look_w[k]);
                w[k] += vw[k];
            }
            for c in 0..4 {
                vb[c] = momentum * vb[c] - lr * gb[c];
                b[c] += vb[c];
            }
        }
        // Fold the standardisation into the weights: w·(x−μ)/σ + b.
        let mut weights = vec![0f32; 4 * d];
        let mut bias = b;
        for c in 0..4 {
            for k in 0..d {
                let wk = w[c * d + k] / sd[k];
                weights[c * d + k] = wk;
                bias[c] -= wk * mean[k];
            }
        }
        CategoryProbe {
            encoder: encoder.to_string(),
            threshold,
            weights,
            bias,
        }
    }

    /// The table: a header line `# category probe\tENCODER\tTHRESHOLD`,
    /// then one line per category: its letter, bias and weights.
    pub fn to_tsv(&self) -> String {
        let mut s = format!("# category probe\t{}\t{}\n", self.encoder, self.threshold);
        let d = self.dim();
        for (c, p) in Pos::ALL.into_iter().enumerate() {
            s.push(p.letter());
            s.push('\t');
            s.push_str(&self.bias[c].to_string());
            for w in &self.weights[c * d..(c + 1) * d] {
                s.push('\t');
                s.push_str(&w.to_string());
            }
            s.push('\n');
        }
        s
    }

    /// Read [`CategoryProbe::to_tsv`]'s table.
    pub fn parse(text: &str) -> Result<CategoryProbe, String> {
        let mut lines = text.lines();
        let header = lines.next().ok_or("empty category probe")?;
        let h: Vec<&str> = header.split('\t').collect();
        if h.len() != 3 || h[0] != "# category probe" {
            return Err(format!(
                "line 1: expected `# category probe\\tENCODER\\tTHRESHOLD`, got {header:?}"
            ));
        }
        let threshold: f32 = h[2]
            .parse()
            .map_err(|_| format!("line 1: bad threshold {:?}", h[2]))?;
        let mut weights = Vec::new();
        let mut bias = [0f32; 4];
        let mut d = None;
        for (c, p) in Pos::ALL.into_iter().enumerate() {
            let ln = c + 2;
            let line = lines
                .next()
                .ok_or(format!("line {ln}: missing the row of {}", p.letter()))?;
            let mut f = line.split('\t');
            if f.next() != Some(p.letter().encode_utf8(&mut [0; 4])) {
                return Err(format!("line {ln}: expected the row of {}", p.letter()));
            }
            let nums: Vec<f32> = f
                .map(|x| {
                    x.parse::<f32>()
                        .map_err(|_| format!("line {ln}: bad number {x:?}"))
                })
                .collect::<Result<_, _>>()?;
            if nums.len() < 2 || *d.get_or_insert(nums.len() - 1) != nums.len() - 1 {
                return Err(format!(
                    "line {ln}: expected a bias and {} weights",
                    d.unwrap_or(0)
                ));
            }
            bias[c] = nums[0];
            weights.extend_from_slice(&nums[1..]);
        }
        if lines.next().is_some_and(|l| !l.trim().is_empty()) {
            return Err("line 6: more than four rows".into());
        }
        Ok(CategoryProbe {
            encoder: h[1].to_string(),
            threshold,
            weights,
            bias,
        })
    }
}

/// Softmax of `w·x + b` over the allowed categories (zero elsewhere).
fn softmax_allowed(w: &[f32], b: &[f32; 4], x: &[f32], allowed: u8) -> [f32; 4] {
    let d = x.len();
    let mut s = [f32::NEG_INFINITY; 4];
    for c in 0..4 {
        if allowed & (1 << c) != 0 {
            s[c] = b[c]
                + w[c * d..(c + 1) * d]
                    .iter()
                    .zip(x)
                    .map(|(w, x)| w * x)
                    .sum::<f32>();
        }
    }
    let max = s.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    if max == f32::NEG_INFINITY {
        return [0.0; 4];
    }
    let mut p = [0f32; 4];
    let mut total = 0.0;
    for c in 0..4 {
        if s[c] > f32::NEG_INFINITY {
            p[c] = (s[c] - max).exp();
            total += p[c];
        }
    }
    p.map(|x| x / total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy() -> Vec<ProbeExample> {
        // Noun when the first input is large, verb when the second is.
        (0..200)
            .map(|i| {
                let noun = i % 2 == 0;
                let jitter = (i % 7) as f32 * 0.05;
                ProbeExample {
                    vector: if noun {
                        vec![1.0 + jitter, 0.1, 0.3]
                    } else {
                        vec![0.1, 1.0 + jitter, 0.3]
                    },
                    allowed: 0b0011,
                    gold: if noun { Pos::Noun } else { Pos::Verb },
                }
            })
            .collect()
    }

    #[test]
    fn fits_a_separable_toy_and_overrules_only_below_the_threshold() {
        let p = CategoryProbe::fit(&toy(), "toy", 0.1, 100, 1e-4);
        let noun = [1.1, 0.1, 0.3];
        assert!(p.probabilities(&noun, 0b0011)[Pos::Noun.index()] > 0.95);
        // A verb reading the probe rejects is overruled ...
        assert_eq!(p.decide(&noun, 0b0011, Pos::Verb), Pos::Noun);
        // ... a category WordNet does not allow is never proposed, and a
        // word WordNet has in one category only is left alone.
        assert_eq!(p.probabilities(&noun, 0b0110)[Pos::Noun.index()], 0.0);
        assert_eq!(p.decide(&noun, 0b0010, Pos::Verb), Pos::Verb);
        // With the threshold at zero nothing is overruled.
        let lax = CategoryProbe {
            threshold: 0.0,
            ..p.clone()
        };
        assert_eq!(lax.decide(&noun, 0b0011, Pos::Verb), Pos::Verb);
    }

    #[test]
    fn the_table_round_trips_and_bad_tables_say_where() {
        let p = CategoryProbe::fit(&toy(), "toy", 0.1, 20, 1e-4);
        let q = CategoryProbe::parse(&p.to_tsv()).unwrap();
        assert_eq!(q.encoder, "toy");
        assert_eq!(q.dim(), 3);
        let v = [0.4, 0.9, 0.3];
        let (a, b) = (p.probabilities(&v, 0b1111), q.probabilities(&v, 0b1111));
        assert!(a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-5));
        assert!(CategoryProbe::parse("").is_err());
        let bad = p.to_tsv().replace("\nv\t", "\nv\tx");
        assert!(CategoryProbe::parse(&bad)
            .unwrap_err()
            .starts_with("line 3"));
        assert!(p.check_encoder("other", 3).is_err());
        assert!(p.check_encoder("toy", 3).is_ok());
    }

    #[test]
    fn the_shipped_probe_parses() {
        let p = CategoryProbe::shipped();
        assert_eq!(p.dim(), 384);
        assert!(p.threshold > 0.0 && p.threshold < 0.5);
    }
}
