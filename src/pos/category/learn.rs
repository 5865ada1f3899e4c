//! Training the category model: the instances of SemCor documents
//! ([`doc_examples`]), the averaged perceptron ([`train`]) and the
//! held-out choice of passes and margin ([`learn`]).

use super::*;

/// One training instance: a gold instance the model would decide.
#[derive(Clone, Debug)]
pub struct Example {
    /// Feature hashes.
    pub hashes: Vec<u64>,
    /// Allowed categories (bits).
    pub bits: u8,
    /// The tagger's (jackknifed) category.
    pub tagged: Pos,
    /// The gold sense's category.
    pub gold: Pos,
    /// The document's index, for held-out splits.
    pub doc: usize,
    /// The word (lower case), for the tuning runs' error lists.
    pub word: String,
}

/// How many perceptrons [`train`] averages, each visiting the examples
/// in its own shuffle. One perceptron's weights for a rare word follow
/// the order it met the word's few examples in: an error-driven update
/// moves all of the word's own features at once (`w`, `wt`, `wpt`,
/// `suf` …), and the sentence's context then cannot outvote them. With
/// one shuffle, re-learning on slightly different input (the sentence
/// splitter finding 380 more of SemCor's sentence starts) made `risk` a
/// verb in `He was right about the cancer risk.`. Eight averaged: held-out
/// training documents 94.50 → 94.63 % right (the grid's best either way;
/// its settings span 0.09 points with one shuffle), and that sentence
/// keeps its noun. `$WSD_POS_CATEGORY_BAGS` overrides it for the tuning
/// runs.
pub const BAGS: u64 = 8;

/// Averaged multiclass perceptron over `examples` (scores restricted to
/// the allowed categories), `passes` passes; [`BAGS`] of them, each in
/// its own deterministic shuffle, averaged.
pub fn train(examples: &[&Example], passes: usize) -> FxHashMap<u64, [f32; 4]> {
    let bags = bags();
    let mut sum: FxHashMap<u64, [f32; 4]> = FxHashMap::default();
    for seed in 1..=bags {
        for (h, w) in train_seeded(examples, passes, seed) {
            let s = sum.entry(h).or_default();
            for c in 0..4 {
                s[c] += w[c] / bags as f32;
            }
        }
    }
    sum
}

/// [`BAGS`], or `$WSD_POS_CATEGORY_BAGS` when set.
fn bags() -> u64 {
    bags_from_env("WSD_POS_CATEGORY_BAGS", BAGS)
}

/// How many perceptrons a learner averages: `$var` when it holds a
/// number, else `default`; at least one. Shared by this model and the
/// name model ([`crate::text::names::name_model_bags`]).
pub fn bags_from_env(var: &str, default: u64) -> u64 {
    std::env::var(var)
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(default)
        .max(1)
}

/// One averaged perceptron, its shuffle seeded with `seed`.
fn train_seeded(examples: &[&Example], passes: usize, seed: u64) -> FxHashMap<u64, [f32; 4]> {
    let mut w: FxHashMap<u64, [f64; 4]> = FxHashMap::default();
    let mut acc: FxHashMap<u64, [f64; 4]> = FxHashMap::default();
    let mut stamp: FxHashMap<u64, [u64; 4]> = FxHashMap::default();
    let mut order: Vec<usize> = (0..examples.len()).collect();
    let mut state: u64 = seed;
    let mut clock: u64 = 0;
    for _ in 0..passes {
        // Fisher–Yates with SplitMix64.
        for k in (1..order.len()).rev() {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            order.swap(k, (z % (k as u64 + 1)) as usize);
        }
        for &e in &order {
            let ex = examples[e];
            clock += 1;
            let mut s = [0f64; 4];
            for h in &ex.hashes {
                if let Some(x) = w.get(h) {
                    for c in 0..4 {
                        s[c] += x[c];
                    }
                }
            }
            let guess = Pos::ALL
                .into_iter()
                .filter(|p| ex.bits & (1 << p.index()) != 0)
                .max_by(|a, b| {
                    s[a.index()]
                        .total_cmp(&s[b.index()])
                        // Ties to the tagger's category.
                        .then((*a == ex.tagged).cmp(&(*b == ex.tagged)))
                })
                .unwrap_or(ex.gold);
            if guess == ex.gold {
                continue;
            }
            for h in &ex.hashes {
                let x = w.entry(*h).or_default();
                let a = acc.entry(*h).or_default();
                let st = stamp.entry(*h).or_default();
                for (c, d) in [(ex.gold.index(), 1.0), (guess.index(), -1.0)] {
                    a[c] += (clock - st[c]) as f64 * x[c];
                    st[c] = clock;
                    x[c] += d;
                }
            }
        }
    }
    w.iter()
        .map(|(h, x)| {
            let a = &acc[h];
            let st = &stamp[h];
            let mut out = [0f32; 4];
            for c in 0..4 {
                let total = a[c] + (clock - st[c]) as f64 * x[c];
                out[c] = (total / clock.max(1) as f64) as f32;
            }
            (*h, out)
        })
        .collect()
}

