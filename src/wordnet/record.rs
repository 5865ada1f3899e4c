//! Parsing of single lines of the dict files: `data.*` synset records and
//! `index.*` lemma entries (format: wndb(5WN)). Both the bulk loader and the
//! binary-search lookup use these functions, so a line parses the same way
//! whichever path reads it.

use std::path::Path;

use super::pointer::{Pointer, PointerKind};
use super::{Pos, SynsetId, SynsetType};
use crate::{Error, Result};

/// Adjective position marker (`(p)` predicate, `(a)` attributive, `(ip)` postnominal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum AdjMarker {
    /// `(p)`: predicate position only.
    Predicate,
    /// `(a)`: prenominal (attributive) position only.
    Attributive,
    /// `(ip)`: immediately postnominal.
    Postnominal,
}

/// A word of a synset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    /// The lemma as written (case kept, `_` for spaces).
    pub lemma: String,
    /// Lexical id distinguishing same-lemma senses in one lexicographer file.
    pub lex_id: u8,
    /// Adjective position marker, if any.
    pub marker: Option<AdjMarker>,
}

/// A verb frame of a synset: frame number and the word it applies to (0 = all).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Frame number in `frames.vrb` (1–35).
    pub number: u8,
    /// 1-based word number, or 0 for every word of the synset.
    pub word: u8,
}

/// A synset record of `data.*`.
#[derive(Clone, Debug, PartialEq)]
pub struct Synset {
    /// Identifier (category + offset).
    pub id: SynsetId,
    /// Synset type (satellites are told apart from head adjectives here).
    pub ss_type: SynsetType,
    /// Lexicographer file number (see [`super::lexname`]).
    pub lex_filenum: u8,
    /// Words in order.
    pub words: Vec<Word>,
    /// Pointers in order.
    pub pointers: Vec<Pointer>,
    /// Verb frames (verbs only).
    pub frames: Vec<Frame>,
    /// The gloss without its examples.
    pub definition: String,
    /// Example sentences quoted in the gloss.
    pub examples: Vec<String>,
}

impl Synset {
    /// Targets of the semantic pointers of `kind`.
    pub fn related(&self, kind: PointerKind) -> impl Iterator<Item = SynsetId> + '_ {
        self.pointers
            .iter()
            .filter(move |p| p.kind == kind)
            .map(|p| p.target)
    }

    /// Index of the word whose lemma equals `lemma` (case-insensitive, `_`/space alike).
    pub fn word_index(&self, lemma: &str) -> Option<usize> {
        self.words.iter().position(|w| same_lemma(&w.lemma, lemma))
    }
}

/// Lemma equality as WordNet uses it: case-insensitive, space = underscore.
pub fn same_lemma(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes().zip(b.bytes()).all(|(x, y)| {
            let x = if x == b' ' {
                b'_'
            } else {
                x.to_ascii_lowercase()
            };
            let y = if y == b' ' {
                b'_'
            } else {
                y.to_ascii_lowercase()
            };
            x == y
        })
}

/// Split a gloss into definition and examples the way NLTK does: examples are
/// the double-quoted parts; the definition is what remains, trimmed of `; `.
pub fn split_gloss(gloss: &str) -> (String, Vec<String>) {
    let mut examples = Vec::new();
    let mut definition = String::with_capacity(gloss.len());
    let mut rest = gloss;
    while let Some(open) = rest.find('"') {
        definition.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('"') {
            Some(close) => {
                examples.push(after[..close].to_string());
                rest = &after[close + 1..];
            }
            None => {
                // An unbalanced quote: keep the text as definition.
                definition.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    definition.push_str(rest);
    let definition = definition
        .trim_matches(|c: char| c == ';' || c.is_whitespace())
        .to_string();
    (definition, examples)
}

/// Space-separated fields of a dict line. `str::split_ascii_whitespace`
/// is general (any ASCII whitespace, via a filtered split) and showed up in
/// profiles of the full load; dict lines only separate fields by spaces
/// (tabs are accepted too).
struct Fields<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Fields<'a> {
    fn new(s: &'a str) -> Self {
        Fields { s, pos: 0 }
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = &'a str;
    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let b = self.s.as_bytes();
        let mut i = self.pos;
        while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
            i += 1;
        }
        if i >= b.len() {
            self.pos = i;
            return None;
        }
        let start = i;
        while i < b.len() && b[i] != b' ' && b[i] != b'\t' {
            i += 1;
        }
        self.pos = i;
        Some(&self.s[start..i])
    }
}

fn field<'a>(
    it: &mut impl Iterator<Item = &'a str>,
    path: &Path,
    line: usize,
    what: &str,
) -> Result<&'a str> {
    it.next()
        .ok_or_else(|| Error::parse(path, line, format!("record ends before {what}")))
}

