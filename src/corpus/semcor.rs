//! SemCor 3.0 tagfiles.
//!
//! SemCor is the Brown-corpus subset hand-tagged with WordNet senses (mapped
//! to WordNet 3.0 by Rada Mihalcea). It comes in three parts, each a folder
//! of tagfiles: `brown1/tagfiles/br-*` and `brown2/tagfiles/br-*` (all open
//! class words tagged) and `brownv/tagfiles/br-*` (verbs only). A tagfile is
//! SGML-ish, one element per line, with unquoted attribute values:
//!
//! ```text
//! <contextfile concordance=brown>
//! <context filename=br-a01 paras=yes>
//! <p pnum=1>
//! <s snum=1>
//! <wf cmd=ignore pos=DT>The</wf>
//! <wf cmd=done rdf=group pos=NNP lemma=group wnsn=1 lexsn=1:03:00:: pn=group>Fulton_County_Grand_Jury</wf>
//! <wf cmd=done pos=VB lemma=take_place wnsn=1 lexsn=2:30:00::>took_place</wf>
//! <punc>.</punc>
//! </s>
//! </p>
//! </context>
//! </contextfile>
//! ```
//!
//! How a `wf` becomes a [`Token`]:
//!
//! * `text` is the surface form (multiwords are joined with `_` in the file
//!   and kept that way), `tag` the Penn tag of `pos=`, `pos` its WordNet
//!   category ([`Pos::from_tag`]), `lemma` the `lemma=` attribute.
//! * `gold` holds one sense key `lemma%lexsn` per `;`-separated sense, with
//!   the lemma lower-cased, **except** senses whose `wnsn` is `0`: those are
//!   senses lost in the 1.6→3.0 mapping, and their `lexsn` is not a WordNet
//!   3.0 key (checked on the real data: none of the 8,148 is). A token whose
//!   every sense has `wnsn=0`, or which has no `lexsn`, is untagged.
//! * The head word of an adjective-satellite `lexsn` sometimes carries the
//!   syntactic marker of the head adjective (`5:00:00:preceding(a):00`);
//!   WordNet's keys do not (`previous%5:00:00:preceding:00`), so the marker
//!   (`(a)`, `(p)`, `(ip)`) is removed. With that, every key with `wnsn≠0`
//!   in SemCor 3.0 is a WordNet 3.0 sense key.
//! * A token with at least one gold key gets the instance id
//!   `FILE.sSNUM.tINDEX` (`br-a01.s1.t5`: file name, `snum` of the sentence,
//!   0-based token index in the sentence, punctuation included). File names
//!   are unique across the three parts, so the ids are unique in the corpus.
//!   `cmd=ignore` and other untagged words never get an id.
//! * `<punc>` becomes a token with no lemma, tag or POS.
//!
//! Attribute values may be quoted with `"` (three real lines have
//! `sep="-"`); both forms are read, and a bare value may be empty (one real
//! line has `rdf= pos=NN`). `'` is not a quote: bare values contain
//! it (`lemma=governor's_race`, `lemma=n't`). Anything malformed (an unknown element, a `wf` without
//! `>` or `</wf>`, an attribute without `=`, an unclosed quote, a `wf`
//! outside a sentence, `wnsn` and `lexsn` lists of different lengths) is an
//! [`Error::Parse`] naming the file and line.
//!
//! The split ([`Split`], [`split_files`]) is fixed for every command:
//! documents sorted by their path relative to the SemCor root; the document
//! at 0-based index `i` is test when `i % 5 == 4`, train otherwise.

use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use rayon::prelude::*;
use serde::Serialize;

use super::{Document, Sentence, Token};
use crate::wordnet::Pos;
use crate::{Error, Result};

/// Which documents of SemCor to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Split {
    /// Documents whose index `i` (sorted by path) has `i % 5 != 4`.
    Train,
    /// Documents whose index `i` (sorted by path) has `i % 5 == 4`.
    Test,
    /// Every document.
    All,
}

impl Split {
    /// Whether the document at 0-based `index` (in path order) belongs to
    /// this split.
    pub fn includes(self, index: usize) -> bool {
        match self {
            Split::Train => index % 5 != 4,
            Split::Test => index % 5 == 4,
            Split::All => true,
        }
    }
}

impl FromStr for Split {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "train" => Ok(Split::Train),
            "test" => Ok(Split::Test),
            "all" => Ok(Split::All),
            _ => Err(Error::bad_parameter(
                "split",
                s,
                "unknown SemCor split (use train, test or all)",
            )),
        }
    }
}

