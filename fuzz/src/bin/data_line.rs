//! `data.{noun,verb,adj,adv}` lines, as the inventory and the lookups parse them.
use std::path::Path;
use wsd::wordnet::record::parse_data_line;
use wsd::wordnet::Pos;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Ok(s) = std::str::from_utf8(data) {
            for pos in Pos::ALL {
                let _ = parse_data_line(s, pos, Path::new("data.x"), 1);
            }
        }
    });
}
