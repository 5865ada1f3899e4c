//! Tag a stream of JSON-lines records: what `wsd tag --input-format jsonl`
//! does, and what a Spark or Hadoop streaming job pipes partitions through.
//!
//! Each non-blank input line is one document, a JSON object with an `id`
//! (a string or a number) and a `text` (a string); other fields are passed
//! through. Each record gives one output record with the same id, in input
//! order:
//!
//! * `--format jsonl`: one object per record — `id`, the passed-through
//!   fields (all but `text`, `sentences` and `error`) and `sentences`, the
//!   sentences of the text as `{"sentence": N, "tokens": [...]}` (tokens as
//!   in the plain-text JSON lines; offsets are bytes in the record's text).
//!   Keys are written in sorted order.
//! * `tsv` and `key`: the record id in the doc / instance-id column.
//!
//! A bad record — invalid JSON, not an object, no id (or an id that is
//! neither a string nor a number), no text or a text that is not a string,
//! invalid UTF-8, a line over [`MAX_RECORD`] bytes — gives an error record
//! `{"error": "...", "id": ... or null, "line": N}` (in the jsonl output;
//! with tsv and key it is only reported to the caller) and the stream goes
//! on. `line` is the 1-based line number in the stream this run read.
//!
//! **The output of a record depends only on that record** (and the method
//! and options): not on the other records in the stream, on the thread
//! count, or on how a corpus is split into streams. Sentence numbers and
//! offsets start at 0 in every record. Splitting a JSONL file in two,
//! tagging both halves and concatenating the outputs gives the output of
//! tagging the whole file (error records aside, whose `line` counts lines of
//! the stream that was read). Records are parsed, analysed and formatted in
//! parallel batches on the rayon pool and written in input order.

use std::io::{BufRead, BufReader, Read, Write};

use rayon::prelude::*;
use serde_json::{Map, Value};

use super::{analyse, TagError, Tagger};
use crate::output::TagFormat;
use crate::text::blocks::InputError;

/// The largest record (one input line, in bytes) that is tagged; longer
/// lines give an error record (and are skipped without being held in memory).
pub const MAX_RECORD: usize = 10 * 1024 * 1024;

/// How `wsd tag` reads its input.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InputFormat {
    /// Plain text, one document per input.
    #[default]
    Text,
    /// JSON lines, one document per line: `{"id": ..., "text": ...}`.
    Jsonl,
}

/// What a run of [`Tagger::tag_records`] got through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecordStats {
    /// Records read (blank lines are not records).
    pub records: usize,
    /// Of which bad (an error record each).
    pub failed: usize,
    /// Tokens written.
    pub tokens: usize,
    /// Bytes of input read.
    pub bytes: usize,
}

/// A record that could not be tagged.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordError {
    /// 1-based line number in the stream.
    pub line: usize,
    /// Its id, when it could be read.
    pub id: Option<Value>,
    /// What was wrong.
    pub error: String,
}

impl RecordError {
    /// The error record: `{"error": ..., "id": ..., "line": ...}`.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "id": self.id.clone().unwrap_or(Value::Null),
            "error": self.error,
            "line": self.line,
        })
    }
}

/// One input line.
enum Line {
    /// The bytes of a line (without the line ending).
    Record(Vec<u8>),
    /// A line of this many bytes, over the limit (not kept).
    TooLong(usize),
}

/// Read the next line of at most `limit` bytes; longer lines are consumed
/// without being kept.
fn next_line(r: &mut impl BufRead, limit: usize) -> std::io::Result<Option<(Line, usize)>> {
    let mut buf = Vec::new();
    let mut len = 0usize;
    let mut too_long = false;
    let mut any = false;
    loop {
        let avail = match r.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            break;
        }
        any = true;
        let (chunk, used, done) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) => (&avail[..i], i + 1, true),
            None => (avail, avail.len(), false),
        };
        len += chunk.len();
        if !too_long {
            if len > limit {
                too_long = true;
                buf = Vec::new();
            } else {
                buf.extend_from_slice(chunk);
            }
        }
        r.consume(used);
        if done {
            let read = len + 1;
            return Ok(Some((finish(buf, len, too_long), read)));
        }
    }
    Ok(any.then(|| (finish(buf, len, too_long), len)))
}

