//! SemCor 3.0 tagfiles.
//!
//! SemCor is the Brown-corpus subset hand-tagged with WordNet senses (mapped
//! to WordNet 3.0 by Rada Mihalcea). It comes in three parts, each a folder
//! of tagfiles: `brown1/tagfiles/br-*` and `brown2/tagfiles/br-*` (all open
//! class words tagged) and `brownv/tagfiles/br-*` (verbs only). A tagfile is
//! SGML-ish, one element per line, with unquoted attribute values:
//!
//! ```text
//! <contextfile concordance=brown>
//! <context filename=br-a01 paras=yes>
//! <p pnum=1>
//! <s snum=1>
//! <wf cmd=ignore pos=DT>The</wf>
//! <wf cmd=done rdf=group pos=NNP lemma=group wnsn=1 lexsn=1:03:00:: pn=group>Fulton_County_Grand_Jury</wf>
//! <wf cmd=done pos=VB lemma=take_place wnsn=1 lexsn=2:30:00::>took_place</wf>
//! <punc>.</punc>
//! </s>
//! </p>
//! </context>
//! </contextfile>
//! ```
//!
//! How a `wf` becomes a [`Token`](crate::corpus::Token):
//!
//! * `text` is the surface form (multiwords are joined with `_` in the file
//!   and kept that way), `tag` the Penn tag of `pos=`, `pos` its WordNet
//!   category ([`Pos::from_tag`](crate::wordnet::Pos::from_tag)), `lemma` the `lemma=` attribute.
//! * `gold` holds one sense key `lemma%lexsn` per `;`-separated sense, with
//!   the lemma lower-cased, **except** senses whose `wnsn` is `0`: those are
//!   senses lost in the 1.6→3.0 mapping, and their `lexsn` is not a WordNet
//!   3.0 key (checked on the real data: none of the 8,148 is). A token whose
//!   every sense has `wnsn=0`, or which has no `lexsn`, is untagged.
//! * The head word of an adjective-satellite `lexsn` sometimes carries the
//!   syntactic marker of the head adjective (`5:00:00:preceding(a):00`);
//!   WordNet's keys do not (`previous%5:00:00:preceding:00`), so the marker
//!   (`(a)`, `(p)`, `(ip)`) is removed. With that, every key with `wnsn≠0`
//!   in SemCor 3.0 is a WordNet 3.0 sense key.
//! * A token with at least one gold key gets the instance id
//!   `FILE.sSNUM.tINDEX` (`br-a01.s1.t5`: file name, `snum` of the sentence,
//!   0-based token index in the sentence, punctuation included). File names
//!   are unique across the three parts, so the ids are unique in the corpus.
//!   `cmd=ignore` and other untagged words never get an id.
//! * `<punc>` becomes a token with no lemma, tag or POS.
//!
//! Attribute values may be quoted with `"` (three real lines have
//! `sep="-"`); both forms are read, and a bare value may be empty (one real
//! line has `rdf= pos=NN`). `'` is not a quote: bare values contain
//! it (`lemma=governor's_race`, `lemma=n't`). Anything malformed (an unknown element, a `wf` without
//! `>` or `</wf>`, an attribute without `=`, an unclosed quote, a `wf`
//! outside a sentence, `wnsn` and `lexsn` lists of different lengths) is an
//! [`Error::Parse`] naming the file and line.
//!
//! The split ([`Split`], [`split_files`]) is fixed for every command:
//! documents sorted by their path relative to the SemCor root; the document
//! at 0-based index `i` is test when `i % 5 == 4`, train otherwise.
//!
//! The module in three files: [`tagfile`] lexes and parses one tagfile into
//! a [`Document`]; `split.rs` finds the tagfiles and cuts the split;
//! `stats.rs` holds the counts; this file reads files into documents.

mod split;
mod stats;
pub mod tagfile;

use std::path::Path;

use rayon::prelude::*;

use super::Document;
use crate::{Error, Result};

pub use split::{semcor_files, split_files, Split};
pub use stats::{PartStats, SemcorStats};
pub use tagfile::parse_semcor;

/// Read the documents of a split of SemCor, in path order.
pub fn read_semcor(root: impl AsRef<Path>, split: Split) -> Result<Vec<Document>> {
    read_semcor_with_stats(root, split).map(|(docs, _)| docs)
}

