//! Where `--raw` loses points: each gold instance of an annotated document
//! classified against what the text pipeline made of its rebuilt text.
//!
//! ```text
//! let (text, spans) = rebuild_text(&gold_doc);
//! let analysed = pipeline.analyse(&gold_doc.id, &text, 0, 0);
//! let (rows, breakdown) = align_raw(&gold_doc, &spans, &analysed);
//! ```
//!
//! A gold instance is aligned to the pipeline *target* that overlaps its
//! character span — one with exactly its span first, else the one starting
//! nearest to it, the same rule `wsd eval --raw` uses to score — and
//! classified, first rule first. The head words of joined units
//! ([`Token::head`]) are pipeline tokens here too, so a gold instance on
//! the head of a unit the pipeline joined (`talking` of `talking about`)
//! is matched by the head's secondary target:
//!
//! * [`RawOutcome::Multiword`]: the target's span differs from the gold
//!   token's (the pipeline joined words the annotators kept apart, or kept
//!   apart words they joined); also when no target overlaps but a token
//!   does whose span differs (a join that produced a non-target);
//! * [`RawOutcome::MissedTarget`]: no pipeline target overlaps it;
//! * [`RawOutcome::WrongPos`]: same span, other part of speech;
//! * [`RawOutcome::WrongLemma`]: same span and POS, other lemma (compared
//!   lower-cased, `_` and spaces alike);
//! * [`RawOutcome::Matched`]: same span, POS and lemma.
//!
//! [`RawBreakdown::extra_targets`] counts pipeline targets that overlap no
//! gold instance. The multiword decisions are also scored on their own,
//! as precision and recall of joins against the gold multiword instances
//! ([`RawBreakdown::join_precision`], [`RawBreakdown::join_recall`]).

use serde::Serialize;

use crate::corpus::{Document, Token};
use crate::wordnet::Pos;

/// How a gold instance fared in the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RawOutcome {
    /// Same span, part of speech and lemma.
    Matched,
    /// No pipeline target there.
    MissedTarget,
    /// Same span, other part of speech.
    WrongPos,
    /// Same span and part of speech, other lemma.
    WrongLemma,
    /// Joined or split differently from the gold token.
    Multiword,
}

impl RawOutcome {
    /// Every outcome, in report order.
    pub const ALL: [RawOutcome; 5] = [
        RawOutcome::Matched,
        RawOutcome::MissedTarget,
        RawOutcome::WrongPos,
        RawOutcome::WrongLemma,
        RawOutcome::Multiword,
    ];

    /// Its name in reports (`missed_target` …).
    pub fn name(self) -> &'static str {
        match self {
            RawOutcome::Matched => "matched",
            RawOutcome::MissedTarget => "missed_target",
            RawOutcome::WrongPos => "wrong_pos",
            RawOutcome::WrongLemma => "wrong_lemma",
            RawOutcome::Multiword => "multiword",
        }
    }

    /// Its label in human-readable reports (`missed target` …).
    pub fn label(self) -> &'static str {
        match self {
            RawOutcome::Matched => "matched",
            RawOutcome::MissedTarget => "missed target",
            RawOutcome::WrongPos => "wrong POS",
            RawOutcome::WrongLemma => "wrong lemma",
            RawOutcome::Multiword => "multiword mismatch",
        }
    }
}

/// One gold instance and what the pipeline made of it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RawAlignment {
    /// The gold instance id.
    pub instance: String,
    /// The outcome.
    pub outcome: RawOutcome,
    /// Gold token text (`_` in multiwords).
    pub gold_text: String,
    /// Gold lemma (lower case).
    pub gold_lemma: String,
    /// Gold part of speech.
    pub gold_pos: Option<Pos>,
    /// The pipeline token aligned (a target if any overlaps, else the
    /// overlapping token nearest the gold start): text, lemma, POS.
    pub pipeline_text: Option<String>,
    /// Its lemma.
    pub pipeline_lemma: Option<String>,
    /// Its part of speech.
    pub pipeline_pos: Option<Pos>,
    /// Whether it is a target.
    pub pipeline_target: bool,
}

impl RawAlignment {
    /// What the pipeline found there, as `text lemma.p` (`None` when no
    /// pipeline token overlaps the gold one).
    pub fn found(&self) -> Option<String> {
        let text = self.pipeline_text.as_deref()?;
        let lemma = self.pipeline_lemma.as_deref().unwrap_or("?");
        let pos = self.pipeline_pos.map_or('?', |p| p.letter());
        Some(format!("{text} {lemma}.{pos}"))
    }
}

