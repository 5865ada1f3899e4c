//! Running a method on an annotated data set and scoring it: the one
//! evaluation loop that `wsd eval`, the tests and the benchmarks share.
//!
//! Two ways to feed the method:
//!
//! * [`Input::Gold`]: the data set's own tokens, lemmas and POS (the
//!   framework's standard setting);
//! * [`Input::Raw`]: its plain text rebuilt ([`rebuild_text`]), run through
//!   the text pipeline as `wsd tag` would, and every pipeline target
//!   aligned back to the gold instance it overlaps by character span
//!   ([`answer_raw`]) — what automatic preprocessing costs. Each gold
//!   instance is also classified (matched, missed target, wrong POS, wrong
//!   lemma, multiword mismatch; [`crate::pipeline::align_raw`]), so the
//!   report says where the points went.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;

use super::{score, ScoreReport};
use crate::corpus::{
    attach_gold, instance_pos, read_gold_key_file, read_semcor_with_stats, read_xml, Document,
    KeyFile, Split,
};
use crate::disambig::Calibration;
use crate::disambig::{candidates_of, decide_document, Disambiguator, Prediction};
use crate::pipeline::{
    align_raw, rebuild_text, resolve_alternatives, Pipeline, RawAlignment, RawBreakdown,
};
use crate::wordnet::{Inventory, Pos};
use crate::Result;

/// Annotated documents and their gold answers.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// The documents (gold keys attached to their instance tokens).
    pub docs: Vec<Document>,
    /// The gold key file.
    pub gold: KeyFile,
    /// For SemCor, its counts, with the tags the reader dropped
    /// ([`crate::corpus::PartStats::skipped_note`]).
    pub semcor: Option<crate::corpus::PartStats>,
}

impl Dataset {
    /// An evaluation-framework data set: `*.data.xml` and its gold keys.
    pub fn from_xml(xml: &Path, gold: &Path) -> Result<Dataset> {
        let mut docs = read_xml(xml)?;
        let gold = read_gold_key_file(gold)?;
        attach_gold(&mut docs, &gold);
        Ok(Dataset {
            docs,
            gold,
            semcor: None,
        })
    }

    /// The ids of the gold key file that are no instance of the documents,
    /// in key-file order: the key file of another (or a larger) data set.
    /// Scoring counts them as unanswered.
    pub fn gold_ids_without_instance(&self) -> Vec<&str> {
        let instances: std::collections::HashSet<&str> = self
            .docs
            .iter()
            .flat_map(|d| &d.sentences)
            .flat_map(|s| &s.tokens)
            .flat_map(|t| {
                let head = t.head.as_ref().and_then(|h| h.instance.as_deref());
                t.instance.as_deref().into_iter().chain(head)
            })
            .collect();
        self.gold
            .iter()
            .map(|(id, _)| id)
            .filter(|id| !instances.contains(id))
            .collect()
    }

    /// The instances that have no lemma or no WordNet POS (an `<instance>`
    /// without a `lemma` or a `pos` attribute, or with a `pos` that names
    /// no WordNet category): how many, and the first one's id. No method
    /// can look their senses up, so they go unanswered, and the per-POS
    /// rows put them under the gold key's POS or, when it names none,
    /// under [`crate::eval::NO_POS`].
    pub fn instances_without_lemma_or_pos(&self) -> (usize, Option<&str>) {
        let mut lacking = self
            .docs
            .iter()
            .flat_map(|d| &d.sentences)
            .flat_map(|s| &s.tokens)
            .filter(|t| t.instance.is_some() && (t.lemma.is_none() || t.pos.is_none()))
            .filter_map(|t| t.instance.as_deref());
        let first = lacking.next();
        (first.map_or(0, |_| 1 + lacking.count()), first)
    }

    /// A split of SemCor (its gold keys are its own tags).
    pub fn from_semcor(dir: &Path, split: Split) -> Result<Dataset> {
        let (docs, stats) = read_semcor_with_stats(dir, split)?;
        let gold = KeyFile::from_documents(&docs);
        Ok(Dataset {
            docs,
            gold,
            semcor: Some(stats.total()),
        })
    }

    /// Documents with gold keys on their tokens (the keys are collected).
    pub fn from_documents(docs: Vec<Document>) -> Dataset {
        let gold = KeyFile::from_documents(&docs);
        Dataset {
            docs,
            gold,
            semcor: None,
        }
    }

