//! Plain text read in blocks that end at a paragraph, line or word
//! boundary, so memory stays bounded on inputs of any size (even a single
//! multi-gigabyte line) and blocks can be analysed in parallel. Each block
//! carries its byte offset in the input; a NUL byte (a binary file) or
//! invalid UTF-8 stops the input with the offset where it was found.

use std::io::Read;

/// Block size read at a time.
pub const BLOCK: usize = 256 * 1024;

/// Reads an input in blocks that end at a paragraph, line or word boundary.
pub struct BlockReader<R: Read> {
    inner: R,
    buf: Vec<u8>,
    /// Byte offset (in the input) of `buf[0]`.
    offset: usize,
    eof: bool,
    /// Hand out each line as soon as it is complete (see
    /// [`BlockReader::line_buffered`]).
    line_buffered: bool,
    /// 1-based line number (in the input) of `buf[0]`.
    line: usize,
    /// The cuts made inside a line so far.
    cuts: LineCuts,
}

/// The blocks a [`BlockReader`] had to end inside a line (a line longer
/// than a block, [`BLOCK`]): no sentence runs across a block, so each such
/// cut splits a sentence (or a run of text with no sentence end) in two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineCuts {
    /// How many blocks ended inside a line.
    pub count: usize,
    /// The first such cut: its 1-based line and its byte offset.
    pub first: Option<(usize, usize)>,
}

/// Why an input stopped.
#[derive(Debug)]
pub enum InputError {
    /// A NUL byte at this byte offset: a binary file.
    Binary(usize),
    /// Invalid UTF-8 at this byte offset.
    Utf8(usize),
    /// The input is UTF-16 (a byte-order mark, or NUL bytes at every
    /// other position from the start): read as UTF-8 it would be a binary
    /// file, but it is text another tool can convert.
    Utf16,
    /// The read failed.
    Io(std::io::Error),
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputError::Binary(at) => {
                write!(f, "binary file (NUL byte at byte offset {at}), skipped")
            }
            InputError::Utf8(at) => write!(
                f,
                "invalid UTF-8 at byte offset {at}; stopped there (convert the file to UTF-8)"
            ),
            InputError::Utf16 => write!(
                f,
                "UTF-16 text, not UTF-8; skipped (convert it: iconv -f UTF-16 -t UTF-8 FILE)"
            ),
            InputError::Io(e) => write!(f, "read error: {e}"),
        }
    }
}

impl std::error::Error for InputError {}

impl<R: Read> BlockReader<R> {
    /// Blocks of `inner`.
    pub fn new(inner: R) -> Self {
        BlockReader {
            inner,
            buf: Vec::with_capacity(2 * BLOCK),
            offset: 0,
            eof: false,
            line_buffered: false,
            line: 1,
            cuts: LineCuts::default(),
        }
    }

    /// The blocks ended inside a line so far (see [`LineCuts`]).
    pub fn line_cuts(&self) -> LineCuts {
        self.cuts
    }

    /// Blocks of `inner` that end at the last complete line read so far:
    /// a block is handed out as soon as a line is complete, without
    /// waiting for a full block. For input that arrives a line at a time
    /// (a terminal, a process feeding `wsd tag` through a pipe and waiting
    /// for each answer); blocks are at most as long as [`BLOCK`] still.
    pub fn line_buffered(inner: R) -> Self {
        BlockReader {
            line_buffered: true,
            ..BlockReader::new(inner)
        }
    }

    fn has_complete_line(&self) -> bool {
        self.line_buffered && self.buf.contains(&b'\n')
    }

