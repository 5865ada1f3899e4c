//! The WordNet 3.0 sense inventory.
//!
//! Two ways in, one set of parsers:
//! * [`Inventory`] loads everything once for bulk work (disambiguation,
//!   training, evaluation, similarity);
//! * [`Lookup`] answers single questions by binary search over the sorted
//!   dict files and a seek into `data.*`, for fast one-shot commands.
//!
//! Both implement [`Dictionary`], so id resolution, sense keys, canonical
//! names and morphy are written once, over the trait.
//!
//! Ids round-trip between three spellings: sense keys (`bank%1:14:00::`),
//! offsets (`08420278-n`, satellites `-s`) and NLTK names — the canonical
//! `depository_financial_institution.n.01` and the lemma-relative
//! `bank.n.02` (the second noun synset of *bank*), which name one synset.

pub mod check;
mod dict;
pub mod frames;
mod inventory;
mod lexnames;
mod lookup;
pub mod morphy;
mod pointer;
mod pos;
pub mod record;
mod sense_key;
pub mod similarity;

use std::borrow::Cow;
use std::path::Path;

pub use dict::find_dict;
pub use inventory::Inventory;
pub use lexnames::{lexname, LEXNAMES};
pub use lookup::Lookup;
pub use pointer::{Pointer, PointerKind};
pub use pos::{Pos, SynsetType};
pub use record::{AdjMarker, Frame, Synset, Word};
pub use sense_key::SenseKey;

use crate::{Error, Result};
use morphy::Lexicon;
use record::SenseIndexEntry;

/// A synset identifier: lexical category + byte offset in its `data.*` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SynsetId {
    /// The data file (satellites are [`Pos::Adj`]).
    pub pos: Pos,
    /// Byte offset of the record in `data.<pos>`.
    pub offset: u32,
}

/// One sense of a lemma: a (lemma, synset) pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Sense {
    /// The sense key (`bank%1:14:00::`).
    pub key: String,
    /// The synset.
    pub synset: SynsetId,
    /// Sense number of the lemma (1 = first, most frequent).
    pub number: u16,
    /// SemCor tag count from `index.sense`.
    pub tag_count: u32,
}

/// What every way of reading a dict folder offers.
pub trait Dictionary: Lexicon {
    /// The dict folder.
    fn dict_dir(&self) -> &Path;
    /// Offsets of the synsets of `lemma` (index spelling) in sense order.
    fn synset_offsets(&self, lemma: &str, pos: Pos) -> Result<Vec<u32>>;
    /// The synset record for `id` ([`Error::UnknownId`] when there is none).
    fn synset(&self, id: SynsetId) -> Result<Cow<'_, Synset>>;
    /// The `index.sense` entry of a key.
    fn sense_index(&self, key: &str) -> Result<Option<SenseIndexEntry>>;
}

/// `08420278-n`; `sat` gives `-s` for adjective satellites.
pub fn offset_string(id: SynsetId, ss_type: Option<SynsetType>) -> String {
    let letter = ss_type.map_or(id.pos.letter(), |t| t.letter());
    format!("{:08}-{letter}", id.offset)
}

/// The sense key of word `word` (0-based) of `syn`; `get` fetches the head
/// synset of a satellite (the target of its first similar-to pointer), whose
/// first word names the cluster head, as WordNet and NLTK define it.
///
/// # Panics
///
/// When `word` is not below `syn.words.len()`.
pub fn sense_key_with<'a>(
    syn: &Synset,
    word: usize,
    get: impl Fn(SynsetId) -> Option<Cow<'a, Synset>>,
) -> String {
    let w = &syn.words[word];
    let head = if syn.ss_type == SynsetType::AdjSatellite {
        syn.related(PointerKind::SimilarTo)
            .next()
            .and_then(get)
            .and_then(|h| {
                h.words
                    .first()
                    .map(|hw| (hw.lemma.to_lowercase(), hw.lex_id))
            })
    } else {
        None
    };
    SenseKey {
        lemma: w.lemma.to_lowercase(),
        ss_type: syn.ss_type,
        lex_filenum: syn.lex_filenum,
        lex_id: w.lex_id,
        head,
    }
    .to_string()
}

