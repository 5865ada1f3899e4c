//! Tests of the learners, and the ignored generators that write the
//! shipped front-end tables (`cargo test --release --lib regenerate_front_end_tables -- --ignored`).

use super::*;

#[test]
fn f_beta_weights_recall() {
    let (p, r, f1) = f_beta(5.0, 5.0, 0.0, 1.0);
    assert!((p - 0.5).abs() < 1e-9 && (r - 1.0).abs() < 1e-9);
    assert!((f1 - 2.0 / 3.0).abs() < 1e-9);
    let (_, _, f2) = f_beta(5.0, 5.0, 0.0, 2.0);
    assert!(f2 > f1);
    assert_eq!(f_beta(0.0, 0.0, 0.0, 1.0), (0.0, 0.0, 0.0));
}

/// A key one document's annotators skipped many times (and another
/// tagged): the token fit
/// makes it a non-target, the document fit (its document counted for
/// a few tokens' worth, judged by the other documents) keeps it.
#[test]
fn document_fit_discounts_one_documents_gap() {
    let mut counts = DocTargetCounts::default();
    for i in 0..40 {
        // Content words tagged in every document but for the odd miss.
        counts.insert((format!("w{i}"), 'n', false), vec![(9, 10), (5, 5), (3, 4)]);
        // Stop words the annotators leave alone.
        counts.insert((format!("the{i}"), 'n', false), vec![(0, 20), (1, 30)]);
    }
    for i in 0..20 {
        // Tagged wherever they occur but in one document that skipped
        // them all: judged by the others, the token count says no.
        counts.insert((format!("g{i}"), 'n', false), vec![(0, 30), (2, 2), (2, 2)]);
    }
    // A stop word that is a target here (as `not` is), tagged often.
    counts.insert(("not".into(), 'r', false), vec![(30, 40), (25, 30)]);
    counts.insert(("jazz".into(), 'n', false), vec![(0, 60), (1, 1)]);
    let jazz = ("jazz".into(), 'n', false);
    let (tokens, _, _) = fit_targets(&counts, 2.0, TargetFitting::Tokens);
    assert_eq!(tokens.overrides.get(&jazz), Some(&false));
    let (docs, pooled, fit) = fit_targets(&counts, 2.0, TargetFitting::Documents);
    assert_eq!(docs.overrides.get(&jazz), None, "{fit:?}");
    assert_eq!(pooled[&("not".to_string(), 'r', false)], (55, 70));
    assert!(fit.cap.is_finite(), "{fit:?}");
    assert!((fit.threshold - fit.score / 5.0).abs() < 1e-9);
    assert_eq!(capped((3, 12), 4.0), (1.0, 4.0));
    assert_eq!(capped((3, 4), 4.0), (3.0, 4.0));
}

/// Regenerate `src/text/lemmas.tsv` from SemCor's train split
/// (`cargo test --release --lib regenerate_lemmas -- --ignored`).
#[test]
#[ignore]
fn regenerate_lemmas() {
    use crate::corpus::{read_semcor, Split};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let inv = Inventory::open(Some(&root.join("wordnet/dict"))).expect("wordnet/dict");
    let docs = read_semcor(root.join("corpora/semcor3.0"), Split::Train).expect("SemCor");
    let tsv = learn_lemmas(&inv, &docs);
    eprintln!("{} overrides", tsv.lines().count() - 1);
    super::write_table("src/text/lemmas.tsv", tsv);
}

/// Two-fold check of the lemma table within SemCor's train split:
/// learned on one half of the documents, the lemmas of the other
/// half's sense-tagged single words chosen with and without it
/// (`cargo test --release --lib lemma_table_two_fold -- --ignored
/// --nocapture`).
#[test]
#[ignore]
fn lemma_table_two_fold() {
    use crate::corpus::{read_semcor, Split};
    use crate::text::lemma::{choose_lemma_with, LemmaTable};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let inv = Inventory::open(Some(&root.join("wordnet/dict"))).expect("wordnet/dict");
    let docs = read_semcor(root.join("corpora/semcor3.0"), Split::Train).expect("SemCor");
    let (mut with, mut without, mut n) = (0usize, 0usize, 0usize);
    for fold in 0..2 {
        let (fit, held) = split_documents(&docs, |i| i % 2 != fold);
        let table = LemmaTable::parse(&learn_lemmas(&inv, &fit)).unwrap();
        let empty = LemmaTable::default();
        for t in held
            .iter()
            .flat_map(|d| &d.sentences)
            .flat_map(|s| &s.tokens)
        {
            let (Some(_), Some(lemma), Some(pos)) = (&t.instance, &t.lemma, t.pos) else {
                continue;
            };
            if t.text.contains('_') || inv.morphy(&t.text, pos).len() < 2 {
                continue;
            }
            let gold = lemma.to_lowercase();
            n += 1;
            with += usize::from(
                choose_lemma_with(&inv, &t.text, pos, &table).as_deref() == Some(&gold),
            );
            without += usize::from(
                choose_lemma_with(&inv, &t.text, pos, &empty).as_deref() == Some(&gold),
            );
        }
    }
    eprintln!("lemma table, two folds: {n} words with several base forms; right with the table {with}, without {without}");
}

