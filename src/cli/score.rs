//! `wsd score GOLD SYSTEM`: score any system's key file against a gold key
//! file, as the evaluation framework's Scorer.java does.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::{Cli, InfoFormat};
use wsd::corpus::{read_gold_key_file, read_key_file};
use wsd::eval::{looks_like_sense_key, render_text, score};
use wsd::wordnet::{Dictionary, Lookup};

/// Arguments of `wsd score`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  wsd score semeval2007.gold.key.txt system.key\n  wsd score gold.key system.key --format json"
)]
pub struct Args {
    /// Gold key file (`id key [key…]` per line).
    pub gold: PathBuf,
    /// System key file.
    pub system: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: InfoFormat,
}

/// Run `wsd score`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let gold = read_gold_key_file(&args.gold)?;
    let system = read_key_file(&args.system)?;
    // Keys are checked against WordNet when a dict folder is found, else by syntax.
    // An explicit --wordnet must be there; only the search may come up empty.
    let dict = match &cli.wordnet {
        Some(dir) => Some(Lookup::open(Some(dir))?),
        None => Lookup::open(None).ok(),
    };
    if dict.is_none() {
        eprintln!("wsd: no WordNet found; checking keys by syntax only");
    }
    let known = |k: &str| match &dict {
        Some(d) => d.sense_index(k).ok().flatten().is_some(),
        None => looks_like_sense_key(k),
    };
    let report = score(&gold, &system, None, &known);
    let mut out = std::io::stdout().lock();
    match args.format {
        InfoFormat::Json => writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?,
        InfoFormat::Text => write!(out, "{}", render_text(&report))?,
    }
    Ok(ExitCode::SUCCESS)
}
