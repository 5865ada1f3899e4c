//! Multiword expressions: WordNet's collocations found in a token run
//! (`took place` → `take_place`, `New York` → `new_york`, `credit cards` →
//! `credit_card`), and joined only when the evidence says so.
//!
//! # Candidates
//!
//! The matcher knows every lemma of the inventory that contains `_`. A run
//! of tokens is a candidate when its lower-cased words joined by `_` — or
//! the same with the first word reduced to a verb base form (`took` →
//! `take`) or the last word to a noun base form (`cards` → `card`) — is a
//! collocation. Runs never cross punctuation. All checks are hash lookups,
//! so matching costs a few lookups per token.
//!
//! Two words that WordNet writes as one are a candidate too, a *closed
//! compound* (`per cent` → `percent`, `ball player` → `ballplayer`,
//! `brief cases` → `briefcase`, `e. g.` → `e.g.`): SemCor's annotators
//! made 178 such pairs one unit on the train split, and without the
//! candidate the pipeline read `per cent` as the coin. Both words must be
//! at least two characters long (letters, a final full stop allowed), so
//! `a way` is never `away`; whether a pair is joined is left to the
//! evidence like any candidate (`may be` is not `maybe`) but only when
//! SemCor shows the pair (an unseen one, `river bank`, stays two words),
//! and the greedy mode, the old behaviour, does not propose them.
//!
//! A collocation with a possessive (`driver's_license`, `new_year's_day`,
//! `alzheimer's`: 972 of WordNet's lemmas) is also known under its
//! tokenised key (`driver_'s_license`, `possessive_key`), since the
//! tokeniser makes the Penn clitic `'s` a word of its own; none of them
//! could match before. Measured `--raw` mfs with the name model as it
//! was: SemCor train split 71.822 → 71.829 (multiword mismatches 1,183 →
//! 1,171), test split 69.223 → 69.230, SemEval-2007 unchanged; with the
//! tables regenerated (the name model's held-out grid then picks 3 epochs
//! instead of 8, 7,019 against 7,017 held-out names right) test 69.239,
//! train 71.753 (see docs/experiments.md, issue 11).
//!
//! A pronoun fills WordNet's pronoun slots: a run is also read with its
//! possessive pronouns as `one's` and its reflexive ones as `oneself`
//! (`made up her mind` → `make_up_one's_mind`, `dragged their feet` →
//! `drag_one's_feet`, `found himself` → `find_oneself`), as a second
//! reading beside the words as written (`up_to_her_neck` spells its
//! pronoun). Joining is the evidence's call as for any candidate; SemCor's
//! train split joins `make_up_one's_mind` 4 times of 9 but `find_oneself`
//! once in 33 (`found himself alone` is `find` alone). Measured `--raw`
//! (evidence regenerated): SemCor train split mfs 71.817 → 71.822 (wrong
//! lemmas 1,214 → 1,210), test split mfs and ens,mfs unchanged (69.223,
//! 73.304), nb,mfs and knn,mfs −0.003 (one instance), SemEval-2007
//! unchanged for all five; what changes is plain text's idioms.
//!
//! # Which candidates are joined ([`MweMode`])
//!
//! * [`MweMode::Greedy`]: every candidate, longest first, left to right —
//!   the old behaviour, which also joins `the hills` (→ `the_hill`, Capitol
//!   Hill), `the sun rose` (→ `sun_rose`, a plant) and `came to` (→
//!   `come_to`, regain consciousness).
//! * [`MweMode::Learned`] (the default): longest first, left to right, but a
//!   candidate is joined only when [`MweEvidence`] says SemCor's annotators
//!   tag such a run as one unit. The evidence is counted on SemCor's train
//!   split (see [`crate::pipeline::learn`]): for every candidate occurrence,
//!   whether the annotators made it one sense-tagged token with that lemma
//!   (joined) or not (separate words, or a unit they gave no sense). It is
//!   kept per collocation and case of the last word (`the Hill` vs `the
//!   hills`; a capitalised run spelling one of WordNet's named entities
//!   outside `noun.person` has a case of its own, [`ENTITY_CASE`], and is
//!   joined when SemCor never shows it), and per class — the collocation's part of speech, the case,
//!   and the tagger's coarse POS pattern of the words (`the sun rose` is
//!   determiner–noun–verb, not a noun compound) — for collocations SemCor
//!   rarely or never shows. The estimate is
//!   `p = (joined + α·p_class) / (seen + α)`, with the class rate smoothed
//!   the same way towards the rate of its part of speech, case and head
//!   word's coarse tag (the first word of a verb collocation, the last of
//!   the others), and that towards the rate of its part of speech and
//!   case. When several collocations fit the same run (`turned out`:
//!   `turned_out` the adjective, `turn_out` the verb) the likeliest wins; a candidate is
//!   joined when `p ≥ threshold`.
//!
//!   Not every wrong join costs the same. A joined unit keeps its head
//!   word as a secondary target ([`crate::corpus::Token::head`]), so a
//!   join the annotators did not make loses a gold instance only when
//!   another of its words is one (`vocational` of `vocational
//!   education`); `and then` or `looked at`, whose `and` and `at` SemCor
//!   never tags, lose nothing ([`Counts::free`]). Those *free*
//!   occurrences count [`FREE_WEIGHT`] each in `seen` (not 0: `wsd tag`
//!   users still see the unit), so `and_then` (joined 44 times of 98, 54
//!   free) is joined and `the_hill` (0 of 19) is not. `α` and the
//!   threshold were chosen on the train split in two folds of documents
//!   (each half judged by the other half's evidence), minimising the
//!   weighted cost of the decisions against SemCor's own units. Measured
//!   `wsd eval --method mfs --raw` on SemCor's test split against the
//!   unweighted evidence (threshold 0.55, leave-one-out): join precision
//!   86.0 → 83.9%, recall 79.8 → 84.0%, multiword mismatches 845 → 709,
//!   F1 66.8 → 67.0 (with the unit abbreviations of
//!   [`crate::text::tokenize()`]); SemEval-2007 unchanged (52.5).
//!   With `--no-heads` a free join is not free, but the same evidence is
//!   used: SemEval-2007 `--no-heads` 50.1 → 50.2.
//!
//!   A verb collocation also weighs what follows it
//!   ([`MweEvidence::contexts`], [`after_class`]): the same pair is the
//!   phrasal verb before anything but a noun phrase and often the verb and
//!   a preposition before one (on the train split such pairs are joined
//!   82% and 58% of the time). Its rate in the context, smoothed towards
//!   its rate in all contexts, is taken when it is the lower one — never
//!   raising a join (SemCor joins `go to` before a noun phrase 63% of the
//!   time, `go to school`; plain text's `go to the store` is the verb and
//!   a preposition). Refitted on two folds (α 4, threshold 0.45; weighted
//!   accuracy 0.8481 → 0.8490), `mfs --raw` on SemCor's test split:
//!   multiword mismatches 639 → 606, joins precision 85.0 → 84.5%, recall
//!   87.2 → 88.8%, F1 68.44 → 68.50; SemEval-2007 unchanged.
//!
//!   Since every content word of a joined unit keeps a target of its own
//!   ([`crate::corpus::Token::parts`]), a wrong join costs a gold instance
//!   only when it is on a proper noun, so nearly every occurrence SemCor
//!   keeps apart is free. Refitted so (α 8, threshold 0.5, chosen
//!   by the weighted accuracy of the two folds under the new costs), `mfs --raw` on
//!   SemCor's test split: multiword mismatches 407 → 396, joins recall
//!   88.8 → 89.2% at the same precision (84.4%), F1 68.98 → 69.00;
//!   SemEval-2007 unchanged.
//!
//!   A lower-case collocation with a word that is no word alone — in no
//!   part of speech of WordNet's, no stop word, not tagged as a function
//!   word (`versa`, `hoc`, `fide`, `quo`; not `upon`) — is joined when
//!   SemCor's train split never shows it apart ([`is_no_word_alone`],
//!   [`MweEvidence::never_apart`]), whatever its class's rate: apart,
//!   its known word is read alone (`vice versa` → `vice`, wickedness;
//!   `ad hoc` → `ad`, an advertisement). `mfs --raw`: SemCor test split
//!   69.239 → 69.243 (`vice versa`, `Payne's gray`; multiword mismatches
//!   371 → 369, no answer lost), train split 71.753 → 71.754,
//!   SemEval-2007 unchanged.
//! * [`MweMode::None`]: no joining.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::wordnet::{Inventory, Pos};

