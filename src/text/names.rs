//! Proper names as SemCor's annotators tag them: a name they tag as a
//! person, group or location gets that lemma (`John` → `person`, not
//! WordNet's `john`, a toilet), learned per name from SemCor's train split
//! ([`crate::pipeline::learn::learn_names`]) and shipped in
//! `src/text/names.tsv`. Names WordNet does not know at all get `person`
//! ([`crate::pipeline::name_lemma`]).
//!
//! Names of several words (`Mike Deegan`, `Mr. Flannagan`, `Providence
//! Daily Journal`) are one unit in SemCor, tagged with the same three
//! lemmas: [`name_runs`] finds runs of capitalised words the tagger calls
//! proper nouns, and [`NameUnits`] gives a run its lemma from its last
//! word (`Journal`, `Administration` → `group`), else its first (`Mr.` →
//! `person`), else `person`, as counted on SemCor's train split
//! ([`crate::pipeline::learn::learn_name_units`], `src/text/name_units.tsv`).
//! Without them `Mike` of `Mike Deegan` is WordNet's `mike` (a microphone)
//! and `Mr.` a target of its own.

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

/// Lower-cased name → `person`, `group` or `location`.
#[derive(Clone, Debug, Default)]
pub struct NameTable {
    /// The names.
    pub names: FxHashMap<Box<str>, Box<str>>,
}

const SHIPPED_NAMES: &str = include_str!("names.tsv");

impl NameTable {
    /// The shipped table, parsed once.
    pub fn shipped() -> &'static NameTable {
        static T: OnceLock<NameTable> = OnceLock::new();
        T.get_or_init(|| {
            NameTable::parse(SHIPPED_NAMES).expect("src/text/names.tsv is well formed")
        })
    }

    /// The lemma annotators give this name (any case), if learned.
    pub fn get(&self, word: &str) -> Option<&str> {
        if self.names.is_empty() {
            return None;
        }
        self.names.get(word.to_lowercase().as_str()).map(|s| &**s)
    }

    /// Read `name lemma [hits seen]` lines (`#` comments).
    pub fn parse(text: &str) -> Result<NameTable, String> {
        let mut t = NameTable::default();
        for (i, line) in text.lines().enumerate() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            if f.len() < 2 || !matches!(f[1], "person" | "group" | "location") {
                return Err(format!("names line {}: {line:?}", i + 1));
            }
            t.names.insert(f[0].into(), f[1].into());
        }
        Ok(t)
    }
}

/// Can `word` (tagged `tag`) be part of a multiword proper name? A word
/// the tagger calls `NNP`/`NNPS` that starts with a capital and is either
/// a word with a lower-case letter (`Deegan`, `McCormick`, `Mr.`) or an
/// initial (`E.`, `U.S.`). All-capital words are left out: they are
/// headings and acronyms more often than names.
pub fn is_name_word(word: &str, tag: &str) -> bool {
    if !matches!(tag, "NNP" | "NNPS") || !word.chars().next().is_some_and(char::is_uppercase) {
        return false;
    }
    let initial = word.len() >= 2
        && word.ends_with('.')
        && word
            .split_terminator('.')
            .all(|p| p.chars().count() == 1 && p.chars().all(char::is_uppercase));
    initial
        || (word.chars().any(char::is_lowercase)
            && word
                .chars()
                .all(|c| c.is_alphabetic() || matches!(c, '-' | '\'' | '.')))
}

/// The runs `[start, end)` of two or more consecutive name words
/// ([`is_name_word`]) of a tagged sentence.
pub fn name_runs<S: AsRef<str>>(words: &[&str], tags: &[S]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let start = i;
        while i < words.len() && is_name_word(words[i], tags[i].as_ref()) {
            i += 1;
        }
        if i - start >= 2 {
            runs.push((start, i));
        }
        if i == start {
            i += 1;
        }
    }
    runs
}

/// The lemma of a multiword name by its last or first word, learned from
/// SemCor's train split; see the module docs.
#[derive(Clone, Debug, Default)]
pub struct NameUnits {
    /// Lower-cased last word → lemma.
    pub last: FxHashMap<Box<str>, Box<str>>,
    /// Lower-cased first word → lemma.
    pub first: FxHashMap<Box<str>, Box<str>>,
}

const SHIPPED_UNITS: &str = include_str!("name_units.tsv");

impl NameUnits {
    /// The shipped table, parsed once.
    pub fn shipped() -> &'static NameUnits {
        static T: OnceLock<NameUnits> = OnceLock::new();
        T.get_or_init(|| {
            NameUnits::parse(SHIPPED_UNITS).expect("src/text/name_units.tsv is well formed")
        })
    }

    /// The lemma of the name made of `words`: by its last word, else its
    /// first word, else `person` (most multiword names SemCor tags are
    /// people).
    pub fn lemma(&self, words: &[&str]) -> &str {
        let key = |w: Option<&&str>| w.map(|w| w.to_lowercase()).unwrap_or_default();
        self.last
            .get(key(words.last()).as_str())
            .or_else(|| self.first.get(key(words.first()).as_str()))
            .map_or("person", |s| &**s)
    }

    /// Read `last|first word lemma [hits seen]` lines (`#` comments).
    pub fn parse(text: &str) -> Result<NameUnits, String> {
        let mut t = NameUnits::default();
        for (i, line) in text.lines().enumerate() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            let map = match f.first() {
                Some(&"last") => &mut t.last,
                Some(&"first") => &mut t.first,
                _ => return Err(format!("name_units line {}: {line:?}", i + 1)),
            };
            if f.len() < 3 || !matches!(f[2], "person" | "group" | "location") {
                return Err(format!("name_units line {}: {line:?}", i + 1));
            }
            map.insert(f[1].into(), f[2].into());
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_runs_are_capitalised_proper_nouns() {
        let w = [
            "Mr.",
            "Flannagan",
            "met",
            "E.",
            "B.",
            "White",
            "and",
            "IBM",
            "Corp",
        ];
        let t = ["NNP", "NNP", "VBD", "NNP", "NNP", "NNP", "CC", "NNP", "NNP"];
        assert_eq!(name_runs(&w, &t), [(0, 2), (3, 6)]);
        assert!(!is_name_word("Deegan", "NN"));
        assert!(!is_name_word("deegan", "NNP"));
        assert!(is_name_word("U.S.", "NNP"));
        assert!(!is_name_word("R2D2", "NNP"));
    }

    #[test]
    fn unit_lemma_by_last_then_first_word() {
        let t = NameUnits::parse("last\tjournal\tgroup\t5\t5\nfirst\tmr.\tperson\t9\t9\n").unwrap();
        assert_eq!(t.lemma(&["Providence", "Daily", "Journal"]), "group");
        assert_eq!(t.lemma(&["Mr.", "Journal"]), "group");
        assert_eq!(t.lemma(&["Mr.", "Bates"]), "person");
        assert_eq!(t.lemma(&["Anniston", "Star"]), "person");
        assert!(NameUnits::parse("middle\tx\tperson\n").is_err());
        assert!(NameUnits::parse("last\tx\ttoilet\n").is_err());
    }

    #[test]
    fn parses_and_looks_up_any_case() {
        let t = NameTable::parse("# x\njohn\tperson\t30\t31\n").unwrap();
        assert_eq!(t.get("John"), Some("person"));
        assert_eq!(t.get("bank"), None);
        assert!(NameTable::parse("john\ttoilet\n").is_err());
        assert!(NameTable::parse("john\n").is_err());
    }
}
