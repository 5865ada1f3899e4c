//! Unbounded resources and odd options: thread counts, knn and nb
//! parameters, `--limit-docs`, damaged IC tables.

use super::*;

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
/// the model's header records the documents it was trained on. Training
/// says how far it got, a line per pass (it printed nothing for ~45 s on
/// all of SemCor); `-q` keeps stderr empty.
#[test]
fn limit_docs_limits_pos_training() {
    let d = tempdir();
    let out = d.path().join("pos.wsd");
    // without the -q of wsd()
    let mut loud = Command::new(bin());
    loud.current_dir(root()).env_remove("WNSEARCHDIR");
    let r = expect(
        loud.args(["train", "--method", "pos", "--limit-docs", "1", "-o"])
            .arg(&out),
        0,
        &["wsd: training the POS tagger (averaged perceptron, 10 passes)\n"],
    );
    for k in 1..=10 {
        let line = format!("wsd: POS tagger: pass {k} of 10: ");
        assert_eq!(r.err.matches(&line).count(), 1, "{line}\n{}", r.err);
    }
    assert!(
        r.err.contains("% of ") && r.err.contains(" training words mistagged, "),
        "{}",
        r.err
    );
    let quiet = expect(
        wsd()
            .args(["train", "--method", "pos", "--limit-docs", "1", "-o"])
            .arg(&out),
        0,
        &[],
    );
    assert!(quiet.err.is_empty(), "{}", quiet.err);
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
