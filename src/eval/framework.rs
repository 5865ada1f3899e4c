//! The evaluation framework's folder layout (Raganato, Camacho-Collados and
//! Navigli, EACL 2017), so that one `--framework DIR` stands for all its
//! data sets instead of five `--xml`/`--gold` pairs.
//!
//! `WSD_Evaluation_Framework.zip` unpacks to
//! `Evaluation_Datasets/NAME/NAME.data.xml` and `NAME.gold.key.txt` for
//! `senseval2`, `senseval3`, `semeval2007`, `semeval2013`, `semeval2015`
//! and `ALL`, the concatenation of the five. [`discover`] accepts the
//! framework's root, its `Evaluation_Datasets` folder, any folder of such
//! data-set folders (`corpora/wsd-eval`) or one data-set folder. It skips
//! `ALL` when the sets it is made of are there: the scores over several
//! sets are their concatenation anyway ([`ScoreReport::concatenate`]),
//! and scoring `ALL` as well would run every instance twice.
//!
//! Papers tune on `semeval2007` ([`DEV_SET`]) and report the others as
//! test sets; so does this project (see the README), which is why `wsd
//! eval --framework` also prints the concatenation without it.
//!
//! [`ScoreReport::concatenate`]: super::ScoreReport::concatenate

use std::path::{Path, PathBuf};

use super::{Score, ScoreReport};
use crate::{Error, Result};

/// The framework's development set, the one models are tuned on.
pub const DEV_SET: &str = "semeval2007";

/// The label of every set but [`DEV_SET`] taken together: the held-out
/// figure, in `wsd eval --framework`'s table and `wsd compare`'s F1 by data
/// set.
pub const ALL_BUT_DEV: &str = "ALL-no-dev";

/// The framework's own concatenation of its five sets.
pub const ALL_SET: &str = "ALL";

/// The order papers list the framework's sets in (chronological); other
/// sets follow by name.
const PAPER_ORDER: [&str; 5] = [
    "senseval2",
    "senseval3",
    "semeval2007",
    "semeval2013",
    "semeval2015",
];

/// One data set of the framework: its name and its two files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameworkSet {
    /// The folder's name (`semeval2007`).
    pub name: String,
    /// `NAME.data.xml`.
    pub xml: PathBuf,
    /// `NAME.gold.key.txt`.
    pub gold: PathBuf,
}

/// The data sets under `dir` (see the [module docs](self)), in the
/// papers' order.
///
/// # Errors
///
/// [`Error::Io`] when `dir` cannot be listed; [`Error::MissingResource`]
/// when a data-set folder has its XML but no gold keys, or when `dir`
/// holds no data set at all.
pub fn discover(dir: &Path) -> Result<Vec<FrameworkSet>> {
    let nested = dir.join("Evaluation_Datasets");
    let base = if nested.is_dir() { nested } else { dir.into() };
    if let Some(set) = set_in(&base)? {
        return Ok(vec![set]);
    }
    let entries = std::fs::read_dir(&base).map_err(|source| Error::Io {
        path: base.clone(),
        source,
    })?;
    let mut sets = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|source| Error::Io {
            path: base.clone(),
            source,
        })?;
        if entry.path().is_dir() {
            sets.extend(set_in(&entry.path())?);
        }
    }
    if sets.len() > 1 {
        sets.retain(|s| s.name != ALL_SET);
    }
    if sets.is_empty() {
        return Err(Error::MissingResource {
            what: "evaluation data set".into(),
            path: dir.into(),
            fix: "give the evaluation framework's folder (WSD_Evaluation_Framework, \
                  its Evaluation_Datasets, or corpora/wsd-eval): folders NAME holding \
                  NAME.data.xml and NAME.gold.key.txt"
                .into(),
        });
    }
    sets.sort_by_key(|s| order_key(&s.name));
    Ok(sets)
}

/// The data set of the folder `dir` when it holds `NAME.data.xml` (NAME
/// being the folder's name).
fn set_in(dir: &Path) -> Result<Option<FrameworkSet>> {
    let Some(name) = dir.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return Ok(None);
    };
    let xml = dir.join(format!("{name}.data.xml"));
    if !xml.is_file() {
        return Ok(None);
    }
    let gold = dir.join(format!("{name}.gold.key.txt"));
    if !gold.is_file() {
        return Err(Error::MissingResource {
            what: "gold key file".into(),
            path: gold,
            fix: format!("{} needs its keys beside it", xml.display()),
        });
    }
    Ok(Some(FrameworkSet { name, xml, gold }))
}