/// Counts of [`RawOutcome`]s, plus extra targets.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RawBreakdown {
    /// Gold instances.
    pub instances: usize,
    /// Same span, POS and lemma.
    pub matched: usize,
    /// No target there.
    pub missed_target: usize,
    /// Other POS.
    pub wrong_pos: usize,
    /// Other lemma.
    pub wrong_lemma: usize,
    /// Joined or split differently.
    pub multiword: usize,
    /// Pipeline targets overlapping no gold instance.
    pub extra_targets: usize,
    /// Gold instances of several words (`took_place`, `Mike_Deegan`, the
    /// framework's `look to`).
    pub gold_joins: usize,
    /// Pipeline tokens of several words (joined multiwords and names)
    /// that overlap a gold instance — joins elsewhere, on words the
    /// annotators left untagged (SemCor's `brownv` documents tag verbs
    /// only), are not counted against the pipeline.
    pub pipeline_joins: usize,
    /// Pipeline joins whose span is exactly a gold multiword instance's.
    pub joins_matched: usize,
}

impl RawBreakdown {
    /// Count one outcome.
    pub fn add(&mut self, o: RawOutcome) {
        self.instances += 1;
        *self.get_mut(o) += 1;
    }

    fn get_mut(&mut self, o: RawOutcome) -> &mut usize {
        match o {
            RawOutcome::Matched => &mut self.matched,
            RawOutcome::MissedTarget => &mut self.missed_target,
            RawOutcome::WrongPos => &mut self.wrong_pos,
            RawOutcome::WrongLemma => &mut self.wrong_lemma,
            RawOutcome::Multiword => &mut self.multiword,
        }
    }

    /// The count of one outcome.
    pub fn get(&self, o: RawOutcome) -> usize {
        match o {
            RawOutcome::Matched => self.matched,
            RawOutcome::MissedTarget => self.missed_target,
            RawOutcome::WrongPos => self.wrong_pos,
            RawOutcome::WrongLemma => self.wrong_lemma,
            RawOutcome::Multiword => self.multiword,
        }
    }

    /// Add another breakdown's counts.
    pub fn merge(&mut self, o: &RawBreakdown) {
        self.instances += o.instances;
        self.matched += o.matched;
        self.missed_target += o.missed_target;
        self.wrong_pos += o.wrong_pos;
        self.wrong_lemma += o.wrong_lemma;
        self.multiword += o.multiword;
        self.extra_targets += o.extra_targets;
        self.gold_joins += o.gold_joins;
        self.pipeline_joins += o.pipeline_joins;
        self.joins_matched += o.joins_matched;
    }

    /// Of the pipeline's joins on gold instances, the share that is
    /// exactly a gold multiword (0 when there is none).
    pub fn join_precision(&self) -> f64 {
        self.joins_matched as f64 / self.pipeline_joins.max(1) as f64
    }

    /// Of the gold multiword instances, the share the pipeline joined
    /// exactly so (0 when there is none).
    pub fn join_recall(&self) -> f64 {
        self.joins_matched as f64 / self.gold_joins.max(1) as f64
    }
}

fn norm(l: &str) -> String {
    l.to_lowercase().replace(' ', "_")
}

