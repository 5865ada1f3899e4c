//! `wsd stats`: read SemCor (or a part of it) and print what it holds, per
//! part, and how many of its gold keys this WordNet lacks — a data check,
//! and the corpus-reading benchmark.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;

use super::Cli;
use wsd::corpus::{check_gold_keys, read_semcor_with_stats, Split};
use wsd::wordnet::{Dictionary, Lookup};

/// Arguments of `wsd stats`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  wsd stats\n  wsd stats --split test")]
pub struct Args {
    /// SemCor 3.0 folder [default: corpora/semcor3.0 in the data home,
    /// else in the working directory].
    #[arg(long, value_name = "DIR")]
    pub semcor: Option<PathBuf>,
    /// Which documents.
    #[arg(long, default_value = "all")]
    pub split: Split,
}

/// Run `wsd stats`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    // An explicit --wordnet must be there (checked before the work).
    let dict = match &cli.wordnet {
        Some(dir) => Some(Lookup::open(Some(dir))?),
        None => None,
    };
    let t = Instant::now();
    let semcor = wsd::resources::semcor_dir(args.semcor.as_deref());
    let (docs, stats) = read_semcor_with_stats(&semcor, args.split)
        .with_context(|| format!("reading SemCor at {}", semcor.display()))?;
    let docs = super::until_exit(docs);
    let secs = t.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    write!(out, "{stats}")?;
    let unknown = match dict.map_or_else(|| Lookup::open(None), Ok) {
        Ok(d) => {
            let check = check_gold_keys(docs, |k| d.sense_index(k).ok().flatten().is_some());
            writeln!(
                out,
                "gold keys WordNet lacks: {} of {}{}",
                check.unknown,
                check.checked,
                check.examples_note()
            )?;
            check.unknown
        }
        Err(e) => {
            eprintln!("wsd: keys not checked: {e}");
            0
        }
    };
    // what a training or evaluation run will not use, and why
    let skipped = stats.total().skipped_note(unknown);
    writeln!(
        out,
        "{}",
        skipped.unwrap_or_else(|| "0 SemCor tags skipped".into())
    )?;
    crate::note!(cli, "read {} documents in {:.3} s", docs.len(), secs);
    Ok(ExitCode::SUCCESS)
}
