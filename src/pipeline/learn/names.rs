//! Learning [`NameModel`] (`src/text/name_model.tsv`) and the name table
//! (`src/text/names.tsv`) from SemCor's train split: every capitalised
//! word the tagger calls a proper noun, and every multiword name run,
//! that is exactly one gold instance, with its gold class (`person`,
//! `group`, `location`, or `other` for a single word whose gold lemma is
//! not one of them). The table's cut-off (or no table), which words the
//! model learns from, whether it sees the word itself, its epochs and
//! its feature count cut-off are chosen together on held-out train
//! documents ([`held_out_grid`]: even documents read odd ones and the
//! other way round), and the table and model then learned on the whole
//! split.
//!
//! The documents are tagged as new text would be, by jackknifed taggers
//! ([`crate::pos::Jackknife`]; the grid's halves and folds both keep
//! each document away from the tagger that reads it). Tagged by the
//! shipped tagger, trained on them, `Boston` came back `NN` (a word
//! WordNet has: lemma `boston`) and never reached the model, which then
//! learned from names alone and on new text, where the tagger calls
//! `Boston` or `Virginia` `NNP`, made them `location` or `person`
//! (SemCor test, `mfs --raw`: 760 wrong lemmas, 675 on jackknifed tags).
//! The model also reads how often WordNet says annotators tagged the
//! word's noun senses (`tc=` buckets: `government`, much used, against
//! `boston`'s few against `mike`'s one), counted without the training
//! document's own instances ([`crate::pos::category::own_counts`]), so
//! that it learns what the count says on text WordNet never counted:
//! held-out train words right 83.75 % → 84.53 % (of 6,161). On the old
//! tags no table and no `w=` feature won; on jackknifed ones no table
//! still, but the word's own feature.
//!
//! ```text
//! cargo test --release --lib regenerate_name_model -- --ignored --nocapture
//! ```

use rayon::prelude::*;

use super::super::{choose_lemma, common_only_name, name_lemma, rebuild_text, Pipeline};
use super::{learn_name_units, learn_names, verbs_only};
use crate::corpus::Document;
use crate::pos::DocTagger;
use crate::text::names::{
    unit_features, word_features_less, NameMemory, NameModel, NameTable, NameUnits, NAME_CLASSES,
    OTHER,
};
use crate::text::{name_runs, split_sentences};
use crate::wordnet::Pos;

/// One example: features, gold class, allowed classes.
pub type Example = (Vec<String>, usize, [bool; 4]);

/// The examples of `docs`: single words (not in `table`) and multiword
/// name runs, each with the class the pipeline's rules give it without
/// the model (for the baseline): [`common_only_name`], the WordNet lemma,
/// [`name_lemma`] for words; the `units` table, else `person`, for runs.
/// Runs the table decides are left out when `undecided_runs`.
pub fn name_examples(
    pipeline: &Pipeline,
    tagger: DocTagger,
    docs: &[Document],
    table: &NameTable,
    units: &NameUnits,
    undecided_runs: bool,
) -> DocExamples {
    let per_doc: Vec<_> = docs
        .par_iter()
        .filter(|d| !verbs_only(d))
        .map(|doc| {
            let pipeline = pipeline.with_tagger(tagger.for_doc(doc));
            doc_examples(&pipeline, doc, table, units, undecided_runs)
        })
        .collect();
    let (mut w, mut u) = (Vec::new(), Vec::new());
    for (a, b) in per_doc {
        w.extend(a);
        u.extend(b);
    }
    (w, u)
}

fn class_of(lemma: &str) -> usize {
    NAME_CLASSES[..OTHER]
        .iter()
        .position(|c| *c == lemma)
        .unwrap_or(OTHER)
}

/// Word and run examples, each with the rules' class.
pub type DocExamples = (Vec<(Example, usize)>, Vec<(Example, usize)>);

