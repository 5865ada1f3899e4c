//! Training jobs: what `wsd train` runs for each trainable method (and for
//! the POS tagger), from documents to a model file written atomically.
//!
//! A job reads its training documents (SemCor by default) once, trains,
//! and writes the model through [`crate::model_io`], so an interrupted run
//! never leaves half a model and never harms the previous one. Each job
//! returns a one-line summary for stderr.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::corpus::{
    attach_gold, read_key_file, read_semcor_files_with_stats, read_xml, semcor_files, split_files,
    Document, Split,
};
use crate::disambig::ens::{self, EnsTraining};
use crate::disambig::knn::{GlossPooling, GlossScope, Knn, KnnModel, KnnOptions, KnnParams};
use crate::disambig::naive_bayes::{NaiveBayes, NbParams};
use crate::model_io;
use crate::pos::{tagged_sentences, PosTagger, DEFAULT_ITERATIONS};
use crate::resources::Resources;
use crate::{Error, Result};

/// Where training documents come from: SemCor, or the evaluation
/// framework's format (an XML data file and its gold key file), which is
/// also the format of one's own annotated data.
#[derive(Clone, Debug, PartialEq)]
pub enum TrainingSource {
    /// A SemCor 3.0 folder and the split to read.
    Semcor {
        /// The folder holding `brown1`, `brown2`, `brownv`.
        dir: PathBuf,
        /// Which documents.
        split: Split,
        /// Only the first N documents of the split (quick runs).
        limit: Option<usize>,
    },
    /// An evaluation-framework XML file and its key file (`id key [key…]`).
    Xml {
        /// The `DATA.xml` file.
        data: PathBuf,
        /// The gold key file.
        gold: PathBuf,
    },
}

impl TrainingSource {
    /// What the source is, for the model header (`semcor:train`,
    /// `xml:semeval2007.data.xml`): the file name only, so a model does
    /// not record where its data happened to be.
    pub fn label(&self) -> String {
        match self {
            TrainingSource::Semcor { split, limit, .. } => match limit {
                Some(n) => format!("semcor:{split}:first-{n}"),
                None => format!("semcor:{split}"),
            },
            TrainingSource::Xml { data, .. } => format!(
                "xml:{}",
                data.file_name()
                    .unwrap_or(data.as_os_str())
                    .to_string_lossy()
            ),
        }
    }
}

/// Training documents read from one or more [`TrainingSource`]s.
#[derive(Clone, Debug, Default)]
pub struct TrainingData {
    /// The documents, in source order, with gold keys on the instance tokens.
    pub docs: Vec<Document>,
    /// The label of the mix, for the model header (`semcor:train+xml:a.data.xml`).
    pub label: String,
    /// Things the user should know but that do not stop training (key-file
    /// ids that no instance of its XML has), one line each.
    pub notes: Vec<String>,
    /// The counts of the SemCor documents read (`None` without SemCor):
    /// what the reader dropped ([`crate::corpus::PartStats::skipped_note`]).
    pub semcor: Option<crate::corpus::PartStats>,
}

/// Read the training documents of several sources, in order.
///
/// An XML file whose key file gives no key to any of its instances is an
/// error (the two files do not belong together: training would silently
/// learn nothing from them). Key-file ids that the XML lacks are only a
/// note, since a key file may cover more than one data file.
pub fn training_documents(sources: &[TrainingSource]) -> Result<TrainingData> {
    let mut out = TrainingData::default();
    for s in sources {
        match s {
            TrainingSource::Semcor { dir, split, limit } => {
                let mut files = split_files(&semcor_files(dir)?, *split);
                files.truncate(limit.unwrap_or(files.len()));
                let (d, stats) = read_semcor_files_with_stats(&files)?;
                out.docs.extend(d);
                out.semcor
                    .get_or_insert_with(Default::default)
                    .add(&stats.total());
            }
            TrainingSource::Xml { data, gold } => {
                let mut d = read_xml(data)?;
                let keys = read_key_file(gold)?;
                let attached = attach_gold(&mut d, &keys);
                if attached == 0 {
                    return Err(Error::bad_parameter(
                        "--gold",
                        gold.display(),
                        format!(
                            "gives no key to any instance of {} (do the two files belong together?)",
                            data.display()
                        ),
                    ));
                }
                if attached < keys.len() {
                    let ids: std::collections::HashSet<&str> = d
                        .iter()
                        .flat_map(|d| d.sentences.iter())
                        .flat_map(|s| s.tokens.iter())
                        .filter_map(|t| t.instance.as_deref())
                        .collect();
                    let stray = keys.ids().find(|id| !ids.contains(id)).unwrap_or("?");
                    out.notes.push(format!(
                        "{}: {} of {} ids are not instances of {} (e.g. {stray}); they are not used",
                        gold.display(),
                        keys.len() - attached,
                        keys.len(),
                        data.display()
                    ));
                }
                out.docs.extend(d);
            }
        }
    }
    out.label = sources
        .iter()
        .map(TrainingSource::label)
        .collect::<Vec<_>>()
        .join("+");
    Ok(out)
}

