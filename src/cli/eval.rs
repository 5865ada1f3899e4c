//! `wsd eval`: run a method on an annotated data set and score it, with the
//! evaluation framework's arithmetic (see `wsd::eval`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};

use super::args::{MethodArgs, ResourceArgs};
use super::{progress, Cli, InfoFormat};
use wsd::corpus::{write_key_file, Split};
use wsd::eval::{evaluate, render_text, Dataset, Input};
use wsd::pipeline::{Pipeline, TargetSelection};
use wsd::resources::PosTraining;
use wsd::text::MweMatcher;

/// Arguments of `wsd eval`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The method and its options.
    #[command(flatten)]
    pub method: MethodArgs,
    /// Data and models.
    #[command(flatten)]
    pub resources: ResourceArgs,
    /// Evaluation-framework XML (`*.data.xml`); needs --gold.
    #[arg(long, value_name = "DATA.xml", requires = "gold")]
    pub xml: Option<PathBuf>,
    /// Gold key file (`*.gold.key.txt`) for --xml.
    #[arg(long, value_name = "GOLD.key")]
    pub gold: Option<PathBuf>,
    /// Without --xml: evaluate on this split of SemCor (--semcor DIR).
    #[arg(long, default_value = "test")]
    pub split: Split,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: InfoFormat,
    /// Also print the score per part of speech (text format; JSON always has it).
    #[arg(long)]
    pub per_pos: bool,
    /// Write the system's answers as a key file.
    #[arg(long, value_name = "SYSTEM.key")]
    pub output: Option<PathBuf>,
    /// Ignore the data set's tokens, lemmas and POS: rebuild its plain text,
    /// run the text pipeline (`wsd tag`'s), and align its targets back to the
    /// gold instances by character span — what automatic preprocessing costs.
    #[arg(long)]
    pub raw: bool,
}

/// Run `wsd eval`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let Some(spec) = args.method.spec()? else {
        bail!("wsd eval needs --method (e.g. --method mfs)");
    };
    if let Some(out) = &args.output {
        let r = &args.resources;
        let inputs = args
            .xml
            .iter()
            .chain(&args.gold)
            .chain(&r.model)
            .chain(&r.pos_model)
            .chain(&r.ic);
        wsd::atomic::refuse_inputs("--output", out, inputs.map(PathBuf::as_path))?;
        wsd::atomic::check_writable(out)?;
    }
    let res = args.resources.resources(cli, PosTraining::IfMissing);
    let inv = res.inventory()?;
    let data = match (&args.xml, &args.resources.semcor) {
        (Some(xml), _) => {
            let gold = args.gold.as_ref().expect("clap requires --gold");
            Dataset::from_xml(xml, gold)?
        }
        (None, Some(dir)) => Dataset::from_semcor(dir, args.split)
            .with_context(|| format!("reading SemCor at {}", dir.display()))?,
        (None, None) => {
            bail!("give a data set: --xml DATA.xml --gold GOLD.key, or --semcor DIR [--split test]")
        }
    };
    let method = spec.build(res)?;
    let pb = progress::bar(data.instances() as u64, "targets", cli.quiet);
    let (mwe, pipeline);
    let input = if args.raw {
        mwe = MweMatcher::new(inv);
        pipeline = Pipeline {
            inv,
            tagger: res.pos_tagger()?,
            mwe: Some(&mwe),
            targets: TargetSelection::Content,
        };
        Input::Raw(&pipeline)
    } else {
        Input::Gold
    };
    let ev = evaluate(method.as_ref(), inv, &data.docs, &data.gold, input, &|n| {
        pb.inc(n as u64)
    });
    pb.finish_and_clear();
    if let Some(out) = &args.output {
        write_key_file(out, ev.system.iter())?;
    }
    let mut out = std::io::stdout().lock();
    let per_second = ev.instances as f64 / ev.seconds.max(1e-9);
    match args.format {
        InfoFormat::Json => {
            let mut v = serde_json::to_value(&ev.report)?;
            v["method"] = serde_json::json!(ev.method);
            v["decided_by"] = serde_json::json!(ev.decided_by);
            v["seconds"] = serde_json::json!(ev.seconds);
            v["instances_per_second"] = serde_json::json!(per_second);
            if let Some(f) = ev.raw_found {
                v["raw_text_instances_found"] = serde_json::json!(f);
            }
            writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        }
        InfoFormat::Text => {
            writeln!(out, "method: {}", ev.method)?;
            let report = if args.per_pos {
                ev.report.clone()
            } else {
                wsd::eval::ScoreReport {
                    by_pos: Default::default(),
                    ..ev.report.clone()
                }
            };
            write!(out, "{}", render_text(&report))?;
            let parts: Vec<String> = ev
                .decided_by
                .iter()
                .map(|(m, n)| format!("{m} {n}"))
                .collect();
            writeln!(out, "decided by: {}", parts.join(", "))?;
            if let Some(f) = ev.raw_found {
                writeln!(
                    out,
                    "raw text: the pipeline found {f} of {} gold instances",
                    ev.instances
                )?;
            }
        }
    }
    if !cli.quiet {
        eprintln!(
            "wsd: {} instances in {:.2} s ({per_second:.0} instances/s)",
            ev.instances, ev.seconds
        );
    }
    Ok(ExitCode::SUCCESS)
}
