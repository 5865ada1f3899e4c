//! Writers for tagged documents: TSV (one row per token), JSON lines (one
//! object per sentence), key files (`id key`, for `wsd score`) and text for
//! people to read (each sentence, then its targets with their senses'
//! definitions), with sense ids spelt as sense keys, offsets or NLTK names.
//!
//! Every target row carries a sense or says why not: its `method` column
//! names who answered and `decided` how (`method`, `tie`, `fallback`,
//! `back-off`, `single-sense`), or `abstained` when no method answered.
//!
//! A multiword the pipeline joined is followed by a row for its head word
//! ([`crate::corpus::Token::head`]): same sentence and token number as the
//! unit, the head's own text, span, lemma, POS and answer, and the unit's
//! lemma in the `within` column (`-` on every other row; JSON lines: a
//! `within` field on the head's object only; key files: the id
//! `DOC.sN.tM.h`).
//!
//! A writer formats one analysed document (a block of plain text, or a
//! whole corpus document) into bytes, so blocks can be formatted in
//! parallel and written in input order.

use std::borrow::Cow;
use std::io::Write;

use crate::corpus::Document;
use crate::disambig::{Calibration, Prediction};
use crate::wordnet::{canonical_name, offset_string, Inventory};

/// Output format of tagged text.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagFormat {
    /// One row per token: doc, sentence, token, start, end, text, lemma, pos,
    /// sense, method, decided, score, within (quoted as the csv crate does).
    Tsv,
    /// One JSON object per sentence.
    Jsonl,
    /// `instance-id sense-key` per target, for `wsd score`.
    Key,
    /// For reading: each sentence, then a line per target with its sense
    /// and the sense's definition (the words of a joined multiword
    /// indented under it).
    Text,
}

/// How sense ids are written.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SenseFormat {
    /// Sense key (`bank%1:14:00::`).
    Key,
    /// Synset offset (`08420278-n`).
    Offset,
    /// NLTK synset name (`depository_financial_institution.n.01`).
    Name,
}

/// The `decided` value of a target no method answered.
pub const ABSTAINED: &str = "abstained";

/// What a token got.
enum Answer<'p> {
    /// Not a target.
    NotATarget,
    /// A target, answered or not.
    Target(Option<&'p Prediction>),
}

/// Formats analysed documents.
pub struct TagWriter<'a> {
    inv: &'a Inventory,
    /// The method (or chain) that ran, named in rows where it abstained.
    pub method: String,
    /// The format.
    pub format: TagFormat,
    /// How sense ids are spelt.
    pub sense_format: SenseFormat,
    /// Add the chosen sense's definition (tsv and jsonl).
    pub gloss: bool,
    /// Add the `top` best senses with a probability each (0: no column;
    /// tsv and jsonl).
    pub top: usize,
    /// Add the method's evidence (tsv and jsonl).
    pub explain: bool,
    /// The calibration of the probabilities of `top`.
    pub calibration: &'a Calibration,
}

