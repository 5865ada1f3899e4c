//! Typed errors of the library. Callers branch on these (a missing
//! dictionary is told apart from a malformed line); the binary wraps them
//! with `anyhow` context at its boundaries.

use std::path::PathBuf;

/// Everything the library can fail with.
///
/// Variants that wrap an OS error keep it as their `source`, and their own
/// message does not repeat it: `{:#}` (anyhow's chain) prints it once.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A line (or byte offset) of a data file did not parse.
    #[error("{}:{line}: {msg}", path.display())]
    Parse {
        /// The file being read.
        path: PathBuf,
        /// 1-based line number (or byte offset where the format has no lines).
        line: usize,
        /// What was wrong.
        msg: String,
    },
    /// A file could not be opened or read.
    #[error("cannot read {}", path.display())]
    Io {
        /// The file being read.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A file could not be written.
    #[error("cannot write {}", path.display())]
    Write {
        /// The file being written.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// `--method` names no registered method.
    #[error("unknown method {name:?}; known: {known}")]
    UnknownMethod {
        /// The name given.
        name: String,
        /// The registered names, comma-separated.
        known: String,
    },
    /// A method spec that is not a comma-separated list of method names.
    #[error("bad method {spec:?}: {msg}")]
    BadMethodSpec {
        /// The spec given.
        spec: String,
        /// What is wrong.
        msg: String,
    },
    /// A trained method without a model file.
    #[error("method {method} needs a model: pass --model FILE or train one with `wsd train --method {method} --output {}`", path.display())]
    MissingModel {
        /// The method.
        method: String,
        /// Where the model was looked for.
        path: PathBuf,
    },
    /// A resource file or folder that is not there.
    #[error("no {what} at {}: {fix}", path.display())]
    MissingResource {
        /// What it is (`POS model`, `encoder`, …).
        what: String,
        /// Where it was looked for.
        path: PathBuf,
        /// How to get it.
        fix: String,
    },
    /// A parameter out of its range (named as the user spells it).
    #[error("{name} = {value}: {msg}")]
    BadParameter {
        /// The parameter (`alpha`, `--k`, …).
        name: String,
        /// The value given.
        value: String,
        /// The allowed range.
        msg: String,
    },
    /// Matrices, weights or inputs of the encoder whose shapes do not fit
    /// (the message gives both shapes).
    #[error("shape mismatch: {0}")]
    Shape(String),
    /// A bug: a worker thread panicked.
    #[error("internal error: {0}")]
    Internal(&'static str),
    /// No WordNet dictionary folder was found.
    #[error("no WordNet 3.0 dictionary found (looked in: {looked}); get it with scripts/install.sh (fills the data home; or scripts/fetch-data.sh in a checkout), or pass --wordnet DIR")]
    WordNetNotFound {
        /// The places that were tried, in order.
        looked: String,
    },
    /// A synset id that is neither a sense key, an offset nor a name.
    #[error("cannot parse synset id {0:?}: expected a sense key (bank%1:14:00::), an offset (08420278-n) or a name (bank.n.02)")]
    BadId(String),
    /// A string that is not a sense key.
    #[error("malformed sense key {0:?} (expected lemma%1:14:00::)")]
    BadSenseKey(String),
    /// A well-formed id that names nothing in WordNet.
    #[error("WordNet has no synset {0:?}")]
    UnknownId(String),
    /// A model file that cannot be used.
    #[error("model {}: {msg}", path.display())]
    Model {
        /// The model file.
        path: PathBuf,
        /// What is wrong and how to fix it.
        msg: String,
    },
    /// A model file of another method than the one it was loaded for (a
    /// knn model given to Naive Bayes).
    #[error("model {}: a model of method {found}, not {expected}; pass a model written by `wsd train --method {expected}`", path.display())]
    WrongMethod {
        /// The model file.
        path: PathBuf,
        /// The method that asked for it.
        expected: String,
        /// The method the file's header names.
        found: String,
    },
    /// A model file written by an incompatible format version.
    #[error("model {}: format version {got}, this wsd reads version {expected}; retrain with `wsd train`", path.display())]
    Version {
        /// The model file.
        path: PathBuf,
        /// The version this build reads.
        expected: u32,
        /// The version found in the file.
        got: u32,
    },
    /// A model or header that could not be encoded (a bug: every value
    /// the library writes encodes).
    #[error("cannot encode a model: {0}")]
    Encode(String),
}

impl Error {
    /// A parse error at `path:line`.
    pub fn parse(path: impl Into<PathBuf>, line: usize, msg: impl Into<String>) -> Self {
        Error::Parse {
            path: path.into(),
            line,
            msg: msg.into(),
        }
    }

    /// An I/O error while reading `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// An I/O error while writing `path`.
    pub fn write(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Write {
            path: path.into(),
            source,
        }
    }

    /// A parameter out of range.
    pub fn bad_parameter(
        name: impl Into<String>,
        value: impl std::fmt::Display,
        msg: impl Into<String>,
    ) -> Self {
        Error::BadParameter {
            name: name.into(),
            value: value.to_string(),
            msg: msg.into(),
        }
    }
}

/// The message for a data file saved as UTF-16 (a byte-order mark, or NUL
/// at every other byte), which read as UTF-8 would be a NUL or a bad byte.
pub const UTF16_TEXT: &str = "UTF-16 text, not UTF-8 (convert it: iconv -f UTF-16 -t UTF-8 FILE)";

/// At most ~80 characters of `s` for quoting in a message, cut at a
/// character boundary and marked with `…` when cut.
pub fn excerpt(s: &str) -> String {
    const MAX: usize = 80;
    match s.char_indices().nth(MAX) {
        None => s.to_string(),
        Some((i, _)) => format!("{}…", &s[..i]),
    }
}

/// Library result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
