//! Fault injection (issue 16): hostile files, damaged dictionary copies
//! built from the real one at test time, odd options, interrupted writes,
//! a full disk. Each case asserts the exit code, that the message names
//! the file (and line, or byte offset), and that no file was lost or left
//! behind.
//!
//! `WSD_FAULTS_BIN=/path/to/wsd` replays the cases against another build
//! (how the "fails before the fix" figures were taken).

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

// ---- 1. --output semantics ----------------------------------------------

#[test]
fn output_to_a_character_device_is_written_through() {
    let d = tempdir();
    let input = text_file(d.path());
    // A private node of /dev/null's device (1, 3), so that a build that
    // replaces devices cannot damage the real /dev/null when run as root.
    let dev = d.path().join("null");
    let made = Command::new("mknod")
        .arg(&dev)
        .args(["c", "1", "3"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        // Not root: /dev/null cannot be replaced by us anyway.
        expect(tag().arg("-o").arg("/dev/null").arg(&input), 0, &[]);
        assert!(!Path::new("/dev/null").metadata().unwrap().is_file());
        return;
    }
    expect(tag().arg("-o").arg(&dev).arg(&input), 0, &[]);
    use std::os::unix::fs::FileTypeExt;
    let t = std::fs::symlink_metadata(&dev).unwrap().file_type();
    assert!(t.is_char_device(), "the device node was replaced by a file");
}

#[test]
fn output_to_a_fifo_is_written_through() {
    let d = tempdir();
    let input = text_file(d.path());
    let fifo = d.path().join("fifo");
    let ok = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(ok.success());
    let f2 = fifo.clone();
    let reader = std::thread::spawn(move || std::fs::read_to_string(f2).unwrap());
    expect(tag().arg("-o").arg(&fifo).arg(&input), 0, &[]);
    let got = reader.join().unwrap();
    assert!(got.contains("bank"), "{got}");
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
}

#[test]
fn output_through_a_symlink_replaces_the_target_and_keeps_the_link() {
    let d = tempdir();
    let input = text_file(d.path());
    let real = d.path().join("real.tsv");
    std::fs::write(&real, "old").unwrap();
    let link = d.path().join("link.tsv");
    std::os::unix::fs::symlink("real.tsv", &link).unwrap();
    expect(tag().arg("-o").arg(&link).arg(&input), 0, &[]);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&real).unwrap().contains("bank"));
}

#[test]
fn output_keeps_an_existing_files_permissions() {
    let d = tempdir();
    let input = text_file(d.path());
    let out = d.path().join("out.tsv");
    std::fs::write(&out, "old").unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o600)).unwrap();
    expect(tag().arg("-o").arg(&out).arg(&input), 0, &[]);
    let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
}

#[test]
fn output_dash_is_stdout() {
    let d = tempdir();
    let input = text_file(d.path());
    let r = expect(tag().arg("-o").arg("-").arg(&input), 0, &[]);
    assert!(r.out.contains("bank"), "{}", r.out);
    assert!(!root().join("-").exists());
}

