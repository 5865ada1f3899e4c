//! `wsd tag FILE… | -`: sense-tag plain text.
//!
//! Input is streamed in blocks of about 256 KiB cut at paragraph, line or
//! word boundaries, so memory stays bounded on inputs of any size (even a
//! single multi-gigabyte line). Blocks are analysed and disambiguated in
//! parallel (`--threads`), and written in input order, so the output is the
//! same whatever the thread count. Sentence numbers and byte offsets are
//! per input file. One-sense-per-discourse style methods see one block at a
//! time.
//!
//! Exit codes: 0 all inputs tagged; 1 some inputs could not be tagged
//! (missing, a directory, binary, invalid UTF-8 — each reported on stderr,
//! the others still tagged); 2 nothing could be done (bad arguments, no
//! WordNet, no model).

use std::fs::File;
use std::io::{BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use rayon::prelude::*;

use super::methods::{self, MethodArgs};
use super::{progress, train, Cli};
use wsd::atomic::AtomicFile;
use wsd::corpus::Document;
use wsd::disambig::{Disambiguator, Prediction};
use wsd::pipeline::{Pipeline, TargetSelection};
use wsd::text::{MweMatcher, MweMode};
use wsd::wordnet::{canonical_name, offset_string, Inventory};

/// Output format of `wsd tag`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagFormat {
    /// One row per token: doc, sentence, token, start, end, text, lemma, pos, sense, method, score.
    Tsv,
    /// One JSON object per sentence.
    Jsonl,
    /// `instance-id sense-key` per target, for `wsd score`.
    Key,
}

/// How sense ids are written.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SenseFormat {
    /// Sense key (`bank%1:14:00::`).
    Key,
    /// Synset offset (`08420278-n`).
    Offset,
    /// NLTK synset name (`depository_financial_institution.n.01`).
    Name,
}

/// Arguments of `wsd tag`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Text files to tag; `-` (or nothing) reads standard input.
    pub inputs: Vec<PathBuf>,
    /// The method and its models.
    #[command(flatten)]
    pub method: MethodArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "tsv")]
    pub format: TagFormat,
    /// How sense ids are written.
    #[arg(long, value_enum, default_value = "key")]
    pub sense_format: SenseFormat,
    /// Add the sense's definition (tsv and jsonl).
    #[arg(long)]
    pub gloss: bool,
    /// Which tokens to disambiguate: content (open-class words, the default),
    /// all (every word WordNet knows, function words too), or a
    /// comma-separated list of lemmas.
    #[arg(long, default_value = "content")]
    pub targets: TargetSelection,
    /// Same as --targets all.
    #[arg(long)]
    pub all_words: bool,
    /// How to join multiword expressions (took place → take_place): learned
    /// (on SemCor's evidence, the default), greedy (every WordNet
    /// collocation, longest first) or none.
    #[arg(long, value_name = "MODE", default_value = "learned")]
    pub mwe: MweMode,
    /// Same as --mwe none.
    #[arg(long)]
    pub no_mwe: bool,
    /// Worker threads (default: all cores). Output is identical for any value.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write to FILE (atomically, only if every input was tagged) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// POS tagger model (trained on SemCor and cached here on first use).
    #[arg(long, value_name = "FILE", default_value = "models/pos.wsd")]
    pub pos_model: PathBuf,
}

/// Block size read at a time.
const BLOCK: usize = 256 * 1024;

/// Reads an input in blocks that end at a paragraph, line or word boundary.
struct BlockReader<R: Read> {
    inner: R,
    buf: Vec<u8>,
    /// Byte offset (in the input) of `buf[0]`.
    offset: usize,
    eof: bool,
}

/// Why an input stopped.
enum InputError {
    Binary(usize),
    Utf8(usize),
    Io(std::io::Error),
}

impl<R: Read> BlockReader<R> {
    fn new(inner: R) -> Self {
        BlockReader {
            inner,
            buf: Vec::with_capacity(2 * BLOCK),
            offset: 0,
            eof: false,
        }
    }