/// Regenerate `src/pos/categories.tsv` ([`crate::pos::category`]) from
/// SemCor's train split: jackknifed tagger features over 3 folds
/// (fold taggers cached in `$WSD_POS_FOLD_CACHE` when set), passes and
/// margin chosen on held-out training documents.
#[test]
#[ignore]
fn regenerate_pos_categories() {
    use crate::corpus::{read_semcor, Split};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let inv = Inventory::open(Some(&root.join("wordnet/dict"))).expect("wordnet/dict");
    let docs = read_semcor(root.join("corpora/semcor3.0"), Split::Train).expect("SemCor");
    let cache = std::env::var_os("WSD_POS_FOLD_CACHE").map(std::path::PathBuf::from);
    // `$WSD_POS_CATEGORY_TEMPLATES`, `$WSD_POS_CATEGORY_NO_BROWNV`,
    // `$WSD_POS_CATEGORY_MIN_COUNT` (feature pruning) and
    // `$WSD_POS_CATEGORY_SHOW=N` (the N most frequent held-out errors)
    // for the tuning runs.
    let mut opts = crate::pos::category::LearnOptions::default();
    if let Ok(t) = std::env::var("WSD_POS_CATEGORY_TEMPLATES") {
        opts.templates = t.parse().expect("a number");
    }
    opts.brownv = std::env::var_os("WSD_POS_CATEGORY_NO_BROWNV").is_none();
    if let Ok(n) = std::env::var("WSD_POS_CATEGORY_MIN_COUNT") {
        opts.min_count = n.parse().expect("a number");
    }
    let (tsv, report) =
        crate::pos::category::learn(&inv, &docs, &opts, cache.as_deref()).expect("learning");
    eprintln!("{report}");
    super::write_table("src/pos/categories.tsv", tsv);
}

/// Regenerate `src/pos/probe.tsv`, the encoder category probe, from
/// SemCor's train split read by MiniLM-L6 (f32; about 5 minutes on two
/// cores). The threshold is [`crate::pos::probe::DEFAULT_THRESHOLD`]
/// (chosen with `examples/pos_probe_lab.rs`; see `crate::pos::probe`).
#[test]
#[ignore]
fn regenerate_pos_probe() {
    use crate::pos::probe::{CategoryProbe, DEFAULT_THRESHOLD};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let (inv, tagger, docs) = super::checkout_train_resources();
    let encoder = crate::encoder::Encoder::load_with_precision(
        &root.join("models/all-MiniLM-L6-v2"),
        crate::encoder::Precision::F32,
    )
    .expect("models/all-MiniLM-L6-v2");
    let n = docs.len();
    let examples = super::probe::probe_examples(&inv, &tagger, &encoder, &docs, &|i| {
        if i % 20 == 0 {
            eprintln!("{i}/{n} documents");
        }
    });
    eprintln!("{} examples", examples.len());
    let probe = CategoryProbe::fit(
        &examples,
        encoder.fingerprint(),
        DEFAULT_THRESHOLD,
        100,
        1e-4,
    );
    let right = examples
        .iter()
        .filter(|e| {
            let p = probe.probabilities(&e.vector, e.allowed);
            p[e.gold.index()] >= p.into_iter().fold(0.0, f32::max)
        })
        .count();
    eprintln!(
        "probe alone right on {right} of its {} examples",
        examples.len()
    );
    super::write_table("src/pos/probe.tsv", probe.to_tsv());
}

/// Regenerate `src/pipeline/split_particles.tsv` from SemCor's train
/// split, tagged by the shipped tagger as the multiword evidence is.
#[test]
#[ignore]
fn regenerate_split_particles() {
    let (inv, tagger, docs) = super::checkout_train_resources();
    let tsv = super::learn_split_particles(&inv, &tagger, &docs);
    eprintln!(
        "{} particle verbs",
        tsv.lines().filter(|l| !l.starts_with('#')).count()
    );
    super::write_table("src/pipeline/split_particles.tsv", tsv);
}

