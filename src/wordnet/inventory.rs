//! The whole inventory in memory, for bulk work (disambiguation, training,
//! evaluation). Loading parses every `data.*`, `index.*`, `index.sense` and
//! `*.exc` file once, the four categories in parallel.

use std::borrow::Cow;
use std::cell::RefCell;

use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use super::dict::{content_lines, find_dict, read_file};
use super::morphy::{self, Lexicon};
use super::record::{
    parse_data_line, parse_index_line, parse_sense_index_line, SenseIndexEntry, Synset,
};
use super::{Dictionary, PointerKind, Pos, Sense, SynsetId};
use crate::{Error, Result};

/// lemma → its index entry.
type SenseTable = FxHashMap<Box<str>, LemmaEntry>;

/// An `index.*` entry: the synset offsets, and the senses (with their keys)
/// built on first use — most lemmas are never asked for, and computing
/// 206,941 sense keys up front would double the load time.
struct LemmaEntry {
    offsets: Box<[u32]>,
    senses: OnceLock<Box<[Sense]>>,
}

/// Per-category tables.
#[derive(Default)]
struct Category {
    /// lemma → senses in WordNet order.
    senses: SenseTable,
    /// inflected form → base forms (`*.exc`).
    exceptions: FxHashMap<Box<str>, Vec<Box<str>>>,
}

/// The loaded WordNet.
pub struct Inventory {
    dir: PathBuf,
    synsets: Vec<Synset>,
    position: FxHashMap<SynsetId, u32>,
    categories: [Category; 4],
    /// sense key → its `index.sense` entry (offset, sense number, tag count).
    keys: FxHashMap<Box<str>, KeyRecord>,
    checksum: OnceLock<String>,
    /// Unique per loaded inventory, so a thread's morphy memo
    /// ([`MorphyMemo`]) never answers for another one.
    id: u64,
}

/// Source of [`Inventory::id`]s.
static NEXT_INVENTORY_ID: AtomicU64 = AtomicU64::new(1);

/// Words a thread's [`MorphyMemo`] holds before it starts afresh.
const MORPHY_MEMO_WORDS: usize = 1 << 16;

/// [`Inventory::morphy`]'s answers per word and category, for the last
/// inventory this thread asked. The text pipeline asks morphy about the
/// same word several times (collocation starts and ends, the category
/// model's four categories, the lemma) and about the same frequent words
/// over and over; a look-up here is several times cheaper than morphy's
/// exception table, suffix rules and index probes.
#[derive(Default)]
struct MorphyMemo {
    inventory: u64,
    words: FxHashMap<Box<str>, [Option<Vec<String>>; 4]>,
}

thread_local! {
    static MORPHY_MEMO: RefCell<MorphyMemo> = RefCell::new(MorphyMemo::default());
}

#[derive(Clone, Copy)]
struct KeyRecord {
    offset: u32,
    number: u16,
    tag_count: u32,
}

struct Parsed {
    synsets: Vec<Synset>,
    index: Vec<(String, Vec<u32>)>,
    exceptions: FxHashMap<Box<str>, Vec<Box<str>>>,
}

fn load_category(dir: &Path, pos: Pos) -> Result<Parsed> {
    let data_path = dir.join(format!("data.{}", pos.file_suffix()));
    let text = read_file(&data_path)?;
    let mut synsets = Vec::with_capacity(text.len() / 200);
    let mut at = 0usize;
    for (lineno, line) in text.split_inclusive('\n').enumerate() {
        let start = at;
        at += line.len();
        let line = line.trim_end_matches(['\n', '\r']);
        if line.starts_with("  ") || line.trim().is_empty() {
            continue;
        }
        let syn = parse_data_line(line, pos, &data_path, lineno + 1)?;
        if syn.id.offset as usize != start {
            return Err(Error::parse(
                &data_path,
                lineno + 1,
                format!(
                    "record says offset {:08} but starts at byte {start}",
                    syn.id.offset
                ),
            ));
        }
        synsets.push(syn);
    }
    let index_path = dir.join(format!("index.{}", pos.file_suffix()));
    let text = read_file(&index_path)?;
    let mut index = Vec::new();
    for (lineno, line) in content_lines(&text) {
        let e = parse_index_line(line, &index_path, lineno)?;
        index.push((e.lemma, e.offsets));
    }
    let exc_path = dir.join(format!("{}.exc", pos.file_suffix()));
    let mut exceptions: FxHashMap<Box<str>, Vec<Box<str>>> = FxHashMap::default();
    if exc_path.exists() {
        let text = read_file(&exc_path)?;
        for (lineno, line) in content_lines(&text) {
            let mut it = line.split_ascii_whitespace();
            let form = it.next().unwrap_or_default();
            let bases: Vec<Box<str>> = it.map(Box::from).collect();
            if bases.is_empty() {
                return Err(Error::parse(
                    &exc_path,
                    lineno,
                    format!("exception {form:?} has no base form"),
                ));
            }
            exceptions.entry(form.into()).or_default().extend(bases);
        }
    }
    Ok(Parsed {
        synsets,
        index,
        exceptions,
    })
}