impl fmt::Display for Split {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Split::Train => "train",
            Split::Test => "test",
            Split::All => "all",
        })
    }
}

/// Counts over SemCor tagfiles, for one part (`brown1`, `brown2`, `brownv`)
/// or in total.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PartStats {
    /// Tagfiles read.
    pub documents: usize,
    /// `<p>` paragraphs.
    pub paragraphs: usize,
    /// `<s>` sentences.
    pub sentences: usize,
    /// `<wf>` tokens (tagged or not).
    pub wf_tokens: usize,
    /// `<punc>` tokens.
    pub punctuation: usize,
    /// `wf` tokens carrying a `lexsn` (sense-tagged in the file).
    pub with_lexsn: usize,
    /// `wf` tokens whose `lexsn` lists several senses.
    pub several_lexsn: usize,
    /// `wf` tokens with a `lexsn` but `wnsn=0` for every sense: left untagged.
    pub wnsn_zero: usize,
    /// Single senses with `wnsn=0` dropped (including those beside a kept sense).
    pub zero_senses_dropped: usize,
    /// Tokens with at least one gold key (the instances).
    pub instances: usize,
    /// Instances with several gold keys.
    pub several_gold: usize,
    /// Gold keys in total.
    pub gold_keys: usize,
    /// Gold keys whose head word lost an `(a)`/`(p)`/`(ip)` marker.
    pub heads_normalised: usize,
}

impl PartStats {
    fn add(&mut self, o: &PartStats) {
        self.documents += o.documents;
        self.paragraphs += o.paragraphs;
        self.sentences += o.sentences;
        self.wf_tokens += o.wf_tokens;
        self.punctuation += o.punctuation;
        self.with_lexsn += o.with_lexsn;
        self.several_lexsn += o.several_lexsn;
        self.wnsn_zero += o.wnsn_zero;
        self.zero_senses_dropped += o.zero_senses_dropped;
        self.instances += o.instances;
        self.several_gold += o.several_gold;
        self.gold_keys += o.gold_keys;
        self.heads_normalised += o.heads_normalised;
    }
}

/// Counts per SemCor part (the folder holding `tagfiles/`), see
/// [`read_semcor_with_stats`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SemcorStats {
    /// Part name (`brown1`, …) → counts.
    pub parts: BTreeMap<String, PartStats>,
}

impl SemcorStats {
    /// Counts summed over all parts.
    pub fn total(&self) -> PartStats {
        let mut t = PartStats::default();
        for p in self.parts.values() {
            t.add(p);
        }
        t
    }
}

