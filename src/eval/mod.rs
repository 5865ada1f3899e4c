//! The scorer: precision, recall and F1 exactly as the evaluation
//! framework's `Scorer.java` computes them (Raganato, Camacho-Collados and
//! Navigli, EACL 2017).
//!
//! For every instance of the gold key file: if the system answered it, it
//! earns the credit `|S ∩ G| / |S|`, the share of the system's keys `S` that
//! are among the gold keys `G` (both taken as sets, so a repeated key counts
//! once). A system that proposes two keys, one of them right, earns 0.5.
//! Then
//!
//! * precision `P = Σ credit / answered`,
//! * recall `R = Σ credit / instances` (all gold instances),
//! * `F1 = 2PR / (P + R)`, and 0 when `P + R = 0`,
//! * coverage `= answered / instances`.
//!
//! System answers for ids the gold lacks are ignored by the arithmetic (as
//! in `Scorer.java`) but counted and listed in the report, so a run on the
//! wrong data set cannot go unnoticed; so are system keys that fail a
//! validity check (for example "WordNet knows this sense key"). A system
//! entry with no key counts as unanswered (`Scorer.java` would divide by
//! zero there).
//!
//! **All rates in a [`Score`] are percentages (0–100) at full `f64`
//! precision**, in the JSON output too; [`render_text`] rounds them to one
//! decimal as `Scorer.java` prints them.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use serde::Serialize;

use crate::corpus::KeyFile;
use crate::wordnet::{Pos, SenseKey};

pub mod framework;
pub mod in_sample;
pub mod keys;
pub mod run;

pub use keys::{canonical_pair, suspicious, CanonicalPair, IdForm};
pub use run::{answer_raw, evaluate, Dataset, Evaluation, Input, RawAnswers};

/// How many examples of unknown ids or keys a report keeps.
pub const EXAMPLES: usize = 5;

/// Precision, recall, F1 and coverage of one set of instances. Rates are
/// percentages (0–100).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Score {
    /// Precision in percent: credit / answered.
    pub precision: f64,
    /// Recall in percent: credit / instances.
    pub recall: f64,
    /// F1 in percent: harmonic mean of precision and recall (0 when both are 0).
    pub f1: f64,
    /// Gold instances.
    pub instances: usize,
    /// Gold instances the system answered.
    pub answered: usize,
    /// Coverage in percent: answered / instances.
    pub coverage: f64,
    /// Sum of the credits (correct answers, fractional when the system
    /// proposed several keys).
    pub correct: f64,
}

impl Score {
    /// The score of `instances` gold instances of which `answered` were
    /// answered, earning `correct` credit in total.
    pub fn new(instances: usize, answered: usize, correct: f64) -> Score {
        let pct = |num: f64, den: usize| {
            if den == 0 {
                0.0
            } else {
                100.0 * num / den as f64
            }
        };
        let precision = pct(correct, answered);
        let recall = pct(correct, instances);
        let f1 = if precision + recall > 0.0 {
            2.0 * precision * recall / (precision + recall)
        } else {
            0.0
        };
        Score {
            precision,
            recall,
            f1,
            instances,
            answered,
            coverage: pct(answered as f64, instances),
            correct,
        }
    }
}

/// A count and the first few examples ([`EXAMPLES`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Problems {
    /// How many.
    pub count: usize,
    /// The first few, in system-file order.
    pub examples: Vec<String>,
}

impl Problems {
    /// Add `other`'s count, and its examples while there is room.
    fn append(&mut self, other: &Problems) {
        self.count += other.count;
        let room = EXAMPLES.saturating_sub(self.examples.len());
        self.examples
            .extend(other.examples.iter().take(room).cloned());
    }

    fn push(&mut self, example: impl FnOnce() -> String) {
        self.count += 1;
        if self.examples.len() < EXAMPLES {
            self.examples.push(example());
        }
    }
}

/// Everything [`score`] reports. Serialises to one JSON object with the
/// overall [`Score`] fields at the top level, `by_pos` (`"n"`, `"v"`,
/// `"a"`, `"r"`, and [`NO_POS`] → [`Score`]), `unknown_ids`,
/// `unknown_keys` and `unknown_gold_keys`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ScoreReport {
    /// The score over all gold instances.
    #[serde(flatten)]
    pub overall: Score,
    /// The score per WordNet POS letter (only POS with gold instances),
    /// and under [`NO_POS`] the instances of no known POS, so that the
    /// rows' instances always add up to the overall count.
    pub by_pos: BTreeMap<String, Score>,
    /// System ids that the gold lacks (ignored by the scores).
    pub unknown_ids: Problems,
    /// System keys that failed the validity check, as `id key`.
    pub unknown_keys: Problems,
    /// Gold keys that failed the same check, as `id key` (a damaged gold
    /// file, or one made for another WordNet): no system can earn credit
    /// for them, so the scores are lower than they should be and the
    /// reader must be told why.
    pub unknown_gold_keys: Problems,
}

