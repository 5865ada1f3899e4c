//! `wsd compare`: several methods on one or more data sets, side by side,
//! as a report (`wsd::report`): a text summary or the report's JSON on
//! standard output, and the HTML page with `--report FILE.html`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};

use super::args::{FrameworkArg, MethodOptionArgs, ResourceArgs};
use super::{progress, Cli, InfoFormat};
use wsd::corpus::Split;
use wsd::disambig::MethodSpec;
use wsd::eval::{in_sample, Dataset};
use wsd::pipeline::{Pipeline, ProbeChoice};
use wsd::report::{dataset_name, run_study, write_report, Study};
use wsd::resources::{PosTraining, Resources};
use wsd::text::MweMatcher;

/// The data sets of a report: XML files and their keys, or a SemCor split.
#[derive(clap::Args, Debug, Clone)]
pub struct DataArgs {
    /// Evaluation-framework XML (`*.data.xml`); repeat for several data
    /// sets, each with its --gold, in the same order.
    #[arg(long, value_name = "DATA.xml")]
    pub xml: Vec<PathBuf>,
    /// Gold key file (`*.gold.key.txt`) of each --xml.
    #[arg(long, value_name = "GOLD.key")]
    pub gold: Vec<PathBuf>,
    /// Every data set of the evaluation framework.
    #[command(flatten)]
    pub framework: FrameworkArg,
    /// Without --xml: this split of SemCor (--semcor DIR).
    #[arg(long, default_value = "test")]
    pub split: Split,
    /// Feed the methods the data sets' plain text through the text
    /// pipeline (as `wsd eval --raw`), and report what the front end missed.
    #[arg(long)]
    pub raw: bool,
    /// With --raw: let the encoder overrule doubtful categories for every
    /// method (by default only for those that run it anyway, knn and ens,
    /// as `wsd eval --raw`).
    #[arg(long, requires = "raw")]
    pub pos_probe: bool,
    /// With --raw: never let the encoder overrule categories.
    #[arg(long, requires = "raw", conflicts_with = "pos_probe")]
    pub no_pos_probe: bool,
}

impl DataArgs {
    /// The XML data sets and their gold keys: the --xml/--gold pairs, or
    /// the sets found under --framework.
    fn xml_sets(&self) -> anyhow::Result<Vec<(PathBuf, PathBuf)>> {
        if let Some(sets) = self.framework.sets()? {
            return Ok(sets.into_iter().map(|s| (s.xml, s.gold)).collect());
        }
        if self.xml.len() != self.gold.len() {
            bail!(
                "give one --gold per --xml ({} --xml, {} --gold)",
                self.xml.len(),
                self.gold.len()
            );
        }
        Ok(self
            .xml
            .iter()
            .cloned()
            .zip(self.gold.iter().cloned())
            .collect())
    }

    /// Read the data sets, each with its name.
    pub fn read(&self, resources: &ResourceArgs) -> anyhow::Result<Vec<(String, Dataset)>> {
        let sets = self.xml_sets()?;
        if !sets.is_empty() {
            let mut out = Vec::new();
            for (xml, gold) in &sets {
                let mut name = dataset_name(xml);
                if out.iter().any(|(n, _): &(String, Dataset)| *n == name) {
                    name = format!("{name}-{}", out.len() + 1);
                }
                out.push((name, super::args::read_xml_dataset(xml, gold)?));
            }
            return Ok(out);
        }
        match &resources.semcor {
            Some(dir) => Ok(vec![(
                format!("semcor-{}", self.split),
                Dataset::from_semcor(dir, self.split)
                    .with_context(|| format!("reading SemCor at {}", dir.display()))?,
            )]),
            None => bail!(
                "give a data set: --xml DATA.xml --gold GOLD.key (repeatable), --framework DIR, or --semcor DIR [--split test]"
            ),
        }
    }

    /// Warn (on stderr, even with `--quiet`) for each model of `specs`
    /// trained on one of the data sets ([`in_sample`]).
    pub fn warn_in_sample(&self, res: &Resources, specs: &[MethodSpec]) -> anyhow::Result<()> {
        let sets = self.xml_sets()?;
        let scored: Vec<in_sample::Scored<'_>> = if sets.is_empty() {
            vec![in_sample::Scored::Semcor(self.split)]
        } else {
            sets.iter()
                .map(|(x, _)| in_sample::Scored::Xml(x))
                .collect()
        };
        for w in in_sample::warnings(res, specs, &scored) {
            eprintln!("wsd: warning: {w}");
        }
        Ok(())
    }
}