impl<'a> TagWriter<'a> {
    /// A writer of `format` with sense keys and no glosses, for the
    /// output of `method`.
    pub fn new(inv: &'a Inventory, format: TagFormat, method: &str) -> TagWriter<'a> {
        TagWriter {
            inv,
            method: method.to_string(),
            format,
            sense_format: SenseFormat::Key,
            gloss: false,
            top: 0,
            explain: false,
            calibration: Calibration::builtin(),
        }
    }

    /// The `top` column: `key:prob;key:prob`, best first, probabilities
    /// to three decimals.
    fn top_text(&self, p: &Prediction) -> String {
        self.calibration
            .probabilities(p)
            .senses
            .iter()
            .take(self.top)
            .map(|(k, q)| format!("{}:{q:.3}", self.sense_id(k)))
            .collect::<Vec<_>>()
            .join(";")
    }

    /// The optional columns (gloss, top, evidence) of a target row, or of
    /// another row (`None`: empty fields).
    fn extra_fields(&self, p: Option<&Prediction>, row: &mut Vec<Cow<'_, str>>) {
        if self.gloss {
            row.push(Cow::Owned(
                p.map(|p| self.definition(&p.key)).unwrap_or_default(),
            ));
        }
        if self.top > 0 {
            row.push(Cow::Owned(p.map(|p| self.top_text(p)).unwrap_or_default()));
        }
        if self.explain {
            row.push(Cow::Owned(
                p.and_then(|p| p.evidence.as_ref())
                    .map(|e| e.text())
                    .unwrap_or_default(),
            ));
        }
    }

    /// The header line (TSV only), without the newline.
    pub fn header(&self) -> Option<String> {
        if self.format != TagFormat::Tsv {
            return None;
        }
        let mut h =
            "doc\tsentence\ttoken\tstart\tend\ttext\tlemma\tpos\tsense\tmethod\tdecided\tscore\twithin"
                .to_string();
        if self.gloss {
            h.push_str("\tgloss");
        }
        if self.top > 0 {
            h.push_str("\ttop");
        }
        if self.explain {
            h.push_str("\tevidence");
        }
        Some(h)
    }

    /// A sense key spelt as [`TagWriter::sense_format`] says.
    pub fn sense_id(&self, key: &str) -> String {
        match self.sense_format {
            SenseFormat::Key => key.to_string(),
            SenseFormat::Offset | SenseFormat::Name => match self.inv.sense_by_key(key) {
                Some((syn, _, _)) if self.sense_format == SenseFormat::Offset => {
                    offset_string(syn.id, Some(syn.ss_type))
                }
                Some((syn, _, _)) => {
                    canonical_name(self.inv, syn).unwrap_or_else(|_| key.to_string())
                }
                None => key.to_string(),
            },
        }
    }

    fn definition(&self, key: &str) -> String {
        self.inv
            .sense_by_key(key)
            .map(|(s, _, _)| s.definition.clone())
            .unwrap_or_default()
    }

    /// Format `doc` whose targets (in reading order) got `preds`; sentences
    /// are numbered from `first_sentence`.
    pub fn format(
        &self,
        doc: &Document,
        preds: &[Option<Prediction>],
        first_sentence: usize,
    ) -> std::io::Result<Vec<u8>> {
        let mut out = Vec::new();
        // What was decided for each target token, in reading order.
        let mut next = preds.iter();
        let mut pred_of = |is_target: bool| {
            if is_target {
                Answer::Target(next.next().and_then(Option::as_ref))
            } else {
                Answer::NotATarget
            }
        };
        match self.format {
            TagFormat::Tsv => {
                // The csv crate's default quoting: a field with a quote, a
                // tab or a newline is quoted, so pandas and csv read it.
                let mut w = csv::WriterBuilder::new()
                    .delimiter(b'\t')
                    .has_headers(false)
                    .from_writer(&mut out);
                // One row's fields, borrowed where the token has them.
                let mut row: Vec<Cow<'_, str>> = Vec::with_capacity(16);
                for (si, s) in doc.sentences.iter().enumerate() {
                    for (ti, t) in s.tokens.iter().enumerate() {
                        let words = t
                            .unit_words()
                            .into_iter()
                            .map(|(_, w)| (w, t.lemma.as_deref()));
                        for (t, within) in std::iter::once((t, None)).chain(words) {
                            let (start, end) = t.span.unwrap_or((0, 0));
                            row.clear();
                            row.extend([
                                Cow::Borrowed(doc.id.as_str()),
                                Cow::Owned((first_sentence + si).to_string()),
                                Cow::Owned(ti.to_string()),
                                Cow::Owned(start.to_string()),
                                Cow::Owned(end.to_string()),
                                one_line(&t.text),
                                Cow::Borrowed(t.lemma.as_deref().unwrap_or_default()),
                                t.pos
                                    .map_or(Cow::Borrowed("-"), |p| Cow::Owned(p.to_string())),
                            ]);
                            let p = match pred_of(t.instance.is_some()) {
                                Answer::Target(Some(p)) => {
                                    row.push(Cow::Owned(self.sense_id(&p.key)));
                                    row.push(Cow::Borrowed(p.method.as_str()));
                                    row.push(Cow::Borrowed(p.decision.label()));
                                    row.push(Cow::Owned(format!("{:.4}", p.score)));
                                    Some(p)
                                }
                                Answer::Target(None) => {
                                    row.extend([
                                        Cow::Borrowed("-"),
                                        Cow::Borrowed(self.method.as_str()),
                                        Cow::Borrowed(ABSTAINED),
                                        Cow::Borrowed("-"),
                                    ]);
                                    None
                                }
                                Answer::NotATarget => {
                                    row.extend(["-", "-", "-", "-"].map(Cow::Borrowed));
                                    None
                                }
                            };
                            row.push(Cow::Borrowed(within.unwrap_or("-")));
                            self.extra_fields(p, &mut row);
                            w.write_record(row.iter().map(|f| f.as_bytes()))?;
                        }
                    }
                }
                w.flush()?;
            }
            TagFormat::Jsonl => {
                for (si, s) in doc.sentences.iter().enumerate() {
                    let mut toks = Vec::with_capacity(s.tokens.len());
                    let rows = s.tokens.iter().flat_map(|t| {
                        let words = t
                            .unit_words()
                            .into_iter()
                            .map(|(_, w)| (w, t.lemma.as_deref()));
                        std::iter::once((t, None)).chain(words)
                    });
                    for (t, within) in rows {
                        let (start, end) = t.span.unwrap_or((0, 0));
                        let mut o = serde_json::json!({
                            "text": t.text, "start": start, "end": end,
                            "lemma": t.lemma, "pos": t.pos.map(|p| p.to_string()), "tag": t.tag,
                        });
                        if let Some(unit) = within {
                            o["within"] = serde_json::json!(unit);
                        }
                        match pred_of(t.instance.is_some()) {
                            Answer::Target(Some(p)) => {
                                o["sense"] = serde_json::json!(self.sense_id(&p.key));
                                o["method"] = serde_json::json!(p.method);
                                o["decided"] = serde_json::json!(p.decision.label());
                                o["score"] = serde_json::json!(p.score);
                                if self.gloss {
                                    o["gloss"] = serde_json::json!(self.definition(&p.key));
                                }
                                if self.top > 0 {
                                    let pr = self.calibration.probabilities(p);
                                    let top: Vec<serde_json::Value> = pr
                                        .senses
                                        .iter()
                                        .take(self.top)
                                        .map(|(k, q)| {
                                            serde_json::json!({"sense": self.sense_id(k), "prob": q})
                                        })
                                        .collect();
                                    o["top"] = serde_json::json!(top);
                                    o["calibrated"] = serde_json::json!(pr.calibrated);
                                }
                                if self.explain {
                                    o["evidence"] = serde_json::json!(p.evidence);
                                }
                            }
                            Answer::Target(None) => {
                                o["sense"] = serde_json::Value::Null;
                                o["method"] = serde_json::json!(self.method);
                                o["decided"] = serde_json::json!(ABSTAINED);
                            }
                            Answer::NotATarget => {}
                        }
                        toks.push(o);
                    }
                    let line = serde_json::json!({
                        "doc": doc.id, "sentence": first_sentence + si, "tokens": toks
                    });
                    serde_json::to_writer(&mut out, &line)?;
                    out.push(b'\n');
                }
            }
            TagFormat::Text => self.format_text(&mut out, doc, &mut pred_of, first_sentence)?,
            TagFormat::Key => {
                for (si, s) in doc.sentences.iter().enumerate() {
                    for (ti, t) in s.tokens.iter().enumerate() {
                        // A unit's word: its id's own last part (`.h`, `.w0`).
                        let words = t.unit_words().into_iter().map(|(_, w)| {
                            let id = w.instance.as_deref().unwrap_or_default();
                            (w, id.rfind('.').map_or("", |k| &id[k..]))
                        });
                        for (t, suffix) in std::iter::once((t, "")).chain(words) {
                            if let Answer::Target(Some(p)) = pred_of(t.instance.is_some()) {
                                writeln!(
                                    out,
                                    "{}.s{}.t{}{suffix} {}",
                                    doc.id,
                                    first_sentence + si,
                                    ti,
                                    self.sense_id(&p.key)
                                )?;
                            }
                        }
                    }
                }
            }
        }
        Ok(out)
    }
}

impl TagWriter<'_> {
    /// [`TagFormat::Text`]: the document's name (when it has one, before
    /// its first sentence), then per sentence its text rebuilt from the
    /// token spans and one line per target: words, sense, definition,
    /// aligned; `--top` adds the runner-up senses with their
    /// probabilities, `--explain` the evidence, each on a line below.
    fn format_text<'p>(
        &self,
        out: &mut Vec<u8>,
        doc: &Document,
        pred_of: &mut impl FnMut(bool) -> Answer<'p>,
        first_sentence: usize,
    ) -> std::io::Result<()> {
        if first_sentence == 0 && !doc.id.is_empty() && doc.id != "stdin" {
            writeln!(out, "== {} ==", doc.id)?;
        }
        for s in &doc.sentences {
            writeln!(out, "{}", sentence_text(s))?;
            let mut rows: Vec<TextRow> = Vec::new();
            for t in &s.tokens {
                let words = t.unit_words().into_iter().map(|(_, w)| (w, 4));
                for (t, indent) in std::iter::once((t, 2)).chain(words) {
                    let p = match pred_of(t.instance.is_some()) {
                        Answer::NotATarget => continue,
                        Answer::Target(p) => p,
                    };
                    let text = one_line(&t.text).into_owned();
                    let Some(p) = p else {
                        rows.push(TextRow {
                            indent,
                            words: text,
                            sense: "-".into(),
                            definition: format!("({ABSTAINED})"),
                            below: vec![],
                        });
                        continue;
                    };
                    let mut below = Vec::new();
                    if self.top > 0 {
                        let others: Vec<String> = self
                            .calibration
                            .probabilities(p)
                            .senses
                            .iter()
                            .take(self.top)
                            .map(|(k, q)| format!("{} {q:.3}", self.sense_id(k)))
                            .collect();
                        below.push(format!("top: {}", others.join(", ")));
                    }
                    if self.explain {
                        if let Some(e) = &p.evidence {
                            below.push(format!("evidence: {}", e.text()));
                        }
                    }
                    rows.push(TextRow {
                        indent,
                        words: text,
                        sense: self.sense_id(&p.key),
                        definition: self.definition(&p.key),
                        below,
                    });
                }
            }
            let width = |f: &dyn Fn(&TextRow) -> usize| rows.iter().map(f).max().unwrap_or(0);
            let words_w = width(&|r| r.indent + r.words.chars().count());
            let sense_w = width(&|r| r.sense.chars().count());
            for TextRow {
                indent,
                words,
                sense,
                definition,
                below,
            } in &rows
            {
                let pad = words_w - indent;
                writeln!(
                    out,
                    "{:indent$}{words:<pad$}  {sense:<sense_w$}  {definition}",
                    ""
                )?;
                for line in below {
                    writeln!(out, "{:indent$}    {line}", "")?;
                }
            }
            writeln!(out)?;
        }
        Ok(())
    }
}