fn doc_examples(
    pipeline: &Pipeline,
    doc: &Document,
    table: &NameTable,
    units: &NameUnits,
    undecided_runs: bool,
) -> DocExamples {
    let inv = pipeline.inv;
    let (text, spans) = rebuild_text(doc);
    let gold = super::gold_lemmas_by_span(doc, &spans);
    let own = crate::pos::category::own_counts(doc);
    let mut memory = NameMemory::default();
    let (mut wex, mut uex) = (Vec::new(), Vec::new());
    for raw in split_sentences(&text) {
        let words: Vec<&str> = raw.iter().map(|t| t.text.as_str()).collect();
        let tags = pipeline.tagger.tag(&words);
        let matches = pipeline.sentence_matches(&words, &tags);
        super::super::remember_names(&mut memory, &words, &tags, &matches);
        let runs = name_runs(&words, &tags);
        let mut inside = vec![false; words.len()];
        for m in &matches {
            inside[m.start..m.end].iter_mut().for_each(|x| *x = true);
            if !runs.contains(&(m.start, m.end)) {
                continue;
            }
            let Some(&g) = gold.get(&(raw[m.start].start, raw[m.end - 1].end)) else {
                continue;
            };
            let y = class_of(&g.to_lowercase());
            let decided = units.decided(&words[m.start..m.end]);
            if y == OTHER || (undecided_runs && decided.is_some()) {
                continue;
            }
            let base = class_of(decided.unwrap_or("person"));
            let f = unit_features(&words, m.start, m.end);
            uex.push(((f, y, [true, true, true, false]), base));
        }
        for i in 0..words.len() {
            let (w, t) = (words[i], tags[i].as_str());
            if inside[i]
                || !matches!(t, "NNP" | "NNPS")
                || !w.chars().next().is_some_and(char::is_uppercase)
                || table.get(w).is_some()
            {
                continue;
            }
            let Some(&g) = gold.get(&(raw[i].start, raw[i].end)) else {
                continue;
            };
            let pos = Pos::from_tag(t);
            let wordnet = pos.and_then(|p| choose_lemma(inv, w, p));
            if wordnet.is_none() && name_lemma(w, t).is_none() {
                continue;
            }
            let y = class_of(&g.to_lowercase());
            if y == OTHER && wordnet.is_none() {
                continue;
            }
            let rule = common_only_name(inv, w, t)
                .or_else(|| pos.and_then(|p| choose_lemma(inv, w, p)))
                .or_else(|| name_lemma(w, t))
                .unwrap_or_default();
            let f = word_features_less(inv, &words, &tags, i, &memory, &own);
            wex.push((
                (f, y, [true, true, true, wordnet.is_some()]),
                class_of(&rule),
            ));
        }
        crate::text::names::remember_cues(&mut memory, &words, &tags);
    }
    (wex, uex)
}

/// The shipped name table and model, chosen together on held-out train
/// documents ([`held_out_grid`]: learned on the even train documents and
/// read on the odd ones, and the other way round; the best setting by
/// words and runs right, ties to the earlier setting) and then learned
/// on all of `docs` (the train split). Returns the TSVs of
/// `src/text/names.tsv` (header only when the grid prefers no table) and
/// `src/text/name_model.tsv`, the held-out figures in their headers.
pub fn learn_name_model(
    pipeline: &Pipeline,
    tagger: DocTagger,
    docs: &[Document],
) -> (String, String) {
    let (s, h) = best_setting(&held_out_grid(pipeline, tagger, docs)).expect("a non-empty grid");
    let pct = |r: (usize, usize)| 100.0 * r.0 as f64 / r.1.max(1) as f64;
    let figures = format!(
        "held-out train documents (even read odd and the other way round): single words\n\
         # {:.2}% of {} right, runs {:.2}% of {}",
        pct(h.0),
        h.0 .1,
        pct(h.1),
        h.1 .1
    );
    eprintln!("name setting {s:?}: {}", figures.replace("\n# ", " "));
    let rows = learn_names(tagger, docs, s.min_hits.unwrap_or(1));
    let table = cut_table(&rows, s.min_hits);
    let names = match s.min_hits {
        Some(_) => rows,
        None => format!(
            "# No name table: proper names are the name model's (src/text/name_model.tsv), which\n\
             # reads held-out train documents better without one. Chosen on {figures}.\n\
             # Generated by `cargo test --release --lib regenerate_name_model -- --ignored`\n\
             # (see src/pipeline/learn/names.rs); do not edit by hand.\n"
        ),
    };
    let (w, u) = name_examples(
        pipeline,
        tagger,
        docs,
        &NameTable::default(),
        NameUnits::shipped(),
        false,
    );
    let train = training_examples(&w, &u, &table, s);
    let model = NameModel::train(&train, s.epochs, s.min_count);
    let header = format!(
        "# Proper names the name tables do not decide: averaged perceptron weights per feature\n\
         # (person, group, location, other), see crate::text::names. Learned on SemCor's train\n\
         # split as jackknifed taggers tag it ({} examples of {} words and {} runs; name table cut-off {:?}, words the table\n\
         # has too: {}, the word's own w= feature dropped: {}), {} epochs, features seen at\n\
         # least {} times. Chosen on {figures}.\n\
         # Generated by `cargo test --release --lib regenerate_name_model -- --ignored`; do\n\
         # not edit by hand.\n",
        train.len(),
        w.len(),
        u.len(),
        s.min_hits,
        s.every_word,
        s.no_word,
        s.epochs,
        s.min_count
    );
    (names, model.to_tsv(&header))
}

