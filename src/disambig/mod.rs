//! Disambiguators: one trait, several methods, chosen at run time.
//!
//! A run goes through four stages, each a type:
//!
//! 1. a [`Document`] (from SemCor, the evaluation XML or plain text);
//! 2. its [`Target`]s ([`Document::targets`]): lemma, POS, instance id;
//! 3. the [`Candidates`] of each target ([`candidates_of`]), computed once
//!    per target for every method: the senses of its lemma or, when the
//!    lemma as given is not in WordNet, of the base forms morphy finds;
//! 4. a decision per target ([`decide_document`]): a [`Prediction`] whose
//!    [`Decision`] says who decided and why, or `None` when every method
//!    abstained (or the target has no senses at all).
//!
//! Every method implements [`Disambiguator`]. A method gets a whole
//! document and its candidates at once, so methods that batch (the
//! encoder) or look across sentences (one sense per discourse) can, while
//! simple methods implement only [`Disambiguator::disambiguate`]. Methods
//! are only asked about targets with two or more senses: a single-sense
//! target is decided in stage 4 ([`Decision::SingleSense`]).
//!
//! Methods are built by name through the [`registry`].

pub mod calibration;
pub mod chain;
pub mod context;
pub mod discourse;
pub mod ens;
mod evidence;
pub mod knn;
pub mod lesk;
mod lesk_stopwords;
pub mod mfs;
pub mod naive_bayes;
mod nb_params;
pub mod registry;
pub mod similarity;

pub use calibration::{Calibration, Scale};
pub use chain::Chain;
pub use evidence::{Evidence, Exemplar, RunnerUp, Weighted};
pub use mfs::{CorpusMfs, FirstSense};
pub use registry::{Method, MethodOptions, MethodSpec};

use std::borrow::Cow;
use std::fmt;

use crate::corpus::{Document, Role, Target};
use crate::wordnet::{Inventory, Sense};

/// The candidate senses of a lemma: its senses, or — when the lemma as
/// given is not in WordNet (plain text, odd corpus lemmas) — the senses of
/// the base forms morphy finds for it.
pub fn candidates<'a>(
    inv: &'a Inventory,
    lemma: &str,
    pos: crate::wordnet::Pos,
) -> Cow<'a, [Sense]> {
    let direct = inv.senses(lemma, pos);
    if !direct.is_empty() {
        return Cow::Borrowed(direct);
    }
    Cow::Owned(inv.lookup(lemma, pos).into_iter().cloned().collect())
}

/// A target and its candidate senses (stage 3).
#[derive(Clone, Debug, PartialEq)]
pub struct Candidates<'inv> {
    /// The target.
    pub target: Target,
    /// Its candidate senses in WordNet order (empty: WordNet has none).
    pub senses: Cow<'inv, [Sense]>,
}

/// The candidates of each target, in order (stage 3).
pub fn candidates_of(inv: &Inventory, targets: Vec<Target>) -> Vec<Candidates<'_>> {
    targets
        .into_iter()
        .map(|target| {
            let senses = candidates(inv, &target.lemma, target.pos);
            Candidates { target, senses }
        })
        .collect()
}

/// Why a method took WordNet's first sense instead of deciding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum FallbackReason {
    /// The method found no evidence for any candidate (no gloss overlap,
    /// no similarity, no vector).
    NoEvidence,
    /// The earlier methods of a back-off chain abstained and a later one
    /// answered.
    BackOff,
}

/// Who decided a target and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Decision {
    /// The method chose on its own evidence.
    Decided,
    /// The method's best score was shared by several senses; WordNet's
    /// order chose among them.
    Tie,
    /// The method had nothing to go on; see the reason.
    Fallback {
        /// Why.
        reason: FallbackReason,
    },
    /// The lemma has a single sense: nothing to decide, no method asked.
    SingleSense,
}