    /// Prefix every document, sentence and instance id (and the gold
    /// keys' ids) with `name.`, as the framework's `ALL` data set spells
    /// them (`semeval2007.d000.s000.t000`): each of its sets numbers its
    /// instances from `d000.s000.t000`, so sets scored together need the
    /// prefix to stay apart, and a key file written from them scores
    /// against `ALL.gold.key.txt`.
    pub fn prefix_ids(&mut self, name: &str) {
        let prefixed = |id: &mut String| *id = format!("{name}.{id}");
        for doc in &mut self.docs {
            prefixed(&mut doc.id);
            for sentence in &mut doc.sentences {
                prefixed(&mut sentence.id);
                for token in &mut sentence.tokens {
                    if let Some(id) = &mut token.instance {
                        prefixed(id);
                    }
                    if let Some(id) = token.head.as_mut().and_then(|h| h.instance.as_mut()) {
                        prefixed(id);
                    }
                }
            }
        }
        let mut gold = KeyFile::new();
        for (id, keys) in self.gold.iter() {
            gold.insert(format!("{name}.{id}"), keys.to_vec());
        }
        self.gold = gold;
    }

    /// The number of instances (targets) of the documents.
    pub fn instances(&self) -> usize {
        self.docs.iter().map(|d| d.target_count()).sum()
    }
}

/// What the method reads.
#[derive(Clone, Copy)]
pub enum Input<'a> {
    /// The data set's tokens, lemmas and POS.
    Gold,
    /// The data set's plain text through this pipeline.
    Raw(&'a Pipeline<'a>),
}

/// The outcome of [`evaluate`].
#[derive(Clone, Debug, Default)]
pub struct Evaluation {
    /// The method (or chain) name.
    pub method: String,
    /// The scores.
    pub report: ScoreReport,
    /// The system's answers, as a key file.
    pub system: KeyFile,
    /// How many answers each decider gave ([`Prediction::decided_by`]).
    pub decided_by: BTreeMap<String, usize>,
    /// Every answer with its instance id, in document order (what
    /// [`crate::report`] analyses per instance).
    pub answers: Vec<(String, Prediction)>,
    /// With [`Input::Raw`]: how many gold instances a pipeline target was
    /// aligned to.
    pub raw_found: Option<usize>,
    /// With [`Input::Raw`]: where the gold instances went in the pipeline.
    pub raw_breakdown: Option<RawBreakdown>,
    /// With [`Input::Raw`]: every gold instance and what the pipeline made
    /// of it, in document order.
    pub raw_alignment: Vec<RawAlignment>,
    /// Gold instances.
    pub instances: usize,
    /// Seconds spent running the method (and the pipeline).
    pub seconds: f64,
}

impl Evaluation {
    /// Several evaluations of one method (on data sets with distinct
    /// instance ids) as one: the scores of the concatenated data
    /// ([`ScoreReport::concatenate`]), every answer and alignment in the
    /// parts' order, the counts and seconds summed.
    pub fn concatenate(parts: Vec<Evaluation>) -> Evaluation {
        let report = ScoreReport::concatenate(parts.iter().map(|p| &p.report));
        let mut out = Evaluation {
            report,
            ..Evaluation::default()
        };
        let mut breakdown: Option<RawBreakdown> = None;
        for p in parts {
            if out.method.is_empty() {
                out.method = p.method;
            }
            for (id, keys) in p.system.iter() {
                out.system.insert(id, keys.to_vec());
            }
            for (by, n) in p.decided_by {
                *out.decided_by.entry(by).or_default() += n;
            }
            out.answers.extend(p.answers);
            if let Some(f) = p.raw_found {
                *out.raw_found.get_or_insert(0) += f;
            }
            if let Some(b) = &p.raw_breakdown {
                breakdown.get_or_insert_with(RawBreakdown::default).merge(b);
            }
            out.raw_alignment.extend(p.raw_alignment);
            out.instances += p.instances;
            out.seconds += p.seconds;
        }
        out.raw_breakdown = breakdown;
        out
    }
}

