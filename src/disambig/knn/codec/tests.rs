use super::*;
use crate::disambig::calibration::Block;
use crate::disambig::knn::{Entry, GlossPooling, GlossScope, SenseEntry};
use crate::wordnet::Pos;

fn params(d: usize) -> KnnParams {
    KnnParams {
        encoder: "enc".into(),
        hidden_size: d,
        layers: "last".into(),
        pooled_layers: 1,
        examples: false,
        example_contexts: 0,
        example_synsets: 0,
        monosemous: 0,
        monosemous_contexts: 0,
        monosemous_synsets: 0,
        gloss: GlossScope::None,
        gloss_pooling: GlossPooling::Lemma,
        keep_instances: true,
        documents: 1,
        sentences: 2,
        tagged_tokens: 3,
        encoder_fingerprint: String::new(),
        sense_min: 2,
        sense_vectors: 1,
        exemplars: 2,
        training_data: "semcor:train".into(),
        gloss_xml: vec!["a.data.xml".into()],
    }
}

fn ex(id: &str) -> Exemplar {
    Exemplar {
        id: id.into(),
        text: format!("the *{id}* here"),
    }
}

fn toy() -> KnnModel {
    KnnModel {
        params: params(3),
        dim: 3,
        entries: vec![
            Entry {
                synset: SynsetId {
                    pos: Pos::Noun,
                    offset: 8420278,
                },
                count: 2,
                ctx: Some(vec![1.0, 0.0, 0.0]),
                gloss: Some(vec![0.0, 1.0, 0.0]),
                exemplars: vec![0, 1],
                resultant: Some(1.9),
            },
            Entry {
                synset: SynsetId {
                    pos: Pos::Verb,
                    offset: 42,
                },
                count: 0,
                ctx: None,
                gloss: Some(vec![0.0, 0.0, 1.0]),
                exemplars: vec![],
                resultant: None,
            },
            Entry {
                synset: SynsetId {
                    pos: Pos::Adv,
                    offset: 7,
                },
                count: 1,
                ctx: Some(vec![0.6, 0.8, 0.0]),
                gloss: None,
                exemplars: vec![1],
                resultant: Some(1.0),
            },
        ],
        senses: vec![SenseEntry {
            key: "bank%1:14:00::".into(),
            count: 2,
            ctx: vec![0.0, 0.6, 0.8],
            exemplars: vec![0, 1],
            resultant: Some(1.5),
        }],
        instances: vec![(0, vec![1.0, 0.0, 0.0]), (2, vec![0.0, 1.0, 0.0])],
        instance_sentences: vec![0, 1],
        instance_docs: vec![0, 0],
        sentences: vec![ex("d1.s1.t1"), ex("d1.s2.t4")],
        calibration: Some(KnnCalibration {
            gloss_weight: 0.3,
            prior: 0.1,
            propagate: true,
            held_out: "document".into(),
            samples: 120,
            accuracy: 0.6,
            blocks: vec![
                Block {
                    p: 0.4,
                    accuracy: 0.3,
                    count: 60,
                },
                Block {
                    p: 0.8,
                    accuracy: 0.9,
                    count: 60,
                },
            ],
        }),
    }
}

/// A format 2 body, as `wsd` wrote it before sense-key vectors (the
/// writer of that version, kept here to test that such files load).
fn to_bytes_v2(m: &KnnModel) -> Vec<u8> {
    let meta = MetaV2 {
        dim: m.dim as u32,
        entries: m.meta_entries(),
        instance_entry: m.instances.iter().map(|(e, _)| *e).collect(),
    };
    let meta = model_io::to_body(META_TAG_V2, &meta).unwrap();
    let f = |v: Vec<f32>| le_bytes(v.into_iter());
    let ctx = f(m
        .entries
        .iter()
        .filter_map(|e| e.ctx.clone())
        .flatten()
        .collect());
    let gloss = f(m
        .entries
        .iter()
        .filter_map(|e| e.gloss.clone())
        .flatten()
        .collect());
    let inst = f(m.instances.iter().flat_map(|(_, v)| v.clone()).collect());
    fn t(b: &[u8], d: usize) -> TensorView<'_> {
        TensorView::new(Dtype::F32, vec![b.len() / 4 / d, d], b).unwrap()
    }
    safetensors::serialize(
        [
            ("ctx", t(&ctx, m.dim)),
            ("gloss", t(&gloss, m.dim)),
            ("instances", t(&inst, m.dim)),
            (
                "meta",
                TensorView::new(Dtype::U8, vec![meta.len()], &meta).unwrap(),
            ),
        ],
        &None,
    )
    .unwrap()
}

