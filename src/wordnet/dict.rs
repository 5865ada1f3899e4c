//! Finding the dict folder and reading its files.
//!
//! Discovery follows Princeton's convention: an explicit `--wordnet DIR`,
//! else `$WNSEARCHDIR`, else the data home's `wordnet/dict`
//! ([`crate::resources::data_home`]), else `./wordnet/dict` (where
//! `scripts/fetch-data.sh` puts it in a checkout), else
//! `/usr/share/wordnet` (Debian's `wordnet-base`).

use std::path::{Path, PathBuf};

pub use crate::text::blocks::line_of;
use crate::{Error, Result};

/// The file every usable dict folder has.
pub(crate) const PROBE: &str = "data.noun";

/// Locate the WordNet dict folder. An explicit folder must be usable — or
/// hold a usable `dict/`, as the unpacked WordNet-3.0 archive and wsd's
/// own `wordnet/` do; the fallbacks are tried in order. The error lists
/// every place tried.
pub fn find_dict(explicit: Option<&Path>) -> Result<PathBuf> {
    let mut looked = Vec::new();
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(dir) = explicit {
        candidates.push(dir.to_path_buf());
        candidates.push(dir.join("dict"));
    } else {
        if let Some(env) = std::env::var_os("WNSEARCHDIR") {
            if !env.is_empty() {
                candidates.push(PathBuf::from(env));
            }
        }
        candidates.extend(crate::resources::search_path("wordnet/dict"));
        candidates.push(PathBuf::from("/usr/share/wordnet"));
    }
    for dir in candidates {
        if dir.join(PROBE).is_file() {
            return Ok(dir);
        }
        looked.push(dir.display().to_string());
    }
    Err(Error::WordNetNotFound {
        looked: looked.join(", "),
    })
}

/// A dict folder without `index.sense`: Debian's and Ubuntu's
/// `wordnet-base` installs `/usr/share/wordnet` so (the sense index is a
/// package of its own), and the folder is found by its `data.noun`.
pub fn missing_sense_index(path: &Path) -> Error {
    Error::MissingResource {
        what: "WordNet sense index".into(),
        path: path.to_path_buf(),
        fix: "this dict folder has WordNet's data files but not index.sense, which holds every sense key and tag count (Debian and Ubuntu ship it apart: apt-get install wordnet-sense-index); or get the whole dictionary with scripts/install.sh".into(),
    }
}

/// The message for a dict file with CR line ends.
const CR_LINE_ENDS: &str = "CR line ends (the file was converted, e.g. to Windows CRLF): WordNet's byte offsets need the original file; restore the dictionary (scripts/fetch-data.sh)";

/// Refuse a dict file converted to CR or CRLF line ends: its byte offsets
/// no longer point at records (every lookup would fail with a misleading
/// message), and a file of CR-only line ends is one line, which reads as
/// all licence header. `head_only` checks the first line only (what a
/// single lookup can afford; a converted file has it converted too).
pub fn check_line_ends(path: &Path, bytes: &[u8], head_only: bool) -> Result<()> {
    let scope = if head_only {
        let window = &bytes[..bytes.len().min(1 << 16)];
        let end = window
            .iter()
            .position(|&b| b == b'\n')
            .unwrap_or(window.len());
        &bytes[..end]
    } else {
        bytes
    };
    // `contains` is memchr-fast (4× `position` on data.noun); the
    // position is looked for on the error path only.
    if !scope.contains(&b'\r') {
        return Ok(());
    }
    let at = scope.iter().position(|&b| b == b'\r').unwrap_or(0);
    Err(Error::parse(path, line_of(bytes, at), CR_LINE_ENDS))
}

/// Read a whole dict file to a string.
pub fn read_file(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    check_line_ends(path, &bytes, false)?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        Error::parse(path, line_of(e.as_bytes(), at), "invalid UTF-8")
    })
}

/// Iterate the content lines of a dict file with their 1-based numbers,
/// skipping the licence header (lines that start with two spaces) and
/// blank lines.
pub fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with("  ") && !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l))
}

