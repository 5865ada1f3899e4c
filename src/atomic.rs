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

    /// The content of a file `tag` of about 4 MB: the tag, then bytes that
    /// depend on the tag and the position (so that a mix of two versions,
    /// or a prefix of one, is told apart from either).
    fn content(tag: &str) -> Vec<u8> {
        let mut v = tag.as_bytes().to_vec();
        v.push(b'\n');
        let seed = tag
            .bytes()
            .fold(7u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
        v.extend((0..4u64 << 20).map(|i| (i.wrapping_mul(2654435761) ^ seed) as u8));
        v
    }

    /// Which version `bytes` is, if it is one complete version.
    fn which(bytes: &[u8]) -> Option<&'static str> {
        ["old", "new"].into_iter().find(|t| bytes == content(t))
    }

    /// The child process of the kill test: write the "new" file over and
    /// over (for at most 20 s) to the path in `WSD_ATOMIC_WRITE_LOOP`.
    #[test]
    #[ignore = "child process of killing_a_write_half_way_leaves_the_old_file_intact"]
    fn write_loop_child() {
        let Ok(path) = std::env::var("WSD_ATOMIC_WRITE_LOOP") else {
            return;
        };
        let new = content("new");
        println!("ready");
        std::io::stdout().flush().unwrap();
        let start = std::time::Instant::now();
        while start.elapsed().as_secs() < 20 {
            write_atomically(Path::new(&path), |w| w.write_all(&new)).unwrap();
        }
    }

    #[test]
    fn killing_a_write_half_way_leaves_the_old_file_intact() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("model.wsd");
        let old = content("old");
        write_atomically(&p, |w| w.write_all(&old)).unwrap();

        // An interrupted write as a crash leaves it: a temporary file with
        // half the new content next to the target, never renamed.
        let new = content("new");
        let tmp = tempfile::Builder::new()
            .prefix(".wsd-")
            .suffix(".tmp")
            .tempfile_in(d.path())
            .unwrap();
        std::fs::write(tmp.path(), &new[..new.len() / 2]).unwrap();
        let (_f, _kept) = tmp.keep().unwrap();
        assert_eq!(which(&std::fs::read(&p).unwrap()), Some("old"));

        // A real kill: a child process writing the file in a loop is
        // killed (SIGKILL) at several moments after it starts writing; the
        // file must always be one complete version, old or new.
        let exe = std::env::current_exe().unwrap();
        let mut saw_new = false;
        for delay_ms in [0u64, 1, 2, 4, 8, 16, 32] {
            write_atomically(&p, |w| w.write_all(&old)).unwrap();
            let mut child = std::process::Command::new(&exe)
                .args([
                    "--exact",
                    "atomic::tests::write_loop_child",
                    "--ignored",
                    "--nocapture",
                    "--test-threads=1",
                ])
                .env("WSD_ATOMIC_WRITE_LOOP", &p)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
            let mut line = String::new();
            while {
                line.clear();
                std::io::BufRead::read_line(&mut out, &mut line).unwrap() > 0
            } {
                // libtest prints "test … ... " before the child's output.
                if line.trim_end().ends_with("ready") {
                    break;
                }
            }
            assert!(
                line.trim_end().ends_with("ready"),
                "the child did not start"
            );
            std::thread::sleep(std::time::Duration::from_millis(delay_ms));
            child.kill().unwrap();
            child.wait().unwrap();
            let bytes = std::fs::read(&p).unwrap();
            match which(&bytes) {
                Some("old") => {}
                Some(_) => saw_new = true,
                None => panic!(
                    "after a kill at {delay_ms} ms: a file of {} bytes that is neither version",
                    bytes.len()
                ),
            }
        }
        // Which version survived, and whether kills hit a write half-way
        // (a temporary file left behind), depends on timing; say so.
        let leftovers = std::fs::read_dir(d.path())
            .unwrap()
            .filter(|e| {
                let n = e.as_ref().unwrap().file_name();
                n.to_string_lossy().ends_with(".tmp")
            })
            .count();
        eprintln!("kill test: new version seen: {saw_new}; temporary files left by kills: {leftovers} (1 made by the test)");
    }
}
