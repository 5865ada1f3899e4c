//! Key files whatever their sense ids: before scoring, both files are
//! brought to one canonical form, and a pair of files that looks wrong
//! (the system file is a gold file, or the two arguments are swapped) is
//! reported.
//!
//! `wsd tag --sense-format offset|name` and other tools write synset
//! offsets (`08420278-n`) or NLTK names (`bank.n.02`,
//! `depository_financial_institution.n.01`) instead of sense keys; scored
//! as strings against a gold file of sense keys, every answer would be
//! wrong. So:
//!
//! * when every id on both sides is a sense key, the files are scored as
//!   they are, exactly as `Scorer.java` does (a key of another lemma in
//!   the right synset is wrong, as in the framework);
//! * otherwise every id of both files is replaced by its synset's offset
//!   id (`08420278-n`; satellites as `-a`, so `-s` and `-a` spellings
//!   agree) and the files are compared as synsets. An id WordNet cannot
//!   resolve is kept as written (it then matches nothing and is listed).

use std::collections::{HashMap, HashSet};

use crate::corpus::KeyFile;
use crate::wordnet::{offset_string, resolve_id, Dictionary, Pos, SynsetId};

/// The spelling of a sense id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum IdForm {
    /// A WordNet sense key, `bank%1:14:00::`.
    Key,
    /// A synset offset with its POS letter, `08420278-n`.
    Offset,
    /// An NLTK synset name, `bank.n.02`.
    Name,
    /// None of these.
    Other,
}

impl IdForm {
    /// The form of one id, by its spelling only.
    pub fn of(id: &str) -> IdForm {
        if id.contains('%') {
            return IdForm::Key;
        }
        if let Some((num, letter)) = id.rsplit_once('-') {
            if num.len() == 8 && num.bytes().all(|b| b.is_ascii_digit()) && letter.len() == 1 {
                return IdForm::Offset;
            }
        }
        let parts: Vec<&str> = id.rsplitn(3, '.').collect();
        if parts.len() == 3
            && parts[1].len() == 1
            && !parts[2].is_empty()
            && parts[0].parse::<u32>().is_ok()
        {
            return IdForm::Name;
        }
        IdForm::Other
    }

    /// How it is named in messages.
    pub fn name(self) -> &'static str {
        match self {
            IdForm::Key => "sense keys",
            IdForm::Offset => "offsets",
            IdForm::Name => "NLTK names",
            IdForm::Other => "other ids",
        }
    }
}

/// Two key files brought to one form ([`canonical_pair`]).
#[derive(Clone, Debug)]
pub struct CanonicalPair {
    /// The gold file, canonical.
    pub gold: KeyFile,
    /// The system file, canonical.
    pub system: KeyFile,
    /// `true` when the files are compared as synsets (some id was not a
    /// sense key), `false` when as sense keys.
    pub as_synsets: bool,
    /// The forms found in the gold file, sorted.
    pub gold_forms: Vec<IdForm>,
    /// The forms found in the system file, sorted.
    pub system_forms: Vec<IdForm>,
    /// The POS of each gold instance as its resolved synsets give it (for
    /// the per-POS breakdown, which otherwise reads it off a sense key).
    pub pos: HashMap<String, Pos>,
    /// The canonical ids that resolved, for the validity check of the
    /// system's keys.
    pub resolved: HashSet<String>,
}

fn forms(f: &KeyFile) -> Vec<IdForm> {
    let mut v: Vec<IdForm> = f
        .iter()
        .flat_map(|(_, keys)| keys.iter().map(|k| IdForm::of(k)))
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    v.sort();
    v
}