impl fmt::Display for SemcorStats {
    /// A table: one column per part and a total.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.total();
        let mut cols: Vec<(&str, &PartStats)> =
            self.parts.iter().map(|(k, v)| (k.as_str(), v)).collect();
        cols.push(("total", &total));
        type Row = (&'static str, fn(&PartStats) -> usize);
        let rows: [Row; 13] = [
            ("documents", |p| p.documents),
            ("paragraphs", |p| p.paragraphs),
            ("sentences", |p| p.sentences),
            ("wf tokens", |p| p.wf_tokens),
            ("punctuation", |p| p.punctuation),
            ("wf with lexsn", |p| p.with_lexsn),
            ("several lexsn", |p| p.several_lexsn),
            ("untagged wnsn=0", |p| p.wnsn_zero),
            ("senses wnsn=0 dropped", |p| p.zero_senses_dropped),
            ("instances", |p| p.instances),
            ("several gold keys", |p| p.several_gold),
            ("gold keys", |p| p.gold_keys),
            ("heads normalised", |p| p.heads_normalised),
        ];
        write!(f, "{:<22}", "")?;
        for (name, _) in &cols {
            write!(f, " {name:>9}")?;
        }
        writeln!(f)?;
        for (label, get) in rows {
            write!(f, "{label:<22}")?;
            for (_, p) in &cols {
                write!(f, " {:>9}", get(p))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// All tagfiles under a SemCor root: every `PART/tagfiles/br-*` (and
/// `ROOT/tagfiles/br-*` when the root is itself a part), sorted by their
/// path string relative to the root.
pub fn semcor_files(root: impl AsRef<Path>) -> Result<Vec<PathBuf>> {
    let root = root.as_ref();
    let mut dirs = vec![root.join("tagfiles")];
    let entries = std::fs::read_dir(root).map_err(|e| Error::io(root, e))?;
    for e in entries {
        let e = e.map_err(|e| Error::io(root, e))?;
        dirs.push(e.path().join("tagfiles"));
    }
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    for dir in dirs.iter().filter(|d| d.is_dir()) {
        for e in std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
            let e = e.map_err(|e| Error::io(dir, e))?;
            let path = e.path();
            if !e.file_name().to_string_lossy().starts_with("br-") {
                continue;
            }
            // A `br-*` entry that is not a readable file is reported, not
            // skipped: a document missing from training changes the model.
            match std::fs::metadata(&path) {
                Ok(m) if m.is_file() => {}
                Ok(_) => {
                    return Err(Error::io(
                        &path,
                        std::io::Error::other("is a directory, expected a SemCor tagfile"),
                    ))
                }
                Err(err) => return Err(Error::io(&path, err)),
            }
            {
                let rel = path.strip_prefix(root).unwrap_or(&path);
                files.push((rel.to_string_lossy().replace('\\', "/"), path));
            }
        }
    }
    if files.is_empty() {
        return Err(Error::MissingResource {
            what: "SemCor tagfiles (PART/tagfiles/br-*)".into(),
            path: root.to_path_buf(),
            fix: "give the SemCor 3.0 folder with --semcor DIR, or run scripts/fetch-data.sh"
                .into(),
        });
    }
    files.sort();
    Ok(files.into_iter().map(|(_, p)| p).collect())
}

/// The files of a split: `files` sorted by path string, then the file at
/// 0-based index `i` is test when `i % 5 == 4` and train otherwise.
pub fn split_files(files: &[PathBuf], split: Split) -> Vec<PathBuf> {
    let mut sorted: Vec<&PathBuf> = files.iter().collect();
    sorted.sort_by_cached_key(|p| p.to_string_lossy().replace('\\', "/"));
    sorted
        .into_iter()
        .enumerate()
        .filter(|(i, _)| split.includes(*i))
        .map(|(_, p)| p.clone())
        .collect()
}

/// Read the documents of a split of SemCor, in path order.
pub fn read_semcor(root: impl AsRef<Path>, split: Split) -> Result<Vec<Document>> {
    read_semcor_with_stats(root, split).map(|(docs, _)| docs)
}

/// Read the documents of a split of SemCor, in path order, with counts per
/// part. Files are read in parallel.
pub fn read_semcor_with_stats(
    root: impl AsRef<Path>,
    split: Split,
) -> Result<(Vec<Document>, SemcorStats)> {
    let files = split_files(&semcor_files(root)?, split);
    let read: Vec<(Document, PartStats)> = files
        .par_iter()
        .map(read_semcor_file_with_stats)
        .collect::<Result<_>>()?;
    let mut stats = SemcorStats::default();
    let mut docs = Vec::with_capacity(read.len());
    for ((doc, s), path) in read.into_iter().zip(&files) {
        stats
            .parts
            .entry(part_name(path).unwrap_or_default())
            .or_default()
            .add(&s);
        docs.push(doc);
    }
    Ok((docs, stats))
}

/// The counts of a split of SemCor, per part (reads the files; see
/// [`read_semcor_with_stats`] to keep the documents too).
pub fn semcor_stats(root: impl AsRef<Path>, split: Split) -> Result<SemcorStats> {
    read_semcor_with_stats(root, split).map(|(_, stats)| stats)
}

/// Read one tagfile. The document id is `PART/FILE` (`brown1/br-a01`) when
/// the file sits in `PART/tagfiles/`, else the file name.
pub fn read_semcor_file(path: impl AsRef<Path>) -> Result<Document> {
    read_semcor_file_with_stats(path).map(|(d, _)| d)
}

/// Read one tagfile and count what it holds (see [`read_semcor_file`]).
pub fn read_semcor_file_with_stats(path: impl AsRef<Path>) -> Result<(Document, PartStats)> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Error::parse(
            path,
            1,
            "empty tagfile (no <contextfile>); restore it or remove it",
        ));
    }
    let text = match String::from_utf8(bytes) {
        Ok(s) => s,
        // Older SemCor releases are Latin-1.
        Err(e) => e.into_bytes().iter().map(|&b| b as char).collect(),
    };
    let file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let doc_id = match part_name(path) {
        Some(part) => format!("{part}/{file}"),
        None => file.clone(),
    };
    parse_semcor(&text, path, &doc_id, &file)
}