/// Regenerate `src/text/name_units.tsv` from SemCor's train split.
#[test]
#[ignore]
fn regenerate_name_units() {
    use crate::corpus::{read_semcor, Split};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let inv = Inventory::open(Some(&root.join("wordnet/dict"))).expect("wordnet/dict");
    let docs = read_semcor(root.join("corpora/semcor3.0"), Split::Train).expect("SemCor");
    // Tagged by jackknifed taggers, as the name model (see crate::pos::Jackknife).
    let cache = std::env::var_os("WSD_POS_FOLD_CACHE").map(std::path::PathBuf::from);
    let folds = crate::pos::Jackknife::train(&inv, &docs, 3, cache.as_deref()).expect("folds");
    let tsv = learn_name_units(&folds, &docs, 2);
    eprintln!("{}", tsv.lines().take(5).collect::<Vec<_>>().join("\n"));
    super::write_table("src/text/name_units.tsv", tsv);
}

/// The fitting of the target generators: `$WSD_TARGET_FITTING=tokens`
/// for the rule before round 6, else [`TargetFitting::Documents`].
fn target_fitting() -> TargetFitting {
    match std::env::var("WSD_TARGET_FITTING").as_deref() {
        Ok("tokens") => TargetFitting::Tokens,
        _ => TargetFitting::Documents,
    }
}

/// Two-fold check of the target table within SemCor's train split:
/// learned on the even documents, judged on the odd ones with mfs on
/// their plain text (as `wsd eval --raw`), and the other way round;
/// prints the summed front-end breakdown, coverage, F1 and target
/// precision (`cargo test --release --lib target_table_two_fold --
/// --ignored --nocapture`; `$WSD_TARGET_FITTING`, `$WSD_TARGET_BETA`;
/// `$WSD_TWO_FOLD_ERRORS=FILE` writes the held-out front-end mismatches
/// as `--frontend-errors` does).
#[test]
#[ignore]
fn target_table_two_fold() {
    use crate::eval::{evaluate, Input};
    use crate::pipeline::RawBreakdown;
    use std::sync::Arc;
    let (inv, tagger, docs) = super::checkout_train_resources();
    let mwe = MweMatcher::new(&inv);
    let beta: f64 = std::env::var("WSD_TARGET_BETA")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(2.0);
    let fitting = target_fitting();
    let pipeline = |targets| Pipeline {
        inv: &inv,
        tagger: &tagger,
        mwe: Some(&mwe),
        targets,
        heads: true,
        pos_alternatives: None,
        pos_categories: Some(crate::pos::category::CategoryModel::shipped()),
        pos_probe: None,
    };
    let mfs = crate::disambig::mfs::FirstSense;
    let (mut b, mut found, mut correct, mut instances) = (RawBreakdown::default(), 0, 0.0, 0);
    let (mut targets_on_tagged_docs, mut extra_on_tagged_docs) = (0, 0);
    let mut rows = Vec::new();
    for fold in 0..2 {
        let (fit, held) = split_documents(&docs, |i| i % 2 != fold);
        let (table, _, f) = learn_targets(
            &pipeline(TargetSelection::All),
            (&tagger).into(),
            &fit,
            beta,
            fitting,
        );
        eprintln!("fold {fold}: {f:?}, {} overrides", table.overrides.len());
        let p = pipeline(TargetSelection::Table(Arc::new(table)));
        let data = crate::eval::Dataset::from_documents(held);
        let ev = evaluate(&mfs, &inv, &data.docs, &data.gold, Input::Raw(&p), &|_| {});
        let fb = ev.raw_breakdown.clone().unwrap_or_default();
        b.merge(&fb);
        found += ev.raw_found.unwrap_or(0);
        correct += ev.report.overall.recall / 100.0 * ev.instances as f64;
        instances += ev.instances;
        // Target precision on documents with every POS tagged.
        for doc in data.docs.iter().filter(|d| !verbs_only(d)) {
            let (text, spans) = rebuild_text(doc);
            let analysed = p.analyse(&doc.id, &text, 0, 0);
            let (_, db) = crate::pipeline::align_raw(doc, &spans, &analysed);
            let n: usize = analysed
                .sentences
                .iter()
                .flat_map(|s| &s.tokens)
                .map(|t| t.instance.is_some() as usize + t.head.is_some() as usize)
                .sum();
            targets_on_tagged_docs += n;
            extra_on_tagged_docs += db.extra_targets;
        }
        rows.extend(ev.raw_alignment);
    }
    eprintln!(
        "two-fold ({fitting:?}, beta {beta}): {instances} instances, found {found} ({:.2}%), \
         mfs P {:.2} R {:.2} F1 {:.2}; matched {} missed_target {} wrong_pos {} wrong_lemma {} multiword {}; \
         target precision (all-POS documents) {:.2}% ({} extra of {})",
        100.0 * found as f64 / instances as f64,
        100.0 * correct / found as f64,
        100.0 * correct / instances as f64,
        200.0 * correct / (found + instances) as f64,
        b.matched,
        b.missed_target,
        b.wrong_pos,
        b.wrong_lemma,
        b.multiword,
        100.0 * (1.0 - extra_on_tagged_docs as f64 / targets_on_tagged_docs as f64),
        extra_on_tagged_docs,
        targets_on_tagged_docs,
    );
    if let Some(path) = std::env::var_os("WSD_TWO_FOLD_ERRORS") {
        let mut out = String::new();
        for r in rows
            .iter()
            .filter(|r| r.outcome != crate::pipeline::RawOutcome::Matched)
        {
            let pos = |p: Option<Pos>| p.map(|p| p.letter().to_string()).unwrap_or_default();
            out.push_str(&format!(
                "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                r.instance,
                r.outcome.name(),
                r.gold_text,
                r.gold_lemma,
                pos(r.gold_pos),
                r.pipeline_text.as_deref().unwrap_or(""),
                r.pipeline_lemma.as_deref().unwrap_or(""),
                pos(r.pipeline_pos),
                if r.pipeline_target { "yes" } else { "no" },
            ));
        }
        std::fs::write(path, out).unwrap();
    }
}