/// Read the documents of a split of SemCor, in path order, with counts per
/// part. Files are read in parallel.
pub fn read_semcor_with_stats(
    root: impl AsRef<Path>,
    split: Split,
) -> Result<(Vec<Document>, SemcorStats)> {
    read_semcor_files_with_stats(&split_files(&semcor_files(root)?, split))
}

/// [`read_semcor_with_stats`] of the given tagfiles (in this order): the
/// first documents of a split, say ([`split_files`]).
pub fn read_semcor_files_with_stats(
    files: &[std::path::PathBuf],
) -> Result<(Vec<Document>, SemcorStats)> {
    let read: Vec<(Document, PartStats)> = files
        .par_iter()
        .map(read_semcor_file_with_stats)
        .collect::<Result<_>>()?;
    let mut stats = SemcorStats::default();
    let mut docs = Vec::with_capacity(read.len());
    for ((doc, s), path) in read.into_iter().zip(files) {
        stats
            .parts
            .entry(part_name(path).unwrap_or_default())
            .or_default()
            .add(&s);
        docs.push(doc);
    }
    Ok((docs, stats))
}

/// The counts of a split of SemCor, per part (reads the files; see
/// [`read_semcor_with_stats`] to keep the documents too).
pub fn semcor_stats(root: impl AsRef<Path>, split: Split) -> Result<SemcorStats> {
    read_semcor_with_stats(root, split).map(|(_, stats)| stats)
}

/// Read one tagfile. The document id is `PART/FILE` (`brown1/br-a01`) when
/// the file sits in `PART/tagfiles/`, else the file name.
pub fn read_semcor_file(path: impl AsRef<Path>) -> Result<Document> {
    read_semcor_file_with_stats(path).map(|(d, _)| d)
}

/// Read one tagfile and count what it holds (see [`read_semcor_file`]).
pub fn read_semcor_file_with_stats(path: impl AsRef<Path>) -> Result<(Document, PartStats)> {
    let path = path.as_ref();
    let bytes = crate::text::blocks::read_file_or_nul(path).map_err(|e| Error::io(path, e))?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Error::parse(
            path,
            1,
            "empty tagfile (no <contextfile>); restore it or remove it",
        ));
    }
    // Before the Latin-1 fallback, which would take any bytes for text.
    if crate::text::blocks::looks_like_utf16(&bytes) {
        return Err(Error::parse(path, 1, crate::error::UTF16_TEXT));
    }
    if let Some((line, msg)) = crate::text::blocks::nul_error(&bytes) {
        return Err(Error::parse(path, line, msg));
    }
    let text = match String::from_utf8(bytes) {
        Ok(s) => s,
        // Older SemCor releases are Latin-1.
        Err(e) => e.into_bytes().iter().map(|&b| b as char).collect(),
    };
    let file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let doc_id = match part_name(path) {
        Some(part) => format!("{part}/{file}"),
        None => file.clone(),
    };
    parse_semcor(&text, path, &doc_id, &file)
}

