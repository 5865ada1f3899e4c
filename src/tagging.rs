//! Tag a stream of plain text: what `wsd tag` does for each input.
//!
//! The input is read in blocks ([`crate::text::blocks`]) of about 256 KiB
//! cut at paragraph, line or word boundaries, so memory stays bounded on
//! inputs of any size. Blocks are analysed (the [`Pipeline`]) and
//! disambiguated in parallel on a rayon pool, formatted in parallel, and
//! written in input order, so **the output is the same whatever the thread
//! count**. Sentence numbers and byte offsets are per input; methods that
//! look across sentences (one sense per discourse) see one block at a time.
//!
//! JSON-lines records (one document per line, `wsd tag --input-format
//! jsonl`) are tagged by [`Tagger::tag_records`] ([`records`]).

use std::io::{Read, Write};

pub mod records;

use rayon::prelude::*;

use crate::corpus::Document;
use crate::disambig::{
    candidates_of, decide_document, explain_document, Disambiguator, Prediction,
};
use crate::output::TagWriter;
use crate::pipeline::Pipeline;
use crate::text::blocks::{BlockReader, InputError};
use crate::wordnet::Inventory;

/// What a run of [`Tagger::tag`] got through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TagStats {
    /// Bytes of input read.
    pub bytes: usize,
    /// Tokens written.
    pub tokens: usize,
}

/// Why tagging an input stopped.
#[derive(Debug, thiserror::Error)]
pub enum TagError {
    /// The input could not be read on (binary, invalid UTF-8, a read
    /// error). What came before was tagged and written.
    #[error("{error}")]
    Input {
        /// What was wrong.
        error: InputError,
        /// What was tagged before.
        stats: TagStats,
    },
    /// The output could not be written.
    #[error("cannot write the output")]
    Write(#[source] std::io::Error),
}

/// A document analysed and decided.
pub struct Analysed {
    /// The document (one block of text).
    pub doc: Document,
    /// The decision of each of its targets, in reading order.
    pub preds: Vec<Option<Prediction>>,
}

/// Analyse and disambiguate one text (stages 1–4 for plain text); with
/// `explain`, ask the method for the evidence of each answer too.
pub fn analyse(
    pipeline: &Pipeline<'_>,
    method: &dyn Disambiguator,
    inv: &Inventory,
    (doc_id, text, offset): (&str, &str, usize),
    explain: bool,
) -> Analysed {
    let doc = pipeline.analyse(doc_id, text, offset, 0);
    let cands = candidates_of(inv, doc.targets());
    let mut preds = decide_document(method, inv, &doc, &cands);
    if explain {
        explain_document(method, inv, &doc, &cands, &mut preds);
    }
    Analysed { doc, preds }
}

/// The text pipeline, a method and a writer: everything `wsd tag` needs.
pub struct Tagger<'a> {
    /// The inventory.
    pub inv: &'a Inventory,
    /// Tokens, sentences, POS, lemmas, targets.
    pub pipeline: &'a Pipeline<'a>,
    /// The method (or chain).
    pub method: &'a dyn Disambiguator,
    /// The output format.
    pub writer: &'a TagWriter<'a>,
}

impl Tagger<'_> {
    /// Tag `input` as document `doc_id`, writing to `sink`; blocks are
    /// worked on in parallel on `pool`. `progress` gets the bytes of each
    /// batch of blocks done.
    pub fn tag(
        &self,
        input: impl Read,
        doc_id: &str,
        sink: &mut dyn Write,
        pool: &rayon::ThreadPool,
        progress: &dyn Fn(u64),
    ) -> Result<TagStats, TagError> {
        let mut blocks = BlockReader::new(input);
        let mut next_sentence = 0usize;
        let mut stats = TagStats::default();
        let batch = pool.current_num_threads() * 4;
        loop {
            let mut batch_blocks = Vec::with_capacity(batch);
            let mut stop = None;
            while batch_blocks.len() < batch {
                match blocks.next_block() {
                    None => break,
                    Some(Ok(b)) => batch_blocks.push(b),
                    Some(Err(e)) => {
                        stop = Some(e);
                        break;
                    }
                }
            }
            if batch_blocks.is_empty() && stop.is_none() {
                return Ok(stats);
            }
            let analysed: Vec<Analysed> = pool.install(|| {
                batch_blocks
                    .par_iter()
                    .map(|(off, text)| {
                        analyse(
                            self.pipeline,
                            self.method,
                            self.inv,
                            (doc_id, text, *off),
                            self.writer.explain,
                        )
                    })
                    .collect()
            });
            let mut firsts = Vec::with_capacity(analysed.len());
            for a in &analysed {
                firsts.push(next_sentence);
                next_sentence += a.doc.sentences.len();
            }
            let formatted: Vec<std::io::Result<Vec<u8>>> = pool.install(|| {
                analysed
                    .par_iter()
                    .zip(firsts)
                    .map(|(a, first)| self.writer.format(&a.doc, &a.preds, first))
                    .collect()
            });
            for (a, f) in analysed.iter().zip(formatted) {
                sink.write_all(&f.map_err(TagError::Write)?)
                    .map_err(TagError::Write)?;
                stats.tokens += a
                    .doc
                    .sentences
                    .iter()
                    .map(|s| s.tokens.len())
                    .sum::<usize>();
            }
            let n: usize = batch_blocks.iter().map(|(_, t)| t.len()).sum();
            stats.bytes += n;
            progress(n as u64);
            if let Some(error) = stop {
                return Err(TagError::Input { error, stats });
            }
        }
    }
}
