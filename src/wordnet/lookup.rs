//! Single lookups without loading the inventory: binary search in the
//! sorted `index.*`, `index.sense` and `*.exc` files and a seek to the
//! record's byte offset in `data.*`, as Princeton's own `wn` does. This is
//! what keeps `wsd senses bank` within a few milliseconds.

use std::borrow::Cow;
use std::fs::File;
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use super::dict::{find_dict, line_of, search_lines_checked};
use super::morphy::Lexicon;
use super::record::{
    parse_data_line, parse_index_line, parse_sense_index_line, SenseIndexEntry, Synset,
};
use super::{Dictionary, Pos, SynsetId};
use crate::{Error, Result};

/// A memory-mapped file (or nothing, when the file is absent or empty).
struct Mapped {
    path: PathBuf,
    map: Option<Mmap>,
}

impl Mapped {
    fn open(path: PathBuf, required: bool) -> Result<Mapped> {
        let file = match File::open(&path) {
            Ok(f) => f,
            Err(e) if !required && e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Mapped { path, map: None });
            }
            Err(e) => return Err(Error::io(&path, e)),
        };
        let meta = file.metadata().map_err(|e| Error::io(&path, e))?;
        if meta.is_dir() {
            return Err(Error::io(
                &path,
                std::io::Error::other("is a directory, expected a WordNet file"),
            ));
        }
        if meta.len() == 0 {
            if required {
                return Err(Error::parse(
                    &path,
                    1,
                    "empty file (0 bytes); restore the dictionary (scripts/fetch-data.sh)",
                ));
            }
            return Ok(Mapped { path, map: None });
        }
        // SAFETY: the dict files are read-only data that wsd never writes;
        // if another process truncated one while mapped, reads could fault,
        // which is the same contract Princeton's `wn` and every mmap reader
        // of these files accepts.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| Error::io(&path, e))?;
        super::dict::check_line_ends(&path, &map, true)?;
        Ok(Mapped {
            path,
            map: Some(map),
        })
    }

    fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }
}

/// Binary-search access to a dict folder.
pub struct Lookup {
    dir: PathBuf,
    index: Vec<Mapped>,
    data: Vec<Mapped>,
    exc: Vec<Mapped>,
    sense_index: Mapped,
    /// The first out-of-order line a lookup without a `Result` (morphy's
    /// `has_lemma`, `exception_bases`) ran into: (file, byte offset).
    damage: std::sync::Mutex<Option<(PathBuf, usize)>>,
}

/// The error for a file found out of order at byte `offset`.
fn unsorted(m: &Mapped, offset: usize) -> Error {
    Error::parse(
        &m.path,
        line_of(m.bytes(), offset),
        format!(
            "line at byte offset {offset} is out of sort order: the file is damaged or unsorted, so lookups in it cannot be trusted (run `wsd info` for a full check)"
        ),
    )
}

/// Binary search that reports an unsorted file as an error.
fn search<'a>(m: &'a Mapped, key: &[u8]) -> Result<Vec<(usize, &'a [u8])>> {
    search_lines_checked(m.bytes(), key).map_err(|off| unsorted(m, off))
}

fn line_str<'a>(m: &Mapped, start: usize, bytes: &'a [u8]) -> Result<&'a str> {
    std::str::from_utf8(bytes)
        .map_err(|_| Error::parse(&m.path, line_of(m.bytes(), start), "invalid UTF-8"))
}

/// Parse the line at byte `start` with `f`. Counting lines to the middle of
/// a 15 MB file costs more than the lookup itself, so the line number is
/// computed only when the line fails to parse.
fn parse_at<T>(
    m: &Mapped,
    start: usize,
    bytes: &[u8],
    f: impl Fn(&str, usize) -> Result<T>,
) -> Result<T> {
    let text = line_str(m, start, bytes)?;
    f(text, 0).or_else(|_| f(text, line_of(m.bytes(), start)))
}

impl Lookup {
    /// Open an explicit dict folder, or discover one (see [`find_dict`]).
    pub fn open(explicit: Option<&Path>) -> Result<Lookup> {
        let dir = find_dict(explicit)?;
        let f = |name: String, required: bool| Mapped::open(dir.join(name), required);
        let mut index = Vec::new();
        let mut data = Vec::new();
        let mut exc = Vec::new();
        for p in Pos::ALL {
            index.push(f(format!("index.{}", p.file_suffix()), true)?);
            data.push(f(format!("data.{}", p.file_suffix()), true)?);
            exc.push(f(format!("{}.exc", p.file_suffix()), false)?);
        }
        let sense_path = dir.join("index.sense");
        if !sense_path.exists() {
            return Err(super::dict::missing_sense_index(&sense_path));
        }
        let sense_index = f("index.sense".to_string(), true)?;
        Ok(Lookup {
            dir,
            index,
            data,
            exc,
            sense_index,
            damage: std::sync::Mutex::new(None),
        })
    }