/// Run `specs` on the data sets (with `--raw` the text pipeline, each
/// method with the category probe `wsd eval --raw` would give it) with a
/// progress bar.
pub fn study(
    cli: &Cli,
    res: &'static Resources,
    specs: &[MethodSpec],
    data: &[(String, Dataset)],
    args: &DataArgs,
) -> anyhow::Result<Study> {
    let inv = res.inventory()?;
    let instances: usize = data.iter().map(|(_, d)| d.instances()).sum();
    let pb = progress::Progress::new((instances * specs.len()) as u64, "targets", cli.quiet);
    let (mwe, pipeline);
    let raw = if args.raw {
        mwe = MweMatcher::new(inv);
        pipeline = Pipeline::new(inv, res.pos_tagger()?, Some(&mwe));
        Some((
            &pipeline,
            ProbeChoice::from_flags(args.pos_probe, args.no_pos_probe),
        ))
    } else {
        None
    };
    let study = run_study(res, specs, data, raw, &|n| pb.inc(n as u64))?;
    pb.finish();
    Ok(study)
}

/// Arguments of `wsd compare`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A method or back-off chain to compare; repeat (`--method mfs
    /// --method lesk-ext --method nb,mfs`).
    #[arg(long = "method", short, value_name = "METHOD", required = true)]
    pub methods: Vec<String>,
    /// Options of the methods.
    #[command(flatten)]
    pub options: MethodOptionArgs,
    /// Data and models.
    #[command(flatten)]
    pub resources: ResourceArgs,
    /// The data sets.
    #[command(flatten)]
    pub data: DataArgs,
    /// Write the report as a self-contained HTML page (or as JSON, for a
    /// `.json` file).
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// Title of the report [default: the methods and data sets].
    #[arg(long)]
    pub title: Option<String>,
    /// Standard output: a text summary, or the report's JSON (every number
    /// of the HTML page).
    #[arg(long, value_enum, default_value = "text")]
    pub format: InfoFormat,
}

/// The default title of a report.
pub fn title(specs: &[String], names: &[&str], raw: bool) -> String {
    format!(
        "{} on {}{}",
        specs.join(" · "),
        names.join(", "),
        if raw { " (raw text)" } else { "" }
    )
}

/// Run `wsd compare`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let specs: Vec<MethodSpec> = args
        .methods
        .iter()
        .map(|m| {
            Ok(m.parse::<MethodSpec>()?
                .with_options(args.options.options()))
        })
        .collect::<anyhow::Result<_>>()?;
    let res = args
        .resources
        .resources(cli, PosTraining::when_raw(args.data.raw));
    let inv = res.inventory()?;
    let data = args.data.read(&args.resources)?;
    let t = Instant::now();
    args.data.warn_in_sample(res, &specs)?;
    let study = study(cli, res, &specs, &data, &args.data)?;
    let title = args.title.clone().unwrap_or_else(|| {
        let names: Vec<&str> = data.iter().map(|(n, _)| n.as_str()).collect();
        title(&args.methods, &names, args.data.raw)
    });
    let report = study.report(inv, &title);
    if let Some(path) = &args.report {
        write_report(path, &report)?;
    }
    let mut out = std::io::stdout().lock();
    match args.format {
        InfoFormat::Json => super::write_json(&mut out, &report)?,
        InfoFormat::Text => write!(out, "{}", wsd::report::text::render_text(&report))?,
    }
    if !cli.quiet {
        eprintln!(
            "wsd: {} methods on {} instances in {:.2} s (report {:.3} s)",
            specs.len(),
            report.instances,
            t.elapsed().as_secs_f64(),
            report.analysis_seconds
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `wsd eval --report/--errors`: the report of one method's evaluations
/// already run on `sets` (one per set), written where asked.
pub fn eval_report(
    inv: &wsd::wordnet::Inventory,
    sets: &[(String, &Dataset)],
    evs: &[wsd::eval::Evaluation],
    pipeline: Option<&Pipeline<'_>>,
    report: Option<&std::path::Path>,
    errors: Option<&std::path::Path>,
) -> anyhow::Result<wsd::report::Report> {
    let front_end: Option<Vec<_>> = pipeline.map(|_| {
        evs.iter()
            .map(|ev| wsd::report::frontend::by_instance(&ev.raw_alignment))
            .collect()
    });
    let mut study = Study::new(inv, sets, front_end.as_deref());
    study.add(evs.to_vec());
    let names: Vec<&str> = sets.iter().map(|(n, _)| n.as_str()).collect();
    let method = evs.first().map(|e| e.method.clone()).unwrap_or_default();
    let r = study.report(
        inv,
        &title(std::slice::from_ref(&method), &names, pipeline.is_some()),
    );
    if let Some(path) = report {
        write_report(path, &r)?;
    }
    if let Some(path) = errors {
        wsd::atomic::write_atomically(path, |w| {
            wsd::report::errors::write_tsv(w, inv, &study.instances, &study.runs[0])?;
            Ok(())
        })?;
    }
    Ok(r)
}
