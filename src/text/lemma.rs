//! Choosing one lemma among morphy's base forms.
//!
//! Morphy can offer several base forms for one word (`best` as an
//! adjective: `good` from the exception list, and `best` itself; `saw` as a
//! verb: `see` and `saw`). The rule:
//!
//! 1. For adjectives and adverbs, the surface form (lower-cased) wins when
//!    WordNet has it with that part of speech: SemCor's annotators tag
//!    `best` as `best` (89 of 89 adjective uses), `better` as `better`.
//! 2. Otherwise the form whose senses have the larger SemCor tag count
//!    (`index.sense`) wins: `saw` → `see`, `found` → `find`, `felt` →
//!    `feel`, `lay` → `lie`. For verbs and nouns the surface rule would be
//!    wrong more often than right (`saw`, `found`, `felt` are verbs too).
//! 3. Ties keep morphy's order.
//!
//! Before both, a short learned table ([`LemmaTable`],
//! `src/text/lemmas.tsv`) overrides the rule for the forms whose SemCor
//! annotators (train split) chose another of morphy's base forms clearly
//! more often: `higher` → `high`, `older` → `old` (rule 1 would keep the
//! surface form), `steps` → `steps`, `services` → `services` (rule 2
//! would take the singular, whose senses are more often tagged overall).
//! A form is listed when its majority lemma was given at least
//! [`LemmaTable::MIN_COUNT`] times and at least [`LemmaTable::MARGIN`]
//! times more often than the rule's lemma, so that the majority holds
//! with any one occurrence left out. Checked in two folds of the train
//! split (`lemma_table_two_fold`): of 4,565 sense-tagged words with several
//! base forms, 4,025 get the annotators' lemma with a table learned on
//! the other half, 3,945 without. `wsd eval --raw --method mfs`: SemCor
//! train split 70.8 → 70.9 F1 (wrong lemma 1,906 → 1,769 instances, on
//! the table's own data), SemEval-2007 52.8 → 52.5 (one instance: `lots`,
//! which SemEval-2007 gives as `lot`).
//!
//! An abbreviation the tokeniser kept with its period (`Nov.`, `Fig.`,
//! `mg.`) that WordNet lacks with the period takes the base forms of the
//! word without it (`nov`, `fig`, `mg`), as SemCor's annotators lemmatise
//! it; on SemCor's test split these were 40 instances lemmatised `person`
//! or left without a target.
//!
//! A word with diacritics WordNet lacks as written (all of WordNet 3.0's
//! lemmas are ASCII) takes the base forms of its ASCII spelling
//! ([`super::accents::fold_diacritics`]): `naïve` → `naive`, `résumés` →
//! `resume`, `Zürich` → `zurich`.
//!
//! Penn clitics, which morphy does not know, have fixed lemmas: `'s`,
//! `'re`, `'m`, `ai` (of `ai n't`) → `be`, `'ve`, `'d` → `have` (as
//! verbs), `n't` → `not` (as an adverb).
//!
//! Measured on SemCor's train split over tokens with two or more base
//! forms (see `crate::pipeline::learn`).

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use crate::wordnet::{Inventory, Pos};

/// The learned overrides of the lemma rule (see the module docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LemmaTable {
    /// (lower-cased form, POS letter) → lemma.
    map: FxHashMap<(String, char), String>,
}

const SHIPPED_LEMMAS: &str = include_str!("lemmas.tsv");

impl LemmaTable {
    /// A form is listed when its majority lemma was given this often …
    pub const MIN_COUNT: usize = 3;
    /// … and this many times more often than the rule's lemma.
    pub const MARGIN: usize = 2;

    /// The shipped table, parsed once.
    pub fn shipped() -> &'static LemmaTable {
        static T: OnceLock<LemmaTable> = OnceLock::new();
        T.get_or_init(|| {
            LemmaTable::parse(SHIPPED_LEMMAS).expect("src/text/lemmas.tsv is well formed")
        })
    }

    /// Read `form<TAB>pos<TAB>lemma[<TAB>…]` lines (`#` comments); an
    /// error names the line.
    pub fn parse(text: &str) -> Result<LemmaTable, String> {
        let mut map = FxHashMap::default();
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            let pos = f
                .get(1)
                .and_then(|p| p.chars().next())
                .and_then(Pos::from_letter);
            match (f.first(), pos, f.get(2)) {
                (Some(form), Some(pos), Some(lemma)) if !form.is_empty() && !lemma.is_empty() => {
                    map.insert((form.to_string(), pos.letter()), lemma.to_string());
                }
                _ => return Err(format!("lemmas.tsv:{}: expected form, pos, lemma", n + 1)),
            }
        }
        Ok(LemmaTable { map })
    }

    /// The learned lemma of `form` (lower case) as `pos`, if listed.
    pub fn get(&self, form: &str, pos: Pos) -> Option<&str> {
        if self.map.is_empty() {
            return None;
        }
        self.map
            .get(&(form.to_string(), pos.letter()))
            .map(String::as_str)
    }

    /// Number of listed forms.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Is the table empty?
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// The lemma of `word` as `pos` by the rule above, or `None` when WordNet
/// has no base form for it.
pub fn choose_lemma(inv: &Inventory, word: &str, pos: Pos) -> Option<String> {
    choose_lemma_with(inv, word, pos, LemmaTable::shipped())
}