/// The next field, parsed as a number (`what` names it in errors).
#[inline]
fn next_num<'a, T: TryFrom<u32>>(
    it: &mut impl Iterator<Item = &'a str>,
    radix16: bool,
    path: &Path,
    line: usize,
    what: &str,
) -> Result<T> {
    num(field(it, path, line, what)?, radix16, path, line, what)
}

#[inline]
fn num<T>(s: &str, radix16: bool, path: &Path, line: usize, what: &str) -> Result<T>
where
    T: TryFrom<u32>,
{
    let radix = if radix16 { 16 } else { 10 };
    let mut v: u32 = 0;
    let mut ok = !s.is_empty() && s.len() <= 10;
    for b in s.bytes() {
        let d = match b {
            b'0'..=b'9' => (b - b'0') as u32,
            b'a'..=b'f' if radix16 => (b - b'a' + 10) as u32,
            b'A'..=b'F' if radix16 => (b - b'A' + 10) as u32,
            _ => {
                ok = false;
                break;
            }
        };
        match v.checked_mul(radix).and_then(|x| x.checked_add(d)) {
            Some(x) => v = x,
            None => {
                ok = false;
                break;
            }
        }
    }
    ok.then(|| T::try_from(v).ok())
        .flatten()
        .ok_or_else(|| Error::parse(path, line, format!("bad {what} {s:?}")))
}

/// A lemma with a control character (a NUL byte, DEL, …) is a
/// damaged file: no lemma of WordNet has one, and such a lemma would reach
/// the output (`wsd senses`, key files) unnoticed.
#[inline]
fn check_lemma(lemma: &str, path: &Path, line: usize) -> Result<()> {
    if lemma.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Ok(());
    }
    match lemma.chars().find(|c| c.is_control()) {
        None => Ok(()),
        Some(c) => Err(Error::parse(
            path,
            line,
            format!(
                "control character U+{:04X} in the lemma {lemma:?}",
                c as u32
            ),
        )),
    }
}

/// Parse one `data.*` line (without the trailing newline). `file_pos` is the
/// category of the file it came from; `path` and `line` only label errors.
pub fn parse_data_line(text: &str, file_pos: Pos, path: &Path, line: usize) -> Result<Synset> {
    let (fields, gloss) = match text.split_once(" | ") {
        Some((f, g)) => (f, g.trim_end()),
        None => match text.split_once('|') {
            Some((f, g)) => (f, g.trim()),
            None => {
                return Err(Error::parse(
                    path,
                    line,
                    "malformed synset record: no '|' before the gloss",
                ))
            }
        },
    };
    let mut it = Fields::new(fields);
    let offset: u32 = next_num(&mut it, false, path, line, "synset offset")?;
    let lex_filenum: u8 = next_num(&mut it, false, path, line, "lex_filenum")?;
    let ss = field(&mut it, path, line, "ss_type")?;
    let ss_type = ss
        .chars()
        .next()
        .filter(|_| ss.len() == 1)
        .and_then(SynsetType::from_letter)
        .ok_or_else(|| Error::parse(path, line, format!("bad ss_type {ss:?}")))?;
    if ss_type.pos() != file_pos {
        return Err(Error::parse(
            path,
            line,
            format!(
                "ss_type {ss:?} does not belong in data.{}",
                file_pos.file_suffix()
            ),
        ));
    }
    let w_cnt: u8 = next_num(&mut it, true, path, line, "word count")?;
    let mut words = Vec::with_capacity(w_cnt as usize);
    for _ in 0..w_cnt {
        let raw = field(&mut it, path, line, "a word")?;
        let lex_id: u8 = next_num(&mut it, true, path, line, "lex_id")?;
        let (lemma, marker) = if let Some(l) = raw.strip_suffix("(ip)") {
            (l, Some(AdjMarker::Postnominal))
        } else if let Some(l) = raw.strip_suffix("(p)") {
            (l, Some(AdjMarker::Predicate))
        } else if let Some(l) = raw.strip_suffix("(a)") {
            (l, Some(AdjMarker::Attributive))
        } else {
            (raw, None)
        };
        check_lemma(lemma, path, line)?;
        words.push(Word {
            lemma: lemma.to_string(),
            lex_id,
            marker,
        });
    }
    let p_cnt: u16 = next_num(&mut it, false, path, line, "pointer count")?;
    let mut pointers = Vec::with_capacity(p_cnt as usize);
    for _ in 0..p_cnt {
        let sym = field(&mut it, path, line, "a pointer symbol")?;
        let kind = PointerKind::from_symbol(sym)
            .ok_or_else(|| Error::parse(path, line, format!("unknown pointer symbol {sym:?}")))?;
        let target_offset: u32 = next_num(&mut it, false, path, line, "pointer offset")?;
        let p = field(&mut it, path, line, "pointer pos")?;
        let target_pos = p
            .chars()
            .next()
            .filter(|_| p.len() == 1)
            .and_then(Pos::from_letter)
            .ok_or_else(|| Error::parse(path, line, format!("bad pointer pos {p:?}")))?;
        let st = field(&mut it, path, line, "pointer source/target")?;
        if st.len() != 4 || !st.is_ascii() {
            return Err(Error::parse(
                path,
                line,
                format!("bad pointer source/target {st:?}"),
            ));
        }
        let source_word: u8 = num(&st[..2], true, path, line, "pointer source")?;
        let target_word: u8 = num(&st[2..], true, path, line, "pointer target")?;
        pointers.push(Pointer {
            kind,
            target: SynsetId {
                pos: target_pos,
                offset: target_offset,
            },
            source_word,
            target_word,
        });
    }
    let mut frames = Vec::new();
    if file_pos == Pos::Verb {
        if let Some(f) = it.next() {
            let f_cnt: u8 = num(f, false, path, line, "frame count")?;
            for _ in 0..f_cnt {
                let plus = field(&mut it, path, line, "'+' of a frame")?;
                if plus != "+" {
                    return Err(Error::parse(
                        path,
                        line,
                        format!("expected '+' before a frame, found {plus:?}"),
                    ));
                }
                let number: u8 = next_num(&mut it, false, path, line, "frame number")?;
                let word: u8 = next_num(&mut it, true, path, line, "frame word number")?;
                frames.push(Frame { number, word });
            }
        }
    }
    if let Some(extra) = it.next() {
        return Err(Error::parse(
            path,
            line,
            format!("unexpected field {extra:?} before the gloss"),
        ));
    }
    let (definition, examples) = split_gloss(gloss);
    Ok(Synset {
        id: SynsetId {
            pos: file_pos,
            offset,
        },
        ss_type,
        lex_filenum,
        words,
        pointers,
        frames,
        definition,
        examples,
    })
}

