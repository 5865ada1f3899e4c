//! Which SemCor documents a command reads: the tagfiles under a root and
//! the fixed train/test split (documents sorted by path; index `i` is test
//! when `i % 5 == 4`).

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

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
