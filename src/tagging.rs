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
use std::path::{Component, Path, PathBuf};

pub mod records;

use crate::corpus::Document;
use crate::disambig::{
    candidates_of, decide_document, explain_document, Calibration, Disambiguator, Prediction,
};
use crate::output::TagWriter;
use crate::pipeline::Pipeline;
use crate::text::blocks::{BlockReader, InputError, LineCuts};
use crate::wordnet::Inventory;

/// The document id of an input file, which starts every instance id of
/// `wsd tag --format key` (`ID.sN.tM`) and fills the `doc` column.
///
/// It must not depend on how the path was typed, or the key file of
/// `wsd tag ./x.txt` would not score against one made with `wsd tag x.txt`.
/// The rule: the path made absolute against `cwd` and normalised lexically
/// (`.` components dropped, `a/..` removed, repeated separators collapsed;
/// symlinks are not followed), then written relative to `cwd` when it lies
/// under it, else absolute; whitespace becomes `_`, since key-file fields
/// are separated by whitespace. So `x.txt`, `./x.txt`, `sub/../x.txt` and
/// `$PWD/x.txt` are all `x.txt`, and `../y/x.txt` is `/abs/y/x.txt`.
/// Standard input is `stdin`; JSON-lines records use their own `id`.
pub fn document_id(path: &Path, cwd: Option<&Path>) -> String {
    let abs = match cwd {
        Some(c) if path.is_relative() => c.join(path),
        _ => path.to_path_buf(),
    };
    let norm = normalise_lexically(&abs);
    let shown = cwd
        .map(normalise_lexically)
        .and_then(|c| norm.strip_prefix(&c).ok().map(Path::to_path_buf))
        .filter(|rel| !rel.as_os_str().is_empty())
        .unwrap_or(norm);
    shown
        .to_string_lossy()
        .chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect()
}

/// `path` without `.` components and with each `dir/..` pair removed.
fn normalise_lexically(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// What a run of [`Tagger::tag`] got through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TagStats {
    /// Bytes of input read.
    pub bytes: usize,
    /// Tokens written.
    pub tokens: usize,
    /// Blocks that had to end inside a line longer than a block: each
    /// splits a sentence in two (see [`LineCuts`]).
    pub line_cuts: LineCuts,
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
    /// The decision of each of its targets, in reading order: `preds[i]`
    /// is the answer for `doc.targets()[i]` ([`Document::targets`]; `None`
    /// where the method abstained or WordNet has no sense). The words of a
    /// joined unit are targets of their own right after the unit's
    /// ([`crate::corpus::Role`]); [`Document::target_token`] gives the
    /// token a target stands for.
    pub preds: Vec<Option<Prediction>>,
}

/// Analyse and disambiguate one text (stages 1–4 for plain text); with
/// `explain`, ask the method for the evidence of each answer too.
/// `offset` shifts the tokens' byte spans (the text's place in a larger
/// input; 0 for a text of its own).
///
/// In memory, as `wsd tag` does per block (`no_run`: it needs the data):
///
/// ```no_run
/// use wsd::disambig::MethodSpec;
/// use wsd::pipeline::Pipeline;
/// use wsd::resources::{ResourcePaths, Resources};
/// use wsd::text::MweMatcher;
///
/// let res = Resources::new(ResourcePaths::default());
/// let inv = res.inventory()?;
/// let mwe = MweMatcher::new(inv);
/// let pipeline = Pipeline::new(inv, res.pos_tagger()?, Some(&mwe));
/// let method = "lesk-ext,mfs".parse::<MethodSpec>()?.build(&res)?;
/// let text = "He sat on the bank of the river.";
/// let a = wsd::tagging::analyse(&pipeline, method.as_ref(), inv, ("doc", text, 0), false);
/// for (target, pred) in a.doc.targets().iter().zip(&a.preds) {
///     let token = a.doc.target_token(target);
///     if let Some(p) = pred {
///         println!("{} {} {} {} {:.3}", token.text, target.lemma, target.pos, p.key, p.score);
///     }
/// }
/// # Ok::<(), wsd::Error>(())
/// ```
pub fn analyse(
    pipeline: &Pipeline<'_>,
    method: &dyn Disambiguator,
    inv: &Inventory,
    (doc_id, text, offset): (&str, &str, usize),
    explain: bool,
) -> Analysed {
    let t = crate::timing::phase("front end (one block)");
    let mut doc = pipeline.analyse(doc_id, text, offset, 0);
    let cands = candidates_of(inv, doc.targets());
    drop(t);
    let t = crate::timing::phase("disambiguate (one block)");
    let mut preds = decide_document(method, inv, &doc, &cands);
    drop(t);
    if explain {
        explain_document(method, inv, &doc, &cands, &mut preds);
    }
    drop(cands);
    doc.drop_vectors();
    let preds = crate::pipeline::resolve_alternatives(&mut doc, preds, Calibration::builtin());
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
    /// Tag each line (each record) as soon as it is read and flush the
    /// output after it, instead of gathering blocks for the worker threads:
    /// for a terminal, or a program that writes a line and waits for its
    /// answer. A sentence then never runs across a line break.
    pub line_buffered: bool,
}