impl Decision {
    /// A short label for reports and output columns: `method`, `tie`,
    /// `fallback`, `back-off`, `single-sense`.
    pub fn label(self) -> &'static str {
        match self {
            Decision::Decided => "method",
            Decision::Tie => "tie",
            Decision::Fallback {
                reason: FallbackReason::NoEvidence,
            } => "fallback",
            Decision::Fallback {
                reason: FallbackReason::BackOff,
            } => "back-off",
            Decision::SingleSense => "single-sense",
        }
    }

    /// True when the method decided on its own evidence.
    pub fn is_decided(self) -> bool {
        self == Decision::Decided
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// What a method decided for one target.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    /// The chosen sense key (`bank%1:14:00::`).
    pub key: String,
    /// The method that answered (`lesk`, `nb`, …; `mfs` for the first
    /// sense). For [`Decision::SingleSense`], `single-sense`.
    pub method: String,
    /// Who decided and why.
    pub decision: Decision,
    /// The method's score for the chosen sense (overlap, log-probability,
    /// cosine…; its scale depends on the method, see [`Prediction::scale`]).
    pub score: f64,
    /// The raw score of every candidate the method scored, in WordNet
    /// order (the chosen one among them). Empty when the method gave only
    /// its winner; candidates a method cannot score (an NB sense never
    /// seen in training, a kNN synset without a vector) are left out.
    pub scores: Vec<(String, f64)>,
    /// How [`Prediction::scores`] become probabilities over the candidates
    /// ([`Prediction::distribution`]).
    pub scale: Scale,
    /// Why the method chose as it did, when asked ([`Disambiguator::explain`]).
    pub evidence: Option<Evidence>,
}

impl Prediction {
    /// A prediction of `method` for `key`.
    pub fn new(
        key: impl Into<String>,
        method: impl Into<String>,
        decision: Decision,
        score: f64,
    ) -> Prediction {
        Prediction {
            key: key.into(),
            method: method.into(),
            decision,
            score,
            scores: Vec::new(),
            scale: Scale::default(),
            evidence: None,
        }
    }

    /// A method that answered on its own evidence.
    pub fn decided(key: impl Into<String>, method: impl Into<String>, score: f64) -> Prediction {
        Prediction::new(key, method, Decision::Decided, score)
    }

    /// With the raw scores of the candidates and how to normalise them.
    pub fn with_scores(mut self, scores: Vec<(String, f64)>, scale: Scale) -> Prediction {
        self.scores = scores;
        self.scale = scale;
        self
    }

    /// The candidates' scores normalised to probabilities (summing to 1),
    /// best first: the chosen sense first, then the others by probability,
    /// WordNet order among equals. Without [`Prediction::scores`], the
    /// chosen sense alone with probability 1.
    pub fn distribution(&self) -> Vec<(String, f64)> {
        let mut scores = self.scores.clone();
        if !scores.iter().any(|(k, _)| *k == self.key) {
            // A method that gave no scores, or not the winner's.
            scores.push((self.key.clone(), self.score));
        }
        let raw: Vec<f64> = scores.iter().map(|(_, s)| *s).collect();
        let probs = self.scale.normalise(&raw);
        let mut out: Vec<(String, f64)> = scores.into_iter().map(|(k, _)| k).zip(probs).collect();
        let chosen = out.iter().position(|(k, _)| *k == self.key).unwrap_or(0);
        let first = out.remove(chosen);
        // Stable: WordNet order among equal probabilities.
        out.sort_by(|a, b| b.1.total_cmp(&a.1));
        out.insert(0, first);
        out
    }

    /// `"lesk"` for a decision on evidence, else `"lesk (tie)"`,
    /// `"lesk (fallback)"`, …; `"single-sense"`: who decided, for reports.
    pub fn decided_by(&self) -> String {
        match self.decision {
            Decision::Decided => self.method.clone(),
            Decision::SingleSense => "single-sense".to_string(),
            d => format!("{} ({})", self.method, d.label()),
        }
    }
}

/// `(key, score)` of each candidate, in WordNet order, for
/// [`Prediction::with_scores`] (every candidate scored; see [`scored`]
/// when some may have none).
pub fn keyed(candidates: &[Sense], scores: &[f64]) -> Vec<(String, f64)> {
    candidates
        .iter()
        .zip(scores)
        .map(|(c, &s)| (c.key.clone(), s))
        .collect()
}

/// The raw scores of `candidates` as [`Prediction::scores`] wants them:
/// `(key, score)` in WordNet order, candidates without a score left out.
pub fn scored(candidates: &[Sense], scores: &[Option<f64>]) -> Vec<(String, f64)> {
    candidates
        .iter()
        .zip(scores)
        .filter_map(|(c, s)| s.filter(|s| s.is_finite()).map(|s| (c.key.clone(), s)))
        .collect()
}