/// [`choose_lemma`] with a given override table (empty: the rule alone).
pub fn choose_lemma_with(
    inv: &Inventory,
    word: &str,
    pos: Pos,
    table: &LemmaTable,
) -> Option<String> {
    if let Some(l) = clitic_lemma(word, pos) {
        return Some(l.to_string());
    }
    let mut cands = inv.morphy(word, pos);
    if cands.is_empty() && word.len() > 1 && word.ends_with('.') {
        cands = inv.morphy(&word[..word.len() - 1], pos);
    }
    if cands.is_empty() {
        cands = hyphen_variants(inv, word, pos);
    }
    if cands.is_empty() {
        cands = dropped_g_variants(inv, word, pos);
    }
    if cands.is_empty() && !word.is_ascii() {
        if let Some(folded) = super::accents::fold_diacritics(word) {
            return choose_lemma_with(inv, &folded, pos, table);
        }
    }
    if cands.len() <= 1 {
        return cands.pop();
    }
    if !table.is_empty() {
        let form = crate::wordnet::morphy::normalize(word);
        if let Some(l) = table.get(&form, pos) {
            if let Some(k) = cands.iter().position(|c| c == l) {
                return Some(cands.swap_remove(k));
            }
        }
    }
    if matches!(pos, Pos::Adj | Pos::Adv) {
        let surface = crate::wordnet::morphy::normalize(word);
        if let Some(k) = cands.iter().position(|c| *c == surface) {
            return Some(cands.swap_remove(k));
        }
    }
    let count = |l: &str| -> u64 {
        inv.senses(l, pos)
            .iter()
            .map(|s| u64::from(s.tag_count))
            .sum()
    };
    let mut best = 0;
    let mut best_count = count(&cands[0]);
    for (k, c) in cands.iter().enumerate().skip(1) {
        let n = count(c);
        if n > best_count {
            best = k;
            best_count = n;
        }
    }
    Some(cands.swap_remove(best))
}

/// The base forms of a hyphenated word WordNet lacks as written, read
/// without its hyphens (`over-all` → `overall`, `teen-agers` →
/// `teenager`) and with them as word breaks (`vapor-pressure` →
/// `vapor_pressure`, `cost-of-living` → `cost_of_living`), both ways
/// together so the tag-count rule picks between them. SemCor's
/// annotators lemmatise such words as WordNet spells them; on SemCor's
/// train split 307 gold instances (176 + 131) were left without a target
/// because the hyphenated form has no senses. Empty for a word without a
/// hyphen inside it. A hyphen between two digits is no word break but a
/// score, range or number (`won 9-4`, `pages 10-12`, `1-800-555-0199`):
/// such a word is not read without its hyphens (`9-4` was the cardinal
/// `94`).
pub fn hyphen_variants(inv: &Inventory, word: &str, pos: Pos) -> Vec<String> {
    let inner = word.trim_matches('-');
    if !inner.contains('-') {
        return Vec::new();
    }
    let b = inner.as_bytes();
    let between_digits = (1..b.len().saturating_sub(1))
        .any(|k| b[k] == b'-' && b[k - 1].is_ascii_digit() && b[k + 1].is_ascii_digit());
    let mut cands = if between_digits {
        Vec::new()
    } else {
        inv.morphy(&inner.replace('-', ""), pos)
    };
    for c in inv.morphy(&inner.replace('-', "_"), pos) {
        if !cands.contains(&c) {
            cands.push(c);
        }
    }
    cands
}

/// The base forms of a word WordNet lacks that ends in `-in` (or `-in'`)
/// read as the `-ing` form it spells with a dropped g (`goin` → `go`,
/// `takin` → `take`, `sportin` → `sporting`), as dialogue in fiction
/// writes it. SemCor's annotators lemmatise such words as the standard
/// form; on held-out halves of SemCor's train split 41 of the 1,168
/// missed targets were such words (5 of 474 on the test split). Empty for
/// other words, and for words of fewer than four letters (`in`, `kin`).
pub fn dropped_g_variants(inv: &Inventory, word: &str, pos: Pos) -> Vec<String> {
    let w = word.strip_suffix(['\'', '\u{2019}']).unwrap_or(word);
    if w.len() < 4 || !(w.ends_with("in") || w.ends_with("IN")) {
        return Vec::new();
    }
    inv.morphy(&format!("{w}g"), pos)
}