/// Classify every gold instance of `gold` (whose rebuilt-text token spans
/// are `spans`, from [`super::rebuild_text`]) against `analysed`, the
/// pipeline's analysis of that text (spans relative to the same text).
/// Returns one row per gold instance, in document order, and the counts.
pub fn align_raw(
    gold: &Document,
    spans: &[Vec<(usize, usize)>],
    analysed: &Document,
) -> (Vec<RawAlignment>, RawBreakdown) {
    let toks: Vec<&Token> = analysed
        .sentences
        .iter()
        .flat_map(|s| &s.tokens)
        .flat_map(|t| std::iter::once(t).chain(t.unit_words().into_iter().map(|(_, w)| w)))
        .filter(|t| t.span.is_some())
        .collect();
    let mut rows = Vec::new();
    let mut counts = RawBreakdown::default();
    let mut gold_spans: Vec<(usize, usize)> = Vec::new();
    let mut gold_multi: Vec<(usize, usize)> = Vec::new();
    for (s, sent) in gold.sentences.iter().enumerate() {
        for (i, tok) in sent.tokens.iter().enumerate() {
            let Some(id) = &tok.instance else { continue };
            let (gs, ge) = spans[s][i];
            gold_spans.push((gs, ge));
            if tok.text.contains(['_', ' ']) {
                gold_multi.push((gs, ge));
            }
            let overlapping = toks.iter().filter(|t| {
                let (ps, pe) = t.span.unwrap_or_default();
                ps < ge && gs < pe
            });
            let nearest = |targets_only: bool| {
                overlapping
                    .clone()
                    .filter(|t| !targets_only || t.instance.is_some())
                    .min_by_key(|t| {
                        let (ps, pe) = t.span.unwrap_or_default();
                        ((ps, pe) != (gs, ge), ps.abs_diff(gs))
                    })
                    .copied()
            };
            let target = nearest(true);
            let any = target.or_else(|| nearest(false));
            let gold_lemma = norm(tok.lemma.as_deref().unwrap_or(&tok.text));
            let outcome = match (target, any) {
                (Some(t), _) if t.span != Some((gs, ge)) => RawOutcome::Multiword,
                (Some(t), _) if t.pos != tok.pos => RawOutcome::WrongPos,
                (Some(t), _) if t.lemma.as_deref().map(norm) != Some(gold_lemma.clone()) => {
                    RawOutcome::WrongLemma
                }
                (Some(_), _) => RawOutcome::Matched,
                (None, Some(a)) if a.span != Some((gs, ge)) => RawOutcome::Multiword,
                (None, _) => RawOutcome::MissedTarget,
            };
            counts.add(outcome);
            rows.push(RawAlignment {
                instance: id.clone(),
                outcome,
                gold_text: tok.text.clone(),
                gold_lemma,
                gold_pos: tok.pos,
                pipeline_text: any.map(|t| t.text.clone()),
                pipeline_lemma: any.and_then(|t| t.lemma.clone()),
                pipeline_pos: any.and_then(|t| t.pos),
                pipeline_target: target.is_some(),
            });
        }
    }
    gold_spans.sort_unstable();
    gold_multi.sort_unstable();
    // Gold spans are sorted and disjoint: look at the last one starting
    // before `pe`.
    let on_gold = |t: &Token| {
        let (ps, pe) = t.span.unwrap_or_default();
        let k = gold_spans.partition_point(|&(gs, _)| gs < pe);
        k > 0 && gold_spans[k - 1].1 > ps
    };
    counts.extra_targets = toks
        .iter()
        .filter(|t| t.instance.is_some() && !on_gold(t))
        .count();
    counts.gold_joins = gold_multi.len();
    let joins: Vec<&&Token> = toks
        .iter()
        .filter(|t| t.text.contains(' ') && on_gold(t))
        .collect();
    counts.pipeline_joins = joins.len();
    counts.joins_matched = joins
        .iter()
        .filter(|t| {
            gold_multi
                .binary_search(&t.span.unwrap_or_default())
                .is_ok()
        })
        .count();
    (rows, counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Sentence;

    fn tok(text: &str, lemma: &str, pos: Option<Pos>, inst: Option<&str>) -> Token {
        Token {
            text: text.into(),
            lemma: Some(lemma.into()),
            pos,
            instance: inst.map(str::to_string),
            ..Token::default()
        }
    }

    fn ptok(
        text: &str,
        lemma: &str,
        pos: Option<Pos>,
        span: (usize, usize),
        target: bool,
    ) -> Token {
        Token {
            span: Some(span),
            ..tok(text, lemma, pos, target.then_some("x"))
        }
    }

    #[test]
    fn classifies_each_kind_of_loss() {
        // "a few cold hills took_place best banks"
        let gold = Document {
            id: "d".into(),
            sentences: vec![Sentence {
                id: "d.s".into(),
                tokens: vec![
                    tok("a", "a", None, None),
                    tok("few", "few", Some(Pos::Adj), Some("g1")),
                    tok("cold", "cold", Some(Pos::Adj), Some("g2")),
                    tok("hills", "hill", Some(Pos::Noun), Some("g3")),
                    tok("took_place", "take_place", Some(Pos::Verb), Some("g4")),
                    tok("best", "best", Some(Pos::Adj), Some("g5")),
                    tok("banks", "bank", Some(Pos::Noun), Some("g6")),
                ],
            }],
        };
        let (text, spans) = super::super::rebuild_text(&gold);
        assert_eq!(text, "a few cold hills took place best banks\n");
        let analysed = Document {
            id: "d".into(),
            sentences: vec![Sentence {
                id: "d.s".into(),
                tokens: vec![
                    ptok("a few", "a_few", Some(Pos::Adj), (0, 5), true),
                    ptok("cold", "cold", Some(Pos::Noun), (6, 10), true),
                    ptok("hills", "hill", Some(Pos::Noun), (11, 16), false),
                    ptok("took", "take", Some(Pos::Verb), (17, 21), true),
                    ptok("place", "place", Some(Pos::Noun), (22, 27), true),
                    ptok("best", "good", Some(Pos::Adj), (28, 32), true),
                    ptok("banks", "bank", Some(Pos::Noun), (33, 38), true),
                    ptok("extra", "extra", Some(Pos::Noun), (39, 44), true),
                ],
            }],
        };
        let (rows, b) = align_raw(&gold, &spans, &analysed);
        let got: Vec<RawOutcome> = rows.iter().map(|r| r.outcome).collect();
        assert_eq!(
            got,
            [
                RawOutcome::Multiword,
                RawOutcome::WrongPos,
                RawOutcome::MissedTarget,
                RawOutcome::Multiword,
                RawOutcome::WrongLemma,
                RawOutcome::Matched,
            ]
        );
        assert_eq!(b.instances, 6);
        assert_eq!(b.matched, 1);
        assert_eq!(b.multiword, 2);
        assert_eq!(b.extra_targets, 1);
        assert_eq!(rows[4].pipeline_lemma.as_deref(), Some("good"));
        assert_eq!(b.get(RawOutcome::Multiword), 2);
        // One gold multiword (took_place), kept apart; one pipeline join
        // (a few) on a gold instance, not a gold multiword.
        assert_eq!((b.gold_joins, b.pipeline_joins, b.joins_matched), (1, 1, 0));
        assert_eq!((b.join_precision(), b.join_recall()), (0.0, 0.0));
    }

    /// A gold word inside a unit the pipeline joined is answered by the
    /// unit's row for that word ([`Token::parts`], [`Token::head`]), and
    /// a gold unit by the unit.
    #[test]
    fn a_units_words_answer_gold_words_inside_it() {
        // "vocational education school_district"
        let gold = Document {
            id: "d".into(),
            sentences: vec![Sentence {
                id: "d.s".into(),
                tokens: vec![
                    tok("vocational", "vocational", Some(Pos::Adj), Some("g1")),
                    tok("education", "education", Some(Pos::Noun), Some("g2")),
                    tok(
                        "school_district",
                        "school_district",
                        Some(Pos::Noun),
                        Some("g3"),
                    ),
                ],
            }],
        };
        let (text, spans) = super::super::rebuild_text(&gold);
        assert_eq!(text, "vocational education school district\n");
        // A joined noun unit of `(word, POS)`s starting at byte `at`: its
        // last word the head, the others its parts, every word a target.
        let unit = |at: usize, words: &[(&str, Pos)]| {
            let mut start = at;
            let mut own: Vec<Token> = words
                .iter()
                .map(|&(w, pos)| {
                    let t = ptok(w, w, Some(pos), (start, start + w.len()), true);
                    start += w.len() + 1;
                    t
                })
                .collect();
            let text: Vec<&str> = words.iter().map(|w| w.0).collect();
            let head = own.pop().map(Box::new);
            Token {
                head,
                parts: own,
                ..ptok(
                    &text.join(" "),
                    &text.join("_"),
                    Some(Pos::Noun),
                    (at, start - 1),
                    true,
                )
            }
        };
        let analysed = Document {
            id: "d".into(),
            sentences: vec![Sentence {
                id: "d.s".into(),
                tokens: vec![
                    unit(0, &[("vocational", Pos::Adj), ("education", Pos::Noun)]),
                    unit(21, &[("school", Pos::Noun), ("district", Pos::Noun)]),
                ],
            }],
        };
        let (rows, b) = align_raw(&gold, &spans, &analysed);
        assert!(
            rows.iter().all(|r| r.outcome == RawOutcome::Matched),
            "{rows:?}"
        );
        assert_eq!(b.matched, 3);
        // Without the parts, `vocational` is lost to the unit.
        let mut no_parts = analysed.clone();
        no_parts.sentences[0].tokens[0].parts.clear();
        let (rows, _) = align_raw(&gold, &spans, &no_parts);
        assert_eq!(rows[0].outcome, RawOutcome::Multiword);
    }
}