    /// Lemmas of `pos` (all four when `None`) spelled like `word`, for
    /// "did you mean" (see [`super::similar_lemmas`]). Scans the `index.*`
    /// files (about 150,000 lemmas, some tens of milliseconds): for the
    /// error path, not for lookups.
    pub fn similar_lemmas(&self, word: &str, pos: Option<Pos>, max: usize) -> Vec<String> {
        let lemmas = Pos::selected(pos)
            .flat_map(|p| self.index[Self::cat(p)].bytes().split(|&b| b == b'\n'))
            // lines start with the lemma; the licence lines with spaces
            .filter_map(|line| {
                let end = line.iter().position(|&b| b == b' ')?;
                std::str::from_utf8(&line[..end]).ok()
            });
        super::similar_lemmas(lemmas, word, max, |l| super::sense_count(self, l, pos))
    }

    fn cat(pos: Pos) -> usize {
        Pos::ALL.iter().position(|&p| p == pos).unwrap_or(0)
    }

    fn note_damage(&self, m: &Mapped, offset: usize) {
        let mut d = self.damage.lock().unwrap_or_else(|e| e.into_inner());
        d.get_or_insert((m.path.clone(), offset));
    }

    /// The damage an earlier lookup noted, as an error.
    fn damaged(&self) -> Result<()> {
        let d = self.damage.lock().unwrap_or_else(|e| e.into_inner());
        match &*d {
            None => Ok(()),
            Some((path, off)) => {
                let m = self
                    .index
                    .iter()
                    .chain(&self.exc)
                    .find(|m| &m.path == path)
                    .expect("damage is noted in our files");
                Err(unsorted(m, *off))
            }
        }
    }
}

impl Lexicon for Lookup {
    fn has_lemma(&self, lemma: &str, pos: Pos) -> bool {
        let m = &self.index[Self::cat(pos)];
        match search(m, lemma.as_bytes()) {
            Ok(v) => !v.is_empty(),
            Err(_) => {
                // Say yes, so that the caller's `synset_offsets` reports it.
                let off = search_lines_checked(m.bytes(), lemma.as_bytes()).unwrap_err();
                self.note_damage(m, off);
                true
            }
        }
    }
    fn exception_bases(&self, form: &str, pos: Pos) -> Vec<String> {
        let m = &self.exc[Self::cat(pos)];
        let found = match search_lines_checked(m.bytes(), form.as_bytes()) {
            Ok(v) => v,
            Err(off) => {
                self.note_damage(m, off);
                Vec::new()
            }
        };
        found
            .into_iter()
            .flat_map(|(_, l)| {
                String::from_utf8_lossy(l)
                    .split_ascii_whitespace()
                    .skip(1)
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .collect()
    }
}

impl Dictionary for Lookup {
    fn dict_dir(&self) -> &Path {
        &self.dir
    }

    fn synset_offsets(&self, lemma: &str, pos: Pos) -> Result<Vec<u32>> {
        self.damaged()?;
        let m = &self.index[Self::cat(pos)];
        match search(m, lemma.as_bytes())?.first() {
            None => Ok(Vec::new()),
            Some(&(start, bytes)) => {
                Ok(parse_at(m, start, bytes, |t, n| parse_index_line(t, &m.path, n))?.offsets)
            }
        }
    }

    fn synset(&self, id: SynsetId) -> Result<Cow<'_, Synset>> {
        let m = &self.data[Self::cat(id.pos)];
        let buf = m.bytes();
        let start = id.offset as usize;
        if start >= buf.len() {
            // An offset from an index file past the end: a truncated data
            // file (a typed offset gets `UnknownId` from `resolve_id`).
            return Err(Error::parse(
                &m.path,
                line_of(buf, buf.len().saturating_sub(1)),
                format!(
                    "byte offset {start} is past the end of the file ({} bytes): no such synset, or the file is truncated (run `wsd info`)",
                    buf.len()
                ),
            ));
        }
        let misplaced = || {
            Error::parse(
                &m.path,
                line_of(buf, start),
                format!(
                    "byte offset {start} is not the start of record {:08}: no such synset, or the file is shifted or damaged (run `wsd info`)",
                    id.offset
                ),
            )
        };
        if start > 0 && buf[start - 1] != b'\n' {
            return Err(misplaced());
        }
        let end = buf[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(buf.len(), |p| start + p);
        let head = format!("{:08} ", id.offset);
        if !buf[start..end].starts_with(head.as_bytes()) {
            return Err(misplaced());
        }
        let syn = parse_at(m, start, &buf[start..end], |t, n| {
            parse_data_line(t, id.pos, &m.path, n)
        })?;
        Ok(Cow::Owned(syn))
    }

    fn sense_index(&self, key: &str) -> Result<Option<SenseIndexEntry>> {
        let m = &self.sense_index;
        match search(m, key.as_bytes())?.first() {
            None => Ok(None),
            Some(&(start, bytes)) => Ok(Some(parse_at(m, start, bytes, |t, n| {
                parse_sense_index_line(t, &m.path, n)
            })?)),
        }
    }
}
