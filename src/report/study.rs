//! Running several methods on several data sets for one report: what
//! `wsd compare`, `wsd errors` and `wsd eval --report` share.

use std::collections::HashMap;
use std::path::Path;

use super::analysis::{analyse, Instances, MethodRun};
use super::frontend::{by_instance, Aligned};
use super::Report;
use crate::disambig::MethodSpec;
use crate::eval::{evaluate, Dataset, Evaluation, Input};
use crate::pipeline::{Pipeline, PosProbe, ProbeChoice};
use crate::resources::Resources;
use crate::wordnet::Inventory;
use crate::Result;

/// The name of a data set from its XML file: `semeval2007` for
/// `…/semeval2007.data.xml`.
pub fn dataset_name(xml: &Path) -> String {
    let file = xml
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = file
        .strip_suffix(".data.xml")
        .or_else(|| file.strip_suffix(".xml"))
        .unwrap_or(&file);
    stem.to_string()
}

/// The gold instances of some data sets and the answers of some methods.
#[derive(Default)]
pub struct Study {
    /// The gold instances.
    pub instances: Instances,
    /// One per method, in order.
    pub runs: Vec<MethodRun>,
    /// The evaluations of each method, one per data set.
    pub evaluations: Vec<Vec<Evaluation>>,
}

impl Study {
    /// The instances of `datasets` (name, data); with the raw input, the
    /// front-end class of every instance of each data set (same order).
    pub fn new(
        inv: &Inventory,
        datasets: &[(String, &Dataset)],
        front_ends: Option<&[HashMap<String, Aligned>]>,
    ) -> Study {
        let mut instances = Instances::default();
        for (i, (name, data)) in datasets.iter().enumerate() {
            instances.add_dataset(inv, name, data, front_ends.map(|f| &f[i]));
        }
        Study {
            instances,
            ..Study::default()
        }
    }

    /// Add a method's evaluations, one per data set in order.
    pub fn add(&mut self, evaluations: Vec<Evaluation>) {
        let per: Vec<(usize, &[(String, crate::disambig::Prediction)])> = evaluations
            .iter()
            .enumerate()
            .map(|(d, ev)| (d, ev.answers.as_slice()))
            .collect();
        let run = MethodRun {
            name: evaluations
                .first()
                .map(|e| e.method.clone())
                .unwrap_or_default(),
            seconds: evaluations.iter().map(|e| e.seconds).sum(),
            answers: self.instances.answers(&per),
        };
        self.runs.push(run);
        self.evaluations.push(evaluations);
    }

    /// The report.
    pub fn report(&self, inv: &Inventory, title: &str) -> Report {
        analyse(inv, title, &self.instances, &self.runs)
    }
}

/// Run every method of `specs` on every data set (the data sets' tokens,
/// or with `raw` their plain text through the pipeline, each method with
/// the category probe `raw`'s choice gives it: [`PosProbe::for_method`],
/// as `wsd eval --raw` reads) and collect the answers. `progress` gets the
/// instances of each finished document.
///
/// The report's front-end table is the first method's: the probe runs
/// for methods that read the encoder, so a chain with `knn` or `ens` can
/// find a few categories another method's pipeline does not.
pub fn run_study<'a>(
    res: &'a Resources,
    specs: &[MethodSpec],
    datasets: &[(String, Dataset)],
    raw: Option<(&Pipeline<'a>, ProbeChoice)>,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Study> {
    let inv = res.inventory()?;
    let mut evaluations = Vec::with_capacity(specs.len());
    for spec in specs {
        let method = spec.build(res)?;
        let pipeline = match raw {
            Some((base, choice)) => {
                Some(base.with_probe(PosProbe::for_method(res, spec, method.as_ref(), choice)?))
            }
            None => None,
        };
        let input = match &pipeline {
            Some(p) => Input::Raw(p),
            None => Input::Gold,
        };
        let evs: Vec<Evaluation> = datasets
            .iter()
            .map(|(_, d)| evaluate(method.as_ref(), inv, &d.docs, &d.gold, input, progress))
            .collect();
        evaluations.push(evs);
    }
    // The first method's alignment serves for all (see above).
    let front_ends: Option<Vec<HashMap<String, Aligned>>> = match (raw, evaluations.first()) {
        (Some(_), Some(evs)) => Some(evs.iter().map(|e| by_instance(&e.raw_alignment)).collect()),
        _ => None,
    };
    let named: Vec<(String, &Dataset)> = datasets.iter().map(|(n, d)| (n.clone(), d)).collect();
    let mut study = Study::new(inv, &named, front_ends.as_deref());
    for evs in evaluations {
        study.add(evs);
    }
    Ok(study)
}
