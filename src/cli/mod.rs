//! The command line: clap derive structs whose doc comments are the help,
//! one file per subcommand, each with a `run` that parses nothing more,
//! makes its library calls and returns an exit code. Shared argument
//! groups (resources, method options) are in `args.rs`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

pub mod args;
mod calibrate;
mod compare;
mod data;
mod embed;
mod errors;
mod eval;
mod ic;
mod info;
mod progress;
mod score;
mod senses;
mod similarity;
mod stats;
mod synset;
mod tag;
mod train;

/// Word-sense disambiguation with WordNet 3.0.
#[derive(Parser, Debug)]
#[command(name = "wsd", version, about, long_about = None)]
pub struct Cli {
    /// WordNet dict folder, or the folder holding dict/ (else $WNSEARCHDIR,
    /// $WSD_HOME/wordnet/dict, ./wordnet/dict, /usr/share/wordnet).
    #[arg(long, global = true, value_name = "DIR")]
    pub wordnet: Option<PathBuf>,

    /// Print nothing on stderr but errors and warnings: no progress, no
    /// summaries.
    #[arg(long, short, global = true)]
    pub quiet: bool,

    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// Output format of the inventory commands.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InfoFormat {
    /// Human-readable text.
    Text,
    /// JSON.
    Json,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the senses of a word (inflected forms go through morphy).
    Senses(senses::Args),
    /// Show one synset by sense key, offset (08420278-n) or name (bank.n.02).
    Synset(synset::Args),
    /// Load the whole inventory and print its size (a data check).
    Info(info::Args),
    /// Run a method on annotated data and score it (P/R/F1, per POS).
    Eval(eval::Args),
    /// Score a system key file against a gold key file.
    Score(score::Args),
    /// Several methods side by side on annotated data: a report (text,
    /// JSON, or a self-contained HTML page) of where each one fails.
    Compare(compare::Args),
    /// A method's wrong and missing answers on annotated data, as TSV.
    Errors(errors::Args),
    /// Sense-tag plain text (files or standard input).
    Tag(tag::Args),
    /// Train a model (nb, knn, ens, pos) on SemCor or your own annotated data.
    Train(train::Args),
    /// Count information content on SemCor for the res/jcn/lin measures.
    Ic(ic::Args),
    /// Fit the calibration of `--top`'s probabilities on SemCor's train split.
    Calibrate(calibrate::Args),
    /// Read SemCor and print its counts per part (a data check).
    Stats(stats::Args),
    /// Similarity of two synsets (path, wup, lch, res, jcn, lin), as NLTK computes it.
    Similarity(similarity::Args),
    /// Contextual vectors of every word of plain text (JSON lines, one sentence a line).
    Embed(embed::Args),
    /// Where each resource (WordNet, SemCor, models) was found, or how to get it.
    Data(data::Args),
}

/// Run the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let result = run_command(&cli);
    warn_windowed();
    result
}

/// Once per run, with `-q` too: how many sentences the encoder had to cut
/// into windows (see [`wsd::encoder::windowed`]).
fn warn_windowed() {
    let (n, longest) = wsd::encoder::windowed();
    if n > 0 {
        eprintln!(
            "wsd: warning: {n} sentence(s) longer than the encoder's 510 word pieces (the longest: {longest}) were encoded in consecutive windows of at most 510 pieces; words near a window's edge saw less of their sentence"
        );
    }
}

fn run_command(cli: &Cli) -> anyhow::Result<ExitCode> {
    match &cli.command {
        Command::Senses(a) => senses::run(cli, a),
        Command::Synset(a) => synset::run(cli, a),
        Command::Info(a) => info::run(cli, a),
        Command::Eval(a) => eval::run(cli, a),
        Command::Score(a) => score::run(cli, a),
        Command::Compare(a) => compare::run(cli, a),
        Command::Errors(a) => errors::run(cli, a),
        Command::Tag(a) => tag::run(cli, a),
        Command::Train(a) => train::run(cli, a),
        Command::Ic(a) => ic::run(cli, a),
        Command::Calibrate(a) => calibrate::run(cli, a),
        Command::Stats(a) => stats::run(cli, a),
        Command::Similarity(a) => similarity::run(cli, a),
        Command::Embed(a) => embed::run(cli, a),
        Command::Data(a) => data::run(cli, a),
    }
}

/// A summary line on stderr (`wsd: …`), unless `--quiet`.
#[macro_export]
macro_rules! note {
    ($cli:expr, $($arg:tt)*) => {
        if !$cli.quiet {
            eprintln!("wsd: {}", format!($($arg)*));
        }
    };
}

/// Does the command print its results on standard output (so a closed
/// stdout would lose them)?
pub fn writes_stdout(cli: &Cli) -> bool {
    match &cli.command {
        Command::Train(_) | Command::Ic(_) => false,
        Command::Calibrate(a) => a.output.is_none(),
        Command::Tag(a) => a.output.as_ref().is_none_or(|p| p.as_os_str() == "-"),
        _ => true,
    }
}

/// Keep `value` until the process ends and never drop it: the process
/// exits right after the command, and freeing a loaded inventory (a
/// million small allocations) or all of SemCor is wasted work.
pub fn until_exit<T>(value: T) -> &'static T {
    Box::leak(Box::new(value))
}

/// Print `value` as pretty JSON and a newline on `out`.
pub fn write_json(
    out: &mut impl std::io::Write,
    value: &impl serde::Serialize,
) -> anyhow::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)?;
    Ok(())
}
