//! `wsd train`: build a model from SemCor and write it atomically (a model
//! file is never left half-written, and an interrupted run leaves the
//! previous model intact).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};

use super::{progress, Cli};
use wsd::corpus::{read_semcor, Split};
use wsd::disambig::naive_bayes::{NaiveBayes, NbParams};
use wsd::model_io;
use wsd::pos::{tagged_sentences, PosTagger, DEFAULT_ITERATIONS};
use wsd::wordnet::Inventory;

/// Arguments of `wsd train`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// What to train: nb (Naive Bayes), knn (encoder sense vectors) or pos (POS tagger).
    #[arg(long, short)]
    pub method: String,
    /// SemCor 3.0 folder.
    #[arg(long, value_name = "DIR", default_value = "corpora/semcor3.0")]
    pub semcor: PathBuf,
    /// Which documents to train on: train (the default, keeps the test split
    /// unseen), all, or test.
    #[arg(long, default_value = "train")]
    pub split: Split,
    /// Naive Bayes hyper-parameters as JSON, over the defaults, e.g.
    /// '{"alpha": 1.0, "window": 5, "sentence_bag": true, "collocations": false}'
    /// (fields: see `NbParams` in src/disambig/naive_bayes.rs).
    #[arg(long, value_name = "JSON")]
    pub nb_params: Option<String>,
    /// Output model file (default models/<method>.wsd).
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Options of knn (--encoder, --limit-docs, --gloss…).
    #[command(flatten)]
    pub knn: super::train_knn::KnnTrainArgs,
}

/// Run `wsd train`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| super::methods::default_model_path(&args.method));
    match args.method.as_str() {
        "pos" => train_pos(cli, args, &out)?,
        "nb" => train_nb(cli, args, &out)?,
        "knn" => super::train_knn::train_knn(cli, args, &out)?,
        other => bail!("cannot train {other:?}: trainable methods are nb, knn, pos"),
    }
    Ok(ExitCode::SUCCESS)
}

/// Train Naive Bayes (default parameters, chosen by cross-validation on
/// the train split) and save it with the WordNet checksum.
pub fn train_nb(cli: &Cli, args: &Args, out: &Path) -> anyhow::Result<()> {
    let t = Instant::now();
    let inv = Inventory::open(cli.wordnet.as_deref())?;
    let docs = read_semcor(&args.semcor, args.split)
        .with_context(|| format!("reading SemCor at {}", args.semcor.display()))?;
    let pb = progress::bar(docs.len() as u64, "documents", cli.quiet);
    let params: NbParams = match &args.nb_params {
        Some(json) => {
            serde_json::from_str(json).with_context(|| format!("--nb-params {json:?}"))?
        }
        None => NbParams::default(),
    };
    let mut nb = NaiveBayes::train(&inv, &docs, &params, &|done, _| {
        pb.set_position(done as u64)
    });
    pb.finish_and_clear();
    nb.set_split(format!("semcor:{}", args.split));
    nb.save(out, &inv)?;
    let f = nb.facts();
    eprintln!(
        "wsd: Naive Bayes trained on {} examples of {} lemmas from {} documents in {:.1} s, written to {}",
        f.examples,
        f.lemmas,
        f.documents,
        t.elapsed().as_secs_f64(),
        out.display()
    );
    std::mem::forget(inv);
    Ok(())
}

/// Train the POS tagger on SemCor's Penn tags and save it.
pub fn train_pos(cli: &Cli, args: &Args, out: &Path) -> anyhow::Result<()> {
    let t = Instant::now();
    let docs = read_semcor(&args.semcor, args.split)
        .with_context(|| format!("reading SemCor at {}", args.semcor.display()))?;
    let sentences: Vec<Vec<(String, String)>> = docs.iter().flat_map(tagged_sentences).collect();
    let pb = progress::spinner("training the POS tagger (averaged perceptron)", cli.quiet);
    let tagger = PosTagger::train(&sentences, DEFAULT_ITERATIONS, 1);
    pb.finish_and_clear();
    let params = serde_json::json!({
        "iterations": DEFAULT_ITERATIONS,
        "split": args.split.to_string(),
        "documents": docs.len(),
        "sentences": sentences.len(),
    });
    model_io::write_model(out, "pos", "", params, &tagger.to_bytes())?;
    eprintln!(
        "wsd: POS tagger trained on {} sentences in {:.1} s, written to {}",
        sentences.len(),
        t.elapsed().as_secs_f64(),
        out.display()
    );
    Ok(())
}

/// Load the POS tagger from `path`; when the file is missing and SemCor is
/// at `semcor`, train it once (train split) and cache it there.
pub fn pos_tagger(cli: &Cli, path: &Path, semcor: &Path) -> anyhow::Result<PosTagger> {
    if !path.exists() {
        if !semcor.join("brown1").exists() {
            bail!(
                "no POS model at {} and no SemCor at {} to train one: run scripts/fetch-data.sh, or `wsd train --method pos`",
                path.display(),
                semcor.display()
            );
        }
        eprintln!(
            "wsd: no POS model at {}; training one on SemCor's train split (once, ~30 s)",
            path.display()
        );
        let args = Args {
            method: "pos".into(),
            semcor: semcor.to_path_buf(),
            split: Split::Train,
            out: Some(path.to_path_buf()),
            knn: Default::default(),
            nb_params: None,
        };
        train_pos(cli, &args, path)?;
    }
    let (_, body) = model_io::read_model(path, "pos", None)?;
    PosTagger::from_bytes(&body).with_context(|| format!("reading POS model {}", path.display()))
}
