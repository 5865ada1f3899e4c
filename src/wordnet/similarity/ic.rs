//! The information-content measures (Resnik, Jiang–Conrath, Lin) and the
//! [`Ic`] table they read: counts, smoothing, its text file format.

use std::io::{BufRead, Read};
use std::path::Path;

use super::{closure_of, Similarity, NLTK_INF};
use crate::wordnet::{Inventory, Pos, SynsetId};
use crate::{Error, Result};

impl<'a> Similarity<'a> {
    /// NLTK's `_lcs_ic`: IC of both synsets and of their most informative
    /// common ancestor (0 when none); `None` across synset types.
    fn lcs_ic(&self, i: usize, j: usize, ic: &Ic) -> Option<(f64, f64, f64)> {
        if self.ss_type(i) != self.ss_type(j) {
            return None;
        }
        let ic1 = ic.ic_at(self.inv, i);
        let ic2 = ic.ic_at(self.inv, j);
        let lcs = self
            .common(i, j)
            .into_iter()
            .map(|k| ic.ic_at(self.inv, k))
            .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))))
            .unwrap_or(0.0);
        Some((ic1, ic2, lcs))
    }

    /// Resnik similarity: IC of the most informative common subsumer.
    pub fn res(&self, a: SynsetId, b: SynsetId, ic: &Ic) -> Option<f64> {
        let (i, j) = (self.index(a)?, self.index(b)?);
        self.lcs_ic(i, j, ic).map(|(_, _, l)| l)
    }

    /// Jiang–Conrath similarity: `1 / (IC(a) + IC(b) - 2 IC(lcs))`, with
    /// NLTK's special cases (`1e300` for identity or a zero difference, 0
    /// when either IC is 0).
    pub fn jcn(&self, a: SynsetId, b: SynsetId, ic: &Ic) -> Option<f64> {
        let (i, j) = (self.index(a)?, self.index(b)?);
        if i == j {
            return Some(NLTK_INF);
        }
        let (ic1, ic2, lcs) = self.lcs_ic(i, j, ic)?;
        if ic1 == 0.0 || ic2 == 0.0 {
            return Some(0.0);
        }
        let diff = ic1 + ic2 - 2.0 * lcs;
        if diff == 0.0 {
            return Some(NLTK_INF);
        }
        Some(1.0 / diff)
    }

    /// Lin similarity: `2 IC(lcs) / (IC(a) + IC(b))`; `None` where NLTK
    /// divides by zero (both synsets with IC 0, e.g. the root with itself).
    pub fn lin(&self, a: SynsetId, b: SynsetId, ic: &Ic) -> Option<f64> {
        let (i, j) = (self.index(a)?, self.index(b)?);
        let (ic1, ic2, lcs) = self.lcs_ic(i, j, ic)?;
        if ic1 + ic2 == 0.0 {
            return None;
        }
        Some(2.0 * lcs / (ic1 + ic2))
    }
}

/// An information-content table: a (smoothed) frequency per synset that
/// includes the frequencies of all its hyponyms, and a total per category.
///
/// # Counting
///
/// Each tagged occurrence of a synset adds its weight (1 per sense key) to
/// the synset and to every ancestor through hypernym and instance-hypernym
/// pointers — each ancestor **once** per occurrence, however many paths
/// lead to it — and to the category total (NLTK's root count `ic[pos][0]`).
/// NLTK's `WordNetCorpusReader.ic()` does the same for untagged words,
/// spreading each word over its synsets; its level-by-level walk can count
/// an ancestor twice when two parents of one level share it, which we do not.
///
/// # Smoothing
///
/// NLTK's default `smoothing=1.0`: every synset, and every category total,
/// starts at 1 before counting (add-one on the synset's own count, not
/// propagated). So no synset has a zero count, and the root's IC is 0.
/// With smoothing 0, unseen synsets have IC `1e300` as in NLTK.
#[derive(Clone, Debug, PartialEq)]
pub struct Ic {
    counts: Vec<f64>,
    totals: [f64; 4],
    smoothing: f64,
    /// Occurrences counted.
    pub occurrences: u64,
    /// Keys that WordNet does not have (skipped).
    pub unknown: u64,
}

/// The header line's magic word and version.
const IC_MAGIC: &str = "wsd-ic";
const IC_VERSION: u32 = 1;

impl Ic {
    /// A table with no occurrences, every count at `smoothing`.
    pub fn empty(inv: &Inventory, smoothing: f64) -> Ic {
        Ic {
            counts: vec![smoothing; inv.len()],
            totals: [smoothing; 4],
            smoothing,
            occurrences: 0,
            unknown: 0,
        }
    }