    /// The next block: (byte offset, text). `None` at the end.
    pub fn next_block(&mut self) -> Option<Result<(usize, String), InputError>> {
        while !self.eof && self.buf.len() < BLOCK && !self.has_complete_line() {
            let old = self.buf.len();
            self.buf.resize(old + BLOCK, 0);
            match self.inner.read(&mut self.buf[old..]) {
                Ok(0) => {
                    self.buf.truncate(old);
                    self.eof = true;
                }
                Ok(n) => self.buf.truncate(old + n),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => self.buf.truncate(old),
                Err(e) => {
                    self.buf.truncate(old);
                    return Some(Err(InputError::Io(e)));
                }
            }
        }
        if self.buf.is_empty() {
            return None;
        }
        if self.offset == 0 && looks_like_utf16(&self.buf) {
            return Some(Err(InputError::Utf16));
        }
        if let Some(p) = memchr0(&self.buf) {
            return Some(Err(InputError::Binary(self.offset + p)));
        }
        let head = &self.buf[..BLOCK.min(self.buf.len())];
        let cut = if self.eof && self.buf.len() <= BLOCK {
            self.buf.len()
        } else {
            let last_line = self
                .line_buffered
                .then(|| head.iter().rposition(|&c| c == b'\n'));
            match last_line.flatten() {
                Some(p) => p + 1,
                None => cut_point(head),
            }
        };
        // a cut that is not the end of the input, after no line break
        let more = cut < self.buf.len() || !self.eof;
        if more && self.buf[cut - 1] != b'\n' {
            self.cuts.count += 1;
            if self.cuts.first.is_none() {
                let line = self.line + count_newlines(&self.buf[..cut]);
                self.cuts.first = Some((line, self.offset + cut));
            }
        }
        let rest = self.buf.split_off(cut);
        let block = std::mem::replace(&mut self.buf, rest);
        let start = self.offset;
        let text = match String::from_utf8(block) {
            Ok(text) => text,
            // invalid UTF-8: the text before it is a block of its own, and
            // the next call reports the error, so "stopped there" is exact
            Err(e) => {
                let valid = e.utf8_error().valid_up_to();
                if valid == 0 {
                    self.eof = true;
                    self.buf.clear();
                    return Some(Err(InputError::Utf8(start)));
                }
                let mut bytes = e.into_bytes();
                let mut tail = bytes.split_off(valid);
                tail.append(&mut self.buf);
                self.buf = tail;
                String::from_utf8(bytes).expect("valid up to here")
            }
        };
        self.offset += text.len();
        self.line += count_newlines(text.as_bytes());
        Some(Ok((start, text)))
    }
}

/// A UTF-16 byte-order mark, or (without one) mostly ASCII text in
/// UTF-16: a NUL byte at every even or every odd position of the first
/// 64 bytes.
pub fn looks_like_utf16(b: &[u8]) -> bool {
    if b.starts_with(&[0xFF, 0xFE]) || b.starts_with(&[0xFE, 0xFF]) {
        return true;
    }
    let head = &b[..b.len().min(64) & !1];
    head.len() >= 8
        && (head.chunks(2).all(|c| c[0] == 0 && c[1] != 0)
            || head.chunks(2).all(|c| c[0] != 0 && c[1] == 0))
}

/// The bytes of a whole text input (a key file, a data XML, standard
/// input) — or, when a NUL byte turns up, only up to the end of the 64 KiB
/// chunk that holds it: a binary input (`/dev/zero`, `/dev/urandom`, a
/// stray image) then fails the caller's NUL, UTF-16 or syntax check
/// instead of being read into memory without end.
pub fn read_to_end_or_nul(mut r: impl Read) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match r.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        out.extend_from_slice(&buf[..n]);
        if memchr0(&buf[..n]).is_some() {
            break;
        }
    }
    Ok(out)
}

/// [`read_to_end_or_nul`] of the file at `path`.
pub fn read_file_or_nul(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    read_to_end_or_nul(std::fs::File::open(path)?)
}

/// The first NUL byte of `b`, as the error message for a binary input
/// (`binary file (NUL byte at byte offset N)`) and the line it is on.
pub fn nul_error(b: &[u8]) -> Option<(usize, String)> {
    let at = memchr0(b)?;
    Some((
        line_of(b, at),
        format!("binary file (NUL byte at byte offset {at})"),
    ))
}

/// 1-based line number of byte `offset` in `b` (an offset past the end
/// counts as the end).
pub fn line_of(b: &[u8], offset: usize) -> usize {
    b[..offset.min(b.len())]
        .iter()
        .filter(|&&c| c == b'\n')
        .count()
        + 1
}

fn count_newlines(b: &[u8]) -> usize {
    b.iter().filter(|&&c| c == b'\n').count()
}

fn memchr0(b: &[u8]) -> Option<usize> {
    b.iter().position(|&c| c == 0)
}