impl Inventory {
    /// Load from an explicit dict folder, or discover one (see [`find_dict`]).
    pub fn open(explicit: Option<&Path>) -> Result<Inventory> {
        let dir = find_dict(explicit)?;
        Inventory::load(&dir)
    }

    /// Load every file of the dict folder `dir`: the four categories and
    /// `index.sense` are parsed in parallel, then each category's lemma →
    /// senses table is built in parallel.
    ///
    /// A `dir` without WordNet's `data.noun` (a missing folder, or
    /// `wordnet/` for `wordnet/dict/`) is [`Error::WordNetNotFound`], as
    /// for [`Inventory::open`]; one without `index.sense` is
    /// [`Error::MissingResource`] (Debian ships it apart), one missing
    /// another file [`Error::Io`], a damaged one [`Error::Parse`].
    pub fn load(dir: &Path) -> Result<Inventory> {
        if !dir.join(super::dict::PROBE).is_file() {
            return Err(Error::WordNetNotFound {
                looked: dir.display().to_string(),
            });
        }
        let (parsed, keys) = std::thread::scope(|s| {
            let handles: Vec<_> = Pos::ALL
                .iter()
                .map(|&p| s.spawn(move || load_category(dir, p)))
                .collect();
            let keys = load_sense_index(&dir.join("index.sense"));
            let parsed: Vec<Result<Parsed>> = handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or(Err(Error::Internal("a WordNet loader thread panicked")))
                })
                .collect();
            (parsed, keys)
        });
        let keys = keys?;
        let mut synsets = Vec::new();
        let mut categories: [Category; 4] = Default::default();
        let mut indexes = Vec::new();
        for (ci, p) in parsed.into_iter().enumerate() {
            let p = p?;
            synsets.extend(p.synsets);
            categories[ci].exceptions = p.exceptions;
            indexes.push(p.index);
        }
        let mut position = FxHashMap::with_capacity_and_hasher(synsets.len(), Default::default());
        for (i, s) in synsets.iter().enumerate() {
            position.insert(s.id, i as u32);
        }
        let mut inv = Inventory {
            dir: dir.to_path_buf(),
            synsets,
            position,
            categories,
            keys,
            checksum: OnceLock::new(),
            id: NEXT_INVENTORY_ID.fetch_add(1, Ordering::Relaxed),
        };
        for (ci, index) in indexes.into_iter().enumerate() {
            let pos = Pos::ALL[ci];
            let mut table = FxHashMap::with_capacity_and_hasher(index.len(), Default::default());
            for (lemma, offsets) in index {
                if let Some(off) = offsets
                    .iter()
                    .find(|&&o| !inv.position.contains_key(&SynsetId { pos, offset: o }))
                {
                    let file = format!("index.{}", pos.file_suffix());
                    let what = format!("lemma {lemma:?}");
                    return Err(dangling(dir, &file, &format!("{lemma} "), &what, *off, pos));
                }
                table.insert(
                    lemma.into_boxed_str(),
                    LemmaEntry {
                        offsets: offsets.into_boxed_slice(),
                        senses: OnceLock::new(),
                    },
                );
            }
            inv.categories[ci].senses = table;
        }
        // A sense key whose synset data.* lacks would fail only when asked
        // for, naming data.* instead of the index.sense line at fault.
        for (key, rec) in &inv.keys {
            let Some((_, pos)) = crate::wordnet::SenseKey::lemma_and_pos(key) else {
                continue;
            };
            if !inv.position.contains_key(&SynsetId {
                pos,
                offset: rec.offset,
            }) {
                let what = format!("sense key {key}");
                return Err(dangling(
                    dir,
                    "index.sense",
                    &format!("{key} "),
                    &what,
                    rec.offset,
                    pos,
                ));
            }
        }
        Ok(inv)
    }

    /// The senses of one index entry, keys computed from the synsets.
    fn build_senses(&self, pos: Pos, lemma: &str, offsets: &[u32]) -> Box<[Sense]> {
        offsets
            .iter()
            .enumerate()
            .filter_map(|(n, &off)| {
                let id = SynsetId { pos, offset: off };
                let syn = self.get(id)?;
                // index.* and data.* agree in WordNet 3.0 (a test checks every
                // key); a lemma missing from its synset would be a damaged file.
                let w = syn.word_index(lemma).unwrap_or(0);
                let key = self.sense_key(syn, w);
                let tag_count = self.keys.get(key.as_str()).map_or(0, |r| r.tag_count);
                Some(Sense {
                    key,
                    synset: id,
                    number: n as u16 + 1,
                    tag_count,
                })
            })
            .collect()
    }

    /// The dict folder this inventory was loaded from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Number of synsets.
    pub fn len(&self) -> usize {
        self.synsets.len()
    }

    /// True when no synsets are loaded.
    pub fn is_empty(&self) -> bool {
        self.synsets.is_empty()
    }

    /// All synsets, nouns first, then verbs, adjectives, adverbs (file order).
    pub fn synsets(&self) -> &[Synset] {
        &self.synsets
    }

    /// The synset with `id`, if any.
    pub fn get(&self, id: SynsetId) -> Option<&Synset> {
        self.position.get(&id).map(|&i| &self.synsets[i as usize])
    }

    /// Position of `id` in [`Inventory::synsets`] (a dense index for caches).
    pub fn position(&self, id: SynsetId) -> Option<usize> {
        self.position.get(&id).map(|&i| i as usize)
    }

    /// Positions of the parents (hypernyms and instance hypernyms) of the
    /// synset at position `i`: the edges the similarity measures climb and
    /// `wsd info` checks for cycles.
    ///
    /// # Panics
    ///
    /// When `i` is not below [`Inventory::len`] (positions come from
    /// [`Inventory::position`]).
    pub fn parent_positions(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.synsets[i]
            .pointers
            .iter()
            .filter(|p| {
                matches!(
                    p.kind,
                    PointerKind::Hypernym | PointerKind::InstanceHypernym
                )
            })
            .filter_map(|p| self.position(p.target))
    }

    /// Senses of the lemma (exact index spelling after normalisation:
    /// lower case, `_` for spaces) in WordNet order. No morphology: see
    /// [`Inventory::lookup`] for inflected input.
    pub fn senses(&self, lemma: &str, pos: Pos) -> &[Sense] {
        let cat = &self.categories[pos.index()];
        let (lemma, entry) = match cat.senses.get_key_value(lemma) {
            Some(kv) => kv,
            None => match cat.senses.get_key_value(morphy::normalize(lemma).as_str()) {
                Some(kv) => kv,
                None => return &[],
            },
        };
        entry
            .senses
            .get_or_init(|| self.build_senses(pos, lemma, &entry.offsets))
    }

    /// Does WordNet have the lemma (spelled as for [`Inventory::senses`])
    /// in `pos`? Without building its senses: the front end asks this of
    /// words it may not disambiguate, and of every pair of words that
    /// could be a closed compound, so a spelling already in index form
    /// (lower case, no space) costs one hash lookup and no allocation.
    pub fn has_lemma(&self, lemma: &str, pos: Pos) -> bool {
        let cat = &self.categories[pos.index()];
        if cat.senses.contains_key(lemma) {
            return true;
        }
        let normal = lemma
            .chars()
            .all(|c| !c.is_uppercase() && !c.is_whitespace() && morphy::index_char(c).is_none())
            && !lemma.contains("__");
        !normal && cat.senses.contains_key(morphy::normalize(lemma).as_str())
    }

    /// Senses of a possibly inflected word: morphy's base forms in order,
    /// their senses concatenated.
    pub fn lookup(&self, word: &str, pos: Pos) -> Vec<&Sense> {
        morphy::morphy(self, word, pos)
            .iter()
            .flat_map(|l| self.senses(l, pos).iter())
            .collect()
    }

    /// Base forms of `word` in `pos` (WordNet's morphy), remembered per
    /// thread (`MorphyMemo`).
    pub fn morphy(&self, word: &str, pos: Pos) -> Vec<String> {
        MORPHY_MEMO.with(|memo| {
            let mut memo = memo.borrow_mut();
            if memo.inventory != self.id {
                memo.words.clear();
                memo.inventory = self.id;
            }
            if let Some(Some(bases)) = memo.words.get(word).map(|slots| &slots[pos.index()]) {
                return bases.clone();
            }
            let bases = morphy::morphy(self, word, pos);
            if memo.words.len() >= MORPHY_MEMO_WORDS {
                memo.words.clear();
            }
            memo.words.entry(word.into()).or_default()[pos.index()] = Some(bases.clone());
            bases
        })
    }

    /// How the synset of `sense` writes its lemma (case kept, `_` for
    /// spaces: `Mike`'s noun sense is written `mike`, `GNP`'s `GNP`): every
    /// word of the synset that is the sense key's lemma but for case.
    pub fn written_forms<'s>(&'s self, sense: &'s Sense) -> impl Iterator<Item = &'s str> + 's {
        let lemma = sense.key.split('%').next().unwrap_or("");
        self.get(sense.synset)
            .into_iter()
            .flat_map(|syn| syn.words.iter())
            .map(|w| w.lemma.as_str())
            .filter(move |w| w.eq_ignore_ascii_case(lemma))
    }

    /// The synset of a sense key, with the key's sense number and tag count.
    pub fn sense_by_key(&self, key: &str) -> Option<(&Synset, u16, u32)> {
        let r = self.keys.get(key)?;
        let pos = super::SenseKey::pos_of(key)?;
        let syn = self.get(SynsetId {
            pos,
            offset: r.offset,
        })?;
        Some((syn, r.number, r.tag_count))
    }

    /// Does WordNet have this sense key?
    pub fn has_key(&self, key: &str) -> bool {
        self.keys.contains_key(key)
    }

    /// Every lemma of a category (unordered).
    pub fn lemmas(&self, pos: Pos) -> impl Iterator<Item = &str> {
        self.categories[pos.index()].senses.keys().map(|k| &**k)
    }

    /// Lemmas of `pos` (all four when `None`) spelled like `word`, for
    /// "did you mean" ([`super::similar_lemmas`]; the loaded inventory's
    /// counterpart of [`super::Lookup::similar_lemmas`]).
    pub fn similar_lemmas(&self, word: &str, pos: Option<Pos>, max: usize) -> Vec<String> {
        let lemmas = Pos::selected(pos).flat_map(|p| self.lemmas(p));
        super::similar_lemmas(lemmas, word, max, |l| super::sense_count(self, l, pos))
    }

    /// A fingerprint of this WordNet: sha256 of `index.sense`, which fixes
    /// every sense key and offset a model can refer to. Computed once, on
    /// first use.
    pub fn checksum(&self) -> Result<&str> {
        if let Some(c) = self.checksum.get() {
            return Ok(c);
        }
        let path = self.dir.join("index.sense");
        let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
        let hex = crate::model_io::sha256_hex(&bytes);
        Ok(self.checksum.get_or_init(|| hex))
    }

    /// The sense key of word `word` (0-based) of `syn`.
    ///
    /// # Panics
    ///
    /// When `word` is not below `syn.words.len()` ([`Synset::word_index`]
    /// finds a lemma's word).
    pub fn sense_key(&self, syn: &Synset, word: usize) -> String {
        super::sense_key_with(syn, word, |id| self.get(id).map(Cow::Borrowed))
    }
}

