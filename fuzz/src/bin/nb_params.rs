//! `wsd train --nb-params JSON`.
use wsd::disambig::naive_bayes::NbParams;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Ok(s) = std::str::from_utf8(data) {
            if let Ok(p) = NbParams::from_json(s) {
                assert!(p.alpha > 0.0 && p.alpha.is_finite());
            }
        }
    });
}