/// A word-sense disambiguation method.
///
/// A method of one's own needs only [`Disambiguator::name`] and
/// [`Disambiguator::disambiguate`]; it then runs wherever the built-in
/// ones do: in [`crate::eval::evaluate`], in a back-off [`Chain`] with
/// them (a method built by name is a `Box<dyn Disambiguator>`), and in
/// [`crate::tagging::analyse`]. (`--method` and [`MethodSpec`] know only
/// the methods of the [`registry`].) `no_run`: it needs the data.
///
/// ```no_run
/// use wsd::corpus::{Document, Target};
/// use wsd::disambig::{Chain, Disambiguator, MethodSpec, Prediction};
/// use wsd::eval::{evaluate, Dataset, Input};
/// use wsd::resources::{ResourcePaths, Resources};
/// use wsd::wordnet::{Inventory, Sense};
///
/// /// WordNet's last sense, for nouns only (abstains on the rest).
/// struct LastNounSense;
///
/// impl Disambiguator for LastNounSense {
///     fn name(&self) -> &str {
///         "last-noun"
///     }
///     fn disambiguate(
///         &self,
///         _inv: &Inventory,
///         _doc: &Document,
///         target: &Target,
///         candidates: &[Sense],
///     ) -> Option<Prediction> {
///         let last = candidates.last().filter(|_| target.pos == wsd::wordnet::Pos::Noun)?;
///         Some(Prediction::decided(last.key.clone(), self.name(), 1.0))
///     }
/// }
///
/// let res = Resources::new(ResourcePaths::default());
/// let mfs = "mfs".parse::<MethodSpec>()?.build(&res)?;
/// let chain = Chain::new(vec![Box::new(LastNounSense), mfs]);
/// let data = Dataset::from_xml(
///     "corpora/wsd-eval/semeval2007/semeval2007.data.xml".as_ref(),
///     "corpora/wsd-eval/semeval2007/semeval2007.gold.key.txt".as_ref(),
/// )?;
/// let ev = evaluate(&chain, res.inventory()?, &data.docs, &data.gold, Input::Gold, &|_| {});
/// println!("{}: F1 {:.1}", chain.name(), ev.report.overall.f1);
/// # Ok::<(), wsd::Error>(())
/// ```
pub trait Disambiguator: Send + Sync {
    /// The method's name as `--method` spells it.
    fn name(&self) -> &str;

    /// Choose a sense for one target among `candidates` (WordNet order, at
    /// least two). `None` means the method abstains (a back-off chain then
    /// asks the next method).
    ///
    /// `target` is one of `doc`'s targets ([`Document::targets`]; with
    /// [`candidates_of`] and [`decide_document`] it always is): the
    /// built-in methods read its context by its sentence and token
    /// indices, and panic when these are out of range for `doc` (lesk,
    /// knn).
    fn disambiguate(
        &self,
        inv: &Inventory,
        doc: &Document,
        target: &Target,
        candidates: &[Sense],
    ) -> Option<Prediction>;

