//! Where a method fails: the evaluation report.
//!
//! [`evaluate`](crate::eval::evaluate) gives one score per run. A report
//! cuts the same answers the ways WSD papers do, for one method or several
//! side by side:
//!
//! * F1, precision, recall and coverage per method, per part of speech and
//!   per data set (when several are given);
//! * F1 on instances whose gold sense is WordNet's first sense (MFS) and on
//!   the others (LFS), and by the number of candidate senses;
//! * who decided ([`Decision`](crate::disambig::Decision): the method, a
//!   tie, a fallback, a back-off, a single sense) and how often each was
//!   right;
//! * the lemmas that lose the most points, with their confusions (gold
//!   sense → chosen sense, glosses, counts);
//! * for every pair of methods, a 2×2 table of who is right and examples
//!   where they disagree;
//! * with the raw-text input (`eval --raw`), the front-end breakdown
//!   ([`frontend`]): gold instances the pipeline missed, or found with the
//!   wrong POS, the wrong lemma or a different multiword.
//!
//! The steps: [`Instances`] collects every gold instance of the data sets
//! once (lemma, POS, gold keys, candidate count, sentence);
//! [`Instances::answers`] lines a method's answers up with them;
//! [`analyse`] turns both into a [`Report`], plain data that serialises to
//! the JSON of `--format json`; [`html::render`] draws the HTML file from
//! that data alone (so every number in the HTML is in the JSON), and
//! [`errors::write_tsv`] lists the wrong and missing answers.
//!
//! ```no_run
//! use wsd::eval::{evaluate, Dataset, Input};
//! use wsd::disambig::FirstSense;
//! use wsd::report::{analyse, write_report, Instances, MethodRun};
//! # fn main() -> wsd::Result<()> {
//! let inv = wsd::wordnet::Inventory::open(None)?;
//! let data = Dataset::from_xml("se07.data.xml".as_ref(), "se07.gold.key.txt".as_ref())?;
//! let mut instances = Instances::default();
//! let d = instances.add_dataset(&inv, "semeval2007", &data, None);
//! let ev = evaluate(&FirstSense, &inv, &data.docs, &data.gold, Input::Gold, &|_| {});
//! let run = MethodRun {
//!     name: ev.method.clone(),
//!     seconds: ev.seconds,
//!     answers: instances.answers(&[(d, &ev.answers)]),
//! };
//! let report = analyse(&inv, "mfs on SemEval-2007", &instances, &[run]);
//! write_report("report.html".as_ref(), &report)?; // html::render(&report) is the page
//! # Ok(()) }
//! ```

use serde::{Deserialize, Serialize};

use crate::eval::Score;

pub mod analysis;
pub mod errors;
pub mod frontend;
pub mod html;
pub mod study;
pub mod text;

pub use analysis::{analyse, Instance, Instances, MethodRun};
pub use frontend::FrontEndClass;
pub use study::{dataset_name, run_study, Study};

/// Write `report` to `path`: its JSON when the file name ends in `.json`,
/// else the HTML page ([`html::render`]); atomically.
pub fn write_report(path: &std::path::Path, report: &Report) -> crate::Result<()> {
    let json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    crate::atomic::write_atomically(path, |w| {
        if json {
            serde_json::to_writer_pretty(&mut *w, report)?;
            w.write_all(b"\n")
        } else {
            w.write_all(html::render(report).as_bytes())
        }
    })
}

/// The version of the report's JSON shape.
pub const REPORT_VERSION: u32 = 1;

/// Precision, recall, F1 and coverage of a set of instances, as
/// [`Score`] computes them (rates in percent, 0–100, full precision).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// Gold instances.
    pub instances: usize,
    /// Instances answered.
    pub answered: usize,
    /// Credit earned (correct answers).
    pub correct: f64,
    /// Precision in percent: correct / answered (the accuracy of the answers).
    pub precision: f64,
    /// Recall in percent: correct / instances.
    pub recall: f64,
    /// F1 in percent.
    pub f1: f64,
    /// Coverage in percent: answered / instances.
    pub coverage: f64,
}

impl Metrics {
    /// The metrics of `instances` instances of which `answered` were
    /// answered, earning `correct` credit.
    pub fn new(instances: usize, answered: usize, correct: f64) -> Metrics {
        Score::new(instances, answered, correct).into()
    }
}

impl From<Score> for Metrics {
    fn from(s: Score) -> Metrics {
        Metrics {
            instances: s.instances,
            answered: s.answered,
            correct: s.correct,
            precision: s.precision,
            recall: s.recall,
            f1: s.f1,
            coverage: s.coverage,
        }
    }
}

/// One labelled row of a breakdown.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// What the row counts (`noun`, `first sense (MFS)`, `3–4`, `back-off`, …).
    pub label: String,
    /// Its metrics.
    #[serde(flatten)]
    pub metrics: Metrics,
}

/// A data set of the report.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DatasetInfo {
    /// Its name (the XML file's stem, or `semcor-test`).
    pub name: String,
    /// Its gold instances.
    pub instances: usize,
}