/// `m`'s body with its metadata replaced by `meta` under `tag`.
fn with_meta<T: Serialize>(m: &KnnModel, tag: &[u8; 8], meta: &T) -> Vec<u8> {
    let ours = m.to_bytes();
    let st = SafeTensors::deserialize(&ours).unwrap();
    let meta = model_io::to_body(tag, meta).unwrap();
    let names = ["ctx", "gloss", "instances", "senses"];
    let mut tensors: Vec<(&str, TensorView<'_>)> =
        names.iter().map(|&n| (n, st.tensor(n).unwrap())).collect();
    tensors.push((
        "meta",
        TensorView::new(Dtype::U8, vec![meta.len()], &meta).unwrap(),
    ));
    safetensors::serialize(tensors, &None).unwrap()
}

/// The metadata of `m`'s body.
fn meta_of(m: &KnnModel) -> Meta {
    let ours = m.to_bytes();
    let st = SafeTensors::deserialize(&ours).unwrap();
    model_io::from_body(
        Path::new("toy"),
        META_TAG,
        st.tensor("meta").unwrap().data(),
    )
    .unwrap()
}

/// A format 3 body, as `wsd` wrote it before the resultant lengths:
/// the current body with the format 3 metadata in its place.
fn to_bytes_v3(m: &KnnModel) -> Vec<u8> {
    let meta = meta_of(m);
    let v3 = MetaV3 {
        dim: meta.dim,
        entries: meta.entries,
        instance_entry: meta.instance_entry,
        senses: meta.senses,
        entry_exemplars: meta.entry_exemplars,
        instance_sentences: meta.instance_sentences,
        sentences: meta.sentences,
        calibration: meta.calibration,
    };
    with_meta(m, META_TAG_V3, &v3)
}

#[test]
fn format_4_bodies_load_without_instance_documents() {
    let m = toy();
    let meta = meta_of(&m);
    let v4 = MetaV4 {
        dim: meta.dim,
        entries: meta.entries,
        instance_entry: meta.instance_entry,
        senses: meta.senses,
        entry_exemplars: meta.entry_exemplars,
        instance_sentences: meta.instance_sentences,
        sentences: meta.sentences,
        calibration: meta.calibration,
        entry_resultants: meta.entry_resultants,
        sense_resultants: meta.sense_resultants,
    };
    let old = KnnModel::from_bytes(m.params.clone(), &with_meta(&m, META_TAG_V4, &v4)).unwrap();
    let mut want = m.clone();
    want.instance_docs.clear();
    assert_eq!(old, want);
    let new = KnnModel::from_bytes(m.params.clone(), &m.to_bytes()).unwrap();
    assert_eq!(new.instance_docs, vec![0, 0]);
}

#[test]
fn instance_documents_must_be_one_per_instance() {
    let m = toy();
    let mut meta = meta_of(&m);
    meta.instance_docs = vec![0];
    let err = KnnModel::from_bytes(m.params.clone(), &with_meta(&m, META_TAG, &meta))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("1 instance documents for 2 instances"),
        "{err}"
    );
}

#[test]
fn format_3_bodies_load_without_resultants() {
    let m = toy();
    let old = KnnModel::from_bytes(m.params.clone(), &to_bytes_v3(&m)).unwrap();
    let mut want = m.clone();
    for e in &mut want.entries {
        e.resultant = None;
    }
    for s in &mut want.senses {
        s.resultant = None;
    }
    want.instance_docs.clear();
    assert_eq!(old, want);
    // what format 4 adds is kept
    let new = KnnModel::from_bytes(m.params.clone(), &m.to_bytes()).unwrap();
    assert_eq!(new.entries[0].resultant, Some(1.9));
    assert_eq!(new.senses[0].resultant, Some(1.5));
}

#[test]
fn resultant_lengths_are_checked() {
    let check = |m: KnnModel, what: &str| {
        let e = KnnModel::from_bytes(m.params.clone(), &m.to_bytes())
            .unwrap_err()
            .to_string();
        assert!(e.contains(what), "{e}");
    };
    // longer than the sum of its two unit vectors can be
    let mut m = toy();
    m.entries[0].resultant = Some(2.5);
    check(m, "resultant length 2.5 of synset 8420278-n (2 instances)");
    let mut m = toy();
    m.entries[1].resultant = Some(0.5);
    check(m, "no context vector");
    let mut m = toy();
    m.senses[0].resultant = Some(f32::NAN);
    check(m, "resultant length NaN of sense key bank%1:14:00::");
    let mut m = toy();
    m.senses[0].resultant = Some(-1.0);
    check(m, "sense key");
}

/// `m` without what format 2 could not hold.
fn as_v2(mut m: KnnModel) -> KnnModel {
    m.senses.clear();
    m.sentences.clear();
    m.instance_sentences.clear();
    m.instance_docs.clear();
    m.calibration = None;
    for e in &mut m.entries {
        e.exemplars.clear();
        e.resultant = None;
    }
    m
}

