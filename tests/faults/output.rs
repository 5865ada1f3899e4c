//! `--output` semantics: devices, FIFOs, symlinks, permissions, refusing to
//! overwrite an input, temp files swept, signals during writes, a full disk.

use super::*;

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

#[test]
fn output_to_dev_stdout_on_a_pipe_is_written_through() {
    // /dev/stdout → /proc/self/fd/1 → `pipe:[…]`: a link no path can
    // follow, which was taken for a file to create (exit 2).
    let d = tempdir();
    let input = text_file(d.path());
    let r = expect(
        tag()
            .args(["--method", "mfs", "--format", "key", "-o", "/dev/stdout"])
            .arg(&input),
        0,
        &[],
    );
    assert!(r.out.contains("bank%1:17:01::"), "{}", r.out);
}

#[test]
fn tag_refuses_to_overwrite_its_standard_input() {
    let d = tempdir();
    let input = text_file(d.path());
    let before = std::fs::read(&input).unwrap();
    let o = tag()
        .arg("-o")
        .arg(&input)
        .stdin(std::fs::File::open(&input).unwrap())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("standard input"), "{err}");
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

#[test]
fn output_into_a_missing_folder_is_an_error_that_creates_nothing() {
    let d = tempdir();
    let input = text_file(d.path());
    let out = d.path().join("typo/sub/out.tsv");
    let r = expect(
        tag().arg("-o").arg(&out).arg(&input),
        2,
        &["cannot write", "typo/sub/out.tsv", "does not exist"],
    );
    assert!(
        !r.err.contains(".wsd-"),
        "a temporary file named: {}",
        r.err
    );
    assert!(!d.path().join("typo").exists(), "the folder was created");
    // wsd's own default paths still get their folder: `wsd ic` with no
    // --output writes under ./models, created when missing
    let mut ic = wsd();
    ic.current_dir(d.path())
        .env("WSD_HOME", d.path().join("home"))
        .args(["--wordnet"])
        .arg(dict())
        .arg("ic")
        .arg("--semcor")
        .arg(crate::util::semcor());
    expect(&mut ic, 0, &[]);
    assert!(d.path().join("home/models/ic-semcor.txt").is_file());
}

#[test]
fn two_outputs_of_one_eval_may_not_be_one_file() {
    let d = tempdir();
    let out = d.path().join("out.tsv");
    expect(
        eval_semeval()
            .args(["--method", "mfs", "--output"])
            .arg(&out)
            .arg("--errors")
            .arg(d.path().join(".").join("out.tsv")),
        2,
        &["--errors", "is also the file of --output"],
    );
    assert!(!out.exists());
}

#[test]
fn train_writes_to_the_working_directorys_models_and_says_which_is_read() {
    // a checkout (./models) beside a data home that has an nb model
    let d = tempdir();
    std::fs::create_dir(d.path().join("models")).unwrap();
    let home = d.path().join("home");
    std::fs::create_dir_all(home.join("models")).unwrap();
    let train = |cwd: &Path| {
        let mut c = wsd();
        c.current_dir(cwd)
            .env("WSD_HOME", &home)
            .env_remove("XDG_DATA_HOME")
            .arg("--wordnet")
            .arg(dict())
            .args(["train", "--method", "nb", "--limit-docs", "1", "--semcor"])
            .arg(crate::util::semcor());
        c
    };
    // no ./models: the data home's
    let elsewhere = d.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    expect(&mut train(&elsewhere), 0, &[]);
    assert!(home.join("models/nb.wsd").is_file());
    let before = std::fs::read(home.join("models/nb.wsd")).unwrap();
    // ./models: written there, the data home's model untouched (the note
    // that reads still take the data home's first is hidden by -q)
    expect(&mut train(d.path()), 0, &[]);
    assert!(d.path().join("models/nb.wsd").is_file());
    assert_eq!(std::fs::read(home.join("models/nb.wsd")).unwrap(), before);
}

#[test]
fn training_on_keys_wordnet_lacks_says_how_many_were_skipped() {
    let d = tempdir();
    let gold = d.path().join("bad.key");
    let fixture = root().join("tests/fixtures");
    let text = std::fs::read_to_string(fixture.join("tiny.gold.key.txt")).unwrap();
    std::fs::write(&gold, text.replace("bank%1:17:01::", "bank%1:99:01::")).unwrap();
    expect(
        wsd()
            .args(["train", "--method", "nb", "--xml"])
            .arg(fixture.join("tiny.data.xml"))
            .arg("--gold")
            .arg(&gold)
            .arg("--output")
            .arg(d.path().join("nb.wsd")),
        0,
        &["1 of 5 gold keys are not in this WordNet", "bank%1:99:01::"],
    );
}