/// Bring `gold` and `system` to one form (see the [module docs](self)):
/// unchanged when both are all sense keys, else every id as its synset's
/// offset id, resolved through `d` (keys, offsets and both NLTK name forms).
pub fn canonical_pair(d: &impl Dictionary, gold: &KeyFile, system: &KeyFile) -> CanonicalPair {
    let gold_forms = forms(gold);
    let system_forms = forms(system);
    let as_synsets = gold_forms
        .iter()
        .chain(&system_forms)
        .any(|f| *f != IdForm::Key);
    let mut cache: HashMap<String, Option<SynsetId>> = HashMap::new();
    let mut resolve = |k: &str| -> Option<SynsetId> {
        *cache
            .entry(k.to_string())
            .or_insert_with(|| resolve_id(d, k).ok())
    };
    let mut pos = HashMap::new();
    let mut resolved = HashSet::new();
    let mut convert = |f: &KeyFile, is_gold: bool| -> KeyFile {
        let mut out = KeyFile::new();
        for (id, keys) in f.iter() {
            let mut conv = Vec::with_capacity(keys.len());
            for k in keys {
                match resolve(k) {
                    Some(sid) => {
                        if is_gold {
                            pos.entry(id.to_string()).or_insert(sid.pos);
                        }
                        let c = if as_synsets {
                            offset_string(sid, None)
                        } else {
                            k.clone()
                        };
                        resolved.insert(c.clone());
                        conv.push(c);
                    }
                    None => conv.push(k.clone()),
                }
            }
            out.insert(id, conv);
        }
        out
    };
    let gold_c = convert(gold, true);
    let system_c = convert(system, false);
    CanonicalPair {
        gold: gold_c,
        system: system_c,
        as_synsets,
        gold_forms,
        system_forms,
        pos,
        resolved,
    }
}

