//! Argument groups shared by several subcommands, and their resolution
//! into the library's [`Resources`] and [`MethodSpec`] (the "high-level
//! arguments" of the run: what the user typed, turned into what to load).

use std::path::PathBuf;

use wsd::disambig::context::Window;
use wsd::disambig::knn::KnnOptions;
use wsd::disambig::registry::{self, METHODS};
use wsd::disambig::{MethodOptions, MethodSpec};
use wsd::eval::framework::{self, FrameworkSet};
use wsd::resources::{framework_dir, PosTraining, ResourcePaths, Resources};

use super::Cli;

/// Where the data and models are (every command that runs a method).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ResourceArgs {
    /// SemCor 3.0 folder: training data, mfs-semcor's counts, the POS
    /// tagger's training data [default: corpora/semcor3.0].
    #[arg(long, value_name = "DIR", alias = "semcor-counts")]
    pub semcor: Option<PathBuf>,
    /// Encoder checkpoint folder, for knn and ens [default: models/all-MiniLM-L6-v2].
    #[arg(long, value_name = "DIR")]
    pub encoder: Option<PathBuf>,
    /// Arithmetic of the encoder's linear maps: f32, or int8 (8-bit
    /// weights and inputs, faster, vectors slightly off the f32 ones)
    /// [default: knn int8; ens the precision its model was fitted with;
    /// training and `wsd embed` f32].
    #[arg(long, value_name = "P")]
    pub encoder_precision: Option<wsd::encoder::Precision>,
    /// POS tagger model, for plain text [default: models/pos.wsd, trained
    /// on SemCor on first use when missing].
    #[arg(long, value_name = "FILE")]
    pub pos_model: Option<PathBuf>,
    /// Trained model file(s) for nb, knn and ens; each file's header says which
    /// method it belongs to [default: models/<method>.wsd].
    #[arg(long, value_name = "FILE")]
    pub model: Vec<PathBuf>,
    /// Information-content table for sim-res/jcn/lin (`wsd ic`) [default:
    /// counts from WordNet's own tag counts].
    #[arg(long, value_name = "FILE")]
    pub ic: Option<PathBuf>,
}

impl ResourceArgs {
    /// The library's resources at these paths (nothing loaded yet), kept
    /// until the process ends ([`super::until_exit`]).
    pub fn resources(&self, cli: &Cli, pos_training: PosTraining) -> &'static Resources {
        let paths = ResourcePaths {
            wordnet: cli.wordnet.clone(),
            semcor: self.semcor.clone(),
            encoder: self.encoder.clone(),
            encoder_precision: self.encoder_precision,
            pos_model: self.pos_model.clone(),
            models: self.model.clone(),
            ic: self.ic.clone(),
        };
        super::until_exit(
            Resources::new(paths)
                .with_pos_training(pos_training)
                .quiet(cli.quiet),
        )
    }
}

impl ResourceArgs {
    /// Before any work: refuse an `--output` that is one of the run's
    /// inputs (`inputs` plus the model, POS model and IC files given) and
    /// check that it can be written.
    pub fn check_output<'a>(
        &'a self,
        out: &std::path::Path,
        inputs: impl IntoIterator<Item = &'a PathBuf>,
    ) -> anyhow::Result<()> {
        let all = inputs
            .into_iter()
            .chain(&self.model)
            .chain(&self.pos_model)
            .chain(&self.ic);
        wsd::atomic::refuse_inputs("--output", out, all.map(PathBuf::as_path))?;
        wsd::atomic::check_writable(out)?;
        Ok(())
    }
}

/// `--window`: `sentence`, `N` (±N content words) or `Ns` (±N sentences).
pub fn parse_window(s: &str) -> Result<Window, String> {
    let bad = || format!("bad window {s:?}: use sentence, N (words) or Ns (sentences)");
    if s == "sentence" {
        return Ok(Window::Sentence);
    }
    if let Some(n) = s.strip_suffix('s') {
        return n.parse().map(Window::Sentences).map_err(|_| bad());
    }
    s.parse().map(Window::Words).map_err(|_| bad())
}

