//! Information-content tables (`wsd ic`, `--ic FILE`), read against the
//! mini WordNet.
use wsd::wordnet::similarity::Ic;
use wsd::wordnet::Pos;
use wsd_fuzz::{mini_inventory, scratch_file};

fn main() {
    let inv = mini_inventory();
    afl::fuzz!(|data: &[u8]| {
        let p = scratch_file("ic.txt", data);
        if let Ok(ic) = Ic::read(inv, &p) {
            for pos in Pos::ALL {
                assert!(ic.total(pos) > 0.0 && ic.total(pos).is_finite());
            }
        }
    });
}
