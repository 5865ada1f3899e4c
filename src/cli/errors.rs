//! `wsd errors`: run a method on annotated data and list its wrong and
//! missing answers as TSV (id, data set, lemma, POS, sentence, gold and
//! chosen sense with their glosses, who decided; see
//! `wsd::report::errors`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

use super::args::{MethodArgs, ResourceArgs};
use super::compare::{study, DataArgs};
use super::Cli;
use wsd::report::errors::write_tsv;
use wsd::resources::PosTraining;

/// Arguments of `wsd errors`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The method and its options.
    #[command(flatten)]
    pub method: MethodArgs,
    /// Data and models.
    #[command(flatten)]
    pub resources: ResourceArgs,
    /// The data sets.
    #[command(flatten)]
    pub data: DataArgs,
    /// Write the TSV here instead of standard output.
    #[arg(long, short, value_name = "FILE.tsv")]
    pub output: Option<PathBuf>,
}

/// Run `wsd errors`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let Some(spec) = args.method.spec()? else {
        bail!("wsd errors needs --method (e.g. --method mfs)");
    };
    super::args::warn_unread(&spec, &args.resources);
    let res = args
        .resources
        .resources(cli, PosTraining::when_raw(args.data.raw));
    let inv = res.inventory()?;
    let data = args.data.read(&args.resources)?;
    args.data.warn_in_sample(res, std::slice::from_ref(&spec))?;
    let study = study(cli, res, &[spec], &data, &args.data)?;
    let run = &study.runs[0];
    let n = match &args.output {
        Some(path) => {
            let mut n = 0;
            wsd::atomic::write_atomically(path, |w| {
                n = write_tsv(w, inv, &study.instances, run)?;
                Ok(())
            })?;
            n
        }
        None => {
            let mut out = std::io::stdout().lock();
            let n = write_tsv(&mut out, inv, &study.instances, run)?;
            out.flush()?;
            n
        }
    };
    if !cli.quiet {
        eprintln!(
            "wsd: {n} wrong or missing answers of {} instances",
            study.instances.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}
