//! `wsd info`: load the whole inventory, print what it holds (and how long
//! loading took, on stderr) and check the data (`wsd::wordnet::check`):
//! sort order, pointer targets, hypernym cycles, WordNet 3.0's counts.
//! Exit 0 when the check finds nothing, 1 with each problem on stderr as
//! `file:line: what`.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use super::{Cli, InfoFormat};
use wsd::wordnet::{Dictionary, Inventory, Pos, SynsetType};

/// Arguments of `wsd info`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  wsd info\n  wsd info --format json")]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: InfoFormat,
}

/// Run `wsd info`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let t = Instant::now();
    let inv = super::until_exit(Inventory::open(cli.wordnet.as_deref())?);
    let load_ms = t.elapsed().as_secs_f64() * 1e3;
    let problems = wsd::wordnet::check::check(inv.dir(), inv);
    let mut by_pos = serde_json::Map::new();
    for p in Pos::ALL {
        let synsets = inv.synsets().iter().filter(|s| s.id.pos == p).count();
        let lemmas = inv.lemmas(p).count();
        let senses: usize = inv
            .lemmas(p)
            .map(|l| inv.synset_offsets(l, p).map_or(0, |o| o.len()))
            .sum();
        by_pos.insert(
            p.file_suffix().to_string(),
            serde_json::json!({"synsets": synsets, "lemmas": lemmas, "senses": senses}),
        );
    }
    let satellites = inv
        .synsets()
        .iter()
        .filter(|s| s.ss_type == SynsetType::AdjSatellite)
        .count();
    let v = serde_json::json!({
        "dict": inv.dir().display().to_string(),
        "synsets": inv.len(),
        "adjective_satellites": satellites,
        "by_pos": by_pos,
        "index_sense_sha256": inv.checksum()?,
        "load_ms": load_ms,
        "problems": problems.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
    });
    let mut out = std::io::stdout().lock();
    match args.format {
        InfoFormat::Json => writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?,
        InfoFormat::Text => {
            writeln!(out, "WordNet at {}", inv.dir().display())?;
            writeln!(
                out,
                "synsets: {} ({} adjective satellites)",
                inv.len(),
                satellites
            )?;
            for (p, c) in &by_pos {
                writeln!(
                    out,
                    "  {p:<5} synsets {:>6}  lemmas {:>6}  senses {:>6}",
                    // a JSON value ignores the width: the numbers pad
                    c["synsets"].as_u64().unwrap_or_default(),
                    c["lemmas"].as_u64().unwrap_or_default(),
                    c["senses"].as_u64().unwrap_or_default()
                )?;
            }
            writeln!(out, "index.sense sha256: {}", inv.checksum()?)?;
            writeln!(
                out,
                "checks: {}",
                if problems.is_empty() {
                    "passed (index and exception files sorted, pointers resolve, no hypernym cycles, WordNet 3.0's synset counts)".to_string()
                } else {
                    format!("{} problem(s), listed on standard error", problems.len())
                }
            )?;
            crate::note!(cli, "loaded in {load_ms:.0} ms");
        }
    }
    drop(out);
    if problems.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    for p in &problems {
        eprintln!("wsd: {p}");
    }
    eprintln!(
        "wsd: the dictionary at {} has {} problem(s); results from it cannot be trusted",
        inv.dir().display(),
        problems.len()
    );
    Ok(ExitCode::from(1))
}