mod alone;
mod case;
mod evidence;

use alone::is_expression_alone;
pub use alone::is_no_word_alone;
pub use case::{match_case, ENTITY_CASE};
pub use evidence::{
    after_class, case_class, case_class_of, coarse_tag, head_of, pattern, Counts, MweEvidence,
    FREE_WEIGHT,
};

/// A match: tokens `[start, end)` form the collocation `lemma` of `pos`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MweMatch {
    /// First token.
    pub start: usize,
    /// One past the last token.
    pub end: usize,
    /// The collocation as WordNet spells it (`take_place`).
    pub lemma: String,
    /// Its part of speech (the first of n, v, a, r that has it).
    pub pos: Pos,
}

/// How multiword expressions are joined (`--mwe`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MweMode {
    /// Join a collocation only on SemCor's evidence (the default).
    #[default]
    Learned,
    /// Join every collocation, longest first (the old behaviour).
    Greedy,
    /// Never join.
    None,
}

impl std::str::FromStr for MweMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "learned" => Ok(MweMode::Learned),
            "greedy" => Ok(MweMode::Greedy),
            "none" => Ok(MweMode::None),
            _ => Err(format!("unknown --mwe {s:?} (use learned, greedy or none)")),
        }
    }
}

impl std::fmt::Display for MweMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            MweMode::Learned => "learned",
            MweMode::Greedy => "greedy",
            MweMode::None => "none",
        })
    }
}

