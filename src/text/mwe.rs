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
//!   hills`), and per class — the collocation's part of speech, the case,
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
//! * [`MweMode::None`]: no joining.

use std::sync::OnceLock;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::wordnet::{Inventory, Pos};

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

/// The case of a candidate: does its last word start with a capital
/// (`the Hill`, `New York`) or not (`the hills`, `took place`)?
pub fn case_class(last_word: &str) -> char {
    if last_word.chars().next().is_some_and(char::is_uppercase) {
        'U'
    } else {
        'L'
    }
}

/// The case of a candidate's words (its last word decides).
pub fn case_class_of(words: &[&str]) -> char {
    words.last().map_or('L', |w| case_class(w))
}

/// The case class of one of the matcher's own matches over `words`: as
/// [`case_class_of`], but in lower case (`l`, `u`) for a closed compound
/// (its lemma has no `_`), so that the evidence keeps closed compounds,
/// which SemCor joins at rates of their own, apart from collocations at
/// every back-off level.
pub fn match_case(m: &MweMatch, words: &[&str]) -> char {
    let c = case_class_of(&words[m.start..m.end]);
    if m.lemma.contains('_') {
        c
    } else {
        c.to_ascii_lowercase()
    }
}

/// Can this word be one half of a closed compound? Letters only (a final
/// full stop allowed: `e.`, `g.`), at least two characters.
fn is_compound_part(w: &str) -> bool {
    let letters = w.strip_suffix('.').unwrap_or(w);
    w.len() >= 2 && !letters.is_empty() && letters.chars().all(|c| c.is_alphabetic())
}

/// A coarse letter for a Penn tag, for the POS pattern of a candidate:
/// `N` common noun, `P` proper noun, `V` verb, `J` adjective, `R` adverb,
/// `I` preposition / particle / `to`, `D` determiner, `C` number, `O` other.
pub fn coarse_tag(tag: &str) -> char {
    match tag {
        "NNP" | "NNPS" => 'P',
        "IN" | "TO" | "RP" => 'I',
        "DT" | "PDT" | "WDT" => 'D',
        "CD" => 'C',
        t if t.starts_with("NN") => 'N',
        t if t.starts_with("VB") => 'V',
        t if t.starts_with("JJ") => 'J',
        t if t.starts_with("RB") => 'R',
        _ => 'O',
    }
}

/// Joined / seen counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Counts {
    /// Occurrences the annotators made one sense-tagged unit.
    pub joined: u32,
    /// All occurrences.
    pub seen: u32,
    /// Occurrences kept apart where joining would have cost no gold
    /// instance (only the head word, which keeps a target of its own, was
    /// tagged; see [`MweEvidence::free_weight`]).
    pub free: u32,
}

impl Counts {
    fn add(&mut self, joined: bool, free: bool) {
        self.seen += 1;
        self.joined += joined as u32;
        self.free += (free && !joined) as u32;
    }
}

/// SemCor's evidence for joining collocations; see the module docs.
#[derive(Clone, Debug, Default)]
pub struct MweEvidence {
    /// (collocation, case) → counts.
    pub collocations: FxHashMap<(Box<str>, char), Counts>,
    /// (POS letter, case, coarse pattern) → counts.
    pub classes: FxHashMap<(char, char, Box<str>), Counts>,
    /// (POS letter, case, coarse tag of the head word) → counts.
    pub heads: FxHashMap<(char, char, char), Counts>,
    /// (POS letter, case) → counts.
    pub pos_case: FxHashMap<(char, char), Counts>,
    /// Smoothing weight `α`.
    pub alpha: f64,
    /// Join when the estimate is at least this.
    pub threshold: f64,
    /// The weight of a free occurrence ([`Counts::free`]) against a joined
    /// one or a costly one: joining it wrongly costs no gold instance in
    /// `wsd eval --raw` (the head's secondary target answers), but users of
    /// `wsd tag` see a unit of the wrong reading (`the_hill` for `the
    /// hills`), so it counts, at this weight ([`FREE_WEIGHT`]).
    pub free_weight: f64,
}