/// The sense key of word `word` of `syn`, through any [`Dictionary`].
///
/// # Panics
///
/// When `word` is not below `syn.words.len()`.
pub fn sense_key(d: &impl Dictionary, syn: &Synset, word: usize) -> String {
    sense_key_with(syn, word, |id| {
        d.synset(id).ok().map(|c| Cow::Owned(c.into_owned()))
    })
}

/// The offsets a name `lemma.LETTER.NN` counts through: `index.*` order,
/// and for `s` only the satellites among the adjective senses (as NLTK 3.10
/// numbers them: `smart.s.05` is the fifth *satellite* of "smart").
fn name_offsets(d: &impl Dictionary, lemma: &str, pos: Pos, satellites: bool) -> Result<Vec<u32>> {
    let offsets = d.synset_offsets(lemma, pos)?;
    if !satellites {
        return Ok(offsets);
    }
    let mut out = Vec::with_capacity(offsets.len());
    for o in offsets {
        if d.synset(SynsetId { pos, offset: o })?.ss_type == SynsetType::AdjSatellite {
            out.push(o);
        }
    }
    Ok(out)
}

/// NLTK's canonical name: first lemma, type letter, its sense number
/// (`depository_financial_institution.n.01`; satellites count among
/// satellites, `smart.s.05`).
pub fn canonical_name(d: &impl Dictionary, syn: &Synset) -> Result<String> {
    let lemma = syn
        .words
        .first()
        .map(|w| w.lemma.to_lowercase())
        .unwrap_or_default();
    let sat = syn.ss_type == SynsetType::AdjSatellite;
    let offsets = name_offsets(d, &lemma, syn.id.pos, sat)?;
    let n = offsets
        .iter()
        .position(|&o| o == syn.id.offset)
        .map_or(0, |i| i + 1);
    Ok(format!("{lemma}.{}.{n:02}", syn.ss_type.letter()))
}

/// Parse any id spelling — sense key, offset (`08420278-n`) or NLTK name
/// (`bank.n.02`, `depository_financial_institution.n.01`) — to a synset id.
/// [`Error::BadId`] when the syntax fits none; [`Error::UnknownId`] when it
/// parses but WordNet has no such synset.
pub fn resolve_id(d: &impl Dictionary, id: &str) -> Result<SynsetId> {
    let id = id.trim();
    if id.contains('%') {
        let key: SenseKey = id
            .to_lowercase()
            .parse()
            .map_err(|_| Error::BadId(id.to_string()))?;
        let entry = d
            .sense_index(&key.to_string())?
            .ok_or_else(|| Error::UnknownId(id.to_string()))?;
        return Ok(SynsetId {
            pos: key.ss_type.pos(),
            offset: entry.offset,
        });
    }
    if let Some((num, letter)) = id.rsplit_once('-') {
        // Digits, a dash and one letter; a name may start with digits and
        // a dash too (`401-k_plan.n.01`, `6-membered.s.01`).
        if !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()) && letter.len() == 1 {
            let pos = letter
                .chars()
                .next()
                .and_then(Pos::from_letter)
                .ok_or_else(|| Error::BadId(id.to_string()))?;
            let offset: u32 = num.parse().map_err(|_| Error::BadId(id.to_string()))?;
            let sid = SynsetId { pos, offset };
            // A typed offset that lands off a record start is no synset
            // (offsets that come from the index files keep the damage error).
            d.synset(sid).map_err(|e| match e {
                Error::Parse { .. } => Error::UnknownId(id.to_string()),
                e => e,
            })?;
            return Ok(sid);
        }
    }
    if let Some(name) = NltkName::parse(id) {
        let offsets = name.offsets(d)?;
        let offset = *offsets
            .get(name.n - 1)
            .ok_or_else(|| Error::UnknownId(id.to_string()))?;
        return Ok(SynsetId {
            pos: name.pos,
            offset,
        });
    }
    Err(Error::BadId(id.to_string()))
}

/// An NLTK synset name taken apart: `bank.n.02` is the 2nd noun synset of
/// `bank`; `smart.s.05` the 5th satellite of `smart`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NltkName {
    /// The lemma as WordNet's index writes it (`_` for spaces, lower case).
    pub lemma: String,
    /// The category (`s` is an adjective).
    pub pos: Pos,
    /// `s`: the number counts the lemma's satellite synsets only.
    pub satellite: bool,
    /// The sense number, from 1.
    pub n: usize,
}

