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
}

/// Why an input stopped.
#[derive(Debug)]
pub enum InputError {
    /// A NUL byte at this byte offset: a binary file.
    Binary(usize),
    /// Invalid UTF-8 at this byte offset.
    Utf8(usize),
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
        }
    }

    /// The next block: (byte offset, text). `None` at the end.
    pub fn next_block(&mut self) -> Option<Result<(usize, String), InputError>> {
        while !self.eof && self.buf.len() < BLOCK {
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
        if let Some(p) = memchr0(&self.buf) {
            return Some(Err(InputError::Binary(self.offset + p)));
        }
        let cut = if self.eof && self.buf.len() <= BLOCK {
            self.buf.len()
        } else {
            cut_point(&self.buf[..BLOCK.min(self.buf.len())])
        };
        let rest = self.buf.split_off(cut);
        let block = std::mem::replace(&mut self.buf, rest);
        let start = self.offset;
        self.offset += block.len();
        Some(match String::from_utf8(block) {
            Ok(s) => Ok((start, s)),
            Err(e) => Err(InputError::Utf8(start + e.utf8_error().valid_up_to())),
        })
    }
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
        let mut r = BlockReader::new(&b"abc \xff\xfe"[..]);
        assert!(matches!(r.next_block(), Some(Err(InputError::Utf8(4)))));
    }
}
