//! Files that appear complete or not at all.
//!
//! Every file wsd writes for later use — models, key files, IC tables,
//! `wsd tag --output` — goes to a temporary file in the target's folder
//! (same file system, so the rename is atomic), is flushed and synced, and
//! is renamed over the target only on [`AtomicFile::commit`]. Dropping an
//! [`AtomicFile`] without committing removes the temporary file; a crash or
//! a kill leaves at worst a `.wsd-*.tmp` file beside an intact target.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// A temporary file that replaces `path` on [`AtomicFile::commit`].
pub struct AtomicFile {
    path: PathBuf,
    tmp: tempfile::NamedTempFile,
}

impl AtomicFile {
    /// Start writing `path` (its folder is created if missing).
    pub fn create(path: &Path) -> Result<AtomicFile> {
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        let tmp = tempfile::Builder::new()
            .prefix(".wsd-")
            .suffix(".tmp")
            .tempfile_in(&dir)
            .map_err(|e| Error::io(&dir, e))?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            tmp,
        })
    }

    /// The file being written.
    pub fn file(&mut self) -> &mut File {
        self.tmp.as_file_mut()
    }

    /// A second handle on the file being written (for writers that must own
    /// their file while the `AtomicFile` waits for its commit).
    pub fn reopen(&self) -> Result<File> {
        self.tmp.reopen().map_err(|e| Error::io(&self.path, e))
    }

    /// Sync the data and rename the file over the target. Temporary files
    /// are created 0600; the result is an ordinary 0644 file.
    pub fn commit(self) -> Result<()> {
        let f = self.tmp.as_file();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = f.set_permissions(std::fs::Permissions::from_mode(0o644));
        }
        f.sync_all().map_err(|e| Error::io(&self.path, e))?;
        let path = self.path;
        self.tmp
            .persist(&path)
            .map_err(|e| Error::io(&path, e.error))?;
        Ok(())
    }
}

/// Write `path` atomically with `write` (through a buffer).
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let mut file = AtomicFile::create(path)?;
    {
        let mut w = BufWriter::new(file.file());
        write(&mut w).map_err(|e| Error::io(path, e))?;
        w.flush().map_err(|e| Error::io(path, e))?;
    }
    file.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commit_replaces_and_drop_leaves_the_old_file() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("sub/out.txt");
        write_atomically(&p, |w| w.write_all(b"one")).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        let mut f = AtomicFile::create(&p).unwrap();
        f.file().write_all(b"two, unfinished").unwrap();
        drop(f);
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        let names: Vec<_> = std::fs::read_dir(p.parent().unwrap()).unwrap().collect();
        assert_eq!(names.len(), 1);
        let err = write_atomically(&p, |_| Err(std::io::Error::other("boom"))).unwrap_err();
        assert!(err.to_string().contains("out.txt"));
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
    }
}
