//! Proper names as SemCor's annotators tag them: a name they tag as a
//! person, group or location gets that lemma (`John` → `person`, not
//! WordNet's `john`, a toilet), learned per name from SemCor's train split
//! ([`crate::pipeline::learn::learn_names`]) and shipped in
//! `src/text/names.tsv`. Names WordNet does not know at all get `person`
//! ([`crate::pipeline::name_lemma`]).

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_looks_up_any_case() {
        let t = NameTable::parse("# x\njohn\tperson\t30\t31\n").unwrap();
        assert_eq!(t.get("John"), Some("person"));
        assert_eq!(t.get("bank"), None);
        assert!(NameTable::parse("john\ttoilet\n").is_err());
        assert!(NameTable::parse("john\n").is_err());
    }
}