impl ScoreReport {
    /// The report of several data sets scored as one, as if their gold
    /// and system key files were concatenated (their ids being distinct):
    /// instances, answers and credit add up per row and the rates are
    /// recomputed from the sums, so this is the framework's `ALL` score,
    /// not an average of the sets' rates. Problem counts add up too; the
    /// first [`EXAMPLES`] examples are kept.
    pub fn concatenate<'a>(reports: impl IntoIterator<Item = &'a ScoreReport>) -> ScoreReport {
        let mut all = Acc::default();
        let mut by_pos: BTreeMap<String, Acc> = BTreeMap::new();
        let mut out = ScoreReport::default();
        for r in reports {
            all.add(&r.overall);
            for (pos, s) in &r.by_pos {
                by_pos.entry(pos.clone()).or_default().add(s);
            }
            out.unknown_ids.append(&r.unknown_ids);
            out.unknown_keys.append(&r.unknown_keys);
            out.unknown_gold_keys.append(&r.unknown_gold_keys);
        }
        out.overall = all.score();
        out.by_pos = by_pos.into_iter().map(|(p, a)| (p, a.score())).collect();
        out
    }
}

/// The `by_pos` bucket (and text row) of gold instances whose POS neither
/// the data set nor the gold key gives (an instance without `pos`, a gold
/// key such as `U`): without it the per-POS rows would not add up to the
/// total, and a reader could not tell the missing instances from a bug.
pub const NO_POS: &str = "no POS";

#[derive(Default)]
struct Acc {
    instances: usize,
    answered: usize,
    correct: f64,
}

impl Acc {
    fn score(&self) -> Score {
        Score::new(self.instances, self.answered, self.correct)
    }

    fn add(&mut self, s: &Score) {
        self.instances += s.instances;
        self.answered += s.answered;
        self.correct += s.correct;
    }
}

/// Score a system key file against a gold key file (see the
/// [module docs](self)).
///
/// The per-POS breakdown takes an instance's POS from `pos_of` when given
/// and it has the id, else from the gold key itself (the `ss_type` digit
/// after `%`: 1 noun, 2 verb, 3 and 5 adjective, 4 adverb); instances with
/// neither are in the [`NO_POS`] bucket. `key_known` checks every system key (pass
/// `&|_| true` to skip the check, or [`looks_like_sense_key`] for a purely
/// syntactic one).
pub fn score(
    gold: &KeyFile,
    system: &KeyFile,
    pos_of: Option<&HashMap<String, Pos>>,
    key_known: &dyn Fn(&str) -> bool,
) -> ScoreReport {
    let mut all = Acc::default();
    let mut by_pos: BTreeMap<String, Acc> = BTreeMap::new();
    for (id, gold_keys) in gold.iter() {
        let pos = pos_of
            .and_then(|m| m.get(id).copied())
            .or_else(|| gold_keys.iter().find_map(|k| SenseKey::pos_of(k)));
        let bucket = pos.map_or_else(|| NO_POS.to_string(), |p| p.letter().to_string());
        let accs: Vec<&mut Acc> = vec![&mut all, by_pos.entry(bucket).or_default()];
        let credit = system.get(id).and_then(|sys| credit(gold_keys, sys));
        for acc in accs {
            acc.instances += 1;
            if let Some(c) = credit {
                acc.answered += 1;
                acc.correct += c;
            }
        }
    }
    let mut unknown_ids = Problems::default();
    let mut unknown_keys = Problems::default();
    let mut unknown_gold_keys = Problems::default();
    for (id, keys) in gold.iter() {
        for k in keys {
            if !key_known(k) {
                unknown_gold_keys.push(|| format!("{id} {k}"));
            }
        }
    }
    for (id, keys) in system.iter() {
        if !gold.contains(id) {
            unknown_ids.push(|| id.to_string());
        }
        for k in keys {
            if !key_known(k) {
                unknown_keys.push(|| format!("{id} {k}"));
            }
        }
    }
    ScoreReport {
        overall: all.score(),
        by_pos: by_pos
            .into_iter()
            .map(|(p, acc)| (p, acc.score()))
            .collect(),
        unknown_ids,
        unknown_keys,
        unknown_gold_keys,
    }
}