/// Where to cut a full block: after the last blank line in its second half,
/// else the last newline, else the last space, else at a UTF-8 boundary.
fn cut_point(b: &[u8]) -> usize {
    let half = b.len() / 2;
    if let Some(p) = b.windows(2).rposition(|w| w == b"\n\n") {
        if p >= half {
            return p + 2;
        }
    }
    if let Some(p) = b.iter().rposition(|&c| c == b'\n') {
        if p >= half {
            return p + 1;
        }
    }
    if let Some(p) = b.iter().rposition(|&c| c == b' ' || c == b'\t') {
        return p + 1;
    }
    let mut p = b.len();
    while p > 0 && (b[p - 1] & 0xC0) == 0x80 {
        p -= 1;
    }
    // p-1 is a lead byte (or ASCII): cut before it unless it is ASCII.
    if p > 0 && b[p - 1] >= 0xC0 {
        p - 1
    } else {
        b.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_cut_at_boundaries_and_cover_the_input() {
        let text = "word ".repeat(200_000) + "end";
        let mut r = BlockReader::new(text.as_bytes());
        let mut joined = String::new();
        let mut last_off = 0;
        while let Some(b) = r.next_block() {
            let (off, s) = b.ok().unwrap();
            assert_eq!(off, joined.len());
            assert!(off >= last_off);
            last_off = off;
            joined.push_str(&s);
        }
        assert_eq!(joined, text);
    }

    #[test]
    fn cuts_inside_a_line_are_counted_with_the_first_line_and_offset() {
        // two short lines, then one of 600 KiB without a line break: two cuts
        let long = "word ".repeat(600 * 1024 / 5);
        let text = format!("a\nb\n{long}\nend\n");
        let mut r = BlockReader::new(text.as_bytes());
        while let Some(b) = r.next_block() {
            b.unwrap();
        }
        let cuts = r.line_cuts();
        assert_eq!(cuts.count, 2, "{cuts:?}");
        let (line, at) = cuts.first.unwrap();
        assert_eq!(line, 3);
        assert!(at > 4 && at <= BLOCK, "{at}");
        assert_eq!(&text.as_bytes()[at - 1..at], b" ");
        // blocks that end at line breaks are no cuts
        let text = "a short line\n".repeat(60_000);
        let mut r = BlockReader::new(text.as_bytes());
        while let Some(b) = r.next_block() {
            b.unwrap();
        }
        assert_eq!(r.line_cuts(), LineCuts::default());
    }

    #[test]
    fn a_long_run_without_spaces_is_cut_at_char_boundaries() {
        let text = "é".repeat(400_000);
        let mut r = BlockReader::new(text.as_bytes());
        let mut joined = String::new();
        while let Some(b) = r.next_block() {
            joined.push_str(&b.ok().unwrap().1);
        }
        assert_eq!(joined, text);
    }

    #[test]
    fn binary_and_bad_utf8_are_reported_with_offsets() {
        let mut r = BlockReader::new(&b"abc\0def"[..]);
        assert!(matches!(r.next_block(), Some(Err(InputError::Binary(3)))));
        // the text before invalid UTF-8 comes first, then the error
        let mut r = BlockReader::new(&b"abc \xff\xfe"[..]);
        assert_eq!(r.next_block().unwrap().unwrap(), (0, "abc ".to_string()));
        assert!(matches!(r.next_block(), Some(Err(InputError::Utf8(4)))));
        assert!(r.next_block().is_none());
        let mut r = BlockReader::new(&b"\xe9t\xe9"[..]);
        assert!(matches!(r.next_block(), Some(Err(InputError::Utf8(0)))));
        // UTF-16, with a byte-order mark either way round or without one
        let utf16 = |bom: &[u8], big: bool| {
            let mut b = bom.to_vec();
            for c in "The bank raised its rates.".encode_utf16() {
                let bytes = if big {
                    c.to_be_bytes()
                } else {
                    c.to_le_bytes()
                };
                b.extend(bytes);
            }
            b
        };
        for input in [
            utf16(&[0xFF, 0xFE], false),
            utf16(&[0xFE, 0xFF], true),
            utf16(&[], false),
            utf16(&[], true),
        ] {
            let mut r = BlockReader::new(&input[..]);
            assert!(matches!(r.next_block(), Some(Err(InputError::Utf16))));
        }
        // a binary file is still one
        let mut r = BlockReader::new(&b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0"[..]);
        assert!(matches!(r.next_block(), Some(Err(InputError::Binary(7)))));
    }

    /// Hands out one chunk per `read`, counting the reads.
    struct Chunks<'a>(std::collections::VecDeque<&'a [u8]>, usize);

    impl Read for Chunks<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            self.1 += 1;
            let Some(c) = self.0.pop_front() else {
                return Ok(0);
            };
            out[..c.len()].copy_from_slice(c);
            Ok(c.len())
        }
    }

    #[test]
    fn line_buffered_blocks_end_at_each_complete_line_without_reading_ahead() {
        let chunks = |parts: &[&'static [u8]]| Chunks(parts.iter().copied().collect(), 0);
        let parts: &[&[u8]] = &[b"The bank.\nA par", b"tial line\n", b"no newline"];
        let mut r = BlockReader::line_buffered(chunks(parts));
        assert_eq!(r.next_block().unwrap().unwrap(), (0, "The bank.\n".into()));
        assert_eq!(r.inner.1, 1, "the first line is handed out after one read");
        assert_eq!(
            r.next_block().unwrap().unwrap(),
            (10, "A partial line\n".into())
        );
        assert_eq!(r.inner.1, 2);
        assert_eq!(r.next_block().unwrap().unwrap(), (25, "no newline".into()));
        assert!(r.next_block().is_none());
        // the default reader waits for a full block or the end
        let mut r = BlockReader::new(chunks(parts));
        assert_eq!(
            r.next_block().unwrap().unwrap(),
            (0, "The bank.\nA partial line\nno newline".into())
        );
        assert_eq!(r.inner.1, 4);
    }
}