    /// The next block: (offset, text). `None` at the end.
    fn next_block(&mut self) -> Option<Result<(usize, String), InputError>> {
        while !self.eof && self.buf.len() < BLOCK {
            let old = self.buf.len();
            self.buf.resize(old + BLOCK, 0);
            match self.inner.read(&mut self.buf[old..]) {
                Ok(0) => {
                    self.buf.truncate(old);
                    self.eof = true;
                }
                Ok(n) => self.buf.truncate(old + n),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => self.buf.truncate(old),
                Err(e) => {
                    self.buf.truncate(old);
                    return Some(Err(InputError::Io(e)));
                }
            }
        }
        if self.buf.is_empty() {
            return None;
        }
        if let Some(p) = memchr0(&self.buf) {
            return Some(Err(InputError::Binary(self.offset + p)));
        }
        let cut = if self.eof && self.buf.len() <= BLOCK {
            self.buf.len()
        } else {
            cut_point(&self.buf[..BLOCK.min(self.buf.len())])
        };
        let rest = self.buf.split_off(cut);
        let block = std::mem::replace(&mut self.buf, rest);
        let start = self.offset;
        self.offset += block.len();
        Some(match String::from_utf8(block) {
            Ok(s) => Ok((start, s)),
            Err(e) => Err(InputError::Utf8(start + e.utf8_error().valid_up_to())),
        })
    }
}

fn memchr0(b: &[u8]) -> Option<usize> {
    b.iter().position(|&c| c == 0)
}

/// Where to cut a full block: after the last blank line in its second half,
/// else the last newline, else the last space, else at a UTF-8 boundary.
fn cut_point(b: &[u8]) -> usize {
    let half = b.len() / 2;
    if let Some(p) = b.windows(2).rposition(|w| w == b"\n\n") {
        if p >= half {
            return p + 2;
        }
    }
    if let Some(p) = b.iter().rposition(|&c| c == b'\n') {
        if p >= half {
            return p + 1;
        }
    }
    if let Some(p) = b.iter().rposition(|&c| c == b' ' || c == b'\t') {
        return p + 1;
    }
    let mut p = b.len();
    while p > 0 && (b[p - 1] & 0xC0) == 0x80 {
        p -= 1;
    }
    // p-1 is a lead byte (or ASCII): cut before it unless it is ASCII.
    if p > 0 && b[p - 1] >= 0xC0 {
        p - 1
    } else {
        b.len()
    }
}

struct Analysed {
    doc: Document,
    preds: Vec<Option<Prediction>>,
}

struct Ctx<'a> {
    inv: &'a Inventory,
    args: &'a Args,
}