/// Can this word be one half of a closed compound? Letters only (a final
/// full stop allowed: `e.`, `g.`), at least two characters.
fn is_compound_part(w: &str) -> bool {
    let letters = w.strip_suffix('.').unwrap_or(w);
    w.len() >= 2 && !letters.is_empty() && letters.chars().all(|c| c.is_alphabetic())
}

/// The collocation matcher.
pub struct MweMatcher {
    /// collocation → parts of speech that have it (a possessive one also
    /// under its token key, [`possessive_key`]).
    lemmas: FxHashMap<Box<str>, Vec<Pos>>,
    /// token key of a possessive collocation → WordNet's spelling
    /// (`driver_'s_license` → `driver's_license`).
    spelled: FxHashMap<Box<str>, Box<str>>,
    /// first word → longest collocation (in words) starting with it.
    max_len: FxHashMap<Box<str>, usize>,
    /// The first 2 … n−1 words of every collocation of n ≥ 3 words,
    /// `_`-joined: a run can only spell a collocation when its words but
    /// the last are such a prefix, which rules out most lengths before
    /// any string is built (`in` starts collocations of up to 6 words).
    prefixes: FxHashSet<Box<str>>,
    /// How candidates are joined.
    mode: MweMode,
    /// The evidence for [`MweMode::Learned`].
    evidence: Option<&'static MweEvidence>,
}

fn is_wordlike(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_alphanumeric())
}

/// The key a collocation with a possessive `'s` is found under in
/// tokenised text, where the Penn clitic is a word of its own
/// (`driver's_license` → `driver_'s_license`, `alzheimer's` →
/// `alzheimer_'s`); `None` without one. WordNet has 972 such lemmas
/// (`adam's_apple`, `devil's_advocate`, `new_year's_day`,
/// `parkinson's_disease`), which the matcher never found.
fn possessive_key(lemma: &str) -> Option<String> {
    let mut key = String::with_capacity(lemma.len() + 4);
    let mut changed = false;
    for (k, word) in lemma.split('_').enumerate() {
        if k > 0 {
            key.push('_');
        }
        match word.strip_suffix("'s") {
            Some(stem) if !stem.is_empty() => {
                key.push_str(stem);
                key.push_str("_'s");
                changed = true;
            }
            _ => key.push_str(word),
        }
    }
    changed.then_some(key)
}