    /// Add `weight` occurrences of synset `id` (to it, each ancestor once,
    /// and the category total). False when `id` is not in the inventory.
    pub fn add(&mut self, inv: &Inventory, id: SynsetId, weight: f64) -> bool {
        let Some(i) = inv.position(id) else {
            return false;
        };
        for &(p, _) in closure_of(inv, i).iter() {
            self.counts[p as usize] += weight;
        }
        self.totals[id.pos.index()] += weight;
        true
    }

    /// The smoothing the table was built with.
    pub fn smoothing(&self) -> f64 {
        self.smoothing
    }

    /// The (propagated, smoothed) count of a synset.
    pub fn count(&self, inv: &Inventory, id: SynsetId) -> Option<f64> {
        inv.position(id).map(|i| self.counts[i])
    }

    /// The category total (NLTK's root count).
    pub fn total(&self, pos: Pos) -> f64 {
        self.totals[pos.index()]
    }

    fn ic_at(&self, inv: &Inventory, i: usize) -> f64 {
        let c = self.counts[i];
        if c == 0.0 {
            return NLTK_INF;
        }
        -(c / self.totals[inv.synsets()[i].id.pos.index()]).ln()
    }

    /// Information content `-ln(count / total)` (NLTK's
    /// `information_content`; `1e300` for a zero count).
    pub fn information_content(&self, inv: &Inventory, id: SynsetId) -> Option<f64> {
        inv.position(id).map(|i| self.ic_at(inv, i))
    }

    /// Write the table as text: a header line
    /// `wsd-ic 1 smoothing=S occurrences=N unknown=U`, one line per category
    /// total `ROOT-n COUNT`, then `OFFSET-P COUNT` for every synset whose
    /// count differs from the smoothing value. Written to a temporary file
    /// in the same folder and renamed into place.
    pub fn write(&self, inv: &Inventory, path: &Path) -> Result<()> {
        crate::atomic::write_atomically(path, |w| {
            writeln!(
                w,
                "{IC_MAGIC} {IC_VERSION} smoothing={} occurrences={} unknown={}",
                self.smoothing, self.occurrences, self.unknown
            )?;
            for p in Pos::ALL {
                writeln!(w, "ROOT-{} {}", p.letter(), self.total(p))?;
            }
            for (i, s) in inv.synsets().iter().enumerate() {
                if self.counts[i] != self.smoothing {
                    writeln!(
                        w,
                        "{:08}-{} {}",
                        s.id.offset,
                        s.id.pos.letter(),
                        self.counts[i]
                    )?;
                }
            }
            Ok(())
        })
    }

