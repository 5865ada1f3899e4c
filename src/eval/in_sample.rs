//! Scoring a data set with a model trained on it: `wsd eval`, `wsd
//! compare` and `wsd errors` warn, because the figures are then in-sample
//! (nb trained on all of SemCor scores 90.3 F1 on SemCor's test split,
//! 75.0 when trained on the train split only).
//!
//! Every model records what it was trained on (`semcor:train`,
//! `semcor:all`, `semcor:train:first-2`, `xml:semeval2007.data.xml`, a mix
//! joined by `+`): knn as `training_data`, ens as `data`, nb as
//! `training.split` in its header's parameters. An ens model reads the knn
//! and nb models beside it, so theirs count too.

use std::path::Path;

use crate::corpus::Split;
use crate::disambig::MethodSpec;
use crate::model_io::ModelHeader;
use crate::resources::Resources;

/// What is being scored.
#[derive(Clone, Copy, Debug)]
pub enum Scored<'a> {
    /// A split of SemCor.
    Semcor(Split),
    /// An evaluation-framework XML file.
    Xml(&'a Path),
}

/// The training data a model header records, if it records any.
pub fn training_label(header: &ModelHeader) -> Option<&str> {
    let p = &header.params;
    [&p["training_data"], &p["data"], &p["training"]["split"]]
        .into_iter()
        .find_map(|v| v.as_str())
        .filter(|s| !s.is_empty())
}

/// Does training data `label` contain documents of `scored`? SemCor's
/// split puts every 5th document (index 4, 9, …) in test, so the first N
/// documents of `all` (`semcor:all:first-N`) hold a test document from
/// N = 5 on.
pub fn overlaps(label: &str, scored: Scored<'_>) -> bool {
    label.split('+').any(|part| {
        let mut fields = part.splitn(3, ':');
        match (fields.next(), fields.next(), scored) {
            (Some("semcor"), Some(trained), Scored::Semcor(split)) => {
                let first: Option<usize> = fields
                    .next()
                    .and_then(|l| l.strip_prefix("first-"))
                    .and_then(|n| n.parse().ok());
                match (trained, split) {
                    ("all", Split::Test) => first.is_none_or(|n| n >= 5),
                    ("all", _) | (_, Split::All) => true,
                    (trained, split) => trained == split.to_string(),
                }
            }
            (Some("xml"), Some(name), Scored::Xml(path)) => path
                .file_name()
                .is_some_and(|f| f.to_string_lossy() == name),
            _ => false,
        }
    })
}

/// One warning for each model the methods of `specs` read that was
/// trained on documents of one of `scored` (naming the model file and its
/// training data), each said once; models that cannot be found or read
/// are left to the methods' own builds.
pub fn warnings(res: &Resources, specs: &[MethodSpec], scored: &[Scored<'_>]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for spec in specs {
        for (path, label) in training_labels(res, spec) {
            for &s in scored.iter().filter(|&&s| overlaps(&label, s)) {
                let what = match s {
                    Scored::Semcor(split) => format!("SemCor's {split} split"),
                    Scored::Xml(xml) => xml.display().to_string(),
                };
                let w = format!(
                    "{} was trained on {label}, which includes {what}: these figures are in-sample",
                    path.display()
                );
                if !out.contains(&w) {
                    out.push(w);
                }
            }
        }
    }
    out
}

/// The model files `spec`'s methods read (an ens model's knn and nb
/// models too) with the training data each records.
fn training_labels(res: &Resources, spec: &MethodSpec) -> Vec<(std::path::PathBuf, String)> {
    let mut kinds: Vec<(&str, &str)> = Vec::new();
    for m in spec.methods().iter().filter(|m| m.trains()) {
        kinds.push((m.name, m.name));
        if m.name == crate::disambig::ens::METHOD {
            kinds.push((crate::disambig::knn::METHOD, m.name));
            kinds.push((crate::disambig::naive_bayes::METHOD, m.name));
        }
    }
    let mut out: Vec<(std::path::PathBuf, String)> = Vec::new();
    for (kind, by) in kinds {
        let Ok(path) = res.model_of_kind(kind, by) else {
            continue;
        };
        if out.iter().any(|(p, _)| *p == path) {
            continue;
        }
        let Ok(header) = crate::model_io::read_header(&path) else {
            continue;
        };
        if let Some(label) = training_label(&header) {
            let label = label.to_string();
            out.push((path, label));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semcor_splits_overlap_as_their_documents_do() {
        let test = Scored::Semcor(Split::Test);
        assert!(overlaps("semcor:all", test));
        assert!(overlaps("semcor:test", test));
        assert!(!overlaps("semcor:train", test));
        assert!(!overlaps("semcor:train:first-2", test));
        assert!(overlaps(
            "semcor:train:first-2",
            Scored::Semcor(Split::Train)
        ));
        assert!(overlaps("semcor:train", Scored::Semcor(Split::All)));
        assert!(overlaps(
            "semcor:train+xml:a.data.xml",
            Scored::Semcor(Split::Train)
        ));
        assert!(!overlaps("xml:a.data.xml", test));
        // the first test document is the 5th of all
        assert!(!overlaps("semcor:all:first-4", test));
        assert!(overlaps("semcor:all:first-5", test));
        assert!(overlaps("semcor:all:first-1", Scored::Semcor(Split::Train)));
    }

    #[test]
    fn xml_files_overlap_by_file_name() {
        let se07 = Scored::Xml(Path::new("corpora/x/semeval2007.data.xml"));
        assert!(overlaps("semcor:train+xml:semeval2007.data.xml", se07));
        assert!(!overlaps("xml:senseval2.data.xml", se07));
        assert!(!overlaps("semcor:all", se07));
    }

    #[test]
    fn each_method_records_its_data_under_its_own_name() {
        let header = |params: serde_json::Value| ModelHeader {
            method: String::new(),
            tool_version: String::new(),
            wordnet_sha256: String::new(),
            params,
            body_len: 0,
            body_sha256: String::new(),
        };
        let knn = header(serde_json::json!({"training_data": "semcor:train"}));
        let ens = header(serde_json::json!({"data": "semcor:all"}));
        let nb = header(serde_json::json!({"training": {"split": "xml:a.data.xml"}}));
        let old = header(serde_json::json!({"training_data": ""}));
        assert_eq!(training_label(&knn), Some("semcor:train"));
        assert_eq!(training_label(&ens), Some("semcor:all"));
        assert_eq!(training_label(&nb), Some("xml:a.data.xml"));
        assert_eq!(training_label(&old), None);
    }
}
