//! `wsd train --method knn`: sense vectors from the encoder (see
//! `wsd::disambig::knn`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;

use super::progress;
use super::train::Args;
use super::Cli;
use wsd::corpus::{read_semcor, read_xml};
use wsd::disambig::knn::{GlossPooling, GlossScope, KnnModel, KnnParams};
use wsd::encoder::Encoder;
use wsd::wordnet::Inventory;

/// Options of `wsd train` that only knn uses.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct KnnTrainArgs {
    /// knn: encoder folder.
    #[arg(long, value_name = "DIR", default_value = "models/all-MiniLM-L6-v2")]
    pub encoder: PathBuf,
    /// Train on the first N documents of the split only (quick runs, tests).
    #[arg(long, value_name = "N")]
    pub limit_docs: Option<usize>,
    /// knn: gloss vectors for the synsets of the lemmas of the training
    /// documents and of the --gloss-xml files (lemmas, the default: all of
    /// SemCor trains in ~20 min on two busy cores), for every synset (all:
    /// about three times the encoder work of SemCor), or none.
    #[arg(long, value_name = "lemmas|all|none", default_value = "lemmas")]
    pub gloss: String,
    /// knn with --gloss lemmas: also the lemmas of these evaluation XML files.
    #[arg(long, value_name = "DATA.xml")]
    pub gloss_xml: Vec<PathBuf>,
    /// knn: pool a gloss over all its words (mean, the default) or its lemma words (lemma).
    #[arg(long, value_name = "mean|lemma", default_value = "mean")]
    pub gloss_pooling: String,
    /// knn: keep every SemCor instance vector, for --k > 1 (makes the model large).
    #[arg(long)]
    pub keep_instances: bool,
}

/// Train the kNN model and save it to `out`.
pub fn train_knn(cli: &Cli, args: &Args, out: &Path) -> anyhow::Result<()> {
    let t = Instant::now();
    let ka = &args.knn;
    let inv = Inventory::open(cli.wordnet.as_deref())?;
    let encoder = Encoder::load(&ka.encoder)
        .with_context(|| format!("loading the encoder from {}", ka.encoder.display()))?;
    let mut docs = read_semcor(&args.semcor, args.split)
        .with_context(|| format!("reading SemCor at {}", args.semcor.display()))?;
    if let Some(n) = ka.limit_docs {
        docs.truncate(n);
    }
    let mut params = KnnParams::new(&encoder);
    params.keep_instances = ka.keep_instances;
    params.gloss_pooling = match ka.gloss_pooling.as_str() {
        "lemma" => GlossPooling::Lemma,
        "mean" => GlossPooling::Mean,
        o => anyhow::bail!("bad --gloss-pooling {o:?}: use lemma or mean"),
    };
    params.gloss = match ka.gloss.as_str() {
        "all" => GlossScope::All,
        "none" => GlossScope::None,
        "lemmas" => {
            let mut lemmas: Vec<String> = Vec::new();
            let mut add = |docs: &[wsd::corpus::Document]| {
                for d in docs {
                    for s in &d.sentences {
                        for tok in &s.tokens {
                            if let (Some(l), Some(_)) = (&tok.lemma, tok.pos) {
                                lemmas.push(l.clone());
                            }
                        }
                    }
                }
            };
            add(&docs);
            for x in &ka.gloss_xml {
                let xd = read_xml(x).with_context(|| format!("reading {}", x.display()))?;
                add(&xd);
            }
            lemmas.sort();
            lemmas.dedup();
            GlossScope::Lemmas(lemmas)
        }
        o => anyhow::bail!("bad --gloss {o:?}: use all, none or lemmas"),
    };
    let sentences: usize = docs.iter().map(|d| d.sentences.len()).sum();
    let pb = progress::bar(sentences as u64, "sentences+glosses", cli.quiet);
    let model = KnnModel::train(&inv, &encoder, &docs, params, &|done, total| {
        pb.set_length(total as u64);
        pb.set_position(done as u64);
    })?;
    pb.finish_and_clear();
    model.save(out, &inv)?;
    let size = std::fs::metadata(out).map(|m| m.len()).unwrap_or(0);
    let glosses = model.entries.iter().filter(|e| e.gloss.is_some()).count();
    let seen = model.entries.iter().filter(|e| e.ctx.is_some()).count();
    eprintln!(
        "wsd: knn trained on {} documents, {} sentences, {} tagged tokens ({} synsets seen, {} gloss vectors) in {:.1} s; {:.1} MB written to {}",
        model.params.documents,
        model.params.sentences,
        model.params.tagged_tokens,
        seen,
        glosses,
        t.elapsed().as_secs_f64(),
        size as f64 / 1e6,
        out.display()
    );
    Ok(())
}
