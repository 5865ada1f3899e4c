//! BERT's uncased tokenizer: the BasicTokenizer followed by WordPiece.
//!
//! This follows `transformers.BertTokenizer` (the "slow" Python one, which
//! is the specification the checkpoint was trained with) step by step:
//!
//! 1. **Clean**: drop NUL, U+FFFD and control characters (general category
//!    `C*` except tab, newline, carriage return); turn every whitespace
//!    character (space, `\t`, `\n`, `\r`, category `Zs`) into a space.
//! 2. **CJK**: put spaces around every CJK ideograph, so each becomes a word
//!    (the vocabulary has single ideographs, not words of them).
//! 3. Split on whitespace; **lower-case** each word, then **strip accents**
//!    (Unicode NFD, then drop the nonspacing marks `Mn`: `café` → `cafe`).
//! 4. **Split punctuation**: every punctuation character (ASCII symbols and
//!    category `P*`) becomes a word of its own (`don't` → `don ' t`).
//! 5. **WordPiece**: greedy longest-match-first against the vocabulary;
//!    pieces after the first carry the `##` continuation prefix
//!    (`playing` → `playing`, `unaffable` → `una ##ff ##able`). A word longer
//!    than 100 characters, or one that cannot be covered by vocabulary
//!    pieces, becomes the single piece `[UNK]`.
//!
//! The Unicode facts (categories, NFD without marks) come from generated
//! tables (`unicode_tables.rs`), so no normalisation crate is needed and the
//! result matches the Python reference exactly.

use std::collections::HashMap;
use std::path::Path;

use super::unicode_tables as ut;
use crate::{Error, Result};

/// Unicode version of the character tables (that of the Python which
/// generated them with `scripts/gen_unicode_tables.py`).
pub const UNICODE_VERSION: &str = ut::UNICODE_VERSION;

/// Words longer than this many characters become `[UNK]` (as in BERT).
pub const MAX_CHARS_PER_WORD: usize = 100;

/// A WordPiece vocabulary with BERT's uncased basic tokenizer.
#[derive(Debug, Clone)]
pub struct WordPiece {
    ids: HashMap<String, u32>,
    pieces: Vec<String>,
    unk: u32,
    cls: u32,
    sep: u32,
    pad: u32,
}

fn in_ranges(table: &[(u32, u32)], c: char) -> bool {
    let c = c as u32;
    table
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// BERT's `_is_whitespace`: space, tab, newline, carriage return or `Zs`.
pub fn is_whitespace(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r') || in_ranges(ut::SPACE_SEPARATORS, c)
}

/// BERT's `_is_control`: category `C*`, except tab, newline and carriage
/// return (which count as whitespace).
pub fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && in_ranges(ut::OTHER, c)
}

/// BERT's `_is_punctuation`: every non-alphanumeric printable ASCII
/// character (so `$`, `+`, `^`, … too) and category `P*`.
pub fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || in_ranges(ut::PUNCTUATION, c)
}

/// BERT's `_is_chinese_char`: the CJK Unified Ideographs blocks (not
/// Hiragana, Katakana or Hangul, which are written with spaces).
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF
        | 0x3400..=0x4DBF
        | 0x20000..=0x2A6DF
        | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F
        | 0x2B820..=0x2CEAF
        | 0xF900..=0xFAFF
        | 0x2F800..=0x2FA1F)
}

/// Appends `c` with its accents removed: NFD, then drop `Mn` marks.
fn push_stripped(out: &mut String, c: char) {
    let cp = c as u32;
    if in_ranges(ut::NONSPACING_MARKS, c) {
        return;
    }
    // Hangul syllables decompose algorithmically into conjoining jamo
    // (Unicode §3.12); none of the jamo is a mark, so all are kept.
    const S_BASE: u32 = 0xAC00;
    const S_COUNT: u32 = 11172;
    if (S_BASE..S_BASE + S_COUNT).contains(&cp) {
        let s = cp - S_BASE;
        let l = 0x1100 + s / 588;
        let v = 0x1161 + (s % 588) / 28;
        let t = s % 28;
        for j in [Some(l), Some(v), (t != 0).then_some(0x11A7 + t)]
            .into_iter()
            .flatten()
        {
            if let Some(ch) = char::from_u32(j) {
                out.push(ch);
            }
        }
        return;
    }
    match ut::STRIPPED.binary_search_by_key(&cp, |&(k, _)| k) {
        Ok(i) => out.push_str(ut::STRIPPED[i].1),
        Err(_) => out.push(c),
    }
}

/// Removes accents: `Crème Brûlée` → `Creme Brulee`.
pub fn strip_accents(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        push_stripped(&mut out, c);
    }
    out
}

