//! From gold instances and answers to a [`Report`].

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Instant;

use super::frontend::{Aligned, FrontEndClass};
use super::{
    Comparison, Confusion, DatasetInfo, Example, FrontEnd, FrontEndRow, LemmaLoss, MethodReport,
    Metrics, Report, Row, REPORT_VERSION,
};
use crate::disambig::{candidates, Decision, FallbackReason, Prediction};
use crate::eval::framework::{ALL_BUT_DEV, DEV_SET};
use crate::eval::Dataset;
use crate::wordnet::{Inventory, Pos};

/// How many lemmas a method's "losing the most points" list keeps.
pub const LEMMAS: usize = 12;
/// How many confusions each of those lemmas shows.
pub const CONFUSIONS: usize = 3;
/// How many disagreement examples a comparison keeps for each side.
pub const EXAMPLES: usize = 5;
/// How many examples each front-end class keeps.
pub const FRONT_END_EXAMPLES: usize = 5;

/// The bins of [`MethodReport::by_candidates`]: (label, lowest, highest).
pub const CANDIDATE_BINS: &[(&str, usize, usize)] = &[
    ("0 (not in WordNet)", 0, 0),
    ("1", 1, 1),
    ("2", 2, 2),
    ("3–4", 3, 4),
    ("5–8", 5, 8),
    ("9–16", 9, 16),
    ("17+", 17, usize::MAX),
];

/// The two rows of [`MethodReport::by_sense`].
pub const MFS_LABEL: &str = "first sense (MFS)";
/// See [`MFS_LABEL`].
pub const LFS_LABEL: &str = "other senses (LFS)";
/// The decision label of an unanswered instance.
pub const NO_ANSWER: &str = "no answer";

/// One gold instance, as the report needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    /// Index of its data set in [`Instances::datasets`].
    pub dataset: usize,
    /// Instance id.
    pub id: String,
    /// The gold lemma (empty when the data set gives none).
    pub lemma: String,
    /// The gold POS.
    pub pos: Option<Pos>,
    /// The gold keys.
    pub gold: Vec<String>,
    /// How many candidate senses its lemma has (as the methods see them).
    pub candidates: usize,
    /// Is a gold key WordNet's first sense of the lemma?
    pub gold_is_first: bool,
    /// The sentence (tokens joined by spaces, multiwords spelt with spaces).
    pub sentence: Arc<str>,
    /// The target's byte span in [`Instance::sentence`].
    pub span: (usize, usize),
    /// With the raw input: what the pipeline made of it.
    pub front_end: Option<FrontEndClass>,
    /// With the raw input: the pipeline token it was aligned to
    /// ([`Aligned::found`]).
    pub found: Option<String>,
}

impl Instance {
    /// The credit of `answer`: 1 when it is a gold key, 0 otherwise (and
    /// `None` when unanswered) — the scorer's `|S ∩ G| / |S|` for one key.
    pub fn credit(&self, answer: Option<&Prediction>) -> Option<f64> {
        answer.map(|p| if self.gold.contains(&p.key) { 1.0 } else { 0.0 })
    }

    /// `lemma.p` (`bank.n`).
    pub fn lemma_pos(&self) -> String {
        match self.pos {
            Some(p) => format!("{}.{}", self.lemma, p.letter()),
            None => self.lemma.clone(),
        }
    }
}

/// Where an instance is: its sentence, its span there, its lemma and POS.
type Located<'a> = (Arc<str>, (usize, usize), Option<&'a str>, Option<Pos>);

/// A lemma's totals: credit, wrong, unanswered, confusions.
type LemmaAcc = (Acc, usize, usize, BTreeMap<(String, Option<String>), usize>);

/// Every gold instance of the data sets of a report, in gold-file order.
#[derive(Clone, Debug, Default)]
pub struct Instances {
    /// The data sets.
    pub datasets: Vec<DatasetInfo>,
    /// The instances, data set after data set.
    pub items: Vec<Instance>,
    /// Per data set: instance id → index in `items`.
    index: Vec<HashMap<String, usize>>,
}

