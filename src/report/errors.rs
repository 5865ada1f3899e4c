//! The error list: one TSV line per wrong or missing answer (`wsd errors`,
//! `wsd eval --errors FILE`).
//!
//! Columns: `id dataset lemma pos sentence gold gold_gloss chosen
//! chosen_gloss decided_by`, after a header line. `gold` holds the gold
//! key(s) space-separated; `chosen` and `chosen_gloss` are empty and
//! `decided_by` is `no answer` for an instance the method did not answer.
//! Written with the csv crate's default quoting: a field holding a tab, a
//! quote or a line break is quoted, with quotes doubled (any TSV or CSV
//! reader set to tabs reads it back).

use std::io::Write;

use super::analysis::{gloss, Instances, MethodRun, NO_ANSWER};
use crate::wordnet::Inventory;

/// The header of [`write_tsv`].
pub const HEADER: [&str; 10] = [
    "id",
    "dataset",
    "lemma",
    "pos",
    "sentence",
    "gold",
    "gold_gloss",
    "chosen",
    "chosen_gloss",
    "decided_by",
];

/// Write the wrong and missing answers of `run` as TSV; returns how many
/// lines (header excluded).
pub fn write_tsv(
    out: impl Write,
    inv: &Inventory,
    instances: &Instances,
    run: &MethodRun,
) -> csv::Result<usize> {
    let mut w = csv::WriterBuilder::new().delimiter(b'\t').from_writer(out);
    w.write_record(HEADER)?;
    let mut n = 0;
    for (inst, answer) in instances.items.iter().zip(&run.answers) {
        if inst.credit(answer.as_ref()).is_some_and(|c| c >= 1.0) {
            continue;
        }
        let (chosen, chosen_gloss, decided_by) = match answer {
            Some(p) => (p.key.clone(), gloss(inv, &p.key), p.decided_by()),
            None => (String::new(), String::new(), NO_ANSWER.to_string()),
        };
        w.write_record([
            inst.id.as_str(),
            &instances.datasets[inst.dataset].name,
            &inst.lemma,
            &inst.pos.map(|p| p.letter().to_string()).unwrap_or_default(),
            &inst.sentence,
            &inst.gold.join(" "),
            &inst.gold.first().map(|k| gloss(inv, k)).unwrap_or_default(),
            &chosen,
            &chosen_gloss,
            &decided_by,
        ])?;
        n += 1;
    }
    w.flush()?;
    Ok(n)
}
