//! `wsd info`'s data check: what a damaged or foreign dictionary folder
//! would make wsd answer wrongly in silence. Each problem names the file
//! and line: index and exception files out of sort order (binary search
//! breaks on them), an empty `index.sense`, pointers to synsets that do not
//! exist, hypernym cycles, and synset counts other than WordNet 3.0's.

use std::path::{Path, PathBuf};

use super::{Inventory, Pos};
use crate::error::excerpt;

/// One thing wrong with the dictionary.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Problem {
    /// The file.
    pub path: PathBuf,
    /// 1-based line (0: the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub msg: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.path.display(), self.msg)
        } else {
            write!(f, "{}:{}: {}", self.path.display(), self.line, self.msg)
        }
    }
}

/// Synsets per category in Princeton WordNet 3.0 (adjectives with satellites).
pub const WORDNET_30_SYNSETS: [(Pos, usize); 4] = [
    (Pos::Noun, 82115),
    (Pos::Verb, 13767),
    (Pos::Adj, 18156),
    (Pos::Adv, 3621),
];

/// Most problems reported per kind (a shuffled file is one problem, not
/// a hundred thousand).
const MAX_PER_KIND: usize = 10;

/// The first line of `bytes` (a sorted WordNet file) whose key sorts
/// before the previous line's, as (line, key, previous key). Licence lines
/// (starting with two spaces) are skipped.
pub fn first_unsorted(bytes: &[u8]) -> Option<(usize, String, String)> {
    let mut prev: Option<&[u8]> = None;
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if line.starts_with(b"  ") || line.is_empty() {
            continue;
        }
        let key = line.split(|&b| b == b' ').next().unwrap_or(line);
        if let Some(p) = prev {
            if key < p {
                return Some((
                    i + 1,
                    String::from_utf8_lossy(key).into_owned(),
                    String::from_utf8_lossy(p).into_owned(),
                ));
            }
        }
        prev = Some(key);
    }
    None
}

/// Check the files of `dir` and the loaded inventory.
pub fn check(dir: &Path, inv: &Inventory) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut files: Vec<String> = Pos::ALL
        .iter()
        .flat_map(|p| {
            [
                format!("index.{}", p.file_suffix()),
                format!("{}.exc", p.file_suffix()),
            ]
        })
        .collect();
    files.push("index.sense".into());
    for name in &files {
        let path = dir.join(name);
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        if bytes.is_empty() && (name.starts_with("index.")) {
            out.push(Problem {
                path,
                line: 0,
                msg: "empty file (0 bytes); every lookup in it would come up empty".into(),
            });
            continue;
        }
        if let Some((line, key, prev)) = first_unsorted(&bytes) {
            out.push(Problem {
                path,
                line,
                msg: format!(
                    "not sorted: {:?} after {:?} (binary-search lookups would miss entries)",
                    excerpt(&key),
                    excerpt(&prev)
                ),
            });
        }
    }
    // Line numbers of the synset records, for the messages.
    let line_of = |pos: Pos, offset: u32| -> usize {
        let path = dir.join(format!("data.{}", pos.file_suffix()));
        std::fs::read(path)
            .map(|b| super::dict::line_of(&b, offset as usize))
            .unwrap_or(0)
    };
    let data = |pos: Pos| dir.join(format!("data.{}", pos.file_suffix()));
    let mut dangling = 0;
    for s in inv.synsets() {
        for p in &s.pointers {
            if inv.get(p.target).is_none() {
                dangling += 1;
                if dangling <= MAX_PER_KIND {
                    out.push(Problem {
                        path: data(s.id.pos),
                        line: line_of(s.id.pos, s.id.offset),
                        msg: format!(
                            "synset {:08}: pointer {} to {:08}-{}, which does not exist",
                            s.id.offset,
                            p.kind.symbol(),
                            p.target.offset,
                            p.target.pos.letter()
                        ),
                    });
                }
            }
        }
    }
    if dangling > MAX_PER_KIND {
        out.push(Problem {
            path: dir.to_path_buf(),
            line: 0,
            msg: format!("{dangling} dangling pointers in all"),
        });
    }
    // Hypernym cycles: iterative depth-first search, three colours.
    let n = inv.len();
    let mut colour = vec![0u8; n]; // 0 new, 1 on the stack, 2 done
    let mut cycles = 0;
    for root in 0..n {
        if colour[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        colour[root] = 1;
        while let Some(&mut (i, ref mut next)) = stack.last_mut() {
            let syn = &inv.synsets()[i];
            if let Some(j) = inv.parent_positions(i).nth(*next) {
                *next += 1;
                match colour[j] {
                    0 => {
                        colour[j] = 1;
                        stack.push((j, 0));
                    }
                    1 => {
                        cycles += 1;
                        if cycles <= MAX_PER_KIND {
                            let t = &inv.synsets()[j];
                            out.push(Problem {
                                path: data(syn.id.pos),
                                line: line_of(syn.id.pos, syn.id.offset),
                                msg: format!(
                                    "hypernym cycle: {:08}-{} leads back to {:08}-{}",
                                    syn.id.offset,
                                    syn.id.pos.letter(),
                                    t.id.offset,
                                    t.id.pos.letter()
                                ),
                            });
                        }
                    }
                    _ => {}
                }
            } else {
                colour[i] = 2;
                stack.pop();
            }
        }
    }
    for (pos, want) in WORDNET_30_SYNSETS {
        let got = inv.synsets().iter().filter(|s| s.id.pos == pos).count();
        if got != want {
            out.push(Problem {
                path: data(pos),
                line: 0,
                msg: format!(
                    "{got} synsets; WordNet 3.0 has {want} (truncated, or another version)"
                ),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsorted_lines_are_found_with_their_line() {
        assert_eq!(first_unsorted(b"  licence\na 1\nb 2\nb 3\nc\n"), None);
        let (line, key, prev) = first_unsorted(b"  licence\na 1\nc 2\nb 3\n").unwrap();
        assert_eq!((line, key.as_str(), prev.as_str()), (4, "b", "c"));
    }
}
