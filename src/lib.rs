//! # wsd — word-sense disambiguation on the command line
//!
//! The crate is organised as the data flows (see `README.md`):
//!
//! * [`wordnet`] parses the Princeton WordNet 3.0 dict files into an
//!   [`wordnet::Inventory`] (synsets, sense keys, counts, relations, morphy,
//!   similarity measures).
//! * [`corpus`] holds the one document model every input is read into
//!   (SemCor tagfiles, the Raganato evaluation XML, plain text) and the
//!   key-file reader/writer.
//! * [`disambig`] holds the [`disambig::Disambiguator`] trait and the
//!   methods behind it (MFS, Lesk, Naive Bayes, similarity, kNN).
//! * [`eval`] is the scorer (precision, recall, F1 exactly as the
//!   evaluation framework's Scorer.java computes them).
//! * [`text`] and [`pos`] turn raw text into tokens, sentences, POS tags.
//! * [`encoder`] is a BERT-architecture attention encoder that loads
//!   safetensors checkpoints.
//! * [`pipeline`] turns raw text into a document with targets (tokens,
//!   sentences, POS tags, multiwords, lemmas).
//! * [`disambig::registry`] builds methods and chains by name
//!   ([`disambig::MethodSpec`]); [`resources::Resources`] loads what they
//!   need once, lazily.
//! * [`eval::evaluate`] runs a method on a data set and scores it;
//!   [`tagging`] tags a stream of plain text; [`output`] writes tagged
//!   documents as TSV, JSON lines or key files; [`train`] trains models.
//! * [`report`] cuts an evaluation's answers the ways papers do (POS,
//!   MFS/LFS, candidates, who decided, lemmas, two methods) into JSON, a
//!   self-contained HTML page and an error list.
//! * [`atomic`] writes files that appear complete or not at all.
//! * [`model_io`] writes and reads versioned, checksummed model files.
//!
//! The command-line binary is a thin shell over these: each subcommand
//! parses its arguments and calls the library, so tests (and any other
//! front end) call exactly what the CLI calls.
//!
//! ## From a program of one's own
//!
//! * WordNet: [`wordnet::Inventory::open`], then
//!   [`wordnet::Inventory::senses`], [`wordnet::Inventory::morphy`] and
//!   [`wordnet::resolve_id`] (sense keys, offsets, `bank.n.01`);
//! * a method or chain by name: [`resources::Resources`] and
//!   [`disambig::MethodSpec::build`]; one of one's own: implement
//!   [`disambig::Disambiguator`] (its docs have an example) and combine
//!   with [`disambig::Chain`];
//! * plain text in memory: [`pipeline::Pipeline::new`] and
//!   [`tagging::analyse`] (example there);
//! * scores: [`eval::Dataset`] ([`eval::framework::discover`] finds the
//!   framework's sets), [`eval::evaluate`], and
//!   [`eval::framework::table_rows`] for the standard table (a row per
//!   set, ALL, ALL-no-dev);
//! * training without files: [`disambig::naive_bayes::NaiveBayes::train`];
//! * errors are one enum, [`Error`], to match on.
//!
//! `examples/library.rs` runs all of these on the data; README.md's
//! library section has the same as compiled examples.
#![deny(missing_docs)]

pub mod atomic;
pub mod corpus;
pub mod disambig;
pub mod encoder;
pub mod error;
pub mod eval;
pub mod model_io;
pub mod output;
pub mod pipeline;
pub mod pos;
pub mod report;
pub mod resources;
pub mod tagging;
pub mod text;
pub mod timing;
pub mod train;
pub mod wordnet;

pub use error::{Error, Result};

/// The README's Rust examples, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