/// The weight of a free occurrence in new evidence: a choice (a wrong
/// unit shown to users counts half a lost gold instance), not tuned.
pub const FREE_WEIGHT: f64 = 0.5;

/// The evidence shipped with the crate (`src/text/mwe_evidence.tsv`,
/// regenerated by `crate::pipeline::learn`).
const SHIPPED_EVIDENCE: &str = include_str!("mwe_evidence.tsv");

impl MweEvidence {
    /// The shipped evidence, parsed once.
    pub fn shipped() -> &'static MweEvidence {
        static E: OnceLock<MweEvidence> = OnceLock::new();
        E.get_or_init(|| {
            MweEvidence::parse(SHIPPED_EVIDENCE).expect("src/text/mwe_evidence.tsv is well formed")
        })
    }

    /// Record one occurrence (`free`: kept apart, and joining it would
    /// have cost no gold instance).
    pub fn add(
        &mut self,
        lemma: &str,
        pos: Pos,
        case: char,
        pattern: &str,
        joined: bool,
        free: bool,
    ) {
        self.collocations
            .entry((lemma.into(), case))
            .or_default()
            .add(joined, free);
        self.classes
            .entry((pos.letter(), case, pattern.into()))
            .or_default()
            .add(joined, free);
        self.heads
            .entry((pos.letter(), case, head_of(pos, pattern)))
            .or_default()
            .add(joined, free);
        self.pos_case
            .entry((pos.letter(), case))
            .or_default()
            .add(joined, free);
    }

    /// The estimated probability that this occurrence is one unit, free
    /// occurrences weighted by [`MweEvidence::free_weight`]. `own`
    /// is subtracted from every count first (leave-one-out on the data the
    /// evidence came from); pass `None` otherwise.
    pub fn estimate(
        &self,
        lemma: &str,
        pos: Pos,
        case: char,
        pattern: &str,
        own: Option<bool>,
    ) -> f64 {
        // Free occurrences count `free_weight` each.
        let w = self.free_weight;
        let minus = |c: Counts| -> (f64, f64) {
            let free = c.free as f64 * (1.0 - w);
            match own {
                Some(j) => (
                    c.joined.saturating_sub(j as u32) as f64,
                    (c.seen.saturating_sub(1) as f64 - free).max(0.0),
                ),
                None => (c.joined as f64, c.seen as f64 - free),
            }
        };
        let a = self.alpha;
        // Prior for a part of speech and case nobody saw: do not join.
        let (pj, pn) = self
            .pos_case
            .get(&(pos.letter(), case))
            .map_or((0.0, 0.0), |&c| minus(c));
        let p_pos = (pj + a * 0.0) / (pn + a);
        let (hj, hn) = self
            .heads
            .get(&(pos.letter(), case, head_of(pos, pattern)))
            .map_or((0.0, 0.0), |&c| minus(c));
        let p_head = (hj + a * p_pos) / (hn + a);
        let (cj, cn) = self
            .classes
            .get(&(pos.letter(), case, pattern.into()))
            .map_or((0.0, 0.0), |&c| minus(c));
        let p_class = (cj + a * p_head) / (cn + a);
        let (j, n) = self
            .collocations
            .get(&(lemma.into(), case))
            .map_or((0.0, 0.0), |&c| minus(c));
        (j + a * p_class) / (n + a)
    }

    /// Should this occurrence be joined?
    pub fn join(&self, lemma: &str, pos: Pos, case: char, pattern: &str) -> bool {
        self.estimate(lemma, pos, case, pattern, None) >= self.threshold
    }

    /// The evidence as TSV (what [`MweEvidence::parse`] reads), sorted.
    pub fn to_tsv(&self) -> String {
        let mut out = String::from(
            "# Multiword evidence counted on SemCor's train split: joined / seen / free.\n\
             # Generated by `cargo test --release --lib regenerate_front_end_tables -- --ignored`\n\
             # (see src/pipeline/learn.rs); do not edit by hand.\n",
        );
        out.push_str(&format!(
            "alpha\t{}\nthreshold\t{}\nfree_weight\t{}\n",
            self.alpha, self.threshold, self.free_weight
        ));
        let mut pc: Vec<_> = self.pos_case.iter().collect();
        pc.sort();
        for ((p, c), n) in pc {
            out.push_str(&format!(
                "p\t{p}\t{c}\t{}\t{}\t{}\n",
                n.joined, n.seen, n.free
            ));
        }
        let mut hd: Vec<_> = self.heads.iter().collect();
        hd.sort();
        for ((p, c, h), n) in hd {
            out.push_str(&format!(
                "h\t{p}\t{c}\t{h}\t{}\t{}\t{}\n",
                n.joined, n.seen, n.free
            ));
        }
        let mut cl: Vec<_> = self.classes.iter().collect();
        cl.sort();
        for ((p, c, pat), n) in cl {
            out.push_str(&format!(
                "c\t{p}\t{c}\t{pat}\t{}\t{}\t{}\n",
                n.joined, n.seen, n.free
            ));
        }
        let mut co: Vec<_> = self.collocations.iter().collect();
        co.sort();
        for ((l, c), n) in co {
            out.push_str(&format!(
                "m\t{l}\t{c}\t{}\t{}\t{}\n",
                n.joined, n.seen, n.free
            ));
        }
        out
    }

    /// Read [`MweEvidence::to_tsv`]'s format.
    pub fn parse(text: &str) -> Result<MweEvidence, String> {
        let mut e = MweEvidence {
            alpha: 2.0,
            threshold: 0.5,
            free_weight: 1.0,
            ..Default::default()
        };
        for (i, line) in text.lines().enumerate() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            let bad = || format!("mwe evidence line {}: {line:?}", i + 1);
            let num = |s: &str| s.parse::<u32>().map_err(|_| bad());
            let ch = |s: &str| s.chars().next().ok_or_else(bad);
            // joined, seen and (optional: older tables lack it) free.
            let counts = |c: &[&str]| -> Result<Counts, String> {
                let n = Counts {
                    joined: num(c[0])?,
                    seen: num(c[1])?,
                    free: c.get(2).map_or(Ok(0), |s| num(s))?,
                };
                if n.joined + n.free > n.seen {
                    return Err(bad());
                }
                Ok(n)
            };
            match (f[0], f.len()) {
                ("alpha", 2) => e.alpha = f[1].parse().map_err(|_| bad())?,
                ("threshold", 2) => e.threshold = f[1].parse().map_err(|_| bad())?,
                ("free_weight", 2) => e.free_weight = f[1].parse().map_err(|_| bad())?,
                ("p", 5 | 6) => {
                    e.pos_case.insert((ch(f[1])?, ch(f[2])?), counts(&f[3..])?);
                }
                ("h", 6 | 7) => {
                    e.heads
                        .insert((ch(f[1])?, ch(f[2])?, ch(f[3])?), counts(&f[4..])?);
                }
                ("c", 6 | 7) => {
                    e.classes
                        .insert((ch(f[1])?, ch(f[2])?, f[3].into()), counts(&f[4..])?);
                }
                ("m", 5 | 6) => {
                    e.collocations
                        .insert((f[1].into(), ch(f[2])?), counts(&f[3..])?);
                }
                _ => return Err(bad()),
            }
        }
        Ok(e)
    }
}