impl NltkName {
    /// `lemma.x.NN` with `x` a type letter and `NN` ≥ 1; `None` for
    /// anything else.
    pub fn parse(id: &str) -> Option<NltkName> {
        let mut parts = id.rsplitn(3, '.');
        let (num, letter, lemma) = (parts.next()?, parts.next()?, parts.next()?);
        let pos = (letter.len() == 1)
            .then(|| letter.chars().next().and_then(Pos::from_letter))
            .flatten()?;
        let n = num.parse().ok().filter(|&n| n > 0)?;
        (!lemma.is_empty()).then(|| NltkName {
            lemma: morphy::normalize(lemma),
            pos,
            satellite: letter == "s",
            n,
        })
    }

    /// The offsets the sense number counts in, in WordNet's order: the
    /// lemma's synsets of its category (satellites only for `s`).
    pub fn offsets(&self, d: &impl Dictionary) -> Result<Vec<u32>> {
        name_offsets(d, &self.lemma, self.pos, self.satellite)
    }
}

/// One sense of a looked-up word, with everything `wsd senses` prints.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SenseView {
    /// The base form morphy found (`bank` for `banks`).
    pub lemma: String,
    /// Part of speech letter of the synset (`n`, `v`, `a`, `s`, `r`).
    pub pos: char,
    /// Sense number of the lemma.
    pub sense_number: usize,
    /// Sense key.
    pub key: String,
    /// Offset id (`08420278-n`).
    pub offset: String,
    /// NLTK canonical name.
    pub name: String,
    /// Lexicographer file (`noun.group`).
    pub lexname: &'static str,
    /// Tag count from `index.sense`.
    pub tag_count: u32,
    /// The synset's lemmas.
    pub lemmas: Vec<String>,
    /// Definition.
    pub definition: String,
    /// Examples.
    pub examples: Vec<String>,
}

/// Build the view of sense `number` (1-based) of `lemma` in `syn`.
pub fn sense_view(
    d: &impl Dictionary,
    lemma: &str,
    number: usize,
    syn: &Synset,
) -> Result<SenseView> {
    let word = syn.word_index(lemma).unwrap_or(0);
    let key = sense_key(d, syn, word);
    let tag_count = d.sense_index(&key)?.map_or(0, |e| e.tag_count);
    Ok(SenseView {
        lemma: lemma.to_string(),
        pos: syn.ss_type.letter(),
        sense_number: number,
        offset: offset_string(syn.id, Some(syn.ss_type)),
        name: canonical_name(d, syn)?,
        lexname: lexname(syn.lex_filenum),
        tag_count,
        key,
        lemmas: syn.words.iter().map(|w| w.lemma.clone()).collect(),
        definition: syn.definition.clone(),
        examples: syn.examples.clone(),
    })
}

/// All senses of a possibly inflected word, through morphy, for one part of
/// speech or all four.
pub fn lookup_senses(d: &impl Dictionary, word: &str, pos: Option<Pos>) -> Result<Vec<SenseView>> {
    let mut out = Vec::new();
    for p in Pos::selected(pos) {
        for lemma in morphy::morphy(d, word, p) {
            for (i, off) in d.synset_offsets(&lemma, p)?.into_iter().enumerate() {
                let syn = d.synset(SynsetId {
                    pos: p,
                    offset: off,
                })?;
                out.push(sense_view(d, &lemma, i + 1, &syn)?);
            }
        }
    }
    Ok(out)
}