/// Run `method` on `docs` and score it against `gold` with the
/// framework's arithmetic. Documents run in parallel; `progress` gets the
/// number of instances of each finished document.
pub fn evaluate(
    method: &dyn Disambiguator,
    inv: &Inventory,
    docs: &[Document],
    gold: &KeyFile,
    input: Input<'_>,
    progress: &(dyn Fn(usize) + Sync),
) -> Evaluation {
    let t = Instant::now();
    let answers: Vec<RawAnswers> = docs
        .par_iter()
        .map(|doc| {
            let out = match input {
                Input::Gold => {
                    let cands = candidates_of(inv, doc.targets());
                    let preds = decide_document(method, inv, doc, &cands);
                    let answers = cands
                        .into_iter()
                        .zip(preds)
                        .filter_map(|(c, p)| Some((c.target.id, p?)))
                        .collect();
                    RawAnswers {
                        answers,
                        ..Default::default()
                    }
                }
                Input::Raw(pipeline) => answer_raw(pipeline, method, inv, doc),
            };
            progress(doc.target_count());
            out
        })
        .collect();
    let seconds = t.elapsed().as_secs_f64();
    let mut system = KeyFile::new();
    let mut decided_by: BTreeMap<String, usize> = BTreeMap::new();
    let mut breakdown = RawBreakdown::default();
    let mut raw_alignment = Vec::new();
    let mut all_answers: Vec<(String, Prediction)> = Vec::new();
    for a in answers {
        for (id, p) in a.answers {
            *decided_by.entry(p.decided_by()).or_default() += 1;
            system.insert(id.clone(), vec![p.key.clone()]);
            all_answers.push((id, p));
        }
        breakdown.merge(&a.breakdown);
        raw_alignment.extend(a.alignment);
    }
    let raw = matches!(input, Input::Raw(_));
    let raw_found = raw.then(|| system.len());
    let pos_of: HashMap<String, Pos> = instance_pos(docs);
    let report = score(gold, &system, Some(&pos_of), &|k| inv.has_key(k));
    Evaluation {
        method: method.name().to_string(),
        report,
        system,
        decided_by,
        answers: all_answers,
        raw_found,
        raw_breakdown: raw.then_some(breakdown),
        raw_alignment,
        instances: docs.iter().map(|d| d.target_count()).sum(),
        seconds,
    }
}

/// A document's answers (instance id, prediction) and, for raw text, how
/// its gold instances fared in the pipeline.
#[derive(Default)]
pub struct RawAnswers {
    /// The answers, by gold instance id.
    pub answers: Vec<(String, Prediction)>,
    /// Where each gold instance went in the pipeline (raw text only).
    pub alignment: Vec<RawAlignment>,
    /// Their counts.
    pub breakdown: RawBreakdown,
}

/// Run the text pipeline and `method` on the rebuilt plain text of `doc`
/// and give each gold instance the answer of the pipeline target that
/// overlaps it by character span (one with exactly its span first — a
/// joined unit's head-word target answers a gold instance on the head —,
/// else the one starting nearest to it);
/// classify each gold instance against the pipeline's tokens too.
pub fn answer_raw(
    pipeline: &Pipeline<'_>,
    method: &dyn Disambiguator,
    inv: &Inventory,
    doc: &Document,
) -> RawAnswers {
    let (text, spans) = rebuild_text(doc);
    let mut analysed = pipeline.analyse(&doc.id, &text, 0, 0);
    let cands = candidates_of(inv, analysed.targets());
    let preds = decide_document(method, inv, &analysed, &cands);
    drop(cands);
    let preds = resolve_alternatives(&mut analysed, preds, Calibration::builtin());
    let targets = analysed.targets();
    let answers: Vec<((usize, usize), &Prediction)> = targets
        .iter()
        .zip(&preds)
        .filter_map(|(t, p)| Some((analysed.target_token(t).span?, p.as_ref()?)))
        .collect();
    let mut out = Vec::new();
    for (s, sent) in doc.sentences.iter().enumerate() {
        for (i, tok) in sent.tokens.iter().enumerate() {
            let Some(id) = &tok.instance else { continue };
            let (gs, ge) = spans[s][i];
            let hit = answers
                .iter()
                .filter(|((ps, pe), _)| *ps < ge && gs < *pe)
                .min_by_key(|((ps, pe), _)| ((*ps, *pe) != (gs, ge), ps.abs_diff(gs)));
            if let Some((_, p)) = hit {
                out.push((id.clone(), (*p).clone()));
            }
        }
    }
    let (alignment, breakdown) = align_raw(doc, &spans, &analysed);
    RawAnswers {
        answers: out,
        alignment,
        breakdown,
    }
}