/// WordNet's placeholder for the pronoun slot a word fills: a possessive
/// pronoun is `one's` (`made up her mind` → `make_up_one's_mind`,
/// `dragged their feet` → `drag_one's_feet`), a reflexive one `oneself`
/// (`found himself` → `find_oneself`). WordNet writes 76 collocations
/// with the placeholder; SemCor's annotators join them with the pronoun
/// of the text (`made_up_his_mind`, `relieve_himself`), 25 of which the
/// matcher missed on the train split. A few collocations spell the
/// pronoun itself (`in_his_own_right`, `up_to_her_neck`), so the
/// placeholder is a second reading, never a replacement.
fn pronoun_slot(lower: &str) -> Option<&'static str> {
    match lower {
        "my" | "your" | "his" | "her" | "its" | "our" | "their" | "one's" => Some("one's"),
        "myself" | "yourself" | "himself" | "herself" | "itself" | "ourselves" | "yourselves"
        | "themselves" | "oneself" => Some("oneself"),
        _ => None,
    }
}

/// `lower` with every pronoun in its WordNet slot ([`pronoun_slot`]), when
/// that changes a word.
fn slotted(lower: &[String]) -> Option<Vec<String>> {
    let changes = lower
        .iter()
        .any(|w| pronoun_slot(w).is_some_and(|s| s != w.as_str()));
    changes.then(|| {
        lower
            .iter()
            .map(|w| pronoun_slot(w).map_or_else(|| w.clone(), str::to_string))
            .collect()
    })
}

/// How a run can start at a word ([`MweMatcher::start_at`]): the first
/// word's forms, and each reading of the words (as written, pronouns in
/// their slots) with the longest run it could spell.
struct Start<'a> {
    firsts: Vec<String>,
    readings: Vec<(&'a [String], usize)>,
}

impl Start<'_> {
    /// The longest run any reading could spell.
    fn longest(&self) -> usize {
        self.readings.iter().map(|r| r.1).max().unwrap_or(0)
    }
}

impl MweMatcher {
    /// Collect the collocations of `inv`; join them on the shipped
    /// evidence ([`MweMode::Learned`]).
    pub fn new(inv: &Inventory) -> MweMatcher {
        MweMatcher::with_mode(inv, MweMode::Learned)
    }

    /// Collect the collocations of `inv`, joining them as `mode` says.
    pub fn with_mode(inv: &Inventory, mode: MweMode) -> MweMatcher {
        let mut lemmas: FxHashMap<Box<str>, Vec<Pos>> = FxHashMap::default();
        let mut max_len: FxHashMap<Box<str>, usize> = FxHashMap::default();
        let mut prefixes: FxHashSet<Box<str>> = FxHashSet::default();
        let mut spelled: FxHashMap<Box<str>, Box<str>> = FxHashMap::default();
        if mode != MweMode::None {
            for pos in Pos::ALL {
                for l in inv.lemmas(pos) {
                    let key = possessive_key(l);
                    if !l.contains('_') && key.is_none() {
                        continue;
                    }
                    for key in std::iter::once(l).chain(key.as_deref()) {
                        if !key.contains('_') {
                            continue;
                        }
                        lemmas.entry(key.into()).or_default().push(pos);
                        let n = key.split('_').count();
                        let first = key.split('_').next().unwrap_or_default();
                        let e = max_len.entry(first.into()).or_default();
                        *e = (*e).max(n);
                        let mut ends = key.match_indices('_').map(|(k, _)| k).skip(1);
                        for _ in 2..n {
                            if let Some(k) = ends.next() {
                                prefixes.insert(key[..k].into());
                            }
                        }
                    }
                    if let Some(key) = key {
                        spelled.insert(key.into(), l.into());
                    }
                }
            }
        }
        for v in lemmas.values_mut() {
            v.sort();
        }
        let evidence = (mode == MweMode::Learned).then(MweEvidence::shipped);
        MweMatcher {
            lemmas,
            spelled,
            max_len,
            prefixes,
            mode,
            evidence,
        }
    }

