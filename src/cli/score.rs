//! `wsd score GOLD SYSTEM`: score any system's key file against a gold key
//! file, as the evaluation framework's Scorer.java does, whatever the sense
//! ids of either file (keys, offsets, NLTK names: `wsd::eval::keys`), and
//! warn when the pair of files looks wrong.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::{Cli, InfoFormat};
use anyhow::Context;
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
    /// System key file; `-` reads it from standard input (`wsd tag
    /// --format key … | wsd score GOLD -`).
    pub system: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: InfoFormat,
}

/// What `wsd score` compared: sense keys when both files hold only keys,
/// synsets when either side has offsets or NLTK names (and WordNet is
/// there to resolve them), the ids as written when it is not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
enum ComparedAs {
    SenseKeys,
    Synsets,
    Written,
}

/// The JSON output: the score plus how the ids were compared.
#[derive(serde::Serialize)]
struct JsonReport<'a, T: serde::Serialize> {
    compared_as: ComparedAs,
    #[serde(flatten)]
    score: &'a T,
}

/// Run `wsd score`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let gold = read_gold_key_file(&args.gold)?;
    let system = if args.system.as_os_str() == "-" {
        let bytes = wsd::text::blocks::read_to_end_or_nul(std::io::stdin().lock())
            .context("reading the system keys from standard input")?;
        wsd::corpus::keyfile::parse_key_bytes(bytes, std::path::Path::new("<stdin>"))?
    } else {
        read_key_file(&args.system)?
    };
    // Keys are checked against WordNet when a dict folder is found, else by syntax.
    // An explicit --wordnet must be there; only the search may come up empty.
    let dict = match &cli.wordnet {
        Some(dir) => Some(Lookup::open(Some(dir))?),
        None => Lookup::open(None).ok(),
    };
    if dict.is_none() {
        eprintln!("wsd: no WordNet found; checking keys by syntax only");
    }
    // How the ids were compared, for JSON readers (text output says it on stderr).
    let mut compared_as = ComparedAs::SenseKeys;
    let report = match &dict {
        Some(d) => {
            let pair = canonical_pair(d, &gold, &system);
            if pair.as_synsets {
                compared_as = ComparedAs::Synsets;
            }
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
                compared_as = ComparedAs::Written;
                eprintln!(
                    "wsd: warning: offsets and NLTK names need WordNet (--wordnet DIR); compared as written"
                );
            }
            score(&gold, &system, None, &looks_like_sense_key)
        }
    };
    let mut out = std::io::stdout().lock();
    match args.format {
        InfoFormat::Json => {
            let json = JsonReport {
                compared_as,
                score: &report,
            };
            writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?
        }
        InfoFormat::Text => write!(out, "{}", render_text(&report))?,
    }
    Ok(ExitCode::SUCCESS)
}
