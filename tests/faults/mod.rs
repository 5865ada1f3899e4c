//! Fault injection (issue 16): hostile files, damaged dictionary copies
//! built from the real one at test time, odd options, interrupted writes,
//! a full disk. Each case asserts the exit code, that the message names
//! the file (and line, or byte offset), and that no file was lost or left
//! behind.
//!
//! `WSD_FAULTS_BIN=/path/to/wsd` replays the cases against another build
//! (how the "fails before the fix" figures were taken).
//!
//! By concern: [`output`], [`options`], [`dictionary`], [`evaluation`],
//! [`pipes_and_models`], [`messages`], [`hostile`].

mod dictionary;
mod evaluation;
mod hostile;
mod messages;
mod options;
mod output;
mod pipes_and_models;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::util::{dict, dict_copy, pos_model, root, semeval, tempdir};

fn bin() -> PathBuf {
    std::env::var_os("WSD_FAULTS_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_wsd")))
}

fn wsd() -> Command {
    let mut c = Command::new(bin());
    c.current_dir(root());
    c.env_remove("WNSEARCHDIR");
    c.arg("-q");
    c
}

fn tag() -> Command {
    let mut c = wsd();
    c.arg("tag").arg("--pos-model").arg(pos_model());
    c
}

struct Run {
    code: Option<i32>,
    out: String,
    err: String,
}

fn run(cmd: &mut Command) -> Run {
    let o: Output = cmd.stdin(Stdio::null()).output().expect("run wsd");
    let r = Run {
        code: o.status.code(),
        out: String::from_utf8_lossy(&o.stdout).into_owned(),
        err: String::from_utf8_lossy(&o.stderr).into_owned(),
    };
    assert!(!r.err.contains("panicked"), "wsd panicked:\n{}", r.err);
    r
}

/// Run, expect exit `code` and every `needles` in stderr.
fn expect(cmd: &mut Command, code: i32, needles: &[&str]) -> Run {
    let r = run(cmd);
    assert_eq!(
        r.code,
        Some(code),
        "exit code\nstdout:\n{}\nstderr:\n{}",
        r.out,
        r.err
    );
    for n in needles {
        assert!(r.err.contains(n), "stderr lacks {n:?}:\n{}", r.err);
    }
    assert!(!r.err.contains(":0:"), "line 0 in:\n{}", r.err);
    r
}

/// The `.wsd-*.tmp` files in `dir`.
fn temps(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".wsd-") && n.ends_with(".tmp"))
        .collect()
}

fn text_file(dir: &Path) -> PathBuf {
    let p = dir.join("in.txt");
    std::fs::write(&p, "The bank raised its interest rates.\n").unwrap();
    p
}

/// Replace `name` in a dict copy with `bytes`.
fn damage(d: &Path, name: &str, bytes: &[u8]) {
    let p = d.join(name);
    std::fs::remove_file(&p).unwrap();
    std::fs::write(&p, bytes).unwrap();
}

fn real(name: &str) -> Vec<u8> {
    std::fs::read(dict().join(name)).unwrap()
}

/// `wsd eval` on SemEval-2007.
fn eval_semeval() -> Command {
    let mut c = wsd();
    c.arg("eval")
        .arg("--xml")
        .arg(semeval().join("semeval2007.data.xml"))
        .arg("--gold")
        .arg(semeval().join("semeval2007.gold.key.txt"));
    c
}