fn finish(mut buf: Vec<u8>, len: usize, too_long: bool) -> Line {
    if too_long {
        return Line::TooLong(len);
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Line::Record(buf)
}

/// The id of a record spelt for the tsv and key columns.
pub fn id_string(id: &Value) -> String {
    match id {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The id of a parsed record, if it is usable.
fn record_id(obj: &Map<String, Value>) -> Result<Value, String> {
    match obj.get("id") {
        None | Some(Value::Null) => Err("no id".into()),
        Some(v @ (Value::String(_) | Value::Number(_))) => Ok(v.clone()),
        Some(_) => Err("id must be a string or a number".into()),
    }
}

/// A record tagged: its output bytes and tokens, or what was wrong.
type Done = Result<(Vec<u8>, usize), RecordError>;

impl Tagger<'_> {
    /// Tag the JSON-lines records of `input` (see the module docs), writing
    /// one output record per input record to `sink`, in input order; batches
    /// of records are worked on in parallel on `pool`. Each bad record is
    /// passed to `on_error` (and, with the jsonl format, written as an error
    /// record). `progress` gets the bytes of each batch done. Stops only if
    /// the input cannot be read or the output cannot be written.
    pub fn tag_records(
        &self,
        input: impl Read,
        sink: &mut dyn Write,
        pool: &rayon::ThreadPool,
        on_error: &mut dyn FnMut(&RecordError),
        progress: &dyn Fn(u64),
    ) -> Result<RecordStats, TagError> {
        let mut input = BufReader::with_capacity(256 * 1024, input);
        let mut stats = RecordStats::default();
        let mut line_no = 0usize;
        let max_records = if self.line_buffered {
            1
        } else {
            pool.current_num_threads() * 16
        };
        let max_bytes = 4 * 1024 * 1024;
        loop {
            let mut batch: Vec<(usize, Line)> = Vec::new();
            let (mut batch_bytes, mut read_bytes) = (0usize, 0usize);
            let mut stop = None;
            while batch.len() < max_records && batch_bytes < max_bytes {
                match next_line(&mut input, MAX_RECORD) {
                    Ok(None) => break,
                    Ok(Some((line, n))) => {
                        line_no += 1;
                        read_bytes += n;
                        match &line {
                            Line::Record(b) if b.iter().all(u8::is_ascii_whitespace) => continue,
                            Line::Record(b) => batch_bytes += b.len(),
                            Line::TooLong(_) => {}
                        }
                        batch.push((line_no, line));
                    }
                    Err(e) => {
                        stop = Some(InputError::Io(e));
                        break;
                    }
                }
            }
            if batch.is_empty() && read_bytes == 0 && stop.is_none() {
                return Ok(stats);
            }
            let done: Vec<Done> = pool.install(|| {
                batch
                    .par_iter()
                    .map(|(no, line)| self.record(*no, line))
                    .collect()
            });
            for d in done {
                stats.records += 1;
                match d {
                    Ok((bytes, tokens)) => {
                        sink.write_all(&bytes).map_err(TagError::Write)?;
                        stats.tokens += tokens;
                    }
                    Err(e) => {
                        stats.failed += 1;
                        on_error(&e);
                        if self.writer.format == TagFormat::Jsonl {
                            let mut b = serde_json::to_vec(&e.to_json())
                                .map_err(|e| TagError::Write(e.into()))?;
                            b.push(b'\n');
                            sink.write_all(&b).map_err(TagError::Write)?;
                        }
                    }
                }
            }
            if self.line_buffered {
                sink.flush().map_err(TagError::Write)?;
            }
            stats.bytes += read_bytes;
            progress(read_bytes as u64);
            if let Some(error) = stop {
                return Err(TagError::Input {
                    error,
                    stats: super::TagStats {
                        bytes: stats.bytes,
                        tokens: stats.tokens,
                        ..Default::default()
                    },
                });
            }
        }
    }

    /// Tag one record (line `no` of the stream).
    fn record(&self, no: usize, line: &Line) -> Done {
        let fail = |id: Option<Value>, error: String| RecordError {
            line: no,
            id,
            error,
        };
        let bytes = match line {
            Line::TooLong(n) => {
                return Err(fail(
                    None,
                    format!("record of {n} bytes, over the limit of {MAX_RECORD} bytes"),
                ))
            }
            Line::Record(b) => b,
        };
        let text = match std::str::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                // Name the record if its id can still be read.
                let lossy = String::from_utf8_lossy(bytes);
                let id = serde_json::from_str::<Map<String, Value>>(&lossy)
                    .ok()
                    .and_then(|o| record_id(&o).ok());
                return Err(fail(
                    id,
                    format!("invalid UTF-8 at byte {} of the record", e.valid_up_to()),
                ));
            }
        };
        let mut obj = match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(o)) => o,
            Ok(_) => return Err(fail(None, "not a JSON object".into())),
            Err(e) => return Err(fail(None, format!("invalid JSON: {e}"))),
        };
        let id = record_id(&obj).map_err(|e| fail(None, e))?;
        let body = match obj.remove("text") {
            Some(Value::String(s)) => s,
            None | Some(Value::Null) => return Err(fail(Some(id), "no text".into())),
            Some(_) => return Err(fail(Some(id), "text must be a string".into())),
        };
        let doc_id = id_string(&id);
        let a = analyse(
            self.pipeline,
            self.method,
            self.inv,
            (&doc_id, &body, 0),
            self.writer.explain,
        );
        let tokens = a.doc.sentences.iter().map(|s| s.tokens.len()).sum();
        let formatted = self
            .writer
            .format(&a.doc, &a.preds, 0)
            .map_err(|e| fail(Some(id.clone()), format!("cannot format: {e}")))?;
        if self.writer.format != TagFormat::Jsonl {
            return Ok((formatted, tokens));
        }
        // One object for the record: the writer's sentence lines, without
        // their doc field, under `sentences`.
        let mut sentences = Vec::with_capacity(a.doc.sentences.len());
        for l in formatted.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            let mut s: Map<String, Value> = serde_json::from_slice(l)
                .map_err(|e| fail(Some(id.clone()), format!("cannot format: {e}")))?;
            s.remove("doc");
            sentences.push(Value::Object(s));
        }
        obj.remove("error");
        obj.insert("id".into(), id.clone());
        obj.insert("sentences".into(), Value::Array(sentences));
        let mut out = serde_json::to_vec(&Value::Object(obj))
            .map_err(|e| fail(Some(id), format!("cannot format: {e}")))?;
        out.push(b'\n');
        Ok((out, tokens))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], limit: usize) -> Vec<Result<String, usize>> {
        let mut r = BufReader::with_capacity(4, input);
        let mut out = Vec::new();
        while let Some((l, _)) = next_line(&mut r, limit).unwrap() {
            out.push(match l {
                Line::Record(b) => Ok(String::from_utf8(b).unwrap()),
                Line::TooLong(n) => Err(n),
            });
        }
        out
    }

    #[test]
    fn lines_are_cut_and_long_ones_skipped() {
        assert_eq!(
            lines(b"ab\r\n\ncdefghijkl\nxyz", 5),
            vec![Ok("ab".into()), Ok("".into()), Err(10), Ok("xyz".into())]
        );
        assert_eq!(lines(b"", 5), vec![]);
        assert_eq!(lines(b"abcdef", 5), vec![Err(6)]);
        assert_eq!(lines(b"abcde\n", 5), vec![Ok("abcde".into())]);
    }

    #[test]
    fn ids_are_strings_or_numbers() {
        let o = |s: &str| serde_json::from_str::<Map<String, Value>>(s).unwrap();
        assert_eq!(record_id(&o(r#"{"id": "a"}"#)), Ok(Value::from("a")));
        assert_eq!(record_id(&o(r#"{"id": 7}"#)), Ok(Value::from(7)));
        assert!(record_id(&o(r#"{"id": null}"#)).is_err());
        assert!(record_id(&o(r#"{"id": [1]}"#)).is_err());
        assert!(record_id(&o(r#"{}"#)).is_err());
        assert_eq!(id_string(&Value::from(7)), "7");
        assert_eq!(id_string(&Value::from("x y")), "x y");
    }
}
