//! The scoring of a kNN model without its encoder ([`Core`]): each
//! candidate's context vector (sense key → synset → propagated), the
//! cosine combination with the gloss vector and the prior, the nearest
//! training instances, and the same scoring with one training document
//! held out ([`HeldOut`]), which training uses to calibrate the model on
//! answers it did not see. [`super::Knn`] wraps it with the encoder.

use std::borrow::Cow;
use std::collections::HashMap;

use super::model::Vectors;
use super::params::KnnOptions;
use super::{add_to, argmax, dot, normalized, METHOD};
use crate::disambig::{scored, Calibration, Prediction, Scale};
use crate::wordnet::{Inventory, PointerKind, Sense, SynsetId};

/// Which context vector scored a candidate (`--explain` names it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VectorSource {
    /// The centroid of the candidate's sense key (lemma-specific).
    SenseKey,
    /// The centroid of the candidate's synset.
    Synset,
    /// Borrowed from hypernyms or the lexicographer file.
    Propagated,
    /// No context vector: the gloss alone.
    Gloss,
}

impl VectorSource {
    /// How `--explain` names it.
    pub fn label(self) -> &'static str {
        match self {
            VectorSource::SenseKey => "sense key",
            VectorSource::Synset => "synset",
            VectorSource::Propagated => "propagated",
            VectorSource::Gloss => "gloss",
        }
    }
}

/// The held-out view of training (calibration, see `train.rs`): the raw
/// sums of the whole training data and those of one document, so that a
/// centroid without the document is `normalise(sum − doc_sum)` exactly.
pub(super) struct HeldOut<'a> {
    /// (count, raw sum) per entry of the model, in entry order (entries
    /// past its end have no context sum).
    pub(super) synsets: &'a [(u32, Vec<f32>)],
    /// (count, raw sum) per sense key, every key seen (not only those with
    /// a vector).
    pub(super) keys: &'a HashMap<String, (u32, Vec<f32>)>,
    /// The held-out document's sums per synset.
    pub(super) doc_synsets: &'a HashMap<SynsetId, (u32, Vec<f32>)>,
    /// The held-out document's sums per sense key.
    pub(super) doc_keys: &'a HashMap<String, (u32, Vec<f32>)>,
}

/// `a − b` (`a` when `b` is absent).
fn minus(a: &[f32], b: Option<&(u32, Vec<f32>)>) -> Vec<f32> {
    match b {
        Some((_, b)) => a.iter().zip(b).map(|(x, y)| x - y).collect(),
        None => a.to_vec(),
    }
}

/// The scoring of a model, without the encoder: vectors, the lookups
/// prediction needs, and the options.
pub(super) struct Core {
    pub(super) vectors: Vectors,
    pub(super) options: KnnOptions,
    pub(super) index: HashMap<SynsetId, usize>,
    /// Row of [`Vectors::sense`] per sense key.
    pub(super) sense_index: HashMap<String, usize>,
    /// Unit mean context vector per lexicographer file.
    pub(super) lexfile: HashMap<u8, Vec<f32>>,
    /// Instances per entry.
    pub(super) by_entry: Vec<Vec<usize>>,
}