    /// Disambiguate several targets of a document at once (methods that
    /// batch override this); the default asks
    /// [`Disambiguator::disambiguate`] for each.
    fn disambiguate_document(
        &self,
        inv: &Inventory,
        doc: &Document,
        targets: &[Candidates<'_>],
    ) -> Vec<Option<Prediction>> {
        targets
            .iter()
            .map(|c| self.disambiguate(inv, doc, &c.target, &c.senses))
            .collect()
    }

    /// The evidence behind `prediction`, an answer this method gave for
    /// `target` (`--explain`). Computed on request only, since it costs
    /// more than the decision; the default has none to give.
    fn explain(
        &self,
        _inv: &Inventory,
        _doc: &Document,
        _target: &Target,
        _candidates: &[Sense],
        _prediction: &Prediction,
    ) -> Option<Evidence> {
        None
    }

    /// Calibration maps the method brings itself, beyond the built-in
    /// table ([`Calibration::builtin`]): a trained model that fitted its
    /// own (knn) returns them here, so that output can merge them in.
    /// The default has none.
    fn calibration(&self) -> Option<Calibration> {
        None
    }

    /// Whether the method reads the mean encoder vector of a target's whole
    /// sentence (an `ens` model trained with its sentence features): the
    /// text pipeline then leaves each sentence's mean on its tokens
    /// ([`crate::corpus::Token::sentence_vector`]), so that the sentence
    /// is encoded once. The default: no.
    fn reads_sentence_vectors(&self) -> bool {
        false
    }
}

/// Fill [`Prediction::evidence`] for every answer of a document
/// ([`decide_document`]'s output), asking `method` to explain each.
pub fn explain_document(
    method: &dyn Disambiguator,
    inv: &Inventory,
    doc: &Document,
    targets: &[Candidates<'_>],
    preds: &mut [Option<Prediction>],
) {
    let asked: Vec<usize> = (0..targets.len())
        .filter(|&i| {
            preds
                .get(i)
                .and_then(Option::as_ref)
                .is_some_and(|p| p.decision != Decision::SingleSense)
        })
        .collect();
    for (view, which, asked) in reading_groups(doc, targets, asked) {
        for (i, c) in which.into_iter().zip(asked) {
            if let Some(p) = preds[i].as_mut() {
                p.evidence = method.explain(inv, &view, &c.target, &c.senses, p);
            }
        }
    }
}

/// Does the target stand for a word of a joined unit (its head or one of
/// its parts, [`Role::Head`], [`Role::Part`])? Such a target is read in
/// [`Document::split_units`]' view of the document, with the unit's other
/// words beside it, as the same word is read in input that keeps the
/// words apart (SemCor's own tokens, the evaluation framework's) and as
/// the methods were trained.
fn reads_apart(c: &Candidates<'_>) -> bool {
    matches!(c.target.role, Role::Head | Role::Part(_))
}

/// The targets `which` of `targets` grouped by the document each is read
/// in, with their candidates as read there: the others on `doc` itself,
/// a unit's words on its split copy ([`reads_apart`],
/// [`Document::split_units`]). No group is empty.
fn reading_groups<'d, 'inv>(
    doc: &'d Document,
    targets: &[Candidates<'inv>],
    which: Vec<usize>,
) -> Vec<(Cow<'d, Document>, Vec<usize>, Vec<Candidates<'inv>>)> {
    let (own, words): (Vec<usize>, Vec<usize>) =
        which.into_iter().partition(|&i| !reads_apart(&targets[i]));
    let mut groups = Vec::with_capacity(2);
    if !own.is_empty() {
        let asked = own.iter().map(|&i| targets[i].clone()).collect();
        groups.push((Cow::Borrowed(doc), own, asked));
    }
    if !words.is_empty() {
        let plain: Vec<Target> = words.iter().map(|&i| targets[i].target.clone()).collect();
        let (apart, moved) = doc.split_units(&plain);
        let asked = words
            .iter()
            .zip(moved)
            .map(|(&i, target)| Candidates {
                target,
                senses: targets[i].senses.clone(),
            })
            .collect();
        groups.push((Cow::Owned(apart), words, asked));
    }
    groups
}

/// The name single-sense decisions carry in [`Prediction::method`].
pub const SINGLE_SENSE: &str = "single-sense";

/// Stage 4: decide every target of `doc`. Targets without senses get
/// `None`, single-sense targets their sense ([`Decision::SingleSense`]);
/// only the others are given to `method`: in one call, and the words of
/// joined units in a second one on the units-split document
/// ([`Document::split_units`]); one sense per discourse therefore does
/// not carry between the two.
pub fn decide_document(
    method: &dyn Disambiguator,
    inv: &Inventory,
    doc: &Document,
    targets: &[Candidates<'_>],
) -> Vec<Option<Prediction>> {
    let mut out: Vec<Option<Prediction>> = vec![None; targets.len()];
    let mut open = Vec::new();
    for (i, c) in targets.iter().enumerate() {
        match &*c.senses {
            [] => {}
            [only] => {
                out[i] = Some(
                    Prediction::new(only.key.clone(), SINGLE_SENSE, Decision::SingleSense, 1.0)
                        .with_scores(vec![(only.key.clone(), 1.0)], Scale::Share),
                )
            }
            _ => open.push(i),
        }
    }
    if open.is_empty() {
        return out;
    }
    // A unit's words are read apart, in a second call (see [`reads_apart`]).
    for (view, which, asked) in reading_groups(doc, targets, open) {
        for (i, p) in which
            .into_iter()
            .zip(method.disambiguate_document(inv, &view, &asked))
        {
            out[i] = p;
        }
    }
    out
}

/// A boxed, shared or borrowed method is a method (so wrappers such as
/// [`discourse::OneSensePerDiscourse`] and chains take methods chosen at
/// run time, or borrowed ones).
macro_rules! delegate {
    ($($ty:tt)*) => {
        impl<T: Disambiguator + ?Sized> Disambiguator for $($ty)* {
            fn name(&self) -> &str {
                (**self).name()
            }
            fn disambiguate(
                &self,
                inv: &Inventory,
                doc: &Document,
                target: &Target,
                candidates: &[Sense],
            ) -> Option<Prediction> {
                (**self).disambiguate(inv, doc, target, candidates)
            }
            fn disambiguate_document(
                &self,
                inv: &Inventory,
                doc: &Document,
                targets: &[Candidates<'_>],
            ) -> Vec<Option<Prediction>> {
                (**self).disambiguate_document(inv, doc, targets)
            }
            fn explain(
                &self,
                inv: &Inventory,
                doc: &Document,
                target: &Target,
                candidates: &[Sense],
                prediction: &Prediction,
            ) -> Option<Evidence> {
                (**self).explain(inv, doc, target, candidates, prediction)
            }
            fn calibration(&self) -> Option<Calibration> {
                (**self).calibration()
            }
            fn reads_sentence_vectors(&self) -> bool {
                (**self).reads_sentence_vectors()
            }
        }
    };
}
delegate!(Box<T>);
delegate!(std::sync::Arc<T>);
delegate!(&T);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::tests::word;
    use crate::corpus::{Sentence, Token};
    use crate::wordnet::Pos;

    /// Answers the second candidate when the word after the target is
    /// `vault`, else the first: a method whose answer shows the context it
    /// was given.
    struct NextWord;

    impl Disambiguator for NextWord {
        fn name(&self) -> &str {
            "next-word"
        }
        fn disambiguate(
            &self,
            _inv: &Inventory,
            doc: &Document,
            target: &Target,
            candidates: &[Sense],
        ) -> Option<Prediction> {
            let next = doc.sentences[target.sentence].tokens.get(target.token + 1);
            let k = usize::from(next.is_some_and(|t| t.text == "vault"));
            Some(Prediction::decided(
                candidates[k].key.clone(),
                "next-word",
                1.0,
            ))
        }
    }

    /// A word of a joined unit is decided with the unit's other words
    /// beside it (`bank` before `vault`), as in input that keeps them
    /// apart; a word outside any unit sees its own neighbours.
    #[test]
    fn a_units_words_see_the_units_other_words() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let inv = Inventory::load(&root.join("tests/fixtures/mini-wordnet")).unwrap();
        let senses = inv.lookup("bank", Pos::Noun);
        assert!(senses.len() >= 2);
        // "A bank vault by the bank": `bank vault` a unit whose first
        // word is a target, and the noun alone.
        let part = Token {
            instance: Some("w0".into()),
            ..word("bank", "bank", Some(Pos::Noun), (2, 6))
        };
        let unit = Token {
            head: Some(Box::new(word("vault", "vault", Some(Pos::Noun), (7, 12)))),
            parts: vec![part],
            ..word("bank vault", "bank_vault", Some(Pos::Noun), (2, 12))
        };
        let doc = Document {
            id: "d".into(),
            sentences: vec![Sentence {
                id: "s".into(),
                tokens: vec![
                    word("A", "a", None, (0, 1)),
                    unit,
                    word("by", "by", None, (13, 15)),
                    word("the", "the", None, (16, 19)),
                    Token {
                        instance: Some("n".into()),
                        ..word("bank", "bank", Some(Pos::Noun), (20, 24))
                    },
                ],
            }],
        };
        let cands = candidates_of(&inv, doc.targets());
        assert_eq!(cands.len(), 2);
        let preds = decide_document(&NextWord, &inv, &doc, &cands);
        assert_eq!(preds[0].as_ref().unwrap().key, senses[1].key);
        assert_eq!(preds[1].as_ref().unwrap().key, cands[1].senses[0].key);
    }
}
