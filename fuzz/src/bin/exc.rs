//! Exception lists (`noun.exc`): the input replaces the mini WordNet's
//! `noun.exc`, then both readers run on it — the bulk inventory load and
//! the binary-search lookup behind morphy.
use wsd::wordnet::morphy::morphy;
use wsd::wordnet::{Inventory, Lookup, Pos};
use wsd_fuzz::{mini_dict, scratch};

fn main() {
    let dir = scratch().join("dict");
    std::fs::create_dir_all(&dir).unwrap();
    for e in std::fs::read_dir(mini_dict()).unwrap() {
        let e = e.unwrap();
        if e.file_name() != "noun.exc" {
            std::fs::copy(e.path(), dir.join(e.file_name())).unwrap();
        }
    }
    afl::fuzz!(|data: &[u8]| {
        std::fs::write(dir.join("noun.exc"), data).unwrap();
        if let Ok(inv) = Inventory::load(&dir) {
            let _ = inv.morphy("geese", Pos::Noun);
        }
        if let Ok(lookup) = Lookup::open(Some(&dir)) {
            for w in ["geese", "mice", "a", "zz", "dogs"] {
                let _ = morphy(&lookup, w, Pos::Noun);
            }
            if let Some(w) = data.split(|&b| b == b' ').next() {
                if let Ok(w) = std::str::from_utf8(w) {
                    let _ = morphy(&lookup, w, Pos::Noun);
                }
            }
        }
    });
}