/// Regenerate `src/text/mwe_evidence.tsv` and `src/text/targets.tsv`
/// from SemCor's train split (see the module docs).
#[test]
#[ignore]
fn regenerate_front_end_tables() {
    use crate::text::MweMode;
    let (inv, tagger, docs) = super::checkout_train_resources();
    let t = std::time::Instant::now();
    // The multiword evidence is counted on text tagged by jackknifed
    // taggers (see crate::pos::Jackknife), the targets on text tagged by
    // the shipped tagger (see the module docs of crate::pipeline::learn);
    // `$WSD_MWE_TAGGER` / `$WSD_TARGETS_TAGGER` = `shipped` / `jackknife`
    // to try the other.
    let cache = std::env::var_os("WSD_POS_FOLD_CACHE").map(std::path::PathBuf::from);
    let folds = crate::pos::Jackknife::train(&inv, &docs, 3, cache.as_deref()).expect("folds");
    let choose = |var: &str, default: &str| -> crate::pos::DocTagger {
        match std::env::var(var).as_deref().unwrap_or(default) {
            "shipped" => (&tagger).into(),
            _ => (&folds).into(),
        }
    };
    let greedy = MweMatcher::with_mode(&inv, MweMode::Greedy);
    let (ev, fit) = learn_mwe_evidence(&inv, choose("WSD_MWE_TAGGER", "shipped"), &greedy, &docs);
    eprintln!("mwe: {fit:?} ({:.1} s)", t.elapsed().as_secs_f64());
    super::write_table("src/text/mwe_evidence.tsv", ev.to_tsv());
    let ev: &'static MweEvidence = Box::leak(Box::new(ev));
    let learned = MweMatcher::with_mode(&inv, MweMode::Learned).with_evidence(ev);
    let beta: f64 = std::env::var("WSD_TARGET_BETA")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(2.0);
    let pipeline = Pipeline {
        inv: &inv,
        tagger: &tagger,
        mwe: Some(&learned),
        targets: TargetSelection::All,
        heads: false,
        pos_alternatives: None,
        pos_categories: Some(crate::pos::category::CategoryModel::shipped()),
        pos_probe: None,
    };
    let (table, counts, fit) = learn_targets(
        &pipeline,
        choose("WSD_TARGETS_TAGGER", "shipped"),
        &docs,
        beta,
        target_fitting(),
    );
    eprintln!(
        "targets: {fit:?}, {} overrides ({:.1} s)",
        table.overrides.len(),
        t.elapsed().as_secs_f64()
    );
    super::write_table("src/text/targets.tsv", targets_tsv(&table, &counts, &fit));
    let mut rep: Vec<_> = lemma_rule_report(&inv, &docs).into_iter().collect();
    rep.sort();
    for (p, [rule, surface, most, first, total]) in rep {
        eprintln!(
            "lemma {p}: rule {rule} surface {surface} most-tagged {most} morphy-first {first} of {total}"
        );
    }
}
