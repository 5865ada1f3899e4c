//! `wsd synset ID`: one synset with its words, keys, gloss, verb frames
//! (verbs), and optionally its relations grouped by type and its hypernym
//! paths up to the root.

use std::collections::BTreeMap;
use std::io::Write;
use std::process::ExitCode;

use super::{Cli, InfoFormat};
use wsd::wordnet::frames::frame_string;
use wsd::wordnet::{
    canonical_name, hypernym_paths, lexname, offset_string, resolve_id, sense_key, Dictionary,
    Lookup, SynsetId,
};

/// Arguments of `wsd synset`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  wsd synset bank%1:14:00::\n  wsd synset bank.n.02 --relations\n  wsd synset 08420278-n --format json"
)]
pub struct Args {
    /// Sense key (bank%1:14:00::), offset (08420278-n) or name (bank.n.02).
    pub id: String,
    /// Also list relations and hypernym paths.
    #[arg(long)]
    pub relations: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: InfoFormat,
}

#[derive(serde::Serialize)]
struct Related {
    offset: String,
    name: String,
    /// For lexical pointers: "source_word -> target_word".
    #[serde(skip_serializing_if = "Option::is_none")]
    words: Option<String>,
}

/// One verb frame of one word of the synset.
#[derive(serde::Serialize)]
struct FrameView {
    /// The frame's number in WordNet (1–35).
    number: u8,
    /// The word it is written out for.
    lemma: String,
    /// The frame with the verb in place (`Somebody runs something`).
    text: String,
}

#[derive(serde::Serialize)]
struct View {
    offset: String,
    name: String,
    lexname: &'static str,
    lemmas: Vec<(String, String)>,
    definition: String,
    examples: Vec<String>,
    /// Verb frames, per word (empty for other parts of speech).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    frames: Vec<FrameView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    relations: Option<BTreeMap<&'static str, Vec<Related>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hypernym_paths: Option<Vec<Vec<String>>>,
}

fn short(d: &Lookup, id: SynsetId) -> anyhow::Result<(String, String)> {
    let s = d.synset(id)?;
    Ok((offset_string(id, Some(s.ss_type)), canonical_name(d, &s)?))
}

/// The synset's verb frames, word by word in the synset's order (a frame
/// numbered for word 0 applies to every word), each frame once per word.
fn frames(syn: &wsd::wordnet::Synset) -> Vec<FrameView> {
    let mut out = Vec::new();
    for (w, word) in syn.words.iter().enumerate() {
        let mut numbers: Vec<u8> = syn
            .frames
            .iter()
            .filter(|f| f.word == 0 || f.word as usize == w + 1)
            .map(|f| f.number)
            .collect();
        numbers.sort_unstable();
        numbers.dedup();
        for n in numbers {
            if let Some(text) = frame_string(n, &word.lemma) {
                out.push(FrameView {
                    number: n,
                    lemma: word.lemma.clone(),
                    text,
                });
            }
        }
    }
    out
}

/// Run `wsd synset`.
pub fn run(cli: &Cli, args: &Args) -> anyhow::Result<ExitCode> {
    let d = Lookup::open(cli.wordnet.as_deref())?;
    let id = match resolve_id(&d, &args.id) {
        Ok(id) => id,
        Err(e) => match id_hint(&d, &args.id, &e) {
            Some(hint) => anyhow::bail!("{e}; {hint}"),
            None => return Err(e.into()),
        },
    };
    let syn = d.synset(id)?.into_owned();
    let mut view = View {
        offset: offset_string(id, Some(syn.ss_type)),
        name: canonical_name(&d, &syn)?,
        lexname: lexname(syn.lex_filenum),
        lemmas: (0..syn.words.len())
            .map(|i| (syn.words[i].lemma.clone(), sense_key(&d, &syn, i)))
            .collect(),
        definition: syn.definition.clone(),
        examples: syn.examples.clone(),
        frames: frames(&syn),
        relations: None,
        hypernym_paths: None,
    };
    if args.relations {
        let mut rel: BTreeMap<&'static str, Vec<Related>> = BTreeMap::new();
        for p in &syn.pointers {
            let (offset, name) = short(&d, p.target)?;
            let words = (!p.is_semantic()).then(|| {
                let src = syn
                    .words
                    .get((p.source_word as usize).wrapping_sub(1))
                    .map_or("?", |w| &w.lemma)
                    .to_string();
                let tgt = d
                    .synset(p.target)
                    .ok()
                    .and_then(|t| {
                        t.words
                            .get((p.target_word as usize).wrapping_sub(1))
                            .map(|w| w.lemma.clone())
                    })
                    .unwrap_or_else(|| "?".into());
                format!("{src} -> {tgt}")
            });
            rel.entry(p.kind.name()).or_default().push(Related {
                offset,
                name,
                words,
            });
        }
        view.relations = Some(rel);
        let mut paths = Vec::new();
        for path in hypernym_paths(&d, id)? {
            paths.push(
                path.into_iter()
                    .map(|i| short(&d, i).map(|(_, n)| n))
                    .collect::<anyhow::Result<Vec<_>>>()?,
            );
        }
        view.hypernym_paths = Some(paths);
    }
    let out = std::io::stdout();
    let mut out = out.lock();
    match args.format {
        InfoFormat::Json => {
            super::write_json(&mut out, &view)?;
        }
        InfoFormat::Text => {
            writeln!(out, "{}  {}  [{}]", view.offset, view.name, view.lexname)?;
            for (l, k) in &view.lemmas {
                writeln!(out, "  {l}  {k}")?;
            }
            writeln!(out, "  {}", view.definition)?;
            for e in &view.examples {
                writeln!(out, "  \"{e}\"")?;
            }
            if !view.frames.is_empty() {
                writeln!(out, "frames:")?;
                for f in &view.frames {
                    writeln!(out, "  {}", f.text)?;
                }
            }
            if let Some(rel) = &view.relations {
                for (kind, list) in rel {
                    writeln!(out, "{kind}:")?;
                    for r in list {
                        match &r.words {
                            Some(w) => writeln!(out, "  {}  {}  ({w})", r.offset, r.name)?,
                            None => writeln!(out, "  {}  {}", r.offset, r.name)?,
                        }
                    }
                }
            }
            if let Some(paths) = &view.hypernym_paths {
                writeln!(out, "hypernym paths:")?;
                for p in paths {
                    writeln!(out, "  {}", p.join(" > "))?;
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What to try when `id` names no synset: a bare word is listed by
/// `wsd senses`; a name past the word's last sense (`bank.n.99`) gets the
/// count of its senses.
fn id_hint(d: &Lookup, id: &str, e: &wsd::Error) -> Option<String> {
    match e {
        wsd::Error::BadId(_) => {
            let senses = wsd::wordnet::lookup_senses(d, id, None).ok()?;
            (!senses.is_empty()).then(|| {
                format!("{id:?} is a word: `wsd senses {id}` lists its senses and their ids")
            })
        }
        wsd::Error::UnknownId(_) => {
            let name = wsd::wordnet::NltkName::parse(id.trim())?;
            let (lemma, pos) = (&name.lemma, name.pos);
            let n = name.offsets(d).ok()?.len();
            Some(if n == 0 {
                format!("{lemma:?} has no senses of that part of speech: `wsd senses {lemma}` lists the ones it has")
            } else {
                format!(
                    "{lemma}.{}.NN runs from 01 to {n:02} (`wsd senses {lemma} --pos {}` lists them)",
                    if name.satellite { 's' } else { pos.letter() },
                    pos.letter()
                )
            })
        }
        _ => None,
    }
}
