//! Key files: the evaluation framework's answer format.
//!
//! One instance per line, `id key [key…]`, fields separated by white space:
//!
//! ```text
//! d000.s000.t000 refer%2:32:01::
//! d000.s000.t001 research%1:04:00:: research%1:09:00::
//! ```
//!
//! Gold files list every sense an annotator accepted; system files list the
//! senses a method proposes (the scorer gives fractional credit when it
//! proposes several). [`KeyFile`] keeps the lines in file order; ids are
//! unique. Blank lines are skipped; a line with an id but no key, and an id
//! seen twice, are errors naming the file and line, because silently
//! dropping or merging them would change every score computed from the file.

use std::collections::HashMap;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use crate::corpus::Document;
use crate::{Error, Result};

/// An ordered map from instance id to sense keys (file order is kept).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyFile {
    entries: Vec<(String, Vec<String>)>,
    index: HashMap<String, usize>,
}

impl KeyFile {
    /// An empty key file.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of instances.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there is no instance.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The keys of an instance.
    pub fn get(&self, id: &str) -> Option<&[String]> {
        self.index.get(id).map(|&i| self.entries[i].1.as_slice())
    }

    /// True when the instance is present.
    pub fn contains(&self, id: &str) -> bool {
        self.index.contains_key(id)
    }

    /// Set the keys of an instance. A new id is appended at the end; an id
    /// already present keeps its position, and its previous keys are returned.
    pub fn insert(&mut self, id: impl Into<String>, keys: Vec<String>) -> Option<Vec<String>> {
        let id = id.into();
        if let Some(&i) = self.index.get(&id) {
            return Some(std::mem::replace(&mut self.entries[i].1, keys));
        }
        self.index.insert(id.clone(), self.entries.len());
        self.entries.push((id, keys));
        None
    }

    /// The instances in order, with their keys.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[String])> + '_ {
        self.entries
            .iter()
            .map(|(id, keys)| (id.as_str(), keys.as_slice()))
    }

    /// The instance ids in order.
    pub fn ids(&self) -> impl Iterator<Item = &str> + '_ {
        self.entries.iter().map(|(id, _)| id.as_str())
    }

    /// The gold keys of documents: every token that has an instance id and
    /// at least one gold key, in reading order. This is how a SemCor split,
    /// or an XML data set after [`attach_gold`](crate::corpus::raganato::attach_gold),
    /// becomes a gold key file for the scorer. A later duplicate id replaces
    /// an earlier one.
    pub fn from_documents(docs: &[Document]) -> Self {
        let mut out = KeyFile::new();
        for d in docs {
            for s in &d.sentences {
                for t in &s.tokens {
                    if let Some(id) = &t.instance {
                        if !t.gold.is_empty() {
                            out.insert(id.clone(), t.gold.clone());
                        }
                    }
                }
            }
        }
        out
    }
}

impl<S: Into<String>> FromIterator<(S, Vec<String>)> for KeyFile {
    fn from_iter<I: IntoIterator<Item = (S, Vec<String>)>>(iter: I) -> Self {
        let mut out = KeyFile::new();
        for (id, keys) in iter {
            out.insert(id, keys);
        }
        out
    }
}

impl<'a> IntoIterator for &'a KeyFile {
    type Item = (&'a str, &'a [String]);
    type IntoIter = Box<dyn Iterator<Item = (&'a str, &'a [String])> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

/// Read a key file (see the [module docs](self) for the format and errors).
pub fn read_key_file(path: impl AsRef<Path>) -> Result<KeyFile> {
    let path = path.as_ref();
    let bytes = crate::text::blocks::read_file_or_nul(path).map_err(|e| Error::io(path, e))?;
    parse_key_bytes(bytes, path)
}

/// Key-file bytes (a file's, or standard input's) checked as
/// [`read_key_file`] checks a file: UTF-8 (a byte-order mark skipped,
/// UTF-16 and NUL bytes named), then [`parse_keys`]; `path` names the source in errors.
pub fn parse_key_bytes(bytes: Vec<u8>, path: &Path) -> Result<KeyFile> {
    let text = super::utf8_text(bytes, path)?;
    parse_keys(&text, path)
}

/// Read a gold key file: [`read_key_file`], and an error when it holds no
/// instance. A system key file may be empty (a system that answered
/// nothing), but an empty gold file scores every method 0.0 with exit 0,
/// which reads like a result; it is a wrong or truncated file.
pub fn read_gold_key_file(path: impl AsRef<Path>) -> Result<KeyFile> {
    let path = path.as_ref();
    let keys = read_key_file(path)?;
    if keys.is_empty() {
        return Err(Error::parse(
            path,
            1,
            "no instances: a gold key file has one `id key [key…]` line per instance",
        ));
    }
    Ok(keys)
}

/// An id that is the start of an XML tag of the framework's data files
/// (the data .xml given where a key file goes).
fn looks_like_xml(id: &str) -> bool {
    [
        "<?xml",
        "<corpus",
        "<text",
        "<sentence",
        "<wf",
        "<instance",
        "</",
    ]
    .iter()
    .any(|t| id.starts_with(t))
}

/// Parse key-file text; `origin` names the source in error messages.
pub fn parse_keys(text: &str, origin: impl AsRef<Path>) -> Result<KeyFile> {
    let origin = origin.as_ref();
    let mut out = KeyFile::new();
    let mut first_line: HashMap<String, usize> = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let lineno = i + 1;
        let mut fields = line.split_whitespace();
        let Some(id) = fields.next() else { continue };
        let keys: Vec<String> = fields.map(str::to_owned).collect();
        if looks_like_xml(id) {
            return Err(Error::parse(
                origin,
                lineno,
                format!(
                    "looks like XML ({:?}), not a key file of `id key [key…]` lines: is this the data .xml given as the key file?",
                    crate::error::excerpt(line.trim())
                ),
            ));
        }
        if let Some(bad) = std::iter::once(id)
            .chain(keys.iter().map(String::as_str))
            .find(|f| f.chars().any(char::is_control))
        {
            return Err(Error::parse(
                origin,
                lineno,
                format!(
                    "malformed field {:?}: control character (NUL?) in an id or key",
                    crate::error::excerpt(bad)
                ),
            ));
        }
        if keys.is_empty() {
            return Err(Error::parse(
                origin,
                lineno,
                format!(
                    "instance {:?} has no sense key (expected `id key [key…]`)",
                    crate::error::excerpt(id)
                ),
            ));
        }
        if let Some(prev) = first_line.get(id) {
            return Err(Error::parse(
                origin,
                lineno,
                format!("duplicate instance id {id:?} (first seen on line {prev})"),
            ));
        }
        first_line.insert(id.to_owned(), lineno);
        out.insert(id, keys);
    }
    Ok(out)
}

