//! `wsd senses WORD…`: every sense of each word, by binary search in the
//! dict files (no full load), so it answers in milliseconds. Exits 1 when
//! WordNet lacks one of the words.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;

use super::{Cli, InfoFormat};
use wsd::wordnet::{lookup_senses, Lookup, Pos};

/// Arguments of `wsd senses`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  wsd senses bank\n  wsd senses bass --pos n --format json\n  wsd senses \"took place\""
)]
pub struct Args {
    /// The words (inflected forms and multiwords such as "took place" are fine).
    #[arg(required = true, value_name = "WORD")]
    pub lemmas: Vec<String>,
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
    let mut senses = Vec::new();
    let mut unknown = 0;
    for lemma in &args.lemmas {
        let found = lookup_senses(&dict, lemma, args.pos)
            .with_context(|| format!("looking up {lemma:?}"))?;
        if found.is_empty() {
            unknown += 1;
            eprintln!("wsd: {}", not_found(&dict, lemma, args.pos)?);
        }
        senses.extend(found);
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
    // Exit 1 when a word is unknown, as grep does when nothing matches.
    Ok(if unknown > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Why `lemma` has no senses, and what to try instead: the parts of
/// speech it does have (`bank --pos r`), or lemmas spelt close to it.
fn not_found(dict: &Lookup, lemma: &str, pos: Option<Pos>) -> anyhow::Result<String> {
    if lemma.trim().is_empty() {
        return Ok("an empty word has no senses".to_string());
    }
    if let Some(p) = pos {
        let other: Vec<Pos> = Pos::ALL
            .iter()
            .filter(|&&q| q != p)
            .filter(|&&q| lookup_senses(dict, lemma, Some(q)).is_ok_and(|s| !s.is_empty()))
            .copied()
            .collect();
        if !other.is_empty() {
            let names: Vec<&str> = other.iter().map(|&q| q.name()).collect();
            let flags: Vec<String> = other
                .iter()
                .map(|q| format!("--pos {}", q.letter()))
                .collect();
            return Ok(format!(
                "WordNet has no {} entry for {lemma:?}; it has it as a {} (leave out --pos, or give {})",
                p.name(),
                names.join(" and a "),
                flags.join(" or ")
            ));
        }
    }
    Ok(format!(
        "WordNet has no {}entry for {lemma:?}{}",
        pos.map(|p| format!("{} ", p.name())).unwrap_or_default(),
        wsd::wordnet::did_you_mean(&dict.similar_lemmas(lemma, pos, 5)),
    ))
}
