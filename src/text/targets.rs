//! Which words are targets by default: as SemCor's annotators choose them.
//!
//! Every token whose lemma and part of speech WordNet has is a *candidate*
//! target. Which candidates are targets by default
//! ([`crate::pipeline::TargetSelection::Content`]) is learned from SemCor's
//! train split ([`crate::pipeline::learn`]): for each (lemma, part of
//! speech, function use — an auxiliary, or an existential `there`,
//! [`has_function_use`]) the pipeline produces on the train text, how
//! often the annotators gave that token a sense. A key is a target when
//! `(tagged + α·prior) / (seen + α) ≥ threshold`, where the prior is 0.9
//! for words [`fallback_target`] takes and 0.05 for the others, and `α`
//! and the threshold were chosen on the train split. Each document's
//! tokens of a key count for at most a few tokens' worth (the cap, chosen
//! too), and the choice leaves one document out: one document's
//! annotators skipping a word (`jazz` 0 of 15, all in one text) must not
//! make it a non-target everywhere. So `not`, `only`,
//! `other`, `more` and main-verb `have`, `do` and `be` are in, `the`, `of`
//! and auxiliaries before a participle (`has gone`, `was given`, `did
//! not`) are out.
//!
//! The shipped table (`src/text/targets.tsv`) keeps only the keys whose
//! learned decision differs from [`fallback_target`], so it is small; every
//! other key (and every word when nothing was learned) follows the
//! fallback, which is the built-in list: content words that are not stop
//! words, plus [`ANNOTATED_FUNCTION_WORDS`].

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use super::is_stop_word;
use crate::wordnet::Pos;

/// Stop words that SemCor's annotators do tag (almost always, with a sense
/// WordNet has): kept as targets by the fallback rule.
pub const ANNOTATED_FUNCTION_WORDS: &[&str] = &[
    "again", "all", "few", "further", "just", "more", "most", "no", "not", "now", "off", "once",
    "only", "other", "out", "over", "own", "same", "so", "such", "then", "there", "too", "very",
];

/// The verbs that serve as auxiliaries.
pub const AUXILIARY_VERBS: &[&str] = &["be", "do", "have"];

/// Words with a function use the target table keys apart from their
/// other uses: the auxiliaries, and `there`, whose existential use (`there
/// is`, tagged `EX`) SemCor's annotators leave untagged and whose locative
/// one (`stood there`) they tag.
pub fn has_function_use(lemma: &str) -> bool {
    AUXILIARY_VERBS.contains(&lemma) || lemma == "there"
}

/// Is a word tagged `tag` an existential `there`?
pub fn is_existential(lemma: &str, tag: &str) -> bool {
    lemma == "there" && tag == "EX"
}

/// The built-in rule, used for keys the table does not list: a word is a
/// target unless it is a stop word (not in [`ANNOTATED_FUNCTION_WORDS`]) or
/// an auxiliary before another verb.
pub fn fallback_target(lemma: &str, pos: Pos, aux: bool) -> bool {
    if AUXILIARY_VERBS.contains(&lemma) && pos == Pos::Verb {
        return !aux;
    }
    !is_stop_word(lemma) || ANNOTATED_FUNCTION_WORDS.contains(&lemma)
}

