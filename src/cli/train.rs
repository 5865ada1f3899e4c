//! `wsd train`: build a model from SemCor and write it atomically (a model
//! file is never left half-written, and an interrupted run leaves the
//! previous model intact). The trainers are the registry's (see
//! `wsd::train`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use super::args::{trainable, ResourceArgs};
use super::{progress, Cli};
use wsd::corpus::Split;
use wsd::disambig::ens::EnsTraining;
use wsd::disambig::knn::GlossPooling;
use wsd::disambig::naive_bayes::NbParams;
use wsd::disambig::Method;
use wsd::resources::{default_model_path, model_output_path, PosTraining};
use wsd::train::{training_documents, GlossRequest, KnnTraining, TrainJob, TrainingSource};

/// Arguments of `wsd train`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  wsd train --method nb\n  wsd train --method nb --xml mine.data.xml --gold mine.gold.key.txt --output models/mine.wsd\n  wsd train --method nb --semcor corpora/semcor3.0 --xml mine.data.xml --gold mine.gold.key.txt\n  wsd train --method knn --split all --output models/knn.wsd\n  wsd train --method ens --model models/knn.wsd --output models/ens.wsd\n  wsd train --method pos"
)]
pub struct Args {
    /// What to train: nb (Naive Bayes), knn (encoder sense vectors), ens
    /// (a combination of knn, nb, lesk-ext and the prior; needs the knn
    /// model with --model) or pos (POS tagger).
    #[arg(long, short)]
    pub method: String,
    /// Data and models (--semcor is the training data).
    #[command(flatten)]
    pub resources: ResourceArgs,
    /// nb, knn: train on this evaluation-framework XML file (your own
    /// annotated data), with the key file of the --gold at the same place;
    /// repeatable. Without --semcor, only the XML files are used; with
    /// --semcor DIR, SemCor's --split comes first, then the XML files.
    #[arg(long, value_name = "DATA.xml")]
    pub xml: Vec<PathBuf>,
    /// The gold key file (`id key [key…]`) of the --xml at the same place.
    #[arg(long, value_name = "KEY")]
    pub gold: Vec<PathBuf>,
    /// Which SemCor documents to train on: train (the default, keeps the test split
    /// unseen), all, or test.
    #[arg(long, default_value = "train")]
    pub split: Split,
    /// Naive Bayes hyper-parameters as JSON, over the defaults, e.g.
    /// '{"alpha": 1.0, "window": 5, "sentence_bag": true, "collocations": false}'
    /// (an unknown field is refused with the list of known ones).
    #[arg(long, value_name = "JSON")]
    pub nb_params: Option<String>,
    /// Output model file [default: models/<method>.wsd].
    #[arg(long, short, value_name = "FILE", alias = "out")]
    pub output: Option<PathBuf>,
    /// Train on the first N SemCor documents of the split only (quick runs,
    /// tests; knn still encodes every WordNet gloss, minutes, unless
    /// --gloss lemmas).
    #[arg(long, value_name = "N")]
    pub limit_docs: Option<usize>,
    /// knn: gloss vectors for every WordNet synset (all, the default: the
    /// words of the text to be tagged need not be in the training data;
    /// measured with ens,mfs on SemCor's test split 76.72 -> 76.90, twice
    /// the training time), for the synsets of the lemmas of the training
    /// documents and of the --gloss-xml files (lemmas), or none.
    #[arg(long, value_name = "all|lemmas|none", default_value = "all")]
    pub gloss: String,
    /// knn with --gloss lemmas: also the lemmas of these evaluation XML files.
    #[arg(long, value_name = "DATA.xml")]
    pub gloss_xml: Vec<PathBuf>,
    /// knn: pool a gloss over all its words (mean, the default) or its lemma words (lemma).
    #[arg(long, value_name = "mean|lemma", default_value = "mean")]
    pub gloss_pooling: String,
    /// knn: keep every SemCor instance vector and its document, for --k > 1
    /// and ens's nearest-instance features (makes the model about four
    /// times as large).
    #[arg(long)]
    pub keep_instances: bool,
    /// knn: sum the encoder's last N layers into a word's vector (1: the
    /// last layer only; the encoder has 6).
    #[arg(long, value_name = "N", default_value_t = wsd::disambig::knn::DEFAULT_POOLED_LAYERS)]
    pub pooled_layers: usize,
    /// knn: add WordNet's example sentences of the synsets in gloss scope
    /// to the context vectors (off: knn,mfs alone loses with them; the
    /// recommended ens stack gains, see README "The best command").
    #[arg(long)]
    pub examples: bool,
    /// knn: words of WordNet's glosses (definitions and examples) whose
    /// lemma has one sense in all of WordNet count as tagged instances of
    /// that sense, at most N per synset (0, the default: none; measured
    /// lower for knn and ens, see README "The best command").
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub monosemous: usize,
    /// ens: encode every Nth training document for the combiner's training
    /// instances (1, every document: with the train-split knn of format 4,
    /// SemEval-2007 66.8 against 66.4 for 2, SemCor's test split 75.5
    /// against 75.4; 2 encodes half as much).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub ens_sample: usize,
    /// ens: the L2 weight of the regression [default: the best of 1e-4,
    /// 1e-3, 1e-2, 1e-1 by cross-validation over the sampled documents].
    #[arg(long, value_name = "X")]
    pub ens_l2: Option<f64>,
    /// ens: also learn the verb-frame features (the words after and before
    /// a verb against its senses' WordNet frames; measured: SemEval-2007
    /// unchanged, so off by default).
    #[arg(long)]
    pub ens_frames: bool,
    /// ens: also learn the verb-object features (the lemma and WordNet
    /// class of the noun after a verb against the senses it went with in
    /// training; off by default)
    #[arg(long)]
    pub ens_objects: bool,
    /// ens: leave these features out (weight 0, no tree splits on them),
    /// for ablations; names as the training report prints them
    /// (comma-separated, e.g. `knn.nearest,knn.nearest3`).
    #[arg(long, value_name = "FEATURES", value_delimiter = ',')]
    pub ens_without: Vec<String>,
    /// ens: features the boosted trees do not split on, kept in the
    /// regression only (comma-separated names, as for --ens-without)
    #[arg(long, value_name = "FEATURES", value_delimiter = ',')]
    pub ens_linear: Vec<String>,
    /// ens: gradient-boosted trees (depth 4, learning rate 0.05) fitted on
    /// top of the regression's utilities (0: the regression alone).
    /// Cross-validated on the train split 69.1% -> 71.3%.
    #[arg(long, value_name = "N", default_value_t = wsd::disambig::ens::boost::BoostParams::default().rounds)]
    pub ens_trees: usize,
    /// knn: a sense key (lemma-specific) with at least N training instances
    /// gets its own vector, preferred to its synset's at prediction
    /// (min:10, the default, measured +0.9 F1 on SemEval-2007), or none.
    #[arg(long, value_name = "none|min:N", default_value = "min:10", value_parser = parse_sense_vectors)]
    pub sense_vectors: u32,
}