/// The part a tagfile belongs to: the folder above `tagfiles/`.
fn part_name(path: &Path) -> Option<String> {
    let dir = path.parent()?;
    if dir.file_name()? != "tagfiles" {
        return None;
    }
    Some(dir.parent()?.file_name()?.to_string_lossy().into_owned())
}

/// Parse the text of a tagfile. `origin` names it in errors, `doc_id` becomes
/// the document id and `file` the prefix of sentence and instance ids.
pub fn parse_semcor(
    text: &str,
    origin: impl AsRef<Path>,
    doc_id: &str,
    file: &str,
) -> Result<(Document, PartStats)> {
    let origin = origin.as_ref();
    let mut doc = Document {
        id: doc_id.to_owned(),
        sentences: Vec::new(),
    };
    let mut stats = PartStats {
        documents: 1,
        ..Default::default()
    };
    let mut sentence: Option<Sentence> = None;
    let mut snums: HashSet<String> = HashSet::new();
    // Reused for every line: one allocation per file, not per line.
    let mut attrs: Vec<(&str, &str)> = Vec::with_capacity(16);
    for (i, raw) in text.lines().enumerate() {
        let lineno = i + 1;
        let err = |msg: String| Error::parse(origin, lineno, msg);
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let Some(body) = line.strip_prefix('<') else {
            return Err(err(format!("expected an element, found {line:?}")));
        };
        if let Some(name) = body.strip_prefix('/') {
            let name = name
                .strip_suffix('>')
                .ok_or_else(|| err(format!("end tag without `>`: {line:?}")))?;
            match name {
                "s" => {
                    let s = sentence
                        .take()
                        .ok_or_else(|| err("</s> without <s>".into()))?;
                    doc.sentences.push(s);
                }
                "p" | "context" | "contextfile" => {}
                _ => return Err(err(format!("unknown end tag {line:?}"))),
            }
            continue;
        }
        let name_len = body
            .bytes()
            .position(|b| b.is_ascii_whitespace() || b == b'>')
            .ok_or_else(|| err(format!("tag without `>`: {line:?}")))?;
        let name = &body[..name_len];
        let rest = scan_attrs(&body[name_len..], &mut attrs).map_err(err)?;
        match name {
            "wf" | "punc" => {
                let close = if name == "wf" { "</wf>" } else { "</punc>" };
                let word = rest
                    .strip_suffix(close)
                    .ok_or_else(|| err(format!("<{name}> not closed by {close} on its line")))?;
                if name == "wf" && word.contains(['<', '>']) {
                    return Err(err(format!("markup inside <wf>: {word:?}")));
                }
                let s = sentence
                    .as_mut()
                    .ok_or_else(|| err(format!("<{name}> outside a sentence")))?;
                let token = if name == "wf" {
                    let index = s.tokens.len();
                    wf_token(&attrs, word, &s.id, index, &mut stats).map_err(err)?
                } else {
                    stats.punctuation += 1;
                    Token {
                        text: word.to_owned(),
                        ..Default::default()
                    }
                };
                s.tokens.push(token);
            }
            "s" => {
                if !rest.is_empty() {
                    return Err(err(format!("text after <s>: {rest:?}")));
                }
                if sentence.is_some() {
                    return Err(err("<s> inside a sentence (missing </s>)".into()));
                }
                stats.sentences += 1;
                let snum = match attrs.iter().find(|(k, _)| *k == "snum") {
                    Some((_, v)) => v.to_string(),
                    None => stats.sentences.to_string(),
                };
                if !snums.insert(snum.clone()) {
                    return Err(err(format!("sentence number {snum} seen twice")));
                }
                sentence = Some(Sentence {
                    id: format!("{file}.s{snum}"),
                    tokens: Vec::new(),
                });
            }
            "p" | "context" | "contextfile" => {
                if !rest.is_empty() {
                    return Err(err(format!("text after <{name}>: {rest:?}")));
                }
                if name == "p" {
                    stats.paragraphs += 1;
                }
            }
            _ => return Err(err(format!("unknown element <{name}>"))),
        }
    }
    if sentence.is_some() {
        return Err(Error::parse(
            origin,
            text.lines().count(),
            "sentence not closed (missing </s>) at end of file",
        ));
    }
    Ok((doc, stats))
}