impl Core {
    pub(super) fn new(model: Vectors, inv: &Inventory, options: KnnOptions) -> Core {
        let index: HashMap<SynsetId, usize> = model
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.synset, i))
            .collect();
        let sense_index = model
            .senses
            .iter()
            .enumerate()
            .map(|(i, s)| (s.key.clone(), i))
            .collect();
        let mut sums: HashMap<u8, Vec<f32>> = HashMap::new();
        for (i, e) in model.entries.iter().enumerate() {
            if let (Some(v), Some(syn)) = (model.ctx(i), inv.get(e.synset)) {
                let s = sums
                    .entry(syn.lex_filenum)
                    .or_insert_with(|| vec![0.0; model.dim]);
                for (a, x) in s.iter_mut().zip(v) {
                    *a += x;
                }
            }
        }
        let lexfile = sums.into_iter().map(|(k, v)| (k, normalized(&v))).collect();
        let mut by_entry = vec![Vec::new(); model.entries.len()];
        for (i, e) in model.instance_entry.iter().enumerate() {
            by_entry[*e as usize].push(i);
        }
        Core {
            vectors: model,
            options,
            index,
            sense_index,
            lexfile,
            by_entry,
        }
    }

    /// The SemCor centroid of a synset (unit length) and its instance count.
    pub(super) fn centroid(&self, id: SynsetId) -> Option<(&[f32], u32)> {
        let &i = self.index.get(&id)?;
        Some((self.vectors.ctx(i)?, self.vectors.entries[i].count))
    }

    /// The centroid of a sense key (unit length) and its instance count,
    /// when the key had enough instances for a vector of its own.
    pub(super) fn sense_centroid(&self, key: &str) -> Option<(&[f32], u32)> {
        let &r = self.sense_index.get(key)?;
        Some((self.vectors.sense.row(r), self.vectors.senses[r].count))
    }

    /// The resultant length `|Σ v|` of a synset's centroid, when the
    /// model stores it (format 4).
    pub(super) fn resultant(&self, id: SynsetId) -> Option<f32> {
        let &i = self.index.get(&id)?;
        self.vectors.entry_resultants[i]
    }

    /// The resultant length of a sense key's centroid (format 4).
    pub(super) fn sense_resultant(&self, key: &str) -> Option<f32> {
        let &r = self.sense_index.get(key)?;
        self.vectors.sense_resultants[r]
    }

    /// A context vector borrowed for an unseen synset: its hypernyms'
    /// mean up to three levels, or its lexicographer file's.
    pub(super) fn propagated(&self, inv: &Inventory, id: SynsetId) -> Option<Cow<'_, [f32]>> {
        self.propagated_by(inv, id, &|h| {
            self.centroid(h).map(|(v, _)| Cow::Borrowed(v))
        })
    }

    /// [`Core::propagated`] with the synsets' centroids read through
    /// `centroid`: the one propagation walk, shared by prediction (the
    /// model's centroids) and `ens` (centroids with a held-out document
    /// taken out, see [`Knn::context_vector_by`]). The lexicographer
    /// file's mean is not read through `centroid`.
    pub(super) fn propagated_by<'s>(
        &'s self,
        inv: &Inventory,
        id: SynsetId,
        centroid: &dyn Fn(SynsetId) -> Option<Cow<'s, [f32]>>,
    ) -> Option<Cow<'s, [f32]>> {
        if !self.options.propagate {
            return None;
        }
        let syn = inv.get(id)?;
        if let Some(v) = hypernym_mean(inv, id, self.vectors.dim, centroid) {
            return Some(Cow::Owned(v));
        }
        self.lexfile
            .get(&syn.lex_filenum)
            .map(|v| Cow::Borrowed(v.as_slice()))
    }

    /// The context vector of a candidate and where it came from: its sense
    /// key's centroid, else its synset's, else a propagated one.
    pub(super) fn context_of(
        &self,
        inv: &Inventory,
        s: &Sense,
    ) -> Option<(Cow<'_, [f32]>, VectorSource)> {
        if let Some(&r) = self.sense_index.get(&s.key) {
            return Some((
                Cow::Borrowed(self.vectors.sense.row(r)),
                VectorSource::SenseKey,
            ));
        }
        if let Some((v, _)) = self.centroid(s.synset) {
            return Some((Cow::Borrowed(v), VectorSource::Synset));
        }
        self.propagated(inv, s.synset)
            .map(|v| (v, VectorSource::Propagated))
    }

    /// [`Core::context_of`] with one document held out: the centroids the
    /// document contributed to are recomputed without it; a sense key left
    /// with fewer than `sense_min` instances, or a synset with none, falls
    /// back as prediction would. (Propagated vectors and the prior still
    /// include the document: a small, stated optimism.)
    pub(super) fn context_held_out(
        &self,
        inv: &Inventory,
        s: &Sense,
        h: &HeldOut<'_>,
    ) -> Option<(Cow<'_, [f32]>, VectorSource)> {
        let min = self.vectors.params.sense_min;
        if min > 0 {
            if let Some((n, sum)) = h.keys.get(&s.key) {
                let d = h.doc_keys.get(&s.key);
                let left = n - d.map_or(0, |x| x.0);
                if left >= min {
                    let diff = minus(sum, d);
                    return Some((Cow::Owned(normalized(&diff)), VectorSource::SenseKey));
                }
            }
        }
        if let Some(&e) = self.index.get(&s.synset) {
            if let Some((n, sum)) = h.synsets.get(e).filter(|x| x.0 > 0) {
                let d = h.doc_synsets.get(&s.synset);
                let left = n - d.map_or(0, |x| x.0);
                if left > 0 {
                    let diff = minus(sum, d);
                    return Some((Cow::Owned(normalized(&diff)), VectorSource::Synset));
                }
                return self
                    .propagated(inv, s.synset)
                    .map(|v| (v, VectorSource::Propagated));
            }
        }
        self.context_of(inv, s)
    }

    /// Cosine scores (+ prior) of `cands` for the unit vector `v`, given
    /// each candidate's context vector.
    pub(super) fn combine(
        &self,
        v: &[f32],
        cands: &[Sense],
        ctx: Vec<Option<(Cow<'_, [f32]>, VectorSource)>>,
    ) -> Vec<Option<f32>> {
        let w = self.options.gloss_weight;
        let total: f32 = cands.iter().map(|s| s.tag_count as f32 + 1.0).sum();
        let prior = |s: &Sense| self.options.prior * (s.tag_count as f32 + 1.0) / total;
        cands
            .iter()
            .zip(ctx)
            .map(|(s, ctx)| {
                let gloss = self
                    .index
                    .get(&s.synset)
                    .and_then(|&i| self.vectors.gloss(i));
                let cos = match (ctx, gloss) {
                    (Some((c, _)), Some(g)) => (1.0 - w) * dot(v, &c) + w * dot(v, g),
                    (Some((c, _)), None) => dot(v, &c),
                    (None, Some(g)) => dot(v, g),
                    (None, None) => return None,
                };
                Some(cos + prior(s))
            })
            .collect()
    }

    pub(super) fn scores(&self, inv: &Inventory, v: &[f32], cands: &[Sense]) -> Vec<Option<f32>> {
        let ctx = cands.iter().map(|s| self.context_of(inv, s)).collect();
        self.combine(v, cands, ctx)
    }

    /// The centroid answer for the unit vector `v` with the document of
    /// `h` held out (training's calibration samples).
    pub(super) fn decide_held_out(
        &self,
        inv: &Inventory,
        v: &[f32],
        cands: &[Sense],
        h: &HeldOut<'_>,
    ) -> Option<Prediction> {
        let ctx = cands
            .iter()
            .map(|s| self.context_held_out(inv, s, h))
            .collect();
        centroid_answer(cands, self.combine(v, cands, ctx))
    }

    /// The training instances of the candidates by cosine with `v`,
    /// nearest first: (cosine, candidate index, instance row).
    pub(super) fn nearest(&self, v: &[f32], cands: &[Sense]) -> Vec<(f32, usize, usize)> {
        let mut near: Vec<(f32, usize, usize)> = Vec::new();
        for (c, s) in cands.iter().enumerate() {
            if let Some(&e) = self.index.get(&s.synset) {
                for &i in &self.by_entry[e] {
                    near.push((dot(v, self.vectors.instances.row(i)), c, i));
                }
            }
        }
        near.sort_by(|a, b| b.0.total_cmp(&a.0));
        near
    }

    /// The cosines of `v` (a unit vector) with the `top` training
    /// instances of `id` most similar to it, best first, leaving out those
    /// of training document `skip` (a model of format 5 knows each
    /// instance's document; an older one cannot leave any out). Empty
    /// when the model kept no instance of `id` (or only `skip`'s).
    pub(super) fn nearest_cosines(
        &self,
        v: &[f32],
        id: SynsetId,
        skip: Option<u32>,
        top: usize,
    ) -> Vec<f32> {
        let Some(&e) = self.index.get(&id).filter(|_| top > 0) else {
            return Vec::new();
        };
        let docs = &self.vectors.instance_docs;
        let mut best: Vec<f32> = Vec::with_capacity(top + 1);
        for &i in &self.by_entry[e] {
            if skip.is_some() && docs.get(i).copied() == skip {
                continue;
            }
            let c = dot(v, self.vectors.instances.row(i));
            if best.len() < top || c > best[best.len() - 1] {
                let at = best.partition_point(|&b| b >= c);
                best.insert(at, c);
                best.truncate(top);
            }
        }
        best
    }

    /// The model's calibration as a table, when it fits the options.
    pub(super) fn calibration(&self) -> Option<Calibration> {
        let c = self.vectors.calibration.as_ref()?;
        let voting = self.options.k > 1 && self.vectors.instances.rows() > 0;
        (!voting && c.fits(&self.options))
            .then(|| Calibration::single(METHOD, "method", c.blocks.clone()))
    }
}

