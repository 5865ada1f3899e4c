//! The evaluation framework's XML data sets (Raganato, Camacho-Collados and
//! Navigli, EACL 2017: Senseval-2/3, SemEval-2007/2013/2015, and the
//! framework's SemCor).
//!
//! ```text
//! <corpus lang="en" source="semeval2007">
//! <text id="d000">
//! <sentence id="d000.s000">
//! <wf lemma="the" pos="DET">The</wf>
//! <instance id="d000.s000.t000" lemma="refer" pos="VERB">referred</instance>
//! </sentence>
//! </text>
//! </corpus>
//! ```
//!
//! Each `<text>` becomes a [`Document`], each `<sentence>` a [`Sentence`],
//! each `<wf>`/`<instance>` a [`Token`] whose `tag` is the universal POS and
//! whose `pos` is its WordNet category (`NOUN VERB ADJ ADV`, others none).
//! Only `<instance>` tokens carry an instance id; gold keys live in a
//! separate key file ([`attach_gold`]). Entities are unescaped. Malformed
//! XML (unclosed or mismatched tags, unknown entities, elements where they
//! do not belong, a repeated instance id) is an [`Error::Parse`] with the
//! file and the 1-based line, computed from quick-xml's byte position.

use std::collections::HashSet;
use std::path::Path;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use super::keyfile::KeyFile;
use super::{Document, Sentence, Token};
use crate::wordnet::Pos;
use crate::{Error, Result};

/// Read an XML data set.
pub fn read_xml(path: impl AsRef<Path>) -> Result<Vec<Document>> {
    let path = path.as_ref();
    let bytes = crate::text::blocks::read_file_or_nul(path).map_err(|e| Error::io(path, e))?;
    let text = super::utf8_text(bytes, path)?;
    if text.trim().is_empty() {
        return Err(Error::parse(
            path,
            1,
            "empty file, expected an evaluation-framework XML data set (<corpus>…)",
        ));
    }
    parse_xml(&text, path)
}