impl Instances {
    /// Add the gold instances of `data` as data set `name` and return its
    /// index. `front_end` gives the front-end class of each instance id
    /// (raw input; see [`super::frontend::by_instance`]).
    pub fn add_dataset(
        &mut self,
        inv: &Inventory,
        name: &str,
        data: &Dataset,
        front_end: Option<&HashMap<String, Aligned>>,
    ) -> usize {
        let d = self.datasets.len();
        // Where each instance is, and its sentence's text.
        let mut located: HashMap<&str, Located<'_>> = HashMap::new();
        for doc in &data.docs {
            for s in &doc.sentences {
                let mut text = String::new();
                let mut spans = Vec::with_capacity(s.tokens.len());
                for (i, t) in s.tokens.iter().enumerate() {
                    if i > 0 {
                        text.push(' ');
                    }
                    let start = text.len();
                    text.push_str(&t.text.replace('_', " "));
                    spans.push((start, text.len()));
                }
                let text: Arc<str> = text.into();
                for (t, span) in s.tokens.iter().zip(spans) {
                    if let Some(id) = &t.instance {
                        located.insert(id, (text.clone(), span, t.lemma.as_deref(), t.pos));
                    }
                }
            }
        }
        let mut index = HashMap::new();
        let mut count = 0;
        for (id, gold) in data.gold.iter() {
            let (sentence, span, lemma, pos) = match located.get(id) {
                Some((s, span, l, p)) => (s.clone(), *span, *l, *p),
                None => (Arc::from(""), (0, 0), None, None),
            };
            // Without a token, the lemma and POS of the gold key.
            let key = gold
                .first()
                .and_then(|k| k.parse::<crate::wordnet::SenseKey>().ok());
            let lemma = lemma
                .map(str::to_string)
                .or_else(|| key.as_ref().map(|k| k.lemma.to_string()))
                .unwrap_or_default();
            let pos = pos.or_else(|| {
                gold.first()
                    .and_then(|k| crate::wordnet::SenseKey::pos_of(k))
            });
            let (n, first) = match pos {
                Some(p) if !lemma.is_empty() => {
                    let c = candidates(inv, &lemma, p);
                    (c.len(), c.first().map(|s| s.key.clone()))
                }
                _ => (0, None),
            };
            index.insert(id.to_string(), self.items.len());
            self.items.push(Instance {
                dataset: d,
                id: id.to_string(),
                lemma,
                pos,
                gold: gold.to_vec(),
                candidates: n,
                gold_is_first: first.is_some_and(|f| gold.contains(&f)),
                sentence,
                span,
                front_end: front_end.and_then(|m| m.get(id)).map(|a| a.class),
                found: front_end
                    .and_then(|m| m.get(id))
                    .and_then(|a| a.found.clone()),
            });
            count += 1;
        }
        self.index.push(index);
        self.datasets.push(DatasetInfo {
            name: name.to_string(),
            instances: count,
        });
        d
    }

    /// The number of instances.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// A method's answers lined up with [`Instances::items`]: one list of
    /// `(instance id, prediction)` per data set index (answers to ids the
    /// gold lacks are dropped, as the scorer ignores them).
    pub fn answers(
        &self,
        per_dataset: &[(usize, &[(String, Prediction)])],
    ) -> Vec<Option<Prediction>> {
        let mut out = vec![None; self.items.len()];
        for &(d, answers) in per_dataset {
            for (id, p) in answers {
                if let Some(&i) = self.index[d].get(id) {
                    out[i] = Some(p.clone());
                }
            }
        }
        out
    }
}

/// One method's answers to [`Instances`].
#[derive(Clone, Debug, Default)]
pub struct MethodRun {
    /// The method or chain.
    pub name: String,
    /// Seconds it ran.
    pub seconds: f64,
    /// Its answer to each instance ([`Instances::answers`]).
    pub answers: Vec<Option<Prediction>>,
}