/// Binary search of a sorted dict file (`index.*`, `index.sense`, `*.exc`)
/// for the lines whose first field equals `key`, as Princeton's `bin_search`
/// does. The licence header sorts before every key (it starts with spaces),
/// and lines sort in byte order, which is the order of their first fields.
#[cfg(test)]
pub fn search_lines<'a>(buf: &'a [u8], key: &[u8]) -> Vec<(usize, &'a [u8])> {
    search_lines_checked(buf, key).unwrap_or_default()
}

/// [`search_lines`], checking on the way that the lines it probes are in
/// order with their neighbours: `Err(byte offset)` of a line out of order
/// (an unsorted or damaged file, on which binary search answers wrongly).
/// The check costs two neighbour lines per probe.
pub fn search_lines_checked<'a>(
    buf: &'a [u8],
    key: &[u8],
) -> std::result::Result<Vec<(usize, &'a [u8])>, usize> {
    let line_at = |start: usize| -> (usize, usize) {
        let end = buf[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(buf.len(), |p| start + p);
        (start, end)
    };
    let key_of = |s: usize, e: usize| -> &[u8] {
        let l = &buf[s..e];
        let k = l.iter().position(|&b| b == b' ').map_or(l, |p| &l[..p]);
        k
    };
    let (mut lo, mut hi) = (0usize, buf.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let start = buf[lo..mid]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(lo, |p| lo + p + 1);
        let (s, e) = line_at(start);
        if buf[s..e].starts_with(b"  ") {
            lo = e + 1;
            continue;
        }
        // Neighbours in order? (Licence lines and the file's ends excepted.)
        let here = key_of(s, e);
        if s > 0 {
            let ps = buf[..s - 1]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1);
            if !buf[ps..s - 1].starts_with(b"  ") && key_of(ps, s - 1) > here {
                return Err(s);
            }
        }
        if e + 1 < buf.len() {
            let (ns, ne) = line_at(e + 1);
            if ns < ne && key_of(ns, ne) < here {
                return Err(ns);
            }
        }
        match key.cmp(key_of(s, e)) {
            std::cmp::Ordering::Less => hi = s,
            std::cmp::Ordering::Greater => lo = e + 1,
            std::cmp::Ordering::Equal => {
                // Collect equal neighbours (exception lists repeat forms).
                let mut first = s;
                while first > 0 {
                    let prev_start = buf[..first - 1]
                        .iter()
                        .rposition(|&b| b == b'\n')
                        .map_or(0, |p| p + 1);
                    if key_of(prev_start, first - 1) == key {
                        first = prev_start;
                    } else {
                        break;
                    }
                }
                let mut out = Vec::new();
                let mut cur = first;
                while cur < buf.len() {
                    let (s, e) = line_at(cur);
                    if key_of(s, e) != key {
                        break;
                    }
                    out.push((s, &buf[s..e]));
                    cur = e + 1;
                }
                return Ok(out);
            }
        }
    }
    Ok(Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_search_finds_keys_and_repeats() {
        let buf = b"  1 licence line\n  2 more licence\naa x\nab y\nab z\nb w\nba v\n";
        assert_eq!(search_lines(buf, b"ab").len(), 2);
        assert_eq!(search_lines(buf, b"b")[0].1, b"b w");
        assert_eq!(search_lines(buf, b"ba")[0].1, b"ba v");
        assert_eq!(search_lines(buf, b"aa")[0].1, b"aa x");
        assert!(search_lines(buf, b"a").is_empty());
        assert!(search_lines(buf, b"zz").is_empty());
        assert!(search_lines(b"", b"a").is_empty());
        // Out of order around a probe: an error with the byte offset.
        let shuffled = b"aa x\nzz y\nab z\nb w\nba v\nc u\n";
        assert!(search_lines_checked(shuffled, b"ab").is_err());
    }

    #[test]
    fn missing_folder_lists_where_it_looked() {
        let err = find_dict(Some(Path::new("/nonexistent/dict"))).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/dict"));
        assert!(err.to_string().contains("fetch-data.sh"));
    }
}