/// The collocation matcher.
pub struct MweMatcher {
    /// collocation → parts of speech that have it.
    lemmas: FxHashMap<Box<str>, Vec<Pos>>,
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
        if mode != MweMode::None {
            for pos in Pos::ALL {
                for l in inv.lemmas(pos) {
                    if !l.contains('_') {
                        continue;
                    }
                    lemmas.entry(l.into()).or_default().push(pos);
                    let n = l.split('_').count();
                    let first = l.split('_').next().unwrap_or_default();
                    let e = max_len.entry(first.into()).or_default();
                    *e = (*e).max(n);
                    let mut ends = l.match_indices('_').map(|(k, _)| k).skip(1);
                    for _ in 2..n {
                        if let Some(k) = ends.next() {
                            prefixes.insert(l[..k].into());
                        }
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

    /// First-word forms at `i`: as written, and its verb base forms; and
    /// the longest run from `i` that could spell a collocation.
    fn firsts(&self, inv: &Inventory, lower: &[String], i: usize) -> (Vec<String>, usize) {
        let mut firsts: Vec<String> = vec![lower[i].clone()];
        let mut longest = self.possible_len(&lower[i], lower, i);
        for b in inv.morphy(&lower[i], Pos::Verb) {
            if !firsts.contains(&b) {
                longest = longest.max(self.possible_len(&b, lower, i));
                firsts.push(b);
            }
        }
        (firsts, longest.min(lower.len() - i))
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
        if !run.iter().all(|w| is_wordlike(w)) {
            return out;
        }
        let mut push = |s: &str| {
            if let Some((l, ps)) = self.lemmas.get_key_value(s) {
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
        let mut out = Vec::new();
        let mut buf = String::new();
        for i in 0..words.len() {
            if !is_wordlike(&lower[i]) {
                continue;
            }
            let (firsts, longest) = self.firsts(inv, &lower, i);
            for n in (2..=longest).rev() {
                for (lemma, pos) in self.matches_at(inv, &lower, &firsts, i, n) {
                    out.push(MweMatch {
                        start: i,
                        end: i + n,
                        lemma,
                        pos,
                    });
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
            let starts = self.may_start(inv, &lower[i]);
            if !starts && compounds.is_empty() {
                i += 1;
                continue;
            }
            let (firsts, mut longest) = if starts {
                self.firsts(inv, &lower, i)
            } else {
                (Vec::new(), 0)
            };
            if !compounds.is_empty() {
                longest = longest.max(2);
            }
            let mut taken: Option<(MweMatch, f64)> = None;
            for n in (2..=longest).rev() {
                let mut readings = if starts {
                    self.matches_at(inv, &lower, &firsts, i, n)
                } else {
                    Vec::new()
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
                let case = match_case(m, words);
                // A closed compound SemCor never shows stays apart: its
                // class's rate comes from the few SemCor joins, and
                // `river bank` is two words to most annotators.
                if case.is_lowercase()
                    && !ev
                        .collocations
                        .contains_key(&(m.lemma.as_str().into(), case))
                {
                    return None;
                }
                let pattern = pattern(&tags[m.start..m.end]);
                let p = ev.estimate(&m.lemma, m.pos, case, &pattern, None);
                (p >= ev.threshold).then_some(p)
            }),
        }
    }
}

/// The head's letter in a coarse pattern: the first word of a verb
/// collocation (`took place`), the last word of the others (`credit card`).
pub fn head_of(pos: Pos, pattern: &str) -> char {
    let c = if pos == Pos::Verb {
        pattern.chars().next()
    } else {
        pattern.chars().last()
    };
    c.unwrap_or('O')
}

/// The coarse POS pattern of a run of Penn tags (`DT NN VBD` → `DNV`).
pub fn pattern<S: AsRef<str>>(tags: &[S]) -> String {
    tags.iter().map(|t| coarse_tag(t.as_ref())).collect()
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

    #[test]
    fn patterns_and_case() {
        assert_eq!(pattern(&["DT", "NN", "VBD"]), "DNV");
        assert_eq!(pattern(&["NNP", "NNPS", "TO", "RP", "CD", ","]), "PPIICO");
        assert_eq!(case_class("Hill"), 'U');
        assert_eq!(case_class("hills"), 'L');
        assert_eq!(head_of(Pos::Verb, "VN"), 'V');
        assert_eq!(head_of(Pos::Noun, "NV"), 'V');
    }

    fn toy() -> MweEvidence {
        let mut e = MweEvidence {
            alpha: 2.0,
            threshold: 0.5,
            free_weight: 0.5,
            ..Default::default()
        };
        for _ in 0..20 {
            e.add("take_place", Pos::Verb, 'L', "VN", true, false);
        }
        for _ in 0..20 {
            e.add("the_hill", Pos::Noun, 'L', "DN", false, true);
        }
        for _ in 0..5 {
            e.add("the_hill", Pos::Noun, 'U', "DP", true, false);
        }
        e
    }

    #[test]
    fn evidence_decides_by_case_and_backs_off_to_the_class() {
        let e = toy();
        assert!(e.join("take_place", Pos::Verb, 'L', "VN"));
        assert!(!e.join("the_hill", Pos::Noun, 'L', "DN"));
        assert!(e.join("the_hill", Pos::Noun, 'U', "DP"));
        // Unseen collocations follow their class: DP capitalised joins.
        assert!(e.join("the_city", Pos::Noun, 'U', "DP"));
        assert!(!e.join("the_city", Pos::Noun, 'L', "DN"));
        // Nothing known about adverbs: not joined.
        assert!(!e.join("no_longer", Pos::Adv, 'L', "RR"));
        // Leave-one-out lowers a single occurrence's own support.
        let mut one = MweEvidence {
            alpha: 2.0,
            threshold: 0.5,
            free_weight: 1.0,
            ..Default::default()
        };
        one.add("a_b", Pos::Noun, 'L', "NN", true, false);
        assert!(one.estimate("a_b", Pos::Noun, 'L', "NN", Some(true)) < 0.01);
        assert!(one.estimate("a_b", Pos::Noun, 'L', "NN", None) > 0.3);
    }

    /// Free occurrences weigh `free_weight`: a collocation joined 10 times
    /// in 30, the other 20 free, is joined at weight 0.25 (10 / 15) but
    /// not at 1 (10 / 30); costly occurrences always count in full.
    #[test]
    fn free_occurrences_weigh_less() {
        let mut e = MweEvidence {
            alpha: 1.0,
            threshold: 0.5,
            free_weight: 0.25,
            ..Default::default()
        };
        for k in 0..30 {
            e.add("and_then", Pos::Adv, 'L', "CR", k < 10, true);
            e.add("cold_water", Pos::Noun, 'L', "JN", k < 10, false);
        }
        assert!(e.join("and_then", Pos::Adv, 'L', "CR"));
        assert!(!e.join("cold_water", Pos::Noun, 'L', "JN"));
        e.free_weight = 1.0;
        assert!(!e.join("and_then", Pos::Adv, 'L', "CR"));
    }

    #[test]
    fn evidence_round_trips_through_tsv() {
        let e = toy();
        let back = MweEvidence::parse(&e.to_tsv()).unwrap();
        assert_eq!(back.collocations, e.collocations);
        assert_eq!(back.classes, e.classes);
        assert_eq!(back.pos_case, e.pos_case);
        assert_eq!(back.heads, e.heads);
        assert_eq!(back.threshold, e.threshold);
        assert_eq!(back.free_weight, e.free_weight);
        assert!(MweEvidence::parse("m\tx\tL\tone\t2\n").is_err());
        // More joined and free occurrences than seen: refused.
        assert!(MweEvidence::parse("m\tx\tL\t2\t3\t2\n").is_err());
        // Older tables without the free column still read.
        let old = MweEvidence::parse("m\tx\tL\t1\t2\n").unwrap();
        assert_eq!(old.collocations[&("x".into(), 'L')].free, 0);
        assert!(MweEvidence::parse("bogus\n").is_err());
    }

    #[test]
    fn shipped_evidence_parses() {
        let e = MweEvidence::shipped();
        assert!(e.threshold > 0.0 && e.threshold < 1.0);
    }
}
