//! `wsd senses LEMMA`: every sense of a word, by binary search in the dict
//! files (no full load), so it answers in milliseconds.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;

use super::{Cli, InfoFormat};
use wsd::wordnet::{lookup_senses, Lookup, Pos};

/// Arguments of `wsd senses`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The word (inflected forms and multiwords such as "took place" are fine).
    pub lemma: String,
    /// Only this part of speech (n, v, a, r).
    #[arg(long)]
    pub pos: Option<Pos>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: InfoFormat,
}

/// Run `wsd senses`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let dict = Lookup::open(cli.wordnet.as_deref())?;
    let senses = lookup_senses(&dict, &args.lemma, args.pos)
        .with_context(|| format!("looking up {:?}", args.lemma))?;
    if senses.is_empty() {
        eprintln!(
            "wsd: WordNet has no {}entry for {:?}",
            args.pos.map(|p| format!("{p} ")).unwrap_or_default(),
            args.lemma
        );
    }
    let out = std::io::stdout();
    let mut out = out.lock();
    match args.format {
        InfoFormat::Json => {
            super::write_json(&mut out, &senses)?;
        }
        InfoFormat::Text => {
            for s in &senses {
                writeln!(
                    out,
                    "{}.{} {:<3} {}  {}  {}  [{}] (tag count {})",
                    s.lemma, s.pos, s.sense_number, s.key, s.offset, s.name, s.lexname, s.tag_count
                )?;
                writeln!(out, "      lemmas: {}", s.lemmas.join(", "))?;
                writeln!(out, "      {}", s.definition)?;
                for e in &s.examples {
                    writeln!(out, "      \"{e}\"")?;
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