/// The credit of one answer: `|S ∩ G| / |S|` over distinct keys, `None`
/// when the system gave no key.
fn credit(gold: &[String], system: &[String]) -> Option<f64> {
    let sys: HashSet<&str> = system.iter().map(String::as_str).collect();
    if sys.is_empty() {
        return None;
    }
    let hits = sys.iter().filter(|k| gold.iter().any(|g| g == *k)).count();
    Some(hits as f64 / sys.len() as f64)
}

/// A syntactic check of a WordNet sense key,
/// `lemma%ss_type:lex_filenum:lex_id:head_word:head_id`: a non-empty lemma,
/// `ss_type` 1–5, two-digit `lex_filenum` and `lex_id`, and a head word and
/// two-digit head id exactly when `ss_type` is 5 (satellite). It does not
/// say WordNet has the key.
pub fn looks_like_sense_key(key: &str) -> bool {
    key.parse::<SenseKey>().is_ok()
}

/// The report as a small aligned table (percentages with one decimal),
/// followed by lines on unknown ids and keys when there are any.
///
/// ```text
///            P      R     F1  instances  answered  coverage
/// all     65.3   64.8   65.0        455       452      99.3
/// noun    70.1   69.9   70.0        159       158      99.4
/// ```
pub fn render_text(report: &ScoreReport) -> String {
    let mut out = render_header(6);
    let row = |out: &mut String, label: &str, s: &Score| out.push_str(&render_row(6, label, s));
    row(&mut out, "all", &report.overall);
    for p in Pos::ALL {
        if let Some(s) = report.by_pos.get(&p.letter().to_string()) {
            row(&mut out, p.file_suffix(), s);
        }
    }
    if let Some(s) = report.by_pos.get(NO_POS) {
        row(&mut out, NO_POS, s);
    }
    let problems = [
        ("system ids not in the gold", &report.unknown_ids),
        ("system keys unknown to WordNet", &report.unknown_keys),
        ("gold keys unknown to WordNet", &report.unknown_gold_keys),
    ];
    for (what, p) in problems {
        if p.count > 0 {
            let more = if p.count > p.examples.len() {
                ", …"
            } else {
                ""
            };
            out.push_str(&format!(
                "{what}: {} (e.g. {}{more})\n",
                p.count,
                p.examples.join(", ")
            ));
        }
    }
    out
}

/// Scores under labels, as [`render_text`]'s table with the label column
/// as wide as the longest label: `wsd eval --framework`'s one row per
/// data set.
///
/// ```text
///                 P      R     F1  instances  answered  coverage
/// senseval2    66.2   66.2   66.2       2282      2282     100.0
/// semeval2007  55.2   55.2   55.2        455       455     100.0
/// ```
pub fn render_rows(rows: &[(String, Score)]) -> String {
    let width = rows
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    let mut out = render_header(width);
    for (label, s) in rows {
        out.push_str(&render_row(width, label, s));
    }
    out
}

fn render_header(width: usize) -> String {
    format!(
        "{:<width$} {:>6} {:>6} {:>6} {:>10} {:>9} {:>9}\n",
        "", "P", "R", "F1", "instances", "answered", "coverage"
    )
}

fn render_row(width: usize, label: &str, s: &Score) -> String {
    format!(
        "{:<width$} {:>6.1} {:>6.1} {:>6.1} {:>10} {:>9} {:>9.1}\n",
        label, s.precision, s.recall, s.f1, s.instances, s.answered, s.coverage
    )
}