/// The lemma the name table `rows` (the TSV of [`learn_names`], cut at
/// `min_hits`) and, where it is silent, the pipeline's rules without the
/// model give each single-word proper name of `docs` the tagger calls
/// `NNP`/`NNPS`: returns (correct, total) over gold instances, and the
/// table's own (decided, decided wrong).
pub fn table_accuracy(
    pipeline: &Pipeline,
    docs: &[Document],
    rows: &str,
    min_hits: u32,
) -> ((usize, usize), (usize, usize)) {
    let table: rustc_hash::FxHashMap<&str, &str> = rows
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f.len() >= 3 && f[2].parse::<u32>().ok()? >= min_hits).then(|| (f[0], f[1]))
        })
        .collect();
    let inv = pipeline.inv;
    let (mut right, mut total, mut decided, mut wrong) = (0, 0, 0, 0);
    for doc in docs.iter().filter(|d| !verbs_only(d)) {
        let (text, spans) = rebuild_text(doc);
        let gold = super::gold_lemmas_by_span(doc, &spans);
        for raw in split_sentences(&text) {
            let words: Vec<&str> = raw.iter().map(|t| t.text.as_str()).collect();
            let tags = pipeline.tagger.tag(&words);
            for (i, tok) in raw.iter().enumerate() {
                let (w, t) = (words[i], tags[i].as_str());
                if !matches!(t, "NNP" | "NNPS") || !w.chars().next().is_some_and(char::is_uppercase)
                {
                    continue;
                }
                let Some(&g) = gold.get(&(tok.start, tok.end)) else {
                    continue;
                };
                let g = g.to_lowercase();
                let from_table = table.get(w.to_lowercase().as_str()).map(|s| s.to_string());
                let lemma = from_table.clone().or_else(|| {
                    common_only_name(inv, w, t)
                        .or_else(|| Pos::from_tag(t).and_then(|p| choose_lemma(inv, w, p)))
                        .or_else(|| name_lemma(w, t))
                });
                let ok = lemma.as_deref() == Some(g.as_str());
                total += 1;
                right += ok as usize;
                if from_table.is_some() {
                    decided += 1;
                    wrong += !ok as usize;
                }
            }
        }
    }
    ((right, total), (decided, wrong))
}

/// The word of a word example (its `w=` feature).
fn example_word(f: &[String]) -> Option<&str> {
    f.iter().find_map(|x| x.strip_prefix("w="))
}

/// The last and first words of a run example (its `Ul=` / `Uf=`
/// features).
fn example_run_ends(f: &[String]) -> (&str, &str) {
    let get = |p: &str| f.iter().find_map(|x| x.strip_prefix(p)).unwrap_or("");
    (get("Ul="), get("Uf="))
}