/// LMMS's propagation walk: the unit mean of the context vectors
/// (`centroid`, `dim` wide) of the nearest level of `id`'s hypernyms
/// (instance hypernyms too) that has any, up to three levels up; `None`
/// when none has.
pub fn hypernym_mean<'s>(
    inv: &Inventory,
    id: SynsetId,
    dim: usize,
    centroid: &dyn Fn(SynsetId) -> Option<Cow<'s, [f32]>>,
) -> Option<Vec<f32>> {
    let mut frontier = vec![id];
    for _ in 0..3 {
        let mut next = Vec::new();
        for f in &frontier {
            if let Some(s) = inv.get(*f) {
                next.extend(s.related(PointerKind::Hypernym));
                next.extend(s.related(PointerKind::InstanceHypernym));
            }
        }
        let mut sum = vec![0.0f32; dim];
        let mut n = 0;
        for h in &next {
            if let Some(v) = centroid(*h) {
                add_to(&mut sum, &v);
                n += 1;
            }
        }
        if n > 0 {
            return Some(normalized(&sum));
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    None
}

/// The prediction of centroid scores: the best candidate, the scores
/// normalised at [`TEMPERATURE`].
pub(super) fn centroid_answer(cands: &[Sense], scores: Vec<Option<f32>>) -> Option<Prediction> {
    let (i, s) = argmax(&scores)?;
    let scores: Vec<Option<f64>> = scores.iter().map(|s| s.map(f64::from)).collect();
    Some(
        Prediction::decided(cands[i].key.clone(), METHOD, s as f64)
            .with_scores(scored(cands, &scores), Scale::Tempered(TEMPERATURE)),
    )
}

/// Softmax temperature of kNN's scores: the cosines of one target with
/// its candidates' vectors differ by hundredths, so at temperature 1 every
/// distribution would be nearly uniform; at 0.05 a lead of 0.1 in cosine
/// is a factor e² ≈ 7.4. Only the spread of the normalised probabilities
/// depends on it, not the ranking.
pub const TEMPERATURE: f64 = 0.05;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::disambig::calibration::Block;
    use crate::disambig::knn::{Entry, KnnCalibration, SenseEntry};
    use crate::disambig::knn::{KnnModel, KnnParams};
    use crate::wordnet::Pos;

    fn inventory() -> Inventory {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        Inventory::open(Some(&root.join("wordnet/dict"))).expect("wordnet/dict")
    }

    fn params() -> KnnParams {
        serde_json::from_value(serde_json::json!({
            "encoder": "enc", "hidden_size": 3, "layers": "last",
            "gloss": "none", "gloss_pooling": "mean", "keep_instances": false,
            "documents": 1, "sentences": 1, "tagged_tokens": 1, "sense_min": 2
        }))
        .unwrap()
    }

    /// A model of bank's first two noun senses: both with a synset
    /// centroid, the first with a gloss vector; optionally a sense-key
    /// vector for the first.
    fn model(inv: &Inventory, sense_key: bool) -> (KnnModel, Vec<Sense>) {
        let cands = inv.senses("bank", Pos::Noun)[..2].to_vec();
        let entry = |s: &Sense, ctx: Vec<f32>, gloss: Option<Vec<f32>>| Entry {
            synset: s.synset,
            count: 3,
            ctx: Some(ctx),
            gloss,
            exemplars: vec![],
            resultant: Some(3.0),
        };
        let m = KnnModel {
            params: params(),
            dim: 3,
            entries: vec![
                entry(&cands[0], vec![1.0, 0.0, 0.0], Some(vec![0.0, 1.0, 0.0])),
                entry(&cands[1], vec![0.0, 0.0, 1.0], None),
            ],
            senses: if sense_key {
                vec![SenseEntry {
                    key: cands[0].key.clone(),
                    count: 2,
                    ctx: vec![0.0, 0.0, 1.0],
                    exemplars: vec![],
                    resultant: Some(2.0),
                }]
            } else {
                vec![]
            },
            instances: vec![],
            instance_sentences: vec![],
            instance_docs: Vec::new(),
            sentences: vec![],
            calibration: None,
        };
        (m, cands)
    }

    fn core(m: &KnnModel, inv: &Inventory) -> Core {
        Core::new(Vectors::from_model(m), inv, KnnOptions::default())
    }

    #[test]
    fn nearest_cosines_are_the_best_first_and_leave_a_document_out() {
        let inv = inventory();
        let (mut m, cands) = model(&inv, false);
        // entry 0 keeps three instances (documents 0, 1, 1), entry 1 one
        m.instances = vec![
            (0, vec![1.0, 0.0, 0.0]),
            (0, vec![0.6, 0.8, 0.0]),
            (0, vec![0.0, 1.0, 0.0]),
            (1, vec![0.0, 0.0, 1.0]),
        ];
        m.instance_docs = vec![0, 1, 1, 0];
        let c = core(&m, &inv);
        let v = [0.6, 0.8, 0.0];
        let near = |id, skip, top| c.nearest_cosines(&v, id, skip, top);
        let close = |a: &[f32], b: &[f32]| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6)
        };
        assert!(close(&near(cands[0].synset, None, 2), &[1.0, 0.8]));
        assert!(close(&near(cands[0].synset, None, 9), &[1.0, 0.8, 0.6]));
        // document 1 out: only document 0's instance is left
        assert!(close(&near(cands[0].synset, Some(1), 3), &[0.6]));
        // the only instance of entry 1 is document 0's
        assert!(near(cands[1].synset, Some(0), 3).is_empty());
        assert!(close(&near(cands[1].synset, Some(1), 3), &[0.0]));
        assert!(near(cands[0].synset, None, 0).is_empty());
    }

    #[test]
    fn without_sense_keys_scores_are_the_synset_formula() {
        let inv = inventory();
        let (m, cands) = model(&inv, false);
        let c = core(&m, &inv);
        let v = normalized(&[1.0, 1.0, 0.5]);
        let o = KnnOptions::default();
        let total: f32 = cands.iter().map(|s| s.tag_count as f32 + 1.0).sum();
        let prior = |s: &Sense| o.prior * (s.tag_count as f32 + 1.0) / total;
        let want0 = (1.0 - o.gloss_weight) * v[0] + o.gloss_weight * v[1] + prior(&cands[0]);
        let want1 = v[2] + prior(&cands[1]);
        let got = c.scores(&inv, &v, &cands);
        assert!((got[0].unwrap() - want0).abs() < 1e-6, "{got:?}");
        assert!((got[1].unwrap() - want1).abs() < 1e-6, "{got:?}");
        assert_eq!(
            c.context_of(&inv, &cands[0]).map(|x| x.1),
            Some(VectorSource::Synset)
        );
    }

    #[test]
    fn a_sense_key_vector_replaces_its_synsets() {
        let inv = inventory();
        let (m, cands) = model(&inv, true);
        let c = core(&m, &inv);
        let v = normalized(&[1.0, 1.0, 0.5]);
        let o = KnnOptions::default();
        let total: f32 = cands.iter().map(|s| s.tag_count as f32 + 1.0).sum();
        let prior = o.prior * (cands[0].tag_count as f32 + 1.0) / total;
        // the key's vector is [0, 0, 1]: cos v[2], the gloss stays the synset's
        let want0 = (1.0 - o.gloss_weight) * v[2] + o.gloss_weight * v[1] + prior;
        let got = c.scores(&inv, &v, &cands);
        assert!((got[0].unwrap() - want0).abs() < 1e-6, "{got:?}");
        assert_eq!(
            c.context_of(&inv, &cands[0]).map(|x| x.1),
            Some(VectorSource::SenseKey)
        );
        // another lemma of the same synset has no key vector: the synset's
        let other = Sense {
            key: "depository_financial_institution%1:14:00::".into(),
            ..cands[0].clone()
        };
        assert_eq!(
            c.context_of(&inv, &other).map(|x| x.1),
            Some(VectorSource::Synset)
        );
    }

    #[test]
    fn propagation_reads_centroids_through_the_callers_lookup() {
        let inv = inventory();
        let (m, cands) = model(&inv, false);
        let c = core(&m, &inv);
        // an unseen synset whose hypernym is the first candidate's
        let parent = cands[0].synset;
        let child = inv
            .get(parent)
            .unwrap()
            .related(PointerKind::Hyponym)
            .find(|h| {
                inv.get(*h).is_some_and(|s| {
                    let up: Vec<SynsetId> = s.related(PointerKind::Hypernym).collect();
                    up == [parent]
                })
            })
            .expect("a hyponym of bank with that one hypernym");
        assert!(c.centroid(child).is_none());
        let own = c.propagated(&inv, child).unwrap();
        assert!((own[0] - 1.0).abs() < 1e-6, "{own:?}");
        // the same walk over another lookup reads the lookup's vectors
        let other = [0.0f32, 1.0, 0.0];
        let swapped = c
            .propagated_by(&inv, child, &|h| {
                (h == parent).then_some(Cow::Borrowed(&other[..]))
            })
            .unwrap();
        assert!((swapped[1] - 1.0).abs() < 1e-6, "{swapped:?}");
    }

    #[test]
    fn holding_a_document_out_removes_it_from_the_centroids() {
        let inv = inventory();
        let (m, cands) = model(&inv, true);
        let c = core(&m, &inv);
        let d = 3;
        // raw sums: synset 0 from three instances, its key from two
        let synsets = vec![(3, vec![2.0, 0.5, 0.0]), (1, vec![0.0, 0.0, 1.0])];
        let mut keys = HashMap::new();
        keys.insert(cands[0].key.clone(), (2u32, vec![0.0, 0.5, 1.0]));
        // the held-out document holds one instance of the key ([0, 0, 1])
        // and the only instance of synset 1
        let mut doc_synsets = HashMap::new();
        doc_synsets.insert(cands[0].synset, (1u32, vec![0.0, 0.0, 1.0]));
        doc_synsets.insert(cands[1].synset, (1u32, vec![0.0, 0.0, 1.0]));
        let mut doc_keys = HashMap::new();
        doc_keys.insert(cands[0].key.clone(), (1u32, vec![0.0, 0.0, 1.0]));
        let h = HeldOut {
            synsets: &synsets,
            keys: &keys,
            doc_synsets: &doc_synsets,
            doc_keys: &doc_keys,
        };
        // one key instance is left (< sense_min 2): the synset's centroid
        // without the document, [2, 0.5, -1] normalised
        let (v0, src0) = c.context_held_out(&inv, &cands[0], &h).unwrap();
        assert_eq!(src0, VectorSource::Synset);
        let want = normalized(&[2.0, 0.5, -1.0]);
        assert!(v0.iter().zip(&want).all(|(a, b)| (a - b).abs() < 1e-6));
        // synset 1 had only this document: propagated as if unseen
        let (_, src1) = c.context_held_out(&inv, &cands[1], &h).unwrap();
        assert_eq!(src1, VectorSource::Propagated);
        assert_eq!(v0.len(), d);
        // with nothing held out, the model's own vectors
        let (no_synsets, no_keys) = (HashMap::new(), HashMap::new());
        let none = HeldOut {
            synsets: &synsets,
            keys: &keys,
            doc_synsets: &no_synsets,
            doc_keys: &no_keys,
        };
        let (v, src) = c.context_held_out(&inv, &cands[0], &none).unwrap();
        assert_eq!(src, VectorSource::SenseKey);
        let want = normalized(&[0.0, 0.5, 1.0]);
        assert!(v.iter().zip(&want).all(|(a, b)| (a - b).abs() < 1e-6));
    }

    #[test]
    fn the_models_calibration_holds_for_its_options_only() {
        let inv = inventory();
        let (mut m, _) = model(&inv, false);
        assert!(core(&m, &inv).calibration().is_none());
        let o = KnnOptions::default();
        m.calibration = Some(KnnCalibration {
            gloss_weight: o.gloss_weight,
            prior: o.prior,
            propagate: o.propagate,
            held_out: "document".into(),
            samples: 100,
            accuracy: 0.5,
            blocks: vec![Block {
                p: 0.5,
                accuracy: 0.5,
                count: 100,
            }],
        });
        let mut c = core(&m, &inv);
        let table = c.calibration().expect("default options: calibrated");
        assert_eq!(table.calibrate(METHOD, "method", 0.9), Some(0.5));
        c.options.prior = 0.2;
        assert!(c.calibration().is_none(), "another prior: not calibrated");
        c.options = KnnOptions {
            gloss_weight: 0.5,
            ..o
        };
        assert!(c.calibration().is_none());
    }
}