#[test]
fn tag_refuses_to_overwrite_its_input() {
    let d = tempdir();
    let input = text_file(d.path());
    let before = std::fs::read(&input).unwrap();
    expect(
        tag().arg("-o").arg(&input).arg(&input),
        2,
        &["--output", "in.txt"],
    );
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

#[test]
fn eval_refuses_to_overwrite_the_gold_file() {
    let d = tempdir();
    let gold = d.path().join("gold.key");
    std::fs::copy(semeval().join("semeval2007.gold.key.txt"), &gold).unwrap();
    let before = std::fs::read(&gold).unwrap();
    expect(
        wsd()
            .args(["eval", "--method", "mfs", "--xml"])
            .arg(semeval().join("semeval2007.data.xml"))
            .arg("--gold")
            .arg(&gold)
            .arg("--output")
            .arg(d.path().join(".").join("gold.key")),
        2,
        &["--output", "gold.key"],
    );
    assert_eq!(std::fs::read(&gold).unwrap(), before);
}

#[test]
fn train_refuses_to_overwrite_an_input() {
    let d = tempdir();
    let x = d.path().join("data.xml");
    std::fs::copy(semeval().join("semeval2007.data.xml"), &x).unwrap();
    let before = std::fs::read(&x).unwrap();
    expect(
        wsd()
            .args(["train", "--method", "knn", "--gloss-xml"])
            .arg(&x)
            .arg("--output")
            .arg(&x),
        2,
        &["--output", "data.xml"],
    );
    assert_eq!(std::fs::read(&x).unwrap(), before);
}

#[test]
fn stale_temp_files_of_dead_writers_are_swept_and_others_kept() {
    let d = tempdir();
    let input = text_file(d.path());
    let dead = d.path().join(".wsd-2147483632-AbCdEf.tmp");
    let alive = d
        .path()
        .join(format!(".wsd-{}-AbCdEf.tmp", std::process::id()));
    let theirs = d.path().join("notes.tmp");
    for p in [&dead, &alive, &theirs] {
        std::fs::write(p, "x").unwrap();
    }
    expect(
        tag().arg("-o").arg(d.path().join("out.tsv")).arg(&input),
        0,
        &[],
    );
    assert!(!dead.exists(), "stale temp file of a dead PID kept");
    assert!(alive.exists() && theirs.exists());
}

/// Start `wsd tag -o out.tsv -` on an open stdin, wait for its temp file,
/// send `sig`; the exit status, the temp files left, the output file's
/// content and the child's stderr (for the assertion messages: a status
/// other than the signal's must say what the child did).
fn interrupt(sig: &str) -> (std::process::ExitStatus, Vec<String>, String, String) {
    let d = tempdir();
    let out = d.path().join("out.tsv");
    std::fs::write(&out, "previous").unwrap();
    let mut child = tag()
        .arg("-o")
        .arg(&out)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(d.path().join("stderr")).unwrap())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while temps(d.path()).is_empty() && t0.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!temps(d.path()).is_empty(), "no temp file appeared");
    // Let the writer register its temp file for removal (tests run in
    // parallel on two busy cores).
    std::thread::sleep(Duration::from_millis(1000));
    let ok = Command::new("kill")
        .arg(format!("-{sig}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(ok.success());
    // `Child::wait` closes stdin first: on a busy machine the child could
    // then see end of input and finish (exit 0) before its signal thread
    // runs. Keep stdin open until the child is gone.
    let stdin = child.stdin.take();
    let status = child.wait().unwrap();
    drop(stdin);
    let left = temps(d.path());
    let kept = std::fs::read_to_string(&out).unwrap();
    let stderr = std::fs::read_to_string(d.path().join("stderr")).unwrap_or_default();
    (status, left, kept, stderr)
}

#[test]
fn sigterm_during_a_write_removes_the_temp_file() {
    let (status, left, kept, stderr) = interrupt("TERM");
    assert_eq!(status.code(), Some(143), "{status:?}, stderr: {stderr}");
    assert!(left.is_empty(), "left behind: {left:?}");
    assert_eq!(kept, "previous");
}

#[test]
fn sigint_during_a_write_removes_the_temp_file() {
    let (status, left, kept, stderr) = interrupt("INT");
    assert_eq!(status.code(), Some(130), "{status:?}, stderr: {stderr}");
    assert!(left.is_empty(), "left behind: {left:?}");
    assert_eq!(kept, "previous");
}

#[test]
fn sigkill_leaves_a_temp_file_that_the_next_write_sweeps() {
    let (_, left, kept, _) = interrupt("KILL");
    assert_eq!(kept, "previous");
    assert_eq!(left.len(), 1, "SIGKILL cannot clean up: {left:?}");
    // The dir is gone with the TempDir; replay the sweep in a fresh one.
    let d = tempdir();
    let stale = d.path().join(&left[0]);
    std::fs::write(&stale, "x").unwrap();
    let input = text_file(d.path());
    expect(
        tag().arg("-o").arg(d.path().join("o.tsv")).arg(&input),
        0,
        &[],
    );
    assert!(!stale.exists(), "{} not swept", left[0]);
}

#[test]
fn train_checks_its_output_before_reading_semcor() {
    let d = tempdir();
    let file = d.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let t0 = Instant::now();
    expect(
        wsd()
            .args(["train", "--method", "nb", "--output"])
            .arg(file.join("sub/nb.wsd")),
        2,
        &["cannot write", "a-file/sub/nb.wsd"],
    );
    assert!(
        t0.elapsed() < Duration::from_secs(5),
        "checked after the work"
    );
}

#[test]
fn tag_checks_a_missing_pos_models_folder_before_training_it() {
    let d = tempdir();
    let file = d.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let input = text_file(d.path());
    let t0 = Instant::now();
    expect(
        wsd()
            .arg("tag")
            .arg("--pos-model")
            .arg(file.join("pos.wsd"))
            .arg(&input),
        2,
        &["cannot write", "a-file/pos.wsd"],
    );
    assert!(t0.elapsed() < Duration::from_secs(10), "trained first");
}

#[test]
fn a_full_disk_says_cannot_write_and_keeps_the_old_file() {
    let d = tempdir();
    let mnt = d.path().join("small");
    std::fs::create_dir(&mnt).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(&mnt)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("skipped: cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN)");
        return;
    }
    let out = mnt.join("out.tsv");
    std::fs::write(&out, "previous").unwrap();
    let input = d.path().join("big.txt");
    std::fs::write(&input, "The bank raised its rates. ".repeat(20_000)).unwrap();
    let r = run(tag().arg("-o").arg(&out).arg(&input));
    let left = temps(&mnt);
    let kept = std::fs::read_to_string(&out).unwrap();
    let _ = Command::new("umount").arg(&mnt).status();
    assert_ne!(r.code, Some(0), "{}", r.err);
    assert!(r.err.contains("cannot write"), "{}", r.err);
    assert!(r.err.contains("out.tsv"), "{}", r.err);
    assert!(!r.err.contains("cannot read"), "{}", r.err);
    assert!(left.is_empty(), "{left:?}");
    assert_eq!(kept, "previous");
}