impl fmt::Display for ScoreReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&render_text(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::keyfile::{parse_keys, read_key_file};
    use std::path::Path;

    fn fixture(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name)
    }

    fn keys(text: &str) -> KeyFile {
        parse_keys(text, "mem").unwrap()
    }

    fn all_known(_: &str) -> bool {
        true
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn gold_against_itself_is_perfect() {
        let gold = read_key_file(fixture("tiny.gold.key.txt")).unwrap();
        let r = score(&gold, &gold, None, &looks_like_sense_key);
        assert_eq!(r.overall.precision, 100.0);
        assert_eq!(r.overall.recall, 100.0);
        assert_eq!(r.overall.f1, 100.0);
        assert_eq!(r.overall.coverage, 100.0);
        assert_eq!(r.overall.instances, 4);
        assert_eq!(r.overall.answered, 4);
        assert_eq!(r.unknown_ids.count, 0);
        assert_eq!(r.unknown_keys.count, 0);
        // POS from the keys: one of each.
        assert_eq!(r.by_pos.len(), 4);
        for s in r.by_pos.values() {
            assert_eq!((s.instances, s.f1), (1, 100.0));
        }
    }

    #[test]
    fn concatenated_reports_score_as_the_concatenated_files() {
        let (g1, s1) = (
            keys("a x%1:00:00::\nb y%2:00:00::\nc z%3:00:00::\n"),
            keys("a x%1:00:00::\nb q%2:00:00:: y%2:00:00::\nzz x%1:00:00::\n"),
        );
        let (g2, s2) = (
            keys("d x%1:00:00::\ne y%4:00:00::\n"),
            keys("d w%1:00:00::\ne y%4:00:00::\nyy x%1:00:00::\n"),
        );
        let (g, s) = (
            keys("a x%1:00:00::\nb y%2:00:00::\nc z%3:00:00::\nd x%1:00:00::\ne y%4:00:00::\n"),
            keys("a x%1:00:00::\nb q%2:00:00:: y%2:00:00::\nzz x%1:00:00::\nd w%1:00:00::\ne y%4:00:00::\nyy x%1:00:00::\n"),
        );
        let parts = [
            score(&g1, &s1, None, &all_known),
            score(&g2, &s2, None, &all_known),
        ];
        let joined = ScoreReport::concatenate(&parts);
        assert_eq!(joined, score(&g, &s, None, &all_known));
        assert!(close(joined.overall.correct, 2.5));
        assert_eq!(joined.unknown_ids.examples, ["zz", "yy"]);
        assert_eq!(joined.by_pos["n"].instances, 2);
        assert_eq!(ScoreReport::concatenate([]), ScoreReport::default());
    }

    #[test]
    fn two_keys_one_right_earn_half() {
        let gold = keys("a x%1:00:00::\nb y%1:00:00::\n");
        let sys = keys("a x%1:00:00:: z%1:00:00::\nb y%1:00:00::\n");
        let r = score(&gold, &sys, None, &all_known);
        assert!(close(r.overall.correct, 1.5));
        assert!(close(r.overall.precision, 75.0));
        assert!(close(r.overall.recall, 75.0));
        assert!(close(r.overall.f1, 75.0));
        // A repeated key counts once; several gold keys each count.
        let gold = keys("a x%1:00:00:: w%1:00:00::\n");
        let sys = keys("a x%1:00:00:: x%1:00:00::\n");
        assert_eq!(
            score(&gold, &sys, None, &all_known).overall.precision,
            100.0
        );
        let sys = keys("a x%1:00:00:: w%1:00:00:: q%1:00:00:: r%1:00:00::\n");
        assert!(close(
            score(&gold, &sys, None, &all_known).overall.correct,
            0.5
        ));
    }

    #[test]
    fn missing_answers_lower_recall_only() {
        let gold = keys("a x%1:00:00::\nb y%2:00:00::\nc z%1:00:00::\nd w%1:00:00::\n");
        let sys = keys("a x%1:00:00::\nb y%2:00:00::\nc q%1:00:00::\n");
        let r = score(&gold, &sys, None, &all_known);
        assert_eq!(r.overall.instances, 4);
        assert_eq!(r.overall.answered, 3);
        assert!(close(r.overall.precision, 200.0 / 3.0));
        assert!(close(r.overall.recall, 50.0));
        assert!(close(r.overall.coverage, 75.0));
        let p = 200.0 / 3.0;
        assert!(close(r.overall.f1, 2.0 * p * 50.0 / (p + 50.0)));
        assert_eq!(r.by_pos["v"].f1, 100.0);
        assert_eq!(r.by_pos["n"].instances, 3);
        assert_eq!(r.by_pos["n"].answered, 2);
        // Nothing answered: all zero, no NaN.
        let r = score(&gold, &KeyFile::new(), None, &all_known);
        assert_eq!(
            (r.overall.precision, r.overall.recall, r.overall.f1),
            (0.0, 0.0, 0.0)
        );
    }

    /// Issue 16: instances of no known POS (no `pos` in the data, a gold
    /// key such as `U`) were in no row, so the rows summed to less than
    /// `all` (159 + 295 ≠ 455).
    #[test]
    fn per_pos_rows_add_up_when_an_instance_has_no_pos() {
        let gold = keys("a x%1:00:00::\nb U\nc y%2:00:00::\n");
        let sys = keys("a x%1:00:00::\nb U\n");
        let r = score(&gold, &sys, None, &all_known);
        let sum: usize = r.by_pos.values().map(|s| s.instances).sum();
        assert_eq!(sum, r.overall.instances);
        assert_eq!(r.by_pos[NO_POS].instances, 1);
        assert_eq!(r.by_pos[NO_POS].answered, 1);
        let text = render_text(&r);
        assert!(text.lines().any(|l| l.starts_with("no POS  ")), "{text}");
        // With a POS map lacking the id, the key decides; lacking both: "no POS".
        let pos_of: HashMap<String, Pos> = [("a".to_string(), Pos::Verb)].into();
        let r = score(&gold, &sys, Some(&pos_of), &all_known);
        assert_eq!(r.by_pos["v"].instances, 2);
        assert_eq!(r.by_pos[NO_POS].instances, 1);
        assert!(!r.by_pos.contains_key("n"));
    }

    #[test]
    fn unknown_ids_and_keys_are_reported() {
        let gold = keys("a x%1:00:00::\n");
        let sys = keys("a x%1:00:00::\nzz y%1:00:00::\nyy bogus\nxx x%1:00:00::\nww x%1:00:00::\nvv x%1:00:00::\nuu x%1:00:00::\n");
        let r = score(&gold, &sys, None, &looks_like_sense_key);
        assert_eq!(r.overall.f1, 100.0);
        assert_eq!(r.unknown_ids.count, 6);
        assert_eq!(r.unknown_ids.examples, ["zz", "yy", "xx", "ww", "vv"]);
        assert_eq!(r.unknown_keys.count, 1);
        assert_eq!(r.unknown_keys.examples, ["yy bogus"]);
        let text = render_text(&r);
        assert!(
            text.contains("system ids not in the gold: 6 (e.g. zz, yy, xx, ww, vv, …)"),
            "{text}"
        );
        assert!(
            text.contains("system keys unknown to WordNet: 1 (e.g. yy bogus)"),
            "{text}"
        );
    }

    #[test]
    fn pos_map_wins_over_the_key() {
        let gold = keys("a x%1:00:00::\nb y%1:00:00::\n");
        let pos: HashMap<String, Pos> = [("a".to_string(), Pos::Verb)].into_iter().collect();
        let r = score(&gold, &gold, Some(&pos), &all_known);
        assert_eq!(r.by_pos["v"].instances, 1);
        assert_eq!(r.by_pos["n"].instances, 1);
    }

    #[test]
    fn json_and_text_shapes() {
        let gold = read_key_file(fixture("tiny.gold.key.txt")).unwrap();
        let sys = read_key_file(fixture("tiny.system.key.txt")).unwrap();
        let r = score(&gold, &sys, None, &looks_like_sense_key);
        let v: serde_json::Value = serde_json::to_value(&r).unwrap();
        for field in [
            "precision",
            "recall",
            "f1",
            "instances",
            "answered",
            "coverage",
            "by_pos",
            "unknown_ids",
            "unknown_keys",
        ] {
            assert!(v.get(field).is_some(), "missing {field} in {v}");
        }
        assert!(v["by_pos"]["n"]["f1"].is_number());
        assert_eq!(v["instances"], 4);
        assert_eq!(v["unknown_ids"]["count"], 1);
        // 1 + 0.5 + 0 over 3 answered, 4 instances.
        assert!(close(r.overall.precision, 50.0));
        assert!(close(r.overall.recall, 37.5));
        let text = render_text(&r);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "            P      R     F1  instances  answered  coverage"
        );
        assert_eq!(
            lines[1],
            "all      50.0   37.5   42.9          4         3      75.0"
        );
        assert!(lines[2].starts_with("noun "), "{text}");
        assert_eq!(text, r.to_string());
    }

    #[test]
    fn sense_key_syntax() {
        assert!(looks_like_sense_key("bank%1:14:00::"));
        assert!(looks_like_sense_key("previous%5:00:00:preceding:00"));
        assert!(looks_like_sense_key("100%5:00:00:cardinal:00"));
        assert!(!looks_like_sense_key("bank%1:14:00"));
        assert!(!looks_like_sense_key("bank%6:14:00::"));
        assert!(!looks_like_sense_key("%1:14:00::"));
        assert!(!looks_like_sense_key("bank.n.01"));
        assert!(!looks_like_sense_key("x%5:00:00::"));
    }
}
