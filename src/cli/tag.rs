//! `wsd tag FILE… | -`: sense-tag plain text (see `wsd::tagging`).
//!
//! Exit codes: 0 all inputs tagged; 1 some inputs could not be tagged
//! (missing, a directory, binary, UTF-16, invalid UTF-8 — each reported on stderr,
//! the others still tagged; one that stops part-way keeps what came before);
//! 2 nothing could be done (bad arguments, no WordNet, no model, every input
//! failed before a token was tagged).

use std::fs::File;
use std::io::{BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;

use super::args::{parse_share, MethodArgs, ResourceArgs};
use super::{progress, Cli};
use wsd::atomic::AtomicFile;
use wsd::disambig::MethodSpec;
use wsd::output::{SenseFormat, TagFormat, TagWriter};
use wsd::pipeline::{Pipeline, PosProbe, ProbeChoice, TargetSelection};
use wsd::resources::PosTraining;
use wsd::tagging::records::InputFormat;
use wsd::tagging::{TagError, Tagger};
use wsd::text::blocks::BLOCK;
use wsd::text::{MweMatcher, MweMode};
use wsd::wordnet::{Inventory, Pos};

/// Arguments of `wsd tag`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  echo \"The bank raised its rates.\" | wsd tag\n  wsd tag book.txt --method lesk-ext --gloss --output book.tsv\n  wsd tag notes.txt --format jsonl --sense-format name\n  wsd tag notes.txt --top 3 --explain\n  wsd tag notes.txt --format text"
)]
pub struct Args {
    /// Text files to tag; `-` (or nothing) reads standard input.
    pub inputs: Vec<PathBuf>,
    /// The method and its options.
    #[command(flatten)]
    pub method: MethodArgs,
    /// Data and models.
    #[command(flatten)]
    pub resources: ResourceArgs,
    /// Input format: text (each input one document) or jsonl (one document
    /// per line, `{"id": ..., "text": ...}`; one output record per record).
    #[arg(long, value_enum, default_value = "text")]
    pub input_format: InputFormat,
    /// Output format.
    #[arg(long, value_enum, default_value = "tsv")]
    pub format: TagFormat,
    /// How sense ids are written.
    #[arg(long, value_enum, default_value = "key")]
    pub sense_format: SenseFormat,
    /// Add the sense's definition (tsv and jsonl).
    #[arg(long)]
    pub gloss: bool,
    /// Add the K best senses with a probability each, calibrated on
    /// SemCor's train split (tsv: a `top` column `key:prob;key:prob`;
    /// jsonl: `top`, an array of {sense, prob}, and `calibrated`).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u16).range(1..=100))]
    pub top: Option<u16>,
    /// Add the evidence of each answer: Lesk's overlapping words, the
    /// similarity's closest context word and common ancestor, NB's
    /// strongest features, kNN's sense vector and cosine (tsv: an
    /// `evidence` column; jsonl: `evidence`).
    #[arg(long)]
    pub explain: bool,
    /// Which tokens to disambiguate: content (open-class words, the default),
    /// all (every word WordNet knows, function words too), or a
    /// comma-separated list of lemmas.
    #[arg(long, default_value = "content")]
    pub targets: TargetSelection,
    /// Same as --targets all.
    #[arg(long, conflicts_with = "targets")]
    pub all_words: bool,
    /// How to join multiword expressions (took place → take_place): learned
    /// (on SemCor's evidence, the default), greedy (every WordNet
    /// collocation, longest first) or none.
    #[arg(long, value_name = "MODE", default_value = "learned")]
    pub mwe: MweMode,
    /// Same as --mwe none.
    #[arg(long, conflicts_with = "mwe")]
    pub no_mwe: bool,
    /// Weigh a second part of speech: a target whose second most likely
    /// WordNet category has at least probability P under the tagger
    /// (0–1) is disambiguated as both, and the reading whose answer has
    /// the larger category probability × calibrated sense probability
    /// wins (lemma, POS and sense). Off by default.
    #[arg(long, value_name = "P", value_parser = parse_share)]
    pub pos_alternatives: Option<f32>,
    /// Keep the tagger's part of speech for every word: no instance-level
    /// revision of the category of targets WordNet has in several
    /// categories (that revision is on by default: a model learned on SemCor's
    /// train split of which category a word's context favours).
    #[arg(long)]
    pub no_pos_categories: bool,
    /// Let the encoder overrule the category of a target WordNet has in
    /// several categories when its vector of the word says the chosen
    /// category is unlikely (a probe fitted on SemCor's train split). On by default when the method runs the encoder
    /// anyway (knn, ens: the front end then hands them its vectors, so
    /// each sentence is encoded once); this flag turns it on for the other
    /// methods too, at the encoder's speed (mfs tags ~15 times slower).
    #[arg(long)]
    pub pos_probe: bool,
    /// Never let the encoder overrule categories, not even with knn or ens,
    /// which run it by default (see --pos-probe).
    #[arg(long, conflicts_with = "pos_probe")]
    pub no_pos_probe: bool,
    /// No secondary rows for the words of joined multiwords. By
    /// default a joined unit (`talking about` → `talk_about`) is followed
    /// by a row for its head word (`talking` → `talk`; the verb of a verb
    /// unit, else the last word) and its other content words, each with
    /// its own sense, marked by the `within` column (the unit's lemma; `-`
    /// on every other row), so an annotation that tags the words apart is
    /// answered too. Key files give them the ids `DOC.sN.tM.h` (the head)
    /// and `DOC.sN.tM.wK` (word K of the unit, from 0).
    #[arg(long)]
    pub no_heads: bool,
    /// Worker threads (default: all cores; at most 4 per core, 1024 in all).
    /// Output is identical for any value.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Tag each line of standard input as soon as it is read and flush the
    /// output after it (grep's flag): for a program that writes a line
    /// (or a JSONL record) and waits for its answer, with the models
    /// loaded once. On by itself when standard input is a terminal. A
    /// sentence then never runs across a line break.
    #[arg(long)]
    pub line_buffered: bool,
    /// Write to FILE (atomically, only if every input was tagged) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Run `wsd tag`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let threads = super::args::threads(args.threads)?;
    if args.format == TagFormat::Key && (args.top.is_some() || args.explain) {
        anyhow::bail!(
            "--top and --explain add columns to --format tsv or jsonl; --format key has one sense per line and no room for them"
        );
    }
    if args.gloss && args.format == TagFormat::Key {
        anyhow::bail!(
            "--gloss adds the definition to --format tsv or jsonl (text has it already); --format key has no room for it"
        );
    }
    refuse_repeated_inputs(&args.inputs)?;
    // no file given reads standard input
    let inputs: Vec<PathBuf> = if args.inputs.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        args.inputs.clone()
    };
    if let Some(code) = none_can_be_opened(&inputs) {
        // before loading the models (seconds with knn) and writing a header
        return Ok(code);
    }
    if let Some(out) = &args.output {
        // Before any work (loading, training a missing POS model);
        // standard input may be the output too.
        args.resources.check_output(out, &inputs)?;
    }
    let res = args.resources.resources(cli, PosTraining::IfMissing);
    let (spec, why) = match args.method.spec()? {
        Some(spec) => {
            super::args::warn_unread(&spec, &args.resources);
            (spec, "given by --method".to_string())
        }
        None => MethodSpec::default_for(res, args.method.options()),
    };
    let (inv, tagger, method) = load_overlapped(res, &spec)?;
    if !cli.quiet {
        eprintln!("wsd: method {} ({why})", method.name());
    }
    if let TargetSelection::Lemmas(lemmas) = &args.targets {
        if !args.all_words {
            warn_unknown_target_lemmas(inv, lemmas);
        }
    }
    let mode = if args.no_mwe { MweMode::None } else { args.mwe };
    let mwe = (mode != MweMode::None).then(|| MweMatcher::with_mode(inv, mode));
    let pipeline = Pipeline {
        targets: if args.all_words {
            TargetSelection::All
        } else {
            args.targets.clone()
        },
        heads: !args.no_heads,
        pos_alternatives: args.pos_alternatives,
        pos_categories: (!args.no_pos_categories).then(wsd::pos::category::CategoryModel::shipped),
        pos_probe: PosProbe::for_method(
            res,
            &spec,
            method.as_ref(),
            ProbeChoice::from_flags(args.pos_probe, args.no_pos_probe),
        )?,
        ..Pipeline::new(inv, tagger, mwe.as_ref())
    };
    // the built-in table, plus the maps a trained model fitted itself (knn)
    let calibration = match method.calibration() {
        Some(own) => wsd::disambig::Calibration::builtin().merged(&own),
        None => wsd::disambig::Calibration::builtin().clone(),
    };
    let mut writer = TagWriter::new(inv, args.format, method.name());
    writer.calibration = &calibration;
    writer.sense_format = args.sense_format;
    writer.gloss = args.gloss;
    writer.top = args.top.map_or(0, usize::from);
    writer.explain = args.explain;
    if writer.top > 0 && !cli.quiet {
        let uncalibrated: Vec<&str> = spec
            .methods()
            .iter()
            .map(|m| m.name)
            .filter(|m| !writer.calibration.has(m))
            .collect();
        if !uncalibrated.is_empty() {
            eprintln!(
                "wsd: no calibration for {}: its probabilities are normalised scores, not calibrated (jsonl: \"calibrated\": false)",
                uncalibrated.join(", ")
            );
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("starting worker threads")?;
    let reads_stdin = inputs.iter().any(|p| p.as_os_str() == "-");
    let terminal = reads_stdin && std::io::stdin().is_terminal();
    if terminal && !cli.quiet {
        eprintln!(
            "wsd: reading text from the terminal: each line is tagged when you press Enter; Ctrl-D ends (or give FILE…)"
        );
    }
    let tagger = Tagger {
        inv,
        pipeline: &pipeline,
        method: method.as_ref(),
        writer: &writer,
        line_buffered: args.line_buffered || terminal,
    };

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
    let out_name = args
        .output
        .clone()
        .unwrap_or_else(|| PathBuf::from("standard output"));
    if let Some(h) = writer.header() {
        writeln!(sink, "{h}").map_err(|e| wsd::Error::write(&out_name, e))?;
    }

    let mut failed = 0usize;
    let (mut bytes, mut tokens, mut bad) = (0usize, 0usize, 0usize);
    let t0 = Instant::now();
    let tag_phase = wsd::timing::phase("tag inputs");
    for input in &inputs {
        match tag_input(
            cli,
            args.input_format,
            &tagger,
            &pool,
            input,
            &mut sink,
            &out_name,
        ) {
            Ok((b, n, r)) => {
                bytes += b;
                tokens += n;
                bad += r;
                if b == 0 {
                    eprintln!("wsd: {}: empty input, nothing to tag", display(input));
                }
            }
            Err(e) => {
                if is_broken_pipe(&e) {
                    return Ok(ExitCode::SUCCESS);
                }
                if e.downcast_ref::<wsd::Error>()
                    .is_some_and(|w| matches!(w, wsd::Error::Write { .. }))
                {
                    // The output failed (a full disk…): nothing more can be
                    // written; the temporary file goes with `tmp`.
                    return Err(e);
                }
                if let Some(part) = e.downcast_ref::<StoppedInput>() {
                    // what came before the fault was tagged and written
                    bytes += part.bytes;
                    tokens += part.tokens;
                }
                failed += 1;
                eprintln!("wsd: {}: {e:#}", display(input));
            }
        }
    }
    match sink.flush() {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
        Err(e) => return Err(wsd::Error::write(&out_name, e).into()),
        Ok(()) => {}
    }
    drop(sink);
    drop(tag_phase);
    let secs = t0.elapsed().as_secs_f64();
    if !cli.quiet && terminal {
        // a rate would count the time spent typing
        eprintln!("wsd: tagged {tokens} tokens");
    } else if !cli.quiet {
        eprintln!(
            "wsd: tagged {tokens} tokens ({:.1} MB) in {secs:.2} s ({:.0} tokens/s, {threads} threads)",
            bytes as f64 / 1e6,
            tokens as f64 / secs.max(1e-9)
        );
    }
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
    if bad > 0 {
        eprintln!("wsd: {bad} record(s) could not be tagged");
    }
    Ok(if failed > 0 && failed == inputs.len() && tokens == 0 {
        // Nothing could be tagged.
        ExitCode::from(2)
    } else if failed > 0 || bad > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The inventory, the POS tagger and the method, the method built on a
/// second thread while the first loads the inventory and the tagger.
///
/// The encoder (0.4–1 s) and a kNN model (sha256 over 107 MB) need neither
/// (the kNN model needs the inventory only at the end of its load), so a
/// `knn` or `ens` run loads them side by side; the encoder first, since the
/// methods' build asks for the inventory before it. Errors are reported in
/// the order the loads used to run one after the other (inventory, POS
/// model, then the method), so a run that fails says what it always said.
fn load_overlapped<'r>(
    res: &'r wsd::resources::Resources,
    spec: &MethodSpec,
) -> anyhow::Result<(
    &'r wsd::wordnet::Inventory,
    &'r wsd::pos::PosTagger,
    Box<dyn wsd::disambig::Disambiguator>,
)> {
    // the precision the build will ask for, so the early load is that one
    let encoder = spec.encoder_precision(res);
    std::thread::scope(|s| {
        let building = s.spawn(|| {
            let _t = wsd::timing::phase("build method (second thread)");
            if let Some(p) = encoder {
                // an error is reported by the build below
                let _ = res.encoder_preferring(p);
            }
            spec.build(res)
        });
        let inv = res.inventory();
        let tagger = inv.as_ref().ok().map(|_| res.pos_tagger());
        let method = building
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        let inv = inv?;
        let tagger = tagger.expect("loaded when the inventory was")?;
        Ok((inv, tagger, method?))
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

/// Tag one input; returns (bytes, tokens, bad records).
fn tag_input(
    cli: &Cli,
    input_format: InputFormat,
    tagger: &Tagger,
    pool: &rayon::ThreadPool,
    input: &Path,
    sink: &mut dyn Write,
    out_name: &Path,
) -> anyhow::Result<(usize, usize, usize)> {
    // files are read in full blocks whatever --line-buffered says
    let stdin = input.as_os_str() == "-";
    let tagger = &Tagger {
        line_buffered: tagger.line_buffered && stdin,
        ..*tagger
    };
    let (reader, total, doc_id): (Box<dyn Read>, Option<u64>, String) = if stdin {
        (Box::new(std::io::stdin().lock()), None, "stdin".into())
    } else {
        let (f, meta) = open_input(input)?;
        let cwd = std::env::current_dir().ok();
        let id = wsd::tagging::document_id(input, cwd.as_deref());
        (Box::new(f), Some(meta.len()), id)
    };
    // Progress for files of more than a few blocks (stdin has no total).
    let pb = match total {
        Some(n) if n > 4 * BLOCK as u64 => progress::Progress::new(n, "bytes", cli.quiet),
        _ => progress::Progress::new(0, "bytes", true),
    };
    let result = match input_format {
        InputFormat::Text => {
            let result = tagger.tag(reader, &doc_id, sink, pool, &|n| pb.inc(n));
            if let Ok(s) | Err(TagError::Input { stats: s, .. }) = &result {
                warn_line_cuts(&display(input), s.line_cuts);
            }
            result.map(|s| (s.bytes, s.tokens, 0))
        }
        InputFormat::Jsonl => {
            // Errors are shown with --quiet too (it hides progress and
            // notices only); past the first few, a count at the end.
            let mut shown = 0usize;
            let mut report = |e: &wsd::tagging::records::RecordError| {
                shown += 1;
                if shown <= MAX_RECORD_ERRORS {
                    eprintln!("wsd: {}: line {}: {}", display(input), e.line, e.error);
                } else if shown == MAX_RECORD_ERRORS + 1 {
                    eprintln!(
                        "wsd: {}: more records could not be tagged; not shown one by one",
                        display(input)
                    );
                }
            };
            tagger
                .tag_records(reader, sink, pool, &mut report, &|n| pb.inc(n))
                .map(|s| (s.bytes, s.tokens, s.failed))
        }
    };
    pb.finish();
    match result {
        Ok(s) => Ok(s),
        Err(TagError::Input { error, stats }) => Err(anyhow::Error::new(StoppedInput {
            error,
            bytes: stats.bytes,
            tokens: stats.tokens,
        })),
        Err(TagError::Write(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            Err(anyhow::Error::new(e))
        }
        Err(TagError::Write(e)) => Err(wsd::Error::write(out_name, e).into()),
    }
}

/// Once per input (`wsd tag`, `wsd embed`), with `-q` too: lines longer
/// than a block were cut, and no sentence runs across a cut.
pub(super) fn warn_line_cuts(input: &str, cuts: wsd::text::blocks::LineCuts) {
    if let Some((line, at)) = cuts.first {
        eprintln!(
            "wsd: warning: {input}: line {line}: longer than a block ({} KiB) without a line break, cut at byte offset {at}; {} cut(s) in this input, and no sentence runs across a cut (break long lines, or end their sentences)",
            BLOCK / 1024,
            cuts.count
        );
    }
}

/// When files were named and not one of them can be opened (missing, a
/// folder, unreadable), say why for each and give exit 2 at once; when
/// some can, they are tagged and the others reported as they come.
fn none_can_be_opened(inputs: &[PathBuf]) -> Option<ExitCode> {
    if inputs.iter().any(|p| p.as_os_str() == "-") {
        return None;
    }
    let why = |p: &Path| -> Option<String> {
        let e = open_input(p).err()?;
        Some(match wsd::resources::data_home_has(p) {
            Some(there) => format!(
                "{e:#} (not in this folder; the data home has {})",
                there.display()
            ),
            None => format!("{e:#}"),
        })
    };
    let errors: Vec<(&PathBuf, String)> = inputs
        .iter()
        .map_while(|p| why(p).map(|w| (p, w)))
        .collect();
    if errors.len() < inputs.len() {
        return None;
    }
    for (p, w) in errors {
        eprintln!("wsd: {}: {w}", p.display());
    }
    Some(ExitCode::from(2))
}

/// Open a text file to tag, with the messages `wsd tag` reports per input
/// ("cannot open: …", "is a directory, not a text file").
fn open_input(path: &Path) -> anyhow::Result<(File, std::fs::Metadata)> {
    let meta = std::fs::metadata(path).context("cannot open")?;
    if meta.is_dir() {
        anyhow::bail!("is a directory, not a text file");
    }
    let f = File::open(path).context("cannot open")?;
    Ok((f, meta))
}

/// `--targets LEMMAS` matches lemmas, never the words as written: a word
/// WordNet has no lemma for would silently match nothing, so say which
/// lemma was meant (`raised` → raise) or what is close (`bnak` → bank).
fn warn_unknown_target_lemmas(inv: &Inventory, lemmas: &rustc_hash::FxHashSet<String>) {
    let mut sorted: Vec<&String> = lemmas.iter().collect();
    sorted.sort();
    for lemma in sorted {
        let mut bases: Vec<String> = Pos::ALL
            .iter()
            .flat_map(|&p| inv.morphy(lemma, p))
            .filter(|b| b != lemma)
            .collect();
        bases.sort();
        bases.dedup();
        if Pos::ALL.iter().any(|&p| inv.has_lemma(lemma, p)) {
            // `raised` (an adjective) and `banks` (a surname) are lemmas,
            // and inflected forms of raise and bank too
            if !bases.is_empty() {
                eprintln!(
                    "wsd: warning: --targets {lemma:?} matches the lemma {lemma:?} only; it is also a form of {} (give that lemma to tag those)",
                    bases.join(", ")
                );
            }
            continue;
        }
        let hint = if bases.is_empty() {
            wsd::wordnet::did_you_mean(&inv.similar_lemmas(lemma, None, 5))
        } else {
            format!("; targets are lemmas: did you mean {}?", bases.join(", "))
        };
        eprintln!("wsd: warning: --targets {lemma:?}: WordNet has no such lemma, so nothing matches it{hint}");
    }
}

/// An input that stopped part-way (invalid UTF-8, a read error): what
/// came before was tagged and written, and is counted.
#[derive(Debug, thiserror::Error)]
#[error("{error}")]
struct StoppedInput {
    error: wsd::text::blocks::InputError,
    bytes: usize,
    tokens: usize,
}

/// How many bad JSON-lines records are named one by one, per input.
const MAX_RECORD_ERRORS: usize = 20;

/// The same file given twice would repeat its instance ids (`--format
/// key` output that `wsd score` then rejects): refused, by device and inode.
fn refuse_repeated_inputs(inputs: &[PathBuf]) -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let mut seen = std::collections::HashMap::new();
        for p in inputs.iter().filter(|p| p.as_os_str() != "-") {
            if let Ok(m) = std::fs::metadata(p) {
                if let Some(first) = seen.insert((m.dev(), m.ino()), p) {
                    return Err(wsd::Error::bad_parameter(
                        "FILE",
                        p.display(),
                        format!(
                            "the same file as {} (given twice, its ids would repeat)",
                            first.display()
                        ),
                    )
                    .into());
                }
            }
        }
    }
    let _ = inputs;
    Ok(())
}
