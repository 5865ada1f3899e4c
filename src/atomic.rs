//! Files that appear complete or not at all, and outputs that respect what
//! is already at their path.
//!
//! Every file wsd writes for later use — models, key files, IC tables,
//! `wsd tag --output` — goes to a temporary file in the target's folder
//! (same file system, so the rename is atomic), is flushed and synced, and
//! is renamed over the target only on [`AtomicFile::commit`]. Dropping an
//! [`AtomicFile`] without committing removes the temporary file.
//!
//! What is at the output path is respected:
//! * `-` writes to standard output; a character device, a FIFO or a socket
//!   (`/dev/null`, `/dev/stdout`, a named pipe) is written through, never
//!   replaced;
//! * a symlink is followed: its target is replaced atomically, the link
//!   stays;
//! * an existing file keeps its permissions (a new one is 0644);
//! * a directory is an error, and so is an output that is also an input of
//!   the same run ([`refuse_inputs`], compared by device and inode).
//!
//! Temporary files are named `.wsd-<pid>-<random>.tmp`. They are removed on
//! SIGINT/SIGTERM ([`install_signal_cleanup`]); one left by a SIGKILL or a
//! crash is swept by the next write to the same folder: a `.wsd-*.tmp` whose
//! writer PID is no longer running, or (older naming, no PID) one not
//! modified for an hour. Nothing else in the folder is touched.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use crate::{Error, Result};

/// Temporary files being written by this process (removed on a signal).
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn live() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Remove this process's temporary files when SIGINT or SIGTERM arrives,
/// then exit with 128 + the signal's number (what the default action's
/// shell status would be). Call once, early in `main`.
pub fn install_signal_cleanup() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            let files = live();
            for p in files.iter() {
                let _ = std::fs::remove_file(p);
            }
            std::process::exit(128 + sig);
        }
    });
}

/// Where the bytes for an output path go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// Standard output (`-`).
    Stdout,
    /// A device, FIFO or socket, written through in place.
    Through(PathBuf),
    /// A regular file (existing or not), replaced atomically; the path is
    /// the symlinks' final target.
    Replace(PathBuf),
}

/// Follow symlinks from `path` to the path that is to be written (a
/// dangling link gives its target, which will be created).
fn follow_links(path: &Path) -> Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p).map_err(|e| Error::io(&p, e))?;
                p = if to.is_absolute() {
                    to
                } else {
                    p.parent().unwrap_or(Path::new("")).join(to)
                };
            }
            _ => return Ok(p),
        }
    }
    Err(Error::write(
        path,
        std::io::Error::other("too many levels of symbolic links"),
    ))
}

/// What writing `path` means (see the module docs).
pub fn destination(path: &Path) -> Result<Destination> {
    if path.as_os_str() == "-" {
        return Ok(Destination::Stdout);
    }
    // A device, FIFO or socket is written through at the path as given:
    // the kernel resolves the links to it, including /proc's magic links
    // (`/dev/stdout` → `/proc/self/fd/1` → `pipe:[…]`, which is no path
    // [`follow_links`] could read).
    if let Ok(m) = std::fs::metadata(path) {
        if !m.is_file() && !m.is_dir() {
            return Ok(Destination::Through(path.to_path_buf()));
        }
    }
    let target = follow_links(path)?;
    match std::fs::metadata(&target) {
        Ok(m) if m.is_dir() => Err(Error::write(
            path,
            std::io::Error::other("is a directory; give a file name"),
        )),
        Ok(m) if !m.is_file() => Ok(Destination::Through(target)),
        _ => Ok(Destination::Replace(target)),
    }
}

fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The folder `target` goes in, which must exist: a mistyped
/// `--output` path is an error, not a new tree of folders (as `sort -o`
/// and `cp` do; a caller that writes a default path of its own creates
/// its folder first).
fn existing_folder(path: &Path, target: &Path) -> Result<PathBuf> {
    let dir = folder_of(target);
    match std::fs::metadata(&dir) {
        Ok(m) if m.is_dir() => Ok(dir),
        Ok(_) => Err(Error::write(
            path,
            std::io::Error::other(format!("{} is not a folder", dir.display())),
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(Error::write(
            path,
            std::io::Error::other(format!(
                "folder {} does not exist (create it first)",
                dir.display()
            )),
        )),
        Err(e) => Err(Error::write(path, e)),
    }
}

/// Create the folder of `path` if it is missing: for a default output
/// path wsd chose itself (`models/nb.wsd` under the data home), where no
/// typo is possible. A path the user gave must have its folder already
/// (as `check_writable` and `AtomicFile::create` require).
pub fn create_folder_of(path: &Path) -> Result<()> {
    std::fs::create_dir_all(folder_of(path)).map_err(|e| Error::write(path, e))
}

/// A temporary file could not be made in `dir`: say so without the
/// temporary file's name, which the user never typed.
fn temp_error(path: &Path, dir: &Path, e: std::io::Error) -> Error {
    let why = e.to_string();
    let why = why.split(" at path ").next().unwrap_or(&why);
    Error::write(
        path,
        std::io::Error::new(
            e.kind(),
            format!("cannot create a file in {}: {why}", dir.display()),
        ),
    )
}

/// Fail now, before long work, if `path` cannot be written: its folder
/// must exist, and a temporary file is made and removed there
/// (devices and FIFOs are not opened: a FIFO would block).
pub fn check_writable(path: &Path) -> Result<()> {
    match destination(path)? {
        Destination::Stdout | Destination::Through(_) => Ok(()),
        Destination::Replace(target) => {
            let dir = existing_folder(path, &target)?;
            tempfile::Builder::new()
                .prefix(&format!(".wsd-{}-", std::process::id()))
                .suffix(".tmp")
                .tempfile_in(&dir)
                .map(drop)
                .map_err(|e| temp_error(path, &dir, e))
        }
    }
}

/// Refuse two outputs of one run that are the same file: the second
/// would silently replace the first. `outputs` pairs each path with the
/// option that names it; `-` (standard output) may be given once.
pub fn refuse_same_outputs<'a>(
    outputs: impl IntoIterator<Item = (&'a str, &'a Path)>,
) -> Result<()> {
    let mut seen: Vec<(&str, &Path, PathBuf)> = Vec::new();
    for (flag, path) in outputs {
        let key = match destination(path)? {
            Destination::Stdout => PathBuf::from("-"),
            Destination::Through(p) | Destination::Replace(p) => {
                let abs = std::path::absolute(&p).unwrap_or(p);
                match (abs.parent().map(Path::canonicalize), abs.file_name()) {
                    (Some(Ok(dir)), Some(name)) => dir.join(name),
                    _ => abs,
                }
            }
        };
        if let Some((first, first_path, _)) = seen.iter().find(|(_, _, k)| *k == key) {
            return Err(Error::bad_parameter(
                flag,
                path.display(),
                format!(
                    "is also the file of {first} ({}); give each output its own file",
                    first_path.display()
                ),
            ));
        }
        seen.push((flag, path, key));
    }
    Ok(())
}

/// What standard input is (`wsd tag -o F < F` reads the file it would
/// replace).
#[cfg(unix)]
fn stdin_metadata() -> Option<std::fs::Metadata> {
    use std::os::fd::AsFd;
    let fd = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
    File::from(fd).metadata().ok()
}

#[cfg(not(unix))]
fn stdin_metadata() -> Option<std::fs::Metadata> {
    None
}

#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    false
}

/// Refuse an output that is one of the run's inputs (the same file by
/// device and inode, so `./F`, `F` and a link to `F` are all caught).
/// `flag` names the output option in the message (`--output`).
pub fn refuse_inputs<'a>(
    flag: &str,
    output: &Path,
    inputs: impl IntoIterator<Item = &'a Path>,
) -> Result<()> {
    let Ok(out) = std::fs::metadata(output) else {
        return Ok(());
    };
    if !out.is_file() {
        return Ok(());
    }
    for input in inputs {
        let meta = if input.as_os_str() == "-" {
            stdin_metadata()
        } else {
            std::fs::metadata(input).ok()
        };
        if let Some(m) = meta {
            if same_file(&out, &m) {
                return Err(Error::bad_parameter(
                    flag,
                    output.display(),
                    if input.as_os_str() == "-" {
                        "is also this run's standard input; refusing to overwrite it".to_string()
                    } else {
                        format!(
                            "is also an input of this run ({}); refusing to overwrite it",
                            input.display()
                        )
                    },
                ));
            }
        }
    }
    Ok(())
}

