//! Hostile inputs of the third audit: model paths that are FIFOs or
//! devices, endless inputs (`/dev/zero`) where a key file, data XML or IC
//! table goes, an instance with an empty id, a gold key that holds ids the
//! data XML lacks, WordNet files with CR line ends, and index entries that
//! point at no synset, binary and UTF-16 SemCor tagfiles.

use super::*;

/// Run `cmd` with a deadline: a hang is a failure, not a stuck test run.
/// The child gets at most `mem_kb` of address space (`ulimit -v`), so an
/// input read without end fails the test instead of the machine.
fn run_within(cmd: &Command, secs: u64, mem_kb: u64) -> Run {
    let mut sh = Command::new("sh");
    sh.arg("-c")
        .arg(format!("ulimit -v {mem_kb}; exec \"$0\" \"$@\""))
        .arg(cmd.get_program())
        .args(cmd.get_args())
        .current_dir(root())
        .env_remove("WNSEARCHDIR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = sh.spawn().expect("run wsd");
    let t0 = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > Duration::from_secs(secs) {
            child.kill().unwrap();
            let o = child.wait_with_output().unwrap();
            panic!(
                "no exit within {secs} s: {:?}\nstderr:\n{}",
                cmd.get_args().collect::<Vec<_>>(),
                String::from_utf8_lossy(&o.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let o = child.wait_with_output().unwrap();
    let r = Run {
        code: o.status.code(),
        out: String::from_utf8_lossy(&o.stdout).into_owned(),
        err: String::from_utf8_lossy(&o.stderr).into_owned(),
    };
    assert!(!r.err.contains("panicked"), "wsd panicked:\n{}", r.err);
    r
}

fn expect_within(cmd: &Command, code: i32, needles: &[&str]) -> Run {
    // 3 GB: the models and the inventory fit; an endless read does not.
    let r = run_within(cmd, 60, 3_000_000);
    assert_eq!(r.code, Some(code), "exit code\nstderr:\n{}", r.err);
    for n in needles {
        assert!(r.err.contains(n), "stderr lacks {n:?}:\n{}", r.err);
    }
    r
}

#[test]
fn a_fifo_or_device_as_a_model_is_refused_not_waited_on() {
    let d = tempdir();
    let input = text_file(d.path());
    let fifo = d.path().join("model.fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    // Opening a FIFO with no writer blocked for ever.
    let mut c = tag();
    c.args(["--method", "nb", "--model"]).arg(&fifo).arg(&input);
    expect_within(&c, 2, &["model.fifo", "not a regular file"]);
    let mut c = wsd();
    c.args(["tag", "--method", "mfs", "--pos-model"])
        .arg(&fifo)
        .arg(&input);
    expect_within(&c, 2, &["model.fifo", "not a regular file"]);
    let mut c = tag();
    c.args(["--method", "nb", "--model", "/dev/zero"])
        .arg(&input);
    expect_within(&c, 2, &["/dev/zero", "not a regular file"]);
}

#[test]
fn endless_inputs_are_refused_without_reading_them_whole() {
    let gold = semeval().join("semeval2007.gold.key.txt");
    let xml = semeval().join("semeval2007.data.xml");
    let d = tempdir();
    let input = text_file(d.path());
    // Each read /dev/zero into memory until the allocator failed (an
    // "out of memory" error, or an abort for --ic).
    let mut c = wsd();
    c.arg("score").arg("/dev/zero").arg(&gold);
    expect_within(&c, 2, &["/dev/zero:1:"]);
    let mut c = wsd();
    c.arg("score").arg(&gold).arg("/dev/zero");
    expect_within(&c, 2, &["/dev/zero:1:"]);
    let mut c = wsd();
    c.args(["eval", "--method", "mfs", "--xml", "/dev/zero", "--gold"])
        .arg(&gold);
    expect_within(&c, 2, &["/dev/zero:1:", "binary file (NUL byte"]);
    let mut c = wsd();
    c.args(["eval", "--method", "mfs", "--xml"])
        .arg(&xml)
        .args(["--gold", "/dev/zero"]);
    expect_within(&c, 2, &["/dev/zero:1:"]);
    let mut c = tag();
    c.args(["--method", "sim-res", "--ic", "/dev/zero"])
        .arg(&input);
    expect_within(&c, 2, &["/dev/zero:1:", "not a wsd IC table"]);
    // Standard input: `wsd score GOLD - < /dev/zero`.
    let o = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 3000000; exec timeout 60 \"$0\" -q score \"$1\" - < /dev/zero")
        .arg(bin())
        .arg(&gold)
        .current_dir(root())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("<stdin>:1:"), "{err}");
}

const XML_HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n<corpus lang=\"en\" source=\"t\">\n<text id=\"d000\">\n<sentence id=\"d000.s000\">\n<wf lemma=\"the\" pos=\"DET\">The</wf>\n";
const XML_TAIL: &str = "</sentence>\n</text>\n</corpus>\n";
const GOLD: &str = "d000.s000.t000 bank%1:14:00::\nd000.s000.t001 raise%2:30:00::\n";

/// An XML data set with the bank/raise instances, `edit`ed, and its gold
/// key file.
fn data_set(dir: &Path, edit: impl Fn(&str) -> String, gold: &str) -> (PathBuf, PathBuf) {
    let body = "<instance id=\"d000.s000.t000\" lemma=\"bank\" pos=\"NOUN\">bank</instance>\n<instance id=\"d000.s000.t001\" lemma=\"raise\" pos=\"VERB\">raised</instance>\n";
    let xml = dir.join("t.data.xml");
    let key = dir.join("t.gold.key.txt");
    std::fs::write(&xml, format!("{XML_HEAD}{}{XML_TAIL}", edit(body))).unwrap();
    std::fs::write(&key, gold).unwrap();
    (xml, key)
}

fn eval_mfs(xml: &Path, gold: &Path) -> Command {
    let mut c = wsd();
    c.args(["eval", "--method", "mfs", "--xml"])
        .arg(xml)
        .arg("--gold")
        .arg(gold);
    c
}

#[test]
fn an_instance_with_an_empty_id_is_an_instance_without_id() {
    // Was: taken, scored as unanswered ("system ids not in the gold: 1
    // (e.g. )"), exit 0.
    for id in ["", " "] {
        let d = tempdir();
        let (xml, gold) = data_set(d.path(), |b| b.replace("d000.s000.t001", id), GOLD);
        expect(
            &mut eval_mfs(&xml, &gold),
            2,
            &["t.data.xml:7:", "<instance> without id"],
        );
    }
}

#[test]
fn gold_ids_that_are_no_instance_of_the_xml_are_warned_about() {
    let d = tempdir();
    let (xml, gold) = data_set(
        d.path(),
        str::to_string,
        &format!("{GOLD}d999.s000.t000 bank%1:14:00::\n"),
    );
    // Was: scored as one more unanswered instance, silently.
    let r = expect(
        &mut eval_mfs(&xml, &gold),
        0,
        &["warning", "t.gold.key.txt", "d999.s000.t000", "t.data.xml"],
    );
    assert!(r.out.contains("         3 "), "{}", r.out);
    // The matching key file: no warning.
    let (xml, gold) = data_set(d.path(), str::to_string, GOLD);
    let r = expect(&mut eval_mfs(&xml, &gold), 0, &[]);
    assert!(!r.err.contains("warning"), "{}", r.err);
}

#[test]
fn wordnet_files_with_cr_line_ends_are_named_as_such() {
    for (name, convert) in [
        (
            "index.noun",
            (|b: &[u8]| b.replace("\n", "\r\n")) as fn(&[u8]) -> Vec<u8>,
        ),
        ("index.noun", |b: &[u8]| b.replace("\n", "\r")),
        ("index.sense", |b: &[u8]| b.replace("\n", "\r\n")),
    ] {
        let d = tempdir();
        let dc = dict_copy(d.path());
        damage(&dc, name, &convert(&real(name)));
        // CR-only index.noun was one licence line: `info` passed with no
        // noun lemmas, `senses bank` listed no noun senses; CRLF gave
        // "byte offset … is not the start of record …".
        for args in [&["senses", "bank"][..], &["info"]] {
            expect(
                wsd().arg("--wordnet").arg(&dc).args(args),
                2,
                &[&format!("{name}:1:"), "CR line ends"],
            );
        }
    }
}

#[test]
fn index_entries_that_point_at_no_synset_name_their_file() {
    // index.sense: bank%1:14:00:: → 00000001, no record start.
    let d = tempdir();
    let dc = dict_copy(d.path());
    let sense = String::from_utf8(real("index.sense")).unwrap();
    let line = 1 + sense
        .lines()
        .position(|l| l.starts_with("bank%1:14:00:: "))
        .unwrap();
    damage(
        &dc,
        "index.sense",
        sense
            .replacen("bank%1:14:00:: 08420278", "bank%1:14:00:: 00000001", 1)
            .as_bytes(),
    );
    // Was: `info` passed ("checks: passed"), `tag` ran.
    expect(
        wsd().arg("--wordnet").arg(&dc).arg("info"),
        2,
        &[
            &format!("index.sense:{line}:"),
            "bank%1:14:00::",
            "00000001",
        ],
    );
    // index.noun: bank's first synset past the end of data.noun.
    let d = tempdir();
    let dc = dict_copy(d.path());
    let index = String::from_utf8(real("index.noun")).unwrap();
    damage(
        &dc,
        "index.noun",
        index
            .replacen(" 09213565 08420278", " 99999999 08420278", 1)
            .as_bytes(),
    );
    // Was: `WordNet has no synset "99999999-n"`, no file named.
    expect(
        wsd().arg("--wordnet").arg(&dc).args(["senses", "bank"]),
        2,
        &["data.noun:", "past the end"],
    );
    // A typed offset past the end is still no synset.
    expect(wsd().args(["synset", "99999999-n"]), 2, &["no synset"]);
}

#[test]
fn binary_and_utf16_tagfiles_are_named_as_such() {
    let tagfile = "<contextfile concordance=brown>\n<context filename=br-zz paras=yes>\n<p pnum=1>\n<s snum=1>\n<wf cmd=done pos=NN lemma=jury wnsn=1 lexsn=1:14:00::>jury</wf>\n</s>\n</p>\n</context>\n</contextfile>\n";
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(tagfile.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let mut binary = tagfile.as_bytes()[..60].to_vec();
    binary.extend([0u8, 0x89, b'P', b'N', b'G', 0, 0, 0xff]);
    // Were read as Latin-1: `expected an element, found "ÿþ<\0c\0o…"`,
    // or the binary bytes quoted.
    for (bytes, want) in [(utf16, "br-zz:1: UTF-16"), (binary, "br-zz:2: binary file")] {
        let d = tempdir();
        let sc = super::pipes_and_models::semcor_copy(d.path());
        std::fs::write(sc.join("brown1/tagfiles/br-zz"), bytes).unwrap();
        expect(
            wsd()
                .arg("stats")
                .arg("--semcor")
                .arg(&sc)
                .args(["--split", "all"]),
            2,
            &[want],
        );
    }
}

trait Replace {
    fn replace(&self, from: &str, to: &str) -> Vec<u8>;
}

impl Replace for [u8] {
    fn replace(&self, from: &str, to: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len() + self.len() / 16);
        let from = from.as_bytes();
        let mut i = 0;
        while i < self.len() {
            if self[i..].starts_with(from) {
                out.extend_from_slice(to.as_bytes());
                i += from.len();
            } else {
                out.push(self[i]);
                i += 1;
            }
        }
        out
    }
}
