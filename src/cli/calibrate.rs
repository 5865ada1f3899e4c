//! `wsd calibrate`: fit the probability calibration of `wsd tag --top` on
//! SemCor's train split and write the table (see
//! `wsd::disambig::calibration`). The committed table,
//! `src/disambig/calibration.tsv`, is this command's output.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};

use super::args::ResourceArgs;
use super::Cli;
use wsd::corpus::{read_semcor, Split};
use wsd::disambig::calibration::{default_methods, fit_samples, Sample};
use wsd::disambig::Calibration;
use wsd::resources::PosTraining;

/// Arguments of `wsd calibrate`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  wsd calibrate --semcor corpora/semcor3.0 --output src/disambig/calibration.tsv\n  wsd calibrate --method lesk,lesk-ext"
)]
pub struct Args {
    /// Methods to fit, comma-separated (default: every registered method
    /// but knn).
    #[arg(long, value_delimiter = ',')]
    pub method: Vec<String>,
    /// Data (--semcor DIR, --ic FILE for sim-res/jcn/lin).
    #[command(flatten)]
    pub resources: ResourceArgs,
    /// The SemCor split to fit on: train (the test split stays held out;
    /// `all` is allowed for a model meant for other data).
    #[arg(long, default_value = "train")]
    pub split: Split,
    /// Folds for cross-fitting nb (a model trained on the other folds
    /// answers each fold).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u16).range(2..=20))]
    pub folds: u16,
    /// Write the table to FILE (atomically) instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Run `wsd calibrate`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    if args.split == Split::Test {
        bail!("--split test would calibrate on the held-out test split; use --split train");
    }
    if let Some(out) = &args.output {
        args.resources.check_output(out, std::iter::empty())?;
    }
    let res = args.resources.resources(cli, PosTraining::Never);
    let methods: Vec<String> = if args.method.is_empty() {
        default_methods().into_iter().map(String::from).collect()
    } else {
        args.method.clone()
    };
    let dir = res.paths().semcor();
    let docs = read_semcor(&dir, args.split)
        .with_context(|| format!("reading SemCor at {}", dir.display()))?;
    let mut all: Vec<Sample> = Vec::new();
    for m in &methods {
        let t = Instant::now();
        let s = fit_samples(res, m, &docs, args.folds as usize)
            .with_context(|| format!("calibrating {m}"))?;
        crate::note!(
            cli,
            "{m}: {} answers in {:.1} s",
            s.len(),
            t.elapsed().as_secs_f64()
        );
        all.extend(s);
    }
    let table = Calibration::fit(&all);
    let header = header(
        &methods,
        args.method.is_empty(),
        args.split,
        docs.len(),
        args.folds,
    );
    let text = table.to_tsv(&header);
    match &args.output {
        Some(path) => wsd::atomic::write_atomically(path, |w| w.write_all(text.as_bytes()))?,
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The comment block of the table: which methods were calibrated (all the
/// default ones, or those `--method` named), on what, the cross-fitting
/// only when a cross-fitted method (nb, mfs-semcor) is among them, and the
/// command that regenerates it.
fn header(methods: &[String], default: bool, split: Split, docs: usize, folds: u16) -> String {
    let crossed: Vec<&str> = methods
        .iter()
        .map(String::as_str)
        .filter(|m| matches!(*m, "nb" | "mfs-semcor"))
        .collect();
    let cross = if crossed.is_empty() {
        String::new()
    } else {
        format!(
            "; {} cross-fitted over {folds} folds by document",
            crossed.join(" and ")
        )
    };
    let (which, regenerate) = if default {
        (
            format!("the default methods: {}", methods.join(", ")),
            String::new(),
        )
    } else {
        let given = methods.join(",");
        (format!("--method {given}"), format!(" --method {given}"))
    };
    let output = if default {
        "src/disambig/calibration.tsv"
    } else {
        "FILE"
    };
    format!(
        "wsd calibration table (wsd {}): isotonic regression of \"the chosen sense is a gold key\" on the\n\
         normalised probability of the chosen sense, per method and decision, on SemCor's {split} split\n\
         ({which}; {docs} documents{cross}). Regenerate with:\n\
         wsd calibrate{regenerate} --semcor DIR --output {output}",
        env!("CARGO_PKG_VERSION"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_names_the_methods_calibrated() {
        let h = header(&["mfs".to_string()], false, Split::Train, 282, 5);
        assert!(h.contains("(--method mfs; 282 documents)"), "{h}");
        assert!(!h.contains("nb"), "{h}");
        assert!(
            h.contains("wsd calibrate --method mfs --semcor DIR --output FILE"),
            "{h}"
        );
        let all: Vec<String> = ["lesk", "nb", "mfs"].map(String::from).into();
        let h = header(&all, true, Split::Train, 282, 5);
        assert!(
            h.contains("nb cross-fitted over 5 folds by document"),
            "{h}"
        );
        assert!(
            h.contains("wsd calibrate --semcor DIR --output src/disambig/calibration.tsv"),
            "{h}"
        );
    }
}