/// Credit totals of a group of instances.
#[derive(Default, Clone, Copy)]
struct Acc {
    instances: usize,
    answered: usize,
    correct: f64,
}

impl Acc {
    fn add(&mut self, credit: Option<f64>) {
        self.instances += 1;
        if let Some(c) = credit {
            self.answered += 1;
            self.correct += c;
        }
    }
    fn metrics(&self) -> Metrics {
        Metrics::new(self.instances, self.answered, self.correct)
    }
}

/// The rank of a decision label, for ordering rows.
fn decision_rank(label: &str) -> usize {
    const ORDER: [Decision; 5] = [
        Decision::Decided,
        Decision::Tie,
        Decision::Fallback {
            reason: FallbackReason::NoEvidence,
        },
        Decision::Fallback {
            reason: FallbackReason::BackOff,
        },
        Decision::SingleSense,
    ];
    ORDER
        .iter()
        .position(|d| d.label() == label)
        .unwrap_or(ORDER.len())
}

/// The gloss of a sense key (empty when WordNet lacks it).
pub fn gloss(inv: &Inventory, key: &str) -> String {
    inv.sense_by_key(key)
        .map(|(s, _, _)| s.definition.clone())
        .unwrap_or_default()
}

/// Build the report of `runs` on `instances` (see the [module
/// docs](super)).
pub fn analyse(inv: &Inventory, title: &str, instances: &Instances, runs: &[MethodRun]) -> Report {
    let t = Instant::now();
    let items = &instances.items;
    let total = items.len();
    let raw = items.iter().any(|i| i.front_end.is_some());
    let methods: Vec<MethodReport> = runs
        .iter()
        .map(|run| method_report(inv, instances, run))
        .collect();
    let mut comparisons = Vec::new();
    for i in 0..runs.len() {
        for j in i + 1..runs.len() {
            comparisons.push(compare(inv, instances, &runs[i], &runs[j]));
        }
    }
    let front_end = raw.then(|| front_end(items));
    Report {
        version: REPORT_VERSION,
        title: title.to_string(),
        input: if raw { "raw" } else { "gold" }.to_string(),
        datasets: instances.datasets.clone(),
        instances: total,
        methods,
        comparisons,
        front_end,
        analysis_seconds: t.elapsed().as_secs_f64(),
    }
}

/// A row per data set and, when the framework's development set is one
/// of three or more, [`ALL_BUT_DEV`]: the others together, the held-out
/// figure (as `wsd eval --framework` prints it).
fn dataset_rows(names: &[&str], accs: &[Acc]) -> Vec<(String, Acc)> {
    let mut out: Vec<(String, Acc)> = names
        .iter()
        .map(|n| n.to_string())
        .zip(accs.iter().copied())
        .collect();
    let dev = DEV_SET;
    if names.len() > 2 && names.contains(&dev) {
        let mut rest = Acc::default();
        for (name, acc) in names.iter().zip(accs) {
            if *name != dev {
                rest.instances += acc.instances;
                rest.answered += acc.answered;
                rest.correct += acc.correct;
            }
        }
        out.push((ALL_BUT_DEV.to_string(), rest));
    }
    out
}