impl CategoryModel {
    /// A model from trained weights.
    pub fn from_weights(
        weights: FxHashMap<u64, [f32; 4]>,
        margin: f32,
        templates: u32,
    ) -> CategoryModel {
        CategoryModel {
            weights,
            margin,
            templates,
        }
    }

    /// The table as TSV, with feature names from `names` (features
    /// without a name, or whose weights all round to zero, are left out);
    /// `header` lines are written first as comments.
    pub fn to_tsv(&self, names: &FxHashMap<u64, String>, header: &str) -> String {
        let mut rows: Vec<(&String, [f32; 4])> = self
            .weights
            .iter()
            .filter_map(|(h, w)| Some((names.get(h)?, *w)))
            .filter(|(_, w)| w.iter().any(|x| x.abs() >= 0.005))
            .collect();
        rows.sort_by(|a, b| a.0.cmp(b.0));
        let mut out = String::new();
        for l in header.lines() {
            out.push_str("# ");
            out.push_str(l);
            out.push('\n');
        }
        out.push_str(&format!("# margin {}\n", self.margin));
        out.push_str(&format!("# templates {}\n", self.templates));
        let fmt = |x: f32| {
            let s = format!("{x:.2}");
            match s.as_str() {
                "0.00" | "-0.00" => "0".to_string(),
                _ => s,
            }
        };
        for (n, w) in rows {
            out.push_str(&format!(
                "{n}\t{}\t{}\t{}\t{}\n",
                fmt(w[0]),
                fmt(w[1]),
                fmt(w[2]),
                fmt(w[3])
            ));
        }
        out
    }
}