/// A target's line of [`TagFormat::Text`] and the lines below it.
struct TextRow {
    /// Spaces before the words (a unit's words are further in).
    indent: usize,
    /// The target's text.
    words: String,
    /// Its sense id, `-` when no method answered.
    sense: String,
    /// The sense's definition, or `(abstained)`.
    definition: String,
    /// `top: …` and `evidence: …`.
    below: Vec<String>,
}

/// A sentence's text rebuilt from its tokens: one space where the input
/// had any whitespace between two tokens (their spans are apart), none
/// where they touched (`rates.`); tokens without spans are spaced.
fn sentence_text(s: &crate::corpus::Sentence) -> String {
    let mut out = String::new();
    let mut last_end: Option<usize> = None;
    for t in &s.tokens {
        let touching = matches!((last_end, t.span), (Some(end), Some((start, _))) if start == end);
        if last_end.is_some() && !touching {
            out.push(' ');
        }
        out.push_str(&one_line(&t.text));
        last_end = Some(t.span.map_or(usize::MAX, |(_, e)| e));
    }
    out
}

/// A TSV `text` field on one line: a multiword that a line break splits in
/// the input (`of` / `course` of hard-wrapped text) is written with its
/// whitespace runs as one space, so every row stays one line for `cut`,
/// `awk` and `grep`; `start`/`end` still give the exact bytes, and jsonl
/// keeps the text as written.
fn one_line(text: &str) -> Cow<'_, str> {
    if !text.contains(['\n', '\r', '\t']) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.split_whitespace().collect::<Vec<_>>().join(" "))
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn sentences_are_rebuilt_with_the_inputs_spacing() {
        use crate::corpus::{Sentence, Token};
        let tok = |text: &str, start: usize| Token {
            text: text.into(),
            span: Some((start, start + text.len())),
            ..Token::default()
        };
        let s = Sentence {
            id: "s0".into(),
            tokens: vec![tok("The", 0), tok("bank", 6), tok("rose", 11), tok(".", 15)],
        };
        assert_eq!(super::sentence_text(&s), "The bank rose.");
        let unspanned = Sentence {
            id: "s1".into(),
            tokens: ["a", "b"]
                .map(|w| Token {
                    text: w.into(),
                    ..Token::default()
                })
                .to_vec(),
        };
        assert_eq!(super::sentence_text(&unspanned), "a b");
    }

    #[test]
    fn text_fields_stay_on_one_line() {
        assert_eq!(one_line("of\ncourse"), "of course");
        assert_eq!(one_line("Los \r\n  Angeles"), "Los Angeles");
        assert_eq!(one_line("New York"), "New York");
        assert!(matches!(one_line("plain"), std::borrow::Cow::Borrowed(_)));
    }
}