fn method_report(inv: &Inventory, instances: &Instances, run: &MethodRun) -> MethodReport {
    let items = &instances.items;
    let total = items.len();
    let mut overall = Acc::default();
    let mut by_pos: BTreeMap<usize, Acc> = BTreeMap::new();
    let mut by_dataset = vec![Acc::default(); instances.datasets.len()];
    let mut by_sense = [Acc::default(); 2];
    let mut by_candidates = vec![Acc::default(); CANDIDATE_BINS.len()];
    let mut by_decision: BTreeMap<(usize, &str), Acc> = BTreeMap::new();
    let mut by_decider: BTreeMap<(usize, String), Acc> = BTreeMap::new();
    let mut by_front_end: BTreeMap<FrontEndClass, Acc> = BTreeMap::new();
    let mut lemmas: HashMap<(String, Option<Pos>), LemmaAcc> = HashMap::new();
    for (inst, answer) in items.iter().zip(&run.answers) {
        let answer = answer.as_ref();
        let credit = inst.credit(answer);
        overall.add(credit);
        // Instances of no known POS get the last row (index 4), so that
        // the rows add up to the total.
        let pos_row = inst.pos.map_or(Pos::ALL.len(), |p| p.index());
        by_pos.entry(pos_row).or_default().add(credit);
        by_dataset[inst.dataset].add(credit);
        by_sense[usize::from(!inst.gold_is_first)].add(credit);
        if let Some(b) = CANDIDATE_BINS
            .iter()
            .position(|&(_, lo, hi)| (lo..=hi).contains(&inst.candidates))
        {
            by_candidates[b].add(credit);
        }
        let (label, decider) = match answer {
            Some(p) => (p.decision.label(), p.decided_by()),
            None => (NO_ANSWER, NO_ANSWER.to_string()),
        };
        let rank = decision_rank(label);
        by_decision.entry((rank, label)).or_default().add(credit);
        by_decider.entry((rank, decider)).or_default().add(credit);
        if let Some(c) = inst.front_end {
            by_front_end.entry(c).or_default().add(credit);
        }
        let e = lemmas
            .entry((inst.lemma.clone(), inst.pos))
            .or_insert_with(|| (Acc::default(), 0, 0, BTreeMap::new()));
        e.0.add(credit);
        match credit {
            Some(c) if c >= 1.0 => {}
            Some(_) => e.1 += 1,
            None => e.2 += 1,
        }
        if credit.is_none_or(|c| c < 1.0) {
            *e.3.entry((inst.gold.join(" "), answer.map(|p| p.key.clone())))
                .or_default() += 1;
        }
    }
    let rows = |accs: Vec<(String, Acc)>| -> Vec<Row> {
        accs.into_iter()
            .filter(|(_, a)| a.instances > 0)
            .map(|(label, a)| Row {
                label,
                metrics: a.metrics(),
            })
            .collect()
    };
    let mut lost: Vec<LemmaLoss> = lemmas
        .into_iter()
        .filter(|(_, (a, ..))| a.correct < a.instances as f64)
        .map(|((lemma, pos), (a, wrong, unanswered, conf))| {
            let mut confusions: Vec<Confusion> = conf
                .into_iter()
                .map(|((gold, chosen), count)| Confusion {
                    gold_gloss: gold
                        .split(' ')
                        .next()
                        .map(|k| gloss(inv, k))
                        .unwrap_or_default(),
                    chosen_gloss: chosen.as_deref().map(|k| gloss(inv, k)).unwrap_or_default(),
                    gold,
                    chosen,
                    count,
                })
                .collect();
            confusions.sort_by_key(|c| std::cmp::Reverse(c.count));
            confusions.truncate(CONFUSIONS);
            LemmaLoss {
                lemma,
                pos: pos.map(|p| p.letter().to_string()).unwrap_or_default(),
                instances: a.instances,
                wrong,
                unanswered,
                points: 100.0 * (a.instances as f64 - a.correct) / total.max(1) as f64,
                confusions,
            }
        })
        .collect();
    lost.sort_by(|x, y| {
        y.points
            .total_cmp(&x.points)
            .then_with(|| x.lemma.cmp(&y.lemma))
            .then_with(|| x.pos.cmp(&y.pos))
    });
    lost.truncate(LEMMAS);
    MethodReport {
        method: run.name.clone(),
        seconds: run.seconds,
        overall: overall.metrics(),
        by_pos: rows(
            by_pos
                .into_iter()
                .map(|(p, a)| {
                    let name = Pos::ALL.get(p).map_or(crate::eval::NO_POS, |&p| p.name());
                    (name.to_string(), a)
                })
                .collect(),
        ),
        by_dataset: if instances.datasets.len() > 1 {
            let names: Vec<&str> = instances.datasets.iter().map(|d| d.name.as_str()).collect();
            rows(dataset_rows(&names, &by_dataset))
        } else {
            Vec::new()
        },
        by_sense: rows(vec![
            (MFS_LABEL.to_string(), by_sense[0]),
            (LFS_LABEL.to_string(), by_sense[1]),
        ]),
        by_candidates: rows(
            CANDIDATE_BINS
                .iter()
                .map(|(l, ..)| l.to_string())
                .zip(by_candidates)
                .collect(),
        ),
        by_decision: rows(
            by_decision
                .into_iter()
                .map(|((_, l), a)| (l.to_string(), a))
                .collect(),
        ),
        by_decider: rows(by_decider.into_iter().map(|((_, l), a)| (l, a)).collect()),
        by_front_end: rows(
            by_front_end
                .into_iter()
                .map(|(c, a)| (c.label().to_string(), a))
                .collect(),
        ),
        lemmas: lost,
    }
}

