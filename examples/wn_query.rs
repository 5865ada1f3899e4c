//! Answers many WordNet questions in one run, one JSON line per query,
//! through the same library calls `wsd senses`, `wsd synset` and
//! `wsd similarity` make; scripts/nltk_parity.py feeds it queries and
//! compares the answers with NLTK's.
//!
//! ```sh
//! printf 'senses\tbanks\tn\nmorphy\twent\tv\nsynset\t08420278-n\n' |
//!     cargo run --release --example wn_query
//! ```
//!
//! Queries (tab-separated, one a line):
//! * `senses WORD [P]`: `lookup_senses` (P one of n v a r, or all four);
//! * `morphy FORM P`: every base form morphy finds;
//! * `synset ID`: `resolve_id`, then the synset's name, lexname, lemmas
//!   with keys and tag counts, gloss parts and verb frame numbers per word;
//! * `sim ID1 ID2`: path wup lch res jcn lin (IC from WordNet's tag counts),
//!   `null` where a measure has no value; `simx ID1 ID2` the same with
//!   `--nltk-cross-pos` (NLTK's values across parts of speech);
//! * `lcs ID1 ID2`: the lowest common hypernyms and the shortest-path
//!   distance `wsd similarity --format json` shows;
//! * `paths ID`: the hypernym paths `wsd synset --relations` shows.

use std::io::{BufRead, Write};

use serde_json::{json, Value};
use wsd::wordnet::similarity::{ic_from_tag_counts, Measure, Similarity};
use wsd::wordnet::{
    canonical_name, hypernym_paths, lexname, lookup_senses, morphy, offset_string, resolve_id,
    sense_key, Dictionary, Inventory, Lookup, Pos,
};

fn pos_arg(s: Option<&str>) -> Option<Pos> {
    s.filter(|s| !s.is_empty())
        .and_then(|s| s.chars().next())
        .and_then(Pos::from_letter)
}

fn synset(d: &Lookup, id: &str) -> wsd::Result<Value> {
    let sid = resolve_id(d, id)?;
    let syn = d.synset(sid)?.into_owned();
    let mut lemmas = Vec::new();
    for (i, w) in syn.words.iter().enumerate() {
        let key = sense_key(d, &syn, i);
        let count = d.sense_index(&key)?.map(|e| e.tag_count);
        let mut frames: Vec<u8> = syn
            .frames
            .iter()
            .filter(|f| f.word == 0 || f.word as usize == i + 1)
            .map(|f| f.number)
            .collect();
        frames.sort_unstable();
        frames.dedup();
        lemmas.push(json!({"name": w.lemma, "key": key, "count": count, "frames": frames}));
    }
    Ok(json!({
        "offset": offset_string(sid, Some(syn.ss_type)),
        "name": canonical_name(d, &syn)?,
        "lexname": lexname(syn.lex_filenum),
        "lemmas": lemmas,
        "definition": syn.definition,
        "examples": syn.examples,
    }))
}

fn main() -> wsd::Result<()> {
    let d = Lookup::open(None)?;
    let inv = Inventory::open(None)?;
    let ic = ic_from_tag_counts(&inv);
    let sim = Similarity::new(&inv);
    let cross = Similarity::with_cache(&inv, sim.cache().clone()).nltk_cross_pos(true);
    let stdin = std::io::stdin();
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| wsd::Error::io("<stdin>", e))?;
        let f: Vec<&str> = line.split('\t').collect();
        let answer = match f[0] {
            "senses" => match lookup_senses(&d, f[1], pos_arg(f.get(2).copied())) {
                Ok(v) => json!(v
                    .iter()
                    .map(|s| json!([
                        s.offset,
                        s.name,
                        s.lemma,
                        s.sense_number,
                        s.key,
                        s.tag_count
                    ]))
                    .collect::<Vec<_>>()),
                Err(e) => json!({"error": e.to_string()}),
            },
            "morphy" => json!(morphy::morphy(
                &d,
                f[1],
                pos_arg(f.get(2).copied()).unwrap()
            )),
            "synset" => synset(&d, f[1]).unwrap_or_else(|e| json!({"error": e.to_string()})),
            "sim" | "simx" => {
                let sim = if f[0] == "simx" { &cross } else { &sim };
                match (resolve_id(&inv, f[1]), resolve_id(&inv, f[2])) {
                    (Ok(a), Ok(b)) => json!(Measure::ALL
                        .iter()
                        .map(|&m| sim.measure(m, a, b, Some(&ic)).ok().flatten())
                        .collect::<Vec<_>>()),
                    (a, b) => json!({"error": format!("{:?} {:?}", a.err(), b.err())}),
                }
            }
            "lcs" => match (resolve_id(&inv, f[1]), resolve_id(&inv, f[2])) {
                (Ok(a), Ok(b)) => json!({
                    "lcs": sim
                        .lowest_common_hypernyms(a, b)
                        .into_iter()
                        .map(|h| d.synset(h).and_then(|s| canonical_name(&d, &s)))
                        .collect::<wsd::Result<Vec<_>>>()?,
                    "distance": sim.shortest_path_distance(a, b),
                }),
                (a, b) => json!({"error": format!("{:?} {:?}", a.err(), b.err())}),
            },
            "paths" => {
                let id = resolve_id(&d, f[1])?;
                let mut paths = Vec::new();
                for path in hypernym_paths(&d, id)? {
                    paths.push(
                        path.into_iter()
                            .map(|h| d.synset(h).and_then(|s| canonical_name(&d, &s)))
                            .collect::<wsd::Result<Vec<_>>>()?,
                    );
                }
                json!(paths)
            }
            q => json!({"error": format!("unknown query {q:?}")}),
        };
        writeln!(out, "{answer}").map_err(|e| wsd::Error::io("<stdout>", e))?;
    }
    out.flush().map_err(|e| wsd::Error::io("<stdout>", e))?;
    Ok(())
}