/// One setting of the name table and model chosen together
/// ([`held_out_grid`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NameSetting {
    /// The name table's cut-off (`None`: no table).
    pub min_hits: Option<u32>,
    /// Train the model on every name word, also those the table decides.
    pub every_word: bool,
    /// Leave the word's own identity (`w=`) out of the model's features,
    /// so that it learns from context and shape only.
    pub no_word: bool,
    /// The model's feature count cut-off.
    pub min_count: u32,
    /// The model's epochs.
    pub epochs: usize,
}

/// Held-out accuracy of one [`NameSetting`]: (single words right, single
/// words), (runs right, runs).
pub type HeldOut = ((usize, usize), (usize, usize));

/// Examples of one half of train for [`held_out_grid`]: words and runs
/// with no table (all of them), the name table TSV (min 1) and units
/// learned on it.
pub struct Half {
    words: Vec<(Example, usize)>,
    runs: Vec<(Example, usize)>,
    names: String,
    units: NameUnits,
}

impl Half {
    /// The examples and tables of `docs`.
    pub fn new(pipeline: &Pipeline, tagger: DocTagger, docs: &[Document]) -> Half {
        let units = NameUnits::parse(&learn_name_units(tagger, docs, 2)).expect("units");
        let (words, runs) =
            name_examples(pipeline, tagger, docs, &NameTable::default(), &units, false);
        Half {
            words,
            runs,
            names: learn_names(tagger, docs, 1),
            units,
        }
    }
}

/// The name table of `rows` ([`learn_names`]' TSV) cut at `min_hits`.
pub fn cut_table(rows: &str, min_hits: Option<u32>) -> NameTable {
    let Some(min) = min_hits else {
        return NameTable::default();
    };
    let mut t = NameTable::default();
    for l in rows.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = l.split('\t').collect();
        if f.len() >= 3 && f[2].parse::<u32>().is_ok_and(|h| h >= min) {
            t.names.insert(f[0].into(), f[1].into());
        }
    }
    t
}

/// The setting of `grid` with the most words and runs right together,
/// the earliest of equals (so that the choice does not depend on how
/// the grid's threads finish).
pub fn best_setting(grid: &[(NameSetting, HeldOut)]) -> Option<(NameSetting, HeldOut)> {
    let right = |h: &HeldOut| h.0 .0 + h.1 .0;
    grid.iter()
        .copied()
        .fold(None, |b: Option<(NameSetting, HeldOut)>, x| match b {
            Some(b) if right(&b.1) >= right(&x.1) => Some(b),
            _ => Some(x),
        })
}

/// The model's training examples under setting `s`: the `words` the
/// name `table` leaves undecided (all with [`NameSetting::every_word`])
/// and the `runs`, without the `w=` feature with
/// [`NameSetting::no_word`].
fn training_examples(
    words: &[(Example, usize)],
    runs: &[(Example, usize)],
    table: &NameTable,
    s: NameSetting,
) -> Vec<Example> {
    let strip = |f: &Vec<String>| -> Vec<String> {
        f.iter()
            .filter(|x| !(s.no_word && x.starts_with("w=")))
            .cloned()
            .collect()
    };
    words
        .iter()
        .filter(|((f, _, _), _)| {
            s.every_word || example_word(f).is_none_or(|w| table.get(w).is_none())
        })
        .chain(runs)
        .map(|((f, y, a), _)| (strip(f), *y, *a))
        .collect()
}

/// Learn the table and model of `s` on `fit` and read `held` as the
/// pipeline does: a word the table has gets its lemma, another the
/// model's class; a run its units' lemma (learned on `fit`), else the
/// model's class.
pub fn held_out(fit: &Half, held: &Half, s: NameSetting) -> HeldOut {
    let table = cut_table(&fit.names, s.min_hits);
    let train = training_examples(&fit.words, &fit.runs, &table, s);
    let model = NameModel::train(&train, s.epochs, s.min_count);
    let mut w = (0, 0);
    for ((f, y, allowed), _) in &held.words {
        let c = match example_word(f).and_then(|x| table.get(x)) {
            Some(l) => Some(class_of(l)),
            None => model.best(f, *allowed),
        };
        w.0 += (c == Some(*y)) as usize;
        w.1 += 1;
    }
    let mut r = (0, 0);
    for ((f, y, allowed), _) in &held.runs {
        let (last, first) = example_run_ends(f);
        let c = match fit.units.decided(&[first, last]) {
            Some(l) => Some(class_of(l)),
            None => model.best(f, *allowed),
        };
        r.0 += (c == Some(*y)) as usize;
        r.1 += 1;
    }
    (w, r)
}