/// An `index.*` entry: a lemma and its synsets in sense order.
#[derive(Clone, Debug, PartialEq)]
pub struct IndexEntry {
    /// The lemma (lower case, `_` for spaces).
    pub lemma: String,
    /// Synset offsets, most frequent sense first.
    pub offsets: Vec<u32>,
    /// How many of the senses were tagged in semantic concordances.
    pub tagsense_cnt: u32,
}

/// Parse one `index.*` line.
pub fn parse_index_line(text: &str, path: &Path, line: usize) -> Result<IndexEntry> {
    let mut it = Fields::new(text);
    let lemma = field(&mut it, path, line, "lemma")?;
    check_lemma(lemma, path, line)?;
    let lemma = lemma.to_string();
    let _pos = field(&mut it, path, line, "pos")?;
    let synset_cnt: u32 = next_num(&mut it, false, path, line, "synset count")?;
    let p_cnt: u32 = next_num(&mut it, false, path, line, "pointer count")?;
    for _ in 0..p_cnt {
        field(&mut it, path, line, "a pointer symbol")?;
    }
    let _sense_cnt: u32 = next_num(&mut it, false, path, line, "sense count")?;
    let tagsense_cnt: u32 = next_num(&mut it, false, path, line, "tagged sense count")?;
    let mut offsets = Vec::with_capacity(synset_cnt as usize);
    for _ in 0..synset_cnt {
        offsets.push(next_num(&mut it, false, path, line, "synset offset")?);
    }
    Ok(IndexEntry {
        lemma,
        offsets,
        tagsense_cnt,
    })
}

/// An `index.sense` line: sense key → offset, sense number, tag count.
#[derive(Clone, Debug, PartialEq)]
pub struct SenseIndexEntry {
    /// The sense key.
    pub key: String,
    /// Offset of the synset.
    pub offset: u32,
    /// Sense number of the lemma in its category.
    pub number: u16,
    /// Tag count.
    pub tag_count: u32,
}