/// Scan `name=value` attributes up to the `>` closing the start tag into
/// `attrs` (cleared first); return the rest of the line after `>`. Values may be bare (up to white
/// space or `>`) or quoted with `"`. A `'` is an ordinary character: bare
/// values such as `lemma=governor's_race` and `lemma=n't` contain it.
fn scan_attrs<'a>(
    s: &'a str,
    attrs: &mut Vec<(&'a str, &'a str)>,
) -> std::result::Result<&'a str, String> {
    let b = s.as_bytes();
    attrs.clear();
    let mut i = 0;
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == b.len() {
            return Err("start tag not closed (missing `>`)".into());
        }
        if b[i] == b'>' {
            return Ok(&s[i + 1..]);
        }
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'-') {
            i += 1;
        }
        if i == start {
            let end = s[start..]
                .find(char::is_whitespace)
                .map_or(s.len(), |n| start + n);
            return Err(format!("garbage in tag: {:?}", &s[start..end]));
        }
        let name = &s[start..i];
        if i == b.len() || b[i] != b'=' {
            return Err(format!("attribute {name:?} without `=value`"));
        }
        i += 1;
        let value;
        if i < b.len() && b[i] == b'"' {
            let q = b[i];
            let vstart = i + 1;
            let len = b[vstart..]
                .iter()
                .position(|&c| c == q)
                .ok_or_else(|| format!("unclosed quote in attribute {name:?}"))?;
            value = &s[vstart..vstart + len];
            i = vstart + len + 1;
        } else {
            let vstart = i;
            while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'>' {
                if b[i] == b'<' || b[i] == b'"' {
                    return Err(format!(
                        "unexpected {:?} in the value of attribute {name:?} (missing `>`?)",
                        b[i] as char
                    ));
                }
                i += 1;
            }
            value = &s[vstart..i];
        }
        attrs.push((name, value));
    }
}

/// Build the token of a `wf` element and count it.
fn wf_token(
    attrs: &[(&str, &str)],
    word: &str,
    sentence_id: &str,
    index: usize,
    stats: &mut PartStats,
) -> std::result::Result<Token, String> {
    let mut tag = None;
    let mut lemma = None;
    let mut wnsn = None;
    let mut lexsn = None;
    for &(k, v) in attrs {
        match k {
            "pos" => tag = Some(v),
            "lemma" => lemma = Some(v),
            "wnsn" => wnsn = Some(v),
            "lexsn" => lexsn = Some(v),
            _ => {}
        }
    }
    stats.wf_tokens += 1;
    let mut gold = Vec::new();
    if let Some(lexsn) = lexsn {
        stats.with_lexsn += 1;
        let lemma = lemma.ok_or("<wf> has a lexsn but no lemma")?;
        let lemma_lc = lemma.to_lowercase();
        let senses: Vec<&str> = lexsn.split(';').collect();
        let numbers: Option<Vec<&str>> = wnsn.map(|w| w.split(';').collect());
        if let Some(n) = &numbers {
            if let Some(bad) = n.iter().find(|x| x.trim().parse::<u32>().is_err()) {
                return Err(format!(
                    "wnsn={}: {:?} is not a sense number",
                    crate::error::excerpt(wnsn.unwrap_or("")),
                    crate::error::excerpt(bad)
                ));
            }
            if n.len() != senses.len() {
                return Err(format!(
                    "wnsn={} lists {} senses but lexsn={lexsn} lists {}",
                    wnsn.unwrap_or(""),
                    n.len(),
                    senses.len()
                ));
            }
        }
        if senses.len() > 1 {
            stats.several_lexsn += 1;
        }
        for (j, sense) in senses.iter().enumerate() {
            if numbers.as_ref().is_some_and(|n| n[j].trim() == "0") {
                stats.zero_senses_dropped += 1;
                continue;
            }
            let (sense, normalised) = normalise_lexsn(sense)?;
            if normalised {
                stats.heads_normalised += 1;
            }
            let key = format!("{lemma_lc}%{sense}");
            if !gold.contains(&key) {
                gold.push(key);
            }
        }
        if gold.is_empty() {
            stats.wnsn_zero += 1;
        } else {
            stats.instances += 1;
            stats.gold_keys += gold.len();
            if gold.len() > 1 {
                stats.several_gold += 1;
            }
        }
    }
    let instance = (!gold.is_empty()).then(|| format!("{sentence_id}.t{index}"));
    Ok(Token {
        text: word.to_owned(),
        lemma: lemma.map(str::to_owned),
        tag: tag.map(str::to_owned),
        pos: tag.and_then(Pos::from_tag),
        gold,
        instance,
        span: None,
    })
}