fn compare(inv: &Inventory, instances: &Instances, a: &MethodRun, b: &MethodRun) -> Comparison {
    let mut c = Comparison {
        a: a.name.clone(),
        b: b.name.clone(),
        instances: instances.len(),
        ..Comparison::default()
    };
    let (mut a_examples, mut b_examples) = (Vec::new(), Vec::new());
    for (inst, (pa, pb)) in instances.items.iter().zip(a.answers.iter().zip(&b.answers)) {
        let right = |p: &Option<Prediction>| inst.credit(p.as_ref()).is_some_and(|c| c >= 1.0);
        let (ra, rb) = (right(pa), right(pb));
        let key = |p: &Option<Prediction>| p.as_ref().map(|p| p.key.clone());
        if key(pa) != key(pb) {
            c.disagree += 1;
        }
        match (ra, rb) {
            (true, true) => c.both_right += 1,
            (true, false) => c.a_only += 1,
            (false, true) => c.b_only += 1,
            (false, false) => c.both_wrong += 1,
        }
        let list = match (ra, rb) {
            (true, false) => &mut a_examples,
            (false, true) => &mut b_examples,
            _ => continue,
        };
        if list.len() >= EXAMPLES {
            continue;
        }
        let g = |k: &Option<String>| k.as_deref().map(|k| gloss(inv, k)).unwrap_or_default();
        let (ka, kb) = (key(pa), key(pb));
        list.push(Example {
            id: inst.id.clone(),
            dataset: instances.datasets[inst.dataset].name.clone(),
            lemma: inst.lemma_pos(),
            sentence: inst.sentence.to_string(),
            span: inst.span,
            gold: inst.gold.join(" "),
            gold_gloss: inst.gold.first().map(|k| gloss(inv, k)).unwrap_or_default(),
            a_gloss: g(&ka),
            b_gloss: g(&kb),
            a: ka,
            b: kb,
            right: if ra { "a" } else { "b" }.to_string(),
        });
    }
    c.examples = a_examples;
    c.examples.extend(b_examples);
    c
}

fn front_end(items: &[Instance]) -> FrontEnd {
    let mut classes: Vec<FrontEndRow> = FrontEndClass::ALL
        .iter()
        .map(|c| FrontEndRow {
            label: c.label().to_string(),
            ..FrontEndRow::default()
        })
        .collect();
    for inst in items {
        let Some(c) = inst.front_end else { continue };
        let row = &mut classes[c as usize];
        row.count += 1;
        if row.examples.len() < FRONT_END_EXAMPLES && c != FrontEndClass::Matched {
            let text = inst.sentence.get(inst.span.0..inst.span.1).unwrap_or("");
            let found = inst.found.as_deref().unwrap_or("nothing");
            row.examples.push(format!(
                "{}: gold \"{text}\" {} → pipeline {found}",
                inst.id,
                inst.lemma_pos(),
            ));
        }
    }
    let n = items.len();
    for row in &mut classes {
        row.share = if n == 0 {
            0.0
        } else {
            100.0 * row.count as f64 / n as f64
        };
    }
    FrontEnd {
        instances: n,
        classes,
    }
}