impl Lexicon for Inventory {
    fn has_lemma(&self, lemma: &str, pos: Pos) -> bool {
        // Exact: morphy asks of forms it built itself.
        self.categories[pos.index()].senses.contains_key(lemma)
    }
    fn exception_bases(&self, form: &str, pos: Pos) -> Vec<String> {
        self.categories[pos.index()]
            .exceptions
            .get(form)
            .map(|v| v.iter().map(|b| b.to_string()).collect())
            .unwrap_or_default()
    }
}

impl Dictionary for Inventory {
    fn dict_dir(&self) -> &Path {
        &self.dir
    }
    fn synset_offsets(&self, lemma: &str, pos: Pos) -> Result<Vec<u32>> {
        Ok(self
            .senses(lemma, pos)
            .iter()
            .map(|s| s.synset.offset)
            .collect())
    }
    fn synset(&self, id: SynsetId) -> Result<Cow<'_, Synset>> {
        self.get(id)
            .map(Cow::Borrowed)
            .ok_or_else(|| Error::UnknownId(super::offset_string(id, None)))
    }
    fn sense_index(&self, key: &str) -> Result<Option<SenseIndexEntry>> {
        Ok(self.keys.get(key).map(|r| SenseIndexEntry {
            key: key.to_string(),
            offset: r.offset,
            number: r.number,
            tag_count: r.tag_count,
        }))
    }
}