/// `--sense-vectors`: `none` (0) or `min:N` with N ≥ 1.
fn parse_sense_vectors(s: &str) -> Result<u32, String> {
    if s == "none" {
        return Ok(0);
    }
    match s.strip_prefix("min:").map(str::parse::<u32>) {
        Some(Ok(n)) if n >= 1 => Ok(n),
        _ => Err(format!(
            "{s:?}: use none or min:N with N at least 1 (min:10 is the default)"
        )),
    }
}

/// Run `wsd train`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let method = match args.method.as_str() {
        "pos" => None,
        name => {
            let m = Method::by_name(name)?;
            if !m.trains() {
                anyhow::bail!(
                    "cannot train {name:?}: trainable methods are {}",
                    trainable()
                );
            }
            Some(m)
        }
    };
    // from the arguments alone: said before SemCor is read
    warn_unread_options(args);
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| model_output_path(&args.method));
    if args.limit_docs == Some(0) {
        return Err(wsd::Error::bad_parameter(
            "--limit-docs",
            0,
            "must be at least 1 (leave it out for all documents)",
        )
        .into());
    }
    let nb: NbParams = match &args.nb_params {
        Some(json) => NbParams::from_json(json)?,
        None => NbParams::default(),
    };
    {
        // Before the work: the output is writable and is none of the inputs.
        let r = &args.resources;
        let inputs = args
            .gloss_xml
            .iter()
            .chain(&args.xml)
            .chain(&args.gold)
            .chain(&r.model)
            .chain(&r.pos_model)
            .chain(&r.ic);
        wsd::atomic::refuse_inputs("--output", &output, inputs.map(PathBuf::as_path))?;
        if args.output.is_none() {
            wsd::atomic::create_folder_of(&output)?;
        }
        wsd::atomic::check_writable(&output)?;
        if args.output.is_none() && output.is_file() {
            crate::note!(
                cli,
                "replacing {} (give --output FILE to keep it)",
                output.display()
            );
        }
        // Reads look in the data home first: say so when a model of this
        // method there would be read before the one written here.
        let read = default_model_path(&args.method);
        if args.output.is_none() && read.is_file() && !same_path(&read, &output) {
            crate::note!(
                cli,
                "{} will still be read first by default; pass --model {} to use this one",
                read.display(),
                output.display()
            );
        }
    }
    if args.xml.len() != args.gold.len() {
        anyhow::bail!(
            "--xml and --gold go in pairs: {} --xml but {} --gold",
            args.xml.len(),
            args.gold.len()
        );
    }
    if method.is_none() && !args.xml.is_empty() {
        anyhow::bail!(
            "--method pos trains on SemCor's Penn tags; the --xml files have none (use --semcor)"
        );
    }
    let res = args.resources.resources(cli, PosTraining::Never);
    let semcor = res.paths().semcor();
    let mut sources = Vec::new();
    if args.xml.is_empty() || args.resources.semcor.is_some() {
        sources.push(TrainingSource::Semcor {
            dir: semcor.clone(),
            split: args.split,
            limit: args.limit_docs,
        });
    }
    for (data, gold) in args.xml.iter().zip(&args.gold) {
        sources.push(TrainingSource::Xml {
            data: data.clone(),
            gold: gold.clone(),
        });
    }
    let training = training_documents(&sources).with_context(|| match &sources[0] {
        TrainingSource::Semcor { .. } if args.xml.is_empty() => {
            format!("reading SemCor at {}", semcor.display())
        }
        _ => "reading the training data".to_string(),
    })?;
    for n in &training.notes {
        eprintln!("wsd: {n}");
    }
    let (docs, data) = (training.docs, training.label);
    let mut unknown_keys = 0;
    if method.is_some() {
        // Instances whose gold keys WordNet lacks teach nothing (they are
        // skipped): say how many, as `wsd stats` and `wsd score` do.
        let inv = res.inventory()?;
        let check = wsd::corpus::check_gold_keys(&docs, |k| inv.has_key(k));
        unknown_keys = check.unknown;
        if check.unknown > 0 {
            eprintln!(
                "wsd: warning: {} of {} gold keys are not in this WordNet and are skipped{}",
                check.unknown,
                check.checked,
                check.examples_note()
            );
        }
    }
    let Some(method) = method else {
        // A line per pass (about 4 s each on SemCor), unless -q.
        crate::note!(
            cli,
            "training the POS tagger (averaged perceptron, {} passes)",
            wsd::pos::DEFAULT_ITERATIONS
        );
        let summary = wsd::train::pos_tagger(res, &docs, &args.split.to_string(), &output, &|p| {
            crate::note!(cli, "POS tagger: {p}");
        })?;
        crate::note!(cli, "{summary}");
        return Ok(ExitCode::SUCCESS);
    };
    let gloss = match args.gloss.as_str() {
        "all" => GlossRequest::All,
        "none" => GlossRequest::None,
        "lemmas" => GlossRequest::Lemmas,
        o => anyhow::bail!("bad --gloss {o:?}: use all, none or lemmas"),
    };
    // --gloss-xml picks glosses for --gloss lemmas only: with all (the
    // default) every synset has one anyway, with none it contradicts.
    let gloss_xml = match gloss {
        _ if args.gloss_xml.is_empty() || method.name != "knn" => args.gloss_xml.clone(),
        GlossRequest::Lemmas => args.gloss_xml.clone(),
        GlossRequest::None => anyhow::bail!(
            "--gloss-xml chooses glosses to encode, but --gloss none encodes none: drop one of them"
        ),
        GlossRequest::All => {
            crate::note!(
                cli,
                "--gloss-xml is not needed with --gloss all (the default): every synset gets a gloss vector; use --gloss lemmas --gloss-xml … for the smaller model"
            );
            Vec::new()
        }
    };
    let knn = KnnTraining {
        gloss,
        gloss_xml,
        gloss_pooling: match args.gloss_pooling.as_str() {
            "lemma" => GlossPooling::Lemma,
            "mean" => GlossPooling::Mean,
            o => anyhow::bail!("bad --gloss-pooling {o:?}: use lemma or mean"),
        },
        keep_instances: args.keep_instances,
        pooled_layers: args.pooled_layers,
        examples: args.examples,
        monosemous: args.monosemous,
        sense_min: args.sense_vectors,
    };
    let what = if method.name == "knn" {
        "sentences, examples and glosses"
    } else if method.name == "ens" {
        "sentences of the sampled documents"
    } else {
        "documents"
    };
    let pb = progress::Progress::new(docs.len() as u64, what, cli.quiet);
    let quiet = cli.quiet;
    let job = TrainJob {
        docs: &docs,
        data,
        output: &output,
        nb,
        knn,
        ens: EnsTraining {
            sample_every: args.ens_sample,
            l2: args.ens_l2,
            frames: args.ens_frames,
            objects: args.ens_objects,
            without: args.ens_without.clone(),
            linear: args.ens_linear.clone(),
            boost: wsd::disambig::ens::boost::BoostParams {
                rounds: args.ens_trees,
                ..Default::default()
            },
            ..EnsTraining::default()
        },
        progress: &|done, total| pb.set(done as u64, total as u64),
        notice: &|msg| {
            if !quiet {
                eprintln!("wsd: {msg}");
            }
        },
    };
    let summary = method.train(res, &job)?;
    pb.finish();
    // the SemCor tags the reader dropped and the keys WordNet lacks (on
    // SemCor; the keys of --xml data are counted in the warning above)
    let unknown = if training.semcor.is_some() && args.xml.is_empty() {
        unknown_keys
    } else {
        0
    };
    crate::note!(
        cli,
        "{summary}{}",
        skipped(training.semcor.as_ref(), unknown)
    );
    Ok(ExitCode::SUCCESS)
}