/// `--pos-alternatives`: a probability in [0, 1].
pub fn parse_share(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("bad probability {s:?}: give a number from 0 to 1")),
    }
}

/// The `--method` help: every registered method with its summary.
pub fn method_help() -> String {
    let mut s = String::from(
        "Method or back-off chain (e.g. nb,mfs: each method answers what the previous left open):",
    );
    for m in METHODS {
        s.push_str(&format!("\n  {:<11} {}", m.name, m.summary));
    }
    s
}

/// [`wsd::eval::Dataset::from_xml`], with a warning when gold ids are no
/// instance of the XML: they are scored as unanswered, which reads like a
/// weak method rather than a key file of another data set.
pub fn read_xml_dataset(
    xml: &std::path::Path,
    gold: &std::path::Path,
) -> wsd::Result<wsd::eval::Dataset> {
    let data = wsd::eval::Dataset::from_xml(xml, gold)?;
    let missing = data.gold_ids_without_instance();
    if !missing.is_empty() {
        let shown = missing
            .iter()
            .take(5)
            .copied()
            .collect::<Vec<_>>()
            .join(", ");
        let more = if missing.len() > 5 { ", …" } else { "" };
        eprintln!(
            "wsd: warning: {}: ids that are no instance of {}: {} of {} (e.g. {shown}{more}), scored as unanswered; is it the key file of this data set?",
            gold.display(),
            xml.display(),
            missing.len(),
            data.gold.len()
        );
    }
    if let (n, Some(first)) = data.instances_without_lemma_or_pos() {
        eprintln!(
            "wsd: warning: {}: {n} instance(s) without a lemma or a WordNet pos attribute (the first: {first}); \
             no method can look up their senses, so they count as unanswered (per POS: under the gold key's, else \"{}\")",
            xml.display(),
            wsd::eval::NO_POS
        );
    }
    Ok(data)
}

/// Warn about what the method chain will never read: `--model` files for
/// a chain that loads no model, and methods after `mfs`, which answers
/// every target that has senses (`mfs,nb` never asks nb).
pub fn warn_unread(spec: &wsd::disambig::MethodSpec, resources: &ResourceArgs) {
    if !resources.model.is_empty() && !spec.needs_model() {
        eprintln!(
            "wsd: warning: --model is read by nb, knn and ens only; method {spec} does not read it"
        );
    }
    let names: Vec<&str> = spec.methods().iter().map(|m| m.name).collect();
    if let Some(i) = names.iter().position(|&n| n == "mfs") {
        if i + 1 < names.len() {
            eprintln!(
                "wsd: warning: mfs answers every target that has senses, so {} after it in {spec} is never asked (put mfs last)",
                names[i + 1..].join(", ")
            );
        }
    }
}

/// The method and its run-time options.
#[derive(clap::Args, Debug, Clone)]
pub struct MethodArgs {
    #[arg(long, short, long_help = method_help(), help = "Method or back-off chain, e.g. nb,mfs (see --help for the list)")]
    pub method: Option<String>,
    /// The run-time options.
    #[command(flatten)]
    pub options: MethodOptionArgs,
}

/// The run-time options every method shares (`wsd compare` takes them
/// with several `--method`s).
#[derive(clap::Args, Debug, Clone)]
pub struct MethodOptionArgs {
    /// Context of lesk, lesk-ext and sim-*: sentence (default), N content
    /// words either side, or Ns sentences either side.
    #[arg(long, value_parser = parse_window, default_value = "sentence")]
    pub window: Window,
    /// Once a lemma is decided in a document, later occurrences reuse that
    /// sense (Gale et al.'s one sense per discourse).
    #[arg(long)]
    pub one_sense_per_discourse: bool,
    /// knn: number of nearest SemCor instances that vote (needs a model
    /// trained with --keep-instances; 1 = nearest sense vector).
    #[arg(long, default_value_t = 1)]
    pub k: usize,
    /// knn: weight of the gloss cosine against the SemCor-context cosine (0–1).
    #[arg(long, value_name = "W", default_value_t = KnnOptions::default().gloss_weight)]
    pub gloss_weight: f32,
    /// knn: do not give unseen synsets their hypernyms' context vector.
    #[arg(long)]
    pub no_propagation: bool,
    /// knn: weight of the sense-frequency prior added to the cosine.
    #[arg(long, value_name = "P", default_value_t = KnnOptions::default().prior)]
    pub prior: f32,
}