/// Parse `index.sense` into key → (offset, sense number, tag count).
fn load_sense_index(path: &Path) -> Result<FxHashMap<Box<str>, KeyRecord>> {
    if !path.exists() {
        return Err(super::dict::missing_sense_index(path));
    }
    let text = read_file(path)?;
    if text.is_empty() {
        return Err(Error::parse(
            path,
            1,
            "empty file (0 bytes): index.sense holds every sense key and tag count; restore it (scripts/fetch-data.sh)",
        ));
    }
    let mut keys = FxHashMap::with_capacity_and_hasher(text.len() / 30, Default::default());
    for (n, line) in content_lines(&text) {
        let e = parse_sense_index_line(line, path, n)?;
        keys.insert(
            e.key.into_boxed_str(),
            KeyRecord {
                offset: e.offset,
                number: e.number,
                tag_count: e.tag_count,
            },
        );
    }
    Ok(keys)
}

/// The error of an index entry (`what`, on the line of `file` in `dir`
/// that starts with `prefix`) pointing at a synset data.* lacks.
fn dangling(dir: &Path, file: &str, prefix: &str, what: &str, offset: u32, pos: Pos) -> Error {
    let path = dir.join(file);
    let line = line_starting_with(&path, prefix);
    Error::parse(
        path,
        line,
        format!(
            "{what} points at synset {offset:08}, which data.{} lacks (truncated or damaged?)",
            pos.file_suffix()
        ),
    )
}