/// Which synsets of a knn model get a gloss vector.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum GlossRequest {
    /// The synsets of the training documents' lemmas and of the lemmas of
    /// these evaluation-framework XML files (no labels are read).
    #[default]
    Lemmas,
    /// Every synset (about three times the encoder work of SemCor).
    All,
    /// None.
    None,
}

/// Options of a knn training run.
#[derive(Clone, Debug, PartialEq)]
pub struct KnnTraining {
    /// Which glosses to encode.
    pub gloss: GlossRequest,
    /// With [`GlossRequest::Lemmas`]: XML files whose lemmas also get glosses.
    pub gloss_xml: Vec<PathBuf>,
    /// Gloss pooling.
    pub gloss_pooling: GlossPooling,
    /// Keep every instance vector (for `--k` > 1).
    pub keep_instances: bool,
    /// The encoder's last layers summed into a word vector (1 to the
    /// encoder's layer count; see [`KnnParams::pooled_layers`]).
    pub pooled_layers: usize,
    /// Add WordNet's example sentences to the context vectors.
    pub examples: bool,
    /// Gloss words of a single sense as tagged instances, at most this
    /// many per synset (0: none; see [`KnnParams::monosemous`]).
    pub monosemous: usize,
    /// Sense-key vectors for keys with at least this many instances (0:
    /// none; see [`KnnParams::sense_min`]).
    pub sense_min: u32,
}

impl Default for KnnTraining {
    fn default() -> Self {
        KnnTraining {
            gloss: GlossRequest::default(),
            gloss_xml: Vec::new(),
            gloss_pooling: GlossPooling::default(),
            keep_instances: false,
            pooled_layers: crate::disambig::knn::DEFAULT_POOLED_LAYERS,
            examples: false,
            monosemous: 0,
            sense_min: crate::disambig::knn::DEFAULT_SENSE_MIN,
        }
    }
}

/// One training run.
pub struct TrainJob<'a> {
    /// The training documents.
    pub docs: &'a [Document],
    /// What they are (`semcor:train`), recorded in the model.
    pub data: String,
    /// Where the model goes.
    pub output: &'a Path,
    /// Naive Bayes hyper-parameters.
    pub nb: NbParams,
    /// knn options.
    pub knn: KnnTraining,
    /// ens options.
    pub ens: EnsTraining,
    /// Progress: (done, total) in the job's own units.
    pub progress: &'a (dyn Fn(usize, usize) + Sync),
    /// One line per stage of a long job (stderr, unless quiet).
    pub notice: &'a (dyn Fn(&str) + Sync),
}

/// `n` and the noun (or noun and verb) that agrees with it: "1 lemma
/// has", "3 lemmas have".
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Train Naive Bayes and save it with the WordNet checksum.
pub fn naive_bayes(res: &Resources, job: &TrainJob<'_>) -> Result<String> {
    let t = Instant::now();
    let inv = res.inventory()?;
    let mut nb = NaiveBayes::train(inv, job.docs, &job.nb, &|done, total| {
        (job.progress)(done, total)
    });
    nb.set_split(job.data.clone());
    nb.save(job.output, inv)?;
    let f = nb.facts();
    let answering = nb.answering_lemmas();
    let min = nb.params().min_examples;
    // A lemma below `min_examples` abstains (so that `nb,mfs` backs off);
    // on a small data set of one's own that can be every lemma.
    let examples = if min == 1 {
        "the one example".to_string()
    } else {
        format!("the {min} examples")
    };
    let hint = if answering == 0 {
        format!(
            "; no lemma has {examples} nb needs to answer, so it will abstain everywhere: lower the threshold with --nb-params '{{\"min_examples\": 1}}'"
        )
    } else if min == 0 || answering == f.lemmas {
        "; every lemma has the examples nb needs to answer".to_string()
    } else {
        format!(
            "; {} {examples} nb needs to answer, the others abstain",
            counted(answering, "lemma has", "lemmas have")
        )
    };
    Ok(format!(
        "Naive Bayes trained on {} of {} from {} in {:.1} s, written to {}{hint}",
        counted(f.examples, "example", "examples"),
        counted(f.lemmas, "lemma", "lemmas"),
        counted(f.documents, "document", "documents"),
        t.elapsed().as_secs_f64(),
        job.output.display()
    ))
}

/// The lemmas (of tokens with a WordNet POS) of `docs`, sorted, distinct.
fn lemmas_of<'d>(docs: impl IntoIterator<Item = &'d Document>) -> Vec<String> {
    let mut lemmas: Vec<String> = docs
        .into_iter()
        .flat_map(|d| d.sentences.iter())
        .flat_map(|s| s.tokens.iter())
        .filter(|t| t.pos.is_some())
        .filter_map(|t| t.lemma.clone())
        .collect();
    lemmas.sort();
    lemmas.dedup();
    lemmas
}