/// Check the shape of a `lexsn` (`ss_type:lex_filenum:lex_id:head:head_id`)
/// and drop a syntactic marker from the head word (`preceding(a)` →
/// `preceding`). Returns the lexsn and whether it changed.
fn normalise_lexsn(lexsn: &str) -> std::result::Result<(std::borrow::Cow<'_, str>, bool), String> {
    let mut it = lexsn.split(':');
    let mut fields = [""; 5];
    let mut n = 0;
    for f in it.by_ref().take(5) {
        fields[n] = f;
        n += 1;
    }
    let ok = n == 5
        && it.next().is_none()
        && matches!(fields[0], "1" | "2" | "3" | "4" | "5")
        && fields[1].len() == 2
        && fields[1].bytes().all(|b| b.is_ascii_digit())
        && fields[2].len() == 2
        && fields[2].bytes().all(|b| b.is_ascii_digit());
    if !ok {
        return Err(format!("malformed lexsn {lexsn:?}"));
    }
    let head = fields[3];
    if let Some(open) = head.find('(') {
        if head.ends_with(')') {
            let s = format!(
                "{}:{}:{}:{}:{}",
                fields[0],
                fields[1],
                fields[2],
                &head[..open],
                fields[4]
            );
            return Ok((std::borrow::Cow::Owned(s), true));
        }
    }
    Ok((std::borrow::Cow::Borrowed(lexsn), false))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name)
    }

    fn parse(text: &str) -> Result<(Document, PartStats)> {
        parse_semcor(text, "mem/br-x01", "br-x01", "br-x01")
    }

    #[test]
    fn reads_fixture_tagfile() {
        let root = fixture("semcor");
        let path = root.join("brown1/tagfiles/br-z01");
        let (doc, st) = read_semcor_file_with_stats(&path).unwrap();
        assert_eq!(doc.id, "brown1/br-z01");
        assert_eq!(doc.sentences.len(), 2);
        let s = &doc.sentences[0];
        assert_eq!(s.id, "br-z01.s1");
        let texts: Vec<&str> = s.tokens.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "The",
                "Fulton_County_Grand_Jury",
                "said",
                "Friday",
                ",",
                "it",
                "took_place",
                "recently",
                "."
            ]
        );
        // cmd=ignore: no instance, but tag and POS.
        let the = &s.tokens[0];
        assert_eq!(the.instance, None);
        assert_eq!(the.tag.as_deref(), Some("DT"));
        assert_eq!(the.pos, None);
        assert!(the.gold.is_empty());
        // rdf/pn group.
        let jury = &s.tokens[1];
        assert_eq!(jury.lemma.as_deref(), Some("group"));
        assert_eq!(jury.gold, ["group%1:03:00::"]);
        assert_eq!(jury.instance.as_deref(), Some("br-z01.s1.t1"));
        assert_eq!(jury.pos, Some(Pos::Noun));
        // multiword verb.
        let took = &s.tokens[6];
        assert_eq!(took.lemma.as_deref(), Some("take_place"));
        assert_eq!(took.gold, ["take_place%2:30:00::"]);
        assert_eq!(took.pos, Some(Pos::Verb));
        // punctuation.
        assert_eq!(s.tokens[4].tag, None);
        assert_eq!(s.tokens[4].instance, None);
        // several senses, one of them wnsn=0 (dropped); quoted attribute.
        let recently = &s.tokens[7];
        assert_eq!(recently.gold, ["recently%4:02:00::"]);
        let s2 = &doc.sentences[1];
        // several senses kept.
        assert_eq!(s2.tokens[1].gold, ["jury%1:14:00::", "jury%1:14:01::"]);
        // wnsn=0: untagged.
        assert_eq!(s2.tokens[2].text, "accepted");
        assert!(s2.tokens[2].gold.is_empty());
        assert_eq!(s2.tokens[2].instance, None);
        // head marker removed, upper-case lemma lowered.
        assert_eq!(s2.tokens[3].gold, ["previous%5:00:00:preceding:00"]);
        assert_eq!(s2.tokens[4].gold, ["atlanta%1:15:00::"]);
        assert_eq!(
            st,
            PartStats {
                documents: 1,
                paragraphs: 2,
                sentences: 2,
                wf_tokens: 13,
                punctuation: 3,
                with_lexsn: 9,
                several_lexsn: 2,
                wnsn_zero: 1,
                zero_senses_dropped: 2,
                instances: 8,
                several_gold: 1,
                gold_keys: 9,
                heads_normalised: 1,
            }
        );
        let targets = doc.targets();
        assert_eq!(targets.len(), 8);
        assert_eq!(targets[0].id, "br-z01.s1.t1");
    }

    #[test]
    fn files_split_and_read() {
        let root = fixture("semcor");
        let files = semcor_files(&root).unwrap();
        let rel: Vec<String> = files
            .iter()
            .map(|p| {
                p.strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(
            rel,
            [
                "brown1/tagfiles/br-z01",
                "brown1/tagfiles/br-z02",
                "brown2/tagfiles/br-z03",
                "brownv/tagfiles/br-z04",
                "brownv/tagfiles/br-z05",
                "brownv/tagfiles/br-z06"
            ]
        );
        let test = split_files(&files, Split::Test);
        assert_eq!(test, [files[4].clone()]);
        let mut reversed = files.clone();
        reversed.reverse();
        assert_eq!(split_files(&reversed, Split::Train).len(), 5);
        assert_eq!(split_files(&reversed, Split::Test), test);
        assert_eq!(split_files(&files, Split::All), files);

        let (docs, stats) = read_semcor_with_stats(&root, Split::All).unwrap();
        let ids: Vec<&str> = docs.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "brown1/br-z01",
                "brown1/br-z02",
                "brown2/br-z03",
                "brownv/br-z04",
                "brownv/br-z05",
                "brownv/br-z06"
            ]
        );
        assert_eq!(stats.parts.len(), 3);
        assert_eq!(stats.parts["brownv"].documents, 3);
        assert_eq!(stats.total().documents, 6);
        let test_docs = read_semcor(&root, Split::Test).unwrap();
        assert_eq!(test_docs.len(), 1);
        assert_eq!(test_docs[0].id, "brownv/br-z05");
        assert!(stats.to_string().contains("wf with lexsn"));
    }

    #[test]
    fn split_parses() {
        assert_eq!("train".parse::<Split>().unwrap(), Split::Train);
        assert_eq!("test".parse::<Split>().unwrap(), Split::Test);
        assert_eq!("all".parse::<Split>().unwrap(), Split::All);
        assert!("dev".parse::<Split>().is_err());
        assert_eq!(Split::Test.to_string(), "test");
        let picked: Vec<usize> = (0..12).filter(|&i| Split::Test.includes(i)).collect();
        assert_eq!(picked, [4, 9]);
    }

    fn line_of(r: Result<(Document, PartStats)>) -> usize {
        match r {
            Err(Error::Parse { line, path, msg }) => {
                assert_eq!(path, Path::new("mem/br-x01"), "{msg}");
                line
            }
            Err(e) => panic!("not a parse error: {e}"),
            Ok(_) => panic!("parsed"),
        }
    }

    const HEAD: &str = "<contextfile concordance=brown>\n<context filename=br-x01 paras=yes>\n<p pnum=1>\n<s snum=1>\n";

    #[test]
    fn broken_wf_lines_are_errors_with_line() {
        let cases = [
            // missing `>` after the attributes
            "<wf cmd=done pos=NN lemma=jury wnsn=1 lexsn=1:14:00::jury</wf>",
            // unclosed element
            "<wf cmd=done pos=NN lemma=jury wnsn=1 lexsn=1:14:00::>jury",
            // garbage attribute
            "<wf cmd=done pos=NN ?? lemma=jury>jury</wf>",
            // attribute without value
            "<wf cmd=done pos lemma=jury>jury</wf>",
            // unclosed quote
            "<wf cmd=done sep=\"- pos=NN>jury</wf>",
            // wnsn and lexsn disagree
            "<wf cmd=done pos=NN lemma=jury wnsn=1;2 lexsn=1:14:00::>jury</wf>",
            // malformed lexsn
            "<wf cmd=done pos=NN lemma=jury wnsn=1 lexsn=1:14>jury</wf>",
            // lexsn without lemma
            "<wf cmd=done pos=NN wnsn=1 lexsn=1:14:00::>jury</wf>",
            // nothing but `<wf`
            "<wf",
            // unknown element
            "<xx a=b>jury</xx>",
        ];
        for case in cases {
            let text = format!("{HEAD}<wf cmd=ignore pos=DT>The</wf>\n{case}\n</s>\n</p>\n");
            assert_eq!(line_of(parse(&text)), 6, "{case}");
        }
    }

    #[test]
    fn structure_errors() {
        assert_eq!(line_of(parse("<wf cmd=ignore pos=DT>The</wf>\n")), 1);
        assert_eq!(line_of(parse(&format!("{HEAD}<s snum=2>\n"))), 5);
        assert_eq!(line_of(parse("</s>\n")), 1);
        assert_eq!(
            line_of(parse(&format!("{HEAD}<wf cmd=ignore pos=DT>The</wf>\n"))),
            5
        );
        assert_eq!(
            line_of(parse(&format!("{HEAD}</s>\n<s snum=1>\n</s>\n"))),
            6
        );
        assert_eq!(line_of(parse("plain text\n")), 1);
    }

    #[test]
    fn attribute_scanner() {
        let mut a = Vec::new();
        let rest = scan_attrs(" a=1 b=\"x y\" c=n't d=governor's>word</wf>", &mut a).unwrap();
        assert_eq!(
            a,
            [("a", "1"), ("b", "x y"), ("c", "n't"), ("d", "governor's")]
        );
        assert_eq!(rest, "word</wf>");
        let rest = scan_attrs(">", &mut a).unwrap();
        assert!(a.is_empty());
        assert_eq!(rest, "");
        scan_attrs(" a= b=1>", &mut a).unwrap();
        assert_eq!(a, [("a", ""), ("b", "1")]);
        assert!(scan_attrs(" a=", &mut a).is_err());
        assert!(scan_attrs(" a=1", &mut a).is_err());
    }

    #[test]
    fn missing_file_is_an_io_error() {
        let e = read_semcor_file(fixture("semcor/nope")).unwrap_err();
        assert!(matches!(e, Error::Io { .. }));
        let e = semcor_files(fixture("keyfile-missing-dir")).unwrap_err();
        assert!(matches!(e, Error::Io { .. }));
    }

    /// Reads the whole of SemCor 3.0 and prints the counts. Root from
    /// `WSD_SEMCOR` (default `corpora/semcor3.0`). Also checks
    /// every gold key against `index.sense` when `WSD_WORDNET` (default
    /// `wordnet/dict`) has one. Run with
    /// `cargo test --release --lib corpus -- --ignored --nocapture`.
    #[test]
    #[ignore = "needs the real data (all of SemCor 3.0, corpora/semcor3.0 or $WSD_SEMCOR), which unit tests do without: cargo test --release --lib real_semcor -- --ignored --nocapture"]
    fn real_semcor() {
        let root = std::env::var("WSD_SEMCOR").unwrap_or_else(|_| {
            concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/semcor3.0").to_string()
        });
        let t0 = std::time::Instant::now();
        let (docs, stats) = read_semcor_with_stats(&root, Split::All).unwrap();
        let elapsed = t0.elapsed();
        println!("read all of SemCor ({root}) in {elapsed:.2?}");
        println!("{stats}");
        let total = stats.total();
        assert_eq!(docs.len(), total.documents);
        let files = semcor_files(&root).unwrap();
        let train = split_files(&files, Split::Train).len();
        let test = split_files(&files, Split::Test).len();
        println!("split: train {train} documents, test {test} documents");
        assert_eq!(train + test, docs.len());

        let mut ids = HashSet::new();
        let mut instances = 0;
        for d in &docs {
            for t in d.targets() {
                instances += 1;
                assert!(ids.insert(t.id.clone()), "duplicate instance id {}", t.id);
            }
        }
        assert_eq!(instances, total.instances);
        println!("instance ids unique: {instances}");
        let names: HashSet<_> = files.iter().map(|p| p.file_name().unwrap()).collect();
        assert_eq!(names.len(), files.len(), "file names repeat across parts");

        let wn = std::env::var("WSD_WORDNET")
            .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/wordnet/dict").to_string());
        if let Ok(index) = std::fs::read_to_string(Path::new(&wn).join("index.sense")) {
            let known: HashSet<&str> = index
                .lines()
                .filter_map(|l| l.split_whitespace().next())
                .collect();
            let check = crate::corpus::check_gold_keys(&docs, |k| known.contains(k));
            println!(
                "gold keys WordNet lacks: {} of {} (e.g. {:?})",
                check.unknown, check.checked, check.examples
            );
        }
    }
}
