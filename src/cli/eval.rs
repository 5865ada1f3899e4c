//! `wsd eval`: run a method on an annotated data set and score it, with the
//! evaluation framework's arithmetic (see `wsd::eval`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};

use super::args::{parse_share, FrameworkArg, MethodArgs, ResourceArgs};
use super::{progress, Cli, InfoFormat};
use wsd::corpus::{write_key_file, KeyFile, Split};
use wsd::disambig::calibration::{reliability, render_reliability};
use wsd::disambig::Calibration;
use wsd::eval::framework::{self, FrameworkSet};
use wsd::eval::{
    evaluate, in_sample, render_rows, render_text, Dataset, Evaluation, Input, Score, ScoreReport,
};
use wsd::pipeline::{Pipeline, PosProbe, ProbeChoice, RawAlignment, RawOutcome};
use wsd::report::dataset_name;
use wsd::resources::PosTraining;
use wsd::text::{MweMatcher, MweMode};

/// Arguments of `wsd eval`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  wsd eval --method lesk-ext --xml corpora/wsd-eval/semeval2007/semeval2007.data.xml --gold corpora/wsd-eval/semeval2007/semeval2007.gold.key.txt\n  wsd eval --method nb,lesk-ext --semcor corpora/semcor3.0 --split test --per-pos\n  wsd eval --method mfs --raw --xml DATA.xml --gold GOLD.key --format json\n  wsd eval --method lesk-ext --semcor corpora/semcor3.0 --split test --top 3 --calibration"
)]
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
    /// Every data set of the evaluation framework.
    #[command(flatten)]
    pub framework: FrameworkArg,
    /// Without --xml: evaluate on this split of SemCor (--semcor DIR).
    #[arg(long, default_value = "test", conflicts_with_all = ["xml", "framework"])]
    pub split: Split,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: InfoFormat,
    /// Also print the score per part of speech (text format; JSON always has it).
    #[arg(long)]
    pub per_pos: bool,
    /// Write the system's answers as a key file.
    #[arg(long, short, value_name = "SYSTEM.key")]
    pub output: Option<PathBuf>,
    /// Ignore the data set's tokens, lemmas and POS: rebuild its plain text,
    /// run the text pipeline (`wsd tag`'s), and align its targets back to the
    /// gold instances by character span — what automatic preprocessing costs.
    #[arg(long)]
    pub raw: bool,
    /// With --raw: write every gold instance the front end did not match
    /// (missed target, wrong POS, wrong lemma, multiword) as TSV: id,
    /// outcome, gold text/lemma/POS, pipeline text/lemma/POS, target.
    #[arg(long, value_name = "FILE", requires = "raw")]
    pub frontend_errors: Option<PathBuf>,
    /// How --raw joins multiword expressions: learned (the default), greedy
    /// or none (see `wsd tag --mwe`).
    #[arg(long, value_name = "MODE", default_value = "learned", requires = "raw")]
    pub mwe: MweMode,
    /// Same as --mwe none.
    #[arg(long, requires = "raw", conflicts_with = "mwe")]
    pub no_mwe: bool,
    /// With --raw: weigh a second part of speech: a target whose second most likely
    /// WordNet category has at least probability P under the tagger
    /// (0–1) is disambiguated as both, and the reading whose answer has
    /// the larger category probability × calibrated sense probability
    /// wins (lemma, POS and sense). Off by default.
    #[arg(long, value_name = "P", value_parser = parse_share)]
    pub pos_alternatives: Option<f32>,
    /// With --raw: keep the tagger's part of speech for every word: no
    /// instance-level revision of the category of targets WordNet has in
    /// several categories (that revision is on by default: a model learned on SemCor's
    /// train split of which category a word's context favours).
    #[arg(long, requires = "raw")]
    pub no_pos_categories: bool,
    /// With --raw: let the encoder overrule the category of a target WordNet has in
    /// several categories when its vector of the word says the chosen
    /// category is unlikely (a probe fitted on SemCor's train split). On by default when the method runs the encoder
    /// anyway (knn, ens: the front end then hands them its vectors, so
    /// each sentence is encoded once); this flag turns it on for the other
    /// methods too, at the encoder's speed (mfs tags ~15 times slower).
    #[arg(long, requires = "raw")]
    pub pos_probe: bool,
    /// With --raw: never let the encoder overrule categories, not even with knn or ens,
    /// which run it by default (see --pos-probe).
    #[arg(long, requires = "raw", conflicts_with = "pos_probe")]
    pub no_pos_probe: bool,
    /// With --raw: no secondary targets for the words of joined
    /// multiwords (see `wsd tag --no-heads`).
    #[arg(long, requires = "raw")]
    pub no_heads: bool,
    /// Also write the evaluation report (`wsd compare`'s): a self-contained
    /// HTML page, or its JSON for a `.json` file; `--format json` then
    /// carries it too, under `report`.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// Also write the wrong and missing answers as TSV (`wsd errors`).
    #[arg(long, value_name = "FILE.tsv")]
    pub errors: Option<PathBuf>,
    /// Also give top-K accuracy for K = 1…K: how often a gold sense is
    /// among the K most probable (percent of gold instances; K = 1 is the
    /// recall).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u16).range(1..=100))]
    pub top: Option<u16>,
    /// Also print the calibration table: the chosen sense's calibrated
    /// probability in ten bins against the observed accuracy (JSON:
    /// `calibration`).
    #[arg(long)]
    pub calibration: bool,
}