/// Parse the text of an XML data set; `origin` names it in errors.
pub fn parse_xml(text: &str, origin: impl AsRef<Path>) -> Result<Vec<Document>> {
    let origin = origin.as_ref();
    let bytes = text.as_bytes();
    let start = text.trim_start_matches('\u{feff}').trim_start();
    if !start.is_empty() && !start.starts_with('<') {
        // a key file or plain text given where the data XML goes
        let first = start.lines().next().unwrap_or_default();
        let what = if crate::corpus::keyfile::parse_keys(first, origin).is_ok() {
            "like a key file (`id key…` lines)"
        } else {
            "with text"
        };
        return Err(Error::parse(
            origin,
            text[..text.len() - start.len()].matches('\n').count() + 1,
            format!(
                "not XML: it starts {what}, {:?}; the data file is the framework's .data.xml",
                crate::error::excerpt(first)
            ),
        ));
    }
    let mut reader = Reader::from_str(text);
    reader.config_mut().trim_text(true);
    reader.config_mut().check_end_names = true;

    let mut docs = Vec::new();
    let mut stack: Vec<(&'static str, usize)> = Vec::new();
    let mut doc: Option<Document> = None;
    let mut sentence: Option<Sentence> = None;
    let mut token: Option<Token> = None;
    let mut seen_ids: HashSet<String> = HashSet::new();
    let mut lines = LineCounter::default();
    let mut corpus_line = 0usize;

    loop {
        let before = reader.buffer_position() as usize;
        let event = match reader.read_event() {
            Ok(ev) => ev,
            Err(e) => {
                let line = lines.line_at(bytes, reader.error_position() as usize);
                return Err(Error::parse(origin, line, format!("malformed XML: {e}")));
            }
        };
        // The event starts at the first non-blank byte after the previous one.
        let start = before
            + bytes[before.min(bytes.len())..]
                .iter()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
        let line = lines.line_at(bytes, start);
        let err = |msg: String| Error::parse(origin, line, msg);
        let (open, close) = match &event {
            Event::Start(e) => (Some(e), false),
            Event::Empty(e) => (Some(e), true),
            _ => (None, false),
        };
        if let Some(e) = open {
            let name = element(e).map_err(err)?;
            let parent = stack.last().map(|&(n, _)| n);
            let attrs = Attrs::read(e).map_err(err)?;
            match name {
                "corpus" => {
                    if parent.is_some() {
                        return Err(err("<corpus> must be the root element".into()));
                    }
                    if corpus_line != 0 {
                        return Err(err(format!(
                            "a second <corpus> (the first is on line {corpus_line}); one data set per file"
                        )));
                    }
                    corpus_line = line;
                }
                "text" => {
                    if !matches!(parent, None | Some("corpus")) {
                        return Err(err("<text> outside <corpus>".into()));
                    }
                    let id = attrs.id.ok_or_else(|| err("<text> without id".into()))?;
                    doc = Some(Document {
                        id,
                        sentences: Vec::new(),
                    });
                }
                "sentence" => {
                    let d = match (parent, doc.as_ref()) {
                        (Some("text"), Some(d)) => d,
                        _ => return Err(err("<sentence> outside <text>".into())),
                    };
                    let id = attrs
                        .id
                        .unwrap_or_else(|| format!("{}.s{:03}", d.id, d.sentences.len()));
                    sentence = Some(Sentence {
                        id,
                        tokens: Vec::new(),
                    });
                }
                "wf" | "instance" => {
                    if let Some(p @ ("wf" | "instance")) = parent {
                        return Err(err(format!("<{name}> inside <{p}> (missing </{p}>?)")));
                    }
                    if parent != Some("sentence") {
                        return Err(err(format!("<{name}> outside <sentence>")));
                    }
                    let instance = if name == "instance" {
                        // An empty id is no id: it matches no key line.
                        let id = attrs
                            .id
                            .filter(|id| !id.trim().is_empty())
                            .ok_or_else(|| err("<instance> without id".into()))?;
                        if !seen_ids.insert(id.clone()) {
                            return Err(err(format!("instance id {id:?} seen twice")));
                        }
                        Some(id)
                    } else {
                        None
                    };
                    token = Some(Token {
                        text: String::new(),
                        lemma: attrs.lemma,
                        pos: attrs.pos.as_deref().and_then(Pos::from_tag),
                        tag: attrs.pos,
                        gold: Vec::new(),
                        instance,
                        span: None,
                        head: None,
                        parts: Vec::new(),
                        alt: None,
                        pos_prob: None,
                        vector: None,
                        sentence_vector: None,
                    });
                }
                _ => unreachable!("element() only returns known names"),
            }
            stack.push((name, line));
            if !close {
                continue;
            }
        }
        match event {
            Event::Start(_) | Event::Empty(_) | Event::End(_) => {
                // Start tags were handled above; here elements close (an
                // empty element closes right after it opens).
                let (name, _) = stack
                    .pop()
                    .ok_or_else(|| err("end tag without start tag".into()))?;
                match name {
                    "wf" | "instance" => {
                        if let (Some(t), Some(s)) = (token.take(), sentence.as_mut()) {
                            s.tokens.push(t);
                        }
                    }
                    "sentence" => {
                        if let (Some(s), Some(d)) = (sentence.take(), doc.as_mut()) {
                            d.sentences.push(s);
                        }
                    }
                    "text" => docs.extend(doc.take()),
                    _ => {}
                }
            }
            Event::Text(t) => {
                let s = t.unescape().map_err(|e| err(format!("bad text: {e}")))?;
                match token.as_mut() {
                    Some(tok) => tok.text.push_str(&s),
                    None if s.trim().is_empty() => {}
                    None => {
                        return Err(err(format!(
                            "text outside <wf>/<instance>: {:?}",
                            crate::error::excerpt(s.trim())
                        )))
                    }
                }
            }
            Event::CData(c) => {
                let s = String::from_utf8_lossy(&c);
                match token.as_mut() {
                    Some(tok) => tok.text.push_str(&s),
                    None => return Err(err("CDATA outside <wf>/<instance>".into())),
                }
            }
            Event::Eof => {
                if let Some(&(open, opened)) = stack.last() {
                    return Err(Error::parse(
                        origin,
                        opened,
                        format!("<{open}> opened here is not closed at end of file"),
                    ));
                }
                break;
            }
            Event::Decl(_) | Event::Comment(_) | Event::PI(_) | Event::DocType(_) => {}
        }
    }
    if corpus_line == 0 && docs.is_empty() {
        return Err(Error::parse(
            origin,
            1,
            "no <corpus> element: not an evaluation-framework XML data set",
        ));
    }
    Ok(docs)
}

/// The known element names (as `'static` so the open-element stack does
/// not allocate).
fn element(e: &BytesStart<'_>) -> std::result::Result<&'static str, String> {
    match e.name().as_ref() {
        b"corpus" => Ok("corpus"),
        b"text" => Ok("text"),
        b"sentence" => Ok("sentence"),
        b"wf" => Ok("wf"),
        b"instance" => Ok("instance"),
        other => Err(format!(
            "unknown element <{}>",
            String::from_utf8_lossy(other)
        )),
    }
}

/// The attributes the reader uses.
#[derive(Default)]
struct Attrs {
    id: Option<String>,
    lemma: Option<String>,
    pos: Option<String>,
}

impl Attrs {
    fn read(e: &BytesStart<'_>) -> std::result::Result<Attrs, String> {
        let mut out = Attrs::default();
        for a in e.attributes() {
            let a = a.map_err(|e| format!("bad attribute: {e}"))?;
            let slot = match a.key.as_ref() {
                b"id" => &mut out.id,
                b"lemma" => &mut out.lemma,
                b"pos" => &mut out.pos,
                _ => continue,
            };
            let v = a
                .unescape_value()
                .map_err(|e| format!("bad attribute value: {e}"))?;
            *slot = Some(v.into_owned());
        }
        Ok(out)
    }
}

/// 1-based line numbers of byte offsets, counted incrementally (offsets
/// mostly grow while reading; a smaller one restarts the count).
#[derive(Default)]
struct LineCounter {
    pos: usize,
    newlines: usize,
}

impl LineCounter {
    fn line_at(&mut self, bytes: &[u8], pos: usize) -> usize {
        let pos = pos.min(bytes.len());
        if pos < self.pos {
            *self = LineCounter::default();
        }
        self.newlines += bytes[self.pos..pos].iter().filter(|&&b| b == b'\n').count();
        self.pos = pos;
        self.newlines + 1
    }
}

/// Set `token.gold` of every instance token from a key file (instances the
/// key file lacks get no gold). Returns how many instances got gold keys.
pub fn attach_gold(docs: &mut [Document], gold: &KeyFile) -> usize {
    let mut n = 0;
    for d in docs {
        for s in &mut d.sentences {
            for t in &mut s.tokens {
                if let Some(id) = &t.instance {
                    match gold.get(id) {
                        Some(keys) => {
                            t.gold = keys.to_vec();
                            n += 1;
                        }
                        None => t.gold.clear(),
                    }
                }
            }
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::keyfile::read_key_file;
    use std::path::PathBuf;

    fn fixture(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name)
    }

    #[test]
    fn reads_fixture() {
        let mut docs = read_xml(fixture("tiny.data.xml")).unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[0].id, "d000");
        assert_eq!(docs[0].sentences.len(), 2);
        let s = &docs[0].sentences[0];
        assert_eq!(s.id, "d000.s000");
        let t0 = &s.tokens[0];
        assert_eq!(t0.text, "Rock & roll's");
        assert_eq!(t0.lemma.as_deref(), Some("rock & roll"));
        assert_eq!(t0.tag.as_deref(), Some("NOUN"));
        assert_eq!(t0.instance, None);
        let targets: Vec<_> = docs.iter().flat_map(|d| d.targets()).collect();
        let ids: Vec<&str> = targets.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "d000.s000.t000",
                "d000.s000.t001",
                "d000.s001.t000",
                "d001.s000.t000"
            ]
        );
        assert_eq!(targets[0].pos, Pos::Verb);
        assert_eq!(targets[1].lemma, "bank");
        assert_eq!(targets[1].pos, Pos::Noun);
        assert_eq!(targets[2].pos, Pos::Adj);
        assert_eq!(targets[3].pos, Pos::Adv);

        let gold = read_key_file(fixture("tiny.gold.key.txt")).unwrap();
        assert_eq!(attach_gold(&mut docs, &gold), 4);
        let t = docs[0].token(&targets[1]);
        assert_eq!(t.gold, ["bank%1:17:01::", "bank%1:17:00::"]);
        assert_eq!(KeyFile::from_documents(&docs), gold);
        let pos = crate::corpus::instance_pos(&docs);
        assert_eq!(pos["d001.s000.t000"], Pos::Adv);
    }

    fn line_of(xml: &str) -> usize {
        match parse_xml(xml, "bad.xml") {
            Err(Error::Parse { line, path, msg }) => {
                assert_eq!(path, Path::new("bad.xml"));
                eprintln!("{msg}");
                line
            }
            Err(e) => panic!("not a parse error: {e}"),
            Ok(d) => panic!("parsed: {d:?}"),
        }
    }

    const HEAD: &str = "<?xml version=\"1.0\"?>\n<corpus lang=\"en\">\n<text id=\"d0\">\n<sentence id=\"d0.s0\">\n";

    #[test]
    fn errors_carry_the_line() {
        // unknown entity in text
        assert_eq!(
            line_of(&format!("{HEAD}<wf lemma=\"a\" pos=\"X\">a</wf>\n<wf lemma=\"b\" pos=\"X\">b&bogus;</wf>\n</sentence>\n</text>\n</corpus>\n")),
            6
        );
        // bare ampersand in an attribute
        assert_eq!(
            line_of(&format!(
                "{HEAD}<wf lemma=\"a & b\" pos=\"X\">a</wf>\n</sentence>\n</text>\n</corpus>\n"
            )),
            5
        );
        // mismatched end tag
        assert_eq!(
            line_of(&format!(
                "{HEAD}<wf lemma=\"a\" pos=\"X\">a</instance>\n</sentence>\n</text>\n</corpus>\n"
            )),
            5
        );
        // unclosed elements at end of file: the innermost one's start line
        assert_eq!(
            line_of(&format!("{HEAD}<wf lemma=\"a\" pos=\"X\">a</wf>\n")),
            4
        );
        // start tag never closed
        assert_eq!(
            line_of(&format!(
                "{HEAD}<wf lemma=\"a\" pos=\"X\">a</wf>\n<wf lemma=\"b\"\n"
            )),
            6
        );
        // a wf left open: the next wf is inside it
        assert_eq!(
            line_of(&format!("{HEAD}<wf lemma=\"a\" pos=\"X\">a\n<wf lemma=\"b\" pos=\"X\">b</wf>\n</sentence>\n</text>\n</corpus>\n")),
            6
        );
        // a key file given as the data: not XML, on its first line of text
        assert_eq!(line_of("\nd000.s000.t000 refer%2:32:01::\n"), 2);
        let Err(Error::Parse { msg, .. }) = parse_xml("d0.t0 a%1:01:00::\n", "k") else {
            panic!("parsed")
        };
        assert!(msg.contains("not XML") && msg.contains("key file"), "{msg}");
        // text outside a word is quoted in part, not whole
        let long = format!("{HEAD}{}\n", "loose ".repeat(1000));
        let Err(Error::Parse { msg, .. }) = parse_xml(&long, "k") else {
            panic!("parsed")
        };
        assert!(msg.len() < 200, "{msg}");
        // unknown element, text outside a word, duplicate instance id
        assert_eq!(line_of(&format!("{HEAD}<foo/>\n")), 5);
        assert_eq!(line_of(&format!("{HEAD}\n\nloose\n")), 7);
        assert_eq!(
            line_of(&format!("{HEAD}<instance id=\"i\" lemma=\"a\" pos=\"NOUN\">a</instance>\n<instance id=\"i\" lemma=\"a\" pos=\"NOUN\">a</instance>\n")),
            6
        );
        assert_eq!(line_of("<corpus>\n<wf lemma=\"a\">a</wf>\n</corpus>\n"), 2);
    }

    #[test]
    fn empty_elements_and_entities() {
        let xml = "<corpus><text id=\"t\"><sentence id=\"s\"><wf lemma=\"&lt;\" pos=\".\">&lt;&#65;&gt;</wf><wf lemma=\"x\" pos=\"X\"/></sentence><sentence/></text></corpus>";
        let docs = parse_xml(xml, "m").unwrap();
        assert_eq!(docs[0].sentences.len(), 2);
        assert_eq!(docs[0].sentences[1].id, "t.s001");
        let toks = &docs[0].sentences[0].tokens;
        assert_eq!(toks[0].text, "<A>");
        assert_eq!(toks[0].lemma.as_deref(), Some("<"));
        assert_eq!(toks[1].text, "");
    }

    /// Reads the framework's SemEval-2007 set and checks its instances
    /// against the gold key file. Root from `WSD_EVAL` (default
    /// `corpora/wsd-eval`).
    #[test]
    #[ignore = "needs the real data (corpora/wsd-eval or $WSD_EVAL), which unit tests do without: cargo test --release --lib real_semeval2007 -- --ignored --nocapture"]
    fn real_semeval2007() {
        let root = std::env::var("WSD_EVAL")
            .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/wsd-eval").into());
        let dir = Path::new(&root).join("semeval2007");
        let t0 = std::time::Instant::now();
        let mut docs = read_xml(dir.join("semeval2007.data.xml")).unwrap();
        let gold = read_key_file(dir.join("semeval2007.gold.key.txt")).unwrap();
        let targets: Vec<String> = docs
            .iter()
            .flat_map(|d| d.targets())
            .map(|t| t.id)
            .collect();
        let sentences: usize = docs.iter().map(|d| d.sentences.len()).sum();
        let tokens: usize = docs
            .iter()
            .flat_map(|d| &d.sentences)
            .map(|s| s.tokens.len())
            .sum();
        let attached = attach_gold(&mut docs, &gold);
        println!(
            "semeval2007: {} documents, {sentences} sentences, {tokens} tokens, {} instances, {} gold ids, {attached} matched, in {:.2?}",
            docs.len(),
            targets.len(),
            gold.len(),
            t0.elapsed()
        );
        assert_eq!(targets.len(), 455);
        assert_eq!(gold.len(), 455);
        assert!(
            targets.iter().eq(gold.ids()),
            "instance ids differ from the gold ids"
        );
        assert_eq!(attached, 455);
        // Scoring the gold against itself gives 100.
        let report = crate::eval::score(
            &gold,
            &gold,
            Some(&crate::corpus::instance_pos(&docs)),
            &|_| true,
        );
        println!("{}", crate::eval::render_text(&report));
        assert_eq!(report.overall.f1, 100.0);
    }
}