#[cfg(unix)]
fn pid_running(pid: u32) -> bool {
    let Ok(pid) = i32::try_from(pid) else {
        return false;
    };
    // SAFETY: kill with signal 0 only checks that the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

#[cfg(not(unix))]
fn pid_running(_: u32) -> bool {
    true
}

/// Is this a stale temporary file of ours (see the module docs)?
fn is_stale(name: &str, modified: Option<SystemTime>) -> bool {
    let Some(mid) = name
        .strip_prefix(".wsd-")
        .and_then(|s| s.strip_suffix(".tmp"))
    else {
        return false;
    };
    let pid = mid.split_once('-').and_then(|(p, _)| p.parse::<u32>().ok());
    match pid {
        Some(pid) if pid == std::process::id() => false,
        Some(pid) => !pid_running(pid),
        None => modified
            .and_then(|m| m.elapsed().ok())
            .is_some_and(|age| age > Duration::from_secs(3600)),
    }
}

/// Remove stale `.wsd-*.tmp` files of ours in `dir`; returns how many.
pub fn sweep_stale(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut n = 0;
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(name) = name.to_str() else { continue };
        if !name.starts_with(".wsd-") || !name.ends_with(".tmp") {
            continue;
        }
        let Ok(meta) = e.metadata() else { continue };
        if !meta.is_file() {
            continue;
        }
        if is_stale(name, meta.modified().ok()) && std::fs::remove_file(e.path()).is_ok() {
            n += 1;
        }
    }
    n
}

enum Sink {
    Temp {
        tmp: Option<tempfile::NamedTempFile>,
        target: PathBuf,
        mode: Option<u32>,
    },
    Through(File),
}

/// An output being written: a temporary file that replaces the target on
/// [`AtomicFile::commit`], or a device, FIFO or standard output written
/// through (see the module docs).
pub struct AtomicFile {
    path: PathBuf,
    sink: Sink,
}

#[cfg(unix)]
fn mode_of(m: &std::fs::Metadata) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    m.permissions().mode() & 0o7777
}

#[cfg(not(unix))]
fn mode_of(_: &std::fs::Metadata) -> u32 {
    0o644
}

fn stdout_file(path: &Path) -> Result<File> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let fd = std::io::stdout()
            .as_fd()
            .try_clone_to_owned()
            .map_err(|e| Error::write(path, e))?;
        Ok(File::from(fd))
    }
    #[cfg(not(unix))]
    {
        Err(Error::write(
            path,
            std::io::Error::other("`-` is not supported here"),
        ))
    }
}

impl AtomicFile {
    /// Start writing `path` (its folder must exist).
    pub fn create(path: &Path) -> Result<AtomicFile> {
        let sink = match destination(path)? {
            Destination::Stdout => Sink::Through(stdout_file(path)?),
            Destination::Through(target) => Sink::Through(
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(&target)
                    .map_err(|e| Error::write(path, e))?,
            ),
            Destination::Replace(target) => {
                let dir = existing_folder(path, &target)?;
                sweep_stale(&dir);
                let mode = std::fs::metadata(&target).ok().map(|m| mode_of(&m));
                let mut files = live();
                let tmp = tempfile::Builder::new()
                    .prefix(&format!(".wsd-{}-", std::process::id()))
                    .suffix(".tmp")
                    .tempfile_in(&dir)
                    .map_err(|e| temp_error(path, &dir, e))?;
                files.push(tmp.path().to_path_buf());
                Sink::Temp {
                    tmp: Some(tmp),
                    target,
                    mode,
                }
            }
        };
        Ok(AtomicFile {
            path: path.to_path_buf(),
            sink,
        })
    }

    /// The file being written.
    pub fn file(&mut self) -> &mut File {
        match &mut self.sink {
            Sink::Temp { tmp, .. } => tmp.as_mut().expect("not committed").as_file_mut(),
            Sink::Through(f) => f,
        }
    }

    /// A second handle on the file being written (for writers that must own
    /// their file while the `AtomicFile` waits for its commit).
    pub fn reopen(&self) -> Result<File> {
        match &self.sink {
            Sink::Temp { tmp, .. } => tmp
                .as_ref()
                .expect("not committed")
                .reopen()
                .map_err(|e| Error::write(&self.path, e)),
            Sink::Through(f) => f.try_clone().map_err(|e| Error::write(&self.path, e)),
        }
    }

    /// Is the output written through (stdout, a device, a FIFO) rather than
    /// replaced on commit?
    pub fn is_through(&self) -> bool {
        matches!(self.sink, Sink::Through(_))
    }