/// Warnings about a gold/system pair that looks wrong. None of them stops
/// the scoring (a real system may do any of these things); they are for
/// stderr, so that a wrong command line is noticed before its number is
/// reported:
///
/// * the system file gives the gold's keys on every gold instance: it is
///   probably the gold file itself;
/// * every gold id is in the system file and the system has more (a gold
///   file covers every instance, a system's output may not), or the system
///   has several keys on a few of its lines (fewer than half: the shape of
///   a gold file; top-k output has them on most lines) while the gold has
///   none: the arguments look swapped (`wsd score GOLD SYSTEM`);
/// * no system id is in the gold: a different data set, or ids built
///   differently (the first id of each is shown).
pub fn suspicious(gold: &KeyFile, system: &KeyFile) -> Vec<String> {
    let mut out = Vec::new();
    if system.is_empty() && !gold.is_empty() {
        out.push("the system file has no answers: every instance counts as unanswered".to_string());
    }
    if gold.is_empty() || system.is_empty() {
        return out;
    }
    let shared = gold.ids().filter(|id| system.contains(id)).count();
    let multi = |f: &KeyFile| f.iter().filter(|(_, k)| k.len() > 1).count();
    let (gold_multi, system_multi) = (multi(gold), multi(system));
    if shared == 0 {
        out.push(format!(
            "no system id is in the gold file (gold ids look like {:?}, system ids like {:?}): another data set, or ids made differently?",
            gold.ids().next().unwrap_or_default(),
            system.ids().next().unwrap_or_default()
        ));
        return out;
    }
    let identical = shared == gold.len()
        && gold.iter().all(|(id, g)| {
            let s = system.get(id).unwrap_or_default();
            let (g, s): (HashSet<&String>, HashSet<&String>) =
                (g.iter().collect(), s.iter().collect());
            g == s
        });
    let covers = shared == gold.len() && system.len() > gold.len();
    if identical {
        out.push(
            "the system file gives the gold keys on every instance: is it the gold file?"
                .to_string(),
        );
    }
    // A gold file has several keys on a few lines (4 of 455 in
    // SemEval-2007); top-k output has them on most lines.
    let gold_shaped = system_multi > 0 && 2 * system_multi < system.len() && gold_multi == 0;
    if covers || (gold_shaped && shared == gold.len() && !identical) {
        let mut why = Vec::new();
        if covers {
            why.push(format!(
                "the system file has every gold id and {} more",
                system.len() - gold.len()
            ));
        }
        if system_multi > 0 && gold_multi == 0 {
            why.push(format!(
                "{system_multi} system lines have several keys, as gold files do, and no gold line has"
            ));
        }
        out.push(format!(
            "{}: are the arguments swapped? (wsd score GOLD SYSTEM)",
            why.join("; ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::parse_keys;

    fn keys(text: &str) -> KeyFile {
        parse_keys(text, "mem").unwrap()
    }

    #[test]
    fn forms_by_spelling() {
        assert_eq!(IdForm::of("bank%1:14:00::"), IdForm::Key);
        assert_eq!(IdForm::of("08420278-n"), IdForm::Offset);
        assert_eq!(IdForm::of("01234567-s"), IdForm::Offset);
        assert_eq!(IdForm::of("bank.n.02"), IdForm::Name);
        assert_eq!(
            IdForm::of("depository_financial_institution.n.01"),
            IdForm::Name
        );
        assert_eq!(IdForm::of("U.S."), IdForm::Other);
        assert_eq!(IdForm::of("123-n"), IdForm::Other);
    }

    #[test]
    fn swapped_files_are_noticed() {
        let gold = keys("a x%1:00:00:: y%1:00:00::\nb y%1:00:00::\nc z%1:00:00::\n");
        let system = keys("a x%1:00:00::\nb y%1:00:00::\n");
        // The right way round: nothing to say.
        assert!(suspicious(&gold, &system).is_empty());
        // Swapped: the "system" has every "gold" id and more, and several keys.
        let w = suspicious(&system, &gold);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("every gold id and 1 more"), "{w:?}");
        assert!(w[0].contains("1 system lines have several keys"), "{w:?}");
        assert!(w[0].contains("swapped"), "{w:?}");
        // The gold scored against itself.
        let w = suspicious(&gold, &gold);
        assert!(w.iter().any(|m| m.contains("is it the gold file")), "{w:?}");
        // Disjoint ids.
        let other = keys("./x.txt.s0.t1 x%1:00:00::\n");
        let w = suspicious(&keys("x.txt.s0.t1 x%1:00:00::\n"), &other);
        assert!(w[0].contains("no system id is in the gold"), "{w:?}");
        assert!(w[0].contains("./x.txt.s0.t1"), "{w:?}");
    }

    #[test]
    fn an_empty_system_file_is_noticed() {
        let gold = keys("a x%1:00:00::\n");
        let w = suspicious(&gold, &KeyFile::new());
        assert!(w[0].contains("no answers"), "{w:?}");
        assert!(suspicious(&KeyFile::new(), &KeyFile::new()).is_empty());
    }

    #[test]
    fn swapped_files_with_the_same_ids_are_noticed_by_their_shape() {
        let gold = keys("a x%1:00:00:: y%1:00:00::\nb y%1:00:00::\nc z%1:00:00::\n");
        let system = keys("a x%1:00:00::\nb y%1:00:00::\nc w%1:00:00::\n");
        assert!(suspicious(&gold, &system).is_empty());
        let w = suspicious(&system, &gold);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].starts_with("1 system lines have several keys"),
            "{w:?}"
        );
        // Top-2 output: several keys on most lines, no warning.
        let top2 = keys("a x%1:00:00:: q%1:00:00::\nb y%1:00:00:: q%1:00:00::\nc w%1:00:00::\n");
        assert!(suspicious(&system, &top2).is_empty());
    }

    #[test]
    fn a_system_with_top_k_answers_is_not_swapped_when_the_gold_has_more_ids() {
        let gold = keys("a x%1:00:00::\nb y%1:00:00::\nc z%1:00:00::\n");
        let system = keys("a x%1:00:00:: w%1:00:00::\nb y%1:00:00::\n");
        assert!(suspicious(&gold, &system).is_empty());
    }
}
