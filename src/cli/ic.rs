//! `wsd ic`: count information content on SemCor (for sim-res/jcn/lin and
//! `wsd similarity --measure res|jcn|lin`). Each tagged occurrence counts
//! for its synset and once for every hypernym ancestor; add-one smoothing.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use super::Cli;
use wsd::corpus::{read_semcor, Split};
use wsd::wordnet::similarity::ic_from_keys;
use wsd::wordnet::Inventory;

/// Arguments of `wsd ic`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  wsd ic --output models/ic-semcor.txt\n  wsd similarity car.n.01 boat.n.01 --measure res --ic models/ic-semcor.txt"
)]
pub struct Args {
    /// SemCor 3.0 folder [default: corpora/semcor3.0 in the data home,
    /// else in the working directory].
    #[arg(long, value_name = "DIR")]
    pub semcor: Option<PathBuf>,
    /// Which documents to count (train keeps the test split unseen).
    #[arg(long, default_value = "train")]
    pub split: Split,
    /// Output file [default: ic-semcor.txt in ./models when the working
    /// directory has one, else in the data home's models/].
    #[arg(long, short, alias = "out", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Run `wsd ic`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| wsd::resources::models_dir().join("ic-semcor.txt"));
    if args.output.is_none() {
        wsd::atomic::create_folder_of(&output)?;
    }
    wsd::atomic::check_writable(&output)?;
    let inv = super::until_exit(Inventory::open(cli.wordnet.as_deref())?);
    let semcor = wsd::resources::semcor_dir(args.semcor.as_deref());
    let docs = read_semcor(&semcor, args.split)
        .with_context(|| format!("reading SemCor at {}", semcor.display()))?;
    let keys = docs
        .iter()
        .flat_map(|d| d.sentences.iter())
        .flat_map(|s| s.tokens.iter())
        .flat_map(|t| t.gold.iter().map(String::as_str));
    let ic = ic_from_keys(inv, keys);
    ic.write(inv, &output)?;
    crate::note!(
        cli,
        "information content from {} occurrences ({} keys unknown to WordNet) written to {}",
        ic.occurrences,
        ic.unknown,
        output.display()
    );
    Ok(ExitCode::SUCCESS)
}
