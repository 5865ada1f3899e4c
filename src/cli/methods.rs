//! The method registry: `--method` names (and chains such as `nb,mfs`) to
//! disambiguators, loading the models and data each one needs.

use std::path::PathBuf;

use anyhow::{bail, Context};

use wsd::corpus::{read_semcor, Split};
use wsd::disambig::{Chain, CorpusMfs, Disambiguator, FirstSense};
use wsd::wordnet::Inventory;

/// Every name `--method` accepts (chains join them with commas).
pub const METHODS: &[&str] = &["mfs", "mfs-semcor"];

/// Options shared by every command that runs a method.
#[derive(clap::Args, Debug, Clone)]
pub struct MethodArgs {
    /// Method or back-off chain: mfs, mfs-semcor, lesk, lesk-ext, nb, sim-path,
    /// sim-wup, knn, or e.g. nb,mfs.
    #[arg(long, short)]
    pub method: Option<String>,
    /// Model file(s) for trained methods (nb, knn); each file's header says
    /// which method it belongs to. Default: models/<method>.wsd.
    #[arg(long, value_name = "FILE")]
    pub model: Vec<PathBuf>,
    /// SemCor folder for mfs-semcor (counted on its train split).
    #[arg(long, value_name = "DIR", default_value = "corpora/semcor3.0")]
    pub semcor_counts: PathBuf,
}

#[allow(dead_code)] // used once trained methods are registered
/// Where a trained model of `method` is looked for when no --model names one.
pub fn default_model_path(method: &str) -> PathBuf {
    PathBuf::from("models").join(format!("{method}.wsd"))
}

#[allow(dead_code)] // used once trained methods are registered
/// The model file for `method`: a --model whose header names it, else the default path.
pub fn model_for(args: &MethodArgs, method: &str) -> anyhow::Result<PathBuf> {
    for p in &args.model {
        let h = wsd::model_io::read_header(p)
            .with_context(|| format!("reading model {}", p.display()))?;
        if h.method == method {
            return Ok(p.clone());
        }
    }
    if args.model.len() == 1 {
        // The one --model given: if it belongs to another method, loading
        // it says so.
        return Ok(args.model[0].clone());
    }
    let p = default_model_path(method);
    if p.exists() {
        return Ok(p);
    }
    bail!(
        "method {method} needs a model: pass --model FILE or train one with `wsd train --method {method} --out {}`",
        p.display()
    )
}

/// Build one method by name.
fn build_one(
    name: &str,
    _inv: &Inventory,
    args: &MethodArgs,
) -> anyhow::Result<Box<dyn Disambiguator>> {
    Ok(match name {
        "mfs" => Box::new(FirstSense),
        "mfs-semcor" => {
            let docs = read_semcor(&args.semcor_counts, Split::Train).with_context(|| {
                format!(
                    "reading SemCor at {} for mfs-semcor",
                    args.semcor_counts.display()
                )
            })?;
            Box::new(Chain::new(vec![
                Box::new(CorpusMfs::from_documents(&docs)),
                Box::new(FirstSense),
            ]))
        }
        other => bail!("unknown method {other:?}; known: {}", METHODS.join(", ")),
    })
}

/// Build the method or chain `spec` (`nb,mfs`).
pub fn build(
    spec: &str,
    inv: &Inventory,
    args: &MethodArgs,
) -> anyhow::Result<Box<dyn Disambiguator>> {
    let names: Vec<&str> = spec
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if names.is_empty() {
        bail!("empty --method");
    }
    let mut methods = Vec::new();
    for n in &names {
        methods.push(build_one(n, inv, args)?);
    }
    Ok(if methods.len() == 1 {
        methods.pop().expect("one method")
    } else {
        Box::new(Chain::new(methods))
    })
}
