//! Proper names as SemCor's annotators tag them: a name they tag as a
//! person, group or location gets that lemma (`John` → `person`, not
//! WordNet's `john`, a toilet), learned per name from SemCor's train split
//! ([`crate::pipeline::learn::learn_names`]) and shipped in
//! `src/text/names.tsv` — when held-out train documents say such a table
//! helps; today they do not, and the table ships empty, leaving every
//! name to [`NameModel`] below. Names WordNet does not know at all get
//! `person` ([`crate::pipeline::name_lemma`]) without the model.
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
//!
//! What the two tables do not decide — a capitalised word the name table
//! lacks (`Anniston`, `Majdanek`, WordNet's `Stanley` used as a first
//! name, `Government`, `Nov.`), a multiword name whose last and first
//! words it lacks (`Allied Arts`) — [`NameModel`] does: a linear
//! classifier (averaged perceptron) over the word's context, shape,
//! suffix, WordNet's lexicographer files for it, how often SemCor's
//! annotators tagged its noun senses (WordNet's counts, bucketed; read
//! without the document's own instances in training) and the names of
//! the same document ([`word_features`], [`unit_features`]), choosing
//! `person`, `group`, `location` or, for a single word WordNet has,
//! `other` (its WordNet lemma). Learned on SemCor's train split, with
//! its epochs chosen on held-out train documents
//! ([`crate::pipeline::learn`]'s `learn_name_model`), shipped as
//! `src/text/name_model.tsv`.

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use crate::pos::category::OwnCounts;
use crate::text::accents::has_latin_letter;
use crate::wordnet::{Inventory, PointerKind, Pos};

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
/// headings and acronyms more often than names; so are words in another
/// script than Latin (`Москве`: [`has_latin_letter`]), no English names.
pub fn is_name_word(word: &str, tag: &str) -> bool {
    if !is_capitalised_proper(word, tag) {
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

/// Can `word` (tagged `tag`, not first in its sentence) be part of a
/// multiword name next to name words although the tagger calls it a
/// common noun or an adjective? A capitalised word (`Small` and
/// `Business` of `Small Business Administration`, `New` of `New York
/// Central`, `Daily` of `Providence Daily Journal`) with a lower-case
/// letter, made of letters and hyphens, some of them Latin.
pub fn is_loose_name_word(word: &str, tag: &str) -> bool {
    matches!(tag, "NN" | "NNS" | "JJ")
        && word.chars().next().is_some_and(char::is_uppercase)
        && word.chars().any(char::is_lowercase)
        && word.chars().all(|c| c.is_alphabetic() || c == '-')
        && has_latin_letter(word)
}

/// The test every name rule starts from: a word the tagger calls
/// `NNP`/`NNPS` that starts with a capital and has a Latin letter (a word
/// in another script, `Москве`, is no English name: [`has_latin_letter`]).
pub fn is_capitalised_proper(word: &str, tag: &str) -> bool {
    matches!(tag, "NNP" | "NNPS")
        && word.chars().next().is_some_and(char::is_uppercase)
        && has_latin_letter(word)
}

/// Is `word` a title before a name (`Mrs.`, `Dr.`, `Gov.`): shaped as
/// one (a capital, one to five lower-case letters, a full stop) and a
/// first word [`NameUnits`] learned as starting a person's name. The
/// tagger, trained on SemCor where `Mrs._Shaefer` is one token, calls such
/// a word `NN` about as often as `NNP`, which left `Mrs.` out of the name
/// (a target `mrs.` of its own, and the name a multiword miss: 28 gold
/// instances on SemCor's train split). So a title starts a run of name
/// words whatever its tag, also first in a sentence; only starts one, and
/// only a learned one, so that `Vs.` of `Tom Lord Vs. Joyce Lakewood` joins
/// nothing.
pub fn is_title(word: &str) -> bool {
    let Some(letters) = word.strip_suffix('.') else {
        return false;
    };
    let n = letters.chars().count();
    (2..=6).contains(&n)
        && letters.chars().next().is_some_and(char::is_uppercase)
        && letters.chars().skip(1).all(char::is_lowercase)
        && NameUnits::shipped()
            .first
            .get(word.to_lowercase().as_str())
            .is_some_and(|l| &**l == "person")
}

/// The runs `[start, end)` of two or more consecutive name words of a
/// tagged sentence: [`is_name_word`]s, an [`is_title`] first, and
/// [`is_loose_name_word`]s past the sentence's first word, with at least
/// one of the first kind.
pub fn name_runs<S: AsRef<str>>(words: &[&str], tags: &[S]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let start = i;
        let mut strict = false;
        while i < words.len() {
            let (w, t) = (words[i], tags[i].as_ref());
            if is_name_word(w, t) {
                strict = true;
            } else if !(i == start && is_title(w)) && (i == 0 || !is_loose_name_word(w, t)) {
                break;
            }
            i += 1;
        }
        if i - start >= 2 && strict {
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
        self.decided(words).unwrap_or("person")
    }

    /// The lemma by the last word, else the first, if the table has
    /// either.
    pub fn decided(&self, words: &[&str]) -> Option<&str> {
        let key = |w: Option<&&str>| w.map(|w| w.to_lowercase()).unwrap_or_default();
        self.last
            .get(key(words.last()).as_str())
            .or_else(|| self.first.get(key(words.first()).as_str()))
            .map(|s| &**s)
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

/// The classes of [`NameModel`], in weight order: the three lemmas
/// SemCor's annotators give names, and `other` (the word's WordNet lemma).
pub const NAME_CLASSES: [&str; 4] = ["person", "group", "location", "other"];

/// The index of `other` in [`NAME_CLASSES`].
pub const OTHER: usize = 3;

/// What a document has said so far about each name (lower-cased word):
/// the lemma of a multiword unit it was part of ([`NameUnits::decided`],
/// `name` when undecided: `Stanley` alone after `Stanley Kowalski` is that
/// person again), and the words before and after its earlier occurrences
/// (`in Anniston` makes a later `Anniston said` a place still).
pub type NameMemory = FxHashMap<String, NameNote>;

/// One name's entry of [`NameMemory`].
#[derive(Clone, Debug, Default)]
pub struct NameNote {
    /// The lemma of the unit it was last part of.
    pub unit: Option<&'static str>,
    /// Context cues of earlier occurrences (`p=in`, `n=said`), at most
    /// [`NameNote::MAX_CUES`], distinct.
    pub cues: Vec<Box<str>>,
}

impl NameNote {
    /// The most cues kept per name.
    pub const MAX_CUES: usize = 24;
}

/// Note the context of every capitalised proper noun of a tagged sentence
/// in the document's `memory` (after the sentence's words are decided, so
/// that a word sees earlier occurrences only).
pub fn remember_cues<S: AsRef<str>>(memory: &mut NameMemory, words: &[&str], tags: &[S]) {
    for (i, w) in words.iter().enumerate() {
        if !matches!(tags[i].as_ref(), "NNP" | "NNPS")
            || !w.chars().next().is_some_and(char::is_uppercase)
        {
            continue;
        }
        let note = memory.entry(w.to_lowercase()).or_default();
        let p = i
            .checked_sub(1)
            .map_or("<s>".to_string(), |k| words[k].to_lowercase());
        let n = words
            .get(i + 1)
            .map_or("<s>".to_string(), |w| w.to_lowercase());
        for cue in [format!("p={p}"), format!("n={n}")] {
            if note.cues.len() < NameNote::MAX_CUES && !note.cues.iter().any(|c| **c == *cue) {
                note.cues.push(cue.into());
            }
        }
    }
}

/// A linear classifier over string features: one weight per feature and
/// class of [`NAME_CLASSES`]; see the module docs.
#[derive(Clone, Debug, Default)]
pub struct NameModel {
    /// Feature → weights.
    pub weights: FxHashMap<Box<str>, [f32; 4]>,
}

const SHIPPED_MODEL: &str = include_str!("name_model.tsv");

/// How many perceptrons [`NameModel::train`] averages, each in its own
/// shuffle: one perceptron's weights for a word seen a few times follow
/// the order it met them in, and re-learning on slightly different input
/// (the sentence splitter finding more of SemCor's sentence starts) made
/// `lived in Anniston` a person. `$WSD_NAME_MODEL_BAGS` overrides it for
/// the tuning runs (1: the single perceptron of before).
pub const NAME_MODEL_BAGS: u64 = 8;

/// [`NAME_MODEL_BAGS`], or `$WSD_NAME_MODEL_BAGS` when set.
pub fn name_model_bags() -> u64 {
    crate::pos::category::bags_from_env("WSD_NAME_MODEL_BAGS", NAME_MODEL_BAGS)
}

impl NameModel {
    /// The shipped model, parsed once.
    pub fn shipped() -> &'static NameModel {
        static T: OnceLock<NameModel> = OnceLock::new();
        T.get_or_init(|| {
            NameModel::parse(SHIPPED_MODEL).expect("src/text/name_model.tsv is well formed")
        })
    }

    /// The summed weights of `features` per class.
    pub fn scores<S: AsRef<str>>(&self, features: &[S]) -> [f32; 4] {
        let mut s = [0f32; 4];
        for f in features {
            if let Some(w) = self.weights.get(f.as_ref()) {
                for (a, b) in s.iter_mut().zip(w) {
                    *a += b;
                }
            }
        }
        s
    }

    /// The best class among the `allowed` ones (ties: the first), or
    /// `None` for an empty model.
    pub fn best<S: AsRef<str>>(&self, features: &[S], allowed: [bool; 4]) -> Option<usize> {
        if self.weights.is_empty() {
            return None;
        }
        let s = self.scores(features);
        (0..4)
            .filter(|&c| allowed[c])
            .fold(None, |b: Option<usize>, c| match b {
                Some(b) if s[b] >= s[c] => Some(b),
                _ => Some(c),
            })
    }

    /// Read `feature w_person w_group w_location w_other` lines (`#`
    /// comments).
    pub fn parse(text: &str) -> Result<NameModel, String> {
        let mut m = NameModel::default();
        for (i, line) in text.lines().enumerate() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            let bad = || format!("name_model line {}: {line:?}", i + 1);
            if f.len() != 5 {
                return Err(bad());
            }
            let mut w = [0f32; 4];
            for (k, x) in f[1..].iter().enumerate() {
                w[k] = x.parse().map_err(|_| bad())?;
                if !w[k].is_finite() {
                    return Err(bad());
                }
            }
            m.weights.insert(f[0].into(), w);
        }
        Ok(m)
    }

    /// One averaged perceptron over the indexed examples `ex` (`n`
    /// features), `epochs` passes in the shuffle `seed` (xorshift, non-zero)
    /// gives; the averaged weights per feature.
    fn perceptron(
        ex: &[(Vec<usize>, usize, [bool; 4])],
        n: usize,
        epochs: usize,
        mut seed: u64,
    ) -> Vec<[f64; 4]> {
        let (mut w, mut u) = (vec![[0f64; 4]; n], vec![[0f64; 4]; n]);
        let mut order: Vec<usize> = (0..ex.len()).collect();
        let mut c = 1f64;
        for _ in 0..epochs {
            for k in (1..order.len()).rev() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                order.swap(k, (seed % (k as u64 + 1)) as usize);
            }
            for &e in &order {
                let (ids, y, allowed) = &ex[e];
                let mut s = [0f64; 4];
                for &i in ids {
                    for k in 0..4 {
                        s[k] += w[i][k];
                    }
                }
                let guess = (0..4)
                    .filter(|&k| allowed[k])
                    .fold(None, |b: Option<usize>, k| match b {
                        Some(b) if s[b] >= s[k] => Some(b),
                        _ => Some(k),
                    })
                    .unwrap_or(*y);
                if guess != *y {
                    for &i in ids {
                        w[i][*y] += 1.0;
                        w[i][guess] -= 1.0;
                        u[i][*y] += c;
                        u[i][guess] -= c;
                    }
                }
                c += 1.0;
            }
        }
        w.iter()
            .zip(&u)
            .map(|(w, u)| std::array::from_fn(|k| w[k] - u[k] / c))
            .collect()
    }

    /// The model as TSV (what [`NameModel::parse`] reads) after `header`
    /// (comment lines), sorted by feature.
    pub fn to_tsv(&self, header: &str) -> String {
        let mut rows: Vec<_> = self.weights.iter().collect();
        rows.sort_by(|a, b| a.0.cmp(b.0));
        let mut out = String::from(header);
        for (f, w) in rows {
            out.push_str(&format!(
                "{f}\t{:.3}\t{:.3}\t{:.3}\t{:.3}\n",
                w[0], w[1], w[2], w[3]
            ));
        }
        out
    }

    /// An averaged perceptron over `examples` (features, gold class,
    /// allowed classes), `epochs` passes; [`NAME_MODEL_BAGS`] of them, each
    /// in its own fixed shuffle, averaged;
    /// features seen in fewer than `min_count` examples are dropped (they
    /// only memorise). Weights are scaled so the largest is about 10 and
    /// ones below 0.0005 dropped, to keep the shipped table small.
    pub fn train(
        examples: &[(Vec<String>, usize, [bool; 4])],
        epochs: usize,
        min_count: u32,
    ) -> NameModel {
        let mut count: FxHashMap<&str, u32> = FxHashMap::default();
        for (fs, _, _) in examples {
            for f in fs {
                *count.entry(f.as_str()).or_default() += 1;
            }
        }
        let mut index: FxHashMap<&str, usize> = FxHashMap::default();
        let mut names: Vec<&str> = Vec::new();
        let ex: Vec<(Vec<usize>, usize, [bool; 4])> = examples
            .iter()
            .map(|(fs, y, a)| {
                let ids = fs
                    .iter()
                    .filter(|f| count[f.as_str()] >= min_count)
                    .map(|f| {
                        *index.entry(f.as_str()).or_insert_with(|| {
                            names.push(f.as_str());
                            names.len() - 1
                        })
                    })
                    .collect();
                (ids, *y, *a)
            })
            .collect();
        let n = names.len();
        let bags = name_model_bags();
        let mut avg = vec![[0f64; 4]; n];
        for bag in 0..bags {
            let seed = 0x9e37_79b9_7f4a_7c15u64 ^ bag.wrapping_mul(0xbf58_476d_1ce4_e5b9);
            let one = Self::perceptron(&ex, n, epochs, seed);
            for (a, o) in avg.iter_mut().zip(&one) {
                for k in 0..4 {
                    a[k] += o[k] / bags as f64;
                }
            }
        }
        let top = avg
            .iter()
            .flatten()
            .fold(0f64, |m, x| m.max(x.abs()))
            .max(1e-9);
        let mut m = NameModel::default();
        for (f, a) in names.iter().zip(&avg) {
            let s: [f32; 4] = std::array::from_fn(|k| (a[k] * 10.0 / top) as f32);
            if s.iter().any(|x| x.abs() >= 0.0005) {
                m.weights.insert((*f).into(), s);
            }
        }
        m
    }
}

/// The last `n` characters of `w`.
fn suffix(w: &str, n: usize) -> &str {
    let k = w.char_indices().rev().nth(n - 1).map_or(0, |(k, _)| k);
    &w[k..]
}

/// The features of single word `i` of a tagged sentence for
/// [`NameModel`]: the word, its last 3 and 4 letters, the words and tags
/// around it (`Mr.` before, `said` or a verb after, `in` / `of the`
/// before), its shape (an abbreviation's full stop, all capitals, first in
/// the sentence), what WordNet has for it as a noun (nothing; common
/// nouns only; the lexicographer files of its capitalised senses —
/// `noun.person` for `Stanley`, `noun.location` for `Lublin` — and
/// whether they are instances) and the unit lemma of the same word
/// earlier in the document (`memory`).
pub fn word_features<S: AsRef<str>>(
    inv: &Inventory,
    words: &[&str],
    tags: &[S],
    i: usize,
    memory: &NameMemory,
) -> Vec<String> {
    word_features_less(inv, words, tags, i, memory, &OwnCounts::default())
}

/// [`word_features`] with WordNet's tag counts read without `own` (a
/// training document's own gold instances, see
/// [`crate::pos::category::own_counts`]): WordNet counted its senses on
/// SemCor, so for a name in a training document the count says how that
/// very document was annotated, which new text cannot tell.
pub fn word_features_less<S: AsRef<str>>(
    inv: &Inventory,
    words: &[&str],
    tags: &[S],
    i: usize,
    memory: &NameMemory,
    own: &OwnCounts,
) -> Vec<String> {
    let w = words[i].to_lowercase();
    let word = |k: Option<usize>| {
        k.and_then(|k| words.get(k))
            .map_or("<s>".to_string(), |w| w.to_lowercase())
    };
    let tag = |k: Option<usize>| k.and_then(|k| tags.get(k)).map_or("<s>", |t| t.as_ref());
    let (p, n) = (i.checked_sub(1), Some(i + 1));
    let mut f = vec![
        "b".to_string(),
        format!("t={}", tag(Some(i))),
        format!("s3={}", suffix(&w, 3)),
        format!("s4={}", suffix(&w, 4)),
        format!("p={}", word(p)),
        format!("pp={} {}", word(i.checked_sub(2)), word(p)),
        format!("n={}", word(n)),
        format!("pt={}", tag(p)),
        format!("nt={}", tag(n)),
    ];
    if words[i].ends_with('.') {
        f.push("dot".into());
    }
    if !words[i].chars().any(char::is_lowercase) {
        f.push("caps".into());
    }
    if i == 0 {
        f.push("first".into());
    }
    if let Some(note) = memory.get(&w) {
        if let Some(l) = note.unit {
            f.push(format!("m={l}"));
        }
        for c in &note.cues {
            f.push(format!("m{c}"));
        }
    }
    let senses = inv.lookup(words[i], Pos::Noun);
    if senses.is_empty() {
        f.push("wn=none".into());
    } else {
        let mut any_cap = false;
        for s in &senses {
            let Some(syn) = inv.get(s.synset) else {
                continue;
            };
            if inv
                .written_forms(s)
                .any(|w| w.chars().any(char::is_uppercase))
            {
                any_cap = true;
                let lex = crate::wordnet::lexname(syn.lex_filenum);
                let inst = syn.related(PointerKind::InstanceHypernym).next().is_some();
                f.push(format!("wc={lex}{}", if inst { "/i" } else { "" }));
            }
        }
        f.push(if any_cap { "wn=cap" } else { "wn=common" }.into());
        // How often annotators tagged the word's noun senses (SemCor, as
        // WordNet counts it), in buckets: a common noun they use
        // (`government`) against one they hardly do (`mike`, a
        // microphone), whose capitalised form is then a first name.
        let mut lemmas: Vec<&str> = Vec::new();
        let mut count: u32 = 0;
        for s in &senses {
            count = count.saturating_add(s.tag_count);
            let lemma = s.key.split('%').next().unwrap_or("");
            if !lemmas.contains(&lemma) {
                lemmas.push(lemma);
            }
        }
        let less: u32 = lemmas
            .iter()
            .map(|l| {
                own.get(&(l.to_lowercase(), Pos::Noun))
                    .copied()
                    .unwrap_or(0)
            })
            .sum();
        let bucket = match count.saturating_sub(less) {
            0 => "0",
            1..=4 => "1",
            5..=19 => "5",
            _ => "20",
        };
        f.push(format!("tc={bucket}{}", if any_cap { "c" } else { "" }));
        if senses.len() == 1 {
            f.push("wn1".into());
        }
    }
    f.push(format!("w={w}"));
    f.sort_unstable();
    f.dedup();
    f
}

/// The features of the multiword name `words[a..b]` for [`NameModel`]
/// (`U`-prefixed, apart from the single words'): its last and first
/// words, every word, the last word's last 3 and 4 letters, the words
/// around it and its length.
pub fn unit_features(words: &[&str], a: usize, b: usize) -> Vec<String> {
    let lw = |k: usize| words[k].to_lowercase();
    let last = lw(b - 1);
    let mut f = vec![
        "U".to_string(),
        format!("Ul={last}"),
        format!("Uf={}", lw(a)),
        format!("Us3={}", suffix(&last, 3)),
        format!("Us4={}", suffix(&last, 4)),
        format!("Up={}", a.checked_sub(1).map_or("<s>".to_string(), lw)),
        format!(
            "Un={}",
            if b < words.len() {
                lw(b)
            } else {
                "<s>".to_string()
            }
        ),
        format!("Ulen={}", (b - a).min(4)),
    ];
    for k in a..b {
        f.push(format!("Uw={}", lw(k)));
    }
    f.sort_unstable();
    f.dedup();
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tag-count bucket reads WordNet's counts, less a training
    /// document's own instances when given: `bank`'s noun senses were
    /// tagged 47 times in the fixture, 7 without a document that tagged
    /// it 40 times.
    #[test]
    fn tag_count_bucket_leaves_the_document_out() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mini-wordnet");
        let inv = Inventory::load(&dir).unwrap();
        let words = ["Bank", "said"];
        let tags = ["NNP", "VBD"];
        let memory = NameMemory::default();
        let all = word_features(&inv, &words, &tags, 0, &memory);
        assert!(all.contains(&"tc=20".to_string()), "{all:?}");
        let mut own = OwnCounts::default();
        own.insert(("bank".to_string(), Pos::Noun), 40);
        let less = word_features_less(&inv, &words, &tags, 0, &memory, &own);
        assert!(less.contains(&"tc=5".to_string()), "{less:?}");
        assert!(!less.contains(&"tc=20".to_string()));
    }

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

    /// Capitalised common nouns and adjectives join a run of proper nouns
    /// (`Small Business Administration`), not at the start of a sentence
    /// (the capital says nothing there) and not on their own.
    #[test]
    fn loose_words_extend_name_runs() {
        let w = ["The", "Small", "Business", "Administration", "said"];
        let t = ["DT", "JJ", "NN", "NNP", "VBD"];
        assert_eq!(name_runs(&w, &t), [(1, 4)]);
        let w = ["Small", "Business", "Administration", "said"];
        let t = ["JJ", "NN", "NNP", "VBD"];
        assert_eq!(name_runs(&w, &t), [(1, 3)]);
        let w = ["the", "Great", "Depression", "came"];
        let t = ["DT", "JJ", "NN", "VBD"];
        assert!(name_runs(&w, &t).is_empty(), "no proper noun, no run");
        assert!(!is_loose_name_word("small", "JJ"));
        assert!(!is_loose_name_word("Small", "VB"));
        assert!(!is_loose_name_word("B-52", "NN"));
    }

    /// A title joins the name after it whatever the tagger calls it, also
    /// first in a sentence; alone it is no name.
    #[test]
    fn titles_join_the_name_after_them() {
        let w = ["Mrs.", "Shaefer", "said", "no"];
        let t = ["NN", "NNP", "VBD", "DT"];
        assert_eq!(name_runs(&w, &t), [(0, 2)]);
        let w = ["of", "Dr.", "Jones", "'s", "body"];
        let t = ["IN", "NN", "NNP", "POS", "NN"];
        assert_eq!(name_runs(&w, &t), [(1, 3)]);
        let w = ["Tom", "Lord", "Vs.", "Joyce", "Lakewood"];
        let t = ["NNP", "NNP", "NN", "NNP", "NNP"];
        assert_eq!(name_runs(&w, &t), [(0, 2), (3, 5)], "not a title");
        let w = ["Jones", "and", "Dr.", "Smith"];
        let t = ["NNP", "CC", "NN", "NNP"];
        assert_eq!(name_runs(&w, &t), [(2, 4)]);
        let w = ["the", "Dr.", "said"];
        let t = ["DT", "NN", "VBD"];
        assert!(name_runs(&w, &t).is_empty());
        assert!(is_title("Gov."));
        assert!(!is_title("Vs."), "not learned as a title");
        assert!(!is_title("Mrs"), "no full stop");
        assert!(!is_title("U.S."), "initials are name words already");
        assert!(!is_title("Nov"));
        assert!(!is_title("mr."));
    }

    fn example(f: &[&str], y: usize) -> (Vec<String>, usize, [bool; 4]) {
        (f.iter().map(|s| s.to_string()).collect(), y, [true; 4])
    }

    /// The perceptron learns a separable toy problem (`in X` a place, `Mr.
    /// X` a person, `X Inc.` a group), drops features seen too rarely, and
    /// its table reads back to the same decisions.
    #[test]
    fn perceptron_learns_and_round_trips() {
        let mut ex = Vec::new();
        for k in 0..20 {
            let w = format!("w={k}");
            ex.push(example(&["b", "p=in", &w], 2));
            ex.push(example(&["b", "p=mr.", &w], 0));
            ex.push(example(&["b", "n=inc.", &w], 1));
            ex.push(example(&["b", "p=the", &w], OTHER));
        }
        ex.push(example(&["b", "p=in", "rare"], 0));
        let m = NameModel::train(&ex, 5, 2);
        assert!(!m.weights.contains_key("rare"), "seen once, dropped");
        for (f, y) in [("p=in", 2), ("p=mr.", 0), ("n=inc.", 1), ("p=the", OTHER)] {
            assert_eq!(m.best(&["b", f, "w=new"], [true; 4]), Some(y), "{f}");
        }
        // `other` not allowed: the best of the rest.
        let c = m.best(&["b", "p=the"], [true, true, true, false]).unwrap();
        assert_ne!(c, OTHER);
        let back = NameModel::parse(&m.to_tsv("# toy\n")).unwrap();
        for f in ["p=in", "p=mr.", "n=inc.", "p=the"] {
            assert_eq!(
                back.best(&["b", f], [true; 4]),
                m.best(&["b", f], [true; 4])
            );
        }
        assert_eq!(NameModel::default().best(&["b"], [true; 4]), None);
    }

    #[test]
    fn model_table_errors_name_the_line() {
        let e = NameModel::parse("# x\nb\t1\t2\t3\n").unwrap_err();
        assert!(e.contains("line 2"), "{e}");
        assert!(NameModel::parse("b\t1\t2\tx\t4\n").is_err());
        assert!(NameModel::parse("b\t1\t2\tNaN\t4\n").is_err());
        assert!(
            NameModel::shipped().weights.len() > 100,
            "the shipped model"
        );
    }

    /// Later occurrences of a name see the contexts of earlier ones, and a
    /// word's own sentence is not noted before it is decided.
    #[test]
    fn memory_notes_contexts_once() {
        let mut m = NameMemory::default();
        let w = ["He", "lived", "in", "Anniston", "."];
        let t = ["PRP", "VBD", "IN", "NNP", "."];
        remember_cues(&mut m, &w, &t);
        remember_cues(&mut m, &w, &t);
        let note = &m["anniston"];
        assert_eq!(
            note.cues,
            vec!["p=in".into(), "n=.".into()] as Vec<Box<str>>
        );
        assert!(!m.contains_key("he") && !m.contains_key("lived"));
        let f = unit_features(&["Mike", "Deegan", "said"], 0, 2);
        assert!(f.contains(&"Ul=deegan".to_string()) && f.contains(&"Un=said".to_string()));
        assert!(f.contains(&"Up=<s>".to_string()) && f.contains(&"Ulen=2".to_string()));
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