/// Parse one `index.sense` line.
pub fn parse_sense_index_line(text: &str, path: &Path, line: usize) -> Result<SenseIndexEntry> {
    let mut it = Fields::new(text);
    let key = field(&mut it, path, line, "sense key")?.to_string();
    let offset = next_num(&mut it, false, path, line, "synset offset")?;
    let number = next_num(&mut it, false, path, line, "sense number")?;
    let tag_count = next_num(&mut it, false, path, line, "tag count")?;
    Ok(SenseIndexEntry {
        key,
        offset,
        number,
        tag_count,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_non_ascii_pointer_field_is_an_error_not_a_panic() {
        // Found by tests/props.rs (dict_lines_never_panic, 492,068 cases in).
        let l = "02084071 05 n 01 dog 0 001 @ 02083346 n 0\u{a1}0 | a dog";
        let e = parse_data_line(l, Pos::Noun, Path::new("data.noun"), 7).unwrap_err();
        assert!(e.to_string().starts_with("data.noun:7:"), "{e}");
    }

    const DOG: &str = "02084071 05 n 03 dog 0 domestic_dog 0 Canis_familiaris 0 002 @ 02083346 n 0000 + 01234567 v 0201 | a member of the genus Canis; \"the dog barked all night\"  ";

    #[test]
    fn a_control_character_in_a_lemma_is_an_error_naming_file_and_line() {
        let p = Path::new("data.noun");
        let line = "02084071 05 n 01 dog\0x 0 000 | a dog";
        let e = parse_data_line(line, Pos::Noun, p, 7)
            .unwrap_err()
            .to_string();
        assert!(e.contains("data.noun:7") && e.contains("U+0000"), "{e}");
        let e = parse_data_line(&line.replace('\0', "\u{7f}"), Pos::Noun, p, 7).unwrap_err();
        assert!(e.to_string().contains("U+007F"), "{e}");
        // letters beyond ASCII are no control characters
        assert!(parse_data_line(&line.replace('\0', "é"), Pos::Noun, p, 7).is_ok());
        let e = parse_index_line("do\u{1}g n 1 0 1 0 02084071", Path::new("index.noun"), 3)
            .unwrap_err()
            .to_string();
        assert!(e.contains("index.noun:3") && e.contains("U+0001"), "{e}");
    }

    #[test]
    fn data_line_parses_words_pointers_and_gloss() {
        let s = parse_data_line(DOG, Pos::Noun, Path::new("data.noun"), 1).unwrap();
        assert_eq!(s.id.offset, 2084071);
        assert_eq!(s.words.len(), 3);
        assert_eq!(s.words[2].lemma, "Canis_familiaris");
        assert_eq!(s.pointers[0].kind, PointerKind::Hypernym);
        assert!(s.pointers[0].is_semantic());
        assert_eq!(
            (s.pointers[1].source_word, s.pointers[1].target_word),
            (2, 1)
        );
        assert_eq!(s.definition, "a member of the genus Canis");
        assert_eq!(s.examples, vec!["the dog barked all night".to_string()]);
    }

    #[test]
    fn truncated_line_names_file_and_line() {
        let err = parse_data_line(&DOG[..40], Pos::Noun, Path::new("data.noun"), 7).unwrap_err();
        let msg = err.to_string();
        assert!(msg.starts_with("data.noun:7:"), "{msg}");
    }

    #[test]
    fn garbled_pointer_is_an_error() {
        let bad = DOG.replace("@ 02083346", "?? 02083346");
        let err = parse_data_line(&bad, Pos::Noun, Path::new("data.noun"), 3).unwrap_err();
        assert!(err.to_string().contains("unknown pointer symbol"));
    }

    #[test]
    fn satellite_markers_and_frames() {
        let adj = "00014358 00 s 02 abounding 0 galore(ip) 0 001 & 00013887 a 0000 | existing in abundance; \"abounding confidence\"; \"whiskey galore\"  ";
        let s = parse_data_line(adj, Pos::Adj, Path::new("data.adj"), 1).unwrap();
        assert_eq!(s.ss_type, SynsetType::AdjSatellite);
        assert_eq!(s.words[1].lemma, "galore");
        assert_eq!(s.words[1].marker, Some(AdjMarker::Postnominal));
        assert_eq!(s.examples.len(), 2);
        let verb = "00001740 29 v 04 breathe 0 take_a_breath 0 respire 0 suspire 3 000 02 + 02 00 + 08 01 | draw air into, and expel out of, the lungs  ";
        let v = parse_data_line(verb, Pos::Verb, Path::new("data.verb"), 1).unwrap();
        assert_eq!(
            v.frames,
            vec![Frame { number: 2, word: 0 }, Frame { number: 8, word: 1 }]
        );
        assert_eq!(v.words[3].lex_id, 3);
    }

    #[test]
    fn index_line() {
        let e = parse_index_line("bass n 8 2 @ ~ 8 2 07815588 07815839 09257949 04584261 07815956 10084295 10084402 02514664  ", Path::new("index.noun"), 1).unwrap();
        assert_eq!(e.offsets.len(), 8);
        assert!(parse_index_line("bass n 8 2 @ ~ 8 2 0781", Path::new("index.noun"), 9).is_err());
    }
}
