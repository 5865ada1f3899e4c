//! Key files (gold and system answers).
use wsd::corpus::parse_keys;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Ok(s) = std::str::from_utf8(data) {
            let _ = parse_keys(s, "x.key");
        }
    });
}