    /// Use this evidence instead of the shipped one (learning, tests).
    pub fn with_evidence(mut self, evidence: &'static MweEvidence) -> MweMatcher {
        self.evidence = Some(evidence);
        self
    }

    /// How this matcher joins.
    pub fn mode(&self) -> MweMode {
        self.mode
    }

    /// Number of collocations known.
    pub fn len(&self) -> usize {
        self.lemmas.len()
    }

    /// True when no collocations are known.
    pub fn is_empty(&self) -> bool {
        self.lemmas.is_empty()
    }

    /// First-word forms of `word`: as written, and its verb base forms.
    fn first_forms(&self, inv: &Inventory, word: &str) -> Vec<String> {
        let mut firsts: Vec<String> = vec![word.to_string()];
        for b in inv.morphy(word, Pos::Verb) {
            if !firsts.contains(&b) {
                firsts.push(b);
            }
        }
        firsts
    }

    /// The longest run from `i` of `words`, first word read as any of
    /// `firsts`, that could spell a collocation.
    fn longest_run(&self, firsts: &[String], words: &[String], i: usize) -> usize {
        let longest = firsts.iter().map(|f| self.possible_len(f, words, i));
        longest.max().unwrap_or(0).min(words.len() - i)
    }

    /// The longest run from `i`, first word read as `first`, whose words
    /// but the last begin some collocation (0 when none starts with
    /// `first`): no longer run can match.
    fn possible_len(&self, first: &str, lower: &[String], i: usize) -> usize {
        let Some(&max) = self.max_len.get(first) else {
            return 0;
        };
        let mut n = 2;
        let mut key = first.to_string();
        while n < max && i + n < lower.len() {
            key.push('_');
            key.push_str(&lower[i + n - 1]);
            if !self.prefixes.contains(key.as_str()) {
                break;
            }
            n += 1;
        }
        n.min(max)
    }

    /// The closed compounds `lower[i] lower[i + 1]` spells: the two words
    /// written as one, with every part of speech WordNet has it in (`per
    /// cent` → `percent`), else, for a last word in `-s`, the noun without
    /// it (`brief cases` → `briefcase`; no morphy: each pair is a new
    /// string, which would only fill morphy's memo). `buf` is scratch
    /// space, reused across a sentence. See the module docs.
    fn closed_at(
        &self,
        inv: &Inventory,
        lower: &[String],
        i: usize,
        buf: &mut String,
    ) -> Vec<(String, Pos)> {
        let mut out = Vec::new();
        let (Some(a), Some(b)) = (lower.get(i), lower.get(i + 1)) else {
            return out;
        };
        if !is_compound_part(a) || !is_compound_part(b) {
            return out;
        }
        buf.clear();
        buf.push_str(a);
        buf.push_str(b);
        for pos in Pos::ALL {
            if inv.has_lemma(buf, pos) {
                out.push((buf.clone(), pos));
            }
        }
        if out.is_empty() && b.len() > 2 && b.ends_with('s') {
            let singular = &buf[..buf.len() - 1];
            if inv.has_lemma(singular, Pos::Noun) {
                out.push((singular.to_string(), Pos::Noun));
            }
        }
        out
    }