/// The training instances of one SemCor document (index `doc_index`),
/// tagged by `tagger` (a tagger not trained on it): every single-word gold
/// instance whose token the tagger gives a category (the pipeline's
/// function-tag rule included) and that WordNet has in two categories or
/// more, the gold one among them. brownv documents give their verb
/// instances only (none without [`LearnOptions::brownv`]). Feature names
/// go to `names`.
pub fn doc_examples(
    inv: &Inventory,
    tagger: &crate::pos::PosTagger,
    doc: &crate::corpus::Document,
    doc_index: usize,
    opts: &LearnOptions,
    names: &mut FxHashMap<u64, String>,
) -> Vec<Example> {
    let (text, spans) = crate::pipeline::rebuild_text(doc);
    let mut gold: FxHashMap<(usize, usize), Pos> = FxHashMap::default();
    let verbs_only = doc.id.starts_with("brownv");
    if verbs_only && !opts.brownv {
        return Vec::new();
    }
    for (s, sent) in doc.sentences.iter().enumerate() {
        for (i, t) in sent.tokens.iter().enumerate() {
            if let (Some(_), Some(p)) = (&t.instance, t.pos) {
                if !t.text.contains('_') && (!verbs_only || p == Pos::Verb) {
                    gold.insert(spans[s][i], p);
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut memo = CandidateMemo::leaving_out(own_counts(doc));
    for raw in crate::text::split_sentences(&text) {
        let words: Vec<&str> = raw.iter().map(|t| t.text.as_str()).collect();
        let want = wanted_probabilities(tagger, inv, &words, &mut memo);
        let (tags, probs) =
            tagger.tag_with_category_probabilities(&words, crate::pipeline::POS_TEMPERATURE, &want);
        let sent = Tagged {
            words: &words,
            tags: &tags,
            probs: &probs,
        };
        for (i, r) in raw.iter().enumerate() {
            let Some(&g) = gold.get(&(r.start, r.end)) else {
                continue;
            };
            let Some(tagged) = crate::pipeline::tag_category(inv, &tags[i], words[i]) else {
                continue;
            };
            let Some((bits, counts)) = memo.candidate(tagger, inv, words[i]) else {
                continue;
            };
            if bits & (1 << g.index()) == 0 {
                continue;
            }
            let mut f = Features {
                hashes: Vec::new(),
                names: Some(Vec::new()),
            };
            features(sent, i, tagged, bits, counts, opts.templates, &mut f);
            for (h, n) in f.hashes.iter().zip(f.names.unwrap_or_default()) {
                names.entry(*h).or_insert(n);
            }
            out.push(Example {
                hashes: f.hashes,
                bits,
                tagged,
                gold: g,
                doc: doc_index,
                word: words[i].to_lowercase(),
            });
        }
    }
    out
}

/// How often each (lemma, category) is a gold sense of `doc`: the share of
/// WordNet's tag counts (`cntlist`) that the document itself put there.
/// WordNet counted its tags on all of SemCor, so a rare word's counts *are*
/// its SemCor occurrences: `telescope` has one verb tag and no noun tag,
/// and a model that reads counts which include the instance it learns
/// from learns to trust them — then calls `a telescope` a verb in text
/// WordNet never counted. Each document's examples read the counts
/// without the document ([`CandidateMemo::leaving_out`]), as `ens`' prior
/// does.
pub fn own_counts(doc: &crate::corpus::Document) -> OwnCounts {
    let mut own = OwnCounts::default();
    for t in doc.sentences.iter().flat_map(|s| &s.tokens) {
        let mut seen: Vec<(&str, Pos)> = Vec::new();
        for k in &t.gold {
            let (Some((lemma, _)), Some(p)) =
                (k.split_once('%'), crate::wordnet::SenseKey::pos_of(k))
            else {
                continue;
            };
            if !seen.contains(&(lemma, p)) {
                seen.push((lemma, p));
                *own.entry((lemma.to_lowercase(), p)).or_default() += 1;
            }
        }
    }
    own
}

/// Accuracy of a model on examples: (model right, tagger right, total).
pub fn score(model: &CategoryModel, examples: &[&Example]) -> (usize, usize, usize) {
    (
        model_right(model, examples),
        tagger_right(examples),
        examples.len(),
    )
}

/// How many of the examples the model gets right.
fn model_right(model: &CategoryModel, examples: &[&Example]) -> usize {
    examples
        .iter()
        .filter(|e| model.decide(&e.hashes, e.tagged, e.bits) == e.gold)
        .count()
}

/// How many of the examples the tagger's own category gets right.
fn tagger_right(examples: &[&Example]) -> usize {
    examples.iter().filter(|e| e.tagged == e.gold).count()
}

/// How [`learn`] learns.
#[derive(Clone, Debug)]
pub struct LearnOptions {
    /// Jackknife folds of the tagger features.
    pub folds: usize,
    /// Optional feature templates ([`templates`]).
    pub templates: u32,
    /// Learn from brownv's verb instances too.
    pub brownv: bool,
    /// Keep only features seen in at least this many fitting examples
    /// (1: all).
    pub min_count: usize,
}

impl Default for LearnOptions {
    /// The shipped table's options.
    fn default() -> Self {
        LearnOptions {
            folds: 3,
            templates: templates::NEIGHBOUR_CATS | templates::WORD_NEXT_CAT,
            brownv: true,
            min_count: 1,
        }
    }
}

/// Learn the shipped table from SemCor's train split `docs`: jackknifed
/// tagger features (`folds` taggers, each trained on the other folds'
/// documents with the shipped tagger's settings), passes and margin chosen
/// on held-out training documents (each fifth in turn, the scores
/// summed), then the final model on every document. Returns the TSV and
/// a report of the tuning.
pub fn learn(
    inv: &Inventory,
    docs: &[crate::corpus::Document],
    opts: &LearnOptions,
    fold_cache: Option<&std::path::Path>,
) -> crate::Result<(String, String)> {
    let folds = opts.folds;
    use rayon::prelude::*;
    let mut report = String::new();
    let jackknife = crate::pos::Jackknife::train(inv, docs, folds, fold_cache)?;
    let per_doc: Vec<(Vec<Example>, FxHashMap<u64, String>)> = docs
        .par_iter()
        .enumerate()
        .map(|(i, d)| {
            let mut names = FxHashMap::default();
            let ex = doc_examples(inv, jackknife.fold(i % folds), d, i, opts, &mut names);
            (ex, names)
        })
        .collect();
    let mut names: FxHashMap<u64, String> = FxHashMap::default();
    let mut examples = Vec::new();
    for (ex, n) in per_doc {
        examples.extend(ex);
        for (h, s) in n {
            names.entry(h).or_insert(s);
        }
    }
    if opts.min_count > 1 {
        // Counted on the fitting documents only, so that the held-out
        // score stays honest.
        let mut seen: FxHashMap<u64, usize> = FxHashMap::default();
        for e in examples.iter().filter(|e| e.doc % 5 != 4) {
            for h in &e.hashes {
                *seen.entry(*h).or_default() += 1;
            }
        }
        for e in &mut examples {
            e.hashes
                .retain(|h| seen.get(h).is_some_and(|&n| n >= opts.min_count));
        }
        names.retain(|h, _| seen.get(h).is_some_and(|&n| n >= opts.min_count));
    }
    // Every fifth of the documents is held out in turn and the scores
    // summed: the grid is flat (one fifth, 17,822 examples, put its 30
    // settings within 0.17 points of each other, 30 examples), so a
    // single fifth picks by noise. With `min_count` the features were
    // counted without the last fifth, which alone stays honest.
    let held_out_fifths: Vec<usize> = if opts.min_count > 1 {
        vec![4]
    } else {
        (0..5).collect()
    };
    let fifth = |k: usize| -> (Vec<&Example>, Vec<&Example>) {
        examples.iter().partition(|e| e.doc % 5 != k)
    };
    const PASSES: [usize; 6] = [1, 2, 3, 5, 8, 12];
    const MARGINS: [f32; 5] = [0.0, 0.25, 0.5, 1.0, 2.0];
    // Model right per (passes, margin), summed over the fifths; the
    // tagger's own right answers do not depend on the setting.
    let mut grid = [[0usize; MARGINS.len()]; PASSES.len()];
    let (mut held_total, mut tagger_ok) = (0, 0);
    for &k in &held_out_fifths {
        let (fit, held) = fifth(k);
        held_total += held.len();
        tagger_ok += tagger_right(&held);
        let scores: Vec<[usize; MARGINS.len()]> = PASSES
            .par_iter()
            .map(|&passes| {
                let w = train(&fit, passes);
                MARGINS.map(|margin| {
                    let m = CategoryModel::from_weights(w.clone(), margin, opts.templates);
                    model_right(&m, &held)
                })
            })
            .collect();
        for (row, s) in grid.iter_mut().zip(scores) {
            for (cell, ok) in row.iter_mut().zip(s) {
                *cell += ok;
            }
        }
    }
    report.push_str(&format!(
        "{} examples ({} held out over {} fifths of the documents), {} features\n",
        examples.len(),
        held_total,
        held_out_fifths.len(),
        names.len()
    ));
    let pct = |x: usize| 100.0 * x as f64 / held_total.max(1) as f64;
    let mut best = (0usize, 1usize, 0f32);
    for (p, &passes) in PASSES.iter().enumerate() {
        for (m, &margin) in MARGINS.iter().enumerate() {
            let ok = grid[p][m];
            report.push_str(&format!(
                "passes {passes} margin {margin}: held-out {:.2} % (tagger {:.2} %, {held_total})\n",
                pct(ok),
                pct(tagger_ok)
            ));
            if ok > best.0 {
                best = (ok, passes, margin);
            }
        }
    }
    let (_, passes, margin) = best;
    if let Some(n) = std::env::var("WSD_POS_CATEGORY_SHOW")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
    {
        // The most frequent held-out errors of the chosen model (word,
        // gold → model, tagger), for the tuning runs.
        let (fit, held) = fifth(4);
        let m = CategoryModel::from_weights(train(&fit, passes), margin, opts.templates);
        let mut errs: FxHashMap<String, usize> = FxHashMap::default();
        for e in &held {
            let d = m.decide(&e.hashes, e.tagged, e.bits);
            if d != e.gold {
                let l = |p: Pos| LETTERS[p.index()];
                let key = format!("{}:{}->{}(t{})", e.word, l(e.gold), l(d), l(e.tagged));
                *errs.entry(key).or_default() += 1;
            }
        }
        let mut errs: Vec<_> = errs.into_iter().collect();
        errs.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let top: Vec<String> = errs
            .iter()
            .take(n)
            .map(|(k, c)| format!("{k} {c}"))
            .collect();
        report.push_str(&format!("held-out errors: {}\n", top.join(", ")));
    }
    let all: Vec<&Example> = examples.iter().collect();
    let model = CategoryModel::from_weights(train(&all, passes), margin, opts.templates);
    let bags = bags();
    let header = format!(
        "The category of targets WordNet has in several categories (crate::pos::category):\n\
         feature, weights of n, v, a, r. Learned on SemCor's train split ({} gold instances,\n\
         tagger features jackknifed over {folds} folds; {bags} perceptrons averaged, each in its own shuffle);\n\
         passes ({passes}) and margin chosen on\n\
         held-out training documents, each fifth in turn ({:.2} % right there, the tagger {:.2} %).\n\
         Generated by `cargo test --release --lib regenerate_pos_categories -- --ignored`\n\
         (src/pipeline/learn.rs); do not edit by hand.",
        examples.len(),
        pct(best.0),
        pct(tagger_ok),
    );
    report.push_str(&format!("chosen: passes {passes} margin {margin}\n"));
    Ok((model.to_tsv(&names, &header), report))
}