// ---- 2. Unbounded resources / 5. options ----------------------------------

#[test]
fn absurd_thread_counts_are_refused_quickly() {
    let d = tempdir();
    let input = text_file(d.path());
    for n in ["0", "18446744073709551615", "10000"] {
        // Built first: the first `tag()` may train the POS model.
        let mut cmd = tag();
        cmd.args(["--threads", n]).arg(&input);
        // A hang guard, not a speed target: spawning 2^64 threads used to
        // never end.
        let t0 = Instant::now();
        expect(&mut cmd, 2, &["--threads"]);
        assert!(t0.elapsed() < Duration::from_secs(60));
    }
}

fn eval_semeval() -> Command {
    let mut c = wsd();
    c.arg("eval")
        .arg("--xml")
        .arg(semeval().join("semeval2007.data.xml"))
        .arg("--gold")
        .arg(semeval().join("semeval2007.gold.key.txt"));
    c
}

#[test]
fn knn_options_out_of_range_are_refused_with_their_name() {
    for (flag, v) in [
        ("--prior", "NaN"),
        ("--prior", "inf"),
        ("--gloss-weight", "inf"),
        ("--gloss-weight", "2"),
        ("--k", "0"),
    ] {
        expect(
            eval_semeval().args(["--method", "mfs", flag, v]),
            2,
            &[flag],
        );
    }
}

