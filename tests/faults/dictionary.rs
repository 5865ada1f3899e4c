//! A damaged dictionary: shuffled or empty indexes, cycles, dangling
//! pointers, truncated and shifted data files.

use super::*;

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

/// Debian's wordnet-base has no index.sense: say which package has it,
/// not just "cannot read".
#[test]
fn a_dict_folder_without_index_sense_names_the_package() {
    let d = tempdir();
    let dc = dict_copy(d.path());
    std::fs::remove_file(dc.join("index.sense")).unwrap();
    expect(
        wsd().arg("--wordnet").arg(&dc).args(["senses", "bank"]),
        2,
        &["index.sense", "wordnet-sense-index", "scripts/install.sh"],
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

/// A NUL byte inside a lemma passed every check of `wsd info` and came
/// out in `wsd senses` as "en ity": now it is an error naming file and line.
#[test]
fn a_nul_byte_in_a_lemma_is_an_error_naming_file_and_line() {
    let d = tempdir();
    let dc = dict_copy(d.path());
    // entity.n.01 (00001740), line 30 of data.noun
    edit_data_noun(&dc, "00001740 ", |l| l.replacen(" entity ", " en\0ity ", 1));
    let dc_s = dc.display().to_string();
    let line = format!("{dc_s}/data.noun:30");
    for args in [
        &["info"][..],
        &["senses", "entity"],
        &["synset", "entity%1:03:00::"],
    ] {
        expect(
            wsd().arg("--wordnet").arg(&dc).args(args),
            2,
            &[&line, "control character U+0000 in the lemma \"en\\0ity\""],
        );
    }
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
