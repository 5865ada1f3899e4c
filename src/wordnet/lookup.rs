//! Single lookups without loading the inventory: binary search in the
//! sorted `index.*`, `index.sense` and `*.exc` files and a seek to the
//! record's byte offset in `data.*`, as Princeton's own `wn` does. This is
//! what keeps `wsd senses bank` within a few milliseconds.

use std::borrow::Cow;
use std::fs::File;
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use super::dict::{find_dict, line_of, search_lines};
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
        let len = file.metadata().map_err(|e| Error::io(&path, e))?.len();
        if len == 0 {
            return Ok(Mapped { path, map: None });
        }
        // SAFETY: the dict files are read-only data that wsd never writes;
        // if another process truncated one while mapped, reads could fault,
        // which is the same contract Princeton's `wn` and every mmap reader
        // of these files accepts.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| Error::io(&path, e))?;
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
        let sense_index = f("index.sense".to_string(), true)?;
        Ok(Lookup {
            dir,
            index,
            data,
            exc,
            sense_index,
        })
    }

    fn cat(pos: Pos) -> usize {
        Pos::ALL.iter().position(|&p| p == pos).unwrap_or(0)
    }
}

impl Lexicon for Lookup {
    fn has_lemma(&self, lemma: &str, pos: Pos) -> bool {
        !search_lines(self.index[Self::cat(pos)].bytes(), lemma.as_bytes()).is_empty()
    }
    fn exception_bases(&self, form: &str, pos: Pos) -> Vec<String> {
        search_lines(self.exc[Self::cat(pos)].bytes(), form.as_bytes())
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
        let m = &self.index[Self::cat(pos)];
        match search_lines(m.bytes(), lemma.as_bytes()).first() {
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
        let unknown = || Error::UnknownId(super::offset_string(id, None));
        if start >= buf.len() || (start > 0 && buf[start - 1] != b'\n') {
            return Err(unknown());
        }
        let end = buf[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(buf.len(), |p| start + p);
        let head = format!("{:08} ", id.offset);
        if !buf[start..end].starts_with(head.as_bytes()) {
            return Err(unknown());
        }
        let syn = parse_at(m, start, &buf[start..end], |t, n| {
            parse_data_line(t, id.pos, &m.path, n)
        })?;
        Ok(Cow::Owned(syn))
    }

    fn sense_index(&self, key: &str) -> Result<Option<SenseIndexEntry>> {
        let m = &self.sense_index;
        match search_lines(m.bytes(), key.as_bytes()).first() {
            None => Ok(None),
            Some(&(start, bytes)) => Ok(Some(parse_at(m, start, bytes, |t, n| {
                parse_sense_index_line(t, &m.path, n)
            })?)),
        }
    }
}
