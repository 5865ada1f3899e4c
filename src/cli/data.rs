//! `wsd data`: where each resource was found, or what is missing and the
//! command that fetches it (see `wsd::resources` for the search order).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::{Cli, InfoFormat};
use wsd::eval::framework::discover;
use wsd::resources::{
    data_home, default_model_path, locate, DEFAULT_ENCODER, DEFAULT_FRAMEWORK, DEFAULT_SEMCOR,
    DEFAULT_SEMEVAL2007,
};
use wsd::wordnet::find_dict;

/// Arguments of `wsd data`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  wsd data\n  WSD_HOME=/data/wsd wsd data --format json")]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: InfoFormat,
}

#[derive(serde::Serialize)]
struct Row {
    resource: &'static str,
    path: PathBuf,
    found: bool,
    /// How to get it when missing.
    fetch: &'static str,
    /// The evaluation framework's data sets found in the folder.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    sets: Vec<String>,
}

/// Run `wsd data`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let wordnet = match find_dict(cli.wordnet.as_deref()) {
        Ok(p) => (p, true),
        Err(_) => (locate("wordnet/dict"), false),
    };
    let file_row = |resource, path: PathBuf, fetch| Row {
        found: path.exists(),
        resource,
        path,
        fetch,
        sets: Vec::new(),
    };
    let framework = locate(DEFAULT_FRAMEWORK);
    let sets: Vec<String> = discover(&framework)
        .map(|sets| sets.into_iter().map(|s| s.name).collect())
        .unwrap_or_default();
    let rows = vec![
        Row {
            resource: "WordNet 3.0",
            path: wordnet.0,
            found: wordnet.1,
            fetch:
                "scripts/install.sh (fills the data home; or scripts/fetch-data.sh in a checkout)",
            sets: Vec::new(),
        },
        file_row("SemCor 3.0", locate(DEFAULT_SEMCOR), "scripts/install.sh"),
        file_row(
            "SemEval-2007 (dev set)",
            locate(DEFAULT_SEMEVAL2007),
            "scripts/fetch-data.sh",
        ),
        Row {
            resource: "framework sets",
            found: !sets.is_empty(),
            path: framework,
            fetch: "scripts/fetch-data.sh (all sets when it downloads the framework)",
            sets,
        },
        file_row(
            "encoder (knn, embed)",
            locate(DEFAULT_ENCODER),
            "scripts/fetch-model.sh",
        ),
        file_row(
            "POS model",
            default_model_path("pos"),
            "wsd train --method pos (or the first wsd tag trains it)",
        ),
        file_row(
            "nb model",
            default_model_path("nb"),
            "wsd train --method nb",
        ),
        file_row(
            "knn model",
            default_model_path("knn"),
            "wsd train --method knn",
        ),
        file_row(
            "ens model",
            default_model_path("ens"),
            "wsd train --method ens (after nb and knn)",
        ),
    ];
    let home = data_home();
    let mut out = std::io::stdout().lock();
    match args.format {
        InfoFormat::Json => super::write_json(
            &mut out,
            &serde_json::json!({"data_home": home, "resources": rows}),
        )?,
        InfoFormat::Text => {
            match &home {
                Some(h) => writeln!(
                    out,
                    "data home: {} ({})",
                    h.display(),
                    wsd::resources::data_home_source().unwrap_or("$WSD_HOME")
                )?,
                None => writeln!(out, "data home: none ($WSD_HOME and $HOME unset)")?,
            }
            for r in &rows {
                if r.found && !r.sets.is_empty() {
                    writeln!(
                        out,
                        "{:<24} {} ({}; wsd eval --framework)",
                        r.resource,
                        r.path.display(),
                        r.sets.join(", ")
                    )?;
                } else if r.found {
                    writeln!(out, "{:<24} {}", r.resource, r.path.display())?;
                } else {
                    writeln!(
                        out,
                        "{:<24} missing ({}); get it with: {}",
                        r.resource,
                        r.path.display(),
                        r.fetch
                    )?;
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
