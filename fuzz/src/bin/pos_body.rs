//! POS tagger model bodies. A body is sealed with its own checksum (8
//! bytes of sha256 at the end), which nearly every mutation breaks; so the
//! seeds are unsealed bodies and the target seals each input before
//! decoding it (reaching the decoder behind the check), and also decodes
//! the input as it is (reaching the check).
use wsd::model_io::seal;
use wsd::pos::PosTagger;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let _ = PosTagger::from_bytes(data);
        if let Ok(t) = PosTagger::from_bytes(&seal(data.to_vec())) {
            let _ = t.tag(&["The", "bank", "rose", "."]);
        }
    });
}