impl Ctx<'_> {
    fn sense_id(&self, key: &str) -> String {
        match self.args.sense_format {
            SenseFormat::Key => key.to_string(),
            SenseFormat::Offset | SenseFormat::Name => match self.inv.sense_by_key(key) {
                Some((syn, _, _)) if self.args.sense_format == SenseFormat::Offset => {
                    offset_string(syn.id, Some(syn.ss_type))
                }
                Some((syn, _, _)) => {
                    canonical_name(self.inv, syn).unwrap_or_else(|_| key.to_string())
                }
                None => key.to_string(),
            },
        }
    }

    fn gloss(&self, key: &str) -> String {
        self.inv
            .sense_by_key(key)
            .map(|(s, _, _)| s.definition.clone())
            .unwrap_or_default()
    }

    /// Format one analysed block; sentences are numbered from `first`.
    fn format(&self, a: &Analysed, first: usize) -> anyhow::Result<Vec<u8>> {
        let mut out = Vec::new();
        let mut pi = 0;
        let doc = &a.doc;
        match self.args.format {
            TagFormat::Tsv => {
                let mut w = csv::WriterBuilder::new()
                    .delimiter(b'\t')
                    .quote_style(csv::QuoteStyle::Never)
                    .has_headers(false)
                    .from_writer(&mut out);
                for (si, s) in doc.sentences.iter().enumerate() {
                    for (ti, t) in s.tokens.iter().enumerate() {
                        let (start, end) = t.span.unwrap_or((0, 0));
                        let mut row = vec![
                            doc.id.clone(),
                            (first + si).to_string(),
                            ti.to_string(),
                            start.to_string(),
                            end.to_string(),
                            t.text.replace(['\t', '\n'], " "),
                            t.lemma.clone().unwrap_or_default(),
                            t.pos.map(|p| p.to_string()).unwrap_or_else(|| "-".into()),
                        ];
                        let pred = if t.instance.is_some() {
                            pi += 1;
                            a.preds[pi - 1].as_ref()
                        } else {
                            None
                        };
                        match pred {
                            Some(p) => {
                                row.push(self.sense_id(&p.key));
                                row.push(p.method.clone());
                                row.push(format!("{:.4}", p.score));
                                if self.args.gloss {
                                    row.push(self.gloss(&p.key));
                                }
                            }
                            None => {
                                row.extend(["-".to_string(), "-".to_string(), "-".to_string()]);
                                if self.args.gloss {
                                    row.push(String::new());
                                }
                            }
                        }
                        w.write_record(&row)?;
                    }
                }
                w.flush()?;
            }
            TagFormat::Jsonl => {
                for (si, s) in doc.sentences.iter().enumerate() {
                    let mut toks = Vec::with_capacity(s.tokens.len());
                    for t in &s.tokens {
                        let (start, end) = t.span.unwrap_or((0, 0));
                        let mut o = serde_json::json!({
                            "text": t.text, "start": start, "end": end,
                            "lemma": t.lemma, "pos": t.pos.map(|p| p.to_string()), "tag": t.tag,
                        });
                        if t.instance.is_some() {
                            pi += 1;
                            if let Some(p) = &a.preds[pi - 1] {
                                o["sense"] = serde_json::json!(self.sense_id(&p.key));
                                o["method"] = serde_json::json!(p.method);
                                o["score"] = serde_json::json!(p.score);
                                if self.args.gloss {
                                    o["gloss"] = serde_json::json!(self.gloss(&p.key));
                                }
                            }
                        }
                        toks.push(o);
                    }
                    let line =
                        serde_json::json!({"doc": doc.id, "sentence": first + si, "tokens": toks});
                    serde_json::to_writer(&mut out, &line)?;
                    out.push(b'\n');
                }
            }
            TagFormat::Key => {
                for (si, s) in doc.sentences.iter().enumerate() {
                    for (ti, t) in s.tokens.iter().enumerate() {
                        if t.instance.is_some() {
                            pi += 1;
                            if let Some(p) = &a.preds[pi - 1] {
                                writeln!(
                                    out,
                                    "{}.s{}.t{} {}",
                                    doc.id,
                                    first + si,
                                    ti,
                                    self.sense_id(&p.key)
                                )?;
                            }
                        }
                    }
                }
            }
        }
        Ok(out)
    }
}

/// Pick the method: --method, else the most accurate one whose model is in models/.
fn choose_method(args: &MethodArgs) -> (String, String) {
    if let Some(m) = &args.method {
        return (m.clone(), "given by --method".into());
    }
    // the trained methods (most accurate first) that are registered and
    // have a model, then mfs: `knn,nb,mfs`, or `knn,mfs` without nb.wsd
    let found: Vec<&str> = ["knn", "nb"]
        .into_iter()
        .filter(|m| methods::METHODS.contains(m) && methods::default_model_path(m).exists())
        .collect();
    if !found.is_empty() {
        let models: Vec<String> = found
            .iter()
            .map(|m| methods::default_model_path(m).display().to_string())
            .collect();
        return (
            format!("{},mfs", found.join(",")),
            format!("model {} found", models.join(", ")),
        );
    }
    (
        "mfs".into(),
        "no trained model in models/; train one with `wsd train --method nb`".into(),
    )
}