/// What the workers of [`Tagger::tag`] send back about block `index`.
enum Done {
    /// Analysed and decided; `bytes` of input.
    Analysed {
        index: usize,
        analysed: Analysed,
        bytes: usize,
    },
    /// Formatted: its output, and the input bytes and tokens it covers.
    Formatted {
        index: usize,
        output: std::io::Result<Vec<u8>>,
        stats: TagStats,
    },
    /// A task panicked (a bug): the caller re-raises the panic rather than
    /// wait for a block that never comes.
    Panicked(Box<dyn std::any::Any + Send>),
}

/// Run a task of [`Tagger::tag`] and send what it made, or its panic.
fn send_done(send: &std::sync::mpsc::Sender<Done>, task: impl FnOnce() -> Done) {
    let done =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(task)).unwrap_or_else(Done::Panicked);
    // the receiver is gone only after a write error or a panic
    let _ = send.send(done);
}

impl Tagger<'_> {
    /// Tag `input` as document `doc_id`, writing to `sink`; blocks are
    /// worked on in parallel on `pool`. `progress` gets the bytes of each
    /// block written.
    ///
    /// An ordered pipeline: one block per thread and one more are in
    /// flight at once (read, not yet written), each analysed by a task of
    /// its own; once every block before it is analysed, its first sentence
    /// number is known and a second task formats it; the calling thread
    /// writes the formatted blocks in input order. So memory holds about
    /// one block per thread whatever the input's size, and a block is
    /// formatted and dropped as soon as it can be. (Until stop
    /// 52, batches of four blocks per thread were analysed, then formatted,
    /// then written: `wsd tag --method mfs` on 20 MB with two threads took
    /// 8.4–9.1 s at 756–765 MB peak, now 7.0 s at 459 MB.)
    /// Call it from outside `pool` (the calling thread waits for results).
    pub fn tag(
        &self,
        input: impl Read,
        doc_id: &str,
        sink: &mut dyn Write,
        pool: &rayon::ThreadPool,
        progress: &dyn Fn(u64),
    ) -> Result<TagStats, TagError> {
        let (mut blocks, window) = if self.line_buffered {
            (BlockReader::line_buffered(input), 1)
        } else {
            (BlockReader::new(input), pool.current_num_threads() + 1)
        };
        let mut stats = TagStats::default();
        let mut stop = None;
        let mut write_error = None;
        let mut panicked = None;
        pool.in_place_scope(|scope| {
            let (send, results) = std::sync::mpsc::channel::<Done>();
            // blocks read, blocks given a first sentence number, blocks written
            let (mut read, mut numbered, mut written) = (0usize, 0usize, 0usize);
            let mut next_sentence = 0usize;
            let mut analysed = std::collections::BTreeMap::new();
            let mut formatted = std::collections::BTreeMap::new();
            loop {
                while stop.is_none() && write_error.is_none() && read - written < window {
                    let Some(block) = blocks.next_block() else {
                        break;
                    };
                    let (offset, text) = match block {
                        Ok(b) => b,
                        Err(e) => {
                            stop = Some(e);
                            break;
                        }
                    };
                    let send = send.clone();
                    let i = read;
                    scope.spawn(move |_| {
                        send_done(&send, || {
                            let mut a = analyse(
                                self.pipeline,
                                self.method,
                                self.inv,
                                (doc_id, &text, offset),
                                self.writer.explain,
                            );
                            if self.writer.top == 0 {
                                // every candidate's score, read only by --top
                                for p in a.preds.iter_mut().flatten() {
                                    p.scores = Vec::new();
                                }
                            }
                            Done::Analysed {
                                index: i,
                                analysed: a,
                                bytes: text.len(),
                            }
                        })
                    });
                    read += 1;
                }
                if written == read {
                    return;
                }
                match results.recv().expect("a worker holds a sender") {
                    Done::Analysed {
                        index,
                        analysed: a,
                        bytes,
                    } => {
                        analysed.insert(index, (a, bytes));
                        while let Some((a, bytes)) = analysed.remove(&numbered) {
                            let first = next_sentence;
                            next_sentence += a.doc.sentences.len();
                            let send = send.clone();
                            let i = numbered;
                            scope.spawn(move |_| {
                                send_done(&send, || {
                                    let t = crate::timing::phase("format (one block)");
                                    let output = self.writer.format(&a.doc, &a.preds, first);
                                    drop(t);
                                    let tokens =
                                        a.doc.sentences.iter().map(|s| s.tokens.len()).sum();
                                    Done::Formatted {
                                        index: i,
                                        output,
                                        stats: TagStats {
                                            bytes,
                                            tokens,
                                            ..TagStats::default()
                                        },
                                    }
                                })
                            });
                            numbered += 1;
                        }
                    }
                    Done::Panicked(p) => {
                        // the scope waits for the tasks in flight first
                        panicked = Some(p);
                        return;
                    }
                    Done::Formatted {
                        index,
                        output,
                        stats: block,
                    } => {
                        formatted.insert(index, (output, block));
                        while let Some((output, block)) = formatted.remove(&written) {
                            written += 1;
                            if write_error.is_some() {
                                continue;
                            }
                            let result = output.and_then(|b| {
                                sink.write_all(&b)?;
                                if self.line_buffered {
                                    sink.flush()?;
                                }
                                Ok(())
                            });
                            match result {
                                Ok(()) => {
                                    stats.tokens += block.tokens;
                                    stats.bytes += block.bytes;
                                    progress(block.bytes as u64);
                                }
                                Err(e) => write_error = Some(e),
                            }
                        }
                    }
                }
            }
        });
        if let Some(p) = panicked {
            std::panic::resume_unwind(p);
        }
        if let Some(e) = write_error {
            return Err(TagError::Write(e));
        }
        stats.line_cuts = blocks.line_cuts();
        match stop {
            Some(error) => Err(TagError::Input { error, stats }),
            None => Ok(stats),
        }
    }
}

#[cfg(test)]
mod id_tests {
    use super::*;

    #[test]
    fn document_ids_do_not_depend_on_the_spelling_of_the_path() {
        let cwd = Path::new("/home/u/work");
        for typed in [
            "x.txt",
            "./x.txt",
            ".//x.txt",
            "sub/../x.txt",
            "/home/u/work/x.txt",
            "/home/u/work/./x.txt",
        ] {
            assert_eq!(document_id(Path::new(typed), Some(cwd)), "x.txt", "{typed}");
        }
        assert_eq!(document_id(Path::new("d/x.txt"), Some(cwd)), "d/x.txt");
        assert_eq!(
            document_id(Path::new("../y/x.txt"), Some(cwd)),
            "/home/u/y/x.txt"
        );
        assert_eq!(
            document_id(Path::new("/tmp/x.txt"), Some(cwd)),
            "/tmp/x.txt"
        );
        assert_eq!(
            document_id(Path::new("my notes.txt"), Some(cwd)),
            "my_notes.txt"
        );
        assert_eq!(document_id(Path::new("./x.txt"), None), "x.txt");
    }
}
