//! `wsd embed [FILE|-]`: contextual vectors of every word of plain text, as
//! JSON lines: `{"sentence": n, "tokens": [{"end", "start", "text",
//! "vector": [...]}]}` (sentences numbered from 0, byte offsets into the
//! input, one vector of the encoder's hidden size per token).
//!
//! The input is streamed in blocks ([`BlockReader`]: cut at a paragraph,
//! line or word break, so a sentence never spans two 256 KB blocks) and
//! each line is written as it is made, so memory stays bounded on inputs
//! of any size. The encoder sees at most [`MAX_WORDS`] words at a time: a
//! longer sentence is encoded in consecutive slices of that many words
//! (still one output line).

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use super::Cli;
use wsd::encoder::Encoder;
use wsd::text::blocks::BlockReader;
use wsd::text::RawToken;

/// Arguments of `wsd embed`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  echo \"The bank raised its rates.\" | wsd embed | head -1\n  wsd embed book.txt --encoder models/all-MiniLM-L6-v2 > vectors.jsonl"
)]
pub struct Args {
    /// Text file, or `-` (the default) for standard input.
    #[arg(value_name = "FILE|-", default_value = "-")]
    pub input: String,
    /// Encoder checkpoint folder [default: models/all-MiniLM-L6-v2 in
    /// the data home, else in the working directory].
    #[arg(long, value_name = "DIR", alias = "model")]
    pub encoder: Option<PathBuf>,
}

/// Sentences (or slices) per encoder call.
const CHUNK: usize = 256;

/// Most words the encoder sees as one sentence.
pub const MAX_WORDS: usize = 512;

/// Run `wsd embed`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let dir = wsd::resources::encoder_dir(args.encoder.as_deref());
    let encoder = Encoder::load(&dir)
        .with_context(|| format!("loading the encoder from {}", dir.display()))?;
    let (reader, name): (Box<dyn Read>, String) = if args.input == "-" {
        (Box::new(std::io::stdin().lock()), "standard input".into())
    } else {
        let p = std::path::Path::new(&args.input);
        if p.is_dir() {
            anyhow::bail!("{}: is a directory, not a text file", args.input);
        }
        let f = std::fs::File::open(p).map_err(|e| wsd::Error::io(p, e))?;
        (Box::new(f), args.input.clone())
    };
    // A terminal: answer each line when Enter is pressed (as `wsd tag`
    // does), not when Ctrl-D ends a block that would never fill.
    let terminal = args.input == "-" && std::io::stdin().is_terminal();
    if terminal && !cli.quiet {
        eprintln!(
            "wsd: reading text from the terminal: each line is embedded when you press Enter; Ctrl-D ends (or give FILE)"
        );
    }
    let mut blocks = if terminal {
        BlockReader::line_buffered(reader)
    } else {
        BlockReader::new(reader)
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut n = 0usize;
    while let Some(block) = blocks.next_block() {
        let (offset, text) = block.map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        let sentences = wsd::text::split_sentences(&text);
        for chunk in sentences.chunks(CHUNK) {
            write_chunk(&encoder, chunk, offset, &mut n, &mut out)
                .context("cannot write standard output")?;
        }
        out.flush().context("cannot write standard output")?;
    }
    super::tag::warn_line_cuts(&name, blocks.line_cuts());
    Ok(ExitCode::SUCCESS)
}

/// Encode and write one chunk of sentences.
fn write_chunk(
    encoder: &Encoder,
    chunk: &[Vec<RawToken>],
    offset: usize,
    n: &mut usize,
    out: &mut impl Write,
) -> std::io::Result<()> {
    // Long sentences go to the encoder in slices of MAX_WORDS words.
    let slices: Vec<Vec<String>> = chunk
        .iter()
        .flat_map(|s| s.chunks(MAX_WORDS))
        .map(|s| s.iter().map(|t| t.text.clone()).collect())
        .collect();
    let mut vecs = encoder.encode_words(&slices).into_iter();
    for s in chunk {
        write!(out, "{{\"sentence\":{n},\"tokens\":[")?;
        let mut first = true;
        for slice in s.chunks(MAX_WORDS) {
            let v = vecs.next().unwrap_or_default();
            for (t, v) in slice.iter().zip(v) {
                if !first {
                    out.write_all(b",")?;
                }
                first = false;
                write!(
                    out,
                    "{{\"end\":{},\"start\":{},\"text\":",
                    t.end + offset,
                    t.start + offset
                )?;
                serde_json::to_writer(&mut *out, &t.text)?;
                out.write_all(b",\"vector\":")?;
                serde_json::to_writer(&mut *out, &v)?;
                out.write_all(b"}")?;
            }
        }
        out.write_all(b"]}\n")?;
        *n += 1;
    }
    Ok(())
}