/// The part a tagfile belongs to: the folder above `tagfiles/`.
fn part_name(path: &Path) -> Option<String> {
    let dir = path.parent()?;
    if dir.file_name()? != "tagfiles" {
        return None;
    }
    Some(dir.parent()?.file_name()?.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wordnet::Pos;
    use std::collections::HashSet;
    use std::path::PathBuf;

    fn fixture(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name)
    }

    #[test]
    fn reads_fixture_tagfile() {
        let root = fixture("semcor");
        let path = root.join("brown1/tagfiles/br-z01");
        let (doc, st) = read_semcor_file_with_stats(&path).unwrap();
        assert_eq!(doc.id, "brown1/br-z01");
        assert_eq!(doc.sentences.len(), 2);
        let s = &doc.sentences[0];
        assert_eq!(s.id, "br-z01.s1");
        let texts: Vec<&str> = s.tokens.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "The",
                "Fulton_County_Grand_Jury",
                "said",
                "Friday",
                ",",
                "it",
                "took_place",
                "recently",
                "."
            ]
        );
        // cmd=ignore: no instance, but tag and POS.
        let the = &s.tokens[0];
        assert_eq!(the.instance, None);
        assert_eq!(the.tag.as_deref(), Some("DT"));
        assert_eq!(the.pos, None);
        assert!(the.gold.is_empty());
        // rdf/pn group.
        let jury = &s.tokens[1];
        assert_eq!(jury.lemma.as_deref(), Some("group"));
        assert_eq!(jury.gold, ["group%1:03:00::"]);
        assert_eq!(jury.instance.as_deref(), Some("br-z01.s1.t1"));
        assert_eq!(jury.pos, Some(Pos::Noun));
        // multiword verb.
        let took = &s.tokens[6];
        assert_eq!(took.lemma.as_deref(), Some("take_place"));
        assert_eq!(took.gold, ["take_place%2:30:00::"]);
        assert_eq!(took.pos, Some(Pos::Verb));
        // punctuation.
        assert_eq!(s.tokens[4].tag, None);
        assert_eq!(s.tokens[4].instance, None);
        // several senses, one of them wnsn=0 (dropped); quoted attribute.
        let recently = &s.tokens[7];
        assert_eq!(recently.gold, ["recently%4:02:00::"]);
        let s2 = &doc.sentences[1];
        // several senses kept.
        assert_eq!(s2.tokens[1].gold, ["jury%1:14:00::", "jury%1:14:01::"]);
        // wnsn=0: untagged.
        assert_eq!(s2.tokens[2].text, "accepted");
        assert!(s2.tokens[2].gold.is_empty());
        assert_eq!(s2.tokens[2].instance, None);
        // head marker removed, upper-case lemma lowered.
        assert_eq!(s2.tokens[3].gold, ["previous%5:00:00:preceding:00"]);
        assert_eq!(s2.tokens[4].gold, ["atlanta%1:15:00::"]);
        assert_eq!(
            st,
            PartStats {
                documents: 1,
                paragraphs: 2,
                sentences: 2,
                wf_tokens: 13,
                punctuation: 3,
                with_lexsn: 9,
                several_lexsn: 2,
                wnsn_zero: 1,
                zero_senses_dropped: 2,
                wnsn_without_lexsn: 0,
                instances: 8,
                several_gold: 1,
                gold_keys: 9,
                heads_normalised: 1,
            }
        );
        let targets = doc.targets();
        assert_eq!(targets.len(), 8);
        assert_eq!(targets[0].id, "br-z01.s1.t1");
    }

    /// Tags the reader drops are counted, and said in the summary clause.
    #[test]
    fn dropped_tags_are_counted_with_why() {
        let text = "<contextfile>\n<context filename=x>\n<p pnum=1>\n<s snum=1>\n\
            <wf cmd=done pos=NN lemma=jury wnsn=2>jury</wf>\n\
            <wf cmd=done pos=NN lemma=jury wnsn=0;1 lexsn=1:14:00::;1:14:01::>jury</wf>\n\
            <wf cmd=ignore pos=DT>the</wf>\n</s>\n</p>\n</context>\n</contextfile>\n";
        let (_, st) = parse_semcor(text, "x", "x", "x").unwrap();
        assert_eq!((st.wnsn_without_lexsn, st.zero_senses_dropped), (1, 1));
        assert_eq!(
            st.skipped_note(3).unwrap(),
            "5 SemCor tags skipped (1 with wnsn=0, senses lost in the 1.6→3.0 mapping; \
             1 with a wnsn but no lexsn (no sense key); 3 whose sense key this WordNet lacks)"
        );
        assert_eq!(PartStats::default().skipped_note(0), None);
    }

    #[test]
    fn files_split_and_read() {
        let root = fixture("semcor");
        let files = semcor_files(&root).unwrap();
        let rel: Vec<String> = files
            .iter()
            .map(|p| {
                p.strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(
            rel,
            [
                "brown1/tagfiles/br-z01",
                "brown1/tagfiles/br-z02",
                "brown2/tagfiles/br-z03",
                "brownv/tagfiles/br-z04",
                "brownv/tagfiles/br-z05",
                "brownv/tagfiles/br-z06"
            ]
        );
        let test = split_files(&files, Split::Test);
        assert_eq!(test, [files[4].clone()]);
        let mut reversed = files.clone();
        reversed.reverse();
        assert_eq!(split_files(&reversed, Split::Train).len(), 5);
        assert_eq!(split_files(&reversed, Split::Test), test);
        assert_eq!(split_files(&files, Split::All), files);

        let (docs, stats) = read_semcor_with_stats(&root, Split::All).unwrap();
        let ids: Vec<&str> = docs.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "brown1/br-z01",
                "brown1/br-z02",
                "brown2/br-z03",
                "brownv/br-z04",
                "brownv/br-z05",
                "brownv/br-z06"
            ]
        );
        assert_eq!(stats.parts.len(), 3);
        assert_eq!(stats.parts["brownv"].documents, 3);
        assert_eq!(stats.total().documents, 6);
        let test_docs = read_semcor(&root, Split::Test).unwrap();
        assert_eq!(test_docs.len(), 1);
        assert_eq!(test_docs[0].id, "brownv/br-z05");
        assert!(stats.to_string().contains("wf with lexsn"));
    }

    #[test]
    fn split_parses() {
        assert_eq!("train".parse::<Split>().unwrap(), Split::Train);
        assert_eq!("test".parse::<Split>().unwrap(), Split::Test);
        assert_eq!("all".parse::<Split>().unwrap(), Split::All);
        assert!("dev".parse::<Split>().is_err());
        assert_eq!(Split::Test.to_string(), "test");
        let picked: Vec<usize> = (0..12).filter(|&i| Split::Test.includes(i)).collect();
        assert_eq!(picked, [4, 9]);
    }

    #[test]
    fn missing_file_is_an_io_error() {
        let e = read_semcor_file(fixture("semcor/nope")).unwrap_err();
        assert!(matches!(e, Error::Io { .. }));
        let e = semcor_files(fixture("keyfile-missing-dir")).unwrap_err();
        assert!(matches!(e, Error::Io { .. }));
    }

    /// Reads the whole of SemCor 3.0 and prints the counts. Root from
    /// `WSD_SEMCOR` (default `corpora/semcor3.0`). Also checks
    /// every gold key against `index.sense` when `WSD_WORDNET` (default
    /// `wordnet/dict`) has one. Run with
    /// `cargo test --release --lib corpus -- --ignored --nocapture`.
    #[test]
    #[ignore = "needs the real data (all of SemCor 3.0, corpora/semcor3.0 or $WSD_SEMCOR), which unit tests do without: cargo test --release --lib real_semcor -- --ignored --nocapture"]
    fn real_semcor() {
        let root = std::env::var("WSD_SEMCOR").unwrap_or_else(|_| {
            concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/semcor3.0").to_string()
        });
        let t0 = std::time::Instant::now();
        let (docs, stats) = read_semcor_with_stats(&root, Split::All).unwrap();
        let elapsed = t0.elapsed();
        println!("read all of SemCor ({root}) in {elapsed:.2?}");
        println!("{stats}");
        let total = stats.total();
        assert_eq!(docs.len(), total.documents);
        let files = semcor_files(&root).unwrap();
        let train = split_files(&files, Split::Train).len();
        let test = split_files(&files, Split::Test).len();
        println!("split: train {train} documents, test {test} documents");
        assert_eq!(train + test, docs.len());

        let mut ids = HashSet::new();
        let mut instances = 0;
        for d in &docs {
            for t in d.targets() {
                instances += 1;
                assert!(ids.insert(t.id.clone()), "duplicate instance id {}", t.id);
            }
        }
        assert_eq!(instances, total.instances);
        println!("instance ids unique: {instances}");
        let names: HashSet<_> = files.iter().map(|p| p.file_name().unwrap()).collect();
        assert_eq!(names.len(), files.len(), "file names repeat across parts");

        let wn = std::env::var("WSD_WORDNET")
            .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/wordnet/dict").to_string());
        if let Ok(index) = std::fs::read_to_string(Path::new(&wn).join("index.sense")) {
            let known: HashSet<&str> = index
                .lines()
                .filter_map(|l| l.split_whitespace().next())
                .collect();
            let check = crate::corpus::check_gold_keys(&docs, |k| known.contains(k));
            println!(
                "gold keys WordNet lacks: {} of {} (e.g. {:?})",
                check.unknown, check.checked, check.examples
            );
        }
    }
}