/// The 1-based number of the first line of `path` that starts with
/// `needle`, else 1: read again on the error path only, to name the line
/// of an index entry that points at a missing synset.
fn line_starting_with(path: &Path, needle: &str) -> usize {
    std::fs::read(path)
        .ok()
        .and_then(|b| {
            b.split(|&c| c == b'\n')
                .position(|l| l.starts_with(needle.as_bytes()))
        })
        .map_or(1, |i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mini-wordnet")
    }

    #[test]
    fn has_lemma_agrees_with_senses() {
        let inv = Inventory::load(&fixture()).unwrap();
        for (lemma, pos) in [
            ("bank", Pos::Noun),
            ("Bank", Pos::Noun),
            ("banking company", Pos::Noun),
            ("bank", Pos::Verb),
            ("happen", Pos::Noun),
            ("banks", Pos::Noun),
        ] {
            assert_eq!(
                inv.has_lemma(lemma, pos),
                !inv.senses(lemma, pos).is_empty(),
                "{lemma} {pos:?}"
            );
        }
        assert!(inv.has_lemma("Bank", Pos::Noun));
        assert!(!inv.has_lemma("banks", Pos::Noun), "no morphology");
    }

    /// The per-thread morphy memo answers for the inventory asked, not
    /// for the one asked before it: two WordNets that differ in one
    /// exception, asked in turn on one thread.
    #[test]
    fn morphy_memo_is_per_inventory() {
        let other = std::env::temp_dir().join(format!("wsd-morphy-memo-{}", std::process::id()));
        std::fs::create_dir_all(&other).unwrap();
        for entry in std::fs::read_dir(fixture()).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, other.join(path.file_name().unwrap())).unwrap();
        }
        let exc = other.join("noun.exc");
        let mut text = std::fs::read_to_string(&exc).unwrap();
        text.push_str("wugs bank\n");
        std::fs::write(&exc, text).unwrap();
        let plain = Inventory::load(&fixture()).unwrap();
        let with_wugs = Inventory::load(&other).unwrap();
        for _ in 0..2 {
            assert!(plain.morphy("wugs", Pos::Noun).is_empty());
            assert_eq!(with_wugs.morphy("wugs", Pos::Noun), ["bank"]);
            // Memoised answers equal morphy's own, per category.
            for p in Pos::ALL {
                assert_eq!(plain.morphy("banks", p), morphy::morphy(&plain, "banks", p));
            }
        }
        std::fs::remove_dir_all(&other).ok();
    }
}