/// Write entries as key-file lines to `writer`.
///
/// Entries with no key are skipped (an unanswered instance has no line; the
/// reader would reject `id` alone). Ids and keys containing white space, and
/// empty ids or keys, are refused with [`io::ErrorKind::InvalidInput`]
/// because they could not be read back.
pub fn write_keys<W, I, S, K, T>(writer: W, entries: I) -> io::Result<()>
where
    W: Write,
    I: IntoIterator<Item = (S, K)>,
    S: AsRef<str>,
    K: IntoIterator<Item = T>,
    T: AsRef<str>,
{
    let mut w = BufWriter::new(writer);
    let mut line = String::new();
    for (id, keys) in entries {
        let id = id.as_ref();
        check_field(id, "instance id")?;
        line.clear();
        line.push_str(id);
        let mut n = 0;
        for k in keys {
            let k = k.as_ref();
            check_field(k, "sense key")?;
            line.push(' ');
            line.push_str(k);
            n += 1;
        }
        if n > 0 {
            line.push('\n');
            w.write_all(line.as_bytes())?;
        }
    }
    w.flush()
}

fn check_field(s: &str, what: &str) -> io::Result<()> {
    if s.is_empty() || s.chars().any(char::is_whitespace) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{what} {s:?} is empty or contains white space"),
        ));
    }
    Ok(())
}

/// Write a key file atomically: the lines go to a temporary file in the same
/// directory, which is then renamed over `path`, so readers never see a
/// half-written file. See [`write_keys`] for what is written.
pub fn write_key_file<I, S, K, T>(path: impl AsRef<Path>, entries: I) -> Result<()>
where
    I: IntoIterator<Item = (S, K)>,
    S: AsRef<str>,
    K: IntoIterator<Item = T>,
    T: AsRef<str>,
{
    crate::atomic::write_atomically(path.as_ref(), |w| write_keys(w, entries))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name)
    }

    #[test]
    fn reads_fixture_in_order() {
        let k = read_key_file(fixture("tiny.gold.key.txt")).unwrap();
        assert_eq!(k.len(), 4);
        let ids: Vec<&str> = k.ids().collect();
        assert_eq!(
            ids,
            [
                "d000.s000.t000",
                "d000.s000.t001",
                "d000.s001.t000",
                "d001.s000.t000"
            ]
        );
        assert_eq!(
            k.get("d000.s000.t001").unwrap(),
            ["bank%1:17:01::", "bank%1:17:00::"]
        );
        assert!(k.get("nope").is_none());
    }

    #[test]
    fn xml_given_as_a_key_file_is_named_as_such() {
        let xml = "<?xml version=\"1.0\"?>\n<corpus lang=\"en\">\n";
        match parse_keys(xml, "data.xml") {
            Err(Error::Parse { line, msg, .. }) => {
                assert_eq!(line, 1);
                assert!(msg.contains("looks like XML"), "{msg}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn blank_lines_are_skipped() {
        let k = parse_keys("\n a k1\n\n   \nb k2 k3\n", "mem").unwrap();
        assert_eq!(k.len(), 2);
        assert_eq!(k.get("a").unwrap(), ["k1"]);
    }

    #[test]
    fn id_without_key_is_an_error_with_line() {
        let e = parse_keys("a k1\n\nb\n", "x.key").unwrap_err();
        match &e {
            Error::Parse { line, path, .. } => {
                assert_eq!(*line, 3);
                assert_eq!(path, Path::new("x.key"));
            }
            other => panic!("unexpected {other:?}"),
        }
        assert!(e.to_string().starts_with("x.key:3:"), "{e}");
    }

    #[test]
    fn duplicate_id_is_an_error_with_line() {
        let e = parse_keys("a k1\nb k2\na k3\n", "x.key").unwrap_err();
        assert!(matches!(e, Error::Parse { line: 3, .. }), "{e}");
        assert!(e.to_string().contains("line 1"), "{e}");
    }

    #[test]
    fn write_then_read_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.key");
        let k: KeyFile = vec![
            ("i1", vec!["a%1:00:00::".to_string()]),
            (
                "i0",
                vec!["b%2:00:00::".to_string(), "c%1:00:00::".to_string()],
            ),
            ("skipped", vec![]),
        ]
        .into_iter()
        .collect();
        write_key_file(&path, &k).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, "i1 a%1:00:00::\ni0 b%2:00:00:: c%1:00:00::\n");
        let back = read_key_file(&path).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back.get("i0"), k.get("i0"));
        // Overwriting works and leaves no temporary file behind.
        write_key_file(&path, [("z", ["k"])]).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "z k\n");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn writer_refuses_white_space() {
        let mut buf = Vec::new();
        let e = write_keys(&mut buf, [("a b", ["k"])]).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
    }

    #[test]
    fn insert_keeps_position() {
        let mut k = KeyFile::new();
        assert!(k.insert("a", vec!["1".into()]).is_none());
        k.insert("b", vec!["2".into()]);
        assert_eq!(k.insert("a", vec!["3".into()]), Some(vec!["1".to_string()]));
        assert_eq!(k.ids().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(k.get("a").unwrap(), ["3"]);
    }
}