/// The lemma of a Penn clitic (`'s` → `be` as a verb, `n't` → `not`).
pub fn clitic_lemma(word: &str, pos: Pos) -> Option<&'static str> {
    let w = word.replace('\u{2019}', "'").to_lowercase();
    match (w.as_str(), pos) {
        // `ain't` is `ai n't` in Penn's tokens, and SemCor's annotators
        // tag its `ai` as `be` (WordNet's `ai` is a sloth).
        ("'s" | "'re" | "'m" | "ai", Pos::Verb) => Some("be"),
        ("'ve" | "'d", Pos::Verb) => Some("have"),
        ("n't", Pos::Adv) => Some("not"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_parses_and_refuses_bad_lines() {
        let t = LemmaTable::parse("# comment\nhigher\ta\thigh\t43\t11\n").unwrap();
        assert_eq!(t.get("higher", Pos::Adj), Some("high"));
        assert_eq!(t.get("higher", Pos::Noun), None);
        assert_eq!(t.len(), 1);
        let err = LemmaTable::parse("ok\tn\tok\nbad\tq\tx\n").unwrap_err();
        assert!(err.contains("lemmas.tsv:2"), "{err}");
        assert!(LemmaTable::parse("x\tn\n").is_err());
        assert!(!LemmaTable::shipped().is_empty());
    }

    #[test]
    fn dropped_g_reads_as_ing() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let inv = Inventory::open(Some(&root.join("wordnet/dict"))).expect("wordnet/dict");
        assert_eq!(choose_lemma(&inv, "goin", Pos::Verb).as_deref(), Some("go"));
        assert_eq!(
            choose_lemma(&inv, "takin'", Pos::Verb).as_deref(),
            Some("take")
        );
        assert_eq!(
            choose_lemma(&inv, "Fightin", Pos::Verb).as_deref(),
            Some("fight")
        );
        // Words WordNet has keep their own lemma; short ones are left alone.
        assert_eq!(
            choose_lemma(&inv, "cabin", Pos::Noun).as_deref(),
            Some("cabin")
        );
        assert!(dropped_g_variants(&inv, "kin", Pos::Verb).is_empty());
        assert!(dropped_g_variants(&inv, "bank", Pos::Noun).is_empty());
        assert!(dropped_g_variants(&inv, "xqzin", Pos::Verb).is_empty());
    }

    #[test]
    fn hyphenated_words_wordnet_lacks_take_its_spellings() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let inv = Inventory::open(Some(&root.join("wordnet/dict"))).expect("wordnet/dict");
        // Written without the hyphen in WordNet, inflected on the way.
        assert_eq!(
            choose_lemma(&inv, "over-all", Pos::Adj).as_deref(),
            Some("overall")
        );
        assert_eq!(
            choose_lemma(&inv, "teen-agers", Pos::Noun).as_deref(),
            Some("teenager")
        );
        // Written as a collocation in WordNet.
        assert_eq!(
            choose_lemma(&inv, "vapor-pressure", Pos::Noun).as_deref(),
            Some("vapor_pressure")
        );
        // A hyphenated form WordNet has is kept as it is.
        assert_eq!(
            choose_lemma(&inv, "x-ray", Pos::Noun).as_deref(),
            Some("x-ray")
        );
        // No inner hyphen, or no spelling WordNet has: nothing.
        assert!(hyphen_variants(&inv, "-bank", Pos::Noun).is_empty());
        assert!(hyphen_variants(&inv, "qqz-xxw", Pos::Noun).is_empty());
        // A score is not the number WordNet has without the hyphen (`94`).
        assert!(hyphen_variants(&inv, "9-4", Pos::Adj).is_empty());
        assert!(!hyphen_variants(&inv, "over-all", Pos::Adj).is_empty());
    }

    #[test]
    fn accented_words_take_their_ascii_spelling() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let inv = Inventory::open(Some(&root.join("wordnet/dict"))).expect("wordnet/dict");
        let lemma = |w: &str, p: Pos| choose_lemma(&inv, w, p);
        assert_eq!(lemma("naïve", Pos::Adj).as_deref(), Some("naive"));
        assert_eq!(lemma("façade", Pos::Noun).as_deref(), Some("facade"));
        assert_eq!(lemma("résumés", Pos::Noun).as_deref(), Some("resume"));
        assert_eq!(lemma("Café", Pos::Noun).as_deref(), Some("cafe"));
        assert_eq!(lemma("Zürich", Pos::Noun).as_deref(), Some("zurich"));
        assert_eq!(
            lemma("encyclopædia", Pos::Noun).as_deref(),
            Some("encyclopaedia")
        );
        // Nothing to fold to, or another script.
        assert_eq!(lemma("Pokémon", Pos::Noun), None);
        assert_eq!(lemma("Москве", Pos::Noun), None);
    }

    #[test]
    fn clitics() {
        assert_eq!(clitic_lemma("'s", Pos::Verb), Some("be"));
        assert_eq!(clitic_lemma("\u{2019}re", Pos::Verb), Some("be"));
        assert_eq!(clitic_lemma("'ve", Pos::Verb), Some("have"));
        assert_eq!(clitic_lemma("n't", Pos::Adv), Some("not"));
        assert_eq!(clitic_lemma("ai", Pos::Verb), Some("be"));
        assert_eq!(clitic_lemma("ai", Pos::Noun), None);
        assert_eq!(clitic_lemma("'s", Pos::Noun), None);
        assert_eq!(clitic_lemma("bank", Pos::Verb), None);
    }
}