/// Steps 1–4 of the module doc: clean, space CJK, split on whitespace,
/// lower-case, strip accents, split punctuation. Returns the words that
/// WordPiece then splits.
pub fn basic_tokenize(text: &str) -> Vec<String> {
    // 1 + 2: clean and space out CJK ideographs.
    let mut cleaned = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c == '\0' || c == '\u{FFFD}' || is_control(c) {
            continue;
        }
        if is_whitespace(c) {
            cleaned.push(' ');
        } else if is_cjk(c) {
            cleaned.push(' ');
            cleaned.push(c);
            cleaned.push(' ');
        } else {
            cleaned.push(c);
        }
    }
    let mut words = Vec::new();
    for word in cleaned.split_whitespace() {
        // 3: `str::to_lowercase` (not per char) to handle final sigma as
        // Python's `str.lower` does.
        let word = strip_accents(&word.to_lowercase());
        // 4: punctuation characters become words of their own.
        let mut current = String::new();
        for c in word.chars() {
            if is_punctuation(c) {
                if !current.is_empty() {
                    words.push(std::mem::take(&mut current));
                }
                words.push(c.to_string());
            } else if c.is_whitespace() {
                // Stripping can expose a whitespace char; split there too, as
                // the Python reference's final whitespace split does.
                if !current.is_empty() {
                    words.push(std::mem::take(&mut current));
                }
            } else {
                current.push(c);
            }
        }
        if !current.is_empty() {
            words.push(current);
        }
    }
    words
}

