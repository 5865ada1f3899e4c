//! One SemCor tagfile: the line lexer (elements and their unquoted or
//! quoted attributes) and the assembly of sentences and tokens with their
//! gold keys (see the [parent module](super) for the format and the rules).

use std::collections::HashSet;
use std::path::Path;

use super::PartStats;
use crate::corpus::{Document, Sentence, Token};
use crate::wordnet::Pos;
use crate::{Error, Result};

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
    if lexsn.is_none() && wnsn.is_some_and(|w| w.split(';').any(|n| !matches!(n.trim(), "" | "0")))
    {
        stats.wnsn_without_lexsn += 1;
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
        head: None,
        parts: Vec::new(),
        alt: None,
        pos_prob: None,
        vector: None,
        sentence_vector: None,
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

    fn parse(text: &str) -> Result<(Document, PartStats)> {
        parse_semcor(text, "mem/br-x01", "br-x01", "br-x01")
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
}