#[cfg(test)]
mod prop_tests {
    use super::*;
    use proptest::prelude::*;

    /// An id or key: printable characters, ASCII and a few others (the
    /// reader refuses control characters and splits at any white space,
    /// and takes an id that starts like an XML tag for a data file given
    /// by mistake: no field starts with `<`).
    fn field() -> impl Strategy<Value = String> {
        "[!-;=-~éß中][!-~éß中]{0,15}"
    }

    /// Entries with repeated ids and unanswered instances among them.
    fn entries() -> impl Strategy<Value = Vec<(String, Vec<String>)>> {
        prop::collection::vec(
            (
                prop_oneof![field(), "[a-c]"],
                prop::collection::vec(field(), 0..4),
            ),
            0..24,
        )
    }

    /// What a reader must get back: the instances that have a key.
    fn answered(k: &KeyFile) -> KeyFile {
        k.iter()
            .filter(|(_, keys)| !keys.is_empty())
            .map(|(id, keys)| (id, keys.to_vec()))
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        #[test]
        fn write_then_parse_round_trips(entries in entries()) {
            let k: KeyFile = entries.into_iter().collect();
            let mut buf = Vec::new();
            write_keys(&mut buf, &k).unwrap();
            let text = String::from_utf8(buf).unwrap();
            let back = parse_keys(&text, "mem").unwrap();
            let want = answered(&k);
            prop_assert_eq!(text.lines().count(), want.len());
            prop_assert_eq!(back, want);
        }

        #[test]
        fn ids_or_keys_with_white_space_are_refused(
            a in field(),
            b in field(),
            ws in prop::sample::select(vec![" ", "\t", "\n", "\r", "\u{a0}", "\u{2028}"]),
            in_key in any::<bool>(),
        ) {
            let spaced = format!("{a}{ws}{b}");
            let mut buf = Vec::new();
            let r = if in_key {
                write_keys(&mut buf, [(a.as_str(), [spaced.as_str()])])
            } else {
                write_keys(&mut buf, [(spaced.as_str(), [b.as_str()])])
            };
            prop_assert_eq!(r.unwrap_err().kind(), io::ErrorKind::InvalidInput);
        }

        #[test]
        fn a_repeated_id_is_refused_on_its_second_line(
            entries in prop::collection::vec((field(), field()), 1..12),
            pick in any::<prop::sample::Index>(),
        ) {
            let k: KeyFile = entries.into_iter().map(|(id, key)| (id, vec![key])).collect();
            let mut buf = Vec::new();
            write_keys(&mut buf, &k).unwrap();
            let dup = k.ids().nth(pick.index(k.len())).unwrap().to_string();
            buf.extend_from_slice(format!("{dup} again\n").as_bytes());
            let text = String::from_utf8(buf).unwrap();
            let e = parse_keys(&text, "mem").unwrap_err();
            let is_dup_at_end = matches!(e, Error::Parse { line, .. } if line == k.len() + 1);
            prop_assert!(is_dup_at_end, "{}", e);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn key_files_round_trip_through_the_file_system(entries in entries()) {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("answers.key");
            let k: KeyFile = entries.into_iter().collect();
            write_key_file(&path, &k).unwrap();
            prop_assert_eq!(read_key_file(&path).unwrap(), answered(&k));
        }
    }
}
