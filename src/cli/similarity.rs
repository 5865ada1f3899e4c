//! `wsd similarity ID1 ID2`: one WordNet similarity measure between two
//! synsets, with NLTK's conventions (see `wsd::wordnet::similarity`).

use std::io::Write;
use std::process::ExitCode;

use std::sync::Arc;

use super::args::ResourceArgs;
use super::{Cli, InfoFormat};
use wsd::resources::PosTraining;
use wsd::wordnet::similarity::{ic_from_tag_counts, Ic, Measure, Similarity};
use wsd::wordnet::{canonical_name, offset_string, resolve_id, Inventory, SynsetId};

/// Arguments of `wsd similarity`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  wsd similarity car.n.01 boat.n.01 --measure wup\n  wsd similarity dog%1:05:00:: cat%1:05:00:: --format json"
)]
pub struct Args {
    /// First synset: sense key (car%1:06:00::), offset (02958343-n) or name (car.n.01).
    pub id1: String,
    /// Second synset, in any of the same spellings.
    pub id2: String,
    /// The measure: path, wup (Wu-Palmer), lch (Leacock-Chodorow), res
    /// (Resnik), jcn (Jiang-Conrath) or lin.
    #[arg(long, default_value = "path", value_parser = parse_measure)]
    pub measure: Measure,
    /// Information-content table for res/jcn/lin (written by the library's
    /// `Ic::write`); default: one built from WordNet's own tag counts
    /// (index.sense), add-one smoothed.
    #[arg(long, value_name = "FILE")]
    pub ic: Option<std::path::PathBuf>,
    /// Give path and wup across parts of speech as NLTK 3.10 does (through
    /// its simulated root) instead of "no value".
    #[arg(long)]
    pub nltk_cross_pos: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: InfoFormat,
}

fn parse_measure(s: &str) -> Result<Measure, String> {
    s.parse()
}

#[derive(serde::Serialize)]
struct SynsetRef {
    id: String,
    name: String,
}

#[derive(serde::Serialize)]
struct View {
    measure: Measure,
    synset1: SynsetRef,
    synset2: SynsetRef,
    value: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

fn describe(inv: &Inventory, id: SynsetId) -> anyhow::Result<SynsetRef> {
    let syn = inv
        .get(id)
        .ok_or_else(|| anyhow::anyhow!("WordNet has no synset {id:?}"))?;
    Ok(SynsetRef {
        id: offset_string(id, Some(syn.ss_type)),
        name: canonical_name(inv, syn)?,
    })
}

/// Run `wsd similarity`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let res = ResourceArgs {
        ic: args.ic.clone(),
        ..Default::default()
    }
    .resources(cli, PosTraining::Never);
    let inv = res.inventory()?;
    let a = resolve_id(inv, &args.id1)?;
    let b = resolve_id(inv, &args.id2)?;
    let ic: Option<Arc<Ic>> = if args.measure.needs_ic() {
        Some(match res.ic()? {
            Some(ic) => ic.clone(),
            None => Arc::new(ic_from_tag_counts(inv)),
        })
    } else {
        None
    };
    let sim = Similarity::new(inv).nltk_cross_pos(args.nltk_cross_pos);
    // `res` of two unrelated synsets is -0.0 in the arithmetic: print 0.
    let value = sim
        .measure(args.measure, a, b, ic.as_deref())?
        .map(|v| if v == 0.0 { 0.0 } else { v });
    let (sa, sb) = (inv.get(a), inv.get(b));
    let note = match (value, sa, sb) {
        (None, Some(x), Some(y)) if x.id.pos != y.id.pos => {
            Some("no value: the synsets have different parts of speech".to_string())
        }
        (None, Some(x), Some(y)) if x.ss_type != y.ss_type => Some(
            "no value: a head adjective and a satellite (NLTK requires the same synset type)"
                .to_string(),
        ),
        (None, _, _) => Some("no value".to_string()),
        _ => None,
    };
    let view = View {
        measure: args.measure,
        synset1: describe(inv, a)?,
        synset2: describe(inv, b)?,
        value,
        note,
    };
    let out = std::io::stdout();
    let mut out = out.lock();
    match args.format {
        InfoFormat::Json => {
            super::write_json(&mut out, &view)?;
        }
        InfoFormat::Text => {
            let lhs = format!(
                "{}({}, {})",
                args.measure.name(),
                view.synset1.name,
                view.synset2.name
            );
            match (view.value, &view.note) {
                (Some(v), _) => writeln!(out, "{lhs} = {}", number(v))?,
                (None, Some(n)) => writeln!(out, "{lhs}: {n}")?,
                (None, None) => writeln!(out, "{lhs}: no value")?,
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A value as text: shortest round-trip digits, in exponent notation when
/// very large or small (jcn's "infinitely similar" is `1e300`, not 301 digits).
fn number(v: f64) -> String {
    if v != 0.0 && v.is_finite() && (v.abs() >= 1e16 || v.abs() < 1e-6) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}
