//! Closed and broken output pipes, a damaged SemCor copy, a missing or
//! damaged encoder, invalid UTF-8 on `wsd embed`.

use super::*;

// ---- 7. Faults -----------------------------------------------------------------

/// Run `wsd ARGS` with its stdout closed before it writes; its exit code
/// and stderr.
fn with_stdout_closed(args: &[&str]) -> (Option<i32>, String) {
    let mut child = wsd()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn broken_pipe_on_json_output_is_success() {
    for args in [
        &["info", "--format", "json"][..],
        &["similarity", "--format", "json", "dog.n.01", "cat.n.01"],
    ] {
        let (code, err) = with_stdout_closed(args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
    }
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
pub(super) fn semcor_copy(dir: &Path) -> PathBuf {
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

#[test]
fn broken_pipe_on_tsv_output_is_success() {
    // `wsd errors … | head -1`: the TSV goes through the csv crate, whose
    // error wraps the broken pipe
    let mut args = vec!["errors", "--method", "mfs"];
    let sem = crate::util::semeval_args();
    args.extend(sem.iter().map(String::as_str));
    let (code, err) = with_stdout_closed(&args);
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("Broken pipe"), "{err}");
}
