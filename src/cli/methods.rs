//! The method registry: `--method` names (and chains such as `nb,mfs`) to
//! disambiguators, loading the models and data each one needs.

use std::path::PathBuf;

use anyhow::{bail, Context};

use std::sync::Arc;
use wsd::corpus::{read_semcor, Split};

use wsd::disambig::context::Window;
use wsd::disambig::discourse::{OneSensePerDiscourse, Propagation};
use wsd::disambig::lesk::{ExtendedLesk, ExtendedLeskOptions, Lesk, LeskOptions};
use wsd::disambig::naive_bayes::NaiveBayes;
use wsd::disambig::similarity::{SimilarityOptions, SimilarityWsd};
use wsd::disambig::{Chain, CorpusMfs, Disambiguator, FirstSense};
use wsd::wordnet::similarity::{Ic, Measure};
use wsd::wordnet::Inventory;

/// Every name `--method` accepts (chains join them with commas).
pub const METHODS: &[&str] = &[
    "mfs",
    "mfs-semcor",
    "nb",
    "lesk",
    "lesk-ext",
    "sim-path",
    "sim-wup",
    "sim-lch",
    "sim-res",
    "sim-jcn",
    "sim-lin",
    "knn", // knn (kNN over encoder sense vectors)
];

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

/// Options shared by every command that runs a method.
#[derive(clap::Args, Debug, Clone)]
pub struct MethodArgs {
    /// Method or back-off chain: mfs, mfs-semcor, lesk, lesk-ext, nb, sim-path,
    /// sim-wup, knn, or e.g. nb,mfs.
    #[arg(long, short)]
    pub method: Option<String>,
    /// Model file(s) for trained methods (nb, knn); each file's header says
    /// which method it belongs to. Default: models/<method>.wsd.
    #[arg(long, value_name = "FILE")]
    pub model: Vec<PathBuf>,
    /// SemCor folder for mfs-semcor (counted on its train split).
    #[arg(long, value_name = "DIR", default_value = "corpora/semcor3.0")]
    pub semcor_counts: PathBuf,
    /// Context of lesk, lesk-ext and sim-*: sentence (default), N content
    /// words either side, or Ns sentences either side.
    #[arg(long, value_parser = parse_window, default_value = "sentence")]
    pub window: Window,
    /// Information-content file for sim-res/jcn/lin (`wsd ic`); default:
    /// counts from WordNet's own tag counts.
    #[arg(long, value_name = "FILE")]
    pub ic: Option<PathBuf>,
    /// Once a lemma is decided in a document, later occurrences reuse that
    /// sense (Gale et al.'s one sense per discourse).
    #[arg(long)]
    pub one_sense_per_discourse: bool,
    // --- knn ---
    /// Encoder folder for knn (must be the one the knn model was trained with).
    #[arg(long, value_name = "DIR", default_value = "models/all-MiniLM-L6-v2")]
    pub encoder: PathBuf,
    /// knn: number of nearest SemCor instances that vote (needs a model
    /// trained with --keep-instances; 1 = nearest sense vector).
    #[arg(long, default_value_t = 1)]
    pub k: usize,
    /// knn: weight of the gloss cosine against the SemCor-context cosine (0–1).
    #[arg(long, value_name = "W", default_value_t = wsd::disambig::knn::KnnOptions::default().gloss_weight)]
    pub gloss_weight: f32,
    /// knn: do not give unseen synsets their hypernyms' context vector.
    #[arg(long)]
    pub no_propagation: bool,
    /// knn: weight of the sense-frequency prior added to the cosine.
    #[arg(long, value_name = "P", default_value_t = wsd::disambig::knn::KnnOptions::default().prior)]
    pub prior: f32,
    // --- end knn ---
}

/// Where a trained model of `method` is looked for when no --model names one.
pub fn default_model_path(method: &str) -> PathBuf {
    PathBuf::from("models").join(format!("{method}.wsd"))
}