    /// Sync the data and rename the file over the target (which keeps its
    /// permissions; a new file is 0644). Written-through outputs are only
    /// flushed.
    pub fn commit(mut self) -> Result<()> {
        match &mut self.sink {
            Sink::Through(f) => f.flush().map_err(|e| Error::write(&self.path, e)),
            Sink::Temp { tmp, target, mode } => {
                let tmp = tmp.take().expect("committed once");
                let f = tmp.as_file();
                #[cfg(unix)]
                {
                    use std::os::unix::fs::PermissionsExt;
                    let mode = mode.unwrap_or(0o644);
                    f.set_permissions(std::fs::Permissions::from_mode(mode))
                        .map_err(|e| Error::write(&self.path, e))?;
                }
                f.sync_all().map_err(|e| Error::write(&self.path, e))?;
                let tmp_path = tmp.path().to_path_buf();
                let r = tmp
                    .persist(&*target)
                    .map(drop)
                    .map_err(|e| Error::write(&self.path, e.error));
                live().retain(|p| p != &tmp_path);
                r
            }
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Sink::Temp { tmp: Some(tmp), .. } = &self.sink {
            let p = tmp.path().to_path_buf();
            live().retain(|q| q != &p);
        }
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
        write(&mut w).map_err(|e| Error::write(path, e))?;
        w.flush().map_err(|e| Error::write(path, e))?;
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
        // a folder that is not there is an error, not created
        let err = write_atomically(&p, |w| w.write_all(b"one")).unwrap_err();
        assert!(err.to_string().contains("cannot write"), "{err}");
        assert!(!d.path().join("sub").exists());
        create_folder_of(&p).unwrap();
        write_atomically(&p, |w| w.write_all(b"one")).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        let mut f = AtomicFile::create(&p).unwrap();
        f.file().write_all(b"two, unfinished").unwrap();
        drop(f);
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        let names: Vec<_> = std::fs::read_dir(p.parent().unwrap()).unwrap().collect();
        assert_eq!(names.len(), 1);
        let err = write_atomically(&p, |_| Err(std::io::Error::other("boom"))).unwrap_err();
        assert!(err.to_string().contains("cannot write"), "{err}");
        assert!(err.to_string().contains("out.txt"));
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        // None of this folder's temp files is still registered (other tests
        // of this process may have theirs).
        assert!(!live().iter().any(|t| t.starts_with(d.path())));
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_and_modes_kept() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let real = d.path().join("real.txt");
        std::fs::write(&real, "old").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
        let link = d.path().join("link.txt");
        std::os::unix::fs::symlink("real.txt", &link).unwrap();
        write_atomically(&link, |w| w.write_all(b"new")).unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert!(write_atomically(d.path(), |w| w.write_all(b"x")).is_err());
    }

    #[test]
    fn one_file_named_by_two_outputs_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let a = d.path().join("a.tsv");
        let same = d.path().join(".").join("a.tsv");
        let b = d.path().join("b.tsv");
        let err = refuse_same_outputs([("--output", a.as_path()), ("--errors", same.as_path())])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("--errors") && err.contains("--output"),
            "{err}"
        );
        refuse_same_outputs([("--output", a.as_path()), ("--errors", b.as_path())]).unwrap();
    }

    #[test]
    fn inputs_are_refused_as_outputs() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("gold.key");
        std::fs::write(&f, "x").unwrap();
        let dotted = d.path().join(".").join("gold.key");
        let err = refuse_inputs("--output", &f, [dotted.as_path()]).unwrap_err();
        assert!(err.to_string().contains("--output"), "{err}");
        let other = d.path().join("other");
        assert!(refuse_inputs("--output", &other, [f.as_path()]).is_ok());
    }

    #[test]
    fn only_our_stale_temp_files_are_swept() {
        let d = tempfile::tempdir().unwrap();
        // PID 0x7fff_fff0 is not running; ours is.
        let dead = d.path().join(".wsd-2147483632-abc.tmp");
        let mine = d
            .path()
            .join(format!(".wsd-{}-abc.tmp", std::process::id()));
        let fresh_old_style = d.path().join(".wsd-XYZabc.tmp");
        let theirs = d.path().join("notes.tmp");
        for p in [&dead, &mine, &fresh_old_style, &theirs] {
            std::fs::write(p, "x").unwrap();
        }
        assert_eq!(sweep_stale(d.path()), 1);
        assert!(!dead.exists());
        assert!(mine.exists() && fresh_old_style.exists() && theirs.exists());
        assert!(!is_stale(".wsd-abc.tmp", Some(SystemTime::now())));
        assert!(is_stale(
            ".wsd-abc.tmp",
            Some(SystemTime::now() - Duration::from_secs(7200))
        ));
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