/// `; N SemCor tags skipped (…)` for a summary line, or nothing.
fn skipped(semcor: Option<&wsd::corpus::PartStats>, unknown_keys: usize) -> String {
    semcor
        .and_then(|s| s.skipped_note(unknown_keys))
        .map(|n| format!("; {n}"))
        .unwrap_or_default()
}

/// Options of another method than the one trained are not read: say so
/// (`wsd train --method nb --examples` would otherwise look like it did
/// something). The options with a default value are not checked.
fn warn_unread_options(args: &Args) {
    let m = args.method.as_str();
    let given: [(&str, &[&str], bool); 10] = [
        ("--gloss-xml", &["knn"], !args.gloss_xml.is_empty()),
        ("--keep-instances", &["knn"], args.keep_instances),
        ("--examples", &["knn"], args.examples),
        ("--monosemous", &["knn"], args.monosemous > 0),
        ("--nb-params", &["nb", "ens"], args.nb_params.is_some()),
        ("--ens-l2", &["ens"], args.ens_l2.is_some()),
        ("--ens-frames", &["ens"], args.ens_frames),
        ("--ens-objects", &["ens"], args.ens_objects),
        ("--ens-without", &["ens"], !args.ens_without.is_empty()),
        ("--ens-linear", &["ens"], !args.ens_linear.is_empty()),
    ];
    for (flag, read_by, is_given) in given {
        if is_given && !read_by.contains(&m) {
            eprintln!(
                "wsd: warning: {flag} is read when training {} only, not {m}",
                read_by.join(" or ")
            );
        }
    }
}

/// Do `a` and `b` name the same file (one may not exist yet)?
fn same_path(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::parse_sense_vectors;

    #[test]
    fn sense_vectors_flag() {
        assert_eq!(parse_sense_vectors("none"), Ok(0));
        assert_eq!(parse_sense_vectors("min:10"), Ok(10));
        for bad in ["min:0", "min:", "10", "min:x", "all"] {
            let e = parse_sense_vectors(bad).unwrap_err();
            assert!(e.contains("none or min:N"), "{e}");
        }
    }
}
