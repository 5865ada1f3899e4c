//! `index.sense` lines.
use std::path::Path;
use wsd::wordnet::record::parse_sense_index_line;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Ok(s) = std::str::from_utf8(data) {
            for line in s.lines() {
                let _ = parse_sense_index_line(line, Path::new("index.sense"), 1);
            }
        }
    });
}
