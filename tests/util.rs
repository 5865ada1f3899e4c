//! Test harness: data locations, running the binary, temp dirs.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use wsd::wordnet::Inventory;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn require(p: PathBuf) -> PathBuf {
    assert!(
        p.exists(),
        "{} is missing: run scripts/fetch-data.sh (or scripts/test.sh) first",
        p.display()
    );
    p
}

/// The WordNet dict folder fetched by `scripts/fetch-data.sh`.
pub fn dict() -> PathBuf {
    require(root().join("wordnet/dict"))
}

/// SemCor 3.0.
pub fn semcor() -> PathBuf {
    require(root().join("corpora/semcor3.0"))
}

/// The SemEval-2007 folder.
pub fn semeval() -> PathBuf {
    require(root().join("corpora/wsd-eval/semeval2007"))
}

/// The inventory, loaded once for all tests.
pub fn inventory() -> &'static Inventory {
    static INV: OnceLock<Inventory> = OnceLock::new();
    INV.get_or_init(|| Inventory::load(&dict()).expect("load WordNet"))
}

/// A `wsd` command with `--wordnet` set, run from the repository root.
pub fn wsd() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_wsd"));
    c.current_dir(root());
    c.env_remove("WNSEARCHDIR");
    c
}

/// Run and return output, stdout and stderr as strings.
pub fn run(cmd: &mut Command) -> (Output, String, String) {
    let out = cmd.output().expect("run wsd");
    let so = String::from_utf8_lossy(&out.stdout).into_owned();
    let se = String::from_utf8_lossy(&out.stderr).into_owned();
    (out, so, se)
}

/// Run, assert success, return stdout.
pub fn ok(cmd: &mut Command) -> String {
    let (out, so, se) = run(cmd);
    assert!(
        out.status.success(),
        "wsd failed ({:?}):\nstdout:\n{so}\nstderr:\n{se}",
        out.status
    );
    so
}

/// Run, assert a failure without a panic, return stderr.
pub fn fails(cmd: &mut Command) -> String {
    let (out, so, se) = run(cmd);
    assert!(
        !out.status.success(),
        "wsd should have failed:\nstdout:\n{so}\nstderr:\n{se}"
    );
    assert!(!se.contains("panicked"), "wsd panicked:\n{se}");
    se
}

/// A fresh temporary directory.
pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("tempdir")
}

/// A copy of the dict folder made of symlinks, so one file can be replaced.
pub fn dict_copy(dir: &Path) -> PathBuf {
    let out = dir.join("dict");
    std::fs::create_dir_all(&out).unwrap();
    for e in std::fs::read_dir(dict()).unwrap() {
        let e = e.unwrap();
        std::os::unix::fs::symlink(e.path().canonicalize().unwrap(), out.join(e.file_name()))
            .unwrap();
    }
    out
}

/// Make sure the POS model exists (trained once per test run if missing;
/// `wsd tag` would otherwise train it on first use in every test at once).
pub fn pos_model() -> PathBuf {
    static POS: OnceLock<PathBuf> = OnceLock::new();
    POS.get_or_init(|| {
        let p = root().join("models/pos.wsd");
        // Missing, or of an older model format version: train it.
        if wsd::model_io::read_header(&p).is_err() {
            semcor();
            ok(wsd().args(["train", "--method", "pos", "--out"]).arg(&p));
        }
        p
    })
    .clone()
}

/// A `wsd tag` command with the POS model in place.
pub fn tag() -> Command {
    let pos = pos_model();
    let mut c = wsd();
    c.arg("tag").arg("--pos-model").arg(pos);
    c
}

/// Run `cmd` with `input` on stdin; return (status code, stdout, stderr).
pub fn run_stdin(cmd: &mut Command, input: &[u8]) -> (i32, String, String) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn wsd");
    let mut stdin = child.stdin.take().unwrap();
    let data = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `--xml … --gold …` for the SemEval-2007 dev set.
pub fn semeval_args() -> Vec<String> {
    let d = semeval();
    vec![
        "--xml".into(),
        d.join("semeval2007.data.xml").display().to_string(),
        "--gold".into(),
        d.join("semeval2007.gold.key.txt").display().to_string(),
    ]
}

/// The shipped POS tagger and the learned multiword matcher, for the
/// pipelines the knn and ens tests build by hand.
pub fn tagger_and_matcher() -> (wsd::pos::PosTagger, wsd::text::MweMatcher) {
    let (_, body) = wsd::model_io::read_model(&pos_model(), "pos", None).unwrap();
    let tagger = wsd::pos::PosTagger::from_bytes(&body).unwrap();
    (tagger, wsd::text::MweMatcher::new(inventory()))
}

/// `wsd tag`'s default pipeline (head-word targets on) with `probe`.
pub fn pipeline_by_hand<'a>(
    tagger: &'a wsd::pos::PosTagger,
    mwe: &'a wsd::text::MweMatcher,
    probe: Option<wsd::pipeline::PosProbe<'a>>,
) -> wsd::pipeline::Pipeline<'a> {
    wsd::pipeline::Pipeline {
        pos_probe: probe,
        ..wsd::pipeline::Pipeline::new(inventory(), tagger, Some(mwe))
    }
}

/// [`pipeline_by_hand`] with the category probe over `encoder`, keeping
/// the targets' vectors (and with `keep_sentences` the sentences' means).
pub fn probe_pipeline<'a>(
    tagger: &'a wsd::pos::PosTagger,
    mwe: &'a wsd::text::MweMatcher,
    encoder: &'a wsd::encoder::Encoder,
    keep_sentences: bool,
) -> wsd::pipeline::Pipeline<'a> {
    let probe = wsd::pipeline::PosProbe {
        encoder,
        model: wsd::pos::probe::CategoryProbe::shipped(),
        keep_vectors: true,
        keep_sentences,
    };
    pipeline_by_hand(tagger, mwe, Some(probe))
}