#[test]
fn format_2_bodies_load_with_nothing_added() {
    let m = toy();
    let old = KnnModel::from_bytes(m.params.clone(), &to_bytes_v2(&m)).unwrap();
    assert_eq!(old, as_v2(m.clone()));
    // and the same through a mapped file
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("v2.wsd");
    let params = serde_json::to_value(&m.params).unwrap();
    model_io::write_model(&p, METHOD, "sha", params, &to_bytes_v2(&m)).unwrap();
    let v = map_with_checksum(&p, "sha").unwrap();
    assert!(v.is_mapped());
    assert!(v.calibration.is_none() && v.senses.is_empty());
    assert_eq!(v.to_model(), as_v2(m));
    // the v2 tag with a v3 layout (five tensors) is refused
    let mut bytes = toy().to_bytes();
    let at = bytes
        .windows(8)
        .position(|w| w == META_TAG)
        .expect("the tag is in the body");
    bytes[at..at + 8].copy_from_slice(META_TAG_V2);
    assert!(KnnModel::from_bytes(toy().params, &bytes).is_err());
}

#[test]
fn format_3_additions_are_checked() {
    let check = |m: KnnModel, what: &str| {
        let e = KnnModel::from_bytes(m.params.clone(), &m.to_bytes())
            .unwrap_err()
            .to_string();
        assert!(e.contains(what), "{e}");
    };
    let mut m = toy();
    m.senses[0].exemplars = vec![7];
    check(m, "sentence 7 of 2");
    let mut m = toy();
    m.instance_sentences = vec![0];
    check(m, "1 instance sentences for 2 instances");
    let mut m = toy();
    m.senses.push(m.senses[0].clone());
    check(m, "twice");
    let mut m = toy();
    m.calibration.as_mut().unwrap().blocks[1].accuracy = 0.1;
    check(m, "monotone");
    let mut m = toy();
    m.calibration.as_mut().unwrap().blocks[0].p = f64::NAN;
    check(m, "monotone");
}

#[test]
fn body_round_trip() {
    let m = toy();
    let bytes = m.to_bytes();
    let back = KnnModel::from_bytes(m.params.clone(), &bytes).unwrap();
    assert_eq!(back, m);
}

#[test]
fn truncated_and_garbled_bodies_are_errors_not_panics() {
    let m = toy();
    let bytes = m.to_bytes();
    for n in 0..bytes.len() {
        assert!(
            KnnModel::from_bytes(m.params.clone(), &bytes[..n]).is_err(),
            "prefix of {n} bytes accepted"
        );
    }
    let mut extra = bytes.clone();
    extra.push(0);
    assert!(KnnModel::from_bytes(m.params.clone(), &extra).is_err());
    // every single-byte corruption either decodes or errors; none panics
    for i in 0..bytes.len() {
        for x in [0xffu8, 0x80, 0x01] {
            let mut b = bytes.clone();
            b[i] ^= x;
            let _ = KnnModel::from_bytes(m.params.clone(), &b);
        }
    }
    // header/body width mismatch
    let e = KnnModel::from_bytes(params(4), &bytes)
        .unwrap_err()
        .to_string();
    assert!(e.contains("dimensions"), "{e}");
    // a safetensors blob that is not a knn body
    let other = safetensors::serialize(
        [(
            "x",
            TensorView::new(Dtype::F32, vec![1], &[0u8; 4][..]).unwrap(),
        )],
        &None,
    )
    .unwrap();
    let e = KnnModel::from_bytes(m.params.clone(), &other).unwrap_err();
    assert!(matches!(e, Error::Model { .. }), "{e}");
    // huge safetensors header length: refused, not allocated
    let mut huge = (u64::MAX >> 1).to_le_bytes().to_vec();
    huge.extend_from_slice(&bytes[8..]);
    assert!(KnnModel::from_bytes(m.params.clone(), &huge).is_err());
}

#[test]
fn a_model_file_is_mapped_with_aligned_vectors_and_checked() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("knn.wsd");
    let m = toy();
    let params = serde_json::to_value(&m.params).unwrap();
    model_io::write_model(&p, METHOD, "sha", params.clone(), &m.to_bytes()).unwrap();
    let v = map_with_checksum(&p, "sha").unwrap();
    assert!(v.is_mapped(), "vectors copied, not mapped");
    assert_eq!(v.to_model(), m);
    assert_eq!(v.ctx(2), Some(&[0.6f32, 0.8, 0.0][..]));
    let e = map_with_checksum(&p, "other").err().unwrap().to_string();
    assert!(e.contains("another WordNet"), "{e}");
    // a non-finite vector is refused, naming the file
    let mut nan = toy();
    nan.entries[0].ctx = Some(vec![f32::NAN, 0.0, 0.0]);
    model_io::write_model(&p, METHOD, "sha", params, &nan.to_bytes()).unwrap();
    match map_with_checksum(&p, "sha") {
        Err(Error::Model { path, msg }) => {
            assert_eq!(path, p);
            assert!(msg.contains("non-finite"), "{msg}");
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
}