impl MethodOptionArgs {
    /// The run-time options.
    pub fn options(&self) -> MethodOptions {
        MethodOptions {
            window: self.window,
            one_sense_per_discourse: self.one_sense_per_discourse,
            knn: KnnOptions {
                k: self.k,
                gloss_weight: self.gloss_weight,
                propagate: !self.no_propagation,
                prior: self.prior,
            },
            encoder_precision: None,
        }
    }
}

impl MethodArgs {
    /// The run-time options.
    pub fn options(&self) -> MethodOptions {
        self.options.options()
    }

    /// The `--method` given, parsed, with the options.
    pub fn spec(&self) -> anyhow::Result<Option<MethodSpec>> {
        check_method_args(self)?;
        match &self.method {
            None => Ok(None),
            Some(m) => Ok(Some(m.parse::<MethodSpec>()?.with_options(self.options()))),
        }
    }
}

/// Most worker threads accepted by `--threads`.
pub const MAX_THREADS: usize = 1024;

/// `--threads`: the default is the cores; more than four per core is
/// clamped to that (threads beyond it only cost memory), zero or more than
/// [`MAX_THREADS`] is an error.
pub fn threads(given: Option<usize>) -> anyhow::Result<usize> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let Some(n) = given else {
        return Ok(cores);
    };
    if n == 0 || n > MAX_THREADS {
        return Err(wsd::Error::bad_parameter(
            "--threads",
            n,
            format!("must be between 1 and {MAX_THREADS}"),
        )
        .into());
    }
    Ok(n.min(4 * cores))
}

/// Check the knn options (finite, in range) with the flag's name.
pub fn check_method_args(a: &MethodArgs) -> anyhow::Result<()> {
    let a = &a.options;
    if a.k == 0 {
        return Err(wsd::Error::bad_parameter("--k", 0, "must be at least 1").into());
    }
    if !(a.gloss_weight.is_finite() && (0.0..=1.0).contains(&a.gloss_weight)) {
        return Err(
            wsd::Error::bad_parameter("--gloss-weight", a.gloss_weight, "must be in 0–1").into(),
        );
    }
    if !(a.prior.is_finite() && (0.0..=100.0).contains(&a.prior)) {
        return Err(
            wsd::Error::bad_parameter("--prior", a.prior, "must be finite, in 0–100").into(),
        );
    }
    Ok(())
}

/// The names `wsd train --method` accepts.
pub fn trainable() -> String {
    registry::trainable().join(", ")
}

/// `--framework [DIR]`: every data set of the evaluation framework
/// (`wsd::eval::framework`), for `wsd eval`, `compare` and `errors`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct FrameworkArg {
    /// Every data set of the evaluation framework under DIR (its root,
    /// `Evaluation_Datasets`, or a folder of NAME/NAME.data.xml +
    /// NAME.gold.key.txt folders; without DIR corpora/wsd-eval, in the
    /// data home first), in the papers' order, scored together: ALL is
    /// their concatenation (the framework's own ALL folder is not run
    /// twice); `wsd eval` adds a row per set and, with three sets or more,
    /// ALL-no-dev (without semeval2007, the development set).
    #[arg(
        long,
        value_name = "DIR",
        num_args = 0..=1,
        conflicts_with_all = ["xml", "gold"]
    )]
    pub framework: Option<Option<PathBuf>>,
}

impl FrameworkArg {
    /// The data sets found, when --framework was given.
    pub fn sets(&self) -> anyhow::Result<Option<Vec<FrameworkSet>>> {
        Ok(match &self.framework {
            Some(dir) => Some(framework::discover(&framework_dir(dir.as_deref()))?),
            None => None,
        })
    }

    /// Whether --framework was given.
    pub fn given(&self) -> bool {
        self.framework.is_some()
    }
}
