//! `wsd score GOLD SYSTEM`: score any system's key file against a gold key
//! file, as the evaluation framework's Scorer.java does, whatever the sense
//! ids of either file (keys, offsets, NLTK names: `wsd::eval::keys`), and
//! warn when the pair of files looks wrong.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::{Cli, InfoFormat};
use wsd::corpus::{read_gold_key_file, read_key_file};
use wsd::eval::{canonical_pair, looks_like_sense_key, render_text, score, suspicious, IdForm};
use wsd::wordnet::{Dictionary, Lookup};

/// Arguments of `wsd score`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  wsd score semeval2007.gold.key.txt system.key\n  wsd score gold.key system.key --format json\n\nSense ids may be sense keys, offsets (08420278-n) or NLTK names (bank.n.02) on either side:\nwhen any id is not a sense key, both files are compared as synsets."
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
    let report = match &dict {
        Some(d) => {
            let pair = canonical_pair(d, &gold, &system);
            if pair.as_synsets {
                let list =
                    |f: &[IdForm]| f.iter().map(|f| f.name()).collect::<Vec<_>>().join(" and ");
                crate::note!(
                    cli,
                    "gold has {}, system has {}: compared as synsets",
                    list(&pair.gold_forms),
                    list(&pair.system_forms)
                );
            }
            for w in suspicious(&pair.gold, &pair.system) {
                eprintln!("wsd: warning: {w}");
            }
            let known = |k: &str| {
                if pair.as_synsets {
                    pair.resolved.contains(k)
                } else {
                    d.sense_index(k).ok().flatten().is_some()
                }
            };
            score(&pair.gold, &pair.system, Some(&pair.pos), &known)
        }
        None => {
            let other = gold
                .iter()
                .chain(system.iter())
                .flat_map(|(_, k)| k.iter())
                .any(|k| IdForm::of(k) != IdForm::Key);
            for w in suspicious(&gold, &system) {
                eprintln!("wsd: warning: {w}");
            }
            if other {
                eprintln!(
                    "wsd: warning: offsets and NLTK names need WordNet (--wordnet DIR); compared as written"
                );
            }
            score(&gold, &system, None, &looks_like_sense_key)
        }
    };
    let mut out = std::io::stdout().lock();
    match args.format {
        InfoFormat::Json => writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?,
        InfoFormat::Text => write!(out, "{}", render_text(&report))?,
    }
    Ok(ExitCode::SUCCESS)
}