/// Run `wsd eval`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let Some(spec) = args.method.spec()? else {
        bail!("wsd eval needs --method (e.g. --method mfs)");
    };
    super::args::warn_unread(&spec, &args.resources);
    let found = args.framework.sets()?;
    wsd::atomic::refuse_same_outputs(
        [
            ("--output", &args.output),
            ("--errors", &args.errors),
            ("--report", &args.report),
            ("--frontend-errors", &args.frontend_errors),
        ]
        .into_iter()
        .filter_map(|(flag, p)| p.as_deref().map(|p| (flag, p))),
    )?;
    if let Some(out) = &args.output {
        let inputs: Vec<&PathBuf> = match &found {
            Some(sets) => sets.iter().flat_map(|s| [&s.xml, &s.gold]).collect(),
            None => args.xml.iter().chain(&args.gold).collect(),
        };
        args.resources.check_output(out, inputs)?;
    }
    let res = args.resources.resources(cli, PosTraining::IfMissing);
    let inv = res.inventory()?;
    let sets = read_sets(args, found)?;
    let method = spec.build(res)?;
    let scored: Vec<in_sample::Scored<'_>> = sets
        .iter()
        .map(|s| match &s.xml {
            Some(xml) => in_sample::Scored::Xml(xml),
            None => in_sample::Scored::Semcor(args.split),
        })
        .collect();
    for w in in_sample::warnings(res, std::slice::from_ref(&spec), &scored) {
        eprintln!("wsd: warning: {w}");
    }
    let instances: usize = sets.iter().map(|s| s.data.instances()).sum();
    let pb = progress::Progress::new(instances as u64, "targets", cli.quiet);
    let (mwe, pipeline);
    let input = if args.raw {
        let mode = if args.no_mwe { MweMode::None } else { args.mwe };
        mwe = (mode != MweMode::None).then(|| MweMatcher::with_mode(inv, mode));
        pipeline = Pipeline {
            heads: !args.no_heads,
            pos_alternatives: args.pos_alternatives,
            pos_categories: (!args.no_pos_categories)
                .then(wsd::pos::category::CategoryModel::shipped),
            pos_probe: PosProbe::for_method(
                res,
                &spec,
                method.as_ref(),
                ProbeChoice::from_flags(args.pos_probe, args.no_pos_probe),
            )?,
            ..Pipeline::new(inv, res.pos_tagger()?, mwe.as_ref())
        };
        Input::Raw(&pipeline)
    } else {
        Input::Gold
    };
    let parts: Vec<Evaluation> = sets
        .iter()
        .map(|s| {
            evaluate(
                method.as_ref(),
                inv,
                &s.data.docs,
                &s.data.gold,
                input,
                &|n| pb.inc(n as u64),
            )
        })
        .collect();
    pb.finish();
    let report = match (&args.report, &args.errors) {
        (None, None) => None,
        (report, errors) => Some(super::compare::eval_report(
            inv,
            &sets
                .iter()
                .map(|s| (s.name.clone(), &s.data))
                .collect::<Vec<_>>(),
            &parts,
            match input {
                Input::Raw(p) => Some(p),
                Input::Gold => None,
            },
            report.as_deref(),
            errors.as_deref(),
        )?),
    };
    let rows = set_rows(&sets, &parts, args.framework.given());
    let ev = Evaluation::concatenate(parts);
    let merged_gold;
    let gold = match sets.as_slice() {
        [one] => &one.data.gold,
        _ => {
            merged_gold = concatenated_gold(&sets);
            &merged_gold
        }
    };
    if let Some(out) = &args.output {
        write_key_file(out, ev.system.iter())?;
    }
    if let Some(path) = &args.frontend_errors {
        write_raw_errors(path, &ev.raw_alignment)?;
    }
    // the built-in table, plus the maps a trained model fitted itself (knn)
    let calibration = match method.calibration() {
        Some(own) => Calibration::builtin().merged(&own),
        None => Calibration::builtin().clone(),
    };
    let reliability = (args.top.is_some() || args.calibration).then(|| {
        reliability(
            &ev.answers,
            gold,
            &calibration,
            10,
            args.top.map_or(1, usize::from),
        )
    });
    let mut out = std::io::stdout().lock();
    let per_second = ev.instances as f64 / ev.seconds.max(1e-9);
    match args.format {
        InfoFormat::Json => {
            let mut v = serde_json::to_value(&ev.report)?;
            v["method"] = serde_json::json!(ev.method);
            v["decided_by"] = serde_json::json!(ev.decided_by);
            v["seconds"] = serde_json::json!(ev.seconds);
            v["instances_per_second"] = serde_json::json!(per_second);
            if let Some(rows) = &rows {
                v["datasets"] = serde_json::json!(rows
                    .iter()
                    .map(|(name, score)| {
                        let mut row = serde_json::to_value(score)?;
                        row["name"] = serde_json::json!(name);
                        Ok(row)
                    })
                    .collect::<anyhow::Result<Vec<_>>>()?);
            }
            if let Some(f) = ev.raw_found {
                v["raw_text_instances_found"] = serde_json::json!(f);
            }
            if let Some(b) = &ev.raw_breakdown {
                v["raw_breakdown"] = serde_json::to_value(b)?;
                v["raw_breakdown"]["join_precision"] = b.join_precision().into();
                v["raw_breakdown"]["join_recall"] = b.join_recall().into();
            }
            if let Some(r) = &report {
                v["report"] = serde_json::to_value(r)?;
            }
            if let Some(r) = &reliability {
                if args.top.is_some() {
                    v["top_k"] = serde_json::json!(r
                        .top_k
                        .iter()
                        .map(|(k, a)| serde_json::json!({"k": k, "accuracy": a}))
                        .collect::<Vec<_>>());
                }
                if args.calibration {
                    v["calibration"] = serde_json::to_value(r)?;
                }
            }
            writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        }
        InfoFormat::Text => {
            writeln!(out, "method: {}", ev.method)?;
            if let Some(rows) = &rows {
                write!(out, "{}", render_rows(rows))?;
                if rows.iter().any(|(n, _)| n == framework::ALL_BUT_DEV) {
                    writeln!(
                        out,
                        "({}: all but {}, the development set)",
                        framework::ALL_BUT_DEV,
                        framework::DEV_SET
                    )?;
                }
            }
            if rows.is_none() || args.per_pos {
                let report = if args.per_pos {
                    ev.report.clone()
                } else {
                    wsd::eval::ScoreReport {
                        by_pos: Default::default(),
                        ..ev.report.clone()
                    }
                };
                if rows.is_some() {
                    writeln!(out, "ALL by part of speech:")?;
                }
                write!(out, "{}", render_text(&report))?;
            }
            let parts: Vec<String> = ev
                .decided_by
                .iter()
                .map(|(m, n)| format!("{m} {n}"))
                .collect();
            writeln!(out, "decided by: {}", parts.join(", "))?;
            if let Some(r) = &reliability {
                if args.top.is_some() {
                    let parts: Vec<String> = r
                        .top_k
                        .iter()
                        .map(|(k, a)| format!("top-{k} {a:.1}"))
                        .collect();
                    writeln!(
                        out,
                        "gold sense among the K most probable (% of instances): {}",
                        parts.join(", ")
                    )?;
                }
                if args.calibration {
                    write!(out, "{}", render_reliability(r))?;
                }
            }
            if let Some(f) = ev.raw_found {
                writeln!(
                    out,
                    "raw text: the pipeline found {f} of {} gold instances",
                    ev.instances
                )?;
            }
            if let Some(b) = &ev.raw_breakdown {
                let pct = |n: usize| 100.0 * n as f64 / b.instances.max(1) as f64;
                writeln!(out, "front end (gold instances):")?;
                for o in RawOutcome::ALL {
                    let n = b.get(o);
                    writeln!(out, "  {:<14} {n:>7}  {:>5.1}%", o.name(), pct(n))?;
                }
                writeln!(
                    out,
                    "  {:<14} {:>7}  (pipeline targets on no gold instance)",
                    "extra_targets", b.extra_targets
                )?;
                writeln!(
                    out,
                    "  multiword joins: precision {:.1}% ({} of {} joins on gold instances), \
                     recall {:.1}% (of {} gold multiwords)",
                    100.0 * b.join_precision(),
                    b.joins_matched,
                    b.pipeline_joins,
                    100.0 * b.join_recall(),
                    b.gold_joins
                )?;
            }
        }
    }
    if !cli.quiet {
        // SemCor's tags the reader dropped are no instances: say how many
        let mut semcor: Option<wsd::corpus::PartStats> = None;
        for s in sets.iter().filter_map(|s| s.data.semcor.as_ref()) {
            semcor.get_or_insert_with(Default::default).add(s);
        }
        let skipped = semcor
            .and_then(|s| s.skipped_note(0))
            .map(|n| format!("; {n}"))
            .unwrap_or_default();
        eprintln!(
            "wsd: {} instances in {:.2} s ({per_second:.0} instances/s){skipped}",
            ev.instances, ev.seconds
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The front-end mismatches of a --raw run as TSV (csv quoting).
fn write_raw_errors(path: &std::path::Path, rows: &[RawAlignment]) -> anyhow::Result<()> {
    let pos = |p: Option<wsd::wordnet::Pos>| p.map(|p| p.to_string()).unwrap_or_default();
    wsd::atomic::write_atomically(path, |w| {
        let mut out = csv::WriterBuilder::new().delimiter(b'\t').from_writer(w);
        out.write_record([
            "id",
            "outcome",
            "gold_text",
            "gold_lemma",
            "gold_pos",
            "pipeline_text",
            "pipeline_lemma",
            "pipeline_pos",
            "pipeline_target",
        ])?;
        for r in rows.iter().filter(|r| r.outcome != RawOutcome::Matched) {
            out.write_record([
                r.instance.as_str(),
                r.outcome.name(),
                &r.gold_text,
                &r.gold_lemma,
                &pos(r.gold_pos),
                r.pipeline_text.as_deref().unwrap_or(""),
                r.pipeline_lemma.as_deref().unwrap_or(""),
                &pos(r.pipeline_pos),
                if r.pipeline_target { "yes" } else { "no" },
            ])?;
        }
        out.flush()
    })?;
    Ok(())
}

/// A data set `wsd eval` scores.
struct EvalSet {
    /// Its name in the tables.
    name: String,
    /// Its XML file (none for SemCor), for the in-sample check.
    xml: Option<PathBuf>,
    /// The documents and gold keys.
    data: Dataset,
}

/// The data sets of the command line: --xml, the sets --framework found,
/// or a SemCor split. Several sets get their ids prefixed with their names
/// ([`Dataset::prefix_ids`]), since their answers and keys are also taken
/// together (`--output`, `--top`, `--report`).
fn read_sets(args: &Args, found: Option<Vec<FrameworkSet>>) -> anyhow::Result<Vec<EvalSet>> {
    let mut sets = match (found, &args.xml, &args.resources.semcor) {
        (Some(found), _, _) => found
            .into_iter()
            .map(|s| {
                Ok(EvalSet {
                    data: super::args::read_xml_dataset(&s.xml, &s.gold)?,
                    name: s.name,
                    xml: Some(s.xml),
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?,
        (None, Some(xml), _) => {
            let gold = args.gold.as_ref().expect("clap requires --gold");
            vec![EvalSet {
                name: dataset_name(xml),
                data: super::args::read_xml_dataset(xml, gold)?,
                xml: Some(xml.clone()),
            }]
        }
        (None, None, Some(dir)) => vec![EvalSet {
            name: format!("semcor-{}", args.split),
            data: Dataset::from_semcor(dir, args.split)
                .with_context(|| format!("reading SemCor at {}", dir.display()))?,
            xml: None,
        }],
        (None, None, None) => bail!(
            "give a data set: --xml DATA.xml --gold GOLD.key, --framework DIR, or --semcor DIR [--split test]"
        ),
    };
    if sets.len() > 1 {
        for s in &mut sets {
            s.data.prefix_ids(&s.name);
        }
    }
    Ok(sets)
}

/// With --framework or several data sets: the standard table's rows
/// ([`framework::table_rows`]).
fn set_rows(
    sets: &[EvalSet],
    parts: &[Evaluation],
    framework: bool,
) -> Option<Vec<(String, Score)>> {
    if sets.len() < 2 && !framework {
        return None;
    }
    let named: Vec<(&str, &ScoreReport)> = sets
        .iter()
        .zip(parts)
        .map(|(s, p)| (s.name.as_str(), &p.report))
        .collect();
    Some(framework::table_rows(&named))
}

/// The gold keys of all sets in one key file (their ids are distinct).
fn concatenated_gold(sets: &[EvalSet]) -> KeyFile {
    let mut gold = KeyFile::new();
    for s in sets {
        for (id, keys) in s.data.gold.iter() {
            gold.insert(id, keys.to_vec());
        }
    }
    gold
}
