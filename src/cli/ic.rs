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
    /// SemCor 3.0 folder.
    #[arg(long, value_name = "DIR", default_value = wsd::resources::DEFAULT_SEMCOR)]
    pub semcor: PathBuf,
    /// Which documents to count (train keeps the test split unseen).
    #[arg(long, default_value = "train")]
    pub split: Split,
    /// Output file.
    #[arg(
        long,
        short,
        alias = "out",
        value_name = "FILE",
        default_value = "models/ic-semcor.txt"
    )]
    pub output: PathBuf,
}

/// Run `wsd ic`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    wsd::atomic::check_writable(&args.output)?;
    let inv = super::until_exit(Inventory::open(cli.wordnet.as_deref())?);
    let docs = read_semcor(&args.semcor, args.split)
        .with_context(|| format!("reading SemCor at {}", args.semcor.display()))?;
    let keys = docs
        .iter()
        .flat_map(|d| d.sentences.iter())
        .flat_map(|s| s.tokens.iter())
        .flat_map(|t| t.gold.iter().map(String::as_str));
    let ic = ic_from_keys(inv, keys);
    ic.write(inv, &args.output)?;
    crate::note!(
        cli,
        "information content from {} occurrences ({} keys unknown to WordNet) written to {}",
        ic.occurrences,
        ic.unknown,
        args.output.display()
    );
    Ok(ExitCode::SUCCESS)
}
