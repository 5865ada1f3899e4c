//! `wsd eval`: run a method on an annotated data set and score it, with the
//! evaluation framework's arithmetic (see `wsd::eval`).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};

use super::methods::{self, MethodArgs};
use super::{progress, Cli, InfoFormat};
use wsd::corpus::{
    attach_gold, instance_pos, read_key_file, read_semcor, read_xml, write_key_file, KeyFile, Split,
};
use wsd::disambig::{run_documents, Prediction};
use wsd::eval::{render_text, score};
use wsd::pipeline::{rebuild_text, Pipeline, TargetSelection};
use wsd::text::{MweMatcher, MweMode};
use wsd::wordnet::Inventory;

/// Arguments of `wsd eval`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The method and its models.
    #[command(flatten)]
    pub method: MethodArgs,
    /// Evaluation-framework XML (`*.data.xml`); needs --gold.
    #[arg(
        long,
        value_name = "DATA.xml",
        requires = "gold",
        conflicts_with = "semcor"
    )]
    pub xml: Option<PathBuf>,
    /// Gold key file (`*.gold.key.txt`) for --xml.
    #[arg(long, value_name = "GOLD.key")]
    pub gold: Option<PathBuf>,
    /// SemCor folder to evaluate on (with --split).
    #[arg(long, value_name = "DIR")]
    pub semcor: Option<PathBuf>,
    /// SemCor split: test (the default for evaluation), train or all.
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
    /// How --raw joins multiword expressions: learned (the default), greedy
    /// or none (see `wsd tag --mwe`).
    #[arg(long, value_name = "MODE", default_value = "learned")]
    pub mwe: MweMode,
    /// Same as --mwe none.
    #[arg(long)]
    pub no_mwe: bool,
    /// POS tagger model for --raw.
    #[arg(long, value_name = "FILE", default_value = "models/pos.wsd")]
    pub pos_model: PathBuf,
}

/// Run `wsd eval`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let Some(spec) = args.method.method.as_deref() else {
        bail!("wsd eval needs --method (e.g. --method mfs)");
    };
    let inv = Inventory::open(cli.wordnet.as_deref())?;
    let (docs, gold) = match (&args.xml, &args.semcor) {
        (Some(xml), None) => {
            let gold_path = args.gold.as_ref().expect("clap requires --gold");
            let mut docs = read_xml(xml)?;
            let gold = read_key_file(gold_path)?;
            attach_gold(&mut docs, &gold);
            (docs, gold)
        }
        (None, Some(dir)) => {
            let docs = read_semcor(dir, args.split)
                .with_context(|| format!("reading SemCor at {}", dir.display()))?;
            let gold = KeyFile::from_documents(&docs);
            (docs, gold)
        }
        _ => {
            bail!("give a data set: --xml DATA.xml --gold GOLD.key, or --semcor DIR [--split test]")
        }
    };
    let method = methods::build(spec, &inv, &args.method)?;
    let total: usize = docs.iter().map(|d| d.target_count()).sum();
    let pb = progress::bar(total as u64, "targets", cli.quiet);
    let t = Instant::now();
    let mut system = KeyFile::new();
    let mut decided: BTreeMap<String, usize> = BTreeMap::new();
    let mut raw_found = None;
    if args.raw {
        let tagger = super::train::pos_tagger(cli, &args.pos_model, &args.method.semcor_counts)?;
        let mode = if args.no_mwe { MweMode::None } else { args.mwe };
        let mwe = (mode != MweMode::None).then(|| MweMatcher::with_mode(&inv, mode));
        let pipeline = Pipeline {
            inv: &inv,
            tagger: &tagger,
            mwe: mwe.as_ref(),
            targets: TargetSelection::Content,
        };
        let mut found = 0;
        for doc in &docs {
            let (text, spans) = rebuild_text(doc);
            let analysed = pipeline.analyse(&doc.id, &text, 0, 0);
            let targets = analysed.targets();
            let preds = method.disambiguate_document(&inv, &analysed, &targets);
            let answers: Vec<((usize, usize), &Prediction)> = targets
                .iter()
                .zip(&preds)
                .filter_map(|(t, p)| Some((analysed.token(t).span?, p.as_ref()?)))
                .collect();
            for (s, sent) in doc.sentences.iter().enumerate() {
                for (i, tok) in sent.tokens.iter().enumerate() {
                    let Some(id) = &tok.instance else { continue };
                    let (gs, ge) = spans[s][i];
                    // The pipeline target overlapping the gold token; one that
                    // starts where it starts wins.
                    let hit = answers
                        .iter()
                        .filter(|((ps, pe), _)| *ps < ge && gs < *pe)
                        .min_by_key(|((ps, _), _)| ps.abs_diff(gs));
                    if let Some((_, p)) = hit {
                        found += 1;
                        system.insert(id.clone(), vec![p.key.clone()]);
                        *decided.entry(p.method.clone()).or_default() += 1;
                    }
                }
            }
            pb.inc(doc.target_count() as u64);
        }
        raw_found = Some(found);
    } else {
        let results = run_documents(method.as_ref(), &inv, &docs, &|n| pb.inc(n as u64));
        for (target, pred) in results.iter().flatten() {
            if let Some(p) = pred {
                system.insert(target.id.clone(), vec![p.key.clone()]);
                *decided.entry(p.method.clone()).or_default() += 1;
            }
        }
    }
    let secs = t.elapsed().as_secs_f64();
    pb.finish_and_clear();
    let pos_of = instance_pos(&docs);
    let report = score(&gold, &system, Some(&pos_of), &|k| inv.has_key(k));
    if let Some(out) = &args.output {
        write_key_file(out, system.iter())?;
    }
    let mut out = std::io::stdout().lock();
    match args.format {
        InfoFormat::Json => {
            let mut v = serde_json::to_value(&report)?;
            v["method"] = serde_json::json!(method.name());
            v["decided_by"] = serde_json::json!(decided);
            v["seconds"] = serde_json::json!(secs);
            v["instances_per_second"] = serde_json::json!(total as f64 / secs.max(1e-9));
            if let Some(f) = raw_found {
                v["raw_text_instances_found"] = serde_json::json!(f);
            }
            writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        }
        InfoFormat::Text => {
            writeln!(out, "method: {}", method.name())?;
            let text = render_text(&report);
            if args.per_pos {
                write!(out, "{text}")?;
            } else {
                // The overall lines only (the table's per-POS rows start with a POS letter).
                let per_pos_row = |l: &str| {
                    ["noun", "verb", "adj", "adv"]
                        .iter()
                        .any(|p| l.starts_with(p))
                };
                for line in text.lines().filter(|l| !per_pos_row(l)) {
                    writeln!(out, "{line}")?;
                }
            }
            let parts: Vec<String> = decided.iter().map(|(m, n)| format!("{m} {n}")).collect();
            writeln!(out, "decided by: {}", parts.join(", "))?;
            if let Some(f) = raw_found {
                writeln!(
                    out,
                    "raw text: the pipeline found {f} of {total} gold instances"
                )?;
            }
        }
    }
    eprintln!(
        "wsd: {} instances in {:.2} s ({:.0} instances/s)",
        total,
        secs,
        total as f64 / secs.max(1e-9)
    );
    std::mem::forget(inv);
    Ok(ExitCode::SUCCESS)
}