/// Run `wsd tag`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let inv = Inventory::open(cli.wordnet.as_deref())?;
    let tagger = train::pos_tagger(cli, &args.pos_model, &args.method.semcor_counts)?;
    let (spec, why) = choose_method(&args.method);
    let method = methods::build(&spec, &inv, &args.method)?;
    eprintln!("wsd: method {} ({why})", method.name());
    let mode = if args.no_mwe { MweMode::None } else { args.mwe };
    let mwe = (mode != MweMode::None).then(|| MweMatcher::with_mode(&inv, mode));
    let targets = if args.all_words {
        TargetSelection::All
    } else {
        args.targets.clone()
    };
    let pipeline = Pipeline {
        inv: &inv,
        tagger: &tagger,
        mwe: mwe.as_ref(),
        targets,
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("starting worker threads")?;
    let ctx = Ctx { inv: &inv, args };

    let mut tmp = None;
    let mut sink: Box<dyn Write> = match &args.output {
        Some(path) => {
            let t = AtomicFile::create(path)?;
            let f = t.reopen()?;
            tmp = Some(t);
            Box::new(BufWriter::new(f))
        }
        None => Box::new(BufWriter::new(std::io::stdout().lock())),
    };
    if args.format == TagFormat::Tsv {
        let mut h =
            "doc\tsentence\ttoken\tstart\tend\ttext\tlemma\tpos\tsense\tmethod\tscore".to_string();
        if args.gloss {
            h.push_str("\tgloss");
        }
        writeln!(sink, "{h}")?;
    }

    let inputs: Vec<PathBuf> = if args.inputs.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        args.inputs.clone()
    };
    let mut failed = 0usize;
    let (mut bytes, mut tokens) = (0usize, 0usize);
    let t0 = Instant::now();
    for input in &inputs {
        match tag_input(
            cli,
            &ctx,
            &pipeline,
            method.as_ref(),
            &pool,
            threads,
            input,
            &mut sink,
        ) {
            Ok((b, n)) => {
                bytes += b;
                tokens += n;
                if b == 0 {
                    eprintln!("wsd: {}: empty input, nothing to tag", display(input));
                }
            }
            Err(e) => {
                if is_broken_pipe(&e) {
                    return Ok(ExitCode::SUCCESS);
                }
                failed += 1;
                eprintln!("wsd: {}: {e:#}", display(input));
            }
        }
    }
    match sink.flush() {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
        r => r?,
    }
    drop(sink);
    let secs = t0.elapsed().as_secs_f64();
    eprintln!(
        "wsd: tagged {tokens} tokens ({:.1} MB) in {secs:.2} s ({:.0} tokens/s, {threads} threads)",
        bytes as f64 / 1e6,
        tokens as f64 / secs.max(1e-9)
    );
    if let (Some(t), Some(path)) = (tmp, &args.output) {
        if failed > 0 {
            eprintln!(
                "wsd: {} not written because {failed} input(s) failed",
                path.display()
            );
        } else {
            t.commit()?;
        }
    }
    std::mem::forget(inv);
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn display(p: &Path) -> String {
    if p.as_os_str() == "-" {
        "<stdin>".into()
    } else {
        p.display().to_string()
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Tag one input; returns (bytes, tokens).
#[allow(clippy::too_many_arguments)]
fn tag_input(
    cli: &Cli,
    ctx: &Ctx,
    pipeline: &Pipeline,
    method: &dyn Disambiguator,
    pool: &rayon::ThreadPool,
    threads: usize,
    input: &Path,
    sink: &mut dyn Write,
) -> anyhow::Result<(usize, usize)> {
    let (reader, total, doc_id): (Box<dyn Read>, Option<u64>, String) = if input.as_os_str() == "-"
    {
        (Box::new(std::io::stdin().lock()), None, "stdin".into())
    } else {
        let meta = std::fs::metadata(input).context("cannot open")?;
        if meta.is_dir() {
            anyhow::bail!("is a directory, not a text file");
        }
        let f = File::open(input).context("cannot open")?;
        (Box::new(f), Some(meta.len()), input.display().to_string())
    };
    let pb = match total {
        Some(n) if n > 4 * BLOCK as u64 && std::io::stderr().is_terminal() => {
            progress::bar(n, "bytes", cli.quiet)
        }
        _ => indicatif::ProgressBar::hidden(),
    };
    let mut blocks = BlockReader::new(reader);
    let mut next_sentence = 0usize;
    let (mut bytes, mut tokens) = (0usize, 0usize);
    let batch = threads * 4;
    loop {
        let mut batch_blocks = Vec::with_capacity(batch);
        let mut stop = None;
        while batch_blocks.len() < batch {
            match blocks.next_block() {
                None => break,
                Some(Ok(b)) => batch_blocks.push(b),
                Some(Err(e)) => {
                    stop = Some(e);
                    break;
                }
            }
        }
        if batch_blocks.is_empty() && stop.is_none() {
            break;
        }
        let analysed: Vec<Analysed> = pool.install(|| {
            batch_blocks
                .par_iter()
                .map(|(off, text)| {
                    let doc = pipeline.analyse(&doc_id, text, *off, 0);
                    let targets = doc.targets();
                    let preds = method.disambiguate_document(ctx.inv, &doc, &targets);
                    Analysed { doc, preds }
                })
                .collect()
        });
        let mut firsts = Vec::with_capacity(analysed.len());
        for a in &analysed {
            firsts.push(next_sentence);
            next_sentence += a.doc.sentences.len();
        }
        let formatted: Vec<anyhow::Result<Vec<u8>>> = pool.install(|| {
            analysed
                .par_iter()
                .zip(firsts)
                .map(|(a, f)| ctx.format(a, f))
                .collect()
        });
        for (a, f) in analysed.iter().zip(formatted) {
            sink.write_all(&f?)?;
            tokens += a
                .doc
                .sentences
                .iter()
                .map(|s| s.tokens.len())
                .sum::<usize>();
        }
        let n: usize = batch_blocks.iter().map(|(_, t)| t.len()).sum();
        bytes += n;
        pb.inc(n as u64);
        if let Some(e) = stop {
            pb.finish_and_clear();
            return Err(match e {
                InputError::Binary(at) => {
                    anyhow::anyhow!("binary file (NUL byte at byte offset {at}), skipped")
                }
                InputError::Utf8(at) => {
                    anyhow::anyhow!("invalid UTF-8 at byte offset {at}; stopped there (convert the file to UTF-8)")
                }
                InputError::Io(e) => anyhow::Error::new(e).context("read error"),
            });
        }
    }
    pb.finish_and_clear();
    Ok((bytes, tokens))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_cut_at_boundaries_and_cover_the_input() {
        let text = "word ".repeat(200_000) + "end";
        let mut r = BlockReader::new(text.as_bytes());
        let mut joined = String::new();
        let mut last_off = 0;
        while let Some(b) = r.next_block() {
            let (off, s) = b.ok().unwrap();
            assert_eq!(off, joined.len());
            assert!(off >= last_off);
            last_off = off;
            joined.push_str(&s);
        }
        assert_eq!(joined, text);
    }

    #[test]
    fn a_long_run_without_spaces_is_cut_at_char_boundaries() {
        let text = "é".repeat(400_000);
        let mut r = BlockReader::new(text.as_bytes());
        let mut joined = String::new();
        while let Some(b) = r.next_block() {
            joined.push_str(&b.ok().unwrap().1);
        }
        assert_eq!(joined, text);
    }

    #[test]
    fn binary_and_bad_utf8_are_reported_with_offsets() {
        let mut r = BlockReader::new(&b"abc\0def"[..]);
        assert!(matches!(r.next_block(), Some(Err(InputError::Binary(3)))));
        let mut r = BlockReader::new(&b"abc \xff\xfe"[..]);
        assert!(matches!(r.next_block(), Some(Err(InputError::Utf8(4)))));
    }
}