/// The rows of the standard table over several data sets, as `wsd eval
/// --framework` prints them: one per set in the order given, then, with
/// two or more, [`ALL_SET`] (their concatenation, scored as the framework's
/// own `ALL` is), and, when [`DEV_SET`] is one of three or more,
/// [`ALL_BUT_DEV`] (the held-out figure papers compare).
///
/// ```
/// use wsd::eval::{framework, ScoreReport};
/// let report = |correct: f64| ScoreReport {
///     overall: wsd::eval::Score::new(10, 10, correct),
///     ..ScoreReport::default()
/// };
/// let (a, b, c) = (report(5.0), report(7.0), report(9.0));
/// let rows = framework::table_rows(&[("senseval2", &a), ("semeval2007", &b), ("senseval3", &c)]);
/// let names: Vec<&str> = rows.iter().map(|(n, _)| n.as_str()).collect();
/// assert_eq!(names, ["senseval2", "semeval2007", "senseval3", "ALL", "ALL-no-dev"]);
/// assert_eq!(rows[3].1.f1, 70.0);
/// assert_eq!(rows[4].1.f1, 70.0); // (5 + 9) / 20
/// ```
pub fn table_rows(sets: &[(&str, &ScoreReport)]) -> Vec<(String, Score)> {
    let mut rows: Vec<(String, Score)> = sets
        .iter()
        .map(|(name, report)| (name.to_string(), report.overall.clone()))
        .collect();
    if sets.len() < 2 {
        return rows;
    }
    rows.push((
        ALL_SET.into(),
        ScoreReport::concatenate(sets.iter().map(|(_, r)| *r)).overall,
    ));
    if sets.len() > 2 && sets.iter().any(|(name, _)| *name == DEV_SET) {
        let held_out = sets
            .iter()
            .filter(|(name, _)| *name != DEV_SET)
            .map(|(_, r)| *r);
        rows.push((
            ALL_BUT_DEV.into(),
            ScoreReport::concatenate(held_out).overall,
        ));
    }
    rows
}

/// Sort key: the papers' sets in their order, then others by name, `ALL`
/// last.
fn order_key(name: &str) -> (usize, String) {
    let rank = match PAPER_ORDER.iter().position(|p| *p == name) {
        Some(i) => i,
        None if name == ALL_SET => PAPER_ORDER.len() + 1,
        None => PAPER_ORDER.len(),
    };
    (rank, name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch folder removed on drop.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(tag: &str) -> Scratch {
            let dir = std::env::temp_dir().join(format!(
                "wsd-framework-{tag}-{}-{:?}",
                std::process::id(),
                std::thread::current().id()
            ));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }

        fn set(&self, parent: &str, name: &str, gold: bool) {
            let d = self.0.join(parent).join(name);
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join(format!("{name}.data.xml")), "<corpus/>").unwrap();
            if gold {
                std::fs::write(d.join(format!("{name}.gold.key.txt")), "").unwrap();
            }
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn names(sets: &[FrameworkSet]) -> Vec<&str> {
        sets.iter().map(|s| s.name.as_str()).collect()
    }

    #[test]
    fn the_framework_root_gives_its_sets_in_the_papers_order_without_all() {
        let s = Scratch::new("root");
        for n in ["semeval2015", "ALL", "mine", "senseval2", "semeval2007"] {
            s.set("Evaluation_Datasets", n, true);
        }
        std::fs::create_dir_all(s.0.join("Evaluation_Datasets/notes")).unwrap();
        let sets = discover(&s.0).unwrap();
        assert_eq!(
            names(&sets),
            ["senseval2", "semeval2007", "semeval2015", "mine"]
        );
        let se07 = &sets[1];
        assert!(se07.xml.ends_with("semeval2007/semeval2007.data.xml"));
        assert!(se07.gold.ends_with("semeval2007/semeval2007.gold.key.txt"));
        // the same sets from the Evaluation_Datasets folder itself
        let again = discover(&s.0.join("Evaluation_Datasets")).unwrap();
        assert_eq!(again, sets);
    }

    #[test]
    fn one_set_folder_and_a_lone_all_are_data_sets_too() {
        let s = Scratch::new("one");
        s.set("x", "semeval2007", true);
        s.set("y", "ALL", true);
        assert_eq!(
            names(&discover(&s.0.join("x/semeval2007")).unwrap()),
            ["semeval2007"]
        );
        assert_eq!(names(&discover(&s.0.join("y")).unwrap()), ["ALL"]);
    }

    #[test]
    fn missing_gold_keys_and_empty_folders_are_errors() {
        let s = Scratch::new("bad");
        s.set("a", "senseval3", false);
        let e = discover(&s.0.join("a")).unwrap_err().to_string();
        assert!(e.contains("senseval3.gold.key.txt"), "{e}");
        std::fs::create_dir_all(s.0.join("empty")).unwrap();
        let e = discover(&s.0.join("empty")).unwrap_err().to_string();
        assert!(e.contains("no evaluation data set at"), "{e}");
        let e = discover(&s.0.join("absent")).unwrap_err().to_string();
        assert!(e.contains("cannot read"), "{e}");
    }
}