    /// How the words from `i` can start a collocation (`None`: they
    /// cannot): the first word's forms, read as written (`lower`) and, with
    /// a pronoun among the next words, with pronouns in their WordNet slots
    /// (`slots`, see [`pronoun_slot`]).
    fn start_at<'a>(
        &self,
        inv: &Inventory,
        lower: &'a [String],
        slots: Option<&'a [String]>,
        i: usize,
    ) -> Option<Start<'a>> {
        if !self.may_start(inv, &lower[i]) {
            return None;
        }
        let firsts = self.first_forms(inv, &lower[i]);
        // WordNet's slots are the 2nd to 4th word of their collocations, so
        // the first word is the same in both readings, and the second is
        // only worth building with a pronoun among the next three words.
        let end = (i + 4).min(lower.len());
        let slots = slots.filter(|s| (i + 1..end).any(|k| s[k] != lower[k]));
        let readings = std::iter::once(lower)
            .chain(slots)
            .map(|words| (words, self.longest_run(&firsts, words, i)))
            .collect();
        Some(Start { firsts, readings })
    }

    /// The collocations the run `[i, i + n)` spells in any of `start`'s
    /// readings, each once, in lookup order (as written first).
    fn readings_at(
        &self,
        inv: &Inventory,
        start: &Start<'_>,
        i: usize,
        n: usize,
    ) -> Vec<(String, Pos)> {
        let mut out: Vec<(String, Pos)> = Vec::new();
        for &(words, longest) in &start.readings {
            if n > longest {
                continue;
            }
            for r in self.matches_at(inv, words, &start.firsts, i, n) {
                if !out.contains(&r) {
                    out.push(r);
                }
            }
        }
        out
    }

    /// The collocations that `lower[i..i + n]` spells, each with every part
    /// of speech that has it, in lookup order: the words as written first,
    /// then with the first word's verb base forms, each also with the last
    /// word's noun base forms (`turned out` → `turned_out` (adjective),
    /// `turn_out` (verb)).
    fn matches_at(
        &self,
        inv: &Inventory,
        lower: &[String],
        firsts: &[String],
        i: usize,
        n: usize,
    ) -> Vec<(String, Pos)> {
        let mut out: Vec<(String, Pos)> = Vec::new();
        let run = &lower[i..i + n];
        // A Penn possessive clitic is a word of a collocation's key
        // ([`possessive_key`]); other punctuation ends a run.
        if !run.iter().all(|w| is_wordlike(w) || w == "'s") {
            return out;
        }
        let mut push = |s: &str| {
            if let Some((l, ps)) = self.lemmas.get_key_value(s) {
                let l = self.spelled.get(l).unwrap_or(l);
                for &p in ps {
                    if !out.iter().any(|(o, op)| **o == **l && *op == p) {
                        out.push((l.to_string(), p));
                    }
                }
            }
        };
        let tail = run[1..].join("_");
        let last = &run[n - 1];
        let last_bases: Vec<String> = inv
            .morphy(last, Pos::Noun)
            .into_iter()
            .filter(|b| b != last)
            .collect();
        for f in firsts {
            push(&format!("{f}_{tail}"));
            // Plural last word: credit cards → credit_card.
            for base in &last_bases {
                let mut parts: Vec<&str> = vec![f.as_str()];
                parts.extend(run[1..n - 1].iter().map(String::as_str));
                parts.push(base);
                push(&parts.join("_"));
            }
        }
        out
    }

    /// Every candidate over `words`, overlapping ones and every reading
    /// (lemma and part of speech) included: for each start, each length
    /// that spells a collocation.
    pub fn candidates(&self, inv: &Inventory, words: &[&str]) -> Vec<MweMatch> {
        let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
        let slots = slotted(&lower);
        let mut out = Vec::new();
        let mut buf = String::new();
        for i in 0..words.len() {
            if !is_wordlike(&lower[i]) {
                continue;
            }
            if let Some(start) = self.start_at(inv, &lower, slots.as_deref(), i) {
                for n in (2..=start.longest()).rev() {
                    for (lemma, pos) in self.readings_at(inv, &start, i, n) {
                        out.push(MweMatch {
                            start: i,
                            end: i + n,
                            lemma,
                            pos,
                        });
                    }
                }
            }
            if self.mode != MweMode::None {
                for (lemma, pos) in self.closed_at(inv, &lower, i, &mut buf) {
                    out.push(MweMatch {
                        start: i,
                        end: i + 2,
                        lemma,
                        pos,
                    });
                }
            }
        }
        out
    }

    /// Greedy left-to-right longest matches over `words` (surface forms),
    /// every candidate accepted ([`MweMode::Greedy`]).
    pub fn find(&self, inv: &Inventory, words: &[&str]) -> Vec<MweMatch> {
        self.find_with(inv, words, false, |_| Some(0.0))
    }

    /// Left-to-right longest matches. At each start, the longest run that
    /// spells a collocation (or, with `closed`, a closed compound) wins;
    /// `score` picks its reading (the highest score, `None` = not to be
    /// joined; the first reading wins ties).
    fn find_with(
        &self,
        inv: &Inventory,
        words: &[&str],
        closed: bool,
        mut score: impl FnMut(&MweMatch) -> Option<f64>,
    ) -> Vec<MweMatch> {
        let mut out = Vec::new();
        if self.mode == MweMode::None || self.lemmas.is_empty() {
            return out;
        }
        let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
        let slots = slotted(&lower);
        let mut i = 0;
        let mut buf = String::new();
        while i < words.len() {
            if !is_wordlike(&lower[i]) {
                i += 1;
                continue;
            }
            let compounds = if closed {
                self.closed_at(inv, &lower, i, &mut buf)
            } else {
                Vec::new()
            };
            let start = self.start_at(inv, &lower, slots.as_deref(), i);
            if start.is_none() && compounds.is_empty() {
                i += 1;
                continue;
            }
            let mut longest = start.as_ref().map_or(0, Start::longest);
            if !compounds.is_empty() {
                longest = longest.max(2);
            }
            let mut taken: Option<(MweMatch, f64)> = None;
            for n in (2..=longest).rev() {
                let mut readings = match &start {
                    Some(start) => self.readings_at(inv, start, i, n),
                    None => Vec::new(),
                };
                if n == 2 {
                    readings.extend(compounds.iter().cloned());
                }
                for (lemma, pos) in readings {
                    let m = MweMatch {
                        start: i,
                        end: i + n,
                        lemma,
                        pos,
                    };
                    if let Some(sc) = score(&m) {
                        if taken.as_ref().is_none_or(|(_, best)| sc > *best) {
                            taken = Some((m, sc));
                        }
                    }
                }
                if taken.is_some() {
                    break;
                }
            }
            match taken {
                Some((m, _)) => {
                    i = m.end;
                    out.push(m);
                }
                None => i += 1,
            }
        }
        out
    }

    /// Can a collocation start with this word, as written or as a verb
    /// base form? (One hash lookup for most words; morphy only for the
    /// rest.)
    fn may_start(&self, inv: &Inventory, lower: &str) -> bool {
        self.max_len.contains_key(lower)
            || inv
                .morphy(lower, Pos::Verb)
                .iter()
                .any(|b| self.max_len.contains_key(b.as_str()))
    }

    /// The matches to join over `words` with their Penn `tags`, as the
    /// matcher's mode says: all of them (greedy), those the evidence
    /// supports (learned), or none.
    pub fn find_tagged<S: AsRef<str>>(
        &self,
        inv: &Inventory,
        words: &[&str],
        tags: &[S],
    ) -> Vec<MweMatch> {
        match (self.mode, self.evidence) {
            (MweMode::None, _) => Vec::new(),
            (MweMode::Greedy, _) | (MweMode::Learned, None) => self.find(inv, words),
            (MweMode::Learned, Some(ev)) => self.find_with(inv, words, true, |m| {
                let case = match_case(inv, m, words);
                let pattern = pattern(&tags[m.start..m.end]);
                let after = after_class(tags.get(m.end).map(|t| coarse_tag(t.as_ref())));
                let mut p = ev.estimate(&m.lemma, m.pos, case, &pattern, after, None);
                if p < ev.threshold && is_expression_alone(inv, ev, m, case, words, tags) {
                    // joined; the estimate still ranks the readings
                    // (`ad hoc` the adjective or the adverb)
                    p = ev.threshold + p * 1e-3;
                }
                (p >= ev.threshold).then_some(p)
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse_and_print() {
        for m in [MweMode::Learned, MweMode::Greedy, MweMode::None] {
            assert_eq!(m.to_string().parse::<MweMode>(), Ok(m));
        }
        assert!("maybe".parse::<MweMode>().is_err());
        assert_eq!(MweMode::default(), MweMode::Learned);
    }
}