/// Train the kNN sense vectors and save them.
pub fn knn(res: &Resources, job: &TrainJob<'_>) -> Result<String> {
    let t = Instant::now();
    let inv = res.inventory()?;
    let encoder = res.encoder()?;
    let mut params = KnnParams::new(encoder);
    let layers = encoder.config().num_hidden_layers;
    if job.knn.pooled_layers == 0 || job.knn.pooled_layers > layers {
        return Err(crate::Error::bad_parameter(
            "--pooled-layers",
            job.knn.pooled_layers,
            format!("must be 1 to {layers} (the encoder's layers)"),
        ));
    }
    params.pooled_layers = job.knn.pooled_layers;
    params.examples = job.knn.examples;
    params.monosemous = job.knn.monosemous;
    params.keep_instances = job.knn.keep_instances;
    params.gloss_pooling = job.knn.gloss_pooling;
    params.sense_min = job.knn.sense_min;
    params.training_data = job.data.clone();
    params.gloss_xml = job
        .knn
        .gloss_xml
        .iter()
        .map(|x| {
            x.file_name()
                .unwrap_or(x.as_os_str())
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    params.gloss = match job.knn.gloss {
        GlossRequest::All => GlossScope::All,
        GlossRequest::None => GlossScope::None,
        GlossRequest::Lemmas => {
            let mut extra = Vec::new();
            for x in &job.knn.gloss_xml {
                extra.extend(read_xml(x)?);
            }
            GlossScope::Lemmas(lemmas_of(job.docs.iter().chain(&extra)))
        }
    };
    let model = KnnModel::train(inv, encoder, job.docs, params, &|done, total| {
        (job.progress)(done, total)
    })?;
    model.save(job.output, inv)?;
    let size = std::fs::metadata(job.output).map(|m| m.len()).unwrap_or(0);
    let glosses = model.entries.iter().filter(|e| e.gloss.is_some()).count();
    let seen = model.entries.iter().filter(|e| e.ctx.is_some()).count();
    let calibration = match &model.calibration {
        Some(c) => format!(
            "calibrated on {} answers with their document held out ({:.1}% right, {} steps)",
            c.samples,
            100.0 * c.accuracy,
            c.blocks.len()
        ),
        None => "not calibrated (no training target with two or more candidates)".into(),
    };
    Ok(format!(
        "knn trained on {} ({} documents, {} sentences, {} tagged tokens, {} example sentences; {} gloss words of a single sense; {} synsets with a context vector, {} of them from examples only, {} from gloss words only; {} sense-key vectors; {} gloss vectors; {} exemplar sentences; last {} layers summed; {calibration}) in {:.1} s; {:.1} MB written to {}",
        model.params.training_data,
        model.params.documents,
        model.params.sentences,
        model.params.tagged_tokens,
        model.params.example_contexts,
        model.params.monosemous_contexts,
        seen,
        model.params.example_synsets,
        model.params.monosemous_synsets,
        model.params.sense_vectors,
        glosses,
        model.sentences.len(),
        model.params.pooled_layers,
        t.elapsed().as_secs_f64(),
        size as f64 / 1e6,
        job.output.display()
    ))
}

/// Train the ens combiner on the full kNN model given with `--model`
/// (trained on the same documents) and save it; the summary has the
/// cross-validation and the learnt weights.
pub fn ens(res: &Resources, job: &TrainJob<'_>) -> Result<String> {
    let t = Instant::now();
    let inv = res.inventory()?;
    let knn_path = res.model_of_kind(crate::disambig::knn::METHOD, ens::METHOD)?;
    let knn = Knn::load(
        &knn_path,
        inv,
        res.encoder()?.clone(),
        KnnOptions::default(),
    )?;
    let (model, report) = ens::train(
        inv,
        &knn,
        job.docs,
        &job.data,
        &job.nb,
        &job.ens,
        job.notice,
        job.progress,
    )
    .map_err(|e| match e {
        Error::BadParameter { name, value, msg } if name == "--model" => Error::BadParameter {
            name,
            value: format!("{} {value}", knn_path.display()),
            msg,
        },
        e => e,
    })?;
    model.save(job.output, inv)?;
    Ok(format!(
        "{report}ens written to {} in {:.1} s (kNN model {})",
        job.output.display(),
        t.elapsed().as_secs_f64(),
        knn_path.display()
    ))
}

/// Train the POS tagger on the Penn tags of `docs`, with the categories
/// WordNet allows each word as features, and write it to `output`; `data`
/// says what the documents are (`train`).
pub fn pos_tagger(
    res: &Resources,
    docs: &[Document],
    data: &str,
    output: &Path,
    progress: &dyn Fn(&crate::pos::Pass),
) -> Result<String> {
    let t = Instant::now();
    let sentences: Vec<Vec<(String, String)>> = docs.iter().flat_map(tagged_sentences).collect();
    let tagger = PosTagger::train_with_inventory_progress(
        &sentences,
        DEFAULT_ITERATIONS,
        1,
        res.inventory()?,
        progress,
    )?;
    let params = serde_json::json!({
        "iterations": DEFAULT_ITERATIONS,
        "split": data,
        "documents": docs.len(),
        "sentences": sentences.len(),
    });
    model_io::write_model(output, "pos", "", params, &tagger.to_bytes())?;
    Ok(format!(
        "POS tagger trained on {} sentences in {:.1} s, written to {}",
        sentences.len(),
        t.elapsed().as_secs_f64(),
        output.display()
    ))
}