impl WordPiece {
    /// Reads `vocab.txt`: one piece per line, the id is the line number.
    pub fn from_file(path: &Path) -> Result<WordPiece> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::Model {
            path: path.to_path_buf(),
            msg: format!("cannot read vocabulary: {e}"),
        })?;
        Self::from_pieces(text.lines().map(str::to_string)).map_err(|msg| Error::Model {
            path: path.to_path_buf(),
            msg,
        })
    }

    /// Builds a vocabulary from pieces in id order. It must contain
    /// `[UNK]`, `[CLS]`, `[SEP]` and `[PAD]`.
    pub fn from_pieces<I: IntoIterator<Item = String>>(
        pieces: I,
    ) -> std::result::Result<WordPiece, String> {
        let pieces: Vec<String> = pieces.into_iter().collect();
        if pieces.len() > u32::MAX as usize {
            return Err("vocabulary too large".into());
        }
        let mut ids = HashMap::with_capacity(pieces.len());
        for (i, p) in pieces.iter().enumerate() {
            // Later duplicates win, as in BERT's `load_vocab`.
            ids.insert(p.clone(), i as u32);
        }
        let special = |name: &str| {
            ids.get(name)
                .copied()
                .ok_or_else(|| format!("vocabulary has no {name} token"))
        };
        Ok(WordPiece {
            unk: special("[UNK]")?,
            cls: special("[CLS]")?,
            sep: special("[SEP]")?,
            pad: special("[PAD]")?,
            ids,
            pieces,
        })
    }

    /// Number of pieces (the largest id plus one).
    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    /// Whether the vocabulary is empty (never true for a loaded one).
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// Id of `[UNK]`.
    pub fn unk_id(&self) -> u32 {
        self.unk
    }

    /// Id of `[CLS]`, prepended to every sequence.
    pub fn cls_id(&self) -> u32 {
        self.cls
    }

    /// Id of `[SEP]`, appended to every sequence.
    pub fn sep_id(&self) -> u32 {
        self.sep
    }

    /// Id of `[PAD]`, filling sequences up to the length of their batch.
    pub fn pad_id(&self) -> u32 {
        self.pad
    }

    /// Id of a piece, if in the vocabulary.
    pub fn id(&self, piece: &str) -> Option<u32> {
        self.ids.get(piece).copied()
    }

    /// The piece with id `id`, if any.
    pub fn piece(&self, id: u32) -> Option<&str> {
        self.pieces.get(id as usize).map(String::as_str)
    }

    /// Greedy longest-match-first WordPiece of one word already through
    /// [`basic_tokenize`], appended to `out`. An over-long or uncoverable
    /// word becomes `[UNK]`.
    pub fn wordpiece_into(&self, word: &str, out: &mut Vec<u32>) {
        let chars: Vec<char> = word.chars().collect();
        if chars.len() > MAX_CHARS_PER_WORD {
            out.push(self.unk);
            return;
        }
        // Byte offset of every char boundary, for slicing.
        let bounds: Vec<usize> = word
            .char_indices()
            .map(|(i, _)| i)
            .chain(std::iter::once(word.len()))
            .collect();
        let mark = out.len();
        let mut start = 0;
        let mut candidate = String::with_capacity(word.len() + 2);
        while start < chars.len() {
            let mut end = chars.len();
            let mut found = None;
            while start < end {
                candidate.clear();
                if start > 0 {
                    candidate.push_str("##");
                }
                candidate.push_str(&word[bounds[start]..bounds[end]]);
                if let Some(&id) = self.ids.get(candidate.as_str()) {
                    found = Some(id);
                    break;
                }
                end -= 1;
            }
            match found {
                Some(id) => out.push(id),
                None => {
                    out.truncate(mark);
                    out.push(self.unk);
                    return;
                }
            }
            start = end;
        }
    }

    /// The piece ids of `text` (no `[CLS]`/`[SEP]`).
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut out = Vec::new();
        for word in basic_tokenize(text) {
            self.wordpiece_into(&word, &mut out);
        }
        out
    }

    /// The pieces of `text` as strings (no `[CLS]`/`[SEP]`).
    pub fn tokenize(&self, text: &str) -> Vec<String> {
        self.encode(text)
            .into_iter()
            .map(|id| self.pieces[id as usize].clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy() -> WordPiece {
        let v = [
            "[PAD]", "[UNK]", "[CLS]", "[SEP]", "un", "##aff", "##able", "want", "##ed", "runn",
            "##ing", ",", "cafe", "'", "t", "don", "的",
        ];
        WordPiece::from_pieces(v.iter().map(|s| s.to_string())).unwrap()
    }

    #[test]
    fn toy_wordpiece() {
        let wp = toy();
        // "un" matches but "##wanted" cannot be covered: the whole word is [UNK]
        assert_eq!(
            wp.tokenize("UNwant\u{00E9}d,running"),
            vec!["[UNK]", ",", "runn", "##ing"]
        );
        assert_eq!(wp.tokenize("unaffable"), vec!["un", "##aff", "##able"]);
        assert_eq!(
            wp.tokenize("unwanted running"),
            vec!["[UNK]", "runn", "##ing"]
        );
        assert_eq!(wp.tokenize("Café don't"), vec!["cafe", "don", "'", "t"]);
        assert_eq!(wp.tokenize(""), Vec::<String>::new());
    }

    #[test]
    fn basic_tokenizer_steps() {
        assert_eq!(
            basic_tokenize(" \tHeLLo!how  \n Are yoU?  "),
            vec!["hello", "!", "how", "are", "you", "?"]
        );
        assert_eq!(basic_tokenize("H\u{00E9}llo"), vec!["hello"]);
        assert_eq!(basic_tokenize("Crème Brûlée"), vec!["creme", "brulee"]);
        // control characters vanish, zero-width chars (Cf) too
        assert_eq!(basic_tokenize("a\u{0007}b\u{200B}c"), vec!["abc"]);
        assert_eq!(basic_tokenize("\u{0001}\u{0002}"), Vec::<String>::new());
        // CJK ideographs become words of their own, kana do not
        assert_eq!(basic_tokenize("ah博推zz"), vec!["ah", "博", "推", "zz"]);
        // every ASCII symbol is punctuation
        assert_eq!(basic_tokenize("$5+3^2"), vec!["$", "5", "+", "3", "^", "2"]);
        // no-break space (Zs) separates words
        assert_eq!(basic_tokenize("a\u{00A0}b"), vec!["a", "b"]);
        // final sigma is lower-cased as in Python
        assert_eq!(basic_tokenize("ΟΔΟΣ"), vec!["οδος"]);
    }

    #[test]
    fn accents_and_hangul() {
        assert_eq!(strip_accents("café"), "cafe");
        assert_eq!(strip_accents("cafe\u{0301}"), "cafe");
        assert_eq!(strip_accents("Ångström"), "Angstrom");
        assert_eq!(strip_accents("ñ"), "n");
        assert_eq!(strip_accents("한"), "\u{1112}\u{1161}\u{11AB}");
        assert_eq!(strip_accents("plain"), "plain");
    }

    #[test]
    fn long_words_are_unk() {
        let wp = toy();
        let long = "un".repeat(51);
        assert_eq!(wp.encode(&long), vec![wp.unk_id()]);
        let ok = "un".repeat(50);
        assert_eq!(wp.encode(&ok), vec![wp.unk_id()]); // "##un" not in toy vocab
    }

    #[test]
    fn missing_special_tokens() {
        let err = WordPiece::from_pieces(["a".to_string()]).unwrap_err();
        assert!(err.contains("[UNK]"), "{err}");
    }
}