/// Is the verb at `i` (lemma `be`, `have` or `do`) an auxiliary? It is
/// when the next verb (skipping adverbs, `not`, `n't` and a pronoun
/// subject as in `did you go`) is a participle for `be`/`have` — tagged
/// `VBN`/`VBG`/`VBD`, or spelled differently from its base form (the
/// tagger may say `VB` for participles, as half of SemCor does) — or any
/// verb for `do`.
///
/// The next word counts as a verb only when `is_verb(j)` says so (the
/// caller's check that WordNet has it as a verb): the tagger, trained on
/// SemCor's verbs-only files, tags `it` and `in` `VB` (`did it`, `do in
/// my place`), and SemCor's annotators tag those `do`s as main verbs
/// (held-out train halves: 93 `do` missed before this check). Neither is
/// a form of `be` other than `been`/`being` a participle (`what has not
/// is`), nor is `do` before `be` an auxiliary (`all she did was write`).
pub fn is_auxiliary<W: AsRef<str>, T: AsRef<str>, L: AsRef<str>>(
    lemma: &str,
    words: &[W],
    tags: &[T],
    lemmas: &[Option<L>],
    is_verb: impl Fn(usize) -> bool,
    i: usize,
) -> bool {
    if !AUXILIARY_VERBS.contains(&lemma) {
        return false;
    }
    let mut j = i + 1;
    let mut skipped = 0;
    while j < tags.len() && skipped < 3 {
        let t = tags[j].as_ref();
        let w = words[j].as_ref();
        if t.starts_with("RB") || t == "PRP" || w.eq_ignore_ascii_case("not") || w == "n't" {
            j += 1;
            skipped += 1;
            continue;
        }
        break;
    }
    if j >= tags.len() {
        return false;
    }
    let t = tags[j].as_ref();
    if !t.starts_with("VB") || !is_verb(j) {
        return false;
    }
    let w = words[j].as_ref().to_lowercase();
    let next_lemma = lemmas[j].as_ref().map(|l| l.as_ref());
    if next_lemma == Some("be") && !matches!(w.as_str(), "been" | "being") {
        return false;
    }
    if lemma == "do" {
        return true;
    }
    if matches!(t, "VBN" | "VBG" | "VBD") {
        return true;
    }
    match next_lemma {
        Some(l) => l != w,
        None => false,
    }
}

/// The learned target decisions (see the module docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TargetTable {
    /// (lemma, POS letter, function use) → target?, for keys whose learned
    /// decision differs from [`fallback_target`].
    pub overrides: FxHashMap<(Box<str>, char, bool), bool>,
}

const SHIPPED_TARGETS: &str = include_str!("targets.tsv");