/// The report: every number `wsd eval --report` and `wsd compare` show.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// [`REPORT_VERSION`].
    pub version: u32,
    /// The title.
    pub title: String,
    /// `gold` (the data set's tokens, lemmas and POS) or `raw` (its plain
    /// text through the pipeline).
    pub input: String,
    /// The data sets, in order.
    pub datasets: Vec<DatasetInfo>,
    /// Gold instances over all data sets.
    pub instances: usize,
    /// One entry per method, in the order given.
    pub methods: Vec<MethodReport>,
    /// Every pair of methods (first against second, …).
    pub comparisons: Vec<Comparison>,
    /// With the raw input: what the pipeline made of the gold instances.
    pub front_end: Option<FrontEnd>,
    /// Seconds spent building the report from the answers (the methods'
    /// own time is in [`MethodReport::seconds`]).
    pub analysis_seconds: f64,
}

/// One method's breakdowns.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MethodReport {
    /// The method or chain (`nb,mfs`).
    pub method: String,
    /// Seconds the method ran (all data sets).
    pub seconds: f64,
    /// Over every instance.
    pub overall: Metrics,
    /// Per part of speech (`noun`, `verb`, `adjective`, `adverb`).
    pub by_pos: Vec<Row>,
    /// Per data set (only when there are several).
    pub by_dataset: Vec<Row>,
    /// Gold sense is WordNet's first sense (MFS) or not (LFS).
    pub by_sense: Vec<Row>,
    /// By number of candidate senses (`1`, `2`, `3–4`, …).
    pub by_candidates: Vec<Row>,
    /// By kind of decision (`method`, `tie`, `fallback`, `back-off`,
    /// `single-sense`, `no answer`); precision is the accuracy of each.
    pub by_decision: Vec<Row>,
    /// By decider ([`Prediction::decided_by`](crate::disambig::Prediction::decided_by):
    /// `nb`, `mfs (back-off)`, …, and `no answer`).
    pub by_decider: Vec<Row>,
    /// With the raw input: per front-end class ([`FrontEndClass`]).
    pub by_front_end: Vec<Row>,
    /// The lemmas that lose the most points, worst first.
    pub lemmas: Vec<LemmaLoss>,
}

/// A lemma that loses points, and how.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LemmaLoss {
    /// The gold lemma.
    pub lemma: String,
    /// Its POS letter (`n`, `v`, `a`, `r`).
    pub pos: String,
    /// Its instances.
    pub instances: usize,
    /// Answered and wrong.
    pub wrong: usize,
    /// Not answered.
    pub unanswered: usize,
    /// Points of recall lost over the whole report:
    /// `100 · (instances − correct) / all instances`.
    pub points: f64,
    /// The confusions, most frequent first.
    pub confusions: Vec<Confusion>,
}

/// Gold sense → chosen sense, and how often.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Confusion {
    /// The gold key(s), space-separated.
    pub gold: String,
    /// The gloss of the (first) gold key.
    pub gold_gloss: String,
    /// The chosen key, or `None` when unanswered.
    pub chosen: Option<String>,
    /// Its gloss (empty when unanswered).
    pub chosen_gloss: String,
    /// How many instances.
    pub count: usize,
}

/// Two methods, instance by instance.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// The first method.
    pub a: String,
    /// The second method.
    pub b: String,
    /// Instances.
    pub instances: usize,
    /// Both right.
    pub both_right: usize,
    /// Only the first right.
    pub a_only: usize,
    /// Only the second right.
    pub b_only: usize,
    /// Both wrong (or unanswered).
    pub both_wrong: usize,
    /// Instances where they chose different senses (or one did not answer).
    pub disagree: usize,
    /// Examples where exactly one is right (some of each side).
    pub examples: Vec<Example>,
}

/// An instance two methods disagree on.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Example {
    /// Instance id.
    pub id: String,
    /// Its data set.
    pub dataset: String,
    /// The lemma and POS letter (`bank.n`).
    pub lemma: String,
    /// The sentence.
    pub sentence: String,
    /// The target's byte span in the sentence.
    pub span: (usize, usize),
    /// Gold key(s).
    pub gold: String,
    /// Gloss of the gold key.
    pub gold_gloss: String,
    /// The first method's key.
    pub a: Option<String>,
    /// Its gloss.
    pub a_gloss: String,
    /// The second method's key.
    pub b: Option<String>,
    /// Its gloss.
    pub b_gloss: String,
    /// Who is right: `a` or `b`.
    pub right: String,
}

/// What the pipeline made of the gold instances (raw input).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FrontEnd {
    /// Gold instances.
    pub instances: usize,
    /// One row per [`FrontEndClass`], in its order.
    pub classes: Vec<FrontEndRow>,
}

/// One front-end class and its share.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FrontEndRow {
    /// [`FrontEndClass::label`].
    pub label: String,
    /// Gold instances in the class.
    pub count: usize,
    /// Their share of all gold instances, in percent.
    pub share: f64,
    /// A few instance ids, with what the gold and the pipeline said.
    pub examples: Vec<String>,
}