#[test]
fn nb_params_typos_and_bad_alpha_are_refused() {
    expect(
        wsd().args(["train", "--method", "nb", "--nb-params", r#"{"alpa": 2}"#]),
        2,
        &["alpa"],
    );
    expect(
        wsd().args(["train", "--method", "nb", "--nb-params", r#"{"alpha": 0}"#]),
        2,
        &["alpha"],
    );
    expect(
        wsd().args(["train", "--method", "nb", "--nb-params", r#"{"alpha": -1}"#]),
        2,
        &["alpha"],
    );
}

#[test]
fn limit_docs_zero_is_refused() {
    expect(
        wsd()
            .args(["train", "--method", "pos", "--limit-docs", "0", "-o"])
            .arg(tempdir().path().join("pos.wsd")),
        2,
        &["--limit-docs"],
    );
}

/// `--limit-docs` reaches the POS tagger's training too (it was ignored):
/// the model's header records the documents it was trained on.
#[test]
fn limit_docs_limits_pos_training() {
    let d = tempdir();
    let out = d.path().join("pos.wsd");
    expect(
        wsd()
            .args(["train", "--method", "pos", "--limit-docs", "1", "-o"])
            .arg(&out),
        0,
        &[],
    );
    let h = wsd::model_io::read_header(&out).unwrap();
    assert_eq!(h.params["documents"], 1, "{:?}", h.params);
    assert!(
        h.params["sentences"].as_u64().unwrap() < 200,
        "{:?}",
        h.params
    );
}

fn ic_table(body: &str) -> tempfile::TempDir {
    let d = tempdir();
    std::fs::write(d.path().join("ic.txt"), body).unwrap();
    d
}

const ROOTS: &str = "ROOT-n 10\nROOT-v 10\nROOT-a 10\nROOT-r 10\n";

#[test]
fn damaged_ic_tables_are_refused_with_file_and_line() {
    let cases = [
        (
            format!("wsd-ic 1 smoothing=NaN occurrences=0 unknown=0\n{ROOTS}"),
            "ic.txt:1:",
        ),
        (
            "wsd-ic 1 smoothing=1 occurrences=0 unknown=0\nROOT-n 0\nROOT-v 10\nROOT-a 10\nROOT-r 10\n"
                .to_string(),
            "ic.txt:2:",
        ),
        (
            format!("wsd-ic 1 smoothing=1 occurrences=0 unknown=0\n{ROOTS}02084071-n 3\n02084071-n 4\n"),
            "ic.txt:7:",
        ),
        (
            format!("wsd-ic 1 smoothing=1 occurrences=0 unknown=0\n{ROOTS}ROOT-n 5\n"),
            "ic.txt:6:",
        ),
        (
            "wsd-ic 1 smoothing=1 occurrences=0 unknown=0\nROOT-n 10\n".to_string(),
            "ic.txt:2:",
        ),
    ];
    for (body, want) in cases {
        let d = ic_table(&body);
        expect(
            wsd()
                .args(["similarity", "--measure", "lin", "--ic"])
                .arg(d.path().join("ic.txt"))
                .args(["dog.n.01", "cat.n.01"]),
            2,
            &[want],
        );
    }
}

// ---- 3. Damaged dictionary ---------------------------------------------------

fn shuffled(bytes: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(bytes);
    let (mut head, mut body): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
    for l in text.lines() {
        if l.starts_with("  ") {
            head.push(l);
        } else {
            body.push(l);
        }
    }
    // A deterministic shuffle: interleave from both ends.
    let mut out = head;
    let (mut i, mut j) = (0, body.len());
    while i < j {
        j -= 1;
        out.push(body[j]);
        if i < j {
            out.push(body[i]);
            i += 1;
        }
    }
    (out.join("\n") + "\n").into_bytes()
}

#[test]
fn a_shuffled_index_is_an_error_not_fewer_senses() {
    let d = tempdir();
    let dc = dict_copy(d.path());
    damage(&dc, "index.noun", &shuffled(&real("index.noun")));
    expect(
        wsd().arg("--wordnet").arg(&dc).args(["senses", "bank"]),
        2,
        &["index.noun:", "sort order"],
    );
    expect(
        wsd().arg("--wordnet").arg(&dc).arg("info"),
        1,
        &["index.noun:", "not sorted"],
    );
}

#[test]
fn an_empty_index_sense_is_an_error() {
    let d = tempdir();
    let dc = dict_copy(d.path());
    damage(&dc, "index.sense", b"");
    expect(
        wsd().arg("--wordnet").arg(&dc).args(["senses", "bank"]),
        2,
        &["index.sense:1:", "empty"],
    );
    expect(
        wsd().arg("--wordnet").arg(&dc).arg("info"),
        2,
        &["index.sense:1:", "empty"],
    );
}

/// data.noun with the line of synset `offset` edited by `edit` (same length).
fn edit_data_noun(dc: &Path, offset: &str, edit: impl Fn(&str) -> String) {
    let text = String::from_utf8(real("data.noun")).unwrap();
    let mut out = String::with_capacity(text.len());
    for l in text.split_inclusive('\n') {
        if l.starts_with(offset) {
            let e = edit(l);
            assert_eq!(e.len(), l.len(), "edits must keep byte offsets");
            out.push_str(&e);
        } else {
            out.push_str(l);
        }
    }
    damage(dc, "data.noun", out.as_bytes());
}

#[test]
fn a_hypernym_cycle_is_reported_by_info() {
    let d = tempdir();
    let dc = dict_copy(d.path());
    // canine.n.02 (02083346) gets dog.n.01 (02084071) as its hypernym.
    edit_data_noun(&dc, "02083346 ", |l| {
        let at = l.find(" @ ").expect("canine has a hypernym");
        format!("{} @ 02084071{}", &l[..at], &l[at + 11..])
    });
    expect(
        wsd().arg("--wordnet").arg(&dc).arg("info"),
        1,
        &["data.noun:", "hypernym cycle"],
    );
}

#[test]
fn a_dangling_pointer_is_reported_by_info() {
    let d = tempdir();
    let dc = dict_copy(d.path());
    // dog.n.01's hypernym 02083346 → 02083347 (no such record).
    edit_data_noun(&dc, "02084071 ", |l| {
        l.replacen("@ 02083346", "@ 02083347", 1)
    });
    expect(
        wsd().arg("--wordnet").arg(&dc).arg("info"),
        1,
        &["data.noun:", "02083347", "does not exist"],
    );
}

#[test]
fn a_truncated_data_file_names_the_index_line() {
    let d = tempdir();
    let dc = dict_copy(d.path());
    let data = real("data.noun");
    // Cut at a line end: whole records missing, every line well-formed.
    let cut = data[..data.len() / 2]
        .iter()
        .rposition(|&b| b == b'\n')
        .unwrap();
    damage(&dc, "data.noun", &data[..=cut]);
    expect(
        wsd().arg("--wordnet").arg(&dc).arg("info"),
        2,
        &["index.noun:", "data.noun lacks"],
    );
}

#[test]
fn a_shifted_data_file_names_file_and_byte_offset() {
    let d = tempdir();
    let dc = dict_copy(d.path());
    let mut data = b"X".to_vec();
    data.extend(real("data.noun"));
    damage(&dc, "data.noun", &data);
    expect(
        wsd()
            .arg("--wordnet")
            .arg(&dc)
            .args(["synset", "bank%1:17:01::"]),
        2,
        &["data.noun:", "byte offset 9213565"],
    );
}

// ---- 4. Errors that say where -------------------------------------------------

#[test]
fn a_huge_junk_line_is_quoted_short() {
    let d = tempdir();
    let key = d.path().join("junk.key");
    std::fs::write(&key, "x".repeat(1 << 20) + "\n").unwrap();
    let r = expect(wsd().arg("score").arg(&key).arg(&key), 2, &["junk.key:1:"]);
    assert!(r.err.len() < 1000, "{} bytes of stderr", r.err.len());
}

#[test]
fn a_non_utf8_key_file_names_its_line() {
    let d = tempdir();
    let key = d.path().join("bad.key");
    std::fs::write(&key, b"a k%1:00:00::\nb \xff\n").unwrap();
    expect(wsd().arg("score").arg(&key).arg(&key), 2, &["bad.key:2:"]);
}

#[test]
fn os_errors_are_printed_once() {
    let r = expect(
        wsd().args(["score", "/nonexistent/gold.key", "/nonexistent/sys.key"]),
        2,
        &["/nonexistent/gold.key"],
    );
    assert_eq!(r.err.matches("No such file").count(), 1, "{}", r.err);
}

// ---- 6. Evaluation inputs ------------------------------------------------------

#[test]
fn an_empty_xml_is_an_error() {
    let d = tempdir();
    let x = d.path().join("empty.xml");
    std::fs::write(&x, "").unwrap();
    expect(
        wsd()
            .args(["eval", "--method", "mfs", "--xml"])
            .arg(&x)
            .arg("--gold")
            .arg(semeval().join("semeval2007.gold.key.txt")),
        2,
        &["empty.xml:1:"],
    );
}

#[test]
fn a_bom_is_stripped_from_key_files() {
    let d = tempdir();
    let gold = d.path().join("gold.key");
    let text = std::fs::read_to_string(semeval().join("semeval2007.gold.key.txt")).unwrap();
    std::fs::write(&gold, format!("\u{feff}{text}")).unwrap();
    // The system answers the first instance only, without a BOM.
    let sys = d.path().join("sys.key");
    std::fs::write(&sys, text.lines().next().unwrap().to_string() + "\n").unwrap();
    let r = expect(wsd().arg("score").arg(&gold).arg(&sys), 0, &[]);
    let all = r.out.lines().find(|l| l.starts_with("all")).unwrap_or("");
    assert!(all.contains("100.0"), "{}", r.out);
    assert!(!r.out.contains("not in the gold"), "{}", r.out);
}

#[test]
fn a_bom_is_stripped_from_the_xml() {
    let d = tempdir();
    let x = d.path().join("bom.xml");
    let text = std::fs::read_to_string(semeval().join("semeval2007.data.xml")).unwrap();
    std::fs::write(&x, format!("\u{feff}{text}")).unwrap();
    let r = expect(
        wsd()
            .args(["eval", "--method", "mfs", "--format", "json", "--xml"])
            .arg(&x)
            .arg("--gold")
            .arg(semeval().join("semeval2007.gold.key.txt")),
        0,
        &[],
    );
    let v: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    // every instance, the first one included, matched its gold id
    assert_eq!(v["instances"], 455, "{v}");
    assert!((v["f1"].as_f64().unwrap() - 55.2).abs() < 0.05, "{v}");
}

#[test]
fn nul_in_a_gold_key_is_reported_with_its_line() {
    let d = tempdir();
    let gold = d.path().join("gold.key");
    std::fs::write(
        &gold,
        "d000.s000.t000 bank%1:17:01::\nd000.s000.t001 ba\0nk\n",
    )
    .unwrap();
    expect(
        wsd().arg("score").arg(&gold).arg(&gold),
        2,
        &["gold.key:2:"],
    );
}

#[test]
fn a_second_corpus_element_is_refused() {
    let d = tempdir();
    let x = d.path().join("two.xml");
    std::fs::write(
        &x,
        "<corpus lang=\"en\">\n<text id=\"d0\">\n<sentence id=\"d0.s0\">\n<wf lemma=\"a\" pos=\"X\">a</wf>\n</sentence>\n</text>\n</corpus>\n<corpus lang=\"en\">\n</corpus>\n",
    )
    .unwrap();
    expect(
        wsd()
            .args(["eval", "--method", "mfs", "--xml"])
            .arg(&x)
            .arg("--gold")
            .arg(semeval().join("semeval2007.gold.key.txt")),
        2,
        &["two.xml:8:", "second <corpus>"],
    );
}

#[test]
fn an_empty_gold_key_file_is_an_error() {
    let d = tempdir();
    let gold = d.path().join("empty.key");
    std::fs::write(&gold, "\n").unwrap();
    let sys = d.path().join("sys.key");
    std::fs::write(&sys, "").unwrap();
    // an empty system file is a system that answered nothing: fine
    let g = semeval().join("semeval2007.gold.key.txt");
    expect(wsd().arg("score").arg(&g).arg(&sys), 0, &[]);
    expect(
        wsd().arg("score").arg(&gold).arg(&sys),
        2,
        &["empty.key:1:", "no instances"],
    );
    expect(
        wsd()
            .args(["eval", "--method", "mfs", "--xml"])
            .arg(semeval().join("semeval2007.data.xml"))
            .arg("--gold")
            .arg(&gold),
        2,
        &["empty.key:1:", "no instances"],
    );
}

#[test]
fn malformed_gold_keys_are_reported() {
    let d = tempdir();
    let gold = d.path().join("gold.key");
    std::fs::write(
        &gold,
        "d000.s000.t000 notakey\nd000.s000.t001 bank%1:17:01::\n",
    )
    .unwrap();
    let sys = d.path().join("sys.key");
    std::fs::write(
        &sys,
        "d000.s000.t000 bank%1:17:01::\nd000.s000.t001 bank%1:17:01::\n",
    )
    .unwrap();
    let r = expect(wsd().arg("score").arg(&gold).arg(&sys), 0, &[]);
    assert!(
        r.out
            .contains("gold keys failing the check: 1 (e.g. d000.s000.t000 notakey)"),
        "{}",
        r.out
    );
    let r = expect(
        wsd()
            .args(["score", "--format", "json"])
            .arg(&gold)
            .arg(&sys),
        0,
        &[],
    );
    let v: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(v["unknown_gold_keys"]["count"], 1, "{v}");
}

/// Instances without `pos` (and a gold key that gives none) were in no
/// per-POS row: the rows did not add up to `all`.
#[test]
fn per_pos_rows_add_up_to_the_total() {
    let d = tempdir();
    let xml = d.path().join("nopos.xml");
    let tiny = std::fs::read_to_string(root().join("tests/fixtures/tiny.data.xml")).unwrap();
    std::fs::write(
        &xml,
        tiny.replace(" lemma=\"bank\" pos=\"NOUN\"", "")
            .replace("lemma=\"happy\" pos=\"ADJ\"", "lemma=\"happy\""),
    )
    .unwrap();
    let gold = d.path().join("gold.key");
    std::fs::write(
        &gold,
        "d000.s000.t000 refer%2:32:01::\nd000.s000.t001 U\nd000.s001.t000 happy%3:00:00::\nd001.s000.t000 quickly%4:02:00::\n",
    )
    .unwrap();
    let eval = |extra: &[&str]| {
        expect(
            wsd()
                .args(["eval", "--method", "mfs", "--xml"])
                .arg(&xml)
                .arg("--gold")
                .arg(&gold)
                .args(extra),
            0,
            &[],
        )
        .out
    };
    let v: serde_json::Value = serde_json::from_str(&eval(&["--format", "json"])).unwrap();
    let by_pos = v["by_pos"].as_object().unwrap();
    let sum: u64 = by_pos
        .values()
        .map(|s| s["instances"].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 4, "{v}");
    assert_eq!(v["instances"], 4, "{v}");
    assert_eq!(by_pos["?"]["instances"], 1, "{v}");
    let text = eval(&["--per-pos"]);
    // method, header, all; then the POS rows
    let rows: u64 = text
        .lines()
        .skip(3)
        .filter(|l| !l.starts_with("decided") && !l.contains("failing"))
        .map(|l| l.split_whitespace().nth(4).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(rows, 4, "{text}");
}

#[test]
fn duplicate_ids_in_a_key_file_are_reported() {
    let d = tempdir();
    let k = d.path().join("dup.key");
    std::fs::write(&k, "a bank%1:17:01::\na bank%1:17:01::\n").unwrap();
    expect(
        wsd().arg("score").arg(&k).arg(&k),
        2,
        &["dup.key:2:", "duplicate"],
    );
}

#[test]
fn tag_refuses_the_same_file_twice() {
    let d = tempdir();
    let input = text_file(d.path());
    let again = d.path().join(".").join("in.txt");
    expect(
        tag().args(["--format", "key"]).arg(&input).arg(&again),
        2,
        &["given twice"],
    );
}

#[test]
fn score_and_stats_refuse_a_missing_wordnet() {
    let g = semeval().join("semeval2007.gold.key.txt");
    expect(
        wsd()
            .args(["--wordnet", "/nonexistent/dict", "score"])
            .arg(&g)
            .arg(&g),
        2,
        &["/nonexistent/dict"],
    );
    expect(
        wsd().args(["--wordnet", "/nonexistent/dict", "stats"]),
        2,
        &["/nonexistent/dict"],
    );
}

// ---- 7. Faults -----------------------------------------------------------------

#[test]
fn broken_pipe_on_json_output_is_success() {
    let mut child = wsd()
        .args(["info", "--format", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut child = wsd()
        .args(["similarity", "--format", "json", "dog.n.01", "cat.n.01"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn a_closed_stdout_is_not_a_silent_success() {
    let o = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" senses bank >&-")
        .arg(bin())
        .current_dir(root())
        .output()
        .unwrap();
    assert_ne!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stderr).contains("standard output"));
}

/// A SemCor copy with one part, brown1, holding a few real tagfiles.
fn semcor_copy(dir: &Path) -> PathBuf {
    let root = dir.join("semcor");
    let tf = root.join("brown1/tagfiles");
    std::fs::create_dir_all(&tf).unwrap();
    for f in ["br-a01", "br-a02"] {
        std::os::unix::fs::symlink(
            crate::util::semcor().join("brown1/tagfiles").join(f),
            tf.join(f),
        )
        .unwrap();
    }
    root
}

#[test]
fn damaged_semcor_entries_are_reported() {
    type Make = fn(&Path);
    let cases: [(&str, Make, &str); 4] = [
        (
            "dangling",
            |tf| std::os::unix::fs::symlink("/nonexistent/br-zz", tf.join("br-zz")).unwrap(),
            "br-zz",
        ),
        (
            "directory",
            |tf| std::fs::create_dir(tf.join("br-zz")).unwrap(),
            "br-zz",
        ),
        (
            "empty",
            |tf| std::fs::write(tf.join("br-zz"), "").unwrap(),
            "br-zz:1:",
        ),
        (
            "wnsn=abc",
            |tf| {
                std::fs::write(
                    tf.join("br-zz"),
                    "<contextfile concordance=brown>\n<context filename=br-zz paras=yes>\n<p pnum=1>\n<s snum=1>\n<wf cmd=done pos=NN lemma=jury wnsn=abc lexsn=1:14:00::>jury</wf>\n</s>\n</p>\n</context>\n</contextfile>\n",
                )
                .unwrap()
            },
            "br-zz:5:",
        ),
    ];
    for (what, make, want) in cases {
        let d = tempdir();
        let sc = semcor_copy(d.path());
        make(&sc.join("brown1/tagfiles"));
        let r = run(wsd()
            .arg("stats")
            .arg("--semcor")
            .arg(&sc)
            .args(["--split", "all"]));
        assert_eq!(r.code, Some(2), "{what}: {}", r.err);
        assert!(r.err.contains(want), "{what}: {}", r.err);
    }
}

// ---- 8. Messages ---------------------------------------------------------------

#[test]
fn embed_with_a_missing_encoder_advises_the_flag() {
    let r = expect(
        wsd().args(["embed", "--encoder", "/nonexistent/enc", "-"]),
        2,
        &["--encoder"],
    );
    assert!(!r.err.contains("WSD_MODEL_DIR"), "{}", r.err);
}

fn encoder_copy(dir: &Path) -> PathBuf {
    let enc = dir.join("enc");
    std::fs::create_dir(&enc).unwrap();
    for e in std::fs::read_dir(root().join("models/all-MiniLM-L6-v2")).unwrap() {
        let e = e.unwrap();
        if e.file_name() != "model.safetensors" {
            std::os::unix::fs::symlink(e.path(), enc.join(e.file_name())).unwrap();
        }
    }
    enc
}

#[test]
fn safetensors_as_a_directory_is_a_clear_message() {
    let d = tempdir();
    let enc = encoder_copy(d.path());
    std::fs::create_dir(enc.join("model.safetensors")).unwrap();
    expect(
        wsd().arg("embed").arg("--encoder").arg(&enc).arg("-"),
        2,
        &["model.safetensors", "directory"],
    );
}

#[test]
fn nan_encoder_weights_are_refused_at_load() {
    let d = tempdir();
    let enc = encoder_copy(d.path());
    let mut bytes =
        std::fs::read(root().join("models/all-MiniLM-L6-v2/model.safetensors")).unwrap();
    let n = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let header: serde_json::Value = serde_json::from_slice(&bytes[8..8 + n]).unwrap();
    let name = "embeddings.word_embeddings.weight";
    let t = header
        .get(name)
        .or_else(|| header.get(format!("bert.{name}")))
        .expect("word embeddings");
    let start = t["data_offsets"][0].as_u64().unwrap() as usize + 8 + n + 400;
    bytes[start..start + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    std::fs::write(enc.join("model.safetensors"), bytes).unwrap();
    expect(
        wsd().arg("embed").arg("--encoder").arg(&enc).arg("-"),
        2,
        &["model.safetensors", "not a finite number"],
    );
}

#[test]
fn embed_invalid_utf8_gives_a_byte_offset() {
    let d = tempdir();
    let f = d.path().join("bad.txt");
    std::fs::write(&f, b"good words \xff bad").unwrap();
    expect(wsd().arg("embed").arg(&f), 2, &["byte offset 11"]);
}

#[test]
fn tag_exits_2_when_nothing_was_tagged() {
    expect(tag().arg("/nonexistent/missing.txt"), 2, &["missing.txt"]);
}

#[test]
fn similarity_prints_no_negative_zero_and_1e300_short() {
    let r = expect(
        wsd().args([
            "similarity",
            "--measure",
            "res",
            "entity.n.01",
            "entity.n.01",
        ]),
        0,
        &[],
    );
    assert!(!r.out.contains("-0"), "{}", r.out);
    let r = expect(
        wsd().args(["similarity", "--measure", "jcn", "dog.n.01", "dog.n.01"]),
        0,
        &[],
    );
    assert_eq!(r.out.trim_end(), "1e300", "{}", r.out);
}

#[test]
fn a_trailing_comma_in_method_is_refused() {
    expect(eval_semeval().args(["--method", "mfs,"]), 2, &["mfs,"]);
}