/// The held-out grid over the name table's cut-off and the model's
/// settings: learned on the even train documents and read on the odd
/// ones, and the other way round; each setting's summed (words, runs).
pub fn held_out_grid(
    pipeline: &Pipeline,
    tagger: DocTagger,
    docs: &[Document],
) -> Vec<(NameSetting, HeldOut)> {
    let (even, odd) = super::split_documents(docs, |i| i % 2 == 0);
    let (a, b) = (
        Half::new(pipeline, tagger, &even),
        Half::new(pipeline, tagger, &odd),
    );
    let mut settings = Vec::new();
    for min_hits in [Some(1), Some(2), Some(3), None] {
        for every_word in [false, true] {
            if min_hits.is_none() && every_word {
                continue;
            }
            for no_word in [false, true] {
                for min_count in [1, 2, 3] {
                    for epochs in [1, 2, 3, 5, 8, 12] {
                        settings.push(NameSetting {
                            min_hits,
                            every_word,
                            no_word,
                            min_count,
                            epochs,
                        });
                    }
                }
            }
        }
    }
    settings
        .into_par_iter()
        .map(|s| {
            let (x, y) = (held_out(&a, &b, s), held_out(&b, &a, s));
            let add = |p: (usize, usize), q: (usize, usize)| (p.0 + q.0, p.1 + q.1);
            (s, (add(x.0, y.0), add(x.1, y.1)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pipeline `wsd tag` runs by default, over the given resources.
    fn default_pipeline<'a>(
        inv: &'a crate::wordnet::Inventory,
        tagger: &'a crate::pos::PosTagger,
        mwe: &'a crate::text::MweMatcher,
    ) -> Pipeline<'a> {
        Pipeline {
            inv,
            tagger,
            mwe: Some(mwe),
            targets: super::super::super::TargetSelection::Content,
            heads: true,
            pos_alternatives: None,
            pos_categories: Some(crate::pos::category::CategoryModel::shipped()),
        }
    }

    /// The best setting counts words and runs together, and the earlier
    /// of two equal ones wins; a cut-off of none means an empty table.
    #[test]
    fn best_setting_counts_words_and_runs() {
        let s = |epochs| NameSetting {
            min_hits: None,
            every_word: false,
            no_word: true,
            min_count: 1,
            epochs,
        };
        let grid = [
            (s(1), ((80, 100), (10, 20))),
            (s(2), ((84, 100), (6, 20))),
            (s(3), ((81, 100), (10, 20))),
            (s(5), ((84, 100), (7, 20))),
        ];
        assert_eq!(
            best_setting(&grid).unwrap().0.epochs,
            3,
            "91 right beats 90, and comes first"
        );
        assert_eq!(
            best_setting(&grid[..2]).unwrap().0.epochs,
            1,
            "90 and 90: the first"
        );
        assert_eq!(best_setting(&grid[..2]).unwrap().1 .0 .0, 80);
        let tie = [(s(8), ((5, 9), (1, 2))), (s(12), ((4, 9), (2, 2)))];
        assert_eq!(best_setting(&tie).unwrap().0.epochs, 8, "a tie: the first");
        assert!(best_setting(&[]).is_none());
        let rows = "# h\njohn\tperson\t30\t31\nrome\tlocation\t2\t3\n";
        assert!(cut_table(rows, None).names.is_empty());
        assert_eq!(cut_table(rows, Some(3)).get("John"), Some("person"));
        assert_eq!(cut_table(rows, Some(3)).get("Rome"), None);
        assert_eq!(cut_table(rows, Some(2)).get("Rome"), Some("location"));
    }

    /// The jackknifed taggers the name model learns from: 3 folds, as the
    /// category model's (cached in `$WSD_POS_FOLD_CACHE` when set).
    fn fold_taggers(inv: &crate::wordnet::Inventory, docs: &[Document]) -> crate::pos::Jackknife {
        let cache = std::env::var_os("WSD_POS_FOLD_CACHE").map(std::path::PathBuf::from);
        crate::pos::Jackknife::train(inv, docs, 3, cache.as_deref()).expect("fold taggers")
    }

    /// The held-out grid of [`held_out_grid`], best first.
    #[test]
    #[ignore]
    fn name_setting_grid() {
        use crate::text::{MweMatcher, MweMode};
        let (inv, tagger, docs) = super::super::checkout_train_resources();
        let mwe = MweMatcher::with_mode(&inv, MweMode::Learned);
        let pipeline = default_pipeline(&inv, &tagger, &mwe);
        let folds = fold_taggers(&inv, &docs);
        let mut grid = held_out_grid(&pipeline, (&folds).into(), &docs);
        let score = |h: &HeldOut| (h.0 .0 + h.1 .0) as f64 / (h.0 .1 + h.1 .1).max(1) as f64;
        grid.sort_by(|x, y| score(&y.1).total_cmp(&score(&x.1)));
        for (s, h) in &grid {
            eprintln!(
                "{s:?}: words {}/{} = {:.4}, runs {}/{} = {:.4}, all {:.4}",
                h.0 .0,
                h.0 .1,
                h.0 .0 as f64 / h.0 .1.max(1) as f64,
                h.1 .0,
                h.1 .1,
                h.1 .0 as f64 / h.1 .1.max(1) as f64,
                score(h)
            );
        }
        assert!(grid[0].1 .0 .1 > 0);
    }

    /// Regenerate `src/text/names.tsv` and `src/text/name_model.tsv` (see
    /// the module docs).
    #[test]
    #[ignore]
    fn regenerate_name_model() {
        use crate::text::{MweMatcher, MweMode};
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let (inv, tagger, docs) = super::super::checkout_train_resources();
        let mwe = MweMatcher::with_mode(&inv, MweMode::Learned);
        let pipeline = default_pipeline(&inv, &tagger, &mwe);
        let t = std::time::Instant::now();
        let folds = fold_taggers(&inv, &docs);
        let (names, tsv) = learn_name_model(&pipeline, (&folds).into(), &docs);
        let rows = |t: &str| t.lines().filter(|l| !l.starts_with('#')).count();
        eprintln!(
            "{} names, {} features ({:.1} s)",
            rows(&names),
            rows(&tsv),
            t.elapsed().as_secs_f64()
        );
        std::fs::write(root.join("src/text/names.tsv"), names).unwrap();
        std::fs::write(root.join("src/text/name_model.tsv"), tsv).unwrap();
    }

    /// The name table's generalisation gap: learned on the even train
    /// documents and read on the odd ones, against learned on all of
    /// train (the odd ones in sample), for each minimum count.
    #[test]
    #[ignore]
    fn name_table_generalisation() {
        use crate::text::{MweMatcher, MweMode};
        let (inv, tagger, docs) = super::super::checkout_train_resources();
        let mwe = MweMatcher::with_mode(&inv, MweMode::Learned);
        let pipeline = default_pipeline(&inv, &tagger, &mwe);
        let (even, odd) = super::super::split_documents(&docs, |i| i % 2 == 0);
        let half = learn_names(&tagger, &even, 1);
        let all = learn_names(&tagger, &docs, 1);
        for min_hits in 1..=6 {
            for (name, rows) in [
                ("even half (held out)", &half),
                ("all train (in sample)", &all),
            ] {
                let ((r, n), (d, w)) = table_accuracy(&pipeline, &odd, rows, min_hits);
                eprintln!(
                    "min_hits {min_hits} table from {name}: odd-half names {r}/{n} = {:.4}, table decided {d} wrong {w}",
                    r as f64 / n.max(1) as f64
                );
            }
        }
        let none = table_accuracy(&pipeline, &odd, "", 1).0;
        eprintln!("no table: {}/{}", none.0, none.1);
        assert!(none.1 > 0);
    }
}