/// The lemmas among `lemmas` spelled like `word` (spaces or `_`, any
/// case), for "did you mean" when WordNet lacks it: at most one edit away
/// (an insertion, a deletion, a substitution or two neighbours swapped)
/// for words of up to five letters, two for longer ones. Closest first,
/// then the more `common` (the caller's measure: the number of senses),
/// then alphabetically; each once, at most `max`, written with spaces.
/// [`did_you_mean`] words them for a message.
pub fn similar_lemmas<'a>(
    lemmas: impl Iterator<Item = &'a str>,
    word: &str,
    max: usize,
    common: impl Fn(&str) -> usize,
) -> Vec<String> {
    let query = word.trim().to_lowercase().replace(' ', "_");
    let limit = if query.chars().count() <= 5 { 1 } else { 2 };
    let mut found: Vec<(usize, std::cmp::Reverse<usize>, &str)> = lemmas
        .filter(|l| !l.is_empty() && l.len().abs_diff(query.len()) <= limit)
        .map(|l| (strsim::osa_distance(&query, l), l))
        .filter(|&(d, _)| d > 0 && d <= limit)
        .map(|(d, l)| (d, std::cmp::Reverse(common(l)), l))
        .collect();
    found.sort_unstable();
    let mut out: Vec<String> = Vec::new();
    for (_, _, lemma) in found {
        let lemma = lemma.replace('_', " ");
        if out.len() == max {
            break;
        }
        if !out.contains(&lemma) {
            out.push(lemma);
        }
    }
    out
}

/// The number of senses of `lemma` in `pos` (every category when `None`),
/// [`similar_lemmas`]' measure of how common a word is.
pub fn sense_count(d: &impl Dictionary, lemma: &str, pos: Option<Pos>) -> usize {
    Pos::selected(pos)
        .map(|p| d.synset_offsets(lemma, p).map_or(0, |o| o.len()))
        .sum()
}

/// `; did you mean: a, b?` to end a message about a word WordNet lacks,
/// or nothing when [`similar_lemmas`] found none.
pub fn did_you_mean(similar: &[String]) -> String {
    if similar.is_empty() {
        String::new()
    } else {
        format!("; did you mean: {}?", similar.join(", "))
    }
}

/// Hypernym paths from the root to `id`, following hypernyms and instance
/// hypernyms (NLTK's `hypernym_paths`, root first). The same paths as NLTK's
/// but in the data file's pointer order, as `wn` lists them: NLTK sorts a
/// synset's hypernyms by name and puts its instance hypernyms after them
/// (`greater_prairie_chicken.n.01`: NLTK's first path goes through
/// `gallinaceous_bird.n.01`, wsd's through `game.n.04`).
pub fn hypernym_paths(d: &impl Dictionary, id: SynsetId) -> Result<Vec<Vec<SynsetId>>> {
    fn walk(
        d: &impl Dictionary,
        id: SynsetId,
        depth: usize,
        out: &mut Vec<Vec<SynsetId>>,
    ) -> Result<()> {
        let syn = d.synset(id)?;
        let ups: Vec<SynsetId> = syn
            .pointers
            .iter()
            .filter(|p| {
                matches!(
                    p.kind,
                    PointerKind::Hypernym | PointerKind::InstanceHypernym
                )
            })
            .map(|p| p.target)
            .collect();
        if ups.is_empty() || depth > 100 {
            out.push(vec![id]);
            return Ok(());
        }
        for up in ups {
            let mut sub = Vec::new();
            walk(d, up, depth + 1, &mut sub)?;
            for mut path in sub {
                path.push(id);
                out.push(path);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(d, id, 0, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod similar_tests {
    use super::similar_lemmas;

    #[test]
    fn misspellings_find_the_lemmas_closest_first() {
        let lemmas = [
            "receive",
            "relieve",
            "recess",
            "accommodation",
            "interest_rate",
            "bank",
            "band",
            "ban",
            "bunk",
            "banking",
        ];
        // how common: bank has the most senses, then band
        let common = |l: &str| match l {
            "bank" => 18,
            "band" => 13,
            _ => 1,
        };
        let similar = |w: &str, max| similar_lemmas(lemmas.into_iter(), w, max, common);
        // a swap (ie/ei) is one edit, so receive comes before relieve (two)
        assert_eq!(similar("recieve", 5), ["receive", "relieve"]);
        assert_eq!(similar("accomodation", 5), ["accommodation"]);
        assert_eq!(similar("Intrest Rate", 5), ["interest rate"]);
        // short words allow one edit: banking is too far, the word itself
        // is no suggestion; at one edit the more common first
        assert_eq!(similar("bank", 5), ["band", "ban", "bunk"]);
        assert_eq!(similar("banc", 2), ["bank", "band"]);
        assert!(similar("xyzzy", 5).is_empty());
    }
}
