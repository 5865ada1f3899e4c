//! Property tests (proptest): every parser a user's file reaches never
//! panics on arbitrary input — it returns a value or an error. Inputs are
//! arbitrary strings and bytes, and real lines with random damage (a
//! character replaced, a cut, a field duplicated), which reach deeper than
//! pure noise.

use std::path::Path;

use proptest::prelude::*;

use wsd::corpus::{parse_keys, parse_xml, semcor::parse_semcor};
use wsd::disambig::naive_bayes::NbParams;
use wsd::wordnet::record::{parse_data_line, parse_index_line, parse_sense_index_line};
use wsd::wordnet::Pos;

use crate::util::{dict, inventory, tempdir};

const DATA_LINE: &str = "02084071 05 n 03 dog 0 domestic_dog 0 Canis_familiaris 0 023 @ 02083346 n 0000 @ 01317541 n 0000 #m 02083863 n 0000 | a member of the genus Canis";
const INDEX_LINE: &str = "bank n 10 3 @ ~ + 10 9 09213565 08420278 09213434 13368318 02787772 13356402 09213828 04139859 00169305 02787622";
const SENSE_LINE: &str = "bank%1:17:01:: 09213565 1 25";
const XML: &str = "<?xml version=\"1.0\"?>\n<corpus lang=\"en\">\n<text id=\"d0\">\n<sentence id=\"d0.s0\">\n<wf lemma=\"the\" pos=\"DET\">The</wf>\n<instance id=\"d0.s0.t0\" lemma=\"bank\" pos=\"NOUN\">bank</instance>\n</sentence>\n</text>\n</corpus>\n";
const SEMCOR: &str = "<contextfile concordance=brown>\n<context filename=br-zz paras=yes>\n<p pnum=1>\n<s snum=1>\n<wf cmd=done pos=NN lemma=jury wnsn=1 lexsn=1:14:00::>jury</wf>\n<punc>.</punc>\n</s>\n</p>\n</context>\n</contextfile>\n";

/// `PROPTEST_CASES` when set (longer runs), else `n`.
fn cases(n: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(n)
}

/// `base` with random damage: replace, delete or insert at char positions.
fn damaged(base: &'static str) -> impl Strategy<Value = String> {
    let n = base.chars().count();
    prop::collection::vec((0..n.max(1), 0u8..4, any::<char>()), 0..6).prop_map(move |edits| {
        let mut v: Vec<char> = base.chars().collect();
        for (at, op, c) in edits {
            let at = at.min(v.len());
            match op {
                0 if at < v.len() => v[at] = c,
                1 if at < v.len() => {
                    v.remove(at);
                }
                2 => v.insert(at, c),
                _ => v.truncate(at),
            }
        }
        v.into_iter().collect()
    })
}

fn text_or_damaged(base: &'static str) -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), damaged(base), "[ -~\n]{0,200}"]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(256), ..ProptestConfig::default() })]

    #[test]
    fn dict_lines_never_panic(s in text_or_damaged(DATA_LINE)) {
        for pos in Pos::ALL {
            let _ = parse_data_line(&s, pos, Path::new("data.x"), 1);
        }
    }

    #[test]
    fn index_lines_never_panic(s in text_or_damaged(INDEX_LINE)) {
        let _ = parse_index_line(&s, Path::new("index.x"), 1);
    }

    #[test]
    fn sense_index_lines_never_panic(s in text_or_damaged(SENSE_LINE)) {
        let _ = parse_sense_index_line(&s, Path::new("index.sense"), 1);
    }

    #[test]
    fn framework_xml_never_panics(s in text_or_damaged(XML)) {
        let _ = parse_xml(&s, "x.xml");
    }

    #[test]
    fn key_files_never_panic(s in text_or_damaged("d0.s0.t0 bank%1:17:01::\nd0.s0.t1 bank%1:14:00:: bank%1:14:01::\n")) {
        let _ = parse_keys(&s, "x.key");
    }

    #[test]
    fn semcor_tagfiles_never_panic(s in text_or_damaged(SEMCOR)) {
        let _ = parse_semcor(&s, "br-zz", "brown1/br-zz", "br-zz");
    }

    #[test]
    fn nb_params_never_panic(s in text_or_damaged(r#"{"alpha": 1.0, "window": 5, "weights": {"pos": 0.5}}"#)) {
        if let Ok(p) = NbParams::from_json(&s) {
            prop_assert!(p.alpha > 0.0 && p.alpha.is_finite());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(48), ..ProptestConfig::default() })]

    /// Model files: header and body, via the file readers.
    #[test]
    fn model_files_never_panic(bytes in prop_oneof![
        prop::collection::vec(any::<u8>(), 0..300),
        damaged("WSDMODEL\u{1}\u{0}\u{0}\u{0}{\"method\":\"nb\",\"format_version\":1}").prop_map(String::into_bytes),
    ]) {
        let d = tempdir();
        let p = d.path().join("m.wsd");
        std::fs::write(&p, &bytes).unwrap();
        let _ = wsd::model_io::read_header(&p);
        let _ = wsd::model_io::read_model(&p, "nb", None);
        let _ = wsd::disambig::naive_bayes::NaiveBayes::load(&p, inventory());
        let _ = wsd::disambig::knn::KnnModel::load(&p, inventory());
    }

    /// IC tables.
    #[test]
    fn ic_tables_never_panic(s in text_or_damaged("wsd-ic 1 smoothing=1 occurrences=5 unknown=0\nROOT-n 10\nROOT-v 10\nROOT-a 10\nROOT-r 10\n02084071-n 3\n")) {
        let d = tempdir();
        let p = d.path().join("ic.txt");
        std::fs::write(&p, &s).unwrap();
        if let Ok(ic) = wsd::wordnet::similarity::Ic::read(inventory(), &p) {
            for pos in Pos::ALL {
                prop_assert!(ic.total(pos) > 0.0 && ic.total(pos).is_finite());
            }
        }
    }

    /// Exception lists (and index files) through the binary-search lookups.
    #[test]
    fn exception_lists_never_panic(s in text_or_damaged("geese goose\nmice mouse\noxen ox\n"), word in "[a-z]{1,6}") {
        let d = tempdir();
        let dc = d.path().join("dict");
        std::fs::create_dir(&dc).unwrap();
        for e in std::fs::read_dir(dict()).unwrap() {
            let e = e.unwrap();
            if e.file_name() != "noun.exc" {
                std::os::unix::fs::symlink(e.path().canonicalize().unwrap(), dc.join(e.file_name())).unwrap();
            }
        }
        std::fs::write(dc.join("noun.exc"), &s).unwrap();
        let lookup = wsd::wordnet::Lookup::open(Some(&dc)).unwrap();
        let _ = wsd::wordnet::morphy::morphy(&lookup, &word, Pos::Noun);
        let _ = wsd::wordnet::morphy::morphy(&lookup, "geese", Pos::Noun);
    }
}