/// The model file for `method`: a --model whose header names it, else the default path.
pub fn model_for(args: &MethodArgs, method: &str) -> anyhow::Result<PathBuf> {
    for p in &args.model {
        let h = wsd::model_io::read_header(p)
            .with_context(|| format!("reading model {}", p.display()))?;
        if h.method == method {
            return Ok(p.clone());
        }
    }
    if args.model.len() == 1 {
        // The one --model given: if it belongs to another method, loading
        // it says so.
        return Ok(args.model[0].clone());
    }
    let p = default_model_path(method);
    if p.exists() {
        return Ok(p);
    }
    bail!(
        "method {method} needs a model: pass --model FILE or train one with `wsd train --method {method} --out {}`",
        p.display()
    )
}

/// Build one method by name.
fn build_one(
    name: &str,
    inv: &Inventory,
    args: &MethodArgs,
) -> anyhow::Result<Box<dyn Disambiguator>> {
    Ok(match name {
        "mfs" => Box::new(FirstSense),
        "mfs-semcor" => {
            let docs = read_semcor(&args.semcor_counts, Split::Train).with_context(|| {
                format!(
                    "reading SemCor at {} for mfs-semcor",
                    args.semcor_counts.display()
                )
            })?;
            Box::new(Chain::new(vec![
                Box::new(CorpusMfs::from_documents(&docs)),
                Box::new(FirstSense),
            ]))
        }
        "nb" => {
            let path = model_for(args, "nb")?;
            Box::new(
                NaiveBayes::load(&path, inv)
                    .with_context(|| format!("loading {}", path.display()))?,
            )
        }
        "lesk" => Box::new(Lesk::new(LeskOptions {
            window: args.window,
            ..Default::default()
        })),
        "lesk-ext" => Box::new(ExtendedLesk::new(ExtendedLeskOptions {
            window: args.window,
            ..Default::default()
        })),
        sim if sim.starts_with("sim-") => {
            let measure: Measure = sim[4..]
                .parse()
                .map_err(|e| anyhow::anyhow!("unknown method {sim:?}: {e}"))?;
            let ic = match &args.ic {
                Some(p) => Some(Arc::new(Ic::read(inv, p)?)),
                None => None,
            };
            Box::new(SimilarityWsd::new(SimilarityOptions {
                measure,
                window: args.window,
                ic,
                ..Default::default()
            }))
        }
        // --- knn ---
        "knn" => {
            let path = model_for(args, "knn")?;
            let encoder = wsd::encoder::Encoder::load(&args.encoder).with_context(|| {
                format!(
                    "loading the encoder for knn from {}",
                    args.encoder.display()
                )
            })?;
            let options = wsd::disambig::knn::KnnOptions {
                k: args.k.max(1),
                gloss_weight: args.gloss_weight,
                propagate: !args.no_propagation,
                prior: args.prior,
            };
            Box::new(wsd::disambig::knn::Knn::load(
                &path,
                inv,
                Arc::new(encoder),
                options,
            )?)
        }
        // --- end knn ---
        other => bail!("unknown method {other:?}; known: {}", METHODS.join(", ")),
    })
}

/// Build the method or chain `spec` (`nb,mfs`).
pub fn build(
    spec: &str,
    inv: &Inventory,
    args: &MethodArgs,
) -> anyhow::Result<Box<dyn Disambiguator>> {
    let names: Vec<&str> = spec
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if names.is_empty() {
        bail!("empty --method");
    }
    let mut methods = Vec::new();
    for n in &names {
        methods.push(build_one(n, inv, args)?);
    }
    let method: Box<dyn Disambiguator> = if methods.len() == 1 {
        methods.pop().expect("one method")
    } else {
        Box::new(Chain::new(methods))
    };
    Ok(if args.one_sense_per_discourse {
        Box::new(OneSensePerDiscourse::new(method, Propagation::First))
    } else {
        method
    })
}
