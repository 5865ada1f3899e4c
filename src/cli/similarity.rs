//! `wsd similarity A B`: one WordNet similarity measure between two synsets
//! or words (a word: the best pair of its senses), with NLTK's conventions
//! (see `wsd::wordnet::similarity`); also where the two meet (lowest common
//! hypernyms, shortest path).

use std::io::Write;
use std::process::ExitCode;

use std::sync::Arc;

use super::args::ResourceArgs;
use super::{Cli, InfoFormat};
use wsd::resources::PosTraining;
use wsd::wordnet::similarity::{best_pair, ic_from_tag_counts, Ic, Measure, Similarity, Term};
use wsd::wordnet::{canonical_name, offset_string, Inventory, Pos, SynsetId};

/// Arguments of `wsd similarity`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  wsd similarity car.n.01 boat.n.01 --measure wup\n  wsd similarity bank money\n  wsd similarity dog cat --common-hypernym\n  wsd similarity dog%1:05:00:: cat%1:05:00:: --format json"
)]
pub struct Args {
    /// First synset or word: sense key (car%1:06:00::), offset
    /// (02958343-n), name (car.n.01), or a word (car, cars) for the best of
    /// its senses.
    pub id1: String,
    /// Second synset or word, in any of the same spellings.
    pub id2: String,
    /// The measure: path, wup (Wu-Palmer), lch (Leacock-Chodorow), res
    /// (Resnik), jcn (Jiang-Conrath) or lin.
    #[arg(long, default_value = "path", value_parser = parse_measure)]
    pub measure: Measure,
    /// Words: only their senses of this part of speech (n, v, a, r).
    #[arg(long, value_parser = parse_pos)]
    pub pos: Option<Pos>,
    /// Print the lowest common hypernyms (NLTK's lowest_common_hypernyms)
    /// instead of the value, one name a line.
    #[arg(long, conflicts_with = "distance")]
    pub common_hypernym: bool,
    /// Print the shortest-path distance in edges (as path similarity
    /// counts it) instead of the value.
    #[arg(long)]
    pub distance: bool,
    /// Information-content table for res/jcn/lin (written by `wsd ic`);
    /// default: one built from WordNet's own tag counts
    /// (index.sense), add-one smoothed.
    #[arg(long, value_name = "FILE")]
    pub ic: Option<std::path::PathBuf>,
    /// Give path and wup across parts of speech as NLTK 3.10 does (through
    /// its simulated root) instead of "no value" (two synsets only; words
    /// always pair senses of the same part of speech).
    #[arg(long)]
    pub nltk_cross_pos: bool,
    /// Output format: text is the bare value (or hypernyms, or distance);
    /// json has the measure, value, both synsets, the lowest common
    /// hypernyms, the distance and the path.
    #[arg(long, value_enum, default_value = "text")]
    pub format: InfoFormat,
}

fn parse_measure(s: &str) -> Result<Measure, String> {
    s.parse()
}

fn parse_pos(s: &str) -> Result<Pos, String> {
    let mut c = s.chars();
    match (c.next().and_then(Pos::from_letter), c.next()) {
        (Some(p), None) => Ok(p),
        _ => Err(format!("bad part of speech {s:?}: use n, v, a or r")),
    }
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
    /// For words: what they were, and that the synsets are their best pair.
    #[serde(skip_serializing_if = "Option::is_none")]
    words: Option<[String; 2]>,
    lowest_common_hypernyms: Vec<SynsetRef>,
    distance: Option<u32>,
    path: Option<Vec<String>>,
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
    if args.ic.is_some() && !args.measure.needs_ic() {
        anyhow::bail!(
            "--ic is read by the measures res, jcn and lin only, not by {} (add --measure res, jcn or lin)",
            args.measure.name()
        );
    }
    let res = ResourceArgs {
        ic: args.ic.clone(),
        ..Default::default()
    }
    .resources(cli, PosTraining::Never);
    let inv = res.inventory()?;
    let ta = Term::parse(inv, &args.id1, args.pos)?;
    let tb = Term::parse(inv, &args.id2, args.pos)?;
    let ic: Option<Arc<Ic>> = if args.measure.needs_ic() {
        Some(match res.ic()? {
            Some(ic) => ic.clone(),
            None => Arc::new(ic_from_tag_counts(inv)),
        })
    } else {
        None
    };
    let sim = Similarity::new(inv).nltk_cross_pos(args.nltk_cross_pos);
    let words = matches!(ta, Term::Word(..)) || matches!(tb, Term::Word(..));
    let (a, b, value) = if words {
        let best = best_pair(
            &sim,
            args.measure,
            ta.synsets(),
            tb.synsets(),
            ic.as_deref(),
        )?;
        (best.a, best.b, best.value)
    } else {
        let (a, b) = (ta.synsets()[0], tb.synsets()[0]);
        (a, b, sim.measure(args.measure, a, b, ic.as_deref())?)
    };
    // `res` of two unrelated synsets is -0.0 in the arithmetic: print 0.
    let value = value.map(|v| if v == 0.0 { 0.0 } else { v });
    let (sa, sb) = (inv.get(a), inv.get(b));
    let note = match (value, sa, sb) {
        (None, _, _)
            if words
                && !ta
                    .synsets()
                    .iter()
                    .any(|x| tb.synsets().iter().any(|y| x.pos == y.pos)) =>
        {
            Some("no value: the words have no senses of the same part of speech".to_string())
        }
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
    let names = |ids: Vec<SynsetId>| -> anyhow::Result<Vec<SynsetRef>> {
        ids.into_iter().map(|i| describe(inv, i)).collect()
    };
    let view = View {
        measure: args.measure,
        synset1: describe(inv, a)?,
        synset2: describe(inv, b)?,
        value,
        words: words.then(|| [args.id1.clone(), args.id2.clone()]),
        lowest_common_hypernyms: names(sim.lowest_common_hypernyms(a, b))?,
        distance: sim.shortest_path_distance(a, b),
        path: match sim.shortest_path(a, b) {
            Some(p) => Some(names(p)?.into_iter().map(|r| r.name).collect()),
            None => None,
        },
        note,
    };
    if words {
        crate::note!(
            cli,
            "{}({}, {}): the best pair of senses is {} and {}",
            args.measure.name(),
            args.id1,
            args.id2,
            view.synset1.name,
            view.synset2.name
        );
    }
    let out = std::io::stdout();
    let mut out = out.lock();
    match args.format {
        InfoFormat::Json => {
            super::write_json(&mut out, &view)?;
        }
        InfoFormat::Text if args.common_hypernym => {
            if view.lowest_common_hypernyms.is_empty() {
                eprintln!(
                    "wsd: {} and {} have no common hypernym",
                    view.synset1.name, view.synset2.name
                );
            }
            for h in &view.lowest_common_hypernyms {
                writeln!(out, "{}", h.name)?;
            }
        }
        InfoFormat::Text if args.distance => match view.distance {
            Some(d) => writeln!(out, "{d}")?,
            None => {
                writeln!(out, "no value")?;
                eprintln!("wsd: no path: the synsets have different parts of speech");
            }
        },
        InfoFormat::Text => match (view.value, &view.note) {
            (Some(v), _) => writeln!(out, "{}", number(v))?,
            (None, n) => {
                // The bare "no value" on stdout, why on stderr.
                writeln!(out, "no value")?;
                if let Some(n) = n {
                    eprintln!(
                        "wsd: {}({}, {}): {n}",
                        args.measure.name(),
                        view.synset1.name,
                        view.synset2.name
                    );
                }
            }
        },
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