    /// Read a table written by [`Ic::write`] for the same inventory.
    pub fn read(inv: &Inventory, path: &Path) -> Result<Ic> {
        let f = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
        let mut reader = std::io::BufReader::new(f);
        // The header line is short: read at most HEADER_MAX bytes of it, so
        // that a file with no line end (`/dev/zero`) is refused, not read
        // into memory until the allocator gives up.
        const HEADER_MAX: u64 = 4096;
        let mut head = Vec::new();
        (&mut reader)
            .take(HEADER_MAX)
            .read_until(b'\n', &mut head)
            .map_err(|e| Error::io(path, e))?;
        if head.is_empty() {
            return Err(Error::parse(path, 1, "empty file, expected an IC table"));
        }
        if !head.ends_with(b"\n") && head.len() as u64 == HEADER_MAX {
            return Err(Error::parse(
                path,
                1,
                format!("not a wsd IC table (no line end in its first {HEADER_MAX} bytes); write one with `wsd ic`"),
            ));
        }
        let header = String::from_utf8(head).map_err(|_| {
            Error::parse(
                path,
                1,
                "not a wsd IC table (not UTF-8 text); write one with `wsd ic`",
            )
        })?;
        let header = header.trim_end_matches(['\n', '\r']).to_string();
        let lines = reader.lines();
        let mut fields = header.split_ascii_whitespace();
        if fields.next() != Some(IC_MAGIC) {
            return Err(Error::parse(
                path,
                1,
                format!("not a wsd IC table (header {header:?}); write one with `wsd ic`"),
            ));
        }
        let version: u32 = fields
            .next()
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| Error::parse(path, 1, "missing format version"))?;
        if version != IC_VERSION {
            return Err(Error::parse(
                path,
                1,
                format!("IC format version {version}, this wsd reads version {IC_VERSION}"),
            ));
        }
        let mut smoothing = None;
        let (mut occurrences, mut unknown) = (0, 0);
        for f in fields {
            let bad = || Error::parse(path, 1, format!("bad header field {f:?}"));
            match f.split_once('=') {
                Some(("smoothing", v)) => smoothing = Some(v.parse().map_err(|_| bad())?),
                Some(("occurrences", v)) => occurrences = v.parse().map_err(|_| bad())?,
                Some(("unknown", v)) => unknown = v.parse().map_err(|_| bad())?,
                _ => {}
            }
        }
        let smoothing: f64 =
            smoothing.ok_or_else(|| Error::parse(path, 1, "header lacks smoothing=S"))?;
        if !(smoothing.is_finite() && smoothing >= 0.0) {
            return Err(Error::parse(
                path,
                1,
                format!("smoothing={smoothing}: must be a finite number ≥ 0"),
            ));
        }
        let mut ic = Ic::empty(inv, smoothing);
        ic.occurrences = occurrences;
        ic.unknown = unknown;
        let mut roots = [0usize; 4];
        let mut seen = vec![0usize; inv.len()];
        let mut last_line = 1;
        for (n, line) in lines.enumerate() {
            let lineno = n + 2;
            last_line = lineno;
            let line = line.map_err(|e| Error::io(path, e))?;
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let bad = |msg: String| Error::parse(path, lineno, msg);
            let (id, count) = line.split_once(' ').ok_or_else(|| {
                bad(format!(
                    "expected `OFFSET-POS COUNT`, got {:?}",
                    crate::error::excerpt(line)
                ))
            })?;
            let count: f64 = count
                .trim()
                .parse()
                .ok()
                .filter(|c: &f64| c.is_finite() && *c >= 0.0)
                .ok_or_else(|| bad(format!("bad count {:?}", crate::error::excerpt(count))))?;
            let (num, letter) = id
                .rsplit_once('-')
                .ok_or_else(|| bad(format!("bad synset id {:?}", crate::error::excerpt(id))))?;
            let pos = letter
                .chars()
                .next()
                .filter(|_| letter.len() == 1)
                .and_then(Pos::from_letter)
                .ok_or_else(|| bad(format!("bad part of speech in {id:?}")))?;
            if num == "ROOT" {
                if count <= 0.0 {
                    return Err(bad(format!(
                        "ROOT-{letter} {count}: a category total must be > 0"
                    )));
                }
                if roots[pos.index()] != 0 {
                    return Err(bad(format!(
                        "second ROOT-{letter} line (the first is line {})",
                        roots[pos.index()]
                    )));
                }
                ic.totals[pos.index()] = count;
                roots[pos.index()] = lineno;
                continue;
            }
            let offset: u32 = num
                .parse()
                .map_err(|_| bad(format!("bad synset offset in {id:?}")))?;
            let i = inv
                .position(SynsetId { pos, offset })
                .ok_or_else(|| bad(format!("WordNet has no synset {id}")))?;
            if seen[i] != 0 {
                return Err(bad(format!(
                    "second line for {id} (the first is line {})",
                    seen[i]
                )));
            }
            seen[i] = lineno;
            ic.counts[i] = count;
        }
        if let Some(p) = roots.iter().position(|r| *r == 0) {
            return Err(Error::parse(
                path,
                last_line,
                format!("no ROOT-{} line (category total)", Pos::ALL[p].letter()),
            ));
        }
        Ok(ic)
    }
}

/// An IC table from sense-tagged occurrences, one sense key each (a
/// SemCor reader's keys, for instance), with NLTK's default add-one
/// smoothing. Keys WordNet does not have are counted in [`Ic::unknown`].
pub fn ic_from_keys<'k>(inv: &Inventory, keys: impl IntoIterator<Item = &'k str>) -> Ic {
    ic_from_keys_with(inv, keys, 1.0)
}

/// [`ic_from_keys`] with an explicit smoothing value.
pub fn ic_from_keys_with<'k>(
    inv: &Inventory,
    keys: impl IntoIterator<Item = &'k str>,
    smoothing: f64,
) -> Ic {
    let mut ic = Ic::empty(inv, smoothing);
    for key in keys {
        match inv.sense_by_key(key.trim()) {
            Some((syn, _, _)) => {
                let id = syn.id;
                ic.add(inv, id, 1.0);
                ic.occurrences += 1;
            }
            None => ic.unknown += 1,
        }
    }
    ic
}

/// An IC table from WordNet's own tag counts (`index.sense`, the counts of
/// the semantic concordances SemCor belongs to): each sense counted
/// `tag_count` times, with add-one smoothing. A table available without
/// any corpus.
pub fn ic_from_tag_counts(inv: &Inventory) -> Ic {
    let mut ic = Ic::empty(inv, 1.0);
    for p in Pos::ALL {
        for lemma in inv.lemmas(p) {
            for s in inv.senses(lemma, p) {
                if s.tag_count > 0 {
                    ic.add(inv, s.synset, s.tag_count as f64);
                    ic.occurrences += s.tag_count as u64;
                }
            }
        }
    }
    ic
}
