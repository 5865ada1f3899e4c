//! `wsd embed [FILE|-]`: contextual vectors of every word of plain text, as
//! JSON lines: `{"sentence": n, "tokens": [{"text", "start", "end",
//! "vector": [...]}]}` (sentences numbered from 0, byte offsets into the
//! input, one vector of the encoder's hidden size per token).

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use super::Cli;
use wsd::encoder::Encoder;

/// Arguments of `wsd embed`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  echo \"The bank raised its rates.\" | wsd embed | head -1\n  wsd embed book.txt --encoder models/all-MiniLM-L6-v2 > vectors.jsonl"
)]
pub struct Args {
    /// Text file, or `-` (the default) for standard input.
    #[arg(value_name = "FILE|-", default_value = "-")]
    pub input: String,
    /// Encoder checkpoint folder.
    #[arg(long, value_name = "DIR", alias = "model", default_value = wsd::resources::DEFAULT_ENCODER)]
    pub encoder: PathBuf,
}

/// Sentences per encoder call (and per flush of the output).
const CHUNK: usize = 256;

/// Run `wsd embed`.
pub fn run(_cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let encoder = Encoder::load(&args.encoder)
        .with_context(|| format!("loading the encoder from {}", args.encoder.display()))?;
    let mut text = String::new();
    if args.input == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading standard input")?;
    } else {
        text = std::fs::read_to_string(&args.input)
            .with_context(|| format!("reading {}", args.input))?;
    }
    let sentences = wsd::text::split_sentences(&text);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut n = 0usize;
    for chunk in sentences.chunks(CHUNK) {
        let words: Vec<Vec<String>> = chunk
            .iter()
            .map(|s| s.iter().map(|t| t.text.clone()).collect())
            .collect();
        let vecs = encoder.encode_words(&words);
        for (s, v) in chunk.iter().zip(vecs) {
            let tokens: Vec<serde_json::Value> = s
                .iter()
                .zip(v)
                .map(|(t, v)| {
                    serde_json::json!({"text": t.text, "start": t.start, "end": t.end, "vector": v})
                })
                .collect();
            let line = serde_json::json!({"sentence": n, "tokens": tokens});
            writeln!(out, "{line}").context("writing output")?;
            n += 1;
        }
        out.flush().context("writing output")?;
    }
    Ok(ExitCode::SUCCESS)
}
