//! Every console example of the README is a real run (issue 12): each
//! `$ wsd …` command of a ```` ```console ```` block is run, in README
//! order, through `sh -c` (so `| head -3` works), with this build's `wsd`
//! first on `PATH`, and its standard output is compared with the lines
//! shown under it. The runs share one fresh data home (`$WSD_HOME`, with
//! the repository's WordNet, corpora and POS model linked in) and a
//! working folder where `corpora/` is the repository's, so the
//! walk-through's `wsd train` writes its model to that data home, never
//! to the checkout.
//!
//! Lines are compared as whitespace-separated fields, so the README can
//! align TSV columns with spaces. Elisions are marked with `…`: a line
//! that is only `…` stands for any number of lines (none included), and a
//! field `…` ends the line (the rest of the actual line is not compared).
//! A command containing `…` is a sketch, not an example, and is not run.
//! Examples that need a trained kNN model (`knn` in the command) are
//! skipped with a note on stderr: training one takes about 20 minutes.
//! Commands that do not run `wsd` (first, or after a `|`) are not run
//! (`cargo`, `spark-submit`, `hadoop`).

use crate::util::*;

/// One example: the command (continuation lines joined) and the lines shown.
#[derive(Debug)]
struct Example {
    line: usize,
    command: String,
    expected: Vec<String>,
}

fn examples(readme: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut in_console = false;
    let mut current: Option<Example> = None;
    let mut continuing = false;
    for (n, line) in readme.lines().enumerate() {
        if line.starts_with("```") {
            if in_console {
                out.extend(current.take());
            }
            in_console = line.trim() == "```console";
            continuing = false;
            continue;
        }
        if !in_console {
            continue;
        }
        if continuing {
            let c = current.as_mut().unwrap();
            let l = line.trim();
            continuing = l.ends_with('\\');
            c.command.push(' ');
            c.command.push_str(l.trim_end_matches('\\').trim());
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ ") {
            out.extend(current.take());
            continuing = cmd.trim_end().ends_with('\\');
            current = Some(Example {
                line: n + 1,
                command: cmd.trim_end().trim_end_matches('\\').trim().to_string(),
                expected: Vec::new(),
            });
        } else if let Some(c) = current.as_mut() {
            if !line.starts_with('#') {
                c.expected.push(line.to_string());
            }
        }
    }
    out.extend(current);
    out
}

/// Does `actual` match `expected` under the elision rules above?
fn matches(expected: &[String], actual: &[&str]) -> bool {
    let Some((first, rest)) = expected.split_first() else {
        return actual.is_empty();
    };
    if first.trim() == "…" {
        return (0..=actual.len()).any(|k| matches(rest, &actual[k..]));
    }
    let Some((a, arest)) = actual.split_first() else {
        return false;
    };
    line_matches(first, a) && matches(rest, arest)
}

fn line_matches(expected: &str, actual: &str) -> bool {
    let mut act = actual.split_whitespace();
    for e in expected.split_whitespace() {
        if e == "…" {
            return true;
        }
        if act.next() != Some(e) {
            return false;
        }
    }
    act.next().is_none()
}

#[test]
fn elision_rules() {
    let exp = |s: &str| s.lines().map(String::from).collect::<Vec<_>>();
    assert!(matches(&exp("a  b\n…\nz"), &["a\tb", "x", "y", "z"]));
    assert!(matches(&exp("a b …"), &["a b c d"]));
    assert!(!matches(&exp("a b"), &["a b c"]));
    assert!(!matches(&exp("a\nb"), &["a"]));
    assert!(matches(&exp("…"), &[]));
}

/// `$PATH` with this build's `wsd` first.
fn path_with_this_wsd() -> String {
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_wsd"))
        .parent()
        .unwrap()
        .to_path_buf();
    format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

#[test]
fn every_console_example_of_the_readme_is_a_real_run() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let path = path_with_this_wsd();
    let tmp = tempdir();
    let home = tmp.path().join("home");
    let work = tmp.path().join("work");
    std::fs::create_dir_all(home.join("models")).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    let link = |from: std::path::PathBuf, to: std::path::PathBuf| {
        std::os::unix::fs::symlink(from.canonicalize().unwrap(), to).unwrap()
    };
    link(root().join("wordnet"), home.join("wordnet"));
    link(root().join("corpora"), home.join("corpora"));
    link(pos_model(), home.join("models/pos.wsd"));
    link(root().join("corpora"), work.join("corpora"));
    let mut ran = 0;
    let mut failures = Vec::new();
    for ex in examples(&readme) {
        if !(ex.command.starts_with("wsd ") || ex.command.contains("| wsd ")) {
            continue;
        }
        if ex.command.contains('…') {
            eprintln!(
                "README.md:{}: a sketch (…), not run: {}",
                ex.line, ex.command
            );
            continue;
        }
        if ex.command.contains("knn") {
            eprintln!(
                "README.md:{}: skipped, needs a trained kNN model: {}",
                ex.line, ex.command
            );
            continue;
        }
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(&ex.command)
            .current_dir(&work)
            .env("PATH", &path)
            .env("WSD_HOME", &home)
            .env_remove("WNSEARCHDIR")
            .output()
            .unwrap();
        ran += 1;
        let so = String::from_utf8_lossy(&out.stdout);
        let actual: Vec<&str> = so.lines().collect();
        if !out.status.success() || !matches(&ex.expected, &actual) {
            failures.push(format!(
                "README.md:{}: $ {}\n--- shown:\n{}\n--- got ({}):\n{}\n--- stderr:\n{}",
                ex.line,
                ex.command,
                ex.expected.join("\n"),
                out.status,
                so,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    eprintln!("README.md: {ran} console examples run");
    assert!(ran >= 8, "only {ran} examples ran");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The README's Python snippet under `--line-buffered` (a process that
/// answers record by record) runs, against this build's `wsd`, and prints
/// what the README says it prints.
#[test]
fn the_readmes_line_buffered_python_worker_runs() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut lines = readme
        .lines()
        .skip_while(|l| !l.starts_with("* `--line-buffered`"))
        .skip_while(|l| l.trim() != "```python")
        .skip(1);
    let snippet: Vec<&str> = lines
        .by_ref()
        .take_while(|l| l.trim() != "```")
        .map(|l| l.strip_prefix("  ").unwrap_or(l))
        .collect();
    assert!(snippet.len() > 5, "no python block under --line-buffered");
    let path = path_with_this_wsd();
    let home = tempdir();
    std::fs::create_dir_all(home.path().join("models")).unwrap();
    std::os::unix::fs::symlink(
        root().join("wordnet").canonicalize().unwrap(),
        home.path().join("wordnet"),
    )
    .unwrap();
    std::os::unix::fs::symlink(pos_model(), home.path().join("models/pos.wsd")).unwrap();
    let out = match std::process::Command::new("python3")
        .arg("-c")
        .arg(snippet.join("\n"))
        .current_dir(home.path())
        .env("PATH", &path)
        .env("WSD_HOME", home.path())
        .env_remove("WNSEARCHDIR")
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            eprintln!("python3 not found ({e}): the README's worker snippet is not run");
            return;
        }
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "sat sit%2:35:00::\nriver river%1:17:00::\nbank bank%1:17:01::\n"
    );
}