impl TargetTable {
    /// The shipped table, parsed once.
    pub fn shipped() -> &'static TargetTable {
        static T: OnceLock<TargetTable> = OnceLock::new();
        T.get_or_init(|| {
            TargetTable::parse(SHIPPED_TARGETS).expect("src/text/targets.tsv is well formed")
        })
    }

    /// Is a token with this lemma, part of speech and function use a
    /// target by default?
    pub fn is_target(&self, lemma: &str, pos: Pos, aux: bool) -> bool {
        // Only auxiliaries (and `there`) have a function use.
        let aux = aux && has_function_use(lemma);
        match self.overrides.get(&(lemma.into(), pos.letter(), aux)) {
            Some(&t) => t,
            None => fallback_target(lemma, pos, aux),
        }
    }

    /// Read the TSV: `lemma POS aux(0/1) target(0/1) [tagged seen]`.
    pub fn parse(text: &str) -> Result<TargetTable, String> {
        let mut t = TargetTable::default();
        for (i, line) in text.lines().enumerate() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            let bad = || format!("targets line {}: {line:?}", i + 1);
            if f.len() < 4 {
                return Err(bad());
            }
            let pos = f[1]
                .chars()
                .next()
                .and_then(Pos::from_letter)
                .ok_or_else(bad)?;
            let flag = |s: &str| match s {
                "0" => Ok(false),
                "1" => Ok(true),
                _ => Err(bad()),
            };
            t.overrides
                .insert((f[0].into(), pos.letter(), flag(f[2])?), flag(f[3])?);
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fallback_keeps_annotated_function_words() {
        assert!(fallback_target("not", Pos::Adv, false));
        assert!(fallback_target("other", Pos::Adj, false));
        assert!(fallback_target("bank", Pos::Noun, false));
        assert!(!fallback_target("the", Pos::Noun, false));
        assert!(fallback_target("have", Pos::Verb, false));
        assert!(!fallback_target("have", Pos::Verb, true));
    }

    #[test]
    fn auxiliaries_before_participles() {
        let words = ["He", "has", "not", "gone", "and", "has", "money", "."];
        let tags = ["PRP", "VBZ", "RB", "VBN", "CC", "VBZ", "NN", "."];
        let lemmas: Vec<Option<&str>> = vec![
            None,
            Some("have"),
            Some("not"),
            Some("go"),
            None,
            Some("have"),
            Some("money"),
            None,
        ];
        assert!(is_auxiliary("have", &words, &tags, &lemmas, |_| true, 1));
        assert!(!is_auxiliary("have", &words, &tags, &lemmas, |_| true, 5));
        assert!(!is_auxiliary("bank", &words, &tags, &lemmas, |_| true, 1));
        // A participle tagged VB (SemCor's style) still counts.
        let words = ["it", "was", "given"];
        let tags = ["PRP", "VBD", "VB"];
        let lemmas = vec![None, Some("be"), Some("give")];
        assert!(is_auxiliary("be", &words, &tags, &lemmas, |_| true, 1));
        // `do` before any verb.
        let words = ["did", "you", "go"];
        let tags = ["VBD", "PRP", "VB"];
        let lemmas = vec![Some("do"), None, Some("go")];
        assert!(is_auxiliary("do", &words, &tags, &lemmas, |_| true, 0));
    }

    #[test]
    fn main_verb_uses_are_not_auxiliaries() {
        // `it` tagged VB (the tagger's habit from SemCor's verbs-only
        // files) is no verb: `did` is the main verb.
        let words = ["I", "did", "it", "for", "money"];
        let tags = ["PRP", "VBD", "VB", "IN", "NN"];
        let lemmas = vec![None, Some("do"), Some("it"), None, Some("money")];
        let verb = |j: usize| j != 2;
        assert!(!is_auxiliary("do", &words, &tags, &lemmas, verb, 1));
        assert!(is_auxiliary("do", &words, &tags, &lemmas, |_| true, 1));
        // `do` before `be`, and `have` before `is`, are main verbs.
        let words = ["all", "she", "did", "was", "write"];
        let tags = ["DT", "PRP", "VBD", "VBD", "VB"];
        let lemmas = vec![None, None, Some("do"), Some("be"), Some("write")];
        assert!(!is_auxiliary("do", &words, &tags, &lemmas, |_| true, 2));
        let words = ["what", "has", "not", "is", "clear"];
        let tags = ["WP", "VBZ", "RB", "VBZ", "JJ"];
        let lemmas = vec![None, Some("have"), Some("not"), Some("be"), Some("clear")];
        assert!(!is_auxiliary("have", &words, &tags, &lemmas, |_| true, 1));
        // ... but `has been` is an auxiliary.
        let words = ["it", "has", "been", "done"];
        let tags = ["PRP", "VBZ", "VBN", "VBN"];
        let lemmas = vec![None, Some("have"), Some("be"), Some("do")];
        assert!(is_auxiliary("have", &words, &tags, &lemmas, |_| true, 1));
    }

    #[test]
    fn existential_there_is_a_function_use() {
        assert!(is_existential("there", "EX"));
        assert!(!is_existential("there", "RB"));
        assert!(!is_existential("then", "EX"));
        let t = TargetTable::parse("there\tr\t1\t0\n").unwrap();
        assert!(!t.is_target("there", Pos::Adv, true));
        assert!(t.is_target("there", Pos::Adv, false));
        // Other words have no function use: the flag is ignored.
        assert!(t.is_target("bank", Pos::Noun, true));
    }

    #[test]
    fn table_overrides_the_fallback() {
        let t = TargetTable::parse("# c\nthe\tn\t0\t1\t9\t10\nnot\tr\t0\t0\n").unwrap();
        assert!(t.is_target("the", Pos::Noun, false));
        assert!(!t.is_target("not", Pos::Adv, false));
        assert!(t.is_target("bank", Pos::Noun, false));
        assert!(TargetTable::parse("the\tx\t0\t1\n").is_err());
        assert!(TargetTable::parse("the\tn\t2\t1\n").is_err());
    }

    #[test]
    fn shipped_table_parses() {
        let t = TargetTable::shipped();
        assert!(t.is_target("not", Pos::Adv, false));
        assert!(!t.is_target("be", Pos::Verb, true));
    }
}
